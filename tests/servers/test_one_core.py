"""One core: the CLI (`fda-explorer tools --json`), the MCP server and the HTTP API list the same tools of the one
registry, with the same descriptions and the same argument schemas; every surface runs the one Assistant."""

from __future__ import annotations

import ast
import json
import sys

import anyio
import httpx
from click.testing import CliRunner
from mcp import Client, StdioServerParameters

from agent.cli import tools_cli
from agent.tools import TOOLS

from .conftest import ROOT

MCP_ONLY = {"openfda_query"}  # the local openFDA query: for MCP hosts that write openFDA queries themselves


def test_every_surface_lists_the_same_tools_with_the_same_schemas(data, server_factory):
    printed = CliRunner().invoke(tools_cli, ["tools", "--json"])
    assert printed.exit_code == 0, printed.output
    cli = {t["name"]: t for t in json.loads(printed.output)}

    async def listed():
        params = StdioServerParameters(
            command=sys.executable, args=["-m", "agent.servers", "mcp", "--data-dir", str(data)], cwd=str(ROOT)
        )
        async with Client(params) as client:
            return (await client.list_tools()).tools

    mcp = {t.name: t for t in anyio.run(listed)}
    srv = server_factory("serve", "--port", "0", "--model", "none")
    http = {t["name"]: t for t in httpx.get(f"{srv.url}/tools", timeout=60).json()}

    assert list(cli) == list(TOOLS) and set(http) == set(cli) and set(mcp) == set(cli) | MCP_ONLY
    for name, t in cli.items():
        schema = TOOLS[name].args.model_json_schema()
        assert mcp[name].input_schema == schema == http[name]["input_schema"], name
        assert mcp[name].description == t["description"] == http[name]["description"], name
        assert mcp[name].output_schema == http[name]["output_schema"], name
        assert [p["name"] for p in t["params"]] == list(schema["properties"]), name
        assert {p["name"] for p in t["params"] if p["required"]} == set(schema.get("required", [])), name


def test_every_surface_runs_the_one_assistant():
    """The CLI, the app and the HTTP API build `agent.assistant.Assistant`; no server defines tools of its own."""

    def imports(path):
        tree = ast.parse((ROOT / path).read_text())
        return {
            ("." * n.level + (n.module or ""), a.name)
            for n in ast.walk(tree)
            if isinstance(n, ast.ImportFrom)
            for a in n.names
        }

    assert ("agent.assistant", "Assistant") in imports("app/backend.py")
    assert (".assistant", "Assistant") in imports("agent/cli.py")
    assert ("..assistant", "Assistant") in imports("agent/servers/cli.py")
    for path in (ROOT / "agent" / "servers").glob("*.py"):
        text = path.read_text()
        assert "@tool(" not in text and "TOOLS[" not in text, path.name
