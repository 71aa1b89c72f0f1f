"""`fda-explorer serve` over real HTTP with httpx (`--model none`): a run streamed event by event, a stream
rejoined with Last-Event-ID, two threads at once, cancel, a follow-up on the same thread, errors in one shape,
and the guards (token, Host, Origin, CORS).

A run is held at a known point by holding its thread's session lock in the test, as another process answering
on the same conversation would: the run waits there (having sent its `metadata` event) until the lock is let go.
"""

from __future__ import annotations

import json
import threading
from contextlib import contextmanager

import httpx
import pytest
from click.testing import CliRunner

from agent.cli import tools_cli
from agent.servers.cli import servers_cli
from agent.sessions import session_lock

from .conftest import events

FRN = "How many adverse events for product code FRN?"


@pytest.fixture(scope="module")
def srv(server_factory):
    return server_factory("serve", "--port", "0", "--model", "none", "--concurrency", "2")


@pytest.fixture(scope="module")
def http(srv):
    with httpx.Client(base_url=srv.url, timeout=60) as c:
        yield c


@contextmanager
def held(data, thread_id):
    """Hold the thread's session lock: a run on it waits (and can be cancelled) until the block ends."""
    with session_lock(data / "agent" / "locks", thread_id):
        yield


def ask(question: str) -> dict:
    return {"input": {"question": question}}


def test_a_streamed_run_read_event_by_event(http):
    with http.stream("POST", "/threads/s1/runs/stream", json=ask(FRN)) as resp:
        assert resp.status_code == 200 and resp.headers["content-type"].startswith("text/event-stream")
        got = list(events(resp))
    assert [e.id for e in got] == list(range(1, len(got) + 1))
    assert got[0].type == "metadata" and got[0].data["thread_id"] == "s1"
    assert resp.headers["content-location"] == f"/threads/s1/runs/{got[0].data['run_id']}"
    kinds = [e.type for e in got]
    assert "step" in kinds and kinds[-1] == "answer"
    assert kinds.index("tool_call") < kinds.index("tool_result") < kinds.index("answer")
    call = next(e for e in got if e.type == "tool_call").data
    assert call["tool"] == "search_events" and call["args"]["product_codes"] == ["FRN"]
    answer = got[-1].data
    assert answer["session"] == "s1" and "FRN" in answer["answer"] and answer["provenance"]
    run = http.get(f"/threads/s1/runs/{got[0].data['run_id']}").json()
    assert run["status"] == "success" and run["events"] == len(got)


def test_wait_answers_as_ask_json_does(http, data):
    body = http.post("/threads/w1/runs/wait", json=ask(FRN)).json()
    printed = CliRunner().invoke(tools_cli, ["ask", FRN, "--json", "--model", "none", "--data-dir", str(data)])
    assert printed.exit_code == 0, printed.output
    cli = json.loads(printed.output[printed.output.index("{") :])
    assert body.keys() == cli.keys()
    assert body["answer"] == cli["answer"] and body["session"] == "w1" and body["model"] == "none"
    assert body["provenance"] == cli["provenance"] and body["tool_calls"] == cli["tool_calls"]


def test_reconnect_mid_stream_with_last_event_id(http, data):
    with held(data, "r1"):
        with http.stream("POST", "/threads/r1/runs/stream", json=ask(FRN)) as resp:
            first = next(events(resp))  # the run has started and waits on the lock
        assert first.id == 1 and first.type == "metadata"
        run_id = first.data["run_id"]
        assert http.get(f"/threads/r1/runs/{run_id}").json()["status"] == "running"
    with http.stream("GET", f"/threads/r1/runs/{run_id}/stream", headers={"Last-Event-ID": "1"}) as resp:
        rest = list(events(resp))
    assert [e.id for e in rest] == list(range(2, len(rest) + 2)) and rest[-1].type == "answer"
    with http.stream("GET", f"/threads/r1/runs/{run_id}/stream") as resp:
        replay = list(events(resp))  # without Last-Event-ID: every event again, the same
    assert [(e.id, e.type, e.data) for e in replay] == [(e.id, e.type, e.data) for e in [first, *rest]]
    with http.stream("GET", f"/threads/r1/runs/{run_id}/stream", params={"after": len(replay) - 1}) as resp:
        assert [e.type for e in events(resp)] == ["answer"]


def test_two_threads_at_once(http, data):
    questions = {"a1": FRN, "a2": "How many 510(k) clearances are there?"}
    streams, firsts = {}, {}
    with held(data, "a1"), held(data, "a2"):
        for tid, q in questions.items():
            cm = http.stream("POST", f"/threads/{tid}/runs/stream", json=ask(q))
            streams[tid] = (cm, events(cm.__enter__()))
            firsts[tid] = next(streams[tid][1])
        runs = {tid: http.get(f"/threads/{tid}/runs/{f.data['run_id']}").json() for tid, f in firsts.items()}
        assert {r["status"] for r in runs.values()} == {"running"}  # both borrowed an assistant (--concurrency 2)
    results: dict[str, list] = {}

    def read(tid):
        results[tid] = list(streams[tid][1])

    readers = [threading.Thread(target=read, args=(tid,)) for tid in questions]
    for t in readers:
        t.start()
    for t in readers:
        t.join(60)
    for tid, (cm, _) in streams.items():
        cm.__exit__(None, None, None)
        got = results[tid]
        assert got[-1].type == "answer" and got[-1].data["session"] == tid
        assert [e.id for e in got] == list(range(2, len(got) + 2))
    assert "FRN" in results["a1"][-1].data["answer"] and "510(k)" in results["a2"][-1].data["answer"]


def test_cancel_a_run(http, data):
    with held(data, "c1"):
        with http.stream("POST", "/threads/c1/runs/stream", json=ask(FRN)) as resp:
            it = events(resp)
            run_id = next(it).data["run_id"]
            stopped = http.post(f"/threads/c1/runs/{run_id}/cancel", params={"wait": "true"}).json()
            rest = list(it)
    assert stopped["status"] == "interrupted"
    assert [e.type for e in rest] == ["cancelled"]
    join = http.get(f"/threads/c1/runs/{run_id}/join")
    assert join.status_code == 409 and join.json()["error"]["code"] == "run_cancelled"
    again = http.post(f"/threads/c1/runs/{run_id}/cancel")
    assert again.status_code == 409 and again.json()["error"]["code"] == "run_finished"
    assert http.get("/threads/c1").json()["turns"] == 0  # nothing saved to the conversation


def test_a_follow_up_on_the_same_thread(http):
    created = http.post("/threads", json={"thread_id": "f1", "metadata": {"team": "qa"}}).json()
    assert created["thread_id"] == "f1" and created["turns"] == 0 and created["metadata"] == {"team": "qa"}
    first = http.post("/threads/f1/runs/wait", json=ask("adverse events for product code FRN")).json()
    second = http.post("/threads/f1/runs/wait", json=ask("any 510(k)s for those?")).json()
    assert "FRN" in first["answer"] and second["session"] == "f1"
    assert "510(k)" in second["answer"] and "FRN" in second["answer"]  # "those" read from the thread
    thread = http.get("/threads/f1").json()
    assert thread["turns"] == 2 and thread["metadata"] == {"team": "qa"}
    assert [m["content"] for m in thread["messages"] if m["role"] == "user"] == [
        "adverse events for product code FRN",
        "any 510(k)s for those?",
    ]
    assert "f1" in [t["thread_id"] for t in http.post("/threads/search", json={"limit": 1000}).json()]
    assert len(http.get("/threads/f1/runs").json()) == 2
    assert http.delete("/threads/f1").status_code == 204
    assert http.get("/threads/f1").status_code == 404


def test_errors_have_one_shape(http, data):
    def err(resp, status, code):
        assert resp.status_code == status, resp.text
        body = resp.json()
        assert body == {"error": {"status": status, "code": code, "message": body["error"]["message"]}}
        assert body["error"]["message"]
        return body["error"]["message"]

    err(http.get("/threads/nobody"), 404, "thread_not_found")
    err(http.get("/nowhere"), 404, "not_found")
    err(http.put("/threads"), 405, "method_not_allowed")
    assert "input.question" in err(http.post("/threads/e1/runs/wait", json={"input": {}}), 422, "invalid_request")
    err(http.post("/threads/e1/runs/wait", json={}), 422, "invalid_request")
    err(http.post("/threads/bad%20id/runs/wait", json=ask(FRN)), 400, "invalid_thread_id")
    http.post("/threads", json={"thread_id": "e2"})
    err(http.post("/threads", json={"thread_id": "e2"}), 409, "thread_exists")
    err(http.get("/threads/e2/runs/nope"), 404, "run_not_found")
    msg = err(
        http.post("/threads/e2/runs/wait", json={"command": {"resume": "Class II"}}), 409, "no_clarification_pending"
    )
    assert "input.question" in msg
    err(http.post("/threads/e2/runs/wait", json={"command": {"resume": 1, "other": 2}}), 422, "invalid_request")
    with held(data, "e2"):
        with http.stream("POST", "/threads/e2/runs/stream", json=ask(FRN)) as resp:
            run_id = next(events(resp)).data["run_id"]
            err(http.post("/threads/e2/runs/wait", json=ask(FRN)), 409, "thread_busy")
            err(http.delete("/threads/e2"), 409, "thread_busy")
            http.post(f"/threads/e2/runs/{run_id}/cancel")


def test_a_clarifying_question_paused_and_resumed(http):
    """A vague question pauses the run with a `clarification` event (the LangGraph interrupt); the thread waits
    (status interrupted); a run with command.resume = N answers on that choice; a choice not offered is 422."""
    with http.stream("POST", "/threads/c1/runs/stream", json=ask("how many are there?")) as resp:
        got = list(events(resp))
    kinds = [e.type for e in got]
    assert "clarification" in kinds and kinds[-1] == "answer" and "tool_call" not in kinds
    asked = next(e for e in got if e.type == "clarification").data
    assert asked["choices"][2] == "all the 510(k) clearances" and asked["question"].endswith("?")
    assert got[-1].data["clarify"] == {"question": asked["question"], "choices": asked["choices"]}
    assert http.get("/threads/c1").json()["status"] == "interrupted"

    bad = http.post("/threads/c1/runs/wait", json={"command": {"resume": 99}})
    assert bad.status_code == 422 and bad.json()["error"]["code"] == "choice_not_offered"
    assert "1 to 8" in bad.json()["error"]["message"]
    assert http.get("/threads/c1").json()["status"] == "interrupted"  # a bad choice lets nothing lapse

    with http.stream("POST", "/threads/c1/runs/stream", json={"command": {"resume": 3}}) as resp:
        again = list(events(resp))
    kinds = [e.type for e in again]
    assert "clarification" not in kinds and kinds[-1] == "answer"
    assert next(e for e in again if e.type == "tool_call").data["tool"] == "search_510k"
    answer = again[-1].data
    assert answer["clarify"] is None and answer["answer"].startswith("Interpreted as: 510(k) clearances.")
    assert answer["interpretation"]["datasets"] == ["510k"] and answer["session"] == "c1"
    assert http.get("/threads/c1").json()["status"] == "idle"
    gone = http.post("/threads/c1/runs/wait", json={"command": {"resume": 3}})
    assert gone.status_code == 409 and gone.json()["error"]["code"] == "no_clarification_pending"


def test_wait_returns_the_clarifying_question_and_resume_by_label(http):
    body = http.post("/threads/c2/runs/wait", json=ask("how many?")).json()
    assert body["clarify"]["choices"][1] == "all the recalls" and body["answer"].startswith("Before I answer:")
    resumed = http.post("/threads/c2/runs/wait", json={"command": {"resume": "all the recalls"}})
    assert resumed.status_code == 200, resumed.text
    assert resumed.json()["interpretation"]["datasets"] == ["recall"] and resumed.json()["clarify"] is None


def test_host_and_origin_are_checked(http, srv):
    assert http.get("/ok").json()["model"] == "none"
    assert http.get("/ok", headers={"Host": f"localhost:{srv.url.rsplit(':', 1)[1]}"}).status_code == 200
    rebound = http.get("/ok", headers={"Host": "evil.example"})
    assert rebound.status_code == 400 and rebound.json()["error"]["code"] == "host_not_allowed"
    page = http.get("/ok", headers={"Origin": "http://evil.example"})
    assert page.status_code == 403 and "--cors-origin" in page.json()["error"]["message"]
    assert "access-control-allow-origin" not in page.headers
    assert http.get("/ok", headers={"Origin": srv.url}).status_code == 200  # its own origin


def test_token_and_cors(server_factory):
    srv = server_factory(
        "serve", "--port", "0", "--model", "none", "--token", "s3cret", "--cors-origin", "http://portal.example"
    )
    with httpx.Client(base_url=srv.url, timeout=60) as c:
        for path in ("/ok", "/openapi.json", "/tools"):
            refused = c.get(path)
            assert refused.status_code == 401 and refused.json()["error"]["code"] == "unauthorized"
            assert refused.headers["www-authenticate"].startswith("Bearer")
        assert c.post("/threads/t/runs/wait", json=ask(FRN)).status_code == 401
        assert c.get("/ok", headers={"Authorization": "Bearer wrong"}).status_code == 401
        auth = {"Authorization": "Bearer s3cret"}
        assert c.get("/ok", headers=auth).status_code == 200
        assert "FRN" in c.post("/threads/t/runs/wait", json=ask(FRN), headers=auth).json()["answer"]
        pre = c.options(
            "/ok",
            headers={
                "Origin": "http://portal.example",
                "Access-Control-Request-Method": "GET",
                "Access-Control-Request-Headers": "authorization",
            },
        )
        assert pre.status_code == 200 and pre.headers["access-control-allow-origin"] == "http://portal.example"
        cross = c.get("/ok", headers={**auth, "Origin": "http://portal.example"})
        assert cross.status_code == 200 and cross.headers["access-control-allow-origin"] == "http://portal.example"
        assert c.get("/ok", headers={**auth, "Origin": "http://other.example"}).status_code == 403


def test_no_other_address_without_a_token(data):
    out = CliRunner().invoke(servers_cli, ["serve", "--host", "0.0.0.0", "--model", "none", "--data-dir", str(data)])
    assert out.exit_code == 2 and "--token" in out.output and "Traceback" not in out.output
