"""Device names, brands, product codes and submission numbers to ranked product codes (resolve_device's SQL).

A compact vocabulary is built once per mirror version (`Reader.derived`) in that version's in-memory database
(`memory.main._lookup_device_*`): `code` (one row per product code: class, regulation, panel, GUDID device count),
`word` (the light plural stem of each word of each term, sorted and indexed by stem; a term is a classification
device name or definition, a GMDN preferred term, a GUDID brand or product-code name, or the bag of words of one
product code's device descriptions), `best` (per stem, product code and source the fewest words of a term holding
the stem) and `lex` (each stem, a surface spelling
and how many product codes it reaches). A query touches only these: its words are
matched to stems (exactly, as singular/plural, else by edit distance among stems of the same first letter), a few lay
synonyms add alternative phrasings, and each term holding query words is scored by how much of the query it covers
(weighted by rarity) and how much of the term the query covers; a product code takes its best term. Product codes and
K / P / DEN numbers given directly are looked up as such. Only bound parameters carry user text.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
import time
import unicodedata
from typing import Any

from ..store.reader import Snapshot
from .source import Source, pinned, reader_of

__all__ = [
    "SYNONYMS",
    "ABBREVIATIONS",
    "MAX_QUERY_CHARS",
    "MAX_WORDS",
    "parse_query",
    "words",
    "build_vocabulary",
    "vocabulary_info",
    "resolve_devices",
    "SUBMISSION_RE",
]

MAX_QUERY_CHARS = 200  # longer input is cut (the result says so)
MAX_WORDS = 12  # words of a query that are matched
STOPWORDS = (
    "a",
    "an",
    "and",
    "or",
    "the",
    "of",
    "for",
    "to",
    "in",
    "on",
    "with",
    "by",
    "at",
    "as",
    "from",
    "is",
    "be",
    "its",
    "per",
    "my",
    "i",
    "that",
)
# Lay words -> the words FDA's product-code names use. Keys match order-free on (singular) words; each expansion is
# searched as an alternative query (scored x 0.9), with the key's words replaced. Kept small on purpose: typos and
# plurals are handled generally; only concepts whose lay name shares no word with the FDA name belong here.
SYNONYMS: dict[str, tuple[str, ...]] = {
    "pacemaker": ("implantable pacemaker pulse generator", "permanent implantable pulse generator"),
    "insulin pump": ("insulin infusion pump",),
    "surgical mask": ("surgical apparel",),
    "face mask": ("mask surgical", "facemask"),
    "hip implant": ("hip prosthesis",),
    "hip replacement": ("hip prosthesis",),
    "knee implant": ("knee prosthesis",),
    "knee replacement": ("knee prosthesis",),
    "breast implant": ("breast prosthesis internal",),
    "icd": ("implantable cardioverter defibrillator",),
    "cgm": ("continuous glucose",),
    "glucose meter": ("blood glucose test system", "blood glucose meter"),
    "blood sugar": ("blood glucose",),
    "blood sugar meter": ("blood glucose test system", "blood glucose meter"),
    "sugar meter": ("blood glucose test system", "blood glucose meter"),
    "glucometer": ("blood glucose test system", "blood glucose meter"),
    "iud": ("intrauterine contraceptive",),
    "mri": ("magnetic resonance imaging",),
    "ct scanner": ("computed tomography x ray system",),
    "cpap": ("positive airway pressure",),
    "blood pressure monitor": ("blood pressure cuff", "non invasive blood pressure measurement system"),
    # clinical abbreviations and lay names of catheters, stimulators and valves
    "central line": ("central venous catheter",),
    "cvc": ("central venous catheter",),
    "dbs": ("deep brain stimulator",),
    "ptca": ("percutaneous transluminal coronary angioplasty",),
    "aed": ("automated external defibrillator",),
    "tavr": ("aortic valve prosthesis percutaneously delivered",),
    "tavi": ("aortic valve prosthesis percutaneously delivered",),
    "ecmo": ("oxygenator",),
    "uv": ("ultraviolet",),
    "psa": ("prostate specific antigen",),
    "iol": ("intraocular lens",),
    # an ultrasound "probe" is what FDA names an ultrasonic transducer ("ultrasound" and "ultrasonic" share no stem)
    "ultrasound probe": ("ultrasonic transducer",),
    "ultrasonic probe": ("ultrasonic transducer",),
    "ultrasound transducer": ("ultrasonic transducer",),
}
SYNONYM_WEIGHT = 0.9
# one-word lay names and abbreviations, spelled out (for searching a dataset's own names: "DBS" -> deep brain ...)
ABBREVIATIONS = {k: v[0] for k, v in SYNONYMS.items() if " " not in k}
DESCRIPTION_CHARS = 60  # words of the first 60 characters of GUDID device descriptions are searched
SOURCES = {"device_name": 1.0, "gmdn_term": 0.92, "brand_name": 0.9, "definition": 0.75, "device_description": 0.7}

_V = "memory.main._lookup_device_"  # vocabulary tables (in the reader's in-memory database, per version)
_CODE_RE = re.compile(r"[A-Za-z]{3}")
# A 510(k) (K), De Novo (DEN) or PMA (P) number, with an optional PMA supplement: K192028, DEN200001, P170019/S012.
SUBMISSION_RE = re.compile(r"(?P<kind>K|DEN|P)(?P<num>\d{6})(?:[\s/-]*(?P<supp>S\d{3,4}))?", re.I)
_STEM = """CASE WHEN {w} IN ('lens', 'lenses') THEN 'lens'
  WHEN length({w}) > 4 AND suffix({w}, 'ies') THEN left({w}, length({w}) - 3) || 'y'
  WHEN length({w}) > 5 AND suffix({w}, 'eses') THEN left({w}, length({w}) - 2) || 'is'
  WHEN length({w}) > 4 AND regexp_matches({w}, '(sses|ches|shes|xes)$') THEN left({w}, length({w}) - 2)
  WHEN length({w}) > 3 AND suffix({w}, 's') AND NOT regexp_matches({w}, '(ss|us|is)$') THEN left({w}, length({w}) - 1)
  ELSE {w} END"""
_NORM = "lower(strip_accents({x}))"
_KEY = "public_device_record_key"
# Where terms come from; a part is used when its tables exist. Names: (source, product code, text).
_NAMES = (
    ({"device_classification"}, "SELECT 'device_name', product_code, device_name FROM device_classification"),
    ({"device_classification"}, "SELECT 'definition', product_code, definition FROM device_classification"),
    ({"device_udi_product_code"}, "SELECT DISTINCT 'device_name', code, name FROM device_udi_product_code"),
    ({"gudid_product_codes"}, "SELECT DISTINCT 'device_name', productCode, productCodeName FROM gudid_product_codes"),
)
# GUDID devices: (product code, brand name, description), and (product code, GMDN preferred term).
_DEVICES = (
    (
        {"device_udi_product_code", "device_udi"},
        f"SELECT p.code, u.brand_name, u.device_description FROM device_udi u "
        f"JOIN device_udi_product_code p USING ({_KEY})",
    ),
    (
        {"gudid_product_codes", "gudid_device"},
        "SELECT p.productCode, d.brandName, d.deviceDescription FROM gudid_device d "
        "JOIN gudid_product_codes p USING (PrimaryDI)",
    ),
)
_GMDN = (
    (
        {"device_udi_product_code", "device_udi_gmdn_term"},
        f"SELECT DISTINCT p.code, g.name FROM device_udi_gmdn_term g JOIN device_udi_product_code p USING ({_KEY})",
    ),
    (
        {"gudid_product_codes", "gudid_gmdn_terms"},
        "SELECT DISTINCT p.productCode, g.gmdnPTName FROM gudid_gmdn_terms g "
        "JOIN gudid_product_codes p USING (PrimaryDI)",
    ),
)
_SUBMISSIONS = {  # kind -> (dataset, needed table, SQL giving product codes for $n [and supplement $s])
    "k_number": [
        ("510k", "device_510k", "SELECT DISTINCT product_code FROM device_510k WHERE k_number = $n"),
        (
            "gudid",
            "gudid_premarket_submissions",
            "SELECT DISTINCT p.productCode FROM gudid_premarket_submissions s JOIN gudid_product_codes p "
            "USING (PrimaryDI) WHERE s.submissionNumber = $n",
        ),
    ],
    "pma_number": [
        (
            "pma",
            "device_pma",
            "SELECT DISTINCT product_code FROM device_pma WHERE pma_number = $n "
            "AND ($s IS NULL OR supplement_number = $s)",
        ),
        (
            "gudid",
            "gudid_premarket_submissions",
            "SELECT DISTINCT p.productCode FROM gudid_premarket_submissions s JOIN gudid_product_codes p "
            "USING (PrimaryDI) WHERE s.submissionNumber = $n AND ($s IS NULL OR s.supplementNumber "
            "IN ($s, substr($s, 2)))",
        ),
    ],
}
_SUBMISSIONS["de_novo"] = _SUBMISSIONS["k_number"]


# -- the query -------------------------------------------------------------------------
def parse_query(text: str) -> dict[str, Any]:
    """What the text is: a submission number, a product code (3 letters), or words; plus whether it was cut."""
    cut = len(text) > MAX_QUERY_CHARS
    text = " ".join(text[:MAX_QUERY_CHARS].split())
    m = SUBMISSION_RE.fullmatch(text)
    if m:
        kind = {"K": "k_number", "P": "pma_number", "DEN": "de_novo"}[m["kind"].upper()]
        supp = m["supp"].upper() if m["supp"] and kind == "pma_number" else None
        if m["supp"] is None or supp:
            return {"kind": kind, "text": text, "number": m["kind"].upper() + m["num"], "supplement": supp, "cut": cut}
    codes = [t for t in re.split(r"[\s,;/]+", text) if t]
    if codes and all(_CODE_RE.fullmatch(c) for c in codes) and (len(codes) == 1 or text.isupper()):
        return {
            "kind": "product_code",
            "text": text,
            "codes": [c.upper() for c in codes],
            "words": words(text),
            "cut": cut,
        }
    return {"kind": "words", "text": text, "words": words(text), "cut": cut}


def words(text: str) -> list[str]:
    """Lower-case ASCII words of the text (accents folded), stopwords and repeats dropped, at most MAX_WORDS."""
    folded = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()
    out: list[str] = []
    for w in re.findall(r"[a-z0-9]+", folded):
        if w not in STOPWORDS and w not in out:
            out.append(w)
    return out[:MAX_WORDS]


# -- the vocabulary ----------------------------------------------------------------------
def _tables(cur) -> set[str]:
    return {
        r[0]
        for r in cur.execute(
            "SELECT view_name FROM duckdb_views() WHERE database_name = 'memory' AND NOT internal"
        ).fetchall()
    }


def _version_key(version: tuple) -> str:
    return hashlib.sha1(repr(version).encode()).hexdigest()[:16]


_SRC = tuple(SOURCES)  # a term's source is stored as its index here
_TOKENS = "list_filter(string_split_regex({x}, '[^a-z0-9]+'), lambda w: w <> '')"
_BUILD = (  # the vocabulary, step by step ({names}, ...: the parts whose tables exist)
    (
        "devices",
        """CREATE OR REPLACE TABLE {V}dev AS
SELECT code, brand, left(descr, {desc_chars}) AS descr FROM ({devices}) t(code, brand, descr)
WHERE code IS NOT NULL""",
    ),
    (
        "terms",
        """CREATE OR REPLACE TABLE {V}raw AS
SELECT row_number() OVER () AS term_id, * FROM (
  SELECT DISTINCT list_position({src}, source) - 1 AS src, code, {norm} AS text FROM (
    {names} UNION ALL SELECT 'gmdn_term', code, gmdn FROM ({gmdn}) g(code, gmdn)
    UNION ALL SELECT DISTINCT 'brand_name', code, brand FROM {V}dev) t(source, code, text)
  WHERE code IS NOT NULL AND nullif(trim(text), '') IS NOT NULL)""",
    ),
    (
        "descriptions",
        """CREATE OR REPLACE TABLE {V}desc AS
WITH d AS (SELECT DISTINCT code, unnest({desc_tokens}) AS w
           FROM (SELECT DISTINCT code, descr FROM {V}dev WHERE descr IS DISTINCT FROM left(brand, {desc_chars}))),
ids AS (SELECT code, (SELECT count(*) FROM {V}raw) + row_number() OVER () AS term_id FROM (SELECT DISTINCT code FROM d))
SELECT ids.term_id, d.code, d.w FROM d JOIN ids USING (code)
WHERE length(d.w) <= 4 OR NOT regexp_matches(d.w, '[0-9]')     -- model, lot and size codes say little""",
    ),
    (
        "tokens",
        """CREATE OR REPLACE TABLE {V}tok AS
SELECT term_id, unnest({term_tokens}) AS w FROM {V}raw UNION ALL SELECT term_id, w FROM {V}desc""",
    ),
    (
        "stems",
        """CREATE OR REPLACE TABLE {V}stem AS
SELECT w, {stem} AS stem FROM (SELECT DISTINCT w FROM {V}tok) WHERE w NOT IN {stop} AND length(w) <= 40""",
    ),
    (
        "words",
        """CREATE OR REPLACE TABLE {V}word AS
WITH x AS (SELECT DISTINCT s.stem, t.term_id FROM {V}tok t JOIN {V}stem s USING (w)),
n AS (SELECT term_id, count(*) AS nw FROM x GROUP BY term_id),
m AS (SELECT term_id, code, src FROM {V}raw UNION ALL SELECT DISTINCT term_id, code, {desc_src} FROM {V}desc)
SELECT x.stem, x.term_id, c.cid, m.src::UTINYINT AS src, least(n.nw, 65535)::USMALLINT AS nw
FROM x JOIN n USING (term_id) JOIN m USING (term_id) JOIN {V}code c ON c.product_code = m.code ORDER BY x.stem;
CREATE INDEX _lookup_device_word_stem ON {V}word (stem)""",
    ),
    (
        "best",
        """CREATE OR REPLACE TABLE {V}best AS
SELECT stem, cid, src, min(nw) AS nw FROM {V}word GROUP BY stem, cid, src ORDER BY stem""",
    ),
    (
        "lexicon",
        """CREATE OR REPLACE TABLE {V}lex AS
SELECT d.stem, d.df, s.word, left(d.stem, 1) AS c1, substr(d.stem, 2, 3) AS c2, length(d.stem) AS len
FROM (SELECT stem, count(DISTINCT cid) AS df FROM {V}word GROUP BY stem) d
JOIN (SELECT stem, arg_min(w, length(w)) AS word FROM {V}stem GROUP BY stem) s USING (stem) ORDER BY d.stem""",
    ),
    ("cleanup", "DROP TABLE {V}dev; DROP TABLE {V}raw; DROP TABLE {V}desc; DROP TABLE {V}tok; DROP TABLE {V}stem"),
)


def _union(parts: tuple, have: set[str], width: int) -> str:
    """The parts whose tables exist, as one UNION ALL (an empty SELECT of `width` columns when none)."""
    sqls = [sql for need, sql in parts if need <= have]
    return " UNION ALL ".join(sqls) if sqls else "SELECT " + ", ".join(["NULL::VARCHAR"] * width) + " WHERE false"


def build_vocabulary(cur) -> dict[str, Any]:
    """(Re)build the vocabulary tables from the mirror's views on this cursor; returns counts and seconds."""
    started, have = time.monotonic(), _tables(cur)
    fill = {
        "V": _V,
        "names": _union(_NAMES, have, 3),
        "devices": _union(_DEVICES, have, 3),
        "gmdn": _union(_GMDN, have, 2),
        "stop": STOPWORDS,
        "stem": _STEM.format(w="w"),
        "src": "[" + ", ".join(f"'{s}'" for s in _SRC) + "]",
        "desc_src": _SRC.index("device_description"),
        "norm": _NORM.format(x="text"),
        "desc_tokens": _TOKENS.format(x=_NORM.format(x="descr")),
        "term_tokens": _TOKENS.format(x="text"),
        "desc_chars": DESCRIPTION_CHARS,
    }
    _build_codes(cur, have)
    steps = {}
    for name, sql in _BUILD:
        t = time.monotonic()
        cur.execute(sql.format(**fill))
        steps[name] = round(time.monotonic() - t, 3)
    info = dict(
        zip(
            ("terms", "words", "stems", "codes"),
            cur.execute(
                f"SELECT (SELECT count(DISTINCT term_id) FROM {_V}word), (SELECT count(*) FROM {_V}word), "
                f"(SELECT count(*) FROM {_V}lex), (SELECT count(*) FROM {_V}code)"
            ).fetchone(),
        )
    )
    return {
        **info,
        "seconds": round(time.monotonic() - started, 3),
        "steps": steps,
        "tables": sorted(have),
        "datasets": _datasets(have),
        "synonyms": _synonym_stems(cur),
    }


def _datasets(have: set[str]) -> list[str]:
    """The datasets the word search reads (classification, udi, gudid), as far as they are in the mirror."""
    found = {
        "classification": "device_classification",
        "udi": "device_udi_product_code",
        "gudid": "gudid_product_codes",
    }
    return [d for d, table in found.items() if table in have]


def _synonym_stems(cur) -> dict[str, list]:
    """Every word of SYNONYMS -> [its stem, product codes its stem reaches] (0 when not in the vocabulary)."""
    ws = sorted({w for k, exps in SYNONYMS.items() for w in words(" ".join((k, *exps)))})
    rows = cur.execute(
        f"SELECT q.w, q.s, coalesce(l.df, 0) FROM (SELECT w, {_STEM.format(w='w')} AS s FROM "
        f"(SELECT unnest(from_json($t, '[\"VARCHAR\"]')) AS w)) q LEFT JOIN {_V}lex l ON l.stem = q.s",
        {"t": json.dumps(ws)},
    ).fetchall()
    return {w: [st, df] for w, st, df in rows}


def _build_codes(cur, have: set[str]) -> None:
    """One row per product code: classification details (else GUDID's product-code names) and its GUDID devices:
    device records listing the code in openFDA udi (device_udi_product_code), else in AccessGUDID (distinct
    PrimaryDI of gudid_product_codes), so the count matches what a UDI search by that product code finds."""
    rows = (
        [
            "SELECT product_code AS code, device_name, device_class, nullif(regulation_number, ''), "
            "CASE WHEN nullif(review_panel, '') IS NOT NULL THEN review_panel || coalesce(' (' || (SELECT any_value("
            "medical_specialty_description) FROM device_classification m WHERE m.medical_specialty = c.review_panel) "
            "|| ')', '') ELSE nullif(nullif(medical_specialty_description, 'Unknown'), '') END AS panel, 1 AS rank "
            "FROM device_classification c"
        ]
        if "device_classification" in have
        else []
    )
    if "device_udi_product_code" in have:
        rows.append(
            "SELECT code, any_value(device_name), any_value(device_class), any_value(regulation_number), "
            "NULL, 2 FROM device_udi_product_code GROUP BY code"
        )
    if "gudid_product_codes" in have:
        rows.append(
            "SELECT productCode, any_value(productCodeName), NULL, NULL, NULL, 3 FROM gudid_product_codes "
            "GROUP BY productCode"
        )
    count = (
        "SELECT code, count(*) FROM device_udi_product_code GROUP BY code"
        if "device_udi_product_code" in have
        else "SELECT productCode, count(DISTINCT PrimaryDI) FROM gudid_product_codes GROUP BY productCode"
        if "gudid_product_codes" in have
        else "SELECT NULL::VARCHAR, 0 WHERE false"
    )
    union = " UNION ALL ".join(rows) or "SELECT " + "NULL::VARCHAR, " * 5 + "0 WHERE false"
    cur.execute(f"""
CREATE OR REPLACE TABLE {_V}code AS
SELECT (row_number() OVER (ORDER BY r.code) - 1)::USMALLINT AS cid, r.code AS product_code, r.device_name,
       r.device_class, r.regulation_number, r.panel, coalesce(g.n, 0)::BIGINT AS gudid_devices
FROM (SELECT * FROM ({union}) u(code, device_name, device_class, regulation_number, panel, rank)
      WHERE code IS NOT NULL QUALIFY row_number() OVER (PARTITION BY code ORDER BY rank) = 1) r
LEFT JOIN ({count}) g(code, n) USING (code)""")


def _ensure(src: Source, cur: Any = None, snap: Snapshot | None = None) -> dict[str, Any]:
    """The vocabulary info of the mirror version `snap` (default: the current one), building its tables first
    when that version has none yet (`Reader.derived`: one build, others wait). `cur` is not needed (kept for
    callers that pass the cursor they will query with)."""
    reader = reader_of(src)
    snap = snap or reader.snapshot()
    version = _version_key(snap.version)
    info = reader.derived("lookup.devices", lambda c: {**build_vocabulary(c), "version": version}, snap)
    return dict(info)


def vocabulary_info(src: Source) -> dict[str, Any]:
    """Counts of the current vocabulary (building it if needed) and the seconds its build took."""
    return _ensure(src)


# -- matching ------------------------------------------------------------------------------
_stem_cache: dict[str, str] = {}


def _stems(cur, ws: list[str]) -> list[str]:
    """The vocabulary's stem of each word (the build's SQL; remembered, as it never changes)."""
    todo = [w for w in dict.fromkeys(ws) if w not in _stem_cache]
    got = (
        dict(
            cur.execute(
                f"SELECT w, {_STEM.format(w='w')} FROM (SELECT unnest(from_json($t, '[\"VARCHAR\"]')) AS w)",
                {"t": json.dumps(todo)},
            ).fetchall()
        )
        if todo
        else {}
    )
    if len(_stem_cache) < 50_000:
        _stem_cache.update(got)
    return [got[w] if w in got else _stem_cache[w] for w in ws]


def _in(values: list[str]) -> tuple[str, dict[str, str]]:
    """`$p0, $p1, ...` and their parameters: an IN list the scan can use to skip row groups (never user SQL)."""
    names = [f"p{i}" for i in range(len(values))]
    return ", ".join(f"${n}" for n in names) or "NULL", dict(zip(names, values))


def _exact_hits(cur, stems: list[str]) -> dict[str, tuple]:
    """Stem -> (surface word, product codes reached) for the stems in the lexicon."""
    sql, params = _in(stems)
    return {
        r[0]: r[1:] for r in cur.execute(f"SELECT stem, word, df FROM {_V}lex WHERE stem IN ({sql})", params).fetchall()
    }


def _near_hits(cur, stems: list[str]) -> list[tuple]:
    """(index in stems, lexicon stem, surface word, codes reached, edits) for stems one edit away (two for 8+
    letters), among stems of the same first letter or, for 6+ letters, of the same letters 2-4; none under 4."""
    return cur.execute(
        f"""
WITH q AS (SELECT generate_subscripts(l, 1) - 1 AS i, unnest(l) AS s, length(unnest(l)) AS n
           FROM (SELECT from_json($t, '["VARCHAR"]') AS l))
SELECT q.i, l.stem, l.word, l.df, damerau_levenshtein(l.stem, q.s) AS d
FROM q JOIN {_V}lex l ON l.c1 = left(q.s, 1) AND l.len BETWEEN q.n - 2 AND q.n + 2
WHERE q.n >= 4 AND l.stem <> q.s AND d <= CASE WHEN q.n >= 8 THEN 2 ELSE 1 END
UNION ALL
SELECT q.i, l.stem, l.word, l.df, damerau_levenshtein(l.stem, q.s) AS d
FROM q JOIN {_V}lex l ON l.c2 = substr(q.s, 2, 3) AND l.len BETWEEN q.n - 1 AND q.n + 1
WHERE q.n >= 6 AND l.c1 <> left(q.s, 1) AND d <= 1""",
        {"t": json.dumps(stems)},
    ).fetchall()


def _readings(cur, toks: list[str]) -> tuple[list[list[tuple]], list[list[str]], list[str]]:
    """Per word its readings [(stem, weight, codes reached)]; corrections [typed, read as]; words found nowhere.

    A word found as such (or as its singular/plural) is read as it is, and also as a much commoner word one edit
    away when it is itself rare (a brand's typo must not hide the common word); a word not found is read as its
    nearest vocabulary words (see `_near_hits`), the commonest first.
    """
    stems = _stems(cur, toks)
    exact = _exact_hits(cur, stems)
    check = [i for i, st in enumerate(stems) if st not in exact or exact[st][1] <= 2]
    near: dict[int, list[tuple]] = {}
    for j, stem, word, df, d in _near_hits(cur, [stems[i] for i in check]) if check else []:
        near.setdefault(check[j], []).append((d, -df, stem, word))
    readings, corrections, unknown = [], [], []
    for i, tok in enumerate(toks):
        close = sorted(near.get(i, []))
        if stems[i] in exact:
            df = exact[stems[i]][1]
            pick = [(stems[i], 1.0, df)]
            if close and close[0][0] == 1 and -close[0][1] >= 20 * max(df, 1):
                pick.append((close[0][2], 0.85, -close[0][1]))
                corrections.append([tok, close[0][3]])
        elif close:
            best = [h for h in close if h[0] == close[0][0]][:2]
            pick = [(h[2], 0.85 if h[0] == 1 else 0.75, -h[1]) for h in best]
            corrections.append([tok, best[0][3]])
        else:
            pick = []
            unknown.append(tok)
        readings.append(pick)
    return readings, corrections, unknown


MAX_ALTERNATIVES = 12


def _alternatives(readings: list[list[tuple]], syn: dict[str, list]) -> tuple[list[tuple[list, float]], list]:
    """Alternative phrasings, each [(stem, weight, codes reached)] with one reading per word, and its weight.

    Words with two readings (typos) give one phrasing per combination, best first; each phrasing holding a
    SYNONYMS key gives one more per expansion (the key's words replaced, weight SYNONYM_WEIGHT).
    """
    combos: list[list[tuple]] = [[]]
    for r in (r for r in readings if r):
        combos = sorted((c + [v] for c in combos for v in r), key=lambda c: -math.prod(v[1] for v in c))[:4]
    alts, used = [], []
    for combo in combos:
        combo = list({v[0]: v for v in combo}.values())  # one entry per stem
        alts.append((combo, 1.0))
        have = {v[0] for v in combo}
        for key, expansions in SYNONYMS.items():
            key_stems = {syn[w][0] for w in words(key)}
            if key_stems <= have:
                rest = [v for v in combo if v[0] not in key_stems]
                for exp in expansions:
                    alts.append((rest + [(syn[w][0], 1.0, syn[w][1]) for w in words(exp) if syn[w][1]], SYNONYM_WEIGHT))
                    used.append([key, exp])
    return alts[:MAX_ALTERNATIVES], [list(u) for u in dict.fromkeys(map(tuple, used))]


_Q_SCHEMA = '[{"a": "INTEGER", "s": "VARCHAR", "v": "DOUBLE", "n": "INTEGER", "t": "DOUBLE", "f": "DOUBLE"}]'
_SCORE_SQL = f"""
WITH q AS (SELECT unnest(from_json($q, '{_Q_SCHEMA}'), recursive := true)),
post AS (<postings>),
term AS (SELECT q.a, p.term_id, any_value(p.cid) AS cid, any_value(p.src) AS src,
                any_value(q.f) * {list(SOURCES.values())}[any_value(p.src) + 1]
                * (0.68 * fsum(q.v) / any_value(q.t) + 0.28 * least(1, count(*) / any_value(p.nw))) AS score,
                count(*) = any_value(q.n) AS complete
         FROM q JOIN post p ON p.stem = q.s GROUP BY q.a, p.term_id)
SELECT cid, bool_or(complete) AS complete,
       coalesce(max(score) FILTER (complete), max(score)) AS score,
       coalesce(arg_max(src, score) FILTER (complete), arg_max(src, score)) AS src,
       coalesce(arg_max(a, score) FILTER (complete), arg_max(a, score)) AS a
FROM term GROUP BY cid"""


# Product codes with a term holding every word of an alternative, scored as `_SCORE_SQL` scores such terms (whose
# score depends only on the alternative and the term's source and word count): a one-word alternative reads the
# fewest words per (stem, product code, source) from `best`; a longer one checks only the terms holding its
# rarest word. Its cost does not grow with the number of terms (GUDID brand names) that hold common words.
_A_SCHEMA = (
    '[{"a": "INTEGER", "r": "VARCHAR", "k": "INTEGER", "n": "INTEGER", "v": "DOUBLE", "t": "DOUBLE", "f": "DOUBLE"}]'
)
_COMPLETE_SQL = f"""
WITH q AS (SELECT unnest(from_json($q, '{_A_SCHEMA}'), recursive := true)),
o AS (SELECT unnest(from_json($o, '[{{"a": "INTEGER", "s": "VARCHAR"}}]'), recursive := true)),
one AS (SELECT q.a, b.cid, b.src, b.nw FROM q JOIN (<one>) b ON b.stem = q.r WHERE q.k = 1),
cand AS (SELECT q.a, q.k, w.term_id, w.cid, w.src, w.nw FROM q JOIN (<rare>) w ON w.stem = q.r WHERE q.k > 1),
many AS (SELECT c.a, any_value(c.cid) AS cid, any_value(c.src) AS src, any_value(c.nw) AS nw
         FROM cand c JOIN o ON o.a = c.a JOIN (<other>) w ON w.term_id = c.term_id AND w.stem = o.s
         GROUP BY c.a, c.term_id HAVING count(*) = any_value(c.k) - 1),
hit AS (SELECT h.a, h.cid, h.src, q.f * {list(SOURCES.values())}[h.src + 1]
               * (0.68 * q.v / q.t + 0.28 * least(1, q.n / h.nw)) AS score
        FROM (SELECT * FROM one UNION ALL SELECT * FROM many) h JOIN q USING (a))
SELECT cid, true AS complete, max(score) AS score, arg_max(src, score) AS src, arg_max(a, score) AS a
FROM hit GROUP BY cid"""


def _query_rows(codes: dict[str, Any], alts: list[tuple[list, float]]) -> list[dict]:
    """One row per word of each alternative: its stem, weight x rarity, the alternative's size, rarity and weight.
    Sums are compensated (math.fsum here, fsum in SQL), so a score does not depend on the order rows are added in."""
    q = []
    for a, (combo, weight) in enumerate(alts):
        idf = [math.log(1 + len(codes["by_cid"]) / max(df, 1)) for _, _, df in combo]
        q += [
            {"a": a, "s": s, "v": w * idf[i], "n": len(combo), "t": math.fsum(idf), "f": weight}
            for i, (s, w, _) in enumerate(combo)
        ]
    return q


def _postings(table: str, columns: str, stems: list[str], prefix: str) -> tuple[str, dict[str, str]]:
    """The rows of a vocabulary table for these stems, one `stem = $x` scan each (a filter that skips row groups by
    their min / max stem, unlike an IN list joined to a big table), and their parameters."""
    names = [f"{prefix}{i}" for i in range(len(stems))]
    sql = " UNION ALL ".join(f"SELECT {columns} FROM {_V}{table} WHERE stem = ${n}" for n in names)
    return sql or f"SELECT {columns} FROM {_V}{table} WHERE false", dict(zip(names, stems))


def _complete_sql(alts: list[tuple[list, float]], q: list[dict]) -> tuple[str, dict]:
    """The SQL (and its parameters) giving (cid, True, score, src, alternative) of the product codes with a term
    holding every word of an alternative."""
    rows, others = [], []
    for a, (combo, _) in enumerate(alts):
        mine = [r for r in q if r["a"] == a]
        if not mine:
            continue
        stems = list(dict.fromkeys(r["s"] for r in mine))
        rare = min(stems, key=lambda st: (next(df for s, _, df in combo if s == st), st))
        rows.append(
            {
                "a": a,
                "r": rare,
                "k": len(stems),
                "n": mine[0]["n"],
                "v": math.fsum(r["v"] for r in mine),
                "t": mine[0]["t"],
                "f": mine[0]["f"],
            }
        )
        others += [{"a": a, "s": st} for st in stems if st != rare]
    one, p1 = _postings("best", "stem, cid, src, nw", sorted({r["r"] for r in rows if r["k"] == 1}), "o")
    rare, p2 = _postings("word", "stem, term_id, cid, src, nw", sorted({r["r"] for r in rows if r["k"] > 1}), "r")
    other, p3 = _postings("word", "stem, term_id", sorted({r["s"] for r in others}), "x")
    sql = _COMPLETE_SQL.replace("<one>", one).replace("<rare>", rare).replace("<other>", other)
    return sql, {**p1, **p2, **p3, "q": json.dumps(rows), "o": json.dumps(others)}


# The found product codes (<found>: cid, complete, score, src, a) less the excluded ones: their count, and those that
# can rank in the top $limit (a margin over the final score, which Python rounds), so few rows reach Python.
_TOP_SQL = f"""
WITH found AS (<found>),
r AS (SELECT f.*, least(1.0, f.score + 0.04 * least(1.0, log10(1 + c.gudid_devices) / 4)) AS final
      FROM found f JOIN {_V}code c USING (cid) WHERE NOT list_contains($exclude::VARCHAR[], c.product_code))
SELECT cid, complete, score, src, a, (SELECT count(*) FROM r) AS total FROM r
WHERE final >= (SELECT min(final) FROM (SELECT final FROM r ORDER BY final DESC LIMIT $limit)) - 0.002"""


def _top(cur, sql: str, params: dict, limit: int, exclude: list[str]) -> tuple[int, list[tuple]]:
    """(how many product codes the scoring SQL found, the rows of those that can rank in the top `limit`)."""
    rows = cur.execute(_TOP_SQL.replace("<found>", sql), {**params, "limit": limit, "exclude": exclude}).fetchall()
    return (rows[0][5] if rows else 0), [r[:5] for r in rows]


def _score(
    cur, codes: dict[str, Any], alts: list[tuple[list, float]], limit: int, exclude: list[str]
) -> tuple[int, bool, list[dict]]:
    """Candidate product codes of the alternatives: (total, whether the matches are partial, the top rows).

    A term's score: its source's weight x (0.68 x the share of the query's rarity-weighted words it holds +
    0.28 x the share of its own words the query holds), x the alternative's weight; a product code takes its
    best term, plus up to 0.04 for many GUDID devices. Candidates hold every query word, else (partial) any
    (only then are all terms holding any query word scored).
    """
    q = _query_rows(codes, alts)
    if not q:
        return 0, False, []
    total, found = _top(cur, *_complete_sql(alts, q), limit, exclude)
    partial = not found
    if partial:
        post, params = _postings("word", "stem, term_id, cid, src, nw", sorted({r["s"] for r in q}), "p")
        total, found = _top(cur, _SCORE_SQL.replace("<postings>", post), {**params, "q": json.dumps(q)}, limit, exclude)
    ranked = []
    for cid, _, score, src, a in found:
        code, devices = codes["by_cid"][cid][0], codes["by_cid"][cid][5]
        final = round(min(1.0, score + 0.04 * min(1.0, math.log10(1 + devices) / 4)), 3)
        ranked.append((-final, -devices, code, ("synonym:" if alts[a][1] < 1 else "") + _SRC[src]))
    ranked.sort()
    rows = [_row((*codes["by_code"][c], -f, m)) for f, _, c, m in ranked[:limit]]
    return total, partial and bool(found), rows


_ROW = ("product_code", "device_name", "device_class", "regulation_number", "panel", "gudid_devices", "score", "match")


def _row(values) -> dict[str, Any]:
    return {k: ("" if v is None else v) for k, v in zip(_ROW, values)}


_code_cache: dict[str, dict] = {}


def _codes(cur, version: str) -> dict[str, Any]:
    """{"by_code": code -> (code, device name, class, regulation, panel, GUDID devices), "by_cid": the same rows
    by their vocabulary id}, read once per mirror version."""
    global _code_cache
    codes = _code_cache.get(version)
    if codes is None:
        rows = cur.execute(
            f"SELECT product_code, device_name, device_class, regulation_number, panel, gudid_devices "
            f"FROM {_V}code ORDER BY cid"
        ).fetchall()
        codes = {"by_code": {r[0]: r for r in rows}, "by_cid": rows}
        _code_cache = {version: codes}
    return codes


def _code_rows(codes: dict[str, Any], given: list[str], match: str) -> list[dict]:
    """Rows for product codes taken as given (a code unknown to the mirror keeps empty details)."""
    return [_row((*codes["by_code"].get(c, (c, None, None, None, None, 0)), 1.0, match)) for c in given]


# -- the lookup ------------------------------------------------------------------------------
def _by_words(cur, info: dict, codes: dict, toks: list[str], limit: int, exclude: list[str]) -> dict[str, Any]:
    readings, corrections, unknown = _readings(cur, toks)
    alts, synonyms = _alternatives(readings, info["synonyms"])
    total, partial, rows = _score(cur, codes, alts, limit, exclude)
    return {
        "total": total,
        "rows": rows,
        "partial": partial,
        "corrections": corrections,
        "unknown": unknown,
        "synonyms": synonyms,
    }


def _submission_codes(cur, sql: str, number: str, supplement: str | None) -> list[str]:
    params = {"n": number, "s": supplement} if "$s" in sql else {"n": number}
    return [r[0] for r in cur.execute(sql, params).fetchall() if r[0]]


def _by_submission(cur, have: set[str], q: dict) -> dict[str, Any]:
    """Product codes of a K / P / DEN number in the 510(k), PMA and GUDID premarket tables that exist."""
    codes, consulted, supp_missing = [], [], False
    for dataset, table, sql in _SUBMISSIONS[q["kind"]]:
        if table not in have:
            continue
        consulted.append(dataset)
        found = _submission_codes(cur, sql, q["number"], q["supplement"])
        if not found and q["supplement"]:
            found = _submission_codes(cur, sql, q["number"], None)
            supp_missing = supp_missing or bool(found)
        codes += [c for c in found if c not in codes]
    return {"codes": codes, "datasets": consulted, "supplement_missing": supp_missing}


def resolve_devices(src: Source, query: str, limit: int = 10) -> dict[str, Any]:
    """Ranked product codes for a device name, brand, product code or K / P / DEN number (plain data).

    Returns {kind, cut, words, total, rows, partial, corrections, unknown, synonyms, unknown_codes, datasets,
    supplement_missing, vocabulary}; rows carry product_code, device_name, device_class, regulation_number,
    panel, gudid_devices, score (0-1) and match (product_code | k_number | pma_number | de_novo | device_name |
    gmdn_term | brand_name | definition | device_description, prefixed `synonym:` when found through SYNONYMS).
    """
    q = parse_query(query)
    out: dict[str, Any] = {
        **q,
        "total": 0,
        "rows": [],
        "partial": False,
        "corrections": [],
        "unknown": [],
        "synonyms": [],
        "unknown_codes": [],
        "supplement_missing": False,
    }
    reader, snap = pinned(src)
    info = out["vocabulary"] = _ensure(reader, snap=snap)
    with reader.cursor(snap=snap) as cur:
        codes = _codes(cur, info["version"])
        if q["kind"] in _SUBMISSIONS:
            found = _by_submission(cur, set(info["tables"]), q)
            rows = _code_rows(codes, found.pop("codes"), q["kind"])
            return {**out, **found, "rows": rows, "total": len(rows)}
        out["datasets"] = info["datasets"]
        if q["kind"] == "product_code":
            rows = [r for r in _code_rows(codes, q["codes"], "product_code") if r["device_name"] or r["gudid_devices"]]
            known = [r["product_code"] for r in rows]
            out.update(rows=rows, total=len(rows), unknown_codes=[c for c in q["codes"] if c not in known])
            if len(q["codes"]) > 1:
                return out
        if q["words"]:
            found = _by_words(cur, info, codes, q["words"], max(1, limit), [r["product_code"] for r in out["rows"]])
            out.update(found, rows=(out["rows"] + found["rows"])[:limit], total=out["total"] + found["total"])
        return out
