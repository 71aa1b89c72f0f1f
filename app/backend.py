"""The app's one door to the assistant and the mirror: blocking calls that the controller runs off the UI thread."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from agent.settings import AgentSettings
from mirror.errors import MirrorMissingError
from mirror.settings import Settings

from .config import AppConfig
from .errors import RecordNotFound
from .saved import SavedAnswer, answers_root, forget_session, load_answers, save_answer

__all__ = ["Backend", "SyncSource", "RecordNotFound", "dataset_phrases"]


def dataset_phrases() -> dict[tuple[str, ...], str]:
    """The words the assistant reads as each dataset ("recalls", "510(k)s", ...), for rewording a question."""
    from agent.understand.vocab import DATASET_PHRASES

    return DATASET_PHRASES


@dataclass(frozen=True)
class SyncSource:
    """Where a sync reads from: the openFDA download site, the sample shipped with the app, or a folder/bundle."""

    kind: str = "online"  # online | sample | folder
    folder: str = ""

    def describe(self) -> str:
        return {"online": "the openFDA download site", "sample": "the sample data shipped with the app"}.get(
            self.kind, f"the folder {self.folder}"
        )


class Backend:
    """Owns the Assistant (built lazily: importing the agent takes seconds) and the local API for records."""

    def __init__(
        self, config: AppConfig, settings: Settings | None = None, agent_settings: AgentSettings | None = None
    ) -> None:
        self._base, self._base_agent = settings or Settings(), agent_settings or AgentSettings()
        self._lock = threading.RLock()
        self._idle = threading.Condition(self._lock)  # signalled when no answer is streaming
        self._streams = 0
        self._users = 0  # queries running on the assistant off the answer lane
        self._assistant: Any = None
        self.config = config

    # -- configuration ------------------------------------------------------------------------------------
    @property
    def settings(self) -> Settings:
        return self._base.model_copy(update={"data_dir": Path(self.config.data_dir)})

    @property
    def agent_settings(self) -> AgentSettings:
        return self._base_agent.model_copy(update={"model": self.config.model, "ollama_url": self.config.ollama_url})

    @property
    def stale_days(self) -> int:
        return self._base.stale_days

    def reconfigure(self, config: AppConfig) -> None:
        """Use new settings once no answer is streaming (another browser tab may be asking); the assistant is
        rebuilt on its next use."""
        with self._idle:
            self._idle.wait_for(lambda: self._streams == 0)
            self.close()
            self.config = config

    # -- the assistant ------------------------------------------------------------------------------------
    def assistant(self):
        """The Assistant on the current mirror and model; MirrorMissingError when the data folder is empty."""
        with self._lock:
            if self._assistant is None:
                from agent.assistant import Assistant

                self._assistant = Assistant(self.settings, self.agent_settings)
            return self._assistant

    def warm(self) -> None:
        """Import the agent and build the assistant ahead of the first question (when there is a mirror)."""
        try:
            self.assistant()
        except MirrorMissingError:
            import agent.assistant  # noqa: F401  (the import alone is most of the cost)

    @property
    def model_note(self) -> str:
        """Why the configured model is not used (empty when it is, or before the assistant is built)."""
        return self._assistant.model_note if self._assistant is not None else ""

    @property
    def model_name(self) -> str:
        return self._assistant.model_name if self._assistant is not None else self.config.model

    def stream(self, question: str, session_id: str | None, cancel: threading.Event | None = None) -> Iterator[dict]:
        """The assistant's events for one question (read it to the end: settings changes wait for it);
        setting `cancel` stops the assistant at its next step."""
        with self._lock:
            assistant = self.assistant()
            self._streams += 1
        try:
            yield from assistant.stream(question, session_id, cancel)
        finally:
            with self._idle:
                self._streams -= 1
                self._idle.notify_all()

    def sessions(self) -> list[dict]:
        try:
            return self.assistant().sessions()
        except MirrorMissingError:
            return []

    def history(self, session_id: str) -> list[dict]:
        return self.assistant().history(session_id)

    def delete_session(self, session_id: str) -> None:
        self.assistant().delete_session(session_id)
        forget_session(answers_root(self.settings.data_dir), session_id)

    # -- answers kept whole -------------------------------------------------------------------------------
    def save_answer(self, payload: dict, entries: list) -> None:
        """Keep what the Ask screen shows of an answer, beside its audit log (app/saved.py)."""
        save_answer(answers_root(self.settings.data_dir), payload, entries)

    def saved_answers(self, session_id: str) -> list[SavedAnswer]:
        """A session's answers in order: as the app kept them, else rebuilt from the audit log."""
        return load_answers(answers_root(self.settings.data_dir), self.assistant().dir / "audit", session_id)

    def run_tool(self, tool: str, args: dict) -> dict:
        """Run one of the assistant's tools again (a table's every row, an answer reopened): its result as evidence."""
        from agent.tools import run_tool

        with self.using() as assistant:
            return run_tool(assistant.ctx, tool, args).model_dump(mode="json")

    @contextmanager
    def using(self) -> Iterator[Any]:
        """The assistant, held open while a query runs on it off the answer lane (a record, a table's rows, the
        home's examples): closing it waits for them, as it waits for a streaming answer."""
        with self._lock:
            assistant = self.assistant()
            self._users += 1
        try:
            yield assistant
        finally:
            with self._idle:
                self._users -= 1
                self._idle.notify_all()

    # -- records --------------------------------------------------------------------------------------------
    def record(self, dataset: str, ident: str) -> dict:
        """The full original record a citation (`device/<endpoint>`, `field=value`) names."""
        field, _, value = ident.partition("=")
        if not dataset.startswith("device/") or not field or not value:
            raise RecordNotFound(
                f"The record {ident} of {dataset} cannot be opened here: only the FDA device datasets' records can"
            )
        with self.using() as assistant:  # the assistant's own local API: one owner of the mirror
            for name in (f"{field}.exact", field):
                response = assistant.ctx.api.get(
                    f"/{dataset}.json", urlencode({"search": f'{name}:"{value}"', "limit": "1"})
                )
                if response.status == 200:
                    return response.json()["results"][0]
        raise RecordNotFound(
            f"The mirror has no record {ident} in {dataset} any more (a sync may have replaced "
            "it): ask the question again"
        )

    # -- the mirror -------------------------------------------------------------------------------------------
    def status(self) -> dict | None:
        """`mirror status` as a dict, or None when the data folder holds no mirror yet."""
        from mirror import Store, status

        try:
            return status(Store(self.settings.data_dir), self.stale_days)
        except MirrorMissingError:
            return None

    def disk_use(self) -> int:
        """Bytes under the data folder (databases, downloads, sessions, audit logs, exports)."""
        root = Path(self.settings.data_dir)
        return sum(p.stat().st_size for p in root.rglob("*") if p.is_file()) if root.exists() else 0

    def plan(self, source: SyncSource, cancel: threading.Event | None = None):
        """What a sync from `source` would do (a dry run: no download, no change); `cancel` stops its retries."""
        from mirror.sync import sync

        return sync(self.settings, self._options(source, cancel, dry_run=True))

    def sync(self, source: SyncSource, cancel: threading.Event, on_progress=None):
        """Run a sync; returns the mirror's SyncReport; SyncCancelled when `cancel` is set; `on_progress` gets
        each `mirror.progress.ProgressEvent` (bytes per file, partitions loaded, notes)."""
        from mirror.sync import sync

        options = self._options(source, cancel)
        options.on_progress = on_progress
        report = sync(self.settings, options)
        if self._assistant is None:
            self.warm()  # now that there may be a mirror (warm() copes when there is none)
        return report

    @staticmethod
    def _options(source: SyncSource, cancel: threading.Event | None, dry_run: bool = False):
        from mirror import SAMPLE_DIR, SyncOptions

        folder = {"online": None, "sample": SAMPLE_DIR}.get(source.kind, Path(source.folder).expanduser())
        return SyncOptions(source_dir=folder, quiet=True, cancel=cancel, dry_run=dry_run)

    # -- models ---------------------------------------------------------------------------------------------
    @staticmethod
    def ollama_models(url: str) -> list[str]:
        from agent.models import list_ollama_models

        return list_ollama_models(url)

    @staticmethod
    def embedded_available() -> bool:
        from agent.models import embedded_model_path

        return embedded_model_path() is not None

    def close(self, timeout: float = 10.0) -> None:
        """Close the assistant once the queries running on it are done (at most `timeout` seconds)."""
        with self._idle:
            self._idle.wait_for(lambda: self._users == 0, timeout)
            if self._assistant is not None:
                self._assistant.close()
                self._assistant = None
