"""The Surveillance screen's model without a window (issue 18): watchlists made in the app are the CLI's, the
signal table equals the library's, and after a real sync from a folder the home's digest names what changed."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from agent.surveil.cli import surveil_cli
from agent.surveil.signals import CAVEATS
from agent.surveil.watchlists import Watchlists
from app.backend import Backend
from app.config import AppConfig
from app.controller import SCREENS, Controller
from app.watch import split_items
from mirror.store.files import Store
from mirror.surveil.scope import Scope
from mirror.surveil.signals import signals
from tests.mirror.synth import real_event_records
from tests.surveil.test_changes_sync import records, write_site


def make(data: Path, tmp_path: Path) -> Controller:
    return Controller(Backend(AppConfig(model="none", data_dir=data)), tmp_path / "app.json")


def test_watchlists_made_in_the_app_are_the_clis(sample_mirror, mirror_copy, tmp_path):
    data = mirror_copy(sample_mirror)
    c = make(data, tmp_path)
    try:
        assert "surveil" in SCREENS
        c.go("surveil")
        assert c.jobs.wait(30) and c.surveil.lists == []
        c.surveil.save("pumps", "ozp, foz", "", "", "")
        assert c.jobs.wait(30) and c.surveil.error == "" and c.surveil.last_saved == "pumps"
        assert [w.name for w in c.surveil.lists] == ["pumps"] and c.banner.message == "Watchlist pumps created."
        stored = Watchlists(data).get("pumps")
        assert stored.codes == ["OZP", "FOZ"]
        shown = CliRunner().invoke(surveil_cli, ["watch", "show", "pumps", "--data-dir", str(data)])
        assert shown.exit_code == 0 and "product codes: OZP, FOZ" in shown.output

        c.surveil.save("pumps", "OZP, JAA", "", "GE OEC 9800", "", editing="pumps")  # edit: the form's items
        assert c.jobs.wait(30) and c.surveil.error == ""
        stored = Watchlists(data).get("pumps")
        assert stored.codes == ["OZP", "JAA"] and stored.brands == ["GE OEC 9800"]

        c.surveil.save("bad name!", "OZP", "", "", "")  # refused: one line, the form stays open
        assert c.jobs.wait(30) and c.surveil.last_saved == ""
        assert "is not allowed" in c.surveil.error and "\n" not in c.surveil.error
        assert c.banner.level == "error" and c.banner.message == c.surveil.error
        c.surveil.save("empty", "", "", "", "")
        assert c.jobs.wait(30) and "would be empty" in c.surveil.error

        c.surveil.delete("pumps")
        assert c.jobs.wait(30) and c.surveil.lists == [] and Watchlists(data).names() == []
    finally:
        c.shutdown()


def test_signals_for_a_code_and_a_watchlist_equal_the_librarys(sample_mirror, mirror_copy, tmp_path):
    data = mirror_copy(sample_mirror)
    Watchlists(data).create("pumps", codes=["OZP", "JAA"])
    c = make(data, tmp_path)
    try:
        c.surveil.show_signals(code="ozp")
        assert c.surveil.busy == "Computing signals…"
        assert c.jobs.wait(30) and c.surveil.busy == "" and c.surveil.error == ""
        sv = c.surveil.signals
        assert sv is not None and sv.label == "OZP" and sv.caveats == CAVEATS and sv.as_of == "2025-09-23"
        want = signals(Store(data), Scope(codes=("OZP",)))
        assert (sv.reports_in, sv.reports_out) == (want.reports_in_scope[None], want.reports_other[None]) == (2, 5)
        assert len(sv.rows) == len(want.rows)
        row = next(r for r in sv.rows if r["term"] == "No Display/Image" and r["year"] == "all")
        assert (row["a"], row["b"], row["c"], row["d"], row["PRR"]) == ("1", "1", "1", "4", "2.50")
        assert {t for t, _, _ in sv.chart} == {r.term for r in want.rows if r.year is None}
        assert sv.thresholds == "PRR >= 2, chi-square >= 4, n (a) >= 3" and "device_event" in sv.query

        c.surveil.show_signals(watch="pumps")
        assert c.jobs.wait(30) and c.surveil.signals.label == "watchlist pumps"
        assert c.surveil.signals.reports_in == 4

        c.surveil.show_signals(watch="gone")  # a watchlist deleted meanwhile: said in one line
        assert c.jobs.wait(30) and c.surveil.signals is None and "no watchlist named 'gone'" in c.surveil.error
    finally:
        c.shutdown()


def test_the_home_shows_what_a_sync_changed_for_each_watchlist(tmp_path):
    """Two real syncs from a folder through the Data screen's model: 1-6, then 1-4 (4 now a death) and 10, 11."""
    site, data = tmp_path / "site", tmp_path / "data"
    write_site(site, records(list(range(1, 7))), "2025-01-01")
    codes = sorted(
        {
            d["device_report_product_code"]
            for r in real_event_records()
            for d in r.get("device", [])
            if d.get("device_report_product_code")
        }
    )
    c = make(data, tmp_path)
    try:
        c.start()
        assert c.jobs.wait(60)
        Watchlists(data).create("all-codes", codes=codes)
        Watchlists(data).create("nothing", codes=["ZZZ"])
        c.data.set_source("folder")
        c.data.sync_now(str(site))
        assert c.jobs.wait(120) and c.data.run.phase == "done", c.data.run.message
        assert c.jobs.wait(30)
        assert [d.name for d in c.surveil.digest] == ["all-codes", "nothing"]
        assert all(d.quiet for d in c.surveil.digest)  # the first sync is a baseline: nothing listed

        write_site(site, records([1, 2, 3, 4, 10, 11], death={4}), "2025-02-01")
        c.data.sync_now(str(site))
        assert c.jobs.wait(120) and c.data.run.phase == "done", c.data.run.message
        assert c.jobs.wait(30)
        watched, nothing = c.surveil.digest
        # deaths first, then the newest; the removed reports 5 and 6 are not in the digest (only in `changes`)
        assert watched.lines == [
            "2 new and 1 changed adverse event reports: 4 (Death), 11 (Malfunction), 10 (Malfunction)"
        ]
        assert nothing.quiet and c.surveil.digest_syncs.startswith("#2 at ")
    finally:
        c.shutdown()


def test_form_items_are_split_on_commas_semicolons_and_lines():
    assert split_items("DXY, lzg;FRN\n NIQ ,,") == ["DXY", "lzg", "FRN", "NIQ"]
