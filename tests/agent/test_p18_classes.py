"""Classes of misreading behind the misses of the rounds 51 to 60 (issue 14), each asked here in other words than
the rounds': ordinary words and shorthand that are grammar, one establishment type asked, a registration's or a
510(k)'s field asked after it was found, Medtronic's ticker alone, an open ranking among named firms, a DUNS number,
serious incidents, lay families asked about, case variants of a count's value, a 510(k)'s advisory committee and
review clock, the class mix, a parent firm's name, EU words for a clearance, PCA pumps and fusion cages.
Real library API, sample mirror."""

from __future__ import annotations

import pytest


def _headline(answer: str) -> str:
    return next(ln for ln in answer.splitlines()[1:] if ln.strip())


def _ask(assistant, turns: list[str], sid: str) -> dict:
    out: dict = {}
    for t in turns:
        out = assistant.ask(t, session_id=sid)
    return out


# ordinary words and shorthand of the question's grammar: read as such, never a device, and the figure is the plain one
@pytest.mark.parametrize(
    ("question", "first", "headline"),
    [
        (
            "how many adverse event reports did Boston Scientific rack up in Q1 2023?",
            "firm BOSTON SCIENTIFIC CORPORATION; dates Q1 2023",
            "1 adverse event report from BOSTON SCIENTIFIC CORPORATION in Q1 2023",
        ),
        (
            "has anything under product code OZP shown up in MAUDE in January 2023?",
            "product code OZP",
            "Yes: 2 adverse event reports for product code OZP",
        ),
        ("MoM question: how many MAUDE reports in January 2023?", "dates January 2023", "5 adverse event reports"),
        (
            "economic operators ranked by adverse event reports in Q1 2023",
            "top manufacturers",
            "Manufacturers with the most adverse event reports in Q1 2023",
        ),
        ("how many different makers are in the covid 19 serology evaluations?", "top manufacturers", "7 firms"),
        (
            "rank the recall root causes, sorted desc",
            "top root cause",
            "Root cause with the most recalled products: Employee Error: 2; Device Design: 1",
        ),
    ],
)
def test_ordinary_words_are_grammar(assistant, question, first, headline):
    answer = assistant.ask(question)["answer"]
    assert "did not understand" not in answer and "did not find" not in answer, answer
    assert first in answer.splitlines()[0], answer
    assert _headline(answer).startswith(headline), answer


def test_an_unread_word_beside_a_new_idiom_still_blocks_a_figure(assistant):
    answer = assistant.ask("has the zorblax shown up in MAUDE?")["answer"]
    assert "did not understand" in answer and "zorblax" in answer, answer


# one establishment type asked by the field's name is that type; a field said by name after a registration found by
# its number is that registration's field
@pytest.mark.parametrize(
    ("turns", "expected"),
    [
        (["count of establishments with est type 'Contract Sterilizer'"], "1 establishment registration"),
        (["how many establishments have establishment type contract manufacturer?"], "0 establishment registrations"),
        (["registration 9610240 please", "and the owner/operator number?"], "owner operator number 9051149"),
    ],
)
def test_establishment_type_and_registration_fields(assistant, turns, expected):
    out = _ask(assistant, turns, "registration")
    assert expected in out["answer"], out["answer"]


def test_the_options_of_the_type_are_still_the_field(assistant):
    answer = assistant.ask("what establishment types does Ethicon have - manufacturer, sterilizer, relabeler?")[
        "answer"
    ]
    assert "field establishment type" in answer.splitlines()[0], answer


# "MDT" alone is Medtronic's ticker unless said to be a product code; firms named as guesses of an open ranking are
# no comparison
@pytest.mark.parametrize(
    ("question", "first", "headline"),
    [
        ("any MDT adverse event reports in Q1 2023?", "firm Medtronic", "Yes: 4 adverse event reports from Medtronic"),
        ("adverse events for product code MDT", "product code MDT (Elisa", "0 adverse event reports"),
        (
            "who had the most adverse event reports in Q1 2023 - BSX, MDT, someone else?",
            "top manufacturers",
            "Manufacturers with the most adverse event reports in Q1 2023",
        ),
    ],
)
def test_mdt_alone_and_an_open_ranking(assistant, question, first, headline):
    answer = assistant.ask(question)["answer"]
    assert first in answer.splitlines()[0] and "compared" not in answer.splitlines()[0], answer
    assert _headline(answer).startswith(headline), answer


@pytest.mark.parametrize("question", ["which firm holds DUNS 793149709?", "gudid labeler for duns 793149709"])
def test_a_duns_number_names_its_labeler(assistant, question):
    answer = assistant.ask(question)["answer"]
    assert "labeler DUNS 793149709; field company" in answer.splitlines()[0], answer
    assert "company Tz Medical, Inc." in answer, answer


# serious incidents, death or (serious) injury: one count of the reports of either type, never a comparison
@pytest.mark.parametrize(
    "question",
    [
        "how many reports of death or serious injury came in during January 2023?",
        "January 2023 MDRs coded as death/injury (not just malfunction)?",
        "serious incidents received in January 2023, count please",
    ],
)
def test_serious_incidents_are_death_or_injury_reports(assistant, question):
    answer = assistant.ask(question)["answer"]
    first = answer.splitlines()[0]
    assert "death or injury reports" in first and "compared" not in first and "classification" not in first, answer
    head = _headline(answer)
    assert head.startswith("0 adverse event reports (death or injury reports)") and "January 2023" in head, answer


def test_a_lay_family_with_codes_of_several_classes_is_asked_about(assistant):
    out = assistant.ask("is a CGM class II?")
    assert out["clarify"] is not None, out["answer"]
    assert "different device classes" in out["answer"], out["answer"]


# after a 510(k) was found: its decision date asked in few words, its review clock, its advisory committee
@pytest.mark.parametrize(
    ("turns", "expected"),
    [
        (["any 510(k) for the Yumizen C1200 CRP?", "ok when exactly?"], "decision date 2020-06-25"),
        (
            ["a new patient got something called a Somnera system. is that fda cleared?", "when was it cleared?"],
            "2020-06-29",
        ),
        (["review clock for K192028?"], "335 days"),
        (["K192028 advisory committee?"], "field advisory committee description"),
    ],
)
def test_a_510k_found_and_its_fields(assistant, turns, expected):
    out = _ask(assistant, turns, "510k")
    assert expected in out["answer"], out["answer"]


def test_a_date_follow_up_after_a_count_of_many_is_not_a_date(assistant):
    out = _ask(assistant, ["how many 510(k)s in 2020?", "when exactly?"], "many")
    assert "decision date" not in out["answer"].splitlines()[0], out["answer"]


@pytest.mark.parametrize(
    "question", ["product codes per device class for a pie chart: I, II, III", "class mix of all product codes"]
)
def test_the_class_mix_of_product_codes(assistant, question):
    answer = assistant.ask(question)["answer"]
    head = _headline(answer)
    assert "3,219" in head and "2,370" in head and "480" in head, answer


# a parent firm said for the maker the records name; EU and lay words for a clearance; lay device names
@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("Teleflex recall of the two lumen cvc kit - terminated when?", "termination date 2020-09-24"),
        ("how many 510(k) substantial equivalence decisions in 2nd half of 2020?", "1 510(k) clearance"),
        ("how many devices obtained conformity via 510(k) in Q2 2020, by decision date, not submission date?", "4"),
        ("which product code are PCA pumps?", "MEA (Pump, Infusion, Pca)"),
        ("what product code is a lumbar fusion cage?", "MAX (Intervertebral Fusion Device With Bone Graft, Lumbar)"),
    ],
)
def test_parent_firms_eu_words_and_lay_devices(assistant, question, expected):
    answer = assistant.ask(question)["answer"]
    assert "Dna Genetic Analyzer" not in answer and "Cage, Knee" not in answer, answer
    assert expected in answer, answer


# a recall's class asked of the recall named; serology misses in plain words; a day with a two-digit year; the
# asker's errand, aim and check said around the ask
@pytest.mark.parametrize(
    ("question", "first", "expected"),
    [
        (
            "what class was assigned to the Advanced Sterilization Products recall?",
            "field recall class",
            "recall class III",
        ),
        (
            "which antibody kit missed IgM most often in true-positive samples?",
            "IgM false negatives (FN); top manufacturers",
            "Phamatech: 1",
        ),
        (
            "serology evaluations performed 4/27/20: which manufacturers?",
            "dates 2020-04-27",
            "Hangzhou Biotest Biotech, Co., Ltd.: 7",
        ),
        (
            "how many 510(k)s does FRESCA Medical have, need it for the comps table",
            "firm FRESCA Medical Inc.",
            "1 510(k) clearance from FRESCA Medical Inc.",
        ),
        (
            "how many premarket approval (PMA) entries for Boston Scientific?",
            "firm BOSTON SCIENTIFIC CORPORATION.",
            "1 PMA record from",
        ),
        (
            "trying to get a feel for the landscape - how many enforcement reports are there?",
            "Interpreted as: enforcement reports.",
            "2 enforcement reports",
        ),
        (
            "K200606 - which panel reviewed it? I assumed orthopedics, is that right?",
            "field advisory committee description",
            "General Hospital",
        ),
    ],
)
def test_record_fields_and_the_askers_asides(assistant, question, first, expected):
    answer = assistant.ask(question)["answer"]
    assert first in answer.splitlines()[0], answer
    assert expected in answer, answer


# a pacemaker's lead or pacing electrode is the pacemaker electrode; its CFR section is its regulation number
@pytest.mark.parametrize(
    ("turns", "expected"),
    [
        (["what class is a permanent pacing lead?"], "DTB (Permanent Pacemaker"),
        (["permanent pacemaker lead - device class?", "and its CFR section?"], "regulation number 870.3680"),
        (["Encore Medical screw recall - which recall class?", "and the recall initiation date?"], "2012-07-16"),
        (["K200698 product code?", "what device class is that code? I or II?"], "device class II"),
    ],
)
def test_pacing_leads_and_follow_ups_on_what_was_found(assistant, turns, expected):
    out = _ask(assistant, turns, "found")
    assert "did not understand" not in out["answer"], out["answer"]
    assert expected in out["answer"], out["answer"]
