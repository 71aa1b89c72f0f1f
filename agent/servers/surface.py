"""What the servers expose, from the one tool registry: tool specs with JSON schemas, calls, and mirror resources.

The MCP server and the HTTP API list and run the registry's tools (`agent.tools`) through this module, so every
surface offers the same tools with the same schemas. Beside them, `openfda_query` answers one request of the
local openFDA API (`mirror.api.Api`) for a caller that writes openFDA queries itself. A call returns a
`Called`: the structured result (total, rows, record IDs, provenance with the replayable query and as-of date)
and its text for a model, or an error message that names the bad argument and the valid ones.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, Literal
from urllib.parse import quote_plus

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from mirror.api import Api
from mirror.errors import MirrorError
from mirror.schema.datasets import DATASETS

from ..tools import TOOLS, Provenance, ToolContext, ToolError, ToolResult, run_tool
from ..tools.searchers import SPECS

__all__ = [
    "ToolSpec",
    "Called",
    "ToolOutput",
    "QueryArgs",
    "QueryOutput",
    "QUERY_TOOL",
    "tool_specs",
    "registry_specs",
    "call",
    "field_catalogue",
    "field_guide",
    "record",
    "RecordNotFound",
    "dataset_status",
]

QUERY_TOOL = "openfda_query"
_READABLE = ":[]\"()*,/'@.-_"  # characters left as they are in a replayable query string
ENDPOINTS = tuple(DATASETS)


class ToolOutput(ToolResult):
    """A registry tool's result as the servers send it: the ToolResult plus its record IDs."""

    record_ids: list[str] = Field(default_factory=list, description="Every record ID in the rows, as field=value")


class QueryArgs(BaseModel):
    """One request to the local openFDA API (the parameters of api.fda.gov/device/ENDPOINT.json)."""

    model_config = ConfigDict(extra="forbid")
    endpoint: Literal[ENDPOINTS] = Field(  # type: ignore[valid-type]
        description="Device endpoint: " + ", ".join(ENDPOINTS)
    )
    search: str | None = Field(
        None,
        description="openFDA search, e.g. device.device_report_product_code:DXY AND "
        "date_received:[20200101 TO 20201231]",
    )
    count: str | None = Field(
        None, description="Count records by this field (e.g. date_received, event_type.exact) instead of returning them"
    )
    limit: int | None = Field(None, ge=0, le=1000, description="Records or buckets to return (0: the total alone)")
    skip: int | None = Field(None, ge=0, description="Records to skip (paging)")
    sort: str | None = Field(None, description="field:asc or field:desc on a date, keyword or .exact field")


class QueryOutput(BaseModel):
    """The local openFDA API's answer: the total, the records or count buckets, their IDs and the provenance."""

    endpoint: str
    total: int = Field(description="Matching records over the whole mirror (for count: the buckets returned)")
    results: list[dict[str, Any]] = Field(default_factory=list, description="Records, or {term|time, count}")
    record_ids: list[str] = Field(default_factory=list, description="Record IDs of the records, as field=value")
    provenance: list[Provenance] = Field(default_factory=list)


@dataclass(frozen=True)
class ToolSpec:
    """One tool as a server lists it: schemas from the argument and result models, read-only."""

    name: str
    kind: str  # resolver | searcher | query
    description: str
    input_schema: dict[str, Any]
    output_schema: dict[str, Any]

    def as_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "kind": self.kind,
            "description": self.description,
            "input_schema": self.input_schema,
            "output_schema": self.output_schema,
        }


@dataclass
class Called:
    """A tool call's outcome: `structured` and `text` on success, `error` (a message for the model) otherwise."""

    structured: dict[str, Any] = field(default_factory=dict)
    text: str = ""
    error: str = ""


def registry_specs() -> list[ToolSpec]:
    """The assistant's tools, as the registry holds them (the same list `fda-explorer tools` prints)."""
    out = ToolOutput.model_json_schema()
    return [ToolSpec(t.name, t.kind, t.description, t.args.model_json_schema(), out) for t in TOOLS.values()]


def tool_specs() -> list[ToolSpec]:
    """The registry's tools, then the local openFDA query."""
    doc = (
        "Run one openFDA device API request on the local mirror (the same parameters as api.fda.gov: search, "
        "count, limit, skip, sort) and get the records or count buckets with the full total. Use it for "
        "fields the search tools do not take; the field catalogue resource lists every searchable field."
    )
    return registry_specs() + [
        ToolSpec(QUERY_TOOL, "query", doc, QueryArgs.model_json_schema(), QueryOutput.model_json_schema())
    ]


def call(api: Api, name: str, arguments: dict[str, Any] | None, budget: int = 1800) -> Called:
    """Run a tool by name on the mirror; a bad argument or an unanswerable request becomes `Called.error`."""
    try:
        if name == QUERY_TOOL:
            return _query(api, _query_args(arguments))
        result = run_tool(ToolContext(api), name, arguments)  # an unknown tool or a bad argument: ToolError
    except (ToolError, MirrorError) as e:
        return Called(error=str(e))
    structured = ToolOutput(**result.model_dump(), record_ids=result.ids()).model_dump(mode="json")
    return Called(structured=structured, text=result.render(budget))


def _query_args(arguments: dict[str, Any] | None) -> QueryArgs:
    valid = "; valid arguments: " + ", ".join(
        f"{n} ({'required' if f.is_required() else 'optional'})" for n, f in QueryArgs.model_fields.items()
    )
    try:
        return QueryArgs.model_validate(arguments or {})
    except ValidationError as e:
        problems = [
            f"{'.'.join(map(str, err['loc'])) or 'arguments'}: "
            f"{'unknown argument' if err['type'] == 'extra_forbidden' else err['msg']}"
            for err in e.errors()
        ]
        raise ToolError(f"{QUERY_TOOL}: {'; '.join(problems)}{valid}") from None


def _query(api: Api, args: QueryArgs) -> Called:
    params = args.model_dump(exclude={"endpoint"}, exclude_none=True)
    query = _qs(params)
    resp = api.get(f"/device/{args.endpoint}.json", query)
    body = resp.json()
    if resp.status == 400 or resp.status >= 500:
        err = body.get("error", {})
        return Called(
            error=f"{QUERY_TOOL}: device/{args.endpoint} answered {resp.status} {err.get('code', '')}: "
            f"{err.get('message', '')}; check the search syntax and the field names (resource "
            "fda-explorer://fields)"
        )
    results = body.get("results", []) if resp.status == 200 else []
    total = body.get("meta", {}).get("results", {}).get("total", len(results)) if not args.count else len(results)
    prov = Provenance(
        dataset=f"device/{args.endpoint}",
        as_of=api.as_of(args.endpoint),
        query=query,
        params=args.model_dump(mode="json", exclude_none=True),
    )
    ids = [] if args.count else _record_ids(args.endpoint, results)
    out = QueryOutput(endpoint=args.endpoint, total=total, results=results, record_ids=ids, provenance=[prov])
    note = "" if resp.status == 200 else f" ({body.get('error', {}).get('message', 'no matches')})"
    text = f"{QUERY_TOOL}: total {total}{note}\nsource {prov.cite()}\n" + json.dumps(results[:25], default=str)[:4000]
    return Called(structured=out.model_dump(mode="json"), text=text)


def _qs(params: dict[str, Any]) -> str:
    """A query string as api.fda.gov takes it: spaces as `+`, the search syntax left readable (replayable)."""
    return "&".join(f"{k}={quote_plus(str(v), safe=_READABLE)}" for k, v in params.items())


def _record_ids(endpoint: str, records: list[dict]) -> list[str]:
    spec = SPECS.get(endpoint)
    if spec is None:
        return []
    out = []
    for r in records:
        for key in spec.ids:
            value = first_value(r, spec.row.get(key, key))
            if value not in (None, ""):
                out.append(f"{key}={value}")
    return out


def first_value(record: Any, path: str) -> Any:
    """The first value at a dotted path (arrays are transparent)."""
    node = record
    for part in path.split("."):
        while isinstance(node, list):
            node = node[0] if node else None
        if not isinstance(node, dict):
            return None
        node = node.get(part)
    while isinstance(node, list):
        node = node[0] if node else None
    return node


# -- resources ------------------------------------------------------------------------------------------


def dataset_status(api: Api) -> dict[str, Any]:
    """Per published dataset: its as-of (export) date and, for the openFDA endpoints, its record count."""
    out: dict[str, Any] = {}
    for name, as_of in sorted(api.datasets().items()):
        entry: dict[str, Any] = {"as_of": as_of}
        if name in DATASETS:
            resp = api.get(f"/device/{name}.json", "limit=0")
            entry["records"] = (
                resp.json().get("meta", {}).get("results", {}).get("total", 0) if resp.status == 200 else 0
            )
        out[name] = entry
    return {"data_dir": str(api.settings.data_dir), "datasets": out}


def field_catalogue() -> str:
    """mirror/api/fields.json: every searchable field per endpoint and its type."""
    return resources.files("mirror.api").joinpath("fields.json").read_text(encoding="utf-8")


def field_guide() -> str:
    """mirror/api/FIELDS.md: how to read the field catalogue."""
    return resources.files("mirror.api").joinpath("FIELDS.md").read_text(encoding="utf-8")


class RecordNotFound(ToolError):
    """No record with that key (or no such dataset)."""


def record(api: Api, dataset: str, key: str) -> dict[str, Any]:
    """The records of `dataset` whose key is `key` (for PMA, `P000000` or `P000000:S001`), with provenance."""
    spec = SPECS.get(dataset)
    if spec is None:
        raise RecordNotFound(f"no dataset {dataset!r} with record keys; datasets: {', '.join(sorted(SPECS))}")
    values = key.split(":", len(spec.ids) - 1) if len(spec.ids) > 1 else [key]
    terms = []
    for name, value in zip(spec.ids, values):
        path = spec.row.get(name, name)
        ref = api.catalog.resolve(dataset, path)
        exact = f"{path}.exact" if ref is not None and ref.has_exact else path
        terms.append(f'{exact}:"{value.replace(chr(34), "")}"')
    query = _qs({"search": " AND ".join(terms), "limit": 10})
    resp = api.get(f"/device/{dataset}.json", query)
    results = resp.json().get("results", []) if resp.status == 200 else []
    if not results:
        raise RecordNotFound(
            f"device/{dataset} has no record with {', '.join(spec.ids)} = {key!r}; search for it "
            f"with the search tools first"
        )
    prov = Provenance(dataset=f"device/{dataset}", as_of=api.as_of(dataset), query=query)
    return {"dataset": f"device/{dataset}", "key": key, "records": results, "provenance": prov.model_dump()}
