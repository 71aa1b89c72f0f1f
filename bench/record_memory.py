"""Peak memory and time of `mirror sync` on one huge record and on a zip bomb: this checkout against an older commit.

SYNTHETIC data: event bulk zips in openFDA's layout (json.dumps indent=2) built from the real sample event
records, plus either one record whose narrative is N MB of "x" (its key 99999999), or N MB of copies of the
sample records under a manifest that says 5 records (a zip bomb: a few MB unzip to N MB).

Each case runs `python -m mirror sync --from SITE --only event` in a fresh subprocess, once with the `mirror`
package of OLD (default e9080b7, extracted with `git archive`) and once with this checkout's; peak RSS and
CPU come from os.wait4 on that child. Printed side by side: seconds, peak RSS, exit code, whether the
download was kept, and the error line.

    .venv/bin/python bench/record_memory.py                        # 20 MB and 256 MB records, 512 MB bomb
    .venv/bin/python bench/record_memory.py --record-mb 1024       # the review's 1 GB record (old: ~40 s, 3 GB)
    .venv/bin/python bench/record_memory.py --only new              # skip the old commit
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from mirror import SAMPLE_DIR  # noqa: E402
from mirror.schema.openfda import DOWNLOAD_SITE as DL  # noqa: E402

MEMBER = "device-event-0001-of-0001.json"


def sample_events() -> list[dict]:
    man = json.loads((SAMPLE_DIR / "download.json").read_text())
    out = []
    for p in man["results"]["device"]["event"]["partitions"]:
        with zipfile.ZipFile(SAMPLE_DIR / p["file"].removeprefix(DL + "/")) as zf:
            out += json.loads(zf.read(zf.namelist()[0]))["results"]
    return out


def write_site(root: Path, records: int, write_results) -> None:
    """A download site with one event partition whose results array `write_results(out)` writes."""
    path = root / "device" / "event" / "2020q1" / (MEMBER + ".zip")
    path.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf, zf.open(MEMBER, "w", force_zip64=True) as out:
        out.write(b'{\n  "meta": {\n    "_synthetic": "bench/record_memory.py"\n  },\n  "results": [')
        write_results(out)
        out.write(b"\n  ]\n}\n")
    part = {
        "display_name": "2020 Q1 (synthetic)",
        "file": f"{DL}/device/event/2020q1/{MEMBER}.zip",
        "size_mb": "%0.2f" % (path.stat().st_size / 1048576),
        "records": records,
    }
    manifest = {
        "meta": {"last_updated": "2026-01-01", "_synthetic": "bench"},
        "results": {"device": {"event": {"export_date": "2026-01-01", "total_records": records, "partitions": [part]}}},
    }
    (root / "download.json").write_text(json.dumps(manifest, indent=2))


def _record(rec: dict) -> bytes:
    return ("\n    " + json.dumps(rec, indent=2).replace("\n", "\n    ")).encode()


def huge_record_site(root: Path, mb: int) -> None:
    base = sample_events()

    def results(out) -> None:
        for rec in base:
            out.write(_record(rec) + b",")
        big = dict(base[0], mdr_report_key="99999999")
        head, tail = _record(dict(big, mdr_text=[{"text": "@"}])).split(b'"@"')
        out.write(head + b'"')
        block = b"x" * (1 << 20)
        for _ in range(mb):
            out.write(block)
        out.write(b'"' + tail)

    write_site(root, len(base) + 1, results)


def bomb_site(root: Path, mb: int) -> None:
    base = sample_events()

    def results(out) -> None:
        written, i, sep = 0, 0, b""
        while written < mb << 20:
            rec = sep + _record(dict(base[i % len(base)], mdr_report_key=str(90_000_000 + i)))
            out.write(rec)
            written, i, sep = written + len(rec), i + 1, b","

    write_site(root, 5, results)


def measure(src: Path, site: Path, data: Path) -> dict:
    """One fresh child per measurement, so ru_maxrss is its own peak (RUSAGE_CHILDREN keeps the maximum)."""
    code = (
        "import json, resource, subprocess, sys, time, os\n"
        "t = time.monotonic(); p = subprocess.run(sys.argv[1:], capture_output=True, env=dict(os.environ))\n"
        "u = resource.getrusage(resource.RUSAGE_CHILDREN)\n"
        "print(json.dumps({'seconds': round(time.monotonic() - t, 1), 'rss_mb': round(u.ru_maxrss / 1024),"
        " 'rc': p.returncode, 'err': p.stderr.decode(errors='replace')}))\n"
    )
    cmd = [
        sys.executable,
        "-c",
        code,
        sys.executable,
        "-m",
        "mirror",
        "sync",
        "--from",
        str(site),
        "--only",
        "event",
        "--data-dir",
        str(data),
        "--quiet",
    ]
    r = json.loads(
        subprocess.run(
            cmd, capture_output=True, env=dict(os.environ, PYTHONPATH=str(src)), cwd=str(src), check=True
        ).stdout
    )
    lines = [ln for ln in r.pop("err").splitlines() if ln.strip()]
    r["kept"] = any((data / "downloads").rglob(MEMBER + ".zip")) if (data / "downloads").exists() else False
    r["error"] = (lines[-1] if lines else "").replace(str(data), "DATA")[:400]
    return r


def old_source(commit: str, work: Path) -> Path:
    dest = work / f"old-{commit}"
    dest.mkdir()
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", commit, "mirror"], capture_output=True, check=True)
    subprocess.run(["tar", "-x", "-C", str(dest)], input=archive.stdout, check=True)
    return dest


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--record-mb", type=int, nargs="*", default=[20, 256], help="sizes of the one huge record")
    ap.add_argument("--bomb-mb", type=int, nargs="*", default=[512], help="unzipped MB of small records (manifest: 5)")
    ap.add_argument("--old", default="e9080b7", help="the commit to compare with")
    ap.add_argument("--only", choices=["old", "new"], help="run one side only")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="record-memory-") as tmp:
        work = Path(tmp)
        sides = {}
        if args.only != "new":
            sides["old " + args.old] = old_source(args.old, work)
        if args.only != "old":
            sides["new"] = ROOT
        cases = [(f"one record of {mb} MB", huge_record_site, mb) for mb in args.record_mb]
        cases += [(f"bomb: {mb} MB of small records, manifest 5", bomb_site, mb) for mb in args.bomb_mb]
        print(f"{'case':44} {'side':12} {'s':>6} {'peak RSS':>9} {'rc':>3} {'kept':>5}  error")
        for label, make, mb in cases:
            site = work / f"site-{make.__name__}-{mb}"
            make(site, mb)
            zip_mb = (site / "device/event/2020q1" / (MEMBER + ".zip")).stat().st_size / 1048576
            for side, src in sides.items():
                r = measure(src, site, work / f"data-{side.split()[0]}-{make.__name__}-{mb}")
                print(
                    f"{label:44} {side:12} {r['seconds']:6.1f} {r['rss_mb']:6d} MB {r['rc']:3d} "
                    f"{'yes' if r['kept'] else 'no':>5}  {r['error']}",
                    flush=True,
                )
            print(f"{'':44} (zip {zip_mb:.2f} MB)")


if __name__ == "__main__":
    main()
