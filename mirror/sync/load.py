"""Load one verified openFDA bulk partition into a staging database, data and state in one transaction."""

from __future__ import annotations

import errno
from dataclasses import dataclass
from pathlib import Path

import duckdb

from ..errors import DiskFullError, InvalidJSONError, MirrorError, RecordCountError, first_line
from ..schema.datasets import DATASETS, Dataset
from ..store.state import record_loaded
from .chunks import ChunkStream
from .loadsql import STAGE, STAGE_CLEAR, child_sql, ddl, main_sql, stage_ddl, stage_sql
from .plan import Partition
from .unpack import BulkFile

__all__ = ["ensure_tables", "load_partition", "keep_partition", "open_stream", "drop_partition", "Fetched"]


@dataclass(frozen=True)
class Fetched:
    path: Path
    bytes: int
    sha256: str
    digest: str | None = None  # of its records (`chunks.records_digest`), when taken before loading


def ensure_tables(con: duckdb.DuckDBPyConnection, ds: Dataset) -> None:
    for sql in ddl(ds):
        con.execute(sql)


def drop_partition(con: duckdb.DuckDBPyConnection, ds: Dataset, partition: str) -> None:
    for ch in ds.children:
        con.execute(f'DELETE FROM "{ds.table}_{ch.suffix}" WHERE _partition = ?', [partition])
    con.execute(f'DELETE FROM "{ds.table}" WHERE _partition = ?', [partition])
    con.execute("DELETE FROM _sync_state WHERE partition = ?", [partition])


def _insert_chunks(con, ds: Dataset, stream: ChunkStream, part: str) -> int:
    rows = 0
    con.execute(stage_ddl(ds))
    for path in stream:
        con.execute(STAGE_CLEAR)
        con.execute(stage_sql(ds, path))
        rows += con.execute(main_sql(ds), {"part": part}).fetchone()[0]
        for ch in ds.children:
            con.execute(child_sql(ds, ch), {"part": part})
    return rows


def open_stream(
    part: Partition, fetched: Fetched, work: Path, chunk_bytes: int = 32 << 20, after: ChunkStream | None = None
) -> ChunkStream:
    """Start unzipping a partition (checks the zip first: CorruptFileError if it is not the expected zip;
    RecordCountError if it unzips to more than the manifest's records can take)."""
    ds = DATASETS.get(part.endpoint)
    bulk = BulkFile(fetched.path, part.member, records=part.records, key=ds.key[0] if ds else None)
    return ChunkStream(bulk, work, chunk_bytes, after=after)


def load_partition(
    con: duckdb.DuckDBPyConnection,
    ds: Dataset,
    part: Partition,
    fetched: Fetched,
    work: Path,
    chunk_bytes: int = 32 << 20,
    stream: ChunkStream | None = None,
) -> int:
    """Replace partition `part` in the staging db from its zip; commit only if the count matches."""
    stream = stream or open_stream(part, fetched, work, chunk_bytes)
    con.execute("BEGIN TRANSACTION")
    try:
        drop_partition(con, ds, part.path)
        rows = _insert_chunks(con, ds, stream, part.path)
        if rows != part.records:
            raise RecordCountError(
                f"{fetched.path}: holds {rows} records but the manifest says {part.records}; "
                "the file or the manifest is out of date: run `mirror sync` again"
            )
        con.execute(f"DROP TABLE IF EXISTS {STAGE}")
        record_loaded(
            con, part.path, part.file, part.export_date, rows, fetched.bytes, fetched.sha256, digest=stream.digest
        )
        con.execute("COMMIT")
        return rows
    except duckdb.Error as e:
        _rollback(con)
        raise _classify(e, fetched.path, work) from None
    except OSError as e:
        _rollback(con)
        if e.errno == errno.ENOSPC:
            raise DiskFullError(f"{work}: disk full while loading {fetched.path.name}; free space and rerun") from None
        raise
    except (MirrorError, BaseException):
        _rollback(con)
        raise
    finally:
        stream.close()


def keep_partition(con: duckdb.DuckDBPyConnection, part: Partition, fetched: Fetched) -> None:
    """A re-exported partition whose records are those already loaded (same digest and count): its rows stay, and
    its state row moves to the new file and export date, in one transaction."""
    assert fetched.digest is not None, "only a partition whose records' digest was taken can be kept"
    con.execute("BEGIN TRANSACTION")
    try:
        record_loaded(
            con,
            part.path,
            part.file,
            part.export_date,
            part.records,
            fetched.bytes,
            fetched.sha256,
            digest=fetched.digest,
        )
        con.execute("COMMIT")
    except BaseException:
        _rollback(con)
        raise


def _rollback(con: duckdb.DuckDBPyConnection) -> None:
    try:
        con.execute("ROLLBACK")
    except duckdb.Error:  # a fatal error already invalidated the connection; DuckDB rolls back on reopen
        pass


def _classify(e: duckdb.Error, path: Path, work: Path) -> MirrorError:
    """Only a parse failure blames the file (which the caller then deletes); the rest keep it."""
    msg = first_line(e, 200)
    if "No space left" in str(e):
        return DiskFullError(f"{work}: disk full while loading {path.name}; free space and rerun")
    if isinstance(e, duckdb.OutOfMemoryException):
        return MirrorError(
            f"{path}: DuckDB ran out of memory while loading ({msg}); raise FDAX_DUCKDB_MEMORY_LIMIT "
            "or lower FDAX_CHUNK_MB and rerun (the download is kept)"
        )
    if isinstance(e, duckdb.InvalidInputException) and "JSON" in str(e):
        return InvalidJSONError(f"{path}: invalid JSON ({msg}); remove it and run `mirror sync` again to fetch it anew")
    return MirrorError(f"{path}: cannot be loaded ({msg}); rerun `mirror sync` (the download is kept)")
