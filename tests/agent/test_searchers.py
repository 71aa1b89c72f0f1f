"""The searchers and count_by on the sample mirror: totals equal a direct SQL count, IDs, provenance, bad input."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from agent.tools import TOOLS, ToolError, run_tool
from mirror.store.files import Store

CASES = [  # (tool, arguments, SQL giving the expected total over the sample mirror)
    (
        "search_events",
        {"product_codes": ["OZP", "FRN"]},
        "SELECT count(DISTINCT mdr_report_key) FROM device_event_device "
        "WHERE device_report_product_code IN ('OZP','FRN')",
    ),
    ("search_events", {"product_codes": ["ZZZ"]}, "SELECT 0"),
    (
        "search_events",
        {"date_from": "2023-01-01", "date_to": "2023-12-31"},
        "SELECT count(*) FROM device_event WHERE date_received BETWEEN '2023-01-01' AND '2023-12-31'",
    ),
    (
        "search_events",
        {"filters": {"event_type": "Malfunction"}, "product_codes": ["JAA"]},
        "SELECT count(*) FROM device_event WHERE event_type = 'Malfunction' AND mdr_report_key IN "
        "(SELECT mdr_report_key FROM device_event_device WHERE device_report_product_code = 'JAA')",
    ),
    (
        "search_events",
        {"text": "power supply"},
        "SELECT count(DISTINCT mdr_report_key) FROM device_event_text WHERE regexp_matches(lower(text), '\\bpower\\b') "
        "AND regexp_matches(lower(text), '\\bsupply\\b')",
    ),
    (
        "search_events",
        {"manufacturer": "Medtronic"},
        "SELECT count(*) FROM device_event WHERE regexp_matches(lower(manufacturer_name), '\\bmedtronic\\b') OR "
        "mdr_report_key IN (SELECT mdr_report_key FROM device_event_device "
        "WHERE regexp_matches(lower(manufacturer_d_name), '\\bmedtronic\\b'))",
    ),
    ("search_recalls", {"product_codes": ["FOZ"]}, "SELECT count(*) FROM device_recall WHERE product_code = 'FOZ'"),
    ("search_recalls", {}, "SELECT count(*) FROM device_recall"),
    (
        "search_510k",
        {"product_codes": ["GEI", "DCK"], "date_from": "2020-01-01"},
        "SELECT count(*) FROM device_510k WHERE product_code IN ('GEI','DCK') AND decision_date >= '2020-01-01'",
    ),
    ("search_510k", {"country": "US"}, "SELECT count(*) FROM device_510k WHERE country_code = 'US'"),
    (
        "search_pma",
        {"date_from": "2020-01-01", "date_to": "2020-12-31"},
        "SELECT count(*) FROM device_pma WHERE decision_date BETWEEN '2020-01-01' AND '2020-12-31'",
    ),
    (
        "search_classifications",
        {"filters": {"device_class": "3"}},
        "SELECT count(*) FROM device_classification WHERE device_class = '3'",
    ),
    (
        "search_classifications",
        {"text": "insulin pump"},
        "SELECT count(*) FROM device_classification WHERE (regexp_matches(lower(device_name), '\\binsulin\\b') AND "
        "regexp_matches(lower(device_name), '\\bpump\\b')) OR (regexp_matches(lower(definition), '\\binsulin\\b') AND "
        "regexp_matches(lower(definition), '\\bpump\\b'))",
    ),
    (
        "search_udi",
        {"product_codes": ["DSA"]},
        "SELECT count(DISTINCT public_device_record_key) FROM device_udi_product_code WHERE code = 'DSA'",
    ),
    (
        "search_registrations",
        {"country": "US"},
        "SELECT count(*) FROM device_registrationlisting WHERE iso_country_code = 'US'",
    ),
    (
        "search_registrations",
        {"product_codes": ["GCJ"]},
        "SELECT count(*) FROM device_registrationlisting "
        "WHERE list_contains(json_extract_string(record, '$.products[*].product_code'), 'GCJ')",
    ),
]


@pytest.fixture(scope="module")
def sql(sample_dir):
    con = Store(sample_dir).connect()
    yield lambda q: con.execute(q).fetchone()[0]
    con.close()


@pytest.mark.parametrize("name,args,query", CASES, ids=[f"{n}:{json.dumps(a)}" for n, a, _ in CASES])
def test_totals_equal_a_direct_sql_count(ctx, sql, name, args, query):
    r = run_tool(ctx, name, args)
    assert r.total == sql(query)
    assert len(r.rows) == min(r.total, 25) and r.truncated == (r.total > len(r.rows))
    assert r.id_fields and all(row.get(r.id_fields[0]) for row in r.rows)
    p = r.provenance[0]
    assert p.as_of == ctx.api.as_of(p.dataset.split("/")[1]) and p.as_of
    # the provenance query replays to the same total with `mirror query`
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "mirror",
            "query",
            p.dataset,
            p.query.replace("limit=25", "limit=0").replace("limit=200", "limit=0"),
            "--data-dir",
            str(ctx.api.store.data_dir),
        ],
        capture_output=True,
        text=True,
    )
    replay = json.loads(out.stdout)
    assert (replay["meta"]["results"]["total"] if out.returncode == 0 else 0) == r.total


def test_the_cases_discriminate(sql):
    totals = [sql(q) for _, _, q in CASES]
    assert sum(1 for t in totals if t > 0) >= len(CASES) - 2


COUNTS = [
    (
        {"dataset": "events", "field": "year"},
        "SELECT count(*) FROM device_event WHERE year(date_received) = {k}",
        "year",
    ),
    (
        {"dataset": "events", "field": "product_code"},
        "SELECT count(DISTINCT mdr_report_key) FROM device_event_device WHERE device_report_product_code = '{k}'",
        "product_code",
    ),
    (
        {"dataset": "classification", "field": "review_panel"},
        "SELECT count(*) FROM device_classification WHERE lower(review_panel) = '{k}'",
        "review_panel",
    ),
    (
        {"dataset": "510k", "field": "month", "date_from": "2020-01-01"},
        "SELECT count(*) FROM device_510k WHERE strftime(decision_date, '%Y-%m') = '{k}' "
        "AND decision_date >= '2020-01-01'",
        "month",
    ),
    (
        {"dataset": "udi", "field": "product_code"},
        "SELECT count(*) FROM device_udi "
        "WHERE list_contains(json_extract_string(record, '$.product_codes[*].code'), '{k}')",
        "product_code",
    ),
]


@pytest.mark.parametrize("args,query,key", COUNTS, ids=[f"{a['dataset']}:{a['field']}" for a, _, _ in COUNTS])
def test_count_by_equals_a_direct_sql_count(ctx, sql, args, query, key):
    r = run_tool(ctx, "count_by", args)
    assert r.rows, r.render()
    for row in r.rows:
        assert row["count"] == sql(query.format(k=row[key])), row
    if key in ("year", "month"):
        assert [row[key] for row in r.rows] == sorted(row[key] for row in r.rows)
    else:
        assert [row["count"] for row in r.rows] == sorted((row["count"] for row in r.rows), reverse=True)


BAD = [
    ("search_events", {"product_codes": [""]}, "is not a product code"),
    ("search_events", {"product_codes": ["DXY'; DROP TABLE device_event; --"]}, "is not a product code"),
    ("search_events", {"date_from": "2020-13-45"}, "date_from"),
    ("search_events", {"date_from": "2021-01-01", "date_to": "2020-01-01"}, "is after date_to"),
    ("search_events", {"colour": "red"}, "unknown argument; valid arguments: product_codes"),
    ("search_events", {"filters": {"decision_code": "SESE"}}, "device/event has no filter 'decision_code'"),
    ("search_pma", {"country": "US"}, "device/pma cannot filter by country; it takes: product_codes"),
    ("search_classifications", {"manufacturer": "Acme"}, "cannot filter by manufacturer"),
    ("search_events", {"country": "Germany"}, "resolve_location"),
    ("count_by", {"dataset": "events", "field": "colour"}, "cannot be counted by 'colour'; choose one of"),
    ("count_by", {"dataset": "drugs", "field": "year"}, "unknown dataset 'drugs'"),
    ("no_such_tool", {}, "unknown tool 'no_such_tool'"),
]


@pytest.mark.parametrize("name,args,message", BAD, ids=[m for _, _, m in BAD])
def test_bad_arguments_are_clear_errors(ctx, name, args, message):
    with pytest.raises(ToolError, match=message.replace("(", r"\(").replace("'", "'")):
        run_tool(ctx, name, args)


@pytest.mark.parametrize(
    "value", ["'; DROP TABLE device_event; --", "x" * 5000, '"unbalanced ( [', "Ünïcödé 医療機器 &&& ||"]
)
def test_hostile_text_and_names_are_values(ctx, sql, value):
    for name in ("search_events", "search_510k", "search_recalls"):
        r = run_tool(ctx, name, {"text": value, "manufacturer": value})
        assert r.total == 0 and r.provenance
    assert sql("SELECT count(*) FROM device_event") == 7


def test_render_keeps_record_ids_within_budget(ctx):
    r = run_tool(ctx, "search_classifications", {"text": "catheter", "limit": 200})
    assert r.total > 100 and len(r.rows) == 200
    text = r.render(900)
    assert len(text) <= 900 and "as of 2019-07-04" in text
    shown = [line for line in text.splitlines() if line.startswith("- product_code=")]
    assert len(shown) >= 10  # rows over budget keep their IDs, dropping the other fields
    assert all(line.split(";")[0].split("=")[1] in {row["product_code"] for row in r.rows} for line in shown)


def test_search_recalls_reports_enforcement_and_class(ctx):
    r = run_tool(ctx, "search_recalls", {})
    assert {p.dataset for p in r.provenance} == {"device/recall", "device/enforcement"}
    assert any("enforcement reports match" in n for n in r.notes)
    assert all("recall_class" in row for row in r.rows)


def test_every_tool_is_registered_with_a_description():
    assert {
        "search_events",
        "search_recalls",
        "search_510k",
        "search_pma",
        "search_classifications",
        "search_udi",
        "search_registrations",
        "count_by",
    } <= set(TOOLS)
    assert all(t.description and t.params() for t in TOOLS.values())


def test_cli_lists_and_runs_tools(sample_dir):
    out = subprocess.run(
        [sys.executable, "-c", "from app.cli import main; main()", "tools", "--json"], capture_output=True, text=True
    )
    assert out.returncode == 0 and "search_events" in {t["name"] for t in json.loads(out.stdout)}
    run = lambda *a: subprocess.run(
        [
            sys.executable,
            "-c",
            "from app.cli import main; main()",
            "tool",
            *a,  # noqa: E731
            "--data-dir",
            str(sample_dir),
        ],
        capture_output=True,
        text=True,
    )
    out = run("search_510k", "--args", '{"product_codes":["GEI"]}', "--json")
    assert out.returncode == 0 and json.loads(out.stdout)["rows"][0]["k_number"] == "K202114"
    out = run("search_510k", "--args", '{"product_codes":["GEI"]}')
    assert out.returncode == 0 and "k_number=K202114" in out.stdout and "as of 2025-09-22" in out.stdout
    out = run("search_510k", "--args", '{"nope":1}')
    assert out.returncode == 2 and out.stderr.startswith("Error: search_510k: nope: unknown argument; valid arguments:")
    assert out.stderr.count("\n") == 1


def test_event_text_of_several_words_ranks_the_phrase_first(ctx, sql):
    """Over the sample's real narratives: a word pair that some records hold as a phrase and others only apart."""
    import re

    from mirror.api.sql import tokens

    con_rows = ctx.api.get("/device/event.json", "limit=1000").json()["results"]
    texts = {
        r["mdr_report_key"]: (" ".join(t.get("text", "") for t in r.get("mdr_text", [])), r["date_received"])
        for r in con_rows
    }
    words = {k: tokens(t) for k, (t, _) in texts.items()}
    pairs = sorted({(a, b) for ws in words.values() for a, b in zip(ws, ws[1:]) if re.fullmatch(r"[a-z]{4,}", a + b)})
    for a, b in pairs:
        both = [k for k, ws in words.items() if a in ws and b in ws]
        phrase = [k for k, ws in words.items() if any(x == a and y == b for x, y in zip(ws, ws[1:]))]
        if 0 < len(phrase) < len(both):
            break
    else:
        pytest.fail("no word pair in the sample narratives is both a phrase and apart")
    newest = lambda keys: sorted(keys, key=lambda k: (texts[k][1], -int(k)), reverse=True)  # noqa: E731
    r = run_tool(ctx, "search_events", {"text": f"{a} {b}"})
    assert r.total == len(both)
    assert [row["mdr_report_key"] for row in r.rows][: len(phrase)] == newest(phrase)
    assert {row["mdr_report_key"] for row in r.rows} == set(both)
    assert len(r.provenance) == 2 and f'"{a}+{b}"' in r.provenance[1].query and "phrase first" in " ".join(r.notes)
