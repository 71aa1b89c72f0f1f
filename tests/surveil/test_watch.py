"""Watchlists through the real CLI on a copy of the sample mirror: create, show, edit, delete, list, bad names."""

from __future__ import annotations

import json

import pytest

from agent.surveil.errors import WatchlistError
from agent.surveil.watchlists import Watchlists


def test_create_resolves_firms_and_stores_json(run, mirror_copy):
    out = run(
        "watch",
        "create",
        "cardiac",
        "--code",
        "dxy",
        "--firm",
        "Medtronic",
        "--brand",
        "Azure",
        "--di",
        "00884838064018",
        "--data-dir",
        str(mirror_copy),
    ).output
    assert "product codes: DXY" in out and "Medtronic -> Medtronic, Inc." in out
    doc = json.loads((mirror_copy / "watchlists" / "cardiac.json").read_text())
    assert doc["codes"] == ["DXY"] and doc["dis"] == ["00884838064018"]
    assert set(doc["firms"][0]["variants"]) == {"MEDTRONIC INC.", "Medtronic, Inc."}
    scope = Watchlists(mirror_copy).get("cardiac").scope()
    assert {"Medtronic", "MEDTRONIC INC.", "Medtronic, Inc."} <= set(scope.firms)
    assert not list((mirror_copy / "watchlists").glob("*.tmp"))  # atomic write left nothing behind


def test_edit_adds_and_removes_then_delete(run, mirror_copy):
    d = str(mirror_copy)
    run("watch", "create", "w1", "--code", "DXY", "--firm", "Medtronic", "--data-dir", d)
    out = run(
        "watch",
        "edit",
        "w1",
        "--add-code",
        "LWS",
        "--remove-code",
        "DXY",
        "--remove-firm",
        "medtronic",
        "--add-brand",
        "Azure",
        "--json",
        "--data-dir",
        d,
    ).output
    doc = json.loads(out)
    assert doc["codes"] == ["LWS"] and doc["firms"] == [] and doc["brands"] == ["Azure"]
    assert run("watch", "list", "--data-dir", d).output.strip() == "w1: 1 codes, 0 firms, 1 brands, 0 UDI-DIs"
    run("watch", "delete", "w1", "--data-dir", d)
    assert run("watch", "list", "--data-dir", d).output == ""
    err = run("watch", "show", "w1", "--data-dir", d, ok=False).output
    assert "no watchlist named 'w1'" in err and "fda-explorer watch create w1" in err


@pytest.mark.parametrize("name", ["../evil", "a b", "", ".hidden", "x" * 65, "con/../x", "end."])
def test_bad_names_are_refused(tmp_path, name):
    with pytest.raises(WatchlistError, match="is not allowed"):
        Watchlists(tmp_path).create(name, codes=["DXY"])


def test_duplicates_empty_lists_and_bad_codes_are_refused(run, tmp_path):
    d = str(tmp_path)
    run("watch", "create", "Same", "--code", "DXY", "--data-dir", d)
    assert "already exists" in run("watch", "create", "same", "--code", "DXY", "--data-dir", d, ok=False).output
    assert "would be empty" in run("watch", "create", "none", "--data-dir", d, ok=False).output
    assert "not three letters" in run("watch", "create", "bad", "--code", "DX1", "--data-dir", d, ok=False).output
    assert "leave watchlist" in run("watch", "edit", "Same", "--remove-code", "DXY", "--data-dir", d, ok=False).output


def test_firm_without_a_mirror_is_kept_as_typed(run, tmp_path):
    out = run("watch", "create", "nomirror", "--firm", "Acme Devices", "--data-dir", str(tmp_path)).output
    assert "Acme Devices (not found in the mirror" in out
