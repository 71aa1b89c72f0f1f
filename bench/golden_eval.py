"""Agent evaluation on the golden set (tests/golden/), scored and timed (also run by `agent_eval.py --bank golden`).

Usage (from the repository root):

    .venv/bin/python bench/golden_eval.py                      # --model none
    .venv/bin/python bench/golden_eval.py --embedded           # also the embedded SmolLM2-135M (llama-cpp-python)
    .venv/bin/python bench/golden_eval.py --verbose            # one line per question, and what was wrong
    .venv/bin/python bench/golden_eval.py --cases events-code-count,followup-foz-events,followup-foz-recalls
    .venv/bin/python bench/golden_eval.py --json > r.json      # table on stderr, JSON on stdout

It builds the sample mirror itself (`python -m mirror sync --sample --data-dir WORK/data --quiet`, into a new
temporary folder that is deleted afterwards, or into --workdir DIR, kept and reused), so it runs from a fresh clone.
The sample holds real openFDA / AccessGUDID records (nothing synthetic). Each model answers every golden question
in process, with one Assistant per session group (follow-ups run in their session, in order), exactly as
tests/agent/test_golden.py does; the checks are that test's (`check`): this script imports them. Each Assistant
first answers an untimed "hello" in a session of its own, so one-time set-up is not charged to a question.

Measured, per model:
  right figures       share of the questions with expected figures whose answer holds every figure (computed live
                      by SQL, written as the answers write numbers: 1,234) with the right route
  expected IDs cited  share of the questions with expected record IDs whose answer cites them all
  all checks pass     share of all questions passing everything the golden test asserts (route, plan, args, ...)
  citations valid     share of answers whose every cited ID exists in the mirror (checked by SQL)
  model calls         per question: mean and max; max over single-part questions (all but tag `multi`)
  time excl. model    wall time of Assistant.ask minus the time spent inside the model's json()/text() calls
  tool time           the union of the intervals in which agent.nodes.run_tool ran (tools run concurrently)
  graph overhead      time excl. model minus tool time: planning, state, checkpointing, answer, audit log
Goals (issue 5) are printed beside: every citation valid; right figures on at least 90% with `none`; at most 2 model
calls for a single-part question; graph overhead under 50 ms (mean). Known agent bugs are strict xfails in the
golden set and count as wrong here: the figures measure the agent, not the test. Not a test: nothing fails a build.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from agent import nodes as agent_nodes  # noqa: E402
from tests.agent.test_golden import Mirror, check, load_cases, session_groups  # noqa: E402

sys.path.insert(0, str(ROOT / "bench"))
from eval_setup import ModelMissing, embedded_ready, make_assistant, sample_mirror  # noqa: E402

GOALS = {"figures": 0.90, "single_part_calls": 2, "overhead_ms": 50.0}


# -- timers ---------------------------------------------------------------------------------------------------


class ToolTimer:
    """Wraps agent.nodes.run_tool (the name the graph's tool node calls) and records each call's interval."""

    def __init__(self) -> None:
        self.spans: list[tuple[float, float]] = []
        self.lock = threading.Lock()
        self.original = agent_nodes.run_tool

    def __enter__(self) -> "ToolTimer":
        def timed(*a, **kw):
            t0 = time.perf_counter()
            try:
                return self.original(*a, **kw)
            finally:
                with self.lock:
                    self.spans.append((t0, time.perf_counter()))

        agent_nodes.run_tool = timed
        return self

    def __exit__(self, *exc) -> None:
        agent_nodes.run_tool = self.original

    def take(self) -> float:
        """Seconds covered by the calls since the last take (overlapping calls counted once)."""
        with self.lock:
            spans, self.spans = sorted(self.spans), []
        total, end = 0.0, float("-inf")
        for a, b in spans:
            if b > end:
                total += b - max(a, end)
                end = b
        return total


class ModelTimer:
    """Wraps a model object's json() and text() (text's chunks are timed as they are drawn) and counts calls."""

    def __init__(self, model) -> None:
        self.seconds, self.calls = 0.0, 0
        if model is None:
            return
        json_fn, text_fn = model.json, model.text

        def timed_json(*a, **kw):
            self.calls += 1
            t0 = time.perf_counter()
            try:
                return json_fn(*a, **kw)
            finally:
                self.seconds += time.perf_counter() - t0

        def timed_text(*a, **kw):
            self.calls += 1
            t0 = time.perf_counter()
            try:
                chunks = iter(text_fn(*a, **kw))
            finally:
                self.seconds += time.perf_counter() - t0
            while True:
                t0 = time.perf_counter()
                try:
                    chunk = next(chunks)
                except StopIteration:
                    return
                finally:
                    self.seconds += time.perf_counter() - t0
                yield chunk

        model.json, model.text = timed_json, timed_text

    def take(self) -> tuple[float, int]:
        out = (self.seconds, self.calls)
        self.seconds, self.calls = 0.0, 0
        return out


# -- running the golden set -----------------------------------------------------------------------------------


def private_copy(data: Path, work: Path, label: str) -> Path:
    """A fresh copy of the mirror per model run (sessions and audit logs are written into the data folder)."""
    d = work / f"run-{label}"
    shutil.rmtree(d, ignore_errors=True)
    shutil.copytree(data / "db", d / "db")
    return d


def run_model(label: str, data: Path, cases: list[dict], mirror: Mirror, say, verbose: bool) -> list[dict]:
    """Every case answered by one model; a row per case with the checks and the times."""
    rows = []
    with ToolTimer() as tools:
        for group, members in session_groups(cases).items():
            a = make_assistant(label, data)
            timer = ModelTimer(a.model)
            try:
                a.ask("hello", session_id=f"warm-up-{group}")  # one-time set-up (checkpoint tables), not timed
                for case in members:
                    tools.take(), timer.take()
                    t0 = time.perf_counter()
                    try:
                        out, error = a.ask(case["question"], session_id=f"eval-{group}" if group else None), ""
                    except Exception as e:  # a crash is a wrong answer, and is reported
                        out, error = {}, f"{type(e).__name__}: {e}"
                    wall = time.perf_counter() - t0
                    model_s, model_n = timer.take()
                    rows.append(score(case, out, error, mirror, wall, tools.take(), model_s, model_n))
                    if verbose:
                        say(line(rows[-1]))
            finally:
                a.close()
    return rows


def score(
    case: dict, out: dict, error: str, mirror: Mirror, wall: float, tool_s: float, model_s: float, model_n: int
) -> dict:
    problems = check(case, out, mirror) if out else {"crash": [error]}
    bad = {k: v for k, v in problems.items() if v}
    return {
        "id": case["id"],
        "xfail": bool(case.get("xfail")),
        "multi": "multi" in case.get("tags", []),
        "has_figures": bool(case.get("expect_figures")),
        "has_ids": bool(case.get("expect_ids")),
        "figures_ok": not (bad.get("figures") or bad.get("route") or bad.get("crash")),
        "ids_ok": not (bad.get("ids") or bad.get("crash")),
        "citations_ok": not (bad.get("citations") or bad.get("crash")),
        "all_ok": not bad,
        "problems": bad,
        "cited": len(out.get("citations", [])),
        "model_calls": out.get("model_calls", 0),
        "model_calls_seen": model_n,
        "wall_ms": wall * 1000,
        "model_ms": model_s * 1000,
        "tool_ms": tool_s * 1000,
        "excl_model_ms": (wall - model_s) * 1000,
        "overhead_ms": (wall - model_s - tool_s) * 1000,
    }


def line(r: dict) -> str:
    mark = "ok  " if r["all_ok"] else ("xf  " if r["xfail"] else "FAIL")
    what = "; ".join(f"{k}: {v[0]}" for k, v in r["problems"].items())
    return (
        f"  {mark} {r['id']:38} {r['wall_ms']:7.0f} ms  tools {r['tool_ms']:6.0f}  model {r['model_ms']:7.0f}"
        f"  calls {r['model_calls']}  {what[:110]}"
    )


# -- the table ------------------------------------------------------------------------------------------------


def summarise(rows: list[dict]) -> dict:
    def share(sel, key):
        picked = [r for r in rows if sel(r)]
        return {
            "n": len(picked),
            "ok": sum(r[key] for r in picked),
            "share": sum(r[key] for r in picked) / len(picked) if picked else None,
        }

    def dist(key, sel=lambda r: True):
        xs = sorted(r[key] for r in rows if sel(r))
        return (
            {"p50": statistics.median(xs), "mean": statistics.fmean(xs), "p95": pct(xs, 95), "max": xs[-1]}
            if xs
            else {}
        )

    asked = lambda r: r["tool_ms"] > 0 or r["model_calls"] > 0  # noqa: E731  (not a guardrail reply)
    return {
        "questions": len(rows),
        "xfail_cases": sum(r["xfail"] for r in rows),
        "figures": share(lambda r: r["has_figures"], "figures_ok"),
        "ids": share(lambda r: r["has_ids"], "ids_ok"),
        "all_checks": share(lambda r: True, "all_ok"),
        "citations": share(lambda r: True, "citations_ok"),
        "citations_nonempty": share(lambda r: r["cited"] > 0, "citations_ok"),
        "model_calls": dist("model_calls"),
        "model_calls_single": dist("model_calls", lambda r: not r["multi"]),
        "wall_ms": dist("wall_ms"),
        "excl_model_ms": dist("excl_model_ms"),
        "tool_ms": dist("tool_ms"),
        "model_ms": dist("model_ms"),
        "overhead_ms": dist("overhead_ms"),
        "overhead_ms_tools": dist("overhead_ms", asked),
    }


def pct(xs: list[float], p: float) -> float:
    s = sorted(xs)
    return s[max(0, min(len(s) - 1, int(round(p / 100 * len(s) + 0.5)) - 1))]


def table(results: dict[str, dict], say) -> None:
    labels = list(results)
    w = 30

    def row(name, cells, goal=""):
        say(f"{name:44}" + "".join(f"{c:>{w}}" for c in cells) + f"   {goal}")

    def frac(s):
        return f"{s['share']:.1%} ({s['ok']}/{s['n']})" if s["n"] else "-"

    def ms(d):
        return f"{d['p50']:.0f} / {d['mean']:.0f} / {d['p95']:.0f}" if d else "-"

    def verdict(ok: bool) -> str:
        return "met" if ok else "NOT met"

    s = {k: results[k] for k in labels}
    row("", labels)
    row(
        "right figures",
        [frac(s[k]["figures"]) for k in labels],
        f">= 90% with none: {verdict((s['none']['figures']['share'] or 0) >= GOALS['figures'])}"
        if "none" in s
        else ">= 90% with none",
    )
    row("expected record IDs cited", [frac(s[k]["ids"]) for k in labels])
    row("all golden checks pass", [frac(s[k]["all_checks"]) for k in labels])
    row(
        "answers with every citation valid",
        [frac(s[k]["citations"]) for k in labels],
        "all valid: " + ", ".join(f"{k} {verdict(s[k]['citations']['ok'] == s[k]['citations']['n'])}" for k in labels),
    )
    row("  of answers citing something", [frac(s[k]["citations_nonempty"]) for k in labels])
    row(
        "model calls / question: mean, max",
        [f"{s[k]['model_calls']['mean']:.2f}, {s[k]['model_calls']['max']}" for k in labels],
    )
    row(
        "model calls, single-part questions: max",
        [str(s[k]["model_calls_single"]["max"]) for k in labels],
        "<= 2: "
        + ", ".join(f"{k} {verdict(s[k]['model_calls_single']['max'] <= GOALS['single_part_calls'])}" for k in labels),
    )
    row("time / question (ms) p50 / mean / p95", [ms(s[k]["wall_ms"]) for k in labels])
    row("  model time (ms) p50 / mean / p95", [ms(s[k]["model_ms"]) for k in labels])
    row("  time excl. model (ms) p50 / mean / p95", [ms(s[k]["excl_model_ms"]) for k in labels])
    row("  tool time (ms) p50 / mean / p95", [ms(s[k]["tool_ms"]) for k in labels])
    row(
        "graph overhead (ms) p50 / mean / p95",
        [ms(s[k]["overhead_ms"]) for k in labels],
        "mean < 50 ms: "
        + ", ".join(f"{k} {verdict(s[k]['overhead_ms']['mean'] < GOALS['overhead_ms'])}" for k in labels),
    )
    row("  questions that ran tools", [ms(s[k]["overhead_ms_tools"]) for k in labels])


def failures(label: str, rows: list[dict], say) -> None:
    wrong = [r for r in rows if not r["all_ok"]]
    say(
        f"\n{label}: {len(wrong)} of {len(rows)} questions fail a golden check "
        f"({sum(r['xfail'] for r in wrong)} of them known agent bugs, strict xfails in the golden set)"
    )
    for r in wrong:
        say(("  known bug  " if r["xfail"] else "  NEW       ") + f"{r['id']}: {', '.join(r['problems'])}")


# -- main -----------------------------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--embedded", action="store_true", help="also measure the embedded SmolLM2-135M model")
    ap.add_argument("--workdir", help="keep the mirror and runs here (reused when it holds a mirror)")
    ap.add_argument("--cases", help="comma-separated case ids (their sessions' earlier questions are added)")
    ap.add_argument("--verbose", action="store_true", help="one line per question")
    ap.add_argument("--json", action="store_true", help="JSON on stdout, the table on stderr")
    args = ap.parse_args(argv)
    out = sys.stderr if args.json else sys.stdout
    say = lambda *a: print(*a, file=out, flush=True)  # noqa: E731
    cases = select(load_cases(), args.cases)
    labels = models(args.embedded, say)
    header(cases, say)
    work = Path(args.workdir) if args.workdir else Path(tempfile.mkdtemp(prefix="agent-eval-"))
    work.mkdir(parents=True, exist_ok=True)
    try:
        doc = measure(labels, sample_mirror(work, say), work, cases, say, args.verbose)
    finally:
        if not args.workdir:
            shutil.rmtree(work, ignore_errors=True)
    if doc["models"]:
        say("\nagent eval on the golden set (times in ms; goals from issue 5)")
        table({k: v["summary"] for k, v in doc["models"].items()}, say)
    if args.json:
        print(json.dumps(doc, indent=2, default=str))
    return 0


def models(embedded: bool, say) -> list[str]:
    if not embedded:
        return ["none"]
    why = embedded_ready()
    if why:
        say(f"--embedded: {why}; measuring --model none only")
        return ["none"]
    return ["none", "embedded"]


def header(cases: list[dict], say) -> None:
    say(
        f"FDA Explorer Offline: agent eval, {len(cases)} golden questions "
        f"({sum(bool(c.get('xfail')) for c in cases)} known-bug xfails) on the sample mirror (real records); "
        f"Python {platform.python_version()}, {platform.machine()}"
    )
    load, cpus = os.getloadavg()[0], os.cpu_count() or 1
    say(
        f"load average {load:.1f} on {cpus} CPUs"
        + (": other work is running, times are not comparable" if load > 0.5 * cpus else "")
    )


def measure(labels: list[str], data: Path, work: Path, cases: list[dict], say, verbose: bool) -> dict:
    """Each model on its own copy of the mirror: {"cases": n, "models": {label: {"summary", "rows"}}}."""
    doc: dict = {"cases": len(cases), "models": {}}
    for label in labels:
        run_dir = private_copy(data, work, label)
        say(f"\nrunning --model {label} ...")
        mirror = Mirror(run_dir)
        try:
            t0 = time.perf_counter()
            rows = run_model(label, run_dir, cases, mirror, say, verbose)
            say(f"  {len(rows)} questions in {time.perf_counter() - t0:.1f} s")
        except ModelMissing as e:
            say(f"  not measured: {e}")
            continue
        finally:
            mirror.close()
        doc["models"][label] = {"summary": summarise(rows), "rows": rows}
        failures(label, rows, say)
    return doc


def select(cases: list[dict], wanted: str | None) -> list[dict]:
    """The cases named, with the earlier questions of their sessions (a follow-up needs its context)."""
    if not wanted:
        return cases
    ids = {w.strip() for w in wanted.split(",") if w.strip()}
    unknown = ids - {c["id"] for c in cases}
    if unknown:
        raise SystemExit(f"unknown case ids: {', '.join(sorted(unknown))}")
    keep = set(ids)
    for c in cases:
        if c["id"] in ids and c.get("session"):
            session = [x for x in cases if x.get("session") == c["session"]]
            keep |= {x["id"] for x in session[: session.index(c)]}
    return [c for c in cases if c["id"] in keep]


if __name__ == "__main__":
    sys.exit(main())
