"""The weekly refresh against a first sync: a SYNTHETIC re-export with one changed quarter (prints figures; not a test).

Usage (from the repository root):

    .venv/bin/python bench/refresh.py [--scale 0.005] [--workdir DIR] [--json]

1. Builds a SYNTHETIC event download site with bench/synth_mirror.py (`--only event`, realistic text), export A.
2. Writes export B from it: every zip written again with a new `meta.last_updated` and a new manifest export date
   (so every zip's bytes and sha256 change, as openFDA's weekly re-export does), the records the same except one
   record of the last quarter (its event_type changed).
3. Serves both over real HTTP on 127.0.0.1 and runs the real CLI, each in a fresh subprocess (wait4 gives its CPU
   seconds and peak RSS):
   (a) first sync: `mirror sync --manifest A --only event` into an empty folder;
   (b) refresh: `mirror sync --manifest B --only event` into the same folder (keeps the unchanged partitions);
   (c) the old refresh, for reference: `mirror sync --manifest B` into an empty folder (download and load all).
   Then checks that (b) and (c) hold the same rows (record JSON, typed columns, both ways, EXCEPT ALL).
Bytes downloaded are the report's `bytes_fetched`. Each run includes what `mirror sync` does after publishing
(the change records of mirror/surveil, which digest every record of a dataset whose files changed).
"""

from __future__ import annotations

import argparse
import functools
import http.server
import importlib.util
import json
import os
import shutil
import sys
import tempfile
import threading
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NEW_DATE = "2023-08-04"
MIB = 1 << 20


def _load(name: str):
    spec = importlib.util.spec_from_file_location(f"fdax_bench_{name}", Path(__file__).with_name(f"{name}.py"))
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    spec.loader.exec_module(mod)
    return mod


def re_export(src: Path, dst: Path, new_date: str, which: int = -1) -> tuple[str, int]:
    """Export B from export A: every zip rewritten with a new last_updated; one record of one file changed (`which`:
    its index in the manifest, the last by default). Returns the changed file's path and the number of files."""
    man = json.loads((src / "download.json").read_text())
    entry = man["results"]["device"]["event"]
    old_date = man["meta"]["last_updated"]
    changed = entry["partitions"][which]["file"]
    for p in entry["partitions"]:
        rel = p["file"].split("/", 3)[3]
        a, b = src / rel, dst / rel
        b.parent.mkdir(parents=True, exist_ok=True)
        with zipfile.ZipFile(a) as za, zipfile.ZipFile(b, "w", zipfile.ZIP_DEFLATED) as zb:
            member = za.namelist()[0]
            info = zipfile.ZipInfo(member, date_time=(2023, 8, 4, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            with za.open(member) as fi, zb.open(info, "w") as fo:
                head = fi.read(1 << 20)
                head = head.replace(
                    f'"last_updated": "{old_date}"'.encode(), f'"last_updated": "{new_date}"'.encode(), 1
                )
                if p["file"] == changed:
                    for before, after in (
                        (b'"event_type": "Malfunction"', b'"event_type": "Injury"'),
                        (b'"event_type": "Injury"', b'"event_type": "Malfunction"'),
                    ):
                        if before in head:
                            head = head.replace(before, after, 1)
                            break
                fo.write(head)
                shutil.copyfileobj(fi, fo, 4 * MIB)
        p["size_mb"] = "%0.2f" % (b.stat().st_size / MIB)
    entry["export_date"] = new_date
    man["meta"]["last_updated"] = new_date
    (dst / "download.json").write_text(json.dumps(man, indent=2) + "\n")
    return changed, len(entry["partitions"])


def serve(root: Path) -> tuple[http.server.ThreadingHTTPServer, str]:
    handler = functools.partial(_Quiet, directory=str(root))
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    return srv, f"http://127.0.0.1:{srv.server_address[1]}"


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *a) -> None:
        pass


def local_manifest(site: Path, url: str) -> str:
    """download.json with the partition URLs on the local server (what an internal mirror serves)."""
    man = json.loads((site / "download.json").read_text())
    for p in man["results"]["device"]["event"]["partitions"]:
        p["file"] = p["file"].replace("https://download.open.fda.gov", url)
    (site / "download.local.json").write_text(json.dumps(man))
    return f"{url}/download.local.json"


def run_sync(st, manifest: str, data: Path, log: Path, code: Path | None = None) -> dict:
    env = dict(os.environ, FDAX_OFFLINE="1")
    if code is not None:  # the `mirror` package of another tree (e.g. an older commit's, `git archive`d)
        env["PYTHONPATH"] = str(code)
    m = st.run_measured(
        [
            sys.executable,
            *(["-P"] if code is not None else []),  # not the current folder's `mirror` first on the path
            "-m",
            "mirror",
            "sync",
            "--manifest",
            manifest,
            "--only",
            "event",
            "--data-dir",
            str(data),
            "--quiet",
            "--json",
        ],
        log,
        env=env,
    )
    rep = json.loads(m["stdout"])
    ev = rep["datasets"]["event"]
    if ev["status"] != "updated":
        raise SystemExit(f"{log.name}: event {ev['status']}: {ev['error']}")
    return {
        "seconds": round(m["seconds"], 1),
        "cpu_seconds": round(m["cpu_seconds"], 1),
        "peak_rss_mb": round(m["peak_rss_mb"]),
        "bytes_downloaded": ev["bytes_fetched"],
        "files": ev["files_to_fetch"],
        "files_kept": ev["files_unchanged"],
        "records": ev["records"],
        "other_load_cores": m["other_load_cores"],
    }


def same_rows(a: Path, b: Path) -> bool:
    import duckdb

    con = duckdb.connect()
    con.execute(f"ATTACH '{a / 'db' / 'device_event.duckdb'}' AS a (READ_ONLY)")
    con.execute(f"ATTACH '{b / 'db' / 'device_event.duckdb'}' AS b (READ_ONLY)")
    for t in ("device_event", "device_event_device", "device_event_text", "device_event_patient"):
        cast = "* REPLACE (record::VARCHAR AS record)" if t == "device_event" else "*"
        for x, y in (("a", "b"), ("b", "a")):
            (n,) = con.execute(
                f"SELECT count(*) FROM (SELECT {cast} FROM {x}.main.{t} EXCEPT ALL SELECT {cast} FROM {y}.main.{t})"
            ).fetchone()
            if n:
                return False
    return True


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--scale", type=float, default=0.005, help="synth_mirror scale of the event site (0.005)")
    ap.add_argument("--workdir", type=Path, help="work folder (default: a new temporary one, removed after)")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    ap.add_argument("--code", type=Path, help="run the `mirror` package found in this folder (default: this checkout)")
    ap.add_argument("--change", type=int, default=-1, help="index of the file export B changes (default -1: the last)")
    ap.add_argument("--reuse-sites", action="store_true", help="with --workdir: keep the sites A and B already there")
    args = ap.parse_args(argv)
    sm, st = _load("synth_mirror"), _load("sync_throughput")
    work = Path(args.workdir or tempfile.mkdtemp(prefix="fdax-refresh-")).resolve()
    try:
        print(f"SYNTHETIC refresh benchmark in {work}", file=sys.stderr, flush=True)
        if not (args.reuse_sites and (work / "B" / "download.json").exists()):
            sm.build(work / "A", args.scale, ["event"], workers=2, say=lambda *a: print(*a, file=sys.stderr))
            changed, files = re_export(work / "A", work / "B", NEW_DATE, args.change)
        else:
            parts = json.loads((work / "B" / "download.json").read_text())["results"]["device"]["event"]["partitions"]
            changed, files = parts[args.change]["file"], len(parts)
        for old in ("data", "fresh"):
            shutil.rmtree(work / old, ignore_errors=True)
        srv_a, url_a = serve(work / "A")
        srv_b, url_b = serve(work / "B")
        man_a, man_b = local_manifest(work / "A", url_a), local_manifest(work / "B", url_b)
        (work / "logs").mkdir(exist_ok=True)
        runs = {
            "first sync": run_sync(st, man_a, work / "data", work / "logs" / "first", args.code),
            "refresh": run_sync(st, man_b, work / "data", work / "logs" / "refresh", args.code),
            "full re-sync (old refresh)": run_sync(st, man_b, work / "fresh", work / "logs" / "full", args.code),
        }
        equal = same_rows(work / "data", work / "fresh")
        srv_a.shutdown()
        srv_b.shutdown()
        out = {
            "synthetic": True,
            "scale": args.scale,
            "files": files,
            "changed_file": changed,
            "runs": runs,
            "refresh_equals_full_sync": equal,
            "cores": len(os.sched_getaffinity(0)),
        }
        if args.json:
            print(json.dumps(out, indent=1))
        else:
            print(
                f"SYNTHETIC event site, scale {args.scale:g}: {files} files, "
                f"{runs['first sync']['records']:,} records; export B changes one record in {changed}"
            )
            print(f"{'run':<28} {'MiB down':>9} {'kept':>5} {'seconds':>8} {'CPU s':>7} {'peak RSS':>9}")
            for name, r in runs.items():
                print(
                    f"{name:<28} {r['bytes_downloaded'] / MIB:>9,.1f} {r['files_kept']:>5} {r['seconds']:>8.1f} "
                    f"{r['cpu_seconds']:>7.1f} {r['peak_rss_mb']:>8,} M"
                )
            first, ref = runs["first sync"], runs["refresh"]
            print(
                f"refresh / first sync: {ref['seconds'] / first['seconds']:.2f} of the seconds, "
                f"{ref['cpu_seconds'] / first['cpu_seconds']:.2f} of the CPU seconds; "
                f"refreshed data equals a full sync of B: {equal}"
            )
        return 0 if equal else 1
    finally:
        if args.workdir is None:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
