"""The AccessGUDID searcher: devices of the GUDID release the mirror holds (`gudid_*` tables), and its counts."""

from __future__ import annotations

from mirror.lookup.gudid import GUDID_COUNTS, GudidQuery, count_gudid, search_gudid

from .base import Provenance, ToolError, ToolResult
from .context import ToolContext
from .count import CountArgs
from .openfda_query import SearchArgs
from .registry import tool

__all__ = ["search_gudid_tool", "count_gudid_tool", "GUDID_FILTERS"]

GUDID_FILTERS = (
    "di",
    "is_rx",
    "is_otc",
    "is_kit",
    "is_single_use",
    "is_sterile",
    "mri_safety",
    "issuing_agency",
    "has_serial_number",
    "has_lot_or_batch_number",
)


def _query(args: SearchArgs) -> GudidQuery:
    unknown = [k for k in args.filters if k not in GUDID_FILTERS]
    if unknown or args.country or args.state or args.text:
        bad = unknown + [n for n in ("country", "state", "text") if getattr(args, n)]
        raise ToolError(
            f"gudid has no filter {', '.join(bad)}; it takes product_codes, manufacturer, names, "
            f"date_from/date_to (publish date) and filters {', '.join(GUDID_FILTERS)}"
        )
    di = args.filters.get("di") or []
    flags = {k: (v[0] if isinstance(v, list) else v) for k, v in args.filters.items() if k != "di"}
    company = [args.manufacturer] if isinstance(args.manufacturer, str) else list(args.manufacturer or [])
    return GudidQuery(
        di=[di] if isinstance(di, str) else list(di),
        company=company,
        product_codes=list(args.product_codes or []),
        names=args.names or "",
        date_from=args.date_from,
        date_to=args.date_to,
        flags=flags,
    )


def _provenance(ctx: ToolContext, said: str, args: dict) -> Provenance:
    return Provenance(
        dataset="gudid", as_of=ctx.api.as_of("gudid"), query=f"AccessGUDID release, gudid_device: {said}", params=args
    )


@tool("search_gudid", SearchArgs, "searcher")
def search_gudid_tool(ctx: ToolContext, args: SearchArgs) -> ToolResult:
    """Search the AccessGUDID release the mirror holds (gudid: one record per primary device identifier, with its brand,
    version or model number, company, GMDN term, product codes and premarket submissions) by filters di (device
    identifier), product codes, company (manufacturer), brand/description/GMDN words (names) and publish date. Rows
    carry primary_di.
    """
    q = _query(args)
    found = search_gudid(ctx.api, q, min(args.limit, ctx.row_cap) if args.limit == 25 else args.limit)
    return ToolResult(
        tool="search_gudid",
        total=found.total,
        rows=found.rows,
        truncated=found.total > len(found.rows),
        id_fields=["primary_di"],
        provenance=[_provenance(ctx, found.where, args.model_dump(mode="json", exclude_defaults=True))],
    )


def count_gudid_tool(ctx: ToolContext, args: CountArgs) -> ToolResult:
    """count_by on the AccessGUDID release (manufacturer, product_code, gmdn_term, brand_name, year, month)."""
    by = args.field.strip().lower()
    if by not in GUDID_COUNTS:
        raise ToolError(f"gudid cannot be counted by {args.field!r}; choose one of: {', '.join(GUDID_COUNTS)}")
    q = _query(SearchArgs(**args.model_dump(exclude={"dataset", "field", "limit"})))
    total, rows = count_gudid(ctx.api, q, by, args.limit)
    said = f"devices counted by {by}"
    return ToolResult(
        tool="count_by",
        total=total,
        rows=rows,
        truncated=len(rows) >= args.limit,
        id_fields=[by],
        provenance=[_provenance(ctx, said, args.model_dump(mode="json", exclude_defaults=True))],
        notes=[f"total = {total} matching devices; a device can count under several values"],
    )
