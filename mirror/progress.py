"""Progress bars (tqdm, on stderr): one per file in flight, bytes downloaded overall, records loaded; silent when quiet."""

from __future__ import annotations

import sys
import threading

from tqdm import tqdm

from .errors import SyncCancelled

__all__ = ["Progress"]


class Progress:
    def __init__(self, total_bytes: int, quiet: bool = False, stream=None,
                 cancel: threading.Event | None = None, total_records: int = 0) -> None:
        self.cancel = cancel or threading.Event()
        self.stream = stream or sys.stderr
        self.quiet = quiet
        self.bars = not quiet and _isatty(self.stream)  # bars on a terminal; plain lines in logs
        self._lock = threading.Lock()
        self._slots: list[bool] = []
        self.overall = None if not self.bars else tqdm(total=total_bytes or None, unit="B", unit_scale=True,
                                               unit_divisor=1024, desc="download", position=0,
                                               file=self.stream, dynamic_ncols=True)
        self.records = None if not self.bars or not total_records else tqdm(
            total=total_records, unit=" rec", unit_scale=True, desc="load", position=1, file=self.stream,
            dynamic_ncols=True)

    def file(self, name: str):
        """A callback `cb(n, total)` for one file's bytes, plus `close()`."""
        return _FileBar(self, name)

    def check(self) -> None:
        """Raise SyncCancelled once the cancel event is set (called as bytes arrive and between files)."""
        if self.cancel.is_set():
            raise SyncCancelled("sync cancelled; the mirror keeps its previous data and the next sync resumes")

    def note(self, line: str) -> None:
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

    def loaded(self, records: int) -> None:
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
        self.bar = None
        self.name = name
        self.pos = 0

    def __call__(self, n: int, total: int | None) -> None:
        self.p.check()
        if not self.p.bars:
            return
        if self.bar is None:
            self.pos = self.p._slot()
            self.bar = tqdm(total=total, unit="B", unit_scale=True, unit_divisor=1024, desc=self.name[-40:],
                            position=self.pos, leave=False, file=self.p.stream, dynamic_ncols=True)
        self.bar.update(n)
        if self.p.overall is not None:
            self.p.overall.update(n)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
            self.p._free(self.pos)
