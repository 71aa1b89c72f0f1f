"""How the assistant read a question, as parts a person can check: datasets, device, firm, place, dates, filters."""

from __future__ import annotations

import re
from dataclasses import dataclass

from .labels import dataset_label, field_label

__all__ = ["Part", "reading_parts", "reading_text", "split_answer", "without_tables"]

CLASSES = {"1": "Class I", "2": "Class II", "3": "Class III"}


@dataclass(frozen=True)
class Part:
    kind: str  # dataset | device | firm | place | dates | filter | measure | unused
    text: str
    detail: str = ""  # the tooltip: every code, every name variant
    value: str = ""  # a dataset part's dataset (what a change of it replaces)

    @property
    def editable(self) -> bool:
        """A click changes it and asks again (app/rephrase.py)."""
        return self.kind in ("dataset", "device", "firm", "dates")


def _dates(it: dict) -> str:
    lo, hi = it.get("date_from"), it.get("date_to")
    if lo and hi:
        return f"{lo} to {hi}"
    return f"since {lo}" if lo else f"up to {hi}" if hi else ""


def _device(d: dict) -> Part:
    codes = d.get("codes") or []
    if d.get("path") == "names" or not codes:
        words = d.get("words", "")
        return Part("device", f"Device: \u201c{words}\u201d in the records' device names", d.get("how", ""))
    shown = ", ".join(c["code"] for c in codes[:4]) + (f" and {len(codes) - 4} more" if len(codes) > 4 else "")
    detail = "\n".join(
        f"{c['code']}: {c.get('name', '')}"
        + (f" ({CLASSES.get(str(c.get('device_class')), '')})" if c.get("device_class") else "")
        for c in codes
    )
    words = d.get("words", "")
    if len(codes) == 1 and codes[0].get("name"):
        shown = f"{codes[0]['code']} ({codes[0]['name']})"
    head = (
        f"Device: {words} \u2192 {shown}"
        if d.get("path") != "given" and words.upper() != shown[:3]
        else f"Product code {shown}"
    )
    return Part("device", head, detail)


def reading_parts(it: dict | None) -> list[Part]:
    """The parts of an interpretation (the assistant's payload `interpretation`), in reading order."""
    if not it:
        return []
    if it.get("understood") is False:
        return [Part("unused", "Not understood: nothing was searched")]
    parts = [Part("dataset", dataset_label(d), value=d) for d in it.get("datasets") or []]
    sides = it.get("sides") or []
    if it.get("measure") == "compare" and sides:
        parts.append(Part("measure", "Compared: " + " vs ".join(s.get("label", "") for s in sides)))
    if it.get("device"):
        parts.append(_device(it["device"]))
    if it.get("firm"):
        f = it["firm"]
        name = "the firms of the previous answer" if f.get("match") == "those" else f.get("name", "")
        parts.append(Part("firm", f"Firm: {name}", "Name variants: " + "; ".join(f.get("variants") or [name])))
    if it.get("place"):
        parts.append(Part("place", f"Place: {it['place'].get('name', '')}"))
    if dates := _dates(it):
        parts.append(Part("dates", f"Dates: {dates}", it.get("date_words", "")))
    parts += [
        Part("filter", f.get("label", ""))
        for f in it.get("filters") or []
        if f.get("field") != "supplement_number" and f.get("label")
    ]
    if "pma" in (it.get("datasets") or []) and it.get("supplements") in ("originals", "supplements"):
        parts.append(Part("filter", "Original approvals only" if it["supplements"] == "originals" else "Supplements"))
    measure, by = it.get("measure"), it.get("by")
    if measure == "trend" and by:
        parts.append(Part("measure", f"Per {by}"))
    elif measure == "top" and by:
        parts.append(Part("measure", f"Top {it.get('top_n', 10)} by {field_label(by).lower()}"))
    elif measure == "count":
        parts.append(Part("measure", "Count"))
    if it.get("unexplained"):
        parts.append(Part("unused", "Words not used: " + ", ".join(f"\u201c{w}\u201d" for w in it["unexplained"])))
    return parts


def reading_text(it: dict | None) -> str:
    """The interpretation on one line (for the exports' cover)."""
    return "; ".join(p.text for p in reading_parts(it))


def split_answer(text: str) -> tuple[str, str]:
    """(the answer's own 'Interpreted as: ...' paragraph, the rest): the screen shows the reading as chips instead."""
    head, sep, rest = (text or "").partition("\n\n")
    if head.startswith("Interpreted as:") and sep:
        return head, rest.lstrip("\n")
    return "", text or ""


def without_tables(body: str) -> str:
    """The answer's text without its short Markdown table and its Sources list, for a screen that shows the full
    tables, their queries and the cited records right below it."""
    out, skipping = [], False
    for line in body.splitlines():
        if line.strip() == "Sources:":
            skipping = True
            continue
        if skipping and (line.startswith("- ") or line.startswith("  ")):
            continue
        skipping = False
        if not line.lstrip().startswith("|"):
            out.append(line)
    return re.sub(r"\n{3,}", "\n\n", "\n".join(out)).strip()
