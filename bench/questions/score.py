"""Scoring one answer payload against a bank family: read the payload (clarification, refusal, figures), then judge it.

Reading the payload is the part to adapt when the assistant's payload changes: `read_payload` uses the typed fields
when they are there (`payload["clarify"]` = {"question", "choices"}, `payload["interpretation"]`, `payload["route"]`)
and falls back to heuristics on the answer text when they are not.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from bank import Expected, Family

__all__ = ["Reading", "Score", "read_payload", "figures", "headline", "judge", "OUTCOMES", "FIGURE_MATCHES", "MONTHS"]

# right: what the family expects (or an also_ok kind); wrong: answered but not the expected figure / value (with
# `wrong_figure` when it states a figure); clarified / refused: did that when it was not expected; no_answer: neither
# a figure nor the value nor a question back; error: the assistant raised.
OUTCOMES = ("right", "wrong", "clarified", "refused", "no_answer", "error")

FIGURE_MATCHES = ("count", "compare")
# The months in English, as answers and the generated questions spell them (templates.py asks with these).
MONTHS = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)
REFUSAL_ROUTES = {"medical", "off_topic", "refused", "refuse", "out_of_scope"}
_REFUSAL_TEXT = re.compile(
    r"(?i)can(?:no|')t (?:give|provide|offer) (?:personal |individual )?medical advice|not (?:able|allowed) to advise|"
    r"ask (?:your|a) (?:doctor|physician|clinician)|outside (?:what|the scope)|only (?:answer|cover|hold)s? [^.]{0,60}"
    r"(?:fda|device|mirror)|not (?:in|part of|covered by) (?:this|the) (?:mirror|data)|"
    r"(?:drug|food|tobacco) data (?:is|are) not|"
    r"i can(?:no|')t help with"
)
_ASK_TEXT = re.compile(
    r"(?i)(which (?:one|of|do you|did you)|did you mean|do you mean|please (?:pick|choose|select)|"
    r"choose one|pick one|could you (?:say|clarify)|can you clarify|what do you mean|meant)"
)
_INTERP_LINE = re.compile(
    r"(?im)^\W*(?:\*\*)?interpreted as\b.*$|"
    r"^\W*(?:\*\*)?(?:words|terms) (?:not used|i did not use|left (?:out|unexplained)).*$"
)
_NOUNS = (
    r"reports?|records?|events?|mdrs?|clearances?|510\(?k\)?s?|decisions?|recalls?|recalled products?|"
    r"supplements?|pmas?|approvals?|originals?|enforcement|devices?|product codes?|codes?|establishments?|"
    r"registrations?|"
    r"listings?|results?|samples?|entries|identifiers?|dis|udis?|firms?|applicants?|notices|"
    r"malfunctions?|injur(?:y|ies)|deaths?|actions?|products?|tests?|evaluations?"
)
# "no" counts as a stated 0 only before a record noun ("no recalls"), not before "no product code for ..." (a miss).
_NO_NOUNS = (
    r"reports?|records?|events?|mdrs?|clearances?|510\(?k\)?s?|decisions?|recalls?|recalled products?|"
    r"supplements?|pmas?|approvals?|originals?|enforcement|establishments?|registrations?|listings?|results?|"
    r"samples?|entries|malfunctions?|injur(?:y|ies)|deaths?"
)
_NUM = r"\d{1,3}(?:,\d{3})+|\d+"
_WORDNUM = {
    w: i
    for i, w in enumerate(
        "zero one two three four five six seven eight nine ten eleven twelve thirteen "
        "fourteen fifteen sixteen seventeen eighteen nineteen twenty".split()
    )
}
_HEAD = re.compile(
    rf"(?i)\b(?:({_NUM}|{'|'.join(_WORDNUM)})\b\s+(?:[\w()'/-]+\s+){{0,4}}?(?=(?:{_NOUNS})\b)|"
    rf"(no|none of the)\s+(?:[\w()'/-]+\s+){{0,2}}?(?=(?:{_NO_NOUNS})\b))"
)
_TAIL = re.compile(r"(?im)^\W*(?:notes?|sources?|provenance|evidence|words not used)\s*:.*", re.S)
_MONTHS = (
    "january|february|march|april|may|june|july|august|september|october|november|december|"
    "jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec"
)
_STRIP = [
    re.compile(p, re.I)
    for p in (
        r"\b\d{4}-\d{2}-\d{2}\b",
        r"\b\d{1,2}/\d{1,2}/\d{2,4}\b",
        r"\b\d{1,2}/\d{4}\b",
        r"\b(?:19|20)\d{6}\b",
        rf"\b(?:{_MONTHS})\.?\s+\d{{1,2}}(?:st|nd|rd|th)?,?\s+\d{{4}}\b",
        rf"\b\d{{1,2}}\s+(?:{_MONTHS})\.?,?\s+\d{{4}}\b",
        rf"\b(?:{_MONTHS})\.?,?\s+(?:of\s+)?\d{{4}}\b",
        r"\bq[1-4]\s*\d{4}\b|\b\d{4}\s*q[1-4]\b|\b[1-4]q\d{2,4}\b",
        r"\b[A-Z]{1,4}-?\d[\w./-]*",
        r"\b\d+[A-Za-z][\w-]*",
        r"\b\d+(?:-\d+)+\b",
        r"\b\d+\.\d+\b",
        r"\b\d+(?:\.\d+)?\s*%",
        r"\bclass\s+(?:iii|ii|i|[123]|u|n|f)\b",
        r"\b\d{7,}\b",
        r"\b(?:19|20)\d{2}s?\b",
        r"\bn\s*=\s*\d+\b",
    )
]


# a zero stated with the assistant's own warning ("I found no records ..., so I do not say that there are none"):
# still a confident wrong figure here (a 0 stands in the answer), counted apart in the totals
HELD_BACK = re.compile(r"(?i)\bI do not say that there (?:are|is|were) none\b")


@dataclass
class Reading:
    """What an answer payload says, read once."""

    text: str
    body: str  # the text without the interpretation / unused-words lines
    clarify: dict | None  # {"question": str, "choices": [str]} when the assistant asked back
    refused: bool
    interpretation: dict | None
    figures: list[int]  # headline figures (a number followed by a record noun), in order
    all_figures: list[int]  # every number left after dates, IDs and codes are removed
    cited: str  # citations and the answer text, for finding record keys


def read_payload(p: dict) -> Reading:
    text = str(p.get("answer") or "")
    body = _INTERP_LINE.sub("", text)
    c = p.get("clarify")
    clar = c if isinstance(c, dict) and (c.get("question") or c.get("choices")) else None  # {} means none
    route = str(p.get("route") or "")
    heads = headline(body)
    refused = (
        bool(p.get("refused"))
        or route in REFUSAL_ROUTES
        or (not clar and not heads and bool(_REFUSAL_TEXT.search(text)))
    )  # an answer with figures is no refusal
    if clar is None and not heads and not refused:
        clar = _clarify_from_text(body)
    cited = text + "\n" + json.dumps(p.get("citations") or [], default=str)
    interp = p.get("interpretation") if isinstance(p.get("interpretation"), dict) else None
    return Reading(
        text=text,
        body=body,
        clarify=clar,
        refused=refused,
        interpretation=interp,
        figures=heads,
        all_figures=figures(body),
        cited=cited,
    )


def _clarify_from_text(body: str) -> dict | None:
    """A question back: a line ending in '?' that asks to choose; choices are the numbered or bulleted lines."""
    asks = [ln.strip() for ln in body.splitlines() if ln.strip().endswith("?") and _ASK_TEXT.search(ln)]
    if not asks:
        return None
    choices = [
        re.sub(r"^\s*(?:\d+[.)]|[-*•])\s*", "", ln).strip()
        for ln in body.splitlines()
        if re.match(r"^\s*(?:\d+[.)]|[-*•])\s+\S", ln)
    ]
    return {"question": asks[0], "choices": choices}


def _strip(text: str) -> str:
    for rx in _STRIP:
        text = rx.sub(" ", text)
    return text


def figures(text: str) -> list[int]:
    """Every count-like number in the text once dates, years, record IDs, codes, classes, decimals and the 510 of
    "510(k)" are removed."""
    text = re.sub(r"\b510\s*\(?k\)?", " ", _strip(text), flags=re.I)
    return [int(n.replace(",", "")) for n in re.findall(rf"(?<![\w.]){_NUM}(?![\w.])", text)]


def headline(text: str) -> list[int]:
    """Numbers stated as counts of records ("5 adverse event reports", "no recalls", "two 510(k)s"), in order."""
    out = []
    for m in _HEAD.finditer(_strip(_TAIL.sub("", text))):
        tok = (m.group(1) or m.group(2)).lower()
        out.append(
            0 if tok in ("no", "none of the") else _WORDNUM[tok] if tok in _WORDNUM else int(tok.replace(",", ""))
        )
    return out


# ------------------------------------------------------------------------------------------------------ judging


@dataclass
class Score:
    outcome: str
    wrong_figure: bool = False  # a confident wrong figure: an answer stating a figure that is not expected
    clarified: bool = False
    refused: bool = False
    figure: int | None = None
    expected: Any = None
    interp_ok: bool | None = None
    detail: str = ""
    choices_found: float | None = None  # share of the expected choices offered (clarify families)
    extra: dict = field(default_factory=dict)


def judge(fam: Family, r: Reading, exp: Expected | None) -> Score:
    ok_kinds = {fam.kind, *fam.also_ok}
    interp_ok = interpretation_agrees(fam, r.interpretation, exp) if r.interpretation is not None else None
    fig = r.figures[0] if r.figures else (r.all_figures[0] if r.all_figures else None)
    if r.refused:
        return Score("right" if "refuse" in ok_kinds else "refused", refused=True, figure=fig, interp_ok=interp_ok)
    if r.clarify is not None:
        found = _choices_found(r, exp) if fam.kind == "clarify" else None
        return Score(
            "right" if "clarify" in ok_kinds else "clarified",
            clarified=True,
            interp_ok=interp_ok,
            choices_found=found,
            detail=str(r.clarify.get("question", ""))[:160],
        )
    if fam.kind == "clarify" and _every_reading(r, exp):  # no question asked, but each reading answered apart
        return Score("right", figure=fig, interp_ok=interp_ok, detail="answered every reading", extra={"every": 1})
    if fam.kind != "answer":  # a clarification or refusal was due and an answer came
        return Score(
            "wrong" if fig is not None else "no_answer",
            wrong_figure=fig is not None,
            figure=fig,
            interp_ok=interp_ok,
            detail=f"expected {fam.kind}",
        )
    assert fam.expect is not None and exp is not None
    ok, detail, want = _answer_ok(fam, r, exp, interp_ok)
    if ok:
        return Score("right", figure=fig, expected=want, interp_ok=interp_ok, detail=detail)
    if fam.expect.match in FIGURE_MATCHES:  # the question asks for a figure: any other figure is a wrong one
        stated = bool(r.figures) or (fam.expect.match == "compare" and fig is not None)
        return Score(
            "wrong" if stated else "no_answer",
            wrong_figure=stated,
            figure=fig,
            expected=want,
            interp_ok=interp_ok,
            detail=detail,
        )
    # a lookup or a list: a stated zero ("0 records match") is a confident wrong figure; other misses are wrong values
    zero = bool(r.figures) and r.figures[0] == 0
    return Score(
        "wrong" if (r.figures or r.body.strip()) else "no_answer",
        wrong_figure=zero,
        figure=fig,
        expected=want,
        interp_ok=interp_ok,
        detail=detail or "expected value not in the answer",
    )


# a stated "no": "No: 0 enforcement reports ...", "... implant no (N)", "not an implant", "false"
_SAID_NO = re.compile(r"(?im)^\W*no\b|\bno\s*[:;]|\bfalse\b|: *n\b|\bnot? (?:an? )?implant|\bimplant\s+no\b")


def _answer_ok(fam: Family, r: Reading, exp: Expected, interp_ok: bool | None) -> tuple[bool, str, Any]:
    m = fam.expect.match
    if m == "count":
        want = [int(exp.value or 0)] + ([int(exp.also_rows[0][0] or 0)] if exp.also_rows else [])
        got = r.figures[0] if r.figures else None
        if got not in want:
            return False, f"headline figure {got}, expected {want[0]}", want[0]
        if got == 0 and not _understood(fam, r, interp_ok):
            return (
                False,
                "said 0 without showing it understood the question (" + ", ".join(fam.expect.mentions) + ")",
                0,
            )
        return True, "", want[0]
    if m == "compare":
        want = [int(row[1] or 0) for row in exp.rows]
        have = r.all_figures
        miss = [w for w in want if w not in have]
        return (not miss, f"missing side figures {miss}" if miss else "", want)
    if m in ("keys", "top"):
        rows = exp.rows[:1] if m == "top" else exp.rows[:10]
        hay = f" {_norm(r.cited)} "
        miss = [
            row[0]
            for row in rows
            if not any(_words_in(str(c), hay, beside_key=i > 0) for i, c in enumerate(row) if c is not None)
        ]
        if not rows:
            return (bool(r.figures) and r.figures[0] == 0, "expected no records", [])
        if miss:
            return (False, f"not cited: {miss[:3]}", [row[0] for row in rows])
        if m == "top" and not _ranked_first(r.body, exp.rows):
            return (False, "the top is not named before the runners-up", [row[0] for row in rows])
        return (True, "", [row[0] for row in rows])
    row = exp.rows[0] if exp.rows else ()
    cands = [c for c in row if c not in (None, "")]
    if m == "date":
        return (any(_date_in(c, r.body) for c in cands), "", str(cands[0]) if cands else None)
    if m == "class":
        return (any(_class_in(str(c), r.body) for c in cands), "", cands[0] if cands else None)
    if m == "yesno":
        yes = str(cands[0]).strip().lower() in ("y", "yes", "true", "1") if cands else False
        own = re.sub(r"[\"“][^\"”\n]*[\"”]", " ", r.body)  # the answer's own words: a quoted "yes" is the user's
        said_no = bool(_SAID_NO.search(own))
        said_yes = bool(re.search(r"(?i)\byes\b|\btrue\b|: *y\b", own)) and not said_no
        # "no" must be said, as "yes" must: an answer that says neither (a hedge, a question about a word) is no answer
        ok = said_yes if yes else (said_no and not said_yes)
        return (
            ok,
            "" if ok else "neither yes nor no stated" if not (said_yes or said_no) else "",
            "yes" if yes else "no",
        )
    body = f" {_norm(r.body)} "
    return (any(_words_in(str(c), body) for c in cands), "", cands[0] if cands else None)


def _ranked_first(body: str, rows: tuple) -> bool:
    """A ranking names the top before the runners-up (the expected SQL's next rows): a list of records that happens
    to hold the top's name further down does not answer "which is the top"."""
    hay = f" {_norm(body)} "
    top = hay.find(f" {_norm(str(rows[0][0]))} ")
    if top < 0:
        return True  # cited in the citations only: the body's order says nothing
    after = [hay.find(f" {_norm(str(row[0]))} ") for row in rows[1:3] if _norm(str(row[0]))]
    return all(p < 0 or p > top for p in after)


def _words_in(value: str, hay: str, *, beside_key: bool = False) -> bool:
    """Whole words only: the state "CA" is not found in "medical". A column beside the key (beside_key) is never a bare
    count: a "3" beside a top's name is found in any answer. The key itself (a year of a trend) and a value asked for
    may be a number."""
    v = _norm(value)
    if beside_key and re.fullmatch(
        r"\d{1,4}", v
    ):  # a count or a year beside the key cites nothing: any answer holds such numbers
        return False
    return bool(v) and f" {v} " in hay


def _understood(fam: Family, r: Reading, interp_ok: bool | None) -> bool:
    if interp_ok is not None:
        return interp_ok
    return all(re.search(rx, r.text) for rx in fam.expect.mentions)


def _choices_found(r: Reading, exp: Expected | None) -> float | None:
    if not exp or not exp.rows:
        return None
    hay = _norm(" ".join(map(str, r.clarify.get("choices") or [])) + " " + r.text)
    return sum(1 for row in exp.rows if _norm(str(row[0])) in hay) / len(exp.rows)


_NOT_SEARCHED = re.compile(r"\b(have not searched|did not search|did not understand)\b", re.I)


def _every_reading(r: Reading, exp: Expected | None) -> bool:
    """An answer to an ambiguous question that names every expected choice (two or more) in its body answers each
    reading apart, e.g. both cables of a firm with each one's model number: not a wrong figure, as asking is not."""
    if r.refused or not exp or not exp.rows or len(exp.rows) < 2 or _NOT_SEARCHED.search(r.body):
        return False  # a reply that did not search names the datasets in its help, not the readings
    hay = f" {_norm(r.body)} "
    return all(f" {_norm(str(row[0]))} " in hay for row in exp.rows)


_SUFFIX = re.compile(
    r"\b(inc|incorporated|corp|corporation|co|company|llc|ltd|limited|lp|l p|sa|s a|s p a|spa|gmbh|"
    r"plc|ag|nv|bv)\b"
)


def _norm(s: str) -> str:
    """Lowercase words only, corporate suffixes dropped: 'MEDTRONIC MINIMED, INC.' -> 'medtronic minimed'."""
    s = re.sub(r"[^0-9a-z]+", " ", s.lower())
    return " ".join(_SUFFIX.sub(" ", s).split())


def _date_in(v: Any, text: str) -> bool:
    d = v if isinstance(v, date) else date.fromisoformat(str(v)[:10])
    m, mon = MONTHS[d.month - 1], MONTHS[d.month - 1][:3]
    forms = [
        d.isoformat(),
        d.strftime("%Y%m%d"),
        f"{d.month}/{d.day}/{d.year}",
        f"{d.month:02d}/{d.day:02d}/{d.year}",
        f"{m} {d.day}, {d.year}",
        f"{d.day} {m} {d.year}",
        f"{mon} {d.day}, {d.year}",
        f"{d.day} {mon} {d.year}",
        f"{mon}. {d.day}, {d.year}",
    ]
    low = text.lower()
    return any(f.lower() in low for f in forms)


def _class_in(v: str, text: str) -> bool:
    s = v.strip().lower().removeprefix("class").strip()
    digit = {"i": "1", "ii": "2", "iii": "3", "1": "1", "2": "2", "3": "3"}.get(s)
    if not digit:
        return False
    roman = {"1": "i", "2": "ii", "3": "iii"}[digit]
    return bool(re.search(rf"(?i)\bclass\s*(?:{roman}|{digit})\b", text))


# ------------------------------------------------------------------------------------------- interpretation


def interpretation_agrees(fam: Family, got: dict | None, exp: Expected | None) -> bool | None:
    """Loose agreement of the payload's interpretation with the family's: datasets, date range, filter values."""
    want = fam.interpretation
    if got is None or want is None:
        return None
    blob = json.dumps(got, default=str).lower()
    if want.datasets and not all(ds.lower() in blob for ds in want.datasets):
        return False
    if exp is not None and exp.date_from and exp.date_to:
        # "since 2019" read with an open end is the same range as one that ends on the export date
        open_end = want.dates is not None and want.dates.end == "as_of" and got.get("date_to", "") is None
        if exp.date_from.isoformat() not in blob or not (open_end or exp.date_to.isoformat() in blob):
            return False
    for v in want.filters.values():
        vals = v if isinstance(v, list) else [v]
        for x in vals:
            words = [w for w in _norm(str(x)).split() if len(w) > 2 and w not in ("not",)]
            if words and not any(w in _norm(blob) for w in words):
                return False
    return True
