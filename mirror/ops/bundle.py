"""`mirror export DIR`: an air-gap bundle of the downloaded files, laid out like the download site.

Crash-safe for removable media: bundle.json goes first (present only when the bundle is complete), every file is
copied to `.part`, fsynced and renamed, download.json marks the folder as an export (`meta._bundle_note`), and
bundle.json is written last (tmp, fsync, rename, fsync of the folder). A sync refuses a marked folder without it.
"""

from __future__ import annotations

import os
import shutil
from datetime import datetime, timezone
from pathlib import Path

import orjson

from ..errors import BundleError, MirrorMissingError
from ..store.files import Store
from ..store.paths import contained
from ..store.state import dataset_state
from ..sync.bundlefile import FORMAT, NOTE_KEY
from ..sync.plan import ENDPOINTS

__all__ = ["export", "NOTICE"]

NOTICE = """FDA Explorer Offline: data bundle

openFDA data (device endpoints: event, recall, enforcement, 510k, pma, classification, udi,
registrationlisting, covid19serology) comes from the U.S. Food and Drug Administration through
openFDA (https://open.fda.gov/). openFDA data is in the public domain and offered under CC0 1.0;
see https://open.fda.gov/license/. Do not rely on openFDA to make decisions regarding medical care.

AccessGUDID data comes from the FDA Global Unique Device Identification Database, distributed by the
U.S. National Library of Medicine (https://accessgudid.nlm.nih.gov/). GMDN term names and definitions
in UDI/GUDID data are licensed from the GMDN Agency (https://www.gmdnagency.org/) and are subject to
its terms of use.
"""


def _copy(src: Path, dest: Path) -> None:
    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = dest.with_name(dest.name + ".part")
    shutil.copyfile(src, tmp)
    _fsync(tmp)
    os.replace(tmp, dest)
    _fsync(dest.parent)


def _write(dest: Path, data: bytes) -> None:
    """Write a file atomically and durably: tmp, fsync, rename, fsync the folder."""
    tmp = dest.with_name(dest.name + ".tmp")
    tmp.write_bytes(data)
    _fsync(tmp)
    os.replace(tmp, dest)
    _fsync(dest.parent)


def _fsync(path: Path) -> None:
    """Flush a file or a folder to the device (folders cannot be opened on Windows: skipped there)."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except (IsADirectoryError, PermissionError):
        return
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _rows(store: Store, dataset: str) -> tuple[str, list[dict]]:
    st = dataset_state(store, store.current(dataset))
    if st is None or not st.complete:
        raise MirrorMissingError(
            f"{store.current(dataset)}: dataset {dataset} is not mirrored; run `mirror sync --only {dataset}` first"
        )
    return st.export_date, st.rows


def _source_file(store: Store, dataset: str, row: dict) -> Path:
    rel = row["partition"] if dataset == "gudid" else f"{row['export_date']}/{row['partition']}"
    return contained(store.data_dir / "downloads", rel, f"{dataset} partition {row['partition']}", BundleError)


def export(store: Store, dest: Path, only: list[str] | None = None) -> dict:
    """Copy the files behind every published dataset (or `only` those) into `dest` with bundle.json."""
    published = store.require_published()
    names = [n for n in (only or [*ENDPOINTS, "gudid"]) if n in published]
    dest = Path(dest).expanduser()
    dest.mkdir(parents=True, exist_ok=True)
    (dest / "bundle.json").unlink(missing_ok=True)  # present only when the bundle is complete
    _fsync(dest)
    files, device = [], {}
    for name in names:
        export_date, rows = _rows(store, name)
        for row in rows:
            src = _source_file(store, name, row)
            if not src.is_file():
                raise BundleError(
                    f"{src}: the downloaded file was not kept; run `mirror sync --only {name}` "
                    "with FDAX_KEEP_DOWNLOADS=true, then export again"
                )
            _copy(src, contained(dest, row["partition"], f"{name} partition {row['partition']}", BundleError))
            files.append(
                {
                    "path": row["partition"],
                    "endpoint": name,
                    "export_date": row["export_date"],
                    "records": row["records"],
                    "bytes": row["bytes"],
                    "sha256": row["sha256"],
                }
            )
        if name != "gudid":
            device[name] = {
                "export_date": export_date,
                "total_records": sum(r["records"] for r in rows),
                "partitions": [
                    {
                        "display_name": r["partition"],
                        "file": r["url"],
                        "size_mb": "%0.2f" % (r["bytes"] / 1048576),
                        "records": r["records"],
                    }
                    for r in rows
                ],
            }
    now = datetime.now(timezone.utc).isoformat(timespec="seconds")
    manifest = {
        "meta": {
            "last_updated": max((d["export_date"] for d in device.values()), default=""),
            NOTE_KEY: f"FDA Explorer Offline bundle exported {now}",
        },
        "results": {"device": device},
    }
    _write(dest / "download.json", orjson.dumps(manifest, option=orjson.OPT_INDENT_2))
    _write(dest / "NOTICE", NOTICE.encode())
    bundle = {"format": FORMAT, "exported_at": now, "files": files}
    _write(dest / "bundle.json", orjson.dumps(bundle, option=orjson.OPT_INDENT_2))  # last: the bundle is complete
    return {"dir": str(dest), "files": len(files), "bytes": sum(f["bytes"] for f in files), "datasets": names}
