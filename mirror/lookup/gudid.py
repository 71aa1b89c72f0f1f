"""Searches of the AccessGUDID release (`gudid_*` tables): devices by DI, company, product code, brand or GMDN words
and publish date; totals, newest-first rows and counts by a field. Only bound parameters carry user text."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date
from typing import Any

import duckdb

from ..store.rows import one
from .firms import LEGAL_WORDS
from .source import Source, reader_of

_DEVICES = (
    "(SELECT x.*, (SELECT string_agg(g.gmdnPTName, ' ') FROM gudid_gmdn_terms g WHERE g.PrimaryDI = "
    "x.PrimaryDI) AS _gmdn FROM gudid_device x) d"
)

__all__ = ["GudidQuery", "GudidResult", "search_gudid", "count_gudid", "GUDID_COUNTS", "GUDID_ROW"]

# row key -> SQL over gudid_device d (one row per primary DI)
GUDID_ROW = {
    "primary_di": "d.PrimaryDI",
    "brand_name": "d.brandName",
    "version_or_model_number": "d.versionModelNumber",
    "catalog_number": "d.catalogNumber",
    "company_name": "d.companyName",
    "publish_date": "d.devicePublishDate",
    "distribution_status": "d.deviceCommDistributionStatus",
    "device_description": "left(d.deviceDescription, 200)",
    "product_codes": "(SELECT list(DISTINCT p.productCode) FROM gudid_product_codes p WHERE p.PrimaryDI = d.PrimaryDI)",
    "gmdn_term": "(SELECT string_agg(DISTINCT g.gmdnPTName, '; ') FROM gudid_gmdn_terms g "
    "WHERE g.PrimaryDI = d.PrimaryDI)",
    "premarket_submissions": "(SELECT list(DISTINCT s.submissionNumber || CASE WHEN coalesce(s.supplementNumber, '') "
    "NOT IN ('', '000') THEN '/S' || s.supplementNumber ELSE '' END) "
    "FROM gudid_premarket_submissions s WHERE s.PrimaryDI = d.PrimaryDI)",
    "mri_safety": "d.MRISafetyStatus",
    "rx": "d.rx",
    "otc": "d.otc",
    "kit": "d.deviceKit",
}
# count_gudid names -> SQL of the counted value (a list is unnested)
GUDID_COUNTS = {
    "manufacturer": "d.companyName",
    "product_code": "pc.productCode",
    "gmdn_term": "gm.gmdnPTName",
    "brand_name": "d.brandName",
    "year": "left(d.devicePublishDate, 4)",
    "month": "left(d.devicePublishDate, 7)",
}
_FLAGS = {
    "is_rx": "d.rx",
    "is_otc": "d.otc",
    "is_kit": "d.deviceKit",
    "is_single_use": "d.singleUse",
    "is_sterile": "d.deviceSterile",
    "mri_safety": "d.MRISafetyStatus",
    "has_serial_number": "d.serialNumber",  # the label carries a serial number (a production identifier)
    "has_lot_or_batch_number": "d.lotBatch",
    # the agency that issued the device's primary DI (GS1, HIBCC, ICCBBA)
    "issuing_agency": "(SELECT max(i.deviceIdIssuingAgency) FROM gudid_identifiers i WHERE i.PrimaryDI = d.PrimaryDI "
    "AND i.deviceIdType = 'Primary')",
}


@dataclass
class GudidQuery:
    """What to look for; every field optional (all of them: every device of the release)."""

    di: list[str] = field(default_factory=list)  # primary or package DIs
    company: list[str] = field(default_factory=list)  # names or variants (words of any one of them)
    product_codes: list[str] = field(default_factory=list)
    names: str = ""  # words in brand, description or GMDN term
    date_from: date | None = None  # devicePublishDate
    date_to: date | None = None
    flags: dict[str, str] = field(default_factory=dict)  # is_rx, is_otc, is_kit, is_single_use, mri_safety,
    # issuing_agency


@dataclass
class GudidResult:
    total: int
    rows: list[dict]
    where: str  # the conditions, in words (provenance)


def _words(text: str) -> list[str]:
    return [w for w in re.findall(r"\w+", text.lower()) if w not in LEGAL_WORDS][:8]


def _where(q: GudidQuery) -> tuple[str, dict, str]:
    parts: list[str] = []
    params: dict[str, Any] = {}
    said: list[str] = []
    if q.di:
        parts.append(
            "(d.PrimaryDI = ANY($di) OR d.PrimaryDI IN (SELECT i.PrimaryDI FROM gudid_identifiers i "
            "WHERE i.deviceId = ANY($di)))"
        )
        params["di"] = [str(x).strip() for x in q.di]
        said.append("DI " + ", ".join(params["di"]))
    if q.company:
        ors = []
        for k, name in enumerate(q.company[:30]):
            ws = _words(name) or re.findall(r"\w+", name.lower())[:8]
            if ws:
                params[f"c{k}"] = ws
                ors.append(
                    f"list_bool_and(list_transform($c{k}, w -> regexp_matches(lower(d.companyName), "
                    f"'\\b' || w || '\\b')))"
                )
        if ors:
            parts.append("(" + " OR ".join(ors) + ")")
            said.append("company " + q.company[0])
    if q.product_codes:
        parts.append("d.PrimaryDI IN (SELECT p.PrimaryDI FROM gudid_product_codes p WHERE p.productCode = ANY($pc))")
        params["pc"] = [c.upper() for c in q.product_codes]
        said.append("product code " + ", ".join(params["pc"]))
    if q.names.strip():
        ws = [w for w in re.findall(r"\w+", q.names.lower()) if len(w) > 1][:6]
        if ws:
            params["nw"] = ws
            text = (  # the model and catalog numbers too: a device is often named by them ("PAD 6089")
                "lower(coalesce(d.brandName, '') || ' ' || coalesce(d.deviceDescription, '') || ' ' || "
                "coalesce(d._gmdn, '') || ' ' || coalesce(d.versionModelNumber, '') || ' ' || "
                "coalesce(d.catalogNumber, ''))"
            )
            parts.append(f"list_bool_and(list_transform($nw, w -> regexp_matches({text}, '\\b' || w || 's?\\b')))")
            said.append("names holding " + " ".join(ws))
    if q.date_from:
        parts.append("TRY_CAST(d.devicePublishDate AS DATE) >= $df")
        params["df"] = q.date_from
    if q.date_to:
        parts.append("TRY_CAST(d.devicePublishDate AS DATE) <= $dt")
        params["dt"] = q.date_to
    if q.date_from or q.date_to:
        said.append(f"published {q.date_from or '…'} to {q.date_to or '…'}")
    for k, (name, value) in enumerate(q.flags.items()):
        if name in _FLAGS:
            parts.append(f"lower(CAST({_FLAGS[name]} AS VARCHAR)) = lower($f{k})")
            params[f"f{k}"] = str(value)
            said.append(f"{name} = {value}")
    return (" AND ".join(parts) or "TRUE"), params, "; ".join(said) or "every device"


def search_gudid(src: Source, q: GudidQuery, limit: int = 10) -> GudidResult:
    """Devices of the AccessGUDID release matching `q`: the full total and the newest `limit` rows."""
    where, params, said = _where(q)
    cols = ", ".join(f"{sql} AS {key}" for key, sql in GUDID_ROW.items())
    with reader_of(src).cursor("the AccessGUDID search", "name a DI, a company or a product code") as cur:
        try:
            total = one(cur.execute(f"SELECT count(*) FROM {_DEVICES} WHERE {where}", params))[0]
            cur.execute(
                f"SELECT {cols} FROM {_DEVICES} WHERE {where} ORDER BY d.devicePublishDate DESC NULLS LAST, "
                f"d.PrimaryDI LIMIT {int(max(0, limit))}",
                params,
            )
            names = [c[0] for c in cur.description]
            rows = [_clean(dict(zip(names, r))) for r in cur.fetchall()]
        except duckdb.CatalogException:
            return GudidResult(0, [], said + " (the AccessGUDID release is not in this mirror)")
    return GudidResult(int(total), rows, said)


def count_gudid(src: Source, q: GudidQuery, by: str, limit: int = 10) -> tuple[int, list[dict]]:
    """(total devices matching, [{by: value, "count": n}] most frequent first) over the AccessGUDID release."""
    if by not in GUDID_COUNTS:
        raise ValueError(f"AccessGUDID cannot be counted by {by!r}; choose one of: {', '.join(GUDID_COUNTS)}")
    where, params, _ = _where(q)
    joins = {
        "product_code": "JOIN gudid_product_codes pc ON pc.PrimaryDI = d.PrimaryDI",
        "gmdn_term": "JOIN gudid_gmdn_terms gm ON gm.PrimaryDI = d.PrimaryDI",
    }.get(by, "")
    value = GUDID_COUNTS[by]
    order = "1" if by in ("year", "month") else "2 DESC, 1"
    with reader_of(src).cursor("the AccessGUDID count", "name a DI, a company or a product code") as cur:
        try:
            total = one(cur.execute(f"SELECT count(*) FROM {_DEVICES} WHERE {where}", params))[0]
            rows = cur.execute(
                f"SELECT {value} AS v, count(DISTINCT d.PrimaryDI) AS n FROM {_DEVICES} {joins} "
                f"WHERE {where} AND {value} IS NOT NULL GROUP BY 1 ORDER BY {order} "
                f"LIMIT {int(max(1, limit))}",
                params,
            ).fetchall()
        except duckdb.CatalogException:
            return 0, []
    return int(total), [{by: v, "count": int(n)} for v, n in rows]


def _clean(row: dict) -> dict:
    for k, v in list(row.items()):
        if isinstance(v, date):
            row[k] = v.isoformat()
        elif isinstance(v, list):
            row[k] = [x for x in v if x]
    return row
