"""Bounds on one request's DuckDB work: a statement timeout (`interrupt`) and the error that says how to narrow it.

DuckDB has no statement timeout of its own; `deadline` arms a timer that interrupts the cursor's running statement
after the given seconds. The memory bound is the connection's `memory_limit` (set by Store.connect). Either one
reached ends the work with QueryTooBroad, whose message names the bound and how to ask for less.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

import duckdb

from ..errors import MirrorError

__all__ = ["QueryTooBroad", "deadline", "DEFAULT_TIMEOUT", "NARROW_SEARCH", "NARROW_LOOKUP"]

DEFAULT_TIMEOUT = 30.0  # seconds of DuckDB work one API request or tool lookup may take
NARROW_SEARCH = (
    "narrow it: name a field (mdr_text.text:pacemaker rather than a bare word), add a date range "
    "(date_received:[20230101 TO 20231231]) or use fewer OR terms"
)
NARROW_LOOKUP = "ask about fewer records: name a product code, a firm or a date range"


class QueryTooBroad(MirrorError):
    """A query stopped at the time or memory bound of one request; the message says how to narrow it."""


@contextmanager
def deadline(
    con: duckdb.DuckDBPyConnection,
    seconds: float,
    what: str = "the search",
    narrow: str = NARROW_SEARCH,
    memory: str = "",
) -> Iterator[duckdb.DuckDBPyConnection]:
    """Run the block's statements on `con`, interrupted after `seconds`; QueryTooBroad when the timer fired or
    DuckDB ran out of memory (`memory`: the limit, for the message)."""
    fired, done, lock = threading.Event(), threading.Event(), threading.Lock()

    def stop() -> None:  # again and again: an interrupt between two statements would be lost
        fired.set()
        while True:
            with lock:  # never after the block has ended (the caller may close `con` then)
                if done.is_set():
                    return
                con.interrupt()
            done.wait(0.05)

    timer = threading.Timer(seconds, stop)
    timer.daemon = True
    timer.start()
    try:
        yield con
    except duckdb.InterruptException:
        if not fired.is_set():
            raise
        raise QueryTooBroad(f"{what} took longer than {seconds:g} s and was stopped; {narrow}") from None
    except duckdb.OutOfMemoryException:
        raise QueryTooBroad(
            f"{what} needed more than the {memory or 'DuckDB'} memory limit and was stopped; {narrow}"
        ) from None
    finally:
        with lock:
            done.set()
        timer.cancel()
