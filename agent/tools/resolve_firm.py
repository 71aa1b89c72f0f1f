"""resolve_manufacturer: a company name to one canonical firm and its name variants across the datasets."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from mirror.lookup.firms import MAX_QUERY, FirmMatch, find_firm

from .base import Provenance, ToolError, ToolResult
from .context import ResolvedFirm, ToolContext
from .registry import tool
from .specs import SOURCE

__all__ = ["ResolveFirmArgs", "resolve_manufacturer"]

MAX_IDS = 8  # identifiers shown per row
MAX_OTHERS = 5  # other candidate firms named in a note
CLEAR_LEAD = 0.05  # a non-exact best match this far ahead of the next one is taken as the firm meant
_HOW = {
    "exact": "same name",
    "id": "holds that number",
    "prefix": "name starts with the query",
    "contains": "name holds the query words",
    "typo": "near spelling",
}


class ResolveFirmArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")
    query: str = Field(
        min_length=1,
        max_length=MAX_QUERY,
        description="A company name as written (any case; Inc, LLC, GmbH, punctuation and accents do "
        "not matter; a prefix or a misspelling is tolerated), or a DUNS, FEI or "
        "registration number",
    )


@tool("resolve_manufacturer", ResolveFirmArgs, "resolver")
def resolve_manufacturer(ctx: ToolContext, args: ResolveFirmArgs) -> ToolResult:
    """Find the manufacturer a company name means and every spelling of its name in the mirror: GUDID/UDI company name
    (with DUNS), registration owner/operator and establishment name (with FEI and registration numbers), recalling firm,
    510(k)/PMA applicant and MAUDE manufacturer name. Names are grouped when they differ only in case, accents,
    punctuation or legal form (Inc, LLC, GmbH, S.A., ...); other firms that also match are listed in the notes.

    Rows: one per name variant (name, dataset, field, records, ids); the firm found is remembered for later searches.
    """
    if not args.query.strip():
        raise ToolError(
            "resolve_manufacturer: query is empty; give a company name, e.g. 'Medtronic', or a DUNS/FEI number"
        )
    found = find_firm(ctx.api, args.query)
    params = {"query": args.query}
    if not found.candidates:
        return ToolResult(
            tool="resolve_manufacturer",
            total=0,
            id_fields=["name"],
            notes=_no_match(found),
            provenance=[_provenance(ctx, ds, found, params) for ds in _datasets(found, all_=True)],
        )
    rows = [
        {
            "name": v.name,
            "dataset": SOURCE.get(v.dataset, v.dataset),
            "field": v.field,
            "records": v.records,
            "ids": _ids(v.ids),
        }
        for v in found.variants
    ]
    notes = _notes(found) + [_remember(ctx, found)]
    return ToolResult(
        tool="resolve_manufacturer",
        total=len(rows),
        rows=rows[: ctx.row_cap],
        truncated=len(rows) > ctx.row_cap,
        id_fields=["name"],
        notes=notes,
        provenance=[_provenance(ctx, ds, found, params) for ds in _datasets(found)],
    )


def _remember(ctx: ToolContext, found: FirmMatch) -> str:
    """Add the firm to the resolver context when it is clearly the one meant (exact name or number, a single
    candidate, or well ahead of the next); say what happened."""
    best, others = found.candidates[0], found.candidates[1:]
    if best.match not in ("exact", "id") and others and best.score - others[0].score < CLEAR_LEAD:
        return "firm context unchanged: several firms match about equally well"
    firm = ResolvedFirm(canonical=best.name, key=best.key, variants=sorted({v.name for v in found.variants}))
    ctx.resolved.firms = [f for f in ctx.resolved.firms if f.key != firm.key] + [firm]
    return f"firm context: {firm.canonical} ({len(firm.variants)} name variants)"


def _ids(ids: tuple[str, ...]) -> list[str]:
    return list(ids[:MAX_IDS]) + ([f"+{len(ids) - MAX_IDS} more"] if len(ids) > MAX_IDS else [])


def _datasets(found: FirmMatch, all_: bool = False) -> list[str]:
    names = [s.dataset for s in found.searched] if all_ else [v.dataset for v in found.variants]
    return list(dict.fromkeys(names))


def _provenance(ctx: ToolContext, dataset: str, found: FirmMatch, params: dict) -> Provenance:
    fields = ", ".join(f"{s.table}.{s.field}" for s in found.searched if s.dataset == dataset)
    key = found.candidates[0].key if found.candidates else found.key
    return Provenance(
        dataset=SOURCE.get(dataset, dataset),
        as_of=ctx.api.as_of(dataset),
        query=f"firm names in {fields} whose normalised key is {key!r}",
        params=params,
    )


def _notes(found: FirmMatch) -> list[str]:
    best, others = found.candidates[0], found.candidates[1:]
    notes = [
        f"firm: {best.name} (key {best.key!r}, {_HOW[best.match]}; {len(found.variants)} name variants, "
        f"{best.records} records)"
    ]
    if best.match not in ("exact", "id"):
        notes.append(f"no firm is named exactly {found.query!r}; best match: {_HOW[best.match]}")
    if others:
        listed = "; ".join(f"{c.name} ({_HOW[c.match]}, {c.records} records)" for c in others[:MAX_OTHERS])
        notes.append(f"other firms matching {found.query!r}: {listed}; call again with the full name to pick one")
    if found.missing:
        notes.append(f"not in the mirror (not searched): {', '.join(SOURCE.get(d, d) for d in found.missing)}")
    return notes


def _no_match(found: FirmMatch) -> list[str]:
    notes = [
        f"no firm in the mirror matches {found.query!r} (normalised {found.key!r}); try a shorter name, "
        "another spelling, or a DUNS/FEI number"
    ]
    if found.missing:
        notes.append(f"not in the mirror (not searched): {', '.join(SOURCE.get(d, d) for d in found.missing)}")
    return notes
