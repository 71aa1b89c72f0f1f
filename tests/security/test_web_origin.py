"""`fda-explorer --web` answers only its own page (review D2, D19): a page from another origin, a raw client with a
foreign Origin, a foreign Host (DNS rebinding) and a request without the launch's token are refused, and no app
session is created; the printed address still works."""

from __future__ import annotations

import http.client
import shutil
import subprocess
import threading
import urllib.parse
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from tests.app.conftest import free_port, launch_app, listening, require, stop, trace_events, wait_for

CHROMIUM = "/usr/bin/chromium"
ATTACK_PAGE = """<!doctype html><title>a page from elsewhere</title><script>
function socket(url) {
  return new Promise(done => {
    let ws;
    try { ws = new WebSocket(url); } catch (e) { done("throws: " + e); return; }
    ws.onopen = () => { done("open"); ws.close(); };
    ws.onclose = e => done("closed " + e.code);
    setTimeout(() => done("timeout"), 15000);
  });
}
async function read(url) {
  try { const r = await fetch(url); return "read " + r.status + " " + (await r.text()).slice(0, 40); }
  catch (e) { return "blocked"; }
}
window.attack = Promise.all([socket("ws://127.0.0.1:APP/ws"), socket("ws://localhost:APP/ws"),
                             read("http://127.0.0.1:APP/"), read("http://127.0.0.1:APP/main.dart.js")]);
</script>"""


class App:
    def __init__(self, proc: subprocess.Popen, port: int, url: str, trace: Path) -> None:
        self.proc, self.port, self.url, self.trace = proc, port, url, trace
        self.base = f"http://127.0.0.1:{port}/"
        self.token = urllib.parse.parse_qs(urllib.parse.urlsplit(url).query)["token"][0]
        self.cookie = f"fdax-token-{port}={self.token}"

    def sessions(self) -> int:
        """App sessions created so far (one `ready` line of the trace per browser tab that reached the app)."""
        return sum(e["event"] == "ready" for e in trace_events(self.trace))

    def get(self, path: str = "/", **headers: str) -> http.client.HTTPResponse:
        c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        c.putrequest("GET", path, skip_host=True)
        for name, value in {"Host": f"127.0.0.1:{self.port}", **headers}.items():
            c.putheader(name, value)
        c.endheaders()
        r = c.getresponse()
        r.body = r.read()
        c.close()
        return r

    def socket_status(self, origin: str | None, cookie: bool = True, host: str | None = None) -> int:
        """101 when the upgrade was accepted (then closed at once), else the HTTP status of the refusal."""
        headers = {"Cookie": self.cookie} if cookie else {}
        if host:
            headers["Host"] = host
        try:
            with connect(f"ws://127.0.0.1:{self.port}/ws", origin=origin, additional_headers=headers, open_timeout=10):
                return 101
        except InvalidStatus as e:
            return e.response.status_code


@pytest.fixture(scope="module")
def app(sample_dir, tmp_path_factory):
    tmp = tmp_path_factory.mktemp("web-origin")
    data, port, trace = tmp / "data", free_port(), tmp / "trace.jsonl"
    shutil.copytree(sample_dir, data, ignore=shutil.ignore_patterns("*.lock", "agent"))
    proc = launch_app(data, tmp, trace, "--web", "--port", str(port), env={"FDAX_DATA_DIR": str(data)})
    try:
        url = wait_for(lambda: listening(trace) or proc.poll() is not None, 60, "the web server to answer")
        assert proc.poll() is None, proc.stdout.read().decode()
        yield App(proc, port, url, trace)
    finally:
        code = stop(proc)
        output = proc.stdout.read().decode()
        assert code == 0, f"fda-explorer --web exited with {code}:\n{output}"
        assert "Traceback" not in output and "ERROR" not in output, output
        assert f"open http://127.0.0.1:{port}/?token=" in output  # the address to open is printed


def test_the_printed_address_carries_a_token_that_becomes_a_strict_cookie(app):
    assert app.url == f"http://127.0.0.1:{app.port}/?token={app.token}" and len(app.token) >= 32
    r = app.get(f"/?token={app.token}")
    assert r.status == 303 and r.getheader("Location") == "/"
    assert r.getheader("Set-Cookie") == f"{app.cookie}; Path=/; HttpOnly; SameSite=Strict"
    page = app.get("/", Cookie=app.cookie)
    assert page.status == 200 and b"<html" in page.body
    for r in (page, app.get("/main.dart.js", Cookie=app.cookie), app.get("/manifest.json", Cookie=app.cookie)):
        assert r.status == 200 and r.getheader("Access-Control-Allow-Origin") is None
        assert r.getheader("X-Frame-Options") == "DENY" and "frame-ancestors 'none'" in r.getheader(
            "Content-Security-Policy"
        )
    assert app.get("/", Cookie=app.cookie, Host=f"localhost:{app.port}").status == 200


def test_a_request_without_the_token_gets_a_short_page_saying_what_to_open(app):
    for r in (
        app.get("/"),
        app.get("/main.dart.js"),
        app.get("/?token=wrong"),
        app.get("/?token="),
        app.get("/", Cookie=f"fdax-token-{app.port}=wrong"),
        app.get("/", Cookie=f"other={app.token}"),
    ):
        assert r.status == 403 and r.getheader("Content-Type") == "text/plain; charset=utf-8"
        assert b"Open the address printed by `fda-explorer --web` (it ends with ?token=...)" in r.body
        assert r.getheader("Set-Cookie") is None and app.token.encode() not in r.body


def test_a_foreign_host_is_refused_400(app):
    for host in (
        "evil.example",
        f"evil.example:{app.port}",
        f"127.0.0.1:{app.port + 1}",
        "127.0.0.1",
        f"127.0.0.1.nip.io:{app.port}",
        f"localhost.evil.example:{app.port}",
        "",
        f"10.0.0.1:{app.port}",
    ):
        r = app.get(f"/?token={app.token}", Cookie=app.cookie, Host=host)
        assert r.status == 400, host
        assert b"answers only at http://127.0.0.1:" in r.body and r.getheader("Set-Cookie") is None
    assert app.socket_status(f"http://127.0.0.1:{app.port}", host=f"evil.example:{app.port}") == 403


def test_a_foreign_origin_is_refused_403_on_http_and_on_the_socket(app):
    foreign = (
        "http://attacker.example",
        f"http://127.0.0.1:{app.port + 1}",
        f"https://127.0.0.1:{app.port}",
        "null",
        f"http://localhost:{app.port + 1}",
        f"http://127.0.0.1:{app.port}.evil.example",
    )
    for origin in foreign:
        r = app.get("/", Cookie=app.cookie, Origin=origin)
        assert r.status == 403 and b"refuses requests made by another web site" in r.body, origin
        assert app.socket_status(origin) == 403, origin
    assert app.socket_status(f"http://127.0.0.1:{app.port}", cookie=False) == 403  # own origin, no token
    assert app.socket_status(None, cookie=False) == 403  # no origin, no token
    assert app.sessions() == 0  # nothing reached the app
    assert app.socket_status(f"http://127.0.0.1:{app.port}") == 101  # own page with its cookie
    assert app.socket_status(f"http://localhost:{app.port}") == 101


def test_a_page_from_another_origin_cannot_drive_the_app_in_a_real_browser(app):
    """The person has the app open (its cookie is in the browser); a page from another origin, here another port
    of 127.0.0.1 (same site, so the browser even attaches the cookie), and a rebound name are refused."""
    require("chromium")
    from playwright.sync_api import sync_playwright

    evil_dir = Path(app.trace).parent / "evil"
    evil_dir.mkdir(exist_ok=True)
    (evil_dir / "index.html").write_text(ATTACK_PAGE.replace("APP", str(app.port)))
    evil = ThreadingHTTPServer(("127.0.0.1", 0), partial(_QuietHandler, directory=str(evil_dir)))
    threading.Thread(target=evil.serve_forever, daemon=True).start()
    before = app.sessions()
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(
                executable_path=CHROMIUM, args=["--no-sandbox", "--host-resolver-rules=MAP rebound.example 127.0.0.1"]
            )
            context = browser.new_context()
            own = context.new_page()
            own.goto(app.url)  # the printed address: the app opens
            assert own.url == app.base
            own.wait_for_selector("flt-semantics-placeholder", state="attached", timeout=90_000)
            wait_for(lambda: app.sessions() == before + 1, 60, "the app's own page to start a session")
            attacker = context.new_page()
            attacker.goto(f"http://127.0.0.1:{evil.server_address[1]}/")
            results = attacker.evaluate("window.attack")
            assert results[0].startswith("closed") and results[1].startswith("closed"), results  # 403: no socket
            assert results[2] == results[3] == "blocked", results  # refused, and no CORS header to read it
            rebound = context.new_page()  # DNS rebinding: a foreign name for 127.0.0.1
            rebound.goto(f"http://rebound.example:{app.port}/?token={app.token}")
            assert "answers only at http://127.0.0.1:" in rebound.content()
            fresh = browser.new_context().new_page()  # another browser profile, without the token
            fresh.goto(app.base)
            assert "Open the address printed by `fda-explorer --web`" in fresh.content()
            own.wait_for_timeout(1000)
            assert app.sessions() == before + 1, "a refused page created an app session"
            browser.close()
    finally:
        evil.shutdown()
        evil.server_close()


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:
        pass
