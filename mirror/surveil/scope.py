"""A surveillance scope (product codes, firm names, brands, UDI-DIs) as SQL filters on each dataset's table."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Scope", "SCOPED"]


@dataclass(frozen=True)
class Scope:
    """What a watchlist covers. Firms are every name variant to match (compared case-insensitively), brands are
    compared case-insensitively and whole, DIs exactly. An empty scope matches nothing."""

    codes: tuple[str, ...] = ()
    firms: tuple[str, ...] = ()
    brands: tuple[str, ...] = ()
    dis: tuple[str, ...] = ()

    @property
    def empty(self) -> bool:
        return not (self.codes or self.firms or self.brands or self.dis)

    def params(self, sql: str | None = None) -> dict[str, list[str]]:
        """The named parameters of `where()` (only those `sql` uses, when given: DuckDB refuses extra ones)."""
        up = lambda xs: sorted({x.strip().upper() for x in xs if x.strip()})  # noqa: E731
        out = {
            "s_codes": up(self.codes),
            "s_firms": up(self.firms),
            "s_brands": up(self.brands),
            "s_dis": sorted({x.strip() for x in self.dis if x.strip()}),
        }
        return {k: v for k, v in out.items() if sql is None or f"${k}" in sql}

    def where(self, dataset: str, alias: str = "t") -> str:
        """SQL true for the rows of `dataset` (its main table, aliased `alias`) in the scope; named parameters from
        `params()`. Datasets without a column for a part of the scope ignore that part."""
        filters = SCOPED.get(dataset, {})
        parts = [
            f.format(t=alias)
            for part in ("codes", "firms", "brands", "dis")
            if getattr(self, part)
            for f in filters.get(part, ())
        ]
        return "(" + " OR ".join(parts) + ")" if parts else "FALSE"


def _device(cond: str) -> str:
    return "{t}.mdr_report_key IN (SELECT mdr_report_key FROM device_event_device WHERE " + cond + ")"


def _in(col: str, param: str) -> str:
    return f"upper(trim({col})) IN (SELECT unnest(${param}))"


def _contains(col: str, param: str) -> str:
    return f"EXISTS (SELECT 1 FROM (SELECT unnest(${param}) AS x) WHERE x <> '' AND contains(upper({col}), x))"


# dataset -> part of the scope -> filter on the dataset's main table (alias {t}); parameters from Scope.params().
SCOPED: dict[str, dict[str, tuple[str, ...]]] = {
    "event": {
        "codes": ("list_has_any({t}.product_code_list, $s_codes)",),
        "firms": (_in("{t}.manufacturer_name", "s_firms"), _device(_in("manufacturer_d_name", "s_firms"))),
        "brands": (_device(_in("brand_name", "s_brands")),),
        "dis": (_device("udi_di IN (SELECT unnest($s_dis))"),),
    },
    "recall": {"codes": (_in("{t}.product_code", "s_codes"),), "firms": (_in("{t}.recalling_firm", "s_firms"),)},
    "enforcement": {
        "firms": (_in("{t}.recalling_firm", "s_firms"),),
        "brands": (_contains("{t}.record->>'product_description'", "s_brands"),),
        "dis": (_contains("{t}.record->>'code_info'", "s_dis"),),
    },
    "510k": {
        "codes": (_in("{t}.product_code", "s_codes"),),
        "firms": (_in("{t}.applicant", "s_firms"),),
        "brands": (_in("{t}.device_name", "s_brands"),),
    },
    "pma": {
        "codes": (_in("{t}.product_code", "s_codes"),),
        "firms": (_in("{t}.applicant", "s_firms"),),
        "brands": (_in("{t}.trade_name", "s_brands"),),
    },
    "udi": {
        # the child table of codes, not the list column: a plain column compared, 2-3x faster over every record
        "codes": (
            "{t}.public_device_record_key IN (SELECT public_device_record_key FROM device_udi_product_code "
            "WHERE code IN (SELECT unnest($s_codes)))",
        ),
        "firms": (_in("{t}.company_name", "s_firms"),),
        "brands": (_in("{t}.brand_name", "s_brands"),),
        "dis": (
            "{t}.public_device_record_key IN (SELECT public_device_record_key FROM device_udi_identifier "
            "WHERE id IN (SELECT unnest($s_dis)))",
        ),
    },
}
