"""Classes of misreading behind the misses of the rounds 61 to 70 (issue 14), each asked here in other words than
the rounds': a formal or legal request's frame, an errand or hearsay beside the ask, the GS1 forms of a device
identifier, a recall's REF (catalog) number, a report number cut after its year, lay names and brands of devices, one
device's class asked as "class 1 or 2", a registration's establishment type asked yes or no, serology wording, a
product code glossed on each side of a comparison. Real library API, sample mirror."""

from __future__ import annotations

import pytest

from agent.understand.frame import expand_shorthand, reframe


def _headline(answer: str) -> str:
    return next(ln for ln in answer.splitlines()[1:] if ln.strip())


def _said(out: dict) -> str:
    clar = out.get("clarify") or {}
    return out["answer"] + " " + " ".join(str(c) for c in clar.get("choices") or [])


def _turns(assistant, *turns: str) -> dict:
    out: dict = {}
    for t in turns:
        out = assistant.ask(t, session_id="p19")
    return out


# a formal or legal request's words are its frame: the figure is the plain one, and a zero is said as such
@pytest.mark.parametrize(
    ("question", "headline"),
    [
        (
            "Please advise the number of MAUDE reports identifying Boston Scientific Corporation as the device "
            "manufacturer that FDA received in 2022.",
            "0 adverse event reports from BOSTON SCIENTIFIC CORPORATION received in 2022",
        ),
        (
            "In re: Boston Scientific stent claim. Kindly provide the count of device reports for Boston Scientific "
            "with a date received falling in 2022.",
            "0 adverse event reports from BOSTON SCIENTIFIC CORPORATION received in 2022",
        ),
        (
            "Good morning. In connection with our pending matter involving Medtronic's pumps, please provide the "
            "number of MDRs naming any Medtronic entity (including Medtronic MiniMed) received in Q1 2023.",
            "4 adverse event reports from Medtronic received in Q1 2023",
        ),
        (
            "Were any Boston Scientific reports received by the agency in 2022? Please base this strictly on the "
            "received date.",
            "0 adverse event reports from BOSTON SCIENTIFIC CORPORATION received in 2022",
        ),
        (
            "Look-back on the first pandemic wave: what number of 510(k)s had a decision date from April to June 2020?",
            "4 510(k) clearances",
        ),
    ],
)
def test_a_formal_request_s_frame_is_no_device(assistant, question, headline):
    out = assistant.ask(question)
    assert out["clarify"] is None, _said(out)
    assert headline in _headline(out["answer"]), out["answer"]


def test_a_for_lead_cut_by_the_rewrite_is_said_as_background(assistant):
    answer = assistant.ask("For our quarterly memo, how many adverse events did Medtronic have?")["answer"]
    assert _headline(answer).startswith("4 adverse event reports from Medtronic"), answer
    assert "not used in the search (taken as background)" in answer, answer


@pytest.mark.parametrize(
    ("question", "sides"),
    [
        ("MAUDE counts, Medtronic vs GE OEC - putting together a vendor scorecard", ("GE OEC: 2", "4")),
        ("comparing the two suppliers for our review: MAUDE reports for Medtronic and for GE OEC?", ("GE OEC: 2", "4")),
        ("OZP v. OZO event reports head to head", ("OZP: 2", "OZO: 1")),
        ("closed loop pumps (OZP) versus low glucose suspend (OZO): MDR counts?", ("OZP: 2", "OZO: 1")),
        ("medtronik vs bsci PMA records, last 6 years", ("Medtronic: 2", "Boston Scientific: 1")),
    ],
)
def test_errands_two_vendors_and_glossed_codes_leave_the_sides(assistant, question, sides):
    answer = assistant.ask(question)["answer"]
    assert "side by side" in answer, answer
    assert all(s in answer for s in sides), answer
    assert "device two" not in answer and "binding" not in answer, answer


def test_a_leaderboard_and_share_of_voice_rank_the_makers(assistant):
    for q in ("leaderboard of manufacturers by number of MDRs in Q1 2023", "MDR share of voice by maker, Q1 2023"):
        answer = assistant.ask(q)["answer"]
        assert "Manufacturers with the most adverse event reports in Q1 2023" in answer, answer
        assert answer.index("Medtronic") < answer.index("BOSTON SCIENTIFIC"), answer


def test_hearsay_and_misspelt_brands_read_the_sterrad_recall(assistant):
    answer = assistant.ask("my SPD tech says the sterad cassetes were recalled - what recall class?")["answer"]
    assert "recall class III" in answer, answer
    assert "taken as background" in answer and '"tech"' in answer, answer


@pytest.mark.parametrize(
    "turns",
    [
        ["any recall on Sterrad cassettes?", "what class recall was it"],
        ["Sterrad cassette recall way back in 2012?", "what classification did the FDA give it"],
        ["was the sterrad cassette recall a class II?"],
    ],
)
def test_a_recall_s_class_asked_in_other_words(assistant, turns):
    answer = _turns(assistant, *turns)["answer"]
    assert "recall class III" in answer, answer


@pytest.mark.parametrize(
    "question",
    [
        "(01)00811331018325 - manufacturer part # please",
        "UPC 811331018325: which version/model is it?",
        "we have DI 00811331018325 with no description. what model is that?",
    ],
)
def test_gs1_forms_of_a_device_identifier(assistant, question):
    answer = assistant.ask(question)["answer"]
    assert "version or model number PAD 6089" in answer, answer


@pytest.mark.parametrize(
    "turns",
    [
        ["GTIN 00811331018295: what product code?", "reg no.?"],
        ["00811331018295 procode pls", "and the CFR regulation number for it"],
    ],
)
def test_a_gtin_s_product_code_and_its_regulation(assistant, turns):
    out = _turns(assistant, turns[0])
    assert "DSA" in out["answer"] and "Programmed Death" not in out["answer"], out["answer"]
    answer = _turns(assistant, turns[1])["answer"]
    assert "870.2900" in answer, answer


@pytest.mark.parametrize(
    "turns",
    [
        ["which REF is on recall Z-0053-2020?"],
        ["recall Z-0053-2020 - REF/catalog # affected"],
        ["show recall Z-0053-2020", "ref"],
    ],
)
def test_a_recall_s_ref_is_its_catalog_number_in_the_description(assistant, turns):
    answer = _turns(assistant, *turns)["answer"]
    assert "REF AK-25502" in answer, answer
    assert "Suntan" not in answer, answer


def test_product_code_ref_stays_a_code(assistant):
    assert "product code REF (Suntan Bed)" in assistant.ask("MDRs for product code REF")["answer"]


@pytest.mark.parametrize(
    "question",
    [
        "Which product problem did the maker code in report 2032227-2023?",
        "Our MedWatch number is 2032227-2023 - what was the device problem?",
    ],
)
def test_a_report_number_cut_after_its_year_is_asked_back(assistant, question):
    out = assistant.ask(question, session_id="prefix")
    assert out["clarify"] is not None, out["answer"]
    said = _said(out)
    assert all(n in said for n in ("2032227-2023-100001", "2032227-2023-391816", "2032227-2023-391817")), said
    answer = assistant.ask("3", session_id="prefix")["answer"]
    assert "2032227-2023-391816" in answer and "No Display/Image" in answer, answer


def test_a_full_report_number_is_read_at_once(assistant):
    answer = assistant.ask("device problem in report 2032227-2023-391816")["answer"]
    assert "No Display/Image" in answer, answer


@pytest.mark.parametrize(
    "turns",
    [
        ["which class are Invisalign-style aligners?", "regulation number for those?"],
        ["clear alingers such as invisalign: FDA's name for them?", "reg number?"],
        ["my dentist friend says clear aligners are class 2, is that right?", "which 21 CFR section?"],
    ],
)
def test_clear_aligners_are_the_sequential_aligner(assistant, turns):
    answer = _turns(assistant, *turns)["answer"]
    assert "NXC (Aligner, Sequential)" in answer and "872.5470" in answer, answer


@pytest.mark.parametrize(
    "question",
    [
        "what class are Angio-Seal type vascular closure devices?",
        "VCD class?",
        "is an arterial closure device class 2 or 3",
    ],
)
def test_vascular_closure_devices_are_vascular_hemostasis_devices(assistant, question):
    answer = assistant.ask(question)["answer"]
    assert "MGB (Device, Hemostasis, Vascular): device class III" in answer, answer


def test_tooth_implants_are_the_root_form_endosseous_implant(assistant):
    answer = assistant.ask("how many MAUDE reports on tooth implants in 2023?")["answer"]
    assert "DZE" in answer and "0 adverse event reports" in answer, answer


def test_one_device_s_class_asked_as_class_1_or_2_is_no_comparison(assistant):
    out = assistant.ask("the sterilizer in our clinic - is it class 1 or class 2?")
    assert out["clarify"] is not None, out["answer"]
    assert "side by side" not in out["answer"], out["answer"]
    assert "Sterilizer" in _said(out), _said(out)


@pytest.mark.parametrize(
    "question",
    [
        "Is the Albuquerque Ethicon Endo-Surgery site registered as a device manufacturer?",
        "In registration & listing, is ETHICON ENDO-SURGERY in Albuquerque listed as a manufacturer?",
    ],
)
def test_registered_as_a_manufacturer_is_the_establishment_type(assistant, question):
    answer = assistant.ask(question)["answer"]
    assert "establishment type Manufacture Medical Device" in answer, answer
    assert _headline(answer).startswith("No"), answer


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("postive vs negative samples in the covid antibody test data?", ("Positive: 13", "Negative: 36")),
        ("which antibody test makers were evaluated on april 27 2020", ("Hangzhou Biotest Biotech", "W.H.P.M")),
        (
            "COVID antibody test results in the last week of April 2020, i.e. April 22-30, 2020?",
            ("14 serology test results from 2020-04-22 to 2020-04-30",),
        ),
    ],
)
def test_serology_in_other_words(assistant, question, expected):
    answer = assistant.ask(question)["answer"]
    assert all(e in answer for e in expected), answer
    assert "vs April 2020" not in answer, answer


@pytest.mark.parametrize(
    ("question", "headline"),
    [
        ("# of recalls in the enforcement reports initiated summer 2012", "2 enforcement reports initiated"),
        ("gs1 vs hibcc - how many GUDID records have an HIBCC labeler code? just the HIBCC count", "2 AccessGUDID"),
        ("how many PMA 30-day notices (manufacturing changes) were decided in 2020?", "2 PMA records"),
        ("for audit-prep purposes, how many 510ks were cleared January to June 2020", "4 510(k) clearances"),
        ("maude reports received jan-mar 2023 (need a baseline for trending)", "5 adverse event reports"),
    ],
)
def test_periods_glosses_and_asides(assistant, question, headline):
    out = assistant.ask(question)
    assert out["clarify"] is None, _said(out)
    assert _headline(out["answer"]).startswith(headline), out["answer"]


def test_a_legal_lead_keeps_what_restricts(assistant):
    # a lead of the asker's matter is cut, never a restriction said in the ask: "class I" is still asked about
    out = assistant.ask("In connection with our pending matter, how many class I recalls in 2019?")
    assert out["clarify"] is not None and "recall class I" in _said(out), _said(out)


def test_frame_rewrites_keep_what_restricts():
    assert "REF" in expand_shorthand("MDRs for product code REF")
    assert "class II only" in reframe("For our memo, class II only: recalls of infusion pumps?", lambda t: []).text
    assert expand_shorthand("Kindly provide the count of recalls in 2019").startswith("Tell the count of recalls")
