"""Field values read from the mirror itself: a serology sample's group ("HIV+", "HIV positive") or type ("serum",
"plasma") said as the data spells it, matched against the values the dataset holds, so such a word is never read as a
device name. Two values of one field said together are compared, one side each ("serum vs plasma")."""

from __future__ import annotations

import re

from ..tools import ToolContext, ToolError, run_tool
from . import vocab
from .tokens import Tokens
from .types import Filter, Interpretation, Side

__all__ = ["read_values", "read_categories"]

# dataset -> (count_by field, filter name in vocab.FILTER_FIELDS, label); values ending in a sign take its words
_FIELDS = {
    "covid19serology": (
        ("group", "group", "sample group {v}"),
        ("type", "stype", "sample type {v}"),
    )
}
_SIGNS = {"+": ("positive", "pos", "positives", "reactive"), "-": ("negative", "neg", "negatives", "nonreactive")}
_AFTER = {"group", "groups", "panel", "cohort", "population"}  # the group's own noun, said after it
_COUNT_NAME = {"covid19serology": "serology", "event": "events"}


def _values(ctx: ToolContext, ds: str, field: str) -> list[str]:
    try:
        r = run_tool(ctx, "count_by", {"dataset": _COUNT_NAME[ds], "field": field, "limit": 100})
    except ToolError:
        return []
    return [str(row.get(field) or "") for row in r.rows if row.get(field)]


def _match(tokens: Tokens, value: str) -> tuple[int, int] | None:
    """Where the question says the value: "HIV+", "HIV positive (panel group)", "serum" / "serums"."""
    lows = tokens.lows()
    sign = value[-1:] if value[-1:] in _SIGNS and len(value) > 1 else ""
    base = (value[:-1] if sign else value).lower()
    words = base.split()
    for k in range(len(lows) - len(words) + 1):
        said = lows[k : k + len(words)]
        if not all(tokens.free(j) for j in range(k, k + len(words))):
            continue
        if said != words and not (len(words) == 1 and said[0] in (base + "s", base + "es")):
            continue
        end = k + len(words)
        if sign:
            after = tokens.text[tokens.toks[end - 1].end : tokens.toks[end - 1].end + 1]
            if after == sign:
                pass  # "HIV+"
            elif end < len(lows) and lows[end] in _SIGNS[sign] and tokens.free(end):
                end += 1  # "HIV positive"
            else:
                continue
            while end < len(lows) and lows[end] in _AFTER and tokens.free(end):
                end += 1  # "HIV positive panel group"
        return k, end
    return None


def read_values(ctx: ToolContext, tokens: Tokens, it: Interpretation, named: list[str]) -> None:
    """Values of the dataset's own fields said in the question, as filters (only in the datasets named); two of one
    field are compared side by side."""
    for ds in named:
        for field, name, label in _FIELDS.get(ds, ()):
            found: list[Filter] = []
            for v in sorted(_values(ctx, ds, field), key=len, reverse=True):
                if v.lower() in ("positives", "negatives", "positive", "negative"):
                    continue  # the sample's known status: antibody truth (vocab)
                span = _match(tokens, v)
                if span is None:
                    continue
                tokens.take(span[0], span[1], "filter")
                found.append(Filter(field=f"word:{name}", value=v, label=label.format(v=v), words=tokens.words(*span)))
            if len(found) > 1 and not it.sides:
                found.sort(key=lambda f: it.question.lower().find(f.words.lower()))
                it.sides = [Side(label=f.value if isinstance(f.value, str) else f.label, filters=[f]) for f in found]
                it.measure = "compare"
            else:
                it.filters += found


# fields whose values are categories a question names in full ("the problem No Display/Image"): dataset ->
# (count_by field, filter name in vocab.FILTER_FIELDS, the field's own nouns, taken with the value)
_CATEGORIES = {
    "event": (
        ("device_problem", "problem", {"problem", "problems", "device", "product", "coded", "code"}),
        ("patient_problem", "pproblem", {"patient", "problem", "problems", "coded", "code", "outcome"}),
    )
}


def read_categories(ctx: ToolContext, tokens: Tokens, it: Interpretation, named: list[str]) -> None:
    """A value of a category field said in full, as the mirror holds it ("reports coded No Display/Image", "MDRs with
    no display / image problems"): a filter on that field, never device words. Values of two words or more only (one
    word, like "Leak", is too often something else); read when the dataset is named or none is."""
    for ds, fields in _CATEGORIES.items():
        if named and ds not in named:
            continue
        for field, name, nouns in fields:
            _category(ctx, tokens, it, ds, field, name, nouns)


def _category(ctx: ToolContext, tokens: Tokens, it: Interpretation, ds: str, field: str, name: str, nouns: set) -> None:
    lows = tokens.lows()
    key = f"category values {ds} {field}"
    if key not in ctx.cache:  # one count of the field's values per open mirror
        ctx.cache[key] = sorted(_values(ctx, ds, field), key=len, reverse=True)
    for v in ctx.cache[key]:
        words = re.findall(r"[a-z0-9]+", v.lower())
        if len(words) < 2:
            continue
        for k in range(len(lows) - len(words) + 1):
            if lows[k : k + len(words)] != words or not all(tokens.free(j) for j in range(k, k + len(words))):
                continue
            start, end = k, k + len(words)
            while start and lows[start - 1] in nouns and tokens.free(start - 1):
                start -= 1  # "the problem No Display/Image"
            while end < len(lows) and lows[end] in nouns and tokens.free(end):
                end += 1  # "no display / image problems"
            tokens.take(start, end, "filter")
            label = vocab.FILTER_FIELDS[name][1].format(v=v)
            it.filters.append(Filter(field=f"word:{name}", value=v, label=label, words=tokens.words(start, end)))
            return
    if name == "problem":  # "the screen showed no image": a device's problem said as an absence
        _absence(tokens, it, name, ctx.cache[key])


def _absence(tokens: Tokens, it: Interpretation, name: str, values: list[str]) -> None:
    """ "the screen showed no image": "no" and one word of exactly one value that says an absence ("No
    Display/Image") is that value, said in other words."""
    lows = tokens.lows()
    for k in range(len(lows) - 1):
        if lows[k] != "no" or not (tokens.free(k) and tokens.free(k + 1)):
            continue
        w = lows[k + 1].removesuffix("s")
        hits = [v for v in values if (ws := re.findall(r"[a-z0-9]+", v.lower()))[:1] == ["no"] and w in ws[1:]]
        if len(hits) == 1 and len(w) >= 4:
            v = hits[0]
            tokens.take(k, k + 2, "filter")
            label = vocab.FILTER_FIELDS[name][1].format(v=v)
            it.filters.append(Filter(field=f"word:{name}", value=v, label=label, words=tokens.words(k, k + 2)))
            return


# the datasets whose records name the firm's city, and the filter that reads it
_CITY = {"pma", "510k", "recall", "enforcement", "registrationlisting"}
_BEFORE_CITY = {"in", "from", "city", "is", "of", "at", "near"}


_ABBREVIATED = {"saint": "st", "sainte": "ste", "fort": "ft", "mount": "mt"}


def _city_form(text: str) -> str:
    """A city's words as records spell them: lower case, no periods, "Saint" as "st"."""
    words = text.lower().replace(".", " ").split()
    return " ".join(_ABBREVIATED.get(w, w) for w in words)


def _is_place_or_firm(ctx: ToolContext, words: str) -> bool:
    from mirror.lookup.lexicon import firm_phrases
    from mirror.lookup.places import COUNTRIES, US_STATES

    low = words.lower()
    if any(low == n.lower() for n in US_STATES.values()) or any(low == c[1].lower() for c in COUNTRIES.values()):
        return True
    hit = firm_phrases(ctx.api, [words]).get(words)
    return bool(hit is not None and hit.records)


def read_cities(ctx: ToolContext, tokens: Tokens, it: Interpretation, named: list[str]) -> None:
    """ "PMA applicants in Minneapolis", "where the applicant city is minneapolis": a word (or two) that the named
    dataset's records hold as the firm's city, and that is no state, country or firm, is a city filter."""
    from ..tools.specs import SEARCHER

    if len(named) != 1 or named[0] not in _CITY:
        return
    ds, lows = named[0], tokens.lows()
    for k in range(len(lows)):
        for n in (2, 1):
            span = range(k, k + n)
            if k + n > len(lows) or not all(tokens.free(j) for j in span):
                continue
            toks = [tokens.toks[j] for j in span]
            if not all(t.text.isalpha() and t.low not in vocab.FUNCTION for t in toks) or len(toks[0].text) < 4:
                continue
            if not (toks[0].text[:1].isupper() or k and lows[k - 1] in _BEFORE_CITY):
                continue
            words = tokens.words(k, k + n)
            if _is_place_or_firm(ctx, words):
                continue
            spelt = _city_form(words)
            try:
                rows = run_tool(ctx, SEARCHER[ds], {"filters": {"city": spelt}, "limit": 3}).rows
            except ToolError:
                continue
            if any(_city_form(str(r.get("city") or "")) == spelt for r in rows):
                # the whole city as the records spell it ("Paul" is not "St. Paul"; "Saint Paul" is "ST PAUL")
                tokens.take(k, k + n, "filter")
                it.filters.append(
                    Filter(field="word:city", value=spelt.upper(), label=f"city {words.title()}", words=words)
                )
                return
