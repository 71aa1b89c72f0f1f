"""D12 and D16: manifest fields of the wrong type or inconsistent totals give one line, never a traceback.

Each hostile download.json is synced with `--from` over a real mirror: exit 1, one `Error:` line naming the
manifest, the previous mirror answering `mirror status` and a query as before.
"""

from __future__ import annotations

import json

import pytest

from .sync_helpers import assert_intact, base_mirror, error_line, errors, mirror_copy, records, run  # noqa: F401

NEW = "2026-01-01"


def _k(field, value):
    def change(doc):
        doc["results"]["device"]["510k"][field] = value

    return change


def _p(field, value):
    def change(doc):
        doc["results"]["device"]["510k"]["partitions"][0][field] = value

    return change


def _doc(path, value):
    def change(doc):
        target = doc
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return change


def _whole(value):
    def change(doc):
        doc.clear()
        doc["__replace__"] = value

    return change


HOSTILE = {
    "size_mb inf": (_p("size_mb", "inf"), "size_mb"),
    "size_mb nan": (_p("size_mb", "nan"), "size_mb"),
    "size_mb Infinity": (_p("size_mb", "Infinity"), "size_mb"),
    "size_mb 1e400": (_p("size_mb", "1e400"), "size_mb"),
    "size_mb text": (_p("size_mb", "lots"), "size_mb"),
    "size_mb negative": (_p("size_mb", -5), "size_mb"),
    "size_mb list": (_p("size_mb", [1]), "size_mb"),
    "size_mb true": (_p("size_mb", True), "size_mb"),
    "records text": (_p("records", "seven"), "records"),
    "records fraction": (_p("records", 7.9), "records"),
    "records negative": (_p("records", -1), "records"),
    "records null": (_p("records", None), "records"),
    "records huge": (_p("records", 10**30), "records"),
    "records true": (_p("records", True), "records"),
    "records missing": (lambda d: d["results"]["device"]["510k"]["partitions"][0].pop("records"), "records"),
    "file missing": (lambda d: d["results"]["device"]["510k"]["partitions"][0].pop("file"), "file"),
    "file a number": (_p("file", 5), "file"),
    "total_records text": (_k("total_records", "lots"), "total_records"),
    "total_records object": (_k("total_records", {"n": 7}), "total_records"),
    "total_records negative": (_k("total_records", -3), "total_records"),
    "total_records 10^40": (_k("total_records", 10**40), "total_records"),
    "total_records true": (_k("total_records", True), "total_records"),
    "meta a string": (_doc(["meta"], "x"), "meta"),
    "meta a list": (_doc(["meta"], [1]), "meta"),
    "export_date an object": (_k("export_date", {"a": 1}), "export_date"),
    "export_date empty": (_k("export_date", ""), "export_date"),
    "export_date null": (_k("export_date", None), "export_date"),
    "export_date a number": (_k("export_date", 20250101), "export_date"),
    "export_date month 13": (_k("export_date", "2025-13-45"), "export_date"),
    "export_date short": (_k("export_date", "2025-9-1"), "export_date"),
    "partitions text": (_k("partitions", "nope"), "partitions"),
    "partitions of text": (_k("partitions", ["nope"]), "partition 1"),
    "partitions an object": (_k("partitions", {"a": 1}), "partitions"),
    "partitions of null": (_k("partitions", [None]), "partition 1"),
    "endpoint text": (_doc(["results", "device", "510k"], "x"), "510k"),
    "endpoint a list": (_doc(["results", "device", "510k"], []), "510k"),
    "device a list": (_doc(["results", "device"], []), "device section"),
    "results text": (_doc(["results"], "x"), "device section"),
    "top level a list": (_whole([]), "device section"),
    "top level null": (_whole(None), "device section"),
}


def _write(source, change) -> None:
    path = source / "download.json"
    doc = json.loads(path.read_text())
    doc["results"]["device"]["510k"]["export_date"] = NEW
    change(doc)
    if "__replace__" in doc:
        doc = doc["__replace__"]
    path.write_text(json.dumps(doc))


def _sync(source, data):
    return run("sync", "--from", str(source), "--only", "510k,pma", "--data-dir", str(data), "--quiet")


@pytest.mark.parametrize("name", list(HOSTILE))
def test_wrong_type_in_the_manifest_is_one_line(name, sample_copy, mirror_copy):
    data, before = mirror_copy
    change, field = HOSTILE[name]
    _write(sample_copy, change)
    code, out, err = _sync(sample_copy, data)
    assert code == 1
    line = error_line(err)
    assert str(sample_copy / "download.json") in line and field in line, line
    assert_intact(data, before)


def test_total_records_not_the_sum_of_partitions_refuses_that_dataset_only(sample_copy, mirror_copy):
    data, before = mirror_copy
    path = sample_copy / "download.json"
    doc = json.loads(path.read_text())
    doc["results"]["device"]["510k"].update(export_date=NEW, total_records=1_000_000)
    doc["results"]["device"]["pma"]["export_date"] = NEW
    path.write_text(json.dumps(doc))
    code, out, err = _sync(sample_copy, data)
    assert code == 3  # partial: the other datasets updated
    lines = errors(err)
    assert len(lines) == 1 and "total_records 1,000,000 is not the sum" in lines[0] and "(7)" in lines[0]
    assert_intact(data, before, endpoints=("510k",))
    code, out, err = run("status", "--json", "--data-dir", str(data))
    assert json.loads(out)["endpoints"]["pma"]["export_date"] == NEW and records(data, "pma") == 6
    code, out, err = run("verify", "--data-dir", str(data))
    assert code == 0, out


def test_a_missing_total_records_is_the_sum(sample_copy, mirror_copy):
    data, before = mirror_copy
    path = sample_copy / "download.json"
    doc = json.loads(path.read_text())
    del doc["results"]["device"]["510k"]["total_records"]
    doc["results"]["device"]["510k"]["export_date"] = NEW
    path.write_text(json.dumps(doc))
    code, out, err = _sync(sample_copy, data)
    assert code == 0, err
    assert records(data, "510k") == 7
    assert run("verify", "--data-dir", str(data))[0] == 0


def test_an_endpoint_this_program_does_not_mirror_is_ignored(sample_copy, mirror_copy):
    data, before = mirror_copy
    path = sample_copy / "download.json"
    doc = json.loads(path.read_text())
    doc["results"]["device"]["evil"] = {"export_date": "../../x", "partitions": [{"file": "../../x", "records": "no"}]}
    path.write_text(json.dumps(doc))
    code, out, err = _sync(sample_copy, data)
    assert code == 0, err
    assert_intact(data, before)
