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
# "can I see the recalls", "should I count supplements", "am I right that ..." ask about the records, not a person
_RECORD_ASK = (
    r"(?:list|count|number|table|summary|breakdown|records?|recalls?|reports?|510|pma|clearances?|approvals?|"
    r"events?|mdrs?|data|overview|details|figures?)"
)
_ON_RECORDS = (
    r"(?!\s+(?:count|include|exclude|filter|search|look\s+(?:up|at|for|in)|read|expect|check|query|compare|see|view|"
    r"list|pull|find|export|download|ask\s+(?:about|for)|use\s+(?:(?:a|an|the|which|this|that)\s+)?(?:product\s+codes?|"
    r"codes?|datasets?|filters?|fields?|keywords?|search\s+terms?)|use\s+(?:for|in)\s+(?:(?:a|the|my|our|this)\s+)?"
    r"(?:search|query|filter|list|report|analysis|spreadsheet)|"
    rf"(?:get|have)\s+(?:(?:a|an|the|all|some|any)\s+)?{_RECORD_ASK})\b)"
)
_MEDICAL = re.compile(
    rf"\b(should i{_ON_RECORDS}|can i{_ON_RECORDS}|do i need(?!\s+(?:the\s+(?:product\s+code|device\s+name|firm|"
    r"k\s*number|code|name|year)|to\s+(?:filter|use|specify|search|enter|type|give|name|include|say|add|spell))\b)|"
    r"is it safe for me|am i(?!\s+(?:right|correct|wrong|reading|missing|mistaken|looking|searching|doing|counting|"
    r"using|querying|asking|filtering|understanding|misreading|reading))\b|"
    r"my (doctor|surgeon|symptoms?|pain|heart|child|mother|father|wife|husband|daughter|son|kids?|baby|mom|mum|dad|"
    r"parents?|grand\w+|partner|aunt|uncle|sister|brother|cousin|niece|nephew|"
    # "my patient's insulin pump ... product code so I can look up reports" asks for records, not advice
    r"patient(?!'?s?\s+(?:[\w-]+\s+){0,3}?(?:pumps?|devices?|implants?|pacemakers?|catheters?|monitors?|sensors?|"
    r"valves?|stents?|leads?|cgms?)\b[^?]*?\b(?:product\s+codes?|procodes?|reports?|recalls?|records?|look\s+up|"
    r"class|510|pma|mdrs?|maude)))|"
    r"i (?:have|feel|got|am having)(?! (?:(?:a|an|the|one|this|our|two|some|several) )?(?:customer |new |field |"
    r"product |user )?(?:complaints?|capas?|questions?|query|request|reports?|suppliers?|audits?|lists?|files?|"
    r"recalls?|mdrs?|records?|reviews?|lots?|k\s*numbers?|k\d+|p\d+|product\s+codes?|codes?|(?:mdr\s+|report\s+|lot\s+|"
    r"catalog\s+|model\s+)?numbers?|udis?|dis?|device\s+names?|spreadsheets?|datasets?|data|pts?|patients?|clients?|"
    r"members?|customers?|residents?|regulations?|cfr|drafts?|submissions?|predicates?)\b)|"
    r"(stop|start|take|replace|remove) my|dosage(?!\s+(?:errors?|mistakes?|calculation\w*))|diagnos(?:is|es|ed|e|ing)|"
    r"treat(ment)? (for|of) my|is (my|this) [\w-]+( [\w-]+)? safe( for me)?)\b",
    re.I,
)
# advice asked for a person, whoever says it ("which hip implant is best for a 70 year old?")
_ADVICE = re.compile(
    r"\b(would you recommend|do you recommend|recommend (?:a|an|the|me|one)|which (?:one )?should "
    r"(?:i|we|he|she|they)|is it (?:dangerous|safe|normal|bad|ok|okay)(?! (?:for|that) (?:(?:a|an|the) )?(?:pma|510|"
    r"recalls?|firms?|manufacturers?|compan\w+|product codes?|records?|reports?|de ?novo|supplements?|clearances?)"
    r"\b| to (?:count|search|filter|read|compare|include|exclude|list|group|sort)\b)|is (?:this|that) (?:dangerous|"
    r"normal)|best (?:one )?for (?:a|an|my|me|him|her|someone|patients? (?:like|with))|"
    r"(?<!\bthan )(?<!\bare )(?<!\bis )(?<!\bwere )\d+[- ]years?[- ]old|"
    rf"should (?:i|we){_ON_RECORDS}|should my|keep using my|worried about my|my neighbou?r|"
    r"medically (?:ok|okay|safe|fine|advisable|acceptable)|"
    r"(?:should|can|could) (?:he|she|they|the (?:patient|pt)|(?:a )?pt) (?:just |still |really |safely )?"
    r"(?:go to (?:the )?(?:er|hospital|doctor|emergency)|stop|keep (?:using|wearing|taking|it|on)|continue|start|"
    r"come off|switch|turn (?:it |this |that |the [\w-]+ )?(?:off|down|up)|wait|remove|take (?:it )?off|skip)|"
    r"(?:\b(?:ed|er|a&e|urgent care|the emergency (?:room|department))\s+now\b)|"
    r"whether (?:he|she|they) should (?:stop|keep|continue|start|go|get|have|switch|see)|"
    r"what (?:dressing|treatment|medication|medicine|dose|dosage|amount|antibiotic|ointment|painkiller)s? "
    r"(?:of (?:an? )?[\w-]+ )?(?:should|to|do|would|is best|for)|"
    r"what should (?:he|she|they|someone|somebody|(?:the|a|our|my) (?:patient|user|tester|wearer)) do\b|"
    r"should (?:a|the|this|that|our) (?:patient|person|woman|man|child)(?:\s+(?:whose|who|with)\s+[\w\s'-]{1,60}?)?"
    r"\s+(?:have|get|undergo|wait|stop|take|keep|continue|see|be\s+(?:treated|operated|revised|implanted))|"
    r"(?:does|do|will|would) (?:he|she|they|i|we) need (?:another|a|an|more|further|revision|repeat|a second) "
    r"(?:surgery|operation|procedure|treatment|revision)|"
    r"(?:does|will|would) (?:he|she|the (?:patient|pt)|(?:the |a |my |our )?pt) need "
    r"(?!(?:a |an |another |new |to file |to submit )?"
    r"(?:510|pma|de novo|clearances?|approvals?|registrations?|listings?|udi|submissions?|predicates?|product code)\b)"
    r"(?:another |a |an |more |further |a second |a repeat |repeat )?[\w-]+|"
    r"(?:does|do|will|would) (?:he|she|they|i|we|the (?:patient|pt)|(?:a |my |our )?pt) need to "
    r"(?:start|stop|take|have|get|begin|switch|continue|go on|come off|be (?:treated|retested|vaccinated|boosted))|"
    r"safe (?:for|to use (?:for|on|with|in)) (?:me|my|him|her|us|a child|children|kids|someone|(?:a |an |the )?"
    r"(?:patients?|person|people|woman|man|elderly|pregnant))|"
    # "can a patient with an InterStim safely get a panoramic x-ray?": a care decision for a person with a device
    r"(?:can|could|may|should) (?:a|the|our|my|this|that) (?:patient|pt|child|kid|person|baby|infant|woman|man) "
    r"(?:with|who has|who's got|on) [^?.]{1,60}?\b(?:safely )?(?:get|have|undergo|use|go|fly|receive)|"
    # "what do I tell her?" of a person's worry: clinical counselling
    r"what (?:do|should) (?:i|we) (?:tell|say to) (?:her|him|them|the (?:mom|mother|dad|father|parents?|family|"
    r"patient|pt))\b)\b",
    re.I,
)
# a choice of search, not of treatment: "can you recommend a product code for insulin pumps", "which dataset would you
# recommend", "which product code is best for a search" (a person named keeps it advice)
_ABOUT_SEARCH = re.compile(
    r"\b(?:datasets?|product\s+codes?|codes?|search(?:es)?|quer(?:y|ies)|filters?|fields?|columns?|keywords?|"
    r"search\s+terms?)\b",
    re.I,
)
_PERSON = re.compile(
    r"\b(?:(?:for|to|with)\s+me|me\s+personally|my\s+(?:own\s+)?(?:son|daughter|child|kids?|mother|father|mom|mum|dad|"
    r"wife|husband|partner|parents?|baby|patients?|health|heart|body|doctor|surgeon|condition|implant|pump|"
    r"pacemaker|device)|him|her|someone|patients?|person|people|woman|man|child|children|kids?|baby|elderly|"
    r"pregnant|\d+[- ]years?[- ]old)\b",
    re.I,
)
# chat that names a record word in passing ("translate adverse event into German", "a poem about pacemakers")
_CHAT_FIRST = re.compile(
    r"\b(translate(?!\s+(?:(?:the|this|that)\s+)?(?:product\s+codes?|codes?|(?-i:[A-Z]{3})\b|k\d))|"
    r"write (?:me )?(?:a|an|some)? ?(?:poem|haiku|song|story|essay|limerick|joke)|"
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
# a drug, food or vaccine word that names a device's use: "medication errors", "nuclear medicine cameras",
# "vaccine storage refrigerators", "food allergen test kits", "cosmetic lasers" (one word may come between)
_DEVICE_AFTER = (
    r"(?![-\w]|(?:\s+[\w-]+)?\s+(?:pumps?|lasers?|cameras?|scanners?|imaging|refrigerators?|freezers?|storage|"
    r"carriers?|coolers?|carts?|cabinets?|dispens\w*|software|systems?|apps?|tests?|testing|screens?|screening|kits?|"
    r"assays?|discs?|disks?|panels?|susceptibility|gloves?|errors?|doses?|dosing|management|delivery|infusion|ports?|"
    r"pens?|injectors?|devices?|monitors?|monitoring|eluting|coated|reservoirs?|containers?|syringes?|tubing|"
    r"applicators?|nebulizers?|inhalers?|of\s+abuse|abuse)\b)"
)
# words that name a device's use or the agency, cut before the other-products check: "Food and Drug Administration",
# "gloves tested for use with chemotherapy drugs", "the pump app on a tablet"
_DEVICE_SENSE = re.compile(
    r"(?i)\bfood\s+(?:and|&)\s+drug\s+administration\b|"
    r"\b(?:tested|rated|labell?ed|for\s+use|compatib\w*|resistan\w*|permeation)\b[^?.;]{0,25}?\b(?:with|against|to|by)\s+"
    r"(?:[\w-]+\s+){0,2}?(?:drugs?|medications?|medicines?)\b|"
    r"\b(?:on|via|from|using)\s+(?:(?:a|an|the|their|our|my)\s+)?tablets?\b(?!\s+(?:of|for)\b)"
)
# a statement or purpose around the ask: "For our EU MDR technical file, list recalls of Arrow catheters", "Our notified
# body asked. What recalls did Arrow have?", "... recalls by Orthofix? We need them for our CE file." name other
# agencies only as the reason; what is asked is in the rest
_LEAD_STATEMENT = re.compile(
    r"(?i)^\s*(?:we|we're|we've|i|i'm|i've|our|the|this|they|their|it|my)\b[^?.;!]*[.;!]+\s+(?=\S)"
)
_LEAD_PURPOSE = re.compile(
    r"(?i)^\s*(?:for|as\s+part\s+of|ahead\s+of|before|during)\s+(?:our|the|a|an|my|this|their)\b[^,:;?]{0,80}"
    r"(?:[,:;]|\s-)\s*(?=\S)"
)
_TRAILING = re.compile(
    r"(?i)(?:\s+(?:for|as\s+part\s+of)\s+(?:our|the|my|their)\s+[^?,.;:]{0,60}|"
    r"(?<=[?.!])\s+(?:we|we're|our|i|i'm|my|this|it)\b[^?]{0,120})[?.!]*\s*$"
)


# the use an FDA figure is put to, said inside the question ("the FDA class ... for a COFEPRIS dossier"): not the data
_PURPOSE_INSIDE = re.compile(
    r"(?i)\b(?:for|in)\s+(?:a|an|our|the|my|their)\s+(?:[\w-]+\s+){0,3}?(?:dossiers?|submissions?|filings?|"
    r"technical\s+files?|tech\s+files?|applications?|registrations?|renewals?)\b(?:\s+(?:of|for|to|with)\s+[\w-]+)?"
)


def _the_ask(question: str) -> str:
    """The question without the statements and purposes framed around it."""
    q = _PURPOSE_INSIDE.sub(" ", question) if re.search(r"\bFDA\b", question) else question
    while m := (_LEAD_STATEMENT.match(q) or _LEAD_PURPOSE.match(q)):
        q = q[m.end() :]
    return _TRAILING.sub("", q) or q


# other agencies' and other products' data: not in this mirror ("drug-eluting stent" is a device)
_OTHER = re.compile(
    r"\b(faers|vaers|eudamed|health canada|mhra|tga|pmda|anvisa|ema|medwatch drugs?|"
    r"eu\s+mdr|eu\s+ivdr|ivdr|notified\s+bod(?:y|ies)|ce\s+(?:mark(?:ed|ing|s)?|certificates?|certified)|bfarm|"
    r"nmpa|swissmedic|t[uü]v(?:\s*s[uü]d)?|ansm|competent\s+authorit(?:y|ies)|"
    r"mhlw|mfds|kfda|cdsco|cofepris|shonin|ninsho|"
    r"(?:japanese|japan's|korean|chinese|indian|brazilian|canadian|australian|european|eu|uk|british)\s+"
    r"(?:recall\s+class(?:es|ification)?|approvals?|licen[cs]es?|regulators?|(?:health\s+)?authorit(?:y|ies)|"
    r"ministry|certificates?)|"
    r"(?:eu|european|uk|german|french)\s+(?:fscas?|field\s+safety|vigilance)|"
    r"(?:fscas?|fsns?|field\s+safety\s+(?:notices?|corrective\s+actions?))(?=.*\b(?:eu|europe|european|germany|german|"
    r"france|french|uk|britain|british|italy|italian|spain|spanish|netherlands|dutch|ireland|sweden|denmark|belgium|"
    r"austria|switzerland|swiss)\b)|"
    r"under\s+the\s+mdr|class\s+ii[ab]|"
    rf"(?:drugs?|medicines?|medications?|meds|foods?|cosmetics?|tobacco|vaccines?){_DEVICE_AFTER}|"
    r"\d+(?:\.\d+)?\s*(?:mg|mcg)\s+(?:tablets?|capsules?|caplets?|doses?|pills?)|"
    r"dietary supplements?|peanut|butter|pet food|"
    r"(?:"
    + "|".join(DRUG_NAMES)
    + r")(?![-\w]|\s+(?:eluting|coated|delivery|infusion|pumps?|ports?|pens?|injectors?|assays?|tests?|kits?|"
    r"susceptibility|discs?|disks?|panels?|screens?|screening|testing|levels?|monitoring|"
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


# a device taken out of a patient ("does the line need to come out right now?", "should the baby's umbilical line be
# pulled"): a care decision, asked of a person
_REMOVAL = re.compile(
    r"(?i)\b(?:need|needs|have|has)\s+to\s+(?:come\s+out|be\s+(?:removed|pulled|explanted|replaced|taken\s+out))\b|"
    r"\b(?:should|must)\s+(?:(?:the|his|her|their|this|that|our)\s+)?[\w' -]{0,40}?\b(?:be\s+)?(?:pulled|removed|"
    r"explanted|taken\s+out|come\s+out)\b"
)
_CARED_FOR = re.compile(
    r"(?i)\b(?:patients?|pts?|infants?|babies|baby|baby's|neonates?|nicu|picu|child|child's|kid|kids|son|daughter|"
    r"resident|nurse|bedside|\d+\s*(?:yo|y/o|year[- ]old))\b"
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
    if _MEDICAL.search(q) and re.search(r"\b(i|my|me)\b", q, re.I):
        return "medical"
    if _CHAT_FIRST.search(q):
        return "off_topic"
    if _OTHER.search(_DEVICE_SENSE.sub(" ", _the_ask(q))):
        return "out_of_scope"  # before advice: "which notified body should we pick" asks for data not held here
    if _ADVICE.search(q) and not (_ABOUT_SEARCH.search(q) and not _PERSON.search(q)):
        return "medical"
    if _REMOVAL.search(q) and _CARED_FOR.search(q) and not _ABOUT_SEARCH.search(q):
        return "medical"
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
