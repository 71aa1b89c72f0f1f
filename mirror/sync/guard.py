"""What a sync refuses to publish: an endpoint whose totals disagree, or a dataset that would shrink by over half.

The shrink guard (D8): a dataset may not be replaced by one holding fewer than SHRINK_LIMIT of its records (an
empty partition list included) unless the sync is told `--allow-shrink`. It compares the records the manifest
lists after `--since` with the records the published dataset holds in the same `--since` slice, so narrowing
`--since` is the user's own choice and never a shrink. The count replaced is kept in `_sync_meta`
(`previous_records`, `shrink_allowed`), where `mirror verify` finds it.
"""

from __future__ import annotations

from ..errors import ManifestError, ShrinkRefused
from ..store.state import DatasetState
from .plan import EndpointEntry, keeps

__all__ = ["SHRINK_LIMIT", "shrank", "previous_records", "check_entry"]

SHRINK_LIMIT = 0.5  # a dataset may not drop below half the records it held without --allow-shrink


def shrank(previous: int, now: int) -> bool:
    """True when `now` records replacing `previous` ones is a drop the guard refuses (nothing held: never)."""
    return previous > 0 and now < previous * SHRINK_LIMIT


def previous_records(cur: DatasetState | None, name: str, since: int | None) -> int | None:
    """Records the published dataset holds in the partitions `since` keeps (None: no complete dataset)."""
    if cur is None or not cur.complete:
        return None
    return sum(n for path, n in cur.partitions.items() if keeps(name, path, since))


def check_entry(where: str, entry: EndpointEntry, previous: int | None, planned: int, allow_shrink: bool) -> None:
    """ManifestError when total_records is not the partitions' sum (D16); ShrinkRefused for a refused shrink."""
    if entry.total_records != entry.listed_records:
        raise ManifestError(
            f"{where}: device/{entry.name} total_records {entry.total_records:,} is not the sum of "
            f"its partitions' records ({entry.listed_records:,}); the manifest is inconsistent, so "
            f"{entry.name} keeps its previous data: fetch the manifest again later"
        )
    if previous is not None and shrank(previous, planned) and not allow_shrink:
        raise ShrinkRefused(
            f"{where}: device/{entry.name} lists {planned:,} records where the mirror holds "
            f"{previous:,}; a drop of more than half is refused and {entry.name} keeps its previous "
            "data. If the drop is real, rerun with --allow-shrink"
        )
