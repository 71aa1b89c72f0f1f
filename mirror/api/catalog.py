"""Which fields each endpoint can search, count and sort, and how each is typed (from openFDA's mappings).

`fields.json` (see FIELDS.md) lists every leaf path per endpoint with its Elasticsearch type: `text`
(matched word by word, case-insensitively; with `exact` it also has a whole-value `.exact` sub-field),
`keyword` (whole value, case-sensitive) or `date`. A name a request uses resolves to a `FieldRef`, or to
None when the endpoint has no such field: the API then answers as Elasticsearch does (no matches, or
nothing to count), never with an error that leaks internals.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

__all__ = ["FieldRef", "Catalog", "catalog", "ARRAYS", "SAFE_PATH"]

# Arrays of objects inside records (leaf lists such as openfda.fei_number[] need no entry: values are
# flattened wherever they occur). A field path through one of these matches if any element matches.
ARRAYS: dict[str, tuple[str, ...]] = {
    "event": ("device", "patient", "mdr_text"),
    "udi": (
        "identifiers",
        "product_codes",
        "gmdn_terms",
        "customer_contacts",
        "device_sizes",
        "storage",
        "premarket_submissions",
    ),
    "registrationlisting": ("products",),
}

SAFE_PATH = re.compile(r"^[A-Za-z0-9_@]+(\.[A-Za-z0-9_@]+)*$")
NUMERIC = ("integer", "long", "float", "double", "short", "byte")


@dataclass(frozen=True)
class FieldRef:
    path: str  # dotted path in the record, without `.exact`
    type: str  # text | keyword | date | integer | ... (as mapped)
    exact: bool  # the request asked for the `.exact` sub-field
    has_exact: bool  # the mapping has a `.exact` sub-field

    @property
    def whole_value(self) -> bool:
        """Matched and counted as whole values (keyword, `.exact`, numbers, booleans)."""
        return self.exact or self.type != "text"

    @property
    def sortable(self) -> bool:
        return self.type != "text" or self.exact

    @property
    def json_path(self) -> str:
        return "$." + self.path


class Catalog:
    def __init__(self, fields: dict[str, dict[str, dict]]) -> None:
        self.fields = {
            ep: {p: v for p, v in spec.items() if SAFE_PATH.match(p)}
            for ep, spec in fields.items()
            if not ep.startswith("_")
        }

    def endpoints(self) -> list[str]:
        return sorted(self.fields)

    def resolve(self, endpoint: str, name: str) -> FieldRef | None:
        """The field a request names (`device.brand_name`, `brand_name.exact`), or None if it does not exist.

        `x.exact` on a field without an exact sub-field does not exist either (openFDA: "Nothing to count").
        """
        spec = self.fields.get(endpoint, {})
        if name in spec:
            f = spec[name]
            return FieldRef(name, f.get("type", "keyword"), False, bool(f.get("exact")))
        if name.endswith(".exact"):
            base = name.removesuffix(".exact")
            b = spec.get(base)
            if b and b.get("exact"):
                return FieldRef(base, b.get("type", "keyword"), True, True)
        return None

    def dates(self, endpoint: str) -> list[str]:
        return [p for p, f in self.fields.get(endpoint, {}).items() if f.get("type") == "date"]


@lru_cache(maxsize=1)
def catalog() -> Catalog:
    """The packaged catalog (mirror/api/fields.json)."""
    return Catalog(json.loads(resources.files(__package__).joinpath("fields.json").read_text(encoding="utf-8")))
