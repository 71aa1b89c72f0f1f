"""Read a question's shape deterministically: datasets, count/list/trend/top, dates, keys, and names to resolve."""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field
from datetime import date

__all__ = ["Intent", "parse_intent"]

DATASET_WORDS = [  # (dataset, pattern)
    ("event", r"adverse|events?|maude|mdrs?|reports?|complaints?|injur\w*|deaths?|died|fatal\w*|malfunction\w*|"
              r"problems?|incidents?"),
    ("recall", r"recall\w*|enforcement|withdraw\w*"),
    ("510k", r"510\s*\(?k\)?s?|clearances?|cleared|premarket notifications?|k\d{6}|de ?novo|den\d{6}"),
    ("pma", r"pmas?|premarket approvals?|p\d{6}|supplements?"),
    ("classification", r"classif\w*|regulation( number)?s?|device class(es)?|product codes?|panel"),
    ("udi", r"udis?|gudid|device identifiers?|\bdis?\b|brands?|models?|catalog"),
    ("registrationlisting", r"registr\w*|establishments?|facilit(y|ies)|listings?|plants?|sites?"),
]
TOP_FIELDS = [  # (count_by field, pattern after "top/most/which"), most specific first
    ("patient_problem", r"patient problems?|patient outcomes?|harms?"),
    ("device_problem", r"device problems?|product problems?|failure modes?|problems?"),
    ("manufacturer", r"manufacturers?|firms?|compan(y|ies)|makers?|applicants?|recalling firms?"),
    ("product_code", r"product codes?|devices?|device types?"),
    ("event_type", r"event types?|outcomes?"),
    ("country", r"countr(y|ies)"),
    ("recall_class", r"recall class(es)?|classes"),
    ("decision_code", r"decision codes?|decisions?"),
]
EVENT_TYPES = {"death": "Death", "deaths": "Death", "died": "Death", "fatal": "Death", "fatalities": "Death",
               "injury": "Injury", "injuries": "Injury", "injured": "Injury", "malfunction": "Malfunction",
               "malfunctions": "Malfunction"}
STOP = set("""a an the of for in on at by to from with without and or about is are was were be been do does did
how many much what which who whom whose where when why show list find give get me tell please all any some
number count total there their its it this that these those them they per each every over since after before
between during through than more most top common frequent leading trend trends time year years yearly annual
annually month months monthly by data fda device devices medical recalls recall recalled adverse event events
report reports reported maude mdr 510k 510 k clearance clearances cleared pma pmas approval approvals approved
class classification classifications udi gudid registration registrations registered establishment establishments
listing listings manufacturer manufacturers firm firms company companies made manufactured product products code
codes type types problem problems issue issues death deaths injury injuries malfunction malfunctions have has had
i we you can could would should last first new recent recently so far ever also too same what's whats vs versus
related associated involving involved make makes making tell know about like any info information details
give summary summarize summarise look up initiated issued filed submitted received decided records record
entries data database there here""".split())
NOT_CODES = {"FDA", "PMA", "UDI", "MDR", "AND", "THE", "FOR", "USA", "EUA", "DEN", "ALL", "ANY", "HOW", "WHO",
             "GMP", "IDE", "CFR", "ISO", "LOT", "NOT", "ARE", "WAS", "HAS", "TOP", "PER", "CDRH", "III", "II",
             "MRI", "ICD", "IUD", "CPAP", "CGM", "EEA"}
_YEAR = r"(19[89]\d|20[0-4]\d)"


@dataclass
class Intent:
    datasets: list[str] = field(default_factory=list)
    shape: str = "list"                     # count | list | trend | top
    trend_by: str = "year"
    top_by: str | None = None
    product_codes: list[str] = field(default_factory=list)
    numbers: list[str] = field(default_factory=list)    # K / P / DEN numbers
    device_text: str = ""
    firm: str = ""
    location: str = ""
    date_from: str | None = None
    date_to: str | None = None
    event_type: str | None = None
    recall_class: str | None = None
    device_class: str | None = None
    followup: bool = False

    def to_dict(self) -> dict:
        return asdict(self)


def parse_intent(question: str, today: date | None = None) -> Intent:
    q = " ".join(question.split())
    low = q.lower()
    it = Intent()
    it.datasets = [ds for ds, pat in DATASET_WORDS if re.search(rf"\b({pat})\b", low)]
    if len(it.datasets) > 1 and "classification" in it.datasets and not re.search(r"classif|regulation|device class|panel", low):
        it.datasets.remove("classification")   # "product code X" names a key, not the classification dataset
    if re.search(r"\b(how many|number of|count|total|how often)\b", low):
        it.shape = "count"
    if re.search(r"\b(trends?|over time|per (year|month)|by (year|month)|each (year|month)|annual\w*|yearly|monthly|"
                 r"year by year|month by month|over the (last|past))\b", low):
        it.shape, it.trend_by = "trend", "month" if re.search(r"\b(month\w*)\b", low) else "year"
    m = re.search(r"\b(top|most|which|leading|biggest|main|most common|most frequent)\b\s*(\d+\s+)?(.{0,40})", low)
    if m and it.shape != "trend":
        for fld, pat in TOP_FIELDS:
            if re.search(rf"\b({pat})\b", m.group(3)):
                it.shape, it.top_by = "top", fld
                break
    it.numbers = [n.upper() for n in re.findall(r"\b(k\d{6}|p\d{6}(?:/?s\d{3})?|den\d{6})\b", low)]
    it.location = _location(q)
    it.firm = _firm(q, it.location)
    in_firm = set(it.firm.split())
    it.product_codes = [c for c in re.findall(r"\b[A-Z]{3}\b", q) if c not in NOT_CODES and c not in in_firm]
    _dates(it, low, today)
    for word, etype in EVENT_TYPES.items():
        if re.search(rf"\b{word}\b", low):
            it.event_type = etype
            break
    m = re.search(r"\bclass\s+(iii|ii|i|3|2|1)\b", low)
    if m:
        roman = {"1": "I", "2": "II", "3": "III"}.get(m.group(1), m.group(1).upper())
        if "recall" in it.datasets:
            it.recall_class = f"Class {roman}"
        else:
            it.device_class = {"I": "1", "II": "2", "III": "3"}[roman]
    it.followup = bool(re.search(r"\b(those|these|them|that device|same devices?|it|that firm|too|as well)\b|(?<!are )(?<!is )\bthere\b",
                                 low)) \
        and not it.product_codes
    it.device_text = _device_text(q, it)
    return it


def _dates(it: Intent, low: str, today: date | None) -> None:
    today = today or date.today()
    if m := re.search(rf"\bbetween {_YEAR} and {_YEAR}\b|\bfrom {_YEAR} (?:to|through|until|-) {_YEAR}\b|\b{_YEAR}\s*[-–]\s*{_YEAR}\b", low):
        a, b = [g for g in m.groups() if g][:2]
        it.date_from, it.date_to = f"{a}-01-01", f"{b}-12-31"
    elif m := re.search(rf"\b(?:since|after|from) {_YEAR}\b", low):
        it.date_from = f"{m.group(1)}-01-01"
    elif m := re.search(rf"\bbefore {_YEAR}\b", low):
        it.date_to = f"{int(m.group(1)) - 1}-12-31"
    elif m := re.search(r"\b(?:last|past) (\d+) years?\b", low):
        it.date_from = f"{today.year - int(m.group(1))}-01-01"
    elif m := re.search(rf"\b(?:in|during|for|of) {_YEAR}\b", low) or re.search(rf"\b{_YEAR}\b", low):
        it.date_from, it.date_to = f"{m.group(1)}-01-01", f"{m.group(1)}-12-31"


_FIRM_AFTER = re.compile(r"\b(?:by|from|made by|manufactured by|of|for)\s+((?:[A-Z][\w&.'-]*|[A-Z0-9]{2,})(?:\s+(?:[A-Z][\w&.'-]*|&|and|of))*)")
_SUFFIX = re.compile(r"\b(inc|llc|ltd|corp|corporation|gmbh|ag|medical|healthcare|scientific|surgical|labs?|"
                     r"laboratories|technologies|systems|pharma|biomedical|medtronic|abbott|baxter|philips|siemens|"
                     r"stryker|boston|johnson|zimmer|smith)\b", re.I)


_LEADING = re.compile(r"^((?:[A-Z][\w&.'-]+)(?:\s+[A-Z][\w&.'-]+)*)\s+(?:PMAs?|510|recalls?|adverse|events?|devices?|"
                      r"clearances?|approvals?|registrations?|UDI|MAUDE|products?)\b")


def _not_a_firm(name: str, location: str) -> bool:
    words = name.split()
    return (not words or words[0].lower() in STOP or name == location or re.match(_YEAR, name) is not None
            or all(re.fullmatch(r"[A-Z]{3}|and|or|&", w) for w in words)             # product codes
            or re.fullmatch(r"(?i)(k\d{6}|p\d{6}\S*|den\d{6})", name) is not None        # K / P / DEN numbers
            or (len(name) > 2 and _is_place_word(name)))


def _firm(q: str, location: str = "") -> str:
    """A firm name: capitalised words after by/from/of/for, or leading a dataset word ("Medtronic PMA approvals")."""
    cands = [m.group(1).strip(" .,") for m in _FIRM_AFTER.finditer(q)]
    if m := _LEADING.match(q):
        words = m.group(1).split()
        while words and _is_dataset_word(words[-1].lower()):
            words.pop()
        cands.append(" ".join(words))
    for name in cands:
        name = re.sub(r"\s+(?:and|or|&)$", "", name)
        if not _not_a_firm(name, location) and (_SUFFIX.search(name) or len(name.split()) <= 4):
            return name
    return ""


_PLACES = re.compile(r"\b(in|from|located in|based in|registered in)\s+((?:the\s+)?[A-Z][a-zA-Z.]+(?:\s+[A-Z][a-zA-Z.]+){0,3}|[A-Z]{2})\b")


def _location(q: str) -> str:
    for m in _PLACES.finditer(q):
        cand = m.group(2).strip()
        if _is_place_word(cand):
            return cand
    return ""


def _is_place_word(name: str) -> bool:
    from .places_hint import looks_like_place
    return looks_like_place(name)


def _device_text(q: str, it: Intent) -> str:
    text = q
    for piece in [it.firm, it.location] + it.product_codes + it.numbers:
        if piece:
            text = re.sub(re.escape(piece), " ", text, flags=re.I)
    text = re.sub(rf"\b{_YEAR}\b|\bclass\s+(iii|ii|i|1|2|3)\b|\b\d+\b", " ", text, flags=re.I)
    words = [w for w in re.findall(r"[A-Za-z][A-Za-z'-]*", text) if w.lower().strip("'") not in STOP]
    words = [w for w in words if w.lower() not in EVENT_TYPES and not _is_dataset_word(w.lower())]
    return " ".join(words)[:120]


_DATASET_OR_FIELD = re.compile(r"^(" + "|".join(p for _, p in DATASET_WORDS + TOP_FIELDS) + r")$")


def _is_dataset_word(word: str) -> bool:
    return bool(_DATASET_OR_FIELD.match(word))
