"""Translate a parsed openFDA search into a parameterised DuckDB WHERE clause over one endpoint's tables.

No user text ever becomes SQL: values are bound as named parameters, and field names are looked up in
the catalog (only catalog paths, which match `SAFE_PATH`, are written into the SQL text).

How a field is read, fastest first:
  * a typed column of the endpoint's table (`device_event.date_received` as DATE, `event_type`, ...);
  * a listed column of the endpoint's table: every value of a child array's field in the record, as
    VARCHAR[] (`device.device_report_product_code` is `device_event.product_code_list`; mirrors synced
    before it existed lack it, and the next two ways answer the same);
  * a column of a child table keyed by a unique record key (`device.device_report_product_code` is
    `device_event_device.device_report_product_code`), as a semi-join;
  * otherwise the original record JSON: every value at that path, arrays flattened at any level.
Text fields match words (case-insensitive, Unicode letters/digits/underscore make up words, `.` and `'`
join them as in Lucene's standard tokenizer); keyword and `.exact` fields match whole values; dates
compare as dates whichever way they are written (`20200101`, `2020-01-01`). Terms without a field match
words in any value of the record, read once per record for all of them (anyfield.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Callable

from ..schema.datasets import DATASETS
from ..schema.openfda import DATE_FORMATS, DATE_FORMATS_SQL, WORD, WORD_SQL
from ..sync.loadsql import flat_values
from .anyfield import any_field, any_only
from .catalog import ARRAYS, NUMERIC, SAFE_PATH, Catalog, FieldRef
from .query import And, Exists, Node, Not, Or, ParseError, Range, Term, tokens

__all__ = ["Access", "Conjunct", "Translator", "WORD", "WORD_SQL", "tokens", "parse_date", "grouped"]

UNIQUE_KEY = {"event", "udi"}  # endpoints whose key identifies one record (child tables join on it)
UNKNOWN = "*"  # in `reads`: SQL whose columns are not known (an extension field): no index covers it


def parse_date(value: str, field_name: str) -> date:
    v = value.strip()
    for fmt in DATE_FORMATS:
        try:
            return datetime.strptime(v, fmt).date()
        except ValueError:
            continue
    raise ParseError(f"Search not supported: {field_name} is a date; write {value!r} as YYYYMMDD or YYYY-MM-DD")


@dataclass(frozen=True)
class Access:
    """How one field is read: `expr` is scalar or a list, over `t` (the record's row) or a child row `c`."""

    kind: str  # scalar | list | child
    expr: str
    is_date: bool = False  # expr is already DATE (typed column)
    child: str | None = None  # child table (kind == child)
    key: str | None = None  # join column (kind == child)
    child_list: bool = False  # the child column is a list
    reads: frozenset[str] = frozenset()  # the columns of the record's row `t` that reading it takes
    column: str | None = None  # the row's column when `expr` is just that column (t."name")


@dataclass(frozen=True)
class Conjunct:
    """One top-level AND term of a search, translated: its SQL and what the API needs to choose where to read.

    `op` is how the term is answered: "member" (the listed column `column` holds the value bound as `param`: a
    row index of that column answers it), "word" (the word index table `column` lists the records of the term
    bound as `param`), else the search's own operator: "term", "range", "exists", "not", "and", "or", "any"
    (field-less words)."""

    sql: str
    field: str | None  # the field searched (None: field-less words, or a group of terms)
    op: str
    values: tuple = ()  # the values searched for (member, word: the bound value)
    reads: frozenset[str] = frozenset()  # the columns of the record's row `t` the SQL reads (rowid included)
    column: str | None = None
    param: str | None = None  # the bound parameter, as written in the SQL ($p3)


@dataclass
class Translator:
    endpoint: str
    catalog: Catalog
    table: str  # qualified main table, e.g. ds_event.main.device_event
    columns: set[str]  # columns the published main table really has
    child_columns: dict[str, set[str]] = field(default_factory=dict)  # qualified child table -> columns
    child_names: dict[str, str] = field(default_factory=dict)  # child suffix -> qualified table
    key_nulls: bool = False  # some records lack the key: they are checked on their JSON
    key_dupes: bool = False  # a key is shared by records: child matches are re-checked on the JSON
    virtual: dict[str, str] = field(default_factory=dict)  # local extension fields: name -> scalar SQL over t
    clean: Callable[[str, str, bool], bool] | None = None  # (table, column, is list) -> every value is one
    #                                                          upper-case word
    words: tuple[str, str] | None = None  # (qualified child table, its word index table: term -> main rowid),
    #                                         see mirror/schema/indexes.py
    rare: Callable[[list[str]], str | None] | None = None  # words -> one that is not common (or None)
    params: dict[str, object] = field(default_factory=dict)
    negated: int = 0  # how many NOTs enclose the node being translated
    depth: int = 0  # how many ANDs, ORs and NOTs enclose it
    _reads: set[str] = field(default_factory=set)  # what the conjunct being translated reads
    _index: tuple[str, str, str] | None = None  # its (op, column, param), when an index may answer it

    # -- parameters --------------------------------------------------------
    def bind(self, value: object) -> str:
        name = f"p{len(self.params)}"
        self.params[name] = value
        return "$" + name

    # -- field access --------------------------------------------------------
    def resolve(self, name: str) -> FieldRef | None:
        """A field of the endpoint (catalog) or one of the mirror's extension fields (`virtual`)."""
        base = name.removesuffix(".exact")
        if base in self.virtual:
            return FieldRef(base, "keyword", name.endswith(".exact"), True)
        return self.catalog.resolve(self.endpoint, name)

    def access(self, f: FieldRef) -> Access:
        if f.path in self.virtual:
            return Access("scalar", self.virtual[f.path], reads=frozenset({UNKNOWN}))
        ds = DATASETS.get(self.endpoint)
        if ds is not None:
            for c in ds.columns:
                if c.path == f.json_path and c.name in self.columns:
                    return Access(
                        "list" if c.kind == "list" else "scalar",
                        f't."{c.name}"',
                        c.kind == "date",
                        reads=frozenset({c.name}),
                        column=c.name,
                    )
            for name, (ch, c) in ds.listed.items():
                base = ch.array.removeprefix("$.").removesuffix("[*]")
                if f.path == base + "." + c.path.removeprefix("$.") and name in self.columns:
                    return Access("list", f't."{name}"', reads=frozenset({name}), column=name)
            if self.endpoint in UNIQUE_KEY:
                for ch in ds.children:
                    base = ch.array.removeprefix("$.").removesuffix("[*]")
                    table = self.child_names.get(ch.suffix)
                    if table is None:
                        continue
                    for c in ch.columns:
                        if f.path == base + "." + c.path.removeprefix("$.") and c.name in self.child_columns[table]:
                            return Access(
                                "child",
                                f'c."{c.name}"',
                                c.kind == "date",
                                table,
                                ds.key[0],
                                c.kind == "list",
                                frozenset({ds.key[0]}),
                            )
        return Access("list", self.generic(f.path), reads=frozenset({"record"}))

    def generic(self, path: str, row: str = "t") -> str:
        """Every non-null value at `path` in the record JSON, as VARCHAR[] (arrays flattened at any level)."""
        assert SAFE_PATH.match(path)
        arrays, parts, jp = ARRAYS.get(self.endpoint, ()), path.split("."), "$"
        for i, part in enumerate(parts):
            jp += "." + part
            if i < len(parts) - 1 and ".".join(parts[: i + 1]) in arrays:
                jp += "[*]"
        if "[*]" in jp:
            return flat_values(f"json_extract({row}.record, '{jp}')")
        flat = "CASE WHEN json_type(x) = 'ARRAY' THEN from_json(x, '[\"VARCHAR\"]') ELSE [x ->> '$'] END"
        vals = f"(SELECT {flat} FROM (SELECT json_extract({row}.record, '{jp}') AS x))"
        return f"list_filter({vals}, lambda v: v IS NOT NULL)"

    def where(self, f: FieldRef, pred) -> str:
        """`pred(sql_value) -> sql` applied to the field: true if any of its values satisfies it."""
        a = self.access(f)
        self._reads |= a.reads
        equals = getattr(pred, "equals", None) if not a.is_date else None
        if a.kind == "scalar":
            if equals and not self.negated:  # NULL = x is not true either: a bare equality can use an index
                return f"{a.expr} = {equals}"
            return f"({a.expr} IS NOT NULL AND {pred(a.expr, a.is_date)})"  # separate conjuncts: cheap ones first
        if a.kind == "list":
            if equals:
                if a.column is not None and self.depth == 0:
                    self._index = ("member", a.column, equals)
                return f"coalesce(list_contains({a.expr}, {equals}), FALSE)"
            return f"coalesce(len(list_filter({a.expr}, lambda v: {pred('v', a.is_date)})) > 0, FALSE)"
        inner = (
            f"len(list_filter({a.expr}, lambda v: {pred('v', a.is_date)})) > 0"
            if a.child_list
            else f"{a.expr} IS NOT NULL AND {pred(a.expr, a.is_date)}"
        )
        semi = f't."{a.key}" IN (SELECT c."{a.key}" FROM {a.child} c WHERE {inner})'
        if not (self.key_nulls or self.key_dupes):
            return semi
        self._reads.add("record")
        exact = f"coalesce(len(list_filter({self.generic(f.path)}, lambda v: {pred('v', False)})) > 0, FALSE)"
        if self.key_dupes:
            semi = f"({semi} AND {exact})"
        return f'({semi} OR (t."{a.key}" IS NULL AND {exact}))' if self.key_nulls else semi

    # -- the tree --------------------------------------------------------------
    def conjunct(self, node: Node) -> Conjunct:
        """One top-level term of a search, translated, with its field, operator, values and the columns it reads."""
        self._reads, self._index, self.depth = set(), None, 0
        sql = self.translate(node)
        op, name, values = _described(node)
        column = param = None
        if self._index is not None:
            op, column, param = self._index
            values = (self.params[param.removeprefix("$")],)
        return Conjunct(sql, name, op, values, frozenset(self._reads), column, param)

    def translate(self, node: Node) -> str:
        if any_only(node):
            self._reads.add("record")
            return any_field(node, self.bind)
        if isinstance(node, (And, Or)):
            children = grouped(node)
            self.depth += 1
            try:
                return "(" + (" AND " if isinstance(node, And) else " OR ").join(map(self.translate, children)) + ")"
            finally:
                self.depth -= 1
        if isinstance(node, Not):
            self.negated += 1
            self.depth += 1
            try:
                return f"(NOT {self.translate(node.child)})"
            finally:
                self.negated -= 1
                self.depth -= 1
        if isinstance(node, Exists):
            f = self.resolve(node.field)
            if f is None:
                return "FALSE"
            if f.type == "date" and not f.exact:  # a date field exists when it holds a readable date
                return self.where(f, lambda v, d: f"{self._as_date(v, d)} IS NOT NULL")
            return self.where(f, lambda v, d: f"{v} IS NOT NULL")
        if isinstance(node, Range):
            f = self.resolve(node.field)
            return "FALSE" if f is None else self.where(f, self._range(f, node))
        if isinstance(node, Term):
            assert node.field is not None  # field-less terms were read by any_field above
            f = self.resolve(node.field)
            if f is None:
                return "FALSE"
            return self._narrowed(f, node) or self.where(f, self._clean_token(f, node) or self._term(f, node))
        raise ParseError("Search not supported")  # pragma: no cover

    def _narrowed(self, f: FieldRef, node: Term) -> str | None:
        """One word or a two-word phrase on the word-indexed text, when it holds a rare word: the records the
        word index lists for it. The index splits the texts as `_text` does, so these are the same records."""
        if self.words is None or self.rare is None or node.wildcard or f.whole_value or f.type != "text":
            return None
        words = tokens(node.value)
        if not (len(words) == 1 or (len(words) == 2 and node.phrase)) or self.key_nulls or self.key_dupes:
            return None
        a = self.access(f)
        if a.kind != "child" or (a.child, a.expr) != (self.words[0], 'c."text"') or self.rare(words) is None:
            return None
        p = self.bind(" ".join(words))
        self._reads.add("rowid")
        if self.depth == 0:
            self._index = ("word", self.words[1], p)
        return f"t.rowid IN (SELECT rowid FROM {self.words[1]} WHERE term = {p})"

    def _clean_token(self, f: FieldRef, node: Term):
        """One word on a text column whose every value is one upper-case word (keys, product codes): equality
        on the upper-cased word is the same match, and lets DuckDB use its zone maps."""
        if f.whole_value or node.wildcard or f.type != "text" or self.clean is None:
            return None
        words = tokens(node.value)
        if len(words) != 1:
            return None
        a = self.access(f)
        if a.is_date or a.child_list or not a.expr.startswith(("t.", "c.")):  # not a column
            return None
        table = a.child if a.kind == "child" else self.table
        assert table is not None  # a child access names its table
        column = a.expr.split(".", 1)[1].strip('"')
        if not self.clean(table, column, a.kind == "list"):
            return None
        return _equals(self.bind(words[0].upper()))

    # -- predicates --------------------------------------------------------------
    def _as_date(self, v: str, is_date: bool) -> str:
        return v if is_date else f"try_strptime({v}, {DATE_FORMATS_SQL})::DATE"

    def _term(self, f: FieldRef, node: Term):
        if f.type == "date" and not f.exact:
            if node.wildcard:
                raise ParseError(f"Search not supported: wildcards do not apply to the date field {f.path}")
            p = self.bind(parse_date(node.value, f.path))
            return lambda v, d: f"{v} = {p}" if d else f"coalesce({self._as_date(v, d)} = {p}, FALSE)"
        if f.type in NUMERIC:
            try:
                p = self.bind(float(node.value))
            except ValueError:
                raise ParseError(f"Search not supported: {f.path} is a number, not {node.value!r}") from None
            return lambda v, d: f"coalesce(TRY_CAST({v} AS DOUBLE) = {p}, FALSE)"
        if f.whole_value:
            if node.wildcard:
                like = node.value.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_").replace("*", "%")
                p = self.bind(like)
                return lambda v, d: f"CAST({v} AS VARCHAR) LIKE {p} ESCAPE '\\'"
            return _equals(self.bind(node.value))
        return self._text(node)

    def _text(self, node: Term):
        """Word matching on the value's words, split as the index splits them.

        A phrase needs its words in a row, a bare term with several words any of them, `word*` a word that starts
        so. The search terms are bound as parameters and compared with `contains`; the only regular expression
        is the constant tokenizer, run just on values that contain the rarest term at all.
        """
        low = lambda v: f"lower(CAST({v} AS VARCHAR))"  # noqa: E731
        joined = lambda v: f"(' ' || array_to_string(regexp_extract_all({low(v)}, '{WORD_SQL}'), ' ') || ' ')"  # noqa: E731

        def has(needle: str, pre: str):
            n, p = self.bind(needle), self.bind(pre)
            return lambda v, d: f"(contains({low(v)}, {p}) AND contains({joined(v)}, {n}))"

        if node.wildcard:
            parts = node.value.lower().split("*")
            inner = [x for x in parts if x]
            if not inner:
                return lambda v, d: f"(len(regexp_extract_all({low(v)}, '{WORD_SQL}')) > 0)"
            pre = max(inner, key=len)
            if len(parts) == 2 and parts[1] == "":
                return has(" " + parts[0], pre)
            if len(parts) == 2 and parts[0] == "":
                return has(parts[1] + " ", pre)
            rx = self.bind(" " + "[^ ]*".join(re.escape(x) for x in parts) + " ")
            p = self.bind(pre)
            return lambda v, d: f"(contains({low(v)}, {p}) AND regexp_matches({joined(v)}, {rx}))"
        words = tokens(node.value)
        if not words:
            return lambda v, d: "FALSE"
        if node.phrase or len(words) == 1:
            return has(" " + " ".join(words) + " ", max(words, key=len))
        preds = [has(f" {w} ", w) for w in dict.fromkeys(words)]
        return lambda v, d: "(" + " OR ".join(p(v, d) for p in preds) + ")"

    def _range(self, f: FieldRef, node: Range):
        conv: Callable[[str, bool], str]
        if f.type == "date" and not f.exact:
            lo = self.bind(parse_date(node.low, f.path)) if node.low is not None else None
            hi = self.bind(parse_date(node.high, f.path)) if node.high is not None else None
            conv = self._as_date
        elif f.type in NUMERIC:
            try:
                lo = self.bind(float(node.low)) if node.low is not None else None
                hi = self.bind(float(node.high)) if node.high is not None else None
            except ValueError:
                raise ParseError(f"Search not supported: {f.path} is a number; range bounds must be numbers") from None
            conv = lambda v, d: f"TRY_CAST({v} AS DOUBLE)"  # noqa: E731
        else:
            lower = not f.whole_value
            lo = self.bind(node.low.lower() if lower else node.low) if node.low is not None else None
            hi = self.bind(node.high.lower() if lower else node.high) if node.high is not None else None
            conv = (lambda v, d: f"lower(CAST({v} AS VARCHAR))") if lower else (lambda v, d: f"CAST({v} AS VARCHAR)")
        ops = (">=" if node.include_low else ">", "<=" if node.include_high else "<")

        def pred(v: str, d: bool) -> str:
            x = conv(v, d)
            conds = ([f"{x} {ops[0]} {lo}"] if lo else []) + ([f"{x} {ops[1]} {hi}"] if hi else [])
            if d and conds:  # a typed date (never NULL here): plain comparisons, which zone maps can prune on
                return " AND ".join(conds)
            return "coalesce(" + " AND ".join(conds or [f"{x} IS NOT NULL"]) + ", FALSE)"

        return pred


def grouped(node: And | Or) -> list[Node]:
    """The children of an AND or OR, its field-less terms joined into one child (read in one pass, see anyfield)."""
    anys = [c for c in node.children if any_only(c)]
    if len(anys) < 2:
        return list(node.children)
    return [c for c in node.children if not any_only(c)] + [type(node)(tuple(anys))]


def _described(node: Node) -> tuple[str, str | None, tuple]:
    """A search term's (operator, field, values), as written."""
    if any_only(node):
        return "any", None, ()
    if isinstance(node, (And, Or, Not)):
        return type(node).__name__.lower(), None, ()
    if isinstance(node, Exists):
        return "exists", node.field, ()
    if isinstance(node, Range):
        return "range", node.field, (node.low, node.high)
    if isinstance(node, Term):
        return "term", node.field, (node.value,)
    return type(node).__name__.lower(), None, ()  # pragma: no cover


@dataclass(frozen=True)
class _Equals:
    """The predicate `value = equals` (a bound VARCHAR), marked so that `where` can use list_contains or an index."""

    equals: str

    def __call__(self, v: str, d: bool) -> str:
        return f"CAST({v} AS VARCHAR) = {self.equals}"


def _equals(p: str) -> _Equals:
    """The predicate `value = p` (p a bound VARCHAR), marked so that `where` can use list_contains or an index."""
    return _Equals(p)
