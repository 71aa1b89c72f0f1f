"""Conformance: every recorded api.fda.gov request in the fixtures, replayed against the sample mirror.

The sample mirror is loaded from the same real records. For each recorded request (`*.http.json`, with
the response body beside it):
  * a recorded 404 gives the very same error body;
  * a recorded search gives 200, the same meta shape, records identical to the originals that satisfy
    the query (checked by tests/mirror/api/oracle.py, a separate pure-Python evaluator), a total equal
    to the oracle's count over all mirror records, every recorded result record that the mirror holds,
    and a `Link` of the same kind when there is a next page;
  * a recorded count gives the same result shape and exactly the oracle's buckets over the mirror.
"""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

import pytest

from .oracle import Oracle

FIXTURES = Path(__file__).resolve().parents[2] / "data" / "fixtures" / "openfda"
CASES = sorted(p for p in FIXTURES.rglob("*.http.json"))
META_2025 = ["disclaimer", "terms", "license", "last_updated", "results"]


def canon(record) -> str:
    return json.dumps(record, sort_keys=False, separators=(",", ":"))


def load_case(path: Path):
    http = json.loads(path.read_text(encoding="utf-8"))
    body = json.loads(path.with_name(path.name.replace(".http.json", ".json")).read_text(encoding="utf-8"))
    url = urlsplit(http["request_uri"])
    status = http.get("status", {}).get("code", 404 if "error" in body else 200)
    return url.path, url.query, status, body, http.get("headers", {})


def test_every_recorded_request_is_covered():
    assert len(CASES) >= 30
    kinds = {load_case(p)[2] for p in CASES}
    assert kinds == {200, 404}


@pytest.mark.parametrize("case", CASES, ids=lambda p: p.name.removesuffix(".http.json"))
def test_recorded_request(case: Path, api, records, fields):
    path, query, status, body, headers = load_case(case)
    endpoint = path.removeprefix("/device/").removesuffix(".json")
    resp = api.get(path, query)
    got = resp.json()
    if status == 404:
        assert (resp.status, got) == (404, body)
        return
    assert resp.status == 200, got
    params = dict(parse_qsl(query))
    oracle = Oracle(fields, endpoint)
    mine = records[endpoint]
    matched = oracle.search(mine, params.get("search"))
    assert resp.headers["Content-Type"] == "application/json; charset=utf-8"
    expected_meta = set(META_2025) - ({"results"} if "count" in params else set())
    assert set(body["meta"]) - {"results"} <= set(got["meta"]) == expected_meta
    if "count" in params:
        expect = oracle.count(matched, params["count"], int(params.get("limit", 100)))
        assert got["results"] == expect
        assert set(got["results"][0]) == set(body["results"][0])
        return
    assert list(got["meta"]) == META_2025
    limit, skip = int(params.get("limit", 1)), int(params.get("skip", 0))
    assert got["meta"]["results"] == {"skip": skip, "limit": limit, "total": len(matched)}
    assert set(got["meta"]["results"]) == set(body["meta"]["results"])
    if "2025" in case.name:  # today's API writes skip, limit, total in this order
        assert list(got["meta"]["results"]) == list(body["meta"]["results"])
    originals = {canon(r) for r in mine}
    satisfying = {canon(r) for r in matched}
    assert len(got["results"]) == min(limit, len(matched) - skip)
    for r in got["results"]:
        assert canon(r) in originals, "a record differs from the original"
        assert canon(r) in satisfying, "a record does not satisfy the query"
    # every recorded hit that the mirror holds is found by the same search
    everything = api.get(
        path,
        "&".join(f"{k}={v}" for k, v in parse_qsl(query, keep_blank_values=True) if k not in ("limit", "skip")).replace(
            " ", "+"
        )
        + "&limit=1000",
    ).json()
    found = {canon(r) for r in everything["results"]}
    held = [canon(r) for r in body["results"] if canon(r) in originals]
    assert all(h in found for h in held)
    # the next-page link is of the same kind as the API's when there is a next page here too
    recorded_link = (headers.get("Link") or [""])[0]
    if recorded_link and len(matched) > skip + limit:
        kind = "search_after=" if "search_after=" in recorded_link else "skip="
        assert kind in resp.headers.get("Link", ""), resp.headers
        assert resp.headers["Link"].endswith('>; rel="next"')


def test_recorded_hits_are_in_the_sample(api, records):
    """The sample really holds the recorded result records (else the check above would be vacuous)."""
    held = 0
    for case in CASES:
        path, query, status, body, _ = load_case(case)
        if status == 200 and "count" not in dict(parse_qsl(query)):
            endpoint = path.removeprefix("/device/").removesuffix(".json")
            originals = {canon(r) for r in records[endpoint]}
            held += sum(canon(r) in originals for r in body["results"])
    assert held >= 25  # the classification pages are not held: the sample classification is the FOI file
