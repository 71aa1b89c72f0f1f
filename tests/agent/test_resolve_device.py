"""resolve_device over the real sample mirror: lay words, brands, typos, plurals, codes, K/P/DEN numbers, bad input."""

from __future__ import annotations

import json
import math
import os
import re

import pytest

from agent.tools.base import ToolError
from agent.tools.context import ResolvedDevice, ToolContext
from agent.tools.registry import TOOLS, run_tool
from agent.tools.resolve_device import resolve_device  # noqa: F401  (registers the tool)
from mirror import Settings
from mirror.lookup import devices
from mirror.lookup.devices import MAX_QUERY_CHARS, SYNONYMS, parse_query, vocabulary_info
from mirror.sync import SAMPLE_DIR, SyncOptions, sync

ROW_KEYS = [
    "product_code",
    "device_name",
    "device_class",
    "regulation_number",
    "panel",
    "gudid_devices",
    "score",
    "match",
]

# (query, product code expected first, match type of that row, a note that must be present) over the real sample.
TOP = [
    ("pacemaker", "DXY", "synonym:device_name", "lay synonym: also searched 'pacemaker'"),
    ("Pacemakers", "DXY", "synonym:device_name", None),  # plural, capitals
    ("pacemeker", "DXY", "synonym:device_name", "read 'pacemeker' as 'pacemaker'"),  # typo
    ("insulin pump", "LZG", "device_name", None),
    ("pump insulin", "LZG", "device_name", None),  # word order
    ("insullin pump", "LZG", "synonym:device_name", "read 'insullin' as 'insulin'"),
    ("insulin pumps", "LZG", "device_name", None),
    ("surgical mask", "FXX", "device_name", "lay synonym: also searched 'surgical mask'"),
    ("Surgical Masks", "FXX", "device_name", None),
    ("mask surgical", "FXX", "device_name", None),
    ("surgicl mask", "FXX", "device_name", "read 'surgicl' as 'surgical'"),
    ("implantable pacemaker pulse generator", "DXY", "device_name", None),
    ("pacemaker électrode permanent", "DTB", "device_name", None),  # accents folded
    ("V1-MPC", "DSA", "brand_name", None),  # GUDID brand name
    ("Transcutaneous Pacemaker Analyzer", "DRL", "brand_name", None),  # GUDID brand name
    ("EXPMT 2000", "DTC", "device_description", None),  # GUDID description
    ("delta 3300", "DRL", "device_description", None),
    ("electrical catheter connection cable", "DSA", "gmdn_term", None),  # GMDN preferred term
    ("external pacemaker analyser", "DTC", "gmdn_term", None),
    ("DXY", "DXY", "product_code", None),
    ("dxy", "DXY", "product_code", None),
    ("cap", "CAP", "product_code", None),  # a code that is also a word
    ("K192028", "DCK", "k_number", None),  # device/510k
    ("k192028", "DCK", "k_number", None),
    ("K961582", "DTC", "k_number", None),  # GUDID premarket submission
    ("P150012/S099", "LWP", "pma_number", None),
    ("P970004", "EZW", "pma_number", None),
    ("P150012S001", "LWP", "pma_number", "P150012 has no supplement S001 in the mirror"),
]

# (query, note that must be present): nothing found, said clearly.
EMPTY = [
    ("ZZZ", "ZZZ: not a product code in the mirror"),
    ("DEN123456", "De Novo number DEN123456 is not in the mirror's device/510k"),
    ("K000001", "510(k) number K000001 is not in the mirror's device/510k"),
    ("P000001/S001", "PMA number P000001 is not in the mirror's device/pma"),
    ("qqqqxz", "no device name, term or brand holds 'qqqqxz'"),
    ("x" * 5000, f"the query was cut to its first {MAX_QUERY_CHARS} characters (it had 5000)"),
]

BAD = ["", "   ", "\t\n", "心脏起搏器", "';--", "!!!"]


def resolve(ctx: ToolContext, query: str, limit: int = 10):
    return run_tool(ctx, "resolve_device", {"query": query, "limit": limit})


def classification_row(ctx: ToolContext, code: str) -> tuple | None:
    with ctx.api.cursor() as cur:
        return cur.execute(
            "SELECT device_name, device_class, coalesce(nullif(regulation_number, ''), '') "
            "FROM device_classification WHERE product_code = ?",
            [code],
        ).fetchone()


def udi_devices(ctx: ToolContext, code: str) -> int:
    with ctx.api.cursor() as cur:
        return cur.execute("SELECT count(*) FROM device_udi_product_code WHERE code = ?", [code]).fetchone()[0]


def check_result(ctx: ToolContext, result) -> None:
    """What every result must hold: row shape, IDs, classification details and GUDID counts equal to direct SQL,
    ranking order, totals, provenance with as-of dates."""
    assert result.tool == "resolve_device" and result.id_fields == ["product_code"]
    assert result.total >= len(result.rows) and result.truncated == (result.total > len(result.rows))
    for row in result.rows:
        assert list(row) == ROW_KEYS
        assert re.fullmatch(r"[A-Z]{3}", row["product_code"])
        cls = classification_row(ctx, row["product_code"])
        assert cls is not None, row
        assert (row["device_name"], row["device_class"], row["regulation_number"]) == cls
        assert row["gudid_devices"] == udi_devices(ctx, row["product_code"])
        assert 0 < row["score"] <= 1
    words = [r["score"] for r in result.rows if r["match"] not in ("product_code", "k_number", "pma_number")]
    assert words == sorted(words, reverse=True)
    assert result.provenance
    for p in result.provenance:
        name = p.dataset.removeprefix("device/")
        assert p.as_of and p.as_of == ctx.api.as_of(name), p
        assert p.query.startswith("resolve_device: ")


@pytest.mark.parametrize("query,code,match,note", TOP, ids=[q for q, *_ in TOP])
def test_best_match(ctx, query, code, match, note):
    result = resolve(ctx, query)
    check_result(ctx, result)
    assert result.rows[0]["product_code"] == code, result.render()
    assert result.rows[0]["match"] == match
    if note:
        assert any(n.startswith(note) for n in result.notes), result.notes
    assert code in result.render()  # the ID survives the text a model sees


@pytest.mark.parametrize("query,note", EMPTY, ids=["ZZZ", "DEN", "K", "P", "unknown", "5000 chars"])
def test_nothing_found_says_why(ctx, query, note):
    result = resolve(ctx, query)
    check_result(ctx, result)
    assert result.total == 0 and result.rows == []
    assert any(n.startswith(note) for n in result.notes), result.notes


@pytest.mark.parametrize("query", BAD, ids=["empty", "spaces", "whitespace", "chinese", "punctuation", "bangs"])
def test_no_searchable_words_is_a_tool_error(ctx, query):
    with pytest.raises(ToolError, match="resolve_device: "):
        resolve(ctx, query)


def test_sql_metacharacters_are_plain_words(ctx):
    for query in ("'; DROP TABLE device_classification; --", "pacemaker'); DELETE FROM x; --", "\\' OR 1=1 --"):
        check_result(ctx, resolve(ctx, query))
    with ctx.api.cursor() as cur:
        assert cur.execute("SELECT count(*) FROM device_classification").fetchone()[0] == 6530
    result = resolve(ctx, "pacemaker'); DROP TABLE x; --")
    assert "DXY" in [r["product_code"] for r in result.rows]


def codes_with_word(ctx: ToolContext, word: str) -> set[str]:
    """Direct computation: product codes having `word` or `word + 's'` as a whole word in any searched text."""
    rx = rf"(^|[^a-z0-9]){word}s?([^a-z0-9]|$)"
    sql = """
    SELECT product_code FROM device_classification WHERE regexp_matches(lower(device_name), $rx)
        OR regexp_matches(lower(definition), $rx)
    UNION SELECT p.code FROM device_udi_product_code p LEFT JOIN device_udi u USING (public_device_record_key)
        LEFT JOIN device_udi_gmdn_term g USING (public_device_record_key)
        WHERE regexp_matches(lower(p.name), $rx) OR regexp_matches(lower(u.brand_name), $rx)
        OR regexp_matches(lower(left(u.device_description, 60)), $rx) OR regexp_matches(lower(g.name), $rx)
    UNION SELECT p.productCode FROM gudid_product_codes p LEFT JOIN gudid_device d USING (PrimaryDI)
        LEFT JOIN gudid_gmdn_terms g USING (PrimaryDI)
        WHERE regexp_matches(lower(p.productCodeName), $rx) OR regexp_matches(lower(d.brandName), $rx)
        OR regexp_matches(lower(left(d.deviceDescription, 60)), $rx) OR regexp_matches(lower(g.gmdnPTName), $rx)"""
    with ctx.api.cursor() as cur:
        return {r[0] for r in cur.execute(sql, {"rx": rx}).fetchall()}


@pytest.mark.parametrize(
    "query,word",
    [
        ("catheters", "catheter"),
        ("catheter", "catheter"),
        ("masks", "mask"),
        ("analyzer", "analyzer"),
        ("defibrillators", "defibrillator"),
    ],
)
def test_total_is_every_code_holding_the_word(ctx, query, word):
    expected = codes_with_word(ctx, word)
    result = resolve(ctx, query, limit=50)
    check_result(ctx, result)
    assert result.total == len(expected) > 0
    assert {r["product_code"] for r in result.rows} <= expected
    if word == "catheter":
        assert "DSA" in expected  # only through the GMDN term of two real UDI records


def test_hip_implant_reads_as_hip_prosthesis(ctx):
    result = resolve(ctx, "hip implant")
    check_result(ctx, result)
    assert result.total >= 20 and all(r["match"] == "synonym:device_name" for r in result.rows)
    for r in result.rows:
        assert {"hip", "prosthesis"} <= set(re.findall(r"[a-z]+", r["device_name"].lower())), r
    assert "lay synonym: also searched 'hip implant' as 'hip prosthesis'" in result.notes


def test_synonym_expansions_name_real_product_codes(ctx):
    """Every synonym expansion reaches at least one product code whose name holds all its words."""
    for key, expansions in SYNONYMS.items():
        for exp in expansions:
            result = resolve(ctx, exp, limit=1)
            assert result.total > 0 and "no single" not in " ".join(result.notes), (key, exp)


def test_limit_and_truncation(ctx):
    result = resolve(ctx, "catheter", limit=3)
    assert len(result.rows) == 3 and result.truncated and result.total > 3
    assert "showing 3" in result.render()


def test_several_product_codes(ctx):
    result = resolve(ctx, "DXY LWP ZZZ")
    check_result(ctx, result)
    assert [r["product_code"] for r in result.rows] == ["DXY", "LWP"] and result.total == 2
    assert any(n.startswith("ZZZ: not a product code") for n in result.notes)


def test_confident_matches_replace_the_device_context(ctx):
    ctx.resolved.devices = [ResolvedDevice(product_code="FXX")]
    resolve(ctx, "hip")  # dozens of equally good codes: not an answer
    assert ctx.resolved.product_codes() == ["FXX"]
    resolve(ctx, "'; DROP TABLE x; --")  # only partial matches
    assert ctx.resolved.product_codes() == ["FXX"]
    result = resolve(ctx, "K192028")
    assert ctx.resolved.product_codes() == ["DCK"] and "device context set to DCK" in result.notes
    resolve(ctx, "surgical mask")
    assert ctx.resolved.product_codes()[0] == "FXX"
    assert ctx.resolved.devices[0].device_name == "Mask, Surgical" and ctx.resolved.devices[0].score > 0.75


def test_parse_query():
    assert parse_query(" k123456 ")["kind"] == "k_number"
    p = parse_query("P123456 s012")
    assert (p["kind"], p["number"], p["supplement"]) == ("pma_number", "P123456", "S012")
    assert parse_query("den123456")["number"] == "DEN123456"
    assert parse_query("K12345")["kind"] == "words"  # six digits or it is words
    assert parse_query("dxy, lwp")["kind"] == "words"  # several codes only in capitals
    assert parse_query("DXY, LWP")["codes"] == ["DXY", "LWP"]
    assert parse_query("hip implant")["words"] == ["hip", "implant"]
    assert parse_query("the pump of a pump")["words"] == ["pump"]


def test_tool_is_registered_with_its_description():
    t = TOOLS["resolve_device"]
    assert t.kind == "resolver" and t.description.startswith("Find the FDA product codes")
    assert [p["name"] for p in t.params()] == ["query", "limit"]
    with pytest.raises(ToolError, match="unknown argument"):
        run_tool(None, "resolve_device", {"query": "x", "colour": "red"})


def test_vocabulary_is_built_once_per_mirror_version(tmp_path):
    """Also: a mirror without GUDID data still resolves, and says what it could not search."""
    sync(Settings(data_dir=tmp_path), SyncOptions(source_dir=SAMPLE_DIR, only=["classification"], quiet=True))
    c = ToolContext.open(Settings(data_dir=tmp_path))
    try:
        first = vocabulary_info(c.api)
        assert first["datasets"] == ["classification"] and first["codes"] == 6530
        assert vocabulary_info(c.api) == first  # cached: not rebuilt
        path = tmp_path / "db" / "device_classification.duckdb"
        os.utime(path, ns=(path.stat().st_atime_ns, path.stat().st_mtime_ns + 10**9))  # as a sync publishing
        again = vocabulary_info(c.api)
        assert again["version"] != first["version"] and again["codes"] == 6530  # rebuilt for the new version
        result = resolve(c, "insulin pump")
        assert result.rows[0]["product_code"] == "LZG" and result.rows[0]["gudid_devices"] == 0
        assert any("no GUDID data (udi or gudid)" in n for n in result.notes)
        assert [p.dataset for p in result.provenance] == ["device/classification"]
        assert any("neither 510(k) data nor GUDID" in n for n in resolve(c, "K192028").notes)
    finally:
        c.close()


def test_without_classification_names_come_from_gudid(tmp_path):
    sync(Settings(data_dir=tmp_path), SyncOptions(source_dir=SAMPLE_DIR, only=["udi"], quiet=True))
    c = ToolContext.open(Settings(data_dir=tmp_path))
    try:
        result = resolve(c, "defibrillator tester")
        assert result.rows[0]["product_code"] == "DRL" and result.rows[0]["device_name"] == "Tester, Defibrillator"
        assert result.rows[0]["gudid_devices"] == 1
        assert any(n.startswith("the classification dataset is not in the mirror") for n in result.notes)
        assert [p.dataset for p in result.provenance] == ["device/udi"]
    finally:
        c.close()


def test_mirror_without_device_names(tmp_path):
    """Only 510(k) data: words cannot be resolved (a ToolError saying what to sync); K numbers still can."""
    sync(Settings(data_dir=tmp_path), SyncOptions(source_dir=SAMPLE_DIR, only=["510k"], quiet=True))
    c = ToolContext.open(Settings(data_dir=tmp_path))
    try:
        with pytest.raises(ToolError, match="mirror sync --only classification,udi"):
            resolve(c, "pacemaker")
        result = resolve(c, "K192028")
        assert [r["product_code"] for r in result.rows] == ["DCK"] and result.rows[0]["device_name"] == ""
        assert [p.dataset for p in result.provenance] == ["device/510k"]
        assert any(n.startswith("DCK: no device name in the mirror") for n in result.notes)
    finally:
        c.close()


def every_term_scored(cur, codes, alts, limit, exclude):
    """The ranking as defined: every term holding any query word scored (`_SCORE_SQL`), ranked in Python."""
    q = devices._query_rows(codes, alts)
    post = f"SELECT stem, term_id, cid, src, nw FROM {devices._V}word WHERE stem IN (SELECT s FROM q)"
    found = [
        (codes["by_cid"][r[0]][0], *r[1:])
        for r in cur.execute(devices._SCORE_SQL.replace("<postings>", post), {"q": json.dumps(q)}).fetchall()
    ]
    found = [r for r in found if r[0] not in exclude]
    complete = [r for r in found if r[1]]
    ranked = sorted(
        (
            -round(min(1.0, s + 0.04 * min(1.0, math.log10(1 + codes["by_code"][c][5]) / 4)), 3),
            -codes["by_code"][c][5],
            c,
            ("synonym:" if alts[a][1] < 1 else "") + devices._SRC[src],
        )
        for c, _, s, src, a in complete or found
    )
    return len(ranked), not complete and bool(found), [(c, -f, m) for f, _, c, m in ranked[:limit]]


@pytest.mark.parametrize("limit", [1, 3, 10, 50])
def test_scoring_only_complete_terms_ranks_as_scoring_every_term(ctx, limit):
    """`_score` reads only terms holding every word of an alternative (and all terms only when none does): its
    total, partial flag and rows equal scoring every term holding any query word, with and without exclusions."""
    queries = [q for q, _, m, _ in TOP if m not in ("product_code", "k_number", "pma_number")] + [
        "catheter",
        "hip implant",
        "blood pressure monitor",
        "glucose meter",
        "pacemaker qqqqxz",
        "catheter pump valve",
        "implantable pulse",
        "surgical mask pacemaker",
        "electrode",
        "lead",
        "analyzer defibrillator tester",
    ]
    partial = 0
    with ctx.api.cursor() as cur:
        info = devices._ensure(ctx.api, cur)
        codes = devices._codes(cur, info["version"])
        for query in queries:
            readings, _, _ = devices._readings(cur, devices.words(query))
            alts, _ = devices._alternatives(readings, info["synonyms"])
            want = every_term_scored(cur, codes, alts, limit, [])
            firsts = [c for c, *_ in want[2][:2]]
            for exclude in ([], firsts[:1], firsts):
                want = every_term_scored(cur, codes, alts, limit, exclude)
                total, part, rows = devices._score(cur, codes, alts, limit, exclude)
                assert (total, part, [(r["product_code"], r["score"], r["match"]) for r in rows]) == want, query
                partial += part
    assert partial > 0
