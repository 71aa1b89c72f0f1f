"""A refresh updates the word index in place (the terms of the records gone deleted, those of the partitions loaded
added, the common words kept), and every text search then answers as after a full sync of the new export.

SYNTHETIC event sites (copies of real sample records, tests/mirror/synth.py) whose narratives get made-up rare words
per record; the re-export changes the words of some records of one quarter: the last one (whose rows are the last
rowids), or the first or a middle one (the checkpoint then moves the later rows, whose rowids the index shifts).
Either way the answers must equal a fresh sync's."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import duckdb
import orjson
import pytest

from mirror import Store, verify
from mirror.api import Api
from mirror.schema.datasets import DATASETS
from mirror.settings import Settings
from mirror.sync import SyncOptions, sync
from mirror.sync.indexes import index_problems
from tests.mirror.synth import write_event_site

QUARTERS = ["2021q1", "2021q2", "2021q3", "2021q4"]
PER_FILE = 300
MEMBER = "device-event-0001-of-0001.json"


def _retext(root: Path, quarter: str, change: bool) -> None:
    """Give each narrative made-up words: `zq<key mod 97>` (shared by a few records) and `lot<key>` (one record's);
    `change`: every 4th record of the quarter says `newword<key mod 11> zq<key mod 97>x` instead of its lot."""
    path = root / "device" / "event" / quarter / (MEMBER + ".zip")
    with zipfile.ZipFile(path) as zf:
        doc = json.loads(zf.read(MEMBER))
    for r in doc["results"]:
        key = int(r["mdr_report_key"])
        words = f"zq{key % 97} lot{key}"
        if change and key % 4 == 0:
            words = f"newword{key % 11} zq{key % 97}x"
        for t in r.get("mdr_text", []):
            t["text"] = f"{words} {t.get('text') or ''} end{key % 5}"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr(MEMBER, json.dumps(doc, indent=2) + "\n")
    manifest = json.loads((root / "download.json").read_text())
    for p in manifest["results"]["device"]["event"]["partitions"]:
        if f"/{quarter}/" in p["file"]:
            p["size_mb"] = "%0.2f" % (path.stat().st_size / 1048576)
    (root / "download.json").write_bytes(orjson.dumps(manifest, option=orjson.OPT_INDENT_2))


def _site(root: Path, export_date: str, changed: str | None) -> Path:
    write_event_site(root, QUARTERS, PER_FILE, export_date, revised=False)
    for q in QUARTERS:
        _retext(root, q, change=q == changed)
    return root


def _sync(data: Path, site: Path) -> None:
    report = sync(
        Settings(data_dir=data, backoff=0.01, retries=2, timeout=10),
        SyncOptions(source_dir=site, only=["event"], quiet=True),
    )
    assert report.ok, report.errors


def _meta(data: Path, key: str) -> str | None:
    with duckdb.connect(str(data / "db" / "device_event.duckdb"), read_only=True) as con:
        row = con.execute("SELECT value FROM _sync_meta WHERE key = ?", [key]).fetchone()
        assert index_problems(con, DATASETS["event"]) == []
    return row[0] if row else None


def _searches(data: Path) -> list[str]:
    """Rare words (old, new and gone), common words, and two-word phrases of each kind."""
    with duckdb.connect(str(data / "db" / "device_event.duckdb"), read_only=True) as con:
        common = [
            w for (w,) in con.execute("SELECT word FROM device_event_text_common ORDER BY word LIMIT 6").fetchall()
        ]
        terms = [
            t
            for (t,) in con.execute(
                "SELECT DISTINCT term FROM device_event_text_terms ORDER BY term LIMIT 20"
            ).fetchall()
        ]
    assert len(common) >= 3
    words = ["zq5", "zq8x", "newword3", "lot90000901", "lot90000400", "lot90001196", "lot90001199", "lot90000004"]
    words += ["lot90000300", "lot90000599", "lot90000600", "end2"]
    phrases = [f'"{a}+{b}"' for a, b in (("zq5", "lot90000005"), ("newword1", "zq12x"), (common[0], common[1]))]
    phrases += [f'"{t.replace(" ", "+")}"' for t in terms if " " in t][:6] + [f'"end1+{common[2]}"']
    return [f"mdr_text.text:{w}" for w in words + common + [t for t in terms if " " not in t][:6] + phrases]


def _answers(data: Path, searches: list[str]) -> dict[str, tuple[int, int, list[str]]]:
    """Per search: the status, the total and the sorted keys of up to 1,000 hits (row order may differ)."""
    api = Api(Settings(data_dir=data))
    out = {}
    try:
        for s in searches:
            r = api.get("/device/event.json", f"search={s}&limit=1000")
            body = json.loads(r.body)
            if r.status != 200:
                out[s] = (r.status, 0, [])
                continue
            keys = sorted(x["mdr_report_key"] for x in body["results"])
            out[s] = (r.status, body["meta"]["results"]["total"], keys)
    finally:
        api.close()
    return out


@pytest.mark.parametrize("changed", ["2021q4", "2021q2", "2021q1"], ids=["last", "middle", "first"])
def test_a_refresh_answers_every_text_search_as_a_full_sync(tmp_path, changed):
    v1 = _site(tmp_path / "v1", "2025-01-01", None)
    v2 = _site(tmp_path / "v2", "2025-02-01", changed)
    data, fresh = tmp_path / "data", tmp_path / "fresh"
    _sync(data, v1)
    assert _meta(data, "word_runs") == "1"
    _sync(data, v2)
    assert _meta(data, "word_runs") == "2"  # updated in place (kept rows moved by the checkpoint shifted), not rebuilt
    _sync(fresh, v2)
    assert _meta(fresh, "word_runs") == "1"
    searches = _searches(fresh)
    got, want = _answers(data, searches), _answers(fresh, searches)
    assert got == want
    hits = [s for s, (status, total, _) in want.items() if status == 200 and total > 0]
    assert len(hits) >= 15 and "mdr_text.text:newword3" in hits and want["mdr_text.text:lot90001199"][1] == 1
    gone = {"2021q4": "lot90001196", "2021q2": "lot90000400", "2021q1": "lot90000004"}[changed]
    assert want[f"mdr_text.text:{gone}"][1] == 0  # a record's word that the re-export removed
    assert verify(Store(data))["ok"]


def test_the_word_index_is_built_again_after_its_runs_limit(tmp_path, monkeypatch):
    """After MAX_WORD_RUNS refreshes the index is one sorted run again."""
    from mirror.sync import indexes

    monkeypatch.setattr(indexes, "MAX_WORD_RUNS", 2)
    data = tmp_path / "data"
    _sync(data, _site(tmp_path / "v1", "2025-01-01", None))
    _sync(data, _site(tmp_path / "v2", "2025-02-01", "2021q4"))
    assert _meta(data, "word_runs") == "2"
    _sync(data, _site(tmp_path / "v3", "2025-03-01", None))  # 2021q4 changes back
    assert _meta(data, "word_runs") == "1"
