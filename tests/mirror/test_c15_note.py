"""A dataset's note (issue 15): a skip that is no failure says how to add the dataset, in the `--json` report."""

from __future__ import annotations

import json

from click.testing import CliRunner

from mirror.cli import cli


def test_c15_gudid_skipped_by_a_manifest_of_ones_own_has_a_note_in_json(http_source, tmp_path):
    _, manifest = http_source
    r = CliRunner().invoke(
        cli,
        [
            "sync",
            "--manifest",
            manifest,
            "--only",
            "510k,gudid",
            "--data-dir",
            str(tmp_path / "d"),
            "--json",
            "--quiet",
        ],
        catch_exceptions=False,
    )
    assert r.exit_code == 0, r.stderr
    report = json.loads(r.stdout)
    gudid = report["datasets"]["gudid"]
    assert gudid["status"] == "skipped" and report["errors"] == []
    assert gudid["note"].startswith("GUDID skipped:") and "--gudid URL|PATH" in gudid["note"]
    assert report["datasets"]["510k"]["status"] == "updated" and report["datasets"]["510k"]["note"] == ""
