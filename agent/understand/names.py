"""Names in the words no grammar explained: firms, places and devices, matched against the mirror's own lexicons.

A run of such words is split into a firm (the names the data holds, by exact name or leading words), a place
(countries, US states, regions) and a device (the device vocabulary). A known firm beats a fuzzy device match; a word
that matches nothing stays unexplained and is never "corrected" into a device on its own.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field

from mirror.lookup.devices import ABBREVIATIONS
from mirror.lookup.firms import find_firm
from mirror.lookup.lexicon import FirmHit, device_word_reach, firm_phrases

from ..tools import ToolContext
from .firm_forms import entity
from .lay import lay_key
from .places import read_places
from .tokens import Tokens
from .types import Choice, FirmFilter, PlaceFilter

__all__ = ["Names", "read_names", "runs", "FIRM_CUES"]

FIRM_CUES = {
    "by",
    "from",
    "firm",
    "firms",
    "company",
    "companies",
    "manufacturer",
    "maker",
    "applicant",
    "labeler",
    "made",
    "manufactured",
    "called",
    "named",
    "recalled",
    "did",
    "does",
    "has",
    "have",
}
# words that lead many firm names but are plain English: read as a firm only when capitalised mid-question or cued
COMMON = set(
    """best general american international united national advanced total global standard premier precision
medical surgical health healthcare care life bio smart new first home north south east west pacific atlantic central
universal applied integrated innovative quality superior elite prime alpha beta delta omega apex summit one all
complete direct express modern natural perfect pro professional pure safe simple solutions systems technologies
technology digital dynamic micro nano clinical dental vision spine ortho cardio neuro""".split()
)
DEVICE_COMMON = 3  # a word reaching this many product codes is a device word first


@dataclass
class Names:
    firms: list[FirmFilter] = field(default_factory=list)
    places: list[PlaceFilter] = field(default_factory=list)
    devices: list[tuple[int, int, str]] = field(default_factory=list)  # token span and its words
    questions: list[tuple[str, list[Choice]]] = field(default_factory=list)  # ambiguities to ask about
    cue_without_name: bool = False
    unfound_firms: list[str] = field(default_factory=list)  # "a firm called X" when no firm of the records is X


# function words that belong to a firm's name when capitalised next to it ("Tz Medical", "GE Healthcare Products")
NAME_PARTS = {
    "medical",
    "products",
    "product",
    "devices",
    "device",
    "company",
    "companies",
    "international",
    "health",
    "care",
    "systems",
    "inc",
    "corp",
    "llc",
    "ltd",
    "labs",
    "laboratories",
    "technologies",
    "surgical",
}


# words firms' names are shortened to
FIRM_ABBREVIATIONS = {
    "intl": "international",
    "int'l": "international",
    "mfg": "manufacturing",
    "labs": "laboratories",
    "natl": "national",
    "inds": "industries",
    "assoc": "associates",
    "sys": "systems",
    "tech": "technologies",
    "med": "medical",
    "surg": "surgical",
    "pharm": "pharmaceuticals",
    "diag": "diagnostics",
    "bros": "brothers",
    "mfr": "manufacturing",
}


def _spelled(phrase: str) -> str:
    return " ".join(FIRM_ABBREVIATIONS.get(w.lower().rstrip("."), w) for w in phrase.split())


def _said(tokens: Tokens, i: int, j: int) -> str:
    """The words from token i to j as typed, possessives dropped ("Orthofix's" -> "Orthofix")."""
    return re.sub(r"['’]s\b", "", tokens.words(i, j))


def runs(tokens: Tokens, skip: set[str], parts: bool = False) -> list[tuple[int, int]]:
    """Maximal runs of free tokens that are not function words (capitalised name parts join a run; with `parts`,
    name parts in any case do: "ge oec medical systems" for firm names)."""
    out, start = [], None
    for i, t in enumerate(tokens.toks):
        part = (t.low in NAME_PARTS and (t.text[:1].isupper() or parts) and start is not None) or t.text in (
            "US",
            "UK",
            "EU",
        )
        content = tokens.free(i) and (t.low not in skip or part) and any(ch.isalnum() for ch in t.low)
        if content and start is None:
            start = i
        if not content and start is not None:
            out.append((start, i))
            start = None
    if start is not None:
        out.append((start, len(tokens.toks)))
    return out


def _capital(tokens: Tokens, i: int) -> bool:
    t = tokens.toks[i].text
    return t[:1].isupper() and (i > 0 or t.isupper() and len(t) > 1)


def _named_firm(tokens: Tokens, i: int) -> bool:
    """The words at i follow "a firm called" / "a company named": they are a firm's name, said as one."""
    lows = tokens.lows()
    return (
        i >= 2
        and lows[i - 1] in ("called", "named")
        and lows[i - 2]
        in (
            "firm",
            "company",
            "manufacturer",
            "maker",
            "vendor",
            "supplier",
            "applicant",
            "labeler",
            "distributor",
            "sponsor",
            "business",
            "outfit",
            "corporation",
            "establishment",
        )
    )


def _cued(tokens: Tokens, i: int, cues: set[str]) -> bool:
    lows = tokens.lows()
    return any(lows[k] in cues for k in range(max(0, i - 2), i))


def _firm_ok(tokens: Tokens, i: int, j: int, hit: FirmHit, reach: dict[str, int]) -> bool:
    lows = tokens.lows(i, j)
    if _cued(tokens, i, FIRM_CUES) or any(_capital(tokens, k) for k in range(i, j)):
        return not (len(lows) == 1 and lows[0] in COMMON and not hit.exact and not _capital(tokens, i))
    if len(lows) == 1 and lows[0] in COMMON:
        return False
    if len(lows) > 1 and (hit.exact or hit.firms <= 3):
        return True  # several words leading a firm's name ("ge oec"): that firm
    return any(reach.get(w, 0) < DEVICE_COMMON for w in lows)


def read_names(ctx: ToolContext, tokens: Tokens, skip: set[str]) -> Names:
    """Firms, places and device spans in the free runs of the question (marking the tokens they use)."""
    out = Names()
    spans = runs(tokens, skip, parts=True)
    phrases = {_said(tokens, i, j) for a, b in spans for i in range(a, b) for j in range(i + 1, min(b, i + 5) + 1)}
    spelled = {p: _spelled(p) for p in phrases}
    hits = firm_phrases(ctx.api, sorted(phrases | set(spelled.values()))) if phrases else {}
    for p, full in spelled.items():  # "Arrow Intl" is Arrow International
        if p not in hits and full in hits:
            hits[p] = hits[full]
    reach = device_word_reach(ctx.api, [t.low for a, b in spans for t in tokens.toks[a:b]])
    _firms_holding_places(tokens, skip, hits, reach, out)
    _firm_initials_before_places(tokens, hits, reach, out)
    out.places, asks = read_places(tokens, skip, reach)
    out.questions += asks
    for a, b in runs(tokens, skip, parts=True):
        _firms(tokens, a, b, hits, reach, out)
    for a, b in runs(tokens, skip):  # what is left: devices, or firms by spelling
        _rest(ctx, tokens, a, b, reach, out)
    lows = tokens.lows()
    out.cue_without_name = any(w in ("firm", "company", "manufacturer") for w in lows) and not out.firms
    return out


def _firm_initials_before_places(tokens: Tokens, hits: dict[str, FirmHit], reach: dict[str, int], out: Names) -> None:
    """Two capitals that lead a firm's name the records hold ("Medtronic or GE?", "GE Healthcare"): the firm, not
    the US state or country code, unless a place word comes just before ("in GE", "state GE")."""
    cues = {"in", "based", "located", "registered", "state", "states", "country", "countries", "nation", "="}
    lows = tokens.lows()
    for i, t in enumerate(tokens.toks):
        if not (tokens.free(i) and len(t.text) == 2 and t.text.isalpha() and t.text.isupper()):
            continue
        hit = hits.get(t.text)
        if hit is None or not hit.records or t.text in ("US", "UK", "EU"):
            continue
        if any(lows[k] in cues for k in range(max(0, i - 2), i)):
            continue
        j = max(
            (
                j
                for j in range(i + 1, min(len(lows), i + 5) + 1)
                if hits.get(_said(tokens, i, j)) and all(tokens.free(k) for k in range(i, j))
            ),
            default=i + 1,
        )  # "GE OEC Medical Systems": the longest firm name that starts there
        _firms(tokens, i, j, hits, reach, out, longest=True)


def _firms_holding_places(
    tokens: Tokens, skip: set[str], hits: dict[str, FirmHit], reach: dict[str, int], out: Names
) -> None:
    """A firm whose name holds a place ("Medtronic Puerto Rico Operations"): when a longer run of words is a firm
    name the mirror knows and a place would take some of its words, the whole run is the firm, not firm + place."""
    trial = Tokens(tokens.text, tokens.toks, dict(tokens.role))
    read_places(trial, skip, reach)
    placed = {k for k, role in trial.role.items() if role == "place" and tokens.free(k)}
    if not placed:
        return
    cands = []
    for a, b in runs(tokens, skip, parts=True):
        for i in range(a, b):
            for j in range(i + 2, min(b, i + 5) + 1):
                span = set(range(i, j))
                hit = hits.get(_said(tokens, i, j))
                if (
                    hit
                    and span & placed
                    and span - placed
                    and (hit.exact or hit.firms <= 3)
                    and _firm_ok(tokens, i, j, hit, reach)
                ):
                    cands.append((-(j - i), not hit.exact, -hit.records, i, j))
    for *_, i, j in sorted(cands):
        if all(tokens.free(k) for k in range(i, j)):
            _firms(tokens, i, j, hits, reach, out, longest=True)


def _firms(
    tokens: Tokens,
    a: int,
    b: int,
    hits: dict[str, FirmHit],
    reach: dict[str, int],
    out: Names,
    longest: bool = False,
) -> None:
    cands = []
    for i in range(a, b):
        for j in range(i + 1, min(b, i + 5) + 1):
            hit = hits.get(_said(tokens, i, j))
            if longest and (i, j) != (a, b):
                continue  # the whole span only
            if hit and all(tokens.free(k) for k in range(i, j)) and _firm_ok(tokens, i, j, hit, reach):
                cands.append((not hit.exact, -(j - i), -hit.records, i, j, hit))
    for *_, i, j, hit in sorted(cands):
        if all(tokens.free(k) for k in range(i, j)):
            firm = FirmFilter(
                words=_said(tokens, i, j),
                name=hit.names[0] if hit.firms == 1 else _said(tokens, i, j),
                key=hit.key,
                variants=list(hit.variants),
                records=hit.records,
                exact=hit.exact,
                by_dataset=dict(sorted(hit.by_dataset.items())),  # a stable order, whatever the lookup gave
                match="exact" if hit.exact else "leading",
            )
            out.firms.append(entity(firm, out))
            tokens.take(i, j, "firm")
            _absorb_typo(tokens, j, firm)


# corporate words that follow a firm's short name in how people name it ("GE Healthcare", "Philips Medical Systems")
# though the records may spell the firm otherwise: part of the firm's name, never a device
_CORPORATE = {"healthcare", "health", "medical", "systems", "technologies", "international", "corporation", "inc"}


def _absorb_typo(tokens: Tokens, j: int, firm: FirmFilter) -> None:
    """The word after a firm's leading words that is a misspelling of the name's next word ("boston scientfic"), or
    a corporate word said after it with a capital ("GE Healthcare")."""
    k = j
    while (
        k < len(tokens.toks)
        and tokens.free(k)
        and tokens.toks[k].low in _CORPORATE
        and tokens.toks[k].text[0].isupper()
    ):
        k += 1
    if k > j:
        tokens.take(j, k, "firm")
        return
    said = len(firm.words.split())
    nxt = (firm.name.split() + [""])[said].lower().strip(".,") if len(firm.name.split()) > said else ""
    if (
        j < len(tokens.toks)
        and tokens.free(j)
        and nxt
        and len(nxt) > 3
        and difflib.SequenceMatcher(None, tokens.toks[j].low, nxt).ratio() >= 0.8
    ):
        tokens.take(j, j + 1, "firm")


def _rest(ctx: ToolContext, tokens: Tokens, a: int, b: int, reach: dict[str, int], out: Names) -> None:
    """A run no firm or place took: a device when its words are device words; else a firm by spelling or nothing."""
    lows = tokens.lows(a, b)
    words = tokens.words(a, b)
    while b > a and lows[b - a - 1] in _NEGATIONS:
        b -= 1  # "catheter kits, not ...": the negation is grammar, never a device word (nor the product code NOT)
    while b > a and lows[0] in _NEGATIONS:
        a, lows = a + 1, lows[1:]
    if b <= a:
        return
    lows, words = tokens.lows(a, b), tokens.words(a, b)
    if not any(sum(ch.isalpha() for ch in w) >= 2 or re.fullmatch(r"\d+[a-z]+\d*|[a-z]+\d+[a-z]*", w) for w in lows):
        return  # numbers and symbols: not a name
    known = [w for w in lows if reach.get(w, 0) > 0 or w in ABBREVIATIONS or lay_key(w)]
    cued = _cued(tokens, a, FIRM_CUES) or any(_capital(tokens, k) for k in range(a, b))
    plain = not known and all(len(w) >= 5 and w not in COMMON for w in lows)  # no device word at all ("Beroni")
    if len(known) < len(lows) and (firm := _firm_by_short_lead(ctx, lows, words)) is not None:
        out.firms.append(firm)  # "adv sterilization products": a firm's name with its first word cut short
        tokens.take(a, b, "firm")
        return
    if len(known) < len(lows) and cued or plain:
        firm = _firm_by_spelling(ctx, words, held_only=plain and not cued)
        if firm is not None:
            out.firms.append(firm)
            tokens.take(a, b, "firm")
            return
    if _named_firm(tokens, a):  # "a firm called Standard Imaging": a firm's name, never a device
        firm = _firm_by_spelling(ctx, words)
        if firm is not None:
            out.firms.append(firm)
        else:
            out.unfound_firms.append(words)
        tokens.take(a, b, "firm")
        return
    if known:
        out.devices.append((a, b, words))
        tokens.take(a, b, "device")
        return
    if b - a == 1 and (firm := _firm_by_initials(ctx, tokens.toks[a].text, out)) is not None:
        out.firms.append(firm)
        tokens.take(a, b, "firm")
        return
    out.devices.append((a, b, words))  # tried as a device; unknown words stay unexplained if it fails
    tokens.take(a, b, "device?")


_NEGATIONS = {"not", "no", "never", "nor", "none", "neither", "nothing", "without"}


_INITIALS_SQL = """SELECT key, any_value(name ORDER BY records DESC), sum(records)::BIGINT FROM {keys}
WHERE list_aggregate(list_transform(regexp_extract_all(lower(name), '[a-z0-9]+'), x -> x[1]), 'string_agg', '') = $w
GROUP BY key ORDER BY 3 DESC LIMIT 5"""


def _firm_by_initials(ctx: ToolContext, word: str, out: Names) -> FirmFilter | None:
    """A word in capitals that no device or firm name holds, read as the initials of a firm's name ("BSC": Boston
    Scientific Corporation); several firms with those initials are asked about."""
    from mirror.lookup.firms import _KEYS, ensure_firm_table
    from mirror.lookup.source import pinned

    if not (word.isalpha() and word.isupper() and 2 <= len(word) <= 5):
        return None
    reader, snap = pinned(ctx.api)
    ensure_firm_table(reader, snap)
    with reader.cursor(snap=snap) as cur:
        rows = cur.execute(_INITIALS_SQL.format(keys=_KEYS), {"w": word.lower()}).fetchall()
    if not rows:
        return None
    hits = firm_phrases(ctx.api, [r[0] for r in rows])
    firms = []
    for key, name, records in rows:
        hit = hits.get(key)
        if hit is None:
            continue
        firms.append(
            FirmFilter(
                words=word,
                name=name,
                key=hit.key,
                variants=list(hit.variants),
                records=hit.records,
                exact=False,
                match="entity",
                by_dataset=dict(sorted(hit.by_dataset.items())),  # a stable order, whatever the lookup gave
            )
        )
    if len(firms) > 1:
        out.questions.append(
            (
                f'"{word}" may be the initials of several firms. Which one do you mean?',
                [
                    Choice(label=f"the firm {f.name} ({f.records:,} records)", patch={"firm": f.model_dump()})
                    for f in firms
                ],
            )
        )
        return None
    if firms:
        firms[0].name = f"{firms[0].name} ({word})"
    return firms[0] if firms else None


def _firm_by_spelling(ctx: ToolContext, words: str, held_only: bool = False, swap: bool = True) -> FirmFilter | None:
    """A firm whose name is a near spelling, or holds these words (find_firm), when one clearly leads. With
    `held_only` (words no cue marks as a firm), only a name that holds the words as they are said."""
    try:
        found = find_firm(ctx.api, words)
    except ValueError:
        return None
    best = found.candidates[0] if found.candidates else None
    if held_only and (best is None or best.match not in ("exact", "prefix", "contains")):
        return _firm_by_swap(ctx, words) if swap else None
    if best is None:
        return None
    if best.match == "typo" and best.score < 0.65:
        return None
    if len(found.candidates) > 1 and found.candidates[1].score > best.score - 0.05 and best.match != "exact":
        return None
    return FirmFilter(
        words=words,
        name=best.name,
        key=best.key,
        variants=[v.name for v in found.variants][:30],
        records=best.records,
        exact=best.match == "exact",
        match="exact" if best.match == "exact" else "spelling",
    )


def _firm_by_swap(ctx: ToolContext, words: str) -> FirmFilter | None:
    """One word whose two neighbouring letters are swapped ("meldine", "neetch"): the firm whose name's first word
    it spells once they are put back, when exactly one spelling names a firm."""
    word = words.strip().lower()
    if " " in word or not word.isalpha() or len(word) < 5:
        return None
    hits: dict[str, FirmFilter] = {}
    for k in range(len(word) - 1):
        if word[k] == word[k + 1]:
            continue
        fixed = word[:k] + word[k + 1] + word[k] + word[k + 2 :]
        try:
            found = find_firm(ctx.api, fixed)
        except ValueError:
            continue
        if any(c.match in ("exact", "prefix") and c.key.split()[:1] == [fixed] for c in found.candidates):
            firm = _firm_by_spelling(ctx, fixed, held_only=True, swap=False)
            if firm is not None:
                hits[fixed] = firm.model_copy(update={"words": words, "exact": False, "match": "spelling"})
    return next(iter(hits.values())) if len(hits) == 1 else None


def _firm_by_short_lead(ctx: ToolContext, lows: list[str], words: str) -> FirmFilter | None:
    """A firm's name said with its first word cut short ("adv sterilization products", "intl medical"): the words
    after it are the name's next words, and the short word starts the name's first word. One firm only."""
    if len(lows) < 2 or not (2 <= len(lows[0]) <= 5 and lows[0].isalpha()) or not all(w.isalpha() for w in lows[1:]):
        return None
    try:
        found = find_firm(ctx.api, " ".join(lows[1:]))
    except ValueError:
        return None
    keys = {
        c.key
        for c in found.candidates
        if (k := c.key.split())
        and len(k) > len(lows) - 1
        and k[0].startswith(lows[0])
        and k[0] != lows[0]
        and k[1 : len(lows)] == lows[1:]
    }
    if len(keys) != 1:
        return None
    firm = _firm_by_spelling(ctx, next(iter(keys)), held_only=True, swap=False)
    return firm.model_copy(update={"words": words, "exact": False, "match": "spelling"}) if firm else None
