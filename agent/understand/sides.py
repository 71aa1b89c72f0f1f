"""Comparisons: one side per firm, device, product code, place or period, searched once each."""

from __future__ import annotations

from .dates import readable
from .tokens import Tokens
from .types import Interpretation, Side

__all__ = ["joined", "more_sides"]


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
    elif len(names.places) > 1:  # a search takes one place: each is a side
        sides = [Side(label=p.name, place=p) for p in names.places[:4]]
        it.place = None
    if len(sides) > 1:
        it.measure, it.sides = "compare", sides
