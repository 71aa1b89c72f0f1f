"""The questions the assistant refuses before reading them, in one ordered table: a patient's identity, a legal
judgement, an FDA user fee, a forecast, a document to write, a record published elsewhere (inspections, audits,
patents, legal advice), stocks and credit, money and markets, payment codes, a judgement of safety. Each entry names
the guard routes it may turn into a refusal (a greeting or help request is never refused) and its reply of one or two
sentences, which says what the mirror holds and where to look instead."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from . import commerce, drafting, elsewhere, forecast, judgement, legal, privacy

__all__ = ["refuses", "refusal_reply"]

_T = TypeVar("_T")


@dataclass(frozen=True)
class _Refusal:
    asks: Callable[[str], bool]
    routes: frozenset[str]  # the guard's routes this refusal applies to
    reply: str | Callable[[str], str]  # a reply, or one chosen for the question


_ANY = frozenset({"ask", "medical", "off_topic"})
# a statement about the asker's own situation before (or after) the ask: "We are benchmarking for an acquisition." or
# "The target sells into ortho and neuro." frames the question; a money or audit word in it is not what is asked
_FRAME = re.compile(r"(?i)^\s*(?:we|we're|we've|i|i'm|i've|our|the|this|they|their|it|my)\b[^?.;!]*[.;!]+\s+(?=\S)")


# the same statement after the ask: "How many 510(k)s did Horiba ABX get? We are weighing an acquisition."
_TRAILING = re.compile(r"(?i)(?<=[?.!])\s+(?:we|we're|we've|i|i'm|i've|our|my|they|their|this|it)\b[^?]*$")


def _without_context(question: str) -> str:
    q = question or ""
    while m := _FRAME.match(q):
        q = q[m.end() :]
    return _TRAILING.sub("", q) or q


def _asked(read: Callable[[str], _T]) -> Callable[[str], _T]:
    """`read` applied to the question without its leading statements of context."""
    return lambda question: read(_without_context(question))


_TABLE = (
    _Refusal(privacy.asks_identity, frozenset({"ask", "medical"}), privacy.REPLY),  # never guessed
    _Refusal(legal.asks_legal, _ANY, legal.REPLY),  # never counts that read as a verdict
    _Refusal(_asked(commerce.asks_fees), _ANY, commerce.FEES_REPLY),  # never a count of clearances in the fee's year
    _Refusal(forecast.asks_forecast, _ANY, forecast.REPLY),  # never a count of a future period
    _Refusal(drafting.asks_document, _ANY, drafting.REPLY),  # not a search of the records
    # FDA or others publish them elsewhere: the reply names where
    _Refusal(_asked(elsewhere.asks_elsewhere), _ANY, _asked(elsewhere.elsewhere_reply)),
    _Refusal(_asked(commerce.asks_finance), _ANY, commerce.FINANCE_REPLY),  # before "best": a stock is no device
    _Refusal(_asked(commerce.asks_commerce), _ANY, commerce.REPLY),  # in no FDA device record
    _Refusal(_asked(commerce.asks_reimbursement), _ANY, commerce.REIMBURSEMENT_REPLY),  # CMS and AMA publish them
    _Refusal(judgement.asks_judgement, frozenset({"ask", "off_topic"}), judgement.REPLY),  # no denominator
    # advice the guard took for medical advice: a regulatory decision gets its own reply, and no new refusal
    _Refusal(elsewhere.asks_regulatory_advice, frozenset({"medical"}), elsewhere.REGULATORY_REPLY),
)


def refuses(route: str, question: str) -> bool:
    """True when a question the guard routed to `route` asks for something the records cannot give."""
    return any(route in r.routes and r.asks(question) for r in _TABLE)


def refusal_reply(question: str) -> str | None:
    """The reply of the first refusal the question asks for, in the table's order; None when it asks for none."""
    for r in _TABLE:
        if r.asks(question):
            return r.reply(question) if callable(r.reply) else r.reply
    return None
