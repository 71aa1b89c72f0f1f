"""Offline web client: copies of Flet's web files whose hard-coded CDN URLs point back at the local server."""

from __future__ import annotations

import os
import re
from pathlib import Path

__all__ = ["offline_assets", "CDN_URL"]

# Flet 0.82.2's web client loads Rive's WASM runtime from jsdelivr whatever `no_cdn` says (and python.js names
# Pyodide's CDN, unused here). Each URL is replaced by a local path of the same length (the WASM binary keeps its
# string lengths), which this server does not have: the browser gets a 404, exactly as when offline.
CDN_URL = re.compile(rb"https://cdn\.jsdelivr\.net/[A-Za-z0-9@/._-]+")
FILES = ("main.dart.js", "main.dart.wasm", "python.js")


def _local(url: bytes) -> bytes:
    stem = b"./no-cdn/"
    return stem + b"x" * (len(url) - len(stem) - 1) + b"/" if len(url) > len(stem) + 1 else url


def patch(data: bytes) -> bytes:
    return CDN_URL.sub(lambda m: _local(m.group(0)), data)


def offline_assets(cache_dir: Path) -> Path:
    """The folder to serve as Flet's assets_dir (it shadows Flet's own web files); made once per Flet version."""
    import flet_web
    from flet_web.version import version

    web = Path(flet_web.__file__).parent / "web"
    out = Path(cache_dir) / f"flet-web-{version}"
    out.mkdir(parents=True, exist_ok=True)
    for name in FILES:
        src, dest = web / name, out / name
        if not src.is_file() or dest.is_file() and dest.stat().st_size == src.stat().st_size:
            continue
        tmp = dest.with_name(dest.name + ".part")
        tmp.write_bytes(patch(src.read_bytes()))
        os.replace(tmp, dest)
    return out
