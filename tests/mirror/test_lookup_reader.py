"""The lookups read the mirror through the one Reader and derive their tables once per mirror version; the shared
openFDA facts and the submission-number pattern are written once (issue 19, P3 and P5)."""

from __future__ import annotations

import ast
import os
import shutil
from pathlib import Path

import pytest

from mirror.api import Api
from mirror.errors import first_line
from mirror.lookup import SUBMISSION_RE, find_firm, resolve_devices
from mirror.lookup.devices import vocabulary_info
from mirror.lookup.firms import ensure_firm_table
from mirror.lookup.lexicon import product_code_details
from mirror.schema import openfda
from mirror.settings import Settings
from mirror.store.reader import Reader

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def own_mirror(sample_dir: Path, tmp_path: Path) -> Path:
    """A private copy of the sample mirror (this test touches its files as a sync publishing would)."""
    d = tmp_path / "mirror"
    shutil.copytree(sample_dir / "db", d / "db")
    return d


def test_lookups_take_a_reader_and_build_once_per_mirror_version(own_mirror: Path):
    reader = Reader(Settings(data_dir=own_mirror))
    try:
        found = resolve_devices(reader, "insulin pump")
        assert found["rows"][0]["product_code"] == "LZG"
        first = vocabulary_info(reader)
        assert vocabulary_info(reader) == first  # derived once: the same build
        medtronic = find_firm(reader, "Medtronic")
        assert medtronic.candidates and medtronic.candidates[0].name == "Medtronic, Inc."
        assert ensure_firm_table(reader)[0] == 0.0  # already built for this version
        path = own_mirror / "db" / "device_classification.duckdb"
        os.utime(path, ns=(path.stat().st_atime_ns, path.stat().st_mtime_ns + 10**9))  # as a sync publishing
        again = vocabulary_info(reader)
        assert again["version"] != first["version"] and again["codes"] == first["codes"]
        assert ensure_firm_table(reader)[0] > 0.0  # rebuilt for the new version
        assert product_code_details(reader, ["lzg"])["LZG"].device_name
    finally:
        reader.close()


def test_an_api_and_its_reader_share_one_cache(sample_dir: Path):
    """Callers holding the Api (the assistant's tools) reach the same derived tables as those holding its Reader:
    nothing is cached on the Api itself."""
    api = Api(Settings(data_dir=sample_dir))
    try:
        built = find_firm(api, "Medtronic").build_seconds
        assert built > 0
        assert ensure_firm_table(api.reader)[0] == 0.0 and find_firm(api.reader, "Medtronic").build_seconds == 0.0
        assert not [k for k in vars(api) if "lookup" in k or "firm" in k or "vocab" in k]
    finally:
        api.close()


def test_the_lookups_do_not_import_the_openfda_emulator():
    """mirror/lookup reads through mirror.store.reader, never mirror.api (the review's P3)."""
    for path in (ROOT / "mirror" / "lookup").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom):
                module = ("." * node.level) + (node.module or "")
                assert module not in ("..api", "mirror.api") and not module.startswith(("..api.", "mirror.api.")), (
                    path.name,
                    module,
                )


@pytest.mark.parametrize(
    ("text", "kind", "num", "supp"),
    [
        ("K192028", "K", "192028", None),
        ("den200001", "den", "200001", None),
        ("P170019/S012", "P", "170019", "S012"),
        ("P170019 S012", "P", "170019", "S012"),
    ],
)
def test_one_submission_number_pattern(text, kind, num, supp):
    m = SUBMISSION_RE.fullmatch(text)
    assert m and (m["kind"], m["num"], m["supp"]) == (kind, num, supp)


@pytest.mark.parametrize("text", ["K19202", "Q192028", "K192028X", "510k"])
def test_the_submission_pattern_refuses_other_shapes(text):
    assert SUBMISSION_RE.fullmatch(text) is None


def test_the_openfda_facts_are_written_once_in_mirror():
    """The disclaimer, the date formats and the word pattern live in mirror/schema/openfda.py; the API answers
    with them."""
    owners = {
        p.relative_to(ROOT).as_posix()
        for p in (ROOT / "mirror").rglob("*.py")
        if "Do not rely on openFDA to make decisions" in p.read_text() and "DISCLAIMER =" in p.read_text()
    }
    assert owners == {"mirror/schema/openfda.py"}
    for rel in ("mirror/api/engine.py", "mirror/api/sql.py", "mirror/api/anyfield.py", "mirror/api/summary.py"):
        text = (ROOT / rel).read_text()
        assert "%m/%d/%Y" not in text and "'%Y%m%d'" not in text and 'WORD.replace("\'"' not in text, rel
    assert openfda.DATE_FORMATS_SQL == "['%Y%m%d', '%Y-%m-%d', '%m/%d/%Y']"


def test_api_meta_is_openfdas_notice(sample_dir: Path):
    api = Api(Settings(data_dir=sample_dir))
    try:
        meta = api.get("/device/510k.json", "limit=1").json()["meta"]
    finally:
        api.close()
    assert (meta["disclaimer"], meta["terms"], meta["license"]) == (openfda.DISCLAIMER, openfda.TERMS, openfda.LICENSE)


def test_first_line_quotes_an_underlying_error_on_one_line():
    assert first_line(ValueError("Binder Error: no column x\nLINE 1: SELECT x\n   ^")) == "Binder Error: no column x"
    assert first_line(KeyError()) == "KeyError"
    assert first_line(RuntimeError("  \n  second line only  ")) == "second line only"
    long = first_line(RuntimeError("x" * 500), 50)
    assert len(long) == 50 and long.endswith("...")


def test_a_firms_datasets_and_spellings_come_in_one_order(sample_dir: Path):
    """Records per dataset most first (then by name) and spellings by name: not the order a GROUP BY happens to give,
    which changed between runs and made the assistant pick a different dataset for the same question."""
    from mirror.lookup.lexicon import firm_phrases

    reader = Reader(Settings(data_dir=sample_dir))
    try:
        hit = firm_phrases(reader, ["Medtronic"])["Medtronic"]
        counts = list(hit.by_dataset.items())
        assert len(counts) >= 2
        assert counts == sorted(counts, key=lambda kv: (-kv[1], kv[0]))
        assert list(hit.variants) == sorted(hit.variants)
    finally:
        reader.close()
