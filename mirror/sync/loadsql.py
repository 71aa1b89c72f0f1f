"""The SQL that loads NDJSON chunks into a dataset's tables: one JSON parse per record, fragments after that."""

from __future__ import annotations

import json
from pathlib import Path

from ..schema.datasets import Child, Column, Dataset
from ..schema.openfda import DATE_FORMATS, WORD, WORD_SQL
from .unpack import MAX_RECORD_BYTES

__all__ = [
    "ddl",
    "stage_sql",
    "main_sql",
    "child_sql",
    "listed_sql",
    "flat_values",
    "words_sql",
    "rows_sql",
    "summary_sql",
    "WORD",
    "STAGE",
    "stage_ddl",
    "STAGE_CLEAR",
]

STAGE = "_chunk"
COMMON = 0.01  # a word in more than this share of a word index's rows is common (not indexed)
# The common words are counted on about SAMPLE_ROWS texts, in SAMPLE_BLOCKS blocks of rows spread over the table.
# 12,800 texts in 25 blocks of 512 (51,200 in blocks of 2,048 before): at 1 GiB of events, 0.5 instead of 2.1 CPU s,
# 1,128 common words instead of 1,126, and 0.5% fewer index rows. Search results do not depend on it.
SAMPLE_ROWS = 12_800
SAMPLE_BLOCKS = 25
_DATE_SQL = {kind: f"try_strptime({{v}}, '{fmt}')::DATE" for kind, fmt in zip(("ymd", "iso", "mdy"), DATE_FORMATS)}
_TYPE = {"str": "VARCHAR", "date": "DATE", "list": "VARCHAR[]"}
# The record JSON is stored ZSTD-compressed whatever DuckDB's own analysis would pick: left to itself, DuckDB 1.5
# keeps records of a few KB (udi, 510k, registrationlisting) Uncompressed, 13 to 17 times the size of their zips
# (bench/storage_size.py; a SYNTHETIC udi table at scale 0.01: 148 MB uncompressed, 8.4 MB as ZSTD).
RECORD_TYPE = "JSON USING COMPRESSION zstd"
# The text a word index reads (MAUDE's narratives): DuckDB would pick FSST, at about 3.4x the bytes of ZSTD on
# calibrated text (scale 0.3: 2,632 against 773 MiB, half of the event file), with no measurable cost to searches.
TEXT_TYPE = "VARCHAR USING COMPRESSION zstd"


def _create(table: str, cols: list[tuple[str, str]]) -> str:
    return f'CREATE TABLE IF NOT EXISTS "{table}" (' + ", ".join(f'"{n}" {t}' for n, t in cols) + ")"


def ddl(ds: Dataset) -> list[str]:
    parent = {c.name: c for c in ds.columns}
    out = [
        _create(
            ds.table,
            [("_partition", "VARCHAR")]
            + [(c.name, _TYPE[c.kind]) for c in ds.columns]
            + [("record", RECORD_TYPE)]
            + [(name, "VARCHAR[]") for name in ds.listed],
        )
    ]
    for ch in ds.children:
        cols = [("_partition", "VARCHAR")] + [(k, _TYPE[parent[k].kind]) for k in ch.parent_keys]
        words = ch.suffix == ds.words  # its `text` column is the one the word index reads
        out.append(
            _create(
                f"{ds.table}_{ch.suffix}",
                cols + [(c.name, TEXT_TYPE if words and c.name == "text" else _TYPE[c.kind]) for c in ch.columns],
            )
        )
    return out


def _put(tree: dict, path: str, leaf: object) -> None:
    """Place `leaf` at a JSONPath ($.a.b) in a from_json structure (nested objects as nested dicts)."""
    d = tree
    parts = path.removeprefix("$.").split(".")
    for part in parts[:-1]:
        d = d.setdefault(part, {})
        assert isinstance(d, dict), f"{path}: a path under a value the load also reads whole"
    assert parts[-1] not in d, f"{path}: read twice"
    d[parts[-1]] = leaf


def _leaf(c: Column, listed: bool = False) -> object:
    """A column's from_json type: the JSON fragment itself for a listed column (its arrays are flattened)."""
    assert not (listed and c.kind == "list"), f"{c.name}: a listed child column is read as text"
    return "JSON" if listed else (["VARCHAR"] if c.kind == "list" else "VARCHAR")


def _structure(ds: Dataset) -> dict:
    """Everything the load reads of a record, as one from_json structure: each typed column's path, and each
    child's array with its columns' paths."""
    root: dict = {}
    for c in ds.columns:
        _put(root, c.path, _leaf(c))
    for ch in ds.children:
        listed = {col for _, col in ch.listed}
        element: dict = {}
        for c in ch.columns:
            _put(element, c.path, _leaf(c, c.name in listed))
        _put(root, ch.array.removesuffix("[*]"), [element])
    return root


def _sql_type(t: object) -> str:
    """The DuckDB type from_json gives for a structure."""
    if isinstance(t, dict):
        return "STRUCT(" + ", ".join(f'"{k}" {_sql_type(v)}' for k, v in t.items()) + ")"
    if isinstance(t, list):
        return _sql_type(t[0]) + "[]"
    return str(t)


def stage_ddl(ds: Dataset) -> str:
    """The stage of a chunk: the normalised record `j` and what the load reads of it, `s` (see `stage_sql`)."""
    return f"CREATE OR REPLACE TEMP TABLE {STAGE} (j JSON, s {_sql_type(_structure(ds))})"


def stage_sql(ds: Dataset, ndjson: Path) -> str:
    """Parse a chunk: the normalised record `j` (DuckDB's parallel NDJSON reader, the same text as json()), then
    every value the load needs from it with one from_json structure (the chunk's records were checked against
    MAX_RECORD_BYTES while unzipping; DuckDB's limit sits just above). One parse of the text and one of the
    minified record; the typed columns and child rows are then read from `s` without parsing again."""
    path = str(ndjson).replace("'", "''")
    structure = json.dumps(_structure(ds)).replace("'", "''")
    return (
        f"INSERT INTO {STAGE} SELECT j, from_json(j, '{structure}') AS s FROM read_json('{path}', "
        f"format='newline_delimited', records='false', columns={{j: 'JSON'}}, "
        f"maximum_object_size={MAX_RECORD_BYTES})"
    )


STAGE_CLEAR = f"DELETE FROM {STAGE}"


def _ref(base: str, path: str) -> str:
    """The field of a from_json structure at a JSONPath ($.a.b -> base."a"."b")."""
    return base + "." + ".".join(f'"{p}"' for p in path.removeprefix("$.").split("."))


def _typed(c: Column, ref: str, date_format: str, fragment: bool = False) -> str:
    """A typed column from its from_json value (a JSON `fragment` for a listed child column)."""
    text = f"({ref} ->> '$')" if fragment else ref
    return _DATE_SQL[date_format].format(v=text) if c.kind == "date" else text


def _col(ds: Dataset, name: str) -> str:
    c = next(c for c in ds.columns if c.name == name)
    return _typed(c, _ref("s", c.path), ds.date_format)


def flat_values(extracted: str) -> str:
    """Every non-null value in a JSON[] (what a wildcard json_extract returns), arrays flattened, as VARCHAR[].

    The one definition of "the values at a path" that the API's JSON fallback and the listed columns share.
    """
    flat = "CASE WHEN json_type(x) = 'ARRAY' THEN from_json(x, '[\"VARCHAR\"]') ELSE [x ->> '$'] END"
    return f"list_filter(flatten(list_transform({extracted}, lambda x: {flat})), lambda v: v IS NOT NULL)"


def listed_sql(ds: Dataset, name: str, record: str) -> str:
    """A listed column (`product_code_list`) from the record JSON: every value at its path in the record."""
    ch, c = ds.listed[name]
    values = flat_values(f"json_extract({record}, '{ch.array}.{c.path.removeprefix('$.')}')")
    return f"coalesce({values}, [])"


def _listed_from_stage(ds: Dataset) -> list[str]:
    """The listed columns from the staged child arrays, the same values as `listed_sql`."""
    out = []
    for name, (ch, c) in ds.listed.items():
        values = flat_values(
            f"list_transform({_ref('s', ch.array.removesuffix('[*]'))}, lambda e: {_ref('e', c.path)})"
        )
        out.append(f'coalesce({values}, []) AS "{name}"')
    return out


def main_sql(ds: Dataset) -> str:
    cols = ", ".join([f'{_col(ds, c.name)} AS "{c.name}"' for c in ds.columns] + _listed_from_stage(ds))
    return f'INSERT INTO "{ds.table}" BY NAME SELECT $part AS _partition, {cols}, j AS record FROM {STAGE}'


def child_sql(ds: Dataset, ch: Child) -> str:
    """One row per element of the child's staged array."""
    listed = {col for _, col in ch.listed}
    cols = ", ".join(
        f'{_typed(c, _ref("e", c.path), ds.date_format, c.name in listed)} AS "{c.name}"' for c in ch.columns
    )
    keys = ", ".join(f'{_col(ds, key)} AS "{key}"' for key in ch.parent_keys)
    return (
        f'INSERT INTO "{ds.table}_{ch.suffix}" BY NAME SELECT $part AS _partition, {keys}, {cols} '
        f"FROM (SELECT s, unnest({_ref('s', ch.array.removesuffix('[*]'))}) AS e FROM {STAGE})"
    )


def words_sql(
    ds: Dataset,
    rows: int,
    common_share: float = COMMON,
    batch: int = 200_000,
    sample: int = SAMPLE_ROWS,
    common: bool = True,
    partitions: list[str] | None = None,
) -> list[str]:
    """(Re)build the word index of `ds.words` (whose child table's rowids are below `rows`): every term (a word, or two
    words in a row) of the child's texts that holds a rare word, with the main table's rowid of each record whose
    text holds it, once, with its `words_cover` columns, sorted by term (zone maps find a term's rows); and apart the
    common words. Rows are read in rowid batches, so that memory stays bounded.

    The common words are those in more than `common_share` of the records, counted on a sample of about `sample`
    texts when there are more (blocks of rows spread over the table, read through zone maps): any set of common words
    gives the same search results, since the API looks up only the words the common table lacks and scans for the
    others; a sample only moves a few borderline words from one side to the other. `common=False` keeps the common
    words the file has. `partitions`: add the terms of these partitions' records only to the index the file has
    (whose terms of records no longer there were deleted first), as one more run of rows sorted by term."""
    assert ds.words_tables is not None, f"{ds.table} has no word index"
    words, common_table = ds.words_tables
    cover = "".join(f', m."{c}"' for c in ds.words_cover)
    child, word, key = f"{ds.table}_{ds.words}", WORD_SQL, ds.key[0]
    spans = [(lo, lo + batch - 1) for lo in range(0, max(rows, 1), batch)]
    listed = ", ".join(_lit(p) for p in partitions or [])
    part = "" if partitions is None else f' AND "_partition" IN ({listed})'
    out = ["CREATE OR REPLACE TEMP TABLE _terms (term VARCHAR, key VARCHAR)"]
    if common:
        out.append(
            f'CREATE OR REPLACE TABLE "{common_table}" AS SELECT w AS word FROM (SELECT DISTINCT key, '
            f"unnest(regexp_extract_all(lower(text), '{word}')) AS w FROM ({_sample(child, key, rows, sample)})) "
            f"GROUP BY w HAVING count(*) > {float(common_share)} * "
            f"(SELECT count(DISTINCT key) FROM ({_sample(child, key, rows, sample)}))"
        )
    out += [_rare_terms_sql(child, key, common_table, lo, hi, part) for lo, hi in spans]
    terms = f'SELECT DISTINCT w.term, m.rowid AS rowid{cover} FROM _terms w JOIN "{ds.table}" m ON m."{key}" = w.key'
    if partitions is None:
        out.append(f'CREATE OR REPLACE TABLE "{words}" AS {terms} ORDER BY term, rowid')
    else:
        out.append(f'INSERT INTO "{words}" {terms} WHERE m."_partition" IN ({listed}) ORDER BY term, rowid')
    return out + ["DROP TABLE _terms"]


def _sample(child: str, key: str, rows: int, sample: int) -> str:
    """About `sample` of the child's `rows` texts (all of them when there are fewer): every n-th block of rowids,
    SAMPLE_BLOCKS blocks in all."""
    every = max(1, rows // max(sample, 1))
    block = max(1, sample // SAMPLE_BLOCKS)
    if every == 1:
        return f'SELECT "{key}" AS key, "text" FROM "{child}"'
    return " UNION ALL ".join(
        f'SELECT "{key}" AS key, "text" FROM "{child}" WHERE rowid BETWEEN {lo} AND {lo + block - 1}'
        for lo in range(0, rows, block * every)
    )


def _lit(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"


def _rare_terms_sql(child: str, key: str, common: str, lo: int, hi: int, part: str = "") -> str:
    """The (term, key) pairs of child rows lo..hi: each rare word, and each two words in a row of which one is rare.

    Each distinct text of the rows is split once, with the keys of the records that hold it (a narrative repeated
    over many records is split once, not once per record). Each word is paired with the next one (two lists
    unnested side by side) and both are looked up in the (small) common words; a two-word term is formed only when
    one of the two is rare (the same pairs as forming every term and testing it, tests/mirror/test_d15_words.py)."""
    word = WORD_SQL
    texts = (
        f'SELECT row_number() OVER () AS id, text, keys FROM (SELECT "text" AS text, list(DISTINCT "{key}") AS keys '
        f'FROM "{child}" WHERE rowid BETWEEN {lo} AND {hi}{part} GROUP BY "text")'
    )
    pairs = (
        f"SELECT id, unnest(ws) AS a, unnest(ws[2:]) AS b FROM (SELECT id, "
        f"regexp_extract_all(lower(text), '{word}') AS ws FROM texts)"
    )
    flagged = (
        f'SELECT id, a, b, a IN (SELECT word FROM "{common}") AS ca, b IN (SELECT word FROM "{common}") AS cb '
        f"FROM ({pairs})"
    )
    terms = (
        "SELECT DISTINCT id, term FROM (SELECT id, unnest([CASE WHEN NOT ca THEN a END, "
        f"CASE WHEN NOT (ca AND cb) THEN a || ' ' || b END]) AS term FROM ({flagged})) WHERE term IS NOT NULL"
    )
    return (
        f"INSERT INTO _terms WITH texts AS MATERIALIZED ({texts}), terms AS ({terms}) SELECT DISTINCT term, key "
        "FROM (SELECT term, unnest(keys) AS key FROM terms JOIN texts USING (id))"
    )


def rows_sql(ds: Dataset) -> list[str]:
    """(Re)build the row indexes of the listed columns: (term, rowid, *cover) per record and distinct value,
    sorted by term then rowid. `rowid` is the main table's: rowids are fixed once the file is checkpointed,
    and the file is not written again after its build (a sync builds a new one)."""
    out = []
    cover = "".join(f', "{c}"' for c in ds.cover)
    for table, name in ds.rows_tables.items():
        out.append(
            f'CREATE OR REPLACE TABLE "{table}" AS SELECT term, rid AS rowid{cover} FROM (SELECT '
            f'unnest(list_distinct("{name}")) AS term, rowid AS rid{cover} FROM "{ds.table}") '
            f"WHERE term IS NOT NULL ORDER BY term, rid"
        )
    return out


def summary_sql(ds: Dataset) -> list[str]:
    """(Re)build the summaries of the listed columns: records per value (`term`, `n`), and per value and day
    (`term`, `day`, `n`, sorted by term); a record counts once per distinct value, as `count=` counts."""
    out = []
    for table, (name, day) in ds.summaries.items():
        terms = f'unnest(list_distinct("{name}")) AS term'
        if day is None:
            out.append(
                f'CREATE OR REPLACE TABLE "{table}" AS SELECT term, count(*) AS n FROM (SELECT {terms} '
                f'FROM "{ds.table}") WHERE term IS NOT NULL GROUP BY term ORDER BY term'
            )
        else:
            out.append(
                f'CREATE OR REPLACE TABLE "{table}" AS SELECT term, day, count(*) AS n FROM (SELECT {terms}, '
                f'"{day}" AS day FROM "{ds.table}" WHERE "{day}" IS NOT NULL) WHERE term IS NOT NULL '
                f"GROUP BY term, day ORDER BY term, day"
            )
    return out
