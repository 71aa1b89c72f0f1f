"""Which field a question asks about and where it lives: lookups or rankings, flags, record numbers and the
datasets that carry them, firms read where their records are."""

from __future__ import annotations

import re

from ..tools import ToolContext, ToolError, run_tool
from . import vocab
from .tokens import Tokens
from .types import Interpretation

__all__ = [
    "LOOKUP_FIELDS",
    "LOOKUP_ALIAS",
    "FLAG_FIELDS",
    "TOP_OK",
    "COUNTABLE",
    "ID_FIELDS",
    "FIRM_LOOKUPS",
    "CLASSIFICATION_FIELDS",
    "resolve_measure",
    "ids_apply",
    "recall_numbers",
    "event_home",
    "firm_home",
    "rank_when_bare",
    "flag_question",
    "udi_flag_question",
    "classification_lookup",
]

LOOKUP_FIELDS = {
    "regulation_number": "classification",
    "device_class": "classification",
    "review_panel": "classification",
    "device_name": "classification",
    "decision_code": "510k",
    "decision_date": "510k",
    "applicant": "510k",
    "root_cause": "recall",
    "recall_class": "recall",
    "status": "recall",
    "supplement_type": "pma",
    "clearance_type": "510k",
    "event_type": "event",
    "date_of_event": "event",
    "gmdn_term": "udi",
    "labeler_duns_number": "udi",
    "termination_date": "enforcement",
    "event_date_initiated": "recall",
    "brand_name": "udi",
    "version_or_model_number": "udi",
    "catalog_number": "udi",
    "publish_date": "udi",
    "commercial_distribution_status": "udi",
    "trade_name": "pma",
    "registration_number": "registrationlisting",
    "fei_number": "registrationlisting",
    "city": "registrationlisting",
    "company_name": "udi",
    "product_problems": "event",
    "implant_flag": "classification",
    "gmp_exempt_flag": "classification",
    "life_sustain_support_flag": "classification",
    "third_party_flag": "510k",
    "premarket_submission": "gudid",
    "k_numbers": "510k",
    "mri_safety": "gudid",
    "reg_expiry_year": "registrationlisting",
    "generic_name": "pma",
    "code_info": "enforcement",
}


# flags said as filters that a question about one device asks the value of ("is PNJ an implant?")
FLAG_FIELDS = {"implant": "implant_flag", "life": "life_sustain_support_flag", "gmp": "gmp_exempt_flag"}


TOP_OK = {
    "event": {"manufacturer", "product_code", "event_type", "patient_problem", "device_problem", "country"},
    "recall": {"manufacturer", "product_code", "recall_class", "country", "root_cause", "state", "status"},
    "enforcement": {"manufacturer", "recall_class", "country", "state", "status"},
    "510k": {"manufacturer", "product_code", "decision_code", "country", "state", "clearance_type"},
    "pma": {"manufacturer", "product_code", "decision_code", "supplement_type", "state"},
    "udi": {"manufacturer", "product_code"},
    "registrationlisting": {"country", "product_code", "state"},
    "classification": {"device_class", "review_panel", "medical_specialty"},
    "gudid": {"manufacturer", "product_code", "gmdn_term", "brand_name"},
    "covid19serology": {"manufacturer", "antibody_truth", "device", "panel"},
}


COUNTABLE = {
    "applicant": "manufacturer",
    "manufacturer": "manufacturer",
    "product_code": "product_code",
    "event_type": "event_type",
    "patient_problem": "patient_problem",
    "device_problem": "device_problem",
    "country": "country",
    "state": "state",
    "recall_class": "recall_class",
    "decision_code": "decision_code",
    "root_cause": "root_cause",
    "status": "status",
    "supplement_type": "supplement_type",
    "clearance_type": "clearance_type",
    "device_class": "device_class",
    "review_panel": "review_panel",
}


# a breakdown field said about one record: the record's own field
LOOKUP_ALIAS = {"device_problem": "product_problems"}


def resolve_measure(it: Interpretation, ids: list, prev_specific: bool = False) -> None:
    """A field asked about: its value for one record or code ("what is the regulation number of DXY"), else a
    breakdown by it ("which firms recalled catheters")."""
    if it.measure != "list" or not it.field:
        return
    specific = bool(ids or (it.device and it.device.path == "given") or prev_specific)
    if specific and ids and it.field in LOOKUP_ALIAS:
        it.field = LOOKUP_ALIAS[it.field]  # "report 16081310 device problem": that record's problems
    if it.field in LOOKUP_FIELDS and (specific or it.field not in COUNTABLE):
        it.measure = "lookup"
    elif it.field in COUNTABLE:
        it.measure, it.by, it.field = "top", COUNTABLE[it.field], None
    else:
        it.field = None


ID_FIELDS = (
    "k_number",
    "pma_number",
    "supplement_number",
    "product_res_number",
    "mdr_report_key",
    "di",
    "regulation_number",
)


def ids_apply(it: Interpretation, ids_ds: list[str]) -> None:
    """A record number searches only the datasets that carry it: "510(k) for DI B3359500" is never every 510(k)."""
    from ..planner import ID_FILTERS

    fields = [f.field for f in it.filters if f.field in ID_FILTERS]
    if not fields:
        return
    by_code = bool(it.device and it.device.path == "given" and any(str(f.value) == it.device.words for f in it.filters))
    keep = [d for d in it.datasets if by_code or any(d in ID_FILTERS[f] for f in fields)]  # K number: its codes
    if "di" in fields and set(it.datasets) & {"510k", "pma"}:
        it.field, it.measure = "premarket_submission", "lookup"  # "the 510(k) for DI B3359500"
    if it.field == "premarket_submission" and "di" in fields:
        keep = [d for d in keep if d in ("gudid", "udi")] or ["gudid"]
    if (
        "product_res_number" in fields
        and "recall" in keep
        and (it.field is None and "510k" in it.datasets or it.field == "premarket_submission")
    ):
        it.field, it.measure = "k_numbers", "lookup"  # "which 510(k) is recall Z-0053-2020 tied to?"
    if keep != it.datasets:
        gone = [d for d in it.datasets if d not in keep]
        it.datasets = keep or [d for d in ids_ds if d in ID_FILTERS[fields[0]]][:1] or ids_ds[:1]
        if gone:
            it.notes.append(
                f"{vocab.LABEL.get(gone[0], gone[0])} do not carry {it.filters[0].label}, so "
                f"{' and '.join(vocab.LABEL.get(d, d) for d in it.datasets)} were searched"
            )


def recall_numbers(ctx: ToolContext, it: Interpretation) -> None:
    """A recall number asked about in recalls that only an enforcement report holds is read there; "what class"
    of a recall is its recall class (given in enforcement reports)."""
    event_home(ctx, it)
    numbers = [f.value for f in it.filters if f.field == "product_res_number"]
    if numbers and it.datasets == ["classification"]:
        it.datasets = ["recall"]  # "Z-2338-2012 what classification does it have?": the recall's class, not the
        # classification dataset, which holds no recall numbers
    if not numbers and not set(it.datasets) & {"recall", "enforcement"}:
        return
    classes = any(f.field in ("class", "recall_class") for f in it.filters)  # "classified class III": a filter
    if not classes and (
        it.field == "device_class"
        or it.field is None
        and it.measure == "list"
        and re.search(r"\b(classified|classification|what class)\b", it.question.lower())
    ):
        it.field = "recall_class"
        it.measure = "lookup"
    if "recall" in it.datasets and it.field == "recall_class" and not numbers:
        it.datasets = list(dict.fromkeys("enforcement" if d == "recall" else d for d in it.datasets))
        it.notes.append("recall classes are given in FDA enforcement reports, so those were read")
    if not numbers or "recall" not in it.datasets:
        return
    try:
        in_recalls = run_tool(ctx, "search_recalls", {"filters": {"product_res_number": numbers}, "limit": 0}).total
        in_reports = run_tool(ctx, "search_enforcement", {"filters": {"recall_number": numbers}, "limit": 0}).total
    except ToolError:
        return
    if not in_recalls and in_reports or it.field == "recall_class" and in_reports:
        it.datasets = list(dict.fromkeys("enforcement" if d == "recall" else d for d in it.datasets))
        it.notes.append(f"{', '.join(map(str, numbers))} is in FDA enforcement reports, so those were read")


def event_home(ctx: ToolContext, it: Interpretation) -> None:
    """A recall event number is read where its records are: the recalls (res event number), the enforcement
    reports (event id), or both."""
    events = [f.value for f in it.filters if f.field == "event_id"]
    if not events or not set(it.datasets) & {"recall", "enforcement"}:
        return
    try:
        found = {
            "recall": run_tool(ctx, "search_recalls", {"filters": {"event_id": events}, "limit": 0}).total,
            "enforcement": run_tool(ctx, "search_enforcement", {"filters": {"event_id": events}, "limit": 0}).total,
        }
    except ToolError:
        return
    held = [d for d in ("recall", "enforcement") if found[d]]
    if held and set(held) != set(it.datasets) & {"recall", "enforcement"}:
        it.datasets = [d for d in it.datasets if d not in ("recall", "enforcement")] + held
        it.notes.append(
            f"recall event {', '.join(map(str, events))} is in the {' and '.join(vocab.LABEL[d] for d in held)}"
        )


FIRM_LOOKUPS = {
    "status",
    "root_cause",
    "recall_class",
    "registration_number",
    "fei_number",
    "city",
    "decision_code",
    "decision_date",
    "company_name",
}


def firm_home(it: Interpretation) -> None:
    """A firm whose records in the dataset asked about are none, but that enforcement reports name ("the Advanced
    Sterilization Products recall"): its enforcement reports are read (said in a note)."""
    f = it.firm
    if not f or not f.by_dataset or it.datasets != ["recall"] or f.by_dataset.get("recall"):
        return
    if f.by_dataset.get("enforcement"):
        it.datasets = ["enforcement"]
        it.notes.append(f"{f.name} has no record in the recalls dataset; its FDA enforcement reports were read")


def rank_when_bare(it: Interpretation, said: list[str]) -> None:
    """ "serology test manufacturers": a field named with nothing to narrow by is a ranking by that field."""
    if (
        it.measure != "list"
        or it.field
        or it.device
        or it.firm
        or it.place
        or it.filters
        or it.date_from
        or it.date_to
        or it.sides
    ):
        return
    by = next(
        (
            COUNTABLE[f]
            for f in said
            if f in COUNTABLE and COUNTABLE[f] in TOP_OK.get(it.datasets[0] if it.datasets else "", ())
        ),
        None,
    )
    if by:
        it.measure, it.by = "top", by


def flag_question(it: Interpretation, tokens: Tokens) -> None:
    """ "is PNJ an implant?", "NIQ implant flag": the flag's value for the device, not a filter."""
    flags = [f for f in it.filters if f.field.startswith("word:") and f.field[5:] in FLAG_FIELDS]
    if not flags or not it.device or it.sides or it.measure not in ("list", "lookup", "count"):
        return
    asks = (
        tokens.toks[0].low in ("is", "are", "does", "do", "was", "were")
        or "flag" in flags[0].words.lower()
        or tokens.text.rstrip().endswith("?")
        and tokens.toks[0].low in flags[0].words.lower().split()  # "gmp exempt? UV toothbrush sterilizer"
        or tokens.text.rstrip().endswith("?")
        and not _COUNTED.search(tokens.text)  # "chest drainage kit - gmp exempt?"
    )
    if asks and it.measure == "count":
        it.measure = "list"  # "does DXY count as an implant?"
    if asks and (it.device.path == "given" or len(it.device.codes) <= 3):
        it.filters = [f for f in it.filters if f is not flags[0]]
        it.measure, it.field, it.datasets = "lookup", FLAG_FIELDS[flags[0].field[5:]], ["classification"]
        codes = [c.model_copy(update={"records": None}) for c in it.device.codes]
        it.device = it.device.model_copy(update={"path": "given", "how": "", "codes": codes})


# the label flags of a UDI record, said as filters ("sterile", "single-use", "latex free")
UDI_FLAGS = {
    "bsterile": "is_sterile",
    "sterile": "is_sterile",
    "single": "is_single_use",
    "rx": "is_rx",
    "otc": "is_otc",
    "kit": "is_kit",
    "serial": "has_serial_number",
    "lotc": "has_lot_or_batch_number",
    "nrl": "is_labeled_as_nrl",
    "nonrl": "is_labeled_as_no_nrl",
}
_ASKS_YES_NO = re.compile(
    r"(?i)(?:^|[.?!:;,]\s*)\W*(?:is|are|was|were|does|do|did|has|have)\b|\by\s*/\s*n\b|\byes\s+or\s+no\b"
)


_COUNTED = re.compile(r"(?i)\b(?:how\s+many|count|number|total|list|which|what|show)\b")


def udi_flag_question(it: Interpretation, question: str) -> None:
    """ "is the Delta 3300 labeled latex free?", "Delta 3300 - single use? y/n": the flag's value in the records of
    the one device named (by its own names, or a firm's device), not a count of the records carrying the flag."""
    flags = [f for f in it.filters if f.field.startswith("word:") and f.field[5:] in UDI_FLAGS]
    if any(f.field in ("word:nrl", "word:nonrl") for f in flags) and "gudid" in it.datasets:
        it.datasets = list(dict.fromkeys("udi" if d == "gudid" else d for d in it.datasets))
        it.notes.append("the latex label flags of GUDID devices are read from their openFDA UDI records")
    if len(flags) != 1 or it.sides or it.field or it.measure not in ("list", "count", "lookup"):
        return
    if not it.datasets or not set(it.datasets) <= {"udi", "gudid"}:
        return
    named = it.device is not None and it.device.path == "names"  # (a DI's flag is answered yes or no already)
    bare = question.rstrip().endswith("?") and not _COUNTED.search(question)  # "Delta 3300: latex-free?"
    if not named or not (_ASKS_YES_NO.search(question) or bare):
        return
    it.filters = [f for f in it.filters if f is not flags[0]]
    it.measure, it.field, it.by, it.datasets = "lookup", UDI_FLAGS[flags[0].field[5:]], None, ["udi"]


# a flag of one record asked as a filter ("was K202114 handled by an accredited third-party review organization?",
# "K192028: third party reviewed?"): the record's own value of the flag, yes or no
RECORD_FLAGS = {"third_party": ("510k", "k_number", "third_party_flag")}


def record_flag(it: Interpretation) -> None:
    """A flag said of the one record named is that record's value of the flag, not a count filtered by it."""
    if it.sides or it.device or it.firm or it.measure not in ("list", "lookup", "count") or it.field:
        return
    for f in list(it.filters):
        spec = RECORD_FLAGS.get(f.field[5:]) if f.field.startswith("word:") else None
        if not spec:
            continue
        ds, id_field, field = spec
        named = [g for g in it.filters if g.field == id_field]
        if len(named) == 1 and (not it.datasets or it.datasets == [ds]):
            it.filters = [g for g in it.filters if g is not f]
            it.measure, it.field, it.datasets = "lookup", field, [ds]
            return


CLASSIFICATION_FIELDS = {"device_class", "review_panel", "regulation_number"}


def classification_lookup(it: Interpretation, defaulted: bool) -> None:
    """ "what class are CPAP machines": a field of the classification, looked up for the device's product codes."""
    if it.field == "regulation_number" and it.firm and not it.device and not it.filters:
        it.field, it.measure, it.datasets = "registration_number", "lookup", ["registrationlisting"]  # "reg number"
        return
    field = it.by if it.measure == "top" else it.field
    if (
        field in CLASSIFICATION_FIELDS
        and (defaulted or it.datasets == ["classification"])
        and it.device
        and it.device.codes
        and not it.sides
        and it.device.path != "names"
    ):  # names: the records found say it
        it.measure, it.field, it.by, it.datasets = "lookup", field, None, ["classification"]
        codes = [c.model_copy(update={"records": None}) for c in it.device.codes]
        it.device = it.device.model_copy(update={"path": "given", "how": "", "codes": codes})
