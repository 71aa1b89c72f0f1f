"""Questions that ask who a patient or reporter is: the data holds no identities, and none is guessed."""

from __future__ import annotations

import re

__all__ = ["asks_identity", "REPLY"]

REPLY = (
    "Patient names, addresses and contact details are not in the data: adverse event reports and the other FDA "
    "device records are published without them, and I will not guess who a patient is. What I can show is the "
    'report itself, for example "show MDR 16081310": its dates, device, event type and manufacturer.'
)

_WHO = (
    r"(?:patients?|reporters?|persons?|people|wom[ae]n|m[ae]n|(?:fe)?males?|girl|boy|child|children|baby|infant|individuals?|"
    r"victims?|users?|wearers?|recipients?|family|pts?|pt's)"
)
_NOT_PERSON_NOUN = (
    r"(?:problems?|codes?|monitors?|monitoring|deaths?|injur\w*|outcomes?|populations?|lifts?|beds?|sides?|"
    r"care|contact|interface|circuits?|cables?|warmers?|return|positioning|transport|safety|age|sex|weight|"
    r"information\s+fields?|fields?|manuals?)"
)
_ASKED = (
    r"(?:(?:full|first|last|real|legal)\s+)?names?|(?:home\s+|street\s+|mailing\s+|e-?mail\s+)?address(?:es)?|"
    r"phone(?:\s+numbers?)?|telephone(?:\s+numbers?)?|cell(?:\s+numbers?)?|contact\s+(?:details|info\w*)|e-?mails?|"
    r"identit(?:y|ies)|identify|identified|date\s+of\s+birth|birth\s*date|social\s+security(?:\s+numbers?)?|ssn|"
    r"dob|d\.o\.b\.?|phone\s*#|identifiers?|identifying\s+(?:details|info\w*|data)|pii|phi|mrns?|medical\s+record\s+(?:numbers?|nos?\.?|#)|chart\s+numbers?|"
    r"who\s+(?:was|is|were|are)"
)
_LINK = (
    r"(?:\s+(?:and|or|&|of|for|on|behind|in|the|this|that|these|those|their|his|her|a|an|actual|real|individual|"
    r"injured|affected|male|female|elderly|older|young|adult|home|number|numbers|address|name|phone|"
    r"\d+[- ]years?[- ]old|hospital|clinic|facility|town|city|\d+\s*(?:y/?o|yo|yrs?(?:[- ]old)?)))*?"
)
_ASK = re.compile(rf"\b(?:{_ASKED}){_LINK}\s+{_WHO}\b(?!\s+{_NOT_PERSON_NOUN}\b)", re.I)
_OWNED = re.compile(
    rf"\b{_WHO}(?:'s|s')?(?:\s+|_)(?:full\s+|home\s+|real\s+)?(?:name|names|address|addresses|phone|phone\s+number|"
    r"identity|identities|contact\s+details|contact\s+info\w*|date\s+of\s+birth|dob|e-?mail|phone\s*#|mrn|"
    r"identifiers?(?!\s+(?:fields?|columns?)))(?!\w)",
    re.I,
)


# "match the 40 yo female pt on 2032227-2023-391817 to a name", "link report 16081316 to the actual patient": a person
# matched to who they are
_MATCH = re.compile(
    rf"\b(?:match|link|tie|trace)\w*\b[^?.!]{{0,80}}?\b{_WHO}\b[^?.!]{{0,80}}?\bto\s+(?:a|an|their|his|her|the)?\s*"
    r"(?:names?|persons?|identity|real\s+person|individual)\b|"
    rf"\b(?:match|link|tie|trace)\w*\b[^?.!]{{0,80}}?\bto\s+(?:the|a|an)\s+(?:actual|real|individual|named)\s+{_WHO}\b",
    re.I,
)


# "de-anonymise the patient", "work out who these patients are", "contact the people whose pumps broke": a person
# unmasked, named or reached, which no record allows
_UNMASK = re.compile(
    rf"\b(?:de-?anonymi[sz]\w*|re-?identif\w*|unmask\w*|un-?blind\w*)\b|"
    rf"\bwho\s+(?:the|these|those|this|that)\s+(?:\w+\s+)?{_WHO}\s+(?:are|were|is|was)\b|"
    rf"\b{_WHO}\b(?!\s+{_NOT_PERSON_NOUN}\b)[^?.]{{0,80}}?\bby\s+(?:their\s+)?(?:full\s+)?names?\b(?!\s+of\b)|"
    rf"\b(?:contact|reach\s+out\s+to|interview|phone|e-?mail|call|track\s+down|locate|visit|approach)\s+"
    rf"(?:the|these|those|that|this|some|any|a)?\s*(?:\w+\s+){{0,2}}?{_WHO}\b(?!\s+{_NOT_PERSON_NOUN}\b)",
    re.I,
)
# "their names or emails", "his name", "her phone number" asked in a question that speaks of a person
_THEIR = re.compile(
    r"\b(?:their|his|her)\s+(?:full\s+|real\s+|home\s+)?(?:names?|addresses|address|phone\s+numbers?|e-?mails?|"
    r"contact\s+(?:details|info\w*)|identit(?:y|ies))\b",
    re.I,
)
_A_PERSON = re.compile(rf"\b{_WHO}\b|\b(?:him|her|she|he)\b|\bwhose\b", re.I)


def asks_identity(question: str) -> bool:
    """True when the question asks for a patient's or reporter's identity or contact details."""
    q = question or ""
    if _ASK.search(q) or _OWNED.search(q) or _MATCH.search(q) or _UNMASK.search(q):
        return True
    return bool(_THEIR.search(q) and _A_PERSON.search(q))
