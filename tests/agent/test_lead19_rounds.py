"""What the lead changed for the rounds 61 to 70 (issue 14), each asked here in other words than the rounds':

- a sentence that names the records, then an ask with nothing of its own ("... employee error as the root cause.
  Total?"), is one question: the sentence is not set aside as background;
- "now exclude <firm>" narrows the previous answer (its device kept); said with no dataset, the dataset is asked;
- the number of different makers asked in words ("number of different test makers") counts the makers;
- a recall number with "classification" is the recall's class, read where the number is (an enforcement report);
- "of those, # classified class 3?" after enforcement reports counts those of that recall class;
- a value quoted in the openFDA search syntax that no record holds, beside one spelled almost the same, gives no
  figure and names the value the records hold.

Real library API and graph, sample mirror; expected figures are counted by SQL on the same mirror."""

from __future__ import annotations

import re

import pytest

from .test_lead16_rounds import _count  # the expected figure, counted by SQL on the sample mirror


def _lines(answer: str) -> list[str]:
    return [ln for ln in answer.splitlines() if ln.strip()]


def _first_figure(line: str) -> int:
    m = re.match(r"\s*([\d,]+)\b", line)
    assert m, line
    return int(m[1].replace(",", ""))


# --------------------------------------------------------------------------------- the ask with nothing of its own


def test_a_bare_total_after_the_sentence_that_names_the_records_counts_them(assistant, sample_dir):
    expected = _count(sample_dir, "device_recall", "lower(root_cause_description) = 'employee error'")
    for q in ("recalls caused by employee error. Total?", "Recalls with human error as the root cause. How many?"):
        out = assistant.ask(q)
        head, body = _lines(out["answer"])[:2]
        assert "root cause Employee Error" in head, head
        assert _first_figure(body) == expected, body


def test_a_bare_ask_after_the_askers_own_statement_still_asks_what_to_count(assistant):
    out = assistant.ask("We track infusion pumps. How many?")
    assert out["clarify"], out["answer"]


# ----------------------------------------------------------------------------------------------- a firm left out


def test_now_exclude_a_firm_narrows_the_previous_answer_and_keeps_its_device(assistant, sample_dir):
    sid = "exclude"
    first = assistant.ask("UDI records for pacemaker analyzers", session_id=sid)
    head = _lines(first["answer"])[0]
    codes = re.findall(r"\b([A-Z]{3}) \(", head)
    assert codes, head
    listed = ", ".join(f"'{c}'" for c in codes)
    in_codes = f"list_has_any(product_code_list, [{listed}])"
    expected = _count(sample_dir, "device_udi", f"{in_codes} AND company_name NOT ILIKE 'tz medical%'")
    assert expected != _count(sample_dir, "device_udi", "company_name NOT ILIKE 'tz medical%'")  # the device counts
    out = assistant.ask("now exclude Tz Medical", session_id=sid)
    head, body = _lines(out["answer"])[:2]
    assert "device pacemaker analyzers" in head and "firms other than Tz Medical" in head, head
    assert _first_figure(body) == expected, body


def test_a_firm_left_out_with_no_dataset_asks_which_records(assistant):
    out = assistant.ask("now exclude Tz Medical, Inc. How many remain?")
    assert out["clarify"], out["answer"]
    assert any("UDI" in c for c in out["clarify"]["choices"]), out["clarify"]


# ----------------------------------------------------------------------------------------- makers counted in words


def test_the_number_of_different_makers_asked_in_words_counts_the_makers(assistant, sample_dir):
    con_where = "date_performed = DATE '2020-04-27'"
    tests = _count(sample_dir, "device_covid19serology", con_where)
    import duckdb

    con = duckdb.connect(str(sample_dir / "db" / "device_covid19serology.duckdb"), read_only=True)
    try:
        makers = con.execute(
            f"SELECT count(DISTINCT manufacturer) FROM device_covid19serology WHERE {con_where}"
        ).fetchone()[0]
    finally:
        con.close()
    assert makers != tests  # the question is only a test when the two figures differ
    for q in (
        "number of different test makers evaluated on 04/27/2020, covid antibody test data",
        "how many distinct manufacturer in the covid serology evaluations performed on 2020-04-27",
    ):
        body = _lines(assistant.ask(q)["answer"])[1]
        assert _first_figure(body) == makers, body


# ------------------------------------------------------------------------------------------- recall class by number


def test_a_recall_number_with_classification_is_its_recall_class_where_the_number_is(assistant, sample_dir):
    con_where = "recall_number = 'Z-2338-2012'"
    assert _count(sample_dir, "device_enforcement", con_where) == 1
    assert _count(sample_dir, "device_recall", "product_res_number = 'Z-2338-2012'") == 0
    out = assistant.ask("Z-2338-2012 what classification does it have?")
    head, body = _lines(out["answer"])[:2]
    assert head.startswith("Interpreted as: enforcement reports; Z-2338-2012"), head
    assert "recall class III" in body, body


def test_of_those_classified_class_three_counts_the_previous_reports(assistant, sample_dir):
    sid = "enf2012"
    assistant.ask("enforcement reports started in 2012", session_id=sid)
    expected = _count(
        sample_dir,
        "device_enforcement",
        "year(recall_initiation_date) = 2012 AND classification = 'Class III'",
    )
    out = assistant.ask("of those, # classified class 3?", session_id=sid)
    head, body = _lines(out["answer"])[:2]
    assert head.startswith("Interpreted as: enforcement reports"), head
    assert _first_figure(body) == expected, body


# ------------------------------------------------------------------------------------------- a misspelled value


def test_a_misspelled_quoted_value_gives_no_zero_and_names_the_value_held(assistant, sample_dir):
    assert _count(sample_dir, "device_recall", "root_cause_description = 'Employe error'") == 0
    out = assistant.ask('root_cause_description:"Employe error" in device recalls, count')
    body = _lines(out["answer"])[1]
    assert body.startswith("I give no figure") and '"Employee error"' in body, body
    assert not re.search(r"(?m)^0 ", out["answer"])
    plain = assistant.ask('device recalls where root_cause_description:"Zorg thing"')
    assert _lines(plain["answer"])[1].startswith("0 recalled products match"), plain["answer"]


# ------------------------------------------------------------------------------- dates, purposes, mixed and spoken


def test_a_date_said_not_to_use_is_not_the_date_counted(assistant, sample_dir):
    received = _count(sample_dir, "device_event", "date_received BETWEEN DATE '2022-12-01' AND DATE '2022-12-31'")
    occurred = _count(sample_dir, "device_event", "date_of_event BETWEEN DATE '2022-12-01' AND DATE '2022-12-31'")
    assert received != occurred  # the question is only a test when the two dates give different counts
    out = assistant.ask(
        "device_event records received by FDA in December 2022 (date_received, NOT date_of_event). Count?"
    )
    head, body = _lines(out["answer"])[:2]
    assert "(received)" in head, head
    assert _first_figure(body) == received, body


def test_another_agencys_dossier_as_the_purpose_of_an_fda_question_is_not_refused(assistant):
    from agent import guard

    for q in (
        "I need the FDA class of the pacemaker for a COFEPRIS dossier, which is it?",
        "necesito la clase FDA del marcapasos para un dossier de COFEPRIS, cual es?",
    ):
        out = assistant.ask(q)
        assert not out["answer"].startswith("That is not in this mirror"), out["answer"]
    assert guard.classify("what is the COFEPRIS class of a pacemaker?") == "out_of_scope"


def test_a_spanish_phrase_naming_the_fda_data_inside_an_english_question(assistant, sample_dir):
    expected = _count(
        sample_dir, "device_covid19serology", "date_performed BETWEEN DATE '2020-05-01' AND DATE '2020-05-31'"
    )
    out = assistant.ask("how many COVID antibody test results were done in May 2020, en la base de FDA")
    head, body = _lines(out["answer"])[:2]
    assert head.startswith("Interpreted as: serology test evaluations for COVID-19; dates May 2020"), head
    assert _first_figure(body) == expected, body


def test_covid_nineteen_said_aloud_is_covid_19(assistant, sample_dir):
    serum = _count(sample_dir, "device_covid19serology", "type = 'Serum'")
    out = assistant.ask("break down the covid nineteen antibody test evaluations by sample type serum and plasma")
    body = _lines(out["answer"])[1]
    assert f"Serum: {serum}" in body, body


def test_a_device_for_children_is_a_device_not_the_patient(assistant, sample_dir):
    expected = _count(
        sample_dir,
        "device_recall",
        "recalling_firm ILIKE 'arrow%' AND record::VARCHAR ILIKE '%pediatric%' AND record::VARCHAR ILIKE '%kit%'",
    )
    assert expected
    sid = "peds"
    out = assistant.ask(
        "do you have the Arrow International recall for the pediatric central venous catheter kit?", session_id=sid
    )
    head, body = _lines(out["answer"])[:2]
    assert "firm Arrow International" in head, head
    assert body.startswith(f"Yes: {expected} recalled product"), body
    cause = assistant.ask("what was the root cause?", session_id=sid)
    assert "Employee error" in cause["answer"], cause["answer"]


def test_a_database_searchers_words_ask_plainly(assistant, sample_dir):
    q2 = "decision_date BETWEEN DATE '2020-04-01' AND DATE '2020-06-30'"
    decided = _count(sample_dir, "device_510k", q2)
    received = _count(sample_dir, "device_510k", q2.replace("decision_date", "date_received"))
    assert decided != received  # the question is only a test when the two dates give different counts
    cases = {
        "Number of premarket notifications (510k) with a decision date in the second quarter of 2020? Limit to "
        "decision_date, not date_recieved.": decided,
        "510(k) AND decision_date = 2Q2020 -> result count": decided,
        'count recalls, root cause "employee error" (case-insensitive pls)': _count(
            sample_dir, "device_recall", "lower(root_cause_description) = 'employee error'"
        ),
    }
    for q, expected in cases.items():
        out = assistant.ask(q)
        assert not out["clarify"], out["answer"]
        assert _first_figure(_lines(out["answer"])[1]) == expected, (q, out["answer"])


def test_a_brand_or_stem_inside_a_device_name_puts_no_zero_in_doubt(assistant, sample_dir):
    from mirror.lookup.lexicon import firm_words

    assert "oec" in firm_words(assistant.ctx.api, ["OEC"])  # a word of a firm's name in these records
    expected = _count(
        sample_dir,
        "device_event",
        "date_received BETWEEN DATE '2023-09-23' AND DATE '2025-09-23' AND record::VARCHAR LIKE '%\"JAA\"%'",
    )
    for q in ("OEC c-arm MDRs past two years?", "any adverse event reports for the fluoro c-arm in the last 2 years"):
        out = assistant.ask(q)
        assert not out["clarify"], out["answer"]
        body = _lines(out["answer"])[1]
        assert re.search(rf"\b{expected} adverse event reports? for", body), body
    doubt = assistant.ask("how many recall records for the Sub Q thing?")
    assert doubt["clarify"], doubt["answer"]  # a word that is no firm's name still asks


def test_a_device_name_made_of_device_words_gives_its_zero_and_words_spread_over_codes_ask(assistant, sample_dir):
    window = "date_received BETWEEN DATE '2024-09-23' AND DATE '2025-09-23'"
    expected = _count(sample_dir, "device_event", f"{window} AND record::VARCHAR ILIKE '%insulin pump%'")
    out = assistant.ask("how many insulin pump MDRs came in over the trailing twelve months?")
    assert not out["clarify"], out["answer"]
    assert _first_figure(_lines(out["answer"])[1]) == expected, out["answer"]
    # "dressing thermometers": no product code holds both words, so its zero is asked back
    spread = assistant.ask("recalls of dressing thermometers in 2019")
    assert spread["clarify"], spread["answer"]
    assert "has all of its words in its name" in spread["clarify"]["question"], spread["clarify"]


def test_a_number_read_as_a_device_puts_its_zero_in_doubt(assistant):
    out = assistant.ask(
        "comparing two vendors for the quarterly review. how many MAUDE reports for Medtronic and GE OEC?"
    )
    if out["clarify"] is None:  # the number was not read as a device at all: then no side may read as 0 for it
        assert "device two" not in out["answer"], out["answer"]
    else:
        assert '"two" is a number' in out["clarify"]["question"], out["clarify"]


@pytest.mark.parametrize(
    "question",
    [
        "our patient's port was from a recalled lot, does it have to be removed?",
        "the resident wants to know if the baby's umbilical line should be pulled now that the recall came out",
        "can a patient with a cochlear implant safely get a dental x-ray?",
        "Dad asks if the pump alarming means his daughter is in danger. What do I tell him?",
    ],
)
def test_a_care_decision_for_a_patient_is_refused(question):
    from agent import guard

    assert guard.classify(question) == "medical"


@pytest.mark.parametrize(
    "question",
    [
        "how many recalled lots had to be removed from the field in 2019?",
        "does the Arrow CVC kit recall say the product has to be removed from inventory?",
        "can a patient search MAUDE for reports on their own implant?",
    ],
)
def test_a_question_about_records_of_removal_is_not_refused(question):
    from agent import guard

    assert guard.classify(question) != "medical"


def test_a_reference_read_as_the_whole_dataset_gives_no_figure(assistant, sample_dir):
    sid = "aligners"
    assistant.ask("what class of device are invisalign type clear aligners?", session_id=sid)
    out = assistant.ask("ok and whats the reg number for those", session_id=sid)
    total = _count(sample_dir, "device_classification", "true")
    assert f"{total:,}" not in out["answer"], out["answer"]  # never every product code
    assert out["clarify"] or out["answer"].startswith('You asked about "those"') or "regulation number" in out["answer"]
    data = assistant.ask("As of when is the recall data, and how many recalls does it hold in total?")
    assert _first_figure(_lines(data["answer"])[1]) == _count(sample_dir, "device_recall", "true"), data["answer"]


def test_a_firm_of_dotted_letters_is_found_by_its_spellings(assistant, sample_dir):
    expected = _count(sample_dir, "device_covid19serology", "manufacturer = 'W.H.P.M, Inc.'")
    assert expected
    out = assistant.ask("how many serology results for W.H.P.M")
    assert _first_figure(_lines(out["answer"])[1]) == expected, out["answer"]


def test_premarket_approval_supplements_are_the_pma_supplements_not_the_approved_ones(assistant, sample_dir):
    expected = _count(sample_dir, "device_pma", "applicant ILIKE '%medtronic%' AND supplement_number IS NOT NULL")
    approved = _count(
        sample_dir,
        "device_pma",
        "applicant ILIKE '%medtronic%' AND supplement_number IS NOT NULL AND decision_code = 'APPR'",
    )
    assert expected != approved
    out = assistant.ask("how many premarket approval supplements for Medtronic")
    assert _first_figure(_lines(out["answer"])[1]) == expected, out["answer"]


def test_unknown_words_where_the_device_is_named_give_no_figure(assistant):
    out = assistant.ask("how many recalls of blorfic widgets in 2019?")
    assert out["answer"].startswith('I did not find "blorfic", "widgets"'), out["answer"]
    assert not re.search(r"(?m)^\d+ recalled product", out["answer"])
    firm = assistant.ask("recalls for Arrow in 2019")
    assert _lines(firm["answer"])[0].startswith("Interpreted as: recalls; firm Arrow International"), firm["answer"]


def test_a_relative_period_is_said_in_words_with_its_dates(assistant):
    out = assistant.ask("how many PMA decisions in the past 5 yrs")
    body = _lines(out["answer"])[1]
    assert re.search(r"in the last 5 years \(from \d{4}-\d\d-\d\d to \d{4}-\d\d-\d\d\)", body), body


def test_zeros_of_sides_never_asked_to_be_compared_are_asked_back(assistant):
    q = (
        "Medtronic MDRs over the past 3 years, how many? (Any Medtronic entity counts, MiniMed, the Puerto Rico "
        "plant, whatever.)"
    )
    out = assistant.ask(q)
    if out["clarify"] is None:  # read as one firm: then its figure is no pair of zeros
        assert "side by side" not in out["answer"], out["answer"]
    else:
        assert out["clarify"]["question"].startswith("I found no records for my reading"), out["clarify"]


def test_a_way_of_counting_after_reports_on_is_no_device_slot(assistant):
    out = assistant.ask("maude reports on a weekly basis during 2023")
    assert not out["answer"].startswith("I did not find"), out["answer"]
