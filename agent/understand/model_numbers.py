"""Model numbers that end in a year-like number ("EXPMT 2000", "Delta 3300"): the number belongs to the model when
the records' own names hold the two words together, so it is never read as a year."""

from __future__ import annotations

import re

from ..tools import ToolContext, ToolError, run_tool
from ..tools.specs import SEARCHER
from . import vocab
from .dates import MONTHS
from .tokens import Tokens

__all__ = ["hold_model_numbers", "MODEL"]

MODEL = "model?"  # a token kept from the date reader; released before names are read
_NUMBER = re.compile(r"^\d{4}$")
_WHERE = ("gudid", "udi")  # the device records, whose names carry version and model numbers


def _named(ctx: ToolContext, words: str) -> bool:
    have = ctx.api.datasets()
    for ds in _WHERE:  # device records name their models; a report's or a submission's text search costs more
        if ds not in have:
            continue
        try:
            if run_tool(ctx, SEARCHER[ds], {"names": words, "limit": 0}).total:
                return True
        except ToolError:
            continue
    return False


def hold_model_numbers(ctx: ToolContext, tokens: Tokens) -> list[int]:
    """Mark each four-digit number said right after a word that is no grammar, month or dataset word and that the
    records' names hold with it ("EXPMT 2000"); returns the tokens marked (the caller releases them)."""
    lows, held = tokens.lows(), []
    for k in range(1, len(lows)):
        prev = lows[k - 1]
        if not _NUMBER.match(lows[k]) or not tokens.free(k) or not tokens.free(k - 1):
            continue
        if not prev.isalnum() or prev.isdigit() or prev in vocab.FUNCTION or prev in MONTHS or len(prev) < 2:
            continue
        if (prev,) in vocab.DATASET_PHRASES or prev in ("since", "before", "after", "until", "through", "to"):
            continue
        if _named(ctx, f"{tokens.toks[k - 1].text} {tokens.toks[k].text}"):
            tokens.role[k] = MODEL
            held.append(k)
    return held
