"""The loader's one-structure staging (issue 15 item 6) stores what the path-by-path definition gives.

Every typed column and child table of a synced mirror is checked against the definition the loader used before:
`json_extract` of each path from the stored record, `->> '$'` for text, `try_strptime` for dates, `from_json` for
lists and child arrays. Real sample files, plus SYNTHETIC event records with odd values (numbers, objects and
arrays where text is expected, a text where an array is expected, nulls)."""

from __future__ import annotations

import json
from datetime import date

import pytest

from mirror import Store
from mirror.schema.datasets import DATASETS, Column, Dataset
from mirror.schema.openfda import DATE_FORMATS
from mirror.sync import SAMPLE_DIR, SyncOptions, sync
from mirror.sync.loadsql import flat_values

_FORMAT = dict(zip(("ymd", "iso", "mdy"), DATE_FORMATS))


def _typed(ds: Dataset, c: Column, json_value: str) -> str:
    """The definition: a column from a JSON fragment."""
    if c.kind == "list":
        return f"""from_json({json_value}, '["VARCHAR"]')"""
    text = f"({json_value} ->> '$')"
    return f"try_strptime({text}, '{_FORMAT[ds.date_format]}')::DATE" if c.kind == "date" else text


def _element_schema(columns: tuple[Column, ...]) -> str:
    root: dict = {}
    for c in columns:
        d = root
        parts = c.path.removeprefix("$.").split(".")
        for part in parts[:-1]:
            d = d.setdefault(part, {})
        d[parts[-1]] = ["VARCHAR"] if c.kind == "list" else "VARCHAR"
    return json.dumps([root])


def _differences(con, ds: Dataset) -> dict[str, int]:
    """Rows of each table that the definition does not give (both ways, as multisets)."""
    out = {}
    cols = [f'{_typed(ds, c, f"json_extract(record, {chr(39)}{c.path}{chr(39)})")} AS "{c.name}"' for c in ds.columns]
    for name, (ch, c) in ds.listed.items():
        values = flat_values(f"json_extract(record, '{ch.array}.{c.path.removeprefix('$.')}')")
        cols.append(f'coalesce({values}, []) AS "{name}"')
    names = ", ".join(['"_partition"'] + [f'"{c.name}"' for c in ds.columns] + [f'"{n}"' for n in ds.listed])
    want = f'SELECT "_partition", {", ".join(cols)} FROM "{ds.table}"'
    have = f'SELECT {names} FROM "{ds.table}"'
    out[ds.table] = _both_ways(con, want, have)
    for ch in ds.children:
        table = f"{ds.table}_{ch.suffix}"
        keys = [c for c in ds.columns if c.name in ch.parent_keys]
        parts = []
        for c in ch.columns:
            ref = "e." + ".".join(f'"{p}"' for p in c.path.removeprefix("$.").split("."))
            parts.append(
                (f"try_strptime({ref}, '{_FORMAT[ds.date_format]}')::DATE" if c.kind == "date" else ref)
                + f' AS "{c.name}"'
            )
        key_sql = ", ".join(
            f'{_typed(ds, c, f"json_extract(record, {chr(39)}{c.path}{chr(39)})")} AS "{c.name}"' for c in keys
        )
        arr = ch.array.removesuffix("[*]")
        want = (
            f'SELECT "_partition", {key_sql}, {", ".join(parts)} FROM (SELECT "_partition", record, '
            f"unnest(from_json(json_extract(record, '{arr}'), '{_element_schema(ch.columns)}')) AS e "
            f'FROM "{ds.table}")'
        )
        have_cols = ", ".join(['"_partition"'] + [f'"{c.name}"' for c in keys] + [f'"{c.name}"' for c in ch.columns])
        out[table] = _both_ways(con, want, f'SELECT {have_cols} FROM "{table}"')
    return out


def _both_ways(con, want: str, have: str) -> int:
    missing = con.execute(f"SELECT count(*) FROM ({want} EXCEPT ALL {have})").fetchone()[0]
    extra = con.execute(f"SELECT count(*) FROM ({have} EXCEPT ALL {want})").fetchone()[0]
    return missing + extra


@pytest.mark.parametrize(
    "only", [["event", "udi", "registrationlisting"], ["510k", "pma", "recall", "classification", "enforcement"]]
)
def test_c15_sample_columns_and_children_match_the_path_definition(settings, only):
    report = sync(settings, SyncOptions(source_dir=SAMPLE_DIR, only=only, quiet=True))
    assert report.ok, report.errors
    con = Store(settings.data_dir).connect()
    for name in only:
        ds = DATASETS[name]
        assert con.execute(f'SELECT count(*) FROM "{ds.table}"').fetchone()[0] > 0, name
        diffs = _differences(con, ds)
        assert diffs == dict.fromkeys(diffs, 0), name


def test_c15_odd_values_load_as_the_path_definition_gives(tmp_path, settings):
    """SYNTHETIC: copies of real event records with values of unexpected JSON types."""
    from tests.mirror.synth import write_event_site

    site = tmp_path / "site"
    write_event_site(
        site,
        ["2024q1"],
        4,
        extra={
            "event_type": 5,
            "manufacturer_name": {"a": [1, 2.5]},
            "report_source_code": 1.50,
            "adverse_event_flag": None,
            "product_problems": "Leak",
            "type_of_report": [1, "b", None, ["x"]],
            "date_of_event": 20240102,
            "device": [
                {"device_report_product_code": ["LZG", "FRN"], "brand_name": 7, "openfda": {"device_class": 2}},
                {"device_report_product_code": None},
                "not an object",
                {"device_report_product_code": "DXY", "openfda": "none"},
            ],
            "mdr_text": {"text": "an object, not an array"},
            "patient": [{"patient_problems": "Pain", "sequence_number_outcome": ["1", 2]}],
        },
    )
    report = sync(settings, SyncOptions(source_dir=site, only=["event"], quiet=True))
    assert report.ok, report.errors
    con = Store(settings.data_dir).connect()
    ds = DATASETS["event"]
    diffs = _differences(con, ds)
    assert diffs == dict.fromkeys(diffs, 0)
    row = con.execute(
        'SELECT event_type, manufacturer_name, date_of_event, product_code_list FROM "device_event" LIMIT 1'
    ).fetchone()
    assert row == ("5", '{"a":[1,2.5]}', date(2024, 1, 2), ["LZG", "FRN", "DXY"])
    assert con.execute("SELECT count(*) FROM device_event_device").fetchone()[0] == 4 * 4
