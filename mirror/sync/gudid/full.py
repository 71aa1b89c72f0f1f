"""AccessGUDID releases: find them in a listing, load the delimited full release, apply XML deltas."""

from __future__ import annotations

import errno
import html
import logging
import re
import zipfile
import zlib
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from urllib.parse import urljoin

import duckdb

from ...errors import ConfigError, DiskFullError, MirrorError, SourceError, first_line
from ...store.rows import one
from .delta import apply_delta, corrupt, open_zip, quote_ident, table_name, zip_members

__all__ = [
    "GudidRelease",
    "ParallelReadRefused",
    "parse_release_name",
    "list_releases",
    "choose",
    "discover",
    "load_full_release",
    "apply_delta",
    "table_name",
]

_RELEASE = r"(?:AccessGUDID_Delimited_Full_Release|gudid_(?:daily|weekly|monthly)_update)_(\d{8})\.zip"
_NAME_RE = re.compile(_RELEASE, re.IGNORECASE)
# A release file name plus whatever URL or path precedes it in an attribute, element text or plain text.
_URL_CHARS = r"[^\s\"'<>\[\](){}]"
_TOKEN_RE = re.compile(
    _URL_CHARS + r"*?(?P<name>" + _RELEASE + r")(?:[?#]" + _URL_CHARS + r"*)?(?![\w-]|\.\w)", re.IGNORECASE
)
_DELTA_RANK = {"daily": 0, "weekly": 1, "monthly": 2}  # same date: prefer the update covering the longest span
_CHUNK = 4 << 20
_log = logging.getLogger(__name__)
# Delimited files: no quoting at all (a '"' is data), UTF-8 BOM and CRLF are handled by DuckDB,
# empty fields become NULL, short rows are NULL-padded, fields beyond the header's count are dropped.
# Lines up to 8 MB (DuckDB's default is 2 MB); buffers stay 32 MB so a 1 GB memory_limit is enough.
_CSV_OPTIONS = (
    "delim='|', header=true, all_varchar=true, quote='', escape='', strict_mode=false,"
    " null_padding=true, max_line_size=8388608, buffer_size=33554432"
)


class ParallelReadRefused(MirrorError):
    """DuckDB's parallel CSV reader refused a member ("does not support a full read on this file": seen on files
    whose lines hold a lone carriage return). The caller's transaction is aborted by then: roll it back and load
    the release again with `parallel=False`."""


@dataclass(frozen=True)
class GudidRelease:
    name: str  # file name, e.g. AccessGUDID_Delimited_Full_Release_20251001.zip
    url: str  # absolute URL or filesystem path
    kind: str  # "full" (delimited full release) or "delta" (XML daily/weekly/monthly update)
    date: str  # "YYYY-MM-DD" parsed from the name


def parse_release_name(name: str, url: str) -> GudidRelease | None:
    """A GudidRelease for a delimited full release or XML update file name, else None."""
    name = name.rsplit("/", 1)[-1]
    m = _NAME_RE.fullmatch(name)
    if not m:
        return None
    try:
        date = datetime.strptime(m.group(1), "%Y%m%d").date().isoformat()
    except ValueError:
        return None
    kind = "full" if name.lower().startswith("accessgudid") else "delta"
    return GudidRelease(name=name, url=url, kind=kind, date=date)


def _frequency(release: GudidRelease) -> str:
    return release.name.lower().split("_")[1]


def list_releases(listing: str, base_url: str) -> list[GudidRelease]:
    """Every release a listing (HTML page, RSS/Atom feed or plain text) names, links resolved against base_url."""
    found: dict[str, GudidRelease] = {}
    for m in _TOKEN_RE.finditer(listing):
        href = re.sub(r"^[A-Za-z_:][-\w:.]*=", "", html.unescape(m.group(0)))  # unquoted href=...
        release = parse_release_name(m.group("name"), urljoin(base_url, href))
        if release:
            found.setdefault(release.name.lower(), release)
    return list(found.values())


def choose(
    releases: list[GudidRelease], applied_through: str | None = None, where: str = "the GUDID listing"
) -> list[GudidRelease]:
    """The plan: [latest full release] + newer deltas in date order, or only deltas after applied_through."""
    if applied_through and not re.fullmatch(r"\d{4}-\d{2}-\d{2}", applied_through):
        raise ConfigError(f"applied_through {applied_through!r} is not YYYY-MM-DD; fix the GUDID sync state")
    unique = {r.name.lower(): r for r in releases}.values()
    fulls = sorted((r for r in unique if r.kind == "full"), key=lambda r: r.date)
    deltas: dict[str, GudidRelease] = {}
    for r in unique:
        if r.kind == "delta":
            other = deltas.get(r.date)
            if other is None or _DELTA_RANK[_frequency(r)] > _DELTA_RANK[_frequency(other)]:
                deltas[r.date] = r
    latest = fulls[-1] if fulls else None
    if applied_through and (latest is None or applied_through >= latest.date):
        return [deltas[d] for d in sorted(deltas) if d > applied_through]
    if latest is None:
        raise SourceError(
            f"{where}: no AccessGUDID_Delimited_Full_Release_YYYYMMDD.zip listed;"
            " point --gudid (FDAX_GUDID_URL) at the AccessGUDID delimited download page or feed"
        )
    return [latest] + [deltas[d] for d in sorted(deltas) if d > latest.date]


def discover(listing: str, base_url: str, applied_through: str | None = None) -> list[GudidRelease]:
    """The plan for one listing: see `list_releases` and `choose`."""
    return choose(list_releases(listing, base_url), applied_through, base_url)


def _extract(zf: zipfile.ZipFile, info: zipfile.ZipInfo, target: Path) -> tuple[int, bool]:
    """Stream one member to target; return (non-empty lines, whether every line has the header's '|' count).

    A line ends at \\n, \\r\\n or \\r, as in DuckDB's reader. The '|' check compares totals only.
    """
    nonempty, open_line, pipes, header_pipes, in_header = 0, False, 0, 0, True
    with zf.open(info) as src, open(target, "wb") as dst:
        while chunk := src.read(_CHUNK):
            dst.write(chunk)
            parts = chunk.splitlines()
            if in_header:
                header_pipes += parts[0].count(b"|")
                in_header = len(parts) == 1 and not chunk.endswith((b"\n", b"\r"))
            pipes += chunk.count(b"|")
            flags = [bool(part) for part in parts]
            flags[0] = flags[0] or open_line  # the first piece continues the previous chunk's last line
            if chunk.endswith((b"\n", b"\r")):
                nonempty, open_line = nonempty + sum(flags), False
            else:
                nonempty, open_line = nonempty + sum(flags[:-1]), flags[-1]
    nonempty += open_line
    return nonempty, pipes == header_pipes * nonempty


def _load_member(
    con: duckdb.DuckDBPyConnection,
    zip_path: Path,
    zf: zipfile.ZipFile,
    info: zipfile.ZipInfo,
    table: str,
    work_dir: Path,
    parallel: bool,
) -> int:
    target = work_dir / f"{table}.txt"
    try:
        lines, regular = _extract(zf, info, target)
        if lines == 0:
            raise corrupt(zip_path, f"{info.filename} is empty (no header line)")
        options = _CSV_OPTIONS + ("" if parallel else ", parallel=false")
        try:
            sql = f"CREATE OR REPLACE TABLE {quote_ident(table)} AS SELECT * FROM read_csv(?, {options})"
            con.execute(sql, [str(target)])
        except duckdb.NotImplementedException as e:
            if not parallel:
                raise
            raise ParallelReadRefused(f"{zip_path}: {info.filename}: {first_line(e)}") from e
        except duckdb.InvalidInputException as e:
            detail = first_line(e)
            raise corrupt(zip_path, f"{info.filename} cannot be read as pipe-delimited UTF-8 ({detail})") from e
        rows = one(con.execute(f"SELECT count(*) FROM {quote_ident(table)}"))[0]
    finally:
        target.unlink(missing_ok=True)
    if rows != lines - 1:
        raise corrupt(zip_path, f"{info.filename} has {lines - 1} data lines but {rows} rows loaded")
    if not regular:
        _log.warning(
            "%s: %s has lines with more or fewer '|' than its header (a '|' or line break inside a value?);"
            " those rows were split, NULL-padded or truncated",
            zip_path,
            info.filename,
        )
    return rows


def load_full_release(
    con: duckdb.DuckDBPyConnection, zip_path: Path, work_dir: Path, parallel: bool = True
) -> dict[str, int]:
    """Load every *.txt of a delimited full release into gudid_<snake_case stem>; return {table: rows}.

    `parallel=False` reads single-threaded, for a file the parallel reader refused (ParallelReadRefused)."""
    work_dir.mkdir(parents=True, exist_ok=True)
    counts: dict[str, int] = {}
    with open_zip(zip_path) as zf:
        members = zip_members(zf, ".txt")
        if not any(Path(i.filename).name.lower() == "device.txt" for i in members):
            raise corrupt(zip_path, "no device.txt in this GUDID full release")
        tables = [table_name(Path(i.filename).stem) for i in members]
        if len(set(tables)) != len(tables):
            raise corrupt(zip_path, f"two members map to the same table ({', '.join(tables)})")
        for info, table in zip(members, tables):
            try:
                counts[table] = _load_member(con, zip_path, zf, info, table, work_dir, parallel)
            except (zipfile.BadZipFile, zlib.error, EOFError) as e:
                raise corrupt(zip_path, f"damaged member {info.filename} ({e})") from e
            except NotImplementedError as e:
                raise corrupt(zip_path, f"member {info.filename} uses an unsupported compression ({e})") from e
            except OSError as e:
                if e.errno == errno.ENOSPC:
                    raise DiskFullError(
                        f"{work_dir}: no space left extracting {info.filename};"
                        " free disk space and run `mirror sync` again"
                    ) from e
                raise
    return counts
