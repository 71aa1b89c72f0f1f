"""Progress bars (tqdm, on stderr): one per file in flight, bytes downloaded overall, records loaded; silent when quiet.

A caller (the desktop app) can also pass `on_event`, called from the sync's threads with a `ProgressEvent` for
every block of bytes, loaded partition and note, whether or not bars are drawn.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass

from tqdm import tqdm

from ..errors import SyncCancelled

__all__ = ["Progress", "ProgressEvent"]


@dataclass(frozen=True)
class ProgressEvent:
    """One step of a sync, as a caller sees it.

    kind: `file` (bytes of one file: `name`, `done` and `total` bytes of that file, `overall_done` bytes of the whole
    sync and `overall_total`, the manifest's estimate of them, so a bar should clamp at 100%), `loaded` (a partition's
    `records` are in the staging table), `note` (a line the terminal would show, in `name`)."""

    kind: str
    name: str
    done: int = 0
    total: int | None = None
    overall_done: int = 0
    overall_total: int = 0
    records: int = 0
    records_done: int = 0
    records_total: int = 0


class Progress:
    def __init__(
        self,
        total_bytes: int,
        quiet: bool = False,
        stream=None,
        cancel: threading.Event | None = None,
        total_records: int = 0,
        on_event: Callable[[ProgressEvent], None] | None = None,
    ) -> None:
        self.cancel = cancel or threading.Event()
        self.on_event = on_event
        self.total_bytes = total_bytes
        self.total_records = total_records
        self.bytes_done = 0
        self.records_done = 0
        self.stream = stream or sys.stderr
        self.quiet = quiet
        self.bars = not quiet and _isatty(self.stream)  # bars on a terminal; plain lines in logs
        self._lock = threading.Lock()
        self._slots: list[bool] = []
        self.overall = (
            None
            if not self.bars
            else tqdm(
                total=total_bytes or None,
                unit="B",
                unit_scale=True,
                unit_divisor=1024,
                desc="download",
                position=0,
                file=self.stream,
                dynamic_ncols=True,
            )
        )
        self.records = (
            None
            if not self.bars or not total_records
            else tqdm(
                total=total_records,
                unit=" rec",
                unit_scale=True,
                desc="load",
                position=1,
                file=self.stream,
                dynamic_ncols=True,
            )
        )

    def file(self, name: str):
        """A callback `cb(n, total)` for one file's bytes, plus `close()`."""
        return _FileBar(self, name)

    def check(self) -> None:
        """Raise SyncCancelled once the cancel event is set (called as bytes arrive and between files)."""
        if self.cancel.is_set():
            raise SyncCancelled()

    def note(self, line: str) -> None:
        self._emit(ProgressEvent("note", line))
        if not self.quiet:
            tqdm.write(line, file=self.stream)

    def _slot(self) -> int:
        with self._lock:
            for i, used in enumerate(self._slots):
                if not used:
                    self._slots[i] = True
                    return i + 2
            self._slots.append(True)
            return len(self._slots) + 1  # positions 0 and 1 are the overall bars

    def _free(self, pos: int) -> None:
        with self._lock:
            self._slots[pos - 2] = False

    def _emit(self, event: ProgressEvent) -> None:
        if self.on_event is not None:
            self.on_event(event)

    def _bytes(self, file: "_FileBar", n: int, total: int | None) -> None:
        with self._lock:
            self.bytes_done += n
            file.done += n
            done = self.bytes_done
        self._emit(ProgressEvent("file", file.name, file.done, total, done, self.total_bytes))

    def loaded(self, records: int, name: str = "") -> None:
        with self._lock:
            self.records_done += records
        self._emit(
            ProgressEvent(
                "loaded",
                name,
                records=records,
                records_done=self.records_done,
                records_total=self.total_records,
                overall_done=self.bytes_done,
                overall_total=self.total_bytes,
            )
        )
        if self.records is not None:
            self.records.update(records)

    def close(self) -> None:
        for bar in (self.overall, self.records):
            if bar is not None:
                bar.close()


def _isatty(stream) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


class _FileBar:
    def __init__(self, progress: Progress, name: str) -> None:
        self.p = progress
        self.bar: tqdm | None = None
        self.name = name
        self.pos = 0
        self.done = 0

    def __call__(self, n: int, total: int | None) -> None:
        self.p.check()
        if self.p.on_event is not None:
            self.p._bytes(self, n, total)
        if not self.p.bars:
            return
        if self.bar is None:
            self.pos = self.p._slot()
            self.bar = tqdm(
                total=total,
                unit="B",
                unit_scale=True,
                unit_divisor=1024,
                desc=self.name[-40:],
                position=self.pos,
                leave=False,
                file=self.p.stream,
                dynamic_ncols=True,
            )
        self.bar.update(n)
        if self.p.overall is not None:
            self.p.overall.update(n)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
            self.p._free(self.pos)
