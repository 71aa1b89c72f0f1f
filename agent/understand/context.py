"""The words of quality and regulatory work that frame a question ("for our CAPA", "before we qualify X as a screw
supplier", "for the DHF"), and the words that describe a record named by its number: the question's context, never
a firm, device or filter to search for."""

from __future__ import annotations

import re

from . import vocab
from .tokens import Tokens
from .types import Filter, Interpretation

__all__ = ["take_context", "describe_record", "RECORD_FIELDS"]

# one word of the work itself: read as grammar wherever it stands
_WORK = set(
    """fleet fleets capa capas supplier suppliers vendor vendors subcontractor subcontractors qualify qualifying
qualification
requalify requalification audit audits auditing auditor auditors dhf dhfs dhr dhrs dmr dmrs ncr ncrs
nonconformance nonconformances deviation deviations escalation escalate escalating y/n yes/no y n i'm im
linking link attaching reviewing preparing prepping compiling updating documenting investigating customer
customers regulatory intelligence request requested requesting postmarket post-market surveillance pms psur
psurs pmsr pmcf upcoming assessment assessments inspection inspections incoming agreement
agreements notified asked asking quality compliance remediation found finding findings
defect defects eua euas ide ides ifu ifus client clients friend friends colleague colleagues""".split()
)
_PARTIES = set(
    "client clients customer customers supplier suppliers vendor vendors colleague colleagues friend friends".split()
)
# a noun of the work: context when a work word or "our" stands before it ("risk file", "our submission")
_NOUNS = {
    "mapping",
    "file",
    "files",
    "review",
    "reviews",
    "submission",
    "folder",
    "binder",
    "memo",
    "evaluation",
    "investigation",
    "letter",
    "letters",
    "slide",
    "slides",
    "deck",
    "report",
    "spreadsheet",
    "questionnaire",
    "pack",
    "packs",
    "meeting",
    "presentation",
    "briefing",
}
_WORK_BEFORE = {
    "inventory",
    "fleet",
    "asset",
    "se",
    "eua",
    "ide",
    "ifu",
    "landscape",
    "strategy",
    "portfolio",
    "supplier",
    "vendor",
    "risk",
    "technical",
    "design",
    "history",
    "master",
    "trend",
    "trending",
    "management",
    "quarterly",
    "annual",
    "monthly",
    "weekly",
    "capa",
    "complaint",
    "audit",
    "surveillance",
    "safety",
    "evaluation",
    "our",
    "board",
}
_QUALIFIERS = {"product", "products", "post", "market", "postmarket", "regulatory", "clinical", "internal"}
_ARTICLE = {"a", "an", "our", "the", "one", "this", "that", "customer", "new", "single"}
# a complaint of one's own work ("I have a complaint on a cable", "our complaint about"): context, not the events
_COMPLAINT = {"complaint"}
_FORM_OWNERS = {"mdr", "3500a", "medwatch", "fda", "submission", "complaint", "the", "our", "this", "that", "a"}
_NUMBERED = re.compile(r"([a-z]+)[-#_]?(?=[\w-]*\d)[\w-]+")
_OWN_NUMBER = re.compile(r"#?(?!(?:19|20)\d\d$)\d[\d-]*")
_ACTIONS = re.compile(r"(?i)\benforcement\s+actions?\b")
# nouns of a record's fields that no field lexicon holds alone ("the problem FDA coded on it")
_FIELD_NOUNS = {"problem", "problems", "coded", "code", "date", "start", "started", "class", "classification"}
_SUBJECTS = {"it", "they", "this", "that", "he", "she", "those", "these"}
_AUXILIARIES = {"did", "does", "do", "was", "were", "is", "are", "has", "have", "had", "will", "would", "could"}
# record numbers: a question naming one asks about that record; its other words describe it
RECORD_FIELDS = {
    "k_number",
    "pma_number",
    "supplement_number",
    "product_res_number",
    "mdr_report_key",
    "report_number",
    "event_id",
}


def take_context(tokens: Tokens) -> list[str]:
    """Mark the work's words as grammar; returns what was read so ("CAPA", "screw supplier")."""
    lows, out = tokens.lows(), []
    for i in range(len(lows)):
        if not tokens.free(i):
            continue
        w, prev = lows[i], lows[i - 1] if i else ""
        if (m := _NUMBERED.fullmatch(w)) and m[1] in _WORK | _COMPLAINT:
            tokens.take(i, i + 1, "function")  # "CAPA-0042", "NCR#17": the work's own record, no device
            out.append(tokens.words(i, i + 1))
        elif w in _WORK:
            start = i
            if w in {"supplier", "suppliers", "vendor", "vendors"} and i >= 2 and lows[i - 2] in _ARTICLE:
                if tokens.free(i - 1) and lows[i - 1].isalpha():
                    start = i - 1  # "a screw supplier": the kind of supplier, not a device asked about
            end = i + 1
            if w not in ("y", "n") and end < len(lows) and tokens.free(end) and _OWN_NUMBER.fullmatch(lows[end]):
                end += 1  # "CAPA 2231", "audit 24-017": the work's own number, neither a date nor a record
                while end < len(lows) and tokens.toks[end].start == tokens.toks[end - 1].end and tokens.free(end):
                    end += 1  # "2024-117" typed as one number, read by the tokenizer in two
            if w in _PARTIES and end < len(lows) and tokens.free(end) and re.fullmatch(r"[a-z]{3,}ing", lows[end]):
                end += 1  # "a client weighing ...", "a supplier making ...": what the party does, no device
            tokens.take(start, end, "function")
            out.append(tokens.words(start, end))
        elif w == "part" and prev == "as" and i + 1 < len(lows) and lows[i + 1] == "of":
            tokens.take(i, i + 1, "function")  # "as part of the supplier evaluation"
        elif w in _NOUNS and prev in _WORK_BEFORE | _WORK | _QUALIFIERS:
            start = i
            while start and lows[start - 1] in _WORK_BEFORE | _QUALIFIERS and tokens.free(start - 1):
                start -= 1  # "management review", "annual product review", "risk file": none of them a device
            tokens.take(start, i + 1, "function")
            out.append(tokens.words(i - 1, i + 1))
        elif (
            w in ("ref", "ref#", "sku", "cat")
            and i + 1 < len(lows)
            and any(c.isdigit() for c in lows[i + 1])
            and any(c.isalpha() for c in lows[i + 1])
        ):
            tokens.take(i, i + 1, "function")  # "REF AK-25502": the label's word before its catalog number
        elif w in ("form", "forms") and prev in _FORM_OWNERS:
            start = i - 1 if prev not in _ARTICLE and tokens.free(i - 1) else i
            tokens.take(start, i + 1, "function")  # "for the MDR form", "our 3500A form": the asker's paperwork
            out.append(tokens.words(start, i + 1))
        elif w in _COMPLAINT and (prev in _ARTICLE or prev == "customer"):
            tokens.take(i, i + 1, "function")  # "I have a complaint on ...": the work, not the MAUDE reports
            out.append(tokens.words(i, i + 1))
    for m in _ACTIONS.finditer(tokens.text):
        for k, t in enumerate(tokens.toks):
            if m.start() <= t.start < m.end() and t.low in ("action", "actions") and tokens.free(k):
                tokens.take(k, k + 1, "function")  # "enforcement action": the enforcement report, not a device
    return out


def describe_record(tokens: Tokens, it: Interpretation, ids: list[tuple[str, Filter]]) -> None:
    """A record named by its number: the question's other content words describe it ("Z-0053-2020, the lidstock
    labeling one"); they are read as its description, never as a firm, device or patient to filter on."""
    if not any(f.field in RECORD_FIELDS for _, f in ids) or it.sides:
        return
    own = {ds for ds, f in ids if f.field in RECORD_FIELDS}
    other = [
        f
        for f in it.filters
        if f.field.startswith("word:") and vocab.FILTER_DATASET.get(f.field[5:], next(iter(own))) not in own
    ]  # "the blue kit one": a word of another dataset's field describes the record, it is no filter here
    for f in other:
        it.filters.remove(f)
        it.datasets = [d for d in it.datasets if d != vocab.FILTER_DATASET[f.field[5:]]]
    grammar = vocab.FUNCTION | vocab.FIELD_WORDS | set(vocab.DATE_KIND)
    free = [
        k
        for k in tokens.unused()
        if any(c.isalnum() for c in tokens.toks[k].text) and tokens.toks[k].low not in grammar | _FIELD_NOUNS
    ]
    lows = tokens.lows()
    verbs = {k for k in free if k >= 2 and lows[k - 1] in _SUBJECTS and lows[k - 2] in _AUXILIARIES}
    verbs |= {k + 1 for k in verbs if k + 1 < len(lows) and lows[k + 1] in ("up", "out", "off", "down")}
    free = [k for k in free if k not in verbs]  # "when did it wrap up": what the record did is asked, not described
    if not free and not other:
        return
    said_else = [
        k
        for k in range(len(tokens.toks))
        if k not in free and tokens.role.get(k) != "id" and tokens.toks[k].text.isalnum()
    ]
    if not said_else:
        return  # "frobnicate K202114 zorp": nothing reads as a question around the number, so nothing describes it
    for k in free:
        tokens.take(k, k + 1, "described")
    said = " ".join([tokens.toks[k].text for k in free] + [f.words for f in other if f.words])
    label = next(f.label for _, f in ids if f.field in RECORD_FIELDS)
    it.notes.append(f'"{said}" was read as describing {label}, not as a filter')
