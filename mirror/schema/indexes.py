"""The secondary indexes of each dataset, described once: what sync builds and verifies and what the API reads.

Three kinds, all derived from the dataset specs (`Dataset.counted`, `cover`, `words`, `words_cover`, `day`):

* a row index (`device_event_product_code_list_rows`): one row per record and distinct value of a listed
  column (`term`), the record's main-table `rowid` and the covered columns beside it, sorted by term then
  rowid. A search whose one conjunct says "the listed column holds this value" reads it instead of the table
  when everything else it reads is covered.
* a word index (`device_event_text_terms`): each rare word of a child's `text` and each two words in a row
  (`term`), with the main-table rowid of each record whose text holds it and the covered columns; the common
  words are listed apart (`device_event_text_common`). A one-word or two-word search holding a rare word reads it.
* a summary (`..._counts`: term, n; `..._days`: term, day, n): records per listed value (and day), answering
  counts without a scan.

Row and word indexes name records by rowid: they are trusted only while the main table's `rowid_stamp`
(mirror/store/state.py) is the one written when they were built.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from .datasets import DATASETS, Dataset

__all__ = ["RowIndex", "WordIndex", "Summary", "Indexes", "indexes", "INDEXES"]


@dataclass(frozen=True)
class RowIndex:
    """A listed column's row index: records holding one value, by `term`."""

    table: str  # device_event_product_code_list_rows
    dataset: str  # the endpoint: event
    keys_on: str  # the main table's listed column whose values are the terms: product_code_list
    covers: tuple[str, ...]  # main-table columns copied beside each rowid
    term: str = "term"

    @property
    def columns(self) -> frozenset[str]:
        """The columns the table has (a table lacking one is of an older layout: rebuilt, not read)."""
        return frozenset({self.term, "rowid", *self.covers})


@dataclass(frozen=True)
class WordIndex:
    """The word index of a child table's texts: records whose text holds a rare word or two-word phrase."""

    table: str  # device_event_text_terms
    dataset: str
    child: str  # the child table whose `text` is split: device_event_text
    keys_on: str  # the child column split into words: text
    common: str  # the common words, not indexed: device_event_text_common
    covers: tuple[str, ...]
    term: str = "term"

    @property
    def columns(self) -> frozenset[str]:
        return frozenset({self.term, "rowid", *self.covers})


@dataclass(frozen=True)
class Summary:
    """Records per value of a listed column (`day` None), or per value and day of a date column."""

    table: str  # device_event_product_code_list_counts / ..._days
    dataset: str
    keys_on: str  # the listed column: product_code_list
    day: str | None = None  # the main table's date column (date_received) of a per-day summary
    term: str = "term"


@dataclass(frozen=True)
class Indexes:
    """All secondary indexes of one dataset."""

    dataset: str
    rows: tuple[RowIndex, ...] = ()
    words: WordIndex | None = None
    summaries: tuple[Summary, ...] = ()

    @property
    def by_rowid(self) -> tuple[RowIndex | WordIndex, ...]:
        """The indexes that name records by rowid (checked against the rowid stamp)."""
        return self.rows + ((self.words,) if self.words else ())

    @property
    def tables(self) -> tuple[str, ...]:
        """Every table of them (the word index's common words included)."""
        return (
            ((self.words.table, self.words.common) if self.words else ())
            + tuple(s.table for s in self.summaries)
            + tuple(i.table for i in self.rows)
        )


@cache
def indexes(ds: Dataset) -> Indexes:
    """The secondary indexes of a dataset, from its spec."""
    counted = [name for name in ds.listed if name in ds.counted]
    rows = tuple(RowIndex(f"{ds.table}_{name}_rows", ds.endpoint, name, ds.cover) for name in counted)
    words = (
        WordIndex(
            f"{ds.table}_{ds.words}_terms",
            ds.endpoint,
            f"{ds.table}_{ds.words}",
            "text",
            f"{ds.table}_{ds.words}_common",
            ds.words_cover,
        )
        if ds.words
        else None
    )
    summaries = tuple(Summary(f"{ds.table}_{name}_counts", ds.endpoint, name) for name in counted)
    if ds.day:
        summaries += tuple(Summary(f"{ds.table}_{name}_days", ds.endpoint, name, ds.day) for name in counted)
    return Indexes(ds.endpoint, rows, words, summaries)


INDEXES: dict[str, Indexes] = {name: indexes(ds) for name, ds in DATASETS.items()}
