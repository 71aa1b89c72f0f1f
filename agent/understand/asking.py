"""When to ask instead of answering: nothing to look for, a one-word device naming many product codes, a firm with
no records in the dataset asked about, or no dataset at all."""

from __future__ import annotations

import re

from ..tools import ToolContext, ToolError, run_tool
from .resolve import same_words
from .types import Choice, Clarification, Interpretation

__all__ = [
    "ask_when_weak",
    "ask_field_of_many",
    "ask_event_date",
    "ask_dataset",
    "ask_firm_dataset",
    "ask_class_kind",
    "ask_recall_class_kind",
    "BROAD",
    "ASK_DATASETS",
]

BROAD = 20  # a one-word device term matching more product codes than this is asked about
FEW = 3  # a device term whose codes disagree on the field asked: more codes than this are asked about, not listed


def _names_dataset(it: Interpretation) -> bool:
    """The question names the dataset it asks about ("pacemaker PMAs"), not only a device ("how many pumps?")."""
    from . import vocab
    from .tokens import tokenize

    hits = vocab.match_phrases(tokenize(it.question), vocab.DATASET_PHRASES, "dataset", take=False)
    return any(not t.endswith("?") and t in it.datasets for _, _, t in hits)


def ask_when_weak(ctx: ToolContext, it: Interpretation) -> Clarification | None:
    """A reading too weak to answer with a figure: nothing to look for, a one-word device matching many codes, or
    a firm named by its first words that has no records in the dataset asked about."""
    from .vocab import LABEL

    specific = it.narrowed()
    if not specific and it.measure == "list" and it.datasets and it.datasets != ["classification"]:
        label = " and ".join(LABEL.get(d, d) for d in it.datasets)
        return Clarification(
            question=f"Your question names no device, firm, product code, place or period. What "
            f"should I look for in the {label}?",
            choices=[Choice(label=f"all the {label} (the whole dataset)", patch={"measure": "count"})],
        )
    d = it.device
    if d and d.path == "codes" and len(d.words.split()) == 1 and d.matched > BROAD and not it.sides:
        held = [c for c in d.codes if c.records]
        if (
            len(held) == 1
            and it.measure in ("count", "list")
            and len(it.datasets) == 1
            and it.supplements != "originals"  # its records may all be supplements: a zero is asked about first
            and _names_dataset(it)
        ):
            return None  # "pacemaker PMAs": every reading gives the one code's records, so nothing is asked
        if it.firm and it.measure == "lookup" and held and sum(c.records or 0 for c in held) <= 5:
            it.device = d.model_copy(update={"codes": held})  # "netech analyzer publish date": the firm's own few
            it.notes.append(f'"{d.words}" was read as the product codes {it.firm.name} has records under')
            return None
        choices = [
            Choice(
                label=f"{c.code} {c.name}"
                + (f" ({c.records:,} record{'' if c.records == 1 else 's'})" if c.records else ""),
                patch={"device": d.model_copy(update={"codes": [c]}).model_dump()},
            )
            for c in (held or d.codes)[:4]
        ]
        choices.append(
            Choice(label=f'all {d.matched} product codes named "{d.words}"', patch={"device": d.model_dump()})
        )
        return Clarification(
            question=f'"{d.words}" names {d.matched} kinds of device (product codes). Which one do you mean?',
            choices=choices,
        )
    f = it.firm
    if f and f.match == "leading" and f.by_dataset and not any(f.by_dataset.get(ds) for ds in it.datasets):
        from ..writing import noun

        choices = [
            Choice(label=f"{f.name}: {n:,} {noun(ds, n)}", patch={"datasets": [ds]})
            for ds, n in sorted(f.by_dataset.items(), key=lambda x: (-x[1], x[0]))
            if ds in LABEL
        ][:3]
        from .resolve import read_device

        alt = read_device(ctx, f.words, it.datasets, known=False)
        choices += alt.choices[:2]
        if choices:
            label = " and ".join(LABEL.get(d_, d_) for d_ in it.datasets)
            return Clarification(
                question=f'"{f.words}" is {f.name}, which has no {label} in the mirror. Did you mean one of these?',
                choices=choices,
            )
    return None


ASK_DATASETS = ("event", "recall", "510k", "pma", "enforcement", "classification", "udi", "registrationlisting")


def ask_dataset(it: Interpretation) -> Clarification | None:
    """A question that names no dataset and nothing to look for but perhaps a period ("how many?", "what happened
    in 2020?"): which records to count (the period is kept)."""
    from .vocab import LABEL

    if it.device or it.firm or it.place or it.filters or it.sides or it.field:
        return None
    measure = it.measure if it.measure in ("count", "list", "trend", "top") else "count"
    # a bare period ("what happened in 2020?", "how many in 2020?") is asked back too: every dataset has dates
    dated = bool(it.date_words and (it.date_from or it.date_to))
    what = f"names a period ({it.date_words}) but no dataset" if dated else "names no dataset and nothing to look for"
    return Clarification(
        question=f"Your question {what}. Which records{' of that period' if dated else ''} do you want counted?",
        choices=[
            Choice(label=f"all the {LABEL[ds]}", patch={"datasets": [ds], "measure": measure}) for ds in ASK_DATASETS
        ],
    )


def ask_firm_dataset(it: Interpretation) -> Clarification | None:
    """A firm named with no dataset ("what do you have on Boston Scientific?") whose records are in several
    datasets: which records to read (its records per dataset as choices)."""
    from .vocab import LABEL

    f = it.firm
    if not f or it.device or it.sides or it.field or it.filters:
        return None
    held = sorted(((d, n) for d, n in f.by_dataset.items() if n and d in LABEL), key=lambda x: (-x[1], LABEL[x[0]]))
    if len(held) < 2:
        return None
    return Clarification(
        question=f"{f.name} has records in {len(held)} datasets and your question names none. "
        "Which records do you want?",
        choices=[Choice(label=f"{LABEL[d]}: {n:,} naming {f.name}", patch={"datasets": [d]}) for d, n in held[:6]],
    )


def ask_class_kind(it: Interpretation) -> Clarification | None:
    """A bare "class II" with no dataset: the device class (product codes) or the recall class (enforcement
    reports)."""
    from .types import Filter

    classes = [f for f in it.filters if f.field == "device_class"]
    if not classes or it.datasets == ["classification"] or it.device or it.firm or it.place or len(it.filters) > 1:
        return None
    f = classes[0]
    roman = {"1": "I", "2": "II", "3": "III"}.get(str(f.value), str(f.value))
    device = Filter(field="device_class", value=str(f.value), label=f"device class {roman}", words=f.words)
    recall = Filter(field="recall_class", value=f"Class {roman}", label=f"class {roman}", words=f.words)
    return Clarification(
        question=f'"{f.words}" can be a device class or a recall class. Which do you mean?',
        choices=[
            Choice(
                label=f"device class {roman}: product codes in the classification",
                patch={"datasets": ["classification"], "filters": [device.model_dump()]},
            ),
            Choice(
                label=f"recall class {roman}: FDA enforcement reports",
                patch={"datasets": ["enforcement"], "filters": [recall.model_dump()]},
            ),
        ],
    )


_CLASS_N = r"class[\s-]*(?:i{1,3}|[123]|one|two|three)\b"
_CLASS_OF_DEVICE_RECALLS = re.compile(rf"(?i)\b{_CLASS_N}\s+devices?\s+recall")
# a bare "class 2 recalls" or "recalls that are class ii" counted: the two readings give different figures, so a count
# asks which class is meant ("enforcement" or "recall class" names the recall's); a list shows each record's class
_CLASS_RECALLS = re.compile(rf"(?i)\b{_CLASS_N}\s+recall|\brecalls?\s+(?:that\s+)?(?:are|were|is|was)\s+{_CLASS_N}")
_RECALL_CLASS_SAID = re.compile(r"(?i)\benforcement|\brecall\s+class|\bclassified|\bclassification")
# "a Class I device recall", "on a class 2 recall": one recall and its classification, as regulatory usage says it;
# "class I device recalls" (plural) may still be the recalled devices' class and is asked about
_ONE_RECALL_CLASSED = re.compile(rf"(?i)\b(?:a|an|one|single)\s+{_CLASS_N}\s+(?:device\s+|product\s+)?recall\b(?!s)")

# "any class I recalls for <firm>?", "<firm> class one recalls, any?": whether the firm ever had a recall of that
# class, which is the recall's own classification as regulatory usage says it
_EVER_ASKED = re.compile(r"(?i)^\W*(?:any|has|have|had|did|does|is|are|was|were)\b|\bany\W*$|\bever\b")


def ask_recall_class_kind(it: Interpretation) -> Clarification | None:
    """ "class III device recalls": the recalled devices' class or the recalls' class; both are in the data."""
    from .types import Filter

    rc = [f for f in it.filters if f.field == "recall_class"]
    bare = it.measure == "count" and _CLASS_RECALLS.search(it.question)
    if not rc or len(it.filters) > 1 or it.sides or not (bare or _CLASS_OF_DEVICE_RECALLS.search(it.question)):
        return None
    if _RECALL_CLASS_SAID.search(it.question):
        return None
    firm_ever = it.firm is not None and _EVER_ASKED.search(it.question)
    if (_ONE_RECALL_CLASSED.search(it.question) or firm_ever) and set(it.datasets) <= {"recall", "enforcement"}:
        it.datasets = ["enforcement"]  # the recall's class is carried by the enforcement reports
        if not any("recall classes" in n for n in it.notes):  # the note on enforcement reports says it already
            it.notes.append(f'"{rc[0].words}" was read as the recall\'s classification')
        return None
    f = rc[0]
    roman = str(f.value).removeprefix("Class ")
    arabic = {"I": "1", "II": "2", "III": "3"}.get(roman, roman)
    device = Filter(field="device_class", value=arabic, label=f"device class {roman}", words=f.words)
    return Clarification(
        question=f"\"{f.words}\" can be the recalled devices' class or the recall's class. Which do you mean?",
        choices=[
            Choice(
                label=f"recalls of device class {roman} products",
                patch={"datasets": ["recall"], "filters": [device.model_dump()], "notes": []},
            ),
            Choice(
                label=f"recall class {roman}: FDA enforcement reports",
                patch={"datasets": ["enforcement"], "filters": [f.model_dump()]},
            ),
        ],
    )


# words that say what kind of product, not which device ("PSA test", "glucose assay")
_KIND_WORDS = frozenset({"test", "assay", "kit", "device", "system", "product", "type", "thing", "unit"})


_SPECIMENS = frozenset({"blood", "serum", "plasma", "urine", "lab", "laboratory", "home"})


def _lay(words: str) -> bool:
    """The term holds a lay abbreviation that FDA names spell out ("PSA" for prostate specific antigen)."""
    from mirror.lookup.devices import ABBREVIATIONS

    if any(w in ABBREVIATIONS for w in re.findall(r"[a-z]+", words.lower())):
        return True
    return _lay_family(words)


def _lay_family(words: str) -> bool:
    """A lay name of a family of devices ("CGM", "continuous glucose monitors"): its codes that disagree on the
    field asked are asked about, however few (one value for all would be wrong for some)."""
    from .lay import LAY_WORDS, lay_key

    low = re.sub(r"\bcontinous\b", "continuous", words.lower())
    if any(lay_key(w, lay_only=True) for w in re.findall(r"[a-z]+", low)):
        return True
    # the lay word spelled out ("continuous glucose monitors" for CGM): the same family of product codes
    return any(len(v.split()) > 2 and re.search(rf"\b{re.escape(v)}", low) for v in LAY_WORDS.values())


def _core_words(words: str) -> str:
    """A device term without its kind words, lay abbreviations spelled out ("PSA test" -> "prostate specific
    antigen")."""
    from mirror.lookup.devices import ABBREVIATIONS

    kept = [ABBREVIATIONS.get(w, w) for w in re.findall(r"[a-z]+", words.lower()) if w not in _KIND_WORDS]
    return " ".join(kept) if kept else words.lower()


def _names_all(name: str, words: str) -> bool:
    """A product code's own name says every word of the term (a lay name by its FDA words), kind words aside."""
    from mirror.lookup.devices import ABBREVIATIONS

    name = re.sub(r"[^a-z]+", " ", name.lower())
    stems = [w.rstrip("s") for w in re.findall(r"[a-z]+", words.lower()) if len(w) > 2 and w not in _KIND_WORDS]
    return bool(stems) and all(s_ in name or ABBREVIATIONS.get(s_, "\0") in name for s_ in stems)


_CLASS_FIELDS = {"device_class": "device_class", "regulation_number": "regulation_number", "review_panel": "panel"}


def ask_field_of_many(ctx: ToolContext, it: Interpretation) -> Clarification | None:
    """A classification field asked of a device term whose product codes do not share one value ("what class is a
    catheter?": catheters are in classes I, II and III): which device is meant, never one value for all."""
    from mirror.lookup.devices import resolve_devices

    d = it.device
    key = _CLASS_FIELDS.get(it.field or "")
    if it.measure != "lookup" or not key or not d or d.words == ", ".join(c.code for c in d.codes) or it.sides:
        return None
    few = FEW if it.field == "device_class" else BROAD  # a class said for one of them reads as the device's class
    core = _core_words(d.words)  # "PSA test" -> "prostate specific antigen": the codes its FDA words name
    if d.matched <= few and not _lay(d.words):
        return None  # a few codes are each answered with their own value
    rows = resolve_devices(ctx.api, core if d.matched <= few else d.words, limit=500)["rows"]
    said = d.words
    if _lay(d.words):  # "PSA blood test": the codes named by the antigen, whatever the specimen
        said = " ".join(w for w in re.findall(r"[a-z]+", d.words.lower()) if w not in _SPECIMENS)
    named = [r for r in rows if _names_all(r.get("device_name") or "", said)]
    if not named and d.codes and d.path == "given" and it.field == "device_class" and len(d.words.split()) == 2:
        # no code's own name says all the words ("wearable heart device"): the codes found are guesses from parts
        # of them, so differing values are asked about however few the codes are
        have = {c.code for c in d.codes}
        named = [r for r in rows if r.get("product_code") in have]
        few = 1
    rows = named  # the codes whose own names say the words, not those found by a definition or a brand
    values = {str(r.get(key) or "") for r in rows} - {"", "N", "U", "f"}
    if d.matched <= few and len(rows) > max(1, len(d.codes)):
        few = 1  # a lay name ("PSA test") covers every code named by its FDA words, whatever one code it found first
    if _lay_family(d.words) and it.field == "device_class":
        few = 1
    if len(rows) <= few or len(values) <= 1:  # a few codes are each answered with their own value
        return None
    exact = [r for r in rows if same_words(r.get("device_name") or "", d.words)]
    if len(exact) == 1 and d.codes:  # "surgical mesh" is the code named "Mesh, Surgical": that one, not a question
        r = exact[0]
        code = d.codes[0].model_copy(
            update={"code": r["product_code"], "name": r["device_name"] or "", "records": None}
        )
        it.device = d.model_copy(update={"codes": [code], "path": "given", "how": ""})
        return None
    rows = sorted(rows, key=lambda r: (str(r.get("device_class") or ""), r.get("device_name") or ""))
    picks: list[dict] = []
    for v in sorted(values):  # one choice per value first, then the rest in order
        picks += [r for r in rows if str(r.get(key) or "") == v][:1]
    picks += [r for r in rows if r not in picks][: max(0, 5 - len(picks))]
    label = {"device_class": "device classes", "regulation_number": "regulation numbers", "review_panel": "panels"}
    choices = [
        Choice(
            label=f"{r['product_code']} {r['device_name']}",
            patch={
                "device": d.model_copy(
                    update={
                        "codes": [
                            d.codes[0].model_copy(
                                update={
                                    "code": r["product_code"],
                                    "name": r["device_name"] or "",
                                    "device_class": str(r.get("device_class") or ""),
                                }
                            )
                        ]
                        if d.codes
                        else [],
                        "path": "given",
                    }
                ).model_dump()
            },
        )
        for r in picks[:5]
    ]
    roman = {"1": "I", "2": "II", "3": "III"}
    shown = [roman.get(v, v) if it.field == "device_class" else v for v in sorted(values)]
    return Clarification(
        question=f'"{d.words}" names {len(rows)} kinds of device (product codes) with different '
        f"{label[it.field or 'device_class']} ({', '.join(shown[:4])}). Which one do you mean?",
        choices=choices,
    )


def ask_event_date(ctx: ToolContext, it: Interpretation) -> Clarification | None:
    """A period of adverse event reports said with no date ("MDRs for December 2022"): none were received in it but
    some occurred in it, so the zero by the date received would answer for one of two dates; the person is asked
    which one. When both dates give records, or none, the date received stands (the count is said so)."""
    if (
        it.datasets != ["event"]
        or it.measure not in ("count", "list")
        or it.field
        or it.date_field
        or not (it.date_from and it.date_to)
        or it.sides
        or not it.understood
    ):
        return None
    from ..planner import plan_calls

    calls = [c for c in plan_calls(it) if c.get("dataset") == "event"]
    if len(calls) != 1:
        return None
    args = {**calls[0]["args"], "limit": 0}
    try:
        received = run_tool(ctx, calls[0]["tool"], {**args, "date_field": "received"}).total
        occurred = run_tool(ctx, calls[0]["tool"], {**args, "date_field": "occurred"}).total
    except ToolError:
        return None
    if received or not occurred:
        return None
    from .dates import readable

    when = readable(it.date_from, it.date_to)
    return Clarification(
        question=f"Adverse event reports have two dates: {occurred} occurred in {when} but none were received by "
        "FDA in it. Which date do you mean?",
        choices=[
            Choice(label=f"date of event (when it occurred): {occurred}", patch={"date_field": "occurred"}),
            Choice(label="date received by FDA: 0", patch={"date_field": "received"}),
        ],
    )
