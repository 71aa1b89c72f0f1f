"""The fetch list of a dry run: every file a sync would download (URL, where it goes in the download site's layout,
bytes, records), for a connected machine to fetch when this one cannot."""

from __future__ import annotations

from dataclasses import dataclass, field

from .fetch import is_url
from .plan import Partition
from .report import SyncReport

__all__ = ["FetchItem", "PlanReport", "device_items", "gudid_item", "manifest_item"]


@dataclass(frozen=True)
class FetchItem:
    dataset: str  # event, ..., gudid; "manifest" for download.json itself
    url: str
    path: str  # where it goes under the folder given to `mirror sync --from DIR`
    bytes: int | None  # from the manifest's size_mb (approximate); None when the source does not say
    records: int | None
    export_date: str = ""


@dataclass
class PlanReport(SyncReport):
    """A dry run's report: the plan per dataset, and the files to fetch."""

    fetch: list[FetchItem] = field(default_factory=list)


def manifest_item(location: str) -> list[FetchItem]:
    """download.json itself, when it comes from a URL (it goes at the folder's root)."""
    return [FetchItem("manifest", location, "download.json", None, None)] if is_url(location) else []


def device_items(dataset: str, parts: list[Partition]) -> list[FetchItem]:
    return [FetchItem(dataset, p.file, p.path, p.bytes, p.records, p.export_date) for p in parts]


def gudid_item(url: str, name: str, date: str) -> FetchItem:
    """A GUDID release: it goes in the folder's gudid/ (where `--from DIR` looks for releases)."""
    return FetchItem("gudid", url, f"gudid/{name}", None, None, date)
