"""Inventory check on the sample mirror with real UDI strings built from the fixture DIs (the sample's device_udi /
gudid tables): GS1 with parentheses and raw with GS separators, HIBCC, plain DIs, brand + model, product code."""

from __future__ import annotations

import csv

import pytest
from openpyxl import Workbook, load_workbook

from agent.surveil.errors import InventoryError
from agent.surveil.inventory import _map_headers, check_inventory, read_inventory
from agent.surveil.udi import gtin_check_ok, parse_udi
from mirror.store.files import Store

GS = "\x1d"
ROWS = [  # header names deliberately loose
    ["UDI (full string)", "Primary DI", "FDA Product Code", "Brand Name", "Catalog / Model No."],
    ["(01)00811331018325(17)271231(10)LOT-7(21)SN9", "", "", "", ""],
    [f"]d201008173950240501728063010A1B2{GS}21S-77", "", "", "", ""],
    ["+B3359500/$$3271231L0T5X", "", "", "", ""],
    ["", "811331018295", "", "", ""],
    ["", "", "", "external pacemaker ananlyzer", "expmt 2000"],
    ["", "", "OZP", "PUMP MMT-1880L MM770G BLE MG", "MMT-1880L"],
    ["", "", "FOZ", "Arrow kit", "AK-25502"],
    ["", "99999999999994", "", "", ""],
]


def test_udi_parsing_of_every_issuer():
    p = parse_udi("(01)00811331018325(17)271231(10)LOT-7(21)SN9")
    assert (p.issuer, p.di, p.expiry, p.lot, p.serial) == ("GS1", "00811331018325", "271231", "LOT-7", "SN9")
    assert p.notes == []
    p = parse_udi(f"01008173950240501728063010A{GS}21S")  # raw: (01)(17)(10) GS (21)
    assert (p.di, p.expiry, p.lot, p.serial) == ("00817395024050", "280630", "A", "S")
    p = parse_udi("+B3359500/$$3271231L0T5X")
    assert (p.issuer, p.di, p.expiry, p.lot) == ("HIBCC", "B3359500", "271231", "L0T5")
    assert parse_udi("+B3359500Q").di == "B3359500"  # primary only: last character is the check
    p = parse_udi("=/A99990012345678=,000025")
    assert (p.issuer, p.di) == ("ICCBBA", "A99990012345678")
    assert parse_udi("811331018325").candidates == ("00811331018325", "811331018325")
    assert gtin_check_ok("00811331018325") and not gtin_check_ok("00811331018326")
    assert parse_udi("(01)00811331018326").notes == ["GTIN 00811331018326 fails its check digit"]


def test_loose_headers():
    assert _map_headers(ROWS[0]) == {"udi": 0, "di": 1, "code": 2, "brand": 3, "model": 4}
    assert _map_headers(["GTIN", "Pro Code", "Trade name", "REF"]) == {"di": 0, "code": 1, "brand": 2, "model": 3}


def _xlsx(path, rows):
    """Worksheets cannot hold the GS character: spreadsheets write it `<GS>`."""
    wb = Workbook()
    for r in rows:
        wb.active.append([c.replace(GS, "<GS>") for c in r])
    wb.save(path)
    return path


def test_each_row_matched_and_linked(sample_dir, tmp_path):
    rows = read_inventory(_xlsx(tmp_path / "devices.xlsx", ROWS))
    report = check_inventory(Store(sample_dir), rows)
    got = [(r["match"], r["matched_dis"], r["product_codes"]) for r in report.rows]
    assert got == [
        ("exact DI", "00811331018325", "DSA"),
        ("exact DI", "00817395024050", ""),
        ("exact DI", "B3359500", "DTC"),
        ("exact DI", "00811331018295", "DSA"),
        ("brand + model", "B3359500", "DTC"),
        ("product code only", "", "OZP"),
        ("product code only", "", "FOZ"),
        ("no match", "", ""),
    ]
    assert report.rows[0]["lot"] == "LOT-7" and report.rows[2]["issuer"] == "HIBCC"
    pump, arrow = report.rows[5], report.rows[6]
    assert (pump["events_naming_device"], pump["events_for_product_code"]) == ("1", "2")
    assert (arrow["recalls_naming_device"], arrow["recalls_for_product_code"]) == ("Z-0053-2020", "1")
    assert report.as_of["udi"] == "2025-10-01" and report.as_of["recall"] == "2017-12-02"


def test_export_csv_with_bom_and_xlsx(sample_dir, tmp_path, run):
    src = tmp_path / "devices.csv"
    with open(src, "w", newline="", encoding="utf-8") as fh:
        csv.writer(fh, delimiter=";").writerows(ROWS)
    out = run("inventory", str(src), "--out", str(tmp_path / "out.csv"), "--data-dir", str(sample_dir)).output
    assert "row 1: exact DI" in out and "Data as of:" in out
    raw = (tmp_path / "out.csv").read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf")
    lines = raw.decode("utf-8-sig").splitlines()
    assert lines[0].startswith("row,udi,di,product_code") and any(
        ln.startswith("# event data as of,2025-09-23") for ln in lines
    )
    run("inventory", str(src), "--out", str(tmp_path / "out.xlsx"), "--data-dir", str(sample_dir))
    wb = load_workbook(tmp_path / "out.xlsx")
    assert wb["devices"]["L2"].value == "exact DI" and wb["devices"].max_row == 9
    assert ["udi data as of", "2025-10-01"] in [[c.value for c in r] for r in wb["as of"].iter_rows()]


def test_unreadable_inputs(tmp_path, run, sample_dir):
    (tmp_path / "x.csv").write_text("foo,bar\n1,2\n")
    with pytest.raises(InventoryError, match="no column named like UDI"):
        read_inventory(tmp_path / "x.csv")
    (tmp_path / "bad.xlsx").write_text("not a workbook")
    err = run("inventory", str(tmp_path / "bad.xlsx"), "--data-dir", str(sample_dir), ok=False).output
    assert "not a readable XLSX workbook" in err and "Traceback" not in err
