"""Planning: turn an Interpretation into tool calls, one per dataset asked about (one per side of a comparison)."""

from __future__ import annotations

import json
import re
from typing import Any

from mirror.lookup.places import REGIONS

from .tools import TOOLS
from .tools.specs import COUNT_NAME, DATE_FIELDS, ID_FILTERS, SEARCHER, SPECS
from .understand import vocab
from .understand.field_names import catalogue_path
from .understand.fields import TOP_OK
from .understand.resolve import MAX_CODES
from .understand.types import DeviceFilter, FirmFilter, Interpretation, PlaceFilter, Side

__all__ = ["plan_calls", "call_key", "plan_schema", "MAX_CODES", "SEARCHER", "COUNT_NAME", "ID_FILTERS"]


def call_key(tool: str, args: dict) -> str:
    return tool + json.dumps(args, sort_keys=True, default=str)


def _device_args(d: DeviceFilter | None, ds: str) -> dict[str, Any]:
    if d is None:
        return {}
    if d.path == "names" and d.text:
        return {"names": d.text}
    codes = [c.code for c in d.codes][:MAX_CODES]
    return {"product_codes": codes} if codes else {}


def _firm_args(f: FirmFilter | None) -> dict[str, Any]:
    if f is None:
        return {}
    if f.match == "those":
        return {"manufacturer": f.variants or [f.name]}
    if f.match == "entity" or f.variants and re.search(r"\b\w\.\w\.", f"{f.words} {f.name}"):
        # ("W.H.P.M, Inc.": a name of dotted letters is searched by its exact spellings in the data, since a word
        # search splits it into single letters that match nothing)
        return {"manufacturer": f.variants[:30], "manufacturer_exact": True}
    names = [f.words] if f.match in ("exact", "leading") else [f.name]
    names += [v for v in f.variants if v.lower() != names[0].lower()]
    return {"manufacturer": names[0] if len(names) == 1 else names[:30]}


def _place_args(p: PlaceFilter | None) -> dict[str, Any]:
    if p is None:
        return {}
    if p.kind == "region" and p.code in REGIONS:
        return {"exclude_country" if p.exclude else "country": list(REGIONS[p.code][1])}
    key = "state" if p.kind == "us_state" else "country"
    return {f"exclude_{key}" if p.exclude else key: p.code}


def _base(it: Interpretation, ds: str, device=None, firm=None, place=None, side: Side | None = None) -> dict[str, Any]:
    args: dict[str, Any] = {}
    args.update(_device_args(device, ds))
    args.update(_firm_args(firm))
    args.update(_place_args(place))
    dated = side if side is not None and (side.date_from or side.date_to) else it
    if dated.date_from and ds != "classification":
        args["date_from"] = dated.date_from.isoformat()
    if dated.date_to and ds != "classification":
        args["date_to"] = dated.date_to.isoformat()
    if (dated.date_from or dated.date_to or it.field == "latest") and it.date_field in DATE_FIELDS.get(ds, {}):
        args["date_field"] = it.date_field  # "the most recent termination": newest terminated first
    filters: dict[str, Any] = {}
    for f in it.filters + (side.filters if side is not None else []):
        if f.field in ID_FILTERS:
            if ds in ID_FILTERS[f.field]:
                filters[ID_FILTERS[f.field][ds]] = f.value if isinstance(f.value, list) else [f.value]
        elif f.field == "event_type" and ds == "event":
            filters["event_type"] = f.value
        elif f.field == "recall_class" and ds == "recall":
            args["recall_class"] = f.value
        elif f.field == "recall_class" and ds == "enforcement":
            filters["recall_class"] = f.value
        elif f.field == "device_class" and (ds == "classification" or ds in SPECS and "device_class" in SPECS[ds].own):
            filters["device_class"] = f.value
        elif f.field.startswith("word:"):
            target = vocab.FILTER_FIELDS[f.field[5:]][0].get(ds)
            if target:
                filters[target] = f.value
    if it.text and ds == "event":
        args["text"] = it.text  # words searched in the narratives
    if ds == "pma" and it.supplements != "all":
        filters["supplement"] = "original" if it.supplements == "originals" else "supplement"
    if filters:
        args["filters"] = filters
    if it.measure == "lookup" and it.field and ds in SPECS and it.field not in SPECS[ds].row:
        path = catalogue_path(it.field, ds)  # a field asked for by name: read from the records by its path
        if path:
            args["fields"] = [path]
    return args


def _one(it: Interpretation, ds: str, args: dict, label: str = "") -> list[dict]:
    meta = {"dataset": ds, "label": label}
    if it.measure == "trend" and ds in COUNT_NAME:
        return [{"tool": "count_by", "args": {"dataset": COUNT_NAME[ds], "field": it.by or "year", **args}, **meta}]
    if it.measure == "top" and it.by in TOP_OK.get(ds, set()):
        return [
            {"tool": "count_by", "args": {"dataset": COUNT_NAME[ds], "field": it.by, "limit": it.top_n, **args}, **meta}
        ]
    limit = 5 if it.measure in ("count", "compare", "lookup") else 10
    calls = [{"tool": SEARCHER[ds], "args": {**args, "limit": limit}, **meta}]
    if ds == "pma" and it.supplements == "originals" and it.measure in ("count", "list"):
        other = {**args, "filters": {**args.get("filters", {}), "supplement": "supplement"}, "limit": 0}
        calls.append({"tool": "search_pma", "args": other, "dataset": ds, "label": "supplements (not counted)"})
    return calls


def plan_calls(it: Interpretation) -> list[dict]:
    """Tool calls for the reading: {"tool", "args", "dataset", "label"}; several per dataset only for comparisons."""
    calls: list[dict] = []
    if it.measure == "lookup" and it.field is None and not it.datasets:
        return calls
    for ds in it.datasets:
        if ds not in SEARCHER:
            continue
        if it.exclude_firm and it.firm:  # every record, then the firm's: the rest is the difference
            calls += _one(it, ds, _base(it, ds, it.device, None, it.place), "all")
            calls += _one(it, ds, _base(it, ds, it.device, it.firm, it.place), "left out")
        elif it.sides:
            for side in it.sides:
                args = _base(it, ds, side.device or it.device, side.firm or it.firm, side.place or it.place, side)
                calls += _one(it, ds, args, side.label)
        else:
            calls += _one(it, ds, _base(it, ds, it.device, it.firm, it.place))
    calls += _event_types_beside(it)
    seen, out = set(), []
    for c in calls:
        key = call_key(c["tool"], c["args"])
        if key not in seen and c["tool"] in TOOLS:
            seen.add(key)
            out.append(c)
    return out


EVENT_TYPES_BESIDE = "event types (not counted)"


def _event_types_beside(it: Interpretation) -> list[dict]:
    """Adverse event reports counted by their type ("how many were hurt or killed by X's devices?"): the same
    records by event type beside, so that a zero says what the reports were (all malfunctions) instead of nothing."""
    typed = [f for f in it.filters + [f for s in it.sides for f in s.filters] if f.field == "event_type"]
    if it.datasets != ["event"] or it.measure not in ("count", "compare", "list") or not typed:
        return []
    if any(s.firm or s.device or s.place or s.date_from or s.date_to for s in it.sides):
        return []  # sides of their own: no one set of records to show
    plain = it.model_copy(update={"filters": [f for f in it.filters if f.field != "event_type"], "sides": []})
    args = _base(plain, "event", it.device, it.firm, it.place)
    return [
        {
            "tool": "count_by",
            "args": {"dataset": COUNT_NAME["event"], "field": "event_type", "limit": 10, **args},
            "dataset": "event",
            "label": EVENT_TYPES_BESIDE,
        }
    ]


def _capped(node):
    """Bound every list and string: small models otherwise generate list items until they run out of tokens."""
    if isinstance(node, dict):
        out = {k: _capped(v) for k, v in node.items()}
        if out.get("type") == "array":
            out.setdefault("maxItems", 5)
        if out.get("type") == "string" and "enum" not in out and "const" not in out:
            out.setdefault("maxLength", 80)
        return out
    if isinstance(node, list):
        return [_capped(x) for x in node]
    return node


def plan_schema() -> dict:
    """JSON schema of a model's plan: up to three calls, each one tool with that tool's own arguments."""
    variants = []
    for name, t in TOOLS.items():
        args = _capped(t.args.model_json_schema())
        args.pop("title", None)
        variants.append(
            {"type": "object", "properties": {"tool": {"const": name}, "args": args}, "required": ["tool", "args"]}
        )
    return {
        "type": "object",
        "properties": {"calls": {"type": "array", "items": {"anyOf": variants}, "maxItems": 3}},
        "required": ["calls"],
    }
