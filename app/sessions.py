"""The Sessions screen without a window: saved conversations, searchable by their text, resumable, deletable."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .backend import Backend
from .banners import Banner, info
from .jobs import Jobs

__all__ = ["SessionsModel", "SessionItem"]


@dataclass
class SessionItem:
    session: str
    title: str  # the first question
    turns: int
    updated: str
    text: str = ""  # every question and answer, lower-cased, for searching


class SessionsModel:
    def __init__(
        self, backend: Backend, jobs: Jobs, changed: Callable[[str], None], report: Callable[[Banner], None]
    ) -> None:
        self.backend, self.jobs, self._changed, self._report = backend, jobs, changed, report
        self.items: list[SessionItem] = []
        self.query = ""
        self.loading = False
        self.confirming: str | None = None  # a session waiting for "Delete" to be confirmed
        self.on_deleted: Callable[[str], None] | None = None  # the controller ends the conversation on screen

    @property
    def visible(self) -> list[SessionItem]:
        """The sessions whose questions or answers contain every word of the query."""
        words = self.query.lower().split()
        return [s for s in self.items if all(w in s.text for w in words)]

    def matched(self, item: SessionItem) -> str:
        """The first line of a session that holds the first word searched (what a search hit shows)."""
        words = self.query.lower().split()
        if not words:
            return ""
        line = next((ln for ln in item.text.splitlines() if words[0] in ln), "")
        return line.strip()[:160]

    def search(self, query: str) -> None:
        self.query = query
        self._changed("sessions")

    def refresh(self) -> None:
        self.loading = True
        self._changed("sessions")
        self.jobs.submit("io", self._load, doing="listing the sessions")

    def _load(self) -> None:
        try:
            self.items = [
                SessionItem(
                    s["session"],
                    s.get("first_question", ""),
                    s.get("turns", 0),
                    s.get("updated", "")[:19].replace("T", " "),
                    s.get("text", "").lower(),
                )
                for s in self.backend.sessions()
            ]  # the text comes with the list: no read per session
        finally:
            self.loading = False
            self._changed("sessions")

    def request_delete(self, session_id: str) -> None:
        self.confirming = session_id
        self._changed("sessions")

    def keep(self) -> None:
        self.confirming = None
        self._changed("sessions")

    def delete(self, session_id: str) -> None:
        self.confirming = None
        self.jobs.submit("io", self._delete, session_id, doing="deleting the conversation")

    def _delete(self, session_id: str) -> None:
        self.backend.delete_session(session_id)
        title = next((s.title for s in self.items if s.session == session_id), "")
        self.items = [s for s in self.items if s.session != session_id]
        if self.on_deleted is not None:
            self.on_deleted(session_id)
        self._report(info(f"Deleted the conversation \u201c{title}\u201d." if title else "Deleted the conversation."))
        self._changed("sessions")
