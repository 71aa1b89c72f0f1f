"""The web app's door: only a page from this computer's own address, opened with this launch's token, reaches the app.

`fda-explorer --web` serves a Flet app whose WebSocket drives everything the window can do (ask, read sessions,
change Settings). Browsers let any web page open a WebSocket or send requests to 127.0.0.1, so this ASGI wrapper
in front of Flet's FastAPI app refuses, for HTTP requests and WebSocket upgrades alike:

* a Host that is not this server on a loopback name (127.0.0.1, localhost, [::1] with the app's port): 400,
  which stops DNS rebinding (a foreign name resolved to 127.0.0.1);
* an Origin header that is present and not the app's own `http://127.0.0.1:PORT` (or localhost, [::1]): 403;
* a request without this launch's token: 403 with a short page saying to open the address printed by
  `fda-explorer --web`.

A refused WebSocket upgrade is answered 403 in every case, before Flet sees it: no app session is created.

The token travels like this. The address printed is `http://127.0.0.1:PORT/?token=T`. That first page load is
answered with a redirect to `/` (the token leaves the address bar and the page's route) that sets the cookie
`fdax-token-PORT=T` (HttpOnly, SameSite=Strict, Path=/). The browser then sends the cookie with every page, file
and the WebSocket upgrade of Flet's client, which connects to `/ws` on its own (its connection carries no query
the app controls), so the cookie is what the socket is checked on. HttpOnly keeps scripts of other local pages
from reading it, and the Origin check refuses their sockets even though the browser would attach the cookie (ports
do not separate cookies). Responses also lose Flet's `Access-Control-Allow-Origin: *` and may not be framed.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl, urlencode

__all__ = ["WebGuard", "new_token", "LOOPBACK_NAMES"]

LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")
Scope = dict[str, Any]
Message = dict[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

NO_TOKEN_PAGE = (
    "FDA Explorer Offline: this address needs the token of the running app.\n\n"
    "Open the address printed by `fda-explorer --web` (it ends with ?token=...). "
    "The token keeps other web pages from using the app; it changes at every start.\n"
)
LINGER = 3.0  # seconds Flet's socket handler may run on after its client has gone
DROPPED = {b"access-control-allow-origin"}
ADDED = [
    (b"x-frame-options", b"DENY"),
    (b"content-security-policy", b"frame-ancestors 'none'"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-content-type-options", b"nosniff"),
]


def new_token() -> str:
    """A fresh random token for one launch."""
    return secrets.token_urlsafe(24)


@dataclass(frozen=True)
class Refusal:
    status: int
    text: str


class WebGuard:
    """ASGI middleware around `app` served on 127.0.0.1:`port`; `url` is the address to open (with the token)."""

    def __init__(self, app: ASGIApp, port: int, token: str) -> None:
        self.app, self.port, self.token = app, port, token
        self.cookie = f"fdax-token-{port}"
        names = [f"{n}:{port}" for n in LOOPBACK_NAMES] + (list(LOOPBACK_NAMES) if port == 80 else [])
        self.hosts = frozenset(names)
        self.origins = frozenset(f"http://{h}" for h in names)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/?token={self.token}"

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):  # lifespan
            await self.app(scope, receive, send)
            return
        headers = scope.get("headers", [])
        refusal = self._refusal(headers)
        if scope["type"] == "websocket":
            if refusal is None and self._has_cookie(headers):
                await _socket(self.app, scope, receive, send)
            else:
                await _refuse_socket(receive, send)
            return
        if refusal is not None:
            await _plain(send, refusal.status, refusal.text)
            return
        query = parse_qsl(scope.get("query_string", b"").decode("latin-1"), keep_blank_values=True)
        given = [v for k, v in query if k == "token"]
        if given and self._is_token(given[-1]):  # the printed address: set the cookie, drop the token
            rest = urlencode([(k, v) for k, v in query if k != "token"])
            await _redirect(
                send,
                "/" + (f"?{rest}" if rest else ""),
                f"{self.cookie}={self.token}; Path=/; HttpOnly; SameSite=Strict",
            )
        elif not given and self._has_cookie(headers):
            await self.app(scope, receive, self._filtered(send))
        else:
            await _plain(send, 403, NO_TOKEN_PAGE)

    def _refusal(self, headers: list[tuple[bytes, bytes]]) -> Refusal | None:
        hosts = _values(headers, b"host")
        host = hosts[0].strip().lower() if len(hosts) == 1 else ""
        if host not in self.hosts:
            return Refusal(
                400,
                f"FDA Explorer Offline answers only at http://127.0.0.1:{self.port}/ "
                f"(the Host {host or '(none)'!r} is not this computer's own address).\n",
            )
        origins = _values(headers, b"origin")
        if origins and (len(origins) > 1 or origins[0].strip().lower() not in self.origins):
            return Refusal(403, "FDA Explorer Offline refuses requests made by another web site or page.\n")
        return None

    def _is_token(self, value: str) -> bool:
        return secrets.compare_digest(value.encode(), self.token.encode())

    def _has_cookie(self, headers: list[tuple[bytes, bytes]]) -> bool:
        for line in _values(headers, b"cookie"):
            for part in line.split(";"):
                name, _, value = part.strip().partition("=")
                if name == self.cookie and self._is_token(value):
                    return True
        return False

    @staticmethod
    def _filtered(send: Send) -> Send:
        async def filtered(message: Message) -> None:
            if message["type"] == "http.response.start":
                kept = [(k, v) for k, v in message.get("headers", []) if k.lower() not in DROPPED]
                message = {**message, "headers": kept + ADDED}
            await send(message)

        return filtered


def _values(headers: list[tuple[bytes, bytes]], name: bytes) -> list[str]:
    """Every value of the header `name` (lower case), as text."""
    return [v.decode("latin-1") for k, v in headers if k.lower() == name]


async def _socket(app: ASGIApp, scope: Scope, receive: Receive, send: Send) -> None:
    """Run Flet's handler for an accepted socket, but end it LINGER seconds after the client has gone: Flet 0.82
    waits forever on a socket that closed before registering a page, which would also hold up the server's stop."""
    gone = asyncio.Event()

    async def watched() -> Message:
        message = await receive()
        if message["type"] == "websocket.disconnect":
            gone.set()
        return message

    handler = asyncio.ensure_future(app(scope, watched, send))
    left = asyncio.ensure_future(gone.wait())
    try:
        await asyncio.wait({handler, left}, return_when=asyncio.FIRST_COMPLETED)
        if not handler.done():
            await asyncio.wait({handler}, timeout=LINGER)
    finally:
        left.cancel()
        if not handler.done():
            handler.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await handler
    if handler.cancelled():
        return
    error = handler.exception()
    if error is not None and not _disconnect(error):
        raise error  # what the handler raised, but not a send to a browser that has gone (a closed tab)


def _disconnect(error: BaseException) -> bool:
    """True for the errors of a send to a socket the browser already closed (Flet's send loop raises them)."""
    from starlette.websockets import WebSocketDisconnect

    seen: BaseException | None = error
    while seen is not None:
        if isinstance(seen, WebSocketDisconnect) or type(seen).__name__ in ("ClientDisconnected", "InvalidState"):
            return True
        seen = seen.__cause__ or seen.__context__
    return False


async def _refuse_socket(receive: Receive, send: Send) -> None:
    """Close before accepting: the server answers the upgrade with HTTP 403 and no socket is opened. (A body
    through the `websocket.http.response` extension would say why, but uvicorn 0.54's sans-io protocol then logs
    "returned without completing handshake"; a browser script sees neither.)"""
    message = await receive()
    if message["type"] == "websocket.connect":
        await send({"type": "websocket.close", "code": 1008})


async def _plain(send: Send, status: int, text: str) -> None:
    body = text.encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"text/plain; charset=utf-8"),
                (b"content-length", str(len(body)).encode()),
                (b"cache-control", b"no-store"),
                *ADDED,
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


async def _redirect(send: Send, location: str, cookie: str) -> None:
    await send(
        {
            "type": "http.response.start",
            "status": 303,
            "headers": [
                (b"location", location.encode("latin-1")),
                (b"set-cookie", cookie.encode()),
                (b"content-length", b"0"),
                (b"cache-control", b"no-store"),
                *ADDED,
            ],
        }
    )
    await send({"type": "http.response.body", "body": b""})
