"""Read a question into one Interpretation (or a clarifying question): grammar words, dates, record IDs, product
codes, then firms, places and devices from the mirror's own names; scored by how much of the question it explains."""

from __future__ import annotations

import re
from datetime import date

from mirror.lookup.lexicon import product_code_details

from ..tools import ToolContext, ToolError, run_tool
from . import vocab
from .dates import MONTHS, read_dates, readable
from .ids import NOT_CODES, code_tokens, read_ids
from .names import read_names
from .resolve import MAX_CODES, codes_in, read_device
from .tokens import Tokens, tokenize
from .types import Choice, Clarification, Code, DeviceFilter, Filter, FirmFilter, Interpretation, LastResult, Side

__all__ = ["interpret", "apply_choice", "MAX_GIVEN_CODES"]

MAX_GIVEN_CODES = 20
LOOKUP_FIELDS = {"regulation_number": "classification", "device_class": "classification",
                 "review_panel": "classification", "device_name": "classification", "decision_code": "510k",
                 "decision_date": "510k", "applicant": "510k", "root_cause": "recall", "recall_class": "recall",
                 "status": "recall", "supplement_type": "pma", "clearance_type": "510k", "event_type": "event",
                 "gmdn_term": "udi", "brand_name": "udi", "version_or_model_number": "udi", "trade_name": "pma",
                 "registration_number": "registrationlisting", "city": "registrationlisting",
                 "company_name": "udi", "product_problems": "event", "implant_flag": "classification",
                 "life_sustain_support_flag": "classification", "third_party_flag": "510k",
                 "premarket_submission": "gudid"}
# flags said as filters that a question about one device asks the value of ("is PNJ an implant?")
FLAG_FIELDS = {"implant": "implant_flag", "life": "life_sustain_support_flag"}
TOP_OK = {"event": {"manufacturer", "product_code", "event_type", "patient_problem", "device_problem", "country"},
          "recall": {"manufacturer", "product_code", "recall_class", "country", "root_cause", "state", "status"},
          "enforcement": {"manufacturer", "recall_class", "country", "state", "status"},
          "510k": {"manufacturer", "product_code", "decision_code", "country", "state", "clearance_type"},
          "pma": {"manufacturer", "product_code", "decision_code", "supplement_type", "state"},
          "udi": {"manufacturer", "product_code"}, "registrationlisting": {"country", "product_code", "state"},
          "classification": {"device_class", "review_panel"},
          "gudid": {"manufacturer", "product_code", "gmdn_term", "brand_name"},
          "covid19serology": {"manufacturer", "antibody_truth", "device", "panel"}}


def _anchor(ctx: ToolContext, datasets: list[str]) -> date:
    have = ctx.api.datasets()
    for ds in datasets or ["event"]:
        if have.get(ds):
            return date.fromisoformat(have[ds])
    dates = [v for v in have.values() if v]
    return date.fromisoformat(max(dates)) if dates else date.today()


def _datasets(tokens: Tokens, take: bool, weak_ok: bool = True) -> list[str]:
    hits = vocab.match_phrases(tokens, vocab.DATASET_PHRASES, "dataset", take=take)
    strong = [t for _, _, t in hits if not t.endswith("?")]
    if "510k" in strong and "pma" in strong and not any(tokens.lows()[i] in ("pma", "pmas") for i, _, t in hits
                                                         if t == "pma"):
        strong.remove("pma")                  # "510(k) approvals"
    if "enforcement" in strong and "recall" in strong:
        strong.remove("recall")               # "enforcement reports of recalls"
    lows = tokens.lows()
    if "classification" in strong and set(strong) & {"recall", "enforcement"} and all(
            lows[i] in ("classified", "classification") for i, _, t in hits if t == "classification"):
        strong.remove("classification")       # "how was the recall classified": its recall class
    if "gudid" in strong and "udi" in strong:
        strong.remove("udi")                  # "device identifiers in GUDID": the release's own records
    weak = [t.rstrip("?") for _, _, t in hits if t.endswith("?")]
    return list(dict.fromkeys(strong or (weak if weak_ok else [])))


COUNTABLE = {"applicant": "manufacturer", "manufacturer": "manufacturer", "product_code": "product_code",
             "event_type": "event_type", "patient_problem": "patient_problem", "device_problem": "device_problem",
             "country": "country", "state": "state", "recall_class": "recall_class", "decision_code": "decision_code",
             "root_cause": "root_cause", "status": "status", "supplement_type": "supplement_type",
             "clearance_type": "clearance_type", "device_class": "device_class", "review_panel": "review_panel"}


def _measure(tokens: Tokens, it: Interpretation, keyed: bool = False) -> list[str]:
    """count / list / trend / top / compare, and the field asked about (kept in `it.field` until ids are known)."""
    hits = vocab.match_phrases(tokens, vocab.MEASURE_PHRASES, "measure")
    tags = [t for _, _, t in hits]
    lows = tokens.lows()
    fields = vocab.match_phrases(tokens, vocab.FIELD_PHRASES, "field", take=False)
    near = [(i, j, f) for i, j, f in fields if i == 0 or any(abs(i - hj) <= 2 or abs(hi - j) <= 3
                                                             for hi, hj, t in hits if t in ("top", "list"))]
    if not near and keyed:               # "B3359500 model number": a field of the record or code named
        near = [(i, j, f) for i, j, f in fields if f in LOOKUP_FIELDS][:1]
    if not near and not set(tags) & {"count", "trend", "top", "compare"}:      # "Diasorin reg number"
        near = [(i, j, f) for i, j, f in fields if f in LOOKUP_FIELDS and f not in COUNTABLE and j == len(lows)
                and lows[i - 1] not in ("from", "of", "for", "in", "with", "by", "to", "at", "per")][:1]
    broken = [(i, j, f) for i, j, f in fields if f in COUNTABLE and i > 0 and lows[i - 1] in ("by", "per", "each")
              and not (i > 1 and lows[i - 1] == "by" and (lows[i - 2].endswith("ed") or lows[i - 2] == "made"))
              and (j >= len(lows) or lows[j] not in ("in", "from", "located", "based", "that", "who", "with"))]
    # "reports by manufacturer" is a breakdown; "submitted by applicants in CA" names who submitted
    if broken and not (set(tags) & {"compare", "trend"}):     # "insulin pump reports by manufacturer"
        tags, near = tags + ["top"], broken + [x for x in near if x not in broken]
    if "compare" in tags:
        it.measure = "compare"
    elif "trend" in tags:
        it.measure, it.by = "trend", "month" if any(w.startswith("month") for w in lows) else "year"
    elif "top" in tags:
        field = next((COUNTABLE[f] for _, _, f in near if f in COUNTABLE), None)
        if field:
            it.measure, it.by = "top", field
    elif "count" in tags:
        it.measure = "count"
    if it.measure == "list" and near:
        it.field = near[0][2]                      # settled by _resolve_measure once record IDs are known
    for i, j, f in near:
        if f in (it.by, it.field) or COUNTABLE.get(f) == it.by:
            tokens.take(i, j, "field")
    for i, _, t in hits:
        if t == "top" and i + 1 < len(lows) and lows[i + 1].isdigit() and 0 < int(lows[i + 1]) <= 100:
            it.top_n = int(lows[i + 1])
            tokens.take(i + 1, i + 2, "measure")
    return [f for _, _, f in fields]


def _resolve_measure(it: Interpretation, ids: list, prev_specific: bool = False) -> None:
    """A field asked about: its value for one record or code ("what is the regulation number of DXY"), else a
    breakdown by it ("which firms recalled catheters")."""
    if it.measure != "list" or not it.field:
        return
    specific = bool(ids or (it.device and it.device.path == "given") or prev_specific)
    if it.field in LOOKUP_FIELDS and (specific or it.field not in COUNTABLE):
        it.measure = "lookup"
    elif it.field in COUNTABLE:
        it.measure, it.by, it.field = "top", COUNTABLE[it.field], None
    else:
        it.field = None


def _weak(tokens: Tokens, preview: list[str]) -> list[str]:
    """Datasets named only by weak words ("reports", "product code")."""
    hits = vocab.match_phrases(Tokens(tokens.text, tokens.toks, {}), vocab.DATASET_PHRASES, "dataset", take=False)
    weak = [t.rstrip("?") for i, _, t in hits if t.endswith("?")]
    return list(dict.fromkeys(weak))[:1]


def _ids_elsewhere(ctx: ToolContext, it: Interpretation, ids: list) -> None:
    """A K / P number asked about in a dataset that does not hold it: its product codes there, and the record."""
    from mirror.lookup.devices import resolve_devices
    for ds, f in ids:
        if f.field not in ("k_number", "pma_number") or ds in it.datasets or it.device:
            continue
        if any(d in ("recall",) for d in it.datasets) and len(it.datasets) == 1:
            continue                              # recalls carry K and P numbers themselves
        found = resolve_devices(ctx.api, str(f.value))
        codes = [Code(code=r["product_code"], name=r["device_name"] or "") for r in found["rows"]]
        if codes:
            it.device = DeviceFilter(words=str(f.value), codes=codes, path="given",
                                     how=f"{f.value} is filed under product code {', '.join(c.code for c in codes)}")
        it.datasets.append(ds)


def _filter_fits(name: str, named: list[str]) -> bool:
    """A field value said in words is a filter of the datasets named (recalls take enforcement-report fields), or of
    its own dataset when none is named; some words are filters only when their dataset is named."""
    target = vocab.FILTER_DATASET[name]
    if name in vocab.NEEDS_DATASET or named:
        return target in named or (target == "enforcement" and "recall" in named)
    return True


def _filters(tokens: Tokens, it: Interpretation, preview: list[str]) -> None:
    for i, j, tag in vocab.match_phrases(tokens, vocab.FILTER_PHRASES, "filter"):
        name, value = tag.split("=")
        words = tokens.words(i, j)
        if name == "event_type":
            it.filters.append(Filter(field="event_type", value=value, label=value.lower() + " reports", words=words))
        elif name == "class":
            it.filters.append(Filter(field="class", value=value, label=f"class {value}", words=words))
        elif name == "supplements":
            it.supplements = "supplements" if value == "supplements" else "originals"
        elif name in vocab.FILTER_FIELDS and not _filter_fits(name, preview):
            for k in range(i, j):
                tokens.role.pop(k, None)              # "positive airway pressure", "recalls of ... kits"
        elif name in vocab.FILTER_FIELDS:
            label = vocab.FILTER_FIELDS[name][1].format(v=value)
            values = list(dict.fromkeys([value, value[:1] + value[1:].lower()])) if name == "root" else value
            it.filters.append(Filter(field=f"word:{name}", value=values, label=label, words=words))


def _codes(ctx: ToolContext, tokens: Tokens, it: Interpretation) -> list[str]:
    """Product codes typed in the question; returns those unknown to the mirror that were said to be codes."""
    said, caps = code_tokens(tokens)
    caps += _lower_codes(ctx, tokens, set(said + caps))
    idx = said + caps
    if not idx:
        return []
    if len(idx) > MAX_GIVEN_CODES:
        tokens.take(min(idx), max(idx) + 1, "code")
        it.notes.append(f"{len(idx)} product codes is more than I search at once ({MAX_GIVEN_CODES})")
        return [tokens.toks[i].text.upper() for i in idx]
    typed = [tokens.toks[i].text.upper() for i in idx]
    known = product_code_details(ctx.api, typed)
    unknown = [typed[k] for k, i in enumerate(idx) if typed[k] not in known and i in said]
    for k, i in enumerate(idx):
        if typed[k] in known or i in said:
            tokens.take(i, i + 1, "code")
    if known:
        it.device = DeviceFilter(words=", ".join(dict.fromkeys(c for c in typed if c in known)), path="given",
                                 codes=[Code(code=c, name=d.device_name, device_class=d.device_class)
                                        for c, d in known.items()])
    return list(dict.fromkeys(unknown))


def _lower_codes(ctx: ToolContext, tokens: Tokens, seen: set[int]) -> list[int]:
    """Three-letter words typed in lower case that are product codes the mirror knows and no English or device
    word ("ozp adverse events", "frn regulation number"; not "ear", "gas", "bag")."""
    from mirror.lookup.lexicon import device_word_reach
    cands = [i for i, t in enumerate(tokens.toks) if i not in seen and tokens.free(i) and len(t.text) == 3
             and t.text.isalpha() and t.text.islower() and t.low not in vocab.FUNCTION | vocab.FIELD_WORDS
             and t.low not in ENGLISH_3 and t.low not in MONTHS and t.text.upper() not in NOT_CODES
             and t.low not in _DATASET_WORDS]
    if not cands:
        return []
    lows = tokens.lows()
    cands = [i for i in cands if i + 1 >= len(lows) or lows[i + 1] in _DATASET_WORDS | vocab.FUNCTION |
             vocab.FIELD_WORDS or not lows[i + 1].isalpha()]        # "djo surgical screw" is a firm's name
    known = product_code_details(ctx.api, [tokens.toks[i].text for i in cands])
    reach = device_word_reach(ctx.api, [tokens.toks[i].low for i in cands if tokens.toks[i].text.upper() in known])
    return [i for i in cands if tokens.toks[i].text.upper() in known and not reach.get(tokens.toks[i].low)]


_DATASET_WORDS = {w for table in (vocab.DATASET_PHRASES, vocab.MEASURE_PHRASES, vocab.FILTER_PHRASES) for k in table
                  for w in k}
_LEGAL_3 = {"inc", "llc", "ltd", "plc", "gmbh", "spa", "srl", "sas", "corp", "pty", "pvt", "kft", "bhd"}
# three-letter English words that are also product codes, never read as codes when typed in lower case
ENGLISH_3 = set("""all and any are bag bed box but can cap car cup day did ear end eye far few for gas get got gum had
has her him his hot how ice ill its job key kit lab law leg lid lip log low man map may men met mix new nor not now
oil old one our out own pad pan pen per pet pin pot put ray red rod row run saw say see set she sit six son sun tab
tap ten the tie tip toe too top toy try tub two use van via war was way web who why win yes yet
you""".split()) | _LEGAL_3


def interpret(ctx: ToolContext, question: str, last: LastResult | None = None
              ) -> tuple[Interpretation, Clarification | None]:
    """The best reading of the question, and a clarifying question when that reading is weak or tied."""
    it = Interpretation(question=question)
    tokens = tokenize(question[:2000])
    if not tokens.toks:
        it.understood = False
        return it, None
    ids = read_ids(tokens)
    it.filters += [f for _, f in ids]
    unknown_codes = _codes(ctx, tokens, it)
    preview = _datasets(Tokens(tokens.text, tokens.toks, dict(tokens.role)), take=False)
    ids_ds = list(dict.fromkeys(ds for ds, _ in ids))
    rng = read_dates(tokens, _anchor(ctx, preview or ids_ds))
    if rng:
        it.date_from, it.date_to, it.date_words = rng.start, rng.end, rng.words
    periods = [rng] if rng else []
    if rng:
        it.date_field = next((vocab.DATE_KIND[w] for w in tokens.lows() if w in vocab.DATE_KIND), "")
    while periods and len(periods) < 4 and (more := read_dates(tokens, _anchor(ctx, preview or ids_ds))):
        periods.append(more)                      # "2020 vs 2014": one side per period
    _filters(tokens, it, preview)
    said_fields = _measure(tokens, it, keyed=bool(ids or it.device))
    strong = _datasets(tokens, take=True, weak_ok=False)
    implied = (["event"] if any(f.field == "event_type" for f in it.filters) else []) + \
        (["pma"] if it.supplements != "all" else []) + \
        [vocab.FILTER_DATASET[f.field[5:]] for f in it.filters if f.field.startswith("word:")][:1]
    it.datasets = list(dict.fromkeys(strong + implied))
    held = [i for i, t in enumerate(tokens.toks) if tokens.free(i) and len(t.text) == 2 and t.text.isupper()
            and i and tokens.toks[i - 1].low in ("country", "state", "countries", "states")]
    for i in held:
        tokens.role[i] = "place?"                 # "country = IT" is Italy, not "it"
    follow = vocab.match_phrases(tokens, vocab.FOLLOWUP, "followup")
    for i in held:
        tokens.role.pop(i, None)
    _typos(ctx, tokens, it)
    if last and last.reading and not ids:
        _field_not_dataset(tokens, it)        # "regulation?" after an answer: its regulation number
    refine = bool(last and last.reading and not it.datasets and not ids and (_refining(tokens, follow) or
                                                                            _bare(tokens, it)))
    it.datasets = it.datasets or _weak(tokens, preview)
    if refine:
        it.datasets = list(last.reading.get("datasets") or [])   # "just 2009?": the previous question, narrowed
    elif not it.datasets and follow and last and last.dataset:
        it.datasets = [last.dataset]          # "what about Boston Scientific?": the previous question's dataset
    vocab.verbs_as_grammar(tokens)
    for k in tokens.unused():
        if any(tokens.toks[k].low in vocab.DATASET_WORDS.get(ds, ()) for ds in it.datasets):
            tokens.take(k, k + 1, "dataset")      # "serology samples tested": the records' own nouns
    names = read_names(ctx, tokens, vocab.FUNCTION | vocab.FIELD_WORDS)
    for k in range(len(tokens.toks)):
        if tokens.free(k) and tokens.toks[k].low in vocab.FUNCTION | vocab.FIELD_WORDS:
            tokens.take(k, k + 1, "function")
    _resolve_measure(it, ids, prev_specific=refine and _specific(last.reading) or
                     bool(names.firms) and it.field in FIRM_LOOKUPS)
    defaulted = not it.datasets
    _defaults(it, ids_ds, names)
    _ids_elsewhere(ctx, it, ids)
    _recall_numbers(ctx, it)
    _ids_apply(it, ids_ds)
    clar = _devices_and_names(ctx, tokens, it, names, defaulted)
    _more_sides(it, names, periods)
    _firm_home(it)
    if it.measure == "top" and it.by == "product_code" and it.device and it.device.path == "given" and \
            len(it.device.codes) <= 3:
        it.measure, it.by = "list", None          # "which MDRs are under OZO": its records, not a ranking
    _flag_question(it, tokens)
    if it.measure == "list" and not it.field and it.device and not ids:
        it.field = next((f for f in said_fields if f in CLASSIFICATION_FIELDS), None)   # "... system device class"
    _classification_lookup(it, defaulted)
    if refine:
        yesno = tokens.toks[0].low in ("is", "are", "was", "were", "does", "do")
        classes = [f for f in it.filters if f.field == "class"]
        if yesno and classes and _specific(last.reading):         # "is it class II or class III?"
            it.filters = [f for f in it.filters if f.field != "class"]
            it.measure, it.field = "lookup", "device_class"
        it = _merge(Interpretation(**last.reading), it, bool(rng), last)
    elif follow and last and not (it.device or it.firm or ids or it.place):
        _bind(it, last, [tokens.lows()[i] for i, _, _ in follow])
    elif follow and last and last.place and not it.place and any(tokens.lows()[i] == "there" for i, _, _ in follow):
        it.place, it.followup = last.place, "keys"
    _classes(it)
    said = {t.low for t in tokens.toks}
    if it.supplements == "all" and "pma" in it.datasets and not any(f.field == "pma_number" for f in it.filters) \
            and said & {"approval", "approvals", "approved", "approve"}:
        it.supplements = "originals" if it.measure in ("count", "list", "compare") else "all"
    enf = [f for f in it.filters if f.field == "recall_class" or f.field.startswith("word:") and
           vocab.FILTER_DATASET.get(f.field[5:]) == "enforcement"]
    if "recall" in it.datasets and enf:
        it.datasets = [("enforcement" if d == "recall" else d) for d in it.datasets]   # those fields live there
        what = "recall classes are" if enf[0].field == "recall_class" else f"{enf[0].label} are"
        it.notes.append(f"{what} given in FDA enforcement reports, so those were counted")
        it.datasets = list(dict.fromkeys(it.datasets))
    if it.date_from and rng and not preview and it.datasets and _anchor(ctx, it.datasets) != _anchor(ctx, []):
        again = read_dates(tokenize(rng.words), _anchor(ctx, it.datasets))
        if again:
            it.date_from, it.date_to = again.start, again.end
    _score(tokens, it, names, unknown_codes)
    if clar is None and names.questions:
        clar = Clarification(question=names.questions[0][0], choices=names.questions[0][1])
    if clar is None and it.understood and not refine:
        _rank_when_bare(it, said_fields)
        clar = _ask_when_weak(ctx, it) or (_ask_dataset(it) if defaulted else None)
    if clar is not None and not it.understood and any(c.patch.get("device") for c in clar.choices):
        it.understood = True                  # the question names a device we could not read: ask
    return it, clar if it.understood else None


def _typos(ctx: ToolContext, tokens: Tokens, it: Interpretation) -> None:
    """Dataset words typed with a typo ("recals"), unless the word is a device or firm word."""
    from mirror.lookup.lexicon import device_word_reach
    free = [i for i in tokens.unused() if tokens.toks[i].low not in vocab.FUNCTION]
    cands = {i: vocab.fuzzy_grammar_word(tokens.toks[i].low) for i in free}
    cands = {i: w for i, w in cands.items() if w}
    if not cands:
        return
    reach = device_word_reach(ctx.api, [tokens.toks[i].low for i in cands])
    for i, w in cands.items():
        if reach.get(tokens.toks[i].low, 0) == 0:
            tag = vocab.DATASET_PHRASES.get((w,), "").rstrip("?")
            if tag and tag not in it.datasets:
                it.datasets.append(tag)
                it.notes.append(f"read \"{tokens.toks[i].text}\" as \"{w}\"")
            tokens.take(i, i + 1, "typo")


def _defaults(it: Interpretation, ids_ds: list[str], names) -> None:
    if it.datasets:
        if ids_ds and "510k" in it.datasets and "pma" in ids_ds and "pma" not in it.datasets:
            pass
        return
    by_filter = [("event" if f.field == "event_type" else "") for f in it.filters]
    if ids_ds:
        it.datasets = ids_ds[:1]
    elif it.field and it.field in LOOKUP_FIELDS:
        it.datasets = [LOOKUP_FIELDS[it.field]]
    elif any(by_filter):
        it.datasets = ["event"]
    elif it.supplements != "all":
        it.datasets = ["pma"]
    elif it.measure in ("count", "trend", "top"):
        it.datasets = ["event"]
    elif it.measure == "compare" and (names.firms or names.devices):
        it.datasets = ["event"]
    else:
        it.datasets = ["classification"]


def _devices_and_names(ctx: ToolContext, tokens: Tokens, it: Interpretation, names,
                       defaulted: bool = False) -> Clarification | None:
    clar = None
    it.firm = names.firms[0] if names.firms else None
    it.place = names.places[0] if names.places else it.place
    devices = []
    for a, b, words in _joined(tokens, names.devices, it.measure == "compare"):
        reading = read_device(ctx, words, it.datasets, known=tokens.role.get(a) == "device")
        switch = it.datasets == ["recall"] and list(reading.elsewhere) == ["enforcement"]    # a recall told by
        if (defaulted or switch) and len(reading.elsewhere) == 1 and not it.filters:   # its enforcement report
            ds, n = next(iter(reading.elsewhere.items()))
            it.datasets = [ds]
            it.notes.append(f"\"{words}\" is named only in the {vocab.LABEL.get(ds, ds)}, so those were searched")
            reading = read_device(ctx, words, [ds], known=tokens.role.get(a) == "device")
        if reading.choices and clar is None:
            clar = Clarification(question=reading.question, choices=reading.choices)
        if reading.device is None or reading.strength < 0.3:
            for k in range(a, b):
                tokens.role.pop(k, None)          # unexplained: matched nothing
            continue
        if reading.corrected:
            it.notes.append("read " + ", ".join(f"\"{a_}\" as \"{b_}\"" for a_, b_ in reading.corrected))
        if reading.unknown:
            it.unexplained += reading.unknown
        it.confidence = min(it.confidence, reading.strength)
        devices.append(reading.device)
    if it.device is None and devices:
        it.device = devices[0]
    elif it.device is not None and it.device.path == "given" and it.datasets:
        counts = codes_in(ctx, it.datasets[0], it.codes())
        for c in it.device.codes:
            c.records = counts.get(c.code) if counts else None
    if it.measure == "compare" or len(names.firms) > 1 or len(devices) > 1:
        sides = [Side(label=f.name if f.words == f.name else f.words, firm=f) for f in names.firms[:4]]
        if len(sides) < 2:
            sides = [Side(label=d.words, device=d) for d in devices[:4]]
        if len(sides) >= 2:
            it.measure, it.sides = "compare", sides
            it.firm = None if sides[0].firm else it.firm
            it.device = None if sides[0].device else it.device
    return clar


def _ids_apply(it: Interpretation, ids_ds: list[str]) -> None:
    """A record number searches only the datasets that carry it: "510(k) for DI B3359500" is never every 510(k)."""
    from ..planner import ID_FILTERS
    fields = [f.field for f in it.filters if f.field in ID_FILTERS]
    if not fields:
        return
    by_code = bool(it.device and it.device.path == "given" and any(str(f.value) == it.device.words for f in it.filters))
    keep = [d for d in it.datasets if by_code or any(d in ID_FILTERS[f] for f in fields)]   # K number: its codes
    if "di" in fields and set(it.datasets) & {"510k", "pma"}:
        it.field, it.measure = "premarket_submission", "lookup"     # "the 510(k) for DI B3359500"
    if it.field == "premarket_submission" and "di" in fields:
        keep = [d for d in keep if d in ("gudid", "udi")] or ["gudid"]
    if keep != it.datasets:
        gone = [d for d in it.datasets if d not in keep]
        it.datasets = keep or [d for d in ids_ds if d in ID_FILTERS[fields[0]]][:1] or ids_ds[:1]
        if gone:
            it.notes.append(f"{vocab.LABEL.get(gone[0], gone[0])} do not carry {it.filters[0].label}, so "
                            f"{' and '.join(vocab.LABEL.get(d, d) for d in it.datasets)} were searched")


def _recall_numbers(ctx: ToolContext, it: Interpretation) -> None:
    """A recall number asked about in recalls that only an enforcement report holds is read there; "what class"
    of a recall is its recall class (given in enforcement reports)."""
    numbers = [f.value for f in it.filters if f.field == "product_res_number"]
    if not numbers and not set(it.datasets) & {"recall", "enforcement"}:
        return
    if it.field == "device_class" or it.field is None and it.measure == "list" and re.search(
            r"\b(classified|classification|what class)\b", it.question.lower()):
        it.field = "recall_class"
        it.measure = "lookup"
    if "recall" in it.datasets and it.field == "recall_class" and not numbers:
        it.datasets = list(dict.fromkeys("enforcement" if d == "recall" else d for d in it.datasets))
        it.notes.append("recall classes are given in FDA enforcement reports, so those were read")
    if not numbers or "recall" not in it.datasets:
        return
    try:
        in_recalls = run_tool(ctx, "search_recalls", {"filters": {"product_res_number": numbers}, "limit": 0}).total
        in_reports = run_tool(ctx, "search_enforcement", {"filters": {"recall_number": numbers}, "limit": 0}).total
    except ToolError:
        return
    if not in_recalls and in_reports or it.field == "recall_class" and in_reports:
        it.datasets = list(dict.fromkeys("enforcement" if d == "recall" else d for d in it.datasets))
        it.notes.append(f"{', '.join(map(str, numbers))} is in FDA enforcement reports, so those were read")


FIRM_LOOKUPS = {"status", "root_cause", "recall_class", "registration_number", "city", "decision_code",
                "decision_date", "company_name"}


def _firm_home(it: Interpretation) -> None:
    """A firm whose records in the dataset asked about are none, but that enforcement reports name ("the Advanced
    Sterilization Products recall"): its enforcement reports are read (said in a note)."""
    f = it.firm
    if not f or not f.by_dataset or it.datasets != ["recall"] or f.by_dataset.get("recall"):
        return
    if f.by_dataset.get("enforcement"):
        it.datasets = ["enforcement"]
        it.notes.append(f"{f.name} has no record in the recalls dataset; its FDA enforcement reports were read")


def _rank_when_bare(it: Interpretation, said: list[str]) -> None:
    """"serology test manufacturers": a field named with nothing to narrow by is a ranking by that field."""
    if it.measure != "list" or it.field or it.device or it.firm or it.place or it.filters or it.date_from or \
            it.date_to or it.sides:
        return
    by = next((COUNTABLE[f] for f in said if f in COUNTABLE and COUNTABLE[f] in TOP_OK.get(
        it.datasets[0] if it.datasets else "", ())), None)
    if by:
        it.measure, it.by = "top", by


def _flag_question(it: Interpretation, tokens: Tokens) -> None:
    """"is PNJ an implant?", "NIQ implant flag": the flag's value for the device, not a filter."""
    flags = [f for f in it.filters if f.field.startswith("word:") and f.field[5:] in FLAG_FIELDS]
    if not flags or not it.device or it.sides or it.measure not in ("list", "lookup", "count"):
        return
    asks = tokens.toks[0].low in ("is", "are", "does", "do", "was", "were") or "flag" in flags[0].words.lower()
    if asks and it.measure == "count":
        it.measure = "list"                        # "does DXY count as an implant?"
    if asks and (it.device.path == "given" or len(it.device.codes) <= 3):
        it.filters = [f for f in it.filters if f is not flags[0]]
        it.measure, it.field, it.datasets = "lookup", FLAG_FIELDS[flags[0].field[5:]], ["classification"]
        codes = [c.model_copy(update={"records": None}) for c in it.device.codes]
        it.device = it.device.model_copy(update={"path": "given", "how": "", "codes": codes})


CLASSIFICATION_FIELDS = {"device_class", "review_panel", "regulation_number"}


def _classification_lookup(it: Interpretation, defaulted: bool) -> None:
    """"what class are CPAP machines": a field of the classification, looked up for the device's product codes."""
    if it.field == "regulation_number" and it.firm and not it.device and not it.filters:
        it.field, it.measure, it.datasets = "registration_number", "lookup", ["registrationlisting"]   # "reg number"
        return
    field = it.by if it.measure == "top" else it.field
    if field in CLASSIFICATION_FIELDS and (defaulted or it.datasets == ["classification"]) and it.device and \
            it.device.codes and not it.sides:
        it.measure, it.field, it.by, it.datasets = "lookup", field, None, ["classification"]
        codes = [c.model_copy(update={"records": None}) for c in it.device.codes]
        it.device = it.device.model_copy(update={"path": "given", "how": "", "codes": codes})


def _joined(tokens: Tokens, spans: list, compare: bool) -> list:
    """Device spans apart only by grammar ("pulse generators for pacemakers") read as one device; spans joined by
    and / or / vs stay apart (compared side by side)."""
    if compare or len(spans) < 2:
        return spans
    out = [spans[0]]
    for a, b, words in spans[1:]:
        pa, pb, pw = out[-1]
        gap = tokens.lows(pb, a)
        if any(w in ("and", "or", "vs", "versus", "&", "nor") for w in gap) or len(gap) > 2:
            out.append((a, b, words))
        else:
            out[-1] = (pa, b, f"{pw} {words}")
    return out


def _more_sides(it: Interpretation, names, periods: list) -> None:
    """Comparisons of product codes, places or periods: one side each ("OZP vs OZO", "CA vs TX", "2020 vs 2014").
    Codes and places are compared when the question compares; two periods always are (never the years between)."""
    if it.sides:
        return
    sides: list[Side] = []
    if len(periods) > 1:
        sides = [Side(label=readable(p.start, p.end), date_from=p.start, date_to=p.end) for p in periods]
        it.date_from = it.date_to = None
        it.date_words = ""
    elif it.measure == "compare" and it.device and it.device.path == "given" and len(it.device.codes) > 1:
        sides = [Side(label=c.code, device=it.device.model_copy(update={"codes": [c], "words": c.code}))
                 for c in it.device.codes[:4]]
        it.device = None
    elif len(names.places) > 1:                   # a search takes one place: each is a side
        sides = [Side(label=p.name, place=p) for p in names.places[:4]]
        it.place = None
    if len(sides) > 1:
        it.measure, it.sides = "compare", sides


_REFINE_FIRST = {"and", "just", "only", "but", "now", "also", "filter", "same", "narrow", "limit", "restrict", "then"}


FIELD_DATASET_WORDS = {"regulation": "regulation_number", "regulations": "regulation_number",
                       "panel": "review_panel", "classification": "device_class", "classified": "device_class"}


def _field_not_dataset(tokens: Tokens, it: Interpretation) -> None:
    """A follow-up whose only dataset word is also a field ("regulation?", "and the panel?"): that field."""
    used = [i for i, r in tokens.role.items() if r == "dataset"]
    content = [i for i in tokens.unused() if tokens.toks[i].low not in vocab.FUNCTION | vocab.FIELD_WORDS
               and any(ch.isalnum() for ch in tokens.toks[i].low)]
    if used and not content and all(tokens.toks[i].low in FIELD_DATASET_WORDS for i in used):
        it.datasets = []
        it.field = FIELD_DATASET_WORDS[tokens.toks[used[0]].low]
        for i in used:
            tokens.role[i] = "field"


def _bare(tokens: Tokens, it: Interpretation) -> bool:
    """Nothing new is named: only a field, a measure, a filter or a period ("root cause?", "class?", "by state")."""
    content = [i for i in tokens.unused() if tokens.toks[i].low not in vocab.FUNCTION | vocab.FIELD_WORDS
               and any(ch.isalnum() for ch in tokens.toks[i].low)]
    said = bool(it.field or it.by or it.filters or it.date_from or it.date_to or it.measure != "list")
    return not content and said


def _specific(reading: dict) -> bool:
    """The reading names one thing: a device by few codes, a firm, or a record number."""
    device = reading.get("device") or {}
    ids = [f for f in reading.get("filters", []) if f.get("field") in ID_FIELDS]
    return bool(reading.get("firm") or ids or device and (device.get("path") in ("given", "names") or
                                                          len(device.get("codes", [])) <= 3))


ID_FIELDS = ("k_number", "pma_number", "supplement_number", "product_res_number", "mdr_report_key", "di",
             "regulation_number")


def _refining(tokens: Tokens, follow: list) -> bool:
    """The question narrows or changes the previous one ("just 2009?", "and for Medtronic?", "what about X?")."""
    return bool(follow) or (bool(tokens.toks) and tokens.toks[0].low in _REFINE_FIRST)


def _merge(prev: Interpretation, new: Interpretation, dated: bool, last: LastResult | None = None) -> Interpretation:
    """The previous reading with what the new question says instead (device, firm, place, dates, filters, measure)."""
    out = prev.model_copy(deep=True)
    out.question, out.notes, out.unexplained = new.question, new.notes, new.unexplained
    out.followup, out.confidence, out.understood = "keys", new.confidence, True
    if new.device:
        out.device = new.device
    if new.firm:
        out.firm = new.firm
    if new.place:
        out.place = new.place
    if dated:
        out.date_from, out.date_to, out.date_words = new.date_from, new.date_to, new.date_words
    fields = {f.field for f in new.filters}
    out.filters = [f for f in out.filters if f.field not in fields] + new.filters
    if new.measure != "list" or new.field:
        out.measure, out.by, out.field, out.top_n = new.measure, new.by, new.field, new.top_n
    if new.sides:
        out.sides = new.sides
    if out.field and out.measure == "lookup" and last and last.codes:
        _field_home(out, last)
    return out


def _field_home(it: Interpretation, last: LastResult) -> None:
    """A field the previous dataset's records do not carry ("what class is it?" after 510(k)s): looked up where it
    lives, for the previous answer's product codes."""
    from ..tools.searchers import SPECS
    ds = it.datasets[0] if it.datasets else ""
    home = LOOKUP_FIELDS.get(it.field or "")
    if not home or home == ds or ds in SPECS and it.field in SPECS[ds].row:
        return
    if home == "classification":
        it.datasets = ["classification"]
        it.device = DeviceFilter(words="those", path="given", codes=[Code(code=c) for c in last.codes[:MAX_CODES]])
        it.firm = it.place = None
        it.filters = [f for f in it.filters if f.field not in ID_FIELDS]
        it.date_from = it.date_to = None


BROAD = 20        # a one-word device term matching more product codes than this is asked about


def _ask_when_weak(ctx: ToolContext, it: Interpretation) -> Clarification | None:
    """A reading too weak to answer with a figure: nothing to look for, a one-word device matching many codes, or
    a firm named by its first words that has no records in the dataset asked about."""
    from .vocab import LABEL
    specific = it.device or it.firm or it.place or it.filters or it.sides or it.date_from or it.date_to
    if not specific and it.measure == "list" and it.datasets and it.datasets != ["classification"]:
        label = " and ".join(LABEL.get(d, d) for d in it.datasets)
        return Clarification(question=f"Your question names no device, firm, product code, place or period. What "
                                      f"should I look for in the {label}?",
                             choices=[Choice(label=f"all the {label} (the whole dataset)", patch={"measure": "count"})])
    d = it.device
    if d and d.path == "codes" and len(d.words.split()) == 1 and d.matched > BROAD and not it.sides:
        held = [c for c in d.codes if c.records]
        choices = [Choice(label=f"{c.code} {c.name}" + (f" ({c.records:,} records)" if c.records else ""),
                          patch={"device": d.model_copy(update={"codes": [c]}).model_dump()}) for c in
                   (held or d.codes)[:4]]
        choices.append(Choice(label=f"all {d.matched} product codes named \"{d.words}\"",
                              patch={"device": d.model_dump()}))
        return Clarification(question=f"\"{d.words}\" names {d.matched} kinds of device (product codes). Which one "
                                      "do you mean?", choices=choices)
    f = it.firm
    if f and f.match == "leading" and f.by_dataset and not any(f.by_dataset.get(ds) for ds in it.datasets):
        choices = [Choice(label=f"{f.name}: {n:,} {LABEL.get(ds, ds)}", patch={"datasets": [ds]})
                   for ds, n in sorted(f.by_dataset.items(), key=lambda x: -x[1]) if ds in LABEL][:3]
        from .resolve import read_device
        alt = read_device(ctx, f.words, it.datasets, known=False)
        choices += alt.choices[:2]
        if choices:
            label = " and ".join(LABEL.get(d_, d_) for d_ in it.datasets)
            return Clarification(question=f"\"{f.words}\" is {f.name}, which has no {label} in the mirror. "
                                          "Did you mean one of these?", choices=choices)
    return None


ASK_DATASETS = ("event", "recall", "510k", "pma", "enforcement", "classification", "udi", "registrationlisting")


def _ask_dataset(it: Interpretation) -> Clarification | None:
    """A question that names no dataset and nothing to look for ("how many?"): which records to count."""
    from .vocab import LABEL
    if it.device or it.firm or it.place or it.filters or it.sides or it.date_from or it.date_to or it.field:
        return None
    measure = it.measure if it.measure in ("count", "list", "trend", "top") else "count"
    return Clarification(question="Your question names no dataset and nothing to look for. Which records do you "
                                  "want counted?",
                         choices=[Choice(label=f"all the {LABEL[ds]}", patch={"datasets": [ds], "measure": measure})
                                  for ds in ASK_DATASETS])


def _bind(it: Interpretation, last: LastResult, words: list[str]) -> None:
    """"those" / "them": the previous answer's result set."""
    if last.kind == "firms" and last.firms:
        it.firm = FirmFilter(words="those firms", name=", ".join(last.firms[:5]), variants=last.firms[:10],
                             match="those")
        it.followup = "firms"
    elif last.codes:
        it.device = DeviceFilter(words="those", path="given", codes=[Code(code=c) for c in last.codes[:MAX_CODES]])
        it.followup = "codes"
    if last.place and not it.place:
        it.place = last.place


def _classes(it: Interpretation) -> None:
    """"class II" is a recall class for recalls and enforcement reports, a device class elsewhere."""
    out = []
    for f in it.filters:
        if f.field != "class":
            out.append(f)
            continue
        roman = f.value
        if set(it.datasets) & {"recall", "enforcement"}:
            out.append(Filter(field="recall_class", value=f"Class {roman}", label=f"class {roman}", words=f.words))
        else:
            out.append(Filter(field="device_class", value={"I": "1", "II": "2", "III": "3"}[roman],
                              label=f"device class {roman}", words=f.words))
    it.filters = out


def _score(tokens: Tokens, it: Interpretation, names, unknown_codes: list[str]) -> None:
    """Unexplained words, confidence, and whether the question was understood at all."""
    content = [i for i, t in enumerate(tokens.toks) if t.low not in vocab.FUNCTION and any(c.isalnum() for c in t.low)]
    left = [tokens.toks[i].text for i in content if tokens.free(i)]
    it.unexplained = list(dict.fromkeys(it.unexplained + left))
    share = len(left) / max(1, len(content))
    it.confidence = round(min(it.confidence, 1 - share), 2)
    specific = bool(it.device or it.firm or it.place or it.filters or it.sides or it.date_from or it.date_to)
    named = bool(set(tokens.role.values()) & {"dataset", "measure", "field", "filter", "code", "id", "date"})
    if len(unknown_codes) > MAX_GIVEN_CODES:
        it.understood = False
    elif unknown_codes:
        it.understood = False
        it.notes.append(f"{', '.join(unknown_codes[:10])}: not a product code in the mirror")
    elif it.device and it.device.path == "given" and len(it.device.codes) > MAX_GIVEN_CODES:
        it.understood = False
        it.notes.append(f"{len(it.device.codes)} product codes is more than I search at once ({MAX_GIVEN_CODES})")
    elif not named and not specific:
        it.understood = False
    elif left and not specific:
        it.understood = False                   # a name we could not read: never answer about the whole dataset
    elif names.cue_without_name and not it.firm and left:
        it.understood = False
    elif share > 0.5:
        it.understood = False


def apply_choice(it: Interpretation, choice: Choice) -> Interpretation:
    """The interpretation with the picked reading (its patch) applied."""
    data = it.model_dump()
    data.update(choice.patch)
    out = Interpretation.model_validate(data)
    out.confidence = 1.0
    return out
