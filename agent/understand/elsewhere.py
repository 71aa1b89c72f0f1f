"""Questions about records that FDA or others publish outside the openFDA device datasets: inspection and audit
findings (Form 483 observations, inspection classifications, MDSAP and ISO 13485 audits and certificates), warning
letters, import alerts, clinical trials, patents, service and maintenance instructions, guidance documents and legal
advice. Each is refused in one or two
sentences that say where it is published and what the records here do hold, never answered with a count of recalls
or registrations that happen to name the firm. A question that asks for the mirror's own records and only mentions
one of these as their reason ("recalls after an FDA inspection") is left to the search."""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["asks_elsewhere", "elsewhere_reply", "asks_regulatory_advice", "REGULATORY_REPLY"]

_HOLDS = (
    "what this mirror does hold (adverse events, recalls and enforcement reports, 510(k), PMA, classification, UDI "
    "and establishment registrations)"
)


@dataclass(frozen=True)
class _Topic:
    pattern: re.Pattern[str]
    reply: str


def _topic(pattern: str, first: str, example: str) -> _Topic:
    """`first`: the sentence that says what is asked for is not here and where it is published."""
    return _Topic(re.compile(pattern, re.I), f"{first} I can show {_HOLDS}, for example {example}.")


# a firm's audit or inspection, not a product's ("visual inspection", "incoming inspection" of a lot)
_AUDIT = (
    r"(?<!visual\s)(?<!incoming\s)(?<!receiving\s)(?<!final\s)(?<!in-process\s)(?<!leak\s)(?<!lot\s)"
    r"(?<!product\s)(?<!device\s)(?<!functional\s)(?<!physical\s)(?<!dimensional\s)(?<!quality\s)"
    r"(?:audits?|inspections?|inspected|audited)"
)
# an inspector of firms, not "inspected by the manufacturer" (a returned device) or by the hospital
_BY_REGULATOR = (
    r"by\s+(?:the\s+|an?\s+)?(?:fda|cdrh|agency|(?:fda\s+)?investigators?|notified\s+bod(?:y|ies)|registrars?|"
    r"auditors?|auditing\s+organi[sz]ations?|bsi|t[uü]v|mdsap|state|health\s+canada|regulators?)\b"
)
# what follows a firm's inspection ("was Horiba inspected in 2022?"), not a unit's ("units were inspected before use")
_FIRM_VISIT = (
    rf"(?=\s*(?:$|[?.!,;]|{_BY_REGULATOR}|in\s+(?:19|20)\d\d|during|last|since|recently|ever|yet|this|"
    r"at\s+(?:their|its|the)\s+(?:site|plant|facility)))"
)
# "483" as a count of records ("firms with 483 recalls"), not the form
_NOT_A_COUNT = (
    r"(?!\s+(?:adverse|events?|mdrs?|recalls?|recalled|clearances?|510|pmas?|records?|devices?|products?|units?|days?|"
    r"approvals?|supplements?|registrations?|listings?|product\s+codes?|firms?|complaints?|injur\w*|deaths?|"
    r"malfunctions?|reports?\s+(?:in|for|from|since|of)|times?)\b)"
)
# a product's paper, not a firm's quality system certificate
_CERT = (
    r"(?<!ce\s)(?<!ce-)(?<!sterility\s)(?<!sterilization\s)(?<!calibration\s)(?<!conformity\s)(?<!analysis\s)"
    r"(?:certificates?|certs?)\b(?!\s+of\s+(?:analysis|conformance|conformity|compliance|sterility|sterilization|"
    r"calibration|irradiation))"
)
# a patent as property; "patent" as the body's word for open ("the catheter was not patent", "patent ductus") is none
_MEDICAL_OPEN = (
    r"(?!\s+(?:foramen|ductus|blue|airways?|lumens?|vessels?|arter\w*|veins?|grafts?|stents?|channels?|ducts?|"
    r"urachus|processus|hemostasis)\b)"
)
_PATENT = (
    r"\bpatents\b|\bpatented\b|\bpatent[\s-]+pending\b|"
    r"\b(?:the|a|an|any|their|its|whose|his|her|our|which|what|us|u\.s\.|uspto|european|eu)\s+patent\b"
    rf"{_MEDICAL_OPEN}|\bpatent\s+(?:on|for|numbers?|holders?|owners?|expir\w*|filings?|applications?|infring\w*|"
    r"portfolios?|search\w*|protection|litigation|disputes?|rights|claims?|family|office|term|cover\w*|"
    r"protect\w*)\b|\b(?:hold|holds|held|own|owns|owned|file|filed|granted|issued|expired)\s+(?:the\s+|a\s+|any\s+)?"
    r"patent\b"
)
_TOPICS = (
    _topic(
        r"\bform\s+483s?\b|\bfda[\s-]+483s?\b|\b483s?\s+(?:observations?|findings?|letters?|forms?|issued|citations?|"
        r"items?|reports?|obs)\b|\b(?:got|get|gets|received?|receiving|issued|had|have|has|any|many|with|their|its)\s+"
        rf"(?:an?\s+|the\s+)?483s?\b{_NOT_A_COUNT}|\b483'?s\b|\bwarning\s+letters?\b|\buntitled\s+letters?\b|\bmdsap\b|"
        rf"\b{_AUDIT}\s+(?:findings?|results?|observations?|outcomes?|reports?|history|classifications?|status|"
        r"scores?|grades?|summar(?:y|ies)|deficienc\w*|nonconformit\w*|citations?)\b|"
        rf"\b(?:findings?|observations?|results?|outcomes?)\s+(?:of|from)\s+(?:[\w&.'-]+\s+){{0,4}}?{_AUDIT}\b|"
        rf"\b(?:what|anything)\s+(?:did|does|do|has|have)\s+(?:[\w&.'-]+\s+){{0,8}}?{_AUDIT}\s+"
        r"(?:[\w&.'-]+\s+){0,6}?(?:find|found|show|reveal|say|conclude|cite|turn\s+up|uncover)\b|"
        rf"\b(?:last|latest|most\s+recent|recent|previous|next)\s+(?:fda\s+|iso\s+|notified\s+body\s+|"
        rf"surveillance\s+|unannounced\s+)?{_AUDIT}\b|\bwhen\s+(?:was|were|did)\s+[^?.]{{0,60}}\b(?:last\s+)?"
        r"(?:inspected|audited)\b|\b(?:fda|cdrh|they|it)\s+(?:inspect|audit)(?:ed|s)?\b|"
        rf"\b(?:been|get|gets|got|was|were)\s+(?:inspected|audited)\b{_FIRM_VISIT}|"
        r"\b(?:was|were|has|have|is|did)\s+(?:(?!(?:the|a|an|this|that|these|those|it|its|their|visually|properly|"
        r"not|never|units?|devices?|lots?|products?|samples?|parts?)\b)[\w&.,'-]+\s+){1,6}?"
        r"(?:(?:ever|been|last|recently|fda)\s+)*"
        rf"(?:inspected|audited)\b{_FIRM_VISIT}|\b(?:inspected|audited)\s+"
        rf"{_BY_REGULATOR}|"
        r"\b(?:official|voluntary|no)\s+action\s+indicated\b|"
        r"\b(?:oai|vai|nai)\s+(?:classifications?|status|inspections?|rating)\b|"
        r"\bestablishment\s+inspection\s+reports?\b|\biso\s*(?:13485|9001|14971)\b|\biso\s+certif\w*|"
        rf"\b{_CERT}|\bcertification\s+(?:body|bodies|status|expir\w*|audits?)\b|"
        r"\bregistrars?\b(?!\s+(?:corp\w*|inc|llc|ltd|company|co)\b)",
        "Inspection and audit results (FDA Form 483 observations, inspection classifications, warning letters, "
        "MDSAP or ISO 13485 audits and certificates) are not in the FDA device datasets this mirror holds: FDA "
        "publishes inspections and many 483s on its Data Dashboard and warning letters on fda.gov, and audit reports "
        "and certificates come from the firm or its auditing organization.",
        '"recalls by Horiba ABX" or "the establishment registration of Netech Corporation"',
    ),
    _topic(
        r"\bimport\s+(?:alerts?|refusals?|detentions?)\b|\bdetained\s+at\s+(?:the\s+)?(?:border|port)\b|"
        r"\bdetention\s+without\s+physical\s+examination\b|\bdwpe\b",
        "Import alerts, detentions and import refusals are not in the FDA device datasets this mirror holds: FDA "
        "publishes them on its Import Alerts and Import Refusals pages.",
        '"recalls by Horiba ABX" or "foreign establishments registered in Germany"',
    ),
    _topic(
        r"\bclinical\s+trials?\b|\bclinicaltrials(?:\.gov)?\b|\bnct\d{8}\b|\btrial\s+(?:results?|enrollment|sites?|"
        r"endpoints?|registry)\b",
        "Clinical trials and their results are not in the FDA device datasets this mirror holds: trials are "
        "registered on ClinicalTrials.gov, and a PMA's summary of safety and effectiveness is on fda.gov.",
        '"adverse events for the 630G insulin pump" or "PMA approvals by Medtronic"',
    ),
    _topic(
        rf"{_PATENT}|\btrademarks?\b|\bintellectual\s+property\b|"
        r"\binfring\w*|\blegal\s+advice\b|\bis\s+it\s+(?:legal|illegal|lawful)\b|\b(?:lawyers?|attorneys?)\b|"
        r"\blegally\s+(?:allowed|required|permitted|obliged|obligated|binding)\b|\b(?:can|may)\s+(?:we|i)\s+legally\b",
        "I do not give legal advice, and patents and trademarks are not in the FDA device datasets this mirror holds: "
        "ask your legal counsel, and search patents and trademarks at the USPTO.",
        '"510(k) clearances for product code LLZ" or "recalls by Arrow International"',
    ),
    _topic(
        r"\b(?:service|servicing|maintenance|technical|repair)\s+manuals?\b|"
        r"\b(?:preventive|preventative|planned|scheduled)\s+maintenance\b|"
        r"\bpm\s+(?:schedules?|intervals?|frequenc(?:y|ies)|procedures?|checklists?|plans?|steps)\b|"
        r"\b(?:maintenance|calibration|servicing|service)\s+(?:intervals?|schedules?|frequenc(?:y|ies)|procedures?|"
        r"steps|checklists?)\b|\belectrical\s+safety\s+(?:tests?|testing|limits?|checks?)\b|"
        r"\bhow\s+often\s+(?:should|must|do|does|to|is|are)\b[^?.]{0,60}?\b(?:calibrat\w*|servic\w*|maintain\w*|"
        r"maintenance|inspect\w*|clean\w*|check(?:ed)?)\b",
        "Maintenance, calibration and service instructions are not in the FDA device datasets this mirror holds: "
        "they are in the manufacturer's service manual and instructions for use, so ask the manufacturer or your "
        "service provider.",
        '"the 510(k) for the Yumizen C1200 CRP" or "adverse events for the 630G insulin pump"',
    ),
    _topic(
        r"\b(?:fda|draft|final|cdrh)\s+guidances?\b|\bguidance\s+documents?\b|\bguidance\s+(?:says?|recommends?)\b|"
        r"\brecognized\s+(?:consensus\s+)?standards?\b|"
        r"\b(?:iso|iec|astm|aami|ansi|en)\s*[-/]?\s*\d{4,5}(?:[-:]\d{1,4})*\b|\b10993(?:-\d+)?\b|"
        r"\b(?:per|under|in|from|by)\s+(?:the\s+)?(?:iso|iec|astm)(?:\s+standards?)?\b|"
        r"\bresidues?\s+(?:limits?|allowed|acceptance)|\bresiduals?\s+(?:limits?|acceptance|allowed|criteria)|"
        r"\b(?:allowable|allowed|permissible|acceptable|max(?:imum)?)\s+(?:[\w-]+\s+){0,4}?residu\w*",
        "FDA guidance documents and consensus standards (ISO, IEC, ASTM) and the limits they set are not in the FDA "
        "device datasets this mirror holds: FDA publishes its guidance and its list of recognized standards in the "
        "Guidance Documents and Recognized Consensus Standards databases on fda.gov, and the standards themselves "
        "come from their publishers.",
        '"the regulation number for product code ETB" or "510(k) clearances for product code LLZ"',
    ),
)
# the mirror's own records, asked for with one of the topics only as their reason or filter
_RECORDS = (
    r"(?:recalls?|recalled|enforcement(?:\s+reports?)?|mdrs?|adverse\s+events?|(?:event\s+)?reports?|"
    r"510\s*\(?k\)?s?|clearances?|pmas?|approvals?|supplements?|udi|gudid|registrations?|listings?)"
)
_LINK = (
    r"(?:due\s+to|because\s+of|after|following|prompted\s+by|citing|cite[sd]?|mention\w*|with|caused\s+by|"
    r"triggered\s+by|resulting\s+from|linked\s+to|tied\s+to|related\s+to|referenc\w*|involving|"
    r"that\s+(?:cite|mention)\w*)"
)
_AS_REASON = re.compile(rf"(?i)\b{_RECORDS}\b[^?.;]{{0,60}}?\b{_LINK}\b[^?.;]{{0,40}}$")
# a time or purpose the question is framed by: "since our last audit", "ahead of the next inspection"
_AS_FRAME = re.compile(
    r"(?i)\b(?:since|before|after|until|till|prior\s+to|ahead\s+of|during)\s+"
    r"(?:(?:our|the|their|its|his|her|my|a|an|this|that)\s+)?$"
)


def _topic_of(question: str) -> _Topic | None:
    q = question or ""
    for t in _TOPICS:
        for m in t.pattern.finditer(q):
            if not (_AS_REASON.search(q[: m.start()]) or _AS_FRAME.search(q[: m.start()])):
                return t
    return None


def asks_elsewhere(question: str) -> bool:
    """True when the question asks for a record published outside these datasets (a 483, an audit, a patent ...)."""
    return _topic_of(question) is not None


def elsewhere_reply(question: str) -> str:
    """The reply that names where the record asked for is published; the inspection reply when none matches."""
    return (_topic_of(question) or _TOPICS[0]).reply


REGULATORY_REPLY = (
    "Which pathway, predicate or submission to use, and whether an event must be reported, are regulatory decisions "
    "for your team that the records do not make: FDA's Device Advice pages and a Pre-Submission meeting with FDA "
    'answer them for your device. What I can show is what FDA decided before, for example "510(k) clearances for '
    'product code LLZ since 2020" or "adverse events for the 630G insulin pump".'
)
# advice asked about a submission or a report, not about a patient: "should we file a 510(k) or a De Novo?"
_REGULATORY = re.compile(
    r"(?i)\b(?:should|shall|must|would\s+you\s+recommend|do\s+you\s+recommend|recommend)\b[^?.;]{0,80}?"
    r"\b(?:510\s*\(?k\)?|de\s*novo|pma|predicates?|pathways?|pre-?subs?|pre-?submissions?|q-?subs?|ide|"
    r"submissions?|mdrs?|medwatch|reportable|report\s+(?:this|it|that|the)\s+(?:complaint|event|incident|malfunction)|"
    r"5-day|30-day|exempt\w*|registration|listing)\b|"
    r"\bwhich\s+(?:regulatory\s+)?(?:pathway|predicate|submission\s+type)\b"
)


# a person's own device or health: medical advice, whatever else is said
_PERSONAL = re.compile(
    r"(?i)\b(?:using|use|with)\s+my\b|\bmy\s+(?:doctor|surgeon|symptoms?|pain|health|heart|child|mother|father|wife|"
    r"husband|daughter|son|kids?|baby|mom|mum|dad|parents?|patient|implant|pacemaker|pump|device)\b"
)


def asks_regulatory_advice(question: str) -> bool:
    """True when the question asks what to submit, which predicate or pathway to use, or whether to report."""
    q = question or ""
    return bool(_REGULATORY.search(q)) and not _PERSONAL.search(q)
