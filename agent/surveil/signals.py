"""Signal tables for people: the scope from a watchlist or product codes, the caveats shown every time, text rows."""

from __future__ import annotations

from pathlib import Path

from mirror.store.files import Store
from mirror.surveil.scope import Scope
from mirror.surveil.signals import SignalRow, SignalTable, signals

from .errors import SurveilError
from .watchlists import Watchlists

__all__ = ["CAVEATS", "run_signals", "format_row", "caveat_lines", "scope_for"]

CAVEATS = (
    "MAUDE counts are reports, not incidence.",
    "There is no denominator of devices in use.",
    "Mandatory and voluntary reporting are mixed.",
    "One event can produce duplicate reports.",
    "Summary reports (alternative summary reporting) distort the counts.",
)


def scope_for(data_dir: Path, watch: str | None, codes: tuple[str, ...]) -> tuple[Scope, str]:
    """The scope of a watchlist and/or product codes, and a label for it."""
    if not watch and not codes:
        raise SurveilError("say what to look at: --code DXY (repeatable) or --watch NAME")
    scope = Watchlists(data_dir).get(watch).scope() if watch else Scope()
    codes = tuple(c.strip().upper() for c in codes if c.strip())
    scope = Scope(
        codes=tuple(dict.fromkeys(scope.codes + codes)), firms=scope.firms, brands=scope.brands, dis=scope.dis
    )
    label = " + ".join(x for x in (f"watchlist {watch}" if watch else "", ", ".join(codes)) if x)
    return scope, label


def run_signals(
    data_dir: Path,
    memory_limit: str,
    watch: str | None,
    codes: tuple[str, ...],
    year_from: int | None = None,
    year_to: int | None = None,
) -> tuple[SignalTable, str]:
    scope, label = scope_for(data_dir, watch, codes)
    return signals(Store(data_dir, memory_limit), scope, year_from=year_from, year_to=year_to), label


def _num(x: float | None) -> str:
    return "-" if x is None else f"{x:.2f}"


def format_row(r: SignalRow) -> dict[str, str]:
    m, t = r.measures, r.table
    return {
        "by": r.dimension,
        "term": r.term,
        "year": "all" if r.year is None else str(r.year),
        "a": str(t.a),
        "b": str(t.b),
        "c": str(t.c),
        "d": str(t.d),
        "PRR": _num(m.prr),
        "PRR 95% CI": f"{_num(m.prr_low)}-{_num(m.prr_high)}",
        "ROR": _num(m.ror),
        "ROR 95% CI": f"{_num(m.ror_low)}-{_num(m.ror_high)}",
        "chi2": _num(m.chi2),
        "note": ("zero cell: +0.5 " if m.haldane else "") + ("SIGNAL" if m.flagged else ""),
    }


def caveat_lines(table: SignalTable) -> list[str]:
    return [
        f"Flagged when {table.thresholds.describe()} (Evans et al. 2001); chi-square with Yates' correction; "
        "zero cells: 0.5 added to every cell (Haldane-Anscombe) for PRR/ROR.",
        f"Reports: a+b = the scope's reports, c+d = all other devices' reports; MAUDE as of {table.as_of or '?'}.",
    ] + [f"Caveat: {c}" for c in CAVEATS]
