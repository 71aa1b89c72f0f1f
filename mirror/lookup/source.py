"""What the lookups read: the one `Reader` of the mirror (mirror/store/reader.py), or anything that holds one.

Lookups take a `Source`: a `Reader`, or an object with a `reader` attribute (the local `Api`, the assistant's
`ToolContext.api`), so that callers holding an Api keep working while the lookups depend on the reader alone.
Tables a lookup derives from the mirror are built through `Reader.derived`, once per mirror version, on that
version's connection: `pinned(src)` gives the reader and the attach to read and build on together.
"""

from __future__ import annotations

from typing import Protocol, Union

from ..store.reader import Reader, Snapshot

__all__ = ["Source", "HasReader", "reader_of", "pinned"]


class HasReader(Protocol):
    reader: Reader


Source = Union[Reader, HasReader]


def reader_of(src: Source) -> Reader:
    """The Reader behind `src`."""
    return src if isinstance(src, Reader) else src.reader


def pinned(src: Source) -> tuple[Reader, Snapshot]:
    """The reader and its current attach: build derived tables and query them on the same mirror version."""
    reader = reader_of(src)
    return reader, reader.snapshot()
