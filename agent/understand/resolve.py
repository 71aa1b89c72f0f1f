"""Devices in the context of the question: codes ranked by the records they hold in the dataset asked about, and the
dataset's own brand / generic / device names searched when the codes find little."""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field

from mirror.lookup.devices import ABBREVIATIONS, resolve_devices
from mirror.lookup.lexicon import device_word_reach

from ..tools import ToolContext, ToolError, run_tool
from ..tools import specs as _specs
from .lay import joined_lay, lay_key, spell_out
from .types import Choice, Code, DeviceFilter

__all__ = ["DeviceReading", "read_device", "codes_in", "same_words", "MAX_CODES", "COUNT_NAME"]

MAX_CODES = 12  # product codes a search takes
NAMES_ONLY = ("enforcement", "covid19serology")  # records without product codes: searched by names
ALL_CODES = 300  # product codes of a broad term ranked by their records
# the datasets whose records carry product codes, by count name; each dataset's search tool (agent/tools/specs.py)
COUNT_NAME = {
    d: _specs.COUNT_NAME[d] for d in ("event", "recall", "510k", "pma", "udi", "registrationlisting", "gudid")
}
SEARCHER = _specs.SEARCHER


@dataclass
class DeviceReading:
    device: DeviceFilter | None
    strength: float  # 1 exact words, lower for partial or corrected readings, 0 none
    corrected: list[list[str]] = field(default_factory=list)
    unknown: list[str] = field(default_factory=list)
    choices: list[Choice] = field(default_factory=list)  # when the reading needs the person to pick
    question: str = ""
    elsewhere: dict[str, int] = field(default_factory=dict)  # other datasets whose names hold the words: records


def codes_in(ctx: ToolContext, dataset: str, codes: list[str]) -> dict[str, int] | None:
    """Records per product code in the dataset (one count query per CODES_PER_COUNT codes: a search holds at most
    100 terms, and a broad term names hundreds of codes). None when a count query was refused or timed out: the
    counts are unknown, never "no records" ({} for a dataset without product codes, or no codes)."""
    if dataset not in COUNT_NAME or not codes:
        return {}
    got: dict[str, int] = {}
    for i in range(0, len(codes), CODES_PER_COUNT):
        part = codes[i : i + CODES_PER_COUNT]
        try:
            r = run_tool(
                ctx,
                "count_by",
                {"dataset": COUNT_NAME[dataset], "field": "product_code", "product_codes": part, "limit": 100},
            )
        except ToolError:
            return None  # unknown: a refused or timed-out count is not a zero
        got.update({str(row.get("product_code")): int(row["count"]) for row in r.rows})
    return {c: got.get(c, 0) for c in codes}


CODES_PER_COUNT = 90  # the local API refuses a search of more than 100 terms (openFDA's 400)


def _names_total(ctx: ToolContext, dataset: str | None, words: str) -> int:
    if not dataset:
        return 0
    try:
        return run_tool(ctx, SEARCHER[dataset], {"names": words, "limit": 0}).total
    except ToolError:
        return 0


# lay word endings and the endings FDA device names use for the same device ("fluoroscopy" / "Fluoroscopic",
# "oximetry" / "Oximeter", "endoscopy" / "Endoscope")
_FORMS = (
    ("scopy", ("scopic", "scope")),
    ("graphy", ("graphic", "graph")),
    ("metry", ("meter", "metric")),
    ("ifiers", ("ified",)),
    ("ifier", ("ified",)),
    ("ical", ("ic",)),
    ("ic", ("y", "ical")),
    ("ies", ("y",)),
    ("ers", ("er",)),
    ("ors", ("or",)),
)
_SPELLINGS = {"xray": "x-ray", "xrays": "x-ray", "x-rays": "x-ray", "ekg": "ecg", "catheters": "catheter"}


def _word_forms(words: str) -> list[str]:
    """The words with lay endings changed into the endings device names use (each alone, then all together); the
    first that reads fully wins."""
    parts, out = words.split(), []
    every = [_SPELLINGS.get(w.lower(), w) for w in parts]
    for k, w in enumerate(parts):
        low = w.lower()
        if "-" in low.strip("-"):
            out.append(" ".join(parts[:k] + [low.replace("-", "")] + parts[k + 1 :]))  # "mid-line": midline
        if low in _SPELLINGS:
            out.append(" ".join(parts[:k] + [_SPELLINGS[low]] + parts[k + 1 :]))
            continue
        for end, alts in _FORMS:
            if low.endswith(end) and len(low) > len(end) + 3:
                out += [" ".join(parts[:k] + [low[: -len(end)] + a] + parts[k + 1 :]) for a in alts]
                every[k] = low[: -len(end)] + alts[0]
                break
    if every != parts:
        out.append(" ".join(every))
    joined = [
        " ".join(parts[:k] + [parts[k] + parts[k + 1].lower()] + parts[k + 2 :])
        for k in range(len(parts) - 1)
        if parts[k].isalpha() and parts[k + 1].isalpha() and min(len(parts[k]), len(parts[k + 1])) >= 4
    ]  # "ultra sound probe", "pace maker": one word written as two (kept only where the joined word is known)
    out = joined + out
    return [o for o in dict.fromkeys(out) if o != words][:8]


def _one_edit(a: str, b: str) -> bool:
    """b is a with one letter added, dropped or changed ("cuf" / "cuff", "monitr" / "monitor")."""
    if abs(len(a) - len(b)) > 1 or a == b:
        return False
    if len(a) == len(b):
        return sum(x != y for x, y in zip(a, b)) == 1
    short, long_ = (a, b) if len(a) < len(b) else (b, a)
    return any(long_[:k] + long_[k + 1 :] == short for k in range(len(long_)))


def _completed(words: str, found: dict) -> list[str]:
    """A word no device name holds, completed by the one word of the names that the other words find which it is
    a typo or the start of ("blood pressure cuf": Blood Pressure Cuff); never a guess among several."""
    unknown = {u.lower() for u in found.get("unknown", [])}
    parts, out = words.split(), list(words.split())
    seen = {w for r in found.get("rows", []) for w in re.findall(r"[a-z]+", (r.get("device_name") or "").lower())}
    changed = False
    for k, w in enumerate(parts):
        low = w.lower()
        if low not in unknown or len(low) < 3 or not low.isalpha():
            continue
        fits = {n for n in seen if len(n) > 2 and (n.startswith(low) and len(n) - len(low) <= 2 or _one_edit(low, n))}
        if len(fits) == 1:
            out[k], changed = fits.pop(), True
    return [" ".join(out)] if changed else []


def _kept_as_said(ctx: ToolContext, found: dict) -> dict:
    """A word that the names of the codes found hold as typed is no typo ("patent ductus" is not "patient"): its
    correction is dropped."""
    if not found.get("corrections"):
        return found
    reach = device_word_reach(ctx.api, [a.lower() for a, _ in found["corrections"]])
    names = [set(re.findall(r"[a-z0-9-]+", str(r.get("device_name") or "").lower())) for r in found["rows"][:5]]
    kept = [c for c in found["corrections"] if not (reach.get(c[0].lower()) and any(c[0].lower() in n for n in names))]
    return found if len(kept) == len(found["corrections"]) else {**found, "corrections": kept}


def read_device(
    ctx: ToolContext, words: str, datasets: list[str], known: bool = True, _depth: int = 0
) -> DeviceReading:
    """The device the words name, its codes ranked in the dataset asked about, or the names path; with strength.

    `known`: some word is in the device vocabulary. Words that are not are never corrected into a device: they are
    looked up in the dataset's own names as typed, and a spelling correction is only offered as a choice."""
    words = re.sub(r"(?<=[a-z])['’]s\b", "", words)  # "the analyzer's product code": the analyzer
    if datasets and datasets[0] in NAMES_ONLY:
        return _names_only(ctx, words, datasets[0])
    ds = next((d for d in datasets if d in COUNT_NAME), None)
    found = _kept_as_said(ctx, resolve_devices(ctx.api, words, 30))
    unknown = {u.lower() for u in found["unknown"]}
    lay = joined_lay(words).lower().split()
    if any(
        w.replace("-", "") in ABBREVIATIONS and ("-" in w or w in unknown) or lay_key(w, lay_only=True) for w in lay
    ):  # "DBS", "c-pap", "c-arms", "defib": spelled out
        spelled = spell_out(words)
        reading = read_device(ctx, spelled, datasets, known=True)
        if reading.device is not None:
            reading.device.words = f"{words} ({spelled})"
        return reading
    if found["unknown"] and known and not _depth:
        for alt in _completed(words, found):  # "blood pressure cuf": the cuff its other words name
            if (again := resolve_devices(ctx.api, alt, 30))["unknown"] or not again["total"]:
                continue
            reading = read_device(ctx, alt, datasets, known=True, _depth=1)
            if reading.device is not None:
                reading.device.words = words
                reading.corrected = reading.corrected + [[words, alt]]
                return reading
    if found["partial"] and known and not _depth:
        fallback = None
        for alt in _word_forms(words):  # "fluoroscopy systems": FDA names say "Fluoroscopic"
            if (again := resolve_devices(ctx.api, alt, 30))["partial"] or not again["total"] or again["unknown"]:
                continue
            reading = read_device(ctx, alt, datasets, known=True, _depth=1)
            if reading.device is None:
                continue
            reading.device.words = words
            reading.corrected = reading.corrected + [[words, alt]]
            if reading.device.path == "names" or any(c.records for c in reading.device.codes) or ds is None:
                return reading
            fallback = fallback or reading
        if fallback is not None:
            return fallback
    if not known:
        return _unknown_words(ctx, words, ds, found)
    rows = found["rows"]
    if not rows:
        return DeviceReading(None, 0.0, unknown=found.get("unknown", []))
    if not any(_by_name(r) for r in rows[:5]):  # words only in definitions or descriptions: not a device name
        by_names, text = (_names_total(ctx, ds, words) if ds else 0), words
        for alt in [] if by_names or not ds else _spelled_out(words, found):
            if n := _names_total(ctx, ds, alt):
                by_names, text = n, alt
                break
        if not by_names and datasets[:1] == ["classification"]:  # the classification: definitions are its own
            top = rows[0]["score"] or 0
            codes = [_code(r) for r in rows if (r["score"] or 0) >= 0.9 * top][:MAX_CODES]
            return DeviceReading(
                DeviceFilter(
                    words=words,
                    codes=codes,
                    path="codes",
                    matched=len(codes),
                    how=f'no product code is named "{words}"; these product codes\' '
                    f"definitions mention it: {', '.join(c.code for c in codes)}",
                ),
                0.6,
            )
        if not by_names:
            reading = _defined(ctx, words, ds, rows)
            if not reading.choices:
                _elsewhere(ctx, words, ds, reading)  # "djo surgical screw" recalls: an enforcement report's words
            if not reading.choices and ds and not found["unknown"]:  # "breathing ventilators": codes named by
                by_defs = DeviceFilter(words=words, path="codes", codes=[_code(r) for r in rows[:3]])
                _nearby(ctx, words, ds, by_defs, reading)  # all but one of the words
            return reading
        return DeviceReading(
            DeviceFilter(
                words=words,
                path="names",
                text=text,
                how=f'no product code is named "{words}"; the dataset\'s own brand and '
                f'generic names holding "{text}" were searched: {by_names:,} found',
            ),
            0.8,
        )
    if ds and not found["partial"] and found["total"] > len(rows):
        rows = resolve_devices(ctx.api, words, min(found["total"], ALL_CODES))["rows"]  # every code, to rank
    strength = 0.45 if found["partial"] else 1.0
    if found["corrections"]:
        strength = min(strength, 0.7)
    if found["unknown"]:
        strength *= 0.6
    top = rows[0]["score"] or 0
    exact = [r for r in rows if same_words(r["device_name"], words)]  # named exactly so: that code alone
    primary = exact or [r for r in rows if (r["score"] or 0) >= 0.8 * top][:MAX_CODES]
    device = DeviceFilter(words=words, codes=[_code(r) for r in primary], path="codes", matched=found["total"])
    reading = DeviceReading(device, strength, found["corrections"], found["unknown"])
    if ds is None and found["partial"] and not found["unknown"] and _inside(primary[0]["device_name"], words):
        # no product code is named by all the words ("ultrasound probe" read as the orthopedic "Probe"): the codes
        # each naming only some of them are offered, never one of them answered as if it were the device
        reading.question = f'No product code is named by all of "{words}". Which of these do you mean?'
        reading.choices = [
            Choice(
                label=f"{r['product_code']} {r['device_name']}",
                patch={"device": DeviceFilter(words=words, path="codes", codes=[_code(r)]).model_dump()},
            )
            for r in rows[:4]
        ]
        return reading
    if ds is None:
        if found["unknown"] and not _elsewhere(ctx, words, ds, reading):  # "the NC EMERGE balloon": a brand
            _elsewhere(ctx, " ".join(w for w in words.split() if w.lower() in unknown), ds, reading)
        return reading
    counts = codes_in(ctx, ds, [r["product_code"] for r in rows])
    if counts is None:  # records per code unknown: the codes named are searched, their own count is the answer
        device.how = (
            f'the records per product code matching "{words}" could not be counted, so the codes named were '
            "searched as they are"
        )
        reading.strength = min(reading.strength, 0.6)
        return reading
    held = [r for r in rows if counts.get(r["product_code"]) and _by_name(r)]
    by_names, names_text = _names_total(ctx, ds, words), words
    for alt in [] if by_names else _spelled_out(words, found) + (_respelled(ctx, words, ds, found) if ds else []):
        if n := _names_total(ctx, ds, alt):
            by_names, names_text = n, alt  # "central line kits": "central venous catheter kits"
            break
    if found["unknown"] and by_names:
        held = []  # a model or brand word the vocabulary lacks: the names decide
    if by_names and not any((r["score"] or 0) >= 0.8 * top for r in held):
        held = []  # codes named by only some of the words: the names decide
    defined = [r for r in rows if counts.get(r["product_code"]) and not _by_name(r)]
    if not held and not by_names:
        held, defined = defined, []  # only codes whose definitions hold the words have records
    if exact and any(counts.get(r["product_code"]) for r in exact):
        held = [r for r in exact if counts.get(r["product_code"])]
    if found["unknown"] and not by_names and held and _elsewhere(ctx, words, ds, reading):
        return reading  # "the Somnera System": a brand other datasets' names hold, not this dataset's "system" codes
    if held and not found["partial"]:
        held.sort(key=lambda r: -counts[r["product_code"]])
        device.codes = [_code(r, counts) for r in held[:MAX_CODES]]
        shown = ", ".join(f"{c.code} ({c.name or 'no name'}): {c.records:,}" for c in device.codes[:4])
        device.how = (
            f'{len(held)} of the {found["total"]:,} product codes matching "{words}" hold records here: {shown}'
        )
        if by_names > sum(counts.values()):
            device.how += f'; {by_names:,} records hold "{words}" in their own device names'
        return reading
    for c in device.codes:
        c.records = 0
    shown = ", ".join(f"{c.code} ({c.name or 'no name'})" for c in device.codes[:4])
    if by_names:
        device.path, device.text = "names", names_text
        device.how = (
            f'the product codes named "{words}" ({shown}) hold no records here, so the dataset\'s own brand '
            f'and generic names holding "{names_text}" were searched: {by_names:,} found'
        )
        reading.strength = max(reading.strength, 0.6)  # the records' own names hold every word
        if defined:
            device.how += "; product codes whose definitions mention it also hold records: " + ", ".join(
                f"{r['product_code']} ({r['device_name']}): {counts[r['product_code']]:,}" for r in defined[:3]
            )
        return reading
    if held:  # partial matches only
        reading.question = (
            f'No product code matching all of "{words}" has records in this dataset. Did you mean one of these?'
        )
        reading.choices = [
            Choice(
                label=f"{r['product_code']} {r['device_name']} ({_recs(counts[r['product_code']])})",
                patch={"device": DeviceFilter(words=words, path="codes", codes=[_code(r, counts)]).model_dump()},
            )
            for r in held[:4]
        ]
    device.how = f'no record holds these product codes ({shown}) or "{words}" in its device names'
    device.found = 0
    if not reading.choices:
        _nearby(ctx, words, ds, device, reading, single=not found["unknown"])
    if not reading.choices and (found["unknown"] or any(ch.isdigit() for ch in words)):  # or a model number
        _elsewhere(ctx, words, ds, reading)  # "sterrad cassette" recalls: named in enforcement reports
    return reading


def _inside(name: str, words: str) -> bool:
    """The device name is one generic word that is only one of the words said ("Probe" for "ultrasound probe"): a
    broader name, which leaves the other words unexplained."""
    said = {w[:5] for w in re.findall(r"[a-z0-9]+", words.lower()) if w not in ("the", "a", "an", "of", "for")}
    held = {w[:5] for w in re.findall(r"[a-z0-9]+", (name or "").lower())}
    return len(held) == 1 and held < said


ELSEWHERE = ("event", "recall", "enforcement", "510k", "pma", "udi", "gudid", "registrationlisting")


def _elsewhere(ctx: ToolContext, words: str, ds: str | None, reading: DeviceReading) -> bool:
    """Words no name of this dataset holds, looked up in the other datasets' names ("who makes CoRoent?": a UDI
    brand); they are offered as choices (taken at once when the question named no dataset)."""
    from .vocab import LABEL

    if not re.search(r"[A-Za-z0-9]", words):
        return False  # no word left to look up (never a search of every name)
    have = ctx.api.datasets()
    reading.elsewhere = {d: n for d in ELSEWHERE if d != ds and d in have and (n := _names_total(ctx, d, words))}
    if not reading.elsewhere:
        return False
    where = "these records" if ds is None else f"the {LABEL.get(ds, ds)}"
    reading.question = f'No name in {where} holds "{words}"; these datasets\' names do. Which do you mean?'
    reading.choices = [
        Choice(
            label=f'{LABEL.get(d, d)}: {n:,} naming "{words}"',
            patch={
                "datasets": [d],
                "device": DeviceFilter(
                    words=words, path="names", text=words, how=f'names holding "{words}"'
                ).model_dump(),
            },
        )
        for d, n in sorted(reading.elsewhere.items(), key=lambda x: -x[1])
    ]
    return True


def _defined(ctx: ToolContext, words: str, ds: str | None, rows: list[dict]) -> DeviceReading:
    """Words that only product codes' definitions hold ("PTCA balloons"): those codes are offered when they hold
    records here; never answered on their own."""
    reading = DeviceReading(None, 0.0, unknown=[words])
    counts = (codes_in(ctx, ds, [r["product_code"] for r in rows[:8]]) if ds else {}) or {}  # unknown: none offered
    held = [r for r in rows[:8] if counts.get(r["product_code"])][:4]
    if held:
        reading.question = (
            f'No product code is named "{words}"; these product codes\' definitions mention it and '
            "hold records here. Did you mean one of them?"
        )
        reading.choices = [
            Choice(
                label=f"{r['product_code']} {r['device_name']} ({_recs(counts[r['product_code']])})",
                patch={"device": DeviceFilter(words=words, path="codes", codes=[_code(r, counts)]).model_dump()},
            )
            for r in held
        ]
    return reading


def _spelled_out(words: str, found: dict) -> list[str]:
    """The words with abbreviations and lay names spelled out as FDA names them ("CVC kit", "central line kits")."""
    low = words.lower()
    fixed = dict((a.lower(), b) for a, b in found.get("corrections", []))
    out = [" ".join(fixed.get(w, w) for w in low.split())]  # "insulin pumsp": pumps
    out += [" ".join(ABBREVIATIONS.get(w, w) for w in low.split())]
    out += [low.replace(key, exp) for key, exp in found.get("synonyms", [])]
    return [alt for alt in dict.fromkeys(out) if alt != low]


def _recs(n: int) -> str:
    return f"{n:,} record" if n == 1 else f"{n:,} records"


def _nearby(
    ctx: ToolContext, words: str, ds: str, device: DeviceFilter, reading: DeviceReading, single: bool = True
) -> None:
    """Nothing here is filed under the codes the words name: codes named by all but one of the words that do hold
    records are offered ("balloon angioplasty catheter": angioplasty catheters), with the zero as a choice."""
    parts = words.split()
    if len(parts) < 2:
        return
    rows: dict[str, dict] = {}
    for k in range(len(parts)):
        for r in resolve_devices(ctx.api, " ".join(parts[:k] + parts[k + 1 :]), 20)["rows"]:
            if _by_name(r):
                rows.setdefault(r["product_code"], r)
    counts = codes_in(ctx, ds, list(rows)) or {}  # unknown counts offer nothing
    held = sorted((r for c, r in rows.items() if counts.get(c)), key=lambda r: -counts[r["product_code"]])[:4]
    if (
        not held and single and len(parts) > 2
    ):  # then each telling word alone ("pedicle"), when it names few device kinds
        rows = {}
        for w in parts:
            if len(w) < 5:
                continue
            found = resolve_devices(ctx.api, w, 20)
            if found["partial"] or found["total"] > 20:
                continue
            for r in found["rows"]:
                if _by_name(r) and w.lower().rstrip("s") in (r["device_name"] or "").lower():
                    rows.setdefault(r["product_code"], r)
        counts = codes_in(ctx, ds, list(rows)) or {}
        held = sorted((r for c, r in rows.items() if counts.get(c)), key=lambda r: -counts[r["product_code"]])[:4]
    if not held:
        return
    reading.question = (
        f'No record here is filed under the product codes named "{words}" '
        f"({', '.join(c.code for c in device.codes[:3])}), and no record's device names hold all of "
        "its words. Did you mean one of these?"
    )
    reading.choices = [
        Choice(
            label=f"{r['product_code']} {r['device_name']} ({_recs(counts[r['product_code']])})",
            patch={"device": DeviceFilter(words=words, path="codes", codes=[_code(r, counts)]).model_dump()},
        )
        for r in held
    ]
    reading.choices.append(
        Choice(
            label=f'"{words}" as read ({", ".join(c.code for c in device.codes[:3])}): no records',
            patch={"device": device.model_dump()},
        )
    )


def _names_only(ctx: ToolContext, words: str, ds: str) -> DeviceReading:
    """Datasets whose records carry no product code (enforcement reports): the device is its words in their names."""
    n = _names_total(ctx, ds, words)
    how = (
        f"{ds.replace('enforcement', 'enforcement reports')} carry no product code; their product descriptions "
        f'holding "{words}" were searched: {n:,} found'
    )
    device = DeviceFilter(words=words, path="names", text=words, how=how, found=n)
    reading = DeviceReading(device, 0.8 if n else 0.5)
    if n and ds == "covid19serology":
        _makers(ctx, words, reading)
    return reading


def _makers(ctx: ToolContext, words: str, reading: DeviceReading) -> None:
    """A test's name that several makers' tests share ("COVID-19 IgG/IgM Rapid Test Cassette"): which maker's is
    asked (the person reads the choices), never the makers' results added up as if they were one test."""
    from .types import FirmFilter

    try:
        rows = run_tool(ctx, "count_by", {"dataset": "serology", "field": "manufacturer", "names": words, "limit": 6})
    except ToolError:
        return
    makers = [(str(r["manufacturer"]), int(r["count"])) for r in rows.rows if r.get("manufacturer")]
    if len(makers) < 2 or reading.device is None:
        return
    reading.question = f'"{words}" is the name of tests by {len(makers)} makers. Which maker\'s test do you mean?'
    reading.choices = [
        Choice(
            label=f"{m} ({_recs(c)})",
            patch={"firm": FirmFilter(words=m, name=m, key=m.lower(), variants=[m], records=c).model_dump()},
        )
        for m, c in makers[:4]
    ]
    reading.choices.append(
        Choice(label=f'all the tests named "{words}", every maker', patch={"device": reading.device.model_dump()})
    )


def _singular(w: str) -> str:
    """A word without its plural ending: "meshes" -> "mesh", "pumps" -> "pump" ("gas" and "lens" stay)."""
    if w.endswith("es") and w[:-2].endswith(("sh", "ch", "x", "ss")):
        return w[:-2]
    return w[:-1] if w.endswith("s") and len(w) > 3 else w


def same_words(name: str, words: str) -> bool:
    """A product code's device name made of the question's words, in any order and number ("Pump, Infusion,
    Insulin" = "insulin infusion pumps", "Mesh, Surgical" = "surgical meshes")."""

    def stems(text: str) -> set[str]:
        return {_singular(w) for w in re.findall(r"[a-z0-9]+", (text or "").lower())}

    return bool(name) and stems(name) == stems(words)


def _by_name(r: dict) -> bool:
    """Matched by a device name, GMDN term or brand (not only by a definition or description)."""
    return r["match"].removeprefix("synonym:") in ("device_name", "gmdn_term", "brand_name", "product_code")


def _code(r: dict, counts: dict[str, int] | None = None) -> Code:
    return Code(
        code=r["product_code"],
        name=r["device_name"] or "",
        device_class=str(r["device_class"] or ""),
        records=None if counts is None else counts.get(r["product_code"], 0),
    )


def _firm_choice(ctx: ToolContext, words: str, fixed: str, ds: str | None, reading: DeviceReading) -> bool:
    """A misspelt word whose correction is a firm with records here: offered as that firm."""
    from mirror.lookup.lexicon import firm_phrases

    from .types import FirmFilter

    hit = firm_phrases(ctx.api, [fixed]).get(fixed)
    if hit is None or not hit.records or (ds and not hit.by_dataset.get(ds)):
        return False
    name = hit.names[0] if hit.names else fixed
    firm = FirmFilter(
        words=fixed,
        name=name,
        key=hit.key,
        variants=list(hit.variants),
        records=hit.records,
        exact=hit.exact,
        match="exact" if hit.exact else "leading",
        by_dataset=hit.by_dataset,
    )
    reading.question = f'I do not know "{words}". Did you mean the firm {name}?'
    reading.choices = [
        Choice(
            label=f"the firm {name} ({hit.by_dataset.get(ds, hit.records) if ds else hit.records:,} records)",
            patch={"firm": firm.model_dump()},
        )
    ]
    return True


def _slip(a: str, b: str) -> bool:
    """One letter added, dropped or changed, or two neighbours swapped ("wheelchiar" / "wheelchair")."""
    if _one_edit(a, b):
        return True
    diff = [k for k in range(len(a)) if len(a) == len(b) and a[k] != b[k]]
    return len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]]


def _plain_typo(ctx: ToolContext, found: dict) -> bool:
    """Each correction is one slip of a word of at least 7 letters, and no firm anywhere is spelt so: the device
    word is read without asking (said in a note). Short words and firm-like words are still asked about."""
    from mirror.lookup.lexicon import firm_phrases

    pairs = [(a.lower(), b.lower()) for a, b in found.get("corrections", [])]
    if not pairs or found.get("partial") or found.get("unknown"):
        return False
    if not all(len(a) >= 7 and _slip(a, b) for a, b in pairs):
        return False
    hits = firm_phrases(ctx.api, [a for a, _ in pairs])
    return not any(h is not None and h.records for h in hits.values())


def _respelled(ctx: ToolContext, words: str, ds: str, found: dict) -> list[str]:
    """A word of a brand typed with a slip ("o-genisis graft delivery"): the records that the other words find
    in the dataset's own names, and the one word of theirs the slip is closest to ("O-Genesis"); never a guess
    among several."""
    unknown = {u.lower() for u in found.get("unknown", [])}
    parts = words.split()
    odd = [w for w in parts if unknown & set(re.findall(r"[a-z0-9]+", w.lower()))]  # "o-genisis": "genisis"
    unknown = {w.lower() for w in odd}
    rest = " ".join(w for w in parts if w.lower() not in unknown)
    if not unknown or len(parts) < 2:
        return []
    # every word unknown ("endopth xcel"): the one word the records' names hold as typed finds them
    tries = [rest] if rest else [w for w in parts if len(w) >= 4]
    rows: list[dict] = []
    for kept in tries:
        try:
            rows = run_tool(ctx, SEARCHER[ds], {"names": kept, "limit": 20}).rows
        except ToolError:
            return []
        if rows:
            unknown = {w.lower() for w in parts if w != kept} if not rest else unknown
            break
    seen = {w for r in rows for v in r.values() if isinstance(v, str) for w in re.findall(r"[\w-]+", v.lower())}
    out = list(parts)
    for k, w in enumerate(parts):
        low = w.lower()
        if low not in unknown or len(low) < 5:
            continue
        fits = {n for n in seen if len(n) >= 5 and difflib.SequenceMatcher(None, low, n).ratio() >= 0.8}
        if len(fits) != 1:
            return []
        out[k] = fits.pop()
    return [" ".join(out)] if out != parts else []


def _unknown_words(ctx: ToolContext, words: str, ds: str | None, found: dict) -> DeviceReading:
    """Words not in the device vocabulary: the dataset's own names as typed; a correction only as a choice."""
    by_names, text = (_names_total(ctx, ds, words) if ds else 0), words
    for alt in [] if by_names or not ds else _spelled_out(words, found) + _respelled(ctx, words, ds, found):
        if n := _names_total(ctx, ds, alt):
            by_names, text = n, alt
            break
    if by_names:
        device = DeviceFilter(
            words=words,
            path="names",
            text=text,
            how=f"\"{words}\" is in no product code's name; the dataset's own brand and generic "
            f"names holding it were searched: {by_names:,} found",
        )
        return DeviceReading(device, 0.8)
    reading = DeviceReading(None, 0.0, unknown=[words])
    if _elsewhere(ctx, words, ds, reading):
        return reading
    if found["rows"] and found["corrections"] and not found["partial"]:
        fixed = " ".join(b for _, b in found["corrections"])
        if _firm_choice(ctx, words, fixed, ds, reading):
            return reading  # "medtronc": the firm Medtronic, not a device defined by it
        if _plain_typo(ctx, found):  # "wheelchiar": one slip of a long word, no firm of that spelling
            again = read_device(ctx, fixed, [ds] if ds else [], known=True, _depth=1)
            if again.device is not None:
                again.device.words = fixed
                again.corrected = again.corrected + [[words, fixed]]
                return again
        r = found["rows"][0]
        d = DeviceFilter(words=fixed, path="codes", codes=[_code(x) for x in found["rows"][:3]])
        reading.question = f'I do not know "{words}". Did you mean the device "{fixed}"?'
        reading.choices = [
            Choice(
                label=f'the device "{fixed}" ({r["product_code"]} {r["device_name"]})', patch={"device": d.model_dump()}
            )
        ]
    return reading
