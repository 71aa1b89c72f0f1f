"""Lay names of devices that share no word with the names FDA gives them ("c-arm", "defib"), beside the mirror's
own abbreviations (mirror.lookup.devices.SYNONYMS): each is spelled out as the product-code names say it, and the
codes found are then ranked by the records they hold in the dataset asked about, as for any device word."""

from __future__ import annotations

import re

from mirror.lookup.devices import ABBREVIATIONS

__all__ = ["LAY_WORDS", "lay_key", "spell_out", "joined_lay"]

# lay word (lower case, no hyphen, singular) -> the words of the product-code names
LAY_WORDS = {
    "carm": "fluoroscopic x-ray system",  # a mobile fluoroscopic x-ray unit (OXO, JAA, RCC ...)
    "defib": "defibrillator",
    "defibrilator": "defibrillator",
    "vent": "ventilator",  # clinical shorthand ("7200AE vents"), never the vena cava
    "crp": "c-reactive protein",  # the laboratory's name of the analyte (DCN, DCK ...)
    "hep": "hepatitis",  # "hep B", "hep assays": the disease the product-code names spell out
    "cpap": "positive airway pressure",  # continuous positive airway pressure (QBY, BZD ...)
    "bipap": "positive airway pressure",
    "apap": "positive airway pressure",
    "cgm": "continuous glucose monitor",  # (QBJ, PZE, QCD ...)
}
_ALL = {**ABBREVIATIONS, **LAY_WORDS}


def lay_key(word: str, lay_only: bool = False) -> str:
    """The table's key for a word ("C-arms" -> "carm", "defibs" -> "defib"), or ""."""
    table = LAY_WORDS if lay_only else _ALL
    k = word.lower().replace("-", "").strip(".,;:!?'\"()")
    if k in table:
        return k
    if len(k) > 3 and k.endswith("s") and k[:-1] in table:
        return k[:-1]
    return ""


def joined_lay(words: str) -> str:
    """ "c arm" written as one word, as the table has it."""
    return re.sub(r"(?i)\bc\s+(arms?)\b", r"c-\1", words)


_KIND = {"system", "systems", "unit", "units", "machine", "machines", "device", "devices"}


# analytes said by the laboratory's short name: the kind of test said after one ("CRP assays", "hep tests") is no
# word of the product-code names, which name the analyte ("System, Test, C-Reactive Protein"; "Antigen, Hepatitis B")
_ANALYTES = {"crp", "hep"}
_LAB_KIND = {"test", "tests", "assay", "assays", "reagent", "reagents", "immunoassay", "immunoassays", "ivd", "ivds"}
_LAB_KIND |= {"system", "systems"}


def spell_out(words: str) -> str:
    """The words with each lay name or abbreviation spelled out ("c-arm units": "fluoroscopic x-ray system")."""
    out: list[str] = []
    prev = ""
    for w in joined_lay(words).split():
        if out and w.lower() in _KIND and out[-1].endswith(" system"):
            continue  # the spelled-out name already says what kind
        if prev in _ANALYTES and w.lower() in _LAB_KIND:
            continue  # "CRP test systems": the C-reactive protein codes, whatever kind of test
        prev = lay_key(w) if w.lower() not in _LAB_KIND else prev
        out.append(_ALL[k] if (k := lay_key(w)) else w)
    return " ".join(out)
