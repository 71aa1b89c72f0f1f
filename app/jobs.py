"""Work off the UI thread: one sequential lane (a daemon thread) per kind of work, so a sync never waits for an
answer."""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable
from typing import Any

__all__ = ["Jobs"]


class _Lane:
    def __init__(self, name: str, on_error: Callable[[BaseException, str], None]) -> None:
        self.tasks: "queue.Queue[tuple[Callable, tuple, str] | None]" = queue.Queue()
        self.pending = 0
        self.lock = threading.Lock()
        self.on_error = on_error
        self.thread = threading.Thread(target=self._loop, name=f"app-{name}", daemon=True)
        self.thread.start()

    def _loop(self) -> None:
        while (task := self.tasks.get()) is not None:
            fn, args, doing = task
            try:
                fn(*args)
            except BaseException as e:  # every failure becomes a banner; the lane keeps running
                self.on_error(e, doing)
            finally:
                with self.lock:
                    self.pending -= 1

    def put(self, fn: Callable, args: tuple, doing: str) -> None:
        with self.lock:
            self.pending += 1
        self.tasks.put((fn, args, doing))


class Jobs:
    """`submit(lane, fn, *args, doing=...)`; an exception calls `on_error(exception, doing)` on the lane's thread."""

    def __init__(self, on_error: Callable[[BaseException, str], None]) -> None:
        self._on_error = on_error
        self._lanes: dict[str, _Lane] = {}
        self._lock = threading.Lock()

    def submit(self, lane: str, fn: Callable[..., Any], *args: Any, doing: str = "working") -> None:
        with self._lock:
            if lane not in self._lanes:
                self._lanes[lane] = _Lane(lane, self._on_error)
            self._lanes[lane].put(fn, args, doing)

    def busy(self, lane: str) -> bool:
        with self._lock:
            return lane in self._lanes and self._lanes[lane].pending > 0

    def wait(self, timeout: float = 30.0, lanes: tuple[str, ...] | None = None) -> bool:
        """Block until the lanes (all by default) are idle; False when `timeout` passes first."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self._lock:
                names = list(self._lanes) if lanes is None else list(lanes)
            if not any(self.busy(n) for n in names):
                return True
            time.sleep(0.01)
        return False

    def shutdown(self) -> None:
        """Let each lane finish its current task and stop (threads are daemons: exiting never waits for them)."""
        with self._lock:
            for lane in self._lanes.values():
                lane.tasks.put(None)
