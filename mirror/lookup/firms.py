"""Firm names across the datasets, grouped by a normalised key, and matched to a person's words.

The key: lower case, accents and apostrophes/periods dropped ("S.p.A." -> "spa", "Dräger" -> "drager"), `&`
read as "and", every other non-letter/digit a word break; then the trailing run of legal-form words (Inc,
LLC, Ltd, GmbH, AG, S.A., ...) and a leading "the" are dropped, but only when a real word is left: a name
is never cut inside a word, never reduced to a legal form, a stopword or one letter ("Co" stays "co",
"The Company" stays "the company", "Lincoln Medical" stays "lincoln medical"). Firms are grouped on the
key without spaces ("BOSTONSCIENTIFIC" = "Boston Scientific Corporation").

One implementation, in SQL: the distinct-name table is built once per mirror version (`Reader.derived`) in that
version's in-memory database (`memory.main._lookup_firm_names`, `_lookup_firm_keys`), and queries are keyed the
same way.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from ..store.reader import Snapshot
from ..store.rows import one
from .source import Source, pinned, reader_of

__all__ = [
    "SOURCES",
    "FirmSource",
    "FirmVariant",
    "FirmCandidate",
    "FirmMatch",
    "firm_keys",
    "find_firm",
    "ensure_firm_table",
    "MAX_QUERY",
    "LEGAL_WORDS",
]

MAX_QUERY = 300  # characters of a firm name the lookup reads
# Words of a firm's name that name no firm, left out when a name is searched word by word ("Arrow International Inc")
LEGAL_WORDS = frozenset(
    [
        "ag",
        "bv",
        "co",
        "company",
        "corp",
        "corporation",
        "gmbh",
        "inc",
        "incorporated",
        "limited",
        "llc",
        "lp",
        "ltd",
        "nv",
        "plc",
        "sa",
        "spa",
        "srl",
        "the",
    ]
)
_NAMES, _KEYS, _WORDS = (f"memory.main._lookup_firm_{t}" for t in ("names", "keys", "words"))  # per version

# Legal forms dropped from the end of a name (after periods are removed: "L.L.C." is "llc", "S. A." is "s a").
_LEGAL = (
    "sa de cv",
    "de cv",
    "sdn bhd",
    "private limited",
    "and co",
    "s p a",
    "s a",
    "s l",
    "a s",
    "b v",
    "n v",
    "inc",
    "incorporated",
    "llc",
    "lc",
    "pllc",
    "llp",
    "lp",
    "ltd",
    "ltda",
    "limited",
    "corp",
    "corporation",
    "co",
    "cos",
    "company",
    "coltd",
    "gmbh",
    "mbh",
    "ag",
    "kg",
    "kgaa",
    "ohg",
    "se",
    "sa",
    "sas",
    "sasu",
    "sarl",
    "srl",
    "spa",
    "sl",
    "slu",
    "sau",
    "bv",
    "bvba",
    "nv",
    "plc",
    "pty",
    "pte",
    "pvt",
    "kk",
    "ab",
    "as",
    "asa",
    "aps",
    "oy",
    "oyj",
    "sro",
    "bhd",
    "ulc",
    "pc",
)
_STOP = ("the", "and", "of", "de")
_LEGAL_RE = "|".join(_LEGAL)
_FILLER_RE = "|".join(_LEGAL + _STOP) + "|[^ ]"  # ... or any one character
# Word breaks: ASCII and Latin-1 punctuation and symbols, general punctuation (dashes, quotes), letterlike symbols
# (™), CJK and fullwidth punctuation; every other character is part of a word (ranges compile faster than \pL).
_BREAKS = (
    r"[\x{00}-\x{2f}\x{3a}-\x{40}\x{5b}-\x{60}\x{7b}-\x{bf}\x{d7}\x{f7}\x{2000}-\x{206f}"
    r"\x{2100}-\x{214f}\x{3000}-\x{303f}\x{ff00}-\x{ff0f}]+"
)
_LETTERS = {
    "ß": "ss",
    "æ": "ae",
    "ø": "o",
    "œ": "oe",
    "ł": "l",
    "đ": "d",
    "ð": "d",
    "þ": "th",
    "ı": "i",
    "&": " and ",
}  # beyond what strip_accents folds


@dataclass(frozen=True)
class FirmSource:
    dataset: str  # as in Reader.datasets(): udi, gudid, registrationlisting, ...
    table: str
    field: str
    records: str  # SQL aggregate: records naming the firm
    ids: str  # SQL aggregate: list of "DUNS n" / "FEI n" / "REG n" / "OWNER n" (or NULL)


def _ids(*pairs: tuple[str, str]) -> str:
    items = ", ".join(f"'{label} ' || trim({col})" for label, col in pairs)
    return f"list_sort(list_filter(list_distinct(flatten(list([{items}]))), lambda x: x IS NOT NULL AND length(x) > 5))"


SOURCES = (
    FirmSource("udi", "device_udi", "company_name", "count(*)", _ids(("DUNS", "labeler_duns_number"))),
    FirmSource("gudid", "gudid_device", "companyName", "count(*)", _ids(("DUNS", '"dunsNumber"'))),
    FirmSource(
        "registrationlisting",
        "device_registrationlisting",
        "owner_operator_firm_name",
        "count(*)",
        _ids(("OWNER", "owner_operator_number"), ("REG", "registration_number"), ("FEI", "fei_number")),
    ),
    FirmSource(
        "registrationlisting",
        "device_registrationlisting",
        "name",
        "count(*)",
        _ids(("REG", "registration_number"), ("FEI", "fei_number")),
    ),
    FirmSource("recall", "device_recall", "recalling_firm", "count(*)", _ids(("FEI", "firm_fei_number"))),
    FirmSource("enforcement", "device_enforcement", "recalling_firm", "count(*)", "NULL"),
    FirmSource("510k", "device_510k", "applicant", "count(*)", "NULL"),
    FirmSource("pma", "device_pma", "applicant", "count(*)", "NULL"),
    FirmSource("event", "device_event", "manufacturer_name", "count(*)", "NULL"),
    FirmSource("event", "device_event_device", "manufacturer_d_name", "count(DISTINCT mdr_report_key)", "NULL"),
    FirmSource("covid19serology", "device_covid19serology", "manufacturer", "count(*)", "NULL"),
)


@dataclass(frozen=True)
class FirmVariant:
    name: str
    dataset: str
    table: str
    field: str
    records: int
    ids: tuple[str, ...]


@dataclass(frozen=True)
class FirmCandidate:
    name: str  # display name: a mixed-case variant if any, else the most used one
    key: str
    records: int  # records naming it, summed over datasets
    variants: int
    match: str  # exact | prefix | contains | typo | id
    score: float


@dataclass
class FirmMatch:
    query: str
    key: str  # the query's normalised key
    candidates: list[FirmCandidate] = field(default_factory=list)
    variants: list[FirmVariant] = field(default_factory=list)  # of candidates[0]
    searched: list[FirmSource] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)  # datasets not in the mirror
    build_seconds: float = 0.0  # > 0 when this call built the name table


def _ok(col: str) -> str:
    """SQL: `col` keeps a real word once legal forms, stopwords and single characters are set aside."""
    return f"(trim(regexp_replace(' ' || replace({col}, ' ', '  ') || ' ', ' (?:{_FILLER_RE}) ', ' ', 'g')) <> '')"


def _key_query(names_sql: str) -> str:
    """SQL selecting (name, key) for every name of `names_sql` (a query with one column `name`)."""
    folded = "lower(strip_accents(name))"
    for a, b in _LETTERS.items():
        folded = f"replace({folded}, '{a}', '{b}')"
    words = f"trim(regexp_replace(regexp_replace({folded}, '[.''’`´]', '', 'g'), '{_BREAKS}', ' ', 'g'))"
    return (
        f"SELECT name, CASE WHEN starts_with(k, 'the ') AND {_ok('k[5:]')} THEN k[5:] ELSE k END AS key "
        f"FROM (SELECT name, CASE WHEN core <> '' AND {_ok('core')} THEN core ELSE w END AS k "
        f"FROM (SELECT name, w, regexp_extract(w, '^(.*?)(?: (?:{_LEGAL_RE}))+$', 1) AS core "
        f"FROM (SELECT name, {words} AS w FROM ({names_sql}))))"
    )


def firm_keys(src: Source, names: list[str]) -> list[str]:
    """The normalised key of each name (as the name table groups them); '' when nothing is left."""
    if not names:
        return []
    names = [str(n)[:MAX_QUERY] for n in names]
    with reader_of(src).cursor() as cur:
        keys = dict(cur.execute(_key_query("SELECT DISTINCT unnest($n) AS name"), {"n": names}).fetchall())
    return [keys.get(n) or "" for n in names]


def _present(cur) -> set[str]:
    return {
        r[0]
        for r in cur.execute(
            "SELECT table_name FROM duckdb_tables() WHERE database_name = 'memory' UNION "
            "SELECT view_name FROM duckdb_views() WHERE database_name = 'memory'"
        ).fetchall()
    }


def ensure_firm_table(src: Source, snap: Snapshot | None = None) -> tuple[float, frozenset[str]]:
    """Build the distinct-name tables unless built for the mirror version `snap` (default: the current one).

    Returns the seconds this call spent building (0.0 when already built) and the tables the mirror has."""
    built: list[float] = []

    def build(cur: Any) -> frozenset[str]:
        seconds, have = _build(cur)
        built.append(seconds)
        return have

    have = reader_of(src).derived("lookup.firms", build, snap)
    return (built[0] if built else 0.0), have


def _build(cur) -> tuple[float, frozenset[str]]:
    """The name table: one row per (dataset, field, name) with its records, identifiers and key."""
    t0 = time.perf_counter()
    have = frozenset(_present(cur))
    parts = [
        f"SELECT '{s.dataset}' AS dataset, '{s.table}' AS tbl, '{s.field}' AS field, \"{s.field}\" AS name, "
        f"{s.records} AS records, {s.ids} AS ids FROM {s.table} WHERE trim(coalesce(\"{s.field}\", '')) <> '' "
        f'GROUP BY "{s.field}"'
        for s in SOURCES
        if s.table in have
    ]
    parts = parts or ["SELECT '' AS dataset, '' AS tbl, '' AS field, '' AS name, 0 AS records, NULL AS ids WHERE false"]
    cur.execute(
        f"CREATE OR REPLACE TABLE {_NAMES} AS WITH raw AS MATERIALIZED ({' UNION ALL '.join(parts)}) "
        "SELECT r.dataset, r.tbl, r.field, r.name, r.records::BIGINT AS records, "
        "coalesce(r.ids, []::VARCHAR[]) AS ids, k.key, replace(k.key, ' ', '') AS compact FROM raw r "
        f"JOIN ({_key_query('SELECT DISTINCT name FROM raw')}) k USING (name) WHERE k.key <> '' "
        "ORDER BY compact"
    )  # sorted: a firm's variants are read from a few row groups
    _build_keys(cur)
    return time.perf_counter() - t0, have


def _build_keys(cur) -> None:
    """One row per firm (key without spaces) from the name table, and an index of the words of the keys."""
    cur.execute(
        f"CREATE OR REPLACE TABLE {_KEYS} AS SELECT *, length(compact) AS klen, ' ' || key || ' ' AS padded, "
        "compact[1] AS first_char, compact[-1] AS last_char FROM (SELECT compact, "
        "first(key ORDER BY records DESC, key) AS key, "
        "first(name ORDER BY name <> upper(name) DESC, records DESC, name) AS name, "
        "sum(records)::BIGINT AS records, count(*) AS variants "
        f"FROM (SELECT compact, key, name, sum(records) AS records FROM {_NAMES} GROUP BY ALL) "
        "GROUP BY compact) ORDER BY compact"
    )  # sorted: exact and prefix lookups read few row groups
    cur.execute(
        f"CREATE OR REPLACE TABLE {_WORDS} AS SELECT DISTINCT unnest(string_split(key, ' ')) AS word, "
        f"compact FROM {_KEYS} ORDER BY word"
    )


_SCORE = """CASE match WHEN 'exact' THEN 1.0 WHEN 'id' THEN 0.95
    WHEN 'prefix' THEN (CASE WHEN starts_with(padded, $pk) THEN 0.85 ELSE 0.75 END) + 0.1 * length($c) / klen
    WHEN 'contains' THEN 0.6 + 0.1 * length($c) / klen
    ELSE 0.4 + 0.3 * jaro_winkler_similarity(compact, $c) END"""
_COLS = f"SELECT name, key, records, variants, match, {_SCORE} AS score"
_ORDER = "ORDER BY score DESC, records DESC, key LIMIT $limit"
# The key itself and keys it starts (a range of the sorted table); $end is $c + U+10FFFF, or $c + U+0001 for
# the key alone.
_PREFIX = f"""{_COLS} FROM (SELECT *, CASE WHEN compact = $c THEN 'exact' ELSE 'prefix' END AS match FROM {_KEYS}
  WHERE compact >= $c AND compact < $end) {_ORDER}"""
# Firms holding a DUNS, FEI, registration or owner/operator number.
_ID = f"""{_COLS} FROM (SELECT *, 'id' AS match FROM {_KEYS} WHERE compact IN (
  SELECT compact FROM {_NAMES} WHERE list_has_any(ids, $ids))) {_ORDER}"""
# Keys holding the query's words whole, found through the longest of them.
_CONTAINS = f"""{_COLS} FROM (SELECT *, 'contains' AS match FROM {_KEYS}
  WHERE compact IN (SELECT compact FROM {_WORDS} WHERE word = $word) AND contains(padded, $pk)) {_ORDER}"""
# Near spellings: length within 3, same first or last letter, Jaro-Winkler similarity >= 0.9.
_TYPO = f"""{_COLS} FROM (SELECT *, 'typo' AS match FROM {_KEYS}
  WHERE klen BETWEEN length($c) - 3 AND length($c) + 3 AND (first_char = $c[1] OR last_char = $c[-1])
    AND jaro_winkler_similarity(compact, $c) >= 0.9) {_ORDER}"""


def _ranked(rows: list[tuple], limit: int) -> list[FirmCandidate]:
    """Candidates from match rows (name, key, records, variants, match, score): best first, one per key."""
    out: dict[str, FirmCandidate] = {}
    for r in sorted(rows, key=lambda r: (-r[5], -r[2], r[1])):
        out.setdefault(r[1], FirmCandidate(r[0], r[1], int(r[2]), int(r[3]), r[4], round(float(r[5]), 3)))
    return list(out.values())[:limit]


def find_firm(src: Source, query: str, limit: int = 8) -> FirmMatch:
    """Firms whose key matches `query` (exact, prefix, whole words, near spelling, or a DUNS/FEI/registration
    number), best first, with every name variant of the best one. Raises ValueError on an empty query."""
    text = " ".join(str(query).split())[:MAX_QUERY]
    if not text:
        raise ValueError("empty firm name")
    return _find(src, text, limit)


def _find(src: Source, text: str, limit: int) -> FirmMatch:
    reader, snap = pinned(src)
    built, have = ensure_firm_table(reader, snap)
    found = FirmMatch(
        text,
        "",
        searched=[s for s in SOURCES if s.table in have],
        missing=sorted({s.dataset for s in SOURCES if s.table not in have}),
        build_seconds=built,
    )
    digits = text.replace(" ", "")
    with reader.cursor(snap=snap) as cur:
        found.key = one(cur.execute(f"SELECT key FROM ({_key_query('SELECT $n AS name')})", {"n": text}))[0]
        c = found.key.replace(" ", "")
        rows, base = [], {"c": c, "pk": f" {found.key} ", "limit": limit}
        if digits.isdigit():
            ids = [f"{p} {digits}" for p in ("DUNS", "FEI", "REG", "OWNER")]
            rows += cur.execute(_ID, {**base, "ids": ids}).fetchall()
        if c:
            end = c + ("\U0010ffff" if len(c) >= 3 else "\x01")
            rows += cur.execute(_PREFIX, {**base, "end": end}).fetchall()
        if len(c) >= 3 and not any(r[4] in ("exact", "id") for r in rows):
            word = max(found.key.split(), key=len)
            rows += cur.execute(_CONTAINS, {**base, "word": word}).fetchall()
            if len(c) >= 4 and not any(r[4] == "prefix" for r in rows):
                rows += cur.execute(_TYPO, base).fetchall()
        found.candidates = _ranked(rows, limit)
        if found.candidates:
            found.variants = [
                FirmVariant(r[0], r[1], r[2], r[3], int(r[4]), tuple(r[5]))
                for r in cur.execute(
                    f"SELECT name, dataset, tbl, field, records, ids FROM {_NAMES} WHERE compact = ? "
                    "ORDER BY records DESC, dataset, field, name",
                    [found.candidates[0].key.replace(" ", "")],
                ).fetchall()
            ]
    return found
