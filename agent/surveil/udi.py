"""Full UDI strings read into their device identifier (DI) and production identifiers.

GS1: application identifiers in parentheses, `(01)00884838064018(17)251231(10)LOT(21)SN`, or raw, `0100884838064018
17251231 10LOT<GS>21SN`, with an optional symbology prefix (]C1, ]d2, ]Q3, ]e0), FNC1 written as the GS character
(\\x1d) or as `<GS>`/`{GS}`. HIBCC: `+` LIC(4) product number unit-of-measure, then `/` and the secondary data
(without `/`, the last character is the check character). ICCBBA (ISBT 128): `=/` followed by the DI, up to the next
data identifier (`=` or `&`). Anything else is taken as a bare DI (GTINs of 8 to 13 digits are padded to 14).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

__all__ = ["ParsedUDI", "parse_udi", "gtin_check_ok"]

_GS = "\x1d"
_PREFIXES = ("]C1", "]d2", "]Q3", "]e0", "]J1")
_FIXED = {"01": 14, "02": 14, "11": 6, "12": 6, "13": 6, "15": 6, "16": 6, "17": 6, "20": 2}
_VARIABLE = {"10": 20, "21": 20, "22": 20, "30": 8, "240": 30, "241": 30, "7003": 10}
_NAMES = {"01": "di", "10": "lot", "17": "expiry", "11": "manufactured", "21": "serial"}


@dataclass
class ParsedUDI:
    text: str
    issuer: str  # GS1 | HIBCC | ICCBBA | DI (a bare identifier)
    di: str = ""
    candidates: tuple[str, ...] = ()  # DIs to look up (the DI and its equivalent spellings)
    lot: str = ""
    serial: str = ""
    expiry: str = ""
    manufactured: str = ""
    notes: list[str] = field(default_factory=list)


def gtin_check_ok(gtin: str) -> bool:
    if not (gtin.isdigit() and len(gtin) == 14):
        return False
    total = sum(int(d) * (3 if i % 2 == 0 else 1) for i, d in enumerate(gtin[:-1]))
    return (10 - total % 10) % 10 == int(gtin[-1])


def parse_udi(text: str) -> ParsedUDI:
    raw = str(text or "").strip().replace("<GS>", _GS).replace("{GS}", _GS).replace("{FNC1}", _GS)
    for p in _PREFIXES:
        if raw.startswith(p):
            raw = raw[len(p) :]
    if raw.startswith("("):
        return _gs1(text, dict(re.findall(r"\((\d{2,4})\)([^(]*)", raw)))
    if raw.startswith("+"):
        return _hibcc(text, raw)
    if raw.startswith("=/"):
        di = re.split(r"[=&]", raw[2:], maxsplit=1)[0].strip()
        return ParsedUDI(text, "ICCBBA", di, (di, "=/" + di))
    compact = raw.lstrip(_GS)
    if len(compact) > 16 and compact[:2] == "01" and compact[2:16].isdigit():
        return _gs1(text, _raw_ais(compact))
    return _bare(text, raw.replace(_GS, ""))


def _gs1(text: str, ais: dict[str, str]) -> ParsedUDI:
    found = {k: v.strip(_GS + " ") for k, v in ais.items()}
    out = ParsedUDI(text, "GS1", found.get("01", ""))
    for k, v in found.items():
        if k in _NAMES and k != "01":
            setattr(out, _NAMES[k], v)
    out.candidates = (out.di,) if out.di else ()
    if not out.di:
        out.notes.append("no (01) device identifier in the UDI")
    elif not gtin_check_ok(out.di):
        out.notes.append(f"GTIN {out.di} fails its check digit")
    return out


def _raw_ais(s: str) -> dict[str, str]:
    out, i = {}, 0
    while i < len(s):
        if s[i] == _GS:
            i += 1
            continue
        ai = next((a for a in (s[i : i + 2], s[i : i + 3], s[i : i + 4]) if a in _FIXED or a in _VARIABLE), None)
        if ai is None:
            break
        i += len(ai)
        if ai in _FIXED:
            out[ai], i = s[i : i + _FIXED[ai]], i + _FIXED[ai]
        else:
            end = s.find(_GS, i)
            end = len(s) if end < 0 else end
            out[ai], i = s[i : min(end, i + _VARIABLE[ai])], min(end, i + _VARIABLE[ai])
    return out


def _hibcc(text: str, raw: str) -> ParsedUDI:
    body = raw[1:]
    primary, _, secondary = body.partition("/")
    if not secondary:
        primary = primary[:-1]  # the last character is the check character
    out = ParsedUDI(text, "HIBCC", primary, (primary, "+" + primary))
    if secondary.startswith("$$") and len(secondary) > 3 and secondary[2].isdigit():
        fmt = secondary[2]
        widths = {"2": 6, "3": 6, "4": 8, "5": 5, "6": 7}  # MMDDYY, YYMMDD, YYMMDDHH, YYJJJ, YYJJJHH
        w = widths.get(fmt, 4 if fmt in "01" else 0)
        rest = secondary[3:] if fmt in widths else secondary[2:]
        out.expiry, out.lot = rest[:w], rest[w:-1]
    elif secondary.startswith("$+"):
        out.serial = secondary[2:-1]
    elif secondary.startswith("$"):
        out.lot = secondary[1:-1]
    elif secondary[:5].isdigit():
        out.expiry, out.lot = secondary[:5], secondary[5:-1]
    return out


def _bare(text: str, s: str) -> ParsedUDI:
    s = s.strip()
    if s.isdigit() and 8 <= len(s) <= 14:
        padded = s.zfill(14)
        out = ParsedUDI(text, "DI", padded, tuple(dict.fromkeys((padded, s))))
        if not gtin_check_ok(padded):
            out.notes.append(f"{s} is not a valid GTIN (check digit); looked up as written")
        return out
    return ParsedUDI(text, "DI", s, (s,) if s else ())
