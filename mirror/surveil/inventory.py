"""Device rows matched to UDI records (openFDA UDI and the AccessGUDID release), then to recalls, enforcement
reports and adverse events.

Each row is matched by the first rule that finds something: `exact DI` (a DI candidate equals a device identifier
of any package level), `brand + model` (brand name equal, any case, and the model or catalog number equal to the
version/model or catalog number), `product code only` (the row's product code, no device record). Recalls,
enforcement reports and events are then counted two ways: those that name the device (its DI, or its brand/model in
the record's text fields) and those for its product codes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import duckdb

from ..store.files import Store
from .aggregates import EVENT_TABLES, build_aggregates
from .linked import link_rows
from .rowsets import temp_table

__all__ = ["DeviceQuery", "DeviceMatch", "match_devices", "RULES"]

RULES = ("exact DI", "brand + model", "product code only", "no match")


@dataclass(frozen=True)
class DeviceQuery:
    row: int
    dis: tuple[str, ...] = ()
    brand: str = ""
    model: str = ""
    code: str = ""


@dataclass
class DeviceMatch:
    row: int
    rule: str
    udi_keys: list[str] = field(default_factory=list)  # DIs of the matched device records
    brands: list[str] = field(default_factory=list)
    models: list[str] = field(default_factory=list)
    companies: list[str] = field(default_factory=list)
    codes: list[str] = field(default_factory=list)
    recalls_device: list[str] = field(default_factory=list)  # recall numbers naming the device
    recalls_code: int = 0  # recalls for its product codes
    enforcement_device: list[str] = field(default_factory=list)  # "Z-1234-2020 (Class II)"
    events_device: int = 0
    deaths_device: int = 0
    events_code: int = 0
    deaths_code: int = 0


# Device records as (di, brand, model, catalog, company, code): the union of the UDI sources present, only those
# named by a row's DI or brand and model (their keys found first in narrow scans, so that the joins are on a few
# keys rather than every UDI record).
_DEVICES = {
    "device_udi": """WITH k AS (
          SELECT public_device_record_key FROM device_udi_identifier WHERE id IN (SELECT di FROM qdi)
          UNION SELECT u.public_device_record_key FROM device_udi u SEMI JOIN q
            ON upper(trim(u.brand_name)) = q.brand AND upper(trim(u.version_or_model_number)) = q.model
          UNION SELECT u.public_device_record_key FROM device_udi u SEMI JOIN q
            ON upper(trim(u.brand_name)) = q.brand AND upper(trim(u.catalog_number)) = q.model)
        SELECT i.id AS di, u.brand_name AS brand, u.version_or_model_number AS model,
        u.catalog_number AS catalog, u.company_name AS company, c.code AS code
        FROM k JOIN device_udi u USING (public_device_record_key)
        JOIN device_udi_identifier i USING (public_device_record_key)
        LEFT JOIN device_udi_product_code c USING (public_device_record_key)""",
    "gudid_device": """WITH k AS (
          SELECT "PrimaryDI" FROM gudid_identifiers WHERE "deviceId" IN (SELECT di FROM qdi)
          UNION SELECT g."PrimaryDI" FROM gudid_device g SEMI JOIN q
            ON upper(trim(g."brandName")) = q.brand AND upper(trim(g."versionModelNumber")) = q.model
          UNION SELECT g."PrimaryDI" FROM gudid_device g SEMI JOIN q
            ON upper(trim(g."brandName")) = q.brand AND upper(trim(g."catalogNumber")) = q.model)
        SELECT i."deviceId" AS di, g."brandName" AS brand, g."versionModelNumber" AS model,
        g."catalogNumber" AS catalog, g."companyName" AS company, p."productCode" AS code
        FROM k JOIN gudid_device g USING ("PrimaryDI") JOIN gudid_identifiers i USING ("PrimaryDI")
        LEFT JOIN gudid_product_codes p USING ("PrimaryDI")""",
}

_MATCHED = """
CREATE OR REPLACE TEMP TABLE dev AS SELECT * FROM ({devices}) d
  WHERE d.di IN (SELECT di FROM qdi) OR upper(trim(d.brand)) IN (SELECT brand FROM q);
CREATE OR REPLACE TEMP TABLE m AS
WITH exact AS (SELECT DISTINCT qdi.row, dev.* FROM qdi JOIN dev ON dev.di = qdi.di),
bm AS (SELECT DISTINCT * FROM (
         SELECT q.row, dev.* FROM q JOIN dev ON upper(trim(dev.brand)) = q.brand AND upper(trim(dev.model)) = q.model
         UNION ALL
         SELECT q.row, dev.* FROM q JOIN dev ON upper(trim(dev.brand)) = q.brand AND upper(trim(dev.catalog)) = q.model)
       WHERE row NOT IN (SELECT row FROM exact))
SELECT 'exact DI' AS rule, * FROM exact UNION ALL SELECT 'brand + model', * FROM bm;
"""


def match_devices(store: Store, queries: list[DeviceQuery]) -> list[DeviceMatch]:
    """One DeviceMatch per query, in order (see the module doc for the rules)."""
    con = store.connect()
    try:
        have = {r[0] for r in con.execute("SELECT view_name FROM duckdb_views() WHERE NOT internal").fetchall()}
        _query_tables(con, queries)
        devices = (
            " UNION ALL ".join(f"({sql})" for table, sql in _DEVICES.items() if table in have)
            or "SELECT NULL::VARCHAR AS di, NULL::VARCHAR AS brand, NULL::VARCHAR AS model, NULL::VARCHAR AS catalog, "
            "NULL::VARCHAR AS company, NULL::VARCHAR AS code WHERE false"
        )
        for statement in _MATCHED.format(devices=devices).strip().split(";")[:2]:
            con.execute(statement)
        out = {q.row: DeviceMatch(q.row, "no match") for q in queries}
        for row, rule, dis, brands, models, companies, codes in con.execute(
            "SELECT row, any_value(rule), list_sort(list_distinct(list(di))), "
            "list_sort(list_distinct(list(brand))), "
            "list_sort(list_distinct(list(coalesce(model, catalog)))), list_sort(list_distinct(list(company))), "
            "list_sort(list_distinct(list(code))) FROM m GROUP BY row"
        ).fetchall():
            out[row] = DeviceMatch(row, rule, dis, brands, models, companies, [c for c in codes if c])
        for q in queries:
            m = out[q.row]
            if q.code and not m.codes:
                m.codes = [q.code]
            if m.rule == "no match" and q.code:
                m.rule = "product code only"
        _linked(con, have, queries, out, _tables(store, con, have))
    finally:
        con.close()
    return [out[q.row] for q in queries]


def _query_tables(con, queries: list[DeviceQuery]) -> None:
    """Temp tables q (row, brand, model, code; upper case, spaces collapsed) and qdi (row, di)."""
    up = lambda s: " ".join(s.split()).upper()  # noqa: E731
    temp_table(
        con, "q", "row, brand, model, code", [(q.row, up(q.brand), up(q.model), up(q.code)) for q in queries], _ROW
    )
    temp_table(con, "qdi", "row, di", [(q.row, d) for q in queries for d in q.dis if d], _ROW)


_ROW = {"row": "INTEGER"}


def _tables(store: Store, con, have: set[str]) -> dict[str, Path] | None:
    """The per-version tables of `aggregates` for the datasets present, built when missing; None when they cannot
    be written (a read-only data folder): the counts are then made over the records."""
    names = [*(EVENT_TABLES if "device_event" in have else ())]
    names += [f"{d}-{k}" for d in ("recall", "enforcement") if f"device_{d}" in have for k in ("text", "tokens")]
    try:
        return build_aggregates(store, con, tuple(names))
    except (OSError, duckdb.Error):
        return None


def _linked(
    con, have: set[str], queries: list[DeviceQuery], out: dict[int, DeviceMatch], tables: dict[str, Path] | None
) -> None:
    """Recalls, enforcement reports and events naming each device or its product codes (see `linked`)."""
    words = {
        q.row: sorted(x for x in {*(b.upper() for b in out[q.row].models), q.model.upper()} if len(x) >= 3)
        for q in queries
    }
    dis = {q.row: sorted({*q.dis, *out[q.row].udi_keys}) for q in queries}
    brand_models = {
        q.row: (
            (out[q.row].brands[0] if out[q.row].brands else q.brand).upper().strip(),
            sorted(x.upper().strip() for x in {*out[q.row].models, q.model} if x.strip()),
        )
        for q in queries
    }
    link_rows(con, have, [out[q.row] for q in queries], words, dis, brand_models, tables)
