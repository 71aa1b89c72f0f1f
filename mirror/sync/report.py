"""What a sync did, per dataset: the report returned by `sync()` and printed by the CLI."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path

import duckdb

from ..errors import MirrorError
from ..store.files import db_error

__all__ = ["DatasetReport", "SyncReport"]


@dataclass
class DatasetReport:
    dataset: str
    status: str = "planned"  # planned | up-to-date | updated | failed | skipped
    export_date: str = ""
    records: int = 0
    files: int = 0
    files_to_fetch: int = 0
    files_unchanged: int = 0  # re-exported files whose records were already loaded (kept, not loaded again)
    bytes_planned: int = 0
    bytes_fetched: int = 0
    seconds: float = 0.0
    error: str = ""
    note: str = ""  # one line for a person about this dataset that is no failure (GUDID skipped: how to add it)


@dataclass
class SyncReport:
    data_dir: str
    manifest: str
    dry_run: bool
    datasets: dict[str, DatasetReport] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return not self.errors

    def to_dict(self) -> dict:
        d = asdict(self)
        d["ok"] = self.ok
        return d

    @staticmethod
    def classify(e: BaseException, staging: Path) -> MirrorError:
        """`e` as a MirrorError: DuckDB and OS errors become ones naming `staging` (others re-raise)."""
        err = e if isinstance(e, MirrorError) else db_error(e, staging)
        if err is None:
            raise e
        return err

    def fail(self, dataset: str, e: BaseException, staging: Path) -> MirrorError:
        """Record a dataset's failure; DuckDB and OS errors become MirrorErrors naming `staging` (others re-raise)."""
        err = self.classify(e, staging)
        r = self.datasets[dataset]
        r.status, r.error = "failed", str(err)
        self.errors.append(str(err))
        return err


FAILURES = (MirrorError, OSError, duckdb.Error)
