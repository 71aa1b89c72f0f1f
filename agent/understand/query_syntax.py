"""Questions written in the openFDA search syntax, as people who know the API type them:
`device_class:3 AND medical_specialty:CV`, `decision_date:[20200401 TO 20200630]`, `recalling_firm:"Advanced
Sterilization Products"`, `brand_name:*pacemaker* AND NOT company_name:"Tz Medical"`, `count DISTINCT manufacturer
WHERE date_performed:2020-04-27`. Such a question names its fields itself, so it is run as the openFDA request it
spells, on the mirror, and answered with the request to replay.

A question is read so only when it names at least one field of a device dataset with a value after ":" or "=", and
the dataset is named or is the only one that holds every field named. Words around the clauses ("count only",
"how many hits?") ask for the total; "distinct", "unique" or "different" before a field ask for the number of its
values. A follow-up that only adds clauses ("AND NOT company_name = Tz Medical") narrows the previous request."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from mirror.api.catalog import catalog

__all__ = ["QueryReading", "read_query", "search_words", "ENDPOINT_WORDS"]

# the words that name a dataset, in the question (the API's own names first)
ENDPOINT_WORDS: tuple[tuple[str, str], ...] = (
    (r"device_event|device/event|maude|mdrs?|adverse\s+events?|event\s+reports?|device_event_patient", "event"),
    (r"device_510k|device/510k|510\s*\(?k\)?s?|premarket\s+notifications?", "510k"),
    (r"device_pma|device/pma|pmas?|premarket\s+approvals?", "pma"),
    (r"device_enforcement|device/enforcement|enforcement(?:\s+reports?)?", "enforcement"),
    (r"device_recall|device/recall|recalls?", "recall"),
    (r"device_classification|device/classification|classification|procodes?|product\s+codes?", "classification"),
    (r"device_udi|device/udi|udi", "udi"),
    (r"device_covid19serology|covid19serology|covid[\s-]*19\s+serology|serology|antibody\s+tests?", "covid19serology"),
    (
        r"device_registrationlisting|registrationlisting|registrations?(?:\s*(?:&|and)\s*listings?)?",
        "registrationlisting",
    ),
)
_VALUE = (
    r'(?:\[[^\]]{3,60}\]|"[^"]{1,80}"|\'[^\']{1,80}\'|[^\s,;()?:=]+(?:\s+TO\s+[^\s,;()?:=]+)?)(?![\w:=])(?!\s*[:=])'
)
_CLAUSE = re.compile(
    rf"(?P<neg>\b(?:AND\s+NOT|NOT|-)\s*)?(?P<field>[a-z][a-z0-9_]*(?:\.[a-z0-9_]+)*)\s*(?P<op>:|==?)\s*(?P<value>{_VALUE})"
)
_DISTINCT = re.compile(
    r"(?i)\b(?:count\s+)?(?:distinct|unique|different)\s+(?:number\s+of\s+)?(?P<field>[a-z][a-z0-9_.]*)"
)
_FOLLOW = re.compile(r"(?i)^\s*(?:same\s+(?:search|query)|refine|now|and|also|then|plus|narrow\w*)?\W*(?:AND|NOT|-)\b")


# the words a request may have around its clauses; any other word ("group by", "vs", a firm, "Q2 2020") asks for more
# than the request, and the question is left to the question reader
_AROUND = set(
    """a an the of in on for with where and or not to by from is are was were there any all only just pls please
    plz thx thanks count counts counted counting number numbers total totals how many much hits hit results result
    records record rows row entries entry matches match matching search searches query queries request api openfda
    fda device devices database db data dataset endpoint table show list give me find pull get return returns what
    which values value distinct unique different limiter filter filtered field fields select star new remain remains
    remaining now same refine narrow also then plus exclude excluding except minus case insensitive sensitive
    exact exactly it do does did have has i we you need want ok okay so yes no""".split()
)


_DAY = r"(?:\d{4}-?\d{2}-?\d{2}|\d{1,2}/\d{1,2}/\d{4}|\*)"
_DATE_VALUE = rf"\[\s*{_DAY}\s+TO\s+{_DAY}\s*\]|{_DAY}(?:\s+TO\s+{_DAY})?"


@dataclass
class QueryReading:
    endpoint: str
    search: str  # the openFDA search value
    count: str = ""  # a field whose distinct values are counted ("manufacturer.exact")
    clauses: list[str] = field(default_factory=list)  # as the question wrote them
    shown: list[str] = field(default_factory=list)  # fields the question names beside the clauses: their values

    def params(self) -> dict[str, str]:
        out = {"search": self.search}
        if self.count:
            out["count"] = self.count
        return out


def _endpoints_named(question: str) -> list[str]:
    return [ep for words, ep in ENDPOINT_WORDS if re.search(rf"(?i)(?<![\w/]){words}(?![\w])", question)]


def _names_dataset(name: str) -> bool:
    """A dataset's name before a colon ("covid19serology: date_performed = ..."): no field."""
    return any(re.fullmatch(rf"(?i){words}", name) for words, _ in ENDPOINT_WORDS)


def _path(endpoint: str, name: str) -> str | None:
    """The endpoint's field a name means: the path itself, or the one path that ends with it ("brand_name" in
    adverse events is "device.brand_name")."""
    fields = catalog().fields.get(endpoint, {})
    if name in fields:
        return name
    ends = [p for p in fields if p.endswith("." + name)]
    return ends[0] if len(ends) == 1 else None


def _date(value: str) -> str:
    """A date as the search takes it: 4/27/2020 -> 2020-04-27 (other forms as written)."""
    m = re.fullmatch(r"(\d{1,2})/(\d{1,2})/(\d{4})", value)
    return f"{m[3]}-{int(m[1]):02d}-{int(m[2]):02d}" if m else value


def _value(value: str, kind: str) -> str:
    v = value.strip()
    if not v.startswith(("[", '"', "'")):
        v = v.rstrip(".")  # the sentence's full stop
    if v.startswith("'") and v.endswith("'"):
        v = '"' + v[1:-1] + '"'
    if v.startswith("[") and v.endswith("]"):
        lo, _, hi = v[1:-1].partition(" TO ")
        return f"[{_date(lo.strip())} TO {_date(hi.strip())}]"
    if " TO " in v:
        lo, _, hi = v.partition(" TO ")
        return f"[{_date(lo.strip())} TO {_date(hi.strip())}]"
    if kind == "date":
        return _date(v)
    if v.startswith('"'):
        return v
    return v.strip("*") if v.count("*") == 2 and len(v) > 2 else v  # "*pacemaker*": the word pacemaker


def read_query(question: str, last: dict | None = None) -> QueryReading | None:
    """The openFDA request a question spells, or None when it spells none. `last`: the previous request
    ({"endpoint", "search"}) a follow-up of clauses narrows."""
    found = [m for m in _CLAUSE.finditer(question) if not _names_dataset(m["field"])]
    if not found:
        return None
    named = _endpoints_named(question)
    if _FOLLOW.match(question) and not last and not named:
        return None  # "same search NOT ...": narrows a request that is not there
    follow = bool(last and _FOLLOW.match(question) and not named)
    candidates = [last["endpoint"]] if follow and last else named or catalog().endpoints()
    fields = [m["field"] for m in found]
    endpoint = None
    for ep in candidates:
        if all(_path(ep, f.removesuffix(".exact")) for f in fields):
            if endpoint is not None and not named and not follow:
                return None  # the fields are in several datasets and none is named
            endpoint = endpoint or ep
    if endpoint is None:
        return None
    cat = catalog().fields[endpoint]
    parts = []
    for m in found:
        path = _path(endpoint, m["field"].removesuffix(".exact")) or m["field"]
        kind = cat.get(path, {}).get("type", "keyword")
        if kind == "date" and not re.fullmatch(_DATE_VALUE, m["value"].rstrip(".")):
            return None  # "decision_date = last 5 years": a period said in words, read by the question reader
        clause = f"{path}:{_value(m['value'], kind)}"
        parts.append(("NOT " if m["neg"] else "") + clause)
    search = " AND ".join(parts)
    if follow and last:
        search = f"({last['search']}) AND {search}"
    count = ""
    if d := _DISTINCT.search(question):
        path = _path(endpoint, d["field"].removesuffix(".exact").rstrip("s")) or _path(endpoint, d["field"])
        if path:
            count = path + (".exact" if cat.get(path, {}).get("exact") else "")
    rest = question
    for m in found:
        rest = rest.replace(m[0], " ")
    for words, _ in ENDPOINT_WORDS:
        rest = re.sub(rf"(?i)(?<![\w/]){words}(?![\w])", " ", rest)
    shown = []
    for w in re.findall(r"[A-Za-z_][\w.]*", rest):
        low = w.lower().rstrip(".")
        path = _path(endpoint, low) or (_path(endpoint, low.rstrip("s")) if low.endswith("s") else None)
        if path:
            shown += [path] if path not in shown and path != count.removesuffix(".exact") else []
        elif low not in _AROUND and low not in ("and", "not", "or", "to") and not re.fullmatch(r"count|\*", low):
            return None  # a word the request does not cover: the question asks for more than it
    return QueryReading(
        endpoint=endpoint, search=search, count=count, clauses=[m[0].strip() for m in found], shown=shown
    )


# a database searcher's words around a question in plain English ("number of results?", "(case-insensitive pls)",
# "limiter: decision_date = ...", "Limit to decision_date, not date_received"): what they ask, in the question's words
_SEARCH_WORDS: tuple[tuple[str, str], ...] = (
    (r"\s*\(\s*case[\s-]*(?:in)?sensitive\b[^)]{0,30}\)", ""),
    (r"\b(?:the\s+)?(?:number|count|total)\s+of\s+(?:results|hits|matches)\b", "how many"),
    (r"\b(?:results?|hits?|matches?)\s+count\b", "count"),
    (r"\blimiters?\s*:\s*", ""),
    (r"\blimit(?:ed)?\s+to\s+(?=[a-z]+_[a-z_]+\b|(?:the\s+)?(?:decision|received|event)\s+date\b)", "by "),
)


def search_words(text: str) -> str:
    """The question with a database searcher's framing words said as plain asks; anything else unchanged."""
    out = text
    for pattern, repl in _SEARCH_WORDS:
        out = re.sub(pattern, repl, out, flags=re.I)
    return out
