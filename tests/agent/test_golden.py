"""The golden set (tests/golden/questions.yaml) on the sample mirror without a model: route, tool plan, key arguments,
figures computed by SQL, expected and valid cited record IDs. One pytest id per case; known agent bugs are strict
xfails.

bench/agent_eval.py imports `load_cases`, `session_groups`, `Mirror` and `check` from here, so the benchmark's
"right figures" and "valid citations" mean exactly what this test asserts.
"""

from __future__ import annotations

import re
import shutil
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import yaml

from agent.assistant import Assistant
from agent.settings import AgentSettings
from agent.tools import TOOLS
from mirror.settings import Settings
from mirror.store.files import Store

GOLDEN = Path(__file__).resolve().parents[2] / "tests" / "golden"
ROUTES = {"ask", "empty", "greeting", "help", "off_topic", "medical", "out_of_scope"}
KEYS = {
    "id",
    "question",
    "tags",
    "session",
    "follows",
    "route",
    "expect_tools",
    "expect_args",
    "expect_figures",
    "expect_ids",
    "xfail",
}
ASPECTS = ("route", "tools", "args", "figures", "ids", "citations")


# -- the golden files ---------------------------------------------------------------------------------------


def load_cases(path: Path = GOLDEN / "questions.yaml") -> list[dict]:
    """The cases in file order, checked for shape: unique ids, known keys, follow-ups after their question."""
    cases = yaml.safe_load(path.read_text())
    seen: dict[str, dict] = {}
    for c in cases:
        where = f"{path.name}: case {c.get('id')!r}"
        if set(c) - KEYS or not {"id", "question", "expect_tools"} <= set(c):
            raise ValueError(f"{where}: unknown keys {sorted(set(c) - KEYS)} or missing id/question/expect_tools")
        if c["id"] in seen:
            raise ValueError(f"{where}: duplicate id")
        if c.get("route", "ask") not in ROUTES:
            raise ValueError(f"{where}: route must be one of {sorted(ROUTES)}")
        prev = seen.get(c.get("follows", ""))
        if c.get("follows") and (prev is None or prev.get("session") != c.get("session")):
            raise ValueError(f"{where}: follows {c['follows']!r}, which must come earlier in the same session")
        seen[c["id"]] = c
    return cases


def session_groups(cases: list[dict]) -> dict[str, list[dict]]:
    """Cases by session in file order; cases without a session form the group "" (each asked in a new session)."""
    groups: dict[str, list[dict]] = {}
    for c in cases:
        groups.setdefault(c.get("session", ""), []).append(c)
    return groups


class Mirror:
    """SQL over the mirror for the checks: figures, expected record IDs, and whether a cited ID exists."""

    def __init__(self, data_dir: Path, citations: Path = GOLDEN / "citations.yaml") -> None:
        self.con = Store(data_dir).connect()
        self.where: dict[str, dict[str, list[str]]] = yaml.safe_load(citations.read_text())

    def value(self, sql: str) -> Any:
        return self.con.execute(sql).fetchone()[0]

    def ids(self, sql: str) -> list[str]:
        """`field=value` for each row; the query's one column is named after the ID field."""
        cur = self.con.execute(sql)
        field = cur.description[0][0]
        return [f"{field}={v}" for (v,) in cur.fetchall()]

    def cited_exists(self, dataset: str, cited: str) -> bool:
        field, _, value = cited.partition("=")
        for place in self.where.get(dataset, {}).get(field, []):
            table, column = place.split(".")
            if self.con.execute(f'SELECT count(*) FROM "{table}" WHERE "{column}" = ?', [value]).fetchone()[0]:
                return True
        return False

    def close(self) -> None:
        self.con.close()


# -- checking one answer ------------------------------------------------------------------------------------


def figure_text(value: Any, fmt: str = "{}") -> str:
    """A figure as the answers write it: integers with thousands separators."""
    shown = f"{value:,}" if isinstance(value, int) and not isinstance(value, bool) else str(value)
    return fmt.format(shown)


def singular(needle: str) -> str:
    """'1 adverse event reports' -> '1 adverse event report' (the answers write one record in the singular)."""
    return re.sub(r"(\w\w)s\b", r"\1", needle, count=1)


def appears(text: str, needle: str) -> bool:
    """`needle` in `text`, not as part of a longer number (so "5" does not match "2015" or "5,000")."""
    before = r"(?<![\d,.])" if needle[:1].isdigit() else ""
    after = r"(?!\d|,\d)" if needle[-1:].isdigit() else ""
    return re.search(before + re.escape(needle) + after, text) is not None


def _norm(v: Any) -> Any:
    if isinstance(v, dict):
        return {k: _norm(x) for k, x in v.items()}
    if isinstance(v, list):
        return sorted(_norm(x) for x in v)
    return None if v is None else str(v)


def _tools(case: dict, calls: list[dict]) -> list[str]:
    expected, got = case["expect_tools"], [c["tool"] for c in calls]
    if expected is None:
        return []
    if isinstance(expected, dict):
        same = Counter(expected["any_order"]) == Counter(got)
        return [] if same else [f"tools {got}, expected {expected['any_order']} in any order"]
    return [] if got == expected else [f"tools {got}, expected {expected}"]


def _args(case: dict, calls: list[dict]) -> list[str]:
    problems = []
    for tool, want in (case.get("expect_args") or {}).items():
        mine = [c for c in calls if c["tool"] == tool]
        if not mine:
            problems.append(f"{tool} was not called")
            continue
        call = ([c for c in mine if c.get("ok")] or mine)[-1]  # after a retry, the call that ran
        for key, value in want.items():
            if _norm(call["args"].get(key)) != _norm(value):
                problems.append(f"{tool}.{key} = {call['args'].get(key)!r}, expected {value!r}")
    return problems


def check(case: dict, out: dict, mirror: Mirror) -> dict[str, list[str]]:
    """What is wrong with an answer, by aspect (route, tools, args, figures, ids, citations); empty lists if right."""
    calls, text = out.get("tool_calls", []), out.get("answer", "")
    cited = {c["id"] for c in out.get("citations", [])}
    route = case.get("route", "ask")
    problems: dict[str, list[str]] = {a: [] for a in ASPECTS}
    if out.get("route") != route:
        problems["route"].append(f"route {out.get('route')!r}, expected {route!r}")
    problems["tools"] = _tools(case, calls)
    problems["args"] = _args(case, calls)
    for fig in case.get("expect_figures") or []:
        value = mirror.value(fig["sql"])
        needle = figure_text(value, fig.get("format", "{}"))
        if not any(appears(text, n) for n in [needle] + ([singular(needle)] if value == 1 else [])):
            problems["figures"].append(f"{fig['label']}: {needle!r} not in the answer")
    for sql in case.get("expect_ids") or []:
        ids = mirror.ids(sql)
        if not ids:
            raise ValueError(f"case {case['id']!r}: expect_ids query returned no rows: {sql}")
        problems["ids"] += [f"{i} not cited" for i in ids if i not in cited]
    for c in out.get("citations", []):
        if not mirror.cited_exists(c["dataset"], c["id"]):
            problems["citations"].append(f"cited {c['dataset']} {c['id']} is not in the mirror")
    return problems


# -- the test -----------------------------------------------------------------------------------------------

CASES = load_cases()
BY_ID = {c["id"]: c for c in CASES}


class Answers:
    """Answers by case id, asked one session group at a time (one Assistant per group) when first needed."""

    def __init__(self, data_dir: Path) -> None:
        self.data_dir, self.got = data_dir, {}
        self.groups = session_groups(CASES)
        self.group_of = {c["id"]: g for g, cs in self.groups.items() for c in cs}

    def __getitem__(self, case_id: str) -> dict | Exception:
        if case_id not in self.got:
            group = self.group_of[case_id]
            a = Assistant(Settings(data_dir=self.data_dir), AgentSettings(model="none"), model=None)
            try:
                for c in self.groups[group]:
                    try:
                        self.got[c["id"]] = a.ask(c["question"], session_id=f"golden-{group}" if group else None)
                    except Exception as e:  # reported by that case's test
                        self.got[c["id"]] = e
            finally:
                a.close()
        return self.got[case_id]


@pytest.fixture(scope="module")
def golden_data(sample_dir, tmp_path_factory) -> Path:
    """A private copy of the sample mirror (sessions and audit logs are written into the data folder)."""
    d = tmp_path_factory.mktemp("golden") / "data"
    shutil.copytree(sample_dir / "db", d / "db")
    return d


@pytest.fixture(scope="module")
def answers(golden_data) -> Answers:
    return Answers(golden_data)


@pytest.fixture(scope="module")
def mirror(golden_data):
    m = Mirror(golden_data)
    yield m
    m.close()


def _param(c: dict):
    marks = [pytest.mark.xfail(strict=True, reason=" ".join(c["xfail"].split()))] if c.get("xfail") else []
    return pytest.param(c["id"], id=c["id"], marks=marks)


@pytest.mark.parametrize("case_id", [_param(c) for c in CASES])
def test_golden_case(case_id, answers, mirror):
    case, out = BY_ID[case_id], answers[case_id]
    if isinstance(out, Exception):
        raise out
    problems = {k: v for k, v in check(case, out, mirror).items() if v}
    assert not problems, f"{case['question']!r}\n{problems}\nanswer:\n{out['answer']}"
    assert out["model_calls"] == 0 and out["model"] == "none"
    if case.get("route", "ask") != "ask":
        assert out["citations"] == [] and out["answer"]


def test_golden_set_covers_what_the_issue_asks():
    passing = [c for c in CASES if not c.get("xfail")]
    planned = {
        t
        for c in passing
        if c["expect_tools"]
        for t in (c["expect_tools"]["any_order"] if isinstance(c["expect_tools"], dict) else c["expect_tools"])
    }
    assert len(CASES) >= 40
    searchers = {n for n, t in TOOLS.items() if t.kind == "searcher"}  # resolvers serve the reading, surveillance
    #                                                                   tools are asked for by name: not planned
    assert searchers <= planned, f"no passing case plans {sorted(searchers - planned)}"
    assert {"empty", "greeting", "help", "off_topic", "medical"} <= {c.get("route") for c in passing}
    tags = Counter(t for c in CASES for t in c.get("tags", []))
    for tag in ("followup", "multi", "trend", "top", "dates", "k-number", "p-number", "firm", "location", "typo"):
        assert tags[tag], tag
    assert all(c.get("session") for c in CASES if c.get("follows"))


def test_the_checks_read_figures_as_the_answers_write_them():
    assert figure_text(3219, "{} product codes") == "3,219 product codes"
    assert singular("1 adverse event reports") == "1 adverse event report"
    assert singular("1 PMA supplements with the same filters") == "1 PMA supplement with the same filters"
    assert appears("5 adverse event reports", "5 adverse event reports")
    assert not appears("15 adverse event reports", "5 adverse event reports")
    assert not appears("2023: 5,100", "2023: 5") and appears("2023: 5; 2024: 1", "2023: 5")
