"""count_by: records of a dataset counted by a field over the full population (trends by year, month or day)."""

from __future__ import annotations

from collections import Counter

from pydantic import Field

from .base import ToolError, ToolResult
from .context import ToolContext
from .openfda_query import SearchArgs, build_search, date_of, query_string
from .registry import tool
from .search import get, provenance
from .specs import DATASET_NAMES, SPECS

__all__ = ["CountArgs", "count_by", "COUNT_FIELDS"]

COUNT_FIELDS = {
    ep: sorted({"year", "quarter", "month", "day"} | set(s.counts)) if s.date else sorted(s.counts)
    for ep, s in SPECS.items()
}


class CountArgs(SearchArgs):
    dataset: str = Field(
        description="events, recalls, enforcement, 510k, pma, classification, udi, registrations, serology or gudid"
    )
    field: str = Field(
        description="What to count by: year, quarter, month, day (trends), product_code, manufacturer, "
        "event_type, patient_problem, device_problem, recall_class, country, ..."
    )
    limit: int = Field(25, ge=1, le=1000, description="Buckets to return (the most frequent; all for trends)")


@tool("count_by", CountArgs, "searcher")
def count_by(ctx: ToolContext, args: CountArgs) -> ToolResult:
    """Count records of a dataset by a field over the full population (never a sample): trends by year, month or day, or
    the top values of product_code, manufacturer, event_type, patient_problem, device_problem, recall_class, country and
    more, with the same filters as the searchers.
    """
    if args.dataset.strip().lower() in ("gudid", "accessgudid"):
        from .gudid import count_gudid_tool

        return count_gudid_tool(ctx, args)
    endpoint = DATASET_NAMES.get(args.dataset.strip().lower())
    if endpoint is None:
        raise ToolError(f"unknown dataset {args.dataset!r}; choose one of: {', '.join(sorted(set(DATASET_NAMES)))}")
    spec = SPECS[endpoint]
    name = args.field.strip().lower()
    if name not in COUNT_FIELDS[endpoint]:
        raise ToolError(
            f"{spec.source} cannot be counted by {args.field!r}; choose one of: " + ", ".join(COUNT_FIELDS[endpoint])
        )
    filters = SearchArgs(**args.model_dump(exclude={"dataset", "field", "limit"}))
    search_value, notes = build_search(spec, filters, ctx)
    trend = name in ("year", "quarter", "month", "day")
    count_field = date_of(spec, args.date_field) if trend else spec.counts[name]
    params = ([("search", search_value)] if search_value else []) + [("count", count_field)]
    if not trend:
        params.append(("limit", str(args.limit)))
    query = query_string(params)
    status, body = get(ctx, endpoint, query)
    buckets = body.get("results", []) if status == 200 else []
    if trend:
        width = {"year": 4, "quarter": 6, "month": 6, "day": 8}[name]
        agg: Counter = Counter()
        for b in buckets:
            key = b["time"][:width]
            if name == "quarter":  # "2020-Q3": months 07-09 of 2020
                key = f"{key[:4]}-Q{(int(key[4:6] or 1) - 1) // 3 + 1}" if key[4:6].isdigit() else key[:4]
            agg[key] += b["count"]
        fmt = (
            (lambda k: k)
            if name in ("year", "quarter")
            else (lambda k: f"{k[:4]}-{k[4:6]}" + (f"-{k[6:]}" if width == 8 else ""))
        )
        rows = [{name: fmt(k), "count": n} for k, n in sorted(agg.items())]
        notes.append(f"{name}s are of {count_field}; records without a readable {count_field} are not counted")
    else:
        rows = [{name: b["term"], "count": b["count"]} for b in buckets]
        if name != "manufacturer":
            rows = _case_merged(rows, name, notes)
    total_q = query_string(([("search", search_value)] if search_value else []) + [("limit", "0")])
    tstatus, tbody = get(ctx, endpoint, total_q)
    total = tbody["meta"]["results"]["total"] if tstatus == 200 else 0
    if status == 404 and total and not trend:
        notes.append(f"no record has a value for {name}")
    prov = [
        provenance(ctx, endpoint, query, args.model_dump(mode="json", exclude_defaults=True)),
        provenance(ctx, endpoint, total_q),
    ]
    return ToolResult(
        tool="count_by",
        total=total,
        rows=rows,
        truncated=not trend and len(rows) >= args.limit,
        id_fields=[name],
        provenance=prov,
        notes=notes + [f"total = {total} matching records; a record can count under several values"],
    )


def _case_merged(rows: list[dict], name: str, notes: list[str]) -> list[dict]:
    """Values that differ only in letter case ("Employee Error", "Employee error") are one value: counted together,
    under the spelling with the most records (the first, on a tie), and said so in a note."""
    groups: dict[str, list[dict]] = {}
    for r in rows:
        groups.setdefault(str(r[name]).casefold(), []).append(r)
    if all(len(g) == 1 for g in groups.values()):
        return rows
    out = []
    for g in groups.values():
        out.append({name: max(g, key=lambda r: r["count"])[name], "count": sum(r["count"] for r in g)})
        if len(g) > 1:
            spelled = ", ".join(f'"{r[name]}"' for r in g)
            notes.append(f"{spelled} differ only in letter case and are counted as one {name.replace('_', ' ')}")
    return sorted(out, key=lambda r: -r["count"])
