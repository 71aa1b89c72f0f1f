"""SYNTHETIC test data: event-shaped bulk zips made by copying the real sample event records with new keys."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import orjson

from mirror.sync import SAMPLE_DIR

DL = "https://download.open.fda.gov"


def real_event_records() -> list[dict]:
    man = orjson.loads((SAMPLE_DIR / "download.json").read_bytes())
    out = []
    for p in man["results"]["device"]["event"]["partitions"]:
        path = SAMPLE_DIR / p["file"].removeprefix(DL + "/")
        with zipfile.ZipFile(path) as zf:
            out += orjson.loads(zf.read(zf.namelist()[0]))["results"]
    return out


def write_event_site(
    root: Path,
    quarters: list[str],
    per_file: int,
    export_date: str = "2025-01-01",
    extra: dict | None = None,
    revised: bool = True,
    changed: tuple[str, ...] = (),
) -> dict:
    """A download site with one synthetic event file per quarter; returns the manifest written.

    `revised`: every record's `report_date` is the export date, so two exports differ in every record (a sync of
    the second loads every file again); else the records are the same whatever the export date (a re-export that
    `mirror sync` keeps without loading), except in the `changed` quarters (a record revised there)."""
    base = real_event_records()
    parts, n = [], 0
    for q in quarters:
        recs = []
        for i in range(per_file):
            r = dict(base[(n + i) % len(base)])
            r["mdr_report_key"] = str(90_000_000 + n + i)
            r["date_received"] = f"{q[:4]}{(int(q[-1]) - 1) * 3 + 1:02d}15"
            if revised:
                r["report_date"] = export_date.replace("-", "")
            elif q in changed and i == 0:
                r["report_date"] = export_date.replace("-", "")
            r.update(extra or {})
            recs.append(r)
        n += per_file
        name = "device-event-0001-of-0001.json"
        path = root / "device" / "event" / q / (name + ".zip")
        path.parent.mkdir(parents=True, exist_ok=True)
        doc = {
            "meta": {
                "last_updated": export_date,
                "_synthetic": "test copies of real records",
                "results": {"skip": 0, "limit": len(recs), "total": len(recs)},
            },
            "results": recs,
        }
        with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
            zf.writestr(name, json.dumps(doc, indent=2) + "\n")
        parts.append(
            {
                "display_name": f"{q} (all)",
                "file": f"{DL}/device/event/{q}/{name}.zip",
                "size_mb": "%0.2f" % (path.stat().st_size / 1048576),
                "records": len(recs),
            }
        )
    manifest = {
        "meta": {"last_updated": export_date, "_synthetic": "test manifest"},
        "results": {
            "device": {
                "event": {
                    "export_date": export_date,
                    "total_records": sum(p["records"] for p in parts),
                    "partitions": parts,
                }
            }
        },
    }
    (root / "download.json").write_bytes(orjson.dumps(manifest, option=orjson.OPT_INDENT_2))
    return manifest
