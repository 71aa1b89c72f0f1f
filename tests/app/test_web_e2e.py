"""End to end in Debian's Chromium (Playwright) against `fda-explorer --web` on 127.0.0.1, model none, sample mirror."""

from __future__ import annotations

import csv
import io
import json
import time
from pathlib import Path

import pytest

from .conftest import SCREENSHOTS, wait_for
from .conftest import web_app as launch_web_app

pytestmark = pytest.mark.slow
CHROMIUM = "/usr/bin/chromium"
SEMANTIC_TEXT = """() => Array.from(document.querySelectorAll('flt-semantics')).map(e =>
    [e.getAttribute('aria-label') || '', ...Array.from(e.childNodes).filter(n => n.nodeType == 3 || n.tagName == 'SPAN')
     .map(n => n.textContent)].join(' ')).join('\\n')"""


@pytest.fixture
def data_dir(partial_mirror, mirror_copy) -> Path:
    """The app's data folder: a copy of the partial sample mirror (a test class may override it)."""
    return mirror_copy(partial_mirror)


@pytest.fixture
def web_app(data_dir, tmp_path):
    """`fda-explorer --web` on a free port over `data_dir`; yields (the printed url with its token, data dir, trace)."""
    with launch_web_app(data_dir, tmp_path) as (url, trace):
        yield url, data_dir, trace


class Page:
    """The Flutter page seen through its semantics tree (enabled by clicking flt-semantics-placeholder)."""

    def __init__(self, page) -> None:
        self.page = page

    def text(self) -> str:
        return self.page.evaluate(SEMANTIC_TEXT)

    def wait_text(self, *needles: str, timeout: float = 30) -> str:
        def found() -> str:
            text = self.text()
            return text if all(n in text for n in needles) else ""

        return wait_for(found, timeout, f"{needles} on the page")

    def click(self, role: str, name: str, exact: bool = False) -> None:
        self.page.get_by_role(role, name=name, exact=exact).first.click()

    def still(self, what: str = "the page to settle") -> bytes:
        """A screenshot once the canvas shows something and holds still (it can lag the semantics tree)."""
        from PIL import Image

        last: list[bytes] = [b""]

        def steady() -> bytes:
            png = self.page.screenshot()
            same, last[0] = png == last[0], png
            return png if same and len(Image.open(io.BytesIO(png)).getcolors(1 << 16) or ()) > 20 else b""

        return wait_for(steady, 20, what, interval=0.1)

    def shot(self, name: str) -> None:
        """Save a screenshot once the page holds still."""
        png = self.still(f"the page to settle for {name}")
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        (SCREENSHOTS / name).write_bytes(png)


@pytest.fixture
def browser_page(web_app):
    from playwright.sync_api import sync_playwright

    url, data, trace = web_app
    outside: list[str] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1280, "height": 860})
        base = url.split("?")[0]
        page.route(
            "**/*",
            lambda r: (
                r.continue_()
                if r.request.url.startswith(base) or r.request.url.startswith("blob:")
                else (outside.append(r.request.url), r.abort())
            ),
        )
        page.goto(url)  # the token becomes a cookie and leaves the address
        assert page.url == base, page.url
        page.wait_for_selector("flt-semantics-placeholder", state="attached", timeout=90_000)
        page.evaluate("document.querySelector('flt-semantics-placeholder').click()")
        view = Page(page)
        view.wait_text("New conversation", timeout=60)
        yield view, data, trace, outside
        view.still("the page to hold still before the browser closes")  # the app has nothing left to send
        browser.close()
    assert outside == [], f"the page asked for something beyond 127.0.0.1: {outside}"


def _ask(view: Page, *lines: str) -> None:
    box = view.page.get_by_role("textbox", disabled=False).last  # the question box (selectable texts are read-only)
    box.click()
    for i, line in enumerate(lines):
        if i:
            view.page.keyboard.press("Shift+Enter")
        view.page.keyboard.type(line)
    if len(lines) > 1:
        typed = view.page.evaluate("() => document.querySelector('textarea, input')?.value || ''")
        assert typed == "\n".join(lines), f"Shift+Enter should make a new line, the box holds {typed!r}"
    view.page.keyboard.press("Enter")


def test_ask_answer_record_table_chart_export_sync(browser_page):
    view, data, trace, _ = browser_page
    view.wait_text(
        "Try one of these",
        "How many adverse events for product code",
        "MAUDE adverse events",
        "No model: answers are written from the data alone: ready",
    )
    view.shot("web-home.png")
    # Ask (Shift+Enter makes a new line, Enter sends): the reading, the timeline, the answer, sources and a table.
    _ask(view, "adverse event reports", "for product code JAA")
    text = view.wait_text(
        "Interpreted as:",
        "MAUDE adverse events",
        "How this was answered: 5 steps",
        "Sources:",
        "Table: MAUDE adverse events",
        "1720753-2008-26826",
        "Report number",
        "2 rows of 2 matching records. Data as of 2025-09-23.",
    )
    assert not {"mdr_report_key", "date_received"} & {ln.strip() for ln in text.splitlines()}  # labels as headers
    assert "20090217" not in text and "2009-02-17" in text
    view.shot("web-answer.png")
    # The timeline (drawn live, folded once answered) expands to its steps, and a step to its query.
    view.click("button", "How this was answered")
    view.wait_text("Read the question", "Searched adverse event reports", "Checked the evidence: enough to answer")
    view.click("button", "Searched adverse event reports: total 2")
    view.wait_text('query: search=device.device_report_product_code.exact:"JAA"')
    view.shot("web-timeline.png")
    # A citation chip opens the record, laid out for reading.
    view.click("checkbox", "MAUDE adverse events 1312172")
    text = view.wait_text("MAUDE adverse events record 1312172", "Key facts", "Report number", "1720753-2008-26826")
    assert '"report_number"' not in text and "\\r\\n" not in text
    view.shot("web-record.png")
    view.click("button", "Close", exact=True)
    # Export CSV: stamped with the as-of date in its name and in its rows, UTF-8 with a BOM for Excel.
    view.click("button", "Export CSV")
    view.wait_text("Saved the CSV (data as of MAUDE adverse events 2025-09-23)")
    [path] = (data / "exports").glob("*.csv")
    assert "asof-2025-09-23" in path.name and path.read_bytes().startswith(b"\xef\xbb\xbf")
    rows = list(csv.DictReader(path.open(encoding="utf-8-sig")))
    answer = next(r for r in rows if r["Part"] == "answer")
    assert "2 adverse event reports" in answer["Text"]
    evidence = [r for r in rows if r["Part"] == "evidence"]
    assert {r["Report key"] for r in evidence} == {"1312172", "1000006"}
    assert {r["Data as of"] for r in evidence} == {"2025-09-23"}
    assert any(r["Part"] == "citation" and r["Text"] == "mdr_report_key=1312172" for r in rows)
    # A trend draws a line chart.
    _ask(view, "adverse events by year")
    view.wait_text("Chart: MAUDE adverse events by year (data as of 2025-09-23)", "Table: MAUDE adverse events by year")
    view.shot("web-chart.png")
    # Ctrl+K starts a new conversation.
    view.page.keyboard.press("Control+k")
    wait_for(lambda: "Chart: MAUDE" not in view.text(), 15, "Ctrl+K to clear the conversation")
    view.wait_text("New conversation")
    # Data: the partial mirror has no 510k; a sync from the sample source adds it and the counts change.
    view.click("button", "Data")
    before = view.wait_text("Dataset", "Product classification", "6,530")
    assert "510(k) clearances" not in before
    view.shot("web-data-before.png")
    view.click("button", "Load the sample mirror")
    after = view.wait_text("Done.", "Sync finished", "510(k) clearances: updated, 7 records", timeout=90)
    view.wait_text("PMA approvals")
    assert "dataset(s)" not in after
    view.shot("web-data.png")
    # Sessions: the conversation (two questions) was saved; search looks into its questions and answers.
    view.click("button", "Sessions")
    view.wait_text("for product code JAA", "2 questions", "1 of 1 conversations")
    view.shot("web-sessions.png")
    view.page.get_by_role("textbox", disabled=False).first.click()
    view.page.keyboard.type("nothing-like-this")
    view.wait_text("0 of 1 conversations matching")
    view.click("button", "Settings")
    view.wait_text("Model", "No model: answers are written from the data alone", "Appearance", "Advanced")
    view.shot("web-settings.png")
    events = [json.loads(line)["event"] for line in trace.read_text().splitlines()]
    assert {"listening", "ready", "first_step_shown", "answer_shown"} <= set(events)


class TestFirstRun:
    @pytest.fixture
    def data_dir(self, tmp_path) -> Path:
        return tmp_path / "empty"

    def test_an_empty_folder_offers_the_sample_and_then_answers(self, browser_page):
        view, data, _, _ = browser_page
        view.wait_text(
            "Welcome to FDA Explorer Offline",
            "There is no FDA data in",
            "Load the sample mirror",
            "Import a folder",
            "air-gap bundle",
        )
        view.shot("web-first-run.png")
        _ask(view, "adverse events by year")
        view.wait_text("There is no data yet", "Open Data", "Not answered:")
        view.click("button", "Load the sample mirror")
        wait_for(lambda: "Welcome to FDA Explorer Offline" not in view.text(), 90, "the sample to load")
        view.click("button", "Retry")
        view.wait_text("Chart: MAUDE adverse events by year (data as of 2025-09-23)")
        assert "Not answered:" not in view.text()  # the failed card gave its place to the answer
        assert (data / "db").is_dir()


def test_an_ollama_server_on_another_computer_is_saved_only_after_a_confirmation(browser_page):
    """The attack of review D2 through the Settings screen (Test connection, pick the model, Save) now asks first."""
    from tests.agent.ollama_standin import OllamaStandIn

    view, _, trace, _ = browser_page
    config = trace.parent / "app.json"
    with OllamaStandIn(models=["llama3.2:1b"]) as srv:
        url = srv.url.replace("127.0.0.1", "0.0.0.0")  # not a loopback name, yet served here (no DNS)
        view.click("button", "Settings")
        view.wait_text("An Ollama server")
        view.click("radio", "An Ollama server")
        view.wait_text("Test connection")
        box = view.page.locator('input[aria-label="Ollama address"]')

        def connected() -> bool:
            # One change per attempt (typing races the redraws); under load the radio's redraw can replace
            # the field after a fill, so each attempt fills again and lets the change reach the app first.
            box.fill(url)
            time.sleep(1)
            view.click("button", "Test connection")
            return bool(
                wait_for(
                    lambda: "Connected to" in view.text() or "not reachable" in view.text(), 15, "the connection test"
                )
                and f"Connected to {url}: 1 model" in view.text()
            )

        wait_for(connected, 45, f"Test connection to list the model of {url}", interval=0.5)
        view.click("button", "Save")
        view.wait_text(
            "Send your questions to another computer?",
            f"are sent to the Ollama server at {url}",
            "That is another computer (0.0.0.0), not this one",
        )
        view.shot("web-settings-remote.png")
        assert not config.exists()
        view.click("button", "Cancel", exact=True)
        view.wait_text("Settings not saved: the Ollama server on another computer was not confirmed")
        assert "Send your questions to another computer?" not in view.text() and not config.exists()
        view.click("button", "Save")
        view.click("button", "Send them to 0.0.0.0")
        view.wait_text("Settings saved")
        saved = json.loads(config.read_text())
    assert (saved["model"], saved["ollama_url"], saved["ollama_remote_confirmed"]) == ("ollama:llama3.2:1b", url, url)
