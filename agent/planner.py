"""Planning: turn the parsed question (and what resolvers found) into tool calls; a model plans only the rest."""

from __future__ import annotations

import json
from typing import Any

from mirror.lookup.places import REGIONS

from .intent import Intent
from .tools import TOOLS
from .tools.context import ResolverContext

__all__ = ["resolver_calls", "searcher_calls", "call_key", "plan_schema", "MAX_CODES"]

MAX_CODES = 8
SEARCHER = {"event": "search_events", "recall": "search_recalls", "510k": "search_510k", "pma": "search_pma",
            "classification": "search_classifications", "udi": "search_udi",
            "registrationlisting": "search_registrations"}
COUNT_NAME = {"event": "events", "recall": "recalls", "510k": "510k", "pma": "pma", "classification": "classification",
              "udi": "udi", "registrationlisting": "registrations"}
TOP_OK = {"event": {"manufacturer", "product_code", "event_type", "patient_problem", "device_problem", "country"},
          "recall": {"manufacturer", "product_code", "recall_class", "country"},
          "510k": {"manufacturer", "product_code", "decision_code", "country"},
          "pma": {"manufacturer", "product_code", "decision_code"},
          "udi": {"manufacturer", "product_code"}, "registrationlisting": {"country", "product_code"},
          "classification": set()}


def call_key(tool: str, args: dict) -> str:
    return tool + json.dumps(args, sort_keys=True, default=str)


def resolver_calls(it: Intent, resolved: ResolverContext) -> list[dict]:
    calls = []
    if it.device_text and not it.product_codes and not (it.followup and resolved.devices):
        calls.append({"tool": "resolve_device", "args": {"query": it.device_text}})
    for number in it.numbers:
        if not it.datasets or set(it.datasets) - {"510k", "pma"}:
            calls.append({"tool": "resolve_device", "args": {"query": number}})
    if it.firm:
        calls.append({"tool": "resolve_manufacturer", "args": {"query": it.firm}})
    if it.location:
        calls.append({"tool": "resolve_location", "args": {"location": it.location}})
    return [c for c in calls if c["tool"] in TOOLS]


def _codes(it: Intent, evidence: list[dict], resolved: ResolverContext) -> list[str]:
    if it.product_codes:
        return it.product_codes[:MAX_CODES]
    found = [e for e in evidence if e.get("tool") == "resolve_device" and e.get("rows")]
    if found:
        rows = found[-1]["rows"]
        top = rows[0].get("score") or 0
        return [r["product_code"] for r in rows if (r.get("score") or 0) >= 0.8 * top][:MAX_CODES]
    if it.followup and not it.device_text and not resolved.last_filters:
        return resolved.product_codes()[:MAX_CODES]
    return []


def default_datasets(it: Intent) -> list[str]:
    if it.datasets:
        return it.datasets
    if it.numbers:
        return sorted({"510k" if n.startswith(("K", "DEN")) else "pma" for n in it.numbers})
    if it.shape in ("count", "trend", "top") or it.event_type:
        return ["event"]
    return ["classification"]


def searcher_calls(it: Intent, evidence: list[dict], resolved: ResolverContext, drop: set[str] | None = None) -> list[dict]:
    """One call per dataset asked about, with every key the question and the resolvers gave."""
    drop = drop or set()
    codes = _codes(it, evidence, resolved)
    if it.device_text and not codes and not it.numbers and not it.firm and not it.location:
        return []   # a device we could not identify: say so rather than search everything
    base: dict[str, Any] = {}
    if it.followup:   # "those", "them", "there": the previous question's keys, unless this one gives new ones
        base.update({k: v for k, v in resolved.last_filters.items() if k in ("product_codes", "manufacturer",
                                                                             "country", "state")})
    if codes:
        base["product_codes"] = codes
    firm_found = [e for e in evidence if e.get("tool") == "resolve_manufacturer"]
    if it.firm and (not firm_found or firm_found[-1].get("total")):
        rows = firm_found[-1].get("rows") if firm_found else []
        canon = (resolved.firms[-1].canonical if resolved.firms else "") or (rows[0].get("canonical") if rows else "")
        base["manufacturer"] = canon or it.firm   # searchers match its words and its resolved spellings
    loc = resolved.location
    if it.location and loc and loc.code:
        if loc.kind == "region" and loc.code in REGIONS:
            base["country"] = list(REGIONS[loc.code][1])
        else:
            base["state" if loc.kind == "us_state" else "country"] = loc.code
    if it.date_from:
        base["date_from"] = it.date_from
    if it.date_to:
        base["date_to"] = it.date_to
    calls = []
    for ds in default_datasets(it):
        args = {k: v for k, v in base.items() if k not in drop}
        filters: dict[str, Any] = {}
        if ds == "event" and it.event_type:
            filters["event_type"] = it.event_type
        if ds == "recall" and it.recall_class:
            args["recall_class"] = it.recall_class
        if ds == "classification":
            args.pop("date_from", None), args.pop("date_to", None)
            if it.device_class:
                filters["device_class"] = it.device_class
        if ds in ("510k", "pma", "recall") and it.numbers:
            kinds = {"510k": ("K", "DEN"), "pma": ("P",), "recall": ("K", "P")}[ds]
            nums = [n.split("S")[0].rstrip("/") for n in it.numbers if n.startswith(kinds)]
            if ds == "recall" and nums:
                ks, ps = [n for n in nums if n.startswith("K")], [n for n in nums if n.startswith("P")]
                filters.update({k: v for k, v in (("k_number", ks), ("pma_number", ps)) if v})
                args.pop("product_codes", None)
            elif nums:
                filters["k_number" if ds == "510k" else "pma_number"] = nums
                args.pop("product_codes", None)
        if filters:
            args["filters"] = filters
        args = {k: v for k, v in args.items() if k not in drop}
        if it.shape == "trend":
            calls.append({"tool": "count_by", "args": {"dataset": COUNT_NAME[ds], "field": it.trend_by, **args}})
        elif it.shape == "top" and it.top_by in TOP_OK.get(ds, set()):
            calls.append({"tool": "count_by", "args": {"dataset": COUNT_NAME[ds], "field": it.top_by, "limit": 10,
                                                       **args}})
        else:
            calls.append({"tool": SEARCHER[ds], "args": {**args, "limit": 5 if it.shape == "count" else 10}})
    return calls


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
        variants.append({"type": "object", "properties": {"tool": {"const": name}, "args": args},
                         "required": ["tool", "args"]})
    return {"type": "object", "properties": {"calls": {"type": "array", "items": {"anyOf": variants}, "maxItems": 3}},
            "required": ["calls"]}
