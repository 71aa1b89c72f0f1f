"""Issue 16 in Chromium: a conversation reopened after a restart is whole; the bundle folder is held as typed (fast
typing, spaces) or picked from the bundles found; an export and a trip to another screen keep the reading position."""

from __future__ import annotations

import shutil
from contextlib import contextmanager
from pathlib import Path

import pytest

from .conftest import ROOT, wait_for
from .conftest import web_app as launch_web_app
from .test_web_e2e import CHROMIUM, Page

pytestmark = pytest.mark.slow


@contextmanager
def web_app(data: Path, tmp_path: Path, home: Path | None = None):
    """`fda-explorer --web` over `data` (with HOME set to `home` when given); yields its url with the token."""
    with launch_web_app(data, tmp_path, home) as (url, _):
        yield url


@contextmanager
def browser(url: str):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        page = b.new_page(viewport={"width": 1280, "height": 860})
        page.goto(url)
        page.wait_for_selector("flt-semantics-placeholder", state="attached", timeout=90_000)
        page.evaluate("document.querySelector('flt-semantics-placeholder').click()")
        view = Page(page)
        view.wait_text("New conversation", timeout=60)
        yield view
        view.still("the page to hold still before the browser closes")  # the app has nothing left to send
        b.close()


def ask(view: Page, question: str, *needles: str) -> None:
    box = view.page.get_by_role("textbox", disabled=False).last
    box.click()
    view.page.keyboard.type(question)
    view.page.keyboard.press("Enter")
    view.wait_text(*needles)


def top_of(view: Page, text: str) -> float:
    """Where a text is on the screen now (its semantics node's top, in pixels; -1000 when it is not shown)."""
    nodes = view.page.locator("flt-semantics", has_text=text)
    box = nodes.last.bounding_box() if nodes.count() else None
    return box["y"] if box else -1000.0


def held_still(view: Page, text: str, timeout: float = 30) -> float:
    """Wait until `text` stays at one place on the screen for a second (the app's last scroll has arrived)."""
    seen: list[float] = []

    def still() -> bool:
        seen.append(top_of(view, text))
        view.page.wait_for_timeout(250)
        return len(seen) >= 5 and len(set(seen[-5:])) == 1 and seen[-1] > -1000

    wait_for(still, timeout, f"{text!r} to hold still")
    return seen[-1]


def test_a_conversation_reopened_after_a_restart_is_whole(sample_mirror, mirror_copy, tmp_path):
    data = mirror_copy(sample_mirror)
    with web_app(data, tmp_path) as url, browser(url) as view:
        ask(view, "adverse event reports for product code JAA", "Table: MAUDE adverse events", "Export CSV")
        ask(view, "adverse events by month in 2023", "Chart: MAUDE adverse events by month")
    with web_app(data, tmp_path) as url, browser(url) as view:  # a second launch
        view.click("button", "Sessions")
        view.wait_text("adverse event reports for product code JAA", "2 questions")
        view.click("button", "adverse event reports for product code JAA")
        view.wait_text(
            "You: adverse event reports for product code JAA",
            "Interpreted as:",
            "How this was answered: 5 steps",
            "Table: MAUDE adverse events",
            "1720753-2008-26826",
            "MAUDE adverse events 1312172",
        )
        view.shot("web-resumed.png")
        view.page.mouse.move(640, 400)
        view.page.mouse.wheel(0, 3000)
        view.wait_text(
            "Chart: MAUDE adverse events by month",
            "2023-12: 0",  # zero-filled months
            "Data as of MAUDE adverse events 2025-09-23",
            "Export CSV",
        )
        view.shot("web-resumed-bottom.png")
        view.page.mouse.wheel(0, -3000)
        view.click("checkbox", "MAUDE adverse events 1312172")
        view.wait_text("MAUDE adverse events record 1312172", "Key facts")
        view.click("button", "Close", exact=True)
        view.page.get_by_role("button", name="Export XLSX").first.click()
        view.wait_text("Saved the Excel workbook (data as of MAUDE adverse events 2025-09-23)")
    assert len(list((data / "exports").glob("*.xlsx"))) == 1


def test_the_bundle_folder_is_held_as_typed_and_found_bundles_are_offered(sample_mirror, mirror_copy, tmp_path):
    data, home = mirror_copy(sample_mirror), tmp_path / "home"
    typed = home / "media" / "usb" / "FDA bundle 2025"  # a space, typed fast
    found = home / "Downloads" / "fda export"
    for folder in (typed, found):
        shutil.copytree(ROOT / "mirror" / "sample", folder)
    with web_app(data, tmp_path, home) as url, browser(url) as view:
        view.click("button", "Data")
        view.wait_text("Sync from", "A folder: a data bundle")
        view.click("radio", "A folder: a data bundle")  # the first choice only when offline
        view.wait_text("Bundles found on this computer:", str(found))
        box = view.page.locator('input[aria-label="Bundle folder (type or paste its path)"]')
        box.click()
        view.page.wait_for_timeout(300)  # the field has the focus (Flutter web)
        view.page.keyboard.type(str(typed), delay=60)
        wait_for(lambda: box.input_value() == str(typed), 10, "the typed path to hold")
        view.page.wait_for_timeout(1500)  # redraws (a data refresh) come and go
        assert box.input_value() == str(typed)
        view.shot("web-bundle-typed.png")
        view.click("button", "Sync now")
        view.wait_text("Done.", "Sync finished", timeout=90)
        assert box.input_value() == str(typed)
        view.click("button", str(found))  # a bundle found is one click away
        box.click()  # (the page's input holds the value when it has focus)
        wait_for(lambda: box.input_value() == str(found), 10, "the found bundle in the box")
        view.shot("web-bundle-found.png")


def test_an_export_and_another_screen_keep_the_reading_position(sample_mirror, mirror_copy, tmp_path):
    data = mirror_copy(sample_mirror)
    with web_app(data, tmp_path) as url, browser(url) as view:
        ask(view, "adverse event reports for product code JAA", "Table: MAUDE adverse events")
        ask(view, "adverse events by year", "Table: MAUDE adverse events by year")
        ask(view, "recalls by Arrow International since 2019", "Table: Recalls")
        held_still(view, "Table: Recalls")  # the answer drawn whole, and shown from its question
        view.page.mouse.move(640, 400)

        def scrolled_to_second() -> bool:  # back up to the second answer, as a reader would: wheel until seen
            top = top_of(view, "Table: MAUDE adverse events by year")
            if 80 < top < 700:
                return True
            view.page.mouse.wheel(0, -400 if top <= -1000 else top - 300)
            view.page.wait_for_timeout(500)
            return False

        wait_for(scrolled_to_second, 20, "the second answer's table on the screen", interval=0.2)
        view.page.wait_for_timeout(600)
        before = top_of(view, "Table: MAUDE adverse events by year")
        view.shot("web-before-export.png")
        view.page.get_by_role("button", name="Export MD").nth(1).click()
        view.wait_text("Saved the Markdown report")
        view.page.wait_for_timeout(600)
        assert abs(top_of(view, "Table: MAUDE adverse events by year") - before) < 2
        view.shot("web-after-export.png")
        view.click("button", "Data")
        view.wait_text("Sync from")
        view.click("button", "Ask")
        wait_for(
            lambda: abs(top_of(view, "Table: MAUDE adverse events by year") - before) < 40,
            10,
            "the Ask screen to come back where it was",
        )
