"""Parse the openFDA download.json manifest and plan which device partitions to mirror."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from datetime import date
from urllib.parse import urlsplit

import orjson

from ..errors import ManifestError
from ..store.paths import url_path

__all__ = ["ENDPOINTS", "Partition", "EndpointEntry", "Manifest", "parse_manifest", "plan", "keeps"]

ENDPOINTS = (
    "event",
    "recall",
    "enforcement",
    "510k",
    "pma",
    "classification",
    "udi",
    "registrationlisting",
    "covid19serology",
)

_QUARTER = re.compile(r"/(\d{4})q([1-4])/")


@dataclass(frozen=True)
class Partition:
    endpoint: str
    file: str  # the download URL as the manifest gives it
    records: int
    size_mb: float
    display_name: str
    export_date: str

    @property
    def path(self) -> str:
        """The URL path without the leading slash: device/event/2019q4/device-event-0004-of-0004.json.zip."""
        return urlsplit(self.file).path[1:]

    @property
    def bytes(self) -> int:
        """Approximate size: openFDA writes size_mb as os.path.getsize()/1024/1024 with two decimals."""
        return int(self.size_mb * 1048576)

    @property
    def member(self) -> str:
        """The one file the zip must hold."""
        return self.path.rsplit("/", 1)[-1].removesuffix(".zip")

    @property
    def year(self) -> int | None:
        m = _QUARTER.search("/" + self.path)
        return int(m.group(1)) if m else None


@dataclass
class EndpointEntry:
    name: str
    export_date: str
    total_records: int
    partitions: list[Partition] = field(default_factory=list)

    @property
    def listed_records(self) -> int:
        """The sum of the partitions' records (openFDA's total_records equals it)."""
        return sum(p.records for p in self.partitions)


@dataclass
class Manifest:
    last_updated: str
    endpoints: dict[str, EndpointEntry]
    raw: dict


_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
_MAX_RECORDS = 1 << 62


def _count(value: object, what: str, where: str) -> int:
    """A record count: a whole number from 0 up (an int or a string of digits), else ManifestError."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value.strip())
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < _MAX_RECORDS:
        raise ManifestError(
            f"{where}: {what} {_show(value)} is not a record count; check the manifest or download it again"
        )
    return value


def _size_mb(value: object, what: str, where: str) -> float:
    """size_mb: a finite number from 0 up (openFDA writes it as a string such as "0.40"); missing is 0."""
    if value is None or value == "":
        return 0.0
    try:
        size = float(value) if isinstance(value, (int, float, str)) and not isinstance(value, bool) else None
    except ValueError:
        size = None
    if size is None or not math.isfinite(size) or size < 0 or size > 1 << 30:
        raise ManifestError(
            f"{where}: {what} size_mb {_show(value)} is not a size in MB; check the manifest or download it again"
        )
    return size


def _show(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _export_date(entry: dict, name: str, where: str) -> str:
    value = entry.get("export_date")
    if not isinstance(value, str) or not _DATE.fullmatch(value):
        raise ManifestError(
            f"{where}: device/{name} export_date {_show(value)} is not a date (YYYY-MM-DD); "
            "check the manifest or download it again"
        )
    try:
        date.fromisoformat(value)
    except ValueError:
        raise ManifestError(
            f"{where}: device/{name} export_date {value!r} is not a real date; check the manifest or download it again"
        ) from None
    return value


def _partition(endpoint: str, export_date: str, p: object, i: int, where: str) -> Partition:
    what = f"device/{endpoint} partition {i + 1}"
    if not isinstance(p, dict) or not isinstance(p.get("file"), str) or "records" not in p:
        raise ManifestError(f"{where}: {what} has no valid file/records; check the manifest or download it again")
    url_path(p["file"], f"{where}: {what} file {_show(p['file'])}")
    return Partition(
        endpoint=endpoint,
        file=p["file"],
        records=_count(p["records"], f"{what} records", where),
        size_mb=_size_mb(p.get("size_mb"), what, where),
        display_name=str(p.get("display_name", "")),
        export_date=export_date,
    )


def _endpoint(name: str, entry: object, where: str) -> EndpointEntry:
    if not isinstance(entry, dict):
        raise ManifestError(f"{where}: device/{name} is not an object; check the manifest or download it again")
    export_date = _export_date(entry, name, where)
    raw = entry.get("partitions")
    if raw is not None and not isinstance(raw, list):
        raise ManifestError(f"{where}: device/{name} partitions is not a list; check the manifest or download it again")
    parts = [_partition(name, export_date, p, i, where) for i, p in enumerate(raw or [])]
    listed = sum(p.records for p in parts)
    total = entry.get("total_records")
    total = listed if total is None else _count(total, f"device/{name} total_records", where)
    return EndpointEntry(name, export_date, total, parts)


def parse_manifest(data: bytes, where: str = "download.json") -> Manifest:
    """Parse download.json bytes; raise ManifestError naming `where` if it is not usable.

    Only the device endpoints this program mirrors are read (others are ignored); each must have an export date
    (YYYY-MM-DD) and partitions whose file is an http(s) URL with a plain path (see mirror/paths.py)."""
    try:
        doc = orjson.loads(data)
    except orjson.JSONDecodeError as e:
        raise ManifestError(
            f"{where}: not valid JSON ({e}); check --manifest points at openFDA's download.json"
        ) from None
    results = doc.get("results") if isinstance(doc, dict) else None
    device = results.get("device") if isinstance(results, dict) else None
    if not isinstance(device, dict) or not device:
        raise ManifestError(
            f"{where}: has no device section (results.device); check --manifest points at openFDA's download.json"
        )
    meta = doc.get("meta") or {}
    if not isinstance(meta, dict):
        raise ManifestError(f"{where}: meta is not an object; check --manifest points at openFDA's download.json")
    endpoints = {name: _endpoint(name, entry, where) for name, entry in device.items() if name in ENDPOINTS}
    return Manifest(last_updated=str(meta.get("last_updated", "")), endpoints=endpoints, raw=doc)


def keeps(endpoint: str, path: str, since: int | None) -> bool:
    """Whether `--since` keeps a partition: event quarters from that year on, and every partition without a quarter."""
    if since is None or endpoint != "event":
        return True
    m = _QUARTER.search("/" + path)
    return m is None or int(m.group(1)) >= since


def plan(manifest: Manifest, only: list[str] | None = None, since: int | None = None) -> dict[str, list[Partition]]:
    """The partitions to mirror per endpoint, in manifest order.

    `only` names endpoints (device endpoints; "gudid" is handled elsewhere); `since` keeps event
    quarters from that year on (partitions without a quarter, like all_other, are kept)."""
    wanted = [e for e in (only or ENDPOINTS) if e != "gudid"]
    unknown = [e for e in wanted if e not in ENDPOINTS]
    if unknown:
        raise ManifestError(f"unknown endpoint {', '.join(unknown)}; choose from {', '.join(ENDPOINTS)}, gudid")
    out: dict[str, list[Partition]] = {}
    for name in wanted:
        entry = manifest.endpoints.get(name)
        if entry is None:
            continue
        out[name] = [p for p in entry.partitions if keeps(name, p.path, since)]
    return out
