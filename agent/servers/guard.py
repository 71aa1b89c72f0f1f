"""Who may call the HTTP API: the Host header (against DNS rebinding), the Origin, and the bearer token.

An ASGI middleware that answers before any route runs, in the API's one error shape:
Host not among the allowed names -> 400; an Origin that is neither listed (`--cors-origin`) nor the server's
own -> 403; a token set (`--token`) and a request without `Authorization: Bearer <token>` -> 401.
"""

from __future__ import annotations

import hmac
import ipaddress
from dataclasses import dataclass

import orjson

__all__ = ["Access", "AccessGuard", "is_loopback", "error_body", "LOOPBACK_NAMES"]

LOOPBACK_NAMES = ("127.0.0.1", "localhost", "::1")


def is_loopback(host: str) -> bool:
    if host.strip("[]").lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def error_body(status: int, code: str, message: str) -> bytes:
    """The API's one error shape: {"error": {"status", "code", "message"}}."""
    return orjson.dumps({"error": {"status": status, "code": code, "message": message}})


@dataclass(frozen=True)
class Access:
    """What the guard accepts: Host names, cross-site origins, and the token (empty: none asked)."""

    hosts: frozenset[str]
    origins: tuple[str, ...] = ()
    token: str = ""

    @classmethod
    def for_bind(
        cls, host: str, token: str = "", origins: tuple[str, ...] = (), allow_hosts: tuple[str, ...] = ()
    ) -> "Access":
        """Loopback names, the bound address when it is a specific one, and the names listed with --allow-host."""
        names = {*LOOPBACK_NAMES, *(h.lower().strip("[]") for h in allow_hosts)}
        if host not in ("0.0.0.0", "::", ""):
            names.add(host.lower().strip("[]"))
        return cls(frozenset(names), tuple(o.rstrip("/") for o in origins), token)


def _hostname(host: str) -> str:
    """`example.org:8080` -> `example.org`; `[::1]:8080` -> `::1`."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1:].split("]", 1)[0]
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


class AccessGuard:
    """ASGI middleware: checks Host, Origin and the token on every HTTP request."""

    def __init__(self, app, access: Access) -> None:
        self.app, self.access = app, access

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        refusal = self.check(headers, scope.get("scheme", "http"))
        if refusal is None:
            await self.app(scope, receive, send)
            return
        status, code, message = refusal
        extra = [(b"www-authenticate", b'Bearer realm="fda-explorer"')] if status == 401 else []
        body = error_body(status, code, message)
        await send(
            {
                "type": "http.response.start",
                "status": status,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                    *extra,
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})

    def check(self, headers: dict[str, str], scheme: str) -> tuple[int, str, str] | None:
        host = headers.get("host", "")
        if _hostname(host) not in self.access.hosts:
            return (
                400,
                "host_not_allowed",
                f"Host {host!r} is not a name of this server (a DNS-rebinding guard); use "
                f"http://127.0.0.1:PORT/ or start it with --allow-host {_hostname(host) or 'NAME'}",
            )
        origin = headers.get("origin")
        if origin is not None and origin.rstrip("/") not in (*self.access.origins, f"{scheme}://{host}"):
            return (
                403,
                "origin_not_allowed",
                f"requests from the web page at {origin} are refused; start the server with "
                f"--cors-origin {origin} to allow them",
            )
        if self.access.token:
            auth = headers.get("authorization", "")
            given = auth[7:].strip() if auth[:7].lower() == "bearer " else ""
            if not hmac.compare_digest(given.encode(), self.access.token.encode()):
                return (
                    401,
                    "unauthorized",
                    "this server asks for its token: send the header "
                    "'Authorization: Bearer <token>' (the --token it was started with)",
                )
        return None
