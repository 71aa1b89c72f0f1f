"""Load one verified openFDA bulk partition into a staging database, data and state in one transaction."""

from __future__ import annotations

import errno
import json
import queue
import threading
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

import duckdb

from .bulkjson import BulkFile
from .datasets import Child, Column, Dataset
from .errors import DiskFullError, InvalidJSONError, MirrorError, RecordCountError
from .manifest import Partition

__all__ = ["ensure_tables", "load_partition", "drop_partition", "Fetched"]

_DATE_SQL = {"ymd": "try_strptime({v}, '%Y%m%d')::DATE",
             "iso": "try_strptime({v}, '%Y-%m-%d')::DATE",
             "mdy": "try_strptime({v}, '%m/%d/%Y')::DATE"}
_TYPE = {"str": "VARCHAR", "date": "DATE", "list": "VARCHAR[]"}


@dataclass(frozen=True)
class Fetched:
    path: Path
    bytes: int
    sha256: str


def _ddl(table: str, cols: list[tuple[str, str]]) -> str:
    return f'CREATE TABLE IF NOT EXISTS "{table}" (' + ", ".join(f'"{n}" {t}' for n, t in cols) + ")"


def ensure_tables(con: duckdb.DuckDBPyConnection, ds: Dataset) -> None:
    cols = [("_partition", "VARCHAR")] + [(c.name, _TYPE[c.kind]) for c in ds.columns] + [("record", "JSON")]
    con.execute(_ddl(ds.table, cols))
    for ch in ds.children:
        parent = {c.name: c for c in ds.columns}
        ccols = [("_partition", "VARCHAR")] + [(k, _TYPE[parent[k].kind]) for k in ch.parent_keys]
        ccols += [(c.name, _TYPE[c.kind]) for c in ch.columns]
        con.execute(_ddl(f"{ds.table}_{ch.suffix}", ccols))


def _exprs(columns: tuple[Column, ...], date_format: str, src: str, strs: str) -> list[str]:
    """SQL expressions for typed columns; scalar strings come from one multi-path extract `strs`."""
    out, i = [], 0
    for c in columns:
        if c.kind == "list":
            out.append(f"""from_json(json_extract({src}, '{c.path}'), '["VARCHAR"]') AS "{c.name}\"""")
            continue
        i += 1
        v = f"{strs}[{i}]"
        out.append((_DATE_SQL[date_format].format(v=v) if c.kind == "date" else v) + f' AS "{c.name}"')
    return out


def _paths(columns: tuple[Column, ...]) -> str:
    return "[" + ", ".join(f"'{c.path}'" for c in columns if c.kind != "list") + "]"


def _insert_sql(ds: Dataset, ndjson: Path) -> str:
    exprs = ", ".join(_exprs(ds.columns, ds.date_format, "j", "v"))
    path = str(ndjson).replace("'", "''")
    return (f'INSERT INTO "{ds.table}" BY NAME SELECT $part AS _partition, {exprs}, j AS record FROM '
            f"(SELECT json(json) AS j, json_extract_string(json, {_paths(ds.columns)}) AS v "
            f"FROM read_ndjson_objects('{path}'))")


def _schema(columns: tuple[Column, ...]) -> str:
    """A from_json structure holding just these columns' paths (nested objects as nested structs)."""
    root: dict = {}
    for c in columns:
        d = root
        parts = c.path.removeprefix("$.").split(".")
        for part in parts[:-1]:
            d = d.setdefault(part, {})
        d[parts[-1]] = ["VARCHAR"] if c.kind == "list" else "VARCHAR"
    return json.dumps([root]).replace("'", "''")


def _child_sql(ds: Dataset, ch: Child) -> str:
    """One row per array element: from_json with a struct schema parses each record's array once."""
    cols = []
    for c in ch.columns:
        ref = "e." + ".".join(f'"{p}"' for p in c.path.removeprefix("$.").split("."))
        cols.append((_DATE_SQL[ds.date_format].format(v=ref) if c.kind == "date" else ref) + f' AS "{c.name}"')
    keys = ", ".join(f'"{k}"' for k in ch.parent_keys)
    array = ch.array.removesuffix("[*]")
    return (f'INSERT INTO "{ds.table}_{ch.suffix}" BY NAME SELECT _partition, {keys}, {", ".join(cols)} FROM '
            f"(SELECT _partition, {keys}, unnest(from_json(json_extract(record, '{array}'), '{_schema(ch.columns)}')) AS e "
            f'FROM "{ds.table}" WHERE _partition = $part)')


def drop_partition(con: duckdb.DuckDBPyConnection, ds: Dataset, partition: str) -> None:
    for ch in ds.children:
        con.execute(f'DELETE FROM "{ds.table}_{ch.suffix}" WHERE _partition = ?', [partition])
    con.execute(f'DELETE FROM "{ds.table}" WHERE _partition = ?', [partition])
    con.execute("DELETE FROM _sync_state WHERE partition = ?", [partition])


def _produce(bulk: BulkFile, work: Path, chunk_bytes: int, q: queue.Queue, stop: threading.Event) -> None:
    """Producer thread: write NDJSON chunk files and hand their paths over; None ends, an exception fails."""
    try:
        for n, block in enumerate(bulk.chunks(chunk_bytes)):
            if stop.is_set():
                return
            path = work / f"chunk-{n:05d}.ndjson"
            path.write_bytes(block)
            q.put(path)
        q.put(None)
    except BaseException as e:  # handed to the consumer, which raises it
        q.put(e)


def _insert_chunks(con, ds: Dataset, bulk: BulkFile, work: Path, chunk_bytes: int, part: str) -> int:
    q: queue.Queue = queue.Queue(maxsize=2)
    stop = threading.Event()
    t = threading.Thread(target=_produce, args=(bulk, work, chunk_bytes, q, stop), daemon=True)
    t.start()
    rows = 0
    try:
        while (item := q.get()) is not None:
            if isinstance(item, BaseException):
                raise item
            try:
                rows += con.execute(_insert_sql(ds, item), {"part": part}).fetchone()[0]
            finally:
                item.unlink(missing_ok=True)
    finally:
        stop.set()
        while t.is_alive():
            try:
                leftover = q.get(timeout=0.1)
                if isinstance(leftover, Path):
                    leftover.unlink(missing_ok=True)
            except queue.Empty:
                pass
    return rows



def load_partition(con: duckdb.DuckDBPyConnection, ds: Dataset, part: Partition, fetched: Fetched,
                   work: Path, chunk_bytes: int = 32 << 20) -> int:
    """Replace partition `part` in the staging db from its zip; commit only if the count matches."""
    bulk = BulkFile(fetched.path, part.member)
    work.mkdir(parents=True, exist_ok=True)
    con.execute("BEGIN TRANSACTION")
    try:
        drop_partition(con, ds, part.path)
        rows = _insert_chunks(con, ds, bulk, work, chunk_bytes, part.path)
        if rows != part.records:
            raise RecordCountError(f"{fetched.path}: holds {rows} records but the manifest says {part.records}; "
                                   "the file or the manifest is out of date: run `mirror sync` again")
        for ch in ds.children:
            con.execute(_child_sql(ds, ch), {"part": part.path})
        con.execute("INSERT INTO _sync_state VALUES (?, ?, ?, ?, ?, ?, ?)",
                    [part.path, part.file, part.export_date, rows, fetched.bytes, fetched.sha256,
                     datetime.now(timezone.utc).replace(tzinfo=None)])
        con.execute("COMMIT")
        return rows
    except duckdb.Error as e:
        con.execute("ROLLBACK")
        raise _classify(e, fetched.path, work) from None
    except OSError as e:
        con.execute("ROLLBACK")
        if e.errno == errno.ENOSPC:
            raise DiskFullError(f"{work}: disk full while loading {fetched.path.name}; free space and rerun") from None
        raise
    except (MirrorError, BaseException):
        con.execute("ROLLBACK")
        raise


def _classify(e: duckdb.Error, path: Path, work: Path) -> MirrorError:
    """Only a parse failure blames the file (which the caller then deletes); the rest keep it."""
    msg = _first_line(e)
    if "No space left" in str(e):
        return DiskFullError(f"{work}: disk full while loading {path.name}; free space and rerun")
    if isinstance(e, duckdb.OutOfMemoryException):
        return MirrorError(f"{path}: DuckDB ran out of memory while loading ({msg}); raise FDAX_DUCKDB_MEMORY_LIMIT "
                           "or lower FDAX_CHUNK_MB and rerun (the download is kept)")
    if isinstance(e, duckdb.InvalidInputException) and "JSON" in str(e):
        return InvalidJSONError(f"{path}: invalid JSON ({msg}); remove it and run `mirror sync` again "
                                "to fetch it anew")
    return MirrorError(f"{path}: cannot be loaded ({msg}); rerun `mirror sync` (the download is kept)")


def _first_line(e: Exception) -> str:
    return str(e).strip().splitlines()[0][:200]
