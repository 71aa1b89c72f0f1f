"""The Surveillance screen and the home's sync digest end to end (issue 18), in Debian's Chromium (Playwright)
against `fda-explorer --web` on 127.0.0.1, model none, over a mirror made by two real `mirror sync` runs from a
folder (SYNTHETIC event files of real sample records: the second run changes report 4 into a death and adds 10
and 11)."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from agent.surveil.watchlists import Watchlists
from mirror import Settings
from mirror.sync import SyncOptions, sync
from tests.mirror.synth import real_event_records
from tests.surveil.test_changes_sync import records, write_site

from .conftest import wait_for
from .test_web_e2e import Page, browser_page, web_app  # noqa: F401  (fixtures used by name)

pytestmark = pytest.mark.slow


def type_into(view: Page, label: str, text: str) -> None:
    """Type into a text field as a person does (a fill can be lost when Flutter swaps the field's editing element, and
    a redraw arriving meanwhile can empty it: each attempt clears and types again), then give the change a moment to
    reach the app before the next click."""
    box = view.page.locator(f'input[aria-label="{label}"]')

    def typed() -> bool:
        box.click()
        view.page.keyboard.press("Control+a")
        view.page.keyboard.press("Backspace")
        view.page.keyboard.type(text)
        time.sleep(0.3)
        return box.input_value() == text

    wait_for(typed, 30, f"{text!r} in the field {label}", interval=0.5)
    time.sleep(0.5)


def _codes(record: dict) -> list[str]:
    return [d["device_report_product_code"] for d in record.get("device", []) if d.get("device_report_product_code")]


@pytest.fixture
def data_dir(tmp_path) -> Path:
    site, data = tmp_path / "site", tmp_path / "data"
    settings = Settings(data_dir=data)
    write_site(site, records(list(range(1, 7))), "2025-01-01")
    assert sync(settings, SyncOptions(source_dir=site, only=["event"], quiet=True)).ok
    write_site(site, records([1, 2, 3, 4, 10, 11], death={4}), "2025-02-01")
    assert sync(settings, SyncOptions(source_dir=site, only=["event"], quiet=True)).ok
    base = real_event_records()
    watched = sorted(set(_codes(base[3 % len(base)]) + _codes(base[4 % len(base)])))  # reports 4, 10 and 11
    Watchlists(data).create("watched", codes=watched)
    return data


def test_surveillance_screen_and_home_digest(browser_page):
    view: Page
    view, data, trace, _ = browser_page
    # The home, after the sync: what it changed for each watchlist, deaths first.
    view.wait_text(
        "What the last sync changed for your watchlists",
        "watched",
        "2 new and 1 changed adverse event reports: 4 (Death)",
        timeout=60,
    )
    view.shot("web-home-digest.png")
    # The Surveillance screen: the stored watchlist, and a new one made with the form.
    view.click("button", "Surveillance")
    view.wait_text("Watchlists", "watched", "New watchlist", "Show signals")
    view.click("button", "New watchlist")
    view.wait_text("Save watchlist")
    type_into(view, "Name", "pumps")
    type_into(view, "Product codes", "ozp, jaa")
    view.click("button", "Save watchlist")
    view.wait_text("Watchlist pumps created.", "codes OZP, JAA", timeout=60)
    saved = json.loads((data / "watchlists" / "pumps.json").read_text())  # stored as `fda-explorer watch` stores it
    assert saved["codes"] == ["OZP", "JAA"] and Watchlists(data).get("pumps").codes == ["OZP", "JAA"]
    # A refused name: one line on the screen, the form still open with what was typed.
    view.click("button", "New watchlist")
    view.wait_text("Save watchlist")  # the form is drawn (emptied) before it is typed in
    type_into(view, "Name", "no good!")
    type_into(view, "Product codes", "DXY")
    view.click("button", "Save watchlist")
    view.wait_text("watchlist name 'no good!' is not allowed")
    assert "Save watchlist" in view.text()
    view.click("button", "Cancel", exact=True)
    wait_for(lambda: "Save watchlist" not in view.text(), 15, "the form to close")
    # Signals of a watchlist: table, chart, thresholds and the caveats.
    view.click("button", "Signals of watched")
    text = view.wait_text(
        "Signals for watchlist watched",
        "Chart: PRR by outcome, all years",
        "Caveats",
        "MAUDE counts are reports, not incidence.",
        "There is no denominator of devices in use.",
        "Summary reports (alternative summary reporting) distort the counts.",
        "PRR >= 2, chi-square >= 4, n (a) >= 3",
        "PRR 95% CI",
        timeout=60,
    )
    assert "event_type" in text and "Death" in text
    view.shot("web-surveillance.png")
    # Signals of a product code typed in.
    type_into(view, "Product code", "ozp")
    view.click("button", "Show signals")
    view.wait_text("Signals for OZP:", timeout=60)
    # Delete, after a confirmation.
    # an icon button: its tooltip names the node around it
    view.page.locator('flt-semantics[aria-label="Delete pumps"] [role="button"]').first.click()
    view.wait_text("Delete the watchlist pumps?")
    view.click("button", "Delete", exact=True)
    view.wait_text("Watchlist pumps deleted.")
    wait_for(lambda: not (data / "watchlists" / "pumps.json").exists(), 10, "pumps.json to go")
    assert Watchlists(data).names() == ["watched"]
