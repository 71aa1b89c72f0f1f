"""Read a question into one Interpretation (or a clarifying question): grammar words, dates, record IDs, product
codes, then firms, places and devices from the mirror's own names; scored by how much of the question it explains."""

from __future__ import annotations

import calendar
import re
from datetime import date

from mirror.lookup.lexicon import device_word_reach

from ..tools import ToolContext
from ..tools.specs import DATE_FIELDS, SPECS
from . import vocab
from .accounting import drop_verb_device, form_word_device, which_unit
from .ages import read_ages
from .asking import (
    ask_class_kind,
    ask_dataset,
    ask_event_date,
    ask_field_of_many,
    ask_firm_dataset,
    ask_recall_class_kind,
    ask_when_weak,
)
from .codes import MAX_GIVEN_CODES, read_codes
from .context import RECORD_FIELDS, describe_record, take_context
from .dates import MONTHS, DateRange, read_dates
from .field_names import ask_field, field_of_named, reason_in_enforcement, take_fields
from .fields import (
    CLASSIFICATION_FIELDS,
    COUNTABLE,
    FIRM_LOOKUPS,
    LOOKUP_ALIAS,
    LOOKUP_FIELDS,
    TOP_OK,
    classification_lookup,
    event_home,
    firm_home,
    flag_question,
    ids_apply,
    rank_when_bare,
    recall_numbers,
    record_flag,
    resolve_measure,
    udi_flag_question,
)
from .firm_forms import LEGAL_FORMS
from .followups import bare, bind, content, decision_date_asked, field_not_dataset, merge, refining, specific
from .frame import expand_shorthand, names_asker, reframe
from .guards import hold_back
from .ids import read_ids
from .lay import lay_key, spell_out
from .limits import cannot_answer, cannot_rank, firm_left_out
from .model_numbers import hold_model_numbers
from .names import read_names
from .panels import panel_fields
from .places import ASK_TAIL
from .record_fields import firm_field_home, record_field
from .resolve import DeviceReading, codes_in, read_device
from .sides import joined, more_sides, sound_sides
from .tokens import Tokens, tokenize
from .types import Choice, Clarification, Code, DeviceFilter, Filter, FirmFilter, Interpretation, LastResult, Side
from .values import read_categories, read_cities, read_values

__all__ = ["interpret", "apply_choice", "MAX_GIVEN_CODES"]


def _anchor(ctx: ToolContext, datasets: list[str]) -> date:
    have = ctx.api.datasets()
    for ds in datasets or ["event"]:
        if have.get(ds):
            return date.fromisoformat(have[ds])
    dates = [v for v in have.values() if v]
    return date.fromisoformat(max(dates)) if dates else date.today()


def _datasets(tokens: Tokens, take: bool, weak_ok: bool = True) -> list[str]:
    hits = vocab.match_phrases(tokens, vocab.DATASET_PHRASES, "dataset", take=take)
    strong = [t for _, _, t in hits if not t.endswith("?")]
    if (
        "510k" in strong
        and "pma" in strong
        and not any(tokens.lows()[i] in ("pma", "pmas") for i, _, t in hits if t == "pma")
    ):
        strong.remove("pma")  # "510(k) approvals"
    if "enforcement" in strong and "recall" in strong:
        strong.remove("recall")  # "enforcement reports of recalls"
    lows = tokens.lows()
    if (
        "classification" in strong
        and set(strong) & {"recall", "enforcement"}
        and all(lows[i] in ("classified", "classification") for i, _, t in hits if t == "classification")
    ):
        strong.remove("classification")  # "how was the recall classified": its recall class
    if "gudid" in strong and "udi" in strong:
        strong.remove("udi")  # "device identifiers in GUDID": the release's own records
    weak = [t.rstrip("?") for _, _, t in hits if t.endswith("?")]
    return list(dict.fromkeys(strong or (weak if weak_ok else [])))


def _measure(tokens: Tokens, it: Interpretation, keyed: bool = False) -> list[str]:
    """count / list / trend / top / compare, and the field asked about (kept in `it.field` until ids are known)."""
    lows = tokens.lows()
    named = {
        k for i, j, _ in vocab.match_phrases(tokens, vocab.FIELD_PHRASES, "field", take=False) for k in range(i, j + 1)
    }
    for k in range(1, len(lows) - 1):
        if lows[k] == "number" and lows[k + 1] == "of" and k in named and tokens.free(k):
            tokens.take(k, k + 1, "field")  # "model number of ...": the field's number, not a count
    hits = vocab.match_phrases(tokens, vocab.MEASURE_PHRASES, "measure")
    for k, tok in enumerate(tokens.toks):  # "the #1 problem": the top one
        if tok.low == "1" and tokens.free(k) and tokens.text[: tok.start].rstrip().endswith("#"):
            tokens.take(k, k + 1, "measure")
            hits.append((k, k + 1, "top"))
    tags = [t for _, _, t in hits]
    spans = [k for k, w in enumerate(lows) if re.fullmatch(r"q[1-4]\s*-\s*q[1-4]", w) and tokens.free(k)]
    for k in spans:  # "counts q1-q4 2020": one bucket per quarter
        tokens.take(k, k + 1, "measure")
    if spans and "trend" not in tags:
        tags.append("trend")
    fields = sorted(vocab.match_phrases(tokens, vocab.FIELD_PHRASES, "field", take=False))  # in the order said
    for i, j, f in list(fields):
        if (
            f == "decision_code"
            and lows[i] == "decisions"
            and i
            and (lows[i - 1],) in vocab.DATASET_PHRASES
            and "top" not in tags
        ):
            fields.remove((i, j, f))  # "list PMA decisions": the records decided, not a ranking by decision code
            tokens.take(i, j, "dataset")
        elif (
            f == "version_or_model_number"
            and lows[i] == "model"
            and j == i + 1
            and j < len(lows)
            and (any(ch.isdigit() for ch in lows[j]) or tokens.toks[j].text.isupper() and len(lows[j]) > 1)
        ):
            fields.remove((i, j, f))  # "model PAD 6089": the word that introduces a model's name, not the field
    near = [
        (i, j, f)
        for i, j, f in fields
        if i == 0
        or any(abs(i - hj) <= 2 or abs(hi - j) <= 3 for hi, hj, t in hits if t in ("top", "list"))
        or any(0 <= i - hj <= 5 for hi, hj, t in hits if t == "top" and lows[hi].startswith("rank"))
    ]  # "rank covid antibody test makers by ...": the field the ranking verb governs
    if not near and "top" in tags:  # "what procode shows up most": a ranking by product code
        near = [
            (k, k + 1, "product_code")
            for k, w in enumerate(lows)
            if w in ("procode", "procodes", "code", "codes")
            and tokens.free(k)
            and any(abs(k - hi) <= 4 for hi, _, t in hits if t == "top")
        ][:1]
    if not near and keyed:  # "B3359500 model number": a field of the record or code named
        near = [(i, j, f) for i, j, f in fields if f in LOOKUP_FIELDS or f in LOOKUP_ALIAS][:1]
    if not near and not set(tags) & {"count", "trend", "top", "compare"}:  # "Diasorin reg number"
        near = [
            (i, j, f)
            for i, j, f in fields
            if f in LOOKUP_FIELDS
            and f not in COUNTABLE
            and (
                _at_end(lows, j)
                or f in _OF_ONE
                and (j < len(lows) and lows[j] in ("for", "of", "on") or _only_grammar_after(lows, j))
            )
            and lows[i - 1] not in ("from", "of", "for", "in", "with", "by", "to", "at", "per")
        ][:1]
    broken = [
        (i, j, f)
        for i, j, f in fields
        if f in COUNTABLE
        and i > 0
        and lows[i - 1] in ("by", "per", "each")
        and not (i > 1 and lows[i - 1] == "by" and (lows[i - 2].endswith("ed") or lows[i - 2] == "made"))
        and (j >= len(lows) or lows[j] not in ("in", "from", "located", "based", "that", "who", "with"))
    ]
    # "reports by manufacturer" is a breakdown; "submitted by applicants in CA" names who submitted
    if broken and not (set(tags) & {"compare", "trend"}):  # "insulin pump reports by manufacturer"
        tags, near = tags + ["top"], broken + [x for x in near if x not in broken]
    asked = [
        x
        for x in near
        if x[0] > 0
        and (
            lows[x[0] - 1] in ("which", "what")
            or x[0] > 1
            and lows[x[0] - 1] in ("fda", "fda's", "device", "one")
            and lows[x[0] - 2] in ("which", "what")
        )
    ]  # "... - which specialty leads?", "which FDA review panel has the most"
    near = asked + [x for x in near if x not in asked]
    if "compare" in tags:
        it.measure = "compare"
    elif "trend" in tags:
        it.measure, it.by = "trend", "month" if any(w.startswith("month") for w in lows) else "year"
        if any(w.startswith("quarter") or re.match(r"q[1-4]\b", w) for w in lows):
            it.by = "quarter"  # "PMA decisions per quarter in 2020": one bucket per calendar quarter
    elif "top" in tags:
        counted = {v: k for k, v in LOOKUP_ALIAS.items()}  # "top product problem": device problems counted
        field = next((COUNTABLE[counted.get(f, f)] for _, _, f in near if counted.get(f, f) in COUNTABLE), None)
        if field:
            it.measure, it.by = "top", field
    elif "count" in tags:
        it.measure = "count"
    listed = any(
        t == "list" and j < len(lows) and lows[j] in ("them", "those", "these", "all", "em") for _, j, t in hits
    )
    if listed and it.measure == "list":
        near = []  # "2020 510k decisions - list them": the records, not a ranking by the field its noun names
    if it.measure == "list" and near:
        it.field = near[0][2]  # settled by _resolve_measure once record IDs are known
    for i, j, f in near:
        if f in (it.by, it.field) or COUNTABLE.get(f) == it.by:
            tokens.take(i, j, "field")
    for i, _, t in hits:
        if t == "top" and i + 1 < len(lows) and lows[i + 1].isdigit() and 0 < int(lows[i + 1]) <= 100:
            it.top_n = int(lows[i + 1])
            tokens.take(i + 1, i + 2, "measure")
    return [f for _, _, f in fields]


# fields that only one record or device has, never counted: "<field> for/of <thing>" asks for it
_OF_ONE = {
    "mri_safety",
    "reg_expiry_year",
    "generic_name",
    "code_info",
    "labeler_duns_number",
    "termination_date",
    "decision_date",
}


# what a UDI record's label says of a device: with one of these a "kit" is the UDI kit flag, not a device's name
_LABEL_FLAG = re.compile(r"(?i)\b(?:sterile|sterilized|latex|mri|single[- ]use|reusable)\b")


def _only_grammar_after(lows: list[str], j: int) -> bool:
    """Nothing after token j but grammar and dataset words ("... its generic name in the PMA records")."""
    return all(
        w in vocab.FUNCTION or (w,) in vocab.DATASET_PHRASES or not any(c.isalnum() for c in w) for w in lows[j:]
    )


def _at_end(lows: list[str], j: int) -> bool:
    """Nothing but punctuation after token j ("... device class?")."""
    return all(not any(c.isalnum() for c in w) for w in lows[j:])


def _weak(tokens: Tokens, preview: list[str]) -> list[str]:
    """Datasets named only by weak words ("reports", "product code")."""
    hits = vocab.match_phrases(Tokens(tokens.text, tokens.toks, {}), vocab.DATASET_PHRASES, "dataset", take=False)
    weak = [t.rstrip("?") for i, _, t in hits if t.endswith("?")]
    return list(dict.fromkeys(weak))[:1]


def _ids_elsewhere(ctx: ToolContext, it: Interpretation, ids: list) -> None:
    """A K / P number asked about in a dataset that does not hold it: its product codes there, and the record."""
    from mirror.lookup.devices import resolve_devices

    for ds, f in ids:
        if f.field not in ("k_number", "pma_number") or ds in it.datasets or it.device:
            continue
        if any(d in ("recall",) for d in it.datasets) and len(it.datasets) == 1:
            continue  # recalls carry K and P numbers themselves
        found = resolve_devices(ctx.api, str(f.value))
        codes = [Code(code=r["product_code"], name=r["device_name"] or "") for r in found["rows"]]
        if codes:
            it.device = DeviceFilter(
                words=str(f.value),
                codes=codes,
                path="given",
                how=f"{f.value} is filed under product code {', '.join(c.code for c in codes)}",
            )
        it.datasets.append(ds)


def _filter_fits(name: str, named: list[str], said: set[str] | None = None) -> bool:
    """A field value said in words is a filter of the datasets named (recalls take enforcement-report fields), or of
    its own dataset when none is named; some words are filters only when their dataset is named, some only in a
    dataset when the words naming the field are said too (`vocab.FILTER_CUES`)."""
    target = vocab.FILTER_DATASET[name]
    if name == "agree" and not named:
        return True  # "which of Healgen or Phamatech had more false positives?": only serology results agree
    if name in vocab.NEEDS_DATASET or named:
        held = set(vocab.FILTER_FIELDS[name][0]) if name in vocab.FILTER_FIELDS else {target}
        cues = vocab.FILTER_CUES.get(name, {})
        held = {d for d in held if d not in cues or cues[d] & (said or set())}
        return (
            bool(held & set(named))
            or (target == "enforcement" and "recall" in named)
            or (name in ("nrl", "nonrl") and "gudid" in named)  # the GUDID's devices, as openFDA's UDI holds them
        )
    return True


_KIND_OF = (["kind", "of"], ["type", "of"], ["what", "kind", "of"], ["what", "type", "of"], ["which", "kind", "of"])
_ANTIBODIES = {"igg": "IgG", "igm": "IgM", "iga": "IgA"}


def _antibody_beside(tokens: Tokens, i: int, j: int) -> str:
    """The antibody said beside a serology agreement ("IgG false negatives", "false negative IgG result"): its own
    agreement field is meant, not the test's overall one; the antibody's word is the filter's, not a device."""
    for k in (i - 1, i - 2, j, j + 1):
        if 0 <= k < len(tokens.toks) and tokens.role.get(k, "field") == "field" and tokens.toks[k].low in _ANTIBODIES:
            if k == i - 2 and tokens.toks[i - 1].low not in ("of", "the"):
                continue
            tokens.take(k, k + 1, "filter")
            return tokens.toks[k].low
    return ""


_CLASSIFICATION_ASKED = re.compile(
    r"(?i)\b(?:class|classes|classified|classification|regulation|product\s+codes?|procodes?)\b"
)


def _before_dataset_noun(tokens: Tokens, j: int) -> bool:
    """The words at j name a dataset ("cardiovascular PMA decisions", "cardiology 510(k)s"): a specialty said just
    before them is the panel that reviewed the records, not a device."""
    hits = vocab.match_phrases(tokens, vocab.DATASET_PHRASES, "dataset", take=False)
    return any(i == j and not t.endswith("?") for i, _, t in hits)


def _filters(tokens: Tokens, it: Interpretation, preview: list[str], earlier: list[str] | None = None) -> None:
    """Field values said in words. A value read only where its dataset is named ("positives") is read in the
    previous answer's datasets (`earlier`) when the question names none."""
    for i, j, tag in vocab.match_phrases(tokens, vocab.FILTER_PHRASES, "filter"):
        name, value = tag.split("=")
        words = tokens.words(i, j)
        if name == "event_type":
            kinds = value.split("|")  # "serious incidents", "death or injury": the reports of either type, one count
            label = " or ".join(k.lower() for k in kinds) + " reports"
            if not any(f.field == "event_type" and f.label == label for f in it.filters):  # said twice, one filter
                it.filters.append(
                    Filter(field="event_type", value=kinds if len(kinds) > 1 else value, label=label, words=words)
                )
        elif name == "class":
            it.filters.append(Filter(field="class", value=value, label=f"class {value}", words=words))
        elif name == "supplements" and (
            tokens.lows(j, j + 1) in (["type"], ["types"]) or tokens.lows(max(i - 3, 0), i)[-3:] in _KIND_OF
        ):
            for k in range(i, j):
                tokens.role.pop(k, None)  # "supplement type", "what kind of supplement": the field, not a filter
        elif name == "supplements":
            it.supplements = "supplements" if value == "supplements" else "originals"
        elif name in vocab.FILTER_FIELDS and not _filter_fits(
            name,
            preview or (earlier or [] if name in vocab.NEEDS_DATASET else []),
            set(tokens.lows()) | ({"panel"} if name == "panel" and _before_dataset_noun(tokens, j) else set()),
        ):
            for k in range(i, j):
                tokens.role.pop(k, None)  # "positive airway pressure", "recalls of ... kits"
        elif (
            name == "kit"
            and not set(preview) & {"udi", "gudid"}
            and not _LABEL_FLAG.search(tokens.text)  # "is the drape kit sterile?": a UDI record's label and kit
            and i
            and tokens.free(i - 1)
            and tokens.toks[i - 1].low.isalpha()
            and tokens.toks[i - 1].low not in vocab.FUNCTION
        ):
            for k in range(i, j):
                tokens.role.pop(k, None)  # "chest drainage kit": the device's own name, not the UDI kit flag
        elif (
            name in ("otc", "rx") and not set(preview) & {"udi", "gudid"} and _CLASSIFICATION_ASKED.search(tokens.text)
        ):
            for k in range(i, j):
                tokens.role.pop(k, None)  # "class of an over-the-counter glucose test system": the device's own name
        elif name in vocab.FILTER_FIELDS:
            label = vocab.FILTER_FIELDS[name][1].format(v=value)
            if name == "agree":
                label = vocab.AGREE_LABEL.get(value, value)
                if kind := _antibody_beside(tokens, i, j):  # "IgG false negatives": the IgG result's agreement
                    name, label = f"{kind}agree", f"{_ANTIBODIES[kind]} {label}"
            elif name == "decision" and value == "DENG":
                label = "De Novo requests granted (decision DENG)"
            elif name == "panel" and value in vocab.PANEL_NAMES:
                label = f"medical specialty {vocab.PANEL_NAMES[value]} ({value})"
            values = list(dict.fromkeys([value, value[:1] + value[1:].lower()])) if name == "root" else value
            if any(f.field == f"word:{name}" and f.value == values for f in it.filters):
                continue  # "disposable (single use)": said twice, one filter
            it.filters.append(Filter(field=f"word:{name}", value=values, label=label, words=words))


# an adverse event report's number cut after its year ("MDR 2032227-2023"): the manufacturer's registration number and
# the year, which every report of that maker and year starts with
_REPORT_PREFIX = re.compile(r"(?<![\w-])(\d{6,10}-(?:19|20)\d\d)(?![\w-])")


def _report_prefix(
    ctx: ToolContext, question: str, last: LastResult | None
) -> tuple[Interpretation, Clarification | None] | None:
    """A report number said without its sequence ("What device problem was reported in report number 2032227-2023?"):
    when two or more reports start so, which one is asked back (each with its own reading); when one, it is read."""
    from ..tools.openfda_query import query_string
    from ..tools.search import get

    m = _REPORT_PREFIX.search(question)
    if not m or "event" not in ctx.api.datasets():
        return None
    try:
        status, body = get(ctx, "event", query_string([("search", f'report_number:"{m[1]}"'), ("limit", "20")]))
    except Exception:  # noqa: BLE001 - a failed look-up leaves the question as it was
        return None
    found = body.get("results", []) if status == 200 else []
    numbers = sorted({n for r in found if (n := str(r.get("report_number") or "")).startswith(m[1] + "-")})
    if not numbers:
        return None
    it, clar = interpret(ctx, question[: m.start()] + numbers[0] + question[m.end() :], last)
    if len(numbers) == 1 or clar is not None:
        return it, clar
    held = [f for f in it.filters if f.field == "report_number" and f.value == numbers[0]]
    if not held or not it.understood:
        return None
    others = [f.model_dump() for f in it.filters if f.field != "report_number"]
    choices = [
        Choice(
            label=f"report {n}",
            patch={
                "filters": others + [Filter(field="report_number", value=n, label=f"report {n}", words=n).model_dump()]
            },
        )
        for n in numbers
    ]
    return it, Clarification(
        question=(
            f'"{m[1]}" is the start of {len(numbers)} adverse event report numbers (the maker\'s registration number '
            "and the year). Which report do you mean?"
        ),
        choices=choices,
    )


def interpret(
    ctx: ToolContext, question: str, last: LastResult | None = None
) -> tuple[Interpretation, Clarification | None]:
    """The best reading of the question, and a clarifying question when that reading is weak or tied. Its frame
    (shorthand, "Can you", "yes or no", sentences that only give the asker's context) is read off first."""
    if (dated := decision_date_asked(question, last)) is not None:
        return dated, None  # "when was it cleared?" after the Somnera 510(k): its decision date
    if (prefixed := _report_prefix(ctx, question, last)) is not None:
        return prefixed  # "MDR 2032227-2023": the start of several reports' numbers, asked back
    question, share = _share_words(question[:2000])
    question = _that_year(question, last)
    question, glosses = _glosses(ctx, question)
    if (narrative := _narrative_words(question)) and not _names_a_device(ctx, narrative[1], question):
        it, clar = interpret(ctx, narrative[0], last)
        if it.datasets == ["event"] and it.understood and not it.device and not it.sides:
            it.question, it.text = question, narrative[1]  # "MDRs in 2023 that mention sterility": narratives searched
            it.measure = "count" if it.measure == "list" and _COUNT_WORDS.search(question) else it.measure
            return it, clar
    framed = reframe(
        question,
        lambda text: _named_in(ctx, text),
        lambda f, ask: _doubtful(ctx, f, ask),
        lambda words: _names_a_filter(ctx, words),
        lambda text: _device_in(ctx, text),
    )
    it, clar = _read_model(ctx, _frame_dataset(framed.text or question, framed.context), last)
    if clar is not None and len(clar.choices) == 1:
        code = re.match(r"([A-Z]{3}) ", clar.choices[0].label)
        if code and re.search(rf"\b(?:product\s+codes?|procodes?|codes?)\s*:?\s*{code[1]}\b", question, re.I):
            it, clar = apply_choice(it, clar.choices[0]), None  # the one choice is the code the question gave
            if it.device is not None:
                it.device = it.device.model_copy(update={"words": code[1], "path": "given", "how": ""})
    if share and clar is None and it.understood:
        _share_sides(it)
    _firms_counted(it)
    # "For a client's audit: ..." is background (the frame); "our supplier" in the ask is a firm not named.
    unnamed = _UNNAMED_FIRM.search(framed.text or question) or last is None and _THEIR_RECORDS.search(question)
    named_record = any(f.field in RECORD_FIELDS or f.field == "di" for f in it.filters)  # "recall Z-0053-2020"
    firmless = set(it.datasets) <= {"classification"}  # product codes carry no firm: "what class would theirs be?"
    if (
        unnamed
        and it.firm is None
        and not named_record
        and not it.sides
        and it.understood
        and clar is None
        and not (firmless and it.datasets)
    ):
        it.understood = False  # "our supplier": never a count of every firm's records
        who = unnamed[0] if unnamed.re is _UNNAMED_FIRM else "they"
        it.cannot = (
            f'You asked about "{who}" without naming the firm, so I give no figure: a count without it would '
            "be for every firm. Which firm do you mean? Ask again with its name as the records spell it "
            '("Medtronic").'
        )
    it.notes += glosses
    if framed.context and it.understood:
        kept = {w.lower() for k in framed.kept + framed.bound for w in k.split()}
        kept |= {w.lower() for w in re.findall(r"[\w'-]+", framed.text)}  # a word the ask says again is searched
        said = ", ".join(
            f'"{w}"'
            for w in dict.fromkeys(framed.context)
            if w.isalpha() and len(w) > 2 and w.lower() not in vocab.FUNCTION and w.lower() not in kept
        )
        if not said and framed.frames:  # "For our board memo, ...": the lead said whole, though its words are common
            said = ", ".join(f'"{f}"' for f in framed.frames)
        if said:
            it.notes.append(f"not used in the search (taken as background): {said}")
    if (
        it.field in ("catalog_number", "version_or_model_number")
        and it.datasets
        and set(it.datasets) <= {"recall", "enforcement"}
    ):  # a recall names the product's catalog (REF) and model numbers in its product description, no field of its own
        it.field = "product_description"
        it.notes.append("a recall gives the product's catalog (REF) and model numbers in its product description")
    if clar is None and it.understood:
        _recall_end(it)  # "the Sterrad cassette recall, when was it finished?": its termination date
        _recall_start(it)  # "Arrow CVC kit recall - when did it start?": its initiation date
        _listing_pma(it)  # "DiaSorin's ETI-AB-EBK PLUS listing - which PMA is it listed under?"
    if clar is None:
        clar = ask_event_date(ctx, it)  # "MDRs for December 2022": none received then, some occurred then
    return it, clar


# words in brackets right after a regulation number or a product code the mirror knows ("876.1500 (endoscope and
# accessories)", "PAD (chest drainage kit)"): the asker's explanation of the code, never a device or sides to compare
_GLOSS = re.compile(r"\b(\d{3}\.\d{2,4}|[A-Z]{3})\s*\(\s*([A-Za-z][A-Za-z ,/&'-]{1,80}?)\s*\)")


# a kind of device with two or more of its product codes in brackets: "CRP reagents (DCK/DCN)"
_CODES_GLOSS = re.compile(r"(?<=[\w-])\s*\(\s*([A-Z]{3}(?:\s*[/,&+]\s*[A-Z]{3})+)\s*\)")


# a short name in capitals with its product code in brackets: the code is what the asker means, the name its gloss
_NAMED_CODE = re.compile(
    r"\b([A-Z][A-Z0-9-]{1,7})\s*\(\s*(?:(?:product|prod\.?)\s+code|procode|code|pc)?\s*:?\s*([A-Z]{3})\s*\)"
)


_PURPOSE = re.compile(
    r"(?i)[,;]\s*(?:because\s+|as\s+|since\s+)?(?:we|i)(?:'d|\s+would)?\s+(?:want|like|need|wish|are\s+trying|try|hope|"
    r"have)\s+to\s+(?:know|understand|see|check|confirm|learn|find\s+out|map|scope|gauge)\b[^.?!]*"
)
# the asker's situation or errand after the question: "... ? our SPD runs two NX units", "... ? need a talking point
# for tmrw", "... ? trying to get a feel for deal flow"
_AFTER_THE_QUESTION = re.compile(
    r"(?is)^(.*\?)\s+((?:our|we|we're|we've|i|i'm|i've|my|need|needs|trying|hoping|gotta|looking\s+(?:for|to)|checking|"
    r"planning|want|wanting)\b[^?]*)$"
)
_CATALOG_IN_BRACKETS = re.compile(r"\(\s*([A-Z]{1,4}-\d{3,}[A-Z0-9-]*)\s*\)")
_DESCRIPTION_START = {"the", "a", "an", "our", "their", "its", "on", "for", "of", "about", "with", "this", "that"}
_GIVEN_ID = re.compile(r"\b(?:\d{3}\.\d{2,4}|[A-Z]{3}|K\d{6}|P\d{6}|DEN\d{6})\b")
_AND_ACCESSORIES = re.compile(r"(?i)\b([a-z][\w-]*)\s+and\s+(accessor(?:y|ies))\b")


def _glosses(ctx: ToolContext, question: str) -> tuple[str, list[str]]:
    """The question without the asker's explanations of a code it gives, and a note on each one taken out."""
    from mirror.lookup.lexicon import product_code_details

    notes: list[str] = []
    after = _AFTER_THE_QUESTION.match(question)
    if after:  # "is there a recall on X? our SPD runs two NX units": the asker's own situation, after the question
        question = after[1]
        notes.append(f'"{after[2].strip()}" was taken as background, not searched')
    purpose = _PURPOSE.search(question)
    if purpose and _GIVEN_ID.search(question[: purpose.start()]):  # "... 876.1500, we want to know the range of
        # endoscope codes": why it is asked, once the code asked about is given
        notes.append(f'"{purpose[0].strip(" ,;")}" was taken as why you ask, not searched')
        question = question[: purpose.start()] + question[purpose.end() :]
    if not re.search(r"(?i)\b(?:vs\.?|versus|compare\w*|between)\b", question):
        question = _AND_ACCESSORIES.sub(r"\1 \2", question)  # "Duodenoscope And Accessories": one device's name
    for m in reversed(list(_CATALOG_IN_BRACKETS.finditer(question))):  # "the Arrow CVC kit (AK-25502)": the
        # catalog number names the product exactly; the words before it describe it
        head = question[: m.start()].rstrip()
        words = re.findall(r"[\w'-]+", head)
        k = len(words)
        while k and words[k - 1].lower() not in _DESCRIPTION_START and len(words) - k < 6:
            k -= 1
        if k and words[k - 1].lower() in _DESCRIPTION_START and len(words) > k:
            said = " ".join(words[k:])
            start = head.rfind(words[k])
            if start >= 0 and head[start:].split()[0].startswith(words[k]):
                question = question[:start] + m[1] + question[m.end() :]
                notes.append(f'"{said}" was read as the description of {m[1]}, which names the product')
    for m in reversed(list(_CODES_GLOSS.finditer(question))):  # "CRP reagents (DCK/DCN)": codes given as examples
        # of a kind of device whose codes hold them all: the kind is asked, the codes explain it
        from mirror.lookup.devices import resolve_devices

        given = set(re.findall(r"[A-Z]{3}", m[1]))
        before = re.findall(r"[\w-]+", question[: m.start()])
        for n in (1, 2, 3):
            tail = before[-n:]
            if len(tail) < n or any(w.lower() in vocab.FUNCTION for w in tail):
                break
            kind = " ".join(tail)
            if spell_out(kind) == kind:
                continue  # only a lay name spelled out ("CRP"): "infusion pumps (FRN/MEA)" keeps the codes given
            found = resolve_devices(ctx.api, spell_out(kind), 30)
            kinds = {r["product_code"] for r in found["rows"]}
            if not found["unknown"] and not found["partial"] and given < kinds:
                question = question[: m.start()].rstrip() + question[m.end() :]
                notes.append(f'{", ".join(sorted(given))} in brackets were read as examples of "{kind}"')
                break
    named, glossed = list(_NAMED_CODE.finditer(question)), list(_GLOSS.finditer(question))
    if not named and not glossed:
        return question, notes
    codes = [m[2] for m in named] + [m[1] for m in glossed if not m[1][0].isdigit()]
    known = product_code_details(ctx.api, codes) if codes else {}
    out = question
    for m in reversed(named):  # "IOL (HQL)", "PORP (prod code ETB)": the code is what the asker means
        if m[2] in known:
            out = out[: m.start()] + m[2] + out[m.end() :]
            notes.insert(0, f'"{m[1]}" was read as a name for the product code {m[2]} given beside it')
    for m in reversed(list(_GLOSS.finditer(out))):
        if (m[1][0].isdigit() or m[1] in known) and not re.search(r"\b[A-Z]{3}\b", m[2]):
            out = out[: m.start()] + m[1] + out[m.end() :]
            notes.insert(0, f'"{m[2]}" in brackets was read as an explanation of {m[1]}, not searched')
    return out, notes


# a share asked ("what percentage of ... are class III", "out of how many in total"): the words that ask for the
# total are taken out before reading, and the count is given beside the total it is a share of
_SHARE_CUT = (
    re.compile(r"(?i),?\s*\(?\bout\s+of\s+(?:how\s+many|all|the\s+total|total)\b[^,.;?)]*\)?"),
    re.compile(
        r"(?i)[,.]?\s*(?:with|and|give\s+me|plus|also)?\s*(?:the\s+)?(?:count|number|figure)s?\s+and\s+"
        r"(?:the\s+)?total\b\.?"
    ),
    re.compile(
        r"(?i),?\s*(?:and\s+)?what\s+(?:is|'s)\s+that\s+as\s+an?\s+(?:share|percentage|percent|proportion|"
        r"fraction)\s+of\b[^?.;]*"
    ),
)
_SHARE_OF = re.compile(
    r"(?i)\b(?:what|which)?\s*(?:share|percentage|percent|proportion|fraction|portion)\s+of\s+(?:the\s+|all\s+(?:the\s+)?)?"
)
_SHARE_AFTER = re.compile(r"(?i)\b(?:share|percentage|proportion)\s+of\s+(?:the\s+)?")


_THAT_YEAR = re.compile(r"(?i)\b(?:that|the\s+same|same)\s+year\b")


# a quarter or a span of months said without its year ("in Q4?", "now only Oct-Dec")
_PART_OF_YEAR = re.compile(
    r"(?i)\b(?:q[1-4]|[1-4]q|(?:first|second|third|fourth|last|final)\s+quarter|"
    r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\s*(?:-|to|through|thru|until)\s*"
    r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*)\b(?!\s*(?:of\s+)?'?\d)"
)


# words searched in the adverse event narratives: "that mention sterility", "with 'steril' in the text",
# "narratives containing the word leak"
_NARRATIVE = re.compile(
    r"(?i)\s*(?:\bthat\s+|\bwhich\s+)?\b(?:mention(?:s|ing|ed)?|contain(?:s|ing)?\s+the\s+words?|with\s+the\s+words?|"
    r"(?:whose\s+)?(?:narratives?|event\s+texts?|texts?)\s+(?:mention\w*|contain\w*|hold\w*))\s+"
    r"['\"‘“]?(?P<w>[A-Za-z][\w-]*(?:\s+[A-Za-z][\w-]*)?)['\"’”]?"
    r"(?:\s+in\s+(?:the\s+)?(?:event\s+)?(?:narratives?|texts?|descriptions?))?(?=\s*(?:[?.,;:]|$|\s+(?:in|during|from|"
    r"since|between|received|reported|for|by|and|or|-|how)\b))|"
    r"\s*\bwith\s+['\"‘“](?P<q>[^'\"’”]{2,40})['\"’”]\s+in\s+(?:the\s+|their\s+)?"
    r"(?:event\s+)?(?:narratives?|texts?|descriptions?)"
)
_COUNT_WORDS = re.compile(r"(?i)\b(?:how\s+many|count|number|total|tally)\b")


_NARRATIVE_SAID = re.compile(r"(?i)['\"‘“]|\bthe\s+words?\b|\b(?:narratives?|texts?|descriptions?)\b")


def _names_a_device(ctx: ToolContext, words: str, question: str) -> bool:
    """ "mention insulin pumps": the words name a kind of device (a product code's name begins with their last
    word, as FDA names a device: "Pump, Infusion, Insulin"), so they are the device, not narrative words. Quotes,
    "the word" or "narratives" always mean the narratives."""
    if _NARRATIVE_SAID.search(question):
        return False
    it, _ = _read_model(ctx, words, None)
    head = words.lower().split()[-1].rstrip("s")
    return bool(it.device and any(c.name.split(",")[0].strip().lower().rstrip("s") == head for c in it.device.codes))


def _narrative_words(question: str) -> tuple[str, str] | None:
    """(the question without the words searched in narratives, those words), or None when it searches none."""
    m = _NARRATIVE.search(question)
    if not m:
        return None
    words = (m["w"] or m["q"] or "").strip()
    if not words or words.lower() in vocab.FUNCTION:
        return None
    rest = (question[: m.start()] + " " + question[m.end() :]).strip()
    return re.sub(r"\s{2,}", " ", rest), words


def _that_year(question: str, last: LastResult | None) -> str:
    """ "the last quarter of that year?", "and how many were in Q4?" after an answer on one year: that year, said
    as its number."""
    if last is None:
        return question
    r = last.reading or {}
    start, end = str(r.get("date_from") or ""), str(r.get("date_to") or "")
    if len(start) < 4 or start[:4] != end[:4]:
        return question
    if _THAT_YEAR.search(question):
        return _THAT_YEAR.sub(start[:4], question)
    if not re.search(r"\b(?:19|20)\d\d\b", question) and (m := _PART_OF_YEAR.search(question)):
        return question[: m.end()] + f" {start[:4]}" + question[m.end() :]
    return question


_HOW_MANY_FIRMS = re.compile(
    r"(?i)\b(?:how\s+many|number\s+of|count\s+(?:of\s+)?(?:the\s+)?)\s*(?:(?:different|distinct|unique|separate|"
    r"individual)\s+(?:(?:test|device|kit|product|recalling)\s+)?(?:firms?|manufacturers?|compan(?:y|ies)|applicants?|makers?|"
    r"labelers?|sponsors?|holders?)|(?:firms|manufacturers|companies|applicants|makers|recalling\s+firms|labelers|"
    r"sponsors|holders))\b"
)


def _firms_counted(it: Interpretation) -> None:
    """ "how many firms had 510(k)s in 2020?": the firms counted (each name the records spell once), never the
    records."""
    if not _HOW_MANY_FIRMS.search(it.question) or it.sides or it.firm or len(it.datasets) != 1:
        return
    if it.measure not in ("count", "list", "top") or "manufacturer" not in TOP_OK.get(it.datasets[0], set()):
        return
    it.measure, it.by, it.top_n, it.distinct, it.field = "top", "manufacturer", 1000, True, None


def _share_words(question: str) -> tuple[str, bool]:
    """The question without the words that ask for a share, and whether it asked for one."""
    # "share of voice by manufacturer" is marketing's word for a ranking of the makers, no share of one part
    question = re.sub(r"(?i)\bshare\s+of\s+voice\s+(?=by\b)", "top ", question)
    # "out of all the dental stuff FDA regulates, how many are class 3": a count of the kind's product codes, no share
    question = re.sub(
        r"(?i)\bout\s+of\s+all\s+the\s+([a-z]+)\s+(?:stuff|devices?|products?|things|gear)\s+(?:the\s+)?fda\s+regulates?"
        r"\s*,?\s*how\s+many\s+are\s+",
        r"how many \1 product codes are ",
        question,
    )
    text = question
    for rx in _SHARE_CUT:
        text = rx.sub("", text)
    text = _SHARE_OF.sub("how many ", text, count=1) if _SHARE_OF.match(text.strip()) else text
    text = _SHARE_AFTER.sub("", text)
    text = re.sub(r"\s{2,}", " ", text).strip()
    return (text, True) if text != question.strip() else (question, False)


def _share_sides(it: Interpretation) -> None:
    """A count read with a share asked: the part (its own field values, else its device, firm or place) beside all
    the records the rest of the question names."""
    if it.sides or it.measure not in ("count", "list") or len(it.datasets) != 1:
        return
    from ..writing import noun

    whole = f"all {noun(it.datasets[0], 2)}"
    part = [f for f in it.filters if f.field not in RECORD_FIELDS and f.field != "di"]
    if part:
        label = " and ".join(f.label for f in part)
        it.filters = [f for f in it.filters if f not in part]
        it.sides = [Side(label=label, filters=part), Side(label=whole)]
    elif it.device and it.device.codes:
        it.sides = [Side(label=", ".join(it.device.codes_shown(3)), device=it.device), Side(label=whole)]
        it.device = None
    elif it.firm:
        it.sides = [Side(label=it.firm.name, firm=it.firm), Side(label=whole)]
        it.firm = None
    else:
        return
    it.measure, it.share = "compare", True


# a firm the asker does not name ("our supplier", "that vendor"), and a "they" with no firm before it
_UNNAMED_FIRM = re.compile(
    r"(?i)\b(?:our|my|their|that|this|the|a|one\s+of\s+our)\s+(?:main\s+|key\s+|new\s+|current\s+|primary\s+|"
    r"biggest\s+|largest\s+|main\s+)?(?:suppliers?|vendors?|competitors?|contract\s+manufacturers?|partners?|"
    r"distributors?|oems?|customers?|clients?)\b(?!\s+(?:file|questionnaire|audit|risk|review|matrix|list|"
    r"qualification|management|program|base|check|scorecard|portal|meeting|deck|memo|report|approval|selection|"
    r"evaluation|assessment|onboarding|survey|agreement|contract|slide|form|process|spend|surveillance|analysis|"
    r"intelligence|landscape|benchmark\w*|tracking|monitoring|watch|research|comparison|set|map|mapping)s?\b)"
)
_THEIR_RECORDS = re.compile(
    r"(?i)\b(?:did|do|does|have|has|had)\s+they\s+(?:have|get|file|submit|receive|recall|report|had)\b|"
    r"\btheir\s+(?:recalls?|510\s*\(?k\)?s?|pmas?|adverse|mdrs?|reports|registrations?|clearances?|approvals?)\b"
)
# a model number said right after a firm's name ("GE OEC 9800", "GE OEC model 9800"), or after a brand's word
_AFTER_FIRM = r"\s+(?:model\s+|series\s+|type\s+)?(\d{3,}[A-Za-z]*|[A-Za-z]{0,3}-?\d{2,}[A-Za-z0-9-]*)\b"
_BRAND_MODEL = re.compile(r"\b([A-Za-z][A-Za-z-]{1,})\s+(\d{3,}[A-Za-z]*)\b")
_KIND_WORD = re.compile(r"\s+([A-Za-z][\w-]*)")


def _read_model(
    ctx: ToolContext, question: str, last: LastResult | None
) -> tuple[Interpretation, Clarification | None]:
    """The question read; when a model number is left unused after a firm's name ("GE OEC 9800 mobile c-arm") or
    after a word no device holds ("OEC 9800 c-arm"), the words and the number are the device's brand as the records
    name it ("OEC 9800"), never all of the firm's records. The words after the number are kept when they read, else
    dropped."""
    it, clar = _read(ctx, question, last)
    if it.sides or (it.firm is not None and it.firm.match == "those"):
        return it, clar
    unused = {w.lower().strip("\"'") for w in it.unexplained}
    firm = it.firm
    m = re.search(re.escape(firm.words) + _AFTER_FIRM, question, flags=re.IGNORECASE) if firm else None
    if m and m[1].lower() in unused:
        return _as_brand(ctx, question, last, firm.words.split() if firm else [], m) or (it, clar)
    if firm is None and (not it.understood or clar is not None):
        for b in _BRAND_MODEL.finditer(question):
            if b[1].lower() in vocab.FUNCTION or (b[1].lower(),) in vocab.DATASET_PHRASES or b[1].lower() in MONTHS:
                continue
            m2 = re.search(r"\b" + re.escape(b[1]) + _AFTER_FIRM, question)
            if m2 and (got := _as_brand(ctx, question, last, [b[1]], m2)):
                return got
    return it, clar


def _as_brand(
    ctx: ToolContext, question: str, last: LastResult | None, words: list[str], m: re.Match[str]
) -> tuple[Interpretation, Clarification | None] | None:
    """The reading with words[k:] and the model number m[1] quoted as one brand, the words after it kept or not."""
    rests, rest = [question[m.end() :]], question[m.end() :]
    for _ in range(2):  # "... 9800 mobile c-arm since 2008": without "mobile", then without "mobile c-arm"
        kind = _KIND_WORD.match(rest)
        if not kind or kind[1].lower() in vocab.FUNCTION or (kind[1].lower(),) in vocab.DATASET_PHRASES:
            break
        rest = rest[kind.end() :]
        rests.append(rest)
    for k in range(len(words)):
        brand = " ".join(words[k:] + [m[1]])
        for after in rests:
            it2, clar2 = _read(ctx, question[: m.start()] + f'"{brand}"' + after, last)
            d = it2.device
            if it2.firm is None and d is not None and d.path in ("names", "codes+names") and it2.understood:
                return it2, clar2
    return None


# a capitalised word of the asker's work that may spell a product code ("the regulatory KPI slide", "our CAPA
# log"): in a frame it is the asker's own word, never the code
_BUSINESS_WORD = re.compile(
    r"\b(?:KPI|KPIs|CAPA|QMS|SOP|ROI|OKR|QBR|KOL|CEO|CFO|COO|VP|HR|NCR|MRB|DHF|DMR|DHR|ERP|CRM|RA|QA|QE|PMS|PSUR|"
    r"SLA|FYI|TBD|EOD|OOO)\b|\b[A-Z]{3}\s+(?:slide|deck|memo|report|dashboard|meeting|review|team|tracker|log)s?\b"
)


def _frame_dataset(ask: str, context: list[str]) -> str:
    """An ask that names no dataset ("How many were there?") after a frame that does ("I'm listing 510(k)
    clearances decided in 2020."): the frame's dataset words are read with the ask."""
    if not context or _datasets(tokenize(ask), take=False, weak_ok=False):
        return ask
    frame = tokenize(" ".join(context))
    said = [
        frame.words(i, j)
        for i, j, t in vocab.match_phrases(frame, vocab.DATASET_PHRASES, "dataset", take=False)
        if not t.endswith("?") and frame.words(i, j).lower() not in ("listing", "listed", "registered")
    ]  # "I'm listing ..." is the asker's verb
    return ask.rstrip() + " " + " ".join(dict.fromkeys(said)) if said else ask


_REGISTRY_CUE = {"word:fei": "FEI", "word:regnum": "registration number", "word:ownernum": "owner/operator number"}


def _named_in(ctx: ToolContext, text: str) -> list[str]:
    """The firms, record numbers, devices and periods a frame sentence names ("We are looking at Medtronic")."""
    it, _ = _read_model(ctx, expand_shorthand(text).rstrip(".!;:, "), None)
    out = [f.words for f in it.filters if (f.field in RECORD_FIELDS or f.field in ("word:lot", "di")) and f.words]
    out += [
        f"{_REGISTRY_CUE[f.field]} {f.words}" for f in it.filters if f.field in _REGISTRY_CUE and f.words
    ]  # "We keep seeing FEI 3002808212 in a dossier.": the establishment's number, with what says it is one
    out += [s.firm.words for s in it.sides if s.firm] or ([it.firm.words] if it.firm and it.firm.exact else [])
    d = it.device
    held = d and (any(c.records for c in d.codes) or d.codes and all(c.records is None for c in d.codes) or d.found)
    own = re.search(
        r"(?i)\b(?:i|i'm|im|we|we're|our|my|us|me|this\s+is|it's\s+for)\b|"
        r"^\W*(?:for|as\s+part\s+of|re|context|background|note|fyi|quick|regarding|retrospective|look[\s-]?back|"
        r"post[\s-]?mortem|recap|deep[\s-]dive|lessons)\b|"
        r"\b(?:director|boss|manager|ceo|cfo|vp|auditor|client|customer|board|management|colleague)\s+"
        r"(?:asks?|asked|wants?|needs?|wonders)\b|"
        # a legal matter's sentence ("Re: X angioplasty balloon claim."): the device of the claim is its context
        r"\b(?:litigation|lawsuit|claims?|matter|dispute|plaintiffs?|defendants?)\b",
        text,
    ) or names_asker(text)
    model = d and d.path in ("names", "codes+names") and re.search(r"\d{3,}", d.words)
    said_code = (
        d and d.path == "given" and d.codes and not _BUSINESS_WORD.search(text) and re.search(r"\b[A-Z]{3}\b", d.words)
    )
    if d and (said_code or held and not own or model):  # "Insulin pumps from Medtronic." is the topic; in the
        # asker's own sentence ("for our board deck") only a product code said counts as a device, and a model number
        out.append(d.words)
    if it.date_words:
        out.append(it.date_words)
    return [w.strip(".,;:!? ") for w in dict.fromkeys(out) if w.strip(".,;:!? ")]


def _device_in(ctx: ToolContext, text: str) -> str:
    """The device a frame sentence names ("We're evaluating infusion pumps for our hospital."), as its words, when
    its codes or the records' own names hold it; else ""."""
    text = expand_shorthand(text).rstrip(".!;:, ")
    core = _OWN_TAIL.sub("", _OWN_HEAD.sub("", text))  # "We're evaluating X for our hospital": X
    called = _CALLED.search(text)  # "... got set up with something called a Somnera system instead of ...": that one
    for t in dict.fromkeys(([called[1]] if called else []) + [core, text]):
        it, _ = _read_model(ctx, t, None)
        d = it.device
        if d is None and len(it.sides) > 1:
            d = next((s.device for s in it.sides if s.device and _holds_records(s.device)), None)
        if d and (_holds_records(d) or d.codes):
            return d.words.strip(".,;:!? ")
    return ""


_CALLED = re.compile(
    r"(?i)\b(?:called|named|branded)\s+(?:an?\s+|the\s+)?[\"“']?(.{2,40}?)[\"”']?(?=\s+(?:instead|for|from|by|that|which|and|"
    r"but|in|on|at|made|came|comes|is|was|has|got|showed|turned|popped)\b|[.,;!?]|$)"
)
# the asker's own subject and verb before what a frame sentence names, and a closing "for our hospital"
_OWN_HEAD = re.compile(
    r"(?i)^\W*(?:(?:we|i|they)(?:'re|'m|'ve|\s+are|\s+am|\s+have|\s+were|\s+was)?|(?:our|my|the)\s+(?:[a-z]+\s+){0,2}?"
    r"(?:team|group|department|dept|unit|hospital|clinic|lab|site|committee|staff|manager|director|boss)"
    r"(?:'s|\s+is|\s+are|\s+was|\s+were|\s+has)?)\s+(?:(?:currently|now|also|still|just|really)\s+)?(?:[a-z]+ing|used|bought|purchased|"
    r"considered|has|(?:use|buy|purchase|own|have|stock|run|make|sell|track|need|want|consider|evaluate|assess|review|"
    r"compare)s?)\b(?:\s+(?:at|on|into|about|with|for|over|up))?(?:\s+(?:the|a|an|some|new|our|several|two|three|"
    r"more|replacing|replacement))*\s+"
)
_OWN_TAIL = re.compile(
    r"(?i)\s+(?:for|in|at|across|on|from|to)\s+(?:our|my|the|a|an|this|its|their|two|three|several|multiple|"
    r"different|many|\d+)\b.*$|\s+(?:closely|again|now|today)\W*$"
)


def _names_a_filter(ctx: ToolContext, words: str) -> bool:
    """Bracketed words that name a firm, a place or a status to count by ("(Medtronic)", "(Puerto Rico)")."""
    it, _ = _read(ctx, words, None)
    return bool(it.firm or it.place or it.filters)


def _doubtful(ctx: ToolContext, frame: str, ask: str) -> bool:
    """A sentence with no ask whose words the rules left unread, two or more of them device words ("We track
    infusion pumps closely."), beside an ask that names nothing of its own ("Any recalls since 2010?"): it may name
    what the ask is about, so it is not dropped as context."""
    it, _ = _read(ctx, expand_shorthand(frame).rstrip(".!;:, "), None)
    if it.device or it.firm or not it.unexplained:
        return False
    reach = device_word_reach(ctx.api, [w.lower().strip(".,;:!?") for w in it.unexplained])
    if sum(1 for v in reach.values() if v >= 5) < 2:
        return False
    a, _ = _read(ctx, ask, None)
    if a.datasets == ["covid19serology"] and re.match(r"(?i)^\W*(?:our|we|i|my)\b", frame):
        return False  # "Our lab vetted antibody kits in 2020. In the FDA serology data, whose ...": the asker's own
    return not (a.device or a.firm or a.place or a.sides or any(f.field in RECORD_FIELDS for f in a.filters))


def _read(
    ctx: ToolContext, question: str, last: LastResult | None = None
) -> tuple[Interpretation, Clarification | None]:
    it = Interpretation(question=question)
    tokens = tokenize(question[:2000])
    if not tokens.toks:
        it.understood = False
        return it, None
    _plain_typos(ctx, tokens)
    take_context(tokens)  # "for our CAPA", "a screw supplier": the work's words, never names to search
    ids = read_ids(tokens)
    it.filters += list({id(f): f for _, f in ids}.values())  # one filter said for two datasets is one filter
    by_name = take_fields(tokens, KNOWN_FIELDS)  # "owner operator number", "reason for recall": before any other word
    unknown_codes = read_codes(ctx, tokens, it)
    preview = _datasets(Tokens(tokens.text, tokens.toks, dict(tokens.role)), take=False)
    ids_ds = list(dict.fromkeys(ds for ds, _ in ids))
    models = hold_model_numbers(ctx, tokens)  # "EXPMT 2000": a model, not the year 2000
    rng = read_dates(tokens, _anchor(ctx, preview or ids_ds))
    if rng:
        it.date_from, it.date_to, it.date_words = rng.start, rng.end, rng.words
    periods = [rng] if rng else []
    if rng:
        it.date_field = _date_kind(tokens)
    while periods and len(periods) < 4 and (more := read_dates(tokens, _anchor(ctx, preview or ids_ds))):
        periods.append(more)  # "2020 vs 2014": one side per period
    read_values(ctx, tokens, it, preview)
    read_categories(ctx, tokens, it, preview)
    read_cities(ctx, tokens, it, preview)
    read_ages(ctx, tokens, it, preview)
    for k in models:
        tokens.role.pop(k, None)  # read with the model's other words as a device
    earlier = list(last.reading.get("datasets") or []) if last and last.reading and not preview else []
    _filters(tokens, it, preview, earlier)  # "how many positives?" after serology results: that dataset's field
    _class_alternative(tokens, it)
    said_fields = _measure(tokens, it, keyed=bool(ids or it.device))
    classes_asked = _classes_listed(it)
    if it.sides:
        it.measure = "compare"  # two values of one field said: one side each
    if it.measure == "compare" and len(periods) == 1:
        periods = _years_apart(periods[0], bool(_CHANGE.search(question))) or periods  # "2023 and 2024": a side each
    strong = _datasets(tokens, take=True, weak_ok=False)
    implied = (
        (["event"] if any(f.field == "event_type" for f in it.filters) else [])
        + (["pma"] if it.supplements != "all" else [])
        + [
            vocab.FILTER_DATASET[f.field[5:]]
            for f in it.filters
            if f.field.startswith("word:")
            and vocab.FILTER_DATASET.get(f.field[5:])
            and not set(vocab.FILTER_FIELDS.get(f.field[5:], ({}, ""))[0]) & set(strong)
        ][:1]
    )  # a filter's own dataset, unless a dataset named holds its field ("ongoing enforcement reports")
    it.datasets = list(dict.fromkeys(strong + implied))
    held = [
        i
        for i, t in enumerate(tokens.toks)
        if tokens.free(i)
        and len(t.text) == 2
        and t.text.isupper()
        and i
        and (
            tokens.toks[i - 1].low in ("country", "state", "countries", "states")
            or tokens.toks[i - 1].low in ("in", "for", "from")
            and (
                not any(any(c.isalnum() for c in t2.text) for t2 in tokens.toks[i + 1 :])
                or re.search(r"\b(?:in|for|from)\s+" + t.text + ASK_TAIL, question)
            )
            and not question.isupper()
        )
    ]  # "country = IT" and "registrations for IT" (at the end, or before ", how many?") are Italy, not "it"
    for i in held:
        tokens.role[i] = "place?"  # "country = IT" is Italy, not "it"
    follow = vocab.match_phrases(tokens, vocab.FOLLOWUP, "followup")
    for i in held:
        tokens.role.pop(i, None)
    _typos(ctx, tokens, it)
    if last and last.reading and not ids:
        field_not_dataset(tokens, it)  # "regulation?" after an answer: its regulation number
    if last and last.reading:
        _demonstrative_dataset(tokens, it, strong, last)  # "what class was that recall?": the previous result
    named = [d for d in it.datasets if d in strong]  # said, not only implied by a filter ("just malfunctions?")
    if (
        last
        and last.reading
        and named == ["recall"]
        and (last.reading.get("datasets") or []) == ["enforcement"]
        and re.search(
            r"(?i)\b(?:the|that|its|this)\s+recall(?:'s)?\s+(?:initiation|class|status|number|date|reason|root)",
            question,
        )
    ):  # "and the recall initiation date?" after an enforcement report: that report's field (it is the recall)
        named, it.datasets = [], []
    if (
        last
        and last.reading
        and named == ["classification"]
        and "classification" not in (last.reading.get("datasets") or [])
        and re.search(r"(?i)\bclassified\b", question)
        and not re.search(r"(?i)\bclassifications?\b|\bproduct\s+codes?\b", question)
    ):  # "of those, # classified class 3?" after enforcement reports: their recall class, not the product codes
        named, it.datasets = [], []
    of_those = bool(
        last
        and last.reading
        and named
        and set(named) <= set(last.reading.get("datasets") or [])
        and re.search(r"(?i)\b(?:of|among)\s+(?:those|these|them)\b", question)
    )  # "how many of those were approvals?" after PMA supplements: the same records narrowed, the dataset said again
    asks_field = bool(
        (said_fields or by_name) and last and last.reading and specific(last.reading) and not content(tokens)
    )  # "who was the submitter?" after one product code's 510(k)s, "owner operator number?" after a registration
    # found by its number (a field said by its catalogue name): that field of what was found
    refine = bool(
        last
        and last.reading
        and (not named or of_those)
        and not ids
        and (refining(tokens, follow) or bare(tokens, it) or asks_field)
    )
    it.datasets = it.datasets or _weak(tokens, preview)
    if refine and last is not None:
        it.datasets = list(last.reading.get("datasets") or [])  # "just 2009?": the previous question, narrowed
    elif not it.datasets and follow and last and last.dataset:
        it.datasets = [last.dataset]  # "what about Boston Scientific?": the previous question's dataset
    vocab.verbs_as_grammar(tokens)
    _site_words(tokens, preview + it.datasets)
    for k in tokens.unused():
        if any(tokens.toks[k].low in vocab.DATASET_WORDS.get(ds, ()) for ds in it.datasets):
            tokens.take(k, k + 1, "dataset")  # "serology samples tested": the records' own nouns
    by_name += take_fields(tokens)  # the other field names said, where still free: never device words
    describe_record(tokens, it, ids)  # "Z-0053-2020, the lidstock labeling one": the record's description
    names = read_names(ctx, tokens, vocab.FUNCTION | vocab.FIELD_WORDS)
    for k in range(len(tokens.toks)):
        if tokens.free(k) and tokens.toks[k].low in vocab.FUNCTION | vocab.FIELD_WORDS:
            tokens.take(k, k + 1, "function")
    if (
        not refine
        and last is not None
        and last.reading
        and not named
        and not ids
        and (names.places or names.firms)
        and not names.devices
        and not content(tokens)
        and len(tokens.toks) <= 8
    ):  # "any from Texas?", "and for Medtronic?": the previous question narrowed to a place or firm
        refine = True
        it.datasets = list(last.reading.get("datasets") or [])
    resolve_measure(
        it,
        ids,
        prev_specific=refine
        and last is not None
        and specific(last.reading)
        or bool(names.firms)
        and it.field in FIRM_LOOKUPS,
    )
    ask_field(it, by_name, bool(ids or names.firms or names.devices or asks_field and refine))
    if (
        tokens.lows()[0] == "when"
        and it.measure == "list"
        and not it.field
        and ids
        and set(ids_ds) & {"510k", "pma"}
        and not it.date_from
    ):
        it.field, it.measure = "decision_date", "lookup"  # "when was K202114 cleared?": its decision date
    if (
        classes_asked
        and not it.sides
        and (names.devices or names.firms or ids or it.device)
        and it.measure in ("list", "lookup")
    ):
        it.filters = [f for f in it.filters if f.field != "class"]  # "Yumizen CRP assay: class I, II or III?"
        it.field = "recall_class" if set(it.datasets) & {"recall", "enforcement"} else "device_class"
        it.measure, it.by = "lookup", None
    if not it.datasets and re.search(r"(?i)\brecalling\s+(?:firms?|compan(?:y|ies)|manufacturers?)\b", question):
        it.datasets = ["recall"]  # "top 5 recalling firms": the firms of the recalls
    defaulted = not it.datasets
    _defaults(it, ids_ds, names)
    _ids_elsewhere(ctx, it, ids)
    recall_numbers(ctx, it)
    ids_apply(it, ids_ds)
    event_home(ctx, it)  # (again: the record number may have moved the search to the recalls)
    if (
        not it.field
        and any(f.field in ("event_id", "product_res_number") for f in it.filters)
        and re.search(r"(?i)\bhow\s+(?:serious|severe|bad|risky)\b|\bseverity\b", question)
    ):  # "how serious was recall event 62925?": its recall class
        it.field, it.measure, it.by, it.datasets = "recall_class", "lookup", None, ["enforcement"]
    if (
        it.field in (None, "decision_date")
        and any(f.field == "k_number" for f in it.filters)
        and re.search(
            r"(?i)\b(?:when|what\s+date|which\s+date|date)\b.{0,60}\b(?:clear(?:ed)?|decided|decision)\b", question
        )
    ):  # "the recall notice cites K920002 - what date did FDA clear it?": the 510(k)'s decision date
        it.field, it.measure, it.by, it.datasets = "decision_date", "lookup", None, ["510k"]
    if (
        not it.field
        and any(f.field in ("event_id", "product_res_number") for f in it.filters)
        and re.search(r"(?i)\bwhen\b|\bdate\b", question)
        and any(f.field == "word:status" and f.value == "Terminated" for f in it.filters)
    ):  # "when was recall event 26609 terminated?": its termination date, not a count of terminated recalls
        it.filters = [f for f in it.filters if f.field != "word:status"]
        it.field, it.measure, it.by = "termination_date", "lookup", None
    if (
        it.field in (None, "registration_number", "fei_number")  # "registration number 9610240" names the record
        and any(f.field in ("word:regnum", "word:fei") for f in it.filters)
        and set(it.datasets) & {"pma", "510k"}
        and (
            it.measure in ("list", "lookup")
            or re.search(r"(?i)\b(?:pma|510\s*\(?k\)?)\s*(?:numbers?|no\.?|#|num)(?!\w)", question)
        )
    ):  # "which PMA is listed under registration 9610240?": the listing's own premarket number
        it.field, it.measure, it.datasets = "premarket_submission", "lookup", ["registrationlisting"]
    clar = _devices_and_names(ctx, tokens, it, names, defaulted)
    if (
        tokens.lows()[0] == "when"
        and it.measure == "list"
        and not it.field
        and it.device
        and it.device.path == "names"
        and set(it.datasets) <= {"510k", "pma"}
        and it.datasets
        and not it.date_from
        and re.search(r"(?i)\b(?:cleared|approved|clearance|approval|decided|clear|approve)\b", question)
    ):
        it.field, it.measure = "decision_date", "lookup"  # "when was the O-Genesis system cleared?": its date
    if (
        tokens.lows()[0] == "when"
        and (it.field == "decision_code" or it.measure == "top" and it.by == "decision_code")
        and it.datasets
        and set(it.datasets) <= {"510k", "pma"}
        and (ids or it.device)
    ):
        it.field, it.measure, it.by = "decision_date", "lookup", None  # "when did X get its SE decision?": the date
    more_sides(it, names, periods)
    sound_sides(it)  # "X vs X", or a side that names nothing the mirror knows: no comparison
    if it.measure == "compare" and not it.sides and _CHANGE.search(question):
        it.measure, it.by = "trend", "year"  # "did recalls for X increase?": the counts per year show it
    _site_of_firm(it)
    if it.field == "k_numbers" and it.datasets == ["510k"] and it.firm and not it.device and it.measure == "lookup":
        it.field, it.measure = None, "list"  # "orthofix k numbers": the firm's 510(k)s, each with its number
    firm_home(it)
    if (
        it.measure == "top"
        and it.by == "product_code"
        and it.device
        and it.device.path == "given"
        and len(it.device.codes) <= 3
    ):
        it.measure, it.by = "list", None  # "which MDRs are under OZO": its records, not a ranking
    flag_question(it, tokens)
    udi_flag_question(it, question)
    record_flag(it)
    _place_of_firm(it, question)
    if (
        it.measure == "top"
        and it.by == "product_code"
        and it.datasets
        and set(it.datasets) <= {"udi", "gudid"}
        and not _RANKING_WORDS.search(question)
    ):
        it.measure, it.by = "list", None  # "what devices does Netech have in GUDID": its device records, listed
    if it.measure == "list" and not it.field and it.device and not ids:
        it.field = next((f for f in said_fields if f in CLASSIFICATION_FIELDS), None)  # "... system device class"
    classification_lookup(it, defaulted)
    _class_asked(tokens, it, defaulted)
    _classification_of(it)
    _broader_codes(ctx, it)
    field_of_named(ctx, it, frozenset(LOOKUP_FIELDS))
    if refine and last is not None:
        yesno = (
            tokens.toks[0].low in ("is", "are", "was", "were", "does", "do")
            or tokens.toks[0].low == "any"  # the frame reads "implant y/n?" as "any implant?"
            and any(f.field in ("word:implant", "word:life") for f in it.filters)
            or any("flag" in f.words.lower() for f in it.filters if f.field.startswith("word:"))
        )  # "implant y/n?", "implant flag on that one?": the flag's value for the previous device
        classes = [f for f in it.filters if f.field == "class"]
        listed = sum(1 for t in tokens.toks if t.low in ("i", "ii", "iii", "1", "2", "3")) > 1
        if classes and listed and not specific(last.reading):  # "class I, II or III?": each record's class
            prev = set(last.reading.get("datasets") or [])
            it.filters = [f for f in it.filters if f.field != "class"]
            it.measure, it.by = "lookup", None
            it.field = "recall_class" if prev & {"recall", "enforcement"} else "device_class"
        elif (yesno or listed) and classes and specific(last.reading):  # "is it class II or class III?", "what
            # device class is that code? II or III?": the class of what was found, the classes only offered
            it.filters = [f for f in it.filters if f.field != "class"]
            it.measure, it.field = "lookup", "device_class"
        it = merge(Interpretation(**last.reading), it, bool(rng), last)
        if yesno:
            flag_question(it, tokens)  # "... ETB?" then "is it an implant?": the flag of the same code
        if it.datasets and set(it.datasets) <= {"recall", "enforcement"} and "device_class" in (it.field, it.by):
            if any(f.field == "class" for f in it.filters) and _COUNT_WORDS.search(question.replace("#", "number")):
                it.measure, it.field, it.by = "count", None, None  # "of those, # classified class 3?": counted
            else:
                it.measure, it.field, it.by, it.datasets = "lookup", "recall_class", None, ["enforcement"]
    elif follow and last and not (it.device or it.firm or ids or it.place):
        bind(it, last, [tokens.lows()[i] for i, _, _ in follow])
    elif follow and last and last.place and not it.place and any(tokens.lows()[i] == "there" for i, _, _ in follow):
        it.place, it.followup = last.place, "keys"
    elif (
        last
        and last.reading
        and named
        and specific(last.reading)
        and not content(tokens)
        and not (it.device or it.firm or ids or it.place or it.filters or it.date_from or it.date_to)
    ):
        bind(it, last, [])  # "OZP adverse events" then "any recalls?": recalls for OZP
    if last and last.reading and (refine or follow) and it.measure == "list" and not it.field:
        asked = next(
            (LOOKUP_ALIAS.get(f, f) for f in said_fields if LOOKUP_ALIAS.get(f, f) in LOOKUP_FIELDS), None
        )  # "and the problem reported?": the device problem of what was found
        if asked and specific(it.model_dump()):
            it.field, it.measure = asked, "lookup"  # "and its device class?": that field of what was found
    _classes(it)
    if it.field == "review_panel" and it.datasets == ["510k"] and it.measure == "lookup":
        it.field = "advisory_committee_description"  # "which advisory committee reviewed K200606?": the 510(k)'s own
    _class_of_record(ctx, it)
    if (
        it.measure in ("count", "list")
        and not it.field
        and not it.sides
        and "classification" in it.datasets
        and re.search(r"(?i)\b(?:by|per|for\s+each|each)\s+device\s+class\b", question)
    ):
        it.measure, it.by = "top", "device_class"  # "number of product codes per class": one count per class
    if it.field == "review_panel" and len({f.value for f in it.filters if f.field == "word:panel"}) > 1:
        it.field, it.measure = None, "compare"  # "which panel reviews more class III devices, CV or NE?"
    _sides_of_one_field(it)
    panel_fields(it)
    if it.measure == "count" and it.by in ("year", "month", "quarter") and not it.sides:
        it.measure = "trend"  # "the count of PMA decisions for each quarter of 2020": one count per quarter
    if it.field == "code_info" and it.datasets and set(it.datasets) <= {"event", "covid19serology"}:
        it.field = "lot_number"  # "lot #" of an adverse event report: its device's lot number
    if it.measure == "top" and it.by == "review_panel" and re.search(r"(?i)\bspecialt(?:y|ies)\b", question):
        it.by = "medical_specialty"  # "which specialty has the most class I devices": the specialty's name
    if any(f.field == "word:duns" for f in it.filters):  # "whose labeler DUNS is 793149709 in GUDID?": the labeler
        if "gudid" in it.datasets:  # the GUDID release is not searched by DUNS: its openFDA UDI records are
            it.notes.append("the labeler DUNS number is searched in the openFDA UDI records of the GUDID devices")
        it.datasets = ["udi"]
        if it.field in (None, "labeler_duns_number") and it.measure in ("list", "lookup", "top") and not it.sides:
            it.field, it.measure, it.by = "company_name", "lookup", None  # the number is given: its firm is asked
    if (
        it.field in ("registration_number", "fei_number")
        and any(f.field in ("word:regnum", "word:fei") for f in it.filters)
        or it.field == "owner_operator_number"
        and any(f.field == "word:ownernum" for f in it.filters)
    ):
        it.field, it.measure = None, "list"  # the number is given: the establishment it names is asked for
    said = {t.low for t in tokens.toks}
    named_so = r"(?i)\bpre-?\s?market\s+approvals?\b"  # the dataset's own name, "premarket approval supplements"
    if (
        re.search(named_so, question)
        and said & {"supplement", "supplements"}
        and not re.search(r"(?i)\bapprov\w*", re.sub(named_so, " ", question))
    ):
        said -= {"approval", "approvals"}
    narrowed_all = bool(refine and last and last.reading and last.reading.get("supplements") == "all")  # "of them,
    # how many were approved?" after every PMA decision: the approved ones among them, originals and supplements
    if "pma" in it.datasets and _BOTH_KINDS.search(question) and not it.sides:
        it.supplements = "all"  # "approvals and supplements": every PMA record, originals and supplements alike
    elif (
        "pma" in it.datasets
        and said & {"supplement", "supplements"}
        and said & {"original", "originals"}
        and not it.sides
    ):
        it.supplements = "originals"  # "supplements vs originals": originals, with the supplements beside
        it.measure = "count" if it.measure in ("compare", "list") else it.measure
    elif (
        it.supplements == "all"
        and "pma" in it.datasets
        and not any(f.field == "pma_number" for f in it.filters)
        and said & {"approval", "approvals", "approved", "approve"}
        and not narrowed_all
        and not said & {"decision", "decisions"}  # "approvals/decisions": every decision, not originals
        and not re.search(r"(?i)\b(?:or|and|/)\s*decided\b", question)  # "approved or decided"; "approvals
        # decided during 2023" is still the approvals, dated by their decision
    ):
        it.supplements = "originals" if it.measure in ("count", "list", "compare") else "all"
    elif (
        (it.supplements == "supplements" or narrowed_all)
        and "pma" in it.datasets
        and said & {"approval", "approvals", "approved"}
        and not any(f.field == "word:pmadecision" for f in it.filters)
    ):
        label = vocab.FILTER_FIELDS["pmadecision"][1].format(v="APPR")
        it.filters.append(
            Filter(field="word:pmadecision", value="APPR", label=label + " (approved)", words="approved")
        )  # "supplements approved": decided APPR, not 30-day notices
    if (
        it.measure == "compare"
        and len(it.sides) == 2
        and all(len(sd.filters) == 1 and sd.filters[0].field == "word:status" for sd in it.sides)
        and re.search(r"(?i)\bor\b", question)
        and not re.search(r"(?i)\b(?:how\s+many|count|number|vs\.?|versus|compar\w*|more|fewer|each)\b", question)
        and (ids or it.device or it.firm)
    ):  # "is it still open or closed out?": the status of the recall named, not two counts to compare
        it.sides, it.measure, it.field, it.by = [], "lookup", "status", None
        it.datasets = ["recall"] if set(it.datasets) <= {"recall", "enforcement"} else it.datasets
    enf = [
        f
        for f in it.filters + [f for side in it.sides for f in side.filters]  # "class II vs class III recalls"
        if f.field == "recall_class"
        or f.field.startswith("word:")
        and vocab.FILTER_DATASET.get(f.field[5:]) == "enforcement"
        or f.field == "word:status"
        and f.value == "Ongoing"  # the recalls' own statuses are "Open, Classified", "Completed", "Terminated"
    ]
    if "recall" in it.datasets and enf:
        it.datasets = [("enforcement" if d == "recall" else d) for d in it.datasets]  # those fields live there
        what = (
            "recall classes are"
            if enf[0].field == "recall_class"
            else 'the status "Ongoing" is'
            if enf[0].field == "word:status"
            else f"{enf[0].label} are"
        )
        it.notes.append(f"{what} given in FDA enforcement reports, so those were counted")
        it.datasets = list(dict.fromkeys(it.datasets))
    if it.date_from and rng and not preview and it.datasets and _anchor(ctx, it.datasets) != _anchor(ctx, []):
        again = read_dates(tokenize(rng.words), _anchor(ctx, it.datasets))
        if again:
            it.date_from, it.date_to = again.start, again.end
    month_clar = None
    if rng and rng.month_alone and len(periods) == 1 and it.date_from:
        month_clar = _year_of_month(ctx, it, rng.month_alone, last if (refine or follow) else None)
    elif rng and rng.quarter_alone and len(periods) == 1 and it.date_from and not (refine or follow):
        month_clar = _year_of_quarter(ctx, it, rng.quarter_alone)
    _firm_word(ctx, tokens, it)
    _registered_as_verb(it)
    _firm_datasets(it)
    _reread_device(ctx, it)
    _filters_apply(it)
    _problem_of_the_device(it)
    _latest(tokens, it)
    _when_terminated(it)
    _pma_number_asked(it)
    reason_in_enforcement(it)
    _score(tokens, it, names, unknown_codes)
    if clar is None and month_clar is not None:
        clar = month_clar
    if clar is None and names.questions:
        clar = Clarification(question=names.questions[0][0], choices=names.questions[0][1])
    if clar is None and it.understood and not refine:
        clar = _firm_own_codes(ctx, it)
    if clar is None and it.understood and not refine:
        _serology_makers(it)
        _recall_problem(it)
        rank_when_bare(it, said_fields)
        _codes_named(it)
        clar = (
            ask_when_weak(ctx, it)
            or ask_field_of_many(ctx, it)
            or ask_recall_class_kind(it)
            or (ask_dataset(it) or ask_firm_dataset(it) or ask_class_kind(it) if defaulted else None)
        )
    if clar is None and it.understood:
        _recall_class_asked(it)  # "what class did FDA assign the ASP enforcement report": its recall class
    if firm_left_out(ctx, it):
        it.understood, clar = True, None
        if defaulted and not refine:  # "excluding Tz Medical, how many?" with no dataset: which records, asked
            clar = ask_firm_dataset(it) or ask_dataset(it)
    elif record_field(it):
        if not strong:
            firm_field_home(it)  # "review time for K200606": that field of the record named, where it is
    elif cannot := cannot_answer(it):
        it.understood, it.cannot, clar = False, cannot, None
    elif clar is None and it.understood and (negated := _negated_filter(it)):
        it.understood, it.cannot = False, negated
    elif clar is None and it.understood and (unapplied := _class_not_applied(it)):
        it.understood, it.cannot = False, unapplied
    elif clar is None and it.understood and (unranked := cannot_rank(it)):
        it.understood, it.cannot = False, unranked  # "which review panel has the most recalls?"
    elif clar is None and it.understood and (withheld := hold_back(it)):
        it.understood, it.cannot = False, withheld  # never a figure for a reading that rests on words it did not find
    if not refine:
        drop_verb_device(it)
        which_unit(it)
        if formed := form_word_device(it):
            it.understood, it.cannot, clar = False, formed, None  # "sterile", "FEI", "rate": a word naming no device
    if names.unfound_firms and it.firm is None and not it.sides:
        it.understood, clar = False, None
        where = ", ".join(vocab.LABEL.get(d, d) for d in it.datasets) or "records"
        it.cannot = (
            f'No firm named "{names.unfound_firms[0]}" is in the records of this mirror (the {where} are as of '
            f"{_anchor(ctx, it.datasets).isoformat()}), so I give no figure for it. Check how the records spell "
            'the firm\'s name (for example "Medtronic" or "Arrow International") and ask again.'
        )
    if (
        clar is not None
        and not it.understood
        and any(c.patch.get("device") or c.patch.get("firm") for c in clar.choices)
    ):
        it.understood = True  # the question names a device we could not read: ask
    return it, clar if it.understood else None


# fields the readers already know by their own words (lookups, rankings, filters, a record's quantity or names):
# the field lexicon takes their words only where those readers left them free
KNOWN_FIELDS = frozenset(
    {*LOOKUP_FIELDS, *COUNTABLE, *LOOKUP_ALIAS, "product_quantity", "proprietary_name", "root_cause_description"}
    | {"recalling_firm", "manufacturer_name", "company_name", "patient_problems", "device_problems"}
    | {p.removesuffix(".exact").rsplit(".", 1)[-1] for ds, _ in vocab.FILTER_FIELDS.values() for p in ds.values()}
) - {"owner_operator_number"}  # its number is read as a record's (ids); its name asks for the field itself


# both kinds of PMA record said together: all of them
_BOTH_KINDS = re.compile(
    r"(?i)\b(?:approvals?|originals?)\s+(?:and|&|plus|\+|with|or)\s+(?:their\s+|the\s+)?supplements?\b|"
    r"\bsupplements?\s+(?:and|&|plus|\+|or)\s+(?:the\s+)?(?:approvals?|originals?)\b|"
    r"\b(?:originals?|supplements?)\s*(?:or|and)\s*(?:originals?|supplements?)\s*\)|"  # "(originals or supplements)"
    r"\b(?:incl\.?|including|inclusive\s+of|with|plus)\s+(?:the\s+|their\s+|any\s+)?supplements?\b|"
    r"\bsupplements?\s+(?:included|too|as\s+well|count|counted)\b"  # "supplements included": all of them
)


# kinds of date said only right before the period ("terminated in 2020"); elsewhere the word is a filter
# ("terminated recalls initiated in 2019": the recalls initiated in 2019 whose status is terminated)
_NEAR_KINDS = {"terminated", "ended"}


# "which kits / tests / brands / makers / companies' tests ...", "who had ...": in the serology evaluations, the
# makers whose tests gave those results (each maker's test is one test)
_WHICH_MAKERS = re.compile(
    r"(?i)\b(?:which|what|whose)\s+(?:[\w'-]+\s+){0,4}?(?:kits?|tests?|assays?|brands?|makers?|manufacturers?|mfrs?|"
    r"companies|company's|companies'|firms?|vendors?|suppliers?)\b|(?:^|[:;,.-]\s*)who\s+(?:had|got|gave|has|have)\b"
)


def _serology_makers(it: Interpretation) -> None:
    """A serology question that asks which tests or makers gave results of a kind ("which kits threw false
    positives?"): the makers are ranked by those results, never one count of them."""
    if (
        it.datasets == ["covid19serology"]
        and (it.measure in ("list", "count") and not it.field or it.field in ("brand_name", "manufacturer"))
        and not it.sides
        and any(f.field == "word:agree" for f in it.filters)
        and _WHICH_MAKERS.search(it.question)
        and not re.search(r"(?i)\bhow\s+many\b", it.question)
    ):
        it.measure, it.by, it.field = "top", "manufacturer", None


def _recall_end(it: Interpretation) -> None:
    """ "The Sterrad cassette recall, when was it terminated?": the date that recall ended, not a count of the
    terminated ones (as for a recall named by its number)."""
    if (
        not it.field
        and (it.device is not None or it.firm is not None)  # "teleflex/arrow recall ..., terminated when"
        and it.datasets
        and set(it.datasets) <= {"recall", "enforcement"}
        and it.measure in ("list", "count")
        and not it.sides
        and re.search(
            r"(?i)\b(?:when|what\s+(?:date|day)|which\s+(?:date|day))\b[^.?!]{0,100}\bterminated\b|\bterminated\s+"
            r"(?:when|on\s+what\s+(?:date|day))\b|\btermination\s+date\b",
            it.question,
        )
        and not re.search(r"(?i)\bhow\s+many\b|\binitiat\w*|\bstart\w*|\bbegan\b", it.question)
        and any(f.field == "word:status" and f.value == "Terminated" for f in it.filters)
    ):
        it.filters = [f for f in it.filters if f.field != "word:status"]
        it.field, it.measure, it.by = "termination_date", "lookup", None


def _recall_class_asked(it: Interpretation) -> None:
    """ "What class did FDA assign the Advanced Sterilization Products enforcement report?": a recall's class is its
    recall class (recalls carry no device class to rank by), asked of the recall named by its firm, device or number."""
    if (
        it.datasets
        and set(it.datasets) <= {"recall", "enforcement"}
        and "device_class" in (it.field, it.by)
        and it.measure in ("top", "lookup")
        and not it.sides
        and (it.firm or it.device or any(f.field in RECORD_FIELDS for f in it.filters))
        and not re.search(r"(?i)\b(?:most|top|rank\w*|common|frequent|breakdown|by\s+class)\b", it.question)
    ):
        it.measure, it.field, it.by, it.datasets = "lookup", "recall_class", None, ["enforcement"]


def _recall_problem(it: Interpretation) -> None:
    """ "Arrow International recall - what was the problem there?": the recall's reason (its root cause), never a
    ranking by device problem, which recalls do not carry."""
    if (
        it.datasets
        and set(it.datasets) <= {"recall", "enforcement"}
        and (it.by == "device_problem" and it.measure == "top" or it.field == "device_problem")
        and (it.firm or it.device or any(f.field in RECORD_FIELDS for f in it.filters))
        and re.search(r"(?i)\bwhat\s+(?:was|is|were|are)\s+(?:the\s+)?(?:problems?|issues?)\b", it.question)
        and not re.search(r"(?i)\b(?:most|top|common|frequent|rank\w*)\b", it.question)
    ):
        it.field, it.measure, it.by = "root_cause", "lookup", None


_LISTING = re.compile(r"(?i)\b(?:listings?|listed|reg(?:istration)?\s*(?:&|and|/)\s*listing|device\s+listing)\b")


def _listing_pma(it: Interpretation) -> None:
    """The PMA number a firm's device listing carries ("which PMA is it listed under?", "what PMA # is on the X in
    reg & listing"): the listing's own premarket number, not a count of registrations or of PMA approvals."""
    if (
        "registrationlisting" in it.datasets
        and (it.firm or it.device)
        and not it.sides
        and it.field in (None, "premarket_submission", "pma_number")
        and it.measure in ("list", "count", "lookup")
        and _PMA_NUMBER_ASKED.search(it.question)
        and _LISTING.search(it.question)
        and not re.search(r"(?i)\bhow\s+many\b", it.question)
    ):
        it.field, it.measure, it.by, it.datasets = "premarket_submission", "lookup", None, ["registrationlisting"]


_STARTED = re.compile(
    r"(?i)\b(?:when|what\s+date|which\s+date|date)\b[^.?!]{0,100}\b(?:initiated|started|start|began|begin|kicked\s+off|"
    r"launched|opened)\b|\b(?:initiation|start|starting)\s+date\b|\bsince\s+when\b"
)


def _recall_start(it: Interpretation) -> None:
    """ "Arrow pediatric CVC kit AK-25502 - when did that recall start?", "initiation date?" of one recall named by
    its firm, device or number: the date the recall was initiated, not a count of recalls."""
    kept = it.field and it.measure == "lookup" and not re.search(r"(?i)caus|reason|class|status|terminat", it.question)
    if (
        it.field
        and not kept  # (a field kept from the answer before is replaced: "and when was it initiated?")
        or it.datasets not in (["recall"], ["enforcement"])
        or it.measure not in ("list", "count", "lookup")
        or it.sides
        or it.date_from
        or it.date_to
        or not (it.firm or it.device or any(f.field in ("event_id", "product_res_number") for f in it.filters))
        or not _STARTED.search(it.question)
        or re.search(r"(?i)\bhow\s+many\b|\bcount\b|\bnumber\s+of\b", it.question)
    ):
        return
    start = "event_date_initiated" if it.datasets == ["recall"] else "recall_initiation_date"  # (an enforcement
    # report's own name of the date)
    it.field, it.measure, it.by, it.date_field = start, "lookup", None, ""


def _class_alternative(tokens: Tokens, it: Interpretation) -> None:
    """ "class II or III": the second class is the alternative asked about, never a device word ("Sudan III")."""
    lows = tokens.lows()
    if not any(f.field == "class" for f in it.filters):
        return
    for k in range(2, len(lows)):
        if (
            tokens.free(k)
            and lows[k] in ("i", "ii", "iii", "1", "2", "3")
            and lows[k - 1] in ("or", "and", "/", ",")
            and tokens.role.get(k - 2) == "filter"
        ):
            tokens.take(k - 1, k + 1, "filter")
        elif tokens.free(k - 1) and lows[k - 1] in ("i", "ii", "iii") and tokens.role.get(k - 2) == "filter":
            tokens.take(k - 1, k, "filter")  # "class I, II or III": the commas are gone


# classification fields that 510(k) and PMA records do not carry themselves
_NOT_IN_RECORD = {
    "510k": {"device_class"},
    "pma": {"device_class", "review_panel", "regulation_number"},
}


def _class_of_record(ctx: ToolContext, it: Interpretation) -> None:
    """ "What class is P180032?": a classification field of a 510(k) or PMA record is looked up for the product code
    the record is filed under (the record itself does not carry it)."""
    from mirror.lookup.devices import resolve_devices

    numbers = [f for f in it.filters if f.field in ("k_number", "pma_number")]
    if (
        it.measure != "lookup"
        or len(numbers) != 1
        or len(it.datasets) != 1
        or it.field not in _NOT_IN_RECORD.get(it.datasets[0], set())
        or it.sides
    ):
        return
    number = str(numbers[0].value)
    rows = resolve_devices(ctx.api, number)["rows"]
    if not rows:
        return
    codes = [
        Code(code=r["product_code"], name=r["device_name"] or "", device_class=str(r["device_class"] or ""))
        for r in rows
    ]
    it.device = DeviceFilter(
        words=number,
        codes=codes,
        path="given",
        how=f"{number} is filed under product code {', '.join(c.code for c in codes)}",
    )
    it.filters = [f for f in it.filters if f is not numbers[0]]
    it.datasets = ["classification"]
    it.notes.append(
        f"{number} is filed under product code {', '.join(c.code for c in codes)}; its classification was read"
    )


_LATEST = {"latest", "newest", "recent", "last", "lastest", "youngest"}


def _latest(tokens: Tokens, it: Interpretation) -> None:
    """ "When was the most recent report received?": the date of the newest record asked about, not a list."""
    lows = tokens.lows()
    said = [k for k, w in enumerate(lows) if w in _LATEST and tokens.role.get(k) != "date"]
    asks_date = "when" in lows or any(w in ("date", "dated") for w in lows)
    if len(it.datasets) != 1 or it.datasets[0] == "classification":
        return
    spec = SPECS.get(it.datasets[0])
    kinds = {p: k for k, p in DATE_FIELDS.get(it.datasets[0], {}).items()}
    dated = spec is not None and it.field is not None and spec.row.get(it.field) in kinds  # "latest termination date"
    if dated and said and not it.filters and not it.device and not it.firm and spec is not None:
        it.date_field, it.field, it.measure = kinds[spec.row[it.field or ""]], None, "list"
    if not said or not asks_date or it.measure not in ("list", "top") or it.field or it.sides or it.date_to:
        return
    it.measure, it.field, it.by = "lookup", "latest", None
    if set(lows) & {"terminated", "termination", "ended", "closed"} and "terminated" in DATE_FIELDS.get(
        it.datasets[0], {}
    ):
        it.date_field = "terminated"  # "the most recent recall terminated": the newest termination date
        it.filters = [f for f in it.filters if f.field != "word:status"]
    for k in said:
        if tokens.free(k):
            tokens.take(k, k + 1, "measure")


_CHANGE = re.compile(
    r"(?i)\b(?:go|gone|went|goes)\s+(?:up|down)\b|\bup\s+or\s+down\b|\bincrease[ds]?\b|\bdecrease[ds]?\b|\brise\b|"
    r"\brose\b|\bfell\b|\bdrop(?:ped)?\b"
)


def _year_of_quarter(ctx: ToolContext, it: Interpretation, quarter: int) -> Clarification:
    """A quarter said without its year in a first question ("Q1 MDR count?"): a quarter is said of a year more often
    than a month is, so the person is asked which year, the latest first (none is assumed)."""
    anchor = _anchor(ctx, it.datasets)
    first_month = 3 * quarter - 2
    latest = anchor.year if date(anchor.year, first_month, 1) <= anchor else anchor.year - 1
    choices = []
    for y in range(latest, latest - 3, -1):
        end = min(_month_last(y, first_month + 2), anchor)
        label = f"Q{quarter} {y}" + (
            f" (up to {anchor.isoformat()}, the data's as-of date)" if end < _month_last(y, first_month + 2) else ""
        )
        choices.append(
            Choice(label=label, patch={"date_from": date(y, first_month, 1).isoformat(), "date_to": end.isoformat()})
        )
    return Clarification(
        question=f"Which year do you mean by Q{quarter}? These records are as of {anchor.isoformat()}.", choices=choices
    )


def _year_of_month(ctx: ToolContext, it: Interpretation, month: int, last: LastResult | None) -> Clarification | None:
    """A month said without its year. In a follow-up it takes the year of the previous answer's period when that
    period was within one year; else the as-of year of the data when the month is not after the as-of date; else
    the person is asked which year. In a first question it is the latest such month on or before the as-of date
    (already read so); the year is shown in the reading either way."""
    anchor = _anchor(ctx, it.datasets)
    prev = (last.reading if last else None) or {}
    if last is None:
        return None
    p_from, p_to = prev.get("date_from"), prev.get("date_to")
    years = {date.fromisoformat(str(d)).year for d in (p_from, p_to) if d}
    if len(years) == 1 and p_from and p_to:
        y = years.pop()
    elif month <= anchor.month:
        y = anchor.year
    else:
        name = calendar.month_name[month]
        ys = [anchor.year - k for k in range(1, 4)]
        return Clarification(
            question=f"Which year do you mean by {name}? These records are as of {anchor.isoformat()}, so {name} "
            f"{anchor.year} is not in them yet.",
            choices=[
                Choice(
                    label=f"{name} {y}",
                    patch={"date_from": date(y, month, 1).isoformat(), "date_to": _month_last(y, month).isoformat()},
                )
                for y in ys
            ],
        )
    it.date_from, it.date_to = date(y, month, 1), _month_last(y, month)
    return None


def _month_last(y: int, m: int) -> date:
    return date(y, m, calendar.monthrange(y, m)[1])


def _years_apart(rng: DateRange, change: bool = False) -> list[DateRange]:
    """Two years joined by "and" in a comparison ("2023 and 2024"): each its own period, never the span; a change
    asked between two years ("did MDRs go up from 2022 to 2023?") compares the two years too."""
    words = rng.words.strip().lower()
    if change and (m := re.fullmatch(r"(?:from|between)?\s*(\d{4})\s+(?:to|and|through|until|-|–)\s+(\d{4})", words)):
        return [DateRange(date(int(y), 1, 1), date(int(y), 12, 31), y) for y in (m[1], m[2])]
    m = re.fullmatch(r"(?:(?:in|for|of|during)\s+)?(\d{4})\s+(?:and|&)\s+(\d{4})", words)
    if not m:
        return []
    return [DateRange(date(int(y), 1, 1), date(int(y), 12, 31), y) for y in (m[1], m[2])]


def _broader_codes(ctx: ToolContext, it: Interpretation) -> None:
    """A classification field asked of words whose codes all name something narrower ("pulse oximeter": MMA
    Oximeter, Fetal Pulse): the code named by the head word alone (DQA Oximeter) is looked up beside them."""
    from mirror.lookup.devices import resolve_devices

    from .resolve import same_words

    d = it.device
    if it.measure != "lookup" or it.field not in CLASSIFICATION_FIELDS or not d or not d.codes or it.sides:
        return
    words = [w for w in re.findall(r"[A-Za-z]+", d.words) if len(w) >= 4]
    if len(words) < 2 or len(d.codes) > 2 or any(same_words(c.name, d.words) for c in d.codes):
        return
    have = {c.code for c in d.codes}
    extra = []
    for w in words:
        for r in resolve_devices(ctx.api, w, 5)["rows"]:
            if r["product_code"] not in have and same_words(r["device_name"] or "", w):
                extra.append(
                    Code(code=r["product_code"], name=r["device_name"] or "", device_class=str(r["device_class"] or ""))
                )
                have.add(r["product_code"])
    if extra:
        it.device = d.model_copy(update={"codes": extra[:2] + d.codes})


_DEMONSTRATIVE = {"that", "this", "those", "these", "same"}


def _demonstrative_dataset(tokens: Tokens, it: Interpretation, strong: list[str], last: LastResult) -> None:
    """A dataset word after "that" / "those" in a follow-up ("what class was that recall?") points at the previous
    result: it names no new dataset (the previous reading is kept)."""
    prev = set(last.reading.get("datasets") or []) | ({last.dataset} if last.dataset else set())
    if prev & {"recall", "enforcement"}:
        prev |= {"recall", "enforcement"}
    lows = tokens.lows()
    said = [k for k, r in tokens.role.items() if r == "dataset"]
    if not said or not all(k > 0 and lows[k - 1] in _DEMONSTRATIVE for k in said):
        return
    if not set(strong) <= prev:
        return
    for k in said:
        tokens.role[k] = "followup"
    strong[:] = []
    it.datasets = [d for d in it.datasets if d not in prev]


def _class_asked(tokens: Tokens, it: Interpretation, defaulted: bool) -> None:
    """ "are blood pressure cuffs class 1 or 2?": a yes/no question of a device's class is its device class looked up,
    never a count of the codes in one class ("are there class II recalls" stays a filter)."""
    lows = tokens.lows()
    classes = [f for f in it.filters if f.field in ("class", "device_class")]
    if (
        lows[0] not in ("is", "are", "was", "were")
        or len(lows) < 2
        or lows[1] in ("there", "any", "these", "those")
        or not classes
        or not it.device
        or not it.device.codes
        or it.sides
        or not (defaulted or it.datasets == ["classification"])
        or len(it.filters) != len(classes)
    ):
        return
    it.filters = []
    it.measure, it.field, it.by, it.datasets = "lookup", "device_class", None, ["classification"]
    codes = [c.model_copy(update={"records": None}) for c in it.device.codes]
    it.device = it.device.model_copy(update={"path": "given", "how": "", "codes": codes})


_CLASSIFICATION_OF = re.compile(r"(?i)\bclassification\b|\bclassified\b|\bclassify\b")
_THE_DATASET = re.compile(
    r"(?i)\b(?:in|from|of|on)\s+(?:the\s+)?(?:fda\s+)?classification\b|\bclassification\s+(?:database|data|dataset|"
    r"records|list|file)\b"
)
_LISTED = re.compile(r"(?i)\b(?:codes?|procodes?|list|show|all|which|how many|count|number)\b")


def _classification_of(it: Interpretation) -> None:
    """ "blood pressure cuff classification": the classification of a device is its device class, looked up for
    its product codes (a broad term's codes are asked about, `asking.ask_field_of_many`); a list of codes is asked
    for in other words ("product codes for ...", "which codes ...")."""
    d = it.device
    if (
        it.datasets != ["classification"]
        or it.measure != "list"
        or it.field
        or it.filters
        or it.sides
        or not d
        or not d.codes
        or d.path == "names"
        or not _CLASSIFICATION_OF.search(it.question)
        or _THE_DATASET.search(it.question)
        or _LISTED.search(it.question)
    ):
        return
    it.measure, it.field, it.by = "lookup", "device_class", None
    codes = [c.model_copy(update={"records": None}) for c in d.codes]
    it.device = d.model_copy(update={"path": "given", "how": "", "codes": codes})


def _regardless(tokens: Tokens) -> None:
    """ "regardless of when FDA received them": said of the other date, which the question does not ask about."""
    lows = tokens.lows()
    for k in range(len(lows) - 2):
        if lows[k] in ("regardless", "irrespective") and lows[k + 1] == "of":
            end = next((j for j in range(k + 2, min(len(lows), k + 9)) if lows[j] in vocab.DATE_KIND), None)
            if end is not None:
                tokens.take(k, end + 1, "function")
                for j in range(end + 1, min(len(lows), end + 3)):
                    if lows[j] in ("them", "it", "they", "those"):
                        tokens.take(j, j + 1, "function")
            return


def _date_kind(tokens: Tokens) -> str:
    """Which date the period is of: the verb or noun that says it ("received", "occurred", "event date in ...",
    "terminated in 2020"); '' for the dataset's default date. The grammar words used are taken."""
    lows = tokens.lows()
    dated = [k for k, r in tokens.role.items() if r == "date"]
    first = min(dated) if dated else len(lows)
    negated: set[int] = set()  # a date said not to use: "(date_received, NOT date_of_event)"
    for k, w in enumerate(lows):
        if k and lows[k - 1] in ("not", "nor") and w in ("event", "incident", "date", "occurrence", "occurred"):
            said = ("of", "the", "event", "incident", "date", "received", "recieved", "occurred", "occured")
            end = k + 1 + sum(1 for x in lows[k + 1 : k + 3] if x in said)
            tokens.take(k - 1, end, "function")
            negated.update(range(k - 1, end))
    for k, w in enumerate(lows):
        if k in negated:
            continue
        if k + 1 < len(lows) and w in ("event", "incident") and lows[k + 1] in ("date", "dates"):
            tokens.take(k + 1, k + 2, "function")
            return "occurred"  # "MDRs with an event date in Dec 2022"
        if (
            w == "date"
            and lows[k + 1 : k + 3] == ["of", "occurrence"]
            or w == "occurrence"
            and lows[k + 1 : k + 2]
            in (
                ["date"],
                ["dates"],
            )
        ):
            tokens.take(k, k + (3 if w == "date" else 2), "function")
            _regardless(tokens)
            return "occurred"  # "incidents whose date of occurrence falls in Dec 2022"
        if w == "date" and lows[k + 1 : k + 3] in (["of", "event"], ["of", "incident"]):
            tokens.take(k, k + 3, "function")
            return "occurred"  # "MDRs with a date of event in Dec 2022"
        if w == "date" and lows[k + 1 : k + 4] in (["of", "the", "event"], ["of", "the", "incident"]):
            tokens.take(k, k + 4, "function")
            return "occurred"
        if w in ("received", "got", "get", "had", "obtained", "reached") and re.match(
            r"(?:an?\s+|their\s+|its\s+|the\s+)?(?:final\s+)?(?:fda\s+)?decisions?\b", " ".join(lows[k + 1 : k + 5])
        ):
            tokens.take(k, k + 1, "function")
            return ""  # "510(k)s that received a decision in Q2 2020": the decision's date, not the date received
        if w == "took" and k + 1 < len(lows) and lows[k + 1] == "place":
            tokens.take(k, k + 2, "function")
            return "occurred"  # "events that took place in ..."
        if w == "closed" and k + 1 < len(lows) and lows[k + 1] == "out" and 0 < first - k <= 4:
            tokens.take(k, k + 2, "function")
            return "terminated"  # "recalls closed out during 2020"
    for k, w in enumerate(lows):
        kind = None if k in negated else vocab.DATE_KIND.get(w)
        if not kind or (kind in _NEAR_KINDS and not (0 < first - k <= 3 or k == first + 1 and w.endswith("s"))):
            continue
        if kind in _NEAR_KINDS:
            tokens.take(k, k + 1, "function")
        return kind
    return ""


def _firm_datasets(it: Interpretation) -> None:
    """A firm asked about in the classification, which names no firms ("which product codes does DiaSorin list?"):
    the firm's own records are read (the dataset holding most of them)."""
    if not it.firm or it.datasets != ["classification"] or it.sides:
        return
    held = {d: n for d, n in it.firm.by_dataset.items() if n and d != "classification"}
    if not held:
        it.understood = False
        it.notes.append(f"The classification names no firms, and {it.firm.name} has no other records here")
        return
    it.datasets = [min(held, key=lambda d: (-held[d], d))]  # a tie: by name, never by lookup order
    it.notes.append(
        f"The classification names no firms, so {_possessive(it.firm.name)} "
        f"{vocab.LABEL.get(it.datasets[0], it.datasets[0])} were read"
    )


_LISTED_CLASSES = re.compile(
    r"(?i)\bclass(?:es)?\s+(?:i{1,3}|[123])\s*(?:,\s*(?:class\s+)?(?:i{1,3}|[123])\s*)*,?\s*or\s+(?:class\s+)?"
    r"(?:i{1,3}|[123])\s*\?"
)


def _classes_listed(it: Interpretation) -> bool:
    """ "class I, II or III?" closing a question: the class is asked (each record's own), not a filter."""
    return bool(_LISTED_CLASSES.search(it.question)) and any(f.field == "class" for f in it.filters)


def _problem_of_the_device(it: Interpretation) -> None:
    """ "reports where the screen showed no image": the device problem is the question; words around it that no
    record's device holds ("screen showed") describe the problem, so they are said as not used, not searched."""
    d = it.device
    if d is None or it.sides or d.path == "given" or not any(f.field == "word:problem" for f in it.filters):
        return
    if d.found or any(c.records for c in d.codes) or (d.codes and any(c.records is None for c in d.codes)):
        return
    it.unexplained = list(dict.fromkeys(it.unexplained + d.words.split()))
    it.device = None


_SITE = {
    "site",
    "sites",
    "facility",
    "facilities",
    "plant",
    "plants",
    "establishment",
    "establishments",
    "location",
    "locations",
    "campus",
    "factory",
    "factories",
}
_REGISTERED = {"fei", "registration", "registrations", "registered", "listing", "listings", "establishment", "owner"}


def _site_words(tokens: Tokens, datasets: list[str]) -> None:
    """ "the DiaSorin S.p.A. site in Italy", "Medtronic's plant": in a registration question, or beside a firm's
    name, these words name the establishment's record, never a device."""
    lows = tokens.lows()
    registered = "registrationlisting" in datasets or bool(set(lows) & _REGISTERED)
    for k in tokens.unused():
        if lows[k] not in _SITE or not k:
            continue
        prev = tokens.toks[k - 1].text
        by_firm = prev.endswith(("'s", "\u2019s")) or prev.lower().strip(".,").replace(".", "") in LEGAL_FORMS
        by_firm = by_firm or (prev[:1].isupper() and k - 1 > 0 and tokens.role.get(k - 1) != "dataset")
        if registered or by_firm:
            tokens.take(k, k + 1, "dataset")


def _site_of_firm(it: Interpretation) -> None:
    """ "Medtronic PR" next to a firm whose names include "Medtronic Puerto Rico Operations": the place is the
    firm's site (its own name), not a filter on where every side's records come from."""
    p = it.place
    if p is None or p.exclude:
        return
    holders: list[Interpretation | Side] = [it] if it.firm else []
    holders += [side for side in it.sides if side.firm]
    for h in holders:
        f = h.firm
        if f is None:
            continue
        said = re.search(rf"(?i)\b{re.escape(f.words)}(?:'s)?\s+(?:in\s+)?{re.escape(p.words)}\b", it.question)
        site = [v for v in f.variants if p.name.lower() in v.lower()]
        if said and site:
            name = site[0]
            h.firm = f.model_copy(
                update={"name": name, "variants": site, "match": "entity", "words": f"{f.words} {p.words}"}
            )
            if isinstance(h, Side):
                h.label = name
            it.place = None
            return


def _registered_as_verb(it: Interpretation) -> None:
    """ "brand names registered in the UDI database by Netech": "registered" or "listed" says how the records came
    to be, not the registrations dataset, when another dataset is named and the firm has no registration there."""
    if "registrationlisting" not in it.datasets or len(it.datasets) < 2 or not it.firm or not it.firm.by_dataset:
        return
    if _REGISTRATION_NOUNS.search(it.question) or it.firm.by_dataset.get("registrationlisting"):
        return
    it.datasets = [d for d in it.datasets if d != "registrationlisting"]
    if it.field == "brand_name" and it.measure == "lookup" and set(it.datasets) & {"udi", "gudid"}:
        it.measure, it.field = "list", None  # the firm's device records, their brand names in the table


_REGISTRATION_NOUNS = re.compile(
    r"(?i)\b(?:registrations?|establishments?|facilit(?:y|ies)|listings?|plants?|sites?|owner\s+operators?)\b"
)


def _possessive(name: str) -> str:
    return name + ("'" if name.endswith("s") else "'s")


def _filters_apply(it: Interpretation) -> None:
    """A filter said in words that no dataset asked about can apply is never dropped in silence: its sibling
    dataset is read (Rx is in openFDA UDI records, not in the GUDID release), else the question is not answered."""
    for f in it.filters:
        if not f.field.startswith("word:") or f.field[5:] not in vocab.FILTER_FIELDS:
            continue
        targets = vocab.FILTER_FIELDS[f.field[5:]][0]
        if not it.datasets or any(d in targets for d in it.datasets):
            continue
        home = vocab.FILTER_DATASET[f.field[5:]]
        if set(it.datasets) | {home} <= {"udi", "gudid"} or set(it.datasets) | {home} <= {"recall", "enforcement"}:
            it.notes.append(f"{f.label} is given in the {vocab.LABEL.get(home, home)}, so those were read")
            it.datasets = [home]
        else:
            it.understood = False
            it.notes.append(
                f"The {' and '.join(vocab.LABEL.get(d, d) for d in it.datasets)} cannot be narrowed to {f.label}"
            )
            return


def _firm_word(ctx: ToolContext, tokens: Tokens, it: Interpretation) -> None:
    """One word left unexplained that is a word of firm names in the dataset asked about ("minimed event reports":
    MEDTRONIC MINIMED): the firms whose names hold it, when nothing else names a firm or device."""
    from ..tools import ToolError, run_tool
    from .resolve import SEARCHER

    if it.firm or it.device or it.sides or len(it.datasets) != 1 or it.datasets[0] not in SEARCHER:
        return
    left = [
        i
        for i in tokens.unused()
        if tokens.toks[i].low not in vocab.FUNCTION and tokens.toks[i].text.isalpha() and len(tokens.toks[i].text) >= 4
    ]
    if len(left) != 1:
        return
    word = tokens.toks[left[0]].text
    try:
        n = run_tool(ctx, SEARCHER[it.datasets[0]], {"manufacturer": word, "limit": 0}).total
    except ToolError:
        return
    if n:
        it.firm = FirmFilter(
            words=word, name=word, records=n, exact=False, match="leading", by_dataset={it.datasets[0]: n}
        )
        tokens.take(left[0], left[0] + 1, "firm")
        it.notes.append(f'"{word}" is read as a word of the firms\' names ({n:,} records name it)')


def _plain_typos(ctx: ToolContext, tokens: Tokens) -> None:
    """A lower-case word one typing slip from a grammar word ("recieved", "quartely") that no device name holds: read
    as that word, so it is never asked back as a device."""
    cands = {i: w for i, t in enumerate(tokens.toks) if t.text.islower() and (w := vocab.fuzzy_plain_word(t.low))}
    if not cands:
        return
    reach = device_word_reach(ctx.api, [tokens.toks[i].low for i in cands])
    for i, w in cands.items():
        if reach.get(tokens.toks[i].low, 0) == 0:
            tokens.toks[i].low = w


def _typos(ctx: ToolContext, tokens: Tokens, it: Interpretation) -> None:
    """Dataset words typed with a typo ("recals"), unless the word is a device or firm word."""

    free = [
        i
        for i in tokens.unused()
        if tokens.toks[i].low not in vocab.FUNCTION | _SITE and not lay_key(tokens.toks[i].low)
    ]  # "plant" is no typo; nor is a lay device word ("vents" are ventilators, not events)
    cands = {i: w for i in free if (w := vocab.fuzzy_grammar_word(tokens.toks[i].low))}
    if not cands:
        return
    reach = device_word_reach(ctx.api, [tokens.toks[i].low for i in cands])
    for i, w in cands.items():
        if reach.get(tokens.toks[i].low, 0) == 0:
            tag = vocab.DATASET_PHRASES.get((w,), "").rstrip("?")
            if tag and tag not in it.datasets:
                it.datasets.append(tag)
                it.notes.append(f'read "{tokens.toks[i].text}" as "{w}"')
            tokens.take(i, i + 1, "typo")


def _defaults(it: Interpretation, ids_ds: list[str], names) -> None:
    if it.datasets:
        if ids_ds and "510k" in it.datasets and "pma" in ids_ds and "pma" not in it.datasets:
            pass
        return
    by_filter = [("event" if f.field == "event_type" else "") for f in it.filters]
    if ids_ds:
        it.datasets = ids_ds[:1]
    elif it.field and it.field in LOOKUP_FIELDS:
        it.datasets = [LOOKUP_FIELDS[it.field]]
    elif any(by_filter):
        it.datasets = ["event"]
    elif it.supplements != "all":
        it.datasets = ["pma"]
    elif names.firms and not names.devices and names.firms[0].by_dataset:
        held = {d: n for d, n in names.firms[0].by_dataset.items() if n}  # "Boston Scientific": where it is
        it.datasets = [min(held, key=lambda d: (-held[d], d))] if held else ["event"]
    elif any(f.field == "class" for f in it.filters) and not (names.devices or names.firms or names.places):
        said = set(re.findall(r"[a-z]+", it.question.lower()))
        it.datasets = (
            ["classification"] if said & {"device", "devices", "code", "codes", "procode", "procodes"} else ["event"]
        )  # a bare "class II" is asked about (asking.ask_class_kind)
    elif it.measure == "top" and it.by in ("device_class", "review_panel"):
        it.datasets = ["classification"]  # "what class is a catheter": a field only the classification holds
    elif it.measure in ("count", "trend", "top"):
        it.datasets = ["event"]
    elif it.measure == "compare" and (names.firms or names.devices):
        it.datasets = ["event"]
    else:
        it.datasets = ["classification"]


def _devices_and_names(
    ctx: ToolContext, tokens: Tokens, it: Interpretation, names, defaulted: bool = False
) -> Clarification | None:
    clar = None
    it.firm = names.firms[0] if names.firms else None
    it.place = names.places[0] if names.places else it.place
    devices: list[DeviceFilter] = []
    starts: list[int] = []  # where each device's words begin
    for a, b, words in joined(tokens, names.devices, it.measure == "compare"):
        if words.lower() in ("implantable", "implanted") and set(it.datasets) <= {"classification"}:
            tokens.take(a, b, "filter")  # "class 3 implantable device types": the classification's implant flag
            if not any(f.field == "word:implant" for f in it.filters):
                it.filters.append(Filter(field="word:implant", value="Y", label="implants", words=words))
            continue
        reading = read_device(ctx, words, it.datasets, known=tokens.role.get(a) == "device")
        if (brand := _brand_alone(ctx, tokens, a, b, it.datasets, reading)) is not None:
            words, reading = brand  # "the Somnera sleep apnea system": the brand its names hold, the rest describes it
        switch = it.datasets == ["recall"] and list(reading.elsewhere) == ["enforcement"]  # a recall told by
        if set(reading.elsewhere) == {"udi", "gudid"}:
            reading.elsewhere = {"udi": reading.elsewhere["udi"]}  # one device's UDI, told twice
        kept = not it.filters or switch and all(_filter_in(f, "enforcement") for f in it.filters)
        if (defaulted or switch) and len(reading.elsewhere) == 1 and kept:  # its enforcement report
            ds, n = next(iter(reading.elsewhere.items()))
            it.datasets = [ds]
            it.notes.append(f'"{words}" is named only in the {vocab.LABEL.get(ds, ds)}, so those were searched')
            picked = next((c.patch.get("device") for c in reading.choices if c.patch.get("datasets") == [ds]), None)
            reading = read_device(ctx, words, [ds], known=tokens.role.get(a) == "device")
            if picked and (reading.device is None or not (reading.device.found or reading.device.path != "codes")):
                reading.device = DeviceFilter.model_validate(picked)  # the words that dataset's names hold
                reading.choices, reading.question = [], ""
        only = reading.choices[0].patch if len(reading.choices) == 1 else {}
        if reading.device is None and set(only) == {"firm"} and it.firm is None and not names.devices[1:]:
            it.firm = FirmFilter.model_validate(only["firm"])  # "medtronc": one firm's spelling, no device's
            it.notes.append(f'read "{words}" as the firm {it.firm.name}')
            for k in range(a, b):
                tokens.role[k] = "firm"
            continue
        if (
            reading.choices
            and (it.firm is not None or names.firms[1:])
            and all(c.patch.keys() <= {"firm", "device"} for c in reading.choices)
            and any("firm" in c.patch for c in reading.choices)
        ):
            reading.choices, reading.question = [], ""  # the maker is named: no question of which maker's
        if reading.choices and clar is None:
            clar = Clarification(question=reading.question, choices=reading.choices)
        if reading.device is None or reading.strength < 0.3:
            for k in range(a, b):
                tokens.role.pop(k, None)  # unexplained: matched nothing
            continue
        if reading.corrected:
            it.notes.append("read " + ", ".join(f'"{a_}" as "{b_}"' for a_, b_ in reading.corrected))
        if reading.unknown and reading.device.path != "names":  # the names path used them as typed
            it.unexplained += reading.unknown
        it.confidence = min(it.confidence, reading.strength)
        devices.append(reading.device)
        starts.append(a)
    if it.device is None and devices:
        it.device = devices[0]
    elif it.device is not None and it.device.path == "given" and it.datasets:
        counts = codes_in(ctx, it.datasets[0], it.codes())
        for c in it.device.codes:
            c.records = counts.get(c.code) if counts else None
    if it.measure != "compare" and len(devices) > 1 and not _COMPARING.search(tokens.text):
        held = [d for d in devices if _holds_records(d)]
        if len(held) == 1:  # "X's pacemaker analyzer for our predicate table": no comparison word, one of the two
            it.unexplained += [
                d.words.strip(".,;:!?") for d in devices if d is not held[0]
            ]  # holds records; the other is unused
            devices = held
            it.device = held[0]
        else:  # "false positive alarms in adverse events for insulin pumps": two noun phrases with no comparison
            # word are no sides; the device is the one the question is "for" (else the first holding records)
            pool = held or devices
            lows = tokens.lows()
            lead = [d for d, a in zip(devices, starts) if d in pool and a and lows[a - 1] in _DEVICE_LEAD]
            one = lead[-1] if lead else pool[0]
            it.unexplained += [d.words.strip(".,;:!?") for d in devices if d is not one]
            devices = [one]
            it.device = one
    if it.measure == "compare" or len(names.firms) > 1 or len(devices) > 1:
        sides = [Side(label=f.name if f.words == f.name else f.words, firm=f) for f in names.firms[:4]]
        if len(sides) < 2:
            sides = [Side(label=d.words, device=d) for d in devices[:4]]
        if len(sides) >= 2:
            it.measure, it.sides = "compare", sides
            it.firm = None if sides[0].firm else it.firm
            it.device = None if sides[0].device else it.device
    return clar


def _brand_alone(
    ctx: ToolContext, tokens: Tokens, a: int, b: int, datasets: list[str], reading: DeviceReading
) -> tuple[str, DeviceReading] | None:
    """A brand said with lay words that describe it ("the Somnera sleep apnea system", "Somnera (the CPAP type
    thing)"), whose words together name nothing: the one capitalised word that no product-code name holds and the
    records' own names do is the device; the other words describe it (taken, never searched)."""
    if b - a < 2 or reading.elsewhere or reading.device is not None and not reading.choices and not reading.unknown:
        return None  # (words named together in another dataset's records are that device there)
    brands = [
        k
        for k in range(a, b)  # a brand may open the question ("Somnera sleep apnea system - is there a 510k?")
        if re.fullmatch(r"[A-Z][a-z]{3,}[a-z0-9]*|[A-Z][A-Za-z]*[a-z][A-Z][A-Za-z0-9]*", tokens.toks[k].text)
        and tokens.toks[k].low not in vocab.FUNCTION
        and not lay_key(tokens.toks[k].low)
    ]
    if len(brands) != 1:
        return None
    from mirror.lookup.devices import resolve_devices

    word = tokens.toks[brands[0]].text
    found = resolve_devices(ctx.api, word, 5)
    if found["total"] and not found["unknown"]:
        return None  # a word of product-code names ("Pump"): no brand
    alone = read_device(ctx, word, datasets, known=False)
    named = (
        alone.device is not None
        and alone.device.path == "names"
        and bool(alone.device.found or re.search(r":\s*[1-9][\d,]*\s+found", alone.device.how))
    )
    if not (named and not alone.choices or alone.device is None and len(alone.elsewhere) == 1):
        return None
    for k in range(a, b):
        if k != brands[0]:
            tokens.take(k, k + 1, "context")
    return word, alone


# the words before the device a question is about ("reports for insulin pumps", "recalls involving stents")
_DEVICE_LEAD = {"for", "on", "of", "about", "involving", "concerning", "regarding", "with", "from"}
# words that set two devices side by side; without one, two device spans are no comparison by themselves
_COMPARING = re.compile(r"(?i)\b(?:vs|versus|compar\w*|against|or|and|between|than|both|each|relative)\b|&")


def _firm_own_codes(ctx: ToolContext, it: Interpretation) -> Clarification | None:
    """A firm's device read by the classification's codes ("the Medtronic insulin pump") when the firm's own records
    name that device under none of them (its reports file the pumps under OZP and OZO): the codes its records carry
    are offered, never a count or ranking of none under codes it does not use."""
    from ..planner import _firm_args
    from ..tools import ToolError, run_tool
    from ..tools.specs import SEARCHER, SPECS

    d, f = it.device, it.firm
    if d is None or f is None or d.path != "codes" or it.sides or len(it.datasets) != 1 or not d.codes:
        return None
    ds = it.datasets[0]
    spec = SPECS.get(ds)
    if spec is None or "product_code" not in spec.counts or ds not in SEARCHER:
        return None
    args = {"dataset": spec.count_name, "field": "product_code", "limit": 6, **_firm_args(f)}
    codes = [c.code for c in d.codes][:MAX_GIVEN_CODES]
    try:
        under = run_tool(ctx, SEARCHER[ds], {**_firm_args(f), "product_codes": codes, "limit": 0}).total
    except ToolError:
        return None
    if under:
        return None
    found: dict[str, int] = {}
    words = d.words.split()
    for names in dict.fromkeys([d.words, words[-1]] if len(words) > 1 else [d.words]):
        try:
            rows = run_tool(ctx, "count_by", {**args, "names": names}).rows
        except ToolError:
            continue
        for r in rows:
            if r.get("product_code"):
                found.setdefault(str(r["product_code"]), int(r["count"]))
        if len(found) > 1:
            break
    if not found:
        return None
    from mirror.lookup.lexicon import product_code_details

    what = vocab.LABEL.get(ds, ds)
    known = product_code_details(ctx.api, list(found))
    choices = [
        Choice(
            label=f"{code} {known[code].device_name if code in known else ''} ({n:,} of {f.name}'s {what})".replace(
                "  ", " "
            ),
            patch={"device": DeviceFilter(words=code, path="given", codes=[Code(code=code)]).model_dump()},
        )
        for code, n in list(found.items())[:4]
    ]
    return Clarification(
        question=f"{f.name}'s {what} name \"{d.words}\" under other product codes than the ones FDA's classification "
        f"gives it ({', '.join(c.code for c in d.codes[:4])}). Which do you mean?",
        choices=choices,
    )


def _holds_records(d: DeviceFilter) -> bool:
    return bool(d.path == "given" or d.found or any(c.records for c in d.codes))


def _reread_device(ctx: ToolContext, it: Interpretation) -> None:
    """A device read by its product codes before the question moved to a dataset whose records carry none (the
    firm's enforcement reports): read again in that dataset's own names."""
    from .resolve import NAMES_ONLY

    d = it.device
    if d is None or it.sides or len(it.datasets) != 1 or it.datasets[0] not in NAMES_ONLY or d.path != "codes":
        return
    again = read_device(ctx, d.words, it.datasets)
    if again.device is not None:
        it.device = again.device


def _filter_in(f: Filter, ds: str) -> bool:
    """A filter said in words that this dataset applies too ("terminated": recalls and enforcement reports)."""
    return f.field.startswith("word:") and ds in vocab.FILTER_FIELDS.get(f.field[5:], ({}, ""))[0]


_WHEN_ENDED = re.compile(
    r"(?i)^\W*(?:(?:and|ok|okay|so|then|also)\W+)*(?:when|what\s+date|on\s+what\s+date|which\s+date|date)\b.*\bterminat\w*"
)


_PMA_NUMBER_ASKED = re.compile(
    r"(?i)\b(?:pma|premarket\s+approval)(?:\s+application)?\s*(?:number|no\.?|#)|"
    r"\b(?:which|what)\s+(?:pma|premarket\s+approval)\b"
)


def _pma_number_asked(it: Interpretation) -> None:
    """ "PMA number for product code NJK", "which premarket approval is on file for NJK": the PMA numbers the PMA
    records of that device carry (originals and supplements alike), not a count of original approvals."""
    if it.sides or not it.device or it.firm or any(f.field in RECORD_FIELDS or f.field == "di" for f in it.filters):
        return
    if not _PMA_NUMBER_ASKED.search(it.question) or re.search(r"(?i)\b(?:udi|gudid|di)\b", it.question):
        return
    if it.field not in (None, "premarket_submission") or it.measure not in ("list", "count", "lookup"):
        return
    if it.measure == "count" and re.search(r"(?i)\bhow\s+many\b", it.question):
        return
    it.datasets, it.field, it.measure, it.supplements = ["pma"], "pma_number", "lookup", "all"


def _when_terminated(it: Interpretation) -> None:
    """ "when was the X recall terminated": the termination date looked up, not a count of terminated recalls."""
    if not it.datasets or not set(it.datasets) <= {"recall", "enforcement"} or it.sides or it.date_from:
        return
    if it.measure not in ("list", "count") or not _WHEN_ENDED.search(it.question):
        return
    it.filters = [f for f in it.filters if f.field != "word:status"]
    if not (it.device or it.firm or it.filters):  # "when was it terminated?" with no recall named before it
        it.understood = False
        it.cannot = (
            "You asked when a recall was terminated, but no recall is named in your question or the one before "
            "it, so I give no date. Name the recall (its recall number, or the product and the firm)."
        )
        return
    it.measure, it.field, it.datasets = "lookup", "termination_date", ["enforcement"]  # the reports carry the date


_ARABIC = {"I": "1", "II": "2", "III": "3"}
# the class said of the devices, not of the recall: "class III devices", "device class 3", "products that are class II"
_DEVICE_CLASS = re.compile(
    r"(?i)\bclass\s+(?:i{1,3}|[123]|one|two|three)\s+(?:medical\s+)?(?:devices?|products?|implants?)\b"
    r"(?!\s+(?:recall|enforcement|field\s+action))|"
    r"\bdevice\s+class(?:es)?\b|\b(?:devices?|products?)\s+(?:that\s+|which\s+)?(?:are|is|were|was)\s+"
    r"(?:in\s+)?class\s+(?:i{1,3}|[123]|one|two|three)\b"
)


def _codes_named(it: Interpretation) -> None:
    """ "how many wheelchair product codes are class I": counting the classification's codes named by a broad word
    counts every code whose name holds it; no single kind of device to pick."""
    d = it.device
    if (
        d is not None
        and it.datasets == ["classification"]
        and it.measure == "count"
        and d.path == "codes"
        and d.matched > len(d.codes)
        and not it.sides
    ):
        it.device = d.model_copy(
            update={"path": "names", "text": d.words, "how": f'product codes whose name holds "{d.words}"'}
        )


def _classes(it: Interpretation) -> None:
    """ "class II" is a recall class for recalls and enforcement reports, a device class elsewhere."""
    out = []
    for f in it.filters:
        if f.field != "class":
            out.append(f)
            continue
        roman = str(f.value)
        if set(it.datasets) & {"recall", "enforcement"} and _DEVICE_CLASS.search(it.question):
            it.datasets = list(dict.fromkeys("recall" if d == "enforcement" else d for d in it.datasets))
            out.append(
                Filter(field="device_class", value=_ARABIC[roman], label=f"device class {roman}", words=f.words)
            )  # "recalls of class III devices": the recalled product's device class, not the recall's class
        elif set(it.datasets) & {"recall", "enforcement"}:
            out.append(Filter(field="recall_class", value=f"Class {roman}", label=f"class {roman}", words=f.words))
        else:
            out.append(
                Filter(
                    field="device_class",
                    value=_ARABIC[roman],
                    label=f"device class {roman}",
                    words=f.words,
                )
            )
    it.filters = out


def _sides_of_one_field(it: Interpretation) -> None:
    """Two values of one field ("class II or class III cardiovascular devices", "deaths vs malfunctions"): a record
    holds one value, so together they would find none; each value is a side of a comparison, counted apart."""
    if it.sides or it.measure == "lookup" or it.field:
        return
    groups: dict[str, list[Filter]] = {}
    for f in it.filters:
        if isinstance(f.value, str) and (
            f.field in ("device_class", "recall_class", "event_type") or f.field.startswith("word:")
        ):
            groups.setdefault(f.field, []).append(f)
    for fs in groups.values():
        if len({f.value for f in fs}) < 2:
            continue
        kept = [f for f in fs if not _negated(it.question, f.words)]
        if kept and len(kept) < len(fs):  # "malfunctions in 2023, not deaths": a record has one value, so the
            it.filters = [f for f in it.filters if f in kept or f not in fs]  # one kept leaves the other out
            return
        if len(fs) == 2 and _slashed(it.question, fs[0].words, fs[1].words):
            union = Filter(
                field=fs[0].field,
                value=[str(fs[0].value), str(fs[1].value)],
                label=f"{fs[0].label} or {fs[1].label}",
                words=f"{fs[0].words}/{fs[1].words}",
            )  # "malfunction/injury reports": a report of either kind, counted once
            it.filters = [f for f in it.filters if f not in fs] + [union]
            return
        if len({f.value for f in fs}) > 1:
            it.sides = [Side(label=f.label, filters=[f]) for f in fs[:4]]
            it.filters = [f for f in it.filters if f not in fs]
            it.measure = "compare"
            return


def _slashed(question: str, a: str, b: str) -> bool:
    """Two values typed with a slash between them ("malfunction/injury"): either one, not one against the other."""
    return bool(a and b and re.search(rf"(?i){re.escape(a)}\s*/\s*{re.escape(b)}", question))


def _place_of_firm(it: Interpretation, question: str) -> None:
    """ "which state is Orthofix registered in?": that field of the one firm named, looked up, not a ranking of
    states by the firm's records."""
    if (
        it.measure == "top"
        and it.by in ("state", "country")
        and it.firm is not None
        and not it.exclude_firm
        and not it.device
        and not it.sides
        and not _RANKING_WORDS.search(question)
        and re.search(r"(?i)\b(?:which|what)\s+(?:us\s+)?(?:state|country)\b|\bwhere\b", question)
    ):
        it.measure, it.field, it.by = "lookup", it.by, None


_RANKING_WORDS = re.compile(
    r"(?i)\b(?:product\s+codes?|procodes?|codes?|device\s+types?|kinds?|most|top|leading|common|rank\w*)\b"
)


def _negated_filter(it: Interpretation) -> str:
    """A value said to be left out ("recalls of catheter kits, not the ones terminated") that the reading applied as
    a filter: the searches here cannot leave a value out, so no figure is given rather than the opposite count."""
    for f in it.filters:
        if f.field != "place" and f.words and _negated(it.question, f.words):
            return (
                f"You asked to leave out {f.label}, and the searches here can only narrow to a value, not leave one "
                "out, so I give no figure. Ask for the records with that value, or without naming it, and compare."
            )
    return ""


def _class_not_applied(it: Interpretation) -> str:
    """A device class asked of records that do not carry it (adverse event reports, 510(k)s): the search would drop
    it and count every class, so no figure is given. PMA approvals are class III devices: "class III" narrows none."""
    from ..tools.specs import SPECS

    classes = [f for f in it.filters + [f for s in it.sides for f in s.filters] if f.field == "device_class"]
    lacking = [d for d in it.datasets if d in SPECS and "device_class" not in SPECS[d].own]
    if not classes or not lacking:
        return ""
    if set(lacking) == {"pma"} and all(f.value == "3" for f in classes) and not it.sides:
        it.filters = [f for f in it.filters if f.field != "device_class"]
        it.notes.append("PMA approvals are for class III devices, so every PMA approval was counted")
        return ""
    labels = " and ".join(vocab.LABEL.get(d, d) for d in lacking)
    return (
        f"I cannot narrow the {labels} to {classes[0].label}: their searches here do not filter by device class, "
        'so I give no figure. I can list the product codes of that class ("class II product codes") and then '
        "count the records for one of them."
    )


def _negated(question: str, words: str) -> bool:
    """The words are said after "not", "no", "except", "excluding", "other than", "without", "rather than"."""
    return bool(
        words
        and re.search(
            r"(?i)\b(?:not|(?<!yes\sor\s)(?<!yes\/)no|except|excluding|exclude|other\s+than|without|but\s+not|rather\s+than|"
            r"as\s+opposed\s+to|never|(?:have|has|is|are|was|were|do|does|did)n['’]?t|"
            r"instead\s+of)\s+"
            r"(?:(?:the|any|those|these|ones|that|which|were|are|was|is|been|be|yet|still|ever|got|gotten)\s+){0,3}"
            + re.escape(words)
            + r"\b",
            question,
        )
    )


def _score(tokens: Tokens, it: Interpretation, names, unknown_codes: list[str]) -> None:
    """Unexplained words, confidence, and whether the question was understood at all."""
    content = [i for i, t in enumerate(tokens.toks) if t.low not in vocab.FUNCTION and any(c.isalnum() for c in t.low)]
    left = [tokens.toks[i].text for i in content if tokens.free(i)]
    it.unexplained = list(dict.fromkeys(it.unexplained + left))
    share = len(left) / max(1, len(content))
    it.confidence = round(min(it.confidence, 1 - share), 2)
    specific = it.narrowed()
    named = bool(set(tokens.role.values()) & {"dataset", "measure", "field", "filter", "code", "id", "date"})
    if len(unknown_codes) > MAX_GIVEN_CODES:
        it.understood = False
    elif unknown_codes:
        it.understood = False
        it.notes.append(f"{', '.join(unknown_codes[:10])}: not a product code in the mirror")
    elif it.device and it.device.path == "given" and len(it.device.codes) > MAX_GIVEN_CODES:
        it.understood = False
        it.notes.append(f"{len(it.device.codes)} product codes is more than I search at once ({MAX_GIVEN_CODES})")
    elif not named and not specific:
        it.understood = False
    elif it.measure == "lookup" and not specific and not it.device and it.field != "latest":
        it.understood = False  # "regulation": a field of nothing named (never of a whole dataset)
        it.notes.append("The question asks for a field but names no device, product code, firm or record")
    elif left and not specific:
        it.understood = False  # a name we could not read: never answer about the whole dataset
    elif names.cue_without_name and not it.firm and left:
        it.understood = False
    elif (
        it.unexplained
        and it.device
        and it.device.path != "names"
        and it.device.codes
        and all(c.records == 0 for c in it.device.codes)
        and not it.sides
    ):
        it.understood = False  # "PAD 6082": a reading that explains part of the question and finds none
        it.notes.append(f'The product codes read from "{it.device.words}" are not used by any record here')
    elif share > 0.5:
        it.understood = False


def apply_choice(it: Interpretation, choice: Choice) -> Interpretation:
    """The interpretation with the picked reading (its patch) applied."""
    data = it.model_dump()
    data.update(choice.patch)
    out = Interpretation.model_validate(data)
    out.confidence = 1.0
    return out
