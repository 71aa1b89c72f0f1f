"""Which table each typical request reads: a change that turns an index off fails here, not only in bench/.

The mirror is the sample, copied, with the event word index rebuilt so that most words are rare (the sample is
too small for the 1% rule to leave any). `Api.reads` is the choice `Api.get` makes (the same functions); each
answer is also compared with the answer of a copy without the row and word indexes.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import duckdb
import pytest

from mirror.api import Api
from mirror.api.query import parse
from mirror.api.sql import Translator
from mirror.schema.datasets import DATASETS
from mirror.schema.indexes import INDEXES
from mirror.settings import Settings
from mirror.store.files import Store
from mirror.sync.loadsql import words_sql

PC = "device.device_report_product_code"
ROWS = {name: f"device_{name}_product_code_list_rows" for name in ("event", "udi", "registrationlisting")}

CASES = [
    # product-code lookups: the row index of the listed column
    ("event", f"search={PC}:OZP&limit=10", ROWS["event"]),
    (
        "event",
        f"search={PC}.exact:OZP+AND+date_received:[20000101+TO+20231231]&limit=5&sort=date_received:desc",
        ROWS["event"],
    ),
    ("event", f"search={PC}:ozp+AND+event_type:Malfunction&limit=5", ROWS["event"]),
    ("event", f"search=date_received:[20000101+TO+20231231]+AND+{PC}:JAA&limit=5", ROWS["event"]),
    ("event", f"search={PC}:OZP&count=event_type.exact", ROWS["event"]),
    (
        "udi",
        "search=product_codes.code:DSA+AND+publish_date:[20150101+TO+20231231]&limit=5&sort=publish_date:desc",
        ROWS["udi"],
    ),
    ("udi", "search=product_codes.code:MAX&limit=100", ROWS["udi"]),
    (
        "registrationlisting",
        "search=products.product_code:GCJ&limit=5&sort=products.created_date:desc",
        ROWS["registrationlisting"],
    ),
    # counts from the summaries
    ("event", f"count={PC}.exact", "device_event_product_code_list_counts"),
    ("event", f"search={PC}:OZP&count=date_received", "device_event_product_code_list_days"),
    # rare words: the word index
    ("event", "search=mdr_text.text:investigation&limit=5", "device_event_text_terms"),
    ("event", 'search=mdr_text.text:"site+investigation"&limit=5', "device_event_text_terms"),
    (
        "event",
        "search=mdr_text.text:investigation+AND+date_received:[20000101+TO+20231231]&limit=5&sort=date_received:desc",
        "device_event_text_terms",
    ),
    # the main table: nothing an index holds, or something the index does not cover
    ("event", f"search={PC}:OZP+AND+device.brand_name:pump&limit=5", "device_event"),
    ("event", f"search={PC}:OZP+OR+event_type:Death&limit=5", "device_event"),
    ("event", f"search=NOT+{PC}:OZP&limit=5", "device_event"),
    ("event", f"search={PC}:OZP&limit=5&sort=date_of_event:desc", "device_event"),
    ("event", "search=mdr_text.text:investigation+AND+event_type:Malfunction&limit=5", "device_event"),
    ("event", "search=mdr_text.text:investigation*&limit=5", "device_event"),
    ("event", "search=date_received:[20000101+TO+20231231]&limit=5", "device_event"),
    ("event", "search=pump&limit=5", "device_event"),
    ("udi", "search=brand_name:pacemaker&limit=5", "device_udi"),
    ("classification", "search=product_code:DXY&limit=5", "device_classification"),
]


def _rebuild_words(data: Path) -> None:
    """The event word index rebuilt with most words rare (in more than half the records: common)."""
    con = duckdb.connect(str(Store(data).current("event")))
    try:
        rows = con.execute('SELECT count(*) FROM "device_event_text"').fetchone()[0]
        for sql in words_sql(DATASETS["event"], rows, common_share=0.5, batch=7):
            con.execute(sql)
    finally:
        con.close()


def _drop_indexes(data: Path) -> None:
    for name, ix in INDEXES.items():
        if not ix.by_rowid:
            continue
        con = duckdb.connect(str(Store(data).current(name)))
        try:
            for i in ix.by_rowid:
                con.execute(f'DROP TABLE IF EXISTS "{i.table}"')
        finally:
            con.close()


@pytest.fixture(scope="module")
def apis(sample_dir: Path, tmp_path_factory):
    fast_dir = tmp_path_factory.mktemp("index-choice") / "data"
    shutil.copytree(sample_dir, fast_dir)
    _rebuild_words(fast_dir)
    slow_dir = tmp_path_factory.mktemp("index-choice-plain") / "data"
    shutil.copytree(fast_dir, slow_dir)
    _drop_indexes(slow_dir)
    fast, slow = Api(Settings(data_dir=fast_dir)), Api(Settings(data_dir=slow_dir))
    yield fast, slow
    fast.close()
    slow.close()


@pytest.mark.parametrize(("endpoint", "query", "table"), CASES, ids=[f"{e}:{q}" for e, q, _ in CASES])
def test_a_request_reads_the_expected_table(apis, endpoint, query, table):
    fast, slow = apis
    assert fast.reads(f"/device/{endpoint}.json", query) == table
    answer = fast.get(f"/device/{endpoint}.json", query)
    assert answer.status == 200, answer.body[:300]
    assert answer.body == slow.get(f"/device/{endpoint}.json", query).body  # byte-identical without the indexes
    if table != f"device_{endpoint}" and not table.endswith(("_counts", "_days")):
        assert slow.reads(f"/device/{endpoint}.json", query) == f"device_{endpoint}"  # no index: the main table


def test_every_row_and_word_index_is_chosen_by_some_case():
    chosen = {t for _, _, t in CASES}
    described = {
        i.table for ix in INDEXES.values() if ix.dataset in ("event", "udi", "registrationlisting") for i in ix.by_rowid
    }
    assert described <= chosen


def test_the_descriptions_match_the_dataset_specs():
    """schema/indexes.py and the Dataset properties the load SQL still reads (loadsql.py) name the same tables."""
    for name, ds in DATASETS.items():
        ix = INDEXES[name]
        assert {i.table: set(i.columns) for i in ix.by_rowid} == ds.index_tables
        assert {r.table: r.keys_on for r in ix.rows} == ds.rows_tables
        assert {s.table: (s.keys_on, s.day) for s in ix.summaries} == ds.summaries
        assert ((ix.words.table, ix.words.common) if ix.words else None) == ds.words_tables


def test_the_translator_describes_each_conjunct(apis):
    fast, _ = apis
    ep = fast.endpoints["event"]
    tr = Translator(
        "event",
        fast.catalog,
        ep.table,
        ep.columns,
        ep.child_columns,
        ep.children,
        clean=fast._clean,
        words=ep.words[:2],
        rare=lambda ws: fast._rare(ep, ws),
    )
    member = tr.conjunct(parse(f"{PC}:ozp"))
    assert (member.op, member.field, member.column, member.values) == ("member", PC, "product_code_list", ("OZP",))
    assert member.reads == {"product_code_list"} and member.param in member.sql
    word = tr.conjunct(parse("mdr_text.text:investigation"))
    assert (word.op, word.column, word.values, word.reads) == ("word", ep.words[1], ("investigation",), {"rowid"})
    dates = tr.conjunct(parse("date_received:[20200101 TO 20201231]"))
    assert (dates.op, dates.field, dates.values, dates.reads) == (
        "range",
        "date_received",
        ("20200101", "20201231"),
        {"date_received"},
    )
    nested = tr.conjunct(parse(f"NOT {PC}:OZP"))
    assert (nested.op, nested.column, nested.reads) == ("not", None, {"product_code_list"})
    anywhere = tr.conjunct(parse("pump"))
    assert (anywhere.op, anywhere.field, anywhere.reads) == ("any", None, {"record"})
