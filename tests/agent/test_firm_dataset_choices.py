"""The datasets offered for a firm named with no dataset come in one order, whatever order its counts were found in."""

from __future__ import annotations

from agent.understand.asking import ask_firm_dataset
from agent.understand.types import FirmFilter, Interpretation


def _choices(by_dataset: dict[str, int]) -> list[str]:
    firm = FirmFilter(words="boston scientific", name="BOSTON SCIENTIFIC CORPORATION", by_dataset=by_dataset)
    clar = ask_firm_dataset(Interpretation(question="what do you have on Boston Scientific?", firm=firm))
    assert clar is not None
    return [c.label for c in clar.choices]


def test_datasets_with_equal_counts_are_offered_in_one_order():
    one = _choices({"pma": 1, "event": 1, "510k": 3})
    other = _choices({"event": 1, "510k": 3, "pma": 1})
    assert one == other
    assert one[0].endswith("3 naming BOSTON SCIENTIFIC CORPORATION")  # the most records first
