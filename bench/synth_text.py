"""SYNTHETIC text for the benchmarks, calibrated so generated records compress like real openFDA records.

Copies of a few real records compress far better than the real files (a narrative repeated verbatim costs a few
bytes in a zip, and nothing in DuckDB's ZSTD). `Babble` writes new sentences from a word-bigram model of the real
texts in tests/data/fixtures and mirror/sample (narratives, recall reasons, product and device descriptions): each
next word is one that followed the previous word somewhere in the real text, and digits in a word are drawn anew.
The result reads like MAUDE text and has its vocabulary, with real sentences' variety instead of their copies.

How much of each endpoint's text is new is set by CALIBRATION, measured with `python bench/synth_text.py`: it
prints, per endpoint, the zipped bytes per record of generated records against the zipped bytes per record that
the real 2023-07 openFDA download.json gives (size_mb * 2**20 / records, per partition, summed). The knobs were set
so the two agree within about 10% for the endpoints that set the mirror's size (event, udi) and the others whose
records carry text or long lists (510k, pma, recall, enforcement, registrationlisting). Every value is SYNTHETIC.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
_SOURCES = (ROOT / "tests" / "data" / "fixtures" / "openfda", ROOT.parent / "shared" / "fixtures" / "openfda")
_SAMPLE = ROOT / "mirror" / "sample" / "device"
_DIGIT = re.compile(r"\d")
_WORD = re.compile(r"[ -~]+")  # printable ASCII without escapes in JSON (no quote, no backslash below)
_BANNED = ("myeloma",)  # words the benchmarks count on their own (bench/synth_mirror.py injects them)

# knobs (see the module docstring): event narratives, share of sentences written anew; udi device description,
# sentences; openfda registration/FEI numbers per product code (510k, pma, recall); enforcement lot numbers and
# description sentences; registrationlisting extra proprietary names; bench/sync_throughput.py, share of narratives
# written anew (at their real length, so each record keeps its template's size).
CALIBRATION = {
    "event_novel": 0.5,
    "udi_sentences": 4.5,
    "openfda_numbers": {"510k": 218, "pma": 52, "recall": 800},
    "enforcement_lots": 340,
    "enforcement_sentences": 8.0,
    "reglist_names": 26.0,
    "throughput_novel": 0.36,
}


def _strings(v: object) -> Iterable[str]:
    if isinstance(v, str):
        yield v
    elif isinstance(v, dict):
        for x in v.values():
            yield from _strings(x)
    elif isinstance(v, list):
        for x in v:
            yield from _strings(x)


def real_texts(min_len: int = 60) -> list[str]:
    """Every string of at least `min_len` characters in the real fixture and sample records (JSON and zips)."""
    import zipfile

    docs: list = []
    for root in _SOURCES:
        for f in sorted(root.rglob("*.json")) if root.is_dir() else ():
            if not f.name.endswith(".http.json") and f.name != "download.json":
                try:
                    docs.append(json.loads(f.read_text(encoding="utf-8")))
                except (ValueError, OSError):
                    continue
    for z in sorted(_SAMPLE.rglob("*.json.zip")):
        if "classification" in z.parts:
            continue
        with zipfile.ZipFile(z) as zf:
            docs.append(json.loads(zf.read(zf.namelist()[0])))
    seen: set[str] = set()
    out = []
    for d in docs:
        for s in _strings(d.get("results") if isinstance(d, dict) else d):
            if len(s) >= min_len and s not in seen and not any(b in s.lower() for b in _BANNED):
                seen.add(s)
                out.append(s)
    return out


class Babble:
    """New sentences from a word-bigram model of real text (see the module docstring)."""

    def __init__(self, texts: list[str]) -> None:
        self.next: dict[str, list[str]] = {}
        self.starts: list[str] = []
        for t in texts:
            for sent in re.split(r"(?<=[.!?])\s+", t):
                words = [w.replace('"', "'").replace("\\", "/") for w in sent.split() if _WORD.fullmatch(w)]
                if len(words) < 3:
                    continue
                self.starts.append(words[0])
                for a, b in zip(words, words[1:]):
                    self.next.setdefault(a, []).append(b)
        if not self.starts:
            raise SystemExit("no real text found to model (tests/data/fixtures, mirror/sample)")

    def sentence(self, rng: random.Random, max_words: int = 36) -> str:
        w = self.starts[int(rng.random() * len(self.starts))]
        out = [w]
        while len(out) < max_words and not w.endswith((".", "!", "?")):
            nxt = self.next.get(w)
            if not nxt:
                break
            w = nxt[int(rng.random() * len(nxt))]
            out.append(w)
        s = " ".join(
            _DIGIT.sub(lambda _: "0123456789"[int(rng.random() * 10)], x) if any(c.isdigit() for c in x) else x
            for x in out
        )
        return s if s.endswith((".", "!", "?")) else s + "."

    def text(self, rng: random.Random, sentences: float) -> str:
        """About `sentences` new sentences (1 at least, geometric around the mean)."""
        n = 1 + int(rng.expovariate(1 / max(sentences - 1, 0.01))) if sentences > 1 else 1
        return " ".join(self.sentence(rng) for _ in range(n))

    def exactly(self, rng: random.Random, length: int, upper: bool = False) -> str:
        """New sentences cut to exactly `length` characters (so a record keeps its size)."""
        parts, n = [], 0
        while n < length:
            s = self.sentence(rng)
            parts.append(s)
            n += len(s) + 1
        out = " ".join(parts)[:length]
        return out.upper() if upper else out


def numbers(rng: random.Random, n: int, digits: int = 10) -> list[str]:
    return [str(rng.randrange(10 ** (digits - 1), 10**digits)) for _ in range(n)]


def _pilot_all() -> None:
    """Print generated vs real zipped bytes per record for every endpoint of bench/synth_mirror.py."""
    import importlib.util
    import sys

    here = Path(__file__).with_name("synth_mirror.py")
    spec = importlib.util.spec_from_file_location("fdax_bench_synth_mirror", here)
    assert spec and spec.loader
    sm = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = sm
    spec.loader.exec_module(sm)
    c = sm.context(2023)
    real = sm.real_manifest()["results"]["device"]
    print(f"{'endpoint':<20} {'JSON B/rec':>10} {'zip B/rec':>9} {'real zip B/rec':>14} {'synthetic/real':>14}")
    for ep in sm.ENDPOINTS:
        avg, ratio = sm.pilot(c, ep, 2023, n=2000)
        e = real[ep]
        want = sum(float(p["size_mb"]) for p in e["partitions"]) * (1 << 20) / int(e["total_records"])
        print(f"{ep:<20} {avg:>10,.0f} {avg / ratio:>9,.0f} {want:>14,.0f} {avg / ratio / want:>14.2f}")


if __name__ == "__main__":
    _pilot_all()
