"""`mirror sql` is read-only (review D6): every statement that could change the published mirror, reach a file, the
network or an extension, or change the configuration is refused with one line and a non-zero exit, and afterwards
the published files are byte for byte the same, a record reads as before and `mirror verify` passes."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from mirror.cli import cli
from mirror.ops.sql import SqlRefused, run_sql
from mirror.store.files import Store

FORGED = '{"mdr_report_key":"forged"}'


@pytest.fixture
def mirror_copy(sample_dir: Path, tmp_path: Path) -> Path:
    """A private copy of the sample mirror (an attack that worked must not spoil the shared one)."""
    dest = tmp_path / "mirror"
    shutil.copytree(sample_dir, dest)
    return dest


def sql(data: Path, query: str, *extra: str):
    return CliRunner().invoke(cli, ["sql", query, "--data-dir", str(data), *extra], prog_name="mirror")


def digests(data: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted((data / "db").glob("*.duckdb"))}


ATTACKS = [  # (statement, words of the one-line refusal); {db}: the published folder, {out}: a file outside
    (
        "DETACH ds_event; ATTACH '{db}/device_event.duckdb' AS w; UPDATE w.device_event SET record = "
        f"'{FORGED}'::JSON; SELECT 1",
        "4 statements given",
    ),  # the review's reproduction
    ("SELECT 1; SELECT 2", "2 statements given"),
    ("DETACH ds_event", "DETACH refused"),
    ("ATTACH '{db}/device_event.duckdb' AS w", "ATTACH refused"),
    ("ATTACH '{out}' AS planted", "ATTACH refused"),
    ("COPY (SELECT * FROM device_510k) TO '{out}'", "COPY refused"),
    ("EXPORT DATABASE '{out}'", "EXPORT refused"),
    ("INSTALL httpfs", "INSTALL refused"),
    ("LOAD httpfs", "LOAD refused"),
    ("SET enable_external_access = true", "SET refused"),
    ("SET lock_configuration = false", "SET refused"),
    ("PRAGMA memory_limit = '64GB'", "PRAGMA refused"),
    ("RESET memory_limit", "RESET refused"),
    ("CALL pragma_version()", "CALL refused"),
    ("CREATE TABLE ds_event.main.planted (a INTEGER)", "CREATE refused"),
    ("CREATE TABLE planted AS SELECT 1", "CREATE refused"),
    ("UPDATE ds_event.main.device_event SET record = NULL", "UPDATE refused"),
    ("DELETE FROM ds_510k.main.device_510k", "DELETE refused"),
    ("DROP VIEW device_event", "DROP refused"),
    ("CHECKPOINT", "CHECKPOINT refused"),
    # SELECTs that reach outside the mirror: the sealed connection stops them
    ("SELECT * FROM read_csv('/etc/passwd')", "reads only the mirror's tables"),
    ("SELECT * FROM read_text('{out}')", "reads only the mirror's tables"),
    ("SELECT * FROM read_json('{db}/../open.sql')", "reads only the mirror's tables"),
    ("SELECT * FROM glob('/etc/*')", "reads only the mirror's tables"),
    ("SELECT * FROM 'http://127.0.0.1:9/x.csv'", "reads only the mirror's tables"),
    ("SELECT * FROM query('ATTACH ''{out}'' AS x')", "query failed"),
    ("", "no statement given"),
]


def test_every_write_file_network_or_setting_statement_is_refused(mirror_copy: Path, tmp_path: Path):
    outside = tmp_path / "outside.txt"
    outside.write_text("a file outside the mirror\n")
    out = tmp_path / "exfil.csv"
    before = digests(mirror_copy)
    record = sql(mirror_copy, "SELECT record FROM device_event WHERE mdr_report_key = '16081314'", "--json")
    assert record.exit_code == 0, record.output
    for statement, words in ATTACKS:
        query = statement.replace("{db}", str(mirror_copy / "db")).replace(
            "{out}", str(outside if "read_text" in statement else out)
        )
        r = sql(mirror_copy, query)
        assert r.exit_code == 1, (query, r.output)
        assert r.stdout == "" and r.stderr.startswith("Error: ") and r.stderr.count("\n") == 1, (query, r.stderr)
        assert words in r.stderr, (query, r.stderr)
    assert not out.exists() and not (tmp_path / "planted").exists()
    assert outside.read_text() == "a file outside the mirror\n"
    assert digests(mirror_copy) == before
    again = sql(mirror_copy, "SELECT record FROM device_event WHERE mdr_report_key = '16081314'", "--json")
    assert again.stdout == record.stdout and "forged" not in again.stdout
    verify = CliRunner().invoke(cli, ["verify", "--data-dir", str(mirror_copy)], prog_name="mirror")
    assert verify.exit_code == 0, verify.output


@pytest.mark.parametrize(
    "query,first",
    [
        ("SELECT count(*) AS n FROM device_event", {"n": 7}),
        ("SELECT count(*) AS n FROM ds_510k.device_510k", {"n": 7}),
        ("WITH c AS (SELECT product_code FROM device_classification) SELECT count(*) AS n FROM c", {"n": 6530}),
        ("FROM device_recall SELECT count(*) AS n", {"n": 3}),
        ("SHOW TABLES", None),
        ("DESCRIBE device_510k", None),
        ("SUMMARIZE SELECT 1 AS a", None),
    ],
)
def test_selects_of_every_form_still_answer(mirror_copy: Path, query, first):
    r = sql(mirror_copy, query, "--json")
    assert r.exit_code == 0, r.output
    rows = json.loads(r.stdout)
    assert rows and (first is None or rows[0] == first)


def test_the_connection_is_sealed(mirror_copy: Path):
    got = run_sql(
        Store(mirror_copy, memory_limit="512MB"),
        "SELECT current_setting('enable_external_access'), "
        "current_setting('autoinstall_known_extensions'), current_setting('autoload_known_extensions'), "
        "current_setting('lock_configuration'), current_setting('memory_limit'), "
        "(SELECT bool_and(readonly) FROM duckdb_databases() WHERE database_name LIKE 'ds_%')",
    )
    assert got.rows[0][:4] == (False, False, False, True)
    assert got.rows[0][4] in ("488.2 MiB", "512.0 MB") and got.rows[0][5] is True


def test_a_missing_mirror_or_a_bad_query_is_one_line(tmp_path: Path, mirror_copy: Path):
    r = sql(tmp_path / "none", "SELECT 1")
    assert r.exit_code == 1 and r.stderr.count("\n") == 1 and "mirror sync" in r.stderr
    r = sql(mirror_copy, "SELEC 1")
    assert r.exit_code == 1 and r.stderr.count("\n") == 1 and "query failed" in r.stderr
    with pytest.raises(SqlRefused, match="no such table|does not exist"):
        run_sql(Store(mirror_copy), "SELECT * FROM no_such_table")
