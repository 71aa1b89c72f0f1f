"""A direct, pure-Python computation of openFDA query semantics over records: the tests' reference.

Deliberately independent of mirror/api/sql.py (no SQL, no regexes shared): it walks each record, splits
text into words like Lucene's standard tokenizer (letters, digits and `_`; `.` and `'` inside a word
keep it whole), and evaluates the parsed search tree. Only the parser and the field catalog are shared.
"""

from __future__ import annotations

import re
from collections import Counter
from datetime import date, datetime

from mirror.api.catalog import NUMERIC, Catalog, FieldRef
from mirror.api.query import And, Exists, Not, Or, Range, Term, parse

_WORD = re.compile(r"[^\W]+(?:[.'][^\W]+)*")


def words(text: str) -> list[str]:
    return [w.lower() for w in _WORD.findall(text)]


def values(record, path: str) -> list[str]:
    """Every non-null scalar at a dotted path, arrays transparent at any depth."""
    level = [record]
    for part in path.split("."):
        nxt = []
        for node in level:
            for item in node if isinstance(node, list) else [node]:
                if isinstance(item, dict) and part in item:
                    nxt.append(item[part])
        level = nxt
    out = []
    for v in level:
        for item in v if isinstance(v, list) else [v]:
            if item is not None and not isinstance(item, (dict, list)):
                out.append(
                    item if isinstance(item, str) else str(item).lower() if isinstance(item, bool) else str(item)
                )
    return out


def all_strings(record) -> list[str]:
    if isinstance(record, dict):
        return [s for v in record.values() for s in all_strings(v)]
    if isinstance(record, list):
        return [s for v in record for s in all_strings(v)]
    return [] if record is None else [str(record)]


def to_date(v: str) -> date | None:
    for fmt in ("%Y%m%d", "%Y-%m-%d", "%m/%d/%Y"):
        try:
            return datetime.strptime(v.strip(), fmt).date()
        except ValueError:
            pass
    return None


def _is_date(f: FieldRef) -> bool:
    return f.type == "date" and not f.exact


def _text_match(node: Term, texts: list[str]) -> bool:
    for text in texts:
        toks = words(text)
        if node.wildcard:
            rx = re.compile("^" + ".*".join(re.escape(p.lower()) for p in node.value.split("*")) + "$")
            if any(rx.match(t) for t in toks):
                return True
            continue
        q = words(node.value)
        if not q:
            return False
        if node.phrase:
            if any(toks[i : i + len(q)] == q for i in range(len(toks) - len(q) + 1)):
                return True
        elif any(w in toks for w in q):
            return True
    return False


class Oracle:
    def __init__(self, catalog: Catalog, endpoint: str) -> None:
        self.catalog, self.endpoint = catalog, endpoint

    def matches(self, record, node) -> bool:
        if isinstance(node, And):
            return all(self.matches(record, c) for c in node.children)
        if isinstance(node, Or):
            return any(self.matches(record, c) for c in node.children)
        if isinstance(node, Not):
            return not self.matches(record, node.child)
        if isinstance(node, Term) and node.field is None:
            return _text_match(node, all_strings(record))
        f = self.catalog.resolve(self.endpoint, node.field)
        if f is None:
            return False
        vals = values(record, f.path)
        if isinstance(node, Exists):
            return any(to_date(v) for v in vals) if _is_date(f) else bool(vals)
        if isinstance(node, Range):
            return any(self._in_range(f, node, v) for v in vals)
        if _is_date(f):
            want = to_date(node.value)
            return any(to_date(v) == want for v in vals)
        if f.type in NUMERIC:
            return any(_num(v) == float(node.value) for v in vals)
        if f.whole_value:
            if node.wildcard:
                rx = re.compile("^" + ".*".join(re.escape(p) for p in node.value.split("*")) + "$", re.S)
                return any(rx.match(v) for v in vals)
            return node.value in vals
        return _text_match(node, vals)

    def _in_range(self, f: FieldRef, node: Range, v: str) -> bool:
        if _is_date(f):
            x, lo, hi = to_date(v), node.low and to_date(node.low), node.high and to_date(node.high)
        elif f.type in NUMERIC:
            x, lo, hi = _num(v), node.low and float(node.low), node.high and float(node.high)
        elif f.whole_value:
            x, lo, hi = v, node.low, node.high
        else:
            x, lo, hi = v.lower(), node.low and node.low.lower(), node.high and node.high.lower()
        if x is None:
            return False
        if lo is not None and not (x >= lo if node.include_low else x > lo):
            return False
        if hi is not None and not (x <= hi if node.include_high else x < hi):
            return False
        return True

    def search(self, records: list, search: str | None) -> list:
        if not search:
            return list(records)
        node = parse(search)
        return [r for r in records if self.matches(r, node)]

    def count(self, records: list, field: str, limit: int = 100) -> list[dict]:
        f = self.catalog.resolve(self.endpoint, field)
        if f is None:
            return []
        c: Counter = Counter()
        for r in records:
            vals = values(r, f.path)
            if _is_date(f):
                keys = {d.strftime("%Y%m%d") for d in map(to_date, vals) if d}
            elif f.whole_value:
                keys = set(vals)
            else:
                keys = {w for v in vals for w in words(v)}
            c.update(keys)
        if _is_date(f):
            return [{"time": t, "count": n} for t, n in sorted(c.items())]
        return [{"term": t, "count": n} for t, n in sorted(c.items(), key=lambda kv: (-kv[1], kv[0]))[:limit]]


def _num(v: str) -> float | None:
    try:
        return float(v)
    except ValueError:
        return None
