"""Last checks on a reading before it is searched: a figure is never stated for a question the reading did not
understand (a device found only as words no record's name holds, a field asked for that no search reads, a patient
attribute read as a device)."""

from __future__ import annotations

import os
import re
from typing import Callable

from .types import Choice, Clarification, DeviceFilter, Interpretation

__all__ = ["hold_back", "weak_device", "weak_zero", "confirm_zero"]

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


_NUMBER_WORDS = set("one two three four five six seven eight nine ten both single double multiple few several".split())
_GRAMMAR = {"the", "and", "for", "with", "from", "reports", "report", "records", "events", "devices", "device"}


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
    if d is None or not (
        _PATIENT.search(d.words)
        or any(_PATIENT.fullmatch(c.code) and c.code.lower() in d.words.lower().split() for c in d.codes)
    ):  # a code typed as such ("MEN"), not one found for other words ("MAN" for "assay")
        return ""
    if d.path != "given" and any(c.records for c in d.codes):
        return ""  # a device named so that holds records here ("Condom, Female"): the reading stands
    if d.path == "given" and any(c.records for c in d.codes):
        return ""  # a product code asked for by its letters, with records
    rest = [w for w in _PATIENT.sub(" ", d.words).split() if len(w) > 2 and w.lower() not in _GRAMMAR]
    if len(rest) >= 2:
        return ""  # "pediatric central venous catheter kit": a device for children, not the patient
    return (
        f'"{d.words}" describes the patient, not a device, and no device of that name holds records here, so I give '
        'no figure. I can count adverse event reports by the patient\'s sex ("reports for female patients"), or '
        "answer for a device you name."
    )


def _name_unread(it: Interpretation) -> str:
    """A name left unexplained ("Abbott PMA approvals in Texas" where no record names Abbott): a figure without it
    would answer for every firm or device, so none is given. Names are words written with a capital (the first word
    too: a word no reading used is no grammar). Lookups are left alone: their record is named otherwise."""
    if it.measure == "lookup":
        return ""  # the record is named otherwise; a qualifier left over ("DiaSorin (Saluggia)") changes no value
    firms = [it.firm] if it.firm else []
    firms += [side.firm for side in it.sides if side.firm]
    read = {w.lower() for f in firms for w in re.findall(r"[\w&'-]+", f"{f.words} {f.name}")}
    names = [
        w
        for w in it.unexplained
        if len(w) >= 3
        and (w[:1].isupper() or _MODEL.fullmatch(w.lower()))  # "670g": a model's name, in any case
        and any(c.isalpha() for c in w)
        and not (len(w) <= 4 and _after_firm(it.question, w, read))  # "Boston Sci": a firm's name shortened
    ]
    names += [
        w
        for w in it.unexplained
        if w not in names
        and len(w) >= 3
        and w.isalpha()
        and w.islower()
        and _in_device_slot(it.question, w)
        and not _after_firm(it.question, w, read)
    ]  # "recalls of blorfic widgets in 2019": the words where the device is named, read as nothing
    if not names:
        return ""
    said = ", ".join(f'"{w}"' for w in names[:3])
    return (
        f"I did not find {said} in these records as a firm, device or place, so I give no figure: a count without "
        f"it would answer for all of them. Spell the name as the records do, or ask again without it."
    )


_MODEL = re.compile(r"(?=[a-z-]*\d)(?=[0-9-]*[a-z])[a-z0-9-]{3,}")  # letters and digits together: "770g", "mmt-332a"


_RECORD_NOUN = (
    r"(?:recalls?|510\s*\(?k\)?s?|reports?|pmas?|mdrs?|events?|clearances?|approvals?|registrations?|records?|"
    r"listings?|complaints?)"
)


def _in_device_slot(question: str, word: str) -> bool:
    """The word is said where a device is named: after "recalls of", "reports on", "510(k)s for" (a word between),
    with no article ("reports on a weekly basis" names a way of counting, not a device)."""
    return not word.endswith("ly") and bool(
        re.search(
            rf"(?i)\b{_RECORD_NOUN}\s+(?:of|for|on|about|involving)\s+(?:[a-z]+\s+)?" + re.escape(word) + r"\b",
            question,
        )
    )


def _after_firm(question: str, word: str, firm_words: set[str]) -> bool:
    m = re.search(r"([\w&'-]+)[\s.,]+" + re.escape(word) + r"\b", question)
    return bool(m and m.group(1).lower() in firm_words)


def _defined_only(it: Interpretation) -> str:
    """One word that names no device and is only mentioned in some codes' definitions ("cardio": an infant
    positioner's definition): a figure for those codes would answer another question."""
    d = it.device
    if d is None or it.sides or len(d.words.split()) != 1 or not d.how.startswith("no product code is named"):
        return ""
    return (
        f'"{d.words}" names no device: only the definitions of {", ".join(d.codes_shown())} mention it, so I give '
        "no figure for it. Name the device or its product code, or ask again without that word."
    )


_REFERENCE = re.compile(r"(?i)\b(those|them|they|these|that|it|its)\b")
_THE_DATA = re.compile(r"(?i)\b(?:data|dataset|database|mirror|download|release|in\s+here)\b")


def _reference_unread(it: Interpretation) -> str:
    """A question that points at something ("whats the reg number for those", "what classification did FDA give
    it") read as the whole dataset: a figure for every record would answer another question, so none is given."""
    if it.narrowed() or it.measure not in ("count", "list", "lookup") or it.field == "latest":
        return ""
    words = [m.lower() for m in _REFERENCE.findall(it.question)]
    if not words or set(words) <= {"it", "its", "that"} and _THE_DATA.search(it.question):
        return ""  # "how many recalls does it hold": the data itself
    return (
        f'You asked about "{words[0]}", but I could not tell which device, firm or record it points to, so I give no '
        "figure: an answer for every record would answer another question. Name it (its product code, firm or "
        "record number) and ask again."
    )


def hold_back(it: Interpretation) -> str:
    """What to say instead of a figure when the reading rests on words that name no device or field ('' when none)."""
    return (
        _quoted_unread(it)
        or _reference_unread(it)
        or _period_unread(it)
        or _names_zero(it)
        or _field_unread(it)
        or _patient_as_device(it)
        or _name_unread(it)
        or _defined_only(it)
    )


# a number said beside a word of time that no reading used ("since 2 years", "within 3 yrs"): a period not read
_TIME_AFTER = r"(?:\s+(?:full|whole|calendar|last|past))?\s+(?:years?|yrs?|months?|mos?|weeks?|days?|quarters?)\b"


def _period_unread(it: Interpretation) -> str:
    """A number of years, months or days left unread ("since 2 years"): a figure for the whole time would answer
    another question, so none is given."""
    left = [w for w in it.unexplained if w.isdigit()]
    hit = next((m for w in left if (m := re.search(rf"(?i)\b{w}{_TIME_AFTER}", it.question))), None)
    if hit is None:
        return ""
    return (
        f'I could not read the period "{hit[0]}" in your question, so I give no figure: a count without it would be '
        'for all the time the records cover. Ask again with the dates ("since 2023-09-23", "in the last 2 years").'
    )


# a quoted phrase: the opening mark after a space or a bracket, the closing one before no letter ("the firm's" is no
# quote)
_QUOTED = re.compile(r"(?:^|(?<=[\s(:]))[\"'‘“]([^\"'’”]{2,60})[\"'’”](?![A-Za-z])")


def _quoted_unread(it: Interpretation) -> str:
    """A word the asker put in quotes ("with 'steril' in the text") that no reading used: the figure would leave
    out the very thing asked about, so none is given."""
    quoted = {w.lower() for q in _QUOTED.findall(it.question) for w in re.findall(r"[\w-]+", q)}
    left = [w for w in it.unexplained if w.lower() in quoted]
    if not left:
        return ""
    said = ", ".join(f'"{w}"' for w in left[:3])
    return (
        f"I could not search for {said}, which you put in quotes, so I give no figure: a count without it would "
        "answer another question. Ask for the device, firm, product code or record that these words name."
    )


_GRAMMAR = {"the", "a", "an", "of", "for", "and", "or", "in", "on", "with", "to", "by", "from", "device", "devices"}
# the kind of a laboratory test, which product-code names say as "System, Test" or not at all ("C-Reactive Protein,
# Antigen, Antiserum, And Control"): no word of the analyte's name
_GRAMMAR |= {"assay", "assays", "test", "tests", "reagent", "reagents", "system", "systems"}


def _stem(w: str) -> str:
    w = w.lower().rstrip("s")
    return w[: max(4, len(w) - 2)]


def _weak_reading(
    it: Interpretation,
    brand: Callable[[list[str]], set[str]] | None = None,
    devices: Callable[[list[str]], set[str]] | None = None,
) -> str:
    """Why the reading is not sure enough for a zero ('' when it is): words read as others, a device found only
    in definitions, device words that no name of its product codes holds, or words no reading used."""
    d = it.device
    fixed = [n for n in it.notes if n.startswith('read "') and '" as "' in n and not _same_letters(n)]
    if fixed:
        return f"I {fixed[0]}, and that may not be what you meant"
    if d is not None and (why := weak_device(d, brand, devices)):
        return why
    left = [w for w in it.unexplained if len(w) >= 3 and any(c.isalpha() for c in w)]
    named = re.findall(r"[a-z]+", " ".join(c.name.lower() for c in d.codes)) if d is not None else []
    left = [w for w in left if not (len(w) >= 5 and any(n.startswith(w.lower()) for n in named))]  # "fluoro"
    if left and brand is not None:  # a firm's name left unused only narrows: the zero without it stays a zero
        left = [w for w in left if w.lower() not in brand([x.lower() for x in left])]
    if left and _asked_of_a_firm(it, left):
        return ""  # "did <firm> ever have a class I recall in our scorecard period?": the frame's words are left
    if left:
        return "I did not use " + ", ".join(f'"{w}"' for w in left[:3]) + " from your question"
    return ""


def _same_letters(note: str) -> bool:
    """Words read as others that differ only by a hyphen, space, case or the last letters of one word ("xray
    fluoroscopy" as "x-ray fluoroscopic"): no doubt."""
    m = re.match(r'read "(.+?)" as "(.+?)"', note)
    if not m:
        return False
    a, b = (re.sub(r"[\W_]+", "", x.lower()) for x in (m[1], m[2]))
    common = len(os.path.commonprefix([a, b]))
    return a == b or (abs(len(a) - len(b)) <= 2 and common >= min(len(a), len(b)) - 1 and common >= 6)


def _asked_of_a_firm(it: Interpretation, left: list[str]) -> bool:
    """A yes/no question about a firm the records name, with a filter or period understood and no device, whose
    words left over are plain lower-case words (no name, no model): they frame the question, so No is said."""
    from ..answer import asks_yes_no

    firm = it.firm
    if firm is None or firm.match == "those" or it.device or it.sides or not (it.filters or it.date_from):
        return False
    if not firm.records and not any(firm.by_dataset.values()):
        return False
    return asks_yes_no(it) and all(w.isalpha() and w.islower() for w in left)


def weak_device(
    d: DeviceFilter,
    brand: Callable[[list[str]], set[str]] | None = None,
    devices: Callable[[list[str]], set[str]] | None = None,
) -> str:
    """Why a device reading is too weak for a zero ('' when it is not): no record names it, it is found only in
    code definitions, or some of its words are in no name of the product codes read for it. `brand(words)` gives
    the words that are a firm's name and no device word ("OEC" in "OEC c-arm"): they only narrow, so a zero of the
    codes stays a zero with them. `devices(words)` gives the words that name devices in the product codes: a name
    searched in the records' own names and made only of such words ("insulin pump") is a device, whose zero stands."""
    if d.path == "names" and not d.found:
        words = re.findall(r"[a-z][a-z0-9-]+", d.words.lower())
        if devices is not None and len(words) >= 2 and not set(words) - devices(words):
            return ""
        return f'no record here names "{d.words}" and those words may be no device at all'
    if d.how.startswith("no product code is named"):
        return f'"{d.words}" names no device: only the definitions of {", ".join(d.codes_shown())} mention it'
    if d.path != "given" and set(re.findall(r"[a-z]+", d.words.lower())) <= _NUMBER_WORDS:
        return f'"{d.words}" is a number, which may be no device at all'  # "comparing two vendors": "two" no device
    if d.path in ("codes", "codes+names") and d.codes:
        names = " ".join(c.name.lower() for c in d.codes)
        spelled = re.fullmatch(r".+?\s\((.+)\)", d.words)  # "c-arm (fluoroscopic x-ray system)": a lay name spelled
        # out, whose spelled words were searched, is checked by them when the codes they found hold records
        said = spelled[1] if spelled else d.words  # (a zero too: the spelled words are still checked below)
        words = [w for w in re.findall(r"[a-z][a-z0-9-]{2,}", said.lower()) if w not in _GRAMMAR]
        flat = names.replace("-", "")  # "xray" is in "X-Ray"
        missing = [w for w in words if _stem(w) not in names and _stem(w).replace("-", "") not in flat]
        if missing and brand is not None:
            firms = brand(missing)
            missing = [w for w in missing if w not in firms]
            words = [w for w in words if w not in firms]
        if missing:
            shown = ", ".join(f'"{w}"' for w in missing[:3])
            return f'{shown} is in no name of the product codes I read for "{d.words}"'

        def holds_all(name: str) -> bool:
            return all(_stem(w) in name or _stem(w).replace("-", "") in name.replace("-", "") for w in words)

        if len(words) >= 2 and not any(holds_all(c.name.lower()) for c in d.codes):
            return f'no product code I read for "{d.words}" has all of its words in its name'  # "process changes"
        short = [w for w in re.findall(r"(?<![\w-])[a-z]{1,2}(?![\w-])", said.lower()) if w not in _GRAMMAR]
        if short and not any(_names_all(c.name.lower(), words, short) for c in d.codes):
            return f'no product code I read for "{d.words}" has all of its words in its name'
    return ""


def _names_all(name: str, words: list[str], short: list[str]) -> bool:
    """Whether one product code's name holds every word of a device said with a one- or two-letter word ("Sub Q"):
    the words spread over several codes' names are no reading of the device."""
    return all(_stem(w) in name for w in words) and all(re.search(rf"\b{w}\b", name) for w in short)


def weak_zero(
    it: Interpretation,
    totals: list[int],
    brand: Callable[[list[str]], set[str]] | None = None,
    devices: Callable[[list[str]], set[str]] | None = None,
) -> str:
    """Why "0" is not said when every search found nothing and the reading is not sure ('' when the zero stands):
    a zero is said only for a question that was understood, or a reading the person confirmed."""
    if it.confirmed or not totals or any(totals) or it.measure == "lookup":
        return ""
    return _weak_reading(it, brand, devices)


def confirm_zero(it: Interpretation, why: str, reading: str) -> Clarification:
    """The question asked back instead of a doubtful zero: the reading as it stands (its zero is then said), or,
    when the doubt is the device and something else narrows the search, the same search without that device.
    `why`: what makes the reading doubtful; `reading`: the reading in words (the "Interpreted as" line's)."""
    choices = [Choice(label=f"yes, this reading: {reading} (no records found)", patch={"confirmed": True})]
    d = it.device
    rest = it.model_copy(update={"device": None})
    if d is not None and d.path != "given" and weak_device(d) and rest.narrowed() and not it.sides:
        choices.append(
            Choice(label=f'the same search without the device "{d.words}"', patch={"device": None, "notes": []})
        )
    return Clarification(
        question=f"I found no records for my reading of your question, but {why}. Did you mean this reading?",
        choices=choices,
    )
