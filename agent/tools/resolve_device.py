"""The resolve_device tool: a device in lay or trade words, a product code or a K/P/DEN number -> product codes."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from mirror.lookup.devices import MAX_QUERY_CHARS, resolve_devices

from .base import Provenance, ToolError, ToolResult
from .context import ResolvedDevice, ToolContext
from .registry import tool
from .specs import DEVICE_WORDS, SOURCE, SUBMISSION_FIELD

__all__ = ["ResolveDeviceArgs", "resolve_device", "CONFIDENT"]

CONFIDENT = 0.75  # a word match scoring this (holding every query word) may set the device context
CONTEXT_MAX = 5  # product codes kept in the device context
SUBMISSION = {"k_number": ("510(k)", "510k"), "pma_number": ("PMA", "pma"), "de_novo": ("De Novo", "510k")}


class ResolveDeviceArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")

    query: str = Field(
        description="The device as a person names it: lay or trade words ('insulin pump', 'hip "
        "implant'), a brand name, a 3-letter product code (DXY), or a submission number "
        "(K123456, P123456 or P123456/S001, DEN123456). Typos and plurals are fine."
    )
    limit: int = Field(10, ge=1, le=50, description="Most product codes to return, best first")


@tool("resolve_device", ResolveDeviceArgs, "resolver")
def resolve_device(ctx: ToolContext, args: ResolveDeviceArgs) -> ToolResult:
    """Find the FDA product codes for a device named in lay or trade words, a brand name, a product code or a
    K/P/DEN number: ranked product codes with device name, class, regulation number, review panel, GUDID device
    count, a 0-1 score and how each matched. Call it first when a question names a device; searchers take the
    product codes.

    Word queries are matched against classification device names and definitions, GMDN terms, GUDID brand names
    and device descriptions, tolerating typos, plurals and word order, with a small table of lay synonyms
    (mirror.lookup.devices.SYNONYMS). Confident matches become the device context of later searches.
    """
    if not args.query.strip():
        raise ToolError(
            "resolve_device: the query is empty; give a device name ('insulin pump'), a brand name, "
            "a product code (DXY) or a K/P/DEN number"
        )
    limit = min(args.limit, ctx.row_cap)
    found = resolve_devices(ctx.api, args.query, max(limit, CONTEXT_MAX + 1))  # enough rows to judge ties
    if found["kind"] in ("words", "product_code") and not found["words"] and not found["rows"]:
        raise ToolError(
            f"resolve_device: no letters a-z or digits in {args.query[:60]!r}; FDA device names are "
            "English: try e.g. 'pacemaker', a brand name or a product code"
        )
    if found["kind"] in ("words", "product_code") and not found["datasets"]:
        raise ToolError(
            "resolve_device: the mirror holds none of the datasets device names are looked up in "
            "(classification, udi, gudid); run `mirror sync --only classification,udi`"
        )
    notes = _notes(ctx, found, args.query)
    notes.append(_remember(ctx, found))
    found["rows"] = found["rows"][:limit]
    return ToolResult(
        tool="resolve_device",
        total=found["total"],
        rows=found["rows"],
        truncated=found["total"] > len(found["rows"]),
        id_fields=["product_code"],
        provenance=_provenance(ctx, found, args),
        notes=notes,
    )


def _provenance(ctx: ToolContext, found: dict, args: ResolveDeviceArgs) -> list[Provenance]:
    params = {"query": args.query[:MAX_QUERY_CHARS], "limit": args.limit}
    if found["kind"] in SUBMISSION:
        what = found["number"] + (f"/{found['supplement']}" if found["supplement"] else "")
        return [
            Provenance(
                dataset=SOURCE[ds],
                as_of=ctx.api.as_of(ds),
                params=params,
                query=f"resolve_device: {what} -> product codes ({SUBMISSION_FIELD[ds]})",
            )
            for ds in found["datasets"]
        ]
    codes = [r["product_code"] for r in found["rows"] if r["match"] == "product_code"]
    if found["kind"] == "product_code" and (codes or found["text"].isupper()):
        codes = codes or found["codes"]
    lookup = (f"product code {', '.join(codes)} and " if codes else "") + f"words {_words(found['words'])}"
    return [
        Provenance(
            dataset=SOURCE[ds],
            as_of=ctx.api.as_of(ds),
            params=params,
            query=f"resolve_device: {lookup} over {DEVICE_WORDS[ds]}",
        )
        for ds in found["datasets"]
    ]


def _words(ws: list[str]) -> str:
    return "[" + ",".join(f'"{w if len(w) <= 24 else w[:23] + "…"}"' for w in ws) + "]"


def _notes(ctx: ToolContext, found: dict, query: str) -> list[str]:
    """What a reader must know: input cut, corrections, synonyms, unknown words or numbers, partial matches."""
    notes = []
    if found["cut"]:
        notes.append(f"the query was cut to its first {MAX_QUERY_CHARS} characters (it had {len(query)})")
    notes += [f"read {typed!r} as {read!r}" for typed, read in found["corrections"]]
    for key in dict.fromkeys(k for k, _ in found["synonyms"]):
        exps = ", ".join(repr(e) for k, e in found["synonyms"] if k == key)
        notes.append(f"lay synonym: also searched {key!r} as {exps}")
    if found["kind"] in SUBMISSION:
        notes += _submission_notes(ctx, found)
    else:
        notes += _word_notes(ctx, found)
    bare = [r["product_code"] for r in found["rows"] if not r["device_name"]]
    if bare:
        notes.append(
            f"{', '.join(bare)}: no device name in the mirror's classification or GUDID data (run "
            "`mirror sync --only classification`)"
        )
    return notes


def _submission_notes(ctx: ToolContext, found: dict) -> list[str]:
    label, dataset = SUBMISSION[found["kind"]]
    if not found["datasets"]:
        return [
            f"the mirror holds neither {label} data nor GUDID premarket submissions; run "
            f"`mirror sync --only {dataset},gudid` to look up {found['number']}"
        ]
    out = []
    if found["supplement_missing"]:
        out.append(
            f"{found['number']} has no supplement {found['supplement']} in the mirror; showing the product "
            f"codes of its other supplements"
        )
    if not found["rows"]:
        where = " or ".join(f"{SOURCE[d]} (as of {ctx.api.as_of(d) or 'unknown'})" for d in found["datasets"])
        out.append(
            f"{label} number {found['number']} is not in the mirror's {where}; check the number, or search "
            "by device name"
        )
    return out


def _word_notes(ctx: ToolContext, found: dict) -> list[str]:
    out, coded = [], found["kind"] == "product_code"
    if "classification" not in found["datasets"]:
        out.append(
            "the classification dataset is not in the mirror: device names come from GUDID product-code "
            "names and class / regulation / panel may be empty (run `mirror sync --only classification`)"
        )
    if not {"udi", "gudid"} & set(found["datasets"]):
        out.append(
            "no GUDID data (udi or gudid) in the mirror: brand names and GMDN terms were not searched and "
            "gudid_devices is 0 (run `mirror sync --only udi`)"
        )
    if found["unknown_codes"] and (found["total"] == 0 or found["text"].isupper()):
        out.append(
            f"{', '.join(found['unknown_codes'])}: not a product code in the mirror (classification as of "
            f"{ctx.api.as_of('classification') or 'unknown'}, GUDID product codes)"
        )
    unknown = [] if coded and len(found["rows"]) else found["unknown"]
    if unknown:
        out.append(f"no device name, term or brand holds {', '.join(map(repr, unknown))}; left out of the search")
    if found["partial"]:
        out.append(
            "no single device name, term or brand holds all the words; these codes match some of them "
            "(lower scores): rephrase, or pick one"
        )
    word_rows = [r for r in found["rows"] if r["match"] != "product_code"]
    if len(word_rows) > 1 and word_rows[0]["score"] - word_rows[1]["score"] < 0.02:
        tied = [r["product_code"] for r in word_rows if word_rows[0]["score"] - r["score"] < 0.02]
        more = "at least " if len(tied) == len(word_rows) and found["total"] > len(found["rows"]) else ""
        out.append(
            f"{more}{len(tied)} product codes match about equally well ({', '.join(tied[:6])}): ask which "
            "device is meant, or pass several product codes to the searchers"
        )
    return out


def _remember(ctx: ToolContext, found: dict) -> str:
    """Replace the device context with confident matches; say what happened.

    Confident: product codes given or found by submission number; else word matches holding every query word
    whose best scores >= CONFIDENT (or that are at most CONTEXT_MAX in all), with at most CONTEXT_MAX codes
    within 0.05 of the best (more are a list to choose from, not an answer).
    """
    rows = found["rows"]
    keep = [r for r in rows if r["match"] in ("product_code", *SUBMISSION)]
    if not keep and rows and not found["partial"]:
        near = [r for r in rows if r["score"] >= rows[0]["score"] - 0.05]
        if len(near) <= CONTEXT_MAX and (rows[0]["score"] >= CONFIDENT or found["total"] <= CONTEXT_MAX):
            keep = near
    if not keep:
        return "device context unchanged (no confident match)"
    ctx.resolved.devices = [
        ResolvedDevice(
            product_code=r["product_code"],
            device_name=r["device_name"],
            device_class=r["device_class"],
            score=r["score"],
        )
        for r in keep[:CONTEXT_MAX]
    ]
    return "device context set to " + ", ".join(ctx.resolved.product_codes())
