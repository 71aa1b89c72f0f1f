"""The HTTP API's contract: the OpenAPI document lists every route with its schemas and error responses, the
running server serves that same document, and its answers validate against the document's schemas."""

from __future__ import annotations

import httpx
import jsonschema
import pytest
from fastapi.routing import APIRoute

from agent.assistant import Assistant
from agent.servers.contract import EVENT_TYPES
from agent.servers.guard import Access
from agent.servers.http import ServerState, make_app
from agent.servers.runs import AssistantPool
from agent.settings import AgentSettings
from mirror.settings import Settings

from .conftest import events

SCHEMAS = {
    "Answer",
    "ErrorBody",
    "ErrorDetail",
    "Thread",
    "ThreadDetail",
    "ThreadCreate",
    "ThreadSearch",
    "RunCreate",
    "RunInput",
    "Command",
    "RunInfo",
    "ToolInfo",
    "Health",
    "Message",
}


@pytest.fixture(scope="module")
def app(data):
    settings, agent = Settings(data_dir=data), AgentSettings(model="none")
    state = ServerState(AssistantPool(lambda: Assistant(settings, agent)), Assistant(settings, agent, model=None))
    yield make_app(state, Access.for_bind("127.0.0.1"))
    state.pool.close()
    state.admin.close()


@pytest.fixture(scope="module")
def doc(app):
    return app.openapi()


@pytest.fixture(scope="module")
def live(server_factory):
    srv = server_factory("serve", "--port", "0", "--model", "none")
    with httpx.Client(base_url=srv.url, timeout=60) as c:
        yield c


def conforms(doc: dict, schema: str, value) -> None:
    jsonschema.validate(value, {"$ref": f"#/components/schemas/{schema}", "components": doc["components"]})


def test_every_route_is_in_the_document(app, doc):
    routes = {(m.lower(), r.path) for r in app.routes if isinstance(r, APIRoute) for m in r.methods}
    listed = {(m, p) for p, ops in doc["paths"].items() for m in ops}
    assert routes == listed
    assert {
        ("post", "/threads"),
        ("post", "/threads/search"),
        ("get", "/threads/{thread_id}"),
        ("delete", "/threads/{thread_id}"),
        ("post", "/threads/{thread_id}/runs/wait"),
        ("post", "/threads/{thread_id}/runs/stream"),
        ("get", "/threads/{thread_id}/runs/{run_id}/stream"),
        ("post", "/threads/{thread_id}/runs/{run_id}/cancel"),
    } <= listed


def test_schemas_and_error_responses_are_documented(doc):
    assert SCHEMAS <= set(doc["components"]["schemas"])
    for path, ops in doc["paths"].items():
        for method, op in ops.items():
            assert op.get("summary"), (method, path)
            ok = op["responses"].get("200") or op["responses"].get("204")
            assert ok, (method, path)
            for status in ("400", "401", "403", "404", "409", "422", "500"):
                ref = op["responses"][status]["content"]["application/json"]["schema"]["$ref"]
                assert ref == "#/components/schemas/ErrorBody", (method, path, status)
            if path.endswith("/stream"):
                assert "text/event-stream" in ok["content"], path
            elif method == "post" and "/runs" in path and not path.endswith("/cancel"):
                body = op["requestBody"]["content"]["application/json"]["schema"]
                assert body == {"$ref": "#/components/schemas/RunCreate"}, path
    stream = doc["paths"]["/threads/{thread_id}/runs/{run_id}/stream"]["get"]
    assert "Last-Event-ID" in {p["name"] for p in stream["parameters"]}


def test_the_server_serves_the_document_and_answers_by_it(live, doc):
    assert live.get("/openapi.json").json() == doc
    conforms(doc, "Health", live.get("/ok").json())
    conforms(doc, "Thread", live.post("/threads", json={"thread_id": "k1"}).json())
    conforms(
        doc,
        "Answer",
        live.post("/threads/k1/runs/wait", json={"input": {"question": "How many PMA approvals are there?"}}).json(),
    )
    conforms(doc, "ThreadDetail", live.get("/threads/k1").json())
    runs = live.get("/threads/k1/runs").json()
    for r in runs:
        conforms(doc, "RunInfo", r)
    for t in live.post("/threads/search", json={}).json():
        conforms(doc, "Thread", t)
    for t in live.get("/tools").json():
        conforms(doc, "ToolInfo", t)
    conforms(doc, "ErrorBody", live.get("/threads/none").json())
    conforms(doc, "ErrorBody", live.post("/threads/k1/runs/wait", json={"input": {"question": ""}}).json())
    with live.stream("GET", f"/threads/k1/runs/{runs[0]['run_id']}/stream") as resp:
        kinds = {e.type for e in events(resp)}
    assert {"metadata", "step", "tool_call", "tool_result", "answer"} <= kinds <= set(EVENT_TYPES)
    described = doc["paths"]["/threads/{thread_id}/runs/stream"]["post"]["responses"]["200"]["description"]
    assert all(kind in described for kind in EVENT_TYPES)
