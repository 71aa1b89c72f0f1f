"""The answer for people: "Interpreted as", a first sentence with the figure, a short table of records, provenance.

Every figure and record ID comes from the evidence (tool results); a model's narrative is added only when it is
grounded (`grounded`) and the model passed its quality check.
"""

from __future__ import annotations

import re
from datetime import date
from typing import Any

from .planner import EVENT_TYPES_BESIDE
from .tools.specs import DATE_FIELDS, LABEL, SPECS
from .understand import vocab
from .understand.dates import readable
from .understand.record_fields import REVIEW_DAYS
from .understand.types import Clarification, Interpretation, LastResult
from .writing import COLUMNS, as_of_text, code_text, day, decision, field_label, noun, plural, scope, table

__all__ = [
    "write_answer",
    "interpreted_line",
    "not_understood",
    "clarify_text",
    "citations",
    "grounded",
    "facts_of",
    "counts_of",
    "summary",
    "last_result",
    "TOP_ROWS",
]

TOP_ROWS = 5


def interpreted_line(it: Interpretation) -> str:
    """'Interpreted as: <datasets>; device ...; firm ...; place ...; dates ...; filters ...' and the words not used."""
    bits = [" and ".join(LABEL.get(d, d) for d in it.datasets) or "no dataset"]
    if it.share and len(it.sides) == 2:
        bits.append(f"share: {it.sides[0].label}, out of {it.sides[1].label}")
    elif it.measure == "compare" and it.sides:
        bits.append("compared: " + " vs ".join(s.label for s in it.sides))
    if it.device:
        bits.append(("device " if it.device.path != "given" else "") + code_text(it.device, limit=4))
    if it.firm and it.exclude_firm:
        bits.append(f"firms other than {it.firm.name}")
    elif it.firm:
        bits.append(
            "firm "
            + (it.firm.name if it.firm.match != "those" else f"the firms of the previous answer ({it.firm.name})")
        )
    if it.place:
        bits.append(f"place {it.place.name}")
    if it.date_from or it.date_to:
        of = (
            f" ({it.date_field})"
            if it.date_field and it.date_field in DATE_FIELDS.get(it.datasets[0] if it.datasets else "", {})
            else ""
        )
        bits.append(f"dates {readable(it.date_from, it.date_to)}{of}")
    if it.text and "event" in it.datasets:
        bits.append(f'narratives holding "{it.text}"')
    bits += [f.label for f in it.filters if f.field not in ("supplement_number",)]
    if "pma" in it.datasets and it.supplements != "all":
        bits.append("original approvals only" if it.supplements == "originals" else "supplements")
    if it.measure == "trend":
        bits.append(f"per {it.by}")
    elif it.measure == "top" and it.by:
        bits.append(f"top {field_label(it.by)}")
    elif it.measure == "lookup" and it.field == "latest" and it.date_field and not (it.date_from or it.date_to):
        bits.append(f"field most recent date ({it.date_field})")
    elif it.measure == "lookup" and it.field:
        bits.append(f"field {_ONE.get(it.field, field_label(it.field))}")
    line = "Interpreted as: " + "; ".join(bits).rstrip(".") + "."
    if it.unexplained:
        line += " Words not used: " + ", ".join(f'"{w}"' for w in it.unexplained) + "."
    return line


def not_understood(it: Interpretation) -> str:
    if it.cannot:
        return it.cannot  # the reading of the rest may be off: no "Interpreted as" line that would mislead
    words = ", ".join(f'"{w}"' for w in it.unexplained[:8])
    why = " ".join(n.rstrip(".") + "." for n in it.notes) if it.notes else ""
    head = f"I did not understand {words} in your question" if words else "I did not understand your question"
    return (
        (
            f"{head}, so I have not searched: a search without it would answer about a whole dataset. {why} "
            'Name a device ("insulin pump"), a firm as the data spells it ("Medtronic"), a product code (DXY), '
            "a record number (K200606, P150012, Z-0053-2020) or a dataset (adverse events, recalls, 510(k), PMA, "
            "classification, UDI, registrations), in English."
        )
        .replace("  ", " ")
        .strip()
    )


def clarify_text(clar: Clarification) -> str:
    lines = [f"Before I answer: {clar.question}"]
    lines += [f"  {i}. {c.label}" for i, c in enumerate(clar.choices, 1)]
    lines.append("Reply with the number of your choice (or ask again in other words).")
    return "\n".join(lines)


# a field's name for one record ("its state", not "its states")
_ONE = {"state": "state", "country": "country", "product_code": "product code", "manufacturer": "manufacturer"}


def _main_sentence(it: Interpretation, e: dict, call: dict, extra: list[dict]) -> str:
    ds, total = call.get("dataset", ""), e["total"]
    args = call.get("args", {})
    when = as_of_text(e)
    if e["tool"] == "count_by":
        field = args.get("field", "")
        rows = e.get("rows", [])
        named = [r for r in rows if str(r.get(field) or "").strip()]
        buckets = "; ".join(f"{_bucket(field, r.get(field))}: {r['count']:,}" for r in named[:12])
        if len(named) < len(rows):
            n = sum(r["count"] for r in rows if r not in named)
            buckets += f"; {n:,} with none given"
        what = noun(ds, 2, it)
        if it.distinct and field == "manufacturer":
            n = len(named)
            more = "At least " if e.get("truncated") else ""
            unnamed = total - sum(r["count"] for r in named) if not e.get("truncated") else 0
            if unnamed > 0:
                buckets += f"; {unnamed:,} name no firm"
            return (
                f"{more}{n:,} {plural(n, 'firm')} (by the firm's name as the records spell it){scope(it, call)} "
                f"{'holds' if n == 1 else 'hold'} the {total:,} "
                f"matching {noun(ds, total, it)}: {buckets or 'none'} ({when})."
            )
        if field in ("year", "quarter", "month", "day"):
            return (
                f"{what[0].upper()}{what[1:]}{scope(it, call)} per {field}: {buckets or 'none'} "
                f"({total:,} matching {plural(total, 'record')} in all; {when})."
            )
        merged = _firm_families(named, field) if field in _FIRM_FIELDS and it.firm is None and not it.sides else []
        if merged:
            buckets = "; ".join(merged[:12])
            if len(named) < len(rows):
                buckets += f"; {sum(r['count'] for r in rows if r not in named):,} with none given"
            return (
                f"{field_label(field).capitalize()} with the most {what}{scope(it, call)}, the spellings of one "
                f"firm's name counted together: {buckets} ({total:,} matching {plural(total, 'record')} in all; "
                f"{when})."
            )
        return (
            f"{field_label(field).capitalize()} with the most {what}{scope(it, call)}: "
            f"{buckets or 'none'} ({total:,} matching {plural(total, 'record')} in all; {when})."
        )
    if it.measure == "lookup" and it.field == "latest" and e.get("rows"):
        return _latest_sentence(it, e, call)
    if it.measure == "lookup" and it.field and e.get("rows"):
        return _lookup_sentence(it, e, call)
    if it.measure == "lookup" and it.field and it.field != "latest" and not total:
        label = field_label(it.field)
        if ds == "registrationlisting" and it.firm is not None and not it.device and not it.filters:
            return (
                f"The registration and listing records in this mirror hold no establishment for {it.firm.name} "
                f"({when}), so I cannot give its {_ONE.get(it.field, label)} from them."
            )  # a firm's field looked up where it has no record: said plainly, never a ranking of none
        return (
            f"No {noun(ds, 2, it)}{scope(it, call)} are in the mirror, so I cannot give the {label} here "
            f"({when})."
        )  # a lookup that found no record states no figure
    head = f"{total:,} {noun(ds, total, it)}{scope(it, call)} ({when})."
    if "enforcement" in e.get("related", {}):
        n = e["related"]["enforcement"]
        head += f" {n:,} {plural(n, 'enforcement report')} {'matches' if n == 1 else 'match'} the same filters."
    for x in extra:
        if x["call"].get("label", "").startswith("supplements"):
            n = x["e"]["total"]
            head += (
                f" Only original PMA approvals are counted: {n:,} {plural(n, 'PMA supplement')} with the "
                f"same filters {'is' if n == 1 else 'are'} not (ask for PMA supplements to see them)."
            )
    return head


_FIRM_FIELDS = {"manufacturer", "applicant", "recalling_firm", "firm"}
# words that lead many firms' names without making them one firm ("General", "American")
_NO_FAMILY = {"general", "american", "international", "national", "united", "advanced", "medical", "the", "global"}


def _family(name: str) -> str:
    words = re.findall(r"[a-z0-9]+", name.lower())
    return words[0] if words and len(words[0]) >= 4 and words[0] not in _NO_FAMILY else ""


def _firm_families(rows: list[dict], field: str) -> list[str]:
    """A ranking of firms with the spellings of one firm's name counted together ("Medtronic, Inc." and "MEDTRONIC
    NEUROMODULATION" are Medtronic; "BOSTONSCIENTIFIC" is "BOSTON SCIENTIFIC CORPORATION"), each merged one naming
    its spellings; [] when no two rows are one firm."""
    names = [str(r.get(field) or "") for r in rows]
    keys = []
    for name in names:
        words = re.findall(r"[a-z0-9]+", name.lower())
        key = _family(name) or name.lower()
        if len(words) == 1 and len(words[0]) > 8:  # a name run together: the firm whose first words spell it
            for other in names:
                ow = re.findall(r"[a-z0-9]+", other.lower())
                if len(ow) > 1 and words[0].startswith(ow[0] + ow[1]):
                    key = _family(other) or key
                    break
        keys.append(key)
    if len(set(keys)) == len(keys):
        return []
    groups: dict[str, list[int]] = {}
    for k, key in enumerate(keys):
        groups.setdefault(key, []).append(k)
    out = []
    for g in sorted(groups.values(), key=lambda g: (-sum(rows[k]["count"] for k in g), g[0])):
        n = sum(rows[k]["count"] for k in g)
        if len(g) == 1:
            out.append(f"{names[g[0]]}: {n:,}")
        else:
            head = re.findall(r"[A-Za-z0-9]+", names[g[-1]] if " " not in names[g[0]] else names[g[0]])[0].title()
            parts = "; ".join(f"{names[k]}: {rows[k]['count']:,}" for k in g)
            out.append(f"{head} ({parts}): {n:,}")
    return out


def _bucket(field: str, value: Any) -> str:
    """A breakdown's key as a person reads it: a state or country by its name ("California (CA)")."""
    from mirror.lookup.places import COUNTRIES, US_STATES

    text = str(value)
    if field == "review_panel" and text.upper() in vocab.PANEL_NAMES:
        return f"{vocab.PANEL_NAMES[text.upper()]} ({text.upper()})"  # "ch" is Clinical Chemistry (CH)
    names = {"state": US_STATES, "country": COUNTRIES}.get(field, {})
    name = names.get(text.upper())
    name = name[1] if isinstance(name, tuple) else name  # countries: (ISO3, name)
    return f"{name} ({text})" if name and name != text else text


def _latest_sentence(it: Interpretation, e: dict, call: dict) -> str:
    """ "When was the most recent report received?": the newest record's date (records come newest first)."""
    ds = call.get("dataset") or (it.datasets[0] if it.datasets else "")
    spec = SPECS.get(ds)
    path = (spec.dates or {}).get(it.date_field, spec.date) if spec else ""  # the date asked about ("terminated")
    key = next((k for k, p in spec.row.items() if p == path), "") if spec else ""
    kind = next((k for k, f in DATE_FIELDS.get(ds, {}).items() if spec and f == path), "dated")
    dated = [r for r in e["rows"] if key and r.get(key)]
    if not dated:
        return f"The {noun(ds, 2, it)} found carry no date ({as_of_text(e)})."
    newest = max(str(r[key]) for r in dated)
    same = [r for r in dated if str(r[key]) == newest]
    ids = ", ".join(str(r[f]) for r in same[:5] for f in e.get("id_fields", [])[:1] if r.get(f))
    total = e.get("total", len(e["rows"]))
    return (
        f"The most recent {noun(ds, 1, it)}{scope(it, call)} was {kind} on {day(newest)}"
        f"{f' ({ids})' if ids else ''}; {total:,} {noun(ds, total, it)} in all ({as_of_text(e)})."
    )


_ID_KEYS = ("recall_number", "product_res_number", "k_number", "pma_number", "mdr_report_key", "product_code")


def _lookup_sentence(it: Interpretation, e: dict, call: dict) -> str:
    field, rows = it.field or "", e["rows"]
    keys = [
        field,
        *{
            "root_cause": ["root_cause_description", "supplement_reason"],
            "k_numbers": ["k_number"],
            "premarket_submission": ["pma_number", "k_number"],  # a listing's own premarket number
        }.get(field, []),
        {
            "root_cause": "root_cause_description",
            "status": "recall_status",
            "recall_class": "classification",
            "product_problems": "device_problems",
            "company_name": "manufacturer",
            "premarket_submission": "premarket_submissions",
            "applicant": "company_name",
            "device_problem": "device_problems",
            "fei_number": "firm_fei_number",  # a recall's own: the recalling firm's FEI number
            "state": "state_code",
            "country": "iso_country_code",
        }.get(field, field),
    ]
    ds = call.get("dataset") or (it.datasets[0] if it.datasets else "")
    spec = SPECS.get(ds)
    carried = (
        field == REVIEW_DAYS
        or spec is None
        or any(k in spec.row for k in keys)
        or any(k in r for r in rows for k in keys)
    )
    if not carried:  # "MRI safety of the 630G" in adverse event reports: never "not given in the record"
        return (
            f"The {LABEL.get(ds, ds)} do not carry the {field_label(field)}, so I cannot give it from "
            f"them ({as_of_text(e)})."
        )
    parts = []
    for r in rows[:TOP_ROWS]:
        key = next((k for k in keys if r.get(k) not in (None, "", [])), keys[-1])
        ident = (
            str(r["primary_di"])
            if r.get("primary_di")
            else ", ".join(dict.fromkeys(str(r[f]) for f in e.get("id_fields", [])[:2] if r.get(f)))
        )  # a DI reads better than a key
        if not ident:
            ident = next((str(r[k]) for k in _ID_KEYS if r.get(k)), "")
        if not ident and r.get("event_id"):
            ident = f"recall event {r['event_id']}" + (f" ({r['recalling_firm']})" if r.get("recalling_firm") else "")
        name = str(r.get("device_name") or r.get("trade_name") or r.get("brand_name") or r.get("name") or "")
        name = name if len(name) <= 60 else name[:57] + "…"
        value = _review_days(r) if field == REVIEW_DAYS else r.get(key)
        if isinstance(value, list):
            value = ", ".join(map(str, value)) if value else None
        if field == "device_class" and value:
            value = {"1": "I", "2": "II", "3": "III"}.get(str(value), str(value))  # "device class III"
        elif field == "recall_class" and value:
            value = re.sub(r"(?i)^class\s+", "", str(value))  # "recall class II", not "recall class Class II"
        elif field == "decision_code" and value:
            value = decision(str(value))
        elif (field.endswith("_date") or field.startswith("date_")) and value:
            value = day(str(value))
        elif field.endswith("_flag") and str(value).upper() in ("Y", "N"):
            value = f"{'yes' if str(value).upper() == 'Y' else 'no'} ({value})"
        elif field.startswith(("is_", "has_")) and str(value).lower() in ("true", "false"):
            value = "yes" if str(value).lower() == "true" else "no"  # a label flag: "labeled as no NRL: yes"
        shown = value if value not in (None, "") else "not given in the record"
        said = _ONE.get(field, field_label(field)) + (":" if field.startswith(("is_", "has_")) else "")
        parts.append(f"{ident}{f' ({name})' if name else ''}: {said} {shown}")
    return "; ".join(parts) + f" ({as_of_text(e)})."


def _review_days(r: dict) -> str | None:
    """Decision date minus date received, in days, with both dates ("53 days (2020-03-09 to 2020-05-01)")."""
    got, decided = day(r.get("date_received")), day(r.get("decision_date"))
    try:
        n = (date.fromisoformat(decided) - date.fromisoformat(got)).days
    except ValueError:
        return None
    return f"{n:,} {plural(n, 'day')} (received {got}, decided {decided})"


# a question answered by yes or no: an auxiliary first ("has X ever had", "did X get"), "any ...?", or said so
_YES_NO = re.compile(
    r"(?i)(?:^|[:;]|\s[-–]\s)\W*(?:(?:and|so|but|also|then|ok|okay)\s+)?(?:has|have|had|did|does|do|is|are|was|were|any|"
    r"ever)\b|\by\s*/\s*n\b|"
    r"\byes\s*(?:or|/)\s*no\b|[,;]\s*any\s*\?\s*$|[,;]\s*(?:is|are|was|were)\s+there\s+(?:any|ever)\b"
)  # "..., any?" at the end asks whether there are any; "In the enforcement reports, is there any ...?"
_THRESHOLD = re.compile(
    r"(?i)\b(?:more|fewer|less|greater|higher|lower)\s+than\b|\bat\s+(?:least|most)\b|\b(?:over|above|under|below|"
    r"exceed\w*|beyond)\s+\d|\bmost\b|\bmore\b"
)
_NOT_YES_NO = re.compile(r"(?i)^\W*(?:how|what|which|when|who|where|list|show|count|give|tell)\b")


def asks_yes_no(it: Interpretation) -> bool:
    """A question answered first by Yes or No, then its figure: a count or list of one search, no lookup."""
    q = it.question
    one = re.search(
        r"(?i)\b(?:that|this)\s+(?:one|clearance|record|report|recall|device|submission|510\(?k\)?)\b|\bit\b", q
    )
    if it.measure not in ("count", "list", "compare") or it.sides or it.field or it.followup and not one:
        return False  # "was that one reviewed by a third party?" after one 510(k): Yes or No, then the figure
    if _THRESHOLD.search(q):
        return False  # "did X have more than 5 recalls?": the figure answers it, a bare Yes for one would mislead
    return bool(_YES_NO.search(q) or re.search(r"(?i)\bever\b", q) and not _NOT_YES_NO.search(q))


_CONFIRM = re.compile(r"(?i)\bwhether\b|^\W*(?:does|do|did|is|are|was|were|has|have)\b")


def _confirms(it: Interpretation) -> bool:
    """A field looked up to confirm a value said ("confirm whether registration 1628808 includes the contract
    sterilizer establishment type"): the search holds the value as a filter, so finding the record says Yes."""
    return (
        it.measure == "lookup"
        and bool(it.field)
        and any(f.field.startswith("word:") and f.field[5:] not in ("regnum", "fei") for f in it.filters)
        and bool(_CONFIRM.search(it.question))
    )


def write_answer(it: Interpretation, evidence: list[dict], calls: list[dict], notes: list[str]) -> str:
    """The whole answer text: interpreted line, first sentence(s), table, notes and provenance."""
    done = [(c, evidence[c["result_index"]]) for c in calls if c.get("result_index") is not None]
    lines = [interpreted_line(it), ""]
    beside = [(c, e) for c, e in done if c.get("label") == EVENT_TYPES_BESIDE]
    done = [(c, e) for c, e in done if c.get("label") != EVENT_TYPES_BESIDE]
    main = [(c, e) for c, e in done if not c.get("label", "").startswith("supplements")]
    extra = [{"call": c, "e": e} for c, e in done if c.get("label", "").startswith("supplements")]
    if it.exclude_firm and it.firm and len(main) == 2:
        lines.append(_left_out(it, main))
    elif it.share and len(main) == 2:
        lines.append(_share(it, main))
    elif it.measure == "compare" and it.sides and main:
        lines.append(_compare(it, main))
    else:
        for c, e in main:
            lines.append(_main_sentence(it, e, c, [x for x in extra if x["call"]["dataset"] == c.get("dataset")]))
        if len(main) == 1 and (asks_yes_no(it) or _confirms(it)) and main[0][1].get("tool") != "count_by":
            lines[-1] = ("Yes: " if main[0][1].get("total") else "No: ") + lines[-1]  # "has X ever had ...?"
    if beside and main and not any(e.get("total") for _, e in main) and beside[0][1].get("total"):
        head, sep, rest = lines[-1].partition("\n\n")  # (a comparison's table stays after its sentence)
        lines[-1] = head + " " + _types_beside(it, beside[0][1]) + sep + rest  # "0 injuries": what they were
    for c, e in [] if it.exclude_firm else main[:3]:  # all records' table would show the firm's too
        t = table(c.get("dataset", ""), e, TOP_ROWS)
        if t:
            lines += ["", t]
    retried = {(c["tool"], c.get("dataset"), c.get("label")) for c in calls if c.get("ok")}
    failed = [
        f"{LABEL.get(c.get('dataset', ''), c['tool'])} could not be searched: {c['summary']}"
        for c in calls
        if not c.get("ok") and (c["tool"], c.get("dataset"), c.get("label")) not in retried
    ]
    how = [_noted(it.device.how)] if it.device and it.device.how else []
    extra_notes = list(dict.fromkeys(how + it.notes + notes + failed))
    if extra_notes:
        lines += ["", "Notes:"] + [f"- {n}" for n in extra_notes]
    prov = [p for _, e in done for p in e.get("provenance", [])]
    if prov:
        lines += ["", "Sources:"] + [f"- {p['dataset']} (as of {day(p['as_of'])}): {p['query']}" for p in prov[:6]]
    return "\n".join(lines).strip()


def _types_beside(it: Interpretation, e: dict) -> str:
    """ "The 4 adverse event reports from Medtronic are: Malfunction: 4.": the records a zero by event type left."""
    rows = [r for r in e.get("rows", []) if str(r.get("event_type") or "").strip()]
    if not rows:
        return ""
    total = e["total"]
    plain = it.model_copy(update={"filters": [f for f in it.filters if f.field != "event_type"], "sides": []})
    kinds = "; ".join(f"{r['event_type']}: {r['count']:,}" for r in rows[:6])
    return (
        f"The {total:,} {noun('event', total, plain)}{scope(plain, {'dataset': 'event'})} are by event type: {kinds}."
    )


def _noted(how: str) -> str:
    """How the device was read, worded so that no note line opens with a bare "no" that reads as the answer to a
    yes-or-no question ("no product code is named ..." under "...: yes")."""
    how = re.sub(r"^no product code is named\b", "none of the product codes is named", how)
    return re.sub(r"^no record holds\b", "none of the records holds", how)


def _left_out(it: Interpretation, main: list[tuple[dict, dict]]) -> str:
    """ "PMAs other than Medtronic's": all records minus the firm's, with both figures."""
    (c_all, e_all), (_, e_firm) = main
    ds = c_all.get("dataset", "")
    total, firm, name = e_all["total"], e_firm["total"], it.firm.name if it.firm else ""
    rest = max(total - firm, 0)
    return (
        f"{rest:,} {noun(ds, rest, it)} from firms other than {name}: {total:,} in all, of which {firm:,} "
        f"from {name} ({as_of_text(e_all)})."
    )


def _share(it: Interpretation, main: list[tuple[dict, dict]]) -> str:
    """ "what share of product codes are class III?": the part, the whole and the percentage."""
    (c_part, e_part), (c_all, e_all) = main
    ds = c_all.get("dataset", "")
    part, total = e_part["total"], e_all["total"]
    pct = f"{100 * part / total:.1f}%" if total else "no share: there are none in all"
    return (
        f"{part:,} of the {total:,} {noun(ds, total, it)}{scope(it, c_all, sides=False)} ({pct}) match "
        f"{c_part.get('label')} ({as_of_text(e_all)})."
    )


def _upper_first(text: str) -> str:
    """The first letter in capitals, the rest as written ("UDI device records" stays UDI)."""
    return text[:1].upper() + text[1:]


def _compare(it: Interpretation, main: list[tuple[dict, dict]]) -> str:
    ds = main[0][0].get("dataset", "")
    parts = [f"{c.get('label')}: {e['total']:,}" for c, e in main]
    rows = "\n".join(
        f"| {c.get('label')} | {e['total']:,} {noun(c.get('dataset', ''), e['total'], it)} |" for c, e in main
    )
    return (
        f"{_upper_first(noun(ds, 2, it))}{scope(it, main[0][0], sides=False)}, side by side: "
        f"{'; '.join(parts)} ({as_of_text(main[0][1])}).\n\n| side | records |\n|---|---|\n{rows}"
    )


def last_result(it: Interpretation, evidence: list[dict], calls: list[dict]) -> LastResult:
    """What "those" means in the next question: the firms or codes this answer found, else its filters."""
    found = _found(it, evidence, calls)
    found.reading = it.model_dump(mode="json", exclude={"question", "unexplained", "notes", "confidence"})
    return found


def _found(it: Interpretation, evidence: list[dict], calls: list[dict]) -> LastResult:
    for c in calls:
        if c.get("result_index") is None:
            continue
        e = evidence[c["result_index"]]
        args, ds = c.get("args", {}), c.get("dataset", "")
        if e["tool"] == "count_by" and args.get("field") == "manufacturer":
            return LastResult(
                dataset=ds, kind="firms", firms=[str(r["manufacturer"]) for r in e["rows"][:5]], place=it.place
            )
        if e["tool"] == "count_by" and args.get("field") == "product_code":
            return LastResult(
                dataset=ds, kind="codes", codes=[str(r["product_code"]) for r in e["rows"][:5]], place=it.place
            )
        if args.get("product_codes"):
            return LastResult(dataset=ds, kind="codes", codes=args["product_codes"], place=it.place)
        if it.firm:
            return LastResult(dataset=ds, kind="firms", firms=[it.firm.name] + it.firm.variants[:9], place=it.place)
        codes = []
        for r in e.get("rows", []):
            v = r.get("product_code") or r.get("product_codes")
            codes += v if isinstance(v, list) else [v] if v else []
        if codes:
            return LastResult(dataset=ds, kind="records", codes=list(dict.fromkeys(codes))[:8], place=it.place)
    return LastResult(place=it.place)


def citations(evidence: list[dict]) -> list[dict[str, str]]:
    """Every record shown in the answer: dataset and `field=value` ID."""
    out, seen = [], set()
    for e in evidence:
        if e["tool"] in ("resolve_manufacturer", "resolve_location", "count_by"):
            continue  # names and places, not records
        dataset = e["provenance"][0]["dataset"] if e.get("provenance") else e["tool"]
        for r in e.get("rows", [])[:TOP_ROWS]:
            for f in e.get("id_fields", [])[:1]:
                if r.get(f):
                    key = (dataset, f"{f}={r[f]}")
                    if key not in seen:
                        seen.add(key)
                        out.append({"dataset": dataset, "id": key[1]})
    return out


_NUM = re.compile(r"(?<![\w-])\d[\d,]*(?:\.\d+)?(?![\w-])")
_ID = re.compile(r"\b(?:[A-Z]\d{6}|DEN\d{6}|Z-\d{4}-\d{4}|\d{7,}|[0-9a-f]{8}-[0-9a-f-]{27})\b")


def facts_of(evidence: list[dict], extra_text: str = "") -> tuple[set[str], set[str]]:
    """Numbers and record IDs that the evidence supports."""
    blob = str(evidence) + " " + extra_text
    nums = {n.replace(",", "") for n in _NUM.findall(blob)}
    nums |= {f"{int(n):,}".replace(",", "") for n in nums if n.isdigit()}
    return nums, set(_ID.findall(blob))


# A number used as a count: "1,234 adverse events", "5 serious injury reports", "a total of 12".
_COUNTED = re.compile(
    r"(?<![\w-])(\d[\d,]*)(?![\w-])\s+(?:[A-Za-z()/-]+\s+){0,2}?"
    r"(?:events?|reports?|recalls?|records?|clearances?|approvals?|devices?|establishments?|registrations?|"
    r"supplements?|deaths?|injur(?:y|ies)|malfunctions?|products?|firms?|manufacturers?|results?|submissions?|"
    r"codes?|classifications?|entries|times|cases?|MDRs?|UDIs?|PMAs?|510\(k\)s?)\b"
    r"|total(?:\s+of)?\s+(\d[\d,]*)(?![\w-])",
    re.I,
)


def counts_of(evidence: list[dict], question: str = "") -> set[str]:
    """Numbers the evidence gives as counts: totals, counted buckets, rows shown, and numbers in the question."""
    out = {str(e.get("total")) for e in evidence if e.get("total") is not None}
    out |= {str(len(e.get("rows", []))) for e in evidence}
    out |= {str(r["count"]) for e in evidence for r in e.get("rows", []) if isinstance(r.get("count"), int)}
    out |= {n.replace(",", "") for n in _NUM.findall(question)}
    return out


def grounded(text: str, evidence: list[dict], question: str = "") -> tuple[str, list[str]]:
    """The text with every sentence whose numbers or IDs the evidence lacks removed, and what was removed.

    A number written as a count ("1312172 adverse events") must be a count of the evidence (a total, a
    bucket, the rows shown), not any number in it such as a record ID or a date."""
    nums, ids = facts_of(evidence, question)
    counts = counts_of(evidence, question)
    kept: list[str] = []
    removed: list[str] = []
    for sentence in re.split(r"(?<=[.!?])\s+|\n+", text.strip()):
        if not sentence.strip():
            continue
        bad_nums = [n for n in _NUM.findall(sentence) if n.replace(",", "") not in nums]
        bad_nums += [
            n for m in _COUNTED.finditer(sentence) for n in m.groups() if n and n.replace(",", "") not in counts
        ]
        bad_ids = [i for i in _ID.findall(sentence) if i not in ids]
        (removed if bad_nums or bad_ids else kept).append(sentence.strip())
    return " ".join(kept), removed


def summary(e: dict[str, Any]) -> str:
    """One line for the timeline: tool, total, first IDs."""
    ids = [f"{r.get(e['id_fields'][0])}" for r in e.get("rows", [])[:3] if e.get("id_fields")]
    return f"{e['tool']}: total {e['total']}" + (f" ({', '.join(ids)}…)" if ids else "")


__all__ += ["COLUMNS"]


def query_answer(q: Any, total: int, results: list[dict], as_of: str, cite: str, ids: list[str]) -> str:
    """The answer to a question written in the openFDA search syntax (`understand.query_syntax.QueryReading`): the
    request read, its total (or the number of values of the field counted, with each one's count), the records
    found and the request to replay."""
    label = LABEL.get(q.endpoint, q.endpoint)
    what = field_label(q.count.removesuffix(".exact"))  # a field's label, plural ("manufacturers")
    head = f"Interpreted as: {label}; openFDA search {q.search}" + (
        f"; the different {what} counted" if q.count else ""
    )
    if q.count:
        values = "; ".join(f"{r.get('term')}: {r.get('count', 0):,}" for r in results[:12])
        firms = re.search(r"(?i)manufacturer|compan|firm|applicant|labeler|sponsor|owner", q.count)
        count = (
            f"{total:,} {'firm' if total == 1 else 'firms'} (different {what})"
            if firms
            else f"{total:,} different {what}"
        )
        body = f"{count} in the {label} that match" + (f": {values}" if values else "")
    else:
        body = f"{total:,} {noun(q.endpoint, total)} match"
        if ids:
            body += ": " + ", ".join(ids[:10]) + (f" and {total - 10:,} more" if total > 10 else "")
    body += f" ({label} as of {as_of})."
    replay = f"Replay it with: mirror query {q.endpoint} '{cite.split(': ', 1)[-1]}'"
    return f"{head}.\n\n{body}\n\nSources:\n- {cite}\n- {replay}"
