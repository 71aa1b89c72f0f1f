"""A SYNTHETIC full-size openFDA device download site for benchmarks (writes files; not a test).

Usage (from the repository root):

    .venv/bin/python bench/synth_mirror.py --scale 0.1 --out DIR [--only event,udi] [--seed 2023] [--workers 2]
    .venv/bin/python -m mirror sync --from DIR --data-dir D --quiet

Writes DIR/download.json (the real manifest shape) and
DIR/device/<endpoint>/[<YYYYqN>/]device-<endpoint>-NNNN-of-MMMM.json.zip, each zip holding one deflated member
written byte for byte like openFDA's exporter (`json.dumps({"meta", "results"}, indent=2) + "\\n"`, streamed
record by record; checked against json.dumps at every run). Scale 1.0 is the record count of each device
endpoint in the real 2023-07-28 manifest (tests/data/fixtures/openfda/download.json: event 16.9M, udi 4.0M,
registrationlisting 318k, 510k 166k, ...); event quarters get the real per-quarter counts of that manifest,
scaled. classification is the real 6,530-record FDA product-code file of the shipped sample and covid19serology
has its real 2023 size (13,420 records): both do not scale.

Every record is a copy of a real record (mirror/sample, built from tests/data/fixtures) with varied values:
unique keys, dates spread over the endpoint's years, product codes drawn from the real classification codes with
a Zipf(1) skew (LZG, DXY, FRN, NIQ pinned to ranks 1, 2, 4, 6), brand / company names from a skewed pool (the real
names of the fixtures, then generated names), event narratives recombined from real narrative sentences, and the
phrase "multiple myeloma" injected into ~0.1% of event records. Every file's meta carries
`"_synthetic": "bench synth_mirror"`; DIR/SYNTHETIC.md says so and DIR/synth_mirror.json holds the generation
summary (counts per endpoint, product-code / event-type / date counts, the injected-phrase count, sample keys) that
bench/query_latency.py checks the API's hit counts against.
"""

from __future__ import annotations

import argparse
import bisect
import functools
import importlib.util
import json
import math
import os
import random
import re
import shutil
import sys
import time
import uuid
import zipfile
import zlib
from collections import Counter
from concurrent.futures import ProcessPoolExecutor, as_completed
from datetime import date
from pathlib import Path

import orjson

from mirror.schema.openfda import LICENSE, TERMS

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "mirror" / "sample"
FIXTURES = ROOT / "tests" / "data" / "fixtures" / "openfda"
REAL_MANIFESTS = (ROOT.parent / "shared" / "fixtures" / "openfda" / "download.json", FIXTURES / "download.json")


def _by_path(name: str, path: Path):
    """The Python file at `path` as module `name`, loaded once (the benchmarks and tests/data are scripts)."""
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, path)
        mod = importlib.util.module_from_spec(spec)
        sys.modules[name] = mod
        spec.loader.exec_module(mod)
    return sys.modules[name]


# bench/sync_throughput.py, for its openFDA bulk-format helpers (one implementation of the file format), and
# tests/data/build_sample.py, which builds the sample site that every synthetic record is copied from.
_ST = _by_path("fdax_bench_sync_throughput", Path(__file__).with_name("sync_throughput.py"))
_SAMPLE_BUILD = _by_path("fdax_build_sample", ROOT / "tests" / "data" / "build_sample.py")
_TX = _ST.synth_text()  # bench/synth_text.py: calibrated new text (one implementation, shared)
CAL = _TX.CALIBRATION
json_head, JSON_TAIL, DISCLAIMER, DL, MIB = _ST.json_head, _ST.JSON_TAIL, _ST.DISCLAIMER, _ST.DL, _ST.MIB

SYNTHETIC = "bench synth_mirror"
MARKER = "synth_mirror.json"  # the summary; also marks DIR as ours (safe to overwrite)
ENDPOINTS = tuple(_SAMPLE_BUILD.ENDPOINTS)  # the nine, in the order of the real 2023 manifest
SCALE_FREE = ("classification", "covid19serology")
CHUNK = {"event": 95_000, "udi": 100_000}  # openFDA's export chunk sizes (records per file); others 250,000
DEFAULT_CHUNK = 250_000
MAX_BYTES = 300 * MIB  # ... and at most ~300 MiB of JSON per file
LAST_UPDATED = "2023-07-28"
ZIP_TIME = (2023, 7, 28, 0, 0, 0)
ZIPF_S = 1.0
FAVOURED = {"LZG": 0, "DXY": 1, "FRN": 3, "NIQ": 5}  # product code -> rank (0-based) in the skewed distribution
FOCUS = tuple(FAVOURED)
MYELOMA_RATE = 0.001
EVENT_TYPES = (("Malfunction", 0.60), ("Injury", 0.30), ("Death", 0.02), ("Other", 0.03), ("No answer provided", 0.05))
KEY_FIELD = {
    "event": "mdr_report_key",
    "udi": "public_device_record_key",
    "510k": "k_number",
    "pma": "pma_number",
    "recall": "product_res_number",
    "enforcement": "recall_number",
    "registrationlisting": "registration.registration_number",
    "covid19serology": "sample_id",
    "classification": "product_code",
}
SAMPLE_KEYS = 21  # keys recorded per endpoint: 1 for a warm-up + 20 to rotate
# years the non-event endpoints' dates are spread over, with a weight ramp (recent years heavier)
YEARS = {
    "510k": (1976, 2023, 1.5),
    "pma": (1977, 2023, 3.0),
    "recall": (2003, 2023, 2.0),
    "enforcement": (2012, 2023, 1.5),
    "udi": (2014, 2023, 2.0),
    "registrationlisting": (2000, 2023, 3.0),
    "covid19serology": (2020, 2021, 1.0),
}
END = date(2023, 7, 24).toordinal()  # nothing dated after the 2023 event export
EVENT_KEY0, TEXT_KEY0, UDI_DI0 = 1_000_000, 100_000_000, 800_000_000_000
REG0, OO0, RES0, CF0, EVT0 = 3_000_000, 9_000_000, 60_000, 150_000, 55_000
NONPRINT = re.compile(rb"[^\n\x20-\x7e]")  # where orjson's output could differ from json.dumps(ensure_ascii)


# ------------------------------------------------------------------------------------------ real records


def real_manifest() -> dict:
    for p in REAL_MANIFESTS:
        if p.is_file():
            return json.loads(p.read_text(encoding="utf-8"))
    raise SystemExit(f"no real openFDA download.json found (looked at {', '.join(map(str, REAL_MANIFESTS))})")


def sample_records(ep: str) -> list[dict]:
    recs = []
    for z in sorted((SAMPLE / "device" / ep).rglob("*.json.zip")):
        with zipfile.ZipFile(z) as zf:
            recs += json.loads(zf.read(zf.namelist()[0]))["results"]
    if not recs:
        raise SystemExit(f"{SAMPLE}/device/{ep}: no sample records (build them with tests/data/build_sample.py)")
    return recs


def templates(ep: str) -> list[dict]:
    """The sample's real records of an endpoint; abridged documentation records (far fewer keys) are left out."""
    recs = sample_records(ep)
    most = max(len(r) for r in recs)
    return [r for r in recs if len(r) >= 0.6 * most]


class Picker:
    """Weighted choice by one bisect over cumulative weights (rng.random() only: cheap and seedable)."""

    def __init__(self, items: list, weights: list[float]) -> None:
        self.items, self.cum, acc = items, [], 0.0
        for w in weights:
            acc += w
            self.cum.append(acc)
        self.total = acc

    def pick(self, rng: random.Random):
        return self.items[bisect.bisect_right(self.cum, rng.random() * self.total)]

    def share(self, item) -> float:
        i = self.items.index(item)
        return (self.cum[i] - (self.cum[i - 1] if i else 0.0)) / self.total


def zipf(items: list) -> Picker:
    return Picker(items, [1.0 / (r + 1) ** ZIPF_S for r in range(len(items))])


ROOTS = (
    "Medi",
    "Cardi",
    "Ortho",
    "Neuro",
    "Vita",
    "Bio",
    "Sono",
    "Derma",
    "Endo",
    "Opti",
    "Respi",
    "Surgi",
    "Vasc",
    "Denti",
    "Lumi",
    "Nova",
    "Tera",
    "Axi",
    "Veri",
    "Pulse",
    "Flexi",
    "Steri",
    "Uro",
    "Gastro",
)
ENDINGS = ("tech", "core", "med", "lux", "gen", "tronics", "care", "flow", "via", "nex", "line", "sys")
SUFFIXES = ("Inc.", "LLC", "Corp.", "GmbH", "Ltd.", "S.A.", "Co., Ltd.", "Medical, Inc.", "Corporation")


def _dedupe(names) -> list[str]:
    seen, out = set(), []
    for n in names:
        n = (n or "").strip()
        if n and n.lower() not in seen:
            seen.add(n.lower())
            out.append(n)
    return out


class Ctx:
    """Everything a worker needs, built once per process from the sample's real records."""

    def __init__(self, seed: int) -> None:
        rng = random.Random(f"{seed}:pools")
        self.tpl = {ep: templates(ep) for ep in ENDPOINTS if ep != "classification"}
        self.classification = sample_records("classification")
        self.cls = {r["product_code"]: r for r in self.classification}
        codes = sorted(self.cls)
        rng.shuffle(codes)
        for code, rank in sorted(FAVOURED.items(), key=lambda kv: kv[1]):
            codes.remove(code)
            codes.insert(rank, code)
        self.codes = zipf(codes)
        self.openfda = {
            c: {
                "device_name": r["device_name"],
                "medical_specialty_description": r["medical_specialty_description"],
                "regulation_number": r["regulation_number"],
                "device_class": r["device_class"],
            }
            for c, r in self.cls.items()
        }
        self.openfda_sorted = {c: dict(sorted(o.items())) for c, o in self.openfda.items()}  # reglist key order
        t = self.tpl
        real_firms = _dedupe(
            [d.get("manufacturer_d_name") for r in t["event"] for d in r.get("device", [])]
            + [r.get("manufacturer_g1_name") for r in t["event"]]
            + [r.get("company_name") for r in t["udi"]]
            + [r.get("applicant") for r in t["510k"]]
            + [r.get("applicant") for r in t["pma"]]
            + [r.get("recalling_firm") for r in t["recall"] + t["enforcement"]]
            + [r.get("registration", {}).get("name") for r in t["registrationlisting"]]
        )
        synth_firms = _dedupe(f"{a}{b} {c}" for a in ROOTS for b in ENDINGS for c in SUFFIXES)
        rng.shuffle(synth_firms)
        firms = real_firms + synth_firms[:1200]
        self.firms = zipf(
            [
                {
                    "name": n,
                    "prefix": f"{1_000_000 + 7919 * i % 8_999_999:07d}",
                    "duns": f"{100_000_000 + 104_729 * i % 899_999_999:09d}",
                    "fei": str(1_000_000 + 15_485_863 * i % 3_999_999_999),
                }
                for i, n in enumerate(firms)
            ]
        )
        self.firm_list = self.firms.items
        real_brands = _dedupe(
            [d.get("brand_name") for r in t["event"] for d in r.get("device", [])]
            + [r.get("brand_name") for r in t["udi"]]
            + [r.get("trade_name") for r in t["pma"]]
            + [n for r in t["registrationlisting"] for n in r.get("proprietary_name", [])]
        )
        synth_brands = []
        for _ in range(6000):
            synth_brands.append(
                f"{rng.choice(ROOTS).upper()}{rng.choice(ENDINGS).upper()} "
                f"{rng.choice('ABCDEFGHJKLMNPRSTVXZ')}{rng.choice('ABCDEFGHJKLMNPRSTVXZ')}-"
                f"{rng.randrange(10, 9999)}"
            )
        self.brands = zipf(real_brands + _dedupe(synth_brands)[:5000])
        self.event_types = Picker([e for e, _ in EVENT_TYPES], [w for _, w in EVENT_TYPES])
        self.sentences: dict[str, list[str]] = {}
        for r in t["event"]:
            for m in r.get("mdr_text", []):
                for s in re.split(r"(?<=[.!?])\s+", m.get("text", "")):
                    if s.strip() and "myeloma" not in s.lower():
                        self.sentences.setdefault(m.get("text_type_code", ""), []).append(s.strip())
        self.all_sentences = [s for v in self.sentences.values() for s in v]
        self.babble = _TX.Babble(_TX.real_texts())
        self._openfda_full: dict[tuple[str, str], dict] = {}

    def openfda_full(self, ep: str, code: str) -> dict:
        """A product code's openfda block with its registration and FEI numbers (the same for every record of the
        code, as openFDA's are; list lengths from CALIBRATION, drawn once per code)."""
        key = (ep, code)
        if key not in self._openfda_full:
            rng = random.Random(f"openfda:{ep}:{code}")
            n = int(rng.expovariate(1 / CAL["openfda_numbers"][ep]))
            self._openfda_full[key] = dict(
                self.openfda[code],
                registration_number=_TX.numbers(rng, n // 2 + 1),
                fei_number=_TX.numbers(rng, n - n // 2, 7),
            )
        return self._openfda_full[key]


@functools.lru_cache(maxsize=2)
def context(seed: int) -> Ctx:
    return Ctx(seed)


@functools.lru_cache(maxsize=None)
def ymd(o: int) -> str:
    return date.fromordinal(o).strftime("%Y%m%d")


@functools.lru_cache(maxsize=None)
def iso(o: int) -> str:
    return date.fromordinal(o).isoformat()


@functools.lru_cache(maxsize=None)
def mdy(o: int) -> str:
    d = date.fromordinal(o)
    return f"{d.month}/{d.day}/{d.year}"


def model_number(rng: random.Random) -> str:
    return f"{rng.choice('ABCDEFGHJKLMNPRSTVXZ')}{rng.choice('ABCDEFGHJKLMNPRSTVXZ')}-{rng.randrange(100, 99999)}"


# ------------------------------------------------------------------------------------ record generators
# gen(i, rng, c, o, st) -> record: i the endpoint-wide record index (keys derive from it: unique by construction),
# o the record's main date as an ordinal, st the job's statistics.


def gen_event(i: int, rng: random.Random, c: Ctx, o: int, st: dict) -> dict:
    tpl = c.tpl["event"][int(rng.random() * len(c.tpl["event"]))]
    rec = dict(tpl)
    firm = c.firms.pick(rng)
    recv = ymd(o)
    year = recv[:4]
    et = c.event_types.pick(rng)
    rec["mdr_report_key"] = str(EVENT_KEY0 + i)
    rec["report_number"] = f"{firm['prefix']}-{year}-{i:05d}"
    rec["event_type"] = et
    rec["date_received"] = recv
    if "adverse_event_flag" in rec:
        rec["adverse_event_flag"] = "Y" if et in ("Injury", "Death") else "N"
    if "product_problem_flag" in rec:
        rec["product_problem_flag"] = "Y" if et == "Malfunction" else ("Y" if rng.random() < 0.3 else "N")
    o_event = o - min(int(rng.expovariate(1 / 25)), 1000)
    for k, when in (
        ("date_of_event", o_event),
        ("date_manufacturer_received", o_event + (o - o_event) // 2),
        ("date_facility_aware", o_event),
        ("date_report", o - int(rng.random() * 20)),
        ("report_date", o - int(rng.random() * 20)),
        ("date_added", o),
        ("date_changed", min(o + int(rng.random() * 500), END)),
        ("device_date_of_manufacturer", o - 60 - int(rng.random() * 2500)),
    ):
        if rec.get(k):
            rec[k] = ymd(when)
    rec["manufacturer_name"] = firm["name"]
    if rec.get("manufacturer_g1_name"):
        rec["manufacturer_g1_name"] = firm["name"]
    code = c.codes.pick(rng)
    devs = [dict(d) for d in tpl.get("device") or [{}]]
    for d in devs:
        if "date_received" in d:
            d["date_received"] = recv
    d0 = devs[0]
    d0["brand_name"] = c.brands.pick(rng)
    d0["generic_name"] = c.cls[code]["device_name"].upper()
    d0["manufacturer_d_name"] = firm["name"]
    d0["model_number"] = d0["catalog_number"] = model_number(rng)
    d0["lot_number"] = f"{rng.getrandbits(32):08X}"
    d0["device_report_product_code"] = code
    d0["openfda"] = c.openfda[code]
    rec["device"] = devs
    if tpl.get("patient"):
        pats = []
        for p in tpl["patient"]:
            p = dict(p)
            if "date_received" in p:
                p["date_received"] = recv
            if p.get("patient_age"):
                p["patient_age"] = f"{int(rng.random() * 90) + 1} YR"
            if p.get("patient_sex"):
                p["patient_sex"] = "Male" if rng.random() < 0.5 else "Female"
            pats.append(p)
        rec["patient"] = pats
    texts = []
    for j, t in enumerate(tpl.get("mdr_text") or []):
        e = dict(t)
        e["mdr_text_key"] = str(TEXT_KEY0 + i * 8 + j)
        pool = c.sentences.get(t.get("text_type_code", "")) or c.all_sentences
        e["text"] = " ".join(
            c.babble.sentence(rng) if rng.random() < CAL["event_novel"] else pool[int(rng.random() * len(pool))]
            for _ in range(1 + int(rng.random() * 6))
        )
        if e.get("date_report"):
            e["date_report"] = rec.get("date_report") or recv
        texts.append(e)
    if texts and rng.random() < MYELOMA_RATE:
        e = texts[int(rng.random() * len(texts))]
        words = e["text"].split(". ")
        phrase = (
            "THE PATIENT HAS A HISTORY OF MULTIPLE MYELOMA"
            if e["text"].isupper()
            else "The patient has a history of multiple myeloma"
        )
        words.insert(int(rng.random() * (len(words) + 1)), phrase)
        e["text"] = ". ".join(words)
        st["myeloma"] += 1
        if len(st["myeloma_keys"]) < 5:
            st["myeloma_keys"].append(rec["mdr_report_key"])
    rec["mdr_text"] = texts
    st["event_type"][et] += 1
    codes = {d.get("device_report_product_code") for d in devs} if len(devs) > 1 else (code,)
    for cd in codes:
        st["codes"][cd] += 1
        if cd in FOCUS:
            st["focus"][f"{cd}:{year}"] += 1
    st["years"][year] += 1
    return rec


def gen_udi(i: int, rng: random.Random, c: Ctx, o: int, st: dict) -> dict:
    tpl = c.tpl["udi"][int(rng.random() * len(c.tpl["udi"]))]
    rec = dict(tpl)
    firm = c.firms.pick(rng)
    rec["public_device_record_key"] = str(uuid.UUID(int=rng.getrandbits(128), version=4))
    idents = tpl.get("identifiers") or [{"id": "", "type": "Primary", "issuing_agency": "GS1"}]
    rec["identifiers"] = [dict(x, id=f"{UDI_DI0 + i * 8 + j:014d}") for j, x in enumerate(idents[:8])]
    brand = c.brands.pick(rng)
    rec["brand_name"] = brand
    rec["company_name"] = firm["name"]
    if "labeler_duns_number" in rec:
        rec["labeler_duns_number"] = firm["duns"]
    rec["version_or_model_number"] = model_number(rng)
    if rec.get("device_description"):
        rec["device_description"] = c.babble.text(rng, CAL["udi_sentences"])
    if rec.get("catalog_number"):
        rec["catalog_number"] = rec["version_or_model_number"]
    rec["publish_date"] = iso(o)
    if "public_version_date" in rec:
        rec["public_version_date"] = iso(min(o + int(rng.random() * 700), END))
    pcs = []
    for _ in range(max(1, len(tpl.get("product_codes") or []))):
        code = c.codes.pick(rng)
        pcs.append({"code": code, "name": c.cls[code]["device_name"], "openfda": c.openfda[code]})
        st["codes"][code] += 1
    rec["product_codes"] = pcs
    st["years"][rec["publish_date"][:4]] += 1
    return rec


def gen_510k(i: int, rng: random.Random, c: Ctx, o: int, st: dict, seq: int = 0) -> dict:
    tpl = c.tpl["510k"][int(rng.random() * len(c.tpl["510k"]))]
    rec = dict(tpl)
    firm = c.firms.pick(rng)
    code = c.codes.pick(rng)
    cl = c.cls[code]
    d = date.fromordinal(o)
    rec["k_number"] = f"K{d.year % 100:02d}{seq:04d}"
    rec["applicant"] = firm["name"]
    rec["device_name"] = c.brands.pick(rng)
    rec["product_code"] = code
    rec["decision_date"] = iso(o)
    rec["date_received"] = iso(o - 30 - int(rng.random() * 300))
    if "advisory_committee" in rec:
        rec["advisory_committee"] = rec["review_advisory_committee"] = cl["review_panel"]
        rec["advisory_committee_description"] = cl["medical_specialty_description"]
    rec["openfda"] = c.openfda_full("510k", code)
    st["codes"][code] += 1
    st["years"][str(d.year)] += 1
    return rec


def gen_pma(i: int, rng: random.Random, c: Ctx, o: int, st: dict, seq: int = 0) -> dict:
    tpl = c.tpl["pma"][int(rng.random() * len(c.tpl["pma"]))]
    rec = dict(tpl)
    code = c.codes.pick(rng)
    d = date.fromordinal(o)
    group, sup = divmod(seq, 25)  # one original (supplement "") and up to 24 supplements per PMA number
    rec["pma_number"] = f"P{d.year % 100:02d}{group + 1:04d}"
    rec["supplement_number"] = f"S{sup:03d}" if sup else ""
    rec["applicant"] = c.firm_list[(i // 25 * 40503) % len(c.firm_list)]["name"]
    rec["trade_name"] = c.brands.pick(rng)
    rec["generic_name"] = c.cls[code]["device_name"]
    rec["product_code"] = code
    rec["decision_date"] = iso(o)
    rec["date_received"] = iso(o - 20 - int(rng.random() * 300))
    rec["openfda"] = c.openfda_full("pma", code)
    st["codes"][code] += 1
    st["years"][str(d.year)] += 1
    return rec


def gen_recall(i: int, rng: random.Random, c: Ctx, o: int, st: dict, seq: int = 0) -> dict:
    tpl = c.tpl["recall"][int(rng.random() * len(c.tpl["recall"]))]
    rec = dict(tpl)
    firm = c.firms.pick(rng)
    code = c.codes.pick(rng)
    d = date.fromordinal(o)
    rec["product_res_number"] = f"Z-{seq + 1:04d}-{d.year}"
    rec["res_event_number"] = str(RES0 + i // 4)
    if "cfres_id" in rec:
        rec["cfres_id"] = str(CF0 + i)
    rec["recalling_firm"] = firm["name"]
    rec["firm_fei_number"] = firm["fei"]
    rec["product_code"] = code
    created = o + 20 + int(rng.random() * 150)
    for k, when in (
        ("event_date_initiated", o),
        ("event_date_created", created),
        ("event_date_posted", created + int(rng.random() * 30)),
        ("event_date_terminated", created + 100 + int(rng.random() * 900)),
    ):
        if rec.get(k):
            rec[k] = iso(min(when, END))
    rec["openfda"] = c.openfda_full("recall", code)
    st["codes"][code] += 1
    st["years"][str(d.year)] += 1
    return rec


def gen_enforcement(i: int, rng: random.Random, c: Ctx, o: int, st: dict, seq: int = 0) -> dict:
    tpl = c.tpl["enforcement"][int(rng.random() * len(c.tpl["enforcement"]))]
    rec = dict(tpl)
    firm = c.firms.pick(rng)
    d = date.fromordinal(o)
    rec["recall_number"] = f"Z-{seq + 1:04d}-{d.year}"
    rec["event_id"] = str(EVT0 + i // 3)
    rec["recalling_firm"] = firm["name"]
    r = rng.random()
    rec["classification"] = "Class II" if r < 0.8 else ("Class I" if r < 0.85 else "Class III")
    for k, when in (
        ("recall_initiation_date", o),
        ("center_classification_date", o + 20 + int(rng.random() * 70)),
        ("report_date", o + 30 + int(rng.random() * 80)),
        ("termination_date", o + 200 + int(rng.random() * 900)),
    ):
        if k in rec or k in ("recall_initiation_date", "report_date"):
            rec[k] = ymd(min(when, END))
    rec["product_description"] = c.babble.text(rng, CAL["enforcement_sentences"])
    rec["code_info"] = "Lot numbers: " + ", ".join(
        _TX.numbers(rng, int(rng.expovariate(1 / CAL["enforcement_lots"])), 7)
    )
    st["years"][str(d.year)] += 1
    return rec


def gen_registrationlisting(i: int, rng: random.Random, c: Ctx, o: int, st: dict) -> dict:
    tpl = c.tpl["registrationlisting"][int(rng.random() * len(c.tpl["registrationlisting"]))]
    rec = dict(tpl)
    g = i // 4  # ~4 listings per establishment registration
    firm = c.firm_list[(g * 40503) % len(c.firm_list)]
    reg = dict(tpl.get("registration") or {})
    reg["registration_number"] = str(REG0 + g)
    reg["fei_number"] = str(REG0 + g)
    reg["name"] = firm["name"].upper()
    if isinstance(reg.get("owner_operator"), dict):
        oo = dict(reg["owner_operator"])
        oo["firm_name"] = firm["name"]
        oo["owner_operator_number"] = str(OO0 + g)
        reg["owner_operator"] = oo
    rec["registration"] = reg
    prods = []
    for p in tpl.get("products") or [{}]:
        code = c.codes.pick(rng)
        p = dict(p)
        p["created_date"] = iso(o)
        p["owner_operator_number"] = str(OO0 + g)
        p["product_code"] = code
        p["openfda"] = c.openfda_sorted[code]
        prods.append(p)
        st["codes"][code] += 1
    rec["products"] = prods
    rec["proprietary_name"] = [c.brands.pick(rng) for _ in range(1 + int(rng.expovariate(1 / CAL["reglist_names"])))]
    st["years"][iso(o)[:4]] += 1
    return rec


def gen_covid19serology(i: int, rng: random.Random, c: Ctx, o: int, st: dict) -> dict:
    rec = dict(c.tpl["covid19serology"][i % len(c.tpl["covid19serology"])])
    rec["sample_id"] = f"C{i + 1:05d}"
    rec["sample_no"] = str(i % 110 + 1)
    if rec.get("date_performed"):
        rec["date_performed"] = mdy(o)
    return rec


GENERATORS = {
    "event": gen_event,
    "udi": gen_udi,
    "510k": gen_510k,
    "pma": gen_pma,
    "recall": gen_recall,
    "enforcement": gen_enforcement,
    "registrationlisting": gen_registrationlisting,
    "covid19serology": gen_covid19serology,
}
SEQ_BY_YEAR = {"510k", "pma", "recall", "enforcement"}  # keys numbered per year (K20nnnn, Z-nnnn-2020, ...)


# ------------------------------------------------------------------------------- the openFDA bulk format


def record_bytes(rec: dict) -> bytes:
    """One element of `results` exactly as json.dumps(wrapper, indent=2) lays it out (indented by 4): orjson,
    or json.dumps where they could differ (non-ASCII and DEL, which json.dumps escapes and orjson does not)."""
    b = orjson.dumps(rec, option=orjson.OPT_INDENT_2)
    if NONPRINT.search(b):
        b = json.dumps(rec, indent=2).encode()
    return b"    " + b.replace(b"\n", b"\n    ")


def write_json(out, meta: dict, records, flush: int = 4 * MIB) -> int:
    """Stream {"meta", "results"} like json.dumps(indent=2) + "\\n"; return the bytes written."""
    written = out.write(json_head(meta).encode())
    buf, pending, first = [], 0, True
    for rec in records:
        b = record_bytes(rec)
        if not first:
            buf.append(b",\n")
        first = False
        buf.append(b)
        pending += len(b)
        if pending > flush:
            written += out.write(b"".join(buf))
            buf, pending = [], 0
    buf.append(JSON_TAIL.encode())
    return written + out.write(b"".join(buf))


def file_meta(skip: int, limit: int, total: int) -> dict:
    return {
        "disclaimer": DISCLAIMER,
        "terms": TERMS,
        "license": LICENSE,
        "last_updated": LAST_UPDATED,
        "results": {"skip": skip, "limit": limit, "total": total},
        "_synthetic": SYNTHETIC,
    }


def check_format(c: Ctx, seed: int) -> int:
    """The streamed writer must equal json.dumps(indent=2) + "\\n" byte for byte: on every template, a few
    generated records of each endpoint, and a record of awkward characters. Returns the records checked."""
    import io

    recs = [dict(r) for v in c.tpl.values() for r in v] + c.classification[:50]
    recs.append({"a": 'x\x01\x1f\t\n\r\b\f"\\/y \x7f é – 😀', "b": [], "c": {}, "d": [{}], "e": None})
    rng = random.Random(f"{seed}:check")
    for ep, gen in GENERATORS.items():
        st = new_stats()
        recs += [gen(i, rng, c, END - 400 + i, st, **({"seq": i} if ep in SEQ_BY_YEAR else {})) for i in range(30)]
    for n in (1, 3, len(recs)):
        meta = file_meta(0, n, n)
        want = (json.dumps({"meta": meta, "results": recs[:n]}, indent=2) + "\n").encode()
        for flush in (1, 10_000, 4 * MIB):
            buf = io.BytesIO()
            if write_json(buf, meta, iter(recs[:n]), flush) != len(want) or buf.getvalue() != want:
                raise SystemExit("format check FAILED: the streamed writer differs from json.dumps(indent=2)")
    return len(recs)


# ------------------------------------------------------------------------------------------------ plan


def apportion(weights: list[float], total: int) -> list[int]:
    """Integers proportional to weights summing to total (largest remainder)."""
    s = sum(weights)
    raw = [w * total / s for w in weights]
    out = [int(x) for x in raw]
    for k in sorted(range(len(raw)), key=lambda k: raw[k] - out[k], reverse=True)[: total - sum(out)]:
        out[k] += 1
    return out


def year_plan(ep: str, n: int) -> list[list[int]]:
    """[[year, first record index], ...]: the endpoint's records in year order, weights ramping to recent years."""
    y0, y1, ramp = YEARS[ep]
    years = list(range(y0, y1 + 1))
    counts = apportion([1 + (ramp - 1) * k / max(1, len(years) - 1) for k in range(len(years))], n)
    plan, start = [], 0
    for y, k in zip(years, counts):
        if k:
            plan.append([y, start])
            start += k
    return plan


def quarter_plan(manifest: dict, n: int) -> list[tuple[str, int]]:
    """[(YYYYqN, records)]: the real manifest's per-quarter event counts scaled to n records in all."""
    per_q: dict[str, int] = {}
    for p in manifest["results"]["device"]["event"]["partitions"]:
        m = re.search(r"/device/event/(\d{4}q[1-4]|all_other)/", p["file"])
        if m:
            per_q[m.group(1)] = per_q.get(m.group(1), 0) + int(p["records"])
    qs = sorted(q for q in per_q if q != "all_other")
    return [(q, k) for q, k in zip(qs, apportion([per_q[q] for q in qs], n)) if k]


def display_name(ep: str, part: str, i: int, n: int) -> str:
    """As openFDA's index_util._make_display_name."""
    if part:
        return part.replace("q", " Q") + (f" (part {i} of {n})" if n > 1 else " (all)")
    return f"/device/{ep}" + (f" (part {i} of {n})" if n > 1 else " data")


def new_stats() -> dict:
    return {
        "codes": Counter(),
        "event_type": Counter(),
        "focus": Counter(),
        "years": Counter(),
        "myeloma": 0,
        "myeloma_keys": [],
        "keys": [],
    }


def pilot(c: Ctx, ep: str, seed: int, n: int = 300) -> tuple[float, float]:
    """Average JSON bytes per record (as written) and the deflate ratio, from n generated records."""
    if ep == "classification":
        recs = c.classification[:n]
    else:
        rng, st, gen = random.Random(f"{seed}:pilot:{ep}"), new_stats(), GENERATORS[ep]
        kw = (lambda i: {"seq": i}) if ep in SEQ_BY_YEAR else (lambda i: {})
        recs = [gen(i, rng, c, END - 3000 + i, st, **kw(i)) for i in range(n)]
    blob = b",\n".join(record_bytes(r) for r in recs)
    return len(blob) / len(recs), len(blob) / len(zlib.compress(blob, 6))


def plan_jobs(c: Ctx, manifest: dict, scale: float, only: list[str], seed: int) -> tuple[dict, list[dict]]:
    """Per endpoint: records, files, estimated bytes; and one job per zip file."""
    totals = {ep: int(e["total_records"]) for ep, e in manifest["results"]["device"].items()}
    rng = random.Random(f"{seed}:plan")
    eps, jobs = {}, []
    for ep in [e for e in ENDPOINTS if e in only]:
        n = (
            len(c.classification)
            if ep == "classification"
            else totals[ep]
            if ep in SCALE_FREE
            else max(1, round(totals[ep] * scale))
        )
        avg, ratio = pilot(c, ep, seed)
        per_file = max(1, min(CHUNK.get(ep, DEFAULT_CHUNK), int(MAX_BYTES / avg)))
        parts = quarter_plan(manifest, n) if ep == "event" else [("", n)]
        want = sorted(rng.sample(range(n), min(SAMPLE_KEYS, n)))
        ep_jobs, start = [], 0
        for part, k in parts:
            nf = math.ceil(k / per_file)
            for f in range(nf):
                cnt = min(per_file, k - f * per_file)
                name = f"device-{ep}-{f + 1:04d}-of-{nf:04d}.json"
                rel = "/".join(filter(None, ("device", ep, part, name + ".zip")))
                ep_jobs.append(
                    {
                        "ep": ep,
                        "rel": rel,
                        "member": name,
                        "part": part,
                        "i": f + 1,
                        "n": nf,
                        "start": start,
                        "count": cnt,
                        "skip": f * per_file,
                        "total": k,
                        "years": year_plan(ep, n) if ep in YEARS else None,
                        "want": [w for w in want if start <= w < start + cnt],
                        "zip64": cnt * avg > 1.5 * (1 << 30),
                    }
                )
                start += cnt
        jobs += ep_jobs
        eps[ep] = {
            "records": n,
            "files": len(ep_jobs),
            "avg_json_bytes": round(avg),
            "est_json_bytes": int(n * avg),
            "est_zip_bytes": int(n * avg / ratio),
            "per_file": per_file,
        }
    return eps, jobs


# ------------------------------------------------------------------------------------------- generation


def run_job(job: dict, seed: int, out: str) -> dict:
    """Write one zip (to a .part name, then renamed); return its figures and statistics."""
    t0 = time.perf_counter()
    c = context(seed)
    ep = job["ep"]
    rng = random.Random(f"{seed}:{job['rel']}")
    st = new_stats()
    want = set(job["want"])
    path = Path(out) / job["rel"]
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".part")

    def records():
        start, count = job["start"], job["count"]
        if ep == "classification":
            yield from c.classification[start : start + count]
            return
        gen = GENERATORS[ep]
        if ep == "event":
            y, q = int(job["part"][:4]), int(job["part"][5])
            q0 = date(y, 3 * q - 2, 1).toordinal()
            q1 = (date(y + 1, 1, 1) if q == 4 else date(y, 3 * q + 1, 1)).toordinal()
            # dates ascending within the file (openFDA's files are roughly in date order)
            days = sorted(q0 + int(rng.random() * (q1 - q0)) for _ in range(count))
        years, starts = [y for y, _ in job["years"] or []], [s for _, s in job["years"] or []]
        for i in range(start, start + count):
            kw = {}
            if ep == "event":
                o = days[i - start]
            else:
                k = bisect.bisect_right(starts, i) - 1
                y = years[k]
                o = date(y, 1, 1).toordinal() + int(rng.random() * (366 if y % 4 == 0 else 365))
                o = min(o, END)
                if ep in SEQ_BY_YEAR:
                    kw["seq"] = i - starts[k]
            rec = gen(i, rng, c, o, st, **kw)
            if i in want:
                st["keys"].append([i, key_of(ep, rec)])
            yield rec

    info = zipfile.ZipInfo(job["member"], ZIP_TIME)
    info.compress_type, info.external_attr, info.create_system = zipfile.ZIP_DEFLATED, 0o644 << 16, 3
    meta = file_meta(job["skip"], job["count"], job["total"])
    with zipfile.ZipFile(tmp, "w") as zf, zf.open(info, "w", force_zip64=job["zip64"]) as member:
        written = write_json(member, meta, records())
    os.replace(tmp, path)
    if ep == "classification":
        st["keys"] = [[w, c.classification[w]["product_code"]] for w in job["want"]]
    return {
        "ep": ep,
        "rel": job["rel"],
        "records": job["count"],
        "json_bytes": written,
        "zip_bytes": path.stat().st_size,
        "seconds": time.perf_counter() - t0,
        "stats": st,
    }


def key_of(ep: str, rec: dict):
    if ep == "pma":
        return [rec.get("pma_number"), rec.get("supplement_number")]
    v = rec
    for part in KEY_FIELD[ep].split("."):
        v = v.get(part) if isinstance(v, dict) else None
    return v


def prepare_out(out: Path) -> None:
    if out.exists() and any(out.iterdir()) and not (out / MARKER).exists():
        raise SystemExit(f"{out}: exists, is not empty and was not made by synth_mirror; give a new or empty folder")
    out.mkdir(parents=True, exist_ok=True)
    shutil.rmtree(out / "device", ignore_errors=True)
    for f in (MARKER, "download.json", "SYNTHETIC.md"):
        (out / f).unlink(missing_ok=True)


def build(
    out: Path,
    scale: float = 0.1,
    only: list[str] | None = None,
    seed: int = 2023,
    workers: int = 2,
    say=print,
    force: bool = False,
) -> dict:
    """Generate the site in `out`; return the summary (also written to out/synth_mirror.json)."""
    t_start = time.perf_counter()
    out = Path(out).expanduser().resolve()
    only = list(only or ENDPOINTS)
    manifest = real_manifest()
    c = context(seed)
    n_checked = check_format(c, seed)
    say(f"format check: streamed writer == json.dumps(indent=2) + '\\n' byte for byte on {n_checked} records: OK")
    eps, jobs = plan_jobs(c, manifest, scale, only, seed)
    est_json, est_zip = sum(e["est_json_bytes"] for e in eps.values()), sum(e["est_zip_bytes"] for e in eps.values())
    prepare_out(out)
    free = shutil.disk_usage(out).free
    say(
        f"plan: scale {scale:g}, seed {seed}, {sum(e['records'] for e in eps.values()):,} records in "
        f"{len(jobs)} files; "
        f"estimated {est_json / 2**30:,.2f} GiB JSON, {est_zip / 2**30:,.2f} GiB zipped; {free / 2**30:,.1f} GiB free"
    )
    if est_zip > free - 2 * 2**30 and not force:
        raise SystemExit(
            f"{out}: not enough disk for ~{est_zip / 2**30:,.1f} GiB of zips (plus what a sync needs); "
            "lower --scale or pass --force"
        )
    agg = {
        ep: {
            "records": 0,
            "files": 0,
            "json_bytes": 0,
            "zip_bytes": 0,
            "worker_seconds": 0.0,
            "stats": new_stats(),
            "partitions": [],
        }
        for ep in eps
    }
    left = {ep: e["files"] for ep, e in eps.items()}
    done_at: dict[str, float] = {}
    order = sorted(jobs, key=lambda j: -j["count"] * eps[j["ep"]]["avg_json_bytes"])  # biggest first
    with ProcessPoolExecutor(max(1, workers)) as pool:
        futs = {pool.submit(run_job, j, seed, str(out)): j for j in order}
        for fut in as_completed(futs):
            r, j = fut.result(), futs[fut]
            a = agg[r["ep"]]
            for k in ("records", "json_bytes", "zip_bytes"):
                a[k] += r[k]
            a["files"] += 1
            a["worker_seconds"] += r["seconds"]
            s = r["stats"]
            for k in ("codes", "event_type", "focus", "years"):
                a["stats"][k].update(s[k])
            a["stats"]["myeloma"] += s["myeloma"]
            a["stats"]["myeloma_keys"] += s["myeloma_keys"]
            a["stats"]["keys"] += s["keys"]
            a["partitions"].append(
                (
                    j["start"],
                    {
                        "display_name": display_name(j["ep"], j["part"], j["i"], j["n"]),
                        "file": f"{DL}/{j['rel']}",
                        "size_mb": "%0.2f" % (r["zip_bytes"] / MIB),
                        "records": r["records"],
                    },
                )
            )
            left[r["ep"]] -= 1
            if not left[r["ep"]]:
                done_at[r["ep"]] = time.perf_counter() - t_start
                say(
                    f"  {r['ep']:<20} done: {a['records']:>11,} records, {a['files']:>4} files, "
                    f"{a['zip_bytes'] / MIB:>9,.1f} MiB zipped  (at {done_at[r['ep']]:.0f} s)"
                )
    real = manifest["results"]["device"]
    device = {}
    for ep in [e for e in ENDPOINTS if e in eps]:
        parts = [p for _, p in sorted(agg[ep]["partitions"], key=lambda sp: sp[0])]
        device[ep] = {
            "export_date": real[ep]["export_date"],
            "partitions": parts,
            "total_records": sum(p["records"] for p in parts),
        }
    doc = {
        "meta": {
            "disclaimer": DISCLAIMER,
            "terms": TERMS,
            "license": LICENSE,
            "last_updated": LAST_UPDATED,
            "_synthetic": SYNTHETIC,
        },
        "results": {"device": device},
    }
    (out / "download.json").write_text(json.dumps(doc, indent=2) + "\n", encoding="utf-8")
    seconds = time.perf_counter() - t_start
    summary = make_summary(out, scale, seed, workers, eps, agg, c, seconds, done_at)
    (out / MARKER).write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
    (out / "SYNTHETIC.md").write_text(synthetic_md(summary), encoding="utf-8")
    return summary


def make_summary(out: Path, scale, seed, workers, eps, agg, c: Ctx, seconds, done_at) -> dict:
    s: dict = {
        "synthetic": SYNTHETIC,
        "site": str(out),
        "scale": scale,
        "seed": seed,
        "workers": workers,
        "seconds": round(seconds, 1),
        "endpoints": {},
    }
    for ep, a in agg.items():
        st = a["stats"]
        e = {
            "records": a["records"],
            "files": a["files"],
            "json_bytes": a["json_bytes"],
            "zip_bytes": a["zip_bytes"],
            "worker_seconds": round(a["worker_seconds"], 1),
            "done_at_seconds": round(done_at.get(ep, 0), 1),
            "sample_keys": [k for _, k in sorted(st["keys"], key=lambda ik: ik[0])],
        }
        if st["years"]:
            e["years"] = dict(sorted(st["years"].items()))
        if st["codes"]:
            e["product_codes"] = {
                "distinct": len(st["codes"]),
                "focus": {cd: st["codes"][cd] for cd in FOCUS},
                "top": dict(st["codes"].most_common(25)),
            }
        if ep == "event":
            e["event_type"] = dict(st["event_type"].most_common())
            focus: dict = {cd: {} for cd in FOCUS}
            for k, v in sorted(st["focus"].items()):
                cd, y = k.split(":")
                focus[cd][y] = v
            e["focus_by_year"] = focus
            e["myeloma_records"] = st["myeloma"]
            e["myeloma_sample_keys"] = st["myeloma_keys"]
            e["product_code_counts"] = dict(st["codes"].most_common())  # records per code (any device)
        s["endpoints"][ep] = e
    s["product_code_distribution"] = {
        "method": f"Zipf(s={ZIPF_S}) over the {len(c.codes.items)} real classification "
        "product codes in a seeded random order, with "
        + ", ".join(f"{k} at rank {v + 1}" for k, v in FAVOURED.items()),
        "expected_share": {cd: round(c.codes.share(cd), 4) for cd in FOCUS},
    }
    return s


def synthetic_md(s: dict) -> str:
    rows = "\n".join(
        f"| {ep} | {e['records']:,} | {e['files']} | {e['zip_bytes'] / MIB:,.1f} |" for ep, e in s["endpoints"].items()
    )
    return f"""# SYNTHETIC openFDA device download site

**Everything here is SYNTHETIC benchmark data** made by `bench/synth_mirror.py` (scale {s["scale"]:g}, seed
{s["seed"]}). The records are copies of the real openFDA records of `mirror/sample` with changed keys, dates,
product codes, names and narratives: they describe no real report, device, clearance or recall. Do not use them
for anything but benchmarks. Every file's `meta` carries `"_synthetic": "{SYNTHETIC}"`; `download.json` is
shaped like openFDA's manifest and `mirror sync --from` this folder loads it. `synth_mirror.json` holds the
generation summary.

| endpoint | records | files | MiB zipped |
|---|---:|---:|---:|
{rows}
"""


# -------------------------------------------------------------------------------------------------- main


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--scale", type=float, default=0.1, help="fraction of the 2023 manifest's sizes (default 0.1)")
    ap.add_argument("--out", required=True, type=Path, help="folder to write (new, empty, or an earlier output)")
    ap.add_argument("--only", help="comma-separated endpoints (default: all nine): " + ",".join(ENDPOINTS))
    ap.add_argument("--seed", type=int, default=2023)
    ap.add_argument(
        "--workers", type=int, default=min(2, len(os.sched_getaffinity(0))), help="generating processes (default 2)"
    )
    ap.add_argument("--force", action="store_true", help="generate even if the disk looks too small")
    args = ap.parse_args(argv)
    if not 0 < args.scale <= 5:
        ap.error("--scale must be in (0, 5]")
    only = [o.strip() for o in args.only.split(",") if o.strip()] if args.only else None
    bad = [o for o in only or [] if o not in ENDPOINTS]
    if bad:
        ap.error(f"unknown endpoint {', '.join(bad)}; choose from {', '.join(ENDPOINTS)}")
    print("SYNTHETIC openFDA device download site (bench/synth_mirror.py)", flush=True)
    s = build(
        args.out, args.scale, only, args.seed, args.workers, say=lambda *a: print(*a, flush=True), force=args.force
    )
    print(
        f"\nwrote {s['site']} in {s['seconds']:.1f} s wall with {s['workers']} worker(s); "
        "per endpoint (worker s = time the workers spent on its files):"
    )
    print(f"  {'endpoint':<20} {'records':>11} {'files':>6} {'MiB JSON':>10} {'MiB zip':>9} {'worker s':>9}")
    for ep, e in s["endpoints"].items():
        print(
            f"  {ep:<20} {e['records']:>11,} {e['files']:>6} {e['json_bytes'] / MIB:>10,.1f} "
            f"{e['zip_bytes'] / MIB:>9,.1f} {e['worker_seconds']:>9.1f}"
        )
    t = s["endpoints"].values()
    print(
        f"  {'total':<20} {sum(e['records'] for e in t):>11,} {sum(e['files'] for e in t):>6} "
        f"{sum(e['json_bytes'] for e in t) / MIB:>10,.1f} {sum(e['zip_bytes'] for e in t) / MIB:>9,.1f}"
    )
    ev = s["endpoints"].get("event")
    if ev:
        print("event: event_type " + ", ".join(f"{k} {v:,}" for k, v in ev["event_type"].items()))
        print(
            "event: records per product code (any device): "
            + ", ".join(
                f"{cd} {ev['product_codes']['focus'][cd]:,} (2020: {ev['focus_by_year'][cd].get('2020', 0):,})"
                for cd in FOCUS
            )
            + f"; {ev['product_codes']['distinct']:,} distinct codes"
        )
        print(
            f"event: 'multiple myeloma' injected into {ev['myeloma_records']:,} records "
            f"({ev['myeloma_records'] / max(1, ev['records']):.3%})"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
