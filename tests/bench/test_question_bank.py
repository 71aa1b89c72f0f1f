"""The question banks are well formed: they load, each family has >= 5 phrasings, every expected SQL runs on the
sample mirror and returns a value, and the scorer reads payloads as documented (never the assistant's score)."""

from __future__ import annotations

import sys
from datetime import date
from pathlib import Path

import pytest

from mirror import Store

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench" / "questions"))

import bank as qbank  # noqa: E402
import score  # noqa: E402
import templates  # noqa: E402

SAMPLE_BANK = ROOT / "bench" / "questions" / "sample.yaml"


@pytest.fixture(scope="module")
def sample_bank() -> qbank.Bank:
    return qbank.load_bank(SAMPLE_BANK)


@pytest.fixture(scope="module")
def con(sample_dir):
    c = Store(sample_dir).connect()
    yield c
    c.close()


def test_the_sample_bank_has_300_questions_in_families_of_at_least_5(sample_bank):
    assert sample_bank.size >= 300
    short = [f.id for f in sample_bank.families if len(f.phrasings) < 5]
    assert not short, f"families with fewer than 5 phrasings: {short}"
    assert {f.kind for f in sample_bank.families} == set(qbank.KINDS)
    covered = {f.dataset for f in sample_bank.families if f.kind == "answer"}
    assert set(qbank.DATASETS) - {"none"} <= covered, set(qbank.DATASETS) - covered


def test_the_bank_covers_every_filter_and_date_kind(sample_bank):
    features = {x for f in sample_bank.families for x in f.features}
    wanted = {
        "product_code",
        "device_name",
        "firm",
        "brand",
        "place",
        "event_type",
        "recall_class",
        "decision_code",
        "month",
        "quarter",
        "since",
        "relative",
        "year_range",
        "lay_term",
        "typo",
        "plural",
        "field_lookup",
        "follow_up",
        "compare",
        "firm_vs_device",
        "medical",
        "other_agency",
        "ambiguity",
    }
    assert wanted <= features, wanted - features


def test_every_expected_sql_runs_on_the_sample_mirror_and_returns_a_value(sample_bank, con):
    as_of = qbank.as_of_dates(con)
    assert as_of["event"] == date(2025, 9, 23)  # the sample's event export date anchors relative periods
    for fam in sample_bank.families:
        if fam.kind == "refuse":
            assert fam.expect is None, f"{fam.id}: a refusal has no expected SQL"
            continue
        exp = qbank.expected(fam, con, as_of)
        assert exp is not None and exp.rows, f"{fam.id}: its SQL returned no row"
        m = fam.expect.match
        if m == "count":
            assert isinstance(exp.value, int) and exp.value >= 0, (fam.id, exp.rows)
            if exp.value == 0:
                assert fam.expect.mentions, f"{fam.id}: an expected 0 needs `mentions` (a zero must be understood)"
        elif m == "compare":
            assert len(exp.rows) >= 2 and all(isinstance(r[1], int) for r in exp.rows), (fam.id, exp.rows)
        else:
            assert exp.rows[0][0] not in (None, ""), (fam.id, exp.rows)


def test_follow_ups_ask_their_earlier_turns_first(sample_bank):
    fus = [f for f in sample_bank.families if "follow_up" in f.features]
    assert len(fus) >= 5
    for f in fus:
        assert all(len(p.turns) >= 2 for p in f.phrasings), f.id
        assert f.interpretation and f.interpretation.follow_up, f.id


def test_relative_periods_resolve_on_the_datasets_as_of_date(sample_bank):
    by_id = {f.id: f for f in sample_bank.families}
    as_of = date(2025, 9, 23)
    assert by_id["ev_last_3_years"].interpretation.dates.resolve(as_of) == (date(2022, 9, 23), as_of)
    assert by_id["ev_this_year_zero"].interpretation.dates.resolve(as_of) == (date(2025, 1, 1), as_of)
    assert by_id["ev_since_2019"].interpretation.dates.resolve(as_of) == (date(2019, 1, 1), as_of)


def test_a_malformed_bank_is_refused_with_its_family_named(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("families:\n- id: x\n  kind: maybe\n  dataset: event\n  phrasings: [a]\n")
    with pytest.raises(qbank.BankError, match="family x: kind must be one of"):
        qbank.load_bank(bad)


def test_templates_generate_a_well_formed_synthetic_bank(sample_dir, con, tmp_path):
    """On the sample mirror (a cheap stand-in for bench/synth_mirror.py output): families it lacks the vocabulary for
    are left out and named in `skipped`; the rest load and their SQL runs."""
    out = tmp_path / "synthetic.yaml"
    assert templates.main(["--data-dir", str(sample_dir), "--out", str(out)]) == 0
    b = qbank.load_bank(out)
    assert b.synthetic and b.families and all(f.id.startswith("syn_") for f in b.families)
    assert all(len(f.phrasings) >= 5 for f in b.families)
    as_of = qbank.as_of_dates(con)
    for fam in b.families:
        assert qbank.expected(fam, con, as_of).rows, fam.id


# -- the scorer (bench/questions/score.py), on payloads written here ---------------------------------------------


def _family(sample_bank, fid):
    return next(f for f in sample_bank.families if f.id == fid)


def test_the_headline_figure_skips_dates_codes_classes_and_ids():
    text = (
        '- "January" matches product codes KXB (Hip, class 3) [device/classification as of 2019-07-04].\n'
        "- 0 adverse event reports match KXB; dates 2023-01-01 to 2023-12-31 (K202114, Z-0053-2020).\n"
        "Notes:\n- 12 other things"
    )
    assert score.headline(text) == [0]
    assert score.headline("In January 2023 there were five MDRs (16081310 and others).") == [5]
    assert score.headline('I found no product code for "December".') == []


def test_a_payload_clarification_or_refusal_is_read_from_its_fields(sample_bank):
    clar = score.read_payload(
        {
            "answer": "Which did you mean?",
            "clarify": {
                "question": "Which did you mean?",
                "choices": ["Medline Industries, Inc.", "Midline Catheter (PND)"],
            },
        }
    )
    s = score.judge(_family(sample_bank, "clar_medline_events"), clar, None)
    assert (s.outcome, s.clarified) == ("right", True)
    refused = score.read_payload({"answer": "I can't help with that here.", "route": "medical"})
    assert score.judge(_family(sample_bank, "ref_medical_advice"), refused, None).outcome == "right"
    assert score.judge(_family(sample_bank, "ev_month_jan2023"), refused, None).outcome == "refused"


def test_a_zero_for_a_misread_question_is_a_confident_wrong_figure(sample_bank, con):
    fam = _family(sample_bank, "ev_month_dec2020_zero")
    exp = qbank.expected(fam, con, qbank.as_of_dates(con))
    misread = score.read_payload(
        {
            "answer": '- "December" matches product codes ABC.\n- 0 adverse event reports match '
            "ABC; dates 2020-01-01 to 2020-12-31."
        }
    )
    understood = score.read_payload({"answer": "There were no adverse event reports received in December 2020."})
    bad, good = score.judge(fam, misread, exp), score.judge(fam, understood, exp)
    assert (bad.outcome, bad.wrong_figure) == ("wrong", True)
    assert (good.outcome, good.wrong_figure) == ("right", False)


def test_an_ambiguous_question_answered_for_every_reading_is_not_a_wrong_figure(sample_bank):
    fam = _family(sample_bank, "r11_clar_tz_cable_model")
    exp = qbank.Expected(rows=(("PAD 6082",), ("PAD 6089",)))
    both = score.read_payload(
        {"answer": "00811331018295 (Cable to Philips): model PAD 6082; 00811331018325 (Cable to T1): model PAD 6089."}
    )
    one = score.read_payload({"answer": "00811331018325 (Cable to T1): model PAD 6089."})
    right, wrong = score.judge(fam, both, exp), score.judge(fam, one, exp)
    assert (right.outcome, right.detail) == ("right", "answered every reading")
    assert wrong.outcome != "right"
    unread = score.read_payload(
        {
            "answer": 'I did not understand "cables" in your question, so I have not searched. Name a model '
            "(PAD 6082, PAD 6089) or a dataset."
        }
    )
    assert score.judge(fam, unread, exp).outcome != "right"  # naming the choices in a help text answers nothing


def test_a_yes_no_answer_must_say_no_as_it_must_say_yes(sample_bank, con):
    fam = _family(sample_bank, "r12_enf_encore_class1")
    exp = qbank.expected(fam, con, qbank.as_of_dates(con))
    assert exp.rows[0][0] == "no"
    said_no = score.read_payload({"answer": "No: 0 enforcement reports from Encore Medical, Lp (class I)."})
    hedged = score.read_payload(
        {"answer": "I found no records for the reading above, but I did not use a word, so I do not say none."}
    )
    said_yes = score.read_payload({"answer": "Yes: 1 enforcement report from Encore Medical, Lp (class I)."})
    assert score.judge(fam, said_no, exp).outcome == "right"
    assert (score.judge(fam, hedged, exp).outcome, score.judge(fam, hedged, exp).detail) == (
        "wrong",
        "neither yes nor no stated",
    )
    assert score.judge(fam, said_yes, exp).outcome == "wrong"
    quoted = score.read_payload({"answer": 'I did not find "yes" among the devices these records name.'})
    yes_fam = _family(sample_bank, "r11_enf_encore_class2_yes")
    yes_exp = qbank.expected(yes_fam, con, qbank.as_of_dates(con))
    assert yes_exp.rows[0][0] == "yes"
    assert score.judge(yes_fam, quoted, yes_exp).outcome == "wrong"
    assert score.judge(yes_fam, said_yes, yes_exp).outcome == "right"


def test_a_top_question_needs_the_top_named_before_the_runners_up(sample_bank, con):
    fam = _family(sample_bank, "r9_event_top_problem")
    exp = qbank.expected(fam, con, qbank.as_of_dates(con))
    top, second = str(exp.rows[0][0]), str(exp.rows[1][0])
    ranked = score.read_payload({"answer": f"The most reported problem is {top} (2 reports), then {second} (1)."})
    listed = score.read_payload({"answer": f"Reports: MDR 1 ({second}); MDR 2 ({top})."})
    assert score.judge(fam, ranked, exp).outcome == "right"
    assert (score.judge(fam, listed, exp).outcome, score.judge(fam, listed, exp).detail) == (
        "wrong",
        "the top is not named before the runners-up",
    )


def test_the_totals_count_warned_zeros_apart_but_still_as_confident_wrong_figures():
    sys.path.insert(0, str(ROOT / "bench"))
    import agent_eval

    base = {"kind": "answer", "clarified": False, "refused": False, "seconds": 0.1}
    rows = [
        base | {"outcome": "wrong", "wrong_figure": True, "answer": "0 recalls match (recalls as of 2023-01-01)."},
        base
        | {
            "outcome": "wrong",
            "wrong_figure": True,
            "answer": "I found no records for the reading above, but no record names it, so I do not say that there "
            "are none.",
        },
        base | {"outcome": "right", "wrong_figure": False, "answer": "3 recalls."},
    ]
    s = agent_eval.summarise(rows)
    assert (s["wrong_figures"], s["held_back"], s["right"]) == (2, 1, 1)


def test_expected_keys_and_values_are_found_as_whole_words_only(sample_bank):
    fam = _family(sample_bank, "r9_event_top_problem")
    exp = qbank.Expected(rows=(("CA", 3), ("NY", 1)))
    inside = score.read_payload({"answer": "The top is Medical Devices Inc. with 3 reports, then 1 other."})
    whole = score.read_payload({"answer": "The top state is CA (3 reports), then NY (1)."})
    assert score.judge(fam, inside, exp).outcome == "wrong"
    assert score.judge(fam, whole, exp).outcome == "right"


def test_a_since_reading_with_an_open_end_agrees_with_a_range_ending_on_the_export_date(sample_bank, con):
    fam = _family(sample_bank, "ev_since_2019")
    exp = qbank.expected(fam, con, qbank.as_of_dates(con))
    since = {"datasets": ["event"], "date_from": "2019-01-01", "date_to": None}
    assert score.interpretation_agrees(fam, since, exp) is True
    assert score.interpretation_agrees(fam, {**since, "date_from": "2018-01-01"}, exp) is False
    closed = {**since, "date_to": exp.date_to.isoformat()}
    assert score.interpretation_agrees(fam, closed, exp) is True
    early = {**since, "date_to": "2020-12-31"}
    assert score.interpretation_agrees(fam, early, exp) is False  # a closed range that stops short is another range
