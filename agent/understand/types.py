"""The typed reading of a question: what it asks (datasets, measure, filters, dates) and how sure the reading is."""

from __future__ import annotations

from datetime import date
from typing import Literal

from pydantic import BaseModel, Field

__all__ = [
    "Measure",
    "Code",
    "DeviceFilter",
    "FirmFilter",
    "PlaceFilter",
    "Filter",
    "Side",
    "Choice",
    "Clarification",
    "Interpretation",
    "LastResult",
]

Measure = Literal["count", "list", "trend", "top", "compare", "lookup"]


class Code(BaseModel):
    """A product code with its device name and the records it holds in the dataset asked about (None: not counted)."""

    code: str
    name: str = ""
    device_class: str = ""
    records: int | None = None


class DeviceFilter(BaseModel):
    """A device named in the question: its product codes, or the dataset's own name fields when codes find little."""

    words: str  # the question's words
    codes: list[Code] = Field(default_factory=list)
    text: str = ""  # searched in the dataset's brand / generic / device-name fields
    path: Literal["given", "codes", "names", "codes+names"] = "codes"
    matched: int = 0  # product codes the words match in all (a broad term matches many)
    how: str = ""  # said in the answer: which path found what
    found: int | None = None  # names path: records whose own names hold the words (None: not counted)

    def codes_shown(self, n: int = 4) -> list[str]:
        """The first product codes as a person reads them: 'OUW (Infant Positioner)'."""
        return [f"{c.code} ({c.name})" if c.name else c.code for c in self.codes[:n]]


class FirmFilter(BaseModel):
    words: str
    name: str  # the firm's name as the data spells it most
    key: str = ""
    variants: list[str] = Field(default_factory=list)
    records: int = 0
    exact: bool = True
    match: Literal["exact", "leading", "spelling", "those", "entity"] = "exact"  # entity: these spellings only
    by_dataset: dict[str, int] = Field(default_factory=dict)  # records naming the firm, per dataset


class PlaceFilter(BaseModel):
    words: str
    kind: str  # country | us_state | region
    code: str
    name: str
    countries: list[str] = Field(default_factory=list)  # for a region
    exclude: bool = False  # every place but this one ("outside the US", "foreign")


class Filter(BaseModel):
    """A dataset field filter: event type, recall class, device class, record number, supplement..."""

    field: str  # searcher filter name (event_type, recall_class, k_number, ...)
    value: str | list[str]
    label: str  # how a person reads it ("deaths", "class III", "K200606")
    words: str = ""


class Side(BaseModel):
    """One side of a comparison: its own firm / device (or product code) / place / period."""

    label: str
    firm: FirmFilter | None = None
    device: DeviceFilter | None = None
    place: PlaceFilter | None = None
    date_from: date | None = None
    date_to: date | None = None
    filters: list[Filter] = Field(default_factory=list)  # this side's own field values ("serum" vs "plasma")


class Choice(BaseModel):
    label: str  # what the person reads
    patch: dict = Field(default_factory=dict)  # how the reading changes when picked (see interpret.apply_choice)


class Clarification(BaseModel):
    question: str
    choices: list[Choice]


class LastResult(BaseModel):
    """What the previous answer found, for "those" / "them": its codes, firms or records."""

    dataset: str = ""
    codes: list[str] = Field(default_factory=list)
    firms: list[str] = Field(default_factory=list)
    records: list[str] = Field(default_factory=list)
    place: PlaceFilter | None = None
    kind: Literal["", "codes", "firms", "records"] = ""
    reading: dict = Field(default_factory=dict)  # the previous Interpretation, for "just 2009?"
    query: dict = Field(default_factory=dict)  # the previous openFDA request ({"endpoint", "search"}), narrowed by
    # a follow-up of clauses ("AND NOT company_name:...")


class Interpretation(BaseModel):
    question: str = ""
    datasets: list[str] = Field(default_factory=list)  # event, recall, enforcement, 510k, pma, classification...
    measure: Measure = "list"
    by: str | None = None  # trend: year | month; top: the field counted
    top_n: int = 10
    field: str | None = None  # lookup: the field asked for
    device: DeviceFilter | None = None
    firm: FirmFilter | None = None
    place: PlaceFilter | None = None
    filters: list[Filter] = Field(default_factory=list)
    date_from: date | None = None
    date_to: date | None = None
    date_words: str = ""
    date_field: str = ""  # which date: received, initiated, ... ("": default)
    supplements: Literal["originals", "supplements", "all"] = "all"  # PMA: what was counted
    sides: list[Side] = Field(default_factory=list)  # compare: one search per side
    followup: Literal["", "codes", "firms", "records", "keys"] = ""
    text: str = ""  # free text searched (narratives, reasons)
    confidence: float = 1.0
    unexplained: list[str] = Field(default_factory=list)  # words no reading used
    notes: list[str] = Field(default_factory=list)
    understood: bool = True
    distinct: bool = False  # top by manufacturer, said as the number of firms ("how many firms had recalls?")
    share: bool = False  # compare: the first side's share of the second (all the records), said as a percentage
    exclude_firm: bool = False  # the firm is left out: every record but the firm's ("PMAs other than Medtronic")
    cannot: str = ""  # what the question asks that the searches cannot do, said instead of a figure
    confirmed: bool = False  # the person confirmed this reading when asked about its zero: the zero is said

    def codes(self) -> list[str]:
        return [c.code for c in self.device.codes] if self.device else []

    def narrowed(self) -> bool:
        """The reading narrows its datasets by something said: a device, firm, place, filter, side or period."""
        return bool(
            self.device or self.firm or self.place or self.filters or self.sides or self.date_from or self.date_to
        )
