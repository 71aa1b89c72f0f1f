"""Questions dictated by voice, written as speech-to-text writes them: years said as words ("twenty twenty",
"two thousand twelve"), record numbers and product codes spelled out ("k one nine two nine eight eight", "zee dash oh
three five nine dash twenty thirteen", "cue bee why", "p m a"), "five ten k" for 510(k), "q four" for Q4, "class won"
for class I and days said as ordinals ("december thirty first"). They are written as typed before anything reads
them. Only these spoken forms change: a number word in an ordinary sentence ("the two cables", "top five") is kept."""

from __future__ import annotations

import re

__all__ = ["from_speech"]

_UNITS = {
    "zero": 0, "oh": 0, "one": 1, "won": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9,
}  # fmt: skip
_TEENS = {
    "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16,
    "seventeen": 17, "eighteen": 18, "nineteen": 19,
}  # fmt: skip
_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90}
_ORDINALS = {
    "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7, "eighth": 8, "ninth": 9,
    "tenth": 10, "eleventh": 11, "twelfth": 12, "thirteenth": 13, "fourteenth": 14, "fifteenth": 15,
    "sixteenth": 16, "seventeenth": 17, "eighteenth": 18, "nineteenth": 19, "twentieth": 20, "thirtieth": 30,
}  # fmt: skip
# letters said by name; the names that are English words too ("see", "are", "you", "why", "oh") count only beside
# a name that is not
_LETTERS = {
    "ay": "A", "bee": "B", "be": "B", "cee": "C", "see": "C", "dee": "D", "ee": "E", "ef": "F", "eff": "F",
    "gee": "G", "aitch": "H", "eye": "I", "jay": "J", "kay": "K", "el": "L", "ell": "L", "em": "M", "en": "N",
    "oh": "O", "pee": "P", "cue": "Q", "queue": "Q", "ar": "R", "are": "R", "ess": "S", "tee": "T", "you": "U",
    "vee": "V", "ex": "X", "why": "Y", "zee": "Z", "zed": "Z", "eh": "A",
}  # fmt: skip
_PLAIN_WORDS = {"see", "are", "you", "why", "oh", "be", "eye", "el", "en", "ay", "ex"}
_MONTHS = (
    "january|february|march|april|may|june|july|august|september|october|november|december|"
    "jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec"
)
_TEEN = "|".join(_TEENS)
_TEN = "|".join(_TENS)
_UNIT = "one|two|three|four|five|six|seven|eight|nine"
_TWO_DIGITS = rf"(?:(?:{_TEN})(?:[\s-]+(?:{_UNIT}))?|{_TEEN}|oh[\s-]+(?:{_UNIT}))"


def _two(words: str) -> int:
    """The number of two spoken digits: "thirteen", "twenty three", "oh nine"."""
    ws = words.lower().replace("-", " ").split()
    if ws[0] == "oh":
        return _UNITS[ws[1]]
    if ws[0] in _TEENS:
        return _TEENS[ws[0]]
    return _TENS[ws[0]] + (_UNITS[ws[1]] if len(ws) > 1 else 0)


# "twenty twenty three", "nineteen ninety nine", "two thousand twelve", "two thousand and five"
_YEAR = re.compile(
    rf"(?i)\b(?:(nineteen|twenty)[\s-]+({_TWO_DIGITS})|two[\s-]+thousand(?:[\s-]+and)?(?:[\s-]+({_TWO_DIGITS}|"
    rf"{_UNIT}))?)\b"
)


def _year(m: re.Match[str]) -> str:
    if m[1]:
        return str((19 if m[1].lower() == "nineteen" else 20) * 100 + _two(m[2]))
    rest = m[3]
    return str(2000 + (0 if not rest else _UNITS[rest.lower()] if rest.lower() in _UNITS else _two(rest)))


_DIGIT_WORD = rf"(?:zero|oh|{_UNIT}|{_TEEN}|{_TEN})"
_DIGITS = re.compile(rf"(?i)\b{_DIGIT_WORD}(?:[\s-]+{_DIGIT_WORD})+\b")


def _digits(words: str) -> str:
    """Digits said one or two at a time: "one nine two nine eight eight", "one ninety two nine eighty eight"."""
    out, ws, i = "", words.lower().replace("-", " ").split(), 0
    while i < len(ws):
        w = ws[i]
        if w in _TENS and i + 1 < len(ws) and ws[i + 1] in _UNITS and ws[i + 1] not in ("zero", "oh"):
            out += str(_TENS[w] + _UNITS[ws[i + 1]])
            i += 2
            continue
        out += str(_UNITS.get(w, _TEENS.get(w, _TENS.get(w, 0))))
        i += 1
    return out


# a record number said letter and digits: "k one nine two nine eight eight", "kay 192988", "p one five zero zero one
# two", "z zero three five nine 2013", "zee dash oh three five nine dash 2013"
_RECORD = re.compile(
    rf"(?i)\b(k|kay|p|pee|z|zee|zed|den)[\s-]+(?:dash[\s-]+)?((?:{_DIGIT_WORD}|\d+)(?:[\s-]+(?:dash[\s-]+)?"
    rf"(?:{_DIGIT_WORD}|\d+))*)\b"
)


def _record(m: re.Match[str]) -> str:
    if not re.search(rf"(?i)\b{_DIGIT_WORD}\b", m[2]):
        return m[0]  # typed as digits ("z-0053-2020"): left as it is
    letter = {"kay": "K", "pee": "P", "zee": "Z", "zed": "Z", "den": "DEN"}.get(m[1].lower(), m[1].upper())
    parts = re.split(r"(?i)[\s-]+dash[\s-]+", m[2])
    said = [
        "".join(
            p if p.isdigit() else _digits(p) for p in re.findall(rf"(?i){_DIGIT_WORD}(?:[\s-]+{_DIGIT_WORD})*|\d+", x)
        )
        for x in parts
    ]
    digits = "".join(said)
    if letter in ("K", "P", "DEN") and len(digits) == 6:
        return f"{letter}{digits}"
    if letter == "Z" and len(digits) == 8:
        return f"Z-{digits[:4]}-{digits[4:]}"
    return m[0]


_LETTER = r"(?:[a-z]|" + "|".join(_LETTERS) + r")"
# letters said apart, by spaces only ("S.p.A." and "i.e." are written so), never after an apostrophe ("what's a")
_LETTER_RUN = re.compile(rf"(?i)(?<!['’\w.])(?:(?-i:a|i)\s+)?({_LETTER}(?:\s+{_LETTER})+)\b(?![.'’]\w)")


def _letters(m: re.Match[str]) -> str:
    """Letters said one by one ("p m a", "cue bee why", "q b y"): the word they spell, upper case. A run of only
    words that are English too ("see you", "a I") stays as said."""
    lead = m[0][: m.start(1) - m.start(0)]  # "a K number": the article is no letter said
    ws = m[1].split()
    if ws[0] in ("a", "i"):  # lower case: the article or the pronoun
        lead, ws = lead + ws[0] + " ", ws[1:]
    if len(ws) < 2 or all(w.lower() in _PLAIN_WORDS or w.lower() in ("a", "i") for w in ws):
        return m[0]
    if any(len(w) > 1 and w.lower() in _PLAIN_WORDS for w in ws) and not any(
        len(w) > 1 and w.lower() not in _PLAIN_WORDS for w in ws
    ):
        return m[0]
    return lead + "".join(w.upper() if len(w) == 1 else _LETTERS[w.lower()] for w in ws)


def from_speech(text: str) -> str:
    """The question with its spoken forms written as typed; anything else unchanged."""
    out = re.sub(r"(?i)\bfive[\s-]+ten[\s-]+(?:k|kay)\b", "510(k)", text)
    out = re.sub(r"(?i)\bclass[\s-]+won\b", "class I", out)
    out = re.sub(r"(?i)\b(covid)[\s-]+nineteen\b", r"\1-19", out)  # "covid nineteen"
    out = _YEAR.sub(_year, out)
    out = re.sub(r"(?i)\b(?:q|cue|queue)[\s-]+(one|two|three|four|1|2|3|4)\b", lambda m: f"Q{_q(m[1])}", out)
    out = re.sub(
        rf"(?i)\b({_MONTHS})[\s-]+(?:the[\s-]+)?((?:twenty|thirty)[\s-]+(?:first|second|third|{'|'.join(_ORDINALS)})|"
        rf"{'|'.join(_ORDINALS)})\b",
        lambda m: f"{m[1]} {_ordinal(m[2])}",
        out,
    )
    out = _RECORD.sub(_record, out)
    out = _LETTER_RUN.sub(_letters, out)
    return out


def _q(word: str) -> int:
    return int(word) if word.isdigit() else _UNITS[word.lower()]


def _ordinal(words: str) -> str:
    ws = words.lower().replace("-", " ").split()
    if len(ws) == 2:
        return str(_TENS[ws[0]] + _ORDINALS[ws[1]])
    return str(_ORDINALS[ws[0]])
