"""Disproportionality measures of one 2x2 table: PRR and ROR with 95% confidence intervals, chi-square (Yates).

The table, for one outcome X (an event type or a device problem term) in one period:

                         reports with X    reports without X
    the product (scope)        a                  b
    all other devices          c                  d

    PRR = [a / (a + b)] / [c / (c + d)]
    SE(ln PRR) = sqrt(1/a - 1/(a + b) + 1/c - 1/(c + d))
    ROR = (a * d) / (b * c)
    SE(ln ROR) = sqrt(1/a + 1/b + 1/c + 1/d)
    95% CI = exp(ln(M) -/+ 1.96 * SE(ln M))            for M in (PRR, ROR)
    chi-square (1 df, with Yates' continuity correction, as in Evans et al. 2001):
        N = a + b + c + d
        chi2 = N * max(0, |a*d - b*c| - N/2)^2 / [(a + b) * (c + d) * (a + c) * (b + d)]

Zero cells: when any of a, b, c, d is 0, PRR, ROR and their intervals are computed on the table with 0.5 added
to every cell (Haldane-Anscombe correction), and `haldane` is True. The chi-square is always computed on the
observed counts. A measure is None when it is undefined: no reports on one side (a + b = 0 or c + d = 0) for
PRR/ROR, or an empty margin for the chi-square.

Flag (the usual screening thresholds, Evans et al. 2001): a >= 3 and PRR >= 2 and chi2 >= 4; `Thresholds` holds
them and every table says which were used.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

__all__ = ["TwoByTwo", "Measures", "Thresholds", "measures", "Z95"]

Z95 = 1.959963984540054


@dataclass(frozen=True)
class TwoByTwo:
    a: int  # the product, with the outcome
    b: int  # the product, without
    c: int  # all other devices, with
    d: int  # all other devices, without


@dataclass(frozen=True)
class Thresholds:
    prr: float = 2.0
    chi2: float = 4.0
    n: int = 3

    def describe(self) -> str:
        return f"PRR >= {self.prr:g}, chi-square >= {self.chi2:g}, n (a) >= {self.n}"


@dataclass(frozen=True)
class Measures:
    prr: float | None
    prr_low: float | None
    prr_high: float | None
    ror: float | None
    ror_low: float | None
    ror_high: float | None
    chi2: float | None
    haldane: bool  # 0.5 was added to every cell for PRR/ROR (a zero cell)
    flagged: bool


def measures(t: TwoByTwo, thresholds: Thresholds = Thresholds()) -> Measures:
    """PRR, ROR (95% CIs) and the Yates chi-square of `t`, flagged against `thresholds` (see the module doc)."""
    haldane = min(t.a, t.b, t.c, t.d) == 0
    k = 0.5 if haldane else 0.0
    a, b, c, d = t.a + k, t.b + k, t.c + k, t.d + k
    prr = prr_ci = ror = ror_ci = None
    if t.a + t.b > 0 and t.c + t.d > 0:
        prr = (a / (a + b)) / (c / (c + d))
        prr_ci = _ci(prr, math.sqrt(max(0.0, 1 / a - 1 / (a + b) + 1 / c - 1 / (c + d))))
        ror = (a * d) / (b * c)
        ror_ci = _ci(ror, math.sqrt(1 / a + 1 / b + 1 / c + 1 / d))
    chi2 = yates_chi2(t)
    flagged = (
        t.a >= thresholds.n
        and prr is not None
        and prr >= thresholds.prr
        and chi2 is not None
        and chi2 >= thresholds.chi2
    )
    prr_low, prr_high = prr_ci or (None, None)
    ror_low, ror_high = ror_ci or (None, None)
    return Measures(prr, prr_low, prr_high, ror, ror_low, ror_high, chi2, haldane, flagged)


def yates_chi2(t: TwoByTwo) -> float | None:
    n = t.a + t.b + t.c + t.d
    margins = (t.a + t.b) * (t.c + t.d) * (t.a + t.c) * (t.b + t.d)
    if margins == 0:
        return None
    return n * max(0.0, abs(t.a * t.d - t.b * t.c) - n / 2) ** 2 / margins


def _ci(value: float, se: float) -> tuple[float, float]:
    return math.exp(math.log(value) - Z95 * se), math.exp(math.log(value) + Z95 * se)
