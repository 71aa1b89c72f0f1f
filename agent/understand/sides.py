"""Comparisons: one side per firm, device, product code, place or period, searched once each."""

from __future__ import annotations

from .dates import readable
from .tokens import Tokens
from .types import Interpretation, Side

__all__ = ["joined", "more_sides", "sound_sides"]


def joined(tokens: Tokens, spans: list, compare: bool) -> list:
    """Device spans apart only by grammar ("pulse generators for pacemakers") read as one device; spans joined by
    and / or / vs stay apart (compared side by side)."""
    if compare or len(spans) < 2:
        return spans
    out = [spans[0]]
    for a, b, words in spans[1:]:
        pa, pb, pw = out[-1]
        gap = tokens.lows(pb, a)
        if any(w in ("and", "or", "vs", "versus", "&", "nor") for w in gap) or len(gap) > 2:
            out.append((a, b, words))
        else:
            out[-1] = (pa, b, f"{pw} {words}")
    return out


def more_sides(it: Interpretation, names, periods: list) -> None:
    """Comparisons of product codes, places or periods: one side each ("OZP vs OZO", "CA vs TX", "2020 vs 2014").
    Codes and places are compared when the question compares; two periods always are (never the years between)."""
    if it.sides:
        return
    sides: list[Side] = []
    if len(periods) > 1:
        sides = [Side(label=readable(p.start, p.end), date_from=p.start, date_to=p.end) for p in periods]
        it.date_from = it.date_to = None
        it.date_words = ""
    elif it.measure == "compare" and it.device and it.device.path == "given" and len(it.device.codes) > 1:
        sides = [
            Side(label=c.code, device=it.device.model_copy(update={"codes": [c], "words": c.code}))
            for c in it.device.codes[:4]
        ]
        it.device = None
    elif len(regs := [f for f in it.filters if f.field == "regulation_number"]) > 1:
        sides = [Side(label=f.label, filters=[f]) for f in regs[:4]]  # "888.3080 vs 888.3060": one side each
        it.filters = [f for f in it.filters if f.field != "regulation_number"]
    elif len(names.places) > 1:  # a search takes one place: each is a side
        sides = [Side(label=p.name, place=p) for p in names.places[:4]]
        it.place = None
    if len(sides) > 1:
        it.measure, it.sides = "compare", sides


def _key(s: Side) -> tuple:
    d = s.device
    return (
        (s.firm.key or s.firm.name).lower() if s.firm else "",
        (tuple(sorted(c.code for c in d.codes)), d.text.lower()) if d else (),
        (s.place.code, s.place.exclude) if s.place else (),
        s.date_from,
        s.date_to,
        tuple((f.field, str(f.value)) for f in s.filters),
    )


def _known(s: Side) -> bool:
    """A side names something the mirror knows: a firm, place, period, field value, product code, or a device whose
    codes or the records' own names hold it."""
    if s.firm or s.place or s.date_from or s.date_to or s.filters:
        return True
    d = s.device
    return bool(d and (d.path == "given" or d.codes or d.found))


def sound_sides(it: Interpretation) -> list[str]:
    """Comparison sides that name nothing the mirror knows ("portfolio memo vs carries") or the same thing twice
    ("Medtronic vs Medtronic") are no comparison: such sides are dropped, and what is left is one search. Returns the
    dropped sides' words (said as not used). Any reading, the rules' or a model's, passes through this check."""
    if not it.sides:
        return []
    kept: list[Side] = []
    seen: set[tuple] = set()
    dropped: list[str] = []
    for s in it.sides:
        if not _known(s):
            dropped.append(s.device.words if s.device else s.label)
        elif (k := _key(s)) not in seen:
            seen.add(k)
            kept.append(s)
    if len(kept) == len(it.sides):
        return []
    if len(kept) >= 2:
        it.sides = kept
    else:
        it.sides = []
        if it.measure == "compare":
            it.measure = "count"
        for s in kept:
            it.firm = it.firm or s.firm
            it.device = it.device or s.device
            it.place = it.place or s.place
            it.date_from, it.date_to = it.date_from or s.date_from, it.date_to or s.date_to
            it.filters += [f for f in s.filters if f not in it.filters]
    words = [w for d in dropped for w in d.split()]
    it.unexplained = list(dict.fromkeys(it.unexplained + words))
    return dropped
