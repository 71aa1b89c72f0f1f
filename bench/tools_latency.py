"""Tool latency benchmark: the assistant's resolvers and searchers on the SYNTHETIC full-size mirror.

Usage (from the repository root):

    .venv/bin/python bench/tools_latency.py [--scale 0.1] [--workdir DIR] [--reuse] [--repeat 20] [--json]
    .venv/bin/python bench/tools_latency.py --scales 0.01,0.1 --reuse      # two scales + extrapolation to 1.0

It builds (or, with --reuse, keeps) the SYNTHETIC site and mirror of bench/query_latency.py (same work folder
layout, same generator bench/synth_mirror.py), then times each tool in process through
`agent.tools.run_tool(ToolContext(Api(...)), name, args)`: one warm-up call (which also builds the resolvers'
per-mirror vocabularies; its time is printed apart), then --repeat timed calls; p50 / p95 in ms and the goal:
p95 < 300 ms for resolve_device and each searcher with a product code and a date range, < 1 s for count_by
over all events (at scale 1.0). With two scales the figures are extrapolated linearly to 1.0 (printed with
the method). Not a test: nothing fails a build.
With --upgraded, each call is also timed, right after, on the hard-linked copy that `mirror sync` upgraded to the
current layout (`data-upgraded`, made as by bench/query_latency.py --upgraded), and the two are shown side by side.
--only LABEL times only the calls whose label starts with LABEL (e.g. --only resolve_device).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
GOAL = {"resolver": 300.0, "searcher": 300.0, "count_all": 1000.0}

CALLS = [  # (label, goal, tool, args)
    ("resolve_device 'pacemaker'", "resolver", "resolve_device", {"query": "pacemaker"}),
    ("resolve_device 'insulin pump'", "resolver", "resolve_device", {"query": "insulin pump"}),
    ("resolve_device 'pacemeker' (typo)", "resolver", "resolve_device", {"query": "pacemeker"}),
    ("resolve_device 'DXY'", "resolver", "resolve_device", {"query": "DXY"}),
    ("resolve_manufacturer 'Medtronic'", "resolver", "resolve_manufacturer", {"query": "Medtronic"}),
    ("resolve_location 'Germany'", "resolver", "resolve_location", {"location": "Germany"}),
    (
        "search_events DXY 2020",
        "searcher",
        "search_events",
        {"product_codes": ["DXY"], "date_from": "2020-01-01", "date_to": "2020-12-31"},
    ),
    (
        "search_events DXY deaths",
        "searcher",
        "search_events",
        {"product_codes": ["DXY"], "filters": {"event_type": "Death"}},
    ),
    ("search_events text 'multiple myeloma'", "searcher", "search_events", {"text": "multiple myeloma"}),
    (
        "search_recalls FRN 2015-2023",
        "searcher",
        "search_recalls",
        {"product_codes": ["FRN"], "date_from": "2015-01-01", "date_to": "2023-12-31"},
    ),
    (
        "search_510k LZG 2010-2023",
        "searcher",
        "search_510k",
        {"product_codes": ["LZG"], "date_from": "2010-01-01", "date_to": "2023-12-31"},
    ),
    (
        "search_pma NIQ 2000-2023",
        "searcher",
        "search_pma",
        {"product_codes": ["NIQ"], "date_from": "2000-01-01", "date_to": "2023-12-31"},
    ),
    ("search_classifications DXY", "searcher", "search_classifications", {"product_codes": ["DXY"]}),
    (
        "search_udi DXY 2015-2023",
        "searcher",
        "search_udi",
        {"product_codes": ["DXY"], "date_from": "2015-01-01", "date_to": "2023-12-31"},
    ),
    ("search_registrations DXY", "searcher", "search_registrations", {"product_codes": ["DXY"]}),
    ("count_by events year (all)", "count_all", "count_by", {"dataset": "events", "field": "year"}),
    ("count_by events event_type (all)", "count_all", "count_by", {"dataset": "events", "field": "event_type"}),
    ("count_by events product_code (all)", "count_all", "count_by", {"dataset": "events", "field": "product_code"}),
    (
        "count_by events month, DXY",
        "searcher",
        "count_by",
        {"dataset": "events", "field": "month", "product_codes": ["DXY"]},
    ),
]


def _ql():
    spec = importlib.util.spec_from_file_location("query_latency", ROOT / "bench" / "query_latency.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules["query_latency"] = mod
    spec.loader.exec_module(mod)
    return mod


def pct(xs: list[float], p: float) -> float:
    s = sorted(xs)
    return s[max(0, min(len(s) - 1, int(round(p / 100 * len(s) + 0.5)) - 1))]


def measure(datas: list[Path], repeat: int, say, only: str | None = None) -> list[list[dict]]:
    """Each call on each mirror in turn (the same call back to back on every mirror); rows per mirror. With
    `only`, just the calls whose label starts with it."""
    from agent.tools import ToolContext
    from mirror.api import Api
    from mirror.settings import Settings

    ctxs = [ToolContext(Api(Settings(data_dir=d))) for d in datas]
    rows: list[list[dict]] = [[] for _ in datas]
    try:
        for label, goal, name, args in (c for c in CALLS if only is None or c[0].startswith(only)):
            for ctx, out in zip(ctxs, rows):
                out.append(_time_call(ctx, label, goal, name, args, repeat, say))
    finally:
        for ctx in ctxs:
            ctx.close()
    return rows


def _time_call(ctx, label: str, goal: str, name: str, args: dict, repeat: int, say) -> dict:
    from agent.tools import ToolError, run_tool

    t0 = time.perf_counter()
    try:
        first = run_tool(ctx, name, args)
    except (ToolError, KeyError) as e:
        say(f"  {label}: not run ({e})")
        return {"label": label, "goal": goal, "error": str(e)}
    warm = (time.perf_counter() - t0) * 1000
    ms = []
    for _ in range(repeat):
        t = time.perf_counter()
        run_tool(ctx, name, args)
        ms.append((time.perf_counter() - t) * 1000)
    return {
        "label": label,
        "goal": goal,
        "total": first.total,
        "first_ms": warm,
        "p50": statistics.median(ms),
        "p95": pct(ms, 95),
        "ms": ms,
    }


def side_by_side(scale: float, a_rows: list[dict], b_rows: list[dict], say) -> None:
    say(f"\nside by side at scale {scale:g}: as synced (A) and upgraded (B), each call timed on A then on B")
    say(f"{'tool call':42} {'A p50':>8} {'A p95':>8} {'B p50':>8} {'B p95':>8} {'p95 A/B':>8}  same total?")
    for a, b in zip(a_rows, b_rows):
        if "p95" not in a or "p95" not in b:
            continue
        say(
            f"{a['label']:42} {a['p50']:>8,.1f} {a['p95']:>8,.1f} {b['p50']:>8,.1f} {b['p95']:>8,.1f} "
            f"{a['p95'] / max(b['p95'], 1e-3):>7.1f}x  {'yes' if a['total'] == b['total'] else 'NO'}"
        )


def table(scale: float, rows: list[dict], say) -> None:
    say(f"\ntool latency at scale {scale:g} (SYNTHETIC data; in process; first call apart, then the timed calls)")
    say(f"{'tool call':42} {'total':>10} {'first ms':>9} {'p50 ms':>8} {'p95 ms':>8}  goal (scale 1.0)")
    for r in rows:
        if "error" in r:
            say(f"{r['label']:42} {'-':>10} {'-':>9} {'-':>8} {'-':>8}  not run: {r['error'][:60]}")
            continue
        g = GOAL[r["goal"]]
        say(
            f"{r['label']:42} {r['total']:>10,} {r['first_ms']:>9,.0f} {r['p50']:>8,.1f} {r['p95']:>8,.1f}  "
            f"p95 < {g:,.0f} ms: {'yes' if r['p95'] < g else 'NO'} at this scale"
        )


def extrapolate(results: dict[float, list[dict]], say) -> dict:
    if len(results) < 2:
        return {}
    a, b = sorted(results)[-2:]
    out = {}
    say(
        f"\nextrapolated to scale 1.0: straight line through the p95 at scales {a:g} and {b:g} "
        "(latency assumed linear in data size; an upper bound for indexed lookups)"
    )
    for ra, rb in zip(results[a], results[b]):
        if "p95" not in ra or "p95" not in rb:
            continue
        slope = (rb["p95"] - ra["p95"]) / (b - a)
        est = rb["p95"] + slope * (1.0 - b)
        out[ra["label"]] = est
        g = GOAL[ra["goal"]]
        say(f"  {ra['label']:42} p95 ~ {est:>8,.0f} ms  goal {g:,.0f} ms: {'met' if est < g else 'NOT met'}")
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--scale", type=float, default=0.1)
    ap.add_argument("--scales")
    ap.add_argument("--workdir")
    ap.add_argument("--reuse", action="store_true")
    ap.add_argument("--repeat", type=int, default=20)
    ap.add_argument("--seed", type=int, default=2023)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--force", action="store_true")
    ap.add_argument("--upgraded", action="store_true", help="also time every call on the upgraded copy, side by side")
    ap.add_argument("--only", help="time only the calls whose label starts with this, e.g. 'resolve_device'")
    args = ap.parse_args(argv)
    out = sys.stderr if args.json else sys.stdout
    say = lambda *a: print(*a, file=out, flush=True)  # noqa: E731
    ql = _ql()
    ql.OUT = out
    scales = sorted({float(s) for s in args.scales.split(",")}) if args.scales else [args.scale]
    work = ql.prepare_workdir(args.workdir)
    say("FDA Explorer Offline: tool latency benchmark (SYNTHETIC data from bench/synth_mirror.py)")
    facts = ql._st.machine_facts()
    say(
        f"machine: {facts['cores']} cores, {facts['cpu'] or 'cpu ?'}, {facts['ram_gib']} GiB RAM; Python "
        f"{facts['python']}, duckdb {facts['duckdb']}; FDAX_* environment: {facts['fdax_env'] or 'none'}"
    )
    results, doc = {}, {"synthetic": True, "scales": {}}
    for scale in scales:
        base = work / f"scale-{scale:g}"
        summary, _ = ql.ensure_site(base, scale, args.seed, args.reuse, args.force)
        sync, reused = ql.ensure_sync(base, summary, args.reuse)
        ql.report_sync(sync, reused, summary)
        datas = [base / "data"] + ([ql.ensure_upgraded(base)[0]] if args.upgraded else [])
        say(f"load: other processes kept {ql._st.idle_load(1.0):.2f} cores busy just before the timed calls")
        per = measure(datas, args.repeat, say, args.only)
        say(f"load: other processes kept {ql._st.idle_load(1.0):.2f} cores busy just after")
        rows = per[-1]
        results[scale] = rows
        table(scale, per[0], say)
        if len(per) > 1:
            say("\n(B) upgraded:")
            table(scale, per[1], say)
            side_by_side(scale, per[0], per[1], say)
        doc["scales"][f"{scale:g}"] = [{k: v for k, v in r.items() if k != "ms"} for r in rows]
    if args.upgraded and len(results) > 1:
        say("\n(the extrapolation is of the upgraded mirrors, B)")
    doc["extrapolated_p95_ms_at_scale_1"] = extrapolate(results, say)
    if args.json:
        print(json.dumps(doc, indent=2, default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main())
