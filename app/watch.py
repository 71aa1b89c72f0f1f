"""The Surveillance screen without a window: watchlists (stored as `fda-explorer watch` stores them), the signal
table of a product code or a watchlist, and the digest of what the last sync changed for each watchlist (the home
shows it after a sync). Every query runs on the controller's "io" lane; the screen draws the fields below."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from agent.surveil.errors import SurveilError
from agent.surveil.signals import CAVEATS, format_row
from agent.surveil.watchlists import Watchlist, Watchlists
from mirror.errors import MirrorError, MirrorMissingError

from .backend import Backend
from .banners import Banner, info
from .jobs import Jobs

__all__ = ["SurveilModel", "SignalView", "WatchDigest", "split_items"]

CHART_ROWS = 12  # bars in the chart: the all-years rows, flagged first, then by PRR


def split_items(text: str) -> list[str]:
    """A field of the watchlist form: items separated by commas, semicolons or new lines."""
    return [x.strip() for x in text.replace(";", ",").replace("\n", ",").split(",") if x.strip()]


@dataclass
class SignalView:
    """A signal table as the screen shows it."""

    label: str  # what was looked at ("watchlist cardiac", "DXY")
    as_of: str
    reports_in: int
    reports_out: int
    thresholds: str
    rows: list[dict[str, str]]  # format_row(), flagged first, the all-years rows before the per-year ones
    chart: list[tuple[str, float, bool]]  # (term, PRR, flagged) of the all-years rows
    caveats: tuple[str, ...] = CAVEATS
    query: str = ""

    @property
    def flagged(self) -> int:
        return sum(1 for r in self.rows if r["note"].endswith("SIGNAL"))


@dataclass
class WatchDigest:
    """What the latest sync added or changed for one watchlist, dataset by dataset."""

    name: str
    lines: list[str] = field(default_factory=list)  # "3 new recall(s) (class II: Z-1234-2024, ...)"
    error: str = ""

    @property
    def quiet(self) -> bool:
        return not self.lines and not self.error


_NOUNS = {
    "recall": "recall",
    "enforcement": "enforcement report",
    "510k": "510(k)",
    "pma": "PMA decision",
    "event": "adverse event report",
    "udi": "UDI record",
}


class SurveilModel:
    """Listeners hear "surveil" when the screen's fields change and "ask" when the home's digest does."""

    def __init__(
        self, backend: Backend, jobs: Jobs, changed: Callable[[str], None], report: Callable[[Banner], None]
    ) -> None:
        self.backend, self.jobs, self._changed, self._report = backend, jobs, changed, report
        self.lists: list[Watchlist] = []
        self.selected: str = ""  # the watchlist whose signals are shown (or "")
        self.code: str = ""  # or the product code typed
        self.signals: SignalView | None = None
        self.busy = ""  # what is running, as a person reads it
        self.error = ""  # the last problem, one line, shown on the screen
        self.digest: list[WatchDigest] = []
        self.digest_syncs = ""  # "#3 at 2024-05-01 10:00:00"
        self.last_saved = ""  # the watchlist the last successful save wrote

    # -- watchlists ---------------------------------------------------------------------------------------------
    def _watchlists(self, resolve: bool = False) -> Watchlists:
        resolver = None
        if resolve:
            from agent.surveil.firms import firm_resolver

            try:
                with self.backend.using() as assistant:
                    api = assistant.ctx.api
            except MirrorMissingError:
                api = None
            resolver = firm_resolver(api)
        return Watchlists(self.backend.settings.data_dir, resolver)

    def refresh(self) -> None:
        self.jobs.submit("io", self._load, doing="reading the watchlists")

    def _load(self) -> None:
        wls = self._watchlists()
        self.lists = [wls.get(n) for n in wls.names()]
        if self.selected and self.selected not in {w.name for w in self.lists}:
            self.selected = ""
        self._changed("surveil")

    def get(self, name: str) -> Watchlist | None:
        return next((w for w in self.lists if w.name == name), None)

    def save(self, name: str, codes: str, firms: str, brands: str, dis: str, editing: str = "") -> None:
        """Create a watchlist, or replace the items of `editing` with the form's (firms are resolved on the mirror)."""
        self.jobs.submit(
            "io",
            self._save,
            name.strip(),
            split_items(codes),
            split_items(firms),
            split_items(brands),
            split_items(dis),
            editing,
            doing=f"saving the watchlist {name}",
        )

    def _save(
        self, name: str, codes: list[str], firms: list[str], brands: list[str], dis: list[str], editing: str
    ) -> None:
        self.last_saved = ""

        def work() -> str:
            wls = self._watchlists(resolve=bool(firms))
            if not editing:
                wls.create(name, codes=codes, firms=firms, brands=brands, dis=dis)
                self.last_saved = name
                return f"Watchlist {name} created."
            old = wls.get(editing)
            kept = {f.query.upper() for f in old.firms}
            wls.edit(
                editing,
                add_codes=codes,
                remove_codes=[c for c in old.codes if c.upper() not in {x.upper() for x in codes}],
                add_firms=[f for f in firms if f.upper() not in kept],
                remove_firms=[f.query for f in old.firms if f.query.upper() not in {x.upper() for x in firms}],
                add_brands=brands,
                remove_brands=[b for b in old.brands if b.upper() not in {x.upper() for x in brands}],
                add_dis=dis,
                remove_dis=[d for d in old.dis if d not in dis],
            )
            self.last_saved = editing
            return f"Watchlist {editing} saved."

        self._run(work, then_load=True)

    def delete(self, name: str) -> None:
        self.jobs.submit("io", self._delete, name, doing=f"deleting the watchlist {name}")

    def _delete(self, name: str) -> None:
        def work() -> str:
            self._watchlists().delete(name)
            return f"Watchlist {name} deleted."

        self._run(work, then_load=True)

    def _run(self, work: Callable[[], str], then_load: bool = False) -> bool:
        """Run `work`; a surveillance or mirror problem becomes the screen's one-line error and a banner."""
        self.error = ""
        try:
            message = work()
        except (SurveilError, MirrorError) as e:
            self.error = " ".join(str(e).split())
            self._report(Banner(self.error, "error"))
            self._changed("surveil")
            return False
        finally:
            if then_load:
                self._load()
        if message:
            self._report(info(message))
        return True

    # -- signals ---------------------------------------------------------------------------------------------------
    def show_signals(self, watch: str = "", code: str = "") -> None:
        self.selected, self.code = watch, code.strip().upper()
        self.busy = "Computing signals…"
        self._changed("surveil")
        self.jobs.submit("io", self._signals, doing="computing signals")

    def _signals(self) -> None:
        from agent.surveil.signals import run_signals

        def work() -> str:
            s = self.backend.settings
            codes = (self.code,) if self.code else ()
            table, label = run_signals(s.data_dir, s.duckdb_memory_limit, self.selected or None, codes)
            rows = sorted(
                table.rows,
                key=lambda r: (r.year is not None, not r.measures.flagged, -(r.measures.prr or 0), r.year or 0),
            )
            top = [r for r in rows if r.year is None][:CHART_ROWS]
            self.signals = SignalView(
                label,
                table.as_of,
                table.reports_in_scope.get(None, 0),
                table.reports_other.get(None, 0),
                table.thresholds.describe(),
                [format_row(r) for r in rows],
                [(r.term, r.measures.prr or 0.0, r.measures.flagged) for r in top],
                query=table.queries[0] if table.queries else "",
            )
            return ""

        try:
            if not self._run(work):
                self.signals = None
        finally:
            self.busy = ""
            self._changed("surveil")

    # -- the digest of the last sync ----------------------------------------------------------------------------
    def refresh_digest(self) -> None:
        self.jobs.submit("io", self._digest, doing="reading what the last sync changed")

    def _digest(self) -> None:
        from mirror.store.files import Store
        from mirror.surveil.digest import changes_since

        s = self.backend.settings
        wls = self._watchlists()
        out, syncs = [], ""
        for name in wls.names():
            d = WatchDigest(name)
            try:
                report = changes_since(Store(s.data_dir, s.duckdb_memory_limit), wls.get(name).scope(), limit=5)
                syncs = ", ".join(f"#{i} at {t}" for i, t in report.syncs)
                d.lines = [_line(ds) for ds in report.datasets if ds.added or ds.changed]
            except (SurveilError, MirrorError) as e:
                d.error = " ".join(str(e).split())
            out.append(d)
        self.digest, self.digest_syncs = out, syncs
        self._changed("ask")


def _line(ds) -> str:
    noun = _NOUNS.get(ds.dataset, ds.dataset)
    parts = [f"{n} {what}" for n, what in ((ds.added, "new"), (ds.changed, "changed")) if n]
    ids = [_ident(r) for r in ds.rows[:3]]
    more = f": {', '.join(ids)}" + (", …" if ds.added + ds.changed > len(ids) else "") if ids else ""
    return f"{' and '.join(parts)} {noun}{'s' if ds.added + ds.changed > 1 else ''}{more}"


def _ident(row: dict[str, str]) -> str:
    """A changed record as one short label: its key, and its class or event type when it has one."""
    values = [v for k, v in row.items() if k != "change"]
    key = values[0] if values else ""
    extra = row.get("recall_class") or row.get("event_type") or ""
    return f"{key} ({extra})" if extra else key
