"""A burst of hostile searches at `mirror serve` (review D3, D14): the server's RSS and the latencies (not a test).

Usage (from the repository root):

    .venv/bin/python bench/hostile_burst.py --data-dir D                       # this tree
    .venv/bin/python bench/hostile_burst.py --data-dir D --old /tmp/old-tree   # and an older tree, side by side

`--old` is a folder holding an older `mirror` package (e.g. `git archive e9080b7 mirror | tar -x -C /tmp/old`):
its server is started from there with the same interpreter. Each server gets `--requests` hostile requests (the
mix below, cycled), `--concurrency` at once, then one ordinary request. Printed per tree: RSS at start, peak
(sampled every 20 ms with psutil) and after, the latencies (p50, p90, max), the statuses, and whether the ordinary
request was answered. A request gets `--timeout` seconds before the client gives up on it (counted as "timeout").
"""

from __future__ import annotations

import argparse
import re
import statistics
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import psutil

ROOT = Path(__file__).resolve().parents[1]


def hostile() -> list[tuple[str, str]]:
    """(endpoint, query string) pairs: bare words, deep nesting, long ORs, wildcards, a huge search_after."""
    words = "+".join(f"w{i}" for i in range(100))
    real = "pacemaker+lead+battery+wire+failure+patient+device+the+a+of"
    return [
        ("event", f"search={words}&limit=1"),
        ("event", f"search={real}&limit=1"),
        ("classification", f"search={words}&limit=1"),
        ("event", "search=" + "(" * 300 + "device.brand_name:x" + ")" * 300),
        ("event", "search=" + "+OR+".join(f"device.generic_name:w{i}" for i in range(1000))),
        ("event", "search=" + "+OR+".join(f"device.generic_name:w{i}" for i in range(100))),
        ("event", "search=" + "NOT+" * 5000 + "x"),
        ("classification", "search=" + "+".join(f"*{c}*" for c in "aeiourstln") + "&limit=1"),
        ("event", "search=NOT+" + real.replace("+", "+AND+NOT+") + "&limit=1"),
        ("event", "search_after=0=" + "9" * 100),
    ]


def start(tree: Path, data_dir: Path) -> tuple[subprocess.Popen, str]:
    p = subprocess.Popen(
        [sys.executable, "-m", "mirror", "serve", "--port", "0", "--data-dir", str(data_dir)],
        cwd=tree,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    line = p.stderr.readline()
    m = re.search(r"on (http://127\.0\.0\.1:\d+)/", line)
    if not m:
        p.kill()
        raise SystemExit(f"{tree}: the server did not start: {line}{p.stderr.read()}")
    base = m.group(1)
    for _ in range(200):
        try:
            httpx.get(base + "/download.json", timeout=5)
            return p, base
        except httpx.TransportError:
            time.sleep(0.1)
    p.kill()
    raise SystemExit(f"{tree}: the server did not answer")


def run(tree: Path, data_dir: Path, requests: int, concurrency: int, timeout: float) -> dict:
    p, base = start(tree, data_dir)
    proc = psutil.Process(p.pid)
    rss = [proc.memory_info().rss]
    done = threading.Event()

    def sample() -> None:
        while not done.wait(0.02):
            try:
                rss.append(proc.memory_info().rss)
            except psutil.Error:
                return

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    mix = hostile()
    statuses: dict[str, int] = {}
    lat: list[float] = []

    def one(i: int) -> None:
        ep, q = mix[i % len(mix)]
        t = time.perf_counter()
        try:
            code = str(httpx.get(f"{base}/device/{ep}.json?{q}", timeout=timeout).status_code)
        except httpx.TimeoutException:
            code = "timeout"
        except httpx.TransportError as e:
            code = type(e).__name__
        lat.append(time.perf_counter() - t)
        statuses[code] = statuses.get(code, 0) + 1

    t0 = time.perf_counter()
    try:
        with ThreadPoolExecutor(concurrency) as pool:
            list(pool.map(one, range(requests)))
        wall = time.perf_counter() - t0
        try:
            ordinary = httpx.get(base + "/device/event.json?limit=1", timeout=60).status_code
        except httpx.TransportError as e:
            ordinary = type(e).__name__
        time.sleep(0.5)
        after = proc.memory_info().rss
    finally:
        done.set()
        p.terminate()
        try:
            p.wait(timeout=30)
        except subprocess.TimeoutExpired:  # a server still busy with searches it cannot stop
            p.kill()
            p.wait()
    lat.sort()
    return {
        "start": rss[0],
        "peak": max(rss),
        "after": after,
        "p50": statistics.median(lat),
        "p90": lat[int(0.9 * (len(lat) - 1))],
        "max": lat[-1],
        "wall": wall,
        "statuses": statuses,
        "ordinary": ordinary,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data-dir", type=Path, required=True, help="a synced mirror (mirror sync --sample, or bigger)")
    ap.add_argument("--old", type=Path, help="a folder holding an older `mirror` package, run side by side")
    ap.add_argument("--requests", type=int, default=50)
    ap.add_argument("--concurrency", type=int, default=8)
    ap.add_argument("--timeout", type=float, default=120.0, help="seconds the client waits for one answer")
    args = ap.parse_args()
    trees = {"this tree": ROOT} | ({"old tree": args.old} if args.old else {})
    print(f"{args.requests} hostile requests, {args.concurrency} at once, on {args.data_dir}")
    print(
        f"{'':10} {'RSS start':>10} {'peak':>8} {'after':>8} {'p50 s':>7} {'p90 s':>7} {'max s':>7} {'wall s':>7}  "
        "statuses; ordinary request after"
    )
    for name, tree in trees.items():
        r = run(tree, args.data_dir, args.requests, args.concurrency, args.timeout)
        mb = lambda b: f"{b / 2**20:,.0f} MB"  # noqa: E731
        print(
            f"{name:10} {mb(r['start']):>10} {mb(r['peak']):>8} {mb(r['after']):>8} {r['p50']:7.2f} "
            f"{r['p90']:7.2f} {r['max']:7.2f} {r['wall']:7.1f}  {r['statuses']}; {r['ordinary']}",
            flush=True,
        )


if __name__ == "__main__":
    main()
