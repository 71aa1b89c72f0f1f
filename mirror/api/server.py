"""`mirror serve`: the local openFDA API over HTTP (FastAPI on uvicorn), answering from `Api`."""

from __future__ import annotations

import socket
import sys

from fastapi import FastAPI, Request
from fastapi.responses import Response as HttpResponse

from ..errors import MirrorError
from ..settings import Settings
from .engine import Api

__all__ = ["make_app", "serve", "bind"]


def make_app(api: Api):
    """A FastAPI app whose every GET goes to `api.get` (openFDA's paths, parameters and bodies)."""
    app = FastAPI(title="FDA Explorer Offline: local openFDA device API", docs_url=None, redoc_url=None,
                  openapi_url=None)

    @app.api_route("/{path:path}", methods=["GET", "HEAD"])
    def answer(path: str, request: Request) -> HttpResponse:
        base = f"{request.url.scheme}://{request.url.netloc}"
        resp = api.get("/" + path, request.url.query, base_url=base)
        return HttpResponse(content=resp.body, status_code=resp.status, headers=resp.headers,
                            media_type="application/json")

    return app


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

    api = Api(settings)                      # a missing mirror fails here, before anything listens
    sock = bind(host, port)
    real_port = sock.getsockname()[1]
    print(f"serving the openFDA device API from {settings.data_dir} on http://{host}:{real_port}/ "
          f"(e.g. /device/event.json?limit=1); Ctrl+C stops", file=sys.stderr, flush=True)
    config = uvicorn.Config(make_app(api), log_level="warning", access_log=False, server_header=False)
    try:
        uvicorn.Server(config).run(sockets=[sock])
    finally:
        api.close()
        sock.close()
