"""One row per dataset (endpoint, tool, count name, noun, label, fields); every per-dataset map is derived from them.

Adding a dataset, a filter or a column means editing its row here. Rows take keyword arguments only, so each
value says which field it fills. `SPECS` holds the openFDA endpoints (searched through the local API); `DATASETS`
also holds the AccessGUDID release (searched by `agent.tools.gudid`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = [
    "Spec",
    "DATASETS",
    "SPECS",
    "SEARCHER",
    "COUNT_NAME",
    "DATASET_NAMES",
    "LABEL",
    "NOUN",
    "SOURCE",
    "DATE_FIELDS",
    "NAME_FIELDS",
    "SUBMISSION_FIELD",
    "DEVICE_WORDS",
    "ID_FILTERS",
]


@dataclass(frozen=True, kw_only=True)
class Spec:
    """How one dataset is named, searched and shown."""

    endpoint: str  # the dataset's key: openFDA endpoint name, or "gudid"
    tool: str  # the searcher tool's name
    count_name: str  # the name count_by takes for it (besides endpoint and tool suffix)
    noun: tuple[str, str]  # (singular, plural) of what one record is
    label: str  # plain label in answers
    source: str  # dataset named in provenance: device/<endpoint>, or gudid
    ids: tuple[str, ...] = ()  # row keys that identify a record
    row: dict[str, str] = field(default_factory=dict)  # row key -> dotted record path (first value shown)
    date: str = ""  # the date field date_from/date_to apply to by default
    dates: dict[str, str] = field(default_factory=dict)  # a person's verb ("received") -> date field
    product_code: str | None = None  # exact field for product codes
    firm: tuple[str, ...] = ()  # text fields holding the firm's name (exact sub-fields exist)
    country: str | None = None
    state: str | None = None
    text: tuple[str, ...] = ()  # text fields for free text
    names: tuple[str, ...] = ()  # the dataset's own device-name fields (brand, generic, trade)
    own: dict[str, str] = field(default_factory=dict)  # dataset filters: argument -> exact field
    counts: dict[str, str] = field(default_factory=dict)  # count_by names -> field
    id_filters: dict[str, str] = field(default_factory=dict)  # record number a question names -> its filter here
    submissions: str = ""  # where resolve_device reads submission numbers (if it does)
    device_words: str = ""  # what resolve_device matches device words against (if it does)

    @property
    def openfda(self) -> bool:
        """True for the openFDA endpoints searched through the local API."""
        return self.source.startswith("device/")


DATASETS: tuple[Spec, ...] = (
    Spec(
        endpoint="event",
        tool="search_events",
        count_name="events",
        noun=("adverse event report", "adverse event reports"),
        label="adverse event reports (MAUDE)",
        source="device/event",
        ids=("mdr_report_key",),
        row={
            "mdr_report_key": "mdr_report_key",
            "report_number": "report_number",
            "date_received": "date_received",
            "date_of_event": "date_of_event",
            "event_type": "event_type",
            "product_code": "device.device_report_product_code",
            "brand_name": "device.brand_name",
            "generic_name": "device.generic_name",
            "manufacturer": "device.manufacturer_d_name",
            "device_problems": "product_problems",
            "regulation_number": "device.openfda.regulation_number",
            "device_class": "device.openfda.device_class",
        },
        date="date_received",
        dates={"received": "date_received", "occurred": "date_of_event", "reported": "date_received"},
        product_code="device.device_report_product_code.exact",
        firm=("device.manufacturer_d_name", "manufacturer_name"),
        country="device.manufacturer_d_country.exact",
        state="device.manufacturer_d_state.exact",
        text=("mdr_text.text",),
        names=("device.brand_name", "device.generic_name"),
        own={
            "event_type": "event_type.exact",
            "patient_problem": "patient.patient_problems.exact",
            "device_problem": "product_problems.exact",
            "brand_name": "device.brand_name.exact",
            "mdr_report_key": "mdr_report_key",
            "report_number": "report_number.exact",
            "patient_sex": "patient.patient_sex",
            "patient_age": "patient.patient_age.exact",
            "lot_number": "device.lot_number.exact",
        },
        counts={
            "product_code": "device.device_report_product_code.exact",
            "manufacturer": "device.manufacturer_d_name.exact",
            "event_type": "event_type.exact",
            "patient_problem": "patient.patient_problems.exact",
            "device_problem": "product_problems.exact",
            "country": "device.manufacturer_d_country.exact",
            "brand_name": "device.brand_name.exact",
            "device_class": "device.openfda.device_class",
            "patient_age": "patient.patient_age.exact",
        },
        id_filters={"mdr_report_key": "mdr_report_key", "report_number": "report_number"},
    ),
    Spec(
        endpoint="recall",
        tool="search_recalls",
        count_name="recalls",
        noun=("recalled product", "recalled products"),
        label="recalls",
        source="device/recall",
        ids=("product_res_number",),
        row={
            "product_res_number": "product_res_number",
            "res_event_number": "res_event_number",
            "event_date_initiated": "event_date_initiated",
            "termination_date": "event_date_terminated",
            "recall_status": "recall_status",
            "recalling_firm": "recalling_firm",
            "product_code": "product_code",
            "recall_class": "",
            "reason_for_recall": "reason_for_recall",
            "root_cause_description": "root_cause_description",
            "k_numbers": "k_numbers",
            "pma_numbers": "pma_numbers",
            "product_quantity": "product_quantity",
            "city": "city",
            "code_info": "code_info",
        },
        date="event_date_initiated",
        dates={
            "initiated": "event_date_initiated",
            "posted": "event_date_posted",
            "terminated": "event_date_terminated",
        },
        product_code="product_code",
        firm=("recalling_firm",),
        country="country",
        state="state",
        text=("reason_for_recall", "product_description", "action"),
        names=("product_description",),
        own={
            "recall_status": "recall_status",
            "recall_class": "recall_class",
            "root_cause": "root_cause_description.exact",
            "device_class": "openfda.device_class",
            "k_number": "k_numbers",
            "pma_number": "pma_numbers",
            "product_res_number": "product_res_number",
            "event_id": "res_event_number",
            "city": "city",
        },
        counts={
            "product_code": "product_code",
            "manufacturer": "recalling_firm.exact",
            "recall_status": "recall_status",
            "recall_class": "recall_class",
            "root_cause": "root_cause_description.exact",
            "country": "country",
            "state": "state",
            "device_class": "openfda.device_class",
        },
        id_filters={
            "k_number": "k_number",
            "pma_number": "pma_number",
            "product_res_number": "product_res_number",
            "event_id": "event_id",
        },
    ),
    Spec(
        endpoint="enforcement",
        tool="search_enforcement",
        count_name="enforcement",
        noun=("enforcement report", "enforcement reports"),
        label="enforcement reports",
        source="device/enforcement",
        ids=("recall_number",),
        row={
            "recall_number": "recall_number",
            "event_id": "event_id",
            "report_date": "report_date",
            "recall_initiation_date": "recall_initiation_date",
            "classification": "classification",
            "status": "status",
            "recalling_firm": "recalling_firm",
            "reason_for_recall": "reason_for_recall",
            "product_description": "product_description",
            "termination_date": "termination_date",
            "product_quantity": "product_quantity",
            "code_info": "code_info",
            "city": "city",
        },
        date="report_date",
        dates={
            "reported": "report_date",
            "initiated": "recall_initiation_date",
            "classified": "center_classification_date",
            "terminated": "termination_date",
        },
        firm=("recalling_firm",),
        country="country.exact",
        state="state.exact",
        text=("reason_for_recall", "product_description", "code_info"),
        names=("product_description",),
        own={
            "recall_class": "classification.exact",
            "status": "status.exact",
            "voluntary_mandated": "voluntary_mandated.exact",
            "recall_number": "recall_number",
            "event_id": "event_id",
            "city": "city",
        },
        counts={
            "recall_class": "classification.exact",
            "manufacturer": "recalling_firm.exact",
            "status": "status.exact",
            "country": "country.exact",
            "state": "state.exact",
        },
        id_filters={"product_res_number": "recall_number", "event_id": "event_id"},
    ),
    Spec(
        endpoint="510k",
        tool="search_510k",
        count_name="510k",
        noun=("510(k) clearance", "510(k) clearances"),
        label="510(k) clearances",
        source="device/510k",
        ids=("k_number",),
        row={
            "k_number": "k_number",
            "decision_date": "decision_date",
            "applicant": "applicant",
            "device_name": "device_name",
            "product_code": "product_code",
            "decision_code": "decision_code",
            "clearance_type": "clearance_type",
            "country_code": "country_code",
            "regulation_number": "openfda.regulation_number",
            "date_received": "date_received",
            "city": "city",
        },
        date="decision_date",
        dates={"decided": "decision_date", "received": "date_received"},
        product_code="product_code",
        firm=("applicant",),
        country="country_code",
        state="state.exact",
        text=("device_name",),
        names=("device_name",),
        own={
            "decision_code": "decision_code.exact",
            "clearance_type": "clearance_type.exact",
            "advisory_committee": "advisory_committee.exact",
            "third_party": "third_party_flag",
            "k_number": "k_number.exact",
            "city": "city",
            "device_class": "openfda.device_class",  # the class of the 510(k)'s product code, as openFDA adds it
        },
        counts={
            "product_code": "product_code",
            "manufacturer": "applicant.exact",
            "decision_code": "decision_code.exact",
            "clearance_type": "clearance_type.exact",
            "country": "country_code",
            "state": "state.exact",
            "advisory_committee": "advisory_committee_description.exact",
            "device_class": "openfda.device_class",
        },
        id_filters={"k_number": "k_number"},
        submissions="device/510k k_number",
    ),
    Spec(
        endpoint="pma",
        tool="search_pma",
        count_name="pma",
        noun=("PMA record", "PMA records"),
        label="PMA approvals",
        source="device/pma",
        ids=("pma_number", "supplement_number"),
        row={
            "pma_number": "pma_number",
            "supplement_number": "supplement_number",
            "decision_date": "decision_date",
            "applicant": "applicant",
            "trade_name": "trade_name",
            "generic_name": "generic_name",
            "product_code": "product_code",
            "decision_code": "decision_code",
            "supplement_type": "supplement_type",
            "supplement_reason": "supplement_reason",
            "date_received": "date_received",
            "city": "city",
        },
        date="decision_date",
        dates={"decided": "decision_date", "received": "date_received"},
        product_code="product_code",
        firm=("applicant",),
        state="state",
        text=("trade_name", "generic_name"),
        names=("trade_name", "generic_name"),
        own={
            "decision_code": "decision_code",
            "supplement_type": "supplement_type.exact",
            "supplement_words": "supplement_type",
            "advisory_committee": "advisory_committee",
            "pma_number": "pma_number",
            "supplement_number": "supplement_number",
            "supplement": "supplement_number",
            "city": "city",
        },
        counts={
            "product_code": "product_code",
            "manufacturer": "applicant.exact",
            "decision_code": "decision_code",
            "supplement_type": "supplement_type.exact",
            "state": "state",
            "device_class": "openfda.device_class",
        },
        id_filters={"pma_number": "pma_number", "supplement_number": "supplement_number"},
        submissions="device/pma pma_number, supplement_number",
    ),
    Spec(
        endpoint="classification",
        tool="search_classifications",
        count_name="classification",
        noun=("product code", "product codes"),
        label="classification (product codes)",
        source="device/classification",
        ids=("product_code",),
        row={
            "product_code": "product_code",
            "device_name": "device_name",
            "device_class": "device_class",
            "regulation_number": "regulation_number",
            "medical_specialty": "medical_specialty_description",
            "review_panel": "review_panel",
            "implant_flag": "implant_flag",
            "life_sustain_support_flag": "life_sustain_support_flag",
            "gmp_exempt_flag": "gmp_exempt_flag",
        },
        product_code="product_code",
        text=("device_name", "definition"),
        names=("device_name",),
        own={
            "device_class": "device_class",
            "regulation_number": "regulation_number.exact",
            "medical_specialty": "medical_specialty",
            "review_panel": "review_panel",
            "implant_flag": "implant_flag",
            "life_sustain_support_flag": "life_sustain_support_flag",
            "submission_type": "submission_type_id",
            "gmp_exempt": "gmp_exempt_flag",
        },
        counts={
            "device_class": "device_class",
            "medical_specialty": "medical_specialty_description.exact",
            "review_panel": "review_panel",
            "submission_type": "submission_type_id",
            "regulation_number": "regulation_number.exact",
        },
        id_filters={"regulation_number": "regulation_number"},
        device_words="classification device names and definitions",
    ),
    Spec(
        endpoint="udi",
        tool="search_udi",
        count_name="udi",
        noun=("UDI device record", "UDI device records"),
        label="UDI device records (openFDA)",
        source="device/udi",
        ids=("public_device_record_key",),
        row={
            "public_device_record_key": "public_device_record_key",
            "primary_di": "identifiers.id",
            "brand_name": "brand_name",
            "version_or_model_number": "version_or_model_number",
            "catalog_number": "catalog_number",
            "company_name": "company_name",
            "product_code": "product_codes.code",
            "publish_date": "publish_date",
            "gmdn_term": "gmdn_terms.name",
            "premarket_submissions": "premarket_submissions.submission_number",
            "commercial_distribution_status": "commercial_distribution_status",
            "labeler_duns_number": "labeler_duns_number",
        },
        date="publish_date",
        dates={"published": "publish_date"},
        product_code="product_codes.code",
        firm=("company_name",),
        text=("brand_name", "device_description", "gmdn_terms.name"),
        names=("brand_name", "device_description", "gmdn_terms.name", "version_or_model_number"),
        own={
            "di": "identifiers.id",
            "is_rx": "is_rx",
            "is_otc": "is_otc",
            "is_kit": "is_kit",
            "is_sterile": "sterilization.is_sterile",
            "issuing_agency": "identifiers.issuing_agency",
            "has_serial_number": "has_serial_number",
            "has_lot_or_batch_number": "has_lot_or_batch_number",
            "is_single_use": "is_single_use",
            "is_labeled_as_nrl": "is_labeled_as_nrl",
            "is_labeled_as_no_nrl": "is_labeled_as_no_nrl",
            "mri_safety": "mri_safety.exact",
            "brand_name": "brand_name.exact",
            "labeler_duns_number": "labeler_duns_number",
        },
        counts={
            "product_code": "product_codes.code",
            "manufacturer": "company_name.exact",
            "mri_safety": "mri_safety.exact",
            "gmdn_term": "gmdn_terms.name.exact",
            "is_rx": "is_rx",
            "brand_name": "brand_name.exact",
        },
        id_filters={"di": "di"},
        device_words="openFDA UDI (GUDID) brand names, GMDN terms and device descriptions; GUDID device counts",
    ),
    Spec(
        endpoint="covid19serology",
        tool="search_serology",
        count_name="serology",
        noun=("serology test result", "serology test results"),
        label="serology test evaluations for COVID-19",
        source="device/covid19serology",
        ids=("sample_id", "manufacturer"),
        row={
            "sample_id": "sample_id",
            "manufacturer": "manufacturer",
            "device": "device",
            "panel": "panel",
            "date_performed": "date_performed",
            "group": "group",
            "antibody_truth": "antibody_truth",
            "antibody_agree": "antibody_agree",
            "igg_result": "igg_result",
            "igm_result": "igm_result",
            "lot_number": "lot_number",
        },
        date="date_performed",
        dates={"performed": "date_performed"},
        firm=("manufacturer",),
        text=("device",),
        names=("device",),
        own={
            "antibody_truth": "antibody_truth",
            "antibody_agree": "antibody_agree",
            "igg_agree": "igg_agree",
            "igm_agree": "igm_agree",
            "iga_agree": "iga_agree",
            "group": "group",
            "panel": "panel",
            "type": "type",
            "igg_result": "igg_result",
            "igm_result": "igm_result",
            "control": "control",
            "sample_id": "sample_id",
            "lot_number": "lot_number",
        },
        counts={
            "manufacturer": "manufacturer.exact",
            "device": "device.exact",
            "antibody_truth": "antibody_truth",
            "antibody_agree": "antibody_agree",
            "panel": "panel",
            "group": "group",
            "type": "type",
        },
    ),
    Spec(
        endpoint="registrationlisting",
        tool="search_registrations",
        count_name="registrations",
        noun=("registered establishment", "registered establishments"),
        label="establishment registrations",
        source="device/registrationlisting",
        ids=("registration_number", "fei_number"),
        row={
            "registration_number": "registration.registration_number",
            "fei_number": "registration.fei_number",
            "name": "registration.name",
            "owner_operator": "registration.owner_operator.firm_name",
            "city": "registration.city",
            "state_code": "registration.state_code",
            "iso_country_code": "registration.iso_country_code",
            "establishment_type": "establishment_type",
            "product_codes": "products.product_code",
            "proprietary_name": "proprietary_name",
            "reg_expiry_year": "registration.reg_expiry_date_year",
            "pma_number": "pma_number",
            "k_number": "k_number",
        },
        date="products.created_date",
        product_code="products.product_code",
        firm=("registration.name", "registration.owner_operator.firm_name"),
        country="registration.iso_country_code",
        state="registration.state_code",
        text=("proprietary_name", "registration.name"),
        names=("proprietary_name",),
        own={
            "establishment_type": "establishment_type.exact",
            "establishment_words": "establishment_type",
            "registration_number": "registration.registration_number",
            "fei_number": "registration.fei_number",
            "owner_operator_number": "registration.owner_operator.owner_operator_number",
            "status_code": "registration.status_code",
            "city": "registration.city",
            "k_number": "k_number",
            "pma_number": "pma_number",
        },
        counts={
            "product_code": "products.product_code",
            "country": "registration.iso_country_code",
            "state": "registration.state_code",
            "establishment_type": "establishment_type.exact",
            "manufacturer": "registration.owner_operator.firm_name.exact",
        },
        id_filters={"k_number": "k_number", "pma_number": "pma_number"},  # the premarket number a listing holds
    ),
    Spec(
        endpoint="gudid",
        tool="search_gudid",
        count_name="gudid",
        noun=("AccessGUDID device record", "AccessGUDID device records"),
        label="AccessGUDID device records (GUDID release)",
        source="gudid",
        id_filters={"di": "di"},
        submissions="gudid_premarket_submissions",
        device_words="AccessGUDID brand names, GMDN terms and device descriptions",
    ),
)

# the openFDA endpoints, searched through the local API
SPECS: dict[str, Spec] = {s.endpoint: s for s in DATASETS if s.openfda}

# derived maps (dataset key -> ...)
SEARCHER: dict[str, str] = {s.endpoint: s.tool for s in DATASETS}
COUNT_NAME: dict[str, str] = {s.endpoint: s.count_name for s in DATASETS}
LABEL: dict[str, str] = {s.endpoint: s.label for s in DATASETS}
NOUN: dict[str, tuple[str, str]] = {s.endpoint: s.noun for s in DATASETS}
SOURCE: dict[str, str] = {s.endpoint: s.source for s in DATASETS}
DATE_FIELDS: dict[str, dict[str, str]] = {s.endpoint: s.dates for s in DATASETS if s.dates}
NAME_FIELDS: dict[str, tuple[str, ...]] = {s.endpoint: s.names for s in DATASETS if s.names}
SUBMISSION_FIELD: dict[str, str] = {s.endpoint: s.submissions for s in DATASETS if s.submissions}
DEVICE_WORDS: dict[str, str] = {s.endpoint: s.device_words for s in DATASETS if s.device_words}
# record-number filters: the number a question names -> {dataset: that dataset's searcher filter}
ID_FILTERS: dict[str, dict[str, str]] = {
    number: {s.endpoint: s.id_filters[number] for s in DATASETS if number in s.id_filters}
    for number in dict.fromkeys(n for s in DATASETS for n in s.id_filters)
}
# every name count_by takes for an openFDA endpoint: its key, its count name and its tool's suffix
DATASET_NAMES: dict[str, str] = {
    n: s.endpoint for s in SPECS.values() for n in (s.endpoint, s.count_name, s.tool.removeprefix("search_"))
}
