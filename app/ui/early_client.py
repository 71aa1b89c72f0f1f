"""Start Flet's desktop client before Python has imported Flet, so that the two start-ups overlap.

The Flutter client takes 1.3 to 4 s on this class of machine to map its window, and importing Flet and the app
takes another 1.4 s before Flet would start it (only once its own server listens). Here the app binds a
loopback TCP socket first and spawns the client on it at once (the kernel queues the client's connection until
the server accepts it), then hands both to `flet.run`: Flet's socket server serves on that socket and waits on
that client process. Nothing of Flet is imported here (that is the point). When the client has not been
unpacked yet (the very first run), there is no display, or `FDAX_EARLY_CLIENT=0`, `spawn()` returns None and
Flet starts the client itself, as usual. A client that dies before it connects (its display refused it for a
moment) is started again, at most twice.
"""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

__all__ = ["EarlyClient", "spawn", "client_path"]


def client_path() -> Path | None:
    """The unpacked Flet desktop client that `flet_desktop` would start on Linux, if it is there."""
    if not sys.platform.startswith("linux"):
        return None
    view = os.environ.get("FLET_VIEW_PATH")
    if view:
        path = Path(view) / "flet"
    else:
        try:
            version = metadata.version("flet-desktop")
        except metadata.PackageNotFoundError:
            return None
        path = Path.home() / ".flet" / "client" / f"flet-desktop-{version}" / "flet" / "flet"
    return path if path.is_file() and os.access(path, os.X_OK) else None


@dataclass
class EarlyClient:
    process: subprocess.Popen
    sock: socket.socket
    pid_file: str
    args: list[str]
    connected: bool = False  # the client reached the server
    restarts: int = 0

    MAX_RESTARTS = 2

    @property
    def port(self) -> int:
        return self.sock.getsockname()[1]

    def install(self) -> None:
        """Make `flet.run(..., port=self.port)` serve on our socket and adopt our client process."""
        import flet.messaging.flet_socket_server as server_module
        import flet_desktop

        early, start_server = self, asyncio.start_server

        class _Asyncio:
            """The `asyncio` Flet's socket server sees: `start_server` on our port serves our socket."""

            def __getattr__(self, name):
                return getattr(asyncio, name)

            @staticmethod
            async def start_server(callback, host=None, port=None, **kw):
                if port != early.port:
                    return await start_server(callback, host, port, **kw)

                async def connected(reader, writer):
                    early.connected = True
                    return await callback(reader, writer)

                return await start_server(connected, sock=early.sock, **kw)

        class _Process:
            """What `open_flet_view_async` returns: a `pid` and an awaitable `wait()`."""

            @property
            def pid(self) -> int:
                return early.process.pid

            async def wait(self) -> int:
                while True:
                    while early.process.poll() is None:
                        await asyncio.sleep(0.1)
                    if early.connected or early.restarts >= early.MAX_RESTARTS:
                        return early.process.returncode
                    early.restarts += 1  # it died before connecting: start it again
                    early.process = subprocess.Popen(early.args)

        async def open_flet_view_async(page_url, assets_dir, hidden):
            return _Process(), early.pid_file

        server_module.asyncio = _Asyncio()  # type: ignore[assignment]  # only create_subprocess_exec is replaced
        flet_desktop.open_flet_view_async = open_flet_view_async

    def stop(self) -> None:
        """The app will not start (a bad setting): end the client and free the socket."""
        self.process.kill()
        self.process.wait(5)
        self.sock.close()
        Path(self.pid_file).unlink(missing_ok=True)


def spawn() -> EarlyClient | None:
    """Bind 127.0.0.1:0 and start the desktop client on it; None when Flet should start it itself."""
    if os.environ.get("FDAX_EARLY_CLIENT", "1") == "0":
        return None
    path = client_path()
    if path is None or not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        return None
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        sock.bind(("127.0.0.1", 0))
        sock.listen(8)
        fd, pid_file = tempfile.mkstemp(prefix="fdax-flet-", suffix=".pid")
        os.close(fd)
        args = [str(path), f"tcp://127.0.0.1:{sock.getsockname()[1]}", pid_file]
        process = subprocess.Popen(args)
    except OSError:
        sock.close()
        return None
    return EarlyClient(process, sock, pid_file, args)
