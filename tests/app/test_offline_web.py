"""The web client is served with its hard-coded CDN URLs pointed back at the local server (same byte lengths)."""

from __future__ import annotations

from pathlib import Path

import flet_web

from app.ui.offline_web import CDN_URL, FILES, offline_assets, patch

WEB = Path(flet_web.__file__).parent / "web"


def test_patch_keeps_lengths_and_leaves_no_cdn_url():
    data = b'x"https://cdn.jsdelivr.net/npm/@rive-app/flutter-native-wasm@37.0.0/"\x03https://example.org/'
    out = patch(data)
    assert len(out) == len(data) and b"cdn.jsdelivr.net" not in out and b"https://example.org/" in out
    assert b'"./no-cdn/' in out


def test_offline_assets_shadow_every_file_that_names_the_cdn(tmp_path):
    folder = offline_assets(tmp_path)
    named = [f for f in FILES if CDN_URL.search((WEB / f).read_bytes())]
    assert "main.dart.wasm" in named and "main.dart.js" in named
    for f in named:
        copy = (folder / f).read_bytes()
        assert not CDN_URL.search(copy) and len(copy) == (WEB / f).stat().st_size
    stamp = (folder / "main.dart.js").stat().st_mtime_ns
    assert offline_assets(tmp_path) == folder and (folder / "main.dart.js").stat().st_mtime_ns == stamp
