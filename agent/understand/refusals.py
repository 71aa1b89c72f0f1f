"""The questions the assistant refuses before reading them, in one ordered table: a patient's identity, a legal
judgement, a forecast, a document to write, money and markets, a judgement of safety. Each entry names the guard
routes it may turn into a refusal (a greeting or help request is never refused) and the one-sentence reply."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from . import commerce, drafting, forecast, judgement, legal, privacy

__all__ = ["refuses", "refusal_reply"]


@dataclass(frozen=True)
class _Refusal:
    asks: Callable[[str], bool]
    routes: frozenset[str]  # the guard's routes this refusal applies to
    reply: str


_ANY = frozenset({"ask", "medical", "off_topic"})
_TABLE = (
    _Refusal(privacy.asks_identity, frozenset({"ask", "medical"}), privacy.REPLY),  # never guessed
    _Refusal(legal.asks_legal, _ANY, legal.REPLY),  # never counts that read as a verdict
    _Refusal(forecast.asks_forecast, _ANY, forecast.REPLY),  # never a count of a future period
    _Refusal(drafting.asks_document, _ANY, drafting.REPLY),  # not a search of the records
    _Refusal(commerce.asks_commerce, _ANY, commerce.REPLY),  # in no FDA device record
    _Refusal(judgement.asks_judgement, frozenset({"ask", "off_topic"}), judgement.REPLY),  # no denominator
)


def refuses(route: str, question: str) -> bool:
    """True when a question the guard routed to `route` asks for something the records cannot give."""
    return any(route in r.routes and r.asks(question) for r in _TABLE)


def refusal_reply(question: str) -> str | None:
    """The reply of the first refusal the question asks for, in the table's order; None when it asks for none."""
    return next((r.reply for r in _TABLE if r.asks(question)), None)
