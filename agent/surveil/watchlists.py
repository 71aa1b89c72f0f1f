"""Named watchlists (product codes, firms with their resolved name variants, brands, UDI-DIs), one JSON file each
under `<data folder>/watchlists/`, written atomically."""

from __future__ import annotations

import os
import re
import tempfile
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable

from pydantic import BaseModel, Field, ValidationError

from mirror.surveil.scope import Scope

from .errors import WatchlistError, WatchlistNotFound

__all__ = ["Watchlist", "WatchFirm", "Watchlists", "FirmResolver", "NAME_RULE"]

NAME_RULE = "1-64 letters, digits, '-', '_' or '.', starting with a letter or digit"
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")
_CODE = re.compile(r"[A-Z]{3}")
_DI = re.compile(r"[A-Za-z0-9+/=$.*%-]{6,50}")


class WatchFirm(BaseModel):
    query: str  # as the user typed it
    name: str = ""  # the resolved firm's display name ('' when unresolved)
    variants: list[str] = Field(default_factory=list)  # every spelling the mirror uses for it


FirmResolver = Callable[[str], WatchFirm]


class Watchlist(BaseModel):
    name: str
    codes: list[str] = Field(default_factory=list)
    firms: list[WatchFirm] = Field(default_factory=list)
    brands: list[str] = Field(default_factory=list)
    dis: list[str] = Field(default_factory=list)
    created: str = ""
    updated: str = ""

    def scope(self) -> Scope:
        names = {n for f in self.firms for n in (f.query, f.name, *f.variants) if n}
        return Scope(
            codes=tuple(self.codes), firms=tuple(sorted(names)), brands=tuple(self.brands), dis=tuple(self.dis)
        )


def _now() -> str:
    return datetime.now(timezone.utc).replace(microsecond=0).isoformat()


def check_name(name: str) -> str:
    if not _NAME.fullmatch(name or "") or name.endswith("."):
        raise WatchlistError(f"watchlist name {name!r} is not allowed: use {NAME_RULE} (e.g. cardiac-2024)")
    return name


def _codes(codes: list[str]) -> list[str]:
    out = [c.strip().upper() for c in codes if c.strip()]
    bad = [c for c in out if not _CODE.fullmatch(c)]
    if bad:
        raise WatchlistError(
            f"product code {bad[0]!r} is not three letters (e.g. DXY); "
            "find codes with `fda-explorer tool resolve_device`"
        )
    return out


def _dis(dis: list[str]) -> list[str]:
    out = [d.strip() for d in dis if d.strip()]
    bad = [d for d in out if not _DI.fullmatch(d)]
    if bad:
        raise WatchlistError(f"UDI-DI {bad[0]!r} is not a device identifier (e.g. 00884838064018)")
    return out


def _merge(old: list[str], add: list[str], remove: list[str], key=str.upper) -> list[str]:
    gone = {key(x) for x in remove}
    out = [x for x in old if key(x) not in gone]
    for x in add:
        if key(x) not in {key(y) for y in out}:
            out.append(x)
    return out


class Watchlists:
    """The watchlists of one data folder."""

    def __init__(self, data_dir: Path, resolve_firm: FirmResolver | None = None) -> None:
        self.dir = Path(data_dir) / "watchlists"
        self.resolve_firm = resolve_firm or (lambda q: WatchFirm(query=q))

    def path(self, name: str) -> Path:
        return self.dir / f"{check_name(name)}.json"

    def names(self) -> list[str]:
        return sorted((p.stem for p in self.dir.glob("*.json")), key=str.lower) if self.dir.is_dir() else []

    def get(self, name: str) -> Watchlist:
        path = self.path(name)
        if not path.exists():
            known = ", ".join(self.names()) or "none yet"
            raise WatchlistNotFound(
                f"no watchlist named {name!r} in {self.dir} (known: {known}); "
                f"create it with `fda-explorer watch create {name} --code ...`"
            )
        try:
            return Watchlist.model_validate_json(path.read_bytes())
        except ValidationError as e:
            raise WatchlistError(
                f"{path} is not a readable watchlist ({e.error_count()} problems); "
                "delete it with `fda-explorer watch delete` and create it again"
            ) from None

    def create(self, name: str, *, codes=(), firms=(), brands=(), dis=()) -> Watchlist:
        check_name(name)
        if any(n.lower() == name.lower() for n in self.names()):
            raise WatchlistError(
                f"a watchlist named {name!r} already exists; change it with "
                f"`fda-explorer watch edit {name}` or pick another name"
            )
        wl = Watchlist(
            name=name,
            codes=_codes(list(codes)),
            firms=[self.resolve_firm(f) for f in firms if f.strip()],
            brands=[b.strip() for b in brands if b.strip()],
            dis=_dis(list(dis)),
            created=_now(),
        )
        if wl.scope().empty:
            raise WatchlistError(
                f"watchlist {name!r} would be empty: give at least one --code, --firm, --brand or --di"
            )
        return self._save(wl)

    def edit(
        self,
        name: str,
        *,
        add_codes=(),
        remove_codes=(),
        add_firms=(),
        remove_firms=(),
        add_brands=(),
        remove_brands=(),
        add_dis=(),
        remove_dis=(),
    ) -> Watchlist:
        wl = self.get(name)
        wl.codes = _merge(wl.codes, _codes(list(add_codes)), _codes(list(remove_codes)))
        gone = {f.strip().upper() for f in remove_firms}
        firms = [f for f in wl.firms if f.query.upper() not in gone and f.name.upper() not in gone]
        have = {f.query.upper() for f in firms}
        firms += [self.resolve_firm(f) for f in add_firms if f.strip() and f.strip().upper() not in have]
        wl.firms = firms
        wl.brands = _merge(wl.brands, [b.strip() for b in add_brands if b.strip()], list(remove_brands))
        wl.dis = _merge(wl.dis, _dis(list(add_dis)), list(remove_dis), key=str.strip)
        if wl.scope().empty:
            raise WatchlistError(
                f"that edit would leave watchlist {name!r} empty; delete it with "
                f"`fda-explorer watch delete {name}` instead"
            )
        return self._save(wl)

    def delete(self, name: str) -> None:
        self.get(name)
        self.path(name).unlink()

    def _save(self, wl: Watchlist) -> Watchlist:
        wl.updated = _now()
        self.dir.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{wl.name}.", suffix=".tmp", dir=self.dir)
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(wl.model_dump_json(indent=2).encode())
                fh.flush()
                os.fsync(fh.fileno())
            os.replace(tmp, self.path(wl.name))
        finally:
            Path(tmp).unlink(missing_ok=True)
        return wl
