"""`mirror serve`: the local openFDA API over HTTP (FastAPI on uvicorn's h11 protocol), answering from `Api`.

Guards for a server on the user's machine: only requests whose Host names loopback or the bound host (for
`--host 0.0.0.0`: this machine's name or an IP address) are answered, so a web page cannot reach it through DNS
rebinding; a connection that has not sent a
request's head within HEAD_TIMEOUT seconds is closed (uvicorn itself never closes one that sends nothing), heads
over MAX_HEAD bytes are refused, and idle keep-alive connections close after KEEP_ALIVE seconds.
"""

from __future__ import annotations

import ipaddress
import socket
import sys

import orjson
from fastapi import FastAPI, Request
from fastapi.responses import Response as HttpResponse
from uvicorn.protocols.http.h11_impl import H11Protocol

from ..errors import MirrorError
from ..settings import Settings
from .engine import HEADERS, Api

__all__ = ["make_app", "serve", "bind", "allowed_hosts", "HEAD_TIMEOUT"]

LOOPBACK = ("127.0.0.1", "localhost", "::1")
WILDCARD = ("0.0.0.0", "::", "")
IP_LITERAL = "<any IP address>"
HEAD_TIMEOUT = 10.0  # seconds a connection may take to send a request's line and headers
KEEP_ALIVE = 5  # seconds an idle keep-alive connection stays open
MAX_HEAD = 16 * 1024  # bytes of a request's line and headers (h11's default, stated)


def allowed_hosts(host: str) -> frozenset[str]:
    """The host names a request may be addressed to: loopback and the bound host; for a wildcard bind (0.0.0.0)
    also this machine's name (`IP_LITERAL`: any address written as such, which no DNS rebinding can send)."""
    bound = host.strip("[]").lower()
    if bound in WILDCARD:
        return frozenset({*LOOPBACK, socket.gethostname().lower(), IP_LITERAL})
    return frozenset({*LOOPBACK, bound})


def _allowed(name: str, hosts: frozenset[str]) -> bool:
    if name in hosts:
        return True
    if IP_LITERAL not in hosts:
        return False
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def host_name(header: str) -> str:
    """The host of a Host header, without its port: `a:80` -> `a`, `[::1]:80` -> `::1`."""
    h = header.strip().lower()
    if h.startswith("["):
        return h[1 : h.index("]")] if "]" in h else h
    return h.rsplit(":", 1)[0] if h.count(":") == 1 else h


class _HostGuard:
    """ASGI middleware: 400 (openFDA's error body) for a request whose Host is not one of `hosts`."""

    def __init__(self, app, hosts: frozenset[str]) -> None:
        self.app, self.hosts = app, hosts

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] == "http":
            host = dict(scope["headers"]).get(b"host", b"").decode("latin-1")
            if not _allowed(host_name(host), self.hosts):
                message = (
                    f"Host {host[:100]!r} is not allowed: this local API answers requests addressed to "
                    + ", ".join(sorted(self.hosts))
                    + "; use http://127.0.0.1:<port>/"
                )
                body = orjson.dumps({"error": {"code": "BAD_REQUEST", "message": message}}, option=orjson.OPT_INDENT_2)
                headers = [(k.lower().encode(), v.encode()) for k, v in HEADERS.items()]
                await send(
                    {
                        "type": "http.response.start",
                        "status": 400,
                        "headers": headers + [(b"content-length", str(len(body)).encode())],
                    }
                )
                await send({"type": "http.response.body", "body": body})
                return
        await self.app(scope, receive, send)


class GuardedH11(H11Protocol):
    """uvicorn's h11 protocol, closing a connection that sends no complete request head within HEAD_TIMEOUT
    seconds of opening or of its last response (a half-open or trickling client holds nothing for long)."""

    _head_timer = None

    def connection_made(self, transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
        super().connection_lost(exc)

    def _arm(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
        self._head_timer = self.loop.call_later(HEAD_TIMEOUT, self._head_timeout)

    def _head_timeout(self) -> None:
        answering = self.cycle is not None and not self.cycle.response_complete
        if not answering and not self.transport.is_closing():
            self.transport.close()


def make_app(api: Api, host: str = "127.0.0.1"):
    """A FastAPI app whose every GET goes to `api.get` (openFDA's paths, parameters and bodies), behind the Host
    check for a server bound to `host`."""
    app = FastAPI(
        title="FDA Explorer Offline: local openFDA device API", docs_url=None, redoc_url=None, openapi_url=None
    )

    @app.api_route("/{path:path}", methods=["GET", "HEAD"])
    def answer(path: str, request: Request) -> HttpResponse:
        name = host_name(request.headers.get("host", ""))  # one of the allowed hosts (the guard checked it)
        port = (request.scope.get("server") or ("", None))[1]
        base = f"{request.url.scheme}://{f'[{name}]' if ':' in name else name}{f':{port}' if port else ''}"
        resp = api.get("/" + path, request.url.query, base_url=base)
        return HttpResponse(
            content=resp.body, status_code=resp.status, headers=resp.headers, media_type="application/json"
        )

    return _HostGuard(app, allowed_hosts(host))


def bind(host: str, port: int) -> socket.socket:
    """The listening socket, or a MirrorError that says what to change."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as e:
        sock.close()
        raise MirrorError(f"cannot listen on {host}:{port} ({e.strerror}); choose another --port or --host") from None
    sock.listen(128)
    return sock


def serve(settings: Settings, host: str = "127.0.0.1", port: int = 8000) -> None:
    import uvicorn

    api = Api(settings)  # a missing mirror fails here, before anything listens
    sock = bind(host, port)
    real_port = sock.getsockname()[1]
    print(
        f"serving the openFDA device API from {settings.data_dir} on http://{host}:{real_port}/ "
        f"(e.g. /device/event.json?limit=1); Ctrl+C stops",
        file=sys.stderr,
        flush=True,
    )
    config = uvicorn.Config(
        make_app(api, host),
        log_level="warning",
        access_log=False,
        server_header=False,
        http=GuardedH11,
        timeout_keep_alive=KEEP_ALIVE,
        h11_max_incomplete_event_size=MAX_HEAD,
        proxy_headers=False,
    )
    try:
        uvicorn.Server(config).run(sockets=[sock])
    finally:
        api.close()
        sock.close()
