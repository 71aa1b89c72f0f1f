"""Shared for the API tests: one sample mirror (synced once per session) and its source records."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest

from mirror.api import Api
from mirror.api.catalog import catalog
from mirror.settings import Settings

ROOT = Path(__file__).resolve().parents[3]
SAMPLE = ROOT / "mirror" / "sample"


def sample_records() -> dict[str, list[dict]]:
    """Every record of the sample source, per endpoint, in file order (what the mirror was loaded from)."""
    manifest = json.loads((SAMPLE / "download.json").read_text(encoding="utf-8"))
    out: dict[str, list[dict]] = {}
    for ep, entry in manifest["results"]["device"].items():
        for part in entry["partitions"]:
            path = SAMPLE / part["file"].split("download.open.fda.gov/", 1)[1]
            with zipfile.ZipFile(path) as zf:
                out.setdefault(ep, []).extend(json.loads(zf.read(zf.namelist()[0]))["results"])
    return out


@pytest.fixture(scope="session")
def mirror_dir(sample_dir: Path) -> Path:
    return sample_dir


@pytest.fixture(scope="session")
def api(mirror_dir: Path):
    a = Api(Settings(data_dir=mirror_dir))
    yield a
    a.close()


@pytest.fixture(scope="session")
def records() -> dict[str, list[dict]]:
    return sample_records()


@pytest.fixture(scope="session")
def fields():
    return catalog()
