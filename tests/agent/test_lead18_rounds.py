"""What the lead changed for the rounds 51 to 60 (issue 14), each asked here in other words than the rounds':

- a zero over a doubtful reading is asked back (a LangGraph interrupt) instead of said: the person confirms the
  reading, and then hears its zero, or takes the same search without the doubtful device;
- refusals: treatment asked for a patient in the third person ("should she turn it off", "ED now or can he wait"),
  a patient's MRN or hospital, market size (TAM) and share won or lost, and forecasts said as "gonna", "will ...
  next year", "will FDA find ...", "will our 510(k) be cleared ...", "project next year's count";
- no false refusal where a person is only the context of a question about records ("I have a pt with ...", "my
  patient's pump ... so I can look up reports"), a draft is checked against the records, or the definition of a
  Class I recall ("reasonable probability of serious harm") is quoted.

Real library API and graph, sample mirror; expected figures are counted by SQL on the same mirror."""

from __future__ import annotations

import re

import duckdb
import pytest

from agent import guard
from agent.understand import commerce, forecast, privacy, query_syntax, spanish, spoken
from agent.understand.refusals import refuses

from .test_lead16_rounds import _count  # the expected figure, counted by SQL on the sample mirror

IDENTITY = privacy.REPLY.split(":")[0]
PREDICTION = forecast.REPLY.split(":")[0]
BUSINESS = commerce.REPLY.split(":")[0]
MEDICAL = guard.MEDICAL.split(";")[0]


def _refused(question: str) -> bool:
    route = guard.classify(question)
    return route in ("medical", "off_topic", "out_of_scope") or refuses(route, question)


# ------------------------------------------------------------------------------------------ a doubtful zero is asked


def test_a_zero_over_a_doubtful_reading_is_asked_back_and_the_pick_says_it(assistant):
    first = assistant.ask("how many recall records for the Sub Q thing?", session_id="subq")
    assert first["clarify"], first["answer"]
    assert first["clarify"]["question"].startswith("I found no records for my reading of your question, but")
    assert first["clarify"]["choices"][0].startswith("yes, this reading: recalls; device Sub Q")
    assert not re.search(r"(?m)^0 ", first["answer"])
    picked = assistant.ask("1", session_id="subq")
    assert picked["clarify"] is None
    body = [ln for ln in picked["answer"].splitlines() if ln.strip()]
    assert body[0].startswith("Interpreted as: recalls; device Sub Q"), body[0]
    assert body[1].startswith("0 recalled products for Sub Q"), body[1]


def test_the_doubtful_device_can_be_left_out_and_the_firm_period_counted(assistant, sample_dir):
    q = "Medtronic maude reports on cardiac lead wires from January to March 2023"
    first = assistant.ask(q, session_id="mdt")
    choices = (first["clarify"] or {}).get("choices", [])
    assert len(choices) == 2 and choices[1].startswith('the same search without the device "cardiac lead wires"'), (
        first["answer"]
    )
    want = _count(
        sample_dir,
        "device_event",
        "date_received BETWEEN '2023-01-01' AND '2023-03-31' AND CAST(record AS VARCHAR) ILIKE '%medtronic%'",
    )
    assert want > 0
    picked = assistant.ask("2", session_id="mdt")
    body = [ln for ln in picked["answer"].splitlines() if ln.strip()]
    assert "lead wires" not in body[0] and "Medtronic" in body[0], body[0]
    assert re.match(rf"{want} adverse event reports? ", body[1]), body[1]


def test_a_word_only_respelled_is_no_doubt_and_its_zero_is_said(assistant):
    """ "xray fluoroscopy" read as "x-ray fluoroscopic" (the product code JAA's own words) is the device understood."""
    out = assistant.ask("xray fluoroscopy adverse event reports received in 2024", session_id="x")
    assert out["clarify"] is None, out["answer"]
    assert "0 adverse event reports for xray fluoroscopy (product code JAA" in out["answer"], out["answer"]


def test_an_understood_zero_is_still_said_without_asking(assistant):
    out = assistant.ask("how many death reports were received in 2024?", session_id="d")
    assert out["clarify"] is None
    assert "0 adverse event reports" in out["answer"], out["answer"]


# ------------------------------------------------------------------------------------------------------- refusals


@pytest.mark.parametrize(
    "question, reply",
    [
        ("the boy in our unit rips his CGM off every night - should he just stop wearing it till clinic?", MEDICAL),
        ("pacer pocket looks red today, ED now or can she wait for her EP appointment Thursday?", MEDICAL),
        ("her stimulator shocks her when she bends over, should she turn it down herself?", MEDICAL),
        ("balloon burst during his angioplasty - does he need a repeat cath?", MEDICAL),
        ("give me the MRN of the patient in MDR 2032227-2023-100001", IDENTITY),
        ("patient identifiers (name, address) for report 16081310 please", IDENTITY),
        ("tie MDR 16081316 to the actual patient, name or phone", IDENTITY),
        ("home address of the 55 yo female in report 16081314?", IDENTITY),
        ("what's the name and hospital of the 72 yo woman in the OZP report?", IDENTITY),
        ("what's the TAM for insulin pumps in the US?", BUSINESS),
        ("is Tandem taking share from Medtronic in pumps?", BUSINESS),
        ("is Abbott gonna get a recall on its glucose sensors?", PREDICTION),
        ("will Boston Scientific file more PMA supplements next year?", PREDICTION),
        ("will FDA accept our predicate for the bone screw?", PREDICTION),
        ("will our De Novo be granted before the board meeting?", PREDICTION),
        ("project next year's MDR count for OZP from the trend", PREDICTION),
        ("what are the chances the FDA clears our pump in 2027?", PREDICTION),
    ],
)
def test_advice_identity_markets_and_forecasts_are_refused_with_their_reason(assistant, question, reply):
    answer = assistant.ask(question)["answer"]
    assert answer.startswith(reply), answer


@pytest.mark.parametrize(
    "question",
    [
        "I have a patient with a 630G pump; how many MDRs mention it?",
        "my patient's insulin pump - what product code would I look up reports under?",
        "we have the regulation as 880.5730 in our submission, what does the classification say for QFG?",
        "how many 2020 clearances were there? am I searching the right dataset?",
        "class I is a reasonable probability of serious harm or death; how many class I enforcement reports in 2012?",
        "does he need a 510(k) for a labeling change?",
        "the patient identifier field in MAUDE: what does it hold?",
        "how many reports for male patients in 2023",
        "which firm had the most recalls this year",
        "will the count include supplements?",
    ],
)
def test_records_asked_around_a_patient_a_draft_or_a_definition_are_not_refused(question):
    assert not _refused(question), guard.classify(question)


# ------------------------------------------------------------------------------------------- questions in Spanish


@pytest.mark.parametrize(
    "question, english",
    [
        ("cuantos retiros hubo en el tercer trimestre de 2019?", "how many recalls were there in Q3 2019?"),
        ("numero de reportes MAUDE en los ultimos dos años", "number of MAUDE reports in the last 2 years"),
        ("registros PMA con fecha de decision entre enero y marzo del 2020", "between January and March 2020"),
        ("cual es la causa raiz del retiro Z-0053-2020?", "what is the root cause of the recall Z-0053-2020?"),
    ],
)
def test_a_question_in_spanish_is_read_in_english(question, english):
    assert spanish.is_spanish(question)
    assert english in spanish.to_english(question)


@pytest.mark.parametrize(
    "question",
    [
        "how many de novo requests were granted in 2020?",
        "recalls by firms in La Jolla or El Paso",
        "510(k)s for Boston Scientific de Costa Rica",
        "PMA supplements for the Sterrad sterilizer, class II o III?",
    ],
)
def test_an_english_question_with_a_spanish_name_is_left_as_written(question):
    assert not spanish.is_spanish(question)
    assert spanish.to_english(question) == question


def test_a_count_asked_in_spanish_is_answered_and_says_how_it_was_read(assistant, sample_dir):
    want = _count(
        sample_dir,
        "device_event",
        "date_received BETWEEN '2023-01-01' AND '2023-03-31' AND CAST(record AS VARCHAR) ILIKE '%medtronic%'",
    )
    answer = assistant.ask("cuantos reportes de eventos adversos de Medtronic hubo en el primer trimestre de 2023?")[
        "answer"
    ]
    head, first = [ln for ln in answer.splitlines() if ln.strip()][:2]
    assert "firm Medtronic" in head and "Q1 2023" in head, head
    assert want and first.startswith(f"{want} adverse event reports"), first
    assert 'Your question was read as "how many adverse event reports' in answer, answer


@pytest.mark.parametrize(
    "question, reply",
    [
        ("mi hermana tiene un marcapasos, puede hacerse una resonancia o es peligroso?", MEDICAL),
        ("necesito el nombre y la direccion del paciente del reporte 16081310", IDENTITY),
    ],
)
def test_advice_and_identity_asked_in_spanish_are_refused(assistant, question, reply):
    assert assistant.ask(question)["answer"].startswith(reply)


# ------------------------------------------------------------------------------------------- questions dictated


@pytest.mark.parametrize(
    "said, typed",
    [
        ("when was k two zero zero six nine eight cleared", "when was K200698 cleared"),
        ("pee one five zero zero one two supplements", "P150012 supplements"),
        ("recall zee oh zero five three dash twenty twenty root cause", "recall Z-0053-2020 root cause"),
        ("five ten kay clearances in q two twenty twenty", "510(k) clearances in Q2 2020"),
        ("m d r count for o z p in nineteen ninety nine", "MDR count for OZP in 1999"),
        ("recalls from march third to june thirtieth two thousand twelve", "recalls from march 3 to june 30 2012"),
        ("any class won recalls for g e i", "any class I recalls for GEI"),
    ],
)
def test_a_dictated_question_is_written_as_typed(said, typed):
    assert spoken.from_speech(said) == typed


@pytest.mark.parametrize(
    "question",
    [
        "number of recalls with a K number listed",
        "what's a UDI? is it the same as a DI",
        "DiaSorin S.p.A. registration, i.e. its FEI",
        "root cause of z-0053-2020",
        "the two Tz Medical cables, top five firms, one report",
        "Plan A or B for the W.H.P.M. kit",
    ],
)
def test_a_typed_question_is_left_as_written(question):
    assert spoken.from_speech(question) == question


def test_a_dictated_record_number_is_looked_up(assistant):
    answer = assistant.ask("decision date on five ten kay k two zero zero six nine eight")["answer"]
    assert "K200698" in answer and "2020-06-29" in answer, answer


# ------------------------------------------------------------------------------------ the openFDA search syntax


@pytest.mark.parametrize(
    "question, endpoint, search, count",
    [
        ("device_510k: decision_date:[20200101 TO 20200331]. Count only", "510k",
         "decision_date:[20200101 TO 20200331]", ""),
        ('MAUDE hits for device.brand_name:"630G" ?', "event", 'device.brand_name:"630G"', ""),
        ("classification db: device_class = 2 AND medical_specialty = OR. number of results", "classification",
         "device_class:2 AND medical_specialty:OR", ""),
        ("serology: date_performed = 4/21/2020, count distinct manufacturer", "covid19serology",
         "date_performed:2020-04-21", "manufacturer.exact"),
    ],
)  # fmt: skip
def test_a_request_in_the_search_syntax_is_read_as_written(question, endpoint, search, count):
    q = query_syntax.read_query(question)
    assert q is not None and (q.endpoint, q.search, q.count) == (endpoint, search, count)


@pytest.mark.parametrize(
    "question",
    [
        "510ks where decision_code = SESE in Q2 2020",  # a period in words: the question reader's
        "classification where third_party_flag = Y group by medical_specialty",  # a grouping the request has not
        "covid19serology where antibody_truth = Positive, Euroimmun vs Phamatech",  # a comparison
        "PMA database, decision_date = last 5 years",  # a date field given words
        "same search NOT company_name:Medtronic",  # narrows a request that is not there
        "how many recalls in 2020: class 2",
    ],
)
def test_a_question_that_asks_more_than_a_request_is_left_to_the_reader(question):
    assert query_syntax.read_query(question) is None


def test_a_request_is_run_on_the_mirror_and_a_follow_up_narrows_it(assistant, sample_dir):
    want = _count(sample_dir, "device_udi", "CAST(record AS VARCHAR) ILIKE '%pacemaker%'")
    first = assistant.ask("openFDA UDI: brand_name:pacemaker. How many records?", session_id="q")["answer"]
    lines = [ln for ln in first.splitlines() if ln.strip()]
    assert lines[0] == "Interpreted as: UDI device records (openFDA); openFDA search brand_name:pacemaker.", lines[0]
    assert lines[1].startswith(f"{want} UDI device records match"), lines[1]
    assert "Replay it with: mirror query udi 'search=brand_name:pacemaker&limit=10'" in first
    tz = _count(
        sample_dir,
        "device_udi",
        "CAST(record AS VARCHAR) ILIKE '%pacemaker%' AND CAST(record AS VARCHAR) ILIKE '%tz medical%'",
    )
    second = assistant.ask('AND NOT company_name:"Tz Medical" -> count', session_id="q")["answer"]
    assert '(brand_name:pacemaker) AND NOT company_name:"Tz Medical"' in second.splitlines()[0]
    assert f"\n{want - tz} UDI device record" in second, second


def _rows(sample_dir, table: str, sql: str) -> list[tuple]:
    con = duckdb.connect(str(sample_dir / "db" / f"{table}.duckdb"), read_only=True)
    try:
        return con.execute(sql).fetchall()
    finally:
        con.close()


def test_the_values_of_a_field_are_counted_and_a_field_asked_is_shown(assistant, sample_dir):
    makers = _rows(
        sample_dir,
        "device_covid19serology",
        "SELECT count(DISTINCT manufacturer) FROM device_covid19serology WHERE date_performed = '2020-04-27'",
    )[0][0]
    assert makers
    out = assistant.ask("covid19serology: date_performed = 4/27/2020. How many distinct manufacturer values?")
    body = [ln for ln in out["answer"].splitlines() if ln.strip()][1]
    assert body.startswith(f"{makers} firms (different manufacturers) in the serology test evaluations"), body
    ((number, cause),) = _rows(
        sample_dir,
        "device_recall",
        "SELECT product_res_number, root_cause_description FROM device_recall WHERE firm_fei_number = '3002980729'",
    )
    out = assistant.ask("root_cause_description for the recall where firm_fei_number = 3002980729")
    assert f"{number} (root cause description: {cause})" in out["answer"], out["answer"]
    assert out["citations"] and out["citations"][0]["id"] == f"product_res_number={number}"
