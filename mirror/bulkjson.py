"""Stream an openFDA bulk zip (one wrapped {"meta":..,"results":[..]} JSON file) out as NDJSON blocks.

openFDA writes each file with json.dumps(indent=2), so a record of `results` starts at four spaces of
indentation and two records are separated by exactly "\\n    },\\n    {". A raw newline cannot occur
inside a JSON string, so that separator only occurs between records: the fast path splits on it and
removes the pretty-printing newlines with bytes.replace (hundreds of MB/s, memory bounded by the
chunk size). Any other layout (compact JSON, other indentation) goes through ijson instead.
"""

from __future__ import annotations

import zipfile
import zlib
from collections.abc import Iterator
from pathlib import Path

import ijson
import orjson

from .errors import CorruptFileError, InvalidJSONError

__all__ = ["BulkFile"]

_START = b'\n  "results": ['
_SEP = b"\n    },\n    {"
_END = b"\n  ]"
_RS = b"\x1e"  # a raw control character never occurs in valid JSON text


def _flatten(block: bytes) -> bytes:
    """Records of the results array (pretty-printed) to one record per line."""
    return block.replace(_SEP, b"}" + _RS + b"{").replace(b"\n", b"").replace(_RS, b"\n") + b"\n"


class BulkFile:
    """One openFDA bulk zip: `chunks()` yields NDJSON blocks of whole records; `meta` is set after."""

    def __init__(self, zip_path: Path, member: str) -> None:
        self.zip_path = Path(zip_path)
        self.member = member
        self.meta: dict | None = None
        self._check()

    def _fail(self, why: str, cls: type = CorruptFileError) -> Exception:
        return cls(f"{self.zip_path}: {why}; remove it and run `mirror sync` again to fetch it anew")

    def _check(self) -> None:
        try:
            with zipfile.ZipFile(self.zip_path) as zf:
                names = zf.namelist()
        except (zipfile.BadZipFile, OSError, EOFError) as e:
            raise self._fail(f"not a readable zip ({e})") from None
        if names != [self.member]:
            raise self._fail(f"unexpected zip members {names} (expected only {self.member})")

    def chunks(self, chunk_bytes: int = 32 << 20) -> Iterator[bytes]:
        try:
            with zipfile.ZipFile(self.zip_path) as zf, zf.open(self.member) as f:
                head = f.read(1 << 16)
                i = head.find(_START)
                rest = head[i + len(_START):] if i >= 0 else b""
                if i >= 0 and (rest.startswith(b"\n    {") or rest.startswith(b"]")):
                    yield from self._fast(f, head[:i + len(_START)], rest, chunk_bytes)
                    return
            yield from self._slow(chunk_bytes)
        except (zipfile.BadZipFile, zlib.error, EOFError) as e:
            raise self._fail(f"corrupt or truncated zip data ({e})") from None

    def _fast(self, f, head: bytes, buf: bytes, chunk_bytes: int) -> Iterator[bytes]:
        if buf.startswith(b"]"):
            self._set_meta(head + buf)
            self._drain(f)
            return
        while True:
            end = buf.find(_END)
            if end >= 0:
                tail = buf[end:]
                buf = buf[:end]
                if buf:
                    yield _flatten(buf)
                self._set_meta(head + b"]" + tail[len(_END):] + f.read())
                return
            more = f.read(chunk_bytes)
            if not more:
                raise self._fail("JSON ends inside the results array", InvalidJSONError)
            buf += more
            cut = buf.rfind(_SEP, 0, max(0, len(buf) - len(_END)))
            if cut > 0 and (cut > chunk_bytes // 2 or len(buf) > chunk_bytes):
                yield _flatten(buf[:cut] + b"\n    }")
                buf = b"\n    {" + buf[cut + len(_SEP):]

    @staticmethod
    def _drain(f) -> None:
        while f.read(1 << 20):
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
        """Any JSON layout, through ijson: slower, still streamed."""
        out: list[bytes] = []
        size = 0
        try:
            with zipfile.ZipFile(self.zip_path) as zf, zf.open(self.member) as f:
                for rec in ijson.items(f, "results.item", use_float=True):
                    line = orjson.dumps(rec)
                    out.append(line)
                    size += len(line)
                    if size >= chunk_bytes:
                        yield b"\n".join(out) + b"\n"
                        out, size = [], 0
            if out:
                yield b"\n".join(out) + b"\n"
            with zipfile.ZipFile(self.zip_path) as zf, zf.open(self.member) as f:
                metas = list(ijson.items(f, "meta", use_float=True))
        except ijson.JSONError as e:
            raise self._fail(f"invalid JSON ({e})", InvalidJSONError) from None
        self.meta = metas[0] if metas else {}
