"""The SQL that loads NDJSON chunks into a dataset's tables: one JSON parse per record, fragments after that."""

from __future__ import annotations

import json
from pathlib import Path

from .datasets import Child, Column, Dataset

__all__ = ["ddl", "stage_sql", "main_sql", "child_sql", "STAGE", "STAGE_DDL", "STAGE_CLEAR"]

STAGE = "_chunk"
_DATE_SQL = {"ymd": "try_strptime({v}, '%Y%m%d')::DATE",
             "iso": "try_strptime({v}, '%Y-%m-%d')::DATE",
             "mdy": "try_strptime({v}, '%m/%d/%Y')::DATE"}
_TYPE = {"str": "VARCHAR", "date": "DATE", "list": "VARCHAR[]"}


def _create(table: str, cols: list[tuple[str, str]]) -> str:
    return f'CREATE TABLE IF NOT EXISTS "{table}" (' + ", ".join(f'"{n}" {t}' for n, t in cols) + ")"


def ddl(ds: Dataset) -> list[str]:
    parent = {c.name: c for c in ds.columns}
    out = [_create(ds.table, [("_partition", "VARCHAR")] + [(c.name, _TYPE[c.kind]) for c in ds.columns]
                   + [("record", "JSON")])]
    for ch in ds.children:
        cols = [("_partition", "VARCHAR")] + [(k, _TYPE[parent[k].kind]) for k in ch.parent_keys]
        out.append(_create(f"{ds.table}_{ch.suffix}", cols + [(c.name, _TYPE[c.kind]) for c in ch.columns]))
    return out


def _paths(ds: Dataset) -> list[str]:
    """Every JSON path the load reads: the typed columns, then each child's array."""
    return [c.path for c in ds.columns] + [ch.array.removesuffix("[*]") for ch in ds.children]


def stage_sql(ds: Dataset, ndjson: Path) -> str:
    """Parse a chunk once: the normalised record `j` and the fragments `v` at every path the load needs."""
    paths = "[" + ", ".join(f"'{p}'" for p in _paths(ds)) + "]"
    path = str(ndjson).replace("'", "''")
    return (f"INSERT INTO {STAGE} SELECT json(json) AS j, json_extract(json, {paths}) AS v "
            f"FROM read_ndjson_objects('{path}')")


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


def main_sql(ds: Dataset) -> str:
    cols = ", ".join(f'{_col(ds, c.name)} AS "{c.name}"' for c in ds.columns)
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
    return (f'INSERT INTO "{ds.table}_{ch.suffix}" BY NAME SELECT $part AS _partition, {keys}, {", ".join(cols)} '
            f"FROM (SELECT v, unnest(from_json(v[{k}], '{_schema(ch.columns)}')) AS e FROM {STAGE})")
