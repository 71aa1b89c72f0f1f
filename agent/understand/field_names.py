"""The field names users ask about, read from the mirror's own field catalogue (mirror/api/fields.json): each
field path's last part said in words ("registration.owner_operator.owner_operator_number" -> "owner operator
number", "owner/operator no.", "owner-operator #"), with a few synonyms. Matched before device words, so a field
name is never read as a device ("operator" is no product code here)."""

from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path

import mirror.api

from ..tools import ToolContext, ToolError, run_tool
from ..tools.specs import SEARCHER
from .tokens import Tokens
from .types import Interpretation

__all__ = [
    "FieldName",
    "field_names",
    "find_fields",
    "take_fields",
    "label",
    "catalogue_path",
    "ask_field",
    "reason_in_enforcement",
]

# last parts that are record numbers given as filters ("product code DXY", "K number K200606") or dates: those
# have their own readers, so the lexicon leaves them alone
_SKIP = {
    "product_code",
    "k_number",
    "pma_number",
    "mdr_report_key",
    "recall_number",
    "product_res_number",
    "fei_number",
    "report_number",
    "event_key",
    "res_event_number",
    "cfres_id",
    "event_id",
    "supplement_number",
    "primary_di",
    "public_device_record_key",
    # read elsewhere (a model or lot said is a filter; a phone or address is not read), or never asked by name
    "lot_number",
    "model_number",
    "catalog_number",
    "phone_number",
    "bus_phone_num",
    "email_address",
    "zip_code",
    "postal_code",
    "country_code",
    "iso_country_code",
    "state_code",
    "firm_name",
    "first_name",
    "last_name",
    "middle_initial",
    "udi_di",
    "report_to_fda",
    "report_to_manufacturer",
    "initial_report_to_fda",
    "adverse_event_flag",
    "text_type_code",
    "mdr_text_key",
}
# the words people use for some parts of a field's name
_WORD = {
    "number": r"(?:numbers?|nos?\.?|nbrs?\.?|nums?\.?|#)",
    "registration": r"(?:registration|reg\.?)",
    "operator": r"(?:operators?)",
    "problems": r"(?:problems?|issues?)",
    "reason": r"(?:reasons?)",
    "device": r"(?:device)",
    "class": r"(?:class(?:ification)?)",
}
# said in other words than the field's own ("why recalled" is the root cause; these are the plain synonyms)
_SYNONYMS = {
    "reason_for_recall": [r"recall\s+reasons?", r"reasons?\s+(?:for|of)\s+(?:the\s+)?recall"],
    "owner_operator_number": [r"owner[\s/-]*op\.?\s*(?:numbers?|nos?\.?|#)"],
    "product_problems": [r"device\s+problems?"],
    "establishment_type": [
        r"(?:kinds?|types?|sorts?)\s+of\s+(?:an?\s+)?establishments?",
        r"what\s+operations",
        r"registered\s+(?:to\s+(?:do|perform|carry\s+out)|operations|activities|as\s+what)",
    ],
}
# the values of an establishment's type, said as the options of the question ("manufacturer, sterilizer,
# relabeler?"): the field's own values, never devices or firms
ESTABLISHMENT_VALUES = set(
    """manufacturer manufacturers sterilizer sterilizers relabeler relabelers relabeller relabel repackager repackagers
repack repacker reprocessor reprocessors developer developers specification contract distributor distributors importer
importers exporter exporters initial complaint handler kitter""".split()
)


class FieldName:
    """One field asked about: its last part ("owner_operator_number"), its path per dataset, and the words."""

    def __init__(self, leaf: str, paths: dict[str, str], pattern: re.Pattern[str]):
        self.leaf, self.paths, self.pattern = leaf, paths, pattern

    def __repr__(self) -> str:
        return f"FieldName({self.leaf!r}, {self.paths!r})"


def _catalogue() -> dict[str, dict]:
    path = Path(mirror.api.__file__).parent / "fields.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    return {ds: fields for ds, fields in data.items() if isinstance(fields, dict)}


def _words_pattern(words: list[str]) -> str:
    """ "owner operator number", "owner/operator no.", "owner-operator #": the words with any joiner between."""
    sep = r"(?:\s*[/_-]\s*|\s+)"
    parts = [_WORD.get(w, re.escape(w) + ("s?" if w.isalpha() and not w.endswith("s") else "")) for w in words]
    body = parts[0]
    for w, part in zip(words[1:], parts[1:]):
        body += (r"\s*" if w == "number" else sep) + part
    return body


def _odd(leaf: str) -> bool:
    """Parts no one says: numbered lines, contact details, one-letter codes ("manufacturer_g1_street_1")."""
    return any(c.isdigit() for c in leaf) or "contact" in leaf or any(len(w) == 1 for w in leaf.split("_"))


@lru_cache(maxsize=1)
def field_names() -> tuple[FieldName, ...]:
    """Every field of more than one word in the catalogue, longest name first (the most specific match wins)."""
    leaves: dict[str, dict[str, str]] = {}
    for ds, fields in _catalogue().items():
        for path in sorted(fields, key=len):
            leaf = path.rsplit(".", 1)[-1]
            if leaf in _SKIP or "_" not in leaf or leaf.startswith("date_") or leaf.endswith("_date") or _odd(leaf):
                continue
            leaves.setdefault(leaf, {}).setdefault(ds, path)
    out = []
    for leaf, paths in leaves.items():
        words = leaf.split("_")
        alts = [_words_pattern(words), *_SYNONYMS.get(leaf, [])]
        pattern = re.compile(r"(?i)(?<![\w-])(?:" + "|".join(alts) + r")(?![\w])")
        out.append(FieldName(leaf, paths, pattern))
    return tuple(sorted(out, key=lambda f: -len(f.leaf)))


def find_fields(question: str) -> list[tuple[FieldName, int, int]]:
    """The field names said in the question, with their character spans; overlapping names: the longest."""
    found: list[tuple[FieldName, int, int]] = []
    for f in field_names():
        for m in f.pattern.finditer(question):
            if not any(m.start() < e and s < m.end() for _, s, e in found):
                found.append((f, m.start(), m.end()))
    return sorted(found, key=lambda x: x[1])


def take_fields(tokens: Tokens, known: frozenset[str] | set[str] = frozenset()) -> list[FieldName]:
    """Mark the tokens of each field name said (role "field") so no other reading uses them; the names, in order.
    Fields in `known` are left to the readers that already know them (taken later, only where still free)."""
    names = []
    for f, start, end in find_fields(tokens.text):
        if f.leaf in known:
            continue
        idx = [i for i, t in enumerate(tokens.toks) if start <= t.start < end]
        if idx and all(tokens.free(i) for i in idx):
            for i in idx:
                tokens.role[i] = "field"
            names.append(f)
            values = [i for i, t in enumerate(tokens.toks) if tokens.free(i) and t.low in ESTABLISHMENT_VALUES]
            confirmed = re.search(r"(?i)\b(?:confirm|verify|whether|includes?|including|included)\b", tokens.text)
            if f.leaf == "establishment_type" and values and not confirmed:  # "... - manufacturer, sterilizer,
                for i in values:  # relabeler?", "on our list as a sterilizer": the field's values offered or
                    tokens.role[i] = "function"  # assumed, not one value asked to be confirmed
    return names


def catalogue_path(leaf: str, ds: str) -> str | None:
    """The path of a field in one dataset's records (None when that dataset does not carry it). Fields read
    elsewhere by their words (a lot number) are found in the catalogue itself."""
    found = next((f.paths.get(ds) for f in field_names() if f.leaf == leaf), None)
    if found or leaf not in _SKIP:
        return found
    paths = sorted(_catalogue().get(ds, {}), key=lambda p: (len(p), p))
    # the record's own field before the list openFDA derives from the product code: a recall's FEI number is the
    # recalling firm's (firm_fei_number), never every FEI number of the code's establishments (openfda.fei_number)
    own = [p for p in paths if "openfda." not in p and p.rsplit(".", 1)[-1].endswith("_" + leaf)]
    same = [p for p in paths if p.rsplit(".", 1)[-1] == leaf]
    if own and all("openfda." in p for p in same):
        return own[0]
    return next(iter(same), None)


def label(field: str) -> str:
    """A field path said in words: "registration.owner_operator.owner_operator_number" -> "owner operator number"."""
    return field.rsplit(".", 1)[-1].replace("_", " ")


def ask_field(it: Interpretation, asked: list[FieldName], named: bool) -> None:
    """A field asked for by name that no other reading used ("the owner/operator number for Ethicon"): its value
    in the records named (never a count of them). A field of a whole dataset, with nothing named, is left alone."""
    given = it.field in ("fei_number", "registration_number") and any(
        f.field in ("word:fei", "word:regnum") for f in it.filters
    )  # "owner operator number for FEI 3002808212": the FEI number is given, the field named is asked
    if not asked or not named or it.field and not given or it.sides or it.measure not in ("list", "lookup"):
        return
    f = asked[0]
    keep = [d for d in it.datasets if d in f.paths]
    if not keep and "gudid" in it.datasets and "udi" in f.paths:  # the GUDID's own records, as openFDA holds them
        keep = ["udi"]
        it.notes.append(f"the {label(f.paths['udi'])} of GUDID devices is read from their openFDA UDI records")
    if it.datasets and not keep:
        return  # a dataset named that does not carry it: the answer says so
    own = [d for d, p in f.paths.items() if "openfda." not in p]  # the dataset's own field before the derived one
    it.datasets = keep or own[:1] or list(f.paths)[:1]
    it.measure, it.field, it.by = "lookup", f.leaf, None


def reason_in_enforcement(it: Interpretation) -> None:
    """ "why was the Sterrad cassette recalled" in enforcement reports, which carry no root cause: the record's
    reason for recall, read for the records named (a ranking of causes is not what they hold)."""
    if it.datasets != ["enforcement"] or "root_cause" not in (it.field, it.by) or it.sides:
        return
    if it.device is None and it.firm is None and not any(f.field == "product_res_number" for f in it.filters):
        return
    it.measure, it.field, it.by = "lookup", "reason_for_recall", None


# a record's own field, not a ranking, when a device named in the records' own names is one or a few records
_FEW = 3


def field_of_named(ctx: ToolContext, it: Interpretation, lookups: set[str] | frozenset[str]) -> None:
    """ "what device class is the Yumizen C1200 CRP": a field asked of a device that a few records name (found by
    their own names) is the value in those records, with their numbers, never a count or a ranking of them."""
    d = it.device
    asked = it.by if it.measure == "top" else it.field if it.measure == "list" else None
    if asked not in lookups or it.sides or d is None or d.path != "names":
        return
    found = d.found
    if found is None and len(it.datasets) == 1 and it.datasets[0] in SEARCHER:
        try:
            found = run_tool(ctx, SEARCHER[it.datasets[0]], {"names": d.text or d.words, "limit": 0}).total
        except ToolError:
            return
    if found is None or not 0 < found <= _FEW:
        return
    it.measure, it.field, it.by = "lookup", asked, None
