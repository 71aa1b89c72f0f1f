"""AccessGUDID XML delta releases (daily/weekly/monthly updates) applied to the gudid_* DuckDB tables."""

from __future__ import annotations

import functools
import re
import xml.etree.ElementTree as ET
import zipfile
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO

import duckdb
import orjson

from ...errors import CorruptFileError, SourceError, UnloadableFileError

__all__ = ["apply_delta", "table_name", "quote_ident", "open_zip", "zip_members", "corrupt"]

_READ = 1 << 20
BATCH_DEVICES = 2000  # devices per set-based apply; bounds memory (~20 MB per 1000 fixture-sized devices)
DEVICE_TABLE = "gudid_device"
KEY, DI, VERSION = "publicDeviceRecordKey", "PrimaryDI", "publicVersionNumber"
# Elements are matched by local name: devices are in http://www.fda.gov/cdrh/gudid, but some children
# (feis, premarketSubmissions in the fixture) reset it with xmlns="".
# Device-level containers: each child element is one row of gudid_<snake_case container>.
# "sterilization" is special: its leaves go on gudid_device, methodTypes -> gudid_sterilization_method_types.
_CONTAINERS = {
    "identifiers",
    "contacts",
    "gmdnTerms",
    "productCodes",
    "deviceSizes",
    "environmentalConditions",
    "premarketSubmissions",
    "feis",
    "sterilization",
}
_IDENT = re.compile(r"[A-Za-z][A-Za-z0-9_]*")  # used with fullmatch

Row = dict[str, str | None]
# Values reach DuckDB as one JSON text parameter: DuckDB 1.5.5 converts a Python list parameter
# element by element (~0.3 ms per value here), JSON is parsed natively (1000x faster).
_IN_JSON = """(SELECT unnest(from_json(?, '["VARCHAR"]')))"""
_FROM_JSON_COLUMNS = """from_json(?, '[["VARCHAR"]]')"""


def _json(values: list) -> str:
    return orjson.dumps(values).decode()


@functools.lru_cache(maxsize=4096)
def table_name(stem: str) -> str:
    """'productCodes' -> 'gudid_product_codes', 'MRISafety' -> 'gudid_mri_safety'."""
    s = re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", stem)
    s = re.sub(r"([A-Z]+)([A-Z][a-z])", r"\1_\2", s)
    s = re.sub(r"[^0-9A-Za-z]+", "_", s).strip("_").lower()
    return "gudid_" + (s or "file")


def quote_ident(name: str) -> str:
    if not _IDENT.fullmatch(name):
        raise CorruptFileError(f"unsafe SQL identifier {name!r}; report this file and run `mirror sync` again")
    return f'"{name}"'


def corrupt(path: Path | str, detail: object) -> CorruptFileError:
    one_line = " ".join(str(detail).split())
    return CorruptFileError(f"{path}: {one_line}; the download is dropped: run `mirror sync` again to fetch it anew")


class _BadContent(Exception):
    """A delta whose XML (or content) cannot be applied; unloadable if its zip is intact, else corrupt."""


def _unloadable(
    zf: zipfile.ZipFile, info: zipfile.ZipInfo | None, where: str, detail: object
) -> CorruptFileError | UnloadableFileError:
    """UnloadableFileError for bad content in an intact zip (its CRC checked to the member's end), else corrupt."""
    try:
        if info is not None:
            with zf.open(info) as fp:
                while fp.read(_READ):
                    pass
    except (zipfile.BadZipFile, zlib.error, EOFError) as e:
        return corrupt(where, f"damaged zip member ({e})")
    one_line = " ".join(str(detail).split())
    return UnloadableFileError(
        f"{where}: {one_line}; this GUDID update cannot be applied by this version "
        "(the file is kept: delete it to download it again)"
    )


def open_zip(path: Path) -> zipfile.ZipFile:
    try:
        return zipfile.ZipFile(path)
    except FileNotFoundError as e:
        raise SourceError(f"{path}: file not found; run `mirror sync` again") from e
    except (zipfile.BadZipFile, zlib.error, EOFError, ValueError) as e:
        raise corrupt(path, f"not a valid zip ({e})") from e


def zip_members(zf: zipfile.ZipFile, suffix: str) -> list[zipfile.ZipInfo]:
    """Members ending in suffix, in zip order, without folders and macOS resource forks."""
    return [
        i
        for i in zf.infolist()
        if not i.is_dir()
        and i.filename.lower().endswith(suffix)
        and not i.filename.startswith("__MACOSX/")
        and not Path(i.filename).name.startswith("._")
    ]


@dataclass
class _Device:
    key: str
    delete: bool
    version: int | None
    primary_di: str | None
    fields: Row
    children: dict[str, list[Row]]


def _local(tag: object) -> str:
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""


def _col(elem: ET.Element) -> str:
    return _column_name(elem.tag)


@functools.lru_cache(maxsize=4096)
def _column_name(tag: str) -> str:
    name = re.sub(r"[^A-Za-z0-9_]", "_", _local(tag))
    return name if _IDENT.fullmatch(name) else "x_" + name


def _text(elem: ET.Element) -> str | None:
    text = (elem.text or "").strip()
    return text or None  # empty element -> NULL, as an empty delimited field


def _flatten(elem: ET.Element, prefix: str, row: Row) -> None:
    """size/unit,value -> sizeUnit,sizeValue; leaves keep their own name."""
    for sub in elem:
        name = _col(sub)
        key = prefix + name[0].upper() + name[1:] if prefix else name
        if len(sub):
            _flatten(sub, key, row)
        else:
            row[key] = _text(sub)


def _add_rows(children: dict[str, list[Row]], container: str, elem: ET.Element) -> None:
    rows = children.setdefault(table_name(container), [])
    for item in elem:
        row: Row = {}
        if len(item):
            _flatten(item, "", row)
        else:
            row[_col(item)] = _text(item)
        rows.append(row)


def _parse_device(elem: ET.Element) -> _Device:
    fields: Row = {}
    children: dict[str, list[Row]] = {}
    fallback_di = elem.get("deviceid")
    for child in elem:
        name = _col(child)
        if name == "sterilization":
            for sub in child:
                sub_name = _col(sub)
                if len(sub) or sub_name == "methodTypes":
                    _add_rows(children, "sterilization" + sub_name[0].upper() + sub_name[1:], sub)
                else:
                    fields[sub_name] = _text(sub)
        elif len(child) or name in _CONTAINERS:
            _add_rows(children, name, child)
        elif name == "deviceId":  # openFDA copy of the primary DI, like the deviceid attribute
            fallback_di = fallback_di or _text(child)
        else:
            fields[name] = _text(child)
    key = fields.get(KEY)
    if not key:
        raise _BadContent("a <device> has no publicDeviceRecordKey")
    primary = next(
        (
            r.get("deviceId")
            for r in children.get("gudid_identifiers", [])
            if (r.get("deviceIdType") or "").lower() == "primary" and r.get("deviceId")
        ),
        fallback_di,
    )
    delete = (fields.get("publicVersionStatus") or "").strip().lower() == "delete"
    if not primary and not delete:
        raise _BadContent(f"device {key} has no Primary deviceId")
    try:
        version = int(fields.get(VERSION) or "")
    except ValueError:
        version = None
    return _Device(key, delete, version, primary, fields, children)


def _iter_devices(fp: IO[bytes]) -> Iterator[_Device]:
    """Yield top-level <device> elements one at a time, clearing parsed elements (bounded memory)."""
    stack: list[ET.Element] = []
    depth = 0
    for event, elem in ET.iterparse(fp, events=("start", "end")):
        is_device = _local(elem.tag) == "device"
        if event == "start":
            stack.append(elem)
            depth += is_device
            continue
        stack.pop()
        if is_device:
            depth -= 1
            if depth == 0:
                yield _parse_device(elem)
                elem.clear()
                if stack:
                    stack[-1].clear()  # drop processed devices from the wrapper


def _columns(con: duckdb.DuckDBPyConnection, table: str) -> dict[str, str]:
    """{lower-case name: name} of a table in the current schema; {} if it does not exist."""
    rows = con.execute(
        "SELECT column_name FROM duckdb_columns() WHERE database_name = current_database()"
        " AND schema_name = current_schema() AND table_name = ? ORDER BY column_index",
        [table],
    ).fetchall()
    return {r[0].lower(): r[0] for r in rows}


def _ensure_columns(con: duckdb.DuckDBPyConnection, table: str, names: list[str]) -> dict[str, str]:
    """Create the table or add missing VARCHAR columns; return {lower-case name: stored name}.

    Columns are added by rebuilding the table (CREATE OR REPLACE ... AS SELECT *, NULL AS col):
    DuckDB 1.5 refuses to commit a transaction that DELETEs from a table and then ALTERs it.
    """
    cols = _columns(con, table)
    missing = [n for n in dict.fromkeys(names) if n.lower() not in cols]
    if not cols:
        con.execute(f"CREATE TABLE {quote_ident(table)} ({', '.join(quote_ident(n) + ' VARCHAR' for n in missing)})")
    elif missing:
        extra = ", ".join(f"CAST(NULL AS VARCHAR) AS {quote_ident(n)}" for n in missing)
        con.execute(f"CREATE OR REPLACE TABLE {quote_ident(table)} AS SELECT *, {extra} FROM {quote_ident(table)}")
    cols.update({n.lower(): n for n in missing})
    return cols


def _child_tables(con: duckdb.DuckDBPyConnection) -> list[str]:
    rows = con.execute(
        "SELECT DISTINCT c.table_name FROM duckdb_columns() c JOIN duckdb_tables() t"
        " ON t.database_name = c.database_name AND t.schema_name = c.schema_name AND t.table_name = c.table_name"
        " WHERE c.database_name = current_database() AND c.schema_name = current_schema()"
        " AND lower(c.column_name) = 'primarydi' AND starts_with(c.table_name, 'gudid_')"
        " AND c.table_name <> ? ORDER BY 1",
        [DEVICE_TABLE],
    ).fetchall()
    return [r[0] for r in rows if _IDENT.fullmatch(r[0])]


def _insert(con: duckdb.DuckDBPyConnection, table: str, rows: list[Row]) -> None:
    """One INSERT per table and batch: the columns travel as one JSON parameter, unnested side by side."""
    if not rows:
        return
    first_spelling: dict[str, str] = {}
    for r in rows:
        for k in r:
            first_spelling.setdefault(k.lower(), k)
    names = list(first_spelling.values())
    cols = _ensure_columns(con, table, names)
    lowered = [{k.lower(): v for k, v in r.items()} for r in rows]
    target = ", ".join(quote_ident(cols[n.lower()]) for n in names)
    values = ", ".join(f"unnest(c[{i}])" for i in range(1, len(names) + 1))
    sql = f"INSERT INTO {quote_ident(table)} ({target}) SELECT {values} FROM (SELECT {_FROM_JSON_COLUMNS} AS c)"
    con.execute(sql, [_json([[r.get(n.lower()) for r in lowered] for n in names])])


def _apply_batch(con: duckdb.DuckDBPyConnection, batch: list[_Device], counts: dict[str, int]) -> None:
    wanted = [DI, KEY] + ([VERSION] if any(VERSION in d.fields for d in batch) else [])
    cols = _ensure_columns(con, DEVICE_TABLE, wanted)
    version_col = cols.get(VERSION.lower())
    version_sql = f"TRY_CAST({quote_ident(version_col)} AS BIGINT)" if version_col else "NULL"
    keys = list(dict.fromkeys(d.key for d in batch))
    stored = con.execute(
        f'SELECT "{KEY}", "{DI}", {version_sql} FROM {DEVICE_TABLE} WHERE "{KEY}" IN {_IN_JSON}', [_json(keys)]
    ).fetchall()
    state: dict[str, tuple[bool, int | None]] = {}
    for key, _, version in stored:  # several rows per key should not happen; keep the highest version
        prev = state.get(key, (True, None))[1]
        state[key] = (True, max((v for v in (prev, version) if v is not None), default=None))
    final: dict[str, _Device] = {}
    for dev in batch:  # file order; the version check runs against the state left by earlier records
        exists, stored_version = state.get(dev.key, (False, None))
        if version_col and stored_version is not None and dev.version is not None and dev.version < stored_version:
            counts["skipped"] += 1
            continue
        if dev.delete:
            counts["deleted"] += 1
        else:
            counts["updated" if exists else "new"] += 1
        state[dev.key] = (not dev.delete, None if dev.delete else dev.version)
        final[dev.key] = dev
    if not final:
        return
    touched = list(final)
    old_dis = {di for key, di, _ in stored if di and key in final}
    dis = sorted(old_dis | {d.primary_di for d in final.values() if d.primary_di})
    con.execute(f'DELETE FROM {DEVICE_TABLE} WHERE "{KEY}" IN {_IN_JSON}', [_json(touched)])
    if dis:
        dis_json = _json(dis)
        for table in _child_tables(con):
            con.execute(f'DELETE FROM {quote_ident(table)} WHERE "{DI}" IN {_IN_JSON}', [dis_json])
    inserts: dict[str, list[Row]] = {DEVICE_TABLE: []}
    for dev in final.values():
        if dev.delete:
            continue
        fields = {k: v for k, v in dev.fields.items() if k.lower() != DI.lower()}
        inserts[DEVICE_TABLE].append({DI: dev.primary_di, **fields})
        for table, rows in dev.children.items():
            inserts.setdefault(table, []).extend({DI: dev.primary_di, **r} for r in rows)
    for table, rows in inserts.items():
        _insert(con, table, rows)


def apply_delta(con: duckdb.DuckDBPyConnection, zip_path: Path) -> dict[str, int]:
    """Apply one XML delta zip inside the caller's transaction; return {"new", "updated", "deleted", "skipped"}.

    A damaged zip raises CorruptFileError (fetch it again); invalid XML (a billion-laughs file, an undefined
    entity: expat refuses both) or a device without its keys in an intact zip raises UnloadableFileError."""
    counts = {"new": 0, "updated": 0, "deleted": 0, "skipped": 0}
    with open_zip(zip_path) as zf:
        members = zip_members(zf, ".xml")
        if not members:
            raise _unloadable(zf, None, str(zip_path), "no .xml member in this GUDID delta zip")
        for info in members:
            where = f"{zip_path}!{info.filename}"
            try:
                with zf.open(info) as fp:
                    batch: list[_Device] = []
                    for dev in _iter_devices(fp):
                        batch.append(dev)
                        if len(batch) >= BATCH_DEVICES:
                            _apply_batch(con, batch, counts)
                            batch = []
                    if batch:
                        _apply_batch(con, batch, counts)
            except (zipfile.BadZipFile, zlib.error, EOFError) as e:
                raise corrupt(where, f"damaged zip member ({e})") from e
            except ET.ParseError as e:
                raise _unloadable(zf, info, where, f"invalid XML ({e})") from None
            except _BadContent as e:
                raise _unloadable(zf, info, where, e) from None
            except NotImplementedError as e:
                raise corrupt(where, f"unsupported zip compression ({e})") from e
    return counts
