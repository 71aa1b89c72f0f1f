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
    "STAGE_DDL",
    "STAGE_CLEAR",
]

STAGE = "_chunk"
COMMON = 0.01  # a word in more than this share of a word index's rows is common (not indexed)
_DATE_SQL = {kind: f"try_strptime({{v}}, '{fmt}')::DATE" for kind, fmt in zip(("ymd", "iso", "mdy"), DATE_FORMATS)}
_TYPE = {"str": "VARCHAR", "date": "DATE", "list": "VARCHAR[]"}
# The record JSON is stored ZSTD-compressed whatever DuckDB's own analysis would pick: left to itself, DuckDB 1.5
# keeps records of a few KB (udi, 510k, registrationlisting) Uncompressed, 13 to 17 times the size of their zips
# (bench/storage_size.py; a SYNTHETIC udi table at scale 0.01: 148 MB uncompressed, 8.4 MB as ZSTD).
RECORD_TYPE = "JSON USING COMPRESSION zstd"


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
        out.append(_create(f"{ds.table}_{ch.suffix}", cols + [(c.name, _TYPE[c.kind]) for c in ch.columns]))
    return out


def _paths(ds: Dataset) -> list[str]:
    """Every JSON path the load reads: the typed columns, then each child's array."""
    return [c.path for c in ds.columns] + [ch.array.removesuffix("[*]") for ch in ds.children]


def stage_sql(ds: Dataset, ndjson: Path) -> str:
    """Parse a chunk: the normalised record `j`, then the fragments `v` at every path the load needs (the
    chunk's records were checked against MAX_RECORD_BYTES while unzipping; DuckDB's limit sits just above)."""
    paths = "[" + ", ".join(f"'{p}'" for p in _paths(ds)) + "]"
    path = str(ndjson).replace("'", "''")
    return (
        f"INSERT INTO {STAGE} SELECT j, json_extract(j, {paths}) AS v FROM (SELECT json(json) AS j "
        f"FROM read_ndjson_objects('{path}', maximum_object_size={MAX_RECORD_BYTES}))"
    )  # the paths read from
    # the minified record: the same fragments as from the pretty-printed text, 15-25% faster per chunk


STAGE_DDL = f"CREATE TEMP TABLE IF NOT EXISTS {STAGE} (j JSON, v JSON[])"
STAGE_CLEAR = f"DELETE FROM {STAGE}"


def _typed(c: Column, frag: str, date_format: str) -> str:
    """A typed column from a JSON fragment (a small string: cheap to read again)."""
    if c.kind == "list":
        return f"""from_json({frag}, '["VARCHAR"]')"""
    text = f"({frag} ->> '$')"
    return _DATE_SQL[date_format].format(v=text) if c.kind == "date" else text


def _col(ds: Dataset, name: str) -> str:
    i = [c.name for c in ds.columns].index(name)
    return _typed(ds.columns[i], f"v[{i + 1}]", ds.date_format)


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
    """The listed columns from the staged fragments (the child's array), the same values as `listed_sql`."""
    out = []
    for name, (ch, c) in ds.listed.items():
        k = len(ds.columns) + ds.children.index(ch) + 1
        values = flat_values(f"json_extract(v[{k}], '$[*].{c.path.removeprefix('$.')}')")
        out.append(f'coalesce({values}, []) AS "{name}"')
    return out


def main_sql(ds: Dataset) -> str:
    cols = ", ".join([f'{_col(ds, c.name)} AS "{c.name}"' for c in ds.columns] + _listed_from_stage(ds))
    return f'INSERT INTO "{ds.table}" BY NAME SELECT $part AS _partition, {cols}, j AS record FROM {STAGE}'


def _schema(columns: tuple[Column, ...]) -> str:
    """A from_json structure holding just these columns' paths (nested objects as nested structs)."""
    root: dict = {}
    for c in columns:
        d = root
        parts = c.path.removeprefix("$.").split(".")
        for part in parts[:-1]:
            d = d.setdefault(part, {})
        d[parts[-1]] = ["VARCHAR"] if c.kind == "list" else "VARCHAR"
    return json.dumps([root]).replace("'", "''")


def child_sql(ds: Dataset, ch: Child) -> str:
    """One row per element of the child's array, read from its fragment with a struct schema."""
    k = len(ds.columns) + ds.children.index(ch) + 1
    cols = []
    for c in ch.columns:
        ref = "e." + ".".join(f'"{p}"' for p in c.path.removeprefix("$.").split("."))
        cols.append((_DATE_SQL[ds.date_format].format(v=ref) if c.kind == "date" else ref) + f' AS "{c.name}"')
    keys = ", ".join(f'{_col(ds, key)} AS "{key}"' for key in ch.parent_keys)
    return (
        f'INSERT INTO "{ds.table}_{ch.suffix}" BY NAME SELECT $part AS _partition, {keys}, {", ".join(cols)} '
        f"FROM (SELECT v, unnest(from_json(v[{k}], '{_schema(ch.columns)}')) AS e FROM {STAGE})"
    )


def words_sql(ds: Dataset, rows: int, common_share: float = COMMON, batch: int = 200_000) -> list[str]:
    """(Re)build the word index of `ds.words` (whose child table's rowids are below `rows`): every term (a word, or two
    words in a row) of the child's texts that holds a rare word, with the main table's rowid of each record whose
    text holds it, once, with its `words_cover` columns, sorted by term (zone maps find a term's rows); and apart the
    common words (in more than
    `common_share` of the records). Rows are read in rowid batches, so that memory stays bounded."""
    assert ds.words_tables is not None, f"{ds.table} has no word index"
    words, common = ds.words_tables
    cover = "".join(f', m."{c}"' for c in ds.words_cover)
    child, word, key = f"{ds.table}_{ds.words}", WORD_SQL, ds.key[0]
    spans = [(lo, lo + batch - 1) for lo in range(0, max(rows, 1), batch)]
    split = (
        f'SELECT "{key}" AS key, regexp_extract_all(lower("text"), \'{word}\') AS ws FROM "{child}" '
        "WHERE rowid BETWEEN {lo} AND {hi}"
    )
    return (
        [
            "CREATE OR REPLACE TEMP TABLE _df (word VARCHAR, n BIGINT)",
            "CREATE OR REPLACE TEMP TABLE _terms (term VARCHAR, key VARCHAR)",
        ]
        + [
            f"INSERT INTO _df SELECT w, count(DISTINCT key) FROM (SELECT key, unnest(ws) AS w FROM "
            f"({split.format(lo=lo, hi=hi)})) GROUP BY w"
            for lo, hi in spans
        ]
        + [
            f'CREATE OR REPLACE TABLE "{common}" AS SELECT word FROM _df GROUP BY word '
            f'HAVING sum(n) > {float(common_share)} * (SELECT count(DISTINCT "{key}") FROM "{child}")',
            "DROP TABLE _df",
        ]
        + [_rare_terms_sql(child, key, common, lo, hi) for lo, hi in spans]
        + [
            f'CREATE OR REPLACE TABLE "{words}" AS SELECT DISTINCT w.term, m.rowid AS rowid{cover} FROM _terms w '
            f'JOIN "{ds.table}" m ON m."{key}" = w.key ORDER BY term, rowid',
            "DROP TABLE _terms",
        ]
    )


def _rare_terms_sql(child: str, key: str, common: str, lo: int, hi: int) -> str:
    """The (term, key) pairs of child rows lo..hi: each rare word, and each two words in a row of which one is rare.

    Built from the rare words' positions (an anti-join of the tokens on the common words, then the neighbours of
    each rare word by position), not by forming every two-word term and testing it: most words are common, so
    this forms a few terms per text instead of one per word (the same pairs)."""
    word = WORD_SQL
    tokens = (
        f"SELECT rid, key, unnest(ws) AS w, unnest(range(1, len(ws) + 1)) AS i FROM (SELECT rowid AS rid, "
        f'"{key}" AS key, regexp_extract_all(lower("text"), \'{word}\') AS ws FROM "{child}" '
        f"WHERE rowid BETWEEN {lo} AND {hi})"
    )
    return (
        f"INSERT INTO _terms WITH t AS MATERIALIZED ({tokens}), "
        f'r AS (SELECT rid, key, w, i FROM t WHERE w NOT IN (SELECT word FROM "{common}")) '
        "SELECT DISTINCT term, key FROM (SELECT w AS term, key FROM r "
        "UNION ALL SELECT t.w || ' ' || r.w, r.key FROM r JOIN t ON t.rid = r.rid AND t.i = r.i - 1 "
        "UNION ALL SELECT r.w || ' ' || t.w, r.key FROM r JOIN t ON t.rid = r.rid AND t.i = r.i + 1)"
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
