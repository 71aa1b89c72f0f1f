"""The mirror's own vocabulary for reading questions: firm names by their leading words, device words, product codes.

Built lazily once per mirror version from the tables `firms` and `devices` derive in the reader's in-memory
database (`_lookup_firm_*`, `_lookup_device_*`), so a question is matched against the names the data itself holds, not a
hand list. Everything here is a lookup over those tables; only bound parameters carry user text.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from . import devices as _dev
from .firms import _KEYS, _NAMES, _WORDS, _key_query, ensure_firm_table
from .source import Source, pinned

__all__ = ["FirmHit", "firm_phrases", "firm_words", "device_word_reach", "product_code_details", "CodeDetails"]


@dataclass(frozen=True)
class FirmHit:
    """Firms whose normalised name is the phrase (exact) or starts with its words (leading)."""

    phrase: str  # the phrase as asked
    key: str  # its normalised key
    exact: bool  # a firm's key is the phrase itself
    firms: int  # firms matched
    records: int  # records naming them, all datasets
    names: tuple[str, ...] = ()  # display names of the matched firms, most records first (at most 8)
    variants: tuple[str, ...] = ()  # every spelling of their names in the data (at most 30)
    by_dataset: dict[str, int] = field(default_factory=dict)  # records per dataset


_FIRM_SQL = f"""
WITH q AS (SELECT unnest($phrases) AS phrase),
k AS (SELECT phrase, key, replace(key, ' ', '') AS c FROM ({_key_query("SELECT phrase AS name FROM q")}) t(phrase, key)
      WHERE key <> ''),
hit AS (SELECT k.phrase, k.key AS qkey, f.compact, f.name, f.records, f.key = k.key OR f.compact = k.c AS exact
        FROM k JOIN {_KEYS} f ON f.compact >= k.c AND f.compact < k.c || chr(1114111)
        WHERE f.key = k.key OR f.compact = k.c OR starts_with(f.key, k.key || ' '))
SELECT h.phrase, any_value(h.qkey), bool_or(h.exact), count(DISTINCT h.compact), sum(h.records)::BIGINT,
       list(h.name ORDER BY h.exact DESC, h.records DESC)[1:8],
       (SELECT to_json(map_from_entries(list({{'k': d, 'v': n}} ORDER BY n DESC, d)))
        FROM (SELECT dataset AS d, sum(records)::BIGINT AS n FROM {_NAMES} x
              WHERE list_contains(list(h.compact), x.compact) GROUP BY dataset)),
       (SELECT list(DISTINCT name ORDER BY name)[1:30] FROM {_NAMES} x WHERE list_contains(list(h.compact), x.compact))
FROM hit h GROUP BY h.phrase"""


def firm_phrases(src: Source, phrases: list[str]) -> dict[str, FirmHit]:
    """For each phrase, the firms it names (by exact name or leading words), with their records per dataset."""
    phrases = [p for p in dict.fromkeys(" ".join(p.split()) for p in phrases) if p]
    if not phrases:
        return {}
    reader, snap = pinned(src)
    ensure_firm_table(reader, snap)
    with reader.cursor(snap=snap) as cur:
        rows = cur.execute(_FIRM_SQL, {"phrases": phrases}).fetchall()
    return {
        r[0]: FirmHit(
            phrase=r[0],
            key=r[1],
            exact=bool(r[2]),
            firms=int(r[3]),
            records=int(r[4] or 0),
            names=tuple(r[5] or ()),
            variants=tuple(sorted(r[7] or ())),
            by_dataset={k: int(v) for k, v in json.loads(r[6] or "{}").items()},
        )
        for r in rows
    }


def firm_words(src: Source, words: list[str]) -> set[str]:
    """The words (lower case) that are a whole word of some firm's name in the data ("oec" of "GE OEC Medical
    Systems"): a brand said inside a device's name."""
    lows = sorted({w.lower() for w in words if w.strip()})
    if not lows:
        return set()
    reader, snap = pinned(src)
    ensure_firm_table(reader, snap)
    with reader.cursor(snap=snap) as cur:
        rows = cur.execute(f"SELECT DISTINCT word FROM {_WORDS} WHERE list_contains($w, word)", {"w": lows}).fetchall()
    return {r[0] for r in rows}


def device_word_reach(src: Source, words: list[str]) -> dict[str, int]:
    """Each word -> how many product codes its stem reaches in the device vocabulary (0: not a device word)."""
    ws = [w.lower() for w in dict.fromkeys(words) if w]
    parts = {w: [p for p in _dev.words(w) if len(p) > 1] or [w] for w in ws}  # "x-ray" -> ray
    flat = list(dict.fromkeys(p for ps in parts.values() for p in ps))
    if not flat:
        return {}
    reader, snap = pinned(src)
    _dev._ensure(reader, snap=snap)
    with reader.cursor(snap=snap) as cur:
        stems = dict(zip(flat, _dev._stems(cur, flat)))
        hits = _dev._exact_hits(cur, list(set(stems.values())))
    reach = {p: int(hits[s][1]) if s in hits else 0 for p, s in stems.items()}
    return {w: max(reach.get(p, 0) for p in ps) for w, ps in parts.items()}


@dataclass(frozen=True)
class CodeDetails:
    code: str
    device_name: str
    device_class: str
    regulation_number: str
    panel: str
    gudid_devices: int


def product_code_details(src: Source, codes: list[str]) -> dict[str, CodeDetails]:
    """The product codes the mirror knows (classification, else GUDID), with name, class, regulation and panel."""
    reader, snap = pinned(src)
    info = _dev._ensure(reader, snap=snap)
    with reader.cursor(snap=snap) as cur:
        table = _dev._codes(cur, info["version"])["by_code"]
    out = {}
    for c in codes:
        row = table.get(c.upper())
        if row and (row[1] or row[5]):
            out[c.upper()] = CodeDetails(
                row[0], row[1] or "", str(row[2] or ""), row[3] or "", row[4] or "", int(row[5] or 0)
            )
    return out
