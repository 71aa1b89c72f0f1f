"""One question and what came of it: its timeline, answer, reading, tables, chart, exports."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

from .reading import split_answer, without_tables
from .results import Chart, ResultTable, as_of_of, contributing_as_of
from .timeline import Entry

__all__ = ["Turn"]


@dataclass
class Turn:
    """One question and what came of it; `status` is running, done, cancelled or failed."""

    question: str
    status: str = "running"
    entries: list[Entry] = field(default_factory=list)
    draft: str = ""  # the model's answer while it streams
    answer: str = ""
    citations: list[dict] = field(default_factory=list)
    tables: list[ResultTable] = field(default_factory=list)
    chart: Chart | None = None
    payload: dict = field(default_factory=dict)
    error: str = ""
    sent_at: float = 0.0
    exports: list[str] = field(default_factory=list)
    cancel: threading.Event = field(default_factory=threading.Event)  # stops the assistant at its next step
    waiting: Entry | None = None  # the "waiting for the cancelled answer" note, while queued
    note: str = ""  # about a reopened answer (its tables fetched again, or not)
    busy: str = ""  # an export or a "show all" running for this answer

    @property
    def as_of(self) -> dict[str, str]:
        """The as-of dates of the datasets whose records the answer shows."""
        return contributing_as_of(self.tables, self.payload) if self.payload else {}

    @property
    def searched(self) -> dict[str, str]:
        return as_of_of(self.payload) if self.payload else {}

    @property
    def interpretation(self) -> dict:
        return self.payload.get("interpretation") or {}

    @property
    def clarify(self) -> dict | None:
        c = self.payload.get("clarify")
        return c if c and c.get("choices") else None

    @property
    def body(self) -> str:
        """The answer without its 'Interpreted as' paragraph (shown as a line of parts above it)."""
        return split_answer(self.answer)[1] if self.interpretation else self.answer

    @property
    def shown(self) -> str:
        """The answer as the screen shows it: the tables and queries below it replace its short table and list."""
        return without_tables(self.body) if self.tables else self.body
