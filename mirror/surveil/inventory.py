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

from ..store.files import Store
from .linked import link_rows

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


_SETUP = """
CREATE OR REPLACE TEMP TABLE q AS
  SELECT * FROM (SELECT unnest($rows) AS row, unnest($brands) AS brand, unnest($models) AS model,
                        unnest($codes) AS code);
CREATE OR REPLACE TEMP TABLE qdi AS SELECT * FROM (SELECT unnest($di_rows) AS row, unnest($di_vals) AS di);
"""

# Device records as (di, brand, model, catalog, company, code): the union of the UDI sources present.
_DEVICES = {
    "device_udi": """SELECT i.id AS di, u.brand_name AS brand, u.version_or_model_number AS model,
        u.catalog_number AS catalog, u.company_name AS company, c.code AS code
        FROM device_udi u JOIN device_udi_identifier i USING (public_device_record_key)
        LEFT JOIN device_udi_product_code c USING (public_device_record_key)""",
    "gudid_device": """SELECT i."deviceId" AS di, g."brandName" AS brand, g."versionModelNumber" AS model,
        g."catalogNumber" AS catalog, g."companyName" AS company, p."productCode" AS code
        FROM gudid_device g JOIN gudid_identifiers i USING ("PrimaryDI")
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
        params = _params(queries)
        for statement in _SETUP.strip().split(";")[:2]:
            con.execute(statement, {k: v for k, v in params.items() if f"${k}" in statement})
        devices = (
            " UNION ALL ".join(sql for table, sql in _DEVICES.items() if table in have)
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
        _linked(con, have, queries, out)
    finally:
        con.close()
    return [out[q.row] for q in queries]


def _params(queries: list[DeviceQuery]) -> dict:
    up = lambda s: " ".join(s.split()).upper()  # noqa: E731
    pairs = [(q.row, d) for q in queries for d in q.dis if d]
    return {
        "rows": [q.row for q in queries],
        "brands": [up(q.brand) for q in queries],
        "models": [up(q.model) for q in queries],
        "codes": [up(q.code) for q in queries],
        "di_rows": [r for r, _ in pairs],
        "di_vals": [d for _, d in pairs],
    }


def _linked(con, have: set[str], queries: list[DeviceQuery], out: dict[int, DeviceMatch]) -> None:
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
    link_rows(con, have, [out[q.row] for q in queries], words, dis, brand_models)
