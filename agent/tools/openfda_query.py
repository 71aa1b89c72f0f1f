"""The openFDA query language from typed filters: `SearchArgs`, `build_search` (the `search` value), quoting.

A filter a dataset cannot apply is an `UnsupportedFilter` naming which filters it takes; nothing is dropped silently.
"""

from __future__ import annotations

import re
from datetime import date
from urllib.parse import quote_plus

from pydantic import BaseModel, ConfigDict, Field, field_validator

from mirror.lookup.firms import LEGAL_WORDS

from .base import ToolError
from .context import ToolContext
from .specs import Spec

__all__ = [
    "SearchArgs",
    "UnsupportedFilter",
    "build_search",
    "date_of",
    "name_variants",
    "name_stem",
    "query_string",
    "or_values",
    "text_words",
]


class UnsupportedFilter(ToolError):
    """Filters a dataset cannot apply; `.filters` names them (the agent retries without them and says so)."""

    def __init__(self, message: str, filters: list[str]) -> None:
        super().__init__(message)
        self.filters = filters


_CODE = re.compile(r"^[A-Z]{3}$")
_SAFE = re.compile(r"[^\w\s.,'/@%:+-]", re.UNICODE)  # characters a quoted openFDA value may carry


def date_of(spec: Spec, kind: str | None) -> str:
    """The date field a range applies to: the one named by `kind` when the dataset has it, else the default."""
    return spec.dates.get(kind or "", spec.date)


def name_variants(word: str) -> list[str]:
    """A word and its singular or plural ("pumps" -> pumps, pump; "battery" -> battery, batteries)."""
    w = word.lower()
    out = [w]
    if w.endswith("ies") and len(w) > 4:
        out.append(w[:-3] + "y")
    elif w.endswith(("ches", "shes", "sses", "xes")):
        out.append(w[:-2])
    elif w.endswith("s") and not w.endswith(("ss", "us", "is")) and len(w) > 3:
        out.append(w[:-1])
    elif w.endswith("y") and len(w) > 3 and w[-2] not in "aeiou":
        out.append(w[:-1] + "ies")
    elif not w.endswith("s"):
        out.append(w + ("es" if w.endswith(("ch", "sh", "x", "ss")) else "s"))
    return out


_STEM_ENDS = (
    "izations",
    "ization",
    "ations",
    "ation",
    "ators",
    "ator",
    "izers",
    "izer",
    "ions",
    "ion",
    "ings",
    "ing",
    "ers",
    "er",
    "ors",
    "or",
    "ed",
)


def name_stem(word: str) -> list[str]:
    """A prefix search for a long word's stem ("stimulators" -> stimulat*, "catheterization" -> catheter*), or []."""
    w = word.lower()
    if not w.isalpha() or len(w) < 8:
        return []
    for end in _STEM_ENDS:
        if w.endswith(end) and len(w) - len(end) >= 6:
            return [w[: len(w) - len(end)] + "*"]
    return []


def _quote(value: str) -> str:
    """A value as an openFDA quoted phrase; characters the API refuses are dropped (then said in a note)."""
    v = _SAFE.sub(" ", value).replace('"', " ")
    return '"' + " ".join(v.split()) + '"'


class SearchArgs(BaseModel):
    """Filters shared by the searchers (each dataset says which it cannot apply)."""

    model_config = ConfigDict(extra="forbid")
    product_codes: list[str] | None = Field(None, description='FDA product codes, e.g. ["DXY", "LWS"]')
    manufacturer: str | list[str] | None = Field(
        None, description="Firm name or its variants (from resolve_manufacturer); words match the firm fields"
    )
    manufacturer_exact: bool = Field(
        False,
        description="Match the manufacturer names exactly as spelled (one company's spellings), not by their words",
    )
    country: str | list[str] | None = Field(None, description="ISO 3166-1 alpha-2 country code(s), e.g. US, DE")
    state: str | None = Field(None, description="US state code, e.g. CA")
    exclude_country: str | list[str] | None = Field(None, description="Every country but these, e.g. US (foreign)")
    exclude_state: str | None = Field(None, description="Every US state but this one")
    date_from: date | None = Field(None, description="From this date (inclusive), YYYY-MM-DD")
    date_to: date | None = Field(None, description="To this date (inclusive), YYYY-MM-DD")
    date_field: str | None = Field(
        None,
        description="Which date the range applies to: received, decided, "
        "initiated, posted, terminated, reported, classified, "
        "occurred, published (each dataset has its default)",
    )
    text: str | None = Field(None, description="Free text over the dataset's text fields (narratives for events)")
    names: str | None = Field(
        None,
        description="Words of a device name, searched in the dataset's own brand, "
        "generic, trade or device-name fields (singular and plural forms)",
    )
    filters: dict[str, str | list[str]] = Field(
        default_factory=dict, description='Dataset fields, e.g. {"event_type": "Death"}'
    )
    limit: int = Field(25, ge=0, le=1000, description="Rows to return (the total is always the full count)")
    fields: list[str] | None = Field(
        None,
        description="More record fields to read into each row, as the field catalogue names them "
        '(e.g. ["registration.owner_operator.owner_operator_number"]); each row holds them by their last part',
    )

    @field_validator("product_codes")
    @classmethod
    def _codes(cls, v: list[str] | None) -> list[str] | None:
        if v is None:
            return v
        out = []
        for code in v:
            c = str(code).strip().upper()
            if not _CODE.match(c):
                raise ValueError(
                    f"{code!r} is not a product code (three letters, e.g. DXY); "
                    "resolve_device turns device names into product codes"
                )
            out.append(c)
        return out

    @field_validator("country", "state", "exclude_country", "exclude_state")
    @classmethod
    def _place(cls, v: str | list[str] | None) -> str | list[str] | None:
        if v is None:
            return v
        codes = [str(x).strip().upper() for x in (v if isinstance(v, list) else [v])]
        for c in codes:
            if not re.fullmatch(r"[A-Z]{2}", c):
                raise ValueError(f"{c!r} is not a two-letter code; resolve_location turns place names into codes")
        return codes if isinstance(v, list) else codes[0]


def or_values(field_name: str, values: list[str]) -> str:
    return (
        "(" + " OR ".join(f"{field_name}:{_quote(v)}" for v in values) + ")"
        if len(values) > 1
        else f"{field_name}:{_quote(values[0])}"
    )


def build_search(
    spec: Spec, args: SearchArgs, ctx: ToolContext | None = None, phrase: bool = False
) -> tuple[str, list[str]]:
    """The openFDA `search` value for these filters, and notes; ToolError for a filter the dataset lacks.
    `phrase`: the text's words as one phrase (in a row), instead of all of them anywhere."""
    parts, notes, unsupported = [], [], []
    if args.product_codes:
        if spec.product_code is None:
            unsupported.append("product_codes")
        else:
            parts.append(or_values(spec.product_code, args.product_codes))
    if args.manufacturer:
        if not spec.firm:
            unsupported.append("manufacturer")
        else:
            parts.append(_firm(spec, args.manufacturer, ctx, args.manufacturer_exact))
    for name, fld in (
        ("country", spec.country),
        ("state", spec.state),
        ("exclude_country", spec.country),
        ("exclude_state", spec.state),
    ):
        value = getattr(args, name)
        if value:
            if fld is None:
                unsupported.append(name)
            elif name.startswith("exclude_"):
                bare = fld.removesuffix(".exact")
                parts.append(f"_exists_:{bare} AND NOT {or_values(fld, value if isinstance(value, list) else [value])}")
            else:
                parts.append(or_values(fld, value if isinstance(value, list) else [value]))
    if args.date_from or args.date_to:
        if not spec.date:
            unsupported.append("date_from/date_to")
        else:
            lo = args.date_from.strftime("%Y%m%d") if args.date_from else "*"
            hi = args.date_to.strftime("%Y%m%d") if args.date_to else "*"
            if args.date_from and args.date_to and args.date_from > args.date_to:
                raise ToolError(f"date_from {args.date_from} is after date_to {args.date_to}")
            parts.append(f"{date_of(spec, args.date_field)}:[{lo} TO {hi}]")
    if args.text and args.text.strip():
        words = text_words(args.text)
        if not words:
            notes.append("the text held no words to search")
        elif not spec.text:
            unsupported.append("text")
        else:
            quoted = '"' + " ".join(words) + '"' if len(words) > 1 else words[0]
            each = quoted if phrase else f"({' AND '.join(words)})"
            any_field = " OR ".join(f"{f}:{each}" for f in spec.text)
            parts.append(f"({any_field})" if len(spec.text) > 1 else any_field)
            notes.append(f"text: records with all of {words} in {', '.join(spec.text)} (phrase form: {quoted})")
    if args.names and args.names.strip():
        words = [w for w in text_words(args.names) if len(w) > 1][:6]
        fields = spec.names
        if not fields:
            unsupported.append("names")
        elif words:  # every word in one of the record's name fields (brand "NC EMERGE", generic "catheters")
            per_word = [" OR ".join(f"{f}:{v}" for f in fields for v in name_variants(w) + name_stem(w)) for w in words]
            parts.append("(" + " AND ".join(f"({e})" for e in per_word) + ")")
            notes.append(f"names: records whose {', '.join(fields)} hold {' '.join(words)}")
    for key, value in args.filters.items():
        if key == "supplement" and key in spec.own:  # original | supplement: PMA originals or supplements
            values = value if isinstance(value, list) else [value]
            if values and values != ["any"]:  # supplement numbers are S001...; an original has none (or "")
                has = f"{spec.own[key]}:S*"
                parts.append(f"NOT {has}" if values == ["original"] else has)
            continue
        if key not in spec.own:
            raise ToolError(
                f"{spec.source} has no filter {key!r}; its filters are: "
                + ", ".join(sorted(spec.own))
                + ", plus product_codes, manufacturer, country, state, "
                "date_from, date_to, text where the dataset has them"
            )
        values = value if isinstance(value, list) else [value]
        if not values:
            continue
        parts.append(or_values(spec.own[key], [str(v) for v in values]))
    if unsupported:
        raise UnsupportedFilter(
            f"{spec.source} cannot filter by {', '.join(unsupported)}; it takes: {', '.join(_supported(spec))}",
            unsupported,
        )
    return " AND ".join(parts), notes


def text_words(text: str) -> list[str]:
    """The words of a free-text filter that are searched (at most 12)."""
    return re.findall(r"\w+", text)[:12]


def _supported(spec: Spec) -> list[str]:
    out = [
        n
        for n, v in (
            ("product_codes", spec.product_code),
            ("manufacturer", spec.firm),
            ("country", spec.country),
            ("state", spec.state),
            ("date_from/date_to", spec.date),
            ("text", spec.text),
        )
        if v
    ]
    return out + [f"filters.{k}" for k in sorted(spec.own)]


def _firm(spec: Spec, manufacturer: str | list[str], ctx: ToolContext | None, exact: bool = False) -> str:
    names = [manufacturer] if isinstance(manufacturer, str) else list(manufacturer)
    if exact:  # one company's spellings, whole values only ("Dentigen GmbH", not "Dentigen Ltd.")
        return "(" + " OR ".join(f"{f}.exact:{_quote(v)}" for f in spec.firm for v in dict.fromkeys(names)) + ")"
    variants: list[str] = []
    if ctx is not None:
        for n in names:
            for firm in ctx.resolved.firms:
                if n.strip().lower() in (firm.canonical.lower(), firm.key.lower()):
                    variants += firm.variants
    clauses = []
    if variants:  # known spellings: whole-value matches, besides the words below
        clauses += [f"{f}.exact:{_quote(v)}" for f in spec.firm for v in dict.fromkeys(variants)]
    seen: set[tuple[str, ...]] = set()
    for n in names:
        words = [w for w in re.findall(r"\w+", n) if w.lower() not in LEGAL_WORDS and len(w) > 1][:8] or re.findall(
            r"\w+", n
        )[:8]
        if words and tuple(w.lower() for w in words) not in seen:  # one clause per spelling, whatever its case
            seen.add(tuple(w.lower() for w in words))
            clauses += [f"{f}:({' AND '.join(words)})" for f in spec.firm]
    if not clauses:
        raise ToolError(f"manufacturer {manufacturer!r} holds no name to search")
    return "(" + " OR ".join(clauses) + ")"


def query_string(params: list[tuple[str, str]]) -> str:
    """A URL query string as api.fda.gov takes it (spaces as `+`, the search syntax left readable)."""
    return "&".join(f"{k}={quote_plus(v, safe=_READABLE)}" for k, v in params)


_READABLE = ":[]\"()*,/'@.-_"  # noqa: E501
