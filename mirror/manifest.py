"""Parse the openFDA download.json manifest and plan which device partitions to mirror."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from urllib.parse import urlparse

import orjson

from .errors import ManifestError

__all__ = ["ENDPOINTS", "Partition", "EndpointEntry", "Manifest", "parse_manifest", "plan"]

ENDPOINTS = ("event", "recall", "enforcement", "510k", "pma", "classification",
             "udi", "registrationlisting", "covid19serology")

_QUARTER = re.compile(r"/(\d{4})q([1-4])/")


@dataclass(frozen=True)
class Partition:
    endpoint: str
    file: str           # the download URL as the manifest gives it
    records: int
    size_mb: float
    display_name: str
    export_date: str

    @property
    def path(self) -> str:
        """The URL path without the leading slash: device/event/2019q4/device-event-0004-of-0004.json.zip."""
        return urlparse(self.file).path.lstrip("/")

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


@dataclass
class Manifest:
    last_updated: str
    endpoints: dict[str, EndpointEntry]
    raw: dict


def _partition(endpoint: str, export_date: str, p: dict, where: str) -> Partition:
    try:
        return Partition(endpoint=endpoint, file=str(p["file"]), records=int(p["records"]),
                         size_mb=float(p.get("size_mb") or 0), display_name=str(p.get("display_name", "")),
                         export_date=export_date)
    except (KeyError, TypeError, ValueError) as e:
        raise ManifestError(f"{where}: device/{endpoint} has a partition without a valid file/records ({e}); "
                            "check the manifest or download it again") from None


def parse_manifest(data: bytes, where: str = "download.json") -> Manifest:
    """Parse download.json bytes; raise ManifestError naming `where` if it is not usable."""
    try:
        doc = orjson.loads(data)
    except orjson.JSONDecodeError as e:
        raise ManifestError(f"{where}: not valid JSON ({e}); check --manifest points at openFDA's download.json") from None
    device = (doc.get("results") or {}).get("device") if isinstance(doc, dict) else None
    if not isinstance(device, dict) or not device:
        raise ManifestError(f"{where}: has no device section (results.device); "
                            "check --manifest points at openFDA's download.json")
    endpoints = {}
    for name, entry in device.items():
        if not isinstance(entry, dict):
            continue
        export_date = str(entry.get("export_date", ""))
        parts = [_partition(name, export_date, p, where) for p in entry.get("partitions") or []]
        endpoints[name] = EndpointEntry(name, export_date, int(entry.get("total_records") or 0), parts)
    last = str((doc.get("meta") or {}).get("last_updated", ""))
    return Manifest(last_updated=last, endpoints=endpoints, raw=doc)


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
        parts = entry.partitions
        if since is not None and name == "event":
            parts = [p for p in parts if p.year is None or p.year >= since]
        out[name] = list(parts)
    return out
