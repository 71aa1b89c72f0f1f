"""resolve_location: a country, US state or region to the establishments registered there, with counts."""

from __future__ import annotations

from urllib.parse import quote_plus

from pydantic import BaseModel, ConfigDict, Field

from mirror.lookup.places import (
    MAX_TEXT,
    ROW_FIELDS,
    DeviceCodes,
    Establishments,
    Place,
    device_codes,
    establishments,
    openfda_search,
    read_place,
)

from .base import Provenance, ToolError, ToolResult
from .context import ResolvedLocation, ToolContext
from .registry import tool
from .specs import SOURCE

__all__ = ["ResolveLocationArgs", "resolve_location", "VALID_FORMS"]

DATASET = SOURCE["registrationlisting"]
VALID_FORMS = (
    "a country name or ISO 3166-1 code ('Germany', 'DE', 'DEU'), a US state name or USPS code "
    "('Texas', 'TX', 'CA, USA', 'US-CA'), or a region ('EU', 'EEA')"
)
MAX_CODES_SHOWN = 8


class ResolveLocationArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")
    location: str = Field(
        min_length=1,
        max_length=MAX_TEXT,
        description="A country, US state or region: name or code ('Germany', 'DE', 'DEU', 'UK', "
        "'California', 'TX', 'EU'). Two-letter codes that are both a country and a "
        "state (CA, IN, DE, ID, PA, GA, AL, ...) need context: 'CA, USA', 'state of "
        "IN', 'IN (country)'",
    )
    device_type: str | None = Field(
        None,
        max_length=MAX_TEXT,
        description="Only establishments listing these products: product codes "
        "('DXY' or 'DXY, LZG') or words of the device name ('infusion pump')",
    )


@tool("resolve_location", ResolveLocationArgs, "resolver")
def resolve_location(ctx: ToolContext, args: ResolveLocationArgs) -> ToolResult:
    """Find the medical-device establishments registered with FDA in a country, US state or region (EU, EEA), optionally
    only those listing a device type: the full count, counts by establishment type (manufacturer, contract sterilizer,
    ...) and the establishments with registration and FEI numbers. An ambiguous code such as 'CA' (Canada or California)
    returns both readings with their counts instead of guessing.

    Rows: registration_number, fei_number, name, city, state_code, iso_country_code, establishment_type. A resolved
    place is remembered for later searches.
    """
    try:
        reading = read_place(args.location)
    except ValueError as e:
        raise ToolError(f"resolve_location: {e}; give {VALID_FORMS}") from None
    if not reading.places:
        hint = f"; did you mean {', '.join(reading.suggestions)}?" if reading.suggestions else ""
        raise ToolError(f"resolve_location: unknown location {args.location[:80]!r}{hint}; give {VALID_FORMS}")
    devices = _devices(ctx, args.device_type)
    codes = devices.codes if devices else None
    notes = list(reading.notes) + (_device_notes(devices) if devices else [])
    if len(reading.places) > 1:
        return _ambiguous(ctx, args, reading.places, codes, notes)
    place = reading.places[0]
    found = establishments(ctx.api, place, codes, ctx.row_cap)
    if found.missing:
        notes.append("the mirror has no establishment registrations: run `mirror sync --only registrationlisting`")
    else:
        ctx.resolved.location = ResolvedLocation(kind=place.kind, code=place.code, name=place.name)
    notes.insert(0, _summary(found))
    rows = [{k: r[k] for k in ROW_FIELDS} for r in found.rows]
    return ToolResult(
        tool="resolve_location",
        total=found.total,
        rows=rows,
        truncated=found.total > len(rows),
        id_fields=["registration_number", "fei_number"],
        notes=notes,
        provenance=[_provenance(ctx, place, codes, args)],
    )


def _devices(ctx: ToolContext, device_type: str | None) -> DeviceCodes | None:
    if device_type is None or not device_type.strip():
        return None
    return device_codes(ctx.api, device_type)


def _device_notes(d: DeviceCodes) -> list[str]:
    shown = ", ".join(f"{c} ({d.names.get(c, 'unknown')})" for c in d.codes[:MAX_CODES_SHOWN])
    more = f" and {len(d.codes) - MAX_CODES_SHOWN} more" if len(d.codes) > MAX_CODES_SHOWN else ""
    if not d.codes:
        return [
            f"device_type {d.text!r}: no product code's device name holds these words, so no establishment "
            "matches; use resolve_device to find product codes"
        ]
    how = "device names holding these words" if d.by_words else "product codes"
    notes = [f"device_type {d.text!r} = {how}: {shown}{more}"]
    if d.unknown:
        notes.append(f"{', '.join(d.unknown)}: not a product code in the mirror's classification or listings")
    return notes


def _summary(found: Establishments) -> str:
    p = found.place
    where = {
        "country": f"iso_country_code {p.code}",
        "region": f"iso_country_code in {', '.join(p.countries)}",
        "us_state": f"iso_country_code US, state_code {p.code}"
        + (f" (or iso_country_code {p.code})" if p.countries else ""),
    }[p.kind]
    types = "; ".join(f"{t} {n}" for t, n in found.by_type) or "none"
    return f"location: {p.label()} = {where}; {found.total} establishments; by establishment type: {types}"


def _ambiguous(
    ctx: ToolContext, args: ResolveLocationArgs, places: list[Place], codes: list[str] | None, notes: list[str]
) -> ToolResult:
    counts = [establishments(ctx.api, p, codes, 0) for p in places]
    rows = [
        {
            "reading": p.label(),
            "kind": p.kind,
            "code": p.code,
            "name": p.name,
            "establishments": e.total,
            "by_type": [f"{t} {n}" for t, n in e.by_type],
        }
        for p, e in zip(places, counts)
    ]
    readings = " or ".join(f"{r['reading']}: {r['establishments']} establishments" for r in rows)
    notes.insert(
        0,
        f"AMBIGUOUS: {args.location!r} may be {readings}. Nothing was chosen and the location context "
        "is unchanged; call again with the name, or with context such as 'CA, USA' or 'IN (country)'",
    )
    if any(e.missing for e in counts):
        notes.append("the mirror has no establishment registrations: run `mirror sync --only registrationlisting`")
    return ToolResult(
        tool="resolve_location",
        total=len(rows),
        rows=rows,
        id_fields=["code"],
        notes=notes,
        provenance=[_provenance(ctx, p, codes, args) for p in places],
    )


def _provenance(ctx: ToolContext, place: Place, codes: list[str] | None, args: ResolveLocationArgs) -> Provenance:
    return Provenance(
        dataset=DATASET,
        as_of=ctx.api.as_of("registrationlisting"),
        query="search=" + quote_plus(openfda_search(place, codes), safe=":[]\"()*,/'@.-_"),
        params={"location": args.location, "device_type": args.device_type},
    )
