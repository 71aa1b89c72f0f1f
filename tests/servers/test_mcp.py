"""`fda-explorer mcp` driven by the MCP SDK's own client, over stdio (a subprocess) and Streamable HTTP
(a server on 127.0.0.1, port 0): tools listed with schemas and read-only annotations, every tool called,
results structured with provenance, resources read, and bad arguments answered as errors a model can act on."""

from __future__ import annotations

import json
import sys

import anyio
import httpx
import pytest
from mcp import Client, StdioServerParameters
from mcp.shared.exceptions import MCPError

from agent.servers.surface import call
from mirror.api import Api
from mirror.settings import Settings

from .conftest import ROOT

# One valid call per tool the server lists (a tool added to the registry must be added here).
CALLS = {
    "resolve_device": {"query": "insulin pump"},
    "resolve_manufacturer": {"query": "Medtronic"},
    "resolve_location": {"location": "Germany"},
    "search_events": {"product_codes": ["FRN"]},
    "search_recalls": {"limit": 3},
    "search_enforcement": {"limit": 3},
    "search_510k": {"limit": 3},
    "search_pma": {"limit": 3},
    "search_classifications": {"product_codes": ["LZG"]},
    "search_udi": {"limit": 3},
    "search_registrations": {"limit": 3},
    "search_serology": {"manufacturer": "Euroimmun", "limit": 3},
    "search_gudid": {"filters": {"di": "B3359500"}},
    "count_by": {"dataset": "events", "field": "year"},
    "openfda_query": {"endpoint": "510k", "search": "decision_date:[20000101 TO 20301231]", "limit": 2},
    "signals": {"product_codes": ["OZP"], "by": "problem"},
}


def stdio(data) -> Client:
    return Client(
        StdioServerParameters(
            command=sys.executable, args=["-m", "agent.servers", "mcp", "--data-dir", str(data)], cwd=str(ROOT)
        )
    )


@pytest.fixture(scope="module")
def api(data):
    a = Api(Settings(data_dir=data))
    yield a
    a.close()


async def _tools_and_calls(client: Client) -> tuple[list, dict]:
    listed = (await client.list_tools()).tools
    results = {t.name: await client.call_tool(t.name, CALLS.get(t.name, {})) for t in listed}
    return listed, results


def test_stdio_lists_and_calls_every_tool(data, api):
    async def main():
        async with stdio(data) as client:
            assert "resolve_device" in client.instructions and "search_" in client.instructions
            return await _tools_and_calls(client)

    listed, results = anyio.run(main)
    assert {t.name for t in listed} == set(CALLS)
    for t in listed:
        assert t.annotations.read_only_hint is True and t.annotations.open_world_hint is False, t.name
        assert t.annotations.destructive_hint is False, t.name
        assert t.input_schema["type"] == "object" and t.input_schema["properties"], t.name
        assert t.output_schema and "provenance" in t.output_schema["properties"], t.name
    for name, r in results.items():
        assert not r.is_error, (name, r.content[0].text)
        out = r.structured_content
        assert out["total"] >= 0 and "record_ids" in out, name
        for p in out["provenance"]:
            assert p["query"] and p["as_of"], (name, p)
        assert out == call(api, name, CALLS[name]).structured, name  # the same core as the direct call
        assert r.content[0].text  # the text a model reads
    events = results["search_events"].structured_content
    assert (
        events["total"]
        == api.get("/device/event.json", 'search=device.device_report_product_code.exact:"FRN"&limit=0').json()["meta"][
            "results"
        ]["total"]
    )
    assert events["record_ids"] and events["record_ids"][0].startswith("mdr_report_key=")
    assert results["count_by"].structured_content["rows"][0].keys() == {"year", "count"}
    assert results["openfda_query"].structured_content["record_ids"][0].startswith("k_number=")


def test_stdio_bad_arguments_come_back_as_errors_the_model_can_act_on(data):
    async def main():
        async with stdio(data) as client:
            return [
                await client.call_tool(name, args)
                for name, args in (
                    ("search_events", {"product_codes": "FRN"}),
                    ("search_events", {"productcode": ["FRN"]}),
                    ("count_by", {"dataset": "events", "field": "colour"}),
                    ("openfda_query", {"endpoint": "drugs"}),
                    ("openfda_query", {"endpoint": "event", "search": "date_received:[2020 TO"}),
                    ("no_such_tool", {}),
                )
            ]

    wrong_type, unknown_arg, bad_field, bad_endpoint, bad_search, unknown_tool = anyio.run(main)
    for r in (wrong_type, unknown_arg, bad_field, bad_endpoint, bad_search, unknown_tool):
        assert r.is_error and r.structured_content is None
    assert "product_codes" in wrong_type.content[0].text and "valid arguments:" in wrong_type.content[0].text
    assert "productcode: unknown argument" in unknown_arg.content[0].text
    assert "product_codes (array | null)" in unknown_arg.content[0].text
    assert "choose one of" in bad_field.content[0].text and "year" in bad_field.content[0].text
    assert "endpoint" in bad_endpoint.content[0].text and "'510k'" in bad_endpoint.content[0].text
    assert "400" in bad_search.content[0].text and "fda-explorer://fields" in bad_search.content[0].text
    assert "tools are:" in unknown_tool.content[0].text and "search_events" in unknown_tool.content[0].text


def test_stdio_resources(data, api):
    key = call(api, "search_events", {"product_codes": ["FRN"], "limit": 1}).structured["rows"][0]["mdr_report_key"]

    async def main():
        async with stdio(data) as client:
            listed = (await client.list_resources()).resources
            templates = (await client.list_resource_templates()).resource_templates
            status = await client.read_resource("fda-explorer://status")
            fields = await client.read_resource("fda-explorer://fields")
            guide = await client.read_resource("fda-explorer://fields/guide")
            record = await client.read_resource(f"fda-explorer://record/event/{key}")
            with pytest.raises(MCPError, match="no record"):
                await client.read_resource("fda-explorer://record/event/0000000")
            with pytest.raises(MCPError, match="resources:"):
                await client.read_resource("fda-explorer://nothing")
            return listed, templates, status, fields, guide, record

    listed, templates, status, fields, guide, record = anyio.run(main)
    assert {str(r.uri) for r in listed} == {
        "fda-explorer://status",
        "fda-explorer://fields",
        "fda-explorer://fields/guide",
    }
    assert [t.uri_template for t in templates] == ["fda-explorer://record/{dataset}/{key}"]
    st = json.loads(status.contents[0].text)["datasets"]
    assert st["event"]["as_of"] == api.as_of("event") and st["event"]["records"] > 0
    assert set(st) == set(api.datasets())
    assert "device.brand_name" in json.loads(fields.contents[0].text)["event"]
    assert guide.contents[0].mime_type == "text/markdown" and "fields.json" in guide.contents[0].text
    rec = json.loads(record.contents[0].text)
    assert [r["mdr_report_key"] for r in rec["records"]] == [key]
    assert rec["provenance"]["as_of"] == api.as_of("event") and "mdr_report_key" in rec["provenance"]["query"]


def test_streamable_http(server_factory, api):
    srv = server_factory("mcp", "--http", "0")
    assert srv.url.endswith("/mcp")

    async def main():
        async with Client(srv.url) as client:
            listed, results = await _tools_and_calls(client)
            bad = await client.call_tool("search_510k", {"date_from": "last year"})
            status = await client.read_resource("fda-explorer://status")
            return listed, results, bad, status

    listed, results, bad, status = anyio.run(main)
    assert {t.name for t in listed} == set(CALLS)
    assert all(not r.is_error for r in results.values())
    assert results["search_events"].structured_content == call(api, "search_events", CALLS["search_events"]).structured
    assert bad.is_error and "date_from" in bad.content[0].text and "valid arguments" in bad.content[0].text
    assert json.loads(status.contents[0].text)["datasets"]["510k"]["as_of"] == api.as_of("510k")
    # DNS rebinding: a page on another name that resolves to 127.0.0.1 is refused
    rebound = httpx.post(
        srv.url,
        headers={
            "Host": "evil.example",
            "Content-Type": "application/json",
            "Accept": "application/json, text/event-stream",
        },
        content=b'{"jsonrpc":"2.0","id":1,"method":"ping"}',
    )
    assert rebound.status_code in (400, 421), rebound.text
