"""The openFDA device API answered from the mirror: `Api.get(path, query_string)` -> `Response`.

Behaviour follows api.fda.gov (DATA-FORMATS.md section C): parameters `search`, `count`, `limit`,
`skip`, `sort`, `search_after`; the same meta block, error bodies and `Link` header. Every request ends
in a JSON body: 200, or an error with code BAD_REQUEST (400), NOT_FOUND (404) or SERVER_ERROR (500).

Beyond the live API: `skip` may exceed 25,000 when FDAX_API_MAX_SKIP allows, and `search_after` pages
to the end of any result set (its token is opaque: `0=<rowid>` or `0=<null?>;1=<value>;2=<rowid>`).
Bounds: a search holds at most 100 terms nested at most 50 deep (query.py), and each request's DuckDB work stops
after `timeout` seconds or at the memory limit, answered 400 "Search too broad: ..." with how to narrow it (a
retry of the same search would only meet the same bound, so it is the request that must change).
The mirror is re-attached when `mirror sync` publishes a new file, so a running server sees new data.
"""

from __future__ import annotations

import os
import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import date
from urllib.parse import parse_qsl, quote, unquote, urlencode

import duckdb
import orjson

from ..schema.datasets import DATASETS
from ..errors import MirrorError
from ..settings import Settings
from ..store.files import Store
from .catalog import Catalog, FieldRef, catalog
from .query import And, ParseError, parse
from .limits import DEFAULT_TIMEOUT, NARROW_LOOKUP, NARROW_SEARCH, QueryTooBroad, deadline
from .sql import WORD, Translator, grouped
from .summary import MEMBER, summary_count, summary_total
from ..store.state import rowid_stamp

__all__ = ["Api", "Response", "DISCLAIMER", "ENDPOINT_PATHS"]

DISCLAIMER = ("Do not rely on openFDA to make decisions regarding medical care. While we make every effort to "
              "ensure that data is accurate, you should assume all results are unvalidated. We may limit or "
              "otherwise restrict your access to the API in line with our Terms of Service.")
TERMS, LICENSE = "https://open.fda.gov/terms/", "https://open.fda.gov/license/"
PARAMS = ("search", "count", "limit", "skip", "sort", "search_after")
IGNORED = ("api_key",)
MAX_LIMIT = 1000
MAX_INT = 2**62        # past this a number parameter is nonsense (and DuckDB's BIGINT would overflow)
SMALL = 5000           # a result set this small is ordered (by rowid) in Python
ONE_SCAN = 100_000     # up to skip + limit this many, an unsorted page and its total come from one scan
WORD_SQL = WORD.replace("'", "''")
ENDPOINT_PATHS = {f"/device/{ep}.json": ep for ep in DATASETS}
HEADERS = {"Content-Type": "application/json; charset=utf-8", "Server": "fda-explorer-offline",
           "Cache-Control": "no-cache, no-store, must-revalidate", "X-Content-Type-Options": "nosniff"}


@dataclass
class Response:
    status: int
    body: bytes
    headers: dict[str, str] = field(default_factory=dict)

    def json(self):
        return orjson.loads(self.body)


class ApiError(Exception):
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


_WORDS = re.compile(r"t\.rowid IN \(SELECT rowid FROM (.+?) WHERE term = (\$p\d+)\)")   # sql.Translator._narrowed
_REF = re.compile(r'\bt\.(?:"(\w+)"|(\w+))')


def _conjuncts(node) -> list:
    """The top-level AND terms of a search (nested ANDs flattened: the same records)."""
    return [c for child in node.children for c in _conjuncts(child)] if isinstance(node, And) else [node]


def _joined(conj: list[str]) -> str:
    """Translated conjuncts as one WHERE clause (one alone as it is, as translate(And) would write them)."""
    return "TRUE" if not conj else conj[0] if len(conj) == 1 else "(" + " AND ".join(conj) + ")"


def _refs(sql: str) -> set[str]:
    """The columns of the row `t` that a piece of translated SQL reads."""
    return {a or b for a, b in _REF.findall(sql)}


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
    table: str                     # qualified: ds_event.main.device_event
    columns: set[str]
    children: dict[str, str]       # child suffix -> qualified table
    child_columns: dict[str, set[str]]
    export_date: str
    state_rows: list[dict]
    key_nulls: bool = False
    key_dupes: bool = False
    words: tuple[str, str, str] | None = None   # word index: (child table, words table, common words table)
    summaries: dict[tuple[str, str | None], str] = field(default_factory=dict)   # (listed, day) -> table
    rows: dict[str, tuple[str, frozenset[str]]] = field(default_factory=dict)   # listed -> (row index, its columns)
    words_columns: frozenset[str] = frozenset()   # the word index's columns (term, rowid and covered ones)


class Api:
    """Answers openFDA device API requests from the published mirror (read-only, thread-safe)."""

    def __init__(self, settings: Settings | None = None, *, store: Store | None = None,
                 fields: Catalog | None = None, timeout: float | None = None) -> None:
        self.settings = settings or Settings()
        self.store = store or Store(self.settings.data_dir, memory_limit=self.settings.duckdb_memory_limit)
        # seconds of DuckDB work per request or lookup (FDAX_QUERY_TIMEOUT)
        self.timeout = timeout if timeout is not None else self.settings.query_timeout
        self.catalog = fields or catalog()
        self._lock = threading.Lock()
        self._con: duckdb.DuckDBPyConnection | None = None
        self._stamp: tuple = ()
        self._endpoints: dict[str, _Endpoint] = {}
        self._as_of: dict[str, str] = {}
        self._clean_cache: dict[tuple, bool] = {}
        self._common: dict[tuple, set[str]] = {}
        self.check()

    # -- the mirror ------------------------------------------------------------
    def check(self) -> None:
        """Raise MirrorMissingError when there is no mirror (a clear message for `mirror serve`)."""
        self.store.require_published()
        self._attach()

    def _files_stamp(self) -> tuple:
        out = []
        for name, path in self.store.published().items():
            try:
                st = os.stat(path)
            except FileNotFoundError:
                continue
            out.append((name, st.st_ino, st.st_mtime_ns, st.st_size))
        return tuple(out)

    def _attach(self) -> duckdb.DuckDBPyConnection:
        stamp = self._files_stamp()
        with self._lock:
            if self._con is not None and stamp == self._stamp:
                return self._con
            old = self._con
            con = self.store.connect(required=False)
            con.execute("SET enable_progress_bar=false")   # a long scan would draw a bar on the server's stdout
            endpoints, as_of = {}, {}
            for name, path in self.store.published().items():
                alias = f"ds_{name}"
                try:
                    meta, state_rows = self._state(con, alias)
                except duckdb.Error:
                    continue
                as_of[name] = meta.get("export_date", "")
                if name not in DATASETS:
                    continue
                ds = DATASETS[name]
                cols = self._columns(con, alias)
                if ds.table not in cols:
                    continue
                children = {ch.suffix: f'{alias}.main."{ds.table}_{ch.suffix}"' for ch in ds.children
                            if f"{ds.table}_{ch.suffix}" in cols}
                table = f'{alias}.main."{ds.table}"'
                nulls = dupes = 0
                if children and ds.key[0] in cols[ds.table]:
                    nulls, dupes = con.execute(f'SELECT count(*) - count("{ds.key[0]}"), count("{ds.key[0]}") - '
                                               f'count(DISTINCT "{ds.key[0]}") FROM {table}').fetchone()
                # rowid indexes whose table still has the rowids they were built with (mirror/upgrade.py)
                kept = {t: frozenset(cols[t]) for t, need in ds.index_tables.items() if need <= cols.get(t, set())} \
                    if ds.index_tables and meta.get("rowid_stamp") == rowid_stamp(con, table) else {}
                words = words_columns = None
                if ds.words in children and ds.words_tables[0] in kept and ds.words_tables[1] in cols:
                    words = (children[ds.words], *(f'{alias}.main."{t}"' for t in ds.words_tables))
                    words_columns = kept[ds.words_tables[0]]
                rows = {name: (f'{alias}.main."{t}"', kept[t]) for t, name in ds.rows_tables.items() if t in kept}
                endpoints[name] = _Endpoint(
                    name, table, cols[ds.table], children,
                    {children[s]: cols[f"{ds.table}_{s}"] for s in children}, meta.get("export_date", ""),
                    state_rows, nulls > 0, dupes > 0, words,
                    {spec: f'{alias}.main."{t}"' for t, spec in ds.summaries.items() if t in cols}, rows,
                    words_columns or frozenset())
            self._con, self._stamp, self._endpoints, self._as_of = con, stamp, endpoints, as_of
        if old is not None:
            threading.Timer(60, old.close).start()   # let requests in flight on the old files finish
        return con

    @staticmethod
    def _columns(con: duckdb.DuckDBPyConnection, alias: str) -> dict[str, set[str]]:
        out: dict[str, set[str]] = {}
        for table, column in con.execute("SELECT table_name, column_name FROM duckdb_columns() WHERE database_name = ?",
                                         [alias]).fetchall():
            out.setdefault(table, set()).add(column)
        return out

    @staticmethod
    def _state(con: duckdb.DuckDBPyConnection, alias: str) -> tuple[dict[str, str], list[dict]]:
        """A dataset file's `_sync_meta` (export_date, rowid_stamp, ...) and its `_sync_state` rows."""
        meta = dict(con.execute(f"SELECT key, value FROM {alias}.main._sync_meta").fetchall())
        cur = con.execute(f"SELECT * FROM {alias}.main._sync_state ORDER BY partition")
        names = [d[0] for d in cur.description]
        return meta, [dict(zip(names, r)) for r in cur.fetchall()]

    @contextmanager
    def cursor(self, what: str = "the lookup", narrow: str = NARROW_LOOKUP) -> Iterator[duckdb.DuckDBPyConnection]:
        """A read-only cursor on the current mirror (views for every table), for mirror's own lookups: its work
        is bounded by `timeout` and the memory limit (QueryTooBroad, saying `what` and how to `narrow`)."""
        con = self._attach().cursor()
        try:
            with deadline(con, self.timeout, what, narrow, self.store.memory_limit):
                yield con
        finally:
            con.close()

    @contextmanager
    def _own_cursor(self) -> Iterator[duckdb.DuckDBPyConnection]:
        """A cursor for the API's own facts about a mirror version (bounded work, cached: no timeout, which
        would fail every later request the same way)."""
        con = self._attach().cursor()
        try:
            yield con
        finally:
            con.close()

    @property
    def version(self) -> tuple:
        """Changes whenever a sync publishes new data: key caches on it."""
        self._attach()
        return self._stamp

    def datasets(self) -> dict[str, str]:
        """Published datasets (endpoints and `gudid`) and their data-as-of (export) dates."""
        self._attach()
        return dict(self._as_of)

    def as_of(self, dataset: str) -> str:
        return self.datasets().get(dataset, "")

    def close(self) -> None:
        with self._lock:
            if self._con is not None:
                self._con.close()
                self._con = None

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
        except QueryTooBroad as e:
            status, extra, body = 400, {}, {"error": {"code": "BAD_REQUEST", "message": f"Search too broad: {e}"}}
        except MirrorError as e:
            status, extra, body = 404, {}, {"error": {"code": "NOT_FOUND", "message": str(e)}}
        except (duckdb.Error, ValueError, TypeError, KeyError, IndexError, OverflowError, RecursionError) as e:
            status, extra = 500, {}
            body = {"error": {"code": "SERVER_ERROR", "message": "Check your request and try again",
                              "details": str(e).strip().splitlines()[0][:300] if str(e).strip() else type(e).__name__}}
        return Response(status, orjson.dumps(body, option=orjson.OPT_INDENT_2), {**HEADERS, **extra})

    def _dispatch(self, path: str, query: str, base_url: str) -> tuple[int, dict, dict]:
        path = "/" + path.strip().lstrip("/")
        if path == "/download.json":
            self._attach()
            return 200, self._download(), {}
        endpoint = ENDPOINT_PATHS.get(path)
        if endpoint is None:
            raise _not_found(f"No such endpoint: {path}; use /device/<endpoint>.json with one of "
                             + ", ".join(DATASETS) + ", or /download.json")
        pairs = parse_qsl(query.lstrip("?"), keep_blank_values=True)
        params: dict[str, str] = {}
        for k, v in pairs:
            if k in IGNORED:
                continue
            if k not in PARAMS:
                raise _bad(f"Invalid parameter: {k}")
            params[k] = v.strip()
        self._attach()
        ep = self._endpoints.get(endpoint)
        if ep is None:
            raise _not_found(f"The mirror holds no device/{endpoint} data; run `mirror sync --only {endpoint}`")
        count = params.get("count") or None
        limit = _int(params["limit"], "limit") if params.get("limit") else (100 if count else 1)
        skip = _int(params["skip"], "skip") if params.get("skip") else 0
        if count and limit > MAX_LIMIT:
            raise _bad("Limit cannot exceed 1000 results for count requests.")
        if not count and limit > MAX_LIMIT:
            raise _bad("Limit cannot exceed 1000 results for search requests. "
                       "Use the skip or search_after param to get additional results.")
        if count and skip:
            raise _bad("Should not use skip param when using count.")
        max_skip = self.settings.api_max_skip
        if max_skip and skip > max_skip:
            raise _bad(f"Skip value must {max_skip} or less.")
        if skip and params.get("search_after"):
            raise _bad("The skip parameter is not supported when using search_after.")
        tr = Translator(endpoint, self.catalog, ep.table, ep.columns, ep.child_columns, ep.children,
                        key_nulls=ep.key_nulls, key_dupes=ep.key_dupes, virtual=self._virtual(endpoint),
                        clean=self._clean, words=ep.words[:2] if ep.words else None,
                        rare=(lambda ws: self._rare(ep, ws)) if ep.words else None)
        where, conj = "TRUE", []
        if params.get("search"):
            try:
                parts = _conjuncts(parse(params["search"]))
                conj = [tr.translate(c) for c in (grouped(And(tuple(parts))) if len(parts) > 1 else parts)]
            except ParseError as e:
                raise _bad(str(e)) from None
            where = _joined(conj)
        con = self._con.cursor()   # the connection the endpoints above were read from
        try:
            with deadline(con, self.timeout, "the search", NARROW_SEARCH, self.store.memory_limit):
                meta = {"disclaimer": DISCLAIMER, "terms": TERMS, "license": LICENSE, "last_updated": ep.export_date}
                if count:
                    return 200, {"meta": meta, "results": self._count(con, tr, ep, where, conj, count, limit)}, {}
                return self._search(con, tr, ep, where, conj, params, limit, skip, meta, path, pairs, base_url)
        finally:
            con.close()

    def _clean(self, table: str, column: str, is_list: bool = False) -> bool:
        """Whether every value of a column (or of a list column's lists) is one upper-case word (checked once
        per mirror version)."""
        key = (self._stamp, table, column)
        if key not in self._clean_cache:
            rows = f'(SELECT unnest("{column}") AS v FROM {table})' if is_list else f'(SELECT "{column}" AS v FROM {table})'
            with self._own_cursor() as con:
                self._clean_cache[key] = bool(con.execute(   # EXISTS stops at the first value that is not
                    f"SELECT EXISTS (SELECT 1 FROM {rows} WHERE v IS NOT NULL) AND NOT EXISTS (SELECT 1 FROM {rows} "
                    f"WHERE v IS NOT NULL AND NOT (regexp_full_match(v, '{WORD_SQL}') AND v = upper(v)))").fetchone()[0])
        return self._clean_cache[key]

    def _rare(self, ep: _Endpoint, words: list[str]) -> str | None:
        """One of `words` that the endpoint's word index holds (None if all are common words)."""
        key = (self._stamp, ep.words[2])
        if key not in self._common:
            with self._own_cursor() as con:
                self._common[key] = {w for (w,) in con.execute(f"SELECT word FROM {ep.words[2]}").fetchall()}
        return next((w for w in words if w not in self._common[key]), None)

    def _virtual(self, endpoint: str) -> dict[str, str]:
        """Local extension fields. device/recall `recall_class`: the class ("Class I", ...) of the enforcement
        report with the same recall number (enforcement `recall_number` = recall `product_res_number`)."""
        enf = self._endpoints.get("enforcement")
        if endpoint == "recall" and enf is not None and "product_res_number" in self._endpoints["recall"].columns:
            return {"recall_class": f"(SELECT max(e.classification) FROM {enf.table} e "
                                    f"WHERE e.recall_number = t.product_res_number)"}
        return {}

    # -- search ------------------------------------------------------------------
    def _sort(self, tr: Translator, spec: str) -> tuple[str | None, bool, bool]:
        name, _, direction = spec.partition(":")
        name, direction = name.strip(), (direction.strip().lower() or "asc")
        f = tr.resolve(name)
        if f is None or not f.sortable or direction not in ("asc", "desc"):
            raise _bad(f"Sorting allowed by non-analyzed fields only: {name}")
        a = tr.access(f)
        desc = direction == "desc"
        is_date = f.type == "date" and not f.exact
        if a.kind == "scalar":
            return (a.expr if is_date or not a.is_date else f"CAST({a.expr} AS VARCHAR)"), desc, is_date
        vals = a.expr if a.kind == "list" else tr.generic(f.path)
        if is_date:
            vals = f"list_transform({vals}, lambda v: try_strptime(v, ['%Y%m%d', '%Y-%m-%d', '%m/%d/%Y'])::DATE)"
        return f"{'list_max' if desc else 'list_min'}({vals})", desc, is_date

    @staticmethod
    def _source(ep: _Endpoint, conj: list[str], exprs: tuple[str | None, ...] = ()) -> tuple[str, str]:
        """Where a search reads its rows: (table, where). A row index (or the word index) when one top-level
        conjunct looks up one value in it and all else the request reads (the other conjuncts, the sort or count
        expression) are columns that index holds, beside each record's rowid; else the main table."""
        for i, c in enumerate(conj):
            m = MEMBER.fullmatch(c)
            if m and m.group(1) in ep.rows:
                table, cols = ep.rows[m.group(1)]
            else:
                m = _WORDS.fullmatch(c)
                if m is None or ep.words is None or m.group(1) != ep.words[1]:
                    continue
                table, cols = ep.words[1], ep.words_columns
            rest = conj[:i] + conj[i + 1:]
            if all(_refs(x) <= cols for x in rest + [e for e in exprs if e]):
                return table, "(" + " AND ".join([f"t.term = {m.group(2)}"] + rest) + ")"
        return ep.table, _joined(conj)

    def _search(self, con, tr: Translator, ep: _Endpoint, where: str, conj: list[str], params: dict, limit: int,
                skip: int, meta: dict, path: str, pairs: list, base_url: str) -> tuple[int, dict, dict]:
        sort_expr, desc, by_date = self._sort(tr, params["sort"]) if params.get("sort") else (None, False, False)
        src, swhere = self._source(ep, conj, (sort_expr,))
        page_where, where_params = swhere, dict(tr.params)
        if params.get("search_after"):
            page_where = f"({swhere}) AND {self._after(tr, params['search_after'], sort_expr, desc, by_date)}"
        total = summary_total(con, ep.summaries, where, where_params)
        rows = None     # unsorted and from the start: one scan gives the total and the page's rowids
        if total is None and sort_expr is None and not params.get("search_after") and skip + limit <= ONE_SCAN:
            total, first = con.execute(f"SELECT count(*), min(t.rowid, {max(1, skip + limit)}) FROM {src} t "
                                       f"WHERE {swhere}", where_params).fetchone()
            rows = [(None, None, None, i) for i in (first or [])[skip:skip + limit]]
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
        elif sort_expr is None and total <= SMALL:   # a plain scan can use an index; ORDER BY ... LIMIT cannot
            rows = sorted(con.execute(f"SELECT NULL, {keys}, t.rowid FROM {src} t WHERE {page_where}",
                                      tr.params).fetchall(), key=lambda r: r[3])[skip:skip + limit]
        else:
            rows = con.execute(f"SELECT NULL, {keys}, t.rowid FROM {src} t WHERE {page_where} "
                               f"ORDER BY {order} LIMIT {int(limit)} OFFSET {int(skip)}", tr.params).fetchall()
        if not rows and limit != 0:
            raise _not_found()
        results = [orjson.Fragment(r) for r in self._records(con, ep, [r[3] for r in rows])]
        meta = {**meta, "results": {"skip": skip, "limit": limit, "total": total}}
        headers = {}
        nxt = self._next(rows, sort_expr, skip, limit, total, pairs)
        if nxt:
            headers["Link"] = f"<{base_url}{path}?{urlencode(nxt)}>; rel=\"next\""
        return 200, {"meta": meta, "results": results}, headers

    @staticmethod
    def _records(con, ep: _Endpoint, rowids: list[int]) -> list[str]:
        """The records' JSON text, in the order of `rowids`: read apart from the search, so that DuckDB reads
        the records column only where these rows are (a search that also reads it may scan it all)."""
        if not rowids:
            return []
        ids = ", ".join(str(int(i)) for i in rowids)   # in the text: binding a list costs per element
        match = f"= {ids}" if len(rowids) == 1 else f"IN (SELECT unnest([{ids}]))"   # one row: a point read
        text = dict(con.execute(f"SELECT t.rowid, CAST(t.record AS VARCHAR) FROM {ep.table} t "
                                f"WHERE t.rowid {match}").fetchall())
        return [text[i] for i in rowids]

    @staticmethod
    def _next(rows, sort_expr, skip, limit, total, pairs) -> list[tuple[str, str]] | None:
        """The next page's parameters, as openFDA's traversal builds them (skip, else search_after)."""
        keep = [(k, v) for k, v in pairs if k not in ("skip", "search_after")]
        if skip > 0:
            return keep + [("skip", str(skip + limit))] if total > skip + limit else None
        if rows and len(rows) >= limit and total != len(rows):
            last = rows[-1]
            token = (f"0={last[3]}" if sort_expr is None else
                     f"0={int(bool(last[1]))};1={quote(last[2] or '', safe='')};2={last[3]}")
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
            raise _bad(f"Invalid search_after value: {token}; use the value from the previous page's Link header "
                       "(and the same sort)") from None
        if parts["0"] == "1":
            return f"(({sort_expr}) IS NULL AND t.rowid > {rowid})"
        v, op = tr.bind(value), "<" if desc else ">"
        return (f"(({sort_expr}) IS NULL OR {sort_expr} {op} {v} "
                f"OR ({sort_expr} = {v} AND t.rowid > {rowid}))")

    # -- count --------------------------------------------------------------------
    def _count(self, con, tr: Translator, ep: _Endpoint, where: str, conj: list[str], name: str,
               limit: int) -> list[dict]:
        f = tr.resolve(name)
        rows = self._buckets(con, tr, ep, where, conj, f, limit) if f is not None else []
        if not rows:
            src, swhere = self._source(ep, conj)
            total = con.execute(f"SELECT count(*) FROM {src} t WHERE {swhere}", tr.params).fetchone()[0]
            raise _not_found("No matches found!" if total == 0 else "Nothing to count")
        if f.type == "date" and not f.exact:
            return [{"time": t, "count": n} for t, n in rows]
        return [{"term": t, "count": n} for t, n in rows]

    def _buckets(self, con, tr: Translator, ep: _Endpoint, where: str, conj: list[str], f: FieldRef,
                 limit: int) -> list[tuple]:
        a = tr.access(f)
        is_date = f.type == "date" and not f.exact
        tokens = not f.whole_value

        def values(x: str, scalar: bool, typed_date: bool) -> str:
            """The distinct bucket keys of one record's value(s), as a list."""
            lst = f"[{x}]" if scalar else x
            if is_date:
                if not typed_date:
                    lst = f"list_transform({lst}, lambda v: try_strptime(v, ['%Y%m%d', '%Y-%m-%d', '%m/%d/%Y'])::DATE)"
                return f"list_distinct({lst})"
            if tokens:
                lst = f"flatten(list_transform({lst}, lambda v: regexp_extract_all(lower(v), '{WORD_SQL}')))"
                return f"list_distinct({lst})"
            if re.fullmatch(r'[tc]\."\w+"', lst):   # a list column: most lists hold one value
                return f"CASE WHEN len({lst}) < 2 THEN {lst} ELSE list_distinct({lst}) END"
            return f"list_distinct({lst})"

        summary = summary_count(ep.summaries, a, where, is_date, tokens, limit)
        if summary is not None:
            return con.execute(summary, tr.params).fetchall()
        if a.kind == "child" and (tr.key_nulls or tr.key_dupes):
            a = replace(a, kind="list", expr=tr.generic(f.path), is_date=False, child_list=False)
        if a.kind == "child":
            keep = "" if where == "TRUE" else f'WHERE c."{a.key}" IN (SELECT t."{a.key}" FROM {ep.table} t WHERE {where})'
            inner = (f'SELECT DISTINCT c."{a.key}" AS k, unnest({values(a.expr, not a.child_list, a.is_date)}) AS term '
                     f"FROM {a.child} c {keep}")
        elif a.kind == "scalar" and not tokens:
            src, swhere = self._source(ep, conj, (a.expr,))
            inner = f"SELECT {a.expr} AS term FROM {src} t WHERE {swhere}"
        else:
            inner = (f"SELECT unnest({values(a.expr, a.kind == 'scalar', a.is_date)}) AS term "
                     f"FROM {ep.table} t WHERE {where}")
        if is_date:
            sql = (f"SELECT strftime(term, '%Y%m%d'), count(*) FROM ({inner}) WHERE term IS NOT NULL "
                   f"GROUP BY term ORDER BY term")
        else:
            sql = (f"SELECT CAST(term AS VARCHAR) AS term, count(*) AS n FROM ({inner}) WHERE term IS NOT NULL "
                   f"GROUP BY 1 ORDER BY n DESC, term ASC LIMIT {int(limit)}")
        return con.execute(sql, tr.params).fetchall()

    # -- download.json ----------------------------------------------------------------
    def _download(self) -> dict:
        device = {}
        for name, ep in sorted(self._endpoints.items()):
            parts = [{"display_name": r["partition"], "file": r["url"], "records": r["records"],
                      "size_mb": f"{(r['bytes'] or 0) / 2**20:.2f}"} for r in ep.state_rows]
            device[name] = {"export_date": ep.export_date, "total_records": sum(p["records"] or 0 for p in parts),
                            "partitions": parts}
        last = max((ep.export_date for ep in self._endpoints.values()), default=str(date.today()))
        return {"meta": {"disclaimer": DISCLAIMER, "terms": TERMS, "license": LICENSE, "last_updated": last},
                "results": {"device": device}}
