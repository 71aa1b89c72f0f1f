"""Which phase of `mirror sync` reaches its peak memory: the sync runs in this process, and a thread samples the
process's RSS every few seconds with what the sync is doing at that moment (its innermost `mirror` frames and the
last progress note). Figures, not a test.

    nice -n 15 .venv/bin/python bench/sync_memory.py --from /tmp/c6/site --data-dir /tmp/c6/data --log /tmp/c6/rss.tsv

The log is tab-separated: seconds since start, RSS MiB, the progress note, the frames (file:function:line, outermost
first). At the end it prints the peak, the phase at the peak, and the highest RSS of each phase.
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# --code DIR: import `mirror` from DIR (another commit's tree, e.g. `git archive`d) instead of this checkout
CODE = sys.argv[sys.argv.index("--code") + 1] if "--code" in sys.argv else str(ROOT)
sys.path.insert(0, CODE)
from mirror.settings import Settings  # noqa: E402
from mirror.sync import SyncOptions, sync  # noqa: E402


def rss_mib() -> float:
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def frames(thread_id: int) -> str:
    """The main thread's frames inside mirror/ (file:function:line), outermost first."""
    frame = sys._current_frames().get(thread_id)
    out = []
    while frame is not None:
        path = frame.f_code.co_filename
        if "/mirror/" in path:
            sql = frame.f_locals.get("sql") if not out else None  # the statement running, when the frame has one
            what = f" [{' '.join(sql.split())[:70]}]" if isinstance(sql, str) else ""
            out.append(f"{Path(path).stem}:{frame.f_code.co_name}:{frame.f_lineno}{what}")
        frame = frame.f_back
    return " > ".join(reversed(out[:4]))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--from", dest="source", type=Path, required=True, help="a download site folder")
    ap.add_argument("--data-dir", type=Path, required=True)
    ap.add_argument("--only", default=None, help="comma-separated datasets")
    ap.add_argument("--log", type=Path, required=True)
    ap.add_argument("--code", help="import mirror from this folder (default: this checkout)")
    ap.add_argument("--every", type=float, default=2.0, help="seconds between samples")
    args = ap.parse_args()

    note = ["start"]
    main_id = threading.get_ident()
    done = threading.Event()
    peak: dict[str, float] = {}
    top = [0.0, "", ""]
    started = time.monotonic()

    def sample() -> None:
        with open(args.log, "w") as log:
            while not done.wait(args.every):
                rss, where = rss_mib(), frames(main_id)
                phase = where.split(" > ")[-1].rsplit(":", 1)[0] if where else "-"
                peak[phase] = max(peak.get(phase, 0.0), rss)
                if rss > top[0]:
                    top[:] = [rss, note[0], where]
                log.write(f"{time.monotonic() - started:.0f}\t{rss:.0f}\t{note[0]}\t{where}\n")
                log.flush()

    def on_progress(event) -> None:
        if event.kind in ("note", "loaded"):
            note[0] = f"{event.kind} {event.name}"[:80]

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    settings = Settings(data_dir=args.data_dir)
    only = args.only.split(",") if args.only else None
    report = sync(settings, SyncOptions(source_dir=args.source, only=only, quiet=True, on_progress=on_progress))
    done.set()
    sampler.join()
    usage = resource.getrusage(resource.RUSAGE_SELF)
    import mirror

    print(f"code: {Path(mirror.__file__).parent}")
    print(f"sync ok={report.ok} in {time.monotonic() - started:.0f} s, CPU {usage.ru_utime + usage.ru_stime:.0f} s")
    for line in report.errors:
        print(f"error: {line}")
    print(f"peak RSS (ru_maxrss) {usage.ru_maxrss / 1024:,.0f} MiB; sampled peak {top[0]:,.0f} MiB")
    print(f"  at: {top[1]} | {top[2]}")
    print("highest RSS per phase (innermost mirror frame):")
    for phase, rss in sorted(peak.items(), key=lambda kv: -kv[1])[:15]:
        print(f"  {rss:8,.0f} MiB  {phase}")
    return 0 if report.ok else 1


if __name__ == "__main__":
    os.nice(0)
    sys.exit(main())
