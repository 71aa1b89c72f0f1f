"""The app without a window: the controller and its screens' models on a real sample mirror, model none."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest

from app.backend import Backend
from app.banners import info
from app.config import AppConfig, load_config
from app.controller import Controller

from .conftest import free_port, wait_for


class Recorder:
    def __init__(self) -> None:
        self.topics: list[str] = []

    def __call__(self, topic: str) -> None:
        self.topics.append(topic)


def controller(data: Path, tmp_path: Path, backend_class=Backend, **config) -> tuple[Controller, Recorder]:
    c = Controller(
        backend_class(AppConfig(model=config.pop("model", "none"), data_dir=data, **config)), tmp_path / "app.json"
    )
    seen = Recorder()
    c.subscribe(seen)
    return c, seen


@pytest.fixture
def app(sample_mirror, mirror_copy, tmp_path):
    c, seen = controller(mirror_copy(sample_mirror), tmp_path)
    c.start()
    assert c.jobs.wait(60)
    yield c, seen
    c.shutdown()


def ask(c: Controller, question: str):
    assert c.ask.send(question)
    assert c.jobs.wait(30)
    return c.ask.turns[-1]


def test_an_answer_with_timeline_citations_table_and_record(app):
    c, seen = app
    assert c.first_run is False and "warm" in seen.topics
    turn = ask(c, "adverse event reports for product code JAA")
    assert turn.status == "done" and c.ask.session_id == turn.payload["session"]
    assert [e.kind for e in turn.entries] == ["step", "step", "tool", "result", "step"]
    assert (
        "query",
        'search=device.device_report_product_code.exact:"JAA"&limit=10&sort=date_received:desc',
    ) in turn.entries[3].details
    assert [x["id"] for x in turn.citations] == ["mdr_report_key=1312172", "mdr_report_key=1000006"]
    [table] = turn.tables
    assert table.total == 2 and table.rows[0]["report_number"] == "1720753-2008-26826" and turn.chart is None
    assert turn.as_of == {"device/event": "2025-09-23"}
    c.ask.sort(0, 0, 0, True)
    assert [r["mdr_report_key"] for r in table.rows] == ["1000006", "1312172"]
    c.ask.open_citation(0, 0)
    assert c.ask.record.loading is True
    assert c.jobs.wait(10)
    record = json.loads(c.ask.record.text)
    assert record["mdr_report_key"] == "1312172" and record["device"][0]["brand_name"] == "GE OEC 9800"
    groups = {g.title: {f.label: f.value for f in g.fields} for g in c.ask.record.groups}
    assert (
        groups["Key facts"]["Report number"] == "1720753-2008-26826" and groups["Key facts"]["Received"] == "2009-02-17"
    )
    assert groups["Device"]["Brand"] == "GE OEC 9800"
    narratives = [f for g in c.ask.record.groups for f in g.fields if f.narrative]
    assert narratives and all("\\r\\n" not in f.value and "\r" not in f.value for f in narratives)
    assert c.ask.record.title == "MAUDE adverse events record 1312172"
    assert c.key("Escape") == "handled" and c.ask.record is None


def test_exports_are_written_to_the_export_folder_with_a_banner(app):
    c, _ = app
    ask(c, "adverse events by year")
    assert c.ask.turns[0].chart.kind == "line"
    for fmt in ("md", "csv", "xlsx", "pdf"):
        c.ask.export(0, fmt)
    assert c.jobs.wait(20)
    paths = [Path(p) for p in c.ask.turns[0].exports]
    assert [p.suffix for p in paths] == [".md", ".csv", ".xlsx", ".pdf"]
    assert all(p.parent == c.backend.config.exports and "asof-2025-09-23" in p.name for p in paths)
    assert c.banner.level == "info" and str(paths[-1]) in c.banner.message


def test_sessions_are_listed_searched_resumed_and_deleted(app):
    c, _ = app
    ask(c, "adverse events by year")
    first = c.ask.session_id
    assert c.key("k", ctrl=True) == "handled" and c.ask.session_id is None and c.ask.turns == []
    ask(c, "recalls for product code FOZ")
    c.go("sessions")
    assert c.jobs.wait(10)
    assert [s.title for s in c.sessions.items] == ["recalls for product code FOZ", "adverse events by year"]
    c.sessions.search("2023: 5")  # words of an answer find its session
    assert [s.session for s in c.sessions.visible] == [first]
    c.resume(first)
    assert c.jobs.wait(10)
    assert c.screen == "ask" and c.ask.session_id == first
    assert [t.question for t in c.ask.turns] == ["adverse events by year"] and "2023: 5" in c.ask.turns[0].answer
    ask(c, "and by month?")  # the resumed conversation goes on
    assert c.ask.session_id == first and len(c.ask.turns) == 2
    c.sessions.request_delete(first)
    assert c.sessions.confirming == first
    c.sessions.delete(first)
    assert c.jobs.wait(10)
    assert c.ask.session_id is None and c.ask.turns == []  # the deleted conversation left the Ask screen too
    assert [s.title for s in c.sessions.items] == ["recalls for product code FOZ"] and c.sessions.confirming is None


def test_a_cancelled_answer_frees_the_question_box_at_once(sample_mirror, mirror_copy, tmp_path):
    release = threading.Event()
    seen_cancel: list[bool] = []

    class Slow(Backend):
        def stream(self, question, session_id, cancel=None):
            for i, ev in enumerate(super().stream(question, session_id, cancel)):
                if i == 1 and question == "slow":
                    seen_cancel.append(cancel is not None and cancel.wait(30))
                    release.wait(30)  # the agent is busy (a long model call)
                yield ev

    c, _ = controller(mirror_copy(sample_mirror), tmp_path, Slow)
    try:
        assert c.ask.send("slow")
        wait_for(lambda: c.ask.turns[0].entries, 30, "the first step")
        c.key("Escape")
        assert c.ask.turns[0].status == "cancelled" and not c.ask.busy
        assert c.ask.take_draft() == "slow"  # nothing is lost: the question goes back in the box
        assert c.ask.send("adverse events by year")
        assert c.ask.turns[1].entries[0].title == "Waiting for the cancelled answer to stop…"
        release.set()
        assert c.jobs.wait(30)
        assert c.ask.turns[0].status == "cancelled" and c.ask.turns[0].answer == ""
        assert seen_cancel == [True]  # the assistant was told to stop, not left to finish
        assert c.ask.turns[1].status == "done" and "2023: 5" in c.ask.turns[1].answer
    finally:
        release.set()
        c.shutdown()


def test_first_run_offers_the_sample_and_an_empty_mirror_is_a_banner(tmp_path):
    c, seen = controller(tmp_path / "empty", tmp_path)
    try:
        c.start()
        assert c.jobs.wait(30) and c.first_run and c.data.empty
        assert c.ask.send("adverse events by year") and c.jobs.wait(30)
        assert c.ask.turns[0].status == "failed"
        assert (c.banner.target, c.banner.action) == ("data", "Open Data") and "no data yet" in c.banner.message
        assert c.ask.take_draft() == "adverse events by year"
        c.banner_action()
        assert c.screen == "data" and c.banner is None
        c.data.load_sample()
        assert c.data.run.phase in ("planning", "running", "done")
        assert c.jobs.wait(60)
        assert c.data.run.phase == "done" and not c.first_run
        assert {r.name: r.records for r in c.data.rows}["classification"] == 6530
        assert ask(c, "adverse events by year").status == "done"
    finally:
        c.shutdown()


def test_sync_from_the_sample_changes_the_counts_and_can_be_cancelled(partial_mirror, mirror_copy, tmp_path):
    c, _ = controller(mirror_copy(partial_mirror), tmp_path)
    try:
        c.data.refresh()
        assert c.jobs.wait(30) and "510k" not in {r.name for r in c.data.rows}
        assert {r.badge for r in c.data.rows} == {"stale"} and c.data.disk_use > c.data.mirror_bytes > 0
        c.data.set_source("folder")
        c.data.sync_now("")
        assert c.data.run is None and "Type or paste the bundle's folder" in c.banner.message
        c.data.set_source("sample")
        c.data.sync_now()
        c.data.cancel_sync()  # before its first file: nothing changes
        assert c.jobs.wait(60)
        assert c.data.run.phase == "cancelled" and "510k" not in {r.name for r in c.data.rows}
        c.data.sync_now()
        assert c.jobs.wait(60)
        run = c.data.run
        assert run.phase == "done" and {p["dataset"]: p["status"] for p in run.plan}["510k"] == "to update"
        assert {r["dataset"]: r["status"] for r in run.results} == {
            **{
                d: "up-to-date"
                for d in (
                    "event",
                    "recall",
                    "enforcement",
                    "classification",
                    "udi",
                    "registrationlisting",
                    "covid19serology",
                    "gudid",
                )
            },
            "510k": "updated",
            "pma": "updated",
        }
        assert {r.name: r.records for r in c.data.rows}["510k"] == 7
        # per-file progress reached the screen's model: both files fetched in full and loaded
        assert {n.split("/")[1] for n in run.files} == {"510k", "pma"} and all(f[2] for f in run.files.values())
        assert all(f[0] == f[1] > 0 for f in run.files.values()) and run.in_flight() == []
        assert run.fraction == 1.0 and run.records_done == run.records_total > 0
    finally:
        c.shutdown()


def test_a_bundle_folder_that_is_not_one_is_a_banner(sample_mirror, mirror_copy, tmp_path):
    c, _ = controller(mirror_copy(sample_mirror), tmp_path)
    try:
        c.data.set_source("folder")
        (tmp_path / "nowhere").mkdir()
        (tmp_path / "nowhere" / "download.json").write_text("not json")  # looks like a bundle, is not one
        c.data.sync_now(str(tmp_path / "nowhere"))
        assert c.jobs.wait(30)
        assert c.data.run.phase == "failed" and c.banner.level == "error" and "mirror keeps" in c.banner.message
        assert "nowhere" in c.banner.details and "`" not in c.banner.message
    finally:
        c.shutdown()


def test_settings_are_checked_saved_applied_and_an_unreachable_model_is_a_banner(sample_mirror, mirror_copy, tmp_path):
    c, seen = controller(mirror_copy(sample_mirror), tmp_path)
    try:
        form = c.settings
        form.set("model_kind", "gguf")
        form.set("gguf_path", str(tmp_path / "missing.gguf"))
        assert form.save() is False and "gguf_path" in form.errors and "Settings not saved" in c.banner.message
        dead = f"http://127.0.0.1:{free_port()}"
        form.set("model_kind", "ollama")
        form.set("ollama_url", dead)
        form.test_ollama()
        assert c.jobs.wait(30) and "not reachable" in form.ollama_status and form.ollama_models == []
        form.set("ollama_model", "llama3.2")
        form.set("theme", "dark")
        themes: list[str] = []
        c.subscribe(lambda topic: topic == "theme" and themes.append(c.config.theme))
        assert form.save() is True and themes == ["dark"]  # drawn at once, not after the backend switches
        c.go("settings")
        assert form.values["theme"] == "dark"  # and the form shows what was saved
        saved = load_config(tmp_path / "app.json", c.backend.config)
        assert (saved.model, saved.ollama_url, saved.theme) == ("ollama:llama3.2", dead, "dark")
        assert c.jobs.wait(30) and c.backend.config.model == "ollama:llama3.2"
        turn = ask(c, "adverse events by year")  # answered without the model, and told so
        assert turn.status == "done"
        assert (c.banner.target, c.banner.action) == (
            "settings",
            "Open Settings",
        ) and "not available" in c.banner.message
        assert "Ollama" in c.banner.details
    finally:
        c.shutdown()


def test_an_ollama_server_on_another_computer_is_saved_only_once_confirmed(sample_mirror, mirror_copy, tmp_path):
    c, _ = controller(mirror_copy(sample_mirror), tmp_path)
    path, url = tmp_path / "app.json", f"http://0.0.0.0:{free_port()}"  # not loopback; refused at once, no DNS
    try:
        form = c.settings
        form.set("model_kind", "ollama")
        form.set("ollama_url", url)
        form.set("ollama_model", "llama3.2")
        assert form.save() is False and form.remote == "0.0.0.0" and not path.exists()
        question = form.remote_question()
        assert (
            f"every question you ask, and the FDA records the assistant reads to answer it, are sent to the "
            f"Ollama server at {url}. That is another computer (0.0.0.0)" in question
        )
        form.cancel_remote()
        assert form.remote == "" and not path.exists() and "Settings not saved" in c.banner.message
        assert c.config.model == "none"
        assert form.save() is False and form.remote == "0.0.0.0"
        form.confirm_remote()
        saved = json.loads(path.read_text())
        assert (saved["model"], saved["ollama_url"], saved["ollama_remote_confirmed"]) == ("ollama:llama3.2", url, url)
        assert c.config.ollama_remote_confirmed == url and form.remote == ""
        c.go("settings")
        assert form.save() is True  # confirmed once: saving again does not ask
    finally:
        c.shutdown()


def test_the_ollama_test_lists_the_models(sample_mirror, mirror_copy, tmp_path):
    from tests.agent.ollama_standin import OllamaStandIn

    c, _ = controller(mirror_copy(sample_mirror), tmp_path)
    try:
        with OllamaStandIn(models=["qwen2.5:0.5b", "llama3.2:1b"]) as srv:
            c.settings.set("ollama_url", srv.url)
            c.settings.test_ollama()
            assert c.jobs.wait(30)
        assert c.settings.ollama_models == ["qwen2.5:0.5b", "llama3.2:1b"]
        assert c.settings.values["ollama_model"] == "qwen2.5:0.5b" and "2 models" in c.settings.ollama_status
    finally:
        c.shutdown()


def test_shortcuts_and_navigation(app):
    c, seen = app
    assert c.key("q", ctrl=True) == "quit" and c.key("x") == ""
    c.go("settings")
    assert c.screen == "settings" and seen.topics[-1] == "screen"
    with pytest.raises(ValueError):
        c.go("nowhere")
    c.report(info("hello"))
    assert c.banner.message == "hello"
    c.dismiss_banner()
    assert c.banner is None


def test_a_reopened_conversation_is_whole_after_a_restart(sample_mirror, mirror_copy, tmp_path):
    """Every answer comes back as it was shown: reading, timeline, sources, tables, chart, and it still exports."""
    data = mirror_copy(sample_mirror)
    c, _ = controller(data, tmp_path)
    try:
        ask(c, "adverse event reports for product code JAA")
        ask(c, "adverse events by month in 2023")
        session, before = c.ask.session_id, [(t.answer, t.citations, len(t.entries)) for t in c.ask.turns]
    finally:
        c.shutdown()
    c, _ = controller(data, tmp_path)  # a new app on the same data folder
    try:
        c.start()
        c.resume(session)
        assert c.jobs.wait(30)
        turns = c.ask.turns
        assert [(t.answer, t.citations, len(t.entries)) for t in turns] == before
        assert c.ask.title == "adverse event reports for product code JAA"
        assert turns[0].interpretation["datasets"] == ["event"] and turns[0].tables[0].total == 2
        assert turns[0].as_of == {"device/event": "2025-09-23"} and turns[0].entries[-1].title.startswith("Checked")
        assert turns[1].chart.kind == "line" and len(turns[1].chart.points) == 12  # zero-filled over 2023
        c.ask.open_citation(0, 1)
        c.ask.export(1, "xlsx")
        assert c.jobs.wait(20)
        assert c.ask.record.groups and Path(turns[1].exports[0]).exists()
        ask(c, "and by year?")  # the conversation goes on in the same session
        assert c.ask.session_id == session and len(c.ask.turns) == 3
    finally:
        c.shutdown()


def test_a_conversation_asked_outside_the_app_is_rebuilt_from_its_audit_log(sample_mirror, mirror_copy, tmp_path):
    from agent.assistant import Assistant
    from agent.settings import AgentSettings
    from mirror.settings import Settings

    data = mirror_copy(sample_mirror)
    a = Assistant(Settings(data_dir=data), AgentSettings(model="none"))
    try:
        final = a.ask("recalls by Arrow International since 2019")  # as `fda-explorer ask` would
    finally:
        a.close()
    c, _ = controller(data, tmp_path)
    try:
        c.resume(final["session"])
        assert c.jobs.wait(30)
        [turn] = c.ask.turns
        assert turn.answer == final["answer"] and turn.citations == final["citations"]
        assert [r["product_res_number"] for r in turn.tables[0].rows] == ["Z-0053-2020"]  # fetched again
        assert "fetched again from the same data" in turn.note and turn.as_of == {"device/recall": "2017-12-02"}
        assert [e.kind for e in turn.entries] == ["step", "result"] and turn.entries[1].details[-1][0] == "query"
    finally:
        c.shutdown()


def test_a_clarifying_question_is_answered_by_a_choice_and_a_table_shows_all_its_rows(app):
    c, _ = app
    turn = ask(c, "pacemakers")
    assert turn.clarify and turn.clarify["question"].startswith('"pacemakers" names')
    assert c.ask.choose(0, len(turn.clarify["choices"]) - 1)  # all the product codes
    assert c.jobs.wait(30)
    answer = c.ask.turns[-1]
    assert answer.question == turn.clarify["choices"][-1] and answer.status == "done" and not answer.clarify
    assert c.ask.session_id == turn.payload["session"]
    [table] = answer.tables
    assert table.capped and table.can_load_all and len(table.rows) < table.total
    c.ask.show_all(1, 0)
    assert c.jobs.wait(30)
    assert len(table.rows) == table.total and not table.capped and table.pages == -(-table.total // 10)
    assert c.ask.choose(0, 0) is False  # an earlier question's choices are spent


def test_a_typed_folder_is_kept_as_typed_and_checked_on_sync(sample_mirror, mirror_copy, tmp_path):
    import shutil

    from app.folders import check_folder

    c, _ = controller(mirror_copy(sample_mirror), tmp_path)
    bundle = tmp_path / "usb" / "FDA bundle 2025"
    shutil.copytree(Path(__file__).resolve().parents[2] / "mirror" / "sample", bundle)
    try:
        assert check_folder("")[0].startswith("Type or paste")
        assert "There is no folder" in check_folder(str(tmp_path / "nowhere"))[0]
        assert "not a data bundle" in check_folder(str(tmp_path / "usb"))[0]
        assert check_folder(f"  {bundle}  ") == ("", str(bundle))  # the space inside is kept
        c.data.set_source("folder")
        c.data.sync_now(str(tmp_path / "usb"))
        assert c.data.run is None and "not a data bundle" in c.banner.message and "download.json" in c.banner.message
        c.data.sync_now(f" {bundle} ")
        assert c.jobs.wait(60)
        assert c.data.run.phase == "done" and c.data.run.source.folder == str(bundle)
        assert "Sync finished" in c.banner.message and "dataset" in c.banner.message
    finally:
        c.shutdown()


def test_offline_a_folder_is_the_first_choice_and_a_failed_download_offers_it(sample_mirror, mirror_copy, tmp_path):
    from app.data import DataModel
    from app.jobs import Jobs

    c, _ = controller(mirror_copy(sample_mirror), tmp_path)
    try:
        offline = DataModel(c.backend, c.jobs, c.changed, c.report, online=lambda: False)
        assert offline.sources()[0] == "folder" and offline.source.kind == "folder" and offline.offline
        online = DataModel(c.backend, Jobs(lambda e, d: None), c.changed, c.report, online=lambda: True)
        assert online.sources()[0] == "online" and online.source.kind == "online"
        from app.banners import IMPORT_FOLDER, banner_for
        from mirror.errors import DownloadError

        b = banner_for(DownloadError("https://x: unreachable; sync offline with `mirror sync --from DIR`"), "syncing")
        assert (b.action, b.target) == ("Import a folder", IMPORT_FOLDER) and "mirror" not in b.message
        assert "--from" in b.details
        c.report(b)
        c.banner_action()
        assert c.screen == "data" and c.data.source.kind == "folder"
    finally:
        c.shutdown()


def test_the_home_offers_examples_that_the_mirror_answers(app):
    c, _ = app
    assert c.jobs.wait(30)
    examples = c.home.examples
    assert "How many adverse events for product code JAA?" in examples and len(examples) >= 4
    assert c.model == ("No model: answers are written from the data alone", "ready")
    for q in examples:
        turn = ask(c, q)
        assert turn.status == "done" and (turn.tables or turn.clarify), q


def test_a_dataset_skipped_by_choice_is_not_counted_as_failed():
    from app.data import finished

    results = [
        {"dataset": "510k", "status": "updated", "error": "", "note": ""},
        {"dataset": "pma", "status": "up-to-date", "error": "", "note": ""},
        {"dataset": "gudid", "status": "skipped", "error": "", "note": "GUDID skipped: add it with --gudid URL|PATH"},
        {"dataset": "udi", "status": "failed", "error": "the server did not answer", "note": ""},
    ]
    assert (
        finished(2.0, results)
        == "Sync finished in 2.0 s: 1 dataset updated, 1 already up to date, 1 skipped, 1 failed."
    )
