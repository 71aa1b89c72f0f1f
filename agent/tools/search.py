"""The search tools (search_events, search_recalls, ... search_serology): one openFDA query on the local API each.

Each runs its query on the local API over the mirror (`mirror.api.Api`), so totals cover the whole population, and
the provenance of every result is a request anyone can replay: `mirror query ENDPOINT 'QUERY'` here, or on
api.fda.gov (except the mirror's extension field `recall_class`).
"""

from __future__ import annotations

from typing import Any, Literal

import orjson
from pydantic import Field

from .base import Provenance, ToolError, ToolResult
from .context import ToolContext
from .openfda_query import SearchArgs, build_search, or_values, query_string, text_words
from .registry import tool
from .specs import SPECS, Spec

__all__ = [
    "search",
    "RecallArgs",
    "get",
    "provenance",
    "search_events",
    "search_recalls",
    "search_enforcement",
    "search_510k",
    "search_pma",
    "search_classifications",
    "search_udi",
    "search_registrations",
    "search_serology",
]


def _value(record: dict, path: str) -> Any:
    node: Any = record
    for part in path.split("."):
        if isinstance(node, list):
            node = node[0] if node else None
        if not isinstance(node, dict):
            return None
        node = node.get(part)
    if isinstance(node, list) and node and not isinstance(node[0], (dict, list)):
        return node if len(node) > 1 else node[0]
    return node if not isinstance(node, (dict, list)) else None


def _row(spec: Spec, record: dict) -> dict[str, Any]:
    return {k: _value(record, p) for k, p in spec.row.items() if p}


def get(ctx: ToolContext, endpoint: str, query: str) -> tuple[int, dict]:
    resp = ctx.api.get(f"/device/{endpoint}.json", query)
    body = orjson.loads(resp.body)
    if resp.status == 400:
        raise ToolError(f"device/{endpoint} refused the query ({body['error']['message']})")
    if resp.status >= 500:
        raise ToolError(f"device/{endpoint}: the mirror could not answer ({body['error'].get('details', '')})")
    return resp.status, body


def search(ctx: ToolContext, endpoint: str, args: SearchArgs) -> ToolResult:
    spec = SPECS[endpoint]
    search_value, notes = build_search(spec, args, ctx)
    limit = min(args.limit, ctx.row_cap if args.limit == 25 else args.limit)
    by = spec.dates.get(args.date_field or "", spec.date) if spec.dates else spec.date  # the date asked about
    sort = [("sort", f"{by}:desc")] if by else []
    query = query_string(([("search", search_value)] if search_value else []) + [("limit", str(limit))] + sort)
    status, body = get(ctx, endpoint, query)
    if status == 404 and body["error"]["message"].startswith("The mirror holds no"):
        raise ToolError(body["error"]["message"])
    records = body.get("results", []) if status == 200 else []
    total = body["meta"]["results"]["total"] if status == 200 else 0
    params = args.model_dump(mode="json", exclude_defaults=True)
    prov = [provenance(ctx, endpoint, query, params)]
    words = text_words(args.text or "")
    if endpoint == "event" and len(words) > 1 and total and limit:
        # the narratives holding the words as a phrase first (newest first), then the others holding all of them
        phrase, _ = build_search(spec, args, ctx, phrase=True)
        pq = query_string([("search", phrase), ("limit", str(limit))] + sort)
        pstatus, pbody = get(ctx, endpoint, pq)
        first = pbody.get("results", []) if pstatus == 200 else []
        keys = {r.get("mdr_report_key") for r in first}
        records = (first + [r for r in records if r.get("mdr_report_key") not in keys])[:limit]
        n = pbody["meta"]["results"]["total"] if pstatus == 200 else 0
        notes.append(
            f'ranked: the {n} records whose narratives hold "{" ".join(words)}" as a phrase first, then '
            f"the others holding all the words; newest ({spec.date}) first within each"
        )
        prov.append(provenance(ctx, endpoint, pq, params))
    rows = [_row(spec, r) for r in records]
    for path in args.fields or []:  # a field asked for by name: read from the record, by its last part
        for row, record in zip(rows, records):
            row.setdefault(path.rsplit(".", 1)[-1], _value(record, path))
    if endpoint == "recall" and rows:
        _recall_classes(ctx, rows)
    return ToolResult(
        tool=spec.tool,
        total=total,
        rows=rows,
        truncated=total > len(rows),
        id_fields=list(spec.ids),
        provenance=prov,
        notes=notes,
    )


def provenance(ctx: ToolContext, endpoint: str, query: str, params: dict | None = None) -> Provenance:
    return Provenance(dataset=SPECS[endpoint].source, as_of=ctx.api.as_of(endpoint), query=query, params=params or {})


def _recall_classes(ctx: ToolContext, rows: list[dict]) -> None:
    numbers = [r["product_res_number"] for r in rows if r.get("product_res_number")]
    if not numbers or "enforcement" not in ctx.api.datasets():
        return
    query = query_string([("search", or_values("recall_number.exact", numbers)), ("limit", "1000")])
    status, body = get(ctx, "enforcement", query)
    found = body.get("results", []) if status == 200 else []
    classes = {r.get("recall_number"): r.get("classification") for r in found}
    for r in rows:
        r["recall_class"] = classes.get(r.get("product_res_number"))


# -- the tools ------------------------------------------------------------------------------------------


@tool("search_events", SearchArgs, "searcher")
def search_events(ctx: ToolContext, args: SearchArgs) -> ToolResult:
    """Search MAUDE adverse event reports (device/event) by product codes, manufacturer, country/state, date received,
    narrative text and filters event_type (Death, Injury, Malfunction, Other), patient_problem, device_problem,
    brand_name. Returns the full total and the newest reports (mdr_report_key); for text of several words, the reports
    holding them as a phrase first.
    """
    return search(ctx, "event", args)


class RecallArgs(SearchArgs):
    recall_class: Literal["Class I", "Class II", "Class III"] | None = Field(
        None, description="FDA recall class (from the enforcement report with the same recall number)"
    )


@tool("search_recalls", RecallArgs, "searcher")
def search_recalls(ctx: ToolContext, args: RecallArgs) -> ToolResult:
    """Search device recalls (device/recall, one record per recalled product, with its recall class from
    device/enforcement) by product codes, recalling firm, country/state, date initiated, text in the reason,
    recall_class and filters recall_status, root_cause, k_number, pma_number. Also reports how many enforcement reports
    match.
    """
    base = SearchArgs(**args.model_dump(exclude={"recall_class"}))
    if args.recall_class:
        base.filters = {**base.filters, "recall_class": args.recall_class}
    result = search(ctx, "recall", base)
    result.provenance[0].params = args.model_dump(mode="json", exclude_defaults=True)
    if "enforcement" in ctx.api.datasets():
        enf_args = SearchArgs(**args.model_dump(exclude={"recall_class", "product_codes", "filters", "limit"}), limit=0)
        if args.recall_class:
            enf_args.filters = {"recall_class": args.recall_class}
        if args.product_codes or {k for k in args.filters if k not in SPECS["enforcement"].own}:
            result.notes.append(
                "enforcement reports carry no product code, so they are matched through the "
                "recall numbers shown (recall_class)"
            )
            return result
        spec = SPECS["enforcement"]
        search_value, _ = build_search(spec, enf_args, ctx)
        query = query_string(([("search", search_value)] if search_value else []) + [("limit", "0")])
        status, body = get(ctx, "enforcement", query)
        n = body["meta"]["results"]["total"] if status == 200 else 0
        result.notes.append(f"device/enforcement: {n} enforcement reports match the same filters")
        result.related["enforcement"] = n
        enf_params = enf_args.model_dump(mode="json", exclude_defaults=True)
        result.provenance.append(
            Provenance(
                dataset=SPECS["enforcement"].source, as_of=ctx.api.as_of("enforcement"), query=query, params=enf_params
            )
        )
    return result


@tool("search_enforcement", SearchArgs, "searcher")
def search_enforcement(ctx: ToolContext, args: SearchArgs) -> ToolResult:
    """Search FDA enforcement reports of device recalls (device/enforcement: one report per recall number, with its
    recall class) by recalling firm, country/state, recall initiation date, text in the reason or product description,
    and filters recall_class (Class I, Class II, Class III), status, voluntary_mandated, recall_number. Enforcement
    reports carry no product code.
    """
    return search(ctx, "enforcement", args)


@tool("search_510k", SearchArgs, "searcher")
def search_510k(ctx: ToolContext, args: SearchArgs) -> ToolResult:
    """Search 510(k) clearances (device/510k) by product codes, applicant, country/state, decision date, device-name
    text and filters decision_code, clearance_type, advisory_committee, third_party. Rows carry k_number.
    """
    return search(ctx, "510k", args)


@tool("search_pma", SearchArgs, "searcher")
def search_pma(ctx: ToolContext, args: SearchArgs) -> ToolResult:
    """Search PMA approvals and supplements (device/pma) by product codes, applicant, state, decision date,
    trade/generic-name text and filters decision_code, supplement_type, advisory_committee. Rows carry pma_number and
    supplement_number.
    """
    return search(ctx, "pma", args)


@tool("search_classifications", SearchArgs, "searcher")
def search_classifications(ctx: ToolContext, args: SearchArgs) -> ToolResult:
    """Search the device classification (device/classification: one record per product code) by product codes,
    name/definition text and filters device_class (1, 2, 3), regulation_number, medical_specialty, review_panel,
    implant_flag, life_sustain_support_flag, submission_type.
    """
    return search(ctx, "classification", args)


@tool("search_udi", SearchArgs, "searcher")
def search_udi(ctx: ToolContext, args: SearchArgs) -> ToolResult:
    """Search UDI / GUDID device records (device/udi) by product codes, company, publish date, brand/description/GMDN
    text and filters di (device identifier), brand_name, is_rx, is_otc, is_kit, is_single_use, mri_safety,
    labeler_duns_number. Rows carry public_device_record_key and the primary DI.
    """
    return search(ctx, "udi", args)


@tool("search_registrations", SearchArgs, "searcher")
def search_registrations(ctx: ToolContext, args: SearchArgs) -> ToolResult:
    """Search establishment registrations and listings (device/registrationlisting) by product codes, firm name,
    country/state, listing date, proprietary-name text and filters establishment_type, registration_number, fei_number,
    status_code.
    """
    return search(ctx, "registrationlisting", args)


@tool("search_serology", SearchArgs, "searcher")
def search_serology(ctx: ToolContext, args: SearchArgs) -> ToolResult:
    """Search FDA's COVID-19 serology test evaluations (device/covid19serology: one record per sample tested with one
    manufacturer's antibody test) by manufacturer, date performed, device-name text and filters antibody_truth
    (Positive, Negative), group, panel, igg_result, igm_result, sample_id. Rows carry sample_id and manufacturer.
    """
    return search(ctx, "covid19serology", args)
