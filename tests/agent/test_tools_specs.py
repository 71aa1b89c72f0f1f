"""The dataset rows of agent/tools/specs.py: each is complete, and every per-dataset map is derived from them."""

from __future__ import annotations

import dataclasses

import pytest

from agent import planner
from agent.tools import TOOLS, ToolError, run_tool, searchers
from agent.tools.count import COUNT_FIELDS, CountArgs
from agent.tools.gudid import GUDID_FILTERS
from agent.tools.specs import (
    COUNT_NAME,
    DATASET_NAMES,
    DATASETS,
    DATE_FIELDS,
    DEVICE_WORDS,
    ID_FILTERS,
    LABEL,
    NAME_FIELDS,
    NOUN,
    SEARCHER,
    SOURCE,
    SPECS,
    SUBMISSION_FIELD,
    Spec,
)
from mirror.schema.datasets import DATASETS as MIRROR_DATASETS

KEYS = [s.endpoint for s in DATASETS]


def test_one_row_per_dataset_and_one_tool_per_row():
    assert len(KEYS) == len(set(KEYS))
    assert len({s.tool for s in DATASETS}) == len(DATASETS)
    assert len({s.count_name for s in DATASETS}) == len(DATASETS)
    assert set(SPECS) == set(MIRROR_DATASETS), "every openFDA endpoint the mirror holds has a searchable row"
    assert set(KEYS) - set(SPECS) == {"gudid"}


@pytest.mark.parametrize("spec", DATASETS, ids=KEYS)
def test_every_row_is_complete(spec: Spec):
    singular, plural = spec.noun
    assert spec.tool in TOOLS, f"{spec.endpoint}: its tool {spec.tool!r} is not registered"
    assert spec.count_name and spec.label and singular and plural and singular != plural
    assert spec.source == (f"device/{spec.endpoint}" if spec.openfda else spec.endpoint)
    if not spec.openfda:
        return
    assert spec.ids and set(spec.ids) <= set(spec.row), f"{spec.endpoint}: record IDs must be row keys"
    assert spec.counts and spec.own and spec.text and spec.names
    assert spec.firm or spec.endpoint == "classification", f"{spec.endpoint}: no firm field"
    assert spec.date in spec.dates.values() or not spec.dates
    assert all(f for f in spec.own.values()) and all(f for f in spec.counts.values())


@pytest.mark.parametrize("spec", DATASETS, ids=KEYS)
def test_record_number_filters_are_filters_the_dataset_takes(spec: Spec):
    takes = set(spec.own) if spec.openfda else set(GUDID_FILTERS)
    assert set(spec.id_filters.values()) <= takes, f"{spec.endpoint}: {spec.id_filters}"
    for number, target in spec.id_filters.items():
        assert ID_FILTERS[number][spec.endpoint] == target


def test_rows_take_keywords_only():
    with pytest.raises(TypeError):
        Spec("event", "search_events", "events", ("a", "b"), "x", "device/event")  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        DATASETS[0].tool = "other"  # type: ignore[misc]


def test_the_derived_maps_cover_every_dataset():
    for derived in (SEARCHER, COUNT_NAME, LABEL, NOUN, SOURCE):
        assert list(derived) == KEYS
    assert set(DATE_FIELDS) | set(NAME_FIELDS) <= set(KEYS)
    assert set(NAME_FIELDS) == set(SPECS)
    assert set(SUBMISSION_FIELD) == {"510k", "pma", "gudid"}
    assert set(DEVICE_WORDS) == {"classification", "udi", "gudid"}
    assert set(COUNT_FIELDS) == set(SPECS)
    for s in SPECS.values():
        for name in (s.endpoint, s.count_name, s.tool.removeprefix("search_")):
            assert DATASET_NAMES[name] == s.endpoint
    assert set(DATASET_NAMES.values()) == set(SPECS)


def test_the_other_modules_use_the_rows_not_copies():
    assert planner.SEARCHER is SEARCHER and planner.COUNT_NAME is COUNT_NAME and planner.ID_FILTERS is ID_FILTERS
    assert searchers.SPECS is SPECS and searchers.DATE_FIELDS is DATE_FIELDS


def test_count_by_describes_every_count_name():
    described = CountArgs.model_fields["dataset"].description or ""
    for s in DATASETS:
        assert s.count_name in described, s.count_name


@pytest.mark.parametrize("spec", DATASETS, ids=KEYS)
def test_count_by_takes_every_count_name_and_the_tool_names_its_dataset(ctx, spec: Spec):
    r = run_tool(
        ctx,
        "count_by",
        {
            "dataset": spec.count_name,
            "field": "manufacturer" if spec.firm or not spec.openfda else "device_class",
            "limit": 3,
        },
    )
    assert r.tool == "count_by" and r.total > 0 and r.rows, f"{spec.count_name}: nothing counted"
    if spec.openfda:
        assert r.provenance[0].dataset == spec.source
        assert run_tool(ctx, spec.tool, {"limit": 1}).tool == spec.tool


def test_count_by_names_the_datasets_it_takes(ctx):
    with pytest.raises(ToolError, match="choose one of: .*registrations.*serology"):
        run_tool(ctx, "count_by", {"dataset": "nonsense", "field": "year"})
