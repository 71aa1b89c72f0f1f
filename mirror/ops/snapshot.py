"""Seeding an empty data folder from a carried mirror snapshot: a mirror's DuckDB files, a bundle or a source folder.

An installer carries a snapshot so that its app has data on first run without any network. Three kinds:
  mirror   a data folder of a mirror (`db/*.duckdb`): its published files are copied (`.part`, then renamed)
  bundle   a folder written by `mirror export` (`bundle.json`): synced through `mirror sync --from`, which
           verifies every checksum first
  source   a folder laid out like the download site (`download.json`), such as the shipped sample: synced
A folder is seeded only when it holds no mirror: no published or staging DuckDB file and no download (an
interrupted first sync is resumed by the next sync, never overwritten). What was seeded is recorded in
`DATA_DIR/snapshot.json`: `"status": "seeding"` before the first byte, `"done"` at the end, so a seed that was
interrupted (the app killed halfway) is finished by the next `seed()` instead of leaving a partial mirror.
"""

from __future__ import annotations

import json
import os
import shutil
from datetime import datetime, timezone
from pathlib import Path

from ..errors import LockedError, MirrorError
from ..settings import Settings
from ..store.files import Store
from ..sync.run import SyncOptions, sync

__all__ = ["SnapshotError", "snapshot_kind", "is_empty", "seed", "unfinished", "NOTE"]

NOTE = "snapshot.json"


class SnapshotError(MirrorError):
    """A carried snapshot is not a mirror, bundle or source folder, or could not be loaded."""


def snapshot_kind(path: Path) -> str:
    """ "mirror", "bundle" or "source" for a snapshot folder; SnapshotError for anything else."""
    path = Path(path)
    if Store(path).published():
        return "mirror"
    if (path / "bundle.json").is_file():
        return "bundle"
    if (path / "download.json").is_file():
        return "source"
    raise SnapshotError(
        f"{path}: not a mirror snapshot: expected a mirror's data folder (db/*.duckdb), "
        "a bundle written by `mirror export` (bundle.json) or a download-site copy (download.json)"
    )


def is_empty(data_dir: Path) -> bool:
    """True when the folder holds no mirror: no DuckDB file (published or staging) and no download."""
    data_dir = Path(data_dir)
    db, downloads = data_dir / "db", data_dir / "downloads"
    if db.is_dir() and any(db.glob("*.duckdb")):
        return False
    return not (downloads.is_dir() and any(p.is_file() for p in downloads.rglob("*")))


def seed(settings: Settings, snapshot: Path) -> dict | None:
    """Fill `settings.data_dir` from `snapshot` when it holds no mirror; returns the note written, else None.

    Another process seeding or syncing the same folder at the same time wins: this call then returns None.
    """
    snapshot, data_dir = Path(snapshot), Path(settings.data_dir)
    resume = unfinished(data_dir)
    if resume is None and not is_empty(data_dir):
        return None
    kind = snapshot_kind(snapshot)
    data_dir.mkdir(parents=True, exist_ok=True)
    mine = {"snapshot": str(snapshot), "kind": kind, "status": "seeding", "started_at": _now(), "pid": os.getpid()}
    _write_json(data_dir / NOTE, mine)
    try:
        datasets = (
            _copy_mirror(Store(data_dir), snapshot, resume is not None)
            if kind == "mirror"
            else _sync(settings, snapshot)
        )
    except LockedError:
        return None
    except BaseException:
        if is_empty(data_dir):  # nothing written (a bad bundle): the folder is as it was
            (data_dir / NOTE).unlink(missing_ok=True)
        raise
    if datasets is None:  # another process filled the folder meanwhile: not ours to note
        if unfinished(data_dir) == mine:
            (data_dir / NOTE).unlink(missing_ok=True)
        return None
    note = {"snapshot": str(snapshot), "kind": kind, "status": "done", "datasets": datasets, "seeded_at": _now()}
    _write_json(data_dir / NOTE, note)
    return note


def unfinished(data_dir: Path) -> dict | None:
    """The note of a seed that started and did not finish (the process was killed), else None."""
    try:
        note = json.loads((Path(data_dir) / NOTE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return note if isinstance(note, dict) and note.get("status") == "seeding" else None


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def _copy_mirror(store: Store, snapshot: Path, resume: bool = False) -> list[str] | None:
    """Copy the snapshot's published DuckDB files under the sync lock (None if the folder filled meanwhile);
    `resume`: an interrupted copy, whose files are all copied again."""
    with store.sync_lock():
        if not resume and not is_empty(store.data_dir):
            return None
        store.db_dir.mkdir(parents=True, exist_ok=True)
        files = Store(snapshot).published()
        for path in files.values():
            part = store.db_dir / (path.name + ".part")
            shutil.copyfile(path, part)
            os.replace(part, store.db_dir / path.name)
        store.write_open_sql()
    return sorted(files)


def _sync(settings: Settings, snapshot: Path) -> list[str]:
    report = sync(settings, SyncOptions(source_dir=snapshot, quiet=True))
    if not report.ok:
        raise SnapshotError(
            f"{snapshot}: the carried snapshot did not load: {'; '.join(map(str, report.errors))}; "
            f"run `mirror sync --from {snapshot}` to see why"
        )
    return sorted(report.datasets)


def _write_json(path: Path, doc: dict) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(doc, indent=2) + "\n", encoding="utf-8")
    os.replace(tmp, path)
