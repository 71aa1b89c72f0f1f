"""Server latency benchmark: what MCP adds to a tool call, and what HTTP + SSE add to a question, side by side.

Usage (from the repository root):

    .venv/bin/python bench/servers_latency.py [--data-dir DIR] [--repeat 20] [--json]

Without --data-dir it syncs the shipped sample mirror into a temporary folder (`mirror sync --sample`); with it, the
mirror's files are hard-linked into that folder (the questions' sessions are written there, not into yours). Then:

1. Tool calls: each tool below is called --repeat times (in turn, round by round) directly in process
   (`agent.servers.surface.call`, the function both servers run), then through the MCP SDK's client to
   `fda-explorer mcp` over stdio (a subprocess) and over Streamable HTTP (127.0.0.1); p50 / p95 in ms, and the
   overhead (MCP p50 - direct p50).
2. Questions (`--model none`): `Assistant.stream` in process against `fda-explorer serve` over HTTP
   (`POST /threads/{id}/runs/stream`, read as SSE): time to the first event, to the first step, and to the
   answer; p50 over --repeat questions, each on a new thread.

Not a test: nothing fails a build. Figures depend on the machine; the sample mirror is small, so tool times are
mostly fixed costs (the point here: the overhead is fixed too).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

CALLS = [
    ("resolve_device", {"query": "insulin pump"}),
    ("search_events", {"product_codes": ["FRN"]}),
    ("count_by", {"dataset": "events", "field": "year"}),
    ("openfda_query", {"endpoint": "510k", "count": "product_code", "limit": 10}),
]
QUESTION = "How many adverse events for product code FRN?"


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round(p / 100 * (len(xs) - 1)))]


def start(args: list[str], log: Path) -> tuple[subprocess.Popen, str]:
    """`python -m agent.servers ARGS`, and the address it prints once it listens."""
    err = open(log, "wb")
    proc = subprocess.Popen(
        [sys.executable, "-m", "agent.servers", *args],
        cwd=ROOT,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=err,
    )
    for _ in range(1200):
        found = re.search(r"http://127\.0\.0\.1:\d+(/mcp)?", log.read_text(errors="replace"))
        if found:
            return proc, found.group(0)
        if proc.poll() is not None:
            break
        time.sleep(0.05)
    proc.kill()
    raise SystemExit(f"the server did not start: {log.read_text(errors='replace')}")


async def _tool_calls(data: Path, repeat: int, work: Path) -> dict[str, dict[str, list[float]]]:
    """Each round calls the tool directly, over MCP stdio and over MCP HTTP, in turn (drift hits all three)."""
    from mcp import Client, StdioServerParameters

    from agent.servers.surface import call
    from mirror.api import Api
    from mirror.settings import Settings

    api = Api(Settings(data_dir=data))
    stdio = StdioServerParameters(
        command=sys.executable, args=["-m", "agent.servers", "mcp", "--data-dir", str(data)], cwd=str(ROOT)
    )
    proc, url = start(["mcp", "--http", "0", "--data-dir", str(data)], work / "mcp.log")
    out: dict[str, dict[str, list[float]]] = {
        name: {"direct": [], "mcp stdio": [], "mcp http": []} for name, _ in CALLS
    }
    try:
        async with Client(stdio) as over_stdio, Client(url) as over_http:
            ways = {
                "direct": lambda n, a: _async(call, api, n, a),
                "mcp stdio": over_stdio.call_tool,
                "mcp http": over_http.call_tool,
            }
            for name, args in CALLS:
                for i in range(repeat + 1):  # round 0 warms up
                    for way, fn in ways.items():
                        t = time.perf_counter()
                        result = await fn(name, args)
                        ms = (time.perf_counter() - t) * 1000
                        assert not (getattr(result, "is_error", False) or getattr(result, "error", "")), (way, name)
                        if i:
                            out[name][way].append(ms)
    finally:
        api.close()
        proc.terminate()
        proc.wait(15)
    return out


async def _async(fn, *args):
    return fn(*args)


def _marks(events) -> dict[str, float]:
    """Milliseconds from the start to the first event, the first step and the answer of an event iterator."""
    t, marks = time.perf_counter(), {}
    for kind in events:
        ms = (time.perf_counter() - t) * 1000
        marks.setdefault("first event", ms)
        if kind == "step":
            marks.setdefault("first step", ms)
        if kind == "answer":
            marks["answer"] = ms
    return marks


def _sse_kinds(client, thread_id: str):
    with client.stream("POST", f"/threads/{thread_id}/runs/stream", json={"input": {"question": QUESTION}}) as resp:
        for line in resp.iter_lines():
            if line.startswith("event: "):
                yield line[7:]


def asks(data: Path, repeat: int, work: Path) -> dict[str, dict[str, list[float]]]:
    """Each round asks once in process (`Assistant.stream`) and once over HTTP SSE, each on a new thread."""
    import httpx

    from agent.assistant import Assistant
    from agent.settings import AgentSettings
    from mirror.settings import Settings

    a = Assistant(Settings(data_dir=data), AgentSettings(model="none"))
    proc, url = start(["serve", "--port", "0", "--model", "none", "--data-dir", str(data)], work / "serve.log")
    out = {way: {"first event": [], "first step": [], "answer": []} for way in ("in process", "HTTP SSE")}
    try:
        with httpx.Client(base_url=url, timeout=120) as c:
            for i in range(repeat + 1):  # round 0 warms up
                rounds = {
                    "in process": _marks(ev["type"] for ev in a.stream(QUESTION, f"bench-in-{i}-{proc.pid}")),
                    "HTTP SSE": _marks(_sse_kinds(c, f"bench-sse-{i}-{proc.pid}")),
                }
                for way, marks in rounds.items():
                    for k in out[way]:
                        if i:
                            out[way][k].append(marks[k])
    finally:
        a.close()
        proc.terminate()
        proc.wait(15)
    return out


def private_copy(src: Path, work: Path) -> Path:
    """The mirror's database files hard-linked (copied across file systems) into the work folder, so that the
    sessions the questions write stay there and leave with it."""
    data = work / "data"
    for f in (src / "db").rglob("*"):
        if f.is_file():
            dest = data / "db" / f.relative_to(src / "db")
            dest.parent.mkdir(parents=True, exist_ok=True)
            try:
                os.link(f, dest)
            except OSError:
                shutil.copy2(f, dest)
    return data


def run(opts, work: Path) -> dict:
    import anyio

    if opts.data_dir is None:
        data = work / "data"
        subprocess.run(
            [sys.executable, "-m", "mirror", "sync", "--sample", "--data-dir", str(data), "--quiet"],
            check=True,
            capture_output=True,
        )
    else:
        data = private_copy(opts.data_dir, work)
    return {
        "repeat": opts.repeat,
        "data_dir": str(opts.data_dir or "the sample mirror"),
        "tools": anyio.run(_tool_calls, data, opts.repeat, work),
        "asks": asks(data, opts.repeat, work),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data-dir", type=Path, default=None, help="A synced mirror (default: the sample, synced)")
    ap.add_argument("--repeat", type=int, default=20)
    ap.add_argument("--json", action="store_true")
    opts = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="servers-latency-"))
    try:
        report = run(opts, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if opts.json:
        print(json.dumps(report, indent=1))
        return
    print(f"Tool calls, ms (p50 / p95 over {opts.repeat}; overhead = MCP p50 - direct p50), {report['data_dir']}")
    print(f"{'tool':<16}{'direct':>16}{'MCP stdio':>16}{'MCP HTTP':>16}{'+stdio':>9}{'+HTTP':>9}")
    for name, ways in report["tools"].items():
        cells = [f"{statistics.median(v):7.2f} /{pct(v, 95):6.2f}" for v in ways.values()]
        d = statistics.median(ways["direct"])
        print(
            f"{name:<16}"
            + "".join(f"{c:>16}" for c in cells)
            + f"{statistics.median(ways['mcp stdio']) - d:9.2f}{statistics.median(ways['mcp http']) - d:9.2f}"
        )
    print(f"\nA question (--model none), ms p50 over {opts.repeat}: '{QUESTION}'")
    print(f"{'':<14}{'in process':>12}{'HTTP SSE':>12}{'+HTTP':>9}")
    for mark in ("first event", "first step", "answer"):
        a, b = (statistics.median(report["asks"][way][mark]) for way in ("in process", "HTTP SSE"))
        print(f"{mark:<14}{a:12.2f}{b:12.2f}{b - a:9.2f}")


if __name__ == "__main__":
    main()
