"""Places in a question: countries, US states and regions by name or code, nationalities ("Italian"), and places
excluded ("outside the US", "non-US", "foreign")."""

from __future__ import annotations

import re

from mirror.lookup.places import COUNTRIES, US_STATES, read_place

from .tokens import Tokens
from .types import Choice, PlaceFilter

__all__ = ["read_places", "PLACE_CUES", "DEMONYMS", "FOREIGN"]

PLACE_CUES = {
    "in",
    "from",
    "based",
    "located",
    "registered",
    "state",
    "states",
    "country",
    "countries",
    "=",
    "vs",
    "versus",
    "or",
    "and",
}
COUNTRY_CUES = {"country", "countries", "nation"}
# nationalities -> ISO country code (a word before a dataset or firm noun: "Italian registrations")
DEMONYMS = {
    "french": "FR",
    "italian": "IT",
    "german": "DE",
    "japanese": "JP",
    "chinese": "CN",
    "canadian": "CA",
    "british": "GB",
    "irish": "IE",
    "swiss": "CH",
    "dutch": "NL",
    "swedish": "SE",
    "danish": "DK",
    "korean": "KR",
    "israeli": "IL",
    "indian": "IN",
    "mexican": "MX",
    "brazilian": "BR",
    "australian": "AU",
    "spanish": "ES",
    "belgian": "BE",
    "austrian": "AT",
    "finnish": "FI",
    "norwegian": "NO",
    "polish": "PL",
    "taiwanese": "TW",
    "singaporean": "SG",
    "czech": "CZ",
    "hungarian": "HU",
    "portuguese": "PT",
    "turkish": "TR",
    "malaysian": "MY",
    "thai": "TH",
    "vietnamese": "VN",
    "pakistani": "PK",
    "puerto rican": "PR",
    "american": "US",
}
# the ask after a comma that ends a question's filters ("Registrations for IT, how many?")
ASK_TAIL = r"\s*,\s*(?:how\s+many|any|total|count|please)\b[^,;.]*$"
FOREIGN = {"foreign", "abroad", "overseas", "non-us", "non-u.s", "ex-us", "non-usa", "non-american", "offshore"}
NEGATION = {"outside", "excluding", "except", "non", "ex", "not"}  # "outside (of) (the) US", "excluding Germany"
_SKIP = {"of", "the", "in", "from", "based", "located"}


def _filter(words: str, code: str, kind: str, exclude: bool = False) -> PlaceFilter:
    if kind == "region":
        from mirror.lookup.places import REGIONS

        return PlaceFilter(
            words=words, kind=kind, code=code, name="the " + REGIONS[code][0], countries=list(REGIONS[code][1])
        )
    if kind == "us_state":
        name = US_STATES[code]
    else:
        name = COUNTRIES[code][1] if code in COUNTRIES else code
    countries = [code] if kind == "country" else []
    name = "the United States" if code == "US" and exclude else name
    return PlaceFilter(
        words=words,
        kind=kind,
        code=code,
        name=("outside " if exclude else "") + name,
        countries=countries,
        exclude=exclude,
    )


def _cued(lows: list[str], i: int, cues: set[str]) -> bool:
    return any(lows[k] in cues for k in range(max(0, i - 2), i))


def _content_after(tokens: Tokens, j: int, skip: set[str]) -> bool:
    return j < len(tokens.toks) and tokens.free(j) and tokens.toks[j].low not in skip and tokens.toks[j].low.isalpha()


def _code(tokens: Tokens, i: int, skip: set[str]) -> PlaceFilter | None:
    """A two-letter code typed in capitals: a US state (CA is California) unless a country is said; never when a
    name follows it ("CT scanner", "GE Healthcare")."""
    t, lows = tokens.toks[i], tokens.lows()
    if t.text in ("US", "USA", "U.S.", "U.S", "U.S.A."):
        return _filter(t.text, "US", "country")
    if not (t.text.isupper() and len(t.text) == 2 and t.text.isalpha()):
        return None
    cued = _cued(lows, i, PLACE_CUES)
    if _content_after(tokens, i + 1, skip) and not cued:
        return None
    as_country = _cued(lows, i, COUNTRY_CUES)
    if t.text in US_STATES and not as_country and t.text not in ("US",):
        return _filter(t.text, t.text, "us_state")
    last_for = i and lows[i - 1] == "for" and not any(any(c.isalnum() for c in x.text) for x in tokens.toks[i + 1 :])
    last_for = last_for or bool(i and lows[i - 1] == "for" and re.search(r"\bfor\s+IT" + ASK_TAIL, tokens.text))
    if t.text == "IT" and last_for:
        as_country = True  # "registrations for IT": Italy in capitals at the end, not the pronoun
    if t.text in COUNTRIES and (cued or as_country):
        return _filter(t.text, t.text, "country")
    return None


LEGAL_FORMS = {
    "co",
    "inc",
    "ltd",
    "llc",
    "corp",
    "gmbh",
    "sa",
    "ag",
    "spa",
    "srl",
    "plc",
    "lp",
    "bv",
    "nv",
    "pty",
    "kg",
    "limited",
    "incorporated",
    "corporation",
    "company",
    "sas",
    "ab",
    "oy",
    "as",
}


def _name(tokens: Tokens, i: int, j: int, reach: dict[str, int]) -> PlaceFilter | list[PlaceFilter] | None:
    """A place named in words: capitalised or cued, or a whole name in lower case that is no device word."""
    text = tokens.words(i, j)
    lows = tokens.lows(i, j)
    if any(w in ("or", "and", "vs", "versus", "to") for w in lows) or not all(
        w.replace("-", "").isalpha() for w in lows
    ):
        return None
    if len(text) <= 2:
        return None  # codes are read by _code ("GE", "Tz" are firms' words)
    if any(w.strip(".,") in LEGAL_FORMS for w in lows):
        return None  # "Vascmed Co., Ltd.": a firm's legal form, never Colorado
    capital = text[:1].isupper() and (i > 0 or len(lows) > 1 or text.isupper())
    plain = len(text) >= 4 and not any(reach.get(w, 0) for w in lows)
    if not (capital or plain or _cued(tokens.lows(), i, PLACE_CUES)):
        return None
    try:
        reading = read_place(text)
    except ValueError:
        return None
    if not reading.places or reading.suggestions:
        return None
    whole = [p for p in reading.places if p.name.lower() == text.lower() or p.code.lower() == text.lower()]
    if not whole and not capital:
        return None  # lower-case words must be the place's whole name
    if not whole and len(lows) > 1:
        named = [p for p in reading.places if all(w in f"{p.name} {p.code}".lower() for w in lows)]
        if not named:
            return None  # "SVS (Spiration) in": words of several things, not a place's name
        reading.places = named
    found = [
        PlaceFilter(words=text, kind=p.kind, code=p.code, name=p.name, countries=list(p.countries))
        for p in (whole or reading.places)
    ]
    return found[0] if len(found) == 1 else found


def _excluded(tokens: Tokens, i: int) -> tuple[int, PlaceFilter] | None:
    """'foreign', 'non-US', 'overseas', 'outside (of) (the) US / Germany', 'international' before a noun."""
    lows = tokens.lows()
    w = lows[i]
    if w in FOREIGN or (w == "international" and (i == 0 or not tokens.free(i - 1)) and tokens.toks[i].text.islower()):
        return 1, _filter(tokens.toks[i].text, "US", "country", exclude=True)
    if w.startswith("non-") and (p := _lookup(w[4:])):
        return 1, _filter(tokens.toks[i].text, p[0], p[1], exclude=True)
    if w in NEGATION:
        k = i + 1
        while k < len(lows) and lows[k] in _SKIP:
            k += 1
        for n in (3, 2, 1):
            if k + n <= len(lows) and (p := _lookup(tokens.words(k, k + n))):
                return k + n - i, _filter(tokens.words(i, k + n), p[0], p[1], exclude=True)
        if k < len(lows) and lows[k] in DEMONYMS:  # "not American", "non Japanese"
            return k + 1 - i, _filter(tokens.words(i, k + 1), DEMONYMS[lows[k]], "country", exclude=True)
    return None


_US_NOUNS = {
    "applicant",
    "applicants",
    "firm",
    "firms",
    "company",
    "companies",
    "manufacturer",
    "manufacturers",
    "maker",
    "makers",
    "sponsor",
    "sponsors",
    "submitter",
    "submitters",
    "establishment",
    "establishments",
    "recalls",
    "clearances",
    "510ks",
    "510k",
    "submissions",
    "only",
    "based",
    "vs",
    "versus",
}


_EU_WORDS = {"eu", "eu-based", "european"}


def _us_near(lows: list[str]) -> bool:
    """A lower-case "eu" beside the US or another place word: the European Union ("eu vs us applicants")."""
    return bool({"us", "usa", "american", "united", "applicants", "manufacturers", "firms", "companies"} & set(lows))


def _us_said(tokens: Tokens, i: int) -> bool:
    """'domestic', or 'us' / 'usa' typed in lower case where it can only be the country: before a noun of firms or
    records ("us applicants", "usa vs ex-us"), never the pronoun ("send us")."""
    w = tokens.lows()[i]
    nxt = tokens.lows()[i + 1] if i + 1 < len(tokens) else ""
    if w == "domestic":
        return True
    if w in ("usa", "u.s") and tokens.toks[i].text.islower():
        return True
    after = tokens.lows()[i + 2] if i + 2 < len(tokens) else ""
    return w == "us" and tokens.toks[i].text == "us" and (nxt in _US_NOUNS or nxt in ("and", "or") and after in FOREIGN)


def _based(tokens: Tokens, i: int) -> tuple[int, PlaceFilter] | None:
    """'Texas-based', 'New York-based', 'Washington based': a place the firm is based in (tokens used, filter)."""
    lows = tokens.lows()
    if lows[i].endswith("-based") and len(lows[i]) > 6:
        end, cut = i, len(tokens.toks[i].text) - 6
    elif lows[i] == "based" and i > 0 and tokens.free(i - 1):
        end, cut = i - 1, len(tokens.toks[i - 1].text)
    else:
        return None
    for n in (3, 2, 1):
        start = end - n + 1
        if start < 0 or not all(tokens.free(k) for k in range(start, end + 1)):
            continue
        text = tokens.text[tokens.toks[start].start : tokens.toks[end].start + cut]
        if (p := _lookup(text)) is not None:
            return i - start + 1, _filter(text, p[0], p[1])
    return None


def _lookup(text: str) -> tuple[str, str] | None:
    """(code, kind) of one country or US state named exactly (US, USA, United States, Germany, Texas)."""
    up = text.upper().replace(".", "")
    if up in ("US", "USA", "UNITED STATES", "AMERICA", "THE US", "UNITED STATES OF AMERICA"):
        return "US", "country"
    try:
        places = read_place(text).places
    except ValueError:
        return None
    exact = [p for p in places if p.kind != "region" and (p.name.lower() == text.lower() or p.code == up)]
    return (exact[0].code, exact[0].kind) if len(exact) == 1 else None


def read_places(tokens: Tokens, skip: set[str], reach: dict[str, int]) -> tuple[list[PlaceFilter], list]:
    """Places in the free tokens (marking them), and questions to ask about ambiguous ones."""
    places: list[tuple[int, PlaceFilter]] = []
    questions: list[tuple[str, list[Choice]]] = []
    lows = tokens.lows()
    for i in range(len(lows)):
        if tokens.free(i) and (based := _based(tokens, i)):
            tokens.take(i - based[0] + 1, i + 1, "place")
            places.append((i - based[0] + 1, based[1]))
    for i in range(len(lows)):
        if tokens.free(i) and (ex := _excluded(tokens, i)):
            tokens.take(i, i + ex[0], "place")
            places.append((i, ex[1]))
        elif tokens.free(i) and _us_said(tokens, i):
            tokens.take(i, i + 1, "place")
            places.append((i, _filter(tokens.toks[i].text, "US", "country")))
        elif (
            tokens.free(i)
            and lows[i] in _EU_WORDS
            and (lows[i] != "eu" or tokens.toks[i].text == "EU" or _us_near(lows))
        ):
            n = 3 if lows[i + 1 : i + 3] == ["member", "states"] else 1
            tokens.take(i, i + n, "place")  # "EU applicants", "EU-based firms", "EU member states"
            places.append((i, _filter(tokens.toks[i].text, "EU", "region")))
        elif tokens.free(i) and lows[i] in DEMONYMS:
            tokens.take(i, i + 1, "place")
            places.append((i, _filter(tokens.toks[i].text, DEMONYMS[lows[i]], "country")))
    for n in (3, 2, 1):
        for i in range(len(lows) - n + 1):
            if not all(tokens.free(k) for k in range(i, i + n)):
                continue
            got: PlaceFilter | list[PlaceFilter] | None = _code(tokens, i, skip) if n == 1 else None
            got = got or _name(tokens, i, i + n, reach)
            if isinstance(got, list):
                questions.append(
                    (
                        f'"{got[0].words}" can mean several places. Which one do you mean?',
                        [
                            Choice(
                                label=f"{p.name} ({'US state' if p.kind == 'us_state' else p.kind})",
                                patch={"place": p.model_dump()},
                            )
                            for p in got
                        ],
                    )
                )
                tokens.take(i, i + n, "place")
            elif got:
                places.append((i, got))
                tokens.take(i, i + n, "place")
    return [p for _, p in sorted(places, key=lambda x: x[0])], questions
