"""What each device endpoint becomes in DuckDB: its typed columns, date format and child tables."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .indexes import Indexes

__all__ = ["Column", "Child", "Dataset", "DATASETS", "table_name"]

# Date display formats per endpoint (DATA-FORMATS.md B, F.3).
YMD, ISO, MDY = "ymd", "iso", "mdy"


@dataclass(frozen=True)
class Column:
    name: str
    path: str  # JSONPath into the record
    kind: str = "str"  # str | date | list

    def __post_init__(self) -> None:
        assert self.kind in ("str", "date", "list")


@dataclass(frozen=True)
class Child:
    """A table of one row per element of an array in the record (`device[]`, `products[]`, ...)."""

    suffix: str  # device_event + _device
    array: str  # JSONPath of the array, e.g. $.device[*]
    parent_keys: tuple[str, ...]  # parent columns copied onto each row
    columns: tuple[Column, ...]  # paths relative to the element ($.brand_name)
    listed: tuple[tuple[str, str], ...] = ()  # (parent column, child column): every value of the child
    #   column in the record, also kept on the parent row as VARCHAR[] (searched and counted without a join)


@dataclass(frozen=True)
class Dataset:
    endpoint: str
    date_format: str
    key: tuple[str, ...]
    columns: tuple[Column, ...]
    children: tuple[Child, ...] = ()
    key_index: bool = False  # an ART index on the key (keys in no useful order: zone maps cannot narrow)
    words: str | None = None  # child suffix whose `text` column gets a word index (see mirror/upgrade.py)
    day: str | None = None  # date column of the per-day summary of the listed columns (see mirror/upgrade.py)
    cover: tuple[str, ...] = ()  # main columns copied into the listed columns' row indexes (see `rows_tables`)
    counted: tuple[str, ...] = ("product_code_list",)  # listed columns that get summaries and row indexes
    words_cover: tuple[str, ...] = ()  # main columns copied into the word index beside each rowid

    @property
    def index_tables(self) -> dict[str, set[str]]:
        """The rowid indexes (row indexes, then the word index) -> the columns each must have."""
        return {i.table: set(i.columns) for i in self._indexes.by_rowid}

    @property
    def _indexes(self) -> Indexes:
        from .indexes import indexes  # the index layout is described once, in indexes.py (which imports this)

        return indexes(self)

    @property
    def table(self) -> str:
        return table_name(self.endpoint)

    @property
    def words_tables(self) -> tuple[str, str] | None:
        """The word index of the `words` child: (rare words' rows table, common words table)."""
        w = self._indexes.words
        return (w.table, w.common) if w else None

    @property
    def rows_tables(self) -> dict[str, str]:
        """Row indexes of the listed columns: table -> listed column (see mirror/schema/indexes.py)."""
        return {r.table: r.keys_on for r in self._indexes.rows}

    @property
    def summaries(self) -> dict[str, tuple[str, str | None]]:
        """Summary tables of the listed columns: table -> (listed column, date column or None): records per
        value, and (with `day`) records per value and day."""
        return {m.table: (m.keys_on, m.day) for m in self._indexes.summaries}

    @property
    def listed(self) -> dict[str, tuple[Child, Column]]:
        """The parent's list columns kept from child arrays: name -> (child, child column)."""
        return {
            name: (ch, next(c for c in ch.columns if c.name == col)) for ch in self.children for name, col in ch.listed
        }


def table_name(endpoint: str) -> str:
    return f"device_{endpoint}"


def _c(*names: str, kind: str = "str", prefix: str = "$.") -> tuple[Column, ...]:
    return tuple(
        Column(
            n.split(".")[-1] if "=" not in n else n.split("=")[0], prefix + (n.split("=")[1] if "=" in n else n), kind
        )
        for n in names
    )


_OPENFDA = _c(
    "device_name=openfda.device_name",
    "device_class=openfda.device_class",
    "regulation_number=openfda.regulation_number",
)

DATASETS: dict[str, Dataset] = {
    d.endpoint: d
    for d in (
        Dataset(
            "event",
            YMD,
            ("mdr_report_key",),
            _c(
                "mdr_report_key",
                "report_number",
                "event_type",
                "manufacturer_name",
                "adverse_event_flag",
                "product_problem_flag",
                "report_source_code",
            )
            + _c("date_received", "date_of_event", "date_report", "date_added", "date_changed", kind="date")
            + _c("product_problems", "type_of_report", "source_type", kind="list"),
            (
                Child(
                    "device",
                    "$.device[*]",
                    ("mdr_report_key",),
                    _c(
                        "device_sequence_number",
                        "device_report_product_code",
                        "brand_name",
                        "generic_name",
                        "manufacturer_d_name",
                        "manufacturer_d_country",
                        "model_number",
                        "catalog_number",
                        "lot_number",
                        "udi_di",
                        "implant_flag",
                    )
                    + _OPENFDA,
                    listed=(("product_code_list", "device_report_product_code"),),
                ),
                Child(
                    "text",
                    "$.mdr_text[*]",
                    ("mdr_report_key",),
                    _c("mdr_text_key", "text_type_code", "patient_sequence_number", "text"),
                ),
                Child(
                    "patient",
                    "$.patient[*]",
                    ("mdr_report_key",),
                    _c("patient_sequence_number", "patient_age", "patient_sex")
                    + _c("patient_problems", "sequence_number_outcome", kind="list"),
                ),
            ),
            words="text",
            day="date_received",
            cover=("date_received", "event_type"),
            words_cover=("date_received",),
        ),
        Dataset(
            "510k",
            ISO,
            ("k_number",),
            _c(
                "k_number",
                "applicant",
                "device_name",
                "product_code",
                "decision_code",
                "decision_description",
                "clearance_type",
                "country_code",
                "state",
                "city",
                "advisory_committee",
                "third_party_flag",
                "expedited_review_flag",
            )
            + _c("decision_date", "date_received", kind="date")
            + _c("openfda_device_class=openfda.device_class", "regulation_number=openfda.regulation_number"),
            key_index=True,
        ),
        Dataset(
            "pma",
            ISO,
            ("pma_number", "supplement_number"),
            _c(
                "pma_number",
                "supplement_number",
                "applicant",
                "trade_name",
                "generic_name",
                "product_code",
                "decision_code",
                "supplement_type",
                "advisory_committee",
                "state",
                "city",
            )
            + _c("decision_date", "date_received", "fed_reg_notice_date", kind="date")
            + _c("openfda_device_class=openfda.device_class", "regulation_number=openfda.regulation_number"),
        ),
        Dataset(
            "classification",
            ISO,
            ("product_code",),
            _c(
                "product_code",
                "device_name",
                "device_class",
                "regulation_number",
                "medical_specialty",
                "medical_specialty_description",
                "review_panel",
                "submission_type_id",
                "definition",
                "implant_flag",
                "life_sustain_support_flag",
                "gmp_exempt_flag",
                "third_party_flag",
            ),
        ),
        Dataset(
            "recall",
            ISO,
            ("product_res_number",),
            _c(
                "product_res_number",
                "res_event_number",
                "cfres_id",
                "recall_status",
                "recalling_firm",
                "firm_fei_number",
                "product_code",
                "city",
                "state",
                "country",
                "root_cause_description",
            )
            + _c(
                "event_date_initiated", "event_date_created", "event_date_posted", "event_date_terminated", kind="date"
            )
            + _c("k_numbers", "pma_numbers", kind="list")
            + _OPENFDA,
        ),
        Dataset(
            "enforcement",
            YMD,
            ("recall_number",),
            _c(
                "recall_number",
                "event_id",
                "status",
                "classification",
                "recalling_firm",
                "product_type",
                "voluntary_mandated",
                "city",
                "state",
                "country",
            )
            + _c(
                "recall_initiation_date", "center_classification_date", "report_date", "termination_date", kind="date"
            ),
        ),
        Dataset(
            "udi",
            ISO,
            ("public_device_record_key",),
            _c(
                "public_device_record_key",
                "brand_name",
                "version_or_model_number",
                "catalog_number",
                "company_name",
                "labeler_duns_number",
                "record_status",
                "public_version_status",
                "public_version_number",
                "commercial_distribution_status",
                "device_description",
            )
            + _c("publish_date", "public_version_date", "commercial_distribution_end_date", kind="date"),
            (
                Child(
                    "identifier",
                    "$.identifiers[*]",
                    ("public_device_record_key",),
                    _c(
                        "id",
                        "type",
                        "issuing_agency",
                        "unit_of_use_id",
                        "quantity_per_package",
                        "package_status",
                        "package_type",
                    ),
                ),
                Child(
                    "product_code",
                    "$.product_codes[*]",
                    ("public_device_record_key",),
                    _c("code", "name") + _OPENFDA,
                    listed=(("product_code_list", "code"),),
                ),
                Child(
                    "gmdn_term",
                    "$.gmdn_terms[*]",
                    ("public_device_record_key",),
                    _c("code", "name", "definition", "implantable", "code_status"),
                ),
            ),
            key_index=True,
            cover=("publish_date",),
        ),
        Dataset(
            "registrationlisting",
            ISO,
            ("registration_number",),
            _c(
                "registration_number=registration.registration_number",
                "fei_number=registration.fei_number",
                "name=registration.name",
                "city=registration.city",
                "state_code=registration.state_code",
                "iso_country_code=registration.iso_country_code",
                "status_code=registration.status_code",
                "reg_expiry_date_year=registration.reg_expiry_date_year",
                "owner_operator_number=registration.owner_operator.owner_operator_number",
                "owner_operator_firm_name=registration.owner_operator.firm_name",
                "k_number",
                "pma_number",
            )
            + _c("establishment_type", "proprietary_name", kind="list"),
            (
                Child(
                    "product",
                    "$.products[*]",
                    ("registration_number", "fei_number"),
                    _c("product_code", "exempt", "owner_operator_number") + _c("created_date", kind="date") + _OPENFDA,
                    listed=(("product_code_list", "product_code"), ("created_date_list", "created_date")),
                ),
            ),
            cover=("created_date_list",),
        ),
        Dataset(
            "covid19serology",
            MDY,
            ("manufacturer", "device", "panel", "sample_id"),
            _c(
                "manufacturer",
                "device",
                "lot_number",
                "panel",
                "sample_id",
                "type",
                "group",
                "antibody_truth",
                "evaluation_id",
            )
            + _c("date_performed", kind="date"),
        ),
    )
}
