"""Stream an openFDA bulk zip (one wrapped {"meta":..,"results":[..]} JSON file) out as NDJSON blocks.

openFDA writes each file with json.dumps(indent=2), so a record of `results` starts at four spaces of
indentation and two records are separated by exactly "\\n    },\\n    {". A raw newline cannot occur
inside a JSON string, so that separator only occurs between records: the fast path splits on it and
removes the pretty-printing newlines with bytes.replace (hundreds of MB/s). Any other layout (compact JSON,
other indentation) goes through ijson's event parser instead (`compactjson`).

Memory is bounded whatever the file holds: each unzipped byte is scanned once and copied a fixed number of
times, a record may hold at most MAX_RECORD_BYTES, and a file whose records outnumber the manifest's count
stops at the first block that shows it (RecordCountError). A record this version cannot load (too large,
nested too deep, not a JSON object) raises UnloadableFileError once the zip's checksum has been checked to
the end (unless the zip declares more bytes than the manifest's records could fill: it cannot load either
way, and a zip bomb is not inflated for nothing): the download is kept, as fetching it again would not
help. A damaged zip raises CorruptFileError: the download is dropped and the next sync fetches it anew.
"""

from __future__ import annotations

import zipfile
import zlib
from collections.abc import Iterator
from pathlib import Path

import orjson

from ..errors import CorruptFileError, InvalidJSONError, RecordCountError, UnloadableFileError
from .compactjson import MAX_DEPTH, JSONError, NotOpenFDA, Refused, items

__all__ = ["BulkFile", "MAX_RECORD_BYTES"]

MAX_RECORD_BYTES = 16 << 20  # one record as the file holds it; DuckDB reads objects up to this (maximum_object_size)
_READ = 1 << 20  # unzipped bytes read at a time
_WRAPPER = 1 << 20  # room for the meta object and the wrapper around the records
_START = b'\n  "results": ['
_SEP = b"\n    },\n    {"
_OPEN = _SEP[7:]  # "\n    {": a record's first line
_END = b"\n  ]"
_RS = b"\x1e"  # a raw control character never occurs in valid JSON text


_LINES = bytes.maketrans(_RS, b"\n")


def _flatten(block: bytearray) -> bytearray:
    """Records of the results array (pretty-printed) to one record per line: the separators marked, then in one pass
    every newline deleted and each mark made a newline (two passes over the block instead of four)."""
    out = block.replace(_SEP, b"}" + _RS + b"{").translate(_LINES, b"\n")
    out += b"\n"  # in place: no copy of the block for its last byte
    return out


_KINDS: dict[type, str] = {list: "an array", str: "a string"}  # what a record that is not an object is


def _size(n: int) -> str:
    return f"{n >> 20} MB" if n >= 1 << 20 else f"{n:,} bytes"


class BulkFile:
    """One openFDA bulk zip: `chunks()` yields NDJSON blocks of whole records; `meta` is set after.

    `records`: the manifest's count (None: unknown), `key`: the field naming a record in messages."""

    def __init__(
        self,
        zip_path: Path,
        member: str,
        records: int | None = None,
        key: str | None = None,
        max_record: int = MAX_RECORD_BYTES,
    ) -> None:
        self.zip_path = Path(zip_path)
        self.member = member
        self.records, self.key, self.max_record = records, key, max_record
        self.meta: dict | None = None
        self._declared = 0  # the member's unzipped size, as the zip declares it
        self._check()

    def _fail(self, why: str, cls: type = CorruptFileError) -> Exception:
        return cls(f"{self.zip_path}: {why}; the download is dropped: run `mirror sync` again to fetch it anew")

    def _too_many(self, seen: str) -> RecordCountError:
        return RecordCountError(
            f"{self.zip_path}: holds {seen} records but the manifest says {self.records}; "
            "the file or the manifest is out of date: run `mirror sync` again"
        )

    def _unloadable(self, f, what: str) -> UnloadableFileError:
        """The error for a record this version cannot load, once the zip's CRC (checked at its end) held; a member
        declaring more bytes than the manifest's records can fill is not read on (it cannot load either way)."""
        if self.records is None or self._declared <= self._room():
            self._drain(f)
        return UnloadableFileError(
            f"{self.zip_path}: {what}; this file cannot be loaded by this version; the "
            "previous data is kept (and so is the download: fetching it again would not help)"
        )

    def _check(self) -> None:
        try:
            with zipfile.ZipFile(self.zip_path) as zf:
                names = zf.namelist()
                size = zf.getinfo(self.member).file_size if names == [self.member] else 0
        except (zipfile.BadZipFile, OSError, EOFError) as e:
            raise self._fail(f"not a readable zip ({e})") from None
        if names != [self.member]:
            raise self._fail(f"unexpected zip members {names} (expected only {self.member})")
        self._declared = size

    def _room(self) -> int:
        """The most bytes the manifest's records can take unzipped."""
        return (self.records or 0) * (self.max_record + len(_SEP)) + _WRAPPER

    def chunks(self, chunk_bytes: int = 32 << 20) -> Iterator[bytes | bytearray]:
        try:
            with zipfile.ZipFile(self.zip_path) as zf, zf.open(self.member) as f:
                head = f.read(1 << 16)
                i = head.find(_START)
                rest = head[i + len(_START) :] if i >= 0 else b""
                if i >= 0 and (rest.startswith(_OPEN) or rest.startswith(b"]")):
                    yield from self._fast(f, head[: i + len(_START)], rest, chunk_bytes)
                    return
            yield from self._slow(chunk_bytes)
        except (zipfile.BadZipFile, zlib.error, EOFError) as e:
            raise self._fail(f"corrupt or truncated zip data ({e})") from None

    def _fast(self, f, head: bytes, rest: bytes, chunk_bytes: int) -> Iterator[bytes | bytearray]:
        """Split the results array at the separators, scanning each byte once; `buf` holds whole records
        (from its start) and then the record being read, which starts at `rec` (its "{")."""
        if rest.startswith(b"]"):
            self._set_meta(head + rest)
            self._drain(f)
            return
        buf = bytearray(rest)
        base, rec, done, cut = len(head), len(_OPEN) - 1, 0, -1  # base: offset of buf[0] in the member
        scan_sep = scan_end = 0  # where to look next for a separator / the end (earlier bytes were looked at)
        while True:
            end = buf.find(_END, scan_end)
            stop = end if end >= 0 else len(buf)
            first = buf.find(_SEP, scan_sep, stop)
            if first >= 0:
                last = buf.rfind(_SEP, first, stop)
                rec, done = self._bound_all(f, buf, rec, first, last, base, done)
                cut = last
                if self.records is not None and done >= self.records:
                    raise self._too_many(f"at least {done + 1:,}")
            if end >= 0:
                self._bound(f, buf, rec, end, base, done)
                yield _flatten(buf[:end])
                self._set_meta(head + b"]" + buf[end + len(_END) :] + self._tail(f))
                return
            if len(buf) - rec > self.max_record:
                self._bound(f, buf, rec, len(buf), base, done)
            if cut > 0 and (cut > chunk_bytes // 2 or len(buf) > chunk_bytes):
                yield _flatten(buf[: cut + len(_OPEN)])
                drop = cut + len(_SEP) - len(_OPEN)
                del buf[:drop]  # CPython drops a bytearray's head without moving the rest
                base, rec, cut = base + drop, rec - drop, -1
            scan_sep, scan_end = max(0, len(buf) - len(_SEP) + 1), max(0, len(buf) - len(_END) + 1)
            more = f.read(_READ)
            if not more:
                raise self._fail("JSON ends inside the results array", InvalidJSONError)
            buf += more

    def _bound_all(self, f, buf: bytearray, rec: int, first: int, last: int, base: int, done: int) -> tuple[int, int]:
        """Check the records ending at the separators first..last; return where the next starts and the count."""
        sep = first
        while True:
            self._bound(f, buf, rec, sep + len(_OPEN), base, done)
            rec = sep + len(_SEP) - 1
            if sep == last:
                return rec, done + 1
            if last - sep <= self.max_record:  # every record left ends before `last`: none can be over the limit
                return last + len(_SEP) - 1, done + 1 + buf.count(_SEP, sep + len(_SEP), last + len(_SEP))
            sep, done = buf.find(_SEP, sep + len(_SEP), last + len(_SEP)), done + 1

    def _bound(self, f, buf: bytearray, rec: int, end: int, base: int, done: int) -> None:
        """Refuse the record buf[rec:end] if it is over the size limit, naming it by its key if it shows one."""
        if end - rec <= self.max_record:
            return
        where = f"number {done + 1:,}, at byte {base + rec:,} of {self.member}"
        which = f"{where.replace(', ', ' (', 1)})"
        if self.key:
            at = buf.find(b'\n      "' + self.key.encode() + b'": ', rec, rec + self.max_record)  # a top-level field
            if at >= 0:
                line = bytes(buf[at : buf.find(b"\n", at + 1, at + 300)]).split(b": ", 1)[1].rstrip(b",")
                try:
                    which = f"{self.key} {orjson.loads(line)} ({where})"
                except orjson.JSONDecodeError:
                    pass
        raise self._unloadable(f, f"record {which} is over the {_size(self.max_record)} a record may hold")

    def _tail(self, f) -> bytes:
        tail = f.read(_WRAPPER + 1)
        if len(tail) > _WRAPPER:
            raise self._fail(f"more than {_WRAPPER >> 20} MB of JSON after the results array", InvalidJSONError)
        return tail

    @staticmethod
    def _drain(f) -> None:
        while f.read(_READ):
            pass

    def _set_meta(self, wrapper: bytes) -> None:
        try:
            doc = orjson.loads(wrapper)
        except orjson.JSONDecodeError as e:
            raise self._fail(f"invalid JSON around the results array ({e})", InvalidJSONError) from None
        if not isinstance(doc, dict) or not isinstance(doc.get("results"), list):
            raise self._fail("JSON is not an openFDA {meta, results} file", InvalidJSONError)
        self.meta = doc.get("meta") or {}

    def _slow(self, chunk_bytes: int) -> Iterator[bytes]:
        """Any JSON layout, through ijson's events: slower, still streamed, one record in memory at a time."""
        out: list[bytes] = []
        size = n = 0
        limit = _size(self.max_record)
        with zipfile.ZipFile(self.zip_path) as zf, zf.open(self.member) as f:
            try:
                for kind, value in items(f, self.max_record + (64 << 10), limit):
                    if kind == "meta":
                        self.meta = value if isinstance(value, dict) else {}
                        continue
                    n += 1
                    if self.records is not None and n > self.records:
                        raise self._too_many(f"more than {self.records:,}")
                    line = self._line(f, value, n)
                    out.append(line)
                    size += len(line) + 1
                    if size >= chunk_bytes:
                        yield b"\n".join(out) + b"\n"
                        out, size = [], 0
            except Refused as e:
                where = f"number {n + 1:,} (at byte {e.offset:,} of {self.member})"
                raise self._unloadable(f, f"record {where} {e.why}") from None
            except (JSONError, NotOpenFDA) as e:
                raise self._fail(f"invalid JSON ({' '.join(str(e).split())})", InvalidJSONError) from None
        if out:
            yield b"\n".join(out) + b"\n"
        if self.meta is None:
            self.meta = {}

    def _line(self, f, value: object, n: int) -> bytes:
        """One record as a compact JSON line; refused when it is not an object, too deep or too large."""
        key = value.get(self.key) if isinstance(value, dict) and self.key else None
        which = f"{self.key} {key} (number {n:,})" if key is not None else f"number {n:,}"
        if not isinstance(value, dict):
            kind = "null" if value is None else _KINDS.get(type(value), "a number")
            raise self._unloadable(f, f"record {which} is {kind}, not a JSON object")
        try:
            line = orjson.dumps(value)
        except orjson.JSONEncodeError:
            raise self._unloadable(f, f"record {which} is nested deeper than {MAX_DEPTH} levels") from None
        if len(line) > self.max_record:
            raise self._unloadable(f, f"record {which} is over the {_size(self.max_record)} a record may hold")
        return line
