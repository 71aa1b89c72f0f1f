"""The one owner of DuckDB: per-dataset database files, staging builds, atomic swap, read-only views.

Layout under the data folder:
  db/<dataset>.duckdb          the published, consistent copy (device_event, device_510k, ..., gudid)
  db/<dataset>.staging.duckdb  a build in progress (resumed by the next sync after a crash)
A sync writes only staging files and publishes one by `os.replace`, so readers (who attach the
published files read-only) never see a half-loaded dataset and never meet DuckDB's writer lock.
"""

from __future__ import annotations

import errno
import os
import shutil
from contextlib import contextmanager
from pathlib import Path

import duckdb

from ..errors import DiskFullError, LockedError, MirrorError, MirrorMissingError, first_line
from .lock import try_lock, unlock
from .rows import one

__all__ = [
    "Store",
    "dataset_file_stem",
    "Connection",
    "db_error",
    "STORAGE_VERSION",
    "storage_version",
    "older_storage",
]

Connection = duckdb.DuckDBPyConnection

# The storage format every file a sync writes is created at: from v1.2.0 DuckDB compresses long strings (the
# record JSON) with ZSTD; the default (v1.0.0+) stores them uncompressed. DuckDB 1.2.0 or later opens these files.
STORAGE_VERSION = "v1.2.0"

_META_DDL = """
CREATE TABLE IF NOT EXISTS _sync_meta (key VARCHAR PRIMARY KEY, value VARCHAR);
CREATE TABLE IF NOT EXISTS _sync_state (
    partition VARCHAR PRIMARY KEY, url VARCHAR, export_date VARCHAR, records BIGINT,
    bytes BIGINT, sha256 VARCHAR, loaded_at TIMESTAMP, digest VARCHAR);
ALTER TABLE _sync_state ADD COLUMN IF NOT EXISTS digest VARCHAR;
"""


def storage_version(con: Connection, database: str | None = None) -> str:
    """The storage version a database file was written at ("v1.2.0+"); `database`: an attached name, else the
    connection's own file."""
    row = con.execute(
        "SELECT tags['storage_version'] FROM duckdb_databases() WHERE database_name = coalesce(?, current_database())",
        [database],
    ).fetchone()
    return (row[0] if row else None) or ""


def older_storage(version: str) -> bool:
    """Whether a file at `version` ("v1.0.0+") predates STORAGE_VERSION (so a sync rewrites it)."""
    return _version_key(version) < _version_key(STORAGE_VERSION)


def _version_key(version: str) -> tuple[int, ...]:
    digits = version.strip().lstrip("v").rstrip("+").split(".")
    try:
        return tuple(int(d) for d in digits)
    except ValueError:
        return (0,)


def dataset_file_stem(dataset: str) -> str:
    return "gudid" if dataset == "gudid" else f"device_{dataset}"


class Store:
    def __init__(self, data_dir: Path, memory_limit: str = "1GB") -> None:
        self.data_dir = Path(data_dir)
        self.db_dir = self.data_dir / "db"
        self.tmp_dir = self.data_dir / "tmp"
        self.memory_limit = memory_limit

    # paths -----------------------------------------------------------------
    def current(self, dataset: str) -> Path:
        return self.db_dir / f"{dataset_file_stem(dataset)}.duckdb"

    def staging(self, dataset: str) -> Path:
        return self.db_dir / f"{dataset_file_stem(dataset)}.staging.duckdb"

    def published(self) -> dict[str, Path]:
        """Published dataset files by dataset name."""
        out = {}
        for p in sorted(self.db_dir.glob("*.duckdb")):
            if p.name.endswith(".staging.duckdb"):
                continue
            stem = p.stem
            out["gudid" if stem == "gudid" else stem.removeprefix("device_")] = p
        return out

    def require_published(self) -> dict[str, Path]:
        """The published dataset files; MirrorMissingError (saying how to make some) when there are none."""
        files = self.published()
        if not files:
            raise MirrorMissingError(
                f"{self.data_dir}: no mirror here yet; run `mirror sync` "
                "(or `mirror sync --sample` for the sample data)"
            )
        return files

    # locking ---------------------------------------------------------------
    @contextmanager
    def sync_lock(self):
        self.data_dir.mkdir(parents=True, exist_ok=True)
        with open(self.data_dir / "sync.lock", "a+") as fh:
            if not try_lock(fh):
                raise LockedError(f"{self.data_dir}: another `mirror sync` is running; wait for it to finish")
            try:
                yield
            finally:
                unlock(fh)

    def file_storage(self, path: Path) -> str:
        """The storage version of the dataset file at `path` ("" when it cannot be read)."""
        try:
            con = duckdb.connect(str(path), read_only=True)
        except duckdb.Error:
            return ""
        try:
            return storage_version(con)
        finally:
            con.close()

    # writing ---------------------------------------------------------------
    def open_staging(self, dataset: str, copy_current: bool = False) -> Connection:
        """Open (creating or resuming) the staging file, created at STORAGE_VERSION; optionally start it as a copy
        of the published file (a byte copy, or a table copy when the published file has an older storage version)."""
        self.db_dir.mkdir(parents=True, exist_ok=True)
        self.tmp_dir.mkdir(parents=True, exist_ok=True)
        path = self.staging(dataset)
        current = self.current(dataset)
        if copy_current and not path.exists() and current.exists():
            tmp = path.with_name(path.name + ".copy")
            Path(str(tmp) + ".wal").unlink(missing_ok=True)
            tmp.unlink(missing_ok=True)
            if older_storage(self.file_storage(current)):
                self._copy_tables(current, tmp)
            else:
                shutil.copyfile(current, tmp)
            os.replace(tmp, path)  # only a complete copy becomes the staging file
        con = self._connect_new(path)
        con.execute(f"SET memory_limit='{self.memory_limit}'")
        con.execute(f"SET temp_directory='{_q(str(self.tmp_dir))}'")
        con.execute("SET preserve_insertion_order=false")
        con.execute("SET allocator_flush_threshold='4GB'")  # keep freed memory: page faults cost more than RSS
        con.execute(_META_DDL)
        return con

    @staticmethod
    def _connect_new(path: Path) -> Connection:
        return duckdb.connect(str(path), config={"storage_compatibility_version": STORAGE_VERSION})

    def _copy_tables(self, source: Path, dest: Path) -> None:
        """Every table of `source`, rows in order, into a new file `dest` at STORAGE_VERSION (checkpointed)."""
        con = self._connect_new(dest)
        try:
            con.execute(f"SET memory_limit='{_q(self.memory_limit)}'")
            con.execute(f"SET temp_directory='{_q(str(self.tmp_dir))}'")
            con.execute("SET preserve_insertion_order=true")
            con.execute("SET enable_progress_bar=false")
            con.execute(f"ATTACH '{_q(str(source))}' AS _old (READ_ONLY)")
            target = one(con.execute("SELECT current_database()"))[0]
            con.execute(f'COPY FROM DATABASE _old TO "{target}"')
            con.execute("DETACH _old")
            con.execute("CHECKPOINT")
        finally:
            con.close()

    def discard_staging(self, dataset: str) -> None:
        for suffix in ("", ".wal", ".copy", ".copy.wal"):
            p = Path(str(self.staging(dataset)) + suffix)
            p.unlink(missing_ok=True)

    def publish(self, dataset: str, con: Connection) -> Path:
        """Checkpoint and close the staging connection, then swap the file in atomically."""
        con.execute("CHECKPOINT")
        con.close()
        staging, current = self.staging(dataset), self.current(dataset)
        Path(str(staging) + ".wal").unlink(missing_ok=True)
        os.replace(staging, current)
        _fsync_dir(self.db_dir)
        self.write_open_sql()
        return current

    # reading ---------------------------------------------------------------
    def connect(self, required: bool = True) -> Connection:
        """An in-memory connection with every published dataset attached read-only and exposed as views, bounded
        by the memory limit (spilling, if it must, to the data folder's tmp/, never to the current folder)."""
        files = self.require_published() if required else self.published()
        con = duckdb.connect(":memory:")
        con.execute(f"SET memory_limit='{_q(self.memory_limit)}'")
        con.execute(f"SET temp_directory='{_q(str(self.tmp_dir))}'")
        for dataset, path in files.items():
            alias = _alias(dataset)
            con.execute(f"ATTACH '{_q(str(path))}' AS {alias} (READ_ONLY)")
            for (table,) in con.execute(
                "SELECT table_name FROM duckdb_tables() WHERE database_name=? AND NOT starts_with(table_name, '_')",
                [alias],
            ).fetchall():
                con.execute(f'CREATE VIEW "{table}" AS SELECT * FROM {alias}.main."{table}"')
        return con

    def sealed(self) -> Connection:
        """`connect()`, then sealed: no file, network or extension access beyond the attached files, and the
        configuration locked, so that no statement can reattach a file writable or read another one."""
        con = self.connect()
        for setting in (
            "enable_external_access=false",
            "autoinstall_known_extensions=false",
            "autoload_known_extensions=false",
            "lock_configuration=true",
        ):
            con.execute(f"SET {setting}")
        return con

    def open_file(self, path: Path, read_only: bool = True) -> Connection:
        """A connection to one dataset file (published or staging), for its state."""
        return duckdb.connect(str(path), read_only=read_only)

    def write_open_sql(self) -> Path:
        """A script for a user's own duckdb CLI: `duckdb -init <data_dir>/open.sql`."""
        lines = ["-- FDA Explorer Offline mirror: attach every dataset read-only (written by mirror sync)"]
        for dataset, path in self.published().items():
            lines.append(f"ATTACH '{_q(str(path))}' AS {_alias(dataset)} (READ_ONLY);")
        lines.append("-- tables: ds_event.device_event, ds_510k.device_510k, ds_gudid.gudid_device, ...")
        target = self.data_dir / "open.sql"
        tmp = target.with_suffix(".sql.tmp")
        tmp.write_text("\n".join(lines) + "\n")
        os.replace(tmp, target)
        return target


def db_error(e: BaseException, where: Path) -> MirrorError | None:
    """A DuckDB or OS error met while writing `where`, as a MirrorError (None if it is neither)."""
    text = str(e)
    if "No space left" in text or getattr(e, "errno", None) == errno.ENOSPC:
        return DiskFullError(
            f"{where}: disk full; free space in {where.parent} and rerun `mirror sync` "
            "(the previous mirror is untouched)"
        )
    if isinstance(e, duckdb.OutOfMemoryException):
        return MirrorError(
            f"{where}: DuckDB ran out of memory ({first_line(text, 160)}); raise "
            "FDAX_DUCKDB_MEMORY_LIMIT or lower FDAX_CHUNK_MB and rerun (downloads are kept)"
        )
    if isinstance(e, duckdb.Error):
        return MirrorError(
            f"{where}: database error ({first_line(text, 200)}); rerun `mirror sync`, "
            "and if it persists delete this file (the published mirror is untouched)"
        )
    return None


def _alias(dataset: str) -> str:
    return f"ds_{dataset}"


def _q(s: str) -> str:
    return s.replace("'", "''")


def _fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
