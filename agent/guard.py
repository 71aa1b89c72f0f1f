"""The guardrail: empty, greeting, help, off-topic and personal medical questions are answered without tools."""

from __future__ import annotations

import re

__all__ = ["classify", "reply", "DOMAIN_WORDS"]

HELP = (
    "I answer questions about FDA medical-device data held on this computer: adverse events (MAUDE), "
    "recalls and enforcement reports, 510(k) clearances, PMA approvals, classifications and product codes, "
    'UDI/GUDID device records and establishment registrations. For example: "How many adverse events were '
    'reported for insulin pumps in 2023?", "Class I recalls by Medtronic since 2020", "Top manufacturers '
    'of DXY devices by events", "510(k) clearances for product code LLZ". Every figure comes with record '
    "IDs and the data's as-of date."
)
GREETING = "Hello. " + HELP
EMPTY = "Please type a question. " + HELP
OFF_TOPIC = (
    "That is outside what I can answer: I only know the FDA medical-device datasets mirrored here "
    "(adverse events, recalls, 510(k), PMA, classifications, UDI and registrations). " + HELP
)
MEDICAL = (
    "I can't give personal medical advice; please ask your doctor or care team about your own health or "
    "device. What I can do is show what the FDA data says, for example the adverse event reports, recalls "
    'or safety notices for a device: try "recalls for <your device>" or "adverse events for <device> '
    'in 2024".'
)

DOMAIN_WORDS = re.compile(
    r"\b(devices?|recall\w*|enforcement|510\s*\(?k\)?|pma|premarket|approv\w*|clear\w*|maude|adverse|events?|"
    r"reports?|injur\w*|deaths?|died|malfunction\w*|udi|gudid|di|classif\w*|class|product\s+codes?|regulation|"
    r"manufactur\w*|firms?|compan\w*|establishments?|registr\w*|listing|implants?|pumps?|catheters?|"
    r"pacemakers?|stents?|monitors?|masks?|ventilators?|defibrillators?|surgical|fda|k\d{6}|p\d{6}|den\d{6}|"
    r"problems?|issues?|trends?|counts?|recalled|brands?|models?|lots?)\b",
    re.I,
)
_GREETING = re.compile(
    r"^\s*(hi|hello|hey|good (morning|afternoon|evening)|thanks?( you)?|thank you|cheers)\b"
    r"[\s!.,]*$",
    re.I,
)
_HELP = re.compile(
    r"^\s*(help|\?|what can you do|what do you know|how do (i|you) use( this| you)?|usage)\s*[?.!]*\s*$", re.I
)
_MEDICAL = re.compile(
    r"\b(should i|can i|do i need|is it safe for me|am i|my (doctor|surgeon|symptoms?|pain|heart|child|mother|father|"
    r"wife|husband|daughter|son|kids?|baby|mom|mum|dad|parents?|grand\w+|partner|patient)|"
    r"i (?:have|feel|got|am having)(?! (?:(?:a|an|the|one|this|our|two|some|several) )?(?:customer |new |field |"
    r"product |user )?(?:complaints?|capas?|questions?|query|request|reports?|suppliers?|audits?|lists?|files?|"
    r"recalls?|mdrs?|records?|reviews?|lots?))|(stop|start|take|replace|remove) my|dosage|diagnos\w*|"
    r"treat(ment)? (for|of) my|is (my|this) [\w-]+( [\w-]+)? safe( for me)?)\b",
    re.I,
)
# advice asked for a person, whoever says it ("which hip implant is best for a 70 year old?")
_ADVICE = re.compile(
    r"\b(would you recommend|do you recommend|recommend (?:a|an|the|me|one)|which (?:one )?should "
    r"(?:i|we|he|she|they)|is it (?:dangerous|safe|normal|bad|ok|okay)|is (?:this|that) (?:dangerous|"
    r"normal)|best (?:one )?for (?:a|an|my|me|him|her|someone|patients? (?:like|with))|"
    r"\d+[- ]years?[- ]old|should (?:i|we|my)|keep using my|worried about my|"
    r"safe (?:for|to use (?:for|on|with|in)) (?:me|my|him|her|us|a child|children|kids|someone|(?:a |an |the )?"
    r"(?:patients?|person|people|woman|man|elderly|pregnant)))\b",
    re.I,
)
# chat that names a record word in passing ("translate adverse event into German", "a poem about pacemakers")
_CHAT_FIRST = re.compile(
    r"\b(translate|write (?:me )?(?:a|an|some)? ?(?:poem|haiku|song|story|essay|limerick|joke)|"
    r"poem|haiku|limerick|who won|world series|super bowl|world cup|tell me a joke|recipe|"
    r"commissioner|who (?:is|was) the (?:current |new )?(?:head|director|ceo|president|chief))\b",
    re.I,
)
_FOLLOWUP = re.compile(r"\b(those|these|them|that|it|same|also|too|and what about|what about)\b", re.I)
_CODE = re.compile(r"\b[A-Z]{3}\b")
# drug brand and generic names people ask about: drugs are not in this mirror (FAERS holds them); a drug word
# followed by a device word ("insulin pump", "morphine infusion", "chemotherapy port") is left to the device reading
DRUG_NAMES = (
    "ozempic|wegovy|mounjaro|zepbound|semaglutide|tirzepatide|liraglutide|saxenda|victoza|trulicity|metformin|"
    "insulin glargine|lantus|humalog|novolog|jardiance|farxiga|januvia|eliquis|apixaban|xarelto|rivaroxaban|"
    "warfarin|coumadin|lipitor|atorvastatin|crestor|rosuvastatin|simvastatin|lisinopril|losartan|"
    "amlodipine|metoprolol|hydrochlorothiazide|furosemide|levothyroxine|synthroid|omeprazole|prilosec|nexium|"
    "ibuprofen|advil|motrin|acetaminophen|tylenol|paracetamol|aspirin|naproxen|aleve|oxycodone|hydrocodone|"
    "fentanyl|morphine|tramadol|gabapentin|lyrica|pregabalin|sertraline|zoloft|prozac|fluoxetine|lexapro|"
    "escitalopram|xanax|alprazolam|adderall|ritalin|humira|keytruda|botox|viagra|cialis|plavix|clopidogrel|"
    "prednisone|amoxicillin|azithromycin|zithromax|ciprofloxacin|antibiotics?|antidepressants?|statins?|"
    "opioids?|beta[- ]blockers?|blood thinners?|chemotherapy|ranitidine|zantac|famotidine|pepcid|valsartan|"
    "irbesartan|olmesartan|candesartan|diovan|benicar|nizatidine|cimetidine|pantoprazole|esomeprazole|lansoprazole|"
    "glipizide|glyburide|sitagliptin|empagliflozin|dapagliflozin|montelukast|singulair|albuterol|fluticasone|"
    "cetirizine|loratadine|diphenhydramine|benadryl|lovenox|narcan|buprenorphine|"
    "sildenafil|tadalafil|finasteride|tamsulosin|quetiapine|olanzapine|risperidone|aripiprazole|duloxetine|"
    "venlafaxine|bupropion|trazodone|zolpidem|lorazepam|diazepam|clonazepam|cyclobenzaprine|meloxicam|celecoxib|"
    "diclofenac|hydroxychloroquine|ivermectin|doxycycline|cephalexin|metronidazole|nitrofurantoin|acyclovir|"
    "valacyclovir|oseltamivir|tamiflu|paxlovid|tablets?|caplets?|softgels?|gelcaps?|lozenges?|"
    "oral solutions?|oral suspensions?|dosage forms?"
).split("|")
# other agencies' and other products' data: not in this mirror ("drug-eluting stent" is a device)
_OTHER = re.compile(
    r"\b(faers|vaers|eudamed|health canada|mhra|tga|pmda|anvisa|ema|medwatch drugs?|"
    r"eu\s+mdr|eu\s+ivdr|ivdr|notified\s+bod(?:y|ies)|ce\s+(?:mark(?:ed|ing|s)?|certificates?|certified)|bfarm|"
    r"nmpa|swissmedic|t[uü]v(?:\s*s[uü]d)?|field\s+safety\s+(?:notices?|corrective\s+actions?)|fscas?|"
    r"under\s+the\s+mdr|class\s+ii[ab]|"
    r"drugs?(?![-\w]|\s+(?:eluting|coated|delivery|infusion|pump))|"
    r"medicines?|medications?|meds|foods?|cosmetics?|tobacco|"
    r"\d+(?:\.\d+)?\s*(?:mg|mcg)\s+(?:tablets?|capsules?|caplets?|doses?|pills?)|"
    r"vaccines?|dietary supplements?|peanut|butter|pet food|"
    r"(?:"
    + "|".join(DRUG_NAMES)
    + r")(?![-\w]|\s+(?:eluting|coated|delivery|infusion|pumps?|ports?|pens?|injectors?|assays?|tests?|kits?|"
    r"computers?|pcs?|apps?|applications?|mounts?|holders?|stands?|press(?:es)?|software)))\b",
    re.I,
)
OTHER_DATA = (
    "That is not in this mirror: it holds only FDA medical-device data (adverse events, recalls and "
    "enforcement reports, 510(k), PMA, classification, UDI and registrations), not drugs, food, vaccines or "
    "other agencies' databases. "
)
_CHAT = re.compile(
    r"\b(weather|recipe|joke|poem|song|capital of|president|stock price|bitcoin|football|soccer|movie|"
    r"translate|write (me )?(a|some|an)|python|javascript|horoscope|news|who (are|is) you|your name)\b",
    re.I,
)


def classify(question: str, has_context: bool = False) -> str:
    """One of: empty, greeting, help, medical, off_topic, out_of_scope (other agencies or products), ask."""
    q = (question or "").strip()
    if not q:
        return "empty"
    if _GREETING.match(q):
        return "greeting"
    if _HELP.match(q):
        return "help"
    if _MEDICAL.search(q) and re.search(r"\b(i|my|me)\b", q, re.I) or _ADVICE.search(q):
        return "medical"
    if _CHAT_FIRST.search(q):
        return "off_topic"
    if _OTHER.search(q):
        return "out_of_scope"
    if DOMAIN_WORDS.search(q) or _CODE.search(q) or (has_context and _FOLLOWUP.search(q)):
        return "ask"
    if _CHAT.search(q):
        return "off_topic"
    return "ask"  # maybe a device name: the planner decides (nothing found -> the off-topic reply)


def reply(route: str) -> str:
    return {
        "empty": EMPTY,
        "greeting": GREETING,
        "help": HELP,
        "medical": MEDICAL,
        "off_topic": OFF_TOPIC,
        "out_of_scope": OTHER_DATA + HELP,
    }[route]
