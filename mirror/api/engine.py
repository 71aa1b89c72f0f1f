"""The openFDA device API answered from the mirror: `Api.get(path, query_string)` -> `Response`.

Behaviour follows api.fda.gov (DATA-FORMATS.md section C): parameters `search`, `count`, `limit`,
`skip`, `sort`, `search_after`; the same meta block, error bodies and `Link` header. Every request ends
in a JSON body: 200, or an error with code BAD_REQUEST (400), NOT_FOUND (404) or SERVER_ERROR (500).

Beyond the live API: `skip` may exceed 25,000 when FDAX_API_MAX_SKIP allows, and `search_after` pages
to the end of any result set (its token is opaque: `0=<rowid>` or `0=<null?>;1=<value>;2=<rowid>`).
Bounds: a search holds at most 100 terms nested at most 50 deep (query.py), and each request's DuckDB work stops
after `timeout` seconds or at the memory limit, answered 400 "Search too broad: ..." with how to narrow it (a
retry of the same search would only meet the same bound, so it is the request that must change).
It reads the mirror through a `Reader` (mirror/store/reader.py), which re-attaches when `mirror sync` publishes a
new file, so a running server sees new data. Where a search reads its rows (a row index, the word index, a summary
or the table) is chosen from the translator's structured conjuncts and the index descriptions of
mirror/schema/indexes.py; `Api.reads` tells which, and tests/mirror/api/test_index_choice.py pins it.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import date
from functools import partial
from urllib.parse import parse_qsl, quote, unquote, urlencode

import duckdb
import orjson

from ..errors import MirrorError, first_line
from ..schema.datasets import DATASETS
from ..schema.indexes import INDEXES
from ..schema.openfda import DATE_FORMATS_SQL, DAY_FORMAT, DISCLAIMER, LICENSE, TERMS, WORD_SQL
from ..settings import Settings
from ..store.files import Store
from ..store.reader import Reader, Snapshot
from ..store.rows import one
from ..store.state import rowid_stamp
from .catalog import Catalog, FieldRef, catalog
from .limits import NARROW_LOOKUP, NARROW_SEARCH, QueryTooBroad
from .query import And, ParseError, parse
from .sql import Conjunct, Translator, grouped
from .summary import summary_count, summary_total

__all__ = ["Api", "Response", "DISCLAIMER", "ENDPOINT_PATHS"]

PARAMS = ("search", "count", "limit", "skip", "sort", "search_after")
IGNORED = ("api_key",)
MAX_LIMIT = 1000
MAX_INT = 2**62  # past this a number parameter is nonsense (and DuckDB's BIGINT would overflow)
SMALL = 5000  # a result set this small is ordered (by rowid) in Python
ONE_SCAN = 100_000  # up to skip + limit this many, an unsorted page and its total come from one scan
ENDPOINT_PATHS = {f"/device/{ep}.json": ep for ep in DATASETS}
HEADERS = {
    "Content-Type": "application/json; charset=utf-8",
    "Server": "fda-explorer-offline",
    "Cache-Control": "no-cache, no-store, must-revalidate",
    "X-Content-Type-Options": "nosniff",
}


@dataclass
class Response:
    status: int
    body: bytes
    headers: dict[str, str] = field(default_factory=dict)

    def json(self):
        return orjson.loads(self.body)


class ApiError(MirrorError):
    """An error the local API answers with (its openFDA status and code); not raised past `Api.get`."""

    def __init__(self, status: int, message: str, details: str | None = None) -> None:
        super().__init__(message)
        self.status, self.message, self.details = status, message, details

    @property
    def code(self) -> str:
        return {400: "BAD_REQUEST", 404: "NOT_FOUND"}.get(self.status, "SERVER_ERROR")


def _bad(message: str) -> ApiError:
    return ApiError(400, message)


def _not_found(message: str = "No matches found!") -> ApiError:
    return ApiError(404, message)


def _conjuncts(node) -> list:
    """The top-level AND terms of a search (nested ANDs flattened: the same records)."""
    return [c for child in node.children for c in _conjuncts(child)] if isinstance(node, And) else [node]


def _joined(conj: list[Conjunct]) -> str:
    """Translated conjuncts as one WHERE clause (one alone as it is, as translate(And) would write them)."""
    return "TRUE" if not conj else conj[0].sql if len(conj) == 1 else "(" + " AND ".join(c.sql for c in conj) + ")"


def _int(value: str, name: str) -> int:
    """JavaScript parseInt, as openFDA reads limit and skip ("5x" is 5), but never negative."""
    digits = value.strip()
    sign = -1 if digits.startswith("-") else 1
    digits = digits.lstrip("+-")
    n = len(digits) - len(digits.lstrip("0123456789"))
    if n == 0 or sign < 0 or n > 18:
        raise _bad(f"Invalid {name} parameter value.")
    return int(digits[:n])


def _rowid(text: str) -> int:
    """A rowid from a search_after token (ValueError unless a number DuckDB can compare with rowids)."""
    n = int(text)
    if not 0 <= n < MAX_INT:
        raise ValueError(text)
    return n


@dataclass
class _Endpoint:
    name: str
    table: str  # qualified: ds_event.main.device_event
    columns: set[str]
    children: dict[str, str]  # child suffix -> qualified table
    child_columns: dict[str, set[str]]
    export_date: str
    state_rows: list[dict]
    key_nulls: bool = False
    key_dupes: bool = False
    words: tuple[str, str, str] | None = None  # word index: (child table, words table, common words table)
    summaries: dict[tuple[str, str | None], str] = field(default_factory=dict)  # (listed, day) -> table
    rows: dict[str, tuple[str, frozenset[str]]] = field(default_factory=dict)  # listed -> (row index, its columns)
    words_columns: frozenset[str] = frozenset()  # the word index's columns (term, rowid and covered ones)


def _endpoints(con: duckdb.DuckDBPyConnection, snap: Snapshot) -> dict[str, _Endpoint]:
    """The endpoints of one attach of the mirror: tables, columns, key quality and the indexes that can be trusted
    (those whose table still has the rowids they were built with, see mirror/schema/indexes.py)."""
    endpoints = {}
    for name, meta in snap.meta.items():
        if name not in DATASETS:
            continue
        ds, alias = DATASETS[name], f"ds_{name}"
        cols = _columns(con, alias)
        if ds.table not in cols:
            continue
        children = {
            ch.suffix: f'{alias}.main."{ds.table}_{ch.suffix}"'
            for ch in ds.children
            if f"{ds.table}_{ch.suffix}" in cols
        }
        table = f'{alias}.main."{ds.table}"'
        nulls = dupes = 0
        if children and ds.key[0] in cols[ds.table]:
            nulls, dupes = one(
                con.execute(
                    f'SELECT count(*) - count("{ds.key[0]}"), count("{ds.key[0]}") - '
                    f'count(DISTINCT "{ds.key[0]}") FROM {table}'
                )
            )
        ix = INDEXES[name]
        trusted = bool(ix.by_rowid) and meta.get("rowid_stamp") == rowid_stamp(con, table)
        kept = {
            i.table: frozenset(cols[i.table]) for i in ix.by_rowid if trusted and i.columns <= cols.get(i.table, set())
        }
        words = words_columns = None
        w = ix.words
        if w and w.child.removeprefix(f"{ds.table}_") in children and w.table in kept and w.common in cols:
            words = (
                children[w.child.removeprefix(f"{ds.table}_")],
                f'{alias}.main."{w.table}"',
                f'{alias}.main."{w.common}"',
            )
            words_columns = kept[w.table]
        rows = {r.keys_on: (f'{alias}.main."{r.table}"', kept[r.table]) for r in ix.rows if r.table in kept}
        endpoints[name] = _Endpoint(
            name,
            table,
            cols[ds.table],
            children,
            {children[s]: cols[f"{ds.table}_{s}"] for s in children},
            meta.get("export_date", ""),
            snap.state.get(name, []),
            nulls > 0,
            dupes > 0,
            words,
            {(m.keys_on, m.day): f'{alias}.main."{m.table}"' for m in ix.summaries if m.table in cols},
            rows,
            words_columns or frozenset(),
        )
    return endpoints


def _columns(con: duckdb.DuckDBPyConnection, alias: str) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for table, column in con.execute(
        "SELECT table_name, column_name FROM duckdb_columns() WHERE database_name = ?", [alias]
    ).fetchall():
        out.setdefault(table, set()).add(column)
    return out


def _virtual(endpoints: dict[str, _Endpoint], endpoint: str) -> dict[str, str]:
    """Local extension fields. device/recall `recall_class`: the class ("Class I", ...) of the enforcement
    report with the same recall number (enforcement `recall_number` = recall `product_res_number`)."""
    enf = endpoints.get("enforcement")
    if endpoint == "recall" and enf is not None and "product_res_number" in endpoints["recall"].columns:
        return {
            "recall_class": f"(SELECT max(e.classification) FROM {enf.table} e "
            f"WHERE e.recall_number = t.product_res_number)"
        }
    return {}


@dataclass
class _Request:
    """A request checked and translated, on one attach of the mirror."""

    snap: Snapshot
    ep: _Endpoint
    params: dict[str, str]
    pairs: list[tuple[str, str]]
    count: str | None
    limit: int
    skip: int
    tr: Translator
    conj: list[Conjunct]

    @property
    def where(self) -> str:
        return _joined(self.conj)


class Api:
    """Answers openFDA device API requests from the published mirror (read-only, thread-safe).

    It reads through a `Reader` (mirror/store/reader.py: attaching, re-attaching, bounded cursors, version,
    as-of), made from `settings` unless given; `cursor()`, `version`, `datasets()`, `as_of()` and `close()`
    are the reader's, for the callers that hold an Api."""

    def __init__(
        self,
        settings: Settings | None = None,
        *,
        reader: Reader | None = None,
        store: Store | None = None,
        fields: Catalog | None = None,
        timeout: float | None = None,
    ) -> None:
        self.reader = reader or Reader(settings, store=store, timeout=timeout)
        self.settings = settings or self.reader.settings
        self.catalog = fields or catalog()
        self.check()

    # -- the mirror (the reader's) ------------------------------------------------
    @property
    def store(self) -> Store:
        return self.reader.store

    @property
    def timeout(self) -> float:
        """Seconds of DuckDB work per request or lookup (FDAX_QUERY_TIMEOUT)."""
        return self.reader.timeout

    def check(self) -> None:
        """Raise MirrorMissingError when there is no mirror (a clear message for `mirror serve`)."""
        self.reader.check()

    def cursor(self, what: str = "the lookup", narrow: str = NARROW_LOOKUP):
        """A read-only cursor on the current mirror (views for every table), for mirror's own lookups: its work
        is bounded by `timeout` and the memory limit (QueryTooBroad, saying `what` and how to `narrow`)."""
        return self.reader.cursor(what, narrow)

    @property
    def version(self) -> tuple:
        """Changes whenever a sync publishes new data: key caches on it (or use `reader.derived`)."""
        return self.reader.version

    def datasets(self) -> dict[str, str]:
        """Published datasets (endpoints and `gudid`) and their data-as-of (export) dates."""
        return self.reader.datasets()

    def as_of(self, dataset: str) -> str:
        return self.reader.as_of(dataset)

    def close(self) -> None:
        self.reader.close()

    # -- the endpoints of a mirror version -------------------------------------------
    def _current(self) -> tuple[Snapshot, dict[str, _Endpoint]]:
        snap = self.reader.snapshot()
        return snap, self.reader.derived("api.endpoints", lambda cur: _endpoints(cur, snap), snap)

    @property
    def endpoints(self) -> dict[str, _Endpoint]:
        """The endpoints the current mirror answers, with the indexes trusted on each."""
        return self._current()[1]

    # -- requests ----------------------------------------------------------------
    def get(self, path: str, query: str = "", base_url: str = "") -> Response:
        """Answer `GET path?query` (query exactly as after the `?`, `+` meaning space)."""
        try:
            status, body, extra = self._dispatch(path.split("?", 1)[0], query, base_url)
        except ApiError as e:
            status, extra = e.status, {}
            err = {"code": e.code, "message": e.message}
            if e.details:
                err["details"] = e.details
            body = {"error": err}
        except ParseError as e:  # a search the translator refused outside `_prepare`: the request's fault
            status, extra, body = 400, {}, {"error": {"code": "BAD_REQUEST", "message": str(e)}}
        except QueryTooBroad as e:
            status, extra, body = 400, {}, {"error": {"code": "BAD_REQUEST", "message": f"Search too broad: {e}"}}
        except MirrorError as e:
            status, extra, body = 404, {}, {"error": {"code": "NOT_FOUND", "message": str(e)}}
        except (duckdb.Error, ValueError, TypeError, KeyError, IndexError, OverflowError, RecursionError) as e:
            status, extra = 500, {}
            body = {
                "error": {
                    "code": "SERVER_ERROR",
                    "message": "Check your request and try again",
                    "details": first_line(e),
                }
            }
        return Response(status, orjson.dumps(body, option=orjson.OPT_INDENT_2), {**HEADERS, **extra})

    def _dispatch(self, path: str, query: str, base_url: str) -> tuple[int, dict, dict]:
        path = "/" + path.strip().lstrip("/")
        if path == "/download.json":
            return 200, self._download(self.endpoints), {}
        req = self._prepare(path, query)
        ep, tr, conj, limit = req.ep, req.tr, req.conj, req.limit
        with self.reader.cursor("the search", NARROW_SEARCH, req.snap) as con:  # the attach the endpoints are of
            meta = {"disclaimer": DISCLAIMER, "terms": TERMS, "license": LICENSE, "last_updated": ep.export_date}
            if req.count:
                return 200, {"meta": meta, "results": self._count(con, tr, ep, conj, req.count, limit)}, {}
            return self._search(con, tr, ep, conj, req.params, limit, req.skip, meta, path, req.pairs, base_url)

    def reads(self, path: str, query: str = "") -> str:
        """The table a request reads its records from, unqualified: a row index, the word index, a summary, a child
        table or the endpoint's own table; the choice `get` makes, without running the search (a plan, for tests
        and diagnostics). Raises ApiError where `get` would answer an error."""
        req = self._prepare("/" + path.strip().lstrip("/"), query)
        if req.count:
            f = req.tr.resolve(req.count)
            table = req.ep.table if f is None else self._count_sql(req.tr, req.ep, req.conj, f, req.limit)[1]
        else:
            sort = self._sort(req.tr, req.params["sort"]) if req.params.get("sort") else None
            table = self._source(req.ep, req.conj, sort[3] if sort else frozenset())[0]
        return table.rsplit(".", 1)[-1].strip('"')

    def _prepare(self, path: str, query: str) -> _Request:
        """A request's parameters checked and its search translated (ApiError: what openFDA answers instead)."""
        endpoint = ENDPOINT_PATHS.get(path)
        if endpoint is None:
            raise _not_found(
                f"No such endpoint: {path}; use /device/<endpoint>.json with one of "
                + ", ".join(DATASETS)
                + ", or /download.json"
            )
        pairs = parse_qsl(query.lstrip("?"), keep_blank_values=True)
        params: dict[str, str] = {}
        for k, v in pairs:
            if k in IGNORED:
                continue
            if k not in PARAMS:
                raise _bad(f"Invalid parameter: {k}")
            params[k] = v.strip()
        snap, endpoints = self._current()
        ep = endpoints.get(endpoint)
        if ep is None:
            raise _not_found(f"The mirror holds no device/{endpoint} data; run `mirror sync --only {endpoint}`")
        count = params.get("count") or None
        limit = _int(params["limit"], "limit") if params.get("limit") else (100 if count else 1)
        skip = _int(params["skip"], "skip") if params.get("skip") else 0
        if count and limit > MAX_LIMIT:
            raise _bad("Limit cannot exceed 1000 results for count requests.")
        if not count and limit > MAX_LIMIT:
            raise _bad(
                "Limit cannot exceed 1000 results for search requests. "
                "Use the skip or search_after param to get additional results."
            )
        if count and skip:
            raise _bad("Should not use skip param when using count.")
        max_skip = self.settings.api_max_skip
        if max_skip and skip > max_skip:
            raise _bad(f"Skip value must {max_skip} or less.")
        if skip and params.get("search_after"):
            raise _bad("The skip parameter is not supported when using search_after.")
        tr = Translator(
            endpoint,
            self.catalog,
            ep.table,
            ep.columns,
            ep.child_columns,
            ep.children,
            key_nulls=ep.key_nulls,
            key_dupes=ep.key_dupes,
            virtual=_virtual(endpoints, endpoint),
            clean=partial(self._clean, snap=snap),
            words=ep.words[:2] if ep.words else None,
            rare=(lambda ws: self._rare(ep, ws, snap)) if ep.words else None,
        )
        conj: list[Conjunct] = []
        if params.get("search"):
            try:
                parts = _conjuncts(parse(params["search"]))
                conj = [tr.conjunct(c) for c in (grouped(And(tuple(parts))) if len(parts) > 1 else parts)]
            except ParseError as e:
                raise _bad(str(e)) from None
        return _Request(snap, ep, params, pairs, count, limit, skip, tr, conj)

    def _clean(self, table: str, column: str, is_list: bool = False, snap: Snapshot | None = None) -> bool:
        """Whether every value of a column (or of a list column's lists) is one upper-case word (checked once
        per mirror version)."""
        rows = f'(SELECT unnest("{column}") AS v FROM {table})' if is_list else f'(SELECT "{column}" AS v FROM {table})'
        return self.reader.derived(
            ("api.clean", table, column),
            lambda con: bool(
                one(
                    con.execute(
                        # EXISTS stops at the first value that is not
                        f"SELECT EXISTS (SELECT 1 FROM {rows} WHERE v IS NOT NULL) "
                        f"AND NOT EXISTS (SELECT 1 FROM {rows} WHERE v IS NOT NULL "
                        f"AND NOT (regexp_full_match(v, '{WORD_SQL}') AND v = upper(v)))"
                    )
                )[0]
            ),
            snap,
        )

    def _rare(self, ep: _Endpoint, words: list[str], snap: Snapshot | None = None) -> str | None:
        """One of `words` that the endpoint's word index holds (None if all are common words)."""
        assert ep.words is not None
        common_table = ep.words[2]
        common = self.reader.derived(
            ("api.common", common_table),
            lambda con: frozenset(w for (w,) in con.execute(f"SELECT word FROM {common_table}").fetchall()),
            snap,
        )
        return next((w for w in words if w not in common), None)

    # -- search ------------------------------------------------------------------
    def _sort(self, tr: Translator, spec: str) -> tuple[str, bool, bool, frozenset[str]]:
        """The sort's (expression, descending, by date, the row's columns it reads)."""
        name, _, direction = spec.partition(":")
        name, direction = name.strip(), (direction.strip().lower() or "asc")
        f = tr.resolve(name)
        if f is None or not f.sortable or direction not in ("asc", "desc"):
            raise _bad(f"Sorting allowed by non-analyzed fields only: {name}")
        a = tr.access(f)
        desc = direction == "desc"
        is_date = f.type == "date" and not f.exact
        if a.kind == "scalar":
            return (a.expr if is_date or not a.is_date else f"CAST({a.expr} AS VARCHAR)"), desc, is_date, a.reads
        vals, reads = (a.expr, a.reads) if a.kind == "list" else (tr.generic(f.path), frozenset({"record"}))
        if is_date:
            vals = f"list_transform({vals}, lambda v: try_strptime(v, {DATE_FORMATS_SQL})::DATE)"
        return f"{'list_max' if desc else 'list_min'}({vals})", desc, is_date, reads

    @staticmethod
    def _source(ep: _Endpoint, conj: list[Conjunct], reads: frozenset[str] = frozenset()) -> tuple[str, str]:
        """Where a search reads its rows: (table, where). A row index (or the word index) when one top-level
        conjunct looks up one value in it (a listed column holding a value, a rare word) and all else the request
        reads (the other conjuncts, and `reads`: the sort or count expression's columns) are columns that index
        holds beside each record's rowid; else the main table."""
        for i, c in enumerate(conj):
            if c.op == "member" and c.column in ep.rows:
                table, cols = ep.rows[c.column]
            elif c.op == "word" and ep.words is not None and c.column == ep.words[1]:
                table, cols = ep.words[1], ep.words_columns
            else:
                continue
            rest = conj[:i] + conj[i + 1 :]
            if reads <= cols and all(x.reads <= cols for x in rest):
                return table, "(" + " AND ".join([f"t.term = {c.param}"] + [x.sql for x in rest]) + ")"
        return ep.table, _joined(conj)

    def _search(
        self,
        con,
        tr: Translator,
        ep: _Endpoint,
        conj: list[Conjunct],
        params: dict,
        limit: int,
        skip: int,
        meta: dict,
        path: str,
        pairs: list,
        base_url: str,
    ) -> tuple[int, dict, dict]:
        sort_expr, desc, by_date, sort_reads = (
            self._sort(tr, params["sort"]) if params.get("sort") else (None, False, False, frozenset())
        )
        src, swhere = self._source(ep, conj, sort_reads)
        page_where, where_params = swhere, dict(tr.params)
        if params.get("search_after"):
            page_where = f"({swhere}) AND {self._after(tr, params['search_after'], sort_expr, desc, by_date)}"
        total = summary_total(con, ep.summaries, conj, where_params)
        rows = None  # unsorted and from the start: one scan gives the total and the page's rowids
        if total is None and sort_expr is None and not params.get("search_after") and skip + limit <= ONE_SCAN:
            total, first = con.execute(
                f"SELECT count(*), min(t.rowid, {max(1, skip + limit)}) FROM {src} t WHERE {swhere}", where_params
            ).fetchone()
            rows = [(None, None, None, i) for i in (first or [])[skip : skip + limit]]
        elif total is None:
            total = con.execute(f"SELECT count(*) FROM {src} t WHERE {swhere}", where_params).fetchone()[0]
        if total == 0:
            raise _not_found()
        if sort_expr is None:
            order, keys = "t.rowid", "NULL, NULL"
        else:
            order = f"({sort_expr}) IS NULL, {sort_expr} {'DESC' if desc else 'ASC'}, t.rowid"
            keys = f"({sort_expr}) IS NULL, CAST({sort_expr} AS VARCHAR)"
        if rows is not None:
            pass
        elif limit == 0:
            rows = []
        elif sort_expr is None and total <= SMALL:  # a plain scan can use an index; ORDER BY ... LIMIT cannot
            rows = sorted(
                con.execute(f"SELECT NULL, {keys}, t.rowid FROM {src} t WHERE {page_where}", tr.params).fetchall(),
                key=lambda r: r[3],
            )[skip : skip + limit]
        else:
            rows = con.execute(
                f"SELECT NULL, {keys}, t.rowid FROM {src} t WHERE {page_where} "
                f"ORDER BY {order} LIMIT {int(limit)} OFFSET {int(skip)}",
                tr.params,
            ).fetchall()
        if not rows and limit != 0:
            raise _not_found()
        results = [orjson.Fragment(r) for r in self._records(con, ep, [r[3] for r in rows])]
        meta = {**meta, "results": {"skip": skip, "limit": limit, "total": total}}
        headers = {}
        nxt = self._next(rows, sort_expr, skip, limit, total, pairs)
        if nxt:
            headers["Link"] = f'<{base_url}{path}?{urlencode(nxt)}>; rel="next"'
        return 200, {"meta": meta, "results": results}, headers

    @staticmethod
    def _records(con, ep: _Endpoint, rowids: list[int]) -> list[str]:
        """The records' JSON text, in the order of `rowids`: read apart from the search, so that DuckDB reads
        the records column only where these rows are (a search that also reads it may scan it all)."""
        if not rowids:
            return []
        ids = ", ".join(str(int(i)) for i in rowids)  # in the text: binding a list costs per element
        match = f"= {ids}" if len(rowids) == 1 else f"IN (SELECT unnest([{ids}]))"  # one row: a point read
        text = dict(
            con.execute(f"SELECT t.rowid, CAST(t.record AS VARCHAR) FROM {ep.table} t WHERE t.rowid {match}").fetchall()
        )
        return [text[i] for i in rowids]

    @staticmethod
    def _next(rows, sort_expr, skip, limit, total, pairs) -> list[tuple[str, str]] | None:
        """The next page's parameters, as openFDA's traversal builds them (skip, else search_after)."""
        keep = [(k, v) for k, v in pairs if k not in ("skip", "search_after")]
        if skip > 0:
            return keep + [("skip", str(skip + limit))] if total > skip + limit else None
        if rows and len(rows) >= limit and total != len(rows):
            last = rows[-1]
            token = (
                f"0={last[3]}"
                if sort_expr is None
                else f"0={int(bool(last[1]))};1={quote(last[2] or '', safe='')};2={last[3]}"
            )
            return [(k, v) for k, v in pairs if k != "search_after"] + [("search_after", token)]
        return None

    @staticmethod
    def _after(tr: Translator, token: str, sort_expr: str | None, desc: bool, by_date: bool) -> str:
        parts = {}
        for piece in token.split(";"):
            k, sep, v = piece.partition("=")
            if not sep:
                raise _bad(f"Invalid search_after value: {token}; use the value from the previous page's Link header")
            parts[k.strip()] = unquote(v)
        try:
            if sort_expr is None:
                if set(parts) != {"0"}:
                    raise ValueError
                return f"t.rowid > {tr.bind(_rowid(parts['0']))}"
            if set(parts) != {"0", "1", "2"} or parts["0"] not in ("0", "1"):
                raise ValueError
            rowid = tr.bind(_rowid(parts["2"]))
            value = date.fromisoformat(parts["1"]) if by_date and parts["0"] == "0" else parts["1"]
        except ValueError:
            raise _bad(
                f"Invalid search_after value: {token}; use the value from the previous page's Link header "
                "(and the same sort)"
            ) from None
        if parts["0"] == "1":
            return f"(({sort_expr}) IS NULL AND t.rowid > {rowid})"
        v, op = tr.bind(value), "<" if desc else ">"
        return f"(({sort_expr}) IS NULL OR {sort_expr} {op} {v} OR ({sort_expr} = {v} AND t.rowid > {rowid}))"

    # -- count --------------------------------------------------------------------
    def _count(self, con, tr: Translator, ep: _Endpoint, conj: list[Conjunct], name: str, limit: int) -> list[dict]:
        f = tr.resolve(name)
        rows = con.execute(self._count_sql(tr, ep, conj, f, limit)[0], tr.params).fetchall() if f is not None else []
        if f is None or not rows:
            src, swhere = self._source(ep, conj)
            total = con.execute(f"SELECT count(*) FROM {src} t WHERE {swhere}", tr.params).fetchone()[0]
            raise _not_found("No matches found!" if total == 0 else "Nothing to count")
        if f.type == "date" and not f.exact:
            return [{"time": t, "count": n} for t, n in rows]
        return [{"term": t, "count": n} for t, n in rows]

    def _count_sql(
        self, tr: Translator, ep: _Endpoint, conj: list[Conjunct], f: FieldRef, limit: int
    ) -> tuple[str, str]:
        """The SQL of a count's buckets, and the table it reads (a summary, a row index, a child or the main table)."""
        a = tr.access(f)
        is_date = f.type == "date" and not f.exact
        tokens = not f.whole_value
        where = _joined(conj)

        def values(x: str, scalar: bool, typed_date: bool) -> str:
            """The distinct bucket keys of one record's value(s), as a list."""
            lst = f"[{x}]" if scalar else x
            if is_date:
                if not typed_date:
                    lst = f"list_transform({lst}, lambda v: try_strptime(v, {DATE_FORMATS_SQL})::DATE)"
                return f"list_distinct({lst})"
            if tokens:
                lst = f"flatten(list_transform({lst}, lambda v: regexp_extract_all(lower(v), '{WORD_SQL}')))"
                return f"list_distinct({lst})"
            if not scalar and (a.column is not None or a.kind == "child"):  # a list column: most lists hold one value
                return f"CASE WHEN len({lst}) < 2 THEN {lst} ELSE list_distinct({lst}) END"
            return f"list_distinct({lst})"

        summary = summary_count(ep.summaries, a, conj, is_date, tokens, limit)
        if summary is not None:
            return summary
        if a.kind == "child" and (tr.key_nulls or tr.key_dupes):
            a = replace(
                a,
                kind="list",
                expr=tr.generic(f.path),
                is_date=False,
                child_list=False,
                column=None,
                reads=frozenset({"record"}),
            )
        table = ep.table
        if a.kind == "child":
            keep = (
                "" if where == "TRUE" else f'WHERE c."{a.key}" IN (SELECT t."{a.key}" FROM {ep.table} t WHERE {where})'
            )
            inner = (
                f'SELECT DISTINCT c."{a.key}" AS k, unnest({values(a.expr, not a.child_list, a.is_date)}) AS term '
                f"FROM {a.child} c {keep}"
            )
            table = a.child or ep.table
        elif a.kind == "scalar" and not tokens:
            table, swhere = self._source(ep, conj, a.reads)
            inner = f"SELECT {a.expr} AS term FROM {table} t WHERE {swhere}"
        else:
            inner = (
                f"SELECT unnest({values(a.expr, a.kind == 'scalar', a.is_date)}) AS term "
                f"FROM {ep.table} t WHERE {where}"
            )
        if is_date:
            sql = (
                f"SELECT strftime(term, '{DAY_FORMAT}'), count(*) FROM ({inner}) WHERE term IS NOT NULL "
                f"GROUP BY term ORDER BY term"
            )
        else:
            sql = (
                f"SELECT CAST(term AS VARCHAR) AS term, count(*) AS n FROM ({inner}) WHERE term IS NOT NULL "
                f"GROUP BY 1 ORDER BY n DESC, term ASC LIMIT {int(limit)}"
            )
        return sql, table

    # -- download.json ----------------------------------------------------------------
    @staticmethod
    def _download(endpoints: dict[str, _Endpoint]) -> dict:
        device = {}
        for name, ep in sorted(endpoints.items()):
            parts = [
                {
                    "display_name": r["partition"],
                    "file": r["url"],
                    "records": r["records"],
                    "size_mb": f"{(r['bytes'] or 0) / 2**20:.2f}",
                }
                for r in ep.state_rows
            ]
            device[name] = {
                "export_date": ep.export_date,
                "total_records": sum(p["records"] or 0 for p in parts),
                "partitions": parts,
            }
        last = max((ep.export_date for ep in endpoints.values()), default=str(date.today()))
        return {
            "meta": {"disclaimer": DISCLAIMER, "terms": TERMS, "license": LICENSE, "last_updated": last},
            "results": {"device": device},
        }
