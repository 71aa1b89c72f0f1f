"""Issue 14, part 2 (task A19): the refusals widened by A18, probed as a regulatory or quality engineer would ask.
Words that a refusal listens for also carry the records' own senses: "patent" is the body's word for open ("patent
ductus", "the catheter was not patent"), a product's inspection or certificate is no audit of the firm, "sold" and
"sell" name distribution and products, "employees" a root cause, a "data acquisition" system a device, "stock" an
inventory, "drug screens" a test, "CPT Medical" a firm, "medication errors" and "nuclear medicine cameras" devices;
and "can I see", "should I count", "am I right" ask about the records, not about a person's health. These are
answered or asked back about; the business, audit and legal figures around them stay refused. Phrasings written for
this test, apart from the bank."""

from __future__ import annotations

import pytest

from agent.guard import classify
from agent.understand.commerce import FINANCE_REPLY, REPLY
from agent.understand.refusals import refusal_reply, refuses


def _refused(question: str) -> bool:
    route = classify(question)
    return route in {"out_of_scope", "medical", "off_topic"} or refuses(route, question)


IN_SCOPE = [
    # "patent" as open, or in a device's name
    "events where the catheter did not remain patent",
    "adverse events where the catheter was not patent after insertion",
    "MDRs about keeping the lumen patent",
    "product code for leuco-patent blue",
    "product code for patent blue dye",
    "510(k)s for patent ductus occluders since 2015",
    # a product's inspection or paper, not the firm's audit
    "adverse events where units were inspected before use and found cracked",
    "results of the visual inspection in the MAUDE report for the 630G",
    "certificate of analysis problems in enforcement reports",
    "adverse events where the device was visually inspected",
    "MDRs where the pump was inspected by the manufacturer",
    "were the returned units inspected?",
    "recalls where the sterility certificate was wrong",
    # selling as distribution or a firm's products, not a sales figure
    "which firms sell pacemaker analyzers",
    "what does Netech Corporation sell",
    "devices sold under the brand name Dermasure",
    "recalls of devices sold nationwide by Arrow International",
    "recalls of devices sold to hospitals in Texas",
    # the records' own words
    "recalls caused by employees not following procedure",
    "recall root causes attributed to employees",
    "how many people were injured by insulin pumps",
    "how many hospital employees were injured",
    "how many staff members were hurt",
    "how many units shipped in the Arrow International recall",
    "what did the reports say about the battery charge of the pump",
    "510(k)s for EEG data acquisition systems",
    "recalls of data acquisition software",
    "adverse events where images acquired by the scanner were blank",
    "510(k) clearances for a device that employs ultrasound",
    "510(k)s submitted by non-profit organizations",
    "recalls telling customers to hold their stock of the affected lot",
    "what firms make insurance testing drug screens",
    "Do GUDID records show the CPT Medical catalog numbers?",
    "establishment registrations where Registrar Corp is the US agent",
    # a drug, food or vaccine word naming a device's use, and the agency's own name
    "Food and Drug Administration recalls for Arrow International",
    "510(k)s for cosmetic lasers",
    "510(k)s for nuclear medicine cameras",
    "adverse events involving medication errors with infusion pumps",
    "MDRs where the pump delivered the wrong medication dose",
    "recalls of vaccine storage refrigerators",
    "adverse events with the pump app running on a tablet",
    "510(k)s for antibiotic susceptibility test discs",
    "gloves tested for use with chemotherapy drugs: which 510(k)s",
    "510(k)s for food allergen test kits",
    "recalls of medication carts",
    "medication management software recalls",
    "translate product code DXY into a device name",
    # "483" as a count of records, not the form
    "which product codes have 483 adverse events",
    "firms with 483 recalls since 2010",
    "is there a device with 483 MDRs in 2021",
    # another agency named only as the reason or purpose around the ask
    "For our EU MDR technical file, list recalls of Arrow catheters",
    "Our notified body asked. What recalls did Arrow International have?",
    "list recalls of Arrow catheters for our EU MDR technical file",
    "As part of our CE marking file: 510(k)s by Orthofix",
    "recalls for Arrow catheters? We need it for our CE file.",
    # a question about the records, with "I" in it
    "can I see the recalls for Arrow International",
    "can i get a list of 510(k)s by Orthofix",
    "should I count PMA supplements for Medtronic as approvals?",
    "do I need the product code or the device name for recalls of catheters",
    "am I right that K200698 was cleared in 2020?",
    "should we expect the Arrow recall to be class II? what class was it",
    "is it normal for a PMA to have many supplements? how many does P970004 have",
    "can you recommend a product code for insulin pump searches",
    "which dataset would you recommend for recall counts by Arrow",
    "510(k)s more than 20 years old for product code ETB",
    "list PMAs that are 25 years old or more",
    "I'm looking for diagnostic device recalls from 2019",
    "I need diagnostic test 510(k)s by Horiba ABX",
    "I have a K number K200698 - what device is it?",
    "I have the product code DXY, what device is that?",
    "dosage errors with infusion pumps I should know about",
    "which product code should I use for my search on insulin pumps",
    "should I use the product code DXY or the name?",
    "Is it ok to count recalls by recall number? how many did Arrow have",
]
STILL_REFUSED = [
    "how much does the Somnera System cost",
    "what does Orthofix charge for the O-Genesis system",
    "who makes the most money from insulin pumps",
    "How many units of the Somnera did FRESCA sell last year",
    "which firm sells the most insulin pumps",
    "what does the Somnera sell for?",
    "how many people does Horiba employ",
    "how many people work at Medtronic",
    "how many staff does Orthofix have",
    "was Netech acquired by Medtronic",
    "is Orthofix stock a good buy after the recall",
    "should I buy the stock of Orthofix",
    "who holds the patent on the 630G insulin pump",
    "what patents does Medtronic hold on the InterStim",
    "is the Spiration valve patented",
    "has Netech Corporation ever been inspected",
    "was Horiba ABX inspected in 2022?",
    "was Orthofix ever inspected by FDA",
    "Horiba ABX audited by BSI",
    "what did FDA find when it inspected Horiba ABX",
    "has Arrow International's ISO certificate lapsed",
    "who is Orthofix's registrar for ISO 13485",
    "CPT code for the Cerene cryoablation procedure",
    "can I get the Medicare payment rate for the InterStim",
    "Did Medline receive a 483 in 2022?",
    "firms with a 483 in 2021",
    "any firms with 483s in 2021",
]
OTHER_PRODUCTS = [
    "adverse events for Ozempic",
    "FAERS reports for metformin",
    "drug recalls in 2023",
    "medication recalls",
    "food recalls 2022",
    "vaccine adverse events",
    "recalls of tobacco products",
    "adverse events for levothyroxine tablets",
    "Is the Somnera System CE marked?",
    "For our file: which notified body issued the CE certificate for the CoolSeal generator?",
    "We use Ozempic. adverse events for Ozempic",
    "FAERS reports for metformin for our file",
]
STILL_MEDICAL = [
    "can I keep using my CPAP after the recall or should I stop?",
    "can I get an MRI with my InterStim",
    "do I need a new pacemaker after the recall",
    "am I at risk with my 630G",
    "is it safe for a 70 year old to get a pacemaker",
    "I have diabetes, which pump is best",
    "I was diagnosed with AFib, which ablation catheter",
    "recommend a glucose monitor for a 70 year old",
    "can you recommend a pump for my son",
    "which hip implant is best for a 70 year old",
    "is it ok to use my pump after the recall",
    "should I use my CPAP",
    "which product code should I use for my son",
]


@pytest.mark.parametrize("question", IN_SCOPE)
def test_the_records_own_senses_of_a_refusal_word_are_not_refused(question):
    assert not _refused(question), refusal_reply(question)


@pytest.mark.parametrize("question", STILL_REFUSED)
def test_business_audit_and_legal_asks_beside_them_stay_refused(question):
    assert _refused(question)


@pytest.mark.parametrize("question", OTHER_PRODUCTS)
def test_drugs_food_vaccines_and_other_agencies_stay_out_of_scope(question):
    assert classify(question) == "out_of_scope"


def test_chat_that_names_a_record_word_stays_off_topic():
    assert classify("translate adverse event into German") == "off_topic"


@pytest.mark.parametrize("question", STILL_MEDICAL)
def test_a_persons_own_health_stays_medical_advice(question):
    assert classify(question) == "medical"


def test_the_replies_name_the_class_asked():
    assert refusal_reply("what does Orthofix charge for the O-Genesis system") == REPLY
    assert refusal_reply("should I buy the stock of Orthofix") == FINANCE_REPLY
    assert "USPTO" in (refusal_reply("is the Spiration valve patented") or "")
    assert "Data Dashboard" in (refusal_reply("was Horiba ABX inspected in 2022?") or "")


@pytest.mark.parametrize(
    "question",
    [
        "adverse events where the catheter was not patent after insertion",
        "which firms sell pacemaker analyzers",
        "can I see the recalls for Arrow International",
        "recalls caused by employees not following procedure",
    ],
)
def test_the_assistant_reads_them_as_record_questions(assistant, question):
    out = assistant.ask(question, session_id="u19")
    assert out["route"] == "ask"
    assert not any(r in out["answer"] for r in (REPLY, FINANCE_REPLY, "legal counsel", "Data Dashboard"))


@pytest.mark.parametrize(
    "question",
    [
        "List recalls by Arrow International. We are pricing a deal.",
        "How many 510(k)s did Horiba ABX get? We are weighing an acquisition.",
        "Recalls by Netech Corporation since 2015? Our team is preparing an MDSAP audit.",
        "Which recalls did Tz Medical have? I'm checking their ISO certificate next week.",
    ],
)
def test_a_statement_after_the_ask_is_not_what_is_asked(question):
    assert not _refused(question)


@pytest.mark.parametrize(
    "question",
    [
        "What is the 510(k) fee? We are a small business.",
        "What did the MDSAP audit of Horiba find? We need it for supplier approval.",
    ],
)
def test_an_ask_before_a_statement_is_still_refused(question):
    assert _refused(question)
