"""Firms that share a name but not a legal form ("Dentigen GmbH", "Dentigen Ltd."): distinct companies. A name said
with its legal form is that company's spellings only; a bare name that several such companies share is asked about."""

from __future__ import annotations

import re

from .types import Choice, FirmFilter

__all__ = ["entity", "legal_form", "LEGAL_FORMS"]

# legal forms, each spelling read as one form
LEGAL_FORMS = {
    "inc": "inc",
    "incorporated": "inc",
    "corp": "corp",
    "corporation": "corp",
    "ltd": "ltd",
    "limited": "ltd",
    "co": "co",
    "company": "co",
    "llc": "llc",
    "gmbh": "gmbh",
    "ag": "ag",
    "sa": "sa",
    "spa": "spa",
    "srl": "srl",
    "bv": "bv",
    "nv": "nv",
    "plc": "plc",
    "kk": "kk",
    "pty": "pty",
    "lp": "lp",
    "sas": "sas",
    "ab": "ab",
    "oy": "oy",
    "as": "as",
    "kg": "kg",
    "pte": "pte",
    "pvt": "pvt",
}


def _words(name: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", re.sub(r"(?<=\b[a-z])\.(?=[a-z]\b)", "", name.lower().replace("&", " and ")))


def legal_form(name: str) -> tuple[str, tuple[str, ...]]:
    """(the name without its trailing legal forms, those forms) of a firm name: 'Vascmed Co., Ltd.' ->
    ('vascmed', ('co', 'ltd'))."""
    words = _words(name)
    forms: list[str] = []
    while len(words) > 1 and words[-1] in LEGAL_FORMS:
        forms.insert(0, LEGAL_FORMS[words.pop()])
    return " ".join(words), tuple(forms)


def entity(firm: FirmFilter, out) -> FirmFilter:
    """The firm as said: its own legal form's spellings when one is said; a question (added to `out.questions`)
    when the bare name is shared by companies of several legal forms."""
    base, forms = legal_form(firm.words)
    same = [v for v in firm.variants if legal_form(v)[0] == base]
    if forms:  # restricted only when companies of other legal forms share the name
        own = [v for v in same if legal_form(v)[1] == forms]
        if own and len({legal_form(v)[1] for v in same if legal_form(v)[1]}) > 1:
            return firm.model_copy(update={"variants": own, "match": "entity", "name": own[0]})
        return firm
    groups: dict[tuple, list[str]] = {}
    for v in same:
        groups.setdefault(legal_form(v)[1], []).append(v)
    if len([f for f in groups if f]) < 2:
        return firm
    choices = [
        Choice(
            label=vs[0],
            patch={"firm": firm.model_copy(update={"variants": vs, "match": "entity", "name": vs[0]}).model_dump()},
        )
        for f, vs in sorted(groups.items(), key=lambda x: x[0])
        if f
    ]
    choices.append(Choice(label=f'all the firms named "{firm.words}"', patch={"firm": firm.model_dump()}))
    out.questions.append((f'"{firm.words}" names {len(choices) - 1} companies. Which one do you mean?', choices))
    return firm
