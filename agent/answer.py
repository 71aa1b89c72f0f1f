"""The answer: a template built from the evidence (always right), a model's narrative only if it is grounded."""

from __future__ import annotations

import re
from typing import Any

__all__ = ["template_answer", "citations", "grounded", "facts_of", "counts_of", "NOUN"]

NOUN = {"search_events": "adverse event reports (MAUDE)", "search_recalls": "recalled products",
        "search_510k": "510(k) clearances", "search_pma": "PMA approvals and supplements",
        "search_classifications": "product codes (classification)", "search_udi": "UDI device records",
        "search_registrations": "establishment registrations/listings"}
TOP_ROWS = 5


def _as_of(e: dict) -> str:
    return ", ".join(sorted({f"{p['dataset']} as of {p['as_of']}" for p in e.get("provenance", [])}))


def _row_text(row: dict, id_fields: list[str]) -> str:
    ids = ", ".join(str(row[f]) for f in id_fields if row.get(f))
    rest = [str(v) for k, v in row.items() if k not in id_fields and v not in (None, "", []) and
            k in ("date_received", "decision_date", "event_date_initiated", "event_type", "product_code", "brand_name",
                  "device_name", "applicant", "recalling_firm", "recall_class", "trade_name", "company_name", "name",
                  "iso_country_code", "device_class")][:4]
    return f"{ids} ({'; '.join(rest)})" if rest else ids


def _filters(args: dict) -> str:
    bits = []
    if args.get("product_codes"):
        bits.append("product codes " + ", ".join(args["product_codes"]))
    if args.get("manufacturer"):
        bits.append(f"manufacturer {args['manufacturer']}")
    for k in ("country", "state"):
        if args.get(k):
            bits.append(f"{k} {args[k]}")
    if args.get("date_from") or args.get("date_to"):
        bits.append(f"dates {args.get('date_from') or '…'} to {args.get('date_to') or '…'}")
    for k, v in (args.get("filters") or {}).items():
        bits.append(f"{k} {v if isinstance(v, str) else ', '.join(map(str, v))}")
    if args.get("recall_class"):
        bits.append(args["recall_class"])
    if args.get("text"):
        bits.append(f"text \"{args['text']}\"")
    return "; ".join(bits) or "no filter"


def _line(e: dict, args: dict) -> str:
    tool, rows, total, ids = e["tool"], e.get("rows", []), e["total"], e.get("id_fields", [])
    if tool == "resolve_device":
        if not rows:
            return f"I found no product code for \"{args.get('query', '')}\"."
        top = "; ".join(f"{r['product_code']} ({r.get('device_name', '')}, class {r.get('device_class', '?')})"
                        for r in rows[:TOP_ROWS])
        return f"\"{args.get('query', '')}\" matches product codes {top} [{_as_of(e)}]."
    if tool == "resolve_manufacturer":
        if not rows:
            return f"I found no manufacturer named \"{args.get('query', '')}\"."
        canon = rows[0].get("canonical") or rows[0].get("name")
        return f"Manufacturer \"{args.get('query', '')}\" is {canon}, with {len(rows)} name variants in the data [{_as_of(e)}]."
    if tool == "resolve_location":
        return f"Location \"{args.get('location', '')}\": {total} registered establishments [{_as_of(e)}]."
    if tool == "count_by":
        field = args.get("field", "")
        buckets = "; ".join(f"{r.get(field)}: {r['count']:,}" for r in rows[:24])
        what = f"{args.get('dataset')} by {field}"
        return (f"{what} ({_filters(args)}): {total:,} matching records in all; {buckets or 'no values'} "
                f"[{_as_of(e)}].")
    noun = NOUN.get(tool, tool)
    head = f"{total:,} {noun} match {_filters(args)} [{_as_of(e)}]."
    if rows:
        shown = "; ".join(_row_text(r, ids) for r in rows[:TOP_ROWS])
        head += f" {'Newest' if 'text' not in args else 'Best matches'}: {shown}."
    return head


def template_answer(evidence: list[dict], calls: list[dict], notes: list[str]) -> str:
    """One line per tool result, figures and record IDs straight from the evidence, then notes and sources."""
    args_of = {c.get("result_index"): c["args"] for c in calls if c.get("result_index") is not None}
    lines = [_line(e, args_of.get(i, {})) for i, e in enumerate(evidence)]
    errors = [f"{c['tool']} could not run: {c['summary']}" for c in calls if not c.get("ok")]
    extra = [n for n in notes] + errors
    out = "\n".join(f"- {ln}" for ln in lines)
    if extra:
        out += "\n\nNotes:\n" + "\n".join(f"- {n}" for n in extra)
    return out or "I could not find anything to answer that from the mirror."


def citations(evidence: list[dict]) -> list[dict[str, str]]:
    """Every record shown in the answer: dataset and `field=value` ID."""
    out, seen = [], set()
    for e in evidence:
        if e["tool"] in ("resolve_manufacturer", "resolve_location", "count_by"):
            continue   # names and places, not records
        dataset = e["provenance"][0]["dataset"] if e.get("provenance") else e["tool"]
        for r in e.get("rows", [])[:TOP_ROWS]:
            for f in e.get("id_fields", [])[:1]:
                if r.get(f) and e["tool"] != "count_by":
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
    r"|total(?:\s+of)?\s+(\d[\d,]*)(?![\w-])", re.I)


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
    kept, removed = [], []
    for sentence in re.split(r"(?<=[.!?])\s+|\n+", text.strip()):
        if not sentence.strip():
            continue
        bad_nums = [n for n in _NUM.findall(sentence) if n.replace(",", "") not in nums]
        bad_nums += [n for m in _COUNTED.finditer(sentence) for n in m.groups()
                     if n and n.replace(",", "") not in counts]
        bad_ids = [i for i in _ID.findall(sentence) if i not in ids]
        (removed if bad_nums or bad_ids else kept).append(sentence.strip())
    return " ".join(kept), removed


def summary(e: dict[str, Any]) -> str:
    """One line for the timeline: tool, total, first IDs."""
    ids = [f"{r.get(e['id_fields'][0])}" for r in e.get("rows", [])[:3] if e.get("id_fields")]
    return f"{e['tool']}: total {e['total']}" + (f" ({', '.join(ids)}…)" if ids else "")
