"""Inventory check: the user's device list (CSV or XLSX) read loosely, matched on the mirror, written back as
CSV (UTF-8 with a BOM) or XLSX with the data-as-of dates."""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from mirror.store.files import Store
from mirror.surveil.asof import as_of_dates
from mirror.surveil.inventory import DeviceMatch, DeviceQuery, match_devices

from .errors import InventoryError
from .udi import parse_udi

__all__ = ["COLUMNS", "read_inventory", "check_inventory", "write_report", "InventoryReport", "OUTPUT_COLUMNS"]

# Our column -> header words that name it (headers are compared lower-case, letters and digits only).
COLUMNS = {
    "udi": ("udi", "udistring", "fulludi", "udicode", "barcode", "udibarcode", "udihri"),
    "di": ("di", "udidi", "deviceidentifier", "primarydi", "gtin", "deviceid"),
    "code": ("productcode", "procode", "fdaproductcode", "fdacode", "code"),
    "brand": ("brand", "brandname", "tradename", "proprietaryname", "devicebrand"),
    "model": (
        "model",
        "modelnumber",
        "modelno",
        "versionmodelnumber",
        "versionormodelnumber",
        "catalog",
        "catalognumber",
        "catalogno",
        "catno",
        "ref",
        "refnumber",
        "reference",
        "partnumber",
        "sku",
    ),
}
OUTPUT_COLUMNS = (
    "row",
    "udi",
    "di",
    "product_code",
    "brand",
    "model",
    "parsed_di",
    "issuer",
    "lot",
    "serial",
    "expiry",
    "match",
    "matched_dis",
    "found_brand",
    "found_model",
    "company",
    "product_codes",
    "recalls_naming_device",
    "recalls_for_product_code",
    "enforcement_naming_device",
    "events_naming_device",
    "deaths_naming_device",
    "events_for_product_code",
    "deaths_for_product_code",
    "notes",
)


def _norm(header: str) -> str:
    return re.sub(r"[^a-z0-9]", "", str(header or "").lower())


def _map_headers(headers: list[str]) -> dict[str, int]:
    """Our column -> index of the header naming it: exact names first, then headers containing a name."""
    keys = [_norm(h) for h in headers]
    found: dict[str, int] = {}
    for exact in (True, False):
        for col, names in COLUMNS.items():
            if col in found:
                continue
            for i, k in enumerate(keys):
                if i in found.values() or not k:
                    continue
                if k in names or (
                    not exact and any(len(n) >= 4 and n in k or len(n) == 3 and k.startswith(n) for n in names)
                ):
                    found[col] = i
                    break
    return found


def read_inventory(path: Path) -> list[dict[str, str]]:
    """Rows of the file as {udi, di, code, brand, model} (missing columns: ''). Raises InventoryError."""
    path = Path(path)
    if not path.is_file():
        raise InventoryError(f"{path}: no such file; give the path of a CSV or XLSX list of devices")
    table = _xlsx(path) if path.suffix.lower() in (".xlsx", ".xlsm") else _csv(path)
    if not table:
        raise InventoryError(f"{path}: the file is empty; put a header row (UDI, DI, product code, brand, model)")
    cols = _map_headers([str(h or "") for h in table[0]])
    if not cols:
        raise InventoryError(
            f"{path}: no column named like UDI, DI, product code, brand or model in the header "
            f"({', '.join(str(h) for h in table[0][:8])}); rename one and try again"
        )
    out = []
    for cells in table[1:]:
        row = {c: _cell(cells, cols.get(c)) for c in COLUMNS}
        if any(row.values()):
            out.append(row)
    return out


def _cell(cells, i: int | None) -> str:
    if i is None or i >= len(cells) or cells[i] is None:
        return ""
    v = cells[i]
    return str(int(v)) if isinstance(v, float) and v.is_integer() else str(v).strip()


def _csv(path: Path) -> list[list[str]]:
    raw = path.read_bytes()
    for enc in ("utf-8-sig", "cp1252"):
        try:
            text = raw.decode(enc)
            break
        except UnicodeDecodeError:
            continue
    try:
        dialect = csv.Sniffer().sniff(text[:4096], delimiters=",;\t|")
    except csv.Error:
        dialect = csv.excel
    return [r for r in csv.reader(io.StringIO(text), dialect)]


def _xlsx(path: Path) -> list[list]:
    from openpyxl import load_workbook

    try:
        wb = load_workbook(path, read_only=True, data_only=True)
    except Exception as e:  # openpyxl raises many kinds for a file that is not a workbook
        raise InventoryError(
            f"{path}: not a readable XLSX workbook ({e.__class__.__name__}); "
            "save it again from Excel or export it as CSV"
        ) from None
    try:
        return [list(r) for r in wb.worksheets[0].iter_rows(values_only=True)]
    finally:
        wb.close()


@dataclass
class InventoryReport:
    rows: list[dict[str, str]]
    as_of: dict[str, str]
    checked_at: str


def check_inventory(store: Store, rows: list[dict[str, str]]) -> InventoryReport:
    queries, parsed = [], []
    for i, r in enumerate(rows, start=1):
        p = parse_udi(r["udi"]) if r["udi"] else (parse_udi(r["di"]) if r["di"] else None)
        dis = tuple(dict.fromkeys([*(p.candidates if p else ()), *([r["di"]] if r["di"] else [])]))
        parsed.append(p)
        queries.append(DeviceQuery(i, dis, r["brand"], r["model"], r["code"].upper()))
    matches = match_devices(store, queries)
    out = [_row(i, r, p, m) for i, (r, p, m) in enumerate(zip(rows, parsed, matches), start=1)]
    return InventoryReport(out, as_of_dates(store), datetime.now(timezone.utc).replace(microsecond=0).isoformat())


def _row(i: int, r: dict[str, str], p, m: DeviceMatch) -> dict[str, str]:
    j = "; ".join
    return {
        "row": str(i),
        "udi": r["udi"],
        "di": r["di"],
        "product_code": r["code"],
        "brand": r["brand"],
        "model": r["model"],
        "parsed_di": p.di if p else "",
        "issuer": p.issuer if p else "",
        "lot": p.lot if p else "",
        "serial": p.serial if p else "",
        "expiry": p.expiry if p else "",
        "match": m.rule,
        "matched_dis": j(m.udi_keys),
        "found_brand": j(m.brands),
        "found_model": j(m.models),
        "company": j(m.companies),
        "product_codes": j(m.codes),
        "recalls_naming_device": j(m.recalls_device),
        "recalls_for_product_code": str(m.recalls_code),
        "enforcement_naming_device": j(m.enforcement_device),
        "events_naming_device": str(m.events_device),
        "deaths_naming_device": str(m.deaths_device),
        "events_for_product_code": str(m.events_code),
        "deaths_for_product_code": str(m.deaths_code),
        "notes": j(p.notes) if p else "",
    }


def _as_of_lines(report: InventoryReport) -> list[list[str]]:
    return [["checked at (UTC)", report.checked_at]] + [[f"{d} data as of", v] for d, v in sorted(report.as_of.items())]


def write_report(report: InventoryReport, path: Path) -> Path:
    """CSV (UTF-8 with BOM; the as-of dates in trailing '#' lines) or XLSX (sheets 'devices' and 'as of')."""
    path = Path(path)
    if path.suffix.lower() == ".xlsx":
        from openpyxl import Workbook

        wb = Workbook()
        ws = wb.active
        ws.title = "devices"
        ws.append(list(OUTPUT_COLUMNS))
        for r in report.rows:
            ws.append([int(r[c]) if c in _INTS else _printable(r[c]) for c in OUTPUT_COLUMNS])
        meta = wb.create_sheet("as of")
        for line in _as_of_lines(report):
            meta.append(line)
        wb.save(path)
        return path
    with open(path, "w", encoding="utf-8-sig", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(OUTPUT_COLUMNS)
        for r in report.rows:
            w.writerow([r[c] for c in OUTPUT_COLUMNS])
        for k, v in _as_of_lines(report):
            w.writerow([f"# {k}", v])
    return path


def _printable(s: str) -> str:
    """Worksheets refuse control characters: the GS separator is written `<GS>` (which the reader accepts)."""
    return re.sub(r"[\x00-\x08\x0b\x0c\x0e-\x1f]", "", s.replace("\x1d", "<GS>"))


_INTS = {
    "row",
    "recalls_for_product_code",
    "events_naming_device",
    "deaths_naming_device",
    "events_for_product_code",
    "deaths_for_product_code",
}
