"""The app without a window: the screens' models, navigation, the banner and shortcuts; a view only draws it."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path

from .ask import AskModel
from .backend import Backend
from .banners import IMPORT_FOLDER, Banner, banner_for, info
from .config import AppConfig, ConfigError, save_config
from .data import DataModel
from .home import HomeModel, model_state
from .jobs import Jobs
from .sessions import SessionsModel
from .settings_form import SettingsForm
from .watch import SurveilModel

__all__ = ["Controller", "SCREENS"]

SCREENS = ("ask", "sessions", "data", "surveil", "settings")
INFO_SECONDS = 10.0


class Controller:
    """Listeners get a topic (ask, sessions, data, surveil, settings, banner, screen, theme) on any thread after a
    change."""

    def __init__(self, backend: Backend, config_path: Path | None) -> None:
        self.backend, self.config_path = backend, config_path
        self.config: AppConfig = backend.config  # the settings last saved: the screens show these at once,
        #                                           the backend switches to them once no answer is running
        self.jobs = Jobs(self._on_error)
        self.banner: Banner | None = None
        self.screen = "ask"
        self._listeners: list[Callable[[str], None]] = []
        self._lock = threading.Lock()
        self.ask = AskModel(backend, self.jobs, self.changed, self.report)
        self.sessions = SessionsModel(backend, self.jobs, self.changed, self.report)
        self.sessions.on_deleted = self._session_deleted
        self.data = DataModel(backend, self.jobs, self.changed, self.report)
        self.home = HomeModel(backend, self.jobs, self.changed)
        self.surveil = SurveilModel(backend, self.jobs, self.changed, self.report)
        self.data.on_synced = self._synced
        self.assistant_ready = False
        self.settings = SettingsForm(
            backend, self.jobs, self.changed, self.report, self.apply_config, lambda: self.config
        )

    # -- notifications ---------------------------------------------------------------------------------------
    def subscribe(self, listener: Callable[[str], None]) -> None:
        with self._lock:
            self._listeners.append(listener)

    def changed(self, topic: str) -> None:
        with self._lock:
            listeners = list(self._listeners)
        for fn in listeners:
            fn(topic)

    def report(self, banner: Banner) -> None:
        """Show a banner; an info banner goes away by itself after INFO_SECONDS."""
        self.banner = banner
        self.changed("banner")
        if banner.level == "info":
            timer = threading.Timer(INFO_SECONDS, self._expire, args=(banner,))
            timer.daemon = True
            timer.start()

    def _expire(self, banner: Banner) -> None:
        if self.banner is banner:
            self.dismiss_banner()

    def dismiss_banner(self) -> None:
        self.banner = None
        self.changed("banner")

    def banner_action(self) -> None:
        target = self.banner.target if self.banner else ""
        self.dismiss_banner()
        self.open_target(target)

    def open_target(self, target: str) -> None:
        """A screen (ask, sessions, data, surveil, settings), or the Data screen ready to import a folder."""
        if target == IMPORT_FOLDER:
            self.data.set_source("folder")
            self.go("data")
        elif target:
            self.go(target)

    def _synced(self) -> None:
        """After a sync: the home's examples, and what it changed for each watchlist."""
        self.home.refresh()
        self.surveil.refresh_digest()

    def _on_error(self, error: BaseException, doing: str) -> None:
        self.report(banner_for(error, doing))

    # -- lifecycle and navigation ----------------------------------------------------------------------------------
    def start(self) -> None:
        """Read the mirror status and warm the assistant up, in the background."""
        self.data.refresh()
        self.surveil.refresh_digest()
        self.jobs.submit("ask", self._warm, doing="loading the assistant")

    def _warm(self) -> None:
        self.assistant_ready = False
        self.backend.warm()
        self.assistant_ready = True
        self.changed("warm")
        self.home.refresh()

    @property
    def model(self) -> tuple[str, str]:
        """The model as a person reads it, and its state (loading…, ready, not available)."""
        return model_state(self.backend, self.assistant_ready)

    @property
    def first_run(self) -> bool:
        """An empty data folder: the Ask screen offers the sample and explains how to sync the real data."""
        return self.data.empty is True

    def go(self, screen: str) -> None:
        if screen not in SCREENS:
            raise ValueError(f"unknown screen {screen!r}")
        self.screen = screen
        if screen == "sessions":
            self.sessions.refresh()
        elif screen == "data":
            self.data.refresh()
        elif screen == "surveil":
            self.surveil.refresh()
        elif screen == "settings":
            self.settings.load(self.config)
        self.changed("screen")

    def key(self, key: str, ctrl: bool = False, shift: bool = False, meta: bool = False) -> str:
        """Shortcuts: Ctrl+K (Cmd+K) a new conversation; Escape cancels the answer or closes the record;
        Ctrl+Q asks the window to quit. Returns "handled", "quit" or "" (not a shortcut)."""
        if (ctrl or meta) and key.upper() == "K":
            self.ask.new_conversation()
            self.go("ask")
            return "handled"
        if (ctrl or meta) and key.upper() == "Q":
            return "quit"
        if key == "Escape":
            if self.ask.record is not None:
                self.ask.close_record()
            elif self.ask.busy:
                self.ask.cancel()
            return "handled"
        return ""

    def _session_deleted(self, session_id: str) -> None:
        """The conversation on the Ask screen was deleted: it ends there too (a follow-up would have no context)."""
        if self.ask.session_id == session_id:
            self.ask.new_conversation()

    def resume(self, session_id: str) -> None:
        self.go("ask")
        self.jobs.submit("io", self.ask.resume, session_id, doing=f"opening the session {session_id}")

    # -- settings --------------------------------------------------------------------------------------------------
    def apply_config(self, config: AppConfig) -> None:
        """Persist the settings now; the assistant is rebuilt once the current answer (if any) is done."""
        if self.config_path is not None:
            try:
                save_config(config, self.config_path)
            except ConfigError as e:
                self.report(banner_for(e, "saving the settings"))
                return
        if config.data_dir != self.config.data_dir:
            self.ask.new_conversation()  # its session lives in the other data folder
        self.config = config
        self.jobs.submit("ask", self._reconfigure, config, doing="applying the settings")
        self.report(info("Settings saved" + (f" to {self.config_path}" if self.config_path else "") + "."))
        self.changed("theme")

    def _reconfigure(self, config: AppConfig) -> None:
        self.backend.reconfigure(config)
        self.data.refresh()
        self._warm()

    def shutdown(self, timeout: float = 5.0, close_backend: bool = True) -> None:
        """Cancel running work, give it `timeout` seconds to stop, and close the mirror and the assistant."""
        with self._lock:
            self._listeners.clear()  # the window is gone: nothing to draw any more
        self.data.cancel_sync()
        self.ask.cancel()
        deadline = time.monotonic() + timeout
        self.jobs.wait(max(0.0, deadline - time.monotonic()), lanes=("sync", "io"))
        self.jobs.shutdown()
        if self.jobs.wait(max(0.0, deadline - time.monotonic())) and close_backend:
            self.backend.close()
