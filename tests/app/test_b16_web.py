"""Issue 16 in Chromium: a click on a part of "Interpreted as" changes it and asks again in the same conversation;
a table's column chooser hides a column on screen and in its export; exports and a chart's PNG reach the browser as
downloads (the file is also kept in the data folder's exports)."""

from __future__ import annotations

import csv
import io
import re

import pytest
from PIL import Image

from .conftest import wait_for
from .test_web_e2e import Page
from .test_web_saved_work import ask, browser, web_app

pytestmark = pytest.mark.slow


def download(view: Page, button: str) -> tuple[str, bytes]:
    """Click the last `button` (the newest answer's) and return the browser's download: (file name, bytes)."""
    with view.page.expect_download(timeout=90_000) as info:
        view.page.get_by_role("button", name=button).last.click()
    d = info.value
    return d.suggested_filename, d.path().read_bytes()


def click_menu_item(view: Page, item, changed: str, tries: int = 3) -> None:
    """Click an item of an open Flutter menu until the page shows `changed`. Flutter ignores a click that lands
    while the menu is still opening (seen under load), and then the menu stays open with the item unchanged; a
    click that took effect closes the menu, so a second click is made only while the item is still there."""
    for attempt in range(tries):
        view.still(f"the menu to finish opening (try {attempt + 1})")
        item.click(force=True)  # the menu is drawn over the page: Flutter takes the click, not the node
        try:
            view.wait_text(changed, timeout=15)
            return
        except AssertionError:
            if not item.is_visible():  # the menu closed: the click was taken; give the page its time
                view.wait_text(changed, timeout=60)
                return
    raise AssertionError(f"{tries} clicks on the menu item did not change the page to show {changed!r}")


def test_a_part_of_the_reading_is_changed_and_asked_again_in_the_same_conversation(
    sample_mirror, mirror_copy, tmp_path
):
    data = mirror_copy(sample_mirror)
    with web_app(data, tmp_path) as url, browser(url) as view:
        ask(view, "recalls by Arrow International since 2019", "Table: Recalls", "Export CSV")
        view.click("button", "Firm: Arrow International")
        view.wait_text("Change the firm", "Asks: \u201crecalls by Arrow International since 2019\u201d")
        view.page.get_by_role("textbox", name="Firm").fill("Medtronic")
        view.wait_text("Asks: \u201crecalls by Medtronic since 2019\u201d")  # the question it will ask
        view.shot("web-b16-change-firm.png")
        view.click("button", "Ask again")
        view.wait_text("You: recalls by Medtronic since 2019", "Firm: Medtronic", "0 recalled products", timeout=90)
        view.click("button", "Click to search other records")  # the first answer's dataset: a choice
        view.wait_text("Search other records", "Enforcement reports")
        view.page.get_by_role("radio", name="Enforcement reports").click()
        view.wait_text("Asks: \u201cenforcement reports by Arrow International since 2019\u201d")
        view.click("button", "Ask again")
        view.wait_text("You: enforcement reports by Arrow International since 2019", timeout=90)
        text = view.text()
        assert text.count("You: ") == 3 and "recalls by Arrow International since 2019" in text  # one conversation
        view.click("button", "Sessions")
        view.wait_text("3 questions")
        view.shot("web-b16-three-questions.png")


def test_a_hidden_column_leaves_the_export_and_exports_and_the_chart_png_are_downloaded(
    sample_mirror, mirror_copy, tmp_path
):
    data = mirror_copy(sample_mirror)
    with web_app(data, tmp_path) as url, browser(url) as view:
        ask(view, "adverse event reports for product code JAA", "Table: MAUDE adverse events", "Columns: ")
        shown = re.search(r"Columns: (\d+) of (\d+) shown", view.text())
        assert shown and shown[1] == shown[2], "every column is shown at first"
        n = int(shown[1])
        view.click("button", f"Columns: {n} of {n} shown")
        item = view.page.get_by_role("menuitemcheckbox", name="Brand")
        item.wait_for(timeout=20_000)
        assert item.get_attribute("aria-checked") == "true"
        click_menu_item(view, item, f"Columns: {n - 1} of {n} shown")
        view.wait_text(f"Columns: {n - 1} of {n} shown", "Hidden here and in the exports: Brand")
        view.shot("web-b16-column-hidden.png")
        name, body = download(view, "Export CSV")
        assert name.endswith(".csv") and body.startswith("\ufeff".encode())
        header = next(csv.reader(io.StringIO(body.decode("utf-8-sig"))))
        assert "Brand" not in header and "Generic name" in header and "Report number" in header
        assert (data / "exports" / name).read_bytes() == body  # the same file is kept on this computer
        ask(view, "adverse events by month in 2023", "Chart: MAUDE adverse events by month", "Export PNG")
        name, body = download(view, "Export PNG")
        image = Image.open(io.BytesIO(body))
        assert name.endswith("-asof-2025-09-23.png") and image.format == "PNG" and image.size[0] == 1200
        assert image.text["Data as of"] == "MAUDE adverse events 2025-09-23"
        assert image.text["Question"] == "adverse events by month in 2023"
        view.wait_text(
            "Saved the PNG image of the chart (data as of MAUDE adverse events 2025-09-23)",
            "your browser downloads a copy",
        )
        wait_for(lambda: (data / "exports" / name).is_file(), 10, "the PNG in the exports folder")
        wait_for(
            lambda: any('"download_offered"' in p.read_text() for p in tmp_path.glob("trace-*.jsonl")),
            30,
            "the app to finish handing the PNG to the browser",
        )
        view.shot("web-b16-png-exported.png")  # (waits until the page holds still: nothing left to send)
