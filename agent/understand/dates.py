"""Dates said in words: months, quarters, halves, years, ranges, "since 2019", "last 2 years", "this year".

Relative periods are anchored on the data's as-of date (not the computer's clock): "this year" in a mirror whose
events are as of 2025-09-23 is 2025-01-01 to 2025-09-23. A month named without a year is its latest occurrence
on or before the anchor.
"""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass
from datetime import date, timedelta

from .tokens import Tokens

__all__ = ["DateRange", "read_dates", "readable"]

MONTHS = {
    "january": 1,
    "jan": 1,
    "february": 2,
    "feb": 2,
    "march": 3,
    "mar": 3,
    "april": 4,
    "apr": 4,
    "may": 5,
    "june": 6,
    "jun": 6,
    "july": 7,
    "jul": 7,
    "august": 8,
    "aug": 8,
    "september": 9,
    "sept": 9,
    "sep": 9,
    "october": 10,
    "oct": 10,
    "november": 11,
    "nov": 11,
    "december": 12,
    "dec": 12,
}
_AMBIGUOUS_MONTHS = {"may", "march", "mar", "jan", "jun", "dec", "oct", "sep", "aug", "apr", "feb", "nov", "jul"}
ORDINAL = {"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4, "last": 4}
NUMBER = {
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "twelve": 12,
    "a": 1,
}


@dataclass
class DateRange:
    start: date | None
    end: date | None
    words: str
    month_alone: int = 0  # a month said without its year ("in June"): its number, the year chosen by the anchor
    quarter_alone: int = 0  # a quarter said without its year ("Q1 MDR count?"): its number, the year by the anchor


def _year(w: str) -> int | None:
    """A year: 2020, or '09 / 09 as a short form (the century closest before 2050)."""
    if re.fullmatch(r"(19[5-9]\d|20\d\d)", w):
        return int(w)
    if m := re.fullmatch(r"'(\d{2})", w):
        return 2000 + int(m[1]) if int(m[1]) < 50 else 1900 + int(m[1])
    return None


DECADE_WORDS = {
    "fifties": 1950,
    "sixties": 1960,
    "seventies": 1970,
    "eighties": 1980,
    "nineties": 1990,
    "noughties": 2000,
    "aughts": 2000,
    "twenties": 2020,
}
UNITS = {
    "year": "year",
    "years": "year",
    "yr": "year",
    "yrs": "year",
    "y": "year",
    "month": "month",
    "months": "month",
    "mo": "month",
    "mos": "month",
    "mth": "month",
    "mths": "month",
    "day": "day",
    "days": "day",
    "week": "week",
    "weeks": "week",
    "wk": "week",
    "wks": "week",
    "decade": "decade",
    "decades": "decade",
    "quarter": "quarter",
    "quarters": "quarter",
}


def _decade(a: str) -> tuple[date, date] | None:
    """'1990s', '90s', "'90s", 'nineties', '2010s' -> the ten years."""
    y: int | None = None
    if m := re.fullmatch(r"(19[5-9]0|20[0-4]0)s", a):
        y = int(m[1])
    elif m := re.fullmatch(r"'?([5-9]0|[0-4]0)s", a):
        y = (1900 if int(m[1]) >= 50 else 2000) + int(m[1])
    elif a in DECADE_WORDS:
        y = DECADE_WORDS[a]
    return (date(y, 1, 1), date(y + 9, 12, 31)) if y else None


def _quarter_token(a: str, b: str) -> tuple[int, int, int] | None:
    """(year, quarter, tokens) for '2Q2020', '2Q 2020', '4Q20', 'Q4-2020', '1q23'."""
    if m := re.fullmatch(r"([1-4])q[-']?(\d{2}|\d{4})", a) or re.fullmatch(r"q([1-4])[-']?(\d{2}|\d{4})", a):
        y = int(m[2]) if len(m[2]) == 4 else 2000 + int(m[2])
        return (y, int(m[1]), 1) if 1950 <= y <= 2099 else None
    if (m := re.fullmatch(r"([1-4])q", a)) and (yb := _year(b)):
        return yb, int(m[1]), 2
    return None


def _month_end(y: int, m: int) -> date:
    return date(y, m, calendar.monthrange(y, m)[1])


def _quarter(y: int, q: int) -> tuple[date, date]:
    return date(y, 3 * q - 2, 1), _month_end(y, 3 * q)


def _minus_years(d: date, n: int) -> date:
    try:
        return d.replace(year=d.year - n)
    except ValueError:  # 29 February
        return d.replace(year=d.year - n, day=28)


def _minus_months(d: date, n: int) -> date:
    y, m = divmod(d.year * 12 + d.month - 1 - n, 12)
    return date(y, m + 1, min(d.day, calendar.monthrange(y, m + 1)[1]))


# A period: (start, end) of one point expression at tokens i.., and how many tokens it used.
def _day_of(w: str) -> int | None:
    m = re.fullmatch(r"(\d{1,2})(?:st|nd|rd|th)?", w)
    return int(m[1]) if m and 1 <= int(m[1]) <= 31 else None


def _date(y: int, m: int, d: int) -> date | None:
    try:
        return date(y, m, d)
    except ValueError:
        return None


def _day(w: list[str], i: int) -> tuple[date, date, int] | None:
    """One day: '21 April 2020', 'April 21(st) 2020', 'jan 1 2019', '4/27/2020', 'the 3rd of May 2021'."""
    a, b, c = (w[i + k] if i + k < len(w) else "" for k in range(3))
    d4 = w[i + 3] if i + 3 < len(w) else ""
    if m := re.fullmatch(r"(\d{1,2})/(\d{1,2})/(\d{4})", a):
        day = _year(m[3]) and _date(int(m[3]), int(m[1]), int(m[2]))
        return (day, day, 1) if day else None
    if m := re.fullmatch(r"(\d{1,2})\.(\d{1,2})\.(\d{4})", a):  # "27.04.2020", "1.1.2020": day first, as in Europe
        day = _year(m[3]) and _date(int(m[3]), int(m[2]), int(m[1]))
        return (day, day, 1) if day else None
    if a in MONTHS and (n := _day_of(b)) and (y := _year(c)):
        day = _date(y, MONTHS[a], n)
        return (day, day, 3) if day else None
    if (n := _day_of(a)) and b in MONTHS and (y := _year(c) or (_year(d4) if c == "of" else None)):
        day = _date(y, MONTHS[b], n)
        return (day, day, 3 if _year(c) else 4) if day else None
    if (n := _day_of(a)) and b == "of" and c in MONTHS and (y := _year(d4)):
        day = _date(y, MONTHS[c], n)
        return (day, day, 4) if day else None
    return None


def _point(w: list[str], i: int, anchor: date, month_alone: bool = False) -> tuple[date, date, int] | None:
    a = w[i] if i < len(w) else ""
    b = w[i + 1] if i + 1 < len(w) else ""
    c = w[i + 2] if i + 2 < len(w) else ""
    if got := _day(w, i):
        return got
    if dec := _decade(a):
        return dec[0], dec[1], 1
    if qt := _quarter_token(a, b):
        s, e = _quarter(qt[0], qt[1])
        return s, e, qt[2]
    if (m := re.fullmatch(r"([a-z]+)[-–]([a-z]+)", a)) and m[1] in MONTHS and m[2] in MONTHS and (y := _year(b)):
        if MONTHS[m[1]] <= MONTHS[m[2]]:  # "Oct-Dec 2020", "april-june 2020"
            return date(y, MONTHS[m[1]], 1), _month_end(y, MONTHS[m[2]]), 2
    if (m := re.fullmatch(r"(\d{4})-(\d{2})(?:-(\d{2}))?", a)) and _year(m[1]) and 1 <= int(m[2]) <= 12:
        y, mo = int(m[1]), int(m[2])
        if m[3]:
            d = date(y, mo, min(int(m[3]), calendar.monthrange(y, mo)[1]))
            return d, d, 1
        return date(y, mo, 1), _month_end(y, mo), 1
    if (m := re.fullmatch(r"(\d{1,2})[/.](\d{4})", a)) and _year(m[2]) and 1 <= int(m[1]) <= 12:  # 01/2023, 03.2023
        return date(int(m[2]), int(m[1]), 1), _month_end(int(m[2]), int(m[1])), 1
    if a in MONTHS:
        y = _year(b) or (_year(c) if b == "of" else None)
        if y:
            return date(y, MONTHS[a], 1), _month_end(y, MONTHS[a]), 2 if _year(b) else 3
        if month_alone and a not in _AMBIGUOUS_MONTHS:
            y = anchor.year if MONTHS[a] <= anchor.month else anchor.year - 1
            return date(y, MONTHS[a], 1), _month_end(y, MONTHS[a]), 1
    if (m := re.fullmatch(r"q([1-4])", a)) and (y := _year(b) or (_year(c) if b == "of" else None)):
        s, e = _quarter(y, int(m[1]))
        return s, e, 2 if _year(b) else 3
    if (y := _year(a)) and (m := re.fullmatch(r"q([1-4])", b)):
        s, e = _quarter(y, int(m[1]))
        return s, e, 2
    if a in ORDINAL and b == "quarter":
        y = _year(c) or (_year(w[i + 3]) if c == "of" and i + 3 < len(w) else None)
        if y:
            s, e = _quarter(y, ORDINAL[a])
            return s, e, 3 if _year(c) else 4
    if (m := re.fullmatch(r"fy[-']?(\d{2}|\d{4})", a)) or a == "fy" and (m := re.fullmatch(r"(\d{2}|\d{4})", b)):
        y = _year(m[1]) or (2000 + int(m[1]) if len(m[1]) == 2 else None)
        if y:  # FDA's fiscal year: October to September ("FY2012": 2011-10-01 to 2012-09-30)
            return date(y - 1, 10, 1), date(y, 9, 30), 1 if a != "fy" else 2
    if m := re.fullmatch(r"cy[-']?(\d{2}|\d{4})", a):  # "CY20", "CY2020": a calendar year
        y = int(m[1]) if len(m[1]) == 4 else 2000 + int(m[1])
        if 1950 <= y <= 2099:
            return date(y, 1, 1), date(y, 12, 31), 1
    if a == "fiscal" and b == "year" and (y := _year(c)):
        return date(y - 1, 10, 1), date(y, 9, 30), 3
    if (m := re.fullmatch(r"h([12])|([12])h", a)) and (y := _year(b)):  # "H1 2019", "1H 2020"
        return (date(y, 1, 1), date(y, 6, 30), 2) if "1" in a else (date(y, 7, 1), date(y, 12, 31), 2)
    if (y := _year(a)) and re.fullmatch(r"h[12]|[12]h", b):  # "2019 1H", "2020 H2"
        return (date(y, 1, 1), date(y, 6, 30), 2) if "1" in b else (date(y, 7, 1), date(y, 12, 31), 2)
    if m := re.fullmatch(r"([12])h(\d{2})", a):  # "1H20"
        y = 2000 + int(m[2])
        return (date(y, 1, 1), date(y, 6, 30), 1) if m[1] == "1" else (date(y, 7, 1), date(y, 12, 31), 1)
    if a in ("last", "final") and b in ("quarter", "half", "month") and (yu := _of_year(w, i + 2)):
        y, used = yu  # "the last quarter of 2022": its fourth quarter, not the data's last three months
        if b == "quarter":
            s, e = _quarter(y, 4)
        elif b == "half":
            s, e = date(y, 7, 1), date(y, 12, 31)
        else:
            s, e = date(y, 12, 1), date(y, 12, 31)
        return s, e, 2 + used
    if a in ("first", "second") and b == "half":
        y = _year(c) or (_year(w[i + 3]) if c == "of" and i + 3 < len(w) else None)
        if y:
            n = 3 if _year(c) else 4
            return (date(y, 1, 1), date(y, 6, 30), n) if a == "first" else (date(y, 7, 1), date(y, 12, 31), n)
    if y := _year(a):
        return date(y, 1, 1), date(y, 12, 31), 1
    return None


def _count(word: str) -> int | None:
    """A small count in figures or words ("3", "three")."""
    return int(word) if word.isdigit() and 0 < int(word) < 100 else NUMBER.get(word) if word != "a" else None


def _of_year(w: list[str], j: int) -> tuple[int, int] | None:
    """(year, tokens used) for "2022" or "of 2022" at w[j]."""
    if j < len(w) and (y := _year(w[j])):
        return y, 1
    if j + 1 < len(w) and w[j] == "of" and (y := _year(w[j + 1])):
        return y, 2
    return None


def _relative(w: list[str], i: int, anchor: date) -> tuple[date | None, date | None, int] | None:
    a, b = w[i], (w[i + 1] if i + 1 < len(w) else "")
    c = w[i + 2] if i + 2 < len(w) else ""
    k = i + (1 if a == "the" else 0)
    if k + 1 < len(w) and w[k] in ("last", "final") and w[k + 1] in ("quarter", "half", "month") and _of_year(w, k + 2):
        return None  # "the last quarter of 2022": a part of that year (read as a point)
    unit_said = UNITS.get(w[k + 2]) if k + 2 < len(w) else None
    if unit_said in ("month", "quarter") and w[k] in ("last", "final", "first") and (n := _count(w[k + 1])):
        months = n * (3 if UNITS[w[k + 2]] == "quarter" else 1)
        if (yu := _of_year(w, k + 3)) and months <= 12:  # "the last 3 months of 2020", "first 2 quarters of 2021"
            y, used = yu
            if w[k] == "first":
                return date(y, 1, 1), _month_end(y, months), (k - i) + 3 + used
            return date(y, 13 - months, 1), date(y, 12, 31), (k - i) + 3 + used
    if a in ("first", "second") and b == "half" and not _of_year(w, i + 2):
        y = anchor.year if a == "first" or anchor.month >= 7 else anchor.year - 1  # the as-of year's, or the last
        used = 5 if w[i + 2 : i + 5] == ["of", "the", "year"] else 2
        if a == "first":
            return date(y, 1, 1), min(date(y, 6, 30), anchor), used
        return date(y, 7, 1), min(date(y, 12, 31), anchor), used
    if a in ("this", "current") and b == "year" or a in ("ytd",) or (a, b, c) == ("year", "to", "date"):
        return date(anchor.year, 1, 1), anchor, (3 if a == "year" else 1 if a == "ytd" else 2)
    if a in ("this", "current") and b == "month":
        return date(anchor.year, anchor.month, 1), anchor, 2
    if a in ("this", "current") and b == "quarter":
        q = (anchor.month - 1) // 3 + 1  # the as-of date's quarter, up to the as-of date
        return _quarter(anchor.year, q)[0], anchor, 2
    if a in ("last", "previous", "prior") and b == "quarter":
        q = (anchor.month - 1) // 3  # the full quarter before the as-of date's
        y, q = (anchor.year - 1, 4) if q == 0 else (anchor.year, q)
        s, e = _quarter(y, q)
        return s, e, 2
    if a == "last" and b == "year":
        return date(anchor.year - 1, 1, 1), date(anchor.year - 1, 12, 31), 2
    if a == "last" and b == "month":
        s = _minus_months(date(anchor.year, anchor.month, 1), 1)
        return s, _month_end(s.year, s.month), 2
    if a == "since" and (n := _count(b)) and UNITS.get(c) in ("year", "month", "quarter", "week"):
        per = UNITS[c]  # "since 2 years" (German "seit zwei Jahren"): the last 2 years up to the as-of date
        if per == "year":
            return _minus_years(anchor, n), anchor, 3
        if per == "week":
            return anchor - timedelta(days=7 * n), anchor, 3
        return _minus_months(anchor, n * (3 if per == "quarter" else 1)), anchor, 3
    if a in ("last", "past", "previous", "recent", "trailing", "rolling") or (
        a == "the" and b in ("last", "past", "previous", "trailing", "rolling")
    ):
        k = i + (1 if a != "the" else 2)
        n_word = w[k] if k < len(w) else ""
        if n_word == "half" and k + 1 < len(w) and w[k + 1] == "year":
            return _minus_months(anchor, 6), anchor, k - i + 2  # "the past half year": six months
        n = int(n_word) if n_word.isdigit() and 0 < int(n_word) < 100 else NUMBER.get(n_word)
        unit = UNITS.get(w[k + 1] if n and k + 1 < len(w) else n_word)
        used = (k - i) + (2 if n else 1)
        n = n or 1
        half = 3 if w[i + used : i + used + 3] == ["and", "a", "half"] else 0
        if unit == "year" and half:  # "the past year and a half": eighteen months
            return _minus_months(anchor, 12 * n + 6), anchor, used + half
        if unit == "year":
            return _minus_years(anchor, n), anchor, used
        if unit == "month":
            return _minus_months(anchor, n), anchor, used
        if unit == "quarter":
            return _minus_months(anchor, 3 * n), anchor, used
        if unit == "week":
            return anchor - timedelta(days=7 * n), anchor, used
        if unit == "day":
            return anchor - timedelta(days=n), anchor, used
        if unit == "decade":
            return _minus_years(anchor, 10 * n), anchor, used
    return None


_FROM = {"since", "after", "from", "starting", "beginning"}
_TO = {"before", "until", "till", "through", "thru", "prior", "older", "earlier", "by"}
_JOIN = {"and", "to", "through", "thru", "until", "till", "-", "–"}


_ONWARD = (
    ("to", "date"),
    ("onwards",),
    ("onward",),
    ("and", "later"),
    ("or", "later"),
    ("and", "after"),
    ("forward",),
    ("till", "now"),
    ("until", "now"),
    ("to", "now"),
    ("to", "the", "present"),
    ("to", "today"),
    ("on",),
)


_EDGES = {"start": "start", "beginning": "start", "begin": "start", "end": "end", "close": "end"}


def _edge(w: list[str], j: int) -> tuple[str, int]:
    """'the start of' / 'the end of' before a period ("after the start of 2010"): which edge, and its tokens."""
    k = j + (1 if j < len(w) and w[j] == "the" else 0)
    if k + 1 < len(w) and w[k] in _EDGES and w[k + 1] == "of":
        return _EDGES[w[k]], k + 2 - j
    return "", 0


def _year_said(w: list[str], k: int, edge: str) -> tuple[int, str]:
    """'the year' / 'year end' said before a year ("by the year 2021", "by year-end 2021"): the year's token, and
    the edge of the year the words name."""
    n = 1 if k < len(w) and w[k] == "the" else 0
    if k + n + 1 < len(w) and w[k + n] == "year-end" and _year(w[k + n + 1]):
        return k + n + 1, "end"
    if k + n + 1 < len(w) and w[k + n] == "year":
        if n and _year(w[k + n + 1]):  # "by the year 2021"; "by year, 2008 onward" is a grouping, then a year
            return k + n + 1, edge
        if k + n + 2 < len(w) and w[k + n + 1] == "end" and _year(w[k + n + 2]):
            return k + n + 2, "end"
    return k, edge


def _onward(w: list[str], j: int) -> int:
    """Tokens of an open end after a point ("to date", "onwards", "or later"), else 0."""
    for words in _ONWARD:
        if tuple(w[j : j + len(words)]) == words and (words != ("on",) or j + 1 >= len(w) or w[j + 1] in ("?", "")):
            return len(words)
    return 0


def _year_list(w: list[str], i: int) -> tuple[date, date, int] | None:
    """Years listed one after another ("2008, 2009 or 2010"): their span when they follow each other."""
    first = _year(w[i])
    if first is None:
        return None
    years, k = [first], i + 1
    while k < len(w):
        if (y := _year(w[k])) is not None:
            years.append(y)
            k += 1
        elif w[k] in ("and", "or", "&") and k + 1 < len(w) and _year(w[k + 1]):
            k += 1
        else:
            break
    if len(years) < 3 or sorted(years) != list(range(min(years), max(years) + 1)):
        return None
    return date(min(years), 1, 1), date(max(years), 12, 31), k - i


_YMD = re.compile(r"(?<![\d/])((?:19|20)\d\d)/(\d{1,2})(?:/(\d{1,2}))?(?![\d/])")
_YMD_JOIN = re.compile(r"\s*(?:~|〜|-|–|to|through|thru|until|till|and)\s*", re.I)


def _slashed(tokens: Tokens) -> dict[int, tuple[date, date, int]]:
    """Dates typed year first with slashes ("2020/10", "2019/1/1"): (start, end, tokens) at their first token."""
    out: dict[int, tuple[date, date, int]] = {}
    for m in _YMD.finditer(tokens.text):
        y, mo = int(m[1]), int(m[2])
        if not 1 <= mo <= 12:
            continue
        if m[3]:
            day = _date(y, mo, int(m[3]))
            if not day:
                continue
            span = (day, day)
        else:
            span = (date(y, mo, 1), _month_end(y, mo))
        idx = [k for k, t in enumerate(tokens.toks) if t.start >= m.start() and t.end <= m.end()]
        if idx and idx == list(range(idx[0], idx[-1] + 1)) and tokens.toks[idx[-1]].end == m.end():
            out[idx[0]] = (span[0], span[1], len(idx))
    return out


def _slashed_range(tokens: Tokens, i: int, ymd: dict[int, tuple[date, date, int]]) -> tuple[date, date, int] | None:
    """A year-first date at i, or two joined ("2020/10 ~ 2020/12", "between 2019/1/1 and 2019/6/30")."""
    lead = 1 if tokens.lows()[i] in ("between", "from") and i + 1 in ymd else 0
    if i + lead not in ymd:
        return None
    s, e, n = ymd[i + lead]
    j = i + lead + n
    if j < len(tokens.toks):
        gap = tokens.text[tokens.toks[j - 1].end : tokens.toks[j].start]
        if j in ymd and _YMD_JOIN.fullmatch(gap) and ymd[j][1] >= s:
            return s, ymd[j][1], lead + n + ymd[j][2]
        if tokens.lows()[j] in _JOIN and j + 1 in ymd and ymd[j + 1][1] >= s:
            return s, ymd[j + 1][1], lead + n + 1 + ymd[j + 1][2]
    return (s, e, n + lead) if not lead else None


def read_dates(tokens: Tokens, anchor: date) -> DateRange | None:
    """The question's date range (marking the tokens it used), or None. One range per question: the first found."""
    w = tokens.lows()
    ymd = _slashed(tokens)
    for i in range(len(w)):
        if not tokens.free(i):
            continue
        got: tuple[date | None, date | None, int] | None = _slashed_range(tokens, i, ymd) if ymd else None
        got = got or _dashed(tokens, i, anchor) or _before_anchor(w, i, anchor) or _at(w, i, anchor)
        alone = 0
        if not got and (alone := _month_alone(tokens, i)):
            y = anchor.year if alone <= anchor.month else anchor.year - 1  # its latest on or before the anchor
            got = date(y, alone, 1), _month_end(y, alone), 1
        quarter = 0
        if not got and (qa := _quarter_alone(w, i)):
            quarter, used = qa
            y = anchor.year if _quarter(anchor.year, quarter)[0] <= anchor else anchor.year - 1  # its latest start
            got = _quarter(y, quarter)[0], min(_quarter(y, quarter)[1], anchor), used
        if got:
            start, end, n = got
            j = i + n
            k = i - 1 if i > 0 and w[i - 1] in ("in", "during", "for", "of", "on", "within", "over") else i
            if start and end and start > end:
                start, end = end, start
            j += _restated(w, j, start, end)  # "Q4 2020 (October to December)": the same months said again
            j += _anchor_said(w, j)  # "the past 3 years (as of the data export)": the as-of date, said
            if (closed := _closed(w, j, start, end, anchor)) is not None:
                start, end, more = closed  # "after June 19, 2012 and before the end of 2012": one range
                j += more
            tokens.take(k, j, "date")
            return DateRange(start, end, tokens.words(k, j), alone, quarter)
    return None


_ANCHOR_WORDS = re.compile(
    r"(?:\(\s*)?(?:as of|relative to|up to|until|till|to|before|prior to|preceding)?\s*(?:the\s+)?"
    r"(?:data'?s?\s+|dataset'?s?\s+)?(?:export(?:\s+date)?|data\s+cut(?:-?off)?|cut-?off(?:\s+date)?|as[- ]of\s+date)\b"
)


def _anchor_said(w: list[str], j: int) -> int:
    """Tokens at j that name the data's as-of date ("as of the data export", "relative to the export date"): a
    relative period already counts back from it, so they are taken with the period."""
    rest = " ".join(w[j : j + 8])
    m = _ANCHOR_WORDS.match(rest)
    return len(m[0].split()) if m else 0


def _before_anchor(w: list[str], i: int, anchor: date) -> tuple[date | None, date | None, int] | None:
    """'(since|in) (the) two years before the export date', 'the 18 months up to the data cut': a period that counts
    back from the data's as-of date, named as such."""
    k = i
    lead = w[k] if k < len(w) else ""
    if lead in ("since", "in", "during", "within", "over"):
        k += 1
    if k < len(w) and w[k] == "the":
        k += 1
    if k + 2 >= len(w) or not (n := _count(w[k])) or UNITS.get(w[k + 1]) not in ("year", "month"):
        return None
    used = _anchor_said(w, k + 2)
    if not used or w[k + 2] not in ("before", "to", "up", "until", "till", "prior", "preceding"):
        return None
    start = _minus_years(anchor, n) if UNITS[w[k + 1]] == "year" else _minus_months(anchor, n)
    return start, anchor, (k - i) + 2 + used


def _dashed(tokens: Tokens, i: int, anchor: date) -> tuple[date | None, date | None, int] | None:
    """Two points joined by a dash the tokens dropped ("Jan–Dec 2020", "'05–'12"): one range."""
    w = tokens.lows()
    if i + 1 >= len(w) or not re.fullmatch(r"\s*[-–—~]\s*", tokens.text[tokens.toks[i].end : tokens.toks[i + 1].start]):
        return None
    if w[i] in MONTHS and w[i + 1] in MONTHS and (q := _point(w, i + 1, anchor)) and q[2] >= 2:
        if MONTHS[w[i]] <= q[0].month:
            return date(q[0].year, MONTHS[w[i]], 1), q[1], 1 + q[2]
    if (a := _year(w[i])) and (b := _year(w[i + 1])) and b >= a:
        return date(a, 1, 1), date(b, 12, 31), 2
    return None


def _closed(
    w: list[str], j: int, start: date | None, end: date | None, anchor: date
) -> tuple[date | None, date | None, int] | None:
    """A range open at one end closed by the next words ("since 2019 and before 2021", "after 2010 but before 2015",
    "before 2020 and after 2015"): the one range, and the tokens its second half used."""
    if j + 1 >= len(w) or w[j] not in ("and", "but", "yet"):
        return None
    lead = w[j + 1]
    if start and not end and lead in _TO and (other := _at(w, j + 1, anchor)) and other[0] is None and other[1]:
        return (start, other[1], 1 + other[2]) if other[1] >= start else None
    if end and not start and lead in _FROM and (other := _at(w, j + 1, anchor)) and other[1] is None and other[0]:
        return (other[0], end, 1 + other[2]) if other[0] <= end else None
    return None


def _restated(w: list[str], j: int, start: date | None, end: date | None) -> int:
    """Tokens at j that say the months of the period just read again, without a year ("(October to December)",
    "(Oct-Dec)" after Q4 2020): they add nothing, so they are taken with it rather than read as other periods."""
    if not start or not end or start.year != end.year or j >= len(w):
        return 0

    def inside(name: str) -> bool:
        return name in MONTHS and start.month <= MONTHS[name] <= end.month

    if (m := re.fullmatch(r"([a-z]+)[-–]([a-z]+)", w[j])) and inside(m[1]) and inside(m[2]):
        return 1
    if j + 2 < len(w) and inside(w[j]) and w[j + 1] in _JOIN and inside(w[j + 2]):
        nxt = w[j + 3] if j + 3 < len(w) else ""
        return 0 if _year(nxt) or nxt.isdigit() else 3
    return 0


def _quarter_alone(w: list[str], i: int) -> tuple[int, int] | None:
    """A quarter said without its year ("Q1", "the first quarter", "1st qtr"): (its number, tokens used)."""
    nxt = w[i + 1] if i + 1 < len(w) else ""
    if m := re.fullmatch(r"q([1-4])|([1-4])q", w[i]):
        if _year(nxt) or nxt == "of" or re.fullmatch(r"'?\d{2}", nxt):
            return None
        return int(m[1] or m[2]), 1
    if w[i] in ORDINAL and w[i] != "last" and nxt in ("quarter", "qtr"):
        after = w[i + 2] if i + 2 < len(w) else ""
        if _year(after) or after == "of" and i + 3 < len(w) and _year(w[i + 3]):
            return None
        return ORDINAL[w[i]], 2
    return None


# the words before a month said alone that make it a period ("in June", "during March", "and in May?")
_MONTH_LEAD = {"in", "during", "for", "of", "last", "this"}  # "since", "until": ranges, read elsewhere


def _month_alone(tokens: Tokens, i: int) -> int:
    """The month at i when it is said without a year ("cleared in June?", "and in March?"), else 0. A full month
    name is read alone anywhere; one that is also a word or a short form ("may", "march", "Jun") only after "in",
    "during" and the like, and never in capitals (a product code); "May" and "March" only capitalised."""
    w = tokens.lows()
    a = w[i]
    if a not in MONTHS:
        return 0
    nxt = w[i + 1] if i + 1 < len(w) else ""
    if _year(nxt) or nxt.isdigit() or nxt in MONTHS:
        return 0  # a day, a year or a list of months: other readings
    text = tokens.toks[i].text
    lead = w[i - 1] if i > 0 else ""
    if a in _AMBIGUOUS_MONTHS or len(a) <= 4:
        if text.isupper() or lead not in _MONTH_LEAD:
            return 0
        if a in ("may", "march") and not text[:1].isupper():
            return 0  # "what did Medline get in may": a verb as typed in lower case; "in May" is the month
    elif text.isupper() and len(text) > 1 and lead not in _MONTH_LEAD:
        return 0
    return MONTHS[a]


def _partial_day(w: list[str], i: int) -> tuple[int, int, int] | None:
    """A day said without its year: (month, day, tokens used) for 'January 1', 'Jan 1st', '1 Jan', '1st of Jan'."""
    a, b, c = (w[i + k] if i + k < len(w) else "" for k in range(3))
    if a in MONTHS and (n := _day_of(b)):
        return MONTHS[a], n, 2
    if (n := _day_of(a)) and b in MONTHS:
        return MONTHS[b], n, 2
    if (n := _day_of(a)) and b == "of" and c in MONTHS:
        return MONTHS[c], n, 3
    return None


def _one_day(w: list[str], i: int) -> tuple[date, date, int] | None:
    """One whole day at token i, 'the' before it allowed: '31 March 2023', 'the 31st of March 2023', '2023-03-31'."""
    skip = 1 if i < len(w) and w[i] == "the" else 0
    if i + skip < len(w) and (m := re.fullmatch(r"(\d{4})-(\d{2})-(\d{2})", w[i + skip])):
        day = _year(m[1]) and _date(int(m[1]), int(m[2]), int(m[3]))
        return (day, day, skip + 1) if day else None
    got = _day(w, i + skip)
    return (got[0], got[1], got[2] + skip) if got else None


def _day_range(w: list[str], i: int) -> tuple[date, date, int] | None:
    """Two days joined, the first one's year taken from the second when left out; two dates typed 4/1/2020-6/30/2020."""
    k = i + 1 if w[i] in ("between", "from") else i
    if (first := _one_day(w, k)) and k + first[2] < len(w):
        j = k + first[2]
        if re.fullmatch(r"\d{1,2}/\d{1,2}/\d{4}", w[k]) and (q := _one_day(w, j)) and q[0] >= first[0]:
            return first[0], q[1], (j - i) + q[2]  # two typed dates side by side: the dash between them dropped
        if w[j] in _JOIN and (q := _one_day(w, j + 1)) and q[0] >= first[0]:
            return first[0], q[1], (j + 1 - i) + q[2]
        return None
    skip = 1 if k < len(w) and w[k] == "the" else 0
    if (part := _partial_day(w, k + skip)) and k + skip + part[2] < len(w) and w[k + skip + part[2]] in _JOIN:
        j = k + skip + part[2] + 1
        if q := _one_day(w, j):
            start = _date(q[0].year, part[0], part[1])
            if start and start <= q[0]:
                return start, q[1], (j - i) + q[2]
    return None


def _month_list(w: list[str], i: int, anchor: date) -> tuple[date, date, int] | None:
    """Three or more months listed one after another, the year said after the last ("April, May and June 2020")."""
    months, k = [], i
    while k < len(w) and w[k] in MONTHS:
        months.append(MONTHS[w[k]])
        k += 1
        if k + 1 < len(w) and w[k] in ("and", "or", "&") and w[k + 1] in MONTHS:
            k += 1
    if len(months) < 3 or months != list(range(months[0], months[0] + len(months))):
        return None
    q = _point(w, k - 1, anchor)
    if not q or q[2] < 2:
        return None
    return date(q[0].year, months[0], 1), q[1], (k - i) + q[2] - 1


def _at(w: list[str], i: int, anchor: date) -> tuple[date | None, date | None, int] | None:
    a = w[i]
    if rel := _relative(w, i, anchor):
        return rel
    if days := _day_range(w, i):
        return days  # "between January 1 and March 31, 2023", "1 Jan to 31 Mar 2023", "04/01/2020-06/30/2020"
    if (listed := _month_list(w, i, anchor)) is not None:
        return listed  # "April, May and June 2020": the months in a row
    if a in MONTHS and i + 2 < len(w) and w[i + 1] in _JOIN - {"and"} and w[i + 2] in MONTHS:
        q = _point(w, i + 2, anchor)  # "april thru june 2020": the months of the year said last
        if q and q[2] >= 2 and MONTHS[a] <= q[0].month:
            return date(q[0].year, MONTHS[a], 1), q[1], 2 + q[2]
    if a == "between" or a == "from":
        p = _point(w, i + 1, anchor, month_alone=True)
        if p is None and i + 3 < len(w) and w[i + 1] in MONTHS and w[i + 2] in _JOIN and w[i + 3] in MONTHS:
            q = _point(w, i + 3, anchor)  # "between March and May 2020": the months of the year said last
            if q and _year(w[i + 4] if i + 4 < len(w) else ""):
                return date(q[0].year, MONTHS[w[i + 1]], 1), q[1], 3 + q[2]
        if p and i + 1 + p[2] < len(w) and w[i + 1 + p[2]] in _JOIN:
            q = _point(w, i + 2 + p[2], anchor, month_alone=True)
            if q:
                s, e = p[0], q[1]
                if w[i + 1] in MONTHS and not _year(w[i + 2] if i + 2 < len(w) else "") and q[0].year != s.year:
                    s = s.replace(year=q[0].year)  # "between April and June 2020"
                return s, e, 2 + p[2] + q[2]
        if a == "from" and p:
            if n := _onward(w, i + 1 + p[2]):
                return p[0], None, 1 + p[2] + n  # "from 2019 onwards"
            return p[0], p[1], 1 + p[2]  # "reports from Dec 2020": that month
    if a in _FROM:
        edge, skip = _edge(w, i + 1)
        k = i + 1 + skip + (1 if not skip and i + 1 < len(w) and w[i + 1] in ("in", "of", "with") else 0)
        if p := _point(w, k, anchor, month_alone=True):
            after = a == "after" and edge != "start" or edge == "end"  # "after the start of 2010": from its 1st day
            start = p[1] + timedelta(days=1) if after else p[0]
            return start, None, (k - i) + p[2]
    if a in ("through", "thru") and i + 1 < len(w) and w[i + 1] in ("in", "during", "on"):
        return None  # "clearances that came thru in Q2 2020": "came through" is the verb; the period is Q2 2020
    if a in _TO:
        edge, skip = _edge(w, i + 1 + (1 if i + 1 < len(w) and w[i + 1] in ("to", "than") else 0))
        k = i + 1 + (1 if i + 1 < len(w) and w[i + 1] in ("to", "than", "in", "of") else 0)
        if skip:
            k = i + 1 + (1 if w[i + 1] in ("to", "than") else 0) + skip
        k, edge = _year_said(w, k, edge)
        if p := _point(w, k, anchor, month_alone=True):
            before = a in ("before", "prior", "older", "earlier") and edge != "end" or edge == "start"
            end = p[0] - timedelta(days=1) if before else p[1]
            return None, end, (k - i) + p[2]
    if (m := re.fullmatch(r"(pre|post)-?(\d{4})", a)) and (y := _year(m[2])):
        return (None, date(y - 1, 12, 31), 1) if m[1] == "pre" else (date(y + 1, 1, 1), None, 1)  # "pre-2010"
    if (m := re.fullmatch(r"(\d{4})[-–](\d{2}|\d{4})", a)) and _year(m[1]):
        y2 = _year(m[2]) or (_year(m[1][:2] + m[2]) if int(m[2]) > 12 else None)
        if y2 and y2 >= int(m[1]):
            return date(int(m[1]), 1, 1), date(y2, 12, 31), 1  # "2019-2021", "2019-21"
    if p := _point(w, i, anchor):
        j = i + p[2]
        if n := _onward(w, j):
            return p[0], None, p[2] + n  # "2019 to date", "2020 onwards"
        if _year(w[i]) and p[2] == 1 and (listed := _year_list(w, i)):
            return listed  # "2008, 2009 or 2010"
        y_a = _year(w[i])
        y_b = _year(w[j + 1]) if j + 1 < len(w) else None
        if (
            w[i] in MONTHS
            and p[2] >= 2
            and j + 1 < len(w)
            and w[j] in _JOIN - {"and"}
            and w[j + 1] in MONTHS
            and (q := _point(w, j + 1, anchor))
        ):
            return p[0], q[1], p[2] + 1 + q[2]  # "Oct 2022 - Dec 2022", "October 2022 to December 2022"
        if j < len(w) and w[j] in _JOIN and (q := _point(w, j + 1, anchor)) and y_a and y_b:
            if w[j] != "and" or y_b == y_a + 1:
                return p[0], q[1], p[2] + 1 + q[2]  # "2019 to 2021", "2008 - 2009", "2008 and 2009"
            # "2014 and 2020": two periods (compared side by side), not the years between them
        return p
    return None


def readable(start: date | None, end: date | None) -> str:
    """'January 2023', 'Q1 2023', '2020', '2020-04-01 to 2020-05-15', 'since 2019-01-01' (days in ISO form)."""

    def day(d: date) -> str:
        return d.isoformat()

    if start and end:
        if start == end:
            return day(start)
        if start == date(start.year, 1, 1) and end == date(start.year, 12, 31):
            return str(start.year)
        if start.day == 1 and end == _month_end(start.year, start.month):
            return f"{calendar.month_name[start.month]} {start.year}"
        if start.day == 1 and start.month in (1, 4, 7, 10) and end == _month_end(start.year, start.month + 2):
            return f"Q{(start.month + 2) // 3} {start.year}"
        if start.month == 1 and start.day == 1 and end.month == 12 and end.day == 31:
            return f"{start.year} to {end.year}"
        if start.day == 1 and end == _month_end(end.year, end.month) and start <= end:  # whole months
            if start.year == end.year:
                return f"{calendar.month_name[start.month]} to {calendar.month_name[end.month]} {end.year}"
            return f"{calendar.month_name[start.month]} {start.year} to {calendar.month_name[end.month]} {end.year}"
        return f"{day(start)} to {day(end)}"
    if start:
        return f"since {day(start)}"
    if end:
        return f"up to {day(end)}"
    return ""
