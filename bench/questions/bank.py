"""The question bank's typed form: load a YAML bank, resolve its dates and compute expected answers by SQL on a
mirror."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import yaml

__all__ = [
    "KINDS",
    "MATCHES",
    "DATASETS",
    "DateRange",
    "Interpretation",
    "Expect",
    "Phrasing",
    "Family",
    "Bank",
    "BankError",
    "load_bank",
    "as_of_dates",
    "Expected",
    "expected",
]

KINDS = ("answer", "clarify", "refuse")
MATCHES = ("count", "keys", "top", "value", "date", "class", "yesno", "compare", "choices")
DATASETS = (
    "event",
    "510k",
    "pma",
    "recall",
    "enforcement",
    "classification",
    "udi",
    "registrationlisting",
    "covid19serology",
    "gudid",
    "none",
)
HERE = Path(__file__).resolve().parent


class BankError(ValueError):
    """A bank file that does not follow the format described at the top of bench/questions/sample.yaml."""


@dataclass(frozen=True)
class DateRange:
    field: str
    start: str  # ISO date or an expression: as_of, as_of-Ny, as_of-Nm, jan1(as_of)
    end: str

    def resolve(self, as_of: date | None) -> tuple[date, date]:
        return _date_expr(self.start, as_of), _date_expr(self.end, as_of)


@dataclass(frozen=True)
class Interpretation:
    """What the question means: datasets, measure, filters (name -> value or list), dates, follow-up."""

    datasets: tuple[str, ...]
    measure: str
    filters: dict[str, Any] = field(default_factory=dict)
    dates: DateRange | None = None
    field: str | None = None
    group_by: str | None = None
    follow_up: bool = False
    sides: tuple[dict, ...] = ()


@dataclass(frozen=True)
class Expect:
    match: str
    sql: str
    also_sql: str | None = None
    mentions: tuple[str, ...] = ()


@dataclass(frozen=True)
class Phrasing:
    turns: tuple[str, ...]  # earlier turns are asked first in the same session; the last one is scored

    @property
    def question(self) -> str:
        return self.turns[-1]


@dataclass(frozen=True)
class Family:
    id: str
    kind: str
    dataset: str
    features: tuple[str, ...]
    phrasings: tuple[Phrasing, ...]
    interpretation: Interpretation | None = None
    expect: Expect | None = None
    also_ok: tuple[str, ...] = ()
    note: str = ""


@dataclass(frozen=True)
class Bank:
    name: str
    path: Path
    synthetic: bool
    families: tuple[Family, ...]
    mirror: str = "sample"

    @property
    def size(self) -> int:
        return sum(len(f.phrasings) for f in self.families)


# ------------------------------------------------------------------------------------------------------- loading


def load_bank(path: str | Path) -> Bank:
    """A YAML bank (bench/questions/sample.yaml) or a generated one (a .json written by templates.py)."""
    p = Path(path)
    if not p.is_absolute() and not p.exists() and (HERE / p).exists():
        p = HERE / p
    try:
        doc = yaml.safe_load(p.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as e:
        raise BankError(f"cannot read question bank {p}: {e}") from None
    if not isinstance(doc, dict) or not isinstance(doc.get("families"), list):
        raise BankError(f"{p}: expected a mapping with a `families` list")
    fams = tuple(_family(f, p) for f in doc["families"])
    ids = [f.id for f in fams]
    dup = sorted({i for i in ids if ids.count(i) > 1})
    if dup:
        raise BankError(f"{p}: family ids used twice: {', '.join(dup)}")
    return Bank(
        name=p.stem,
        path=p,
        synthetic=bool(doc.get("synthetic")),
        families=fams,
        mirror=str(doc.get("mirror", "sample")),
    )


def _family(d: dict, p: Path) -> Family:
    fid = d.get("id") or "?"
    where = f"{p.name}: family {fid}"
    kind = d.get("kind")
    if kind not in KINDS:
        raise BankError(f"{where}: kind must be one of {KINDS}, got {kind!r}")
    dataset = str(d.get("dataset", ""))
    if dataset not in DATASETS:
        raise BankError(f"{where}: dataset must be one of {DATASETS}, got {dataset!r}")
    phr = tuple(_phrasing(x, where) for x in d.get("phrasings") or [])
    interp = _interpretation(d["interpretation"], where) if d.get("interpretation") else None
    exp = None
    if d.get("expect"):
        e = d["expect"]
        if e.get("match") not in MATCHES:
            raise BankError(f"{where}: expect.match must be one of {MATCHES}, got {e.get('match')!r}")
        if not str(e.get("sql", "")).strip():
            raise BankError(f"{where}: expect.sql is missing")
        exp = Expect(
            match=e["match"],
            sql=str(e["sql"]).strip(),
            also_sql=(e.get("also_sql") or None),
            mentions=tuple(e.get("mentions") or ()),
        )
    also = tuple(d.get("also_ok") or ())
    if any(a not in KINDS for a in also):
        raise BankError(f"{where}: also_ok must hold kinds from {KINDS}")
    return Family(
        id=str(fid),
        kind=kind,
        dataset=dataset,
        features=tuple(d.get("features") or ()),
        phrasings=phr,
        interpretation=interp,
        expect=exp,
        also_ok=also,
        note=str(d.get("note", "")).strip(),
    )


def _phrasing(x: Any, where: str) -> Phrasing:
    turns = (x,) if isinstance(x, str) else tuple(x) if isinstance(x, list) else ()
    if not turns or not all(isinstance(t, str) and t.strip() for t in turns):
        raise BankError(f"{where}: a phrasing must be a string or a list of strings, got {x!r}")
    return Phrasing(turns=tuple(t.strip() for t in turns))


def _dates(d: dict | None, where: str) -> DateRange | None:
    if not d:
        return None
    try:
        return DateRange(field=str(d["field"]), start=str(d["from"]), end=str(d["to"]))
    except KeyError as e:
        raise BankError(f"{where}: dates need field, from and to (missing {e})") from None


def _interpretation(d: dict, where: str) -> Interpretation:
    return Interpretation(
        datasets=tuple(d.get("datasets") or ()),
        measure=str(d.get("measure", "count")),
        filters=dict(d.get("filters") or {}),
        dates=_dates(d.get("dates"), where),
        field=d.get("field"),
        group_by=d.get("group_by"),
        follow_up=bool(d.get("follow_up")),
        sides=tuple(d.get("sides") or ()),
    )


# --------------------------------------------------------------------------------------------------------- dates

_REL = re.compile(r"^as_of(?:\s*-\s*(\d+)\s*([ymd]))?$")


def _date_expr(s: str, as_of: date | None) -> date:
    s = s.strip()
    if re.fullmatch(r"\d{4}-\d{2}-\d{2}", s):
        return date.fromisoformat(s)
    if as_of is None:
        raise BankError(f"date {s!r} is relative but the dataset has no as-of date")
    if s == "jan1(as_of)":
        return date(as_of.year, 1, 1)
    m = _REL.match(s)
    if not m:
        raise BankError(f"unknown date expression {s!r} (use YYYY-MM-DD, as_of, as_of-Ny, as_of-Nm, jan1(as_of))")
    n, unit = int(m.group(1) or 0), m.group(2)
    if unit == "y":
        return _safe(as_of.year - n, as_of.month, as_of.day)
    if unit == "m":
        y, mth = divmod(as_of.month - 1 - n, 12)
        return _safe(as_of.year + y, mth + 1, as_of.day)
    return as_of - timedelta(days=n)


def _safe(y: int, m: int, d: int) -> date:
    while True:
        try:
            return date(y, m, d)
        except ValueError:
            d -= 1


def as_of_dates(con) -> dict[str, date]:
    """Each attached dataset's export date (its as-of date), from the `_sync_meta` the sync wrote."""
    out: dict[str, date] = {}
    for (db,) in con.execute("SELECT database_name FROM duckdb_databases() WHERE database_name LIKE 'ds_%'").fetchall():
        try:
            row = con.execute(f"SELECT value FROM {db}._sync_meta WHERE key = 'export_date'").fetchone()
        except Exception:  # a dataset without sync metadata has no as-of date
            continue
        if row and row[0]:
            out[db[3:]] = date.fromisoformat(str(row[0])[:10])
    return out


# ------------------------------------------------------------------------------------------------ expected answers


@dataclass(frozen=True)
class Expected:
    """A family's expected answer on one mirror: rows of its SQL, the resolved date range, the alternative figure."""

    rows: tuple[tuple, ...]
    date_from: date | None = None
    date_to: date | None = None
    also_rows: tuple[tuple, ...] | None = None
    sql: str = ""

    @property
    def value(self) -> Any:
        return self.rows[0][0] if self.rows and self.rows[0] else None


def render_sql(fam: Family, as_of: dict[str, date]) -> tuple[str, str | None, date | None, date | None]:
    ds_as_of = as_of.get(fam.dataset)
    d0 = d1 = None
    if fam.interpretation and fam.interpretation.dates:
        d0, d1 = fam.interpretation.dates.resolve(ds_as_of)
    subs = {"date_from": _lit(d0), "date_to": _lit(d1), "as_of": _lit(ds_as_of)}

    def fill(sql: str) -> str:
        def one(m: re.Match) -> str:
            key = m.group(1)
            if key.startswith("as_of:"):
                return _lit(as_of.get(key[6:]))
            if key not in subs:
                raise BankError(f"family {fam.id}: unknown placeholder {{{key}}}")
            if subs[key] == "NULL":
                raise BankError(f"family {fam.id}: {{{key}}} used but the family has no dates / as-of date")
            return subs[key]

        return re.sub(r"\{(date_from|date_to|as_of(?::\w+)?)\}", one, sql)

    assert fam.expect is not None
    return fill(fam.expect.sql), (fill(fam.expect.also_sql) if fam.expect.also_sql else None), d0, d1


def _lit(d: date | None) -> str:
    return f"DATE '{d.isoformat()}'" if d else "NULL"


def expected(fam: Family, con, as_of: dict[str, date]) -> Expected | None:
    """Run the family's expected SQL on the mirror (None for families without one, e.g. refusals)."""
    if fam.expect is None:
        return None
    sql, also, d0, d1 = render_sql(fam, as_of)
    rows = tuple(tuple(r) for r in con.execute(sql).fetchall())
    also_rows = tuple(tuple(r) for r in con.execute(also).fetchall()) if also else None
    return Expected(rows=rows, date_from=d0, date_to=d1, also_rows=also_rows, sql=sql)
