"""`fda-explorer mcp`: the mirror's tools and resources as an MCP server (stdio, or Streamable HTTP on 127.0.0.1).

Built on the MCP SDK's low-level `Server` (mcp 2.x: `mcp.server.Server`, handlers passed as `on_*` callables),
so each tool's input schema is exactly its argument model's JSON schema from the registry and its output
schema the result model's. Every tool is read-only and closed-world; a bad argument comes back as an error
result (`isError`) naming the field and the valid arguments, which the calling model can act on.
"""

from __future__ import annotations

import json
import sys

import anyio
import mcp_types as types
from mcp.server import Server

from mirror.api import Api
from mirror.settings import Settings

from .surface import RecordNotFound, call, dataset_status, field_catalogue, field_guide, record, tool_specs

__all__ = ["INSTRUCTIONS", "SCHEME", "build_server", "run_stdio", "run_http"]

SCHEME = "fda-explorer"
STATUS_URI, FIELDS_URI, GUIDE_URI = f"{SCHEME}://status", f"{SCHEME}://fields", f"{SCHEME}://fields/guide"
RECORD_TEMPLATE = f"{SCHEME}://record/{{dataset}}/{{key}}"

INSTRUCTIONS = """\
FDA medical-device data (openFDA device endpoints and AccessGUDID) from a local mirror: offline, full-population
totals, every result with provenance (the replayable openFDA query and the data's as-of date).

Chain the tools: resolve first, then search with the keys the resolvers return.
1. Names to keys: resolve_device turns a device as people name it ("insulin pump") into FDA product codes;
   resolve_manufacturer turns a firm name into its canonical name and spelling variants; resolve_location turns a
   place into a country or US state code.
2. Keys to records: pass those keys to search_events, search_recalls, search_enforcement, search_510k, search_pma,
   search_classifications, search_udi, search_registrations, search_gudid (the AccessGUDID release) or
   search_serology (COVID-19 serology test evaluations) (product_codes=[...], manufacturer=[the variants],
   country/state=code, date_from/date_to=YYYY-MM-DD, filters={...}); count_by counts a dataset by a field (trends by
   year or month, top product codes, manufacturers, event types, ...). Calls are independent: pass the keys
   explicitly, nothing is remembered between calls.
3. Cite: each result has `total` (the whole population, never a sample), capped `rows`, `record_ids` and
   `provenance` (dataset, as_of, query). Quote record IDs and the as-of date in answers.
openfda_query runs any openFDA request (search/count/limit/skip/sort) on the mirror for fields the search tools do
not take; the resource fda-explorer://fields lists every field. fda-explorer://status gives each dataset's as-of
date; fda-explorer://record/{dataset}/{key} reads one record (e.g. record/event/1234567, record/510k/K123456).
Errors name the bad argument and the valid ones: correct the call and retry.
"""

READ_ONLY = types.ToolAnnotations(
    read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False
)


def _tools() -> list[types.Tool]:
    return [
        types.Tool(
            name=s.name,
            title=s.name.replace("_", " "),
            description=s.description,
            input_schema=s.input_schema,
            output_schema=s.output_schema,
            annotations=READ_ONLY.model_copy(update={"title": s.name.replace("_", " ")}),
        )
        for s in tool_specs()
    ]


def build_server(api: Api, budget: int = 1800) -> Server:
    """The MCP server over `api` (the mirror, opened by the caller and closed by it)."""
    tools = _tools()

    async def list_tools(ctx, params) -> types.ListToolsResult:
        return types.ListToolsResult(tools=tools)

    async def call_tool(ctx, params: types.CallToolRequestParams) -> types.CallToolResult:
        done = await anyio.to_thread.run_sync(call, api, params.name, params.arguments, budget)
        if done.error:
            return types.CallToolResult(content=[types.TextContent(text=done.error)], is_error=True)
        return types.CallToolResult(content=[types.TextContent(text=done.text)], structured_content=done.structured)

    async def list_resources(ctx, params) -> types.ListResourcesResult:
        return types.ListResourcesResult(
            resources=[
                types.Resource(
                    uri=STATUS_URI,
                    name="status",
                    title="Datasets and their as-of dates",
                    description="Each dataset in the mirror: its as-of (export) date and record count",
                    mime_type="application/json",
                ),
                types.Resource(
                    uri=FIELDS_URI,
                    name="fields",
                    title="Field catalogue",
                    description="Every searchable field of each openFDA device endpoint and its type "
                    "(text: word match; keyword/.exact: whole value; date)",
                    mime_type="application/json",
                ),
                types.Resource(
                    uri=GUIDE_URI,
                    name="fields-guide",
                    title="How to read the field catalogue",
                    mime_type="text/markdown",
                ),
            ]
        )

    async def list_templates(ctx, params) -> types.ListResourceTemplatesResult:
        return types.ListResourceTemplatesResult(
            resource_templates=[
                types.ResourceTemplate(
                    uri_template=RECORD_TEMPLATE,
                    name="record",
                    title="A record by dataset and key",
                    description="The original openFDA record(s) with this key: event/MDR_REPORT_KEY, 510k/K_NUMBER, "
                    "pma/PMA_NUMBER or pma/PMA_NUMBER:SUPPLEMENT, recall/PRODUCT_RES_NUMBER, "
                    "enforcement/RECALL_NUMBER, classification/PRODUCT_CODE, udi/PUBLIC_DEVICE_RECORD_KEY, "
                    "registrationlisting/REGISTRATION_NUMBER",
                    mime_type="application/json",
                )
            ]
        )

    async def read_resource(ctx, params: types.ReadResourceRequestParams) -> types.ReadResourceResult:
        uri = str(params.uri)
        text, mime = await anyio.to_thread.run_sync(_read, api, uri)
        return types.ReadResourceResult(contents=[types.TextResourceContents(uri=uri, mime_type=mime, text=text)])

    return Server(
        "fda-explorer",
        version=_version(),
        title="FDA Explorer Offline",
        instructions=INSTRUCTIONS,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
        on_list_resources=list_resources,
        on_list_resource_templates=list_templates,
        on_read_resource=read_resource,
    )


def _read(api: Api, uri: str) -> tuple[str, str]:
    """A resource's text and MIME type; an unknown URI is an MCP error naming the valid ones."""
    from mcp.shared.exceptions import MCPError

    if uri == STATUS_URI:
        return json.dumps(dataset_status(api), indent=1), "application/json"
    if uri == FIELDS_URI:
        return field_catalogue(), "application/json"
    if uri == GUIDE_URI:
        return field_guide(), "text/markdown"
    prefix = f"{SCHEME}://record/"
    if uri.startswith(prefix) and uri.count("/") >= 4:
        dataset, key = uri[len(prefix) :].split("/", 1)
        try:
            return json.dumps(record(api, dataset, key), indent=1, default=str), "application/json"
        except RecordNotFound as e:
            raise MCPError(code=types.INVALID_PARAMS, message=str(e)) from None
    raise MCPError(
        code=types.INVALID_PARAMS,
        message=f"no resource {uri!r}; resources: {STATUS_URI}, {FIELDS_URI}, {GUIDE_URI}, {RECORD_TEMPLATE}",
    )


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("fda-explorer-offline")
    except PackageNotFoundError:
        return "0"


def run_stdio(settings: Settings) -> None:
    """Serve over stdin/stdout until the host closes them (stderr carries the one start-up line)."""
    from mcp.server.stdio import stdio_server

    api = Api(settings)  # a missing mirror fails here, before the host sees a server

    async def main() -> None:
        server = build_server(api)
        async with stdio_server() as (read, write):
            await server.run(read, write, server.create_initialization_options())

    try:
        anyio.run(main)
    finally:
        api.close()


def run_http(settings: Settings, port: int, ready=None) -> None:
    """Serve Streamable HTTP at http://127.0.0.1:PORT/mcp (port 0: a free one); Host and Origin are checked
    against DNS rebinding (loopback names only). `ready(url)` is called once it listens."""
    import uvicorn

    from mirror.api.server import bind

    api = Api(settings)
    sock = bind("127.0.0.1", port)
    url = f"http://127.0.0.1:{sock.getsockname()[1]}/mcp"
    app = build_server(api).streamable_http_app(host="127.0.0.1")
    (ready or _announce)(url)
    config = uvicorn.Config(app, log_level="warning", access_log=False, server_header=False)
    try:
        uvicorn.Server(config).run(sockets=[sock])
    finally:
        api.close()
        sock.close()


def _announce(url: str) -> None:
    print(f"MCP server (Streamable HTTP) on {url}; Ctrl+C stops", file=sys.stderr, flush=True)
