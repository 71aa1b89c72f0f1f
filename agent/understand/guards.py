"""Last checks on a reading before it is searched: a figure is never stated for a question the reading did not
understand (a device found only as words no record's name holds, a field asked for that no search reads, a patient
attribute read as a device)."""

from __future__ import annotations

import re

from .types import Interpretation

__all__ = ["hold_back"]

# words that ask for a field of a record; when no reading used them, a figure would answer something else
_FIELD_WORDS = {
    "fei": "FEI number",
    "address": "address",
    "addresses": "address",
    "phone": "phone number",
    "telephone": "phone number",
    "email": "e-mail address",
    "e-mail": "e-mail address",
    "website": "website",
    "url": "website",
    "price": "price",
    "prices": "price",
    "cost": "cost",
    "revenue": "revenue",
    "sales": "sales",
    "npi": "NPI number",
}
# words about the patient, never a device's name
_PATIENT = re.compile(
    r"(?i)\b(?:female|females|male|males|wom[ae]n|m[ae]n|girls?|boys?|sex|gender|pts|patients?|"
    r"pediatric|paediatric|elderly|age[ds]?)\b"
)


def _names_zero(it: Interpretation) -> str:
    """A device found neither by its product codes nor in the records' own names: the words may be no device at
    all ("termination", "labels"), so a zero would answer a question that was not asked. A term of several words
    that names product codes ("non-invasive blood pressure monitors") is a device: its zero stands."""
    d = it.device
    if d is None or d.found != 0 or it.sides:
        return ""
    if d.path == "names":
        why = "their product descriptions do not hold it"
    elif d.path == "codes" and len(d.words.split()) == 1 and d.codes and all(c.records == 0 for c in d.codes):
        shown = ", ".join(c.code for c in d.codes[:4])
        why = f"the product codes named so ({shown}) are not used by these records, and their own names do not hold it"
    else:
        return ""
    return (
        f'I did not find "{d.words}" among the devices these records name: {why}, so I give no figure for it. '
        f'Name the device as the records spell it, or ask again without "{d.words}" and I will answer without it.'
    )


def _field_unread(it: Interpretation) -> str:
    if it.measure == "lookup" and it.field:
        return ""  # a field the reading does answer ("address, city": the city); the rest is said as not used
    for w in it.unexplained:
        label = _FIELD_WORDS.get(w.lower())
        if label:
            return (
                f"The {label} is not among the fields I read in these records, so I give no figure for it. "
                "I can show the records themselves (their firm, device, dates and numbers)."
            )
    return ""


def _patient_as_device(it: Interpretation) -> str:
    d = it.device
    if d is None or not (_PATIENT.search(d.words) or any(_PATIENT.fullmatch(c.code) for c in d.codes)):
        return ""
    if d.path != "given" and any(c.records for c in d.codes):
        return ""  # a device named so that holds records here ("Condom, Female"): the reading stands
    if d.path == "given" and any(c.records for c in d.codes):
        return ""  # a product code asked for by its letters, with records
    return (
        f'"{d.words}" describes the patient, not a device, and no device of that name holds records here, so I give '
        'no figure. I can count adverse event reports by the patient\'s sex ("reports for female patients"), or '
        "answer for a device you name."
    )


def hold_back(it: Interpretation) -> str:
    """What to say instead of a figure when the reading rests on words that name no device or field ('' when none)."""
    return _names_zero(it) or _field_unread(it) or _patient_as_device(it)
