"""The one reader of the published mirror: attaching, re-attaching after a sync, bounded cursors, version, as-of.

`Reader` attaches every published dataset file read-only on one DuckDB connection (views for every table, see
`Store.connect`) and re-attaches when `mirror sync` publishes a new file (a changed inode, size or mtime), so a
long-running process sees new data; the old connection is closed a minute later, after the work in flight on it.
Each attach is a `Snapshot`: the connection and what the files' `_sync_meta` and `_sync_state` say.

`cursor()` bounds its work by the statement timeout (FDAX_QUERY_TIMEOUT) and the memory limit
(FDAX_DUCKDB_MEMORY_LIMIT), ending with QueryTooBroad. `derived(name, build)` serves what is computed once per
mirror version (tables in the connection's in-memory database, Python sets and dicts): built on first use, kept
until the next sync is published.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, TypeVar

import duckdb

from ..settings import Settings
from .files import Store

__all__ = ["Reader", "Snapshot"]

T = TypeVar("T")
RETIRE_AFTER = 60  # seconds an old connection stays open after a re-attach (requests in flight finish on it)


@dataclass(frozen=True)
class Snapshot:
    """One attach of the published files: the connection and each readable dataset file's sync facts."""

    con: duckdb.DuckDBPyConnection
    version: tuple  # the files' (name, inode, mtime, size): changes on publish
    meta: dict[str, dict[str, str]] = field(default_factory=dict)  # dataset -> its `_sync_meta`
    state: dict[str, list[dict]] = field(default_factory=dict)  # dataset -> its `_sync_state` rows

    @property
    def as_of(self) -> dict[str, str]:
        """Dataset -> its data-as-of (export) date."""
        return {name: m.get("export_date", "") for name, m in self.meta.items()}


class Reader:
    """Reads the published mirror (thread-safe): one connection per mirror version, bounded cursors, derived caches."""

    def __init__(
        self, settings: Settings | None = None, *, store: Store | None = None, timeout: float | None = None
    ) -> None:
        self.settings = settings or Settings()
        self.store = store or Store(self.settings.data_dir, memory_limit=self.settings.duckdb_memory_limit)
        # seconds of DuckDB work per request or lookup (FDAX_QUERY_TIMEOUT)
        self.timeout = timeout if timeout is not None else self.settings.query_timeout
        self._lock = threading.Lock()
        self._snap: Snapshot | None = None
        self._derived: dict[Hashable, Any] = {}
        self._building: dict[Hashable, threading.Lock] = {}

    # -- attaching ---------------------------------------------------------------
    def check(self) -> None:
        """Raise MirrorMissingError when there is no mirror (a clear message for `mirror serve`)."""
        self.store.require_published()
        self.snapshot()

    def _files_stamp(self) -> tuple:
        out = []
        for name, path in self.store.published().items():
            try:
                st = os.stat(path)
            except FileNotFoundError:
                continue
            out.append((name, st.st_ino, st.st_mtime_ns, st.st_size))
        return tuple(out)

    def snapshot(self) -> Snapshot:
        """The current attach, re-attaching first when a sync has published since."""
        stamp = self._files_stamp()
        with self._lock:
            if self._snap is not None and stamp == self._snap.version:
                return self._snap
            old = self._snap
            con = self.store.connect(required=False)
            con.execute("SET enable_progress_bar=false")  # a long scan would draw a bar on the server's stdout
            meta, state = {}, {}
            for name in self.store.published():
                try:
                    meta[name], state[name] = _sync_facts(con, f"ds_{name}")
                except duckdb.Error:
                    continue
            self._snap = Snapshot(con, stamp, meta, state)
            self._derived = {}
            self._building = {}
        if old is not None:
            timer = threading.Timer(RETIRE_AFTER, old.con.close)
            timer.daemon = True
            timer.start()
        return self._snap

    # -- cursors -----------------------------------------------------------------
    @contextmanager
    def cursor(
        self, what: str = "the lookup", narrow: str | None = None, snap: Snapshot | None = None
    ) -> Iterator[duckdb.DuckDBPyConnection]:
        """A read-only cursor on the mirror (views for every table): its work is bounded by `timeout` and the
        memory limit (QueryTooBroad, saying `what` and how to `narrow`: by default, how to narrow a lookup).
        `snap`: on that attach (default: the current one)."""
        from ..api.limits import NARROW_LOOKUP, deadline  # here: mirror.api imports this module

        con = (snap or self.snapshot()).con.cursor()
        try:
            with deadline(con, self.timeout, what, narrow or NARROW_LOOKUP, self.store.memory_limit):
                yield con
        finally:
            con.close()

    @contextmanager
    def unbounded_cursor(self, snap: Snapshot | None = None) -> Iterator[duckdb.DuckDBPyConnection]:
        """A cursor without the timeout, for facts about a mirror version that are computed once and cached (a
        timeout there would fail every later request the same way). Keep its work bounded."""
        con = (snap or self.snapshot()).con.cursor()
        try:
            yield con
        finally:
            con.close()

    # -- derived, once per version --------------------------------------------------
    def derived(
        self, name: Hashable, build: Callable[[duckdb.DuckDBPyConnection], T], snap: Snapshot | None = None
    ) -> T:
        """What `build(cursor)` returns for the mirror version, built once per version (the first caller builds,
        others wait) and kept until a sync publishes. `build` may create tables in the connection's in-memory
        database (`memory.main.<name>`): each version has its own connection, so they never outlive it.
        A failed build is not kept (the next call tries again)."""
        snap = snap or self.snapshot()
        key = (snap.version, name)
        with self._lock:
            if key in self._derived:
                return self._derived[key]
            building = self._building.setdefault(key, threading.Lock())
        with building:
            with self._lock:
                if key in self._derived:
                    return self._derived[key]
            with self.unbounded_cursor(snap) as cur:
                value = build(cur)
            with self._lock:
                if self._snap is snap:  # not a version replaced meanwhile
                    self._derived[key] = value
                    self._building.pop(key, None)
            return value

    # -- facts ------------------------------------------------------------------------
    @property
    def version(self) -> tuple:
        """Changes whenever a sync publishes new data: key caches on it (or use `derived`)."""
        return self.snapshot().version

    def datasets(self) -> dict[str, str]:
        """Published datasets (endpoints and `gudid`) and their data-as-of (export) dates."""
        return self.snapshot().as_of

    def as_of(self, dataset: str) -> str:
        return self.datasets().get(dataset, "")

    def close(self) -> None:
        with self._lock:
            if self._snap is not None:
                self._snap.con.close()
                self._snap = None
                self._derived = {}
                self._building = {}


def _sync_facts(con: duckdb.DuckDBPyConnection, alias: str) -> tuple[dict[str, str], list[dict]]:
    """A dataset file's `_sync_meta` (export_date, rowid_stamp, ...) and its `_sync_state` rows."""
    meta = dict(con.execute(f"SELECT key, value FROM {alias}.main._sync_meta").fetchall())
    cur = con.execute(f"SELECT * FROM {alias}.main._sync_state ORDER BY partition")
    names = [d[0] for d in cur.description]
    return meta, [dict(zip(names, r)) for r in cur.fetchall()]
