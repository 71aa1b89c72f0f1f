"""Small tables of MAUDE counts, built once per published event file and kept as Parquet in `<data folder>/surveil/`,
so that a signal query or an inventory check reads a few thousand rows instead of every report of a product code.

- `signal-totals`: all devices' reports per (dimension, term, year), over every report that names a product code;
- `code-terms`: the reports of each product code per (dimension, term, year); year NULL when the report has no
  date received; dimension `event_type` (every report has exactly one) or `problem` (each distinct term);
- `multi-code`: the reports that name two product codes or more (their codes, year, event type, problem terms),
  to count a report of several watched codes once: reports of a set of codes = the sum of each code's reports
  minus, for each report naming k >= 2 of the set's codes, k - 1;
- `recall-text`, `enforcement-text`: each record's description and code information, upper case (read out of the
  JSON once per file rather than at each inventory check);
- `recall-tokens`, `enforcement-tokens`: the words of that text (runs of letters, digits and `. _ / -`, trimmed of
  those four at both ends, 3 characters or more), so that an inventory's model numbers and DIs are found by a join
  on whole words, not by a substring search of every text for every word.

Each file is named `<name>-<fingerprint>.parquet`, the fingerprint being the source file's name, size and
modification time (the event file, or the recall or enforcement file): a sync that publishes a new file starts new
tables, and the older ones are deleted. A table is written under a temporary name and renamed, so a crash or a
second process never leaves half a file. `changes.record_changes` builds them right after a sync; a query that
finds one missing builds it.
"""

from __future__ import annotations

import hashlib
import os
import threading
from pathlib import Path

from ..store.files import Store

__all__ = [
    "TOKEN_SPLIT",
    "TOKEN_TRIM",
    "EVENT_TABLES",
    "AGGREGATES",
    "aggregate_path",
    "build_aggregates",
    "parquet",
    "EVENT_TYPE",
    "fingerprint",
]

# the event type and problem terms as signals count them
EVENT_TYPE = "coalesce(nullif(trim(t.event_type), ''), '(none)')"

_TEXT = "upper(coalesce(t.record->>'product_description', '') || ' ' || coalesce(t.record->>'code_info', ''))"
TOKEN_SPLIT = "[^A-Z0-9._/-]+"
TOKEN_TRIM = "._/-"
_TOKENS = (
    "SELECT DISTINCT id, tok FROM (SELECT {id} AS id, trim(unnest(regexp_split_to_array("
    + _TEXT
    + f", '{TOKEN_SPLIT}')), '{TOKEN_TRIM}') AS tok FROM {{table}} t) WHERE len(tok) >= 3 ORDER BY tok"
)

AGGREGATES: dict[str, str] = {
    "signal-totals": f"""
WITH r AS MATERIALIZED (
  SELECT year(t.date_received) AS yr, {EVENT_TYPE} AS et, list_distinct(t.product_problems) AS probs
  FROM device_event t
  WHERE t.date_received IS NOT NULL AND len(t.product_code_list) > 0
),
x AS (SELECT yr, 'event_type' AS dim, et AS term FROM r UNION ALL SELECT yr, 'problem', unnest(probs) FROM r)
SELECT dim, term, yr, count(*) AS n FROM x GROUP BY dim, term, yr""",
    "code-terms": f"""
WITH r AS MATERIALIZED (
  SELECT year(t.date_received) AS yr, {EVENT_TYPE} AS et, list_distinct(t.product_problems) AS probs,
         list_distinct(t.product_code_list) AS codes
  FROM device_event t WHERE len(t.product_code_list) > 0
),
c AS MATERIALIZED (SELECT yr, et, probs, unnest(codes) AS code FROM r),
x AS (SELECT code, yr, 'event_type' AS dim, et AS term FROM c
      UNION ALL SELECT code, yr, 'problem', unnest(probs) FROM c)
SELECT code, dim, term, yr, count(*) AS n FROM x GROUP BY ALL ORDER BY code, dim, term, yr""",
    "multi-code": f"""
SELECT list_sort(list_distinct(t.product_code_list)) AS codes, year(t.date_received) AS yr, {EVENT_TYPE} AS et,
       list_distinct(t.product_problems) AS probs
FROM device_event t WHERE len(list_distinct(t.product_code_list)) >= 2""",
    # recall and enforcement text (description and code information), upper case, and its tokens: runs of letters,
    # digits and . _ / - with those trimmed at both ends, 3 characters or more
    "recall-text": f"SELECT t.product_res_number AS id, {_TEXT} AS txt FROM device_recall t",
    "enforcement-text": "SELECT coalesce(t.recall_number, t.event_id) || ' (' || coalesce(t.classification, "
    f"'class not given') || ')' AS id, {_TEXT} AS txt FROM device_enforcement t",
    "recall-tokens": _TOKENS.format(table="device_recall", id="t.product_res_number"),
    "enforcement-tokens": _TOKENS.format(
        table="device_enforcement",
        id="coalesce(t.recall_number, t.event_id) || ' (' || coalesce(t.classification, 'class not given') || ')'",
    ),
}
# the dataset whose published file keys each table
SOURCE = {
    name: name.split("-")[0] if name.split("-")[0] in ("recall", "enforcement") else "event" for name in AGGREGATES
}
EVENT_TABLES = tuple(n for n in AGGREGATES if SOURCE[n] == "event")


def fingerprint(store: Store, dataset: str = "event") -> str:
    """The published file's name, size and modification time, hashed."""
    path = store.published()[dataset]
    st = path.stat()
    return hashlib.sha256(f"{path.name}|{st.st_size}|{st.st_mtime_ns}".encode()).hexdigest()[:16]


def aggregate_path(store: Store, name: str) -> Path:
    return store.data_dir / "surveil" / f"{name}-{fingerprint(store, SOURCE[name])}.parquet"


def parquet(path: Path) -> str:
    """`read_parquet('path')` with the path quoted for SQL."""
    return "read_parquet('" + str(path).replace("'", "''") + "')"


def build_aggregates(store: Store, con=None, names: tuple[str, ...] = EVENT_TABLES) -> dict[str, Path]:
    """The tables `names` for the published event file, built now when missing (see the module doc)."""
    out = {name: aggregate_path(store, name) for name in names}
    missing = [name for name, path in out.items() if not path.exists()]
    if not missing:
        return out
    own = con is None
    con = con or store.connect()
    try:
        for name in missing:
            path = out[name]
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
            try:
                con.execute(f"COPY ({AGGREGATES[name]}) TO '{str(tmp).replace(chr(39), chr(39) * 2)}' (FORMAT parquet)")
                os.replace(tmp, path)
            finally:
                tmp.unlink(missing_ok=True)
            for old in path.parent.glob(f"{name}-*.parquet"):
                if old != path:
                    old.unlink(missing_ok=True)
    finally:
        if own:
            con.close()
    return out
