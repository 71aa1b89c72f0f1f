"""`mirror query` (exit codes, printed JSON) and `mirror serve` (real HTTP on 127.0.0.1, a real client)."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from tests.conftest import mirror_serve


def mirror(*args: str, **kw) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "mirror", *args], capture_output=True, text=True, timeout=120, **kw)


@pytest.mark.parametrize(
    "query,code",
    [
        ("search=device.device_report_product_code:OZP+AND+date_received:[20230101+TO+20231231]&limit=5", 0),
        ("search=device.device_report_product_code:DXY", 1),
        ("search=date_received:[2023+TO", 2),
        ("bogus=1", 2),
    ],
)
def test_query_prints_the_response_and_exits_by_status(mirror_dir: Path, query, code):
    r = mirror("query", "device/event", query, "--data-dir", str(mirror_dir))
    assert r.returncode == code, r.stderr
    body = json.loads(r.stdout)
    if code == 0:
        assert body["meta"]["results"]["total"] == 2
        assert {x["mdr_report_key"] for x in body["results"]} == {"16081314", "16081315"}
    else:
        assert body["error"]["code"] == {1: "NOT_FOUND", 2: "BAD_REQUEST"}[code]


def test_query_accepts_endpoint_spellings_and_prints_link_on_stderr(mirror_dir: Path):
    for ep in ("event", "/device/event.json", "device/event"):
        r = mirror("query", ep, "limit=2", "--data-dir", str(mirror_dir))
        assert r.returncode == 0 and len(json.loads(r.stdout)["results"]) == 2
        assert r.stderr.startswith("Link: </device/event.json?limit=2&search_after=")
    r = mirror("query", "download", "--data-dir", str(mirror_dir))
    assert r.returncode == 0 and "event" in json.loads(r.stdout)["results"]["device"]


def test_query_on_a_missing_mirror_says_what_to_do(tmp_path: Path):
    r = mirror("query", "device/event", "limit=1", "--data-dir", str(tmp_path / "none"))
    assert r.returncode == 1 and r.stdout == ""
    assert r.stderr.count("\n") == 1 and "mirror sync" in r.stderr


def test_serve_answers_over_http_like_the_api(mirror_dir: Path):
    with mirror_serve(mirror_dir) as base:
        r = httpx.get(base + "/device/classification.json", params={"search": "device_class:2", "limit": "3"})
        assert r.status_code == 200 and r.headers["content-type"] == "application/json; charset=utf-8"
        link = r.headers["link"]
        assert link.startswith(f"<{base}/device/classification.json?") and link.endswith('>; rel="next"')
        seen = [x["product_code"] for x in r.json()["results"]]
        nxt = httpx.get(link[1 : link.index(">")])  # follow the Link as a client would
        assert nxt.status_code == 200 and not set(seen) & {x["product_code"] for x in nxt.json()["results"]}
        r = httpx.get(base + "/device/classification.json?count=product_code.exact")
        assert (r.status_code, r.json()) == (404, {"error": {"code": "NOT_FOUND", "message": "Nothing to count"}})
        r = httpx.get(base + "/device/event.json?search=a:(b")
        assert r.status_code == 400 and r.json()["error"]["code"] == "BAD_REQUEST"
        r = httpx.get(base + "/nowhere")
        assert r.status_code == 404 and r.json()["error"]["code"] == "NOT_FOUND"
        # only loopback: the listening socket is bound to 127.0.0.1
        port = int(base.rsplit(":", 1)[1])
        assert f"127.0.0.1:{port}" in base


def test_serve_refuses_a_missing_mirror_and_a_busy_port(tmp_path: Path, mirror_dir: Path):
    r = mirror("serve", "--port", "0", "--data-dir", str(tmp_path / "none"))
    assert r.returncode == 1 and "no mirror here yet" in r.stderr and "mirror sync" in r.stderr
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen(1)
        busy = s.getsockname()[1]
        r = mirror("serve", "--port", str(busy), "--data-dir", str(mirror_dir))
    assert r.returncode == 1 and r.stderr.count("\n") == 1
    assert f"cannot listen on 127.0.0.1:{busy}" in r.stderr and "--port" in r.stderr
