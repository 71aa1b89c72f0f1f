"""Issue 14, part 2 (task A18): questions about what the FDA device datasets do not hold (user fees, stocks and credit,
payment codes, inspection and audit findings, patents and legal advice, trials, guidance) are refused in one or two
sentences that say where to look, never answered with a count or asked back about a device. Look-alikes that ask for
the mirror's own records (a firm's 510(k)s, recalls after an inspection, a DUNS number, the product code IPO) are
not refused. Phrasings written for this test, apart from the bank."""

from __future__ import annotations

import re

import pytest

from agent.guard import classify
from agent.understand.commerce import FEES_REPLY, FINANCE_REPLY, REIMBURSEMENT_REPLY, REPLY
from agent.understand.elsewhere import REGULATORY_REPLY
from agent.understand.refusals import refusal_reply, refuses


def _refused(question: str) -> bool:
    route = classify(question)
    return route == "out_of_scope" or refuses(route, question)


FEES = [
    "whats the 510(k) user fee this year",
    "How much is the FY2026 PMA application fee?",
    "do we qualify as a small business for MDUFA fee reductions",
    "annual establishment registration fee for 2025?",
    "De Novo fee for small businesses",
    "How much does CDRH charge for a de novo request",
    "how much is the 513(g) fee",
    "whats the current fda 510k fee",
    "small business determination for our startup - how do we get one",
    "510k fees 2026?",
    "wat is the fee for a tradtional 510k",
    "how much to file a 510k",
    "user-fee for de novo",
    "whats the small buisness fee",
    "and what's the fee for those?",
]
FINANCE = [
    "Is Boston Scientific stock worth buying after the recall?",
    "should I invest in Insulet given their pump recalls?",
    "what's the credit score of Horiba ABX",
    "Dun and Bradstreet report for Arrow International please",
    "Is Netech Corporation financially healthy? we want them as a supplier",
    "what is Orthofix's market cap",
    "price to earnings ratio of medtronic",
    "EBITDA of Orthofix last year",
    "Netech Corporation bankruptcy",
    "is insulet a good investment",
    "creditworthiness of Tz Medical Inc",
]
REIMBURSEMENT = [
    "What CPT code do we bill for the Cerene procedure?",
    "HCPCS code for a continuous glucose monitor",
    "does medicare cover the InterStim implant",
    "what are the ICD-10 codes for insulin pump failure",
    "is the 630G covered by insurance",
]
ELSEWHERE = [
    ("How many 483 observations did Medtronic receive in 2023?", "Form 483"),
    ("list warning letters issued to Abbott since 2020", "warning letters on fda.gov"),
    ("when was Horiba ABX last inspected by FDA?", "Data Dashboard"),
    ("show the FDA inspection results for Netech Corp", "Data Dashboard"),
    ("Did Tz Medical get a form 483 at their last inspection?", "Form 483"),
    ("is DiaSorin's ISO 13485 cert still valid", "auditing organization"),
    ("OAI inspection classification for Tz Medical", "inspection classifications"),
    ("mdsap audit report Netech", "MDSAP"),
    ("Horiba ABX 483s", "Form 483"),
    ("did fda inspect netech in 2022", "Data Dashboard"),
    ("findings from Netech's last inspection", "Data Dashboard"),
    ("483 obs for Tz Medical", "Form 483"),
    ("has Netech Corporation ever been inspected", "Data Dashboard"),
    ("any import alerts for Horiba ABX analyzers?", "Import Alerts"),
    ("clinical trial results for the Spiration valve", "ClinicalTrials.gov"),
    ("who holds the patent on the 630G insulin pump", "USPTO"),
    ("is it legal to sell a device before it is cleared", "legal counsel"),
    ("what does the FDA guidance say about cybersecurity for insulin pumps", "Guidance Documents"),
]
LOOK_ALIKES = [
    "how many 510(k)s did Horiba ABX get",
    "recalls for Netech analyzers",
    "enforcement reports with a fee",
    "recalls initiated after an FDA inspection",
    "enforcement reports citing a warning letter",
    "since our last audit, how many recalls did Horiba have?",
    "before our supplier audit: recalls by Netech Corporation",
    "can u check if Encore Medical ever had a Class 2 recall, our supplier audit form asks",
    "Our incoming inspection sheet just says 'NETECH pacemaker analyzer'. What catalog number is that in GUDID?",
    "We want to buy a Netech analyzer; what's its product code?",
    "DUNS number of Netech Corporation",
    "phone number for the Netech contact in GUDID",
    "recalls of patent ductus arteriosus occluders",
    "adverse events for product code DRG",
    "510(k) clearances for product code IPO",
    "class of product code NCD",
    "adverse events for ICD leads in 2023",
    "recalls of medical support stockings",
    "what was the 510(k) review time for K200698",
    "insurance testing amphetamine assays product codes",
    "adverse event reports for atrial defibrillators",
    "510(k)s with a third party review",
]


@pytest.mark.parametrize("question", FEES)
def test_a_user_fee_question_is_refused_with_where_fees_are_published(question):
    assert _refused(question)
    assert refusal_reply(question) == FEES_REPLY


@pytest.mark.parametrize("question", FINANCE)
def test_stock_credit_and_valuation_questions_are_refused(question):
    assert _refused(question)
    assert refusal_reply(question) == FINANCE_REPLY


@pytest.mark.parametrize("question", REIMBURSEMENT)
def test_payment_codes_and_coverage_are_refused(question):
    assert _refused(question)
    assert refusal_reply(question) == REIMBURSEMENT_REPLY


@pytest.mark.parametrize(("question", "where"), ELSEWHERE)
def test_records_published_elsewhere_are_refused_with_where_to_look(question, where):
    assert _refused(question)
    reply = refusal_reply(question) or ""
    assert where in reply and "I can show what this mirror does hold" in reply


@pytest.mark.parametrize(
    "question", ["cheapest insulin pump on the market", "what salary should I offer a senior RA specialist?"]
)
def test_prices_and_pay_are_refused_as_business_figures(question):
    assert _refused(question)
    assert refusal_reply(question) == REPLY


@pytest.mark.parametrize("question", LOOK_ALIKES)
def test_questions_about_the_mirrors_records_are_not_refused(question):
    assert not _refused(question)


def test_a_notified_body_asked_with_should_we_is_out_of_scope_not_medical_advice():
    assert classify("which notified body should we pick for our CE mark?") == "out_of_scope"


def test_every_reply_is_at_most_two_sentences_and_names_no_internal_state():
    replies = {FEES_REPLY, FINANCE_REPLY, REIMBURSEMENT_REPLY} | {refusal_reply(q) or "" for q, _ in ELSEWHERE}
    for reply in replies:
        quoted = re.sub(r'"[^"]*"', '""', reply)  # examples in quotes are no sentence of their own
        assert len(re.findall(r"[.!?](?:\s|$)", quoted.replace("fda.gov", "fda"))) <= 2, reply
        assert "_" not in reply and "route" not in reply


@pytest.mark.parametrize(
    ("question", "reply"),
    [
        ("is FRESCA Medical stock a good buy right now?", FINANCE_REPLY),  # was asked back about the device "shock"
        ("510k fee amount 2027", FEES_REPLY),  # was a count of 2027 clearances
        ("MDUFA small biz rate for a traditional 510(k)?", FEES_REPLY),  # was no answer
    ],
)
def test_the_assistant_refuses_without_a_figure(assistant, question, reply):
    out = assistant.ask(question, session_id="u18")
    assert out["route"] == "out_of_scope" and out["answer"] == reply
    assert not out.get("citations") and not out.get("clarify")


def test_the_assistant_refuses_an_audit_finding_with_where_to_look(assistant):
    out = assistant.ask("what did the last MDSAP audit of Horiba ABX find", session_id="u18")
    assert out["route"] == "out_of_scope" and "auditing organization" in out["answer"]
    assert not out.get("citations")


def test_the_assistant_still_answers_a_firms_records_beside_an_audit(assistant):
    out = assistant.ask("before our supplier audit: how many 510(k)s did Horiba ABX get?", session_id="u18")
    assert out["route"] == "ask" and "510(k)" in out["answer"]


@pytest.mark.parametrize(
    "question",
    [
        "We are weighing an acquisition of the firm. How many 510(k)s did Horiba ABX get?",
        "Our supplier sells into cardiology. Which recalls did Netech Corporation have?",
        "I'm preparing for an MDSAP audit. List the recalls by Tz Medical since 2015.",
    ],
)
def test_a_statement_of_context_before_the_ask_is_not_what_is_asked(question):
    assert not _refused(question)


@pytest.mark.parametrize(
    ("question", "reply"),
    [
        ("We supply hospitals. What is the 510(k) user fee this year?", FEES_REPLY),
        ("How many valves did Olympus sell in 2021? Need unit sales for our model.", None),  # the ask sells
    ],
)
def test_an_ask_after_a_statement_of_context_is_still_refused(question, reply):
    assert _refused(question)
    if reply is not None:
        assert refusal_reply(question) == reply


@pytest.mark.parametrize(
    "question",
    [
        "should we file a 510(k) or a De Novo for our new glucose sensor?",
        "which predicate should we use for our infusion set 510(k)?",
        "would you recommend a pre-sub before our 510k",
        "Should we report this complaint as an MDR?",
    ],
)
def test_regulatory_advice_gets_its_own_reply_not_the_medical_one(question):
    assert classify(question) == "medical" and refuses("medical", question)
    assert refusal_reply(question) == REGULATORY_REPLY


@pytest.mark.parametrize(
    "question",
    [
        "should I stop using my insulin pump after the recall report?",
        "my doctor says my pacemaker is recalled, should I have it replaced?",
    ],
)
def test_a_persons_own_device_stays_medical_advice(question):
    assert classify(question) == "medical" and not refuses("medical", question)


def test_regulatory_words_refuse_nothing_that_the_guard_lets_through():
    assert not refuses("ask", "how many 510(k)s were cleared as special submissions in 2020")
