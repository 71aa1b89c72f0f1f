"""Sync throughput benchmark: `mirror sync` against the DuckDB limit and a naive loader (prints figures; not a test).

Usage (from the repository root):

    .venv/bin/python bench/sync_throughput.py [--size-mb 1024] [--workdir DIR] [--keep] [--json]

1. Generates SYNTHETIC event-shaped openFDA bulk zips from the real fixture event records
   (tests/data/fixtures/openfda/event/*.json, minus the *.http.json files): each record is a copy of a real
   one with a unique mdr_report_key / report_number, a date_received spread over 2020 Q1 and the device's
   brand / product code (with its generic name and openfda block) taken from another real record. Files are
   partitioned like openFDA (up to 95,000 records or ~300 MiB of JSON each, at least 2), hold one member
   `device-event-NNNN-of-MMMM.json` written byte for byte like `json.dumps({"meta", "results"}, indent=2) + "\\n"`
   (streamed, checked against json.dumps on a small case), and are laid out as a download site folder with
   a download.json in the real manifest shape.
2. Measures, each in a fresh subprocess (peak RSS from os.wait4 on that child):
   (a) `mirror sync --from SITE --only event --data-dir FRESH --quiet` (the real CLI);
   (b) the limit: the same records as one NDJSON file (prepared untimed) loaded with
       `CREATE TABLE t AS SELECT * FROM read_ndjson(path, columns={...})` into a fresh DuckDB file;
   (c) a naive loader: json.load of each zip member, then executemany of
       (mdr_report_key, date_received, json.dumps(record)) into a DuckDB table.
   and prints seconds, MiB/s of uncompressed JSON, records/s, peak RSS, the throughput ratios and the goals
   (a >= 0.5 b, a >= 10 c, peak RSS of a < 2 GiB).

MB in the output are MiB (2**20 bytes). With --json the report goes to stderr and a JSON document to stdout.
"""

from __future__ import annotations

import argparse
import io
import json
import math
import os
import platform
import random
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from concurrent.futures import ProcessPoolExecutor
from datetime import date, timedelta
from pathlib import Path

from mirror.schema.openfda import DISCLAIMER, LICENSE, TERMS
from mirror.schema.openfda import DOWNLOAD_SITE as DL

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "data" / "fixtures" / "openfda" / "event"
MIB = 1 << 20
MAX_RECORDS = 95_000  # openFDA's event partitions hold up to ~95k records ...
MAX_BYTES = 300 * MIB  # ... or ~300 MB of JSON, whichever comes first
QUARTER = "2020q1"
Q_START, Q_DAYS = date(2020, 1, 1), 91
EXPORT_DATE = "2020-04-01"
KEY_BASE = 20_000_000  # synthetic mdr_report_key = KEY_BASE + file_no * 1_000_000 + n
MARKER = ".fdax-sync-bench"
GOAL_VS_LIMIT, GOAL_VS_NAIVE, GOAL_RSS_MIB = 0.5, 10.0, 2048

OUT = sys.stdout  # the human-readable report (stderr under --json)


def synth_text():
    """bench/synth_text.py (calibrated new text), loaded by path: the benchmarks are scripts, not a package."""
    import importlib.util

    name = "fdax_bench_synth_text"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, Path(__file__).with_name("synth_text.py"))
        assert spec and spec.loader
        mod = importlib.util.module_from_spec(spec)
        sys.modules[name] = mod
        spec.loader.exec_module(mod)
    return sys.modules[name]


def say(*a) -> None:
    print(*a, file=OUT, flush=True)


NOVEL = synth_text().CALIBRATION["throughput_novel"]  # share of narratives written anew (bench/synth_text.py)


# ---------------------------------------------------------------------------------------------- fixtures


def fixture_records() -> list[dict]:
    recs = []
    for f in sorted(FIXTURES.glob("*.json")):
        if f.name.endswith(".http.json"):
            continue
        recs.extend(json.loads(f.read_text())["results"])
    if not recs:
        raise SystemExit(f"{FIXTURES}: no event fixture records found")
    return recs


def top_level_columns(records: list[dict]) -> dict[str, str]:
    """Every top-level key of the records (first-seen order): JSON for arrays/objects, VARCHAR for scalars."""
    cols: dict[str, str] = {}
    for r in records:
        for k, v in r.items():
            if isinstance(v, (list, dict)):
                cols[k] = "JSON"
            else:
                cols.setdefault(k, "VARCHAR")
    return cols


def device_pool(records: list[dict]) -> list[dict]:
    """The real (brand, product code, generic name, openfda) combinations of the fixture devices."""
    pool, seen = [], set()
    for r in records:
        for d in r.get("device") or []:
            key = (d.get("brand_name"), d.get("device_report_product_code"))
            if key not in seen:
                seen.add(key)
                pool.append(
                    {k: d[k] for k in ("brand_name", "device_report_product_code", "generic_name", "openfda") if k in d}
                )
    return pool


def make_record(tpl: dict, key: int, rng: random.Random, devices: list[dict], babble=None) -> dict:
    """A copy of a real record with a unique key / report number, a 2020 Q1 date, another real device and (with
    `babble`, bench/synth_text.py) new narratives of the same length, so the text compresses like real MAUDE."""
    rec = dict(tpl)  # top-level key order kept
    day = (Q_START + timedelta(days=rng.randrange(Q_DAYS))).strftime("%Y%m%d")
    rec["mdr_report_key"] = str(key)
    prefix = str(tpl.get("report_number") or "9999999").split("-")[0]
    rec["report_number"] = f"{prefix}-2020-{key:08d}"
    rec["date_received"] = day
    dev = rng.choice(devices)
    rec["device"] = [dict(d) for d in tpl.get("device") or []]
    for d in rec["device"]:
        if "date_received" in d:
            d["date_received"] = day
    if rec["device"]:
        rec["device"][0].update(dev)
    if "patient" in tpl:
        rec["patient"] = [dict(p) for p in tpl["patient"]]
        for p in rec["patient"]:
            if "date_received" in p:
                p["date_received"] = day
    if tpl.get("mdr_text") and babble is not None:  # new narratives of the same length (calibrated share)
        rec["mdr_text"] = [
            dict(t, text=babble.exactly(rng, len(t["text"]), t["text"].isupper()))
            if t.get("text") and rng.random() < NOVEL
            else t
            for t in tpl["mdr_text"]
        ]
    return rec


def bulk_meta(n_records: int) -> dict:
    return {
        "disclaimer": DISCLAIMER,
        "terms": TERMS,
        "license": LICENSE,
        "last_updated": EXPORT_DATE,
        "results": {"skip": 0, "limit": n_records, "total": n_records},
        "_synthetic": "bench",
    }


# ------------------------------------------------------------------- streamed openFDA-style JSON writer


def json_head(meta: dict) -> str:
    return '{\n  "meta": ' + json.dumps(meta, indent=2).replace("\n", "\n  ") + ',\n  "results": [\n'


JSON_TAIL = "\n  ]\n}\n"


def json_record(rec: dict) -> str:
    """One element of `results` exactly as json.dumps(wrapper, indent=2) lays it out (indented by 4)."""
    return "    " + json.dumps(rec, indent=2).replace("\n", "\n    ")  # raw newlines never occur in JSON strings


def stream_json(out, meta: dict, records, flush_bytes: int = 4 * MIB) -> int:
    """Write {"meta", "results"} exactly like json.dumps(indent=2) + "\\n", record by record, in blocks of
    about `flush_bytes` (memory stays bounded whatever the size); return the bytes written."""
    buf, pending, written = [json_head(meta)], 0, 0
    for j, rec in enumerate(records):
        s = json_record(rec) if j == 0 else ",\n" + json_record(rec)
        buf.append(s)
        pending += len(s)
        if pending > flush_bytes:
            written += out.write("".join(buf).encode())
            buf, pending = [], 0
    buf.append(JSON_TAIL)
    return written + out.write("".join(buf).encode())


def check_format(templates: list[dict], devices: list[dict]) -> None:
    rng = random.Random(1)
    recs = [make_record(templates[i % len(templates)], KEY_BASE + i, rng, devices) for i in range(len(templates) + 2)]
    meta = bulk_meta(len(recs))
    want = (json.dumps({"meta": meta, "results": recs}, indent=2) + "\n").encode()
    for flush in (1, 10_000, 4 * MIB):  # every record its own block, a few blocks, one block
        buf = io.BytesIO()
        n = stream_json(buf, meta, iter(recs), flush)
        if buf.getvalue() != want or n != len(want):
            raise SystemExit("format check FAILED: the streamed writer differs from json.dumps(indent=2)")


# --------------------------------------------------------------------------------------------- generation


def member_name(i: int, n: int) -> str:
    return f"device-event-{i:04d}-of-{n:04d}.json"


def gen_file(site: str, ndjson_part: str, i: int, n_files: int, target: int, seed: int) -> dict:
    """Write partition i (1-based) of n: its zip and its NDJSON twin; stop at `target` JSON bytes or MAX_RECORDS."""
    templates = fixture_records()
    devices = device_pool(templates)
    tx = synth_text()
    babble = tx.Babble(tx.real_texts())
    rng = random.Random(seed * 1000 + i)
    rel = f"device/event/{QUARTER}/{member_name(i, n_files)}.zip"
    zpath = Path(site) / rel
    zpath.parent.mkdir(parents=True, exist_ok=True)
    # records are decided before writing so meta can carry the count (as openFDA's does): pick templates
    # until the target size is reached, measuring each serialized record once.
    head_len = len(json_head(bulk_meta(MAX_RECORDS)).encode()) + len(JSON_TAIL)
    order, size = [], head_len
    while size < target and len(order) < MAX_RECORDS:
        t = rng.randrange(len(templates))
        order.append(t)
        size += TEMPLATE_BYTES[t] + 2
    n = len(order)
    with (
        zipfile.ZipFile(zpath, "w", zipfile.ZIP_DEFLATED) as zf,
        zf.open(member_name(i, n_files), "w", force_zip64=True) as member,
        open(ndjson_part, "w", encoding="utf-8") as nd,
    ):

        def records():
            for j, t in enumerate(order):
                rec = make_record(templates[t], KEY_BASE + i * 1_000_000 + j, rng, devices, babble)
                nd.write(json.dumps(rec) + "\n")  # the same record, one line, for (b)
                yield rec

        written = stream_json(member, bulk_meta(n), records())
    return {"i": i, "rel": rel, "records": n, "json_bytes": written, "zip_bytes": zpath.stat().st_size}


def _template_bytes() -> list[int]:
    return [len(json_record(r).encode()) for r in fixture_records()]


TEMPLATE_BYTES = _template_bytes()


def generate(work: Path, size_mb: float, seed: int, workers: int) -> dict:
    site, ndjson = work / "site", work / "ndjson" / "event.ndjson"
    shutil.rmtree(site, ignore_errors=True)
    shutil.rmtree(ndjson.parent, ignore_errors=True)
    site.mkdir(parents=True)
    ndjson.parent.mkdir(parents=True)
    target = int(size_mb * MIB)
    avg = sum(TEMPLATE_BYTES) / len(TEMPLATE_BYTES) + 2
    n_files = max(2, math.ceil(target / MAX_BYTES), math.ceil(target / avg / MAX_RECORDS))
    per_file = math.ceil(target / n_files)
    parts = [str(ndjson.parent / f"part-{i:04d}.ndjson") for i in range(1, n_files + 1)]
    with ProcessPoolExecutor(workers) as pool:
        futs = [
            pool.submit(gen_file, str(site), parts[i - 1], i, n_files, per_file, seed) for i in range(1, n_files + 1)
        ]
        files = [f.result() for f in futs]
    with open(ndjson, "wb") as out:  # one NDJSON file, partitions in order
        for p in parts:
            with open(p, "rb") as f:
                shutil.copyfileobj(f, out, 16 * MIB)
            os.unlink(p)
    manifest = {
        "meta": {
            "disclaimer": DISCLAIMER,
            "terms": TERMS,
            "license": LICENSE,
            "last_updated": EXPORT_DATE,
            "_synthetic": "bench",
        },
        "results": {
            "device": {
                "event": {
                    "export_date": EXPORT_DATE,
                    "total_records": sum(f["records"] for f in files),
                    "partitions": [
                        {
                            "display_name": f"2020 Q1 (part {f['i']} of {n_files})",
                            "file": f"{DL}/{f['rel']}",
                            "size_mb": f"{f['zip_bytes'] / MIB:.2f}",
                            "records": f["records"],
                        }
                        for f in files
                    ],
                }
            }
        },
    }
    (site / "download.json").write_text(json.dumps(manifest, indent=2) + "\n")
    return {
        "files": files,
        "n_files": n_files,
        "records": sum(f["records"] for f in files),
        "json_bytes": sum(f["json_bytes"] for f in files),
        "zip_bytes": sum(f["zip_bytes"] for f in files),
        "ndjson": str(ndjson),
        "ndjson_bytes": ndjson.stat().st_size,
        "site": str(site),
    }


# ------------------------------------------------------------------------------------ child measurements


def child_ndjson(db: str, path: str, cols_json: str) -> None:
    import duckdb

    cols = json.loads(cols_json)
    struct = "{" + ", ".join(f"'{k}': '{t}'" for k, t in cols.items()) + "}"
    con = duckdb.connect(db)
    con.execute(f"CREATE TABLE t AS SELECT * FROM read_ndjson('{path}', columns={struct})")
    rows = con.execute("SELECT count(*) FROM t").fetchone()[0]
    con.close()
    print(json.dumps({"rows": rows}))


def child_naive(db: str, *zips: str) -> None:
    import duckdb

    con = duckdb.connect(db)
    con.execute("CREATE TABLE naive (mdr_report_key VARCHAR, date_received VARCHAR, record JSON)")
    rows = 0
    for z in zips:
        with zipfile.ZipFile(z) as zf, zf.open(zf.namelist()[0]) as f:
            doc = json.load(f)
        batch = [(r.get("mdr_report_key"), r.get("date_received"), json.dumps(r)) for r in doc["results"]]
        del doc
        con.executemany("INSERT INTO naive VALUES (?, ?, ?)", batch)
        rows += len(batch)
    n = con.execute("SELECT count(*) FROM naive").fetchone()[0]
    con.close()
    print(json.dumps({"rows": n, "inserted": rows}))


CHILDREN = {"ndjson": child_ndjson, "naive": child_naive}


def busy_cpu_seconds() -> float:
    """CPU seconds spent by the whole machine so far (all cores, /proc/stat), or 0 where unknown."""
    try:
        f = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    except (OSError, ValueError):
        return 0.0
    idle = f[3] + (f[4] if len(f) > 4 else 0)
    return (sum(f[:8]) - idle) / os.sysconf("SC_CLK_TCK")


def run_measured(cmd: list[str], log: Path, env: dict | None = None) -> dict:
    """Run cmd as a fresh child; wall seconds, peak RSS (MiB) and CPU seconds of that child alone (wait4),
    and the CPU the rest of the machine used meanwhile (other processes skew the figures on few cores)."""
    with open(log.with_suffix(".out"), "wb") as fo, open(log.with_suffix(".err"), "wb") as fe:
        busy0 = busy_cpu_seconds()
        t0 = time.perf_counter()
        p = subprocess.Popen(cmd, stdout=fo, stderr=fe, env=env)
        _, status, ru = os.wait4(p.pid, 0)
        secs = time.perf_counter() - t0
        busy = busy_cpu_seconds() - busy0
        p.returncode = os.waitstatus_to_exitcode(status)
    out = log.with_suffix(".out").read_text()
    if p.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed (exit {p.returncode}):\n{out}\n{log.with_suffix('.err').read_text()}")
    cpu = ru.ru_utime + ru.ru_stime
    return {
        "seconds": secs,
        "peak_rss_mb": ru.ru_maxrss / 1024,
        "cpu_seconds": cpu,
        "other_load_cores": max(0.0, busy - cpu) / secs if busy else None,
        "stdout": out,
    }


def idle_load(seconds: float = 1.0) -> float:
    """Cores kept busy by other processes over a short sample."""
    b0 = busy_cpu_seconds()
    time.sleep(seconds)
    return max(0.0, busy_cpu_seconds() - b0) / seconds


def best_of(n: int, run) -> dict:
    """Run a measurement n times (each from scratch); keep the fastest, note the others."""
    ms = [run() for _ in range(max(1, n))]
    best = min(ms, key=lambda m: m["seconds"])
    if len(ms) > 1:
        best["all_seconds"] = [round(m["seconds"], 2) for m in ms]
    best["peak_rss_mb"] = max(m["peak_rss_mb"] for m in ms)
    return best


def dir_bytes(p: Path) -> int:
    return sum(f.stat().st_size for f in p.rglob("*") if f.is_file()) if p.is_dir() else p.stat().st_size


# ------------------------------------------------------------------------------------------------- facts


def machine_facts() -> dict:
    import duckdb

    cpu = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    mem = 0
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                mem = int(line.split()[1]) * 1024
    except OSError:
        pass
    fdax = {k: v for k, v in os.environ.items() if k.startswith("FDAX_")}
    return {
        "cores": os.cpu_count(),
        "cores_usable": len(os.sched_getaffinity(0)),
        "cpu": cpu,
        "ram_gib": round(mem / (1 << 30), 1),
        "os": platform.platform(),
        "python": platform.python_version(),
        "duckdb": duckdb.__version__,
        "fdax_env": fdax,
    }


# -------------------------------------------------------------------------------------------------- main


def prepare_workdir(arg: str | None) -> Path:
    if arg is None:
        work = Path(tempfile.mkdtemp(prefix="fdax-sync-bench-"))
    else:
        work = Path(arg).expanduser().resolve()
        if work.exists() and any(work.iterdir()) and not (work / MARKER).exists():
            raise SystemExit(
                f"{work}: exists and is not empty (and not a previous bench workdir); give an empty or new folder"
            )
        work.mkdir(parents=True, exist_ok=True)
    (work / MARKER).write_text("work folder of bench/sync_throughput.py; safe to delete\n")
    return work


def row(name: str, m: dict, json_mb: float, records: int) -> str:
    return (
        f"  {name:<38} {m['seconds']:>9.1f} {json_mb / m['seconds']:>9.1f} {records / m['seconds']:>11,.0f} "
        f"{m['peak_rss_mb']:>9,.0f} {m['cpu_seconds']:>8.1f} "
        + (f"{m['other_load_cores']:>5.2f} cores" if m.get("other_load_cores") is not None else f"{'?':>10}")
    )


def main(argv: list[str] | None = None) -> int:
    global OUT
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--size-mb", type=float, default=1024, help="uncompressed JSON to generate, MiB (default 1024)")
    ap.add_argument("--workdir", help="work folder (default: a new temp folder); deleted at the end unless --keep")
    ap.add_argument("--keep", action="store_true", help="keep the work folder (site, NDJSON, databases)")
    ap.add_argument("--json", action="store_true", help="JSON results on stdout (the report goes to stderr)")
    ap.add_argument("--seed", type=int, default=2020)
    ap.add_argument(
        "--naive-files",
        type=int,
        default=0,
        help="run (c) on the first N partitions only and extrapolate linearly (default: all)",
    )
    ap.add_argument(
        "--repeat", type=int, default=1, help="run (a) and (b) this many times each and keep the fastest (default 1)"
    )
    ap.add_argument(
        "--reuse-data",
        action="store_true",
        help="reuse data generated by an earlier --keep run in --workdir (same --size-mb and --seed)",
    )
    args = ap.parse_args(argv)
    if args.json:
        OUT = sys.stderr

    mirror_bin = Path(sys.executable).parent / "mirror"
    if not mirror_bin.exists():
        mirror_bin = Path(shutil.which("mirror") or "mirror")
    facts = machine_facts()
    work = prepare_workdir(args.workdir)
    results: dict = {"synthetic": True, "machine": facts, "size_mb_requested": args.size_mb, "workdir": str(work)}
    try:
        say("FDA Explorer Offline: sync throughput benchmark")
        say("SYNTHETIC event-shaped data generated from real fixture records")
        say(
            f"machine: {facts['cores']} cores ({facts['cores_usable']} usable), {facts['cpu'] or 'cpu ?'}, "
            f"{facts['ram_gib']} GiB RAM; {facts['os']}"
        )
        say(
            f"         Python {facts['python']}, duckdb {facts['duckdb']}; "
            f"FDAX_* environment: {facts['fdax_env'] or 'none (defaults: chunk 32 MiB, DuckDB memory_limit 1GB)'}"
        )
        say(f"work folder: {work}")

        templates = fixture_records()
        devices = device_pool(templates)
        check_format(templates, devices)
        say(
            f"format check: streamed writer == json.dumps(indent=2) + '\\n' byte for byte: OK "
            f"({len(templates)} fixture records, {len(devices)} real device brand/product combinations)"
        )

        stamp = work / "generated.json"
        gen = None
        if args.reuse_data and stamp.exists():
            old = json.loads(stamp.read_text())
            if old.get("size_mb") == args.size_mb and old.get("seed") == args.seed:
                gen, gen_secs = old["gen"], 0.0
                say("data: reusing the files generated earlier in this work folder")
        if gen is None:
            t0 = time.perf_counter()
            gen = generate(work, args.size_mb, args.seed, max(1, min(2, facts["cores_usable"])))
            gen_secs = time.perf_counter() - t0
            stamp.write_text(json.dumps({"size_mb": args.size_mb, "seed": args.seed, "gen": gen}))
        json_mb, records = gen["json_bytes"] / MIB, gen["records"]
        say(
            f"data: {gen['n_files']} partitions, {records:,} records, {json_mb:,.1f} MiB JSON uncompressed "
            f"({gen['zip_bytes'] / MIB:,.1f} MiB zipped, ratio {gen['json_bytes'] / gen['zip_bytes']:.1f}x); "
            f"NDJSON for (b) {gen['ndjson_bytes'] / MIB:,.1f} MiB; generated in {gen_secs:.0f} s"
        )
        for f in gen["files"]:
            say(
                f"      {f['rel']}: {f['records']:,} records, {f['json_bytes'] / MIB:,.1f} MiB JSON, "
                f"{f['zip_bytes'] / MIB:,.1f} MiB zip"
            )
        results["data"] = {k: gen[k] for k in ("n_files", "records", "json_bytes", "zip_bytes", "ndjson_bytes")}
        results["data"]["generate_seconds"] = round(gen_secs, 1)

        env = os.environ.copy()
        os.sync()  # flush the freshly written files so their write-back does not run during the timed runs
        runs = work / "runs"
        shutil.rmtree(runs, ignore_errors=True)
        runs.mkdir()

        me = str(Path(__file__).resolve())
        load = idle_load()
        results["other_load_before_cores"] = round(load, 2)
        say(
            f"\nidle check: other processes use {load:.2f} cores right now"
            + ("  WARNING: the machine is busy; figures will be low and noisy" if load > 0.25 else "")
        )

        # (a) the real CLI
        data_dir = runs / "a-data"

        def run_a() -> dict:
            shutil.rmtree(data_dir, ignore_errors=True)
            return run_measured(
                [
                    str(mirror_bin),
                    "sync",
                    "--from",
                    gen["site"],
                    "--only",
                    "event",
                    "--data-dir",
                    str(data_dir),
                    "--quiet",
                ],
                runs / "a",
                env,
            )

        say(f"running (a) mirror sync{f' x{args.repeat}' if args.repeat > 1 else ''} ...")
        a = best_of(args.repeat, run_a)
        a.pop("stdout", None)
        import duckdb

        con = duckdb.connect(str(data_dir / "db" / "device_event.duckdb"), read_only=True)
        a_rows = {
            t: con.execute(f'SELECT count(*) FROM "{t}"').fetchone()[0]
            for t in ("device_event", "device_event_device", "device_event_text", "device_event_patient")
        }
        con.close()
        if a_rows["device_event"] != records:
            raise SystemExit(f"(a) loaded {a_rows['device_event']} records, expected {records}")
        a["rows"] = a_rows
        a["db_bytes"] = (data_dir / "db" / "device_event.duckdb").stat().st_size
        say(
            f"    {a['seconds']:.1f} s; rows: "
            + ", ".join(f"{t} {n:,}" for t, n in a_rows.items())
            + f"; db {a['db_bytes'] / MIB:,.0f} MiB"
        )

        # (b) the DuckDB limit on pre-made NDJSON
        cols = top_level_columns(templates)
        bdb = runs / "b.duckdb"

        def run_b() -> dict:
            for suffix in ("", ".wal"):
                Path(str(bdb) + suffix).unlink(missing_ok=True)
            return run_measured(
                [sys.executable, me, "_child", "ndjson", str(bdb), gen["ndjson"], json.dumps(cols)], runs / "b", env
            )

        say(f"running (b) read_ndjson limit{f' x{args.repeat}' if args.repeat > 1 else ''} ...")
        b = best_of(args.repeat, run_b)
        b["rows"] = json.loads(b.pop("stdout"))["rows"]
        b["db_bytes"] = bdb.stat().st_size
        if b["rows"] != records:
            raise SystemExit(f"(b) loaded {b['rows']} records, expected {records}")
        say(
            f"    {b['seconds']:.1f} s; {b['rows']:,} rows, {len(cols)} columns "
            f"({sum(t == 'JSON' for t in cols.values())} JSON); db {b['db_bytes'] / MIB:,.0f} MiB"
        )

        # (c) naive, once
        zips = [str(Path(gen["site"]) / f["rel"]) for f in gen["files"]]
        subset = zips if args.naive_files <= 0 else zips[: args.naive_files]
        sub_files = gen["files"][: len(subset)]
        c_json_mb, c_records = sum(f["json_bytes"] for f in sub_files) / MIB, sum(f["records"] for f in sub_files)
        extrapolated = len(subset) < len(zips)
        say(f"running (c) naive json.load + executemany on {len(subset)} of {len(zips)} partitions ...")
        c = run_measured([sys.executable, me, "_child", "naive", str(runs / "c.duckdb"), *subset], runs / "c", env)
        c["rows"] = json.loads(c.pop("stdout"))["rows"]
        if c["rows"] != c_records:
            raise SystemExit(f"(c) loaded {c['rows']} records, expected {c_records}")
        if extrapolated:
            c["measured_seconds"], c["measured_json_mb"], c["measured_records"] = c["seconds"], c_json_mb, c_records
            c["seconds"] = c["seconds"] * json_mb / c_json_mb
            c["cpu_seconds"] = c["cpu_seconds"] * json_mb / c_json_mb
        c["extrapolated"] = extrapolated
        say(f"    {c['measured_seconds'] if extrapolated else c['seconds']:.1f} s; {c['rows']:,} rows")

        thr = {k: json_mb / m["seconds"] for k, m in (("a", a), ("b", b), ("c", c))}
        ratio_ab, ratio_ac = thr["a"] / thr["b"], thr["a"] / thr["c"]
        goals = [
            ("a >= 0.5 x b (throughput)", f"a/b = {ratio_ab:.2f}", ratio_ab >= GOAL_VS_LIMIT),
            ("a >= 10 x c (throughput)", f"a/c = {ratio_ac:.1f}", ratio_ac >= GOAL_VS_NAIVE),
            ("peak RSS of a < 2 GiB", f"{a['peak_rss_mb']:,.0f} MiB", a["peak_rss_mb"] < GOAL_RSS_MIB),
        ]

        say(
            f"\nresults: {json_mb:,.1f} MiB of JSON, {records:,} records (SYNTHETIC event-shaped data); "
            "each row one fresh subprocess, wall time incl. interpreter start-up; peak RSS of that process "
            "(os.wait4 ru_maxrss)"
        )
        say(f"  {'':<38} {'seconds':>9} {'MiB/s':>9} {'records/s':>11} {'peak RSS':>9} {'CPU s':>8} {'other load':>10}")
        say(row("(a) mirror sync --from (real CLI)", a, json_mb, records))
        say(row("(b) limit: read_ndjson -> table", b, json_mb, records))
        say(row("(c) naive: json.load + executemany" + (" *" if extrapolated else ""), c, json_mb, records))
        if args.repeat > 1:
            say(
                f"  (a) and (b): fastest of {args.repeat} runs (all: a {a['all_seconds']} s, b {b['all_seconds']} s); "
                "peak RSS the highest of the runs"
            )
        say(
            "  CPU s: user+sys of the measured process (all its threads); other load: CPU the rest of the machine "
            "used meanwhile, in cores (should be ~0)"
        )
        if extrapolated:
            say(
                f"  * (c) EXTRAPOLATED linearly: measured {c['measured_seconds']:.1f} s on {len(subset)} of "
                f"{len(zips)} partitions ({c['measured_json_mb']:,.1f} MiB, {c['measured_records']:,} records); "
                "its seconds and CPU s are scaled to the full size, its peak RSS is as measured"
            )
        children = a_rows["device_event_device"] + a_rows["device_event_text"] + a_rows["device_event_patient"]
        say(
            f"  (a) also copies + sha256-hashes the zips into its data folder, writes typed columns + the record "
            f"JSON + 3 child tables ({children:,} child rows); (b) writes {len(cols)} untyped columns only"
        )
        say(f"\nthroughput ratios: a/b = {ratio_ab:.2f}   a/c = {ratio_ac:.1f}")
        say("goals:")
        for name, val, ok in goals:
            say(f"  {name:<28} {val:<16} {'PASS' if ok else 'MISS'}")

        def pub(m: dict) -> dict:
            d = {k: (round(v, 2) if isinstance(v, float) else v) for k, v in m.items()}
            d["mb_per_s"] = round(json_mb / m["seconds"], 2)
            d["records_per_s"] = round(records / m["seconds"], 1)
            return d

        results.update(
            {
                "a_mirror_sync": pub(a),
                "b_read_ndjson_limit": pub(b),
                "c_naive": pub(c),
                "ratio_a_b": round(ratio_ab, 3),
                "ratio_a_c": round(ratio_ac, 2),
                "goals": {name: {"value": val, "pass": ok} for name, val, ok in goals},
            }
        )
        if args.json:
            print(json.dumps(results, indent=2))
    finally:
        if args.keep:
            say(f"\nkept {work}")
        elif (work / MARKER).exists():
            shutil.rmtree(work, ignore_errors=True)
            say(f"\nremoved {work}")
    return 0


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "_child":
        CHILDREN[sys.argv[2]](*sys.argv[3:])
        sys.exit(0)
    sys.exit(main())
