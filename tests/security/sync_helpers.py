"""Shared pieces of the hostile-sync tests: a baseline mirror, the CLI, a victim folder outside it, a local server."""

from __future__ import annotations

import shutil
import threading
from pathlib import Path

import orjson
import pytest
from click.testing import CliRunner

from mirror import Store, status
from mirror.cli import cli
from mirror.sync import SAMPLE_DIR
from tests.conftest import FileServer

DL = "https://download.open.fda.gov"
K510 = "device/510k/device-510k-0001-of-0001.json.zip"
PMA = "device/pma/device-pma-0001-of-0001.json.zip"


def run(*args: str, env: dict | None = None) -> tuple[int, str, str]:
    r = CliRunner().invoke(cli, list(args), env=env, catch_exceptions=False)
    return r.exit_code, r.stdout, r.stderr


def error_line(err: str) -> str:
    """The one `Error:` line of a refused command (no traceback, nothing else on stderr)."""
    assert "Traceback" not in err, err
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("Error: "), err
    return lines[0]


def errors(err: str) -> list[str]:
    """Every `Error:` line (a sync prints one per failed dataset)."""
    assert "Traceback" not in err, err
    return [ln for ln in err.splitlines() if ln.startswith("Error: ")]


def files_under(root: Path, skip: tuple[Path, ...] = ()) -> dict[str, bytes]:
    """Every file (and symlink) under `root` but outside `skip`, with its content."""
    out = {}
    for p in root.rglob("*"):
        if any(p == s or s in p.parents for s in skip):
            continue
        if p.is_symlink():
            out[str(p)] = b"-> " + str(p.readlink()).encode()
        elif p.is_file():
            out[str(p)] = p.read_bytes()
    return out


def load_manifest(path: Path) -> dict:
    return orjson.loads(path.read_bytes())


def save_manifest(path: Path, doc: dict) -> None:
    path.write_bytes(orjson.dumps(doc, option=orjson.OPT_INDENT_2))


def records(data: Store | Path, endpoint: str) -> int:
    """A query on the mirror: the published table's row count."""
    con = Store(Path(data)).connect()
    try:
        return con.execute(f"SELECT count(*) FROM device_{endpoint}").fetchone()[0]
    finally:
        con.close()


def assert_intact(data: Path, before: dict, endpoints=("510k", "pma")) -> None:
    """`mirror status` works and every dataset holds what it held; a query answers with the same count."""
    code, out, err = run("status", "--json", "--data-dir", str(data))
    assert code == 0, err
    after = orjson.loads(out)
    for ep in endpoints:
        assert after["endpoints"][ep]["records"] == before["endpoints"][ep]["records"], ep
        assert after["endpoints"][ep]["export_date"] == before["endpoints"][ep]["export_date"], ep
        assert records(data, ep) == before["endpoints"][ep]["records"]


@pytest.fixture(scope="module")
def base_mirror(tmp_path_factory) -> Path:
    """A mirror of the sample's 510k and pma, synced once per module (tests work on copies)."""
    d = tmp_path_factory.mktemp("base") / "data"
    code, out, err = run("sync", "--from", str(SAMPLE_DIR), "--only", "510k,pma", "--data-dir", str(d), "--quiet")
    assert code == 0, err
    return d


@pytest.fixture
def mirror_copy(base_mirror: Path, tmp_path: Path) -> tuple[Path, dict]:
    """A writable copy of the baseline mirror and its status."""
    d = tmp_path / "data"
    shutil.copytree(base_mirror, d)
    return d, status(Store(d))


@pytest.fixture
def server(sample_copy: Path):
    """The sample copy served on 127.0.0.1 (the same folder the tests edit)."""
    srv = FileServer(sample_copy)
    t = threading.Thread(target=srv.serve_forever, daemon=True)
    t.start()
    yield srv
    srv.shutdown()
    srv.server_close()


__all__ = [
    "run",
    "error_line",
    "errors",
    "files_under",
    "load_manifest",
    "save_manifest",
    "records",
    "assert_intact",
    "base_mirror",
    "mirror_copy",
    "server",
    "DL",
    "K510",
    "PMA",
    "SAMPLE_DIR",
]
