"""Query latency benchmark: typical openFDA requests against the local API over a SYNTHETIC full-size mirror.

Usage (from the repository root):

    .venv/bin/python bench/query_latency.py [--scale 0.1] [--workdir DIR] [--reuse] [--repeat 20] [--json]
    .venv/bin/python bench/query_latency.py --scales 0.01,0.1 --reuse     # two scales + extrapolation to 1.0
    .venv/bin/python bench/query_latency.py --site S --data-dir D [--url http://127.0.0.1:8000]   # a mirror already
                                                                          # synced from S (over HTTP: a `mirror serve`)

Per scale:
1. builds the SYNTHETIC openFDA device download site with bench/synth_mirror.py (or, with --reuse, keeps the one
   an earlier run built in the work folder with the same scale and seed);
2. syncs it with the real CLI, `python -m mirror sync --from SITE --data-dir DATA --quiet`, in a fresh subprocess
   (timed: wall, peak RSS, CPU), then checks `mirror status --json` against the generator's record counts;
3. opens the mirror in process with `mirror.api.Api(Settings(data_dir=DATA))` and times `api.get(path, query)`
   (query latency, not HTTP) for a fixed set of openFDA requests: each one warm-up call, then --repeat timed calls;
   prints p50 / p95 (nearest rank) in ms, the hits, whether they equal what the generator wrote, the goal and
   whether it is met. Goals (p95, for scale 1.0): key lookups < 50 ms, filtered searches < 300 ms, counts over
   all events < 1 s.
With two scales the p50 / p95 of each request are extrapolated to scale 1.0 along the straight line through the
two measured points (the method is printed with the figures).
With --upgraded, each request is also timed, right after, on `data-upgraded`: a hard-linked copy of the mirror that
`mirror sync` brought up to the current layout (listed product-code columns, key and word indexes; only the files
it rewrites take new space; the upgrade is timed once). The table then shows both side by side and the ratio
(as synced / upgraded): the same code, the old layout's fallback path against the new one, under the same load.
With --site and --data-dir, the site an earlier synth_mirror.py run wrote and the mirror already synced from it are
measured as they are (no generation, no sync). With --url, every request is an HTTP GET to a running `mirror serve`
of that mirror (one kept-alive connection; the time is the whole request: sending, the server's work, reading the
body), instead of api.get in process.
With --json the report goes to stderr and a JSON document to stdout.
"""

from __future__ import annotations

import argparse
import hashlib
import http.client
import importlib.util
import json
import math
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote_plus, urlsplit

ROOT = Path(__file__).resolve().parents[1]
MARKER = ".fdax-query-latency"
GOALS_MS = {"key": 50.0, "filtered": 300.0, "count_all": 1000.0}  # p95 goals at scale 1.0
GOAL_TEXT = {
    "key": "key lookup p95 < 50 ms",
    "filtered": "filtered p95 < 300 ms",
    "count_all": "count over all p95 < 1 s",
    "info": "-",
}
Q2 = "search=device.device_report_product_code:DXY+AND+date_received:[20200101+TO+20201231]"
MIN_CALLS = 3  # timed calls (or walks) a request gets even when it exceeds --budget

OUT = sys.stdout
HOW = "api.get in process"  # how requests are made: in process, or HTTP GET to a `mirror serve` (--url)


def say(*a) -> None:
    print(*a, file=OUT, flush=True)


def _load(name: str, file: str):
    """A sibling bench script as a module (registered in sys.modules so its worker processes can find it)."""
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, Path(__file__).with_name(file))
        mod = importlib.util.module_from_spec(spec)
        sys.modules[name] = mod
        spec.loader.exec_module(mod)
    return sys.modules[name]


synth = _load("fdax_bench_synth_mirror", "synth_mirror.py")
_st = synth._ST  # bench/sync_throughput.py: run_measured, machine_facts, idle_load


# ------------------------------------------------------------------------------------------ requests


@dataclass
class Req:
    name: str
    path: str
    queries: list[str]  # rotated through; the warm-up uses warmup (or queries[0])
    goal: str  # key | filtered | count_all | info
    check: object = None  # callable(resp_json) -> (hits text, ok: bool | None, detail)
    warmup: str | None = None
    walk_pages: int = 0  # > 0: follow Link rel="next" for this many pages in all
    walk_hits: int | None = None  # hits a whole walk must return (min(pages x limit, total))


def _total(j: dict) -> int | None:
    return ((j.get("meta") or {}).get("results") or {}).get("total")


def _is_count(j: dict) -> bool:
    res = j.get("results")
    return (
        isinstance(res, list)
        and bool(res)
        and isinstance(res[0], dict)
        and "count" in res[0]
        and ("term" in res[0] or "time" in res[0])
    )


def check_total(expected: int | None, key: tuple[str, str] | None = None):
    """A search: meta.results.total must equal expected (and the hit carry the key, for lookups)."""

    def chk(j: dict, qs: str):
        total = _total(j)
        ok = None if expected is None else total == expected
        detail = "" if ok or expected is None else f"expected {expected:,}"
        if ok and key is not None:
            field_, value = key[0], unquote_plus(qs.split(":", 1)[1].split("&")[0]).strip('"')
            got = (j.get("results") or [{}])[0]
            for part in field_.split("."):
                got = got.get(part) if isinstance(got, dict) else None
            if got != value:
                ok, detail = False, f"hit has {field_}={got!r}, asked for {value!r}"
        return (f"{total:,}" if isinstance(total, int) else "?"), ok, detail

    return chk


def check_terms(expected: dict[str, int] | None, top: int | None = None):
    """A count: every returned term's count must equal the generator's; the right number of terms."""

    def chk(j: dict, qs: str):
        res = j.get("results") or []
        if not _is_count(j):
            return "not a count result", False, "results are not [{term|time, count}]"
        s = sum(r["count"] for r in res)
        text = f"{s:,} in {len(res):,} terms"
        if expected is None:
            return text, None, ""
        want_n = len(expected) if top is None else min(top, len(expected))
        bad = [r for r in res if expected.get(str(r.get("term"))) != r["count"]]
        if bad:
            r = bad[0]
            return (
                text,
                False,
                (
                    f"{len(bad)} terms differ, e.g. {r.get('term')}: {r['count']} "
                    f"(expected {expected.get(str(r.get('term')))})"
                ),
            )
        if len(res) != want_n:
            return text, False, f"{len(res)} terms, expected {want_n}"
        if any(a["count"] < b["count"] for a, b in zip(res, res[1:])):
            return text, False, "not sorted by count, descending"
        return text, True, ""

    return chk


def check_histogram(expected_sum: int | None):
    def chk(j: dict, qs: str):
        res = j.get("results") or []
        if not _is_count(j) or "time" not in res[0]:
            return "not a date histogram", False, "results are not [{time, count}]"
        s = sum(r["count"] for r in res)
        ok = None if expected_sum is None else s == expected_sum
        if ok and any(a["time"] >= b["time"] for a, b in zip(res, res[1:])):
            ok = False
        detail = "" if ok or expected_sum is None else f"expected sum {expected_sum:,}, days ascending"
        return f"{s:,} in {len(res):,} days", ok, detail

    return chk


def _key_lookup(endpoint: str, field: str, keys: list) -> Req:
    """20 lookups of one record by its key field (the first sample key is the warm-up)."""
    return Req(
        f"{endpoint} key lookup (20 keys)",
        f"/device/{endpoint}.json",
        [f"search={field}:{k}" for k in keys[1:21]],
        "key",
        check_total(1, (field, "")),
        warmup=f"search={field}:{keys[0]}",
    )


def build_requests(summary: dict) -> list[Req]:
    eps = summary["endpoints"]
    ev = eps["event"]
    focus = ev["focus_by_year"]
    dxy_total = ev["product_codes"]["focus"]["DXY"]
    dxy_2020 = focus["DXY"].get("2020", 0)
    reqs = [_key_lookup("event", "mdr_report_key", ev["sample_keys"])]
    for name, field in (("udi", "public_device_record_key"), ("510k", "k_number")):
        if name in eps:
            reqs.append(_key_lookup(name, field, eps[name]["sample_keys"]))
    reqs += [
        Req(
            "DXY + 2020 date range, limit=100",
            "/device/event.json",
            [Q2 + "&limit=100"],
            "filtered",
            check_total(dxy_2020),
        ),
        Req(
            "count=date_received over DXY",
            "/device/event.json",
            ["search=device.device_report_product_code:DXY&count=date_received"],
            "filtered",
            check_histogram(dxy_total),
        ),
        Req(
            "count=event_type.exact (all events)",
            "/device/event.json",
            ["count=event_type.exact"],
            "count_all",
            check_terms(ev["event_type"]),
        ),
        Req(
            'phrase "multiple myeloma", limit=10',
            "/device/event.json",
            ['search=mdr_text.text:"multiple+myeloma"&limit=10'],
            "filtered",
            check_total(ev["myeloma_records"]),
        ),
        Req(
            "count=product_code.exact limit=1000",
            "/device/event.json",
            ["count=device.device_report_product_code.exact&limit=1000"],
            "count_all",
            check_terms(ev["product_code_counts"], top=1000),
        ),
        Req(
            "search_after walk 5 x 1000 on DXY+2020",
            "/device/event.json",
            [Q2 + "&limit=1000"],
            "filtered",
            walk_pages=5,
            walk_hits=min(5 * 1000, dxy_2020),
        ),
    ]
    return reqs


# -------------------------------------------------------------------------------------------- timing


def percentile(xs: list[float], p: float) -> float:
    """Nearest-rank percentile (p95 of 20 values is the 19th smallest)."""
    s = sorted(xs)
    return s[max(0, math.ceil(p / 100 * len(s)) - 1)]


def header(resp, name: str) -> str | None:
    for k, v in (resp.headers or {}).items():
        if k.lower() == name.lower():
            return v
    return None


def next_link(resp, path: str) -> tuple[str, str] | None:
    """(path, query) of the Link rel="next" header, or None."""
    link = header(resp, "Link")
    m = re.search(r'<([^>]*)>\s*;\s*rel="?next"?', link or "")
    if not m:
        return None
    u = urlsplit(m.group(1))
    return (u.path if u.path.startswith("/device/") else path), u.query


class HttpResponse:
    """The parts of mirror.api's Response that the checks read, from an HTTP response."""

    def __init__(self, status: int, headers: dict[str, str], body: bytes):
        self.status, self.headers, self.body = status, headers, body

    def json(self):
        return json.loads(self.body)


class HttpApi:
    """`get(path, query)` as an HTTP GET to a running `mirror serve` over one kept-alive connection (http.client
    opens it again by itself after a response that closes it)."""

    def __init__(self, url: str):
        u = urlsplit(url)
        if u.scheme != "http" or not u.hostname:
            raise SystemExit(f"--url {url}: give the address of a running `mirror serve`, e.g. http://127.0.0.1:8000")
        self.host, self.port = u.hostname, u.port or 80
        self.conn: http.client.HTTPConnection | None = None

    def get(self, path: str, query: str = "") -> HttpResponse:
        if self.conn is None:
            self.conn = http.client.HTTPConnection(self.host, self.port, timeout=600)
        self.conn.request("GET", path + (f"?{query}" if query else ""))
        resp = self.conn.getresponse()
        body = resp.read()
        return HttpResponse(resp.status, dict(resp.getheaders()), body)

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None


def timed_get(api, path: str, qs: str):
    t0 = time.perf_counter()
    resp = api.get(path, qs)
    return resp, (time.perf_counter() - t0) * 1000


def over_budget(n: int, t0: float, budget: float) -> bool:
    """Stop repeating a slow request after `budget` seconds, once it has MIN_CALLS timed calls."""
    return n >= MIN_CALLS and time.perf_counter() - t0 > budget


def run_request(api, r: Req, repeat: int, budget: float) -> dict:
    out = {"name": r.name, "path": r.path, "query": r.queries[0], "goal": r.goal, "repeat": repeat}
    try:
        if r.walk_pages:
            return out | run_walk(api, r, repeat, budget)
        resp, _ = timed_get(api, r.path, r.warmup or r.queries[0])  # warm-up, not counted
        ms, statuses, checks = [], {}, []
        t0 = time.perf_counter()
        for n in range(repeat):
            if over_budget(n, t0, budget):
                break
            qs = r.queries[n % len(r.queries)]
            resp, dt = timed_get(api, r.path, qs)
            ms.append(dt)
            statuses[resp.status] = statuses.get(resp.status, 0) + 1
            if resp.status == 200:
                checks.append(r.check(resp.json(), qs))
            else:
                body = resp.body[:200].decode("utf-8", "replace")
                checks.append((f"HTTP {resp.status}", False, body))
    except Exception as e:  # an API still being written: report the request as failed and go on
        return out | {"error": f"{type(e).__name__}: {e}"[:300]}
    hits = checks[-1][0]
    bad = [c for c in checks if c[1] is False]
    ok = None if all(c[1] is None for c in checks) else not bad
    return out | {
        "ms": ms,
        "calls": len(ms),
        "p50_ms": statistics.median(ms),
        "p95_ms": percentile(ms, 95),
        "min_ms": min(ms),
        "max_ms": max(ms),
        "statuses": statuses,
        "hits": hits,
        "hits_ok": ok,
        "check_detail": bad[0][2] if bad else "",
    }


def run_walk(api, r: Req, repeat: int, budget: float) -> dict:
    """A search_after walk: the first page, then Link rel="next" until walk_pages pages (or no next link)."""

    def walk():
        path, qs, pages, keys, ms, status = r.path, r.queries[0], 0, [], [], 200
        while pages < r.walk_pages:
            resp, dt = timed_get(api, path, qs)
            ms.append(dt)
            pages += 1
            if resp.status != 200:
                status = resp.status
                break
            res = resp.json().get("results") or []
            keys += [x.get("mdr_report_key") for x in res]
            bad = [
                x
                for x in res
                if not (
                    str(x.get("date_received", "")).startswith("2020")
                    and any(d.get("device_report_product_code") == "DXY" for d in x.get("device") or [])
                )
            ]
            if bad:
                return ms, keys, status, f"page {pages}: {len(bad)} hits outside DXY + 2020"
            nxt = next_link(resp, path)
            if nxt is None:
                break
            path, qs = nxt
        return ms, keys, status, ""

    try:
        walk()  # warm-up walk, not counted
        per_page, walks, problems, keys = [], [], [], []
        t0 = time.perf_counter()
        for n in range(repeat):
            if over_budget(n, t0, budget):
                break
            ms, keys, status, problem = walk()
            per_page += ms
            walks.append(sum(ms))
            if status != 200:
                problems.append(f"HTTP {status}")
            if problem:
                problems.append(problem)
    except Exception as e:
        return {"error": f"{type(e).__name__}: {e}"[:300]}
    pages = len(per_page) // max(1, len(walks))
    dup = len(keys) - len(set(keys))
    if dup:
        problems.append(f"{dup} duplicate hits across pages")
    expected = r.walk_hits
    ok = not problems and (expected is None or len(keys) == expected)
    if expected is not None and len(keys) != expected:
        problems.append(f"expected {expected:,} hits in the walk")
    return {
        "ms": per_page,
        "calls": len(walks),
        "p50_ms": statistics.median(per_page),
        "p95_ms": percentile(per_page, 95),
        "min_ms": min(per_page),
        "max_ms": max(per_page),
        "walk_p50_ms": statistics.median(walks),
        "walk_p95_ms": percentile(walks, 95),
        "pages": pages,
        "hits": f"{len(keys):,} in {pages} pages",
        "hits_ok": ok,
        "check_detail": "; ".join(problems),
    }


# ------------------------------------------------------------------------------------- site and sync


def prepare_workdir(arg: str | None) -> Path:
    work = Path(arg).expanduser().resolve() if arg else Path(tempfile.gettempdir()) / "fdax-query-latency"
    if work.exists() and any(work.iterdir()) and not (work / MARKER).exists():
        raise SystemExit(f"{work}: exists, is not empty and is not a query_latency work folder; give another --workdir")
    work.mkdir(parents=True, exist_ok=True)
    (work / MARKER).write_text("work folder of bench/query_latency.py (SYNTHETIC data); safe to delete\n")
    return work


def fingerprint(site: Path) -> str:
    return hashlib.sha256((site / "download.json").read_bytes()).hexdigest()


def ensure_site(base: Path, scale: float, seed: int, reuse: bool, force: bool) -> tuple[dict, bool]:
    site = base / "site"
    marker = site / synth.MARKER
    if reuse and marker.is_file() and (site / "download.json").is_file():
        s = json.loads(marker.read_text())
        if s.get("scale") == scale and s.get("seed") == seed and set(s["endpoints"]) == set(synth.ENDPOINTS):
            say(f"site: reusing {site} (generated earlier in {s['seconds']:.0f} s)")
            return s, True
    check_disk(base, scale, seed, force)
    say(f"site: generating the SYNTHETIC site at scale {scale:g} in {site} ...")
    s = synth.build(
        site,
        scale,
        None,
        seed,
        workers=min(2, len(os.sched_getaffinity(0))),
        say=lambda *a: say("  " + " ".join(map(str, a))),
        force=force,
    )
    return s, False


def check_disk(base: Path, scale: float, seed: int, force: bool) -> None:
    """Zips + their copy in the data folder (deleted after loading) + the databases (~1.3 x the JSON)."""
    c = synth.context(seed)
    eps, _ = synth.plan_jobs(c, synth.real_manifest(), scale, list(synth.ENDPOINTS), seed)
    js, zp = sum(e["est_json_bytes"] for e in eps.values()), sum(e["est_zip_bytes"] for e in eps.values())
    need = 2 * zp + 1.35 * js
    base.mkdir(parents=True, exist_ok=True)
    free = shutil.disk_usage(base).free
    say(
        f"disk: scale {scale:g} needs about {need / 2**30:,.1f} GiB (zips {zp / 2**30:,.1f}, databases "
        f"~{1.35 * js / 2**30:,.1f}); {free / 2**30:,.1f} GiB free"
    )
    if need > free - 2 * 2**30 and not force:
        raise SystemExit(f"{base}: not enough disk for scale {scale:g}; free space, lower the scale or pass --force")


def ensure_sync(base: Path, summary: dict, reuse: bool) -> tuple[dict, bool]:
    site, data = base / "site", base / "data"
    stamp = base / "synced.json"
    fp = fingerprint(site)
    if reuse and stamp.is_file() and (data / "db").is_dir():
        old = json.loads(stamp.read_text())
        if old.get("fingerprint") == fp:
            say(f"sync: reusing {data} (synced earlier in {old['sync']['seconds']:.1f} s)")
            return old["sync"], True
    shutil.rmtree(data, ignore_errors=True)
    stamp.unlink(missing_ok=True)
    env = os.environ.copy()
    env["FDAX_KEEP_DOWNLOADS"] = "false"  # the zips stay in the site folder; no need for a second copy
    os.sync()
    say(f"sync: {sys.executable} -m mirror sync --from {site} --data-dir {data} --quiet ...")
    other = _st.idle_load(0.5)
    m = _st.run_measured(
        [sys.executable, "-m", "mirror", "sync", "--from", str(site), "--data-dir", str(data), "--quiet"],
        base / "sync",
        env,
    )
    m.pop("stdout", None)
    m["other_load_before_cores"] = round(other, 2)
    m["db_bytes"] = sum(p.stat().st_size for p in (data / "db").glob("*.duckdb"))
    m["json_bytes"] = sum(e["json_bytes"] for e in summary["endpoints"].values())
    m["zip_bytes"] = sum(e["zip_bytes"] for e in summary["endpoints"].values())
    m["records"] = sum(e["records"] for e in summary["endpoints"].values())
    st = subprocess.run(
        [sys.executable, "-m", "mirror", "status", "--data-dir", str(data), "--json"],
        capture_output=True,
        text=True,
        env=env,
    )
    if st.returncode != 0:
        raise SystemExit(f"mirror status failed:\n{st.stdout}\n{st.stderr}")
    loaded = {ep: d["records"] for ep, d in json.loads(st.stdout)["endpoints"].items()}
    m["loaded"] = loaded
    m["counts_match"] = all(loaded.get(ep) == e["records"] for ep, e in summary["endpoints"].items())
    stamp.write_text(json.dumps({"fingerprint": fp, "sync": m}, indent=1))
    return m, False


def ensure_upgraded(base: Path) -> tuple[Path, dict]:
    """`data-upgraded`: a hard-linked copy of `data` (once), then `mirror sync` from the same site, which upgrades
    files of an older layout (and leaves current ones alone). The sync is timed every run (a no-op when current)."""
    data, up = base / "data", base / "data-upgraded"
    if not (up / "db").is_dir():
        shutil.rmtree(up, ignore_errors=True)
        shutil.copytree(data, up, copy_function=os.link)
    env = os.environ.copy()
    env["FDAX_KEEP_DOWNLOADS"] = "false"
    say(f"upgrade: {sys.executable} -m mirror sync --from {base / 'site'} --data-dir {up} --quiet ...")
    m = _st.run_measured(
        [sys.executable, "-m", "mirror", "sync", "--from", str(base / "site"), "--data-dir", str(up), "--quiet"],
        base / "upgrade",
        env,
    )
    say(
        f"upgrade: {m['seconds']:.1f} s wall, {m['cpu_seconds']:.0f} CPU s, peak RSS {m['peak_rss_mb']:,.0f} MiB"
        + (f"; other load {m['other_load_cores']:.2f} cores" if m.get("other_load_cores") is not None else "")
        + "\n"
        + "\n".join("         " + line for line in m.pop("stdout").splitlines() if "updated" in line)
    )
    return up, m


def print_side_by_side(scale: float, pairs: list[tuple[dict, dict]]) -> None:
    say(
        f"\nside by side at scale {scale:g}: the mirror as synced (A) and upgraded (B), each request timed on A then "
        "on B; ratio = A / B"
    )
    say(f"  {'request':<42} {'A p50':>8} {'A p95':>8} {'B p50':>8} {'B p95':>8} {'p95 A/B':>8}  {'same hits?':<10}")
    for a, b in pairs:
        if "error" in a or "error" in b:
            say(f"  {a['name']:<42} ERROR {a.get('error') or b.get('error')}")
            continue
        same = "yes" if a["hits"] == b["hits"] and a["hits_ok"] == b["hits_ok"] else "NO"
        say(
            f"  {a['name']:<42} {fmt_ms(a['p50_ms']):>8} {fmt_ms(a['p95_ms']):>8} {fmt_ms(b['p50_ms']):>8} "
            f"{fmt_ms(b['p95_ms']):>8} {a['p95_ms'] / max(b['p95_ms'], 1e-3):>7.1f}x  {same:<10}"
        )


def report_sync(m: dict, reused: bool, summary: dict) -> None:
    MiB = 2**20
    say(
        f"sync{' (from the earlier run)' if reused else ''}: {m['seconds']:.1f} s wall, {m['cpu_seconds']:.0f} CPU s, "
        f"peak RSS {m['peak_rss_mb']:,.0f} MiB; {m['records']:,} records, {m['json_bytes'] / MiB:,.0f} MiB JSON "
        f"({m['zip_bytes'] / MiB:,.0f} MiB zipped) -> {m['db_bytes'] / MiB:,.0f} MiB of DuckDB; "
        f"{m['json_bytes'] / MiB / m['seconds']:,.1f} MiB/s"
        + (f"; other load {m['other_load_cores']:.2f} cores" if m.get("other_load_cores") is not None else "")
    )
    wrong = {
        ep: (m["loaded"].get(ep), e["records"])
        for ep, e in summary["endpoints"].items()
        if m["loaded"].get(ep) != e["records"]
    }
    say(
        f"      mirror status: loaded records equal the generated ones for all {len(summary['endpoints'])} endpoints"
        if not wrong
        else "      mirror status: MISMATCH (loaded, generated): " + ", ".join(f"{k} {v}" for k, v in wrong.items())
    )


# ---------------------------------------------------------------------------------------------- output


def fmt_ms(v: float | None) -> str:
    return "-" if v is None else (f"{v:,.1f}" if v < 100 else f"{v:,.0f}")


def met(r: dict, p95: float | None) -> str:
    goal = GOALS_MS.get(r["goal"])
    if goal is None or p95 is None:
        return "-"
    return "yes" if p95 < goal else "NO"


def print_table(scale: float, rows: list[dict], repeat: int) -> None:
    say(
        f"\nquery latency at scale {scale:g} (SYNTHETIC data; {HOW}; one warm-up, then the timed calls; "
        "p95 = nearest rank)"
    )
    say(
        f"  {'request':<42} {'calls':>5} {'p50 ms':>8} {'p95 ms':>8}  {'hits':<24} {'= generated?':<12} "
        f"{'goal (p95, at scale 1.0)':<31} {'met?':<4}"
    )
    for r in rows:
        if "error" in r:
            say(f"  {r['name']:<42} {'-':>5} {'-':>8} {'-':>8}  ERROR {r['error']}")
            continue
        ok = {True: "yes", False: "NO", None: "n/a"}[r["hits_ok"]]
        calls = f"{r['calls']}" + ("" if r["calls"] >= repeat else "*")
        say(
            f"  {r['name']:<42} {calls:>5} {fmt_ms(r['p50_ms']):>8} {fmt_ms(r['p95_ms']):>8}  {r['hits']:<24} {ok:<12} "
            f"{GOAL_TEXT[r['goal']] + (' per page' if 'pages' in r else ''):<31} {met(r, r['p95_ms']):<4}"
        )
        if r.get("pages"):
            say(
                f"  {'  whole walk (' + str(r['pages']) + ' pages)':<42} {'':>5} {fmt_ms(r['walk_p50_ms']):>8} "
                f"{fmt_ms(r['walk_p95_ms']):>8}"
            )
        if r["hits_ok"] is False:
            say(f"      check: {r['check_detail']}")
    if any("calls" in r and r["calls"] < repeat for r in rows):
        say(f"  * fewer than {repeat} calls: the request ran out of its --budget of timed seconds")
    say(
        "  calls: timed calls (walks, for the search_after walk: its p50/p95 are per page); hits: meta.results.total "
        "for searches, the sum of the counts for count=; = generated?: equal to what synth_mirror wrote"
    )
    if scale != 1.0:
        say(
            "  met?: this scale's p95 against the goal; the goals are for scale 1.0 (see the extrapolation "
            "when two scales are run)"
        )


def extrapolate(results: dict[float, list[dict]]) -> dict | None:
    """Straight line through the two largest scales' (scale, ms) points, evaluated at scale 1.0."""
    scales = sorted(results)
    if len(scales) < 2:
        return None
    s1, s2 = scales[-2], scales[-1]
    by1 = {r["name"]: r for r in results[s1]}
    rows = []
    for r2 in results[s2]:
        r1 = by1.get(r2["name"])
        if not r1 or "error" in r1 or "error" in r2:
            continue
        row = {"name": r2["name"], "goal": r2["goal"]}
        for k in ("p50_ms", "p95_ms"):
            a, b = r1[k], r2[k]
            row[k] = {str(s1): a, str(s2): b, "1.0": max(0.0, b + (b - a) * (1.0 - s2) / (s2 - s1))}
        rows.append(row)
    return {
        "method": (
            f"linear: the line through (scale {s1:g}, latency) and (scale {s2:g}, latency), evaluated "
            "at scale 1.0 (latency = a + b x scale, a and b from the two points; never below 0). "
            "It assumes latency grows linearly with the data (true of scans; an indexed lookup "
            "grows slower) and is an estimate, not a measurement."
        ),
        "scales": [s1, s2],
        "rows": rows,
    }


def print_extrapolation(ex: dict) -> None:
    s1, s2 = ex["scales"]
    say(f"\nEXTRAPOLATED to scale 1.0 (from scales {s1:g} and {s2:g}); method: {ex['method']}")
    say(
        f"  {'request':<42} {'p95@' + format(s1, 'g'):>10} {'p95@' + format(s2, 'g'):>10} {'p50@1.0':>9} "
        f"{'p95@1.0':>9}  {'goal':<26} {'met?':<5}"
    )
    for r in ex["rows"]:
        p95 = r["p95_ms"]
        say(
            f"  {r['name']:<42} {fmt_ms(p95[str(s1)]):>10} {fmt_ms(p95[str(s2)]):>10} {fmt_ms(r['p50_ms']['1.0']):>9} "
            f"{fmt_ms(p95['1.0']):>9}  {GOAL_TEXT[r['goal']]:<26} {met(r, p95['1.0']):<5}"
        )


# -------------------------------------------------------------------------------------------------- main


def open_api(data: Path):
    """mirror.api.Api over the synced mirror."""
    from mirror.api import Api
    from mirror.settings import Settings

    return Api(Settings(data_dir=data))


def say_machine() -> dict:
    """Print the benchmark's title and the machine it runs on; those facts, for the JSON document."""
    facts = _st.machine_facts()
    say("FDA Explorer Offline: query latency benchmark (SYNTHETIC data from bench/synth_mirror.py)")
    say(
        f"machine: {facts['cores']} cores, {facts['cpu'] or 'cpu ?'}, {facts['ram_gib']} GiB RAM; Python "
        f"{facts['python']}, duckdb {facts['duckdb']}; FDAX_* environment: {facts['fdax_env'] or 'none'}"
    )
    return facts


def main_existing(ap: argparse.ArgumentParser, args) -> int:
    """--site (+ --data-dir, or --url): one scale, the site's own, on a mirror synced earlier; no generation or sync."""
    global HOW
    if not args.site or not (args.data_dir or args.url) or args.scales or args.upgraded:
        ap.error("--site needs --data-dir or --url (or both), and goes without --scales and --upgraded")
    marker = args.site / synth.MARKER
    if not marker.is_file():
        ap.error(f"{args.site}: no {synth.MARKER}; give a folder that bench/synth_mirror.py wrote")
    summary = json.loads(marker.read_text())
    scale = summary["scale"]
    facts = say_machine()
    ev = summary["endpoints"]["event"]
    say(
        f"site: {args.site}, scale {scale:g}, {sum(e['records'] for e in summary['endpoints'].values()):,} records; "
        f"event {ev['records']:,}: DXY {ev['product_codes']['focus']['DXY']:,} "
        f"(2020: {ev['focus_by_year']['DXY'].get('2020', 0):,}), 'multiple myeloma' {ev['myeloma_records']:,}"
    )
    if args.url:
        HOW = f"HTTP GET to the `mirror serve` at {args.url}"
        api = HttpApi(args.url)
    else:
        api = open_api(args.data_dir)
    say(f"mirror: {args.data_dir or '(the one the server serves)'}; requests: {HOW}; {args.repeat} timed calls each")
    before = _st.idle_load(1.0)
    say(f"load: other processes kept {before:.2f} cores busy just before the timed calls; {os.getloadavg()}")
    try:
        rows = [run_request(api, r, args.repeat, args.budget) for r in build_requests(summary)]
    finally:
        api.close()
    after = _st.idle_load(1.0)
    say(f"load: other processes kept {after:.2f} cores busy just after; {os.getloadavg()}")
    print_table(scale, rows, args.repeat)
    if args.json:
        doc = {
            "synthetic": True,
            "machine": facts,
            "site": str(args.site),
            "data_dir": str(args.data_dir) if args.data_dir else None,
            "url": args.url,
            "scale": scale,
            "repeat": args.repeat,
            "other_load_cores": {"before": round(before, 2), "after": round(after, 2)},
            "goals_ms_p95_at_scale_1": GOALS_MS,
            "requests": [
                {k: v for k, v in row.items() if k != "ms"} | {"ms": [round(x, 3) for x in row.get("ms", [])]}
                for row in rows
            ],
        }
        print(json.dumps(doc, indent=2, default=str))
    bad = [r for r in rows if "error" in r or r.get("hits_ok") is False]
    return 1 if bad else 0


def main(argv: list[str] | None = None) -> int:
    global OUT
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--scale", type=float, default=0.1, help="data size as a fraction of openFDA's 2023 (default 0.1)")
    ap.add_argument(
        "--scales",
        help="two or more scales, comma-separated (e.g. 0.1,0.3): measured in turn, then "
        "extrapolated linearly to 1.0 from the two largest; overrides --scale",
    )
    ap.add_argument(
        "--workdir",
        help="work folder, one sub-folder per scale (default: $TMPDIR/fdax-query-latency); "
        "kept, so --reuse can skip generation and sync next time",
    )
    ap.add_argument(
        "--reuse",
        action="store_true",
        help="reuse the site and synced mirror an earlier run left in the work folder (same scale, seed)",
    )
    ap.add_argument("--repeat", type=int, default=20, help="timed calls per request after one warm-up (default 20)")
    ap.add_argument(
        "--budget",
        type=float,
        default=120.0,
        help="seconds of timed calls per request before it stops repeating (at least 3 calls; default 120)",
    )
    ap.add_argument("--seed", type=int, default=2023)
    ap.add_argument("--json", action="store_true", help="JSON results on stdout (the report goes to stderr)")
    ap.add_argument("--force", action="store_true", help="go on even if the disk looks too small")
    ap.add_argument(
        "--upgraded",
        action="store_true",
        help="also time every request on a copy upgraded by `mirror sync` (data-upgraded), side by side",
    )
    ap.add_argument(
        "--site", type=Path, help="a site synth_mirror.py wrote, already synced into --data-dir: no generation"
    )
    ap.add_argument("--data-dir", type=Path, help="with --site: the mirror synced from it (measured as it is)")
    ap.add_argument("--url", help="with --site: time HTTP GETs to this running `mirror serve` instead of api.get")
    args = ap.parse_args(argv)
    if args.json:
        OUT = sys.stderr
    if args.site or args.url or args.data_dir:
        return main_existing(ap, args)
    scales = sorted({float(s) for s in args.scales.split(",")}) if args.scales else [args.scale]
    if any(not 0 < s <= 5 for s in scales) or args.repeat < 1:
        ap.error("scales must be in (0, 5] and --repeat at least 1")
    work = prepare_workdir(args.workdir)
    facts = say_machine()
    say(f"work folder: {work}; scale(s): {', '.join(f'{s:g}' for s in scales)}; {args.repeat} timed calls per request")
    doc: dict = {
        "synthetic": True,
        "machine": facts,
        "workdir": str(work),
        "repeat": args.repeat,
        "seed": args.seed,
        "goals_ms_p95_at_scale_1": GOALS_MS,
        "scales": {},
    }
    results: dict[float, list[dict]] = {}
    for scale in scales:
        base = work / f"scale-{scale:g}"
        say(f"\n=== scale {scale:g} ===")
        summary, site_reused = ensure_site(base, scale, args.seed, args.reuse, args.force)
        ev = summary["endpoints"]["event"]
        say(
            f"site: {sum(e['records'] for e in summary['endpoints'].values()):,} records, "
            f"{sum(e['zip_bytes'] for e in summary['endpoints'].values()) / 2**20:,.0f} MiB zipped"
            + ("" if site_reused else f", generated in {summary['seconds']:.0f} s")
            + f"; event {ev['records']:,}: DXY {ev['product_codes']['focus']['DXY']:,} "
            f"(2020: {ev['focus_by_year']['DXY'].get('2020', 0):,}), 'multiple myeloma' {ev['myeloma_records']:,}"
        )
        sync, sync_reused = ensure_sync(base, summary, args.reuse)
        report_sync(sync, sync_reused, summary)
        entry = {
            "site": {k: summary[k] for k in ("scale", "seed", "seconds")}
            | {
                "reused": site_reused,
                "endpoints": {
                    ep: {k: e[k] for k in ("records", "files", "json_bytes", "zip_bytes")}
                    for ep, e in summary["endpoints"].items()
                },
            },
            "sync": sync | {"reused": sync_reused},
        }
        doc["scales"][f"{scale:g}"] = entry
        api = open_api(base / "data")
        reqs = build_requests(summary)
        rows, up_rows, up_api = [], [], None
        if args.upgraded:
            up, entry["upgrade"] = ensure_upgraded(base)
            up_api = open_api(up)
        say(f"load: other processes kept {_st.idle_load(1.0):.2f} cores busy just before the timed calls")
        try:
            for r in reqs:
                rows.append(run_request(api, r, args.repeat, args.budget))
                if up_api is not None:
                    up_rows.append(run_request(up_api, r, args.repeat, args.budget))
        finally:
            api.close()
            if up_api is not None:
                up_api.close()
        say(f"load: other processes kept {_st.idle_load(1.0):.2f} cores busy just after")
        results[scale] = up_rows or rows
        print_table(scale, rows, args.repeat)
        if up_rows:
            say("\n(B) upgraded:")
            print_table(scale, up_rows, args.repeat)
            print_side_by_side(scale, list(zip(rows, up_rows)))
            entry["upgraded_requests"] = [
                {k: v for k, v in row.items() if k != "ms"} | {"ms": [round(x, 3) for x in row.get("ms", [])]}
                for row in up_rows
            ]
        entry["requests"] = [
            {k: v for k, v in row.items() if k != "ms"} | {"ms": [round(x, 3) for x in row.get("ms", [])]}
            for row in rows
        ]
    ex = extrapolate(results)
    if ex:
        if args.upgraded:
            say("\n(the extrapolation is of the upgraded mirrors, B)")
        print_extrapolation(ex)
        doc["extrapolated_to_scale_1"] = ex
    elif len(scales) == 1 and results:
        say("\none scale measured: no extrapolation to 1.0 (run --scales A,B for one)")
    if args.json:
        print(json.dumps(doc, indent=2, default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main())
