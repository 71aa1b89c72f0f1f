"""Questions the records could answer but the searches here cannot: said plainly instead of a figure that would be
about something else (a false positive is not a positive; a firm excluded is not that firm; a quantity, review time
or listed name over a whole dataset, which `record_fields` reads only for one record named)."""

from __future__ import annotations

import re

from ..tools import ToolContext
from .types import Interpretation

__all__ = ["cannot_answer", "cannot_rank", "firm_left_out", "NEGATION_WORDS", "only_negation"]

# (datasets the words matter in, the words, what is said); None: any dataset
_LIMITS: list[tuple[set[str] | None, re.Pattern[str], str]] = [
    (
        {"covid19serology"},
        re.compile(
            r"(?i)\b(?:false|true)[- ]?(?:positive|negative)s?\b|\bwrongly\s+(?:call\w*|flag\w*|identif\w*|read)\b|"
            r"\bmis-?(?:called|classified|read)\b|\bagree(?:d|ment)?\b"
        ),
        "I count serology results by how they agreed with the sample's known status (true or false positives and "
        'negatives) when you name it so in the COVID-19 serology evaluations ("false positives in the serology '
        'data"); as asked, I give no figure.',
    ),
    (
        {"covid19serology"},
        re.compile(r"\b(?:FP|FN|TP|TN)\b"),
        "I count serology results by how they agreed with the sample's known status (true or false positives and "
        'negatives) when you name it so in the COVID-19 serology evaluations ("false positives in the serology '
        'data"); as asked, I give no figure.',
    ),
    (
        {"recall", "enforcement"},
        re.compile(
            r"(?i)\bquantit(?:y|ies)\b|\bhow many units\b|\bunits\s+(?:were\s+|was\s+)?(?:recalled|affected|"
            r"distributed|involved|shipped)\b|\bnumber of units\b"
        ),
        "I read the quantity recalled for one recall at a time: name the recall (its number, device or firm). A "
        "total or average over many recalls is not computed here, so I give no figure.",
    ),
    (
        {"510k", "pma"},
        re.compile(
            r"(?i)\breview\s+(?:time|period|duration|days|clock)\b|\bhow long\b[^?.]{0,40}\b(?:take|took|clear|approv|"
            r"review|decid)\w*|\bdays\s+(?:from|between|to|until|it took)\b|\btime\s+to\s+(?:clearance|clear|"
            r"approval|approve|decision)\b|\bhow many days\b|\bturnaround\b"
        ),
        "I compute the review time (date received to decision) of one submission at a time: name it (its K or P "
        "number, device or firm). Averages or totals over many submissions are not computed here, so I give no "
        "figure.",
    ),
    (
        {"registrationlisting"},
        re.compile(
            r"(?i)\bproprietary\b|\b(?:brand|trade|device|product)\s+names?\b|"
            r"\b(?:what|which) (?:product|device)s?\b(?!\s+(?:codes?|types?|class))"
        ),
        "I give the proprietary names an establishment lists when you name it (its firm or registration number); "
        "for all registrations at once I can give the establishments and their product codes.",
    ),
    (
        None,
        re.compile(
            r"(?i)\b(?:other than|excluding|exclude|except(?:\s+for)?|besides|apart from|aside from|not (?:from|by|"
            r"made by|filed by)|non)[- ]+(?:the\s+)?(?P<firm>[A-Za-z][\w&.'-]*)"
        ),
        "I cannot leave a firm out of a search yet. Ask for all of them and for {firm}'s alone: the difference "
        "is the rest.",
    ),
]


def cannot_answer(it: Interpretation) -> str:
    """What the question asks that the searches cannot do, as one plain sentence ('' when nothing)."""
    q = it.question
    if it.place and it.place.exclude:
        return ""  # "non-US companies": a place left out, which the searches can do
    for datasets, pattern, said in _LIMITS:
        if datasets is not None and not set(it.datasets) & datasets:
            continue
        if datasets == {"covid19serology"} and any(
            f.field.startswith("word:") and f.field.endswith("agree") for f in it.filters
        ):
            continue  # agreement read as a filter ("false positives": antibody_agree FP)
        m = pattern.search(q)
        if not m:
            continue
        if "firm" in pattern.groupindex:
            firm = m.group("firm")
            if it.firm and firm.lower() in (it.firm.words + " " + it.firm.name).lower():
                return said.format(firm=it.firm.name)
            if m.group(0).lower().startswith("non-") and firm[:1].isupper() and len(firm) >= 4 and not it.firm:
                return said.format(firm=firm)  # "non-Medtronic applicants"
            if not m.group(0).lower().startswith("non"):
                return (
                    f'I cannot leave "{firm}" out of a search yet. Ask for all of them and for "{firm}" alone: '
                    "the difference is the rest."
                )  # "catheters other than urological ones": never the excluded kind counted instead
            continue
        return said
    return ""


def cannot_rank(it: Interpretation) -> str:
    """A ranking by a field none of the datasets asked about can be counted by ("which review panel has the most
    recalls?"): said, never a count of all their records in its place."""
    from ..writing import field_label
    from .fields import TOP_OK
    from .vocab import LABEL

    if it.measure != "top" or not it.by or not it.datasets or it.sides or it.by in ("product_code", "manufacturer"):
        return ""  # codes or firms not counted are still listed with each record (the codes of a device)
    if any(it.by in TOP_OK.get(ds, set()) for ds in it.datasets):
        return ""
    where = " or ".join(LABEL.get(ds, ds) for ds in it.datasets)
    ways = sorted({field_label(f) for ds in it.datasets for f in TOP_OK.get(ds, set())})
    return (
        f"I cannot rank the {where} by {field_label(it.by)}: their records do not carry it in a form I count, so I "
        "give no figure. " + (f"I can rank them by {', '.join(ways)}." if ways else "")
    ).strip()


_LEFT_OUT = re.compile(
    r"(?i)\b(?:other than|excluding|exclude|except(?:\s+for)?|besides|apart from|aside from|not (?:from|by|made by|"
    r"filed by)|non)[- ]+(?:the\s+)?(?P<firm>[A-Za-z][\w&.'-]*)"
)
NEGATION_WORDS = frozenset(
    {"other", "others", "excluding", "exclude", "except", "besides", "apart", "aside", "not", "non"}
)


def only_negation(words: str, also: frozenset[str] = frozenset()) -> bool:
    """The words ("non-Medtronic", "exclude") are only the words that leave something out, never a device."""
    return not {w.lower().removeprefix("non-") for w in words.split()} - NEGATION_WORDS - also


def firm_left_out(ctx: ToolContext, it: Interpretation) -> bool:
    """ "PMAs from firms other than Medtronic", "non-Medtronic applicants": every record but the firm's, counted as
    all records minus the firm's (two searches). The negation words are never a device."""
    from mirror.lookup.lexicon import firm_phrases

    from .types import FirmFilter

    m = _LEFT_OUT.search(it.question)
    if not m or it.sides or it.measure not in ("count", "list") or len(it.datasets) != 1:
        return False
    word = m.group("firm")
    if it.place and it.place.exclude:
        return False
    firm = it.firm
    if firm is None or word.lower() not in (firm.words + " " + firm.name).lower():
        if firm is not None or len(word) < 4 or not word[:1].isupper():
            return False
        hit = firm_phrases(ctx.api, [word]).get(word)
        if hit is None or not hit.records:
            return False
        firm = FirmFilter(
            words=word,
            name=hit.names[0] if hit.firms == 1 and hit.names else word,
            key=hit.key,
            variants=list(hit.variants),
            records=hit.records,
            exact=hit.exact,
            match="exact" if hit.exact else "leading",
            by_dataset=dict(sorted(hit.by_dataset.items())),  # a stable order, whatever the lookup gave
        )
    d = it.device
    if d and only_negation(d.words, frozenset({word.lower()})):
        it.device = None  # "other", "excluding", "non-Medtronic": read as device words, they are not
    elif d and d.words.lower().startswith("non-"):
        it.device = None
    it.firm, it.exclude_firm, it.measure = firm, True, "count"
    it.unexplained = [w for w in it.unexplained if w.lower() not in NEGATION_WORDS and "non-" not in w.lower()]
    return True
