"""The local API under hostile requests (review D3, D14, D19).

Deep, long or malformed searches get openFDA's 400 body, never a 500; bare words are read in one pass per record;
a search or lookup that runs too long or needs too much memory is stopped with a 400 that says how to narrow it;
`mirror serve` (real HTTP on 127.0.0.1) refuses foreign Host headers, closes half-open connections, and holds its
memory under a burst of hostile searches.
"""

from __future__ import annotations

import socket
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import psutil
import pytest

from mirror.api import Api, catalog, parse
from mirror.api.limits import QueryTooBroad
from mirror.api.query import And
from mirror.api.server import HEAD_TIMEOUT, _allowed, allowed_hosts
from mirror.api.sql import Translator, grouped
from mirror.settings import Settings
from mirror.store.files import Store
from tests.conftest import start_server

WORDS = "+".join(f"w{i}" for i in range(100))
WILDCARDS = "+".join(f"*{a}*{b}*" for a in "aeiou" for b in "abcdefghijklmnopqrst")  # 100 terms, slow on 6,530


@pytest.fixture(scope="module")
def api(sample_dir: Path):
    a = Api(Settings(data_dir=sample_dir, api_max_skip=0))
    yield a
    a.close()


HOSTILE = [  # (query string, the start of the 400 message)
    ("search=" + "(" * 300 + "device.brand_name:x" + ")" * 300, "Search not supported: parentheses and NOTs nested"),
    ("search=" + "(" * 5000 + "x" + ")" * 5000, "Search not supported: parentheses and NOTs nested"),
    ("search=" + "NOT+" * 5000 + "x", "Search not supported: parentheses and NOTs nested"),
    ("search=" + "-" * 5000 + "x", "Search not supported: parentheses and NOTs nested"),
    ("search=device.generic_name:" + "(" * 3000 + "x" + ")" * 3000, "Search not supported: parentheses and NOTs"),
    ("search=" + "+OR+".join(f"device.generic_name:w{i}" for i in range(1000)), "Search not supported: 1000 terms"),
    (
        "search=" + "+OR+".join(f"device.device_report_product_code:A{i}" for i in range(3000)),
        "Search not supported: 3000 terms",
    ),
    ("search=" + "+".join(f"w{i}" for i in range(3000)), "Search not supported: 3000 terms"),
    ("search=" + "-".join(f"w{i}" for i in range(101)), "Search not supported: 101 terms"),
    ("search_after=0=" + "9" * 100, "Invalid search_after value"),
    ("search_after=0=" + "9" * 5000, "Invalid search_after value"),
    ("sort=date_received:asc&search_after=0=0;1=20200101;2=" + "9" * 100, "Invalid search_after value"),
    ("limit=" + "9" * 100, "Invalid limit parameter value."),
    ("skip=" + "9" * 40, "Invalid skip parameter value."),
]


@pytest.mark.parametrize("query,message", HOSTILE, ids=[f"{m[:24]}:{q[:30]}" for q, m in HOSTILE])
def test_hostile_searches_get_openfdas_400(api, query, message):
    t = time.perf_counter()
    r = api.get("/device/event.json", query)
    assert time.perf_counter() - t < 10
    assert r.status == 400, r.json()
    body = r.json()
    assert list(body) == ["error"] and list(body["error"]) == ["code", "message"]
    assert body["error"]["code"] == "BAD_REQUEST" and body["error"]["message"].startswith(message)


@pytest.mark.parametrize(
    "query",
    [
        "search=" + WORDS,  # 100 terms: allowed
        "search=" + "(" * 50 + "device.brand_name:x" + ")" * 50,  # 50 deep: allowed
        "search=" + "NOT+" * 49 + "x",
        "search=" + "+OR+".join(f"device.generic_name:w{i}" for i in range(100)),
        "search_after=0=" + "9" * 18,
    ],
)
def test_searches_at_the_bounds_are_answered(api, query):
    assert api.get("/device/event.json", query).status in (200, 404)


def test_bare_words_read_each_record_once():
    """The field-less terms of a search become one predicate: the record's text is read once in the SQL."""
    tr = Translator("event", catalog(), "ds_event.main.device_event", {"date_received"})
    for search in (
        "pacemaker lead battery wire failure",
        'pacemaker AND NOT lead AND "power supply" AND pace*',
        "(pacemaker OR lead) AND date_received:[20200101 TO 20201231] AND wire AND NOT battery",
        "pacemaker OR device.generic_name:pump OR lead OR wire*",
    ):
        node = parse(search)
        parts = grouped(node) if isinstance(node, And) else [node]
        sql = " AND ".join(tr.translate(p) for p in parts)
        assert sql.count("CAST(t.record AS VARCHAR)") == 1, search
        assert "regexp_replace(CAST(t.record" not in sql


def test_a_long_search_is_stopped_with_a_400_that_says_how_to_narrow(sample_dir: Path):
    api = Api(Settings(data_dir=sample_dir), timeout=0.2)
    try:
        t = time.perf_counter()
        r = api.get("/device/classification.json", f"search={WILDCARDS}&limit=1")
        assert time.perf_counter() - t < 5
        assert r.status == 400 and r.json() == {
            "error": {
                "code": "BAD_REQUEST",
                "message": (
                    "Search too broad: the search took longer than 0.2 s and was stopped; narrow it: name a field "
                    "(mdr_text.text:pacemaker rather than a bare word), add a date range (date_received:[20230101 TO "
                    "20231231]) or use fewer OR terms"
                ),
            }
        }
        assert api.get("/device/classification.json", "search=product_code:DXY").status == 200
        with pytest.raises(QueryTooBroad, match=r"^the lookup took longer than 0.2 s and was stopped; ask about"):
            with api.cursor() as cur:
                cur.execute("SELECT count(*) FROM range(100000000000)").fetchall()
        with api.cursor() as cur:  # the next lookup runs as usual
            assert cur.execute("SELECT count(*) FROM device_classification").fetchone() == (6530,)
    finally:
        api.close()
    default = Api(Settings(data_dir=sample_dir))
    try:
        assert default.timeout == 30 and default.get("/device/classification.json", "search=*a*e*").status == 200
    finally:
        default.close()


def test_cursors_hold_the_memory_limit(sample_dir: Path):
    api = Api(Settings(data_dir=sample_dir), store=Store(sample_dir, memory_limit="30MB"))
    try:
        with api.cursor() as cur:
            assert cur.execute("SELECT current_setting('memory_limit')").fetchone()[0] in ("28.6 MiB", "30.0 MB")
        with pytest.raises(QueryTooBroad, match="needed more than the 30MB memory limit"):
            with api.cursor() as cur:
                cur.execute("SELECT list(x) FROM range(30000000) t(x)").fetchall()
    finally:
        api.close()
    default = Api(Settings(data_dir=sample_dir))
    try:
        with default.cursor() as cur:
            assert cur.execute("SELECT current_setting('memory_limit')").fetchone()[0] == "953.6 MiB"  # 1GB
    finally:
        default.close()


# -- mirror serve over real HTTP ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def server(sample_dir: Path):
    p, base = start_server(sample_dir)
    yield p, base
    p.terminate()
    p.wait(timeout=20)


@pytest.mark.parametrize(
    "host",
    [
        "evil.example",
        "evil.example:80",
        "127.0.0.1.evil.example",
        "localhost.evil",
        "evil.example:127.0.0.1",
        "[::2]:80",
        "0.0.0.0",
        "",
    ],
)
def test_a_foreign_host_gets_400_and_is_never_echoed_in_a_link(server, host):
    _, base = server
    r = httpx.get(base + "/device/510k.json?limit=1", headers={"Host": host})
    assert r.status_code == 400 and "link" not in r.headers
    assert r.json()["error"]["code"] == "BAD_REQUEST" and "is not allowed" in r.json()["error"]["message"]


def test_the_allowed_hosts_follow_the_bind_address():
    loop = allowed_hosts("127.0.0.1")
    assert loop == {"127.0.0.1", "localhost", "::1"} and not _allowed("10.0.0.2", loop)
    lan = allowed_hosts("192.0.2.7")
    assert _allowed("192.0.2.7", lan) and _allowed("localhost", lan) and not _allowed("evil.example", lan)
    every = allowed_hosts("0.0.0.0")  # any interface: this machine's name or any address, never another name
    assert _allowed(socket.gethostname().lower(), every) and _allowed("192.0.2.7", every)
    assert _allowed("fe80::1", every) and not _allowed("evil.example", every)


@pytest.mark.parametrize(
    "host,link",
    [("127.0.0.1:1", "127.0.0.1"), ("localhost", "localhost"), ("LOCALHOST:8000", "localhost"), ("[::1]:9", "[::1]")],
)
def test_loopback_hosts_with_any_port_are_answered_and_the_link_names_the_real_port(server, host, link):
    _, base = server
    port = base.rsplit(":", 1)[1]
    r = httpx.get(base + "/device/510k.json?limit=1", headers={"Host": host})
    assert r.status_code == 200
    assert r.headers["link"].startswith(f"<http://{link}:{port}/device/510k.json?limit=1&search_after=")


def test_half_open_connections_are_closed(server):
    _, base = server
    port = int(base.rsplit(":", 1)[1])
    closed: dict[str, float] = {}

    def client(name: str, first: bytes, trickle: bool) -> None:
        t = time.monotonic()
        with socket.create_connection(("127.0.0.1", port)) as s:
            s.sendall(first)
            s.settimeout(1.0)
            while time.monotonic() - t < HEAD_TIMEOUT + 10:
                try:
                    if s.recv(1024) == b"":
                        break
                except TimeoutError:
                    if trickle:
                        s.sendall(b"X")  # one byte a second: a header that never ends
                except OSError:
                    break
            closed[name] = time.monotonic() - t

    threads = [
        threading.Thread(target=client, args=a)
        for a in (
            ("silent", b"", False),
            ("partial", b"GET /device/510k.json HTTP/1.1\r\nHost: 127.0.0.1\r\n", False),
            ("trickle", b"GET /device/510k.json HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ", True),
        )
    ]
    for th in threads:
        th.start()
    time.sleep(1)
    assert httpx.get(base + "/device/510k.json?limit=1").status_code == 200  # others are answered meanwhile
    for th in threads:
        th.join()
    assert set(closed) == {"silent", "partial", "trickle"}
    assert all(HEAD_TIMEOUT - 1 < s < HEAD_TIMEOUT + 5 for s in closed.values()), closed


def test_memory_stays_flat_under_a_burst_of_hostile_searches(server):
    p, base = server
    proc = psutil.Process(p.pid)
    hostile = [
        ("event", "search=" + WORDS),
        ("classification", "search=" + WORDS),
        ("event", "search=" + "(" * 300 + "x" + ")" * 300),
        ("event", "search=" + "+OR+".join(f"device.generic_name:w{i}" for i in range(1000))),
        ("event", "search=" + "+OR+".join(f"device.generic_name:w{i}" for i in range(100))),
        ("classification", "search=" + "+".join(f"*{c}*" for c in "aeiourstln")),
        ("event", "search=NOT+pacemaker+AND+NOT+lead+AND+NOT+the"),
        ("event", "search_after=0=" + "9" * 100),
    ]
    start = proc.memory_info().rss
    peak = [start]
    done = threading.Event()

    def sample() -> None:
        while not done.wait(0.02):
            peak.append(proc.memory_info().rss)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    with ThreadPoolExecutor(8) as pool:
        codes = list(
            pool.map(
                lambda i: (
                    httpx.get(f"{base}/device/{hostile[i % 8][0]}.json?{hostile[i % 8][1]}", timeout=60).status_code
                ),
                range(50),
            )
        )
    done.set()
    sampler.join()
    assert 500 not in codes and set(codes) <= {200, 400, 404}
    assert max(peak) < start + 300 * 2**20 and max(peak) < 600 * 2**20, (start, max(peak))
    r = httpx.get(base + "/device/event.json?search=device.device_report_product_code:OZP&limit=1")
    assert r.status_code == 200 and r.json()["meta"]["results"]["total"] == 2
