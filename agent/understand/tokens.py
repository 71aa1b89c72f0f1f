"""The question as tokens with positions, and a record of which reading used each token."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

__all__ = ["Tok", "Tokens", "tokenize", "norm"]

_TOKEN = re.compile(
    r"510\s*\(\s*k\s*\)\s*s?"  # 510(k), 510(k)s
    r"|[A-Za-z]{1,3}\d{6}(?:\s*/\s*S\d{3,4})?(?![\w-])"  # K123456, P123456/S001, DEN123456
    r"|Z-\d{4}-\d{4}"  # recall numbers
    r"|\d{4}[-–]\d{4}(?!\d)"  # 2019-2021
    r"|\d{4}-\d{2}(?:-\d{2})?|\d{1,2}/\d{1,2}/\d{4}|\d{1,2}/\d{4}"  # 2023-01, 2023-01-15, 4/27/2020, 01/2023
    r"|(?<=\s)[-–](?=\s)"  # a dash between words: 2019 - 2021
    r"|['’]\d{2}s?(?!\d)"  # '09, '90s
    r"|[^\W_]+(?:[.'’&+-][^\W_]+)*\.?"  # words (U.S., Dräger, e-mail, AT&T, Inc.)
    r"|&",
    re.UNICODE,
)


def norm(text: str) -> str:
    """Lower case, accents folded, 510(k) forms as 510k, trailing periods and possessive 's dropped."""
    t = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower() or text.lower()
    t = re.sub(r"^510\s*\(\s*k\s*\)\s*(s?)$", r"510k\1", t)
    t = t.rstrip(".").replace("’", "'")
    return t[:-2] if t.endswith("'s") and len(t) > 3 else t


@dataclass
class Tok:
    text: str  # as typed
    low: str  # normalised
    start: int
    end: int


@dataclass
class Tokens:
    """The question's tokens; `role[i]` names the reading that used token i (absent: not used yet)."""

    text: str
    toks: list[Tok]
    role: dict[int, str] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.toks)

    def free(self, i: int) -> bool:
        return i not in self.role

    def take(self, i: int, j: int, role: str) -> None:
        for k in range(i, j):
            self.role[k] = role

    def words(self, i: int, j: int) -> str:
        """The question's own text from token i to token j (exclusive)."""
        return self.text[self.toks[i].start : self.toks[j - 1].end] if j > i else ""

    def lows(self, i: int = 0, j: int | None = None) -> list[str]:
        return [t.low for t in self.toks[i:j]]

    def unused(self) -> list[int]:
        return [i for i in range(len(self.toks)) if i not in self.role]


def _cut(m: re.Match[str]) -> tuple[str, int]:
    """A token's text and end; a full stop after a three-capital word ends the sentence ("product code MLO.")."""
    s = m.group(0)
    return (s[:-1], m.end() - 1) if re.fullmatch(r"[A-Z]{3}\.", s) else (s, m.end())


def tokenize(text: str) -> Tokens:
    toks = [Tok(s, norm(s), m.start(), end) for m in _TOKEN.finditer(text) for s, end in [_cut(m)]]
    return Tokens(text, [t for t in toks if t.low])
