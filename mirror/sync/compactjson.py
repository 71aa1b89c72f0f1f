"""The records of an openFDA bulk file in any JSON layout, from ijson's events: one record in memory at a time.

ijson's own `items` is quadratic in the nesting depth (it builds a prefix string per event: 100,000 levels
took 67 s), so records are built here from the plain events, with a nesting limit (orjson's) and a size
limit (the bytes read since the previous record), both checked before the record is complete.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import IO, Any

import ijson

from ..errors import MirrorError

__all__ = ["MAX_DEPTH", "Refused", "NotOpenFDA", "JSONError", "items"]

MAX_DEPTH = 254  # nested levels of one record, itself included (orjson writes no deeper)
JSONError = ijson.JSONError
_BUF = 64 << 10


class Refused(MirrorError):
    """A record this version cannot load, found while it was read: `why` it is refused, `offset` near its start."""

    def __init__(self, why: str, offset: int) -> None:
        super().__init__(why)
        self.why, self.offset = why, offset


class NotOpenFDA(MirrorError):
    """The JSON is not an openFDA {meta, results: [...]} object."""


class _Metered:
    """The unzipped member as ijson reads it: refuses more than `limit` bytes since the last record ended."""

    def __init__(self, f: IO[bytes], limit: int, label: str) -> None:
        self.f, self.limit, self.label = f, limit, label
        self.pos = self.mark = 0

    def read(self, n: int = -1) -> bytes:
        if self.pos - self.mark > self.limit:
            raise Refused(f"is over the {self.label} a record may hold", self.mark)
        data = self.f.read(_BUF if n < 0 else n)
        self.pos += len(data)
        return data


def items(f: IO[bytes], limit: int, label: str) -> Iterator[tuple[str, Any]]:
    """("meta", the meta value) once and ("record", value) for each element of `results`, in file order.

    Raises Refused (a record over `limit` bytes or MAX_DEPTH levels), NotOpenFDA, or JSONError."""
    reader = _Metered(f, limit, label)
    stack: list[tuple[Any, Any]] = []  # (container being built, its key in its parent)
    key: Any = None
    seen = False  # a top-level object with a "results" array was met
    for event, value in ijson.basic_parse(reader, buf_size=_BUF, use_float=True):
        if event == "map_key":
            key = value
            continue
        if event == "start_map" or event == "start_array":
            if len(stack) >= MAX_DEPTH + 2:
                raise Refused(f"is nested deeper than {MAX_DEPTH} levels", reader.mark)
            stack.append(({} if event == "start_map" else [], key))
            seen = seen or (
                len(stack) == 2 and key == "results" and event == "start_array" and isinstance(stack[0][0], dict)
            )
            continue
        if event == "end_map" or event == "end_array":
            value, key = stack.pop()
        depth = len(stack)
        if depth == 2 and stack[1][1] == "results" and isinstance(stack[1][0], list) and isinstance(stack[0][0], dict):
            reader.mark = reader.pos
            yield "record", value
        elif depth == 1:  # a member of the top-level object: only meta is kept
            if key == "meta" and isinstance(stack[0][0], dict):
                yield "meta", value
        elif depth:
            parent = stack[-1][0]
            if isinstance(parent, list):
                parent.append(value)
            else:
                parent[key] = value
    if not seen:
        raise NotOpenFDA("JSON is not an openFDA {meta, results} file")
