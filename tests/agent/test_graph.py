"""Graph paths on the sample mirror: guardrail, deterministic plans, follow-ups, reflection, a scripted model
(plans, grounding, failures), sessions across restarts, events and the audit log."""

from __future__ import annotations

import json
import shutil

import pytest

from agent.assistant import Assistant
from agent.models import ScriptedModel
from agent.settings import AgentSettings
from mirror.settings import Settings
from mirror.store.files import Store


@pytest.fixture
def data(sample_dir, tmp_path):
    """A private copy of the sample mirror (sessions and audit logs are written into the data folder)."""
    d = tmp_path / "data"
    shutil.copytree(sample_dir / "db", d / "db")
    return d


def make(data, model=None, **kw) -> Assistant:
    return Assistant(Settings(data_dir=data), AgentSettings(model="none", **kw), model=model)


def sql(data, q):
    con = Store(data).connect()
    try:
        return con.execute(q).fetchone()[0]
    finally:
        con.close()


@pytest.mark.parametrize(
    "question,route",
    [
        ("", "empty"),
        ("   ", "empty"),
        ("hello!", "greeting"),
        ("help", "help"),
        ("What is the weather in Paris?", "off_topic"),
        ("Write me a poem about spring", "off_topic"),
        ("Should I have my pacemaker replaced? I feel dizzy.", "medical"),
    ],
)
def test_guardrail_answers_without_tools_or_model(data, question, route):
    model = ScriptedModel([])  # any model call would fail: the script is empty
    a = make(data, model)
    try:
        out = a.ask(question)
    finally:
        a.close()
    assert out["route"] == route and out["tool_calls"] == [] and out["model_calls"] == 0 and model.calls == 0
    assert out["answer"] and out["citations"] == []
    if route == "medical":
        assert "can't give personal medical advice" in out["answer"] and "recalls" in out["answer"]


def test_count_question_without_a_model_is_answered_from_the_data(data):
    a = make(data)
    try:
        out = a.ask("How many adverse events were reported for product code OZP?")
    finally:
        a.close()
    total = sql(
        data, "SELECT count(DISTINCT mdr_report_key) FROM device_event_device WHERE device_report_product_code='OZP'"
    )
    assert [c["tool"] for c in out["tool_calls"]] == ["search_events"]
    assert out["tool_calls"][0]["args"]["product_codes"] == ["OZP"]
    assert out["answer"].startswith("Interpreted as: adverse event reports (MAUDE); product code OZP")
    assert f"\n\n{total:,} adverse event reports for product code OZP" in out["answer"]
    assert "adverse event reports as of 2025-09-23" in out["answer"]
    assert out["interpretation"]["datasets"] == ["event"] and out["clarify"] is None
    keys = {c["id"].split("=")[1] for c in out["citations"]}
    assert keys and all(sql(data, f"SELECT count(*) FROM device_event WHERE mdr_report_key='{k}'") == 1 for k in keys)
    assert out["model_calls"] == 0 and out["model"] == "none"
    assert out["tool_calls"][0]["queries"][0].startswith("search=device.device_report_product_code.exact")


def test_follow_up_reuses_the_resolved_product_codes(data):
    a = make(data)
    try:
        first = a.ask("adverse events for product code FOZ", session_id="s1")
        follow = a.ask("Any recalls for those?", session_id="s1")
    finally:
        a.close()
    assert first["tool_calls"][0]["args"]["product_codes"] == ["FOZ"]
    call = follow["tool_calls"][-1]
    assert call["tool"] == "search_recalls" and call["args"]["product_codes"] == ["FOZ"]
    assert "Z-0053-2020" in follow["answer"]


def test_trend_and_top_questions_use_count_by(data):
    a = make(data)
    try:
        trend = a.ask("Trend of adverse events per year")
        top = a.ask("Which product codes have the most adverse events?")
    finally:
        a.close()
    assert trend["tool_calls"][0]["tool"] == "count_by" and trend["tool_calls"][0]["args"]["field"] == "year"
    assert "2023: 5" in trend["answer"] and "2008: 1" in trend["answer"]
    assert top["tool_calls"][0]["args"]["field"] == "product_code" and "JAA: 2" in top["answer"]


def test_multi_part_question_searches_each_dataset(data):
    a = make(data)
    try:
        out = a.ask("How many recalls and adverse events and 510(k) clearances are there for product code GEI?")
    finally:
        a.close()
    assert {c["tool"] for c in out["tool_calls"]} == {"search_recalls", "search_events", "search_510k"}
    assert "K202114" in out["answer"]


def test_a_filter_a_dataset_lacks_is_dropped_and_the_counts_say_so(data):
    """The search is retried without the filter; the answer says first that its counts are of every place (issue 14,
    the accounting check), and never says them of the place asked. This test asserted only the note before."""
    a = make(data)
    try:
        out = a.ask("PMA approvals from the US in 2020")
    finally:
        a.close()
    tools = [(c["tool"], c["ok"]) for c in out["tool_calls"]]
    assert ("search_pma", False) in tools and ("search_pma", True) in tools
    body = out["answer"].split("\n\n", 1)[1]
    assert body.startswith("These records cannot be narrowed to a place (United States), so the search ran without it")
    assert "the country filter does not apply to one of the datasets, so that search ran without it" in out["answer"]
    assert "in the United States" not in body.split("\n")[0].split(": the counts below")[1]


PROBE_ANSWERS = [
    "There were 12 adverse event reports for product code DXY in 2023; the newest is report 16081310.",
    "There were 3 recalled products from Arrow International Inc; the newest is recall Z-0053-2020.",
]


def test_a_model_reads_what_the_rules_cannot_and_its_summary_is_grounded(data):
    """Words the rules cannot place: the model fills the reading's schema (only words of the question are kept, and
    the rules read them again); a model that passes the probe questions adds a grounded summary."""
    model = ScriptedModel(
        [
            {"dataset": "510k", "device": "", "firm": "", "record": "K202114"},
            *PROBE_ANSWERS,
            "There is 1 clearance, K202114, decided 2020-10-06. Another 4,321 were refused in K999999.",
        ]
    )
    a = make(data, model)
    try:
        out = a.ask("frobnicate wibble K202114 zorp")  # noise the rules cannot read around a K number
    finally:
        a.close()
    assert [c["tool"] for c in out["tool_calls"]] == ["search_510k"]
    assert out["tool_calls"][0]["args"]["filters"] == {"k_number": ["K202114"]}
    assert out["answer"].startswith("Interpreted as: 510(k) clearances; K202114")
    assert "Summary: There is 1 clearance, K202114" in out["answer"]
    assert "4,321" not in out["answer"] and "K999999" not in out["answer"]
    assert out["model_calls"] == 2 and model.calls == 4  # reading, two probes, summary


def test_a_model_cannot_put_words_into_the_question_and_a_failing_model_does_not_fail_the_user(data):
    model = ScriptedModel([{"dataset": "510k", "device": "", "firm": "", "record": "K999999"}])
    a = make(data, model)
    try:
        out = a.ask("zxqv wibble frob")
    finally:
        a.close()
    assert out["tool_calls"] == [] and "did not understand" in out["answer"] and model.calls == 1
    model = ScriptedModel([RuntimeError("model crashed"), RuntimeError("again"), RuntimeError("and again")])
    a = make(data, model)
    try:
        out = a.ask("How many adverse events for product code OZP?")
    finally:
        a.close()
    assert "2 adverse event reports for product code OZP" in out["answer"] and "Summary" not in out["answer"]


def test_a_model_that_fails_the_quality_check_writes_no_summary_and_says_so_once(data):
    model = ScriptedModel(["OZP OZP OZP match the Malfunction with the Malfunction", "word salad", "unused"])
    a = make(data, model)
    try:
        events = list(a.stream("How many adverse events for product code OZP?"))
        again = list(a.stream("How many adverse events for product code OZO?"))
    finally:
        a.close()
    notes = [e["message"] for e in events + again if e["type"] == "note"]
    assert len([n for n in notes if "quality check" in n]) == 1
    assert "Summary" not in events[-1]["answer"] and model.calls == 2


def test_a_tie_is_asked_about_and_the_pick_resumes_the_graph(data):
    """A weak reading becomes a clarifying question (a LangGraph interrupt); the next message picks."""
    a = make(data)
    try:
        first = a.ask("recalls for Medline", session_id="tie")
        assert first["clarify"]["choices"] and first["tool_calls"] == []
        assert first["answer"].startswith("Before I answer:")
        picked = a.ask("1", session_id="tie")
        assert picked["clarify"] is None and picked["tool_calls"]
        assert picked["answer"].startswith("Interpreted as:")
        other = a.ask("recalls for Medline", session_id="tie2")
        moved_on = a.ask("adverse events for product code OZP", session_id="tie2")  # not a choice: a new question
        assert other["clarify"] and moved_on["tool_calls"][0]["args"]["product_codes"] == ["OZP"]
    finally:
        a.close()


def test_a_missing_model_falls_back_to_none_with_a_note(data, tmp_path):
    a = Assistant(Settings(data_dir=data), AgentSettings(model=f"llamacpp:{tmp_path / 'missing.gguf'}"))
    try:
        events = list(a.stream("How many adverse events for product code OZP?"))
    finally:
        a.close()
    assert events[0]["type"] == "note" and "missing.gguf" in events[0]["message"]
    assert events[-1]["type"] == "answer" and events[-1]["model"] == "none"


def test_events_stream_in_order(data):
    a = make(data)
    try:
        events = list(a.stream("adverse events for product code OZP in 2023"))
    finally:
        a.close()
    kinds = [e["type"] for e in events]
    assert kinds[0] == "step" and kinds[-1] == "answer"
    assert kinds.index("tool_call") < kinds.index("tool_result") < kinds.index("answer")
    final = events[-1]
    assert final["citations"] and final["provenance"][0]["as_of"] == "2025-09-23"


def test_sessions_persist_across_restarts_and_audit_is_written(data):
    a = make(data)
    out = a.ask("How many 510(k) clearances for product code GEI?", session_id="keep-me")
    a.close()
    audit = json.loads(open(out["audit"]).read())
    assert audit["question"].startswith("How many 510(k)") and audit["tool_calls"][0]["queries"]
    assert audit["as_of"]["510k"] == "2025-09-22" and audit["model"] == "none"
    assert open(out["audit"].replace(".json", ".md")).read().startswith("# Audit: How many 510(k)")
    b = make(data)
    try:
        listed = {s["session"]: s for s in b.sessions()}
        assert listed["keep-me"]["turns"] == 1
        assert [m["role"] for m in b.history("keep-me")] == ["user", "assistant"]
        follow = b.ask("any recalls for those?", session_id="keep-me")
        assert follow["tool_calls"][-1]["args"].get("product_codes") == ["GEI"]
        b.delete_session("keep-me")
        assert "keep-me" not in {s["session"] for s in b.sessions()}
    finally:
        b.close()


def test_the_graph_on_an_ollama_model_through_the_stand_in(data):
    """ChatOllama (langchain-ollama) against the Ollama stand-in server (tests/agent/ollama_standin.py: no real
    Ollama can be installed here): the model's reading is schema-constrained, its summary kept only where grounded."""
    from agent.settings import AgentSettings as AS

    from .ollama_standin import OllamaStandIn

    with OllamaStandIn(models=["qwen2.5:0.5b"]) as srv:
        srv.reply(
            json.dumps({"dataset": "510k", "device": "", "firm": "", "record": "K202114"}),
            *PROBE_ANSWERS,
            "K202114 is the 1 clearance found. It was decided in 1999 for 12 devices.",
        )
        a = Assistant(Settings(data_dir=data), AS(model="ollama:qwen2.5:0.5b", ollama_url=srv.url))
        try:
            out = a.ask("frobnicate wibble K202114 zorp")
        finally:
            a.close()
        chats = srv.chats()
    assert out["model"] == "ollama:qwen2.5:0.5b" and out["model_calls"] == 2
    assert out["tool_calls"][-1]["tool"] == "search_510k" and out["tool_calls"][-1]["ok"]
    assert chats[0]["format"]["properties"]["dataset"]["enum"][0] == "event"  # the reading was constrained
    assert "Summary: K202114 is the 1 clearance found." in out["answer"]
    assert "1999" not in out["answer"] and "12 devices" not in out["answer"]
    assert {"dataset": "device/510k", "id": "k_number=K202114"} in out["citations"]


def test_a_cancelled_answer_stops_at_the_next_step_and_the_session_goes_on(data):
    """Cancel after the first tool call: no tool result, no answer, nothing audited; the session still answers."""
    import threading

    a = make(data)
    cancel = threading.Event()
    try:
        events = []
        for ev in a.stream("adverse events for product code OZP in 2023", "cut", cancel):
            events.append(ev)
            if ev["type"] == "tool_call":
                cancel.set()
        kinds = [e["type"] for e in events]
        assert kinds[-1] == "cancelled" and "answer" not in kinds and "tool_result" not in kinds
        assert not (data / "agent" / "audit").exists() or not list((data / "agent" / "audit").glob("*.json"))
        follow = a.ask("adverse events for product code OZP in 2023", session_id="cut")
        assert follow["citations"] and "OZP" in json.dumps(follow["tool_calls"])
        assert [m["role"] for m in a.history("cut")][-2:] == ["user", "assistant"]
    finally:
        a.close()


def test_grounding_does_not_let_a_record_id_or_a_date_pass_as_a_count():
    """A number written as a count must be a count of the evidence, not a record ID or a year in it."""
    from agent.answer import grounded

    evidence = [
        {
            "tool": "search_events",
            "total": 7,
            "id_fields": ["mdr_report_key"],
            "rows": [
                {"mdr_report_key": "1312172", "date_received": "2023-03-01"},
                {"mdr_report_key": "1312173", "date_received": "2023-04-01"},
            ],
        },
        {"tool": "count_by", "total": 7, "rows": [{"year": "2023", "count": 5}, {"year": "2022", "count": 2}]},
    ]
    text = (
        "There were 1312172 adverse events. There were 7 adverse events, including report 1312172. "
        "In 2023 there were 5 reports. There were 2023 serious injury reports. A total of 1312173 was seen. "
        "2 reports are listed."
    )
    kept, removed = grounded(text, evidence)
    assert removed == [
        "There were 1312172 adverse events.",
        "There were 2023 serious injury reports.",
        "A total of 1312173 was seen.",
    ]
    assert kept == (
        "There were 7 adverse events, including report 1312172. In 2023 there were 5 reports. 2 reports are listed."
    )


def test_a_stream_left_unread_stops_its_run_before_the_next_question(data):
    """Closing the generator mid-run (Ctrl+C, a closed window) stops the run; the next question is answered
    in the same session with no event of the old run leaking into its stream."""
    a = make(data)
    try:
        events = a.stream("adverse events for product code OZP in 2023", "left")
        first = next(events)
        assert first["type"] == "step"
        events.close()  # the reader goes away
        kinds = [e["type"] for e in a.stream("recalls for product code FOZ", "left")]
        assert kinds[0] == "step" and kinds[-1] == "answer" and kinds.count("answer") == 1
        assert [m["role"] for m in a.history("left")][-2:] == ["user", "assistant"]
    finally:
        a.close()
