"""Review a13 of the frame and shorthand rules (issue 14): a question the frame misread must never get a figure
for the whole dataset. Each test is a question of the review, asked through the assistant on the sample mirror."""

from __future__ import annotations

import re

import pytest

from agent.understand.frame import expand_shorthand, reframe


def _first_figure(answer: str) -> str:
    body = answer.split("\n\n", 1)[1] if "\n\n" in answer else answer
    return body.split("\n")[0]


def _ask(assistant, question: str) -> str:
    return assistant.ask(question, session_id=re.sub(r"\W", "", question)[:30] or "q")["answer"]


def test_1_a_for_clause_naming_a_device_is_the_topic(assistant):
    answer = _ask(assistant, "For an insulin pump, how many MDRs were filed in 2023?")
    assert 'device "insulin pump"' in answer.split("\n")[0], answer
    assert not _first_figure(answer).startswith("5 adverse event reports in 2023"), answer


def test_2_a_restriction_after_the_ask_is_kept(assistant):
    answer = _ask(assistant, "How many adverse events in 2023? Malfunctions only.")
    assert "malfunction" in answer.split("\n")[0], answer
    answer = _ask(assistant, "How many adverse events in 2023? Only the ones from Puerto Rico.")
    assert "Puerto Rico" in answer.split("\n")[0], answer


def test_3_a_bracketed_firm_is_kept(assistant):
    answer = _ask(assistant, "How many adverse events for insulin pumps (Medtronic)?")
    assert "firm Medtronic" in answer.split("\n")[0], answer


@pytest.mark.parametrize("code", ["MOS", "MOM", "MFR", "REG"])
def test_4_a_product_code_is_no_shorthand(assistant, code):
    assert expand_shorthand(f"How many recalls for product code {code}?").endswith(f"code {code}?")
    answer = _ask(assistant, f"How many adverse events for product code {code} in 2020?")
    assert f"product code {code}" in answer.split("\n")[0], answer


def test_5_a_full_stop_after_an_abbreviation_ends_no_sentence(assistant):
    framed = reframe("Show St. Jude Medical adverse events from 2023", lambda t: [])
    assert framed.text == "Show St. Jude Medical adverse events from 2023"
    answer = _ask(assistant, "Show St. Jude Medical adverse events from 2023")
    assert "Sao Tome" not in answer, answer


def test_6_by_the_year_is_a_deadline_not_a_breakdown(assistant):
    assert "by the year 2021" in expand_shorthand("How many 510(k)s had been cleared by the year 2021?")
    answer = _ask(assistant, "How many 510(k)s had been cleared by the year 2021?")
    assert "per year" not in answer, answer


def test_8_a_polite_bracket_keeps_its_filter(assistant):
    answer = _ask(assistant, "How many recalls (class I only please)?")
    assert "class I" in answer.split("\n")[0] or "Which do you mean" in answer, answer
    assert not _first_figure(answer).startswith("3 recalled products"), answer


@pytest.mark.parametrize(
    ("question", "said"),
    [
        ("US recalls: how many in 2019?", "United States"),
        ("Per product code: how many 510(k)s in 2020?", "product codes"),
    ],
)
def test_9_a_colon_lead_naming_a_filter_is_read(assistant, question, said):
    answer = _ask(assistant, question)
    assert said in answer.split("\n\n")[0] + _first_figure(answer), answer


def test_9_class_i_lead_is_no_pronoun(assistant):
    answer = _ask(assistant, "Class I recalls: how many in 2019?")
    assert not _first_figure(answer).startswith("1 recalled product in 2019"), answer


def test_10_firm_names_are_not_rewritten():
    assert "Mfg. Co." in expand_shorthand("Recalls for Hu-Friedy Mfg. Co. in 2019")
    assert expand_shorthand("adverse events for the Sub Q device") == "adverse events for the Sub Q device"
    assert reframe("Hi-Tech Medical recalls in 2019", lambda t: []).text.startswith("Hi-Tech Medical")
    assert expand_shorthand("top mfr by recalls") == "top manufacturer by recalls"


def test_11_the_note_names_only_words_not_searched(assistant):
    answer = _ask(assistant, "For our Tuesday huddle, how many adverse events did Medtronic have?")
    assert "read as your context" not in answer
    assert "not used in the search (taken as background)" in answer, answer


def test_12_the_recall_class_note_is_said_once(assistant):
    answer = _ask(assistant, "How many times has Arrow International had a Class II recall?")
    assert "beside a ..." not in answer and answer.count("recall class") <= 1, answer


def test_14_a_period_is_no_they():
    framed = reframe("We looked at 2023. How many adverse events did they have?", lambda t: ["2023"])
    assert "did 2023 have" not in framed.text, framed.text


def test_7_the_fei_number_of_a_recall_is_the_recalling_firms(assistant):
    answer = _ask(assistant, "What is the FEI number of the recalling firm for Z-0053-2020?")
    assert "FEI number 2518433 " in answer, answer


@pytest.mark.parametrize(
    "question",
    ["how many recalls did our supplier have in 2019", "how many adverse events did that vendor have in 2023"],
)
def test_an_unnamed_firm_is_asked_about(assistant, question):
    answer = _ask(assistant, question)
    assert "Which firm do you mean?" in answer and "Interpreted as" not in answer, answer


def test_14_they_with_no_firm_is_asked_about(assistant):
    answer = _ask(assistant, "We looked at 2023. How many adverse events did they have?")
    assert "Which firm do you mean?" in answer, answer


_SEED_QUESTIONS = [
    "catalog number for the pacemaker analyzer from netech corp",
    "what's the primary DI for the NETECH pacemaker analyzer?",
    "netech corp",
    "Boston Scientific",
    "Medtronic",
    "how many records for Medtronic",
    "Medtronic 2023",
    "what do we have on Arrow International",
    "DiaSorin",
    "registration for DiaSorin",
    "which product codes does DiaSorin list?",
    "class II",
    "class 2 recalls",
    "catheter",
    "pump recalls",
    "how many pumps",
    "insulin pump",
    "top manufacturers",
    "which device has the most reports",
    "Medtronic vs Boston Scientific",
    "Netech vs Nuvasive UDI records",
    "what was recalled",
    "what is the device class of the 630G",
    "covid antibody tests",
    "rank the covid antibody kit makers by their TP results",
    "product codes for pacemaker analyzer",
    "brand names for Medtronic",
    "what is the latest record for Medtronic",
    "adverse events for the ophthalmic panel",
    "How many recalls (class I only please)?",
]
_SEED_SCRIPT = """
import json, shutil, sys
from pathlib import Path
from agent.assistant import Assistant
from agent.settings import AgentSettings
from mirror.settings import Settings
src, dst = Path(sys.argv[1]), Path(sys.argv[2])
shutil.copytree(src / "db", dst / "db")
a = Assistant(Settings(data_dir=dst), AgentSettings(model="none"), model=None)
out = [a.ask(q, session_id=f"s{i}").get("answer", "") for i, q in enumerate(json.loads(sys.argv[3]))]
a.close()
print(json.dumps(out))
"""


def test_answers_do_not_depend_on_the_string_hash_seed(sample_dir, tmp_path):
    import json
    import os
    import subprocess
    import sys

    got = []
    for seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        run = subprocess.run(
            [sys.executable, "-c", _SEED_SCRIPT, str(sample_dir), str(tmp_path / seed), json.dumps(_SEED_QUESTIONS)],
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
            check=True,
        )
        got.append(json.loads(run.stdout.strip().splitlines()[-1]))
    assert len(got[0]) == len(_SEED_QUESTIONS)
    for q, one, two in zip(_SEED_QUESTIONS, *got, strict=True):
        assert one == two, (q, one[:300], two[:300])
