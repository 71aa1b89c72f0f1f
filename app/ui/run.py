"""Starting the app: the desktop window (Flet's bundled client) or the same app served on 127.0.0.1 for a browser."""

from __future__ import annotations

import json
import signal
import socket
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import flet as ft

if TYPE_CHECKING:
    from ..controller import Controller
    from ..launch import Launch
    from .early_client import EarlyClient

__all__ = ["Trace", "run_desktop", "run_web"]

WINDOW = (1280, 800)


class Trace:
    """One JSON line per UI milestone (launch, ready, assistant_ready, first_step_shown, answer_shown, exit) with
    unix time `t`; used by the tests and bench/app_startup.py. A no-op without a file."""

    def __init__(self, path: Path | None) -> None:
        self._file = open(path, "a", buffering=1, encoding="utf-8") if path else None
        self._lock = threading.Lock()

    def __call__(self, name: str, **fields) -> None:
        if self._file is not None:
            with self._lock:
                self._file.write(json.dumps({"event": name, "t": time.time(), **fields}, default=str) + "\n")

    def close(self) -> None:
        if self._file is not None:
            self._file.close()


class _Prepared:
    """Runs `prepare` on a thread at once; `result()` waits for it (and re-raises its error)."""

    def __init__(self, prepare: Callable[[], Any]) -> None:
        self._value: Any = None
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, args=(prepare,), name="app-prepare", daemon=True)
        self._thread.start()

    def _run(self, prepare: Callable[[], Any]) -> None:
        try:
            self._value = prepare()
        except BaseException as e:
            self._error = e

    def result(self) -> Any:
        self._thread.join()
        if self._error is not None:
            raise self._error
        return self._value


def _session(page: ft.Page, launch: "Launch", trace: Trace) -> "Controller":
    from ..banners import settings_problem
    from ..controller import Controller
    from .shell import Shell

    c = Controller(launch.backend, launch.config_path)
    Shell(page, c, trace)
    page.update()
    trace("ready", web=page.web)
    if launch.problem:
        c.report(settings_problem(launch.problem))
    c.start()
    return c


def run_desktop(prepare: Callable[[], "Launch"], trace: Trace, early: "EarlyClient | None" = None) -> int:
    """Open the window while `prepare` builds the settings and backend; block until the window is closed (its
    close button, Ctrl+Q, SIGTERM or SIGINT); returns the exit code. `early` is a desktop client already
    started (app/ui/early_client.py); without it Flet starts one once its server listens."""
    from .window import close_window

    prepared = _Prepared(prepare)
    sessions: list[Controller] = []

    def main(page: ft.Page) -> None:
        page.window.width, page.window.height = WINDOW
        quit_window = lambda *_: page.run_task(close_window, page)  # noqa: E731
        signal.signal(signal.SIGTERM, quit_window)  # main() runs on the main thread's event loop
        signal.signal(signal.SIGINT, quit_window)
        sessions.append(_session(page, prepared.result(), trace))

    trace("launch", mode="desktop", early_client=early is not None)
    if early is not None:
        early.install()
    ft.run(main, view=ft.AppView.FLET_APP, assets_dir=None, port=early.port if early is not None else 0)
    for c in sessions:
        c.shutdown(close_backend=False)
    prepared.result().backend.close()
    trace("exit")
    return 0


def run_web(launch: "Launch", trace: Trace, port: int) -> int:
    """Serve the app on http://127.0.0.1:PORT until SIGINT/SIGTERM; every browser tab is its own session. Only
    pages opened from the printed address (it carries a token made at each launch) reach it (app/ui/web_guard.py)."""
    import flet_web.fastapi as flet_fastapi
    import platformdirs
    import uvicorn

    from .offline_web import offline_assets
    from .web_guard import WebGuard, new_token

    sessions: list[Controller] = []

    def main(page: ft.Page) -> None:
        c = _session(page, launch, trace)
        sessions.append(c)
        page.on_close = lambda e: threading.Thread(
            target=c.shutdown, kwargs={"close_backend": False}, daemon=True
        ).start()  # never block the server's loop

    cache = Path(platformdirs.user_cache_dir("fda-explorer", appauthor=False))
    flet_app = flet_fastapi.app(
        main,
        assets_dir=str(offline_assets(cache)),
        no_cdn=True,
        app_name="FDA Explorer Offline",
        app_short_name="FDA Explorer",
    )
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(("127.0.0.1", port))
    except OSError as e:
        print(f"Error: cannot listen on 127.0.0.1:{port} ({e.strerror}): choose another --port", file=sys.stderr)
        return 1
    asgi = WebGuard(flet_app, sock.getsockname()[1], new_token())  # own origin, loopback Host, this launch's token
    url = asgi.url
    print(f"FDA Explorer Offline: open {url} in a browser (Ctrl+C stops it)", flush=True)
    trace("listening", url=url)
    # Flet never ends the handler of a socket that closed before registering: without a limit, a stop would wait
    server = uvicorn.Server(
        uvicorn.Config(asgi, log_level="warning", ws="websockets-sansio", timeout_graceful_shutdown=5)
    )
    for sig in (signal.SIGINT, signal.SIGTERM):  # uvicorn re-raises the signal after its graceful shutdown:
        signal.signal(sig, lambda *_: None)  # let that be a no-op, so a stop is a clean exit 0
    server.run(sockets=[sock])
    for c in sessions:  # every tab's work stopped before the mirror closes (a query still running in
        c.shutdown(close_backend=False)  # a worker thread as the process ends aborts it inside DuckDB)
    launch.backend.close()
    trace("exit")
    return 0
