"""Settings read once at the edge (environment, prefix FDAX_) and passed down as values."""

from __future__ import annotations

from pathlib import Path

import platformdirs
from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

from .schema.openfda import MANIFEST_URL

__all__ = ["Settings", "DEFAULT_MANIFEST_URL", "DEFAULT_GUDID_URL", "env_problem"]

DEFAULT_MANIFEST_URL = MANIFEST_URL
# The delimited full releases are listed on the delimited download page; the XML daily updates in an RSS feed.
DEFAULT_GUDID_URL = (
    "https://accessgudid.nlm.nih.gov/download/delimited https://accessgudid.nlm.nih.gov/download.rss?files=daily"
)


def env_problem(error) -> str:
    """One line for a pydantic ValidationError raised while FDAX_* settings were read from the environment."""
    err = error.errors()[0]
    return f"setting FDAX_{str(err['loc'][0]).upper()}: {err['msg']}; fix the environment variable"


def _default_data_dir() -> Path:
    return Path(platformdirs.user_data_dir("fda-explorer", appauthor=False))


class Settings(BaseSettings):
    """Every setting has a default, a description and a line in docs/settings.md."""

    model_config = SettingsConfigDict(env_prefix="FDAX_", extra="ignore")

    data_dir: Path = Field(
        default_factory=_default_data_dir, description="Folder holding the DuckDB files, downloads and sync state."
    )
    manifest_url: str = Field(DEFAULT_MANIFEST_URL, description="openFDA download.json manifest: URL or local path.")
    gudid_url: str = Field(
        DEFAULT_GUDID_URL,
        description="AccessGUDID listings (space-separated): pages, RSS feeds, release zips (URL or path) or folders.",
    )
    concurrency: int = Field(3, ge=1, le=16, description="Files downloaded at once.")
    timeout: float = Field(60.0, gt=0, description="Seconds before a stalled HTTP read is retried.")
    retries: int = Field(6, ge=0, description="Retries per file on timeouts, 429 and 5xx.")
    backoff: float = Field(1.0, ge=0, description="Base seconds of the exponential backoff (with jitter).")
    stale_days: int = Field(14, ge=1, description="Age in days after which `mirror status` warns that data is stale.")
    keep_downloads: bool = Field(True, description="Keep downloaded zips after loading (needed by `mirror export`).")
    chunk_mb: int = Field(32, ge=1, description="Size of the decompressed chunks streamed into DuckDB.")
    duckdb_memory_limit: str = Field(
        "1GB",
        description="DuckDB memory_limit while loading, for each local API request and lookup, and for `mirror sql`.",
    )
    query_timeout: float = Field(
        30.0,
        gt=0,
        description="Seconds of DuckDB work one local API request or lookup "
        "may take before it is stopped as too broad.",
    )
    offline: bool = Field(
        False,
        description="Never use the internet: a sync fetches only local paths and servers "
        "on this computer (loopback); any other URL is refused at once.",
    )
    api_max_skip: int = Field(
        25000, ge=0, description="Largest `skip` the local API accepts (openFDA: 25000); 0 means no limit."
    )
