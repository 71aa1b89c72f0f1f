"""The local openFDA API on the sample mirror: parameters, errors, search semantics, count, sort and paging.

Search results and counts are compared with oracle.py, a separate pure-Python computation over the
very records the mirror was loaded from.
"""

from __future__ import annotations

import json
import random
import shutil
import subprocess
import sys
from urllib.parse import parse_qsl, urlsplit

import pytest

from mirror.api import Api
from mirror.settings import Settings

from .oracle import Oracle

BAD = [  # (endpoint, query, expected message)
    ("event", "foo=1", "Invalid parameter: foo"),
    ("event", "limit=abc", "Invalid limit parameter value."),
    ("event", "limit=-3", "Invalid limit parameter value."),
    ("event", "skip=x", "Invalid skip parameter value."),
    (
        "event",
        "limit=1001",
        "Limit cannot exceed 1000 results for search requests. Use the skip or search_after "
        "param to get additional results.",
    ),
    ("event", "count=event_type&limit=1001", "Limit cannot exceed 1000 results for count requests."),
    ("event", "skip=25001", "Skip value must 25000 or less."),
    ("event", "count=event_type&skip=1", "Should not use skip param when using count."),
    ("event", "skip=5&search_after=0%3D1", "The skip parameter is not supported when using search_after."),
    (
        "event",
        "search_after=garbage",
        "Invalid search_after value: garbage; use the value from the previous page's Link header",
    ),
    ("event", "sort=mdr_text.text:asc", "Sorting allowed by non-analyzed fields only: mdr_text.text"),
    ("event", "sort=no_such_field:desc", "Sorting allowed by non-analyzed fields only: no_such_field"),
    ("event", "sort=date_received:sideways", "Sorting allowed by non-analyzed fields only: date_received"),
    (
        "event",
        "search=date_received:yesterday",
        "Search not supported: date_received is a date; write 'yesterday' as YYYYMMDD or YYYY-MM-DD",
    ),
    (
        "event",
        "search=device.brand_name:(a+OR+b",
        "Search not supported: unbalanced parentheses, expected ')' before the end",
    ),
    ("event", 'search=brand_name:"open', "Search not supported: unbalanced quote near position 11"),
    ("event", "search=x';+DROP+TABLE+device_event;--", "Search not supported: characters ';' are not allowed"),
    (
        "udi",
        "search=device_count_in_base_package:many",
        "Search not supported: device_count_in_base_package is a number, not 'many'",
    ),
]


@pytest.mark.parametrize("endpoint,query,message", BAD, ids=[f"{e}?{q}" for e, q, _ in BAD])
def test_bad_requests_give_400_with_the_api_message(api, endpoint, query, message):
    r = api.get(f"/device/{endpoint}.json", query)
    assert (r.status, r.json()) == (400, {"error": {"code": "BAD_REQUEST", "message": message}})


def test_unknown_path_and_missing_dataset_are_404(api, tmp_path):
    r = api.get("/device/nothing.json", "")
    assert r.status == 404 and r.json()["error"]["code"] == "NOT_FOUND"
    assert "/device/<endpoint>.json" in r.json()["error"]["message"]
    # a mirror with only one dataset says how to get the others
    d = tmp_path / "m"
    subprocess.run(
        [sys.executable, "-m", "mirror", "sync", "--sample", "--only", "510k", "--data-dir", str(d), "--quiet"],
        check=True,
        capture_output=True,
    )
    small = Api(Settings(data_dir=d))
    try:
        r = small.get("/device/event.json", "")
        assert r.status == 404 and "mirror sync --only event" in r.json()["error"]["message"]
        assert small.get("/device/510k.json", "").status == 200
    finally:
        small.close()


def test_defaults_limit_zero_and_api_key(api, records):
    r = api.get("/device/510k.json", "api_key=ignored")
    assert r.status == 200
    body = r.json()
    assert body["meta"]["results"] == {"skip": 0, "limit": 1, "total": len(records["510k"])}
    assert body["meta"]["last_updated"] == "2025-09-22" and len(body["results"]) == 1
    r = api.get("/device/510k.json", "limit=0")
    assert r.status == 200 and r.json()["results"] == []
    assert r.json()["meta"]["results"]["total"] == len(records["510k"])
    assert "Link" not in r.headers
    assert len(api.get("/device/classification.json", "count=review_panel").json()["results"]) <= 100


SEARCHES = [  # (endpoint, search): the API's total must equal the oracle's count over the same records
    ("event", "device.generic_name:pancreas"),
    ("event", "device.generic_name:PANCREAS"),  # text: case-insensitive words
    ("event", "device.generic_name.exact:PUMP,+INFUSION"),
    ("event", 'device.generic_name.exact:"PUMP,+INFUSION"'),
    ("event", 'device.generic_name.exact:"pump,+infusion"'),  # exact: whole value, case-sensitive
    ("event", "NOT+device.generic_name:pancreas"),
    ("event", "-device.generic_name:pancreas"),
    ("event", "_exists_:device.openfda.device_class"),
    ("event", "_missing_:device.openfda.device_class"),
    ("event", "device.generic_name:x-ray"),  # one term, two words: either
    ("event", 'device.generic_name:"x-ray+system"'),
    ("event", 'mdr_text.text:"power+supply"'),
    ("event", "mdr_text.text:intensif*"),
    ("event", "date_received:[20230101+TO+20230131]"),
    ("event", "date_received:[2023-01-01+TO+*]"),
    ("event", "date_received:{20080101+TO+20230105}"),
    ("event", "date_received:20090217"),
    ("event", "device.openfda.device_class:2"),
    ("event", "device.device_report_product_code:OZP+AND+date_of_event:20221226"),
    ("event", "device.device_report_product_code:(JAA+OR+LLZ)"),
    ("event", "device.device_report_product_code:JAA+date_received:[20230101+TO+20230131]"),  # default OR
    (
        "event",
        "(device.device_report_product_code:OZO+OR+device.device_report_product_code:FRN)"
        "+AND+NOT+_missing_:report_number",
    ),
    ("event", "device.device_report_product_code:ozo+AND+device.device_report_product_code.exact:ozo"),
    ("event", "patient"),  # any field
    ("event", '"power+supply"+OR+catheters'),
    ("event", "nosuch.field:x"),
    ("event", "NOT+nosuch.field:x"),
    ("510k", "decision_date:[20200101+TO+20201231]"),
    ("510k", "openfda.regulation_number:868.5895"),
    ("510k", "openfda.regulation_number:868"),  # not a word of 868.5895
    ("510k", "applicant:medline"),
    ("510k", "product_code:GEI+OR+product_code:dck"),  # keyword: case-sensitive
    ("classification", "device_class:2+AND+medical_specialty:CH"),
    ("classification", "device_name:catheter*"),
    ("classification", "regulation_number.exact:872.6855"),
    ("classification", 'definition:"intended+to"'),
    ("recall", "product_res_number.exact:Z-1022-2003+AND+firm_fei_number:3001236905"),
    ("enforcement", 'classification:"Class+II"'),
    ("enforcement", "recall_initiation_date:[20120101+TO+20121231]"),
    ("udi", "brand_name:pacemaker"),
    ("udi", "identifiers.id:B3359500+OR+identifiers.id:b3356600"),
    ("udi", "is_rx:true"),
    ("udi", "device_count_in_base_package:1"),
    ("udi", "product_codes.code:DSA"),
    ("udi", "product_codes.code:DXY+OR+gmdn_terms.name:pacemaker"),
    ("registrationlisting", "products.product_code:LZG+OR+registration.iso_country_code:US"),
    ("registrationlisting", "products.created_date:[19900101+TO+20251231]"),
    ("covid19serology", "date_performed:[2020-04-01+TO+2020-05-31]+AND+type:Serum"),
    # listed columns (product_code_list), bare key equalities and typed date ranges, also under NOT
    ("event", "NOT+device.device_report_product_code:JAA"),
    ("event", "NOT+(device.device_report_product_code:ozo+OR+NOT+date_received:[20230101+TO+20230131])"),
    ("event", "device.device_report_product_code.exact:OZO+AND+NOT+device.device_report_product_code.exact:FRN"),
    ("event", "NOT+date_received:[20230101+TO+20230131]"),
    ("event", "NOT+event_type.exact:Malfunction"),
    ("event", "_exists_:device.device_report_product_code"),
    ("udi", "NOT+product_codes.code:DSA"),
    ("udi", "product_codes.code:dsa"),  # keyword: case-sensitive
    ("udi", "public_device_record_key:cbe4c717-a763-44f8-aae0-2bdf2b2bb354"),
    ("registrationlisting", "NOT+products.product_code:LZG"),
    ("registrationlisting", "products.product_code:LZG+AND+_missing_:k_number"),
    ("510k", "NOT+k_number:K192028"),
    ("510k", "k_number:K192028"),
]


@pytest.mark.parametrize("endpoint,search", SEARCHES, ids=[f"{e}:{s}" for e, s in SEARCHES])
def test_search_matches_the_direct_computation(api, records, fields, endpoint, search):
    expect = Oracle(fields, endpoint).search(records[endpoint], search.replace("+", " "))
    r = api.get(f"/device/{endpoint}.json", f"search={search}&limit=1000")
    if not expect:
        assert (r.status, r.json()) == (404, {"error": {"code": "NOT_FOUND", "message": "No matches found!"}})
        return
    assert r.status == 200, r.json()
    body = r.json()
    assert body["meta"]["results"]["total"] == len(expect)
    canon = lambda rec: json.dumps(rec)  # noqa: E731
    assert sorted(map(canon, body["results"])) == sorted(map(canon, expect))


def test_the_search_cases_are_not_trivial(records, fields):
    """Most cases above match some records and not all (so they discriminate)."""
    sizes = [len(Oracle(fields, e).search(records[e], s.replace("+", " "))) for e, s in SEARCHES]
    alls = [len(records[e]) for e, _ in SEARCHES]
    assert sum(0 < n < a for n, a in zip(sizes, alls)) >= len(SEARCHES) * 0.7


def _any_field_searches(records: dict, per_endpoint: int = 24) -> list[tuple[str, str]]:
    """Field-less searches drawn from the records: single words (keys and numbers among them), two-word phrases,
    prefix and infix wildcards, ANDs with NOT and multi-word terms, with a fixed seed."""
    from .oracle import all_strings, words

    rnd, out = random.Random(13), []
    for ep, recs in sorted(records.items()):
        texts = [t for r in recs[:200] for t in all_strings(r)]
        vocab = sorted({w for t in texts for w in words(t)})
        keys = sorted({k for r in recs[:50] for k in json.dumps(r).split('"') if k.isidentifier()})
        pairs = [ws[i : i + 2] for ws in map(words, texts) for i in range(len(ws) - 1)]
        pick = lambda xs, n: rnd.sample(xs, min(n, len(xs)))  # noqa: E731
        qs = pick(vocab, per_endpoint) + pick(keys, 4) + ['"' + " ".join(p) + '"' for p in pick(pairs, 8)]
        qs += [w[:3] + "*" for w in pick(vocab, 4)] + ["*" + w[-2:] for w in pick(vocab, 2)]
        qs += [f"{a} AND NOT {b}" for a, b in zip(pick(vocab, 3), pick(vocab, 3))]
        qs += [f"{a}-{b} {c}" for a, b, c in zip(pick(vocab, 3), pick(vocab, 3), pick(vocab, 3))]
        out += [(ep, q) for q in qs if "*" not in q[1:-1] and not set(q) & set(":()[]{}\\")]
    return out


def test_any_field_searches_match_the_direct_computation(api, records, fields):
    """Bare words, phrases and wildcards without a field (read by anyfield.py) give the oracle's records."""
    from urllib.parse import quote_plus

    cases = _any_field_searches(records)
    assert len(cases) > 300
    hits = 0
    for endpoint, search in cases:
        expect = Oracle(fields, endpoint).search(records[endpoint], search)
        r = api.get(f"/device/{endpoint}.json", f"search={quote_plus(search)}&limit=1000")
        total = r.json()["meta"]["results"]["total"] if r.status == 200 else 0
        assert (r.status, total) == ((200, len(expect)) if expect else (404, 0)), (endpoint, search)
        hits += bool(expect)
        if 0 < len(expect) <= 1000:
            key = lambda rec: json.dumps(rec, sort_keys=True)  # noqa: E731
            assert sorted(map(key, r.json()["results"])) == sorted(map(key, expect)), (endpoint, search)
    assert hits > len(cases) // 2


COUNTS = [
    ("event", "", "event_type"),
    ("event", "", "event_type.exact"),
    ("event", "", "date_received"),
    ("event", "event_type:Malfunction", "device.device_report_product_code.exact"),
    ("event", "", "device.openfda.device_class"),
    ("event", "", "patient.patient_problems"),
    ("event", "", "mdr_text.text_type_code.exact"),
    ("510k", "", "decision_date"),
    ("510k", "", "openfda.medical_specialty_description.exact"),
    ("classification", "", "device_class"),
    ("classification", "device_class:2", "medical_specialty_description.exact"),
    ("udi", "", "product_codes.code"),
    ("udi", "", "identifiers.type"),
    ("registrationlisting", "", "products.product_code"),
    ("covid19serology", "", "date_performed"),
    ("recall", "", "openfda.k_number"),
    ("event", "", "device.device_report_product_code.exact"),
    ("event", "", "device.device_report_product_code"),
    ("event", "device.device_report_product_code:ozo", "date_received"),
    ("udi", "", "product_codes.code.exact"),
    ("registrationlisting", "registration.iso_country_code:US", "products.product_code"),
]


@pytest.mark.parametrize("endpoint,search,field", COUNTS, ids=[f"{e}:{f}" for e, _, f in COUNTS])
def test_count_matches_the_direct_computation(api, records, fields, endpoint, search, field):
    o = Oracle(fields, endpoint)
    expect = o.count(o.search(records[endpoint], search or None), field, 1000)
    q = f"count={field}&limit=1000" + (f"&search={search}" if search else "")
    r = api.get(f"/device/{endpoint}.json", q)
    assert r.status == 200, r.json()
    assert r.json()["results"] == expect and expect
    assert "results" not in r.json()["meta"]


def test_count_errors(api):
    nothing = {"error": {"code": "NOT_FOUND", "message": "Nothing to count"}}
    r = api.get("/device/classification.json", "count=product_code.exact")  # no .exact on that field
    assert (r.status, r.json()) == (404, nothing)
    r = api.get("/device/event.json", "count=no_such_field")
    assert (r.status, r.json()) == (404, nothing)
    r = api.get("/device/event.json", "count=event_type&search=event_type:nothing_like_this")
    assert r.json()["error"]["message"] == "No matches found!"
    r = api.get("/device/classification.json", "count=device_class&limit=2")
    assert len(r.json()["results"]) == 2


def walk(api, path, query):
    """Follow Link headers to the end; return every record and the number of pages."""
    out, pages = [], 0
    while True:
        r = api.get(path, query)
        assert r.status == 200, r.json()
        out += r.json()["results"]
        pages += 1
        link = r.headers.get("Link")
        if not link:
            return out, pages
        url = urlsplit(link[1 : link.index(">")])
        assert url.path == path
        query = url.query


@pytest.mark.parametrize("sort", ["", "&sort=device_name.exact:desc", "&sort=regulation_number.exact:asc"])
def test_search_after_walks_to_the_end(api, records, fields, sort):
    expect = Oracle(fields, "classification").search(records["classification"], "device_class:2")
    got, pages = walk(api, "/device/classification.json", f"search=device_class:2&limit=700{sort}")
    assert pages == -(-len(expect) // 700) + (len(expect) % 700 == 0)
    assert len(got) == len(expect) and len({json.dumps(g) for g in got}) == len(expect)
    if sort:
        field, direction = sort.split("=")[1].removesuffix(".exact:desc").removesuffix(".exact:asc"), sort[-4:]
        keys = [g.get(field) for g in got]
        assert keys == sorted(keys, reverse=direction == "desc")


def test_skip_pages_and_its_link(api):
    r = api.get("/device/classification.json", "search=device_class:2&limit=10&skip=10")
    link = r.headers["Link"]
    assert dict(parse_qsl(urlsplit(link[1 : link.index(">")]).query))["skip"] == "20"
    first = api.get("/device/classification.json", "search=device_class:2&limit=20").json()["results"]
    assert r.json()["results"] == first[10:20]


def test_unlimited_skip_when_configured(mirror_dir):
    a = Api(Settings(data_dir=mirror_dir, api_max_skip=0))
    try:
        r = a.get("/device/classification.json", "skip=6000&limit=5")
        assert r.status == 200 and len(r.json()["results"]) == 5
        assert r.json()["meta"]["results"]["skip"] == 6000
    finally:
        a.close()


def test_sort_orders_with_missing_values_last(api, records):
    asc = api.get("/device/510k.json", "sort=decision_date:asc&limit=100").json()["results"]
    desc = api.get("/device/510k.json", "sort=decision_date:desc&limit=100").json()["results"]
    dates = [r.get("decision_date") for r in asc]
    assert dates == sorted(dates) and [r.get("decision_date") for r in desc] == sorted(dates, reverse=True)
    assert len(asc) == len(records["510k"])


def test_records_are_the_originals_byte_for_byte_in_key_order(api, records):
    got = api.get("/device/udi.json", "limit=100").json()["results"]
    assert [json.dumps(r) for r in got] == [json.dumps(r) for r in records["udi"]]


def test_download_json_describes_the_mirror(api, records):
    body = api.get("/download.json").json()
    device = body["results"]["device"]
    assert set(device) == set(records)
    for ep, recs in records.items():
        assert device[ep]["total_records"] == len(recs)
        assert all(p["file"].startswith("https://download.open.fda.gov/") for p in device[ep]["partitions"])


def test_injection_attempts_are_values_not_sql(api, mirror_dir):
    for q in [
        "search=brand_name:\"x'+OR+'1'='1\"",
        'search=device_name:"a\\"+OR+1=1--"',
        "search=product_code:'x'",
        "count=product_code'",
        "sort=product_code'x:asc",
        "search=_exists_:record",
        "search=record:x",
        'search=device_name.exact:")+OR+TRUE+--"',
    ]:
        r = api.get("/device/classification.json", q)
        assert r.status in (400, 404), (q, r.json())
    r = api.get("/device/classification.json", "limit=0")
    assert r.json()["meta"]["results"]["total"] == 6530


def test_malformed_input_always_ends_in_an_api_error_body(api):
    rnd = random.Random(7)
    alphabet = "ab9_.:()\"[]{}-+><=*@%/\\', " + "AND OR NOT TO "
    names = ["date_received", "device.brand_name", "event_type.exact", "_exists_", "mdr_text.text", "x"]
    for _ in range(400):
        parts = [rnd.choice(names) + ":" if rnd.random() < 0.5 else "" for _ in range(3)]
        s = "".join(p + "".join(rnd.choice(alphabet) for _ in range(rnd.randint(0, 8))) for p in parts)
        escaped = s.replace("%", "%25").replace("&", "%26").replace("+", "%2B")
        query = rnd.choice(["search=", "count=", "sort="]) + escaped
        r = api.get("/device/event.json", query)
        body = r.json()
        assert r.status in (200, 400, 404), (query, body)
        assert ("results" in body) if r.status == 200 else body["error"]["code"] in ("BAD_REQUEST", "NOT_FOUND")


def test_a_running_api_sees_a_newly_published_dataset(tmp_path):
    d = tmp_path / "m"
    run = lambda *a: subprocess.run(
        [
            sys.executable,
            "-m",
            "mirror",
            "sync",
            "--sample",
            "--data-dir",
            str(d),  # noqa: E731
            "--quiet",
            *a,
        ],
        check=True,
        capture_output=True,
    )
    run("--only", "pma")
    a = Api(Settings(data_dir=d))
    try:
        assert a.get("/device/recall.json", "").status == 404
        run("--only", "recall")
        assert a.get("/device/recall.json", "").status == 200
        assert a.get("/device/pma.json", "").status == 200
        shutil.rmtree(d / "downloads", ignore_errors=True)
    finally:
        a.close()


def test_recall_class_extension_field_joins_enforcement(tmp_path, records):
    """SYNTHETIC enforcement reports (copies of the real ones) given the recall numbers of the real sample recalls."""
    import zipfile

    import orjson

    from mirror.sync import SAMPLE_DIR

    site = tmp_path / "site"
    man = orjson.loads((SAMPLE_DIR / "download.json").read_bytes())
    recall_entry = man["results"]["device"]["recall"]
    for p in recall_entry["partitions"]:
        rel = p["file"].split("download.open.fda.gov/", 1)[1]
        (site / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(SAMPLE_DIR / rel, site / rel)
    recalls = records["recall"]
    classes = ["Class II", "Class I", "Class II"]
    synth = []
    for r, cls in zip(recalls, classes):
        e = dict(records["enforcement"][0])
        e.update(recall_number=r["product_res_number"], classification=cls)
        synth.append(e)
    name = "device-enforcement-0001-of-0001.json"
    path = site / "device" / "enforcement" / (name + ".zip")
    path.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr(
            name,
            json.dumps({"meta": {"last_updated": "2017-03-06", "_synthetic": "test"}, "results": synth}, indent=2)
            + "\n",
        )
    man["results"]["device"] = {
        "recall": recall_entry,
        "enforcement": {
            "export_date": "2017-03-06",
            "total_records": len(synth),
            "partitions": [
                {
                    "display_name": "all",
                    "file": f"https://download.open.fda.gov/device/enforcement/{name}.zip",
                    "size_mb": "0.01",
                    "records": len(synth),
                }
            ],
        },
    }
    (site / "download.json").write_bytes(orjson.dumps(man))
    d = tmp_path / "m"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "mirror",
            "sync",
            "--from",
            str(site),
            "--only",
            "recall,enforcement",
            "--data-dir",
            str(d),
            "--quiet",
        ],
        check=True,
        capture_output=True,
    )
    a = Api(Settings(data_dir=d))
    try:
        body = a.get("/device/recall.json", 'search=recall_class:"Class II"&limit=10').json()
        assert {r["product_res_number"] for r in body["results"]} == {
            recalls[0]["product_res_number"],
            recalls[2]["product_res_number"],
        }
        assert a.get("/device/recall.json", "count=recall_class").json()["results"] == [
            {"term": "Class II", "count": 2},
            {"term": "Class I", "count": 1},
        ]
        assert a.get("/device/recall.json", "search=_missing_:recall_class").status == 404
    finally:
        a.close()
