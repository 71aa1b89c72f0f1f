"""Questions phrased as users phrase them (tests/agent/understanding_cases.yaml), written before the parser was:
each answer's interpretation, its figure (by SQL on the sample mirror), or a clarifying question / a plain "I did not
understand" instead of a figure for questions that cannot be read."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
import yaml

from agent.assistant import Assistant
from agent.settings import AgentSettings
from mirror.settings import Settings
from mirror.store.files import Store

CASES = yaml.safe_load((Path(__file__).parent / "understanding_cases.yaml").read_text())


@pytest.fixture(scope="module")
def data(sample_dir, tmp_path_factory) -> Path:
    d = tmp_path_factory.mktemp("understanding") / "data"
    shutil.copytree(sample_dir / "db", d / "db")
    return d


@pytest.fixture(scope="module")
def assistant(data):
    a = Assistant(Settings(data_dir=data), AgentSettings(model="none"), model=None)
    yield a
    a.close()


@pytest.fixture(scope="module")
def con(data):
    c = Store(data).connect()
    yield c
    c.close()


def figure(con, fig: dict) -> str:
    value = con.execute(fig["sql"]).fetchone()[0]
    return f"{value:,}" if isinstance(value, int) else str(value)


def has_figure(text: str, value: str, noun: str) -> bool:
    """`value noun` in the text, the noun's last word in singular or plural, not inside a longer number."""
    words = noun.split()
    last = re.escape(words[-1]) + r"s?"
    pattern = (
        r"(?<![\d,.])" + re.escape(value) + r"\s+" + r"\s+".join(list(map(re.escape, words[:-1])) + [last]) + r"\b"
    )
    return re.search(pattern, text, re.I) is not None


def check(case: dict, out: dict, con) -> list[str]:
    problems = []
    text, interp = out.get("answer", ""), out.get("interpretation") or {}
    if case.get("clarify") or case.get("refuse"):
        refused = (
            bool(out.get("clarify"))
            or "did not understand" in text.lower()
            or "not understand" in text.lower()
            or out.get("route") in ("medical", "off_topic", "out_of_scope")
        )
        if not refused:
            problems.append("expected a clarifying question or 'I did not understand'")
        if re.search(
            r"\b\d[\d,]* (adverse event reports?|recalled products?|510\(k\) clearances?|product codes?)\b"
            r" match",
            text,
        ):
            problems.append("a figure was given for a question that was not understood")
        if out.get("clarify"):
            c = out["clarify"]
            if not c.get("question") or not isinstance(c.get("choices"), list):
                problems.append(f"clarify payload incomplete: {c}")
        asked = (text + " " + str(out.get("clarify") or "")).lower()
        problems += [
            f"{p!r} not in the answer or its choices" for p in case.get("contains", []) if p.lower() not in asked
        ]
        return problems
    if out.get("clarify"):
        return [f"asked to clarify: {out['clarify']}"]
    if not text.startswith("Interpreted as:"):
        problems.append("the answer does not begin with 'Interpreted as:'")
    if "datasets" in case and sorted(interp.get("datasets", [])) != sorted(case["datasets"]):
        problems.append(f"datasets {interp.get('datasets')}, expected {case['datasets']}")
    if "dates" in case:
        got = [interp.get("date_from"), interp.get("date_to")]
        want = [str(d) if d else None for d in case["dates"]]
        if got != want:
            problems.append(f"dates {got}, expected {want}")
    first = text.split("\n", 1)[0]
    for key in ("firm", "place"):
        if case.get(key) and case[key].lower() not in first.lower():
            problems.append(f"{key} {case[key]!r} not in {first!r}")
    for code in case.get("codes", []):
        if code not in first:
            problems.append(f"code {code} not in {first!r}")
    for fig in ([case["figure"]] if case.get("figure") else []) + case.get("figures", []):
        v = figure(con, fig)
        if not has_figure(text, v, fig["noun"]):
            problems.append(f"'{v} {fig['noun']}' not in the answer")
    for phrase in case.get("absent", []):
        if phrase.lower() in first.lower():
            problems.append(f"{phrase!r} in {first!r}")
    for phrase in case.get("contains", []):
        if phrase.lower() not in text.lower():
            problems.append(f"{phrase!r} not in the answer")
    for sql in case.get("contains_sql", []):
        v = str(con.execute(sql).fetchone()[0])
        if v.lower() not in text.lower():
            problems.append(f"{v!r} not in the answer")
    return problems


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_case(case, assistant, con):
    session = f"u-{case['id']}"
    out = assistant.ask(case["question"], session_id=session)
    problems = check(case, out, con)
    assert not problems, f"{case['question']!r}: {problems}\n{out.get('answer')}"
    if case.get("then"):
        nxt = assistant.ask(case["then"]["question"], session_id=session)
        problems = check(case["then"], nxt, con)
        assert not problems, f"{case['then']['question']!r}: {problems}\n{nxt.get('answer')}"


def test_the_checker_reads_figures_in_both_numbers():
    assert has_figure("1 recalled product was found", "1", "recalled product")
    assert has_figure("5 adverse event reports were received", "5", "adverse event report")
    assert not has_figure("15 adverse event reports", "5", "adverse event report")
