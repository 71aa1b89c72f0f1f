"""The `mirror` command line: thin commands over the library; MirrorError becomes one line and exit 1."""

from __future__ import annotations

import sys
from functools import wraps
from pathlib import Path

import click
import orjson
from pydantic import ValidationError

from .errors import MirrorError
from .ops.bundle import export as export_bundle
from .ops.status import status as mirror_status
from .ops.status import verify as mirror_verify
from .settings import Settings, env_problem
from .store.files import Store
from .sync.fetchlist import PlanReport
from .sync.plan import ENDPOINTS
from .sync.run import SAMPLE_DIR, SyncOptions
from .sync.run import sync as run_sync

__all__ = ["main", "cli"]


def _settings(data_dir: Path | None) -> Settings:
    try:
        s = Settings()
    except ValidationError as e:
        raise click.ClickException(env_problem(e))
    return s.model_copy(update={"data_dir": data_dir}) if data_dir else s


def _edge(fn):
    """Turn library errors into one clear line and a non-zero exit."""

    @wraps(fn)
    def wrapper(*a, **kw):
        try:
            return fn(*a, **kw)
        except MirrorError as e:
            click.echo(f"Error: {e}", err=True)
            sys.exit(1)
        except KeyboardInterrupt:
            click.echo("Interrupted: the mirror keeps its previous data; run the command again to resume.", err=True)
            sys.exit(130)

    return wrapper


def _json(obj) -> None:
    click.echo(orjson.dumps(obj, option=orjson.OPT_INDENT_2, default=str).decode())


data_dir_option = click.option(
    "--data-dir",
    type=click.Path(path_type=Path),
    default=None,
    help="Data folder (default: FDAX_DATA_DIR or the user data dir).",
)


def _only(value: str | None) -> list[str] | None:
    if not value:
        return None
    names = [v.strip() for v in value.split(",") if v.strip()]
    bad = [n for n in names if n not in (*ENDPOINTS, "gudid")]
    if bad:
        raise click.BadParameter(
            f"unknown dataset {', '.join(bad)}; choose from {', '.join(ENDPOINTS)}, gudid", param_hint="--only"
        )
    return names


@click.group()
@click.version_option(package_name="fda-explorer-offline")
def cli() -> None:
    """FDA device data mirrored from openFDA and AccessGUDID into local DuckDB files.

    Example: mirror sync --sample && mirror status
    """


@cli.command()
@click.option("--manifest", help="download.json URL or path (default: FDAX_MANIFEST_URL).")
@click.option("--only", help="Comma-separated datasets: " + ",".join(ENDPOINTS) + ",gudid.")
@click.option("--since", type=click.IntRange(1991, 2100), help="Event quarters from this year on.")
@click.option(
    "--from",
    "source_dir",
    type=click.Path(path_type=Path),
    help="Offline folder laid out like the download site, or a bundle made by `mirror export`.",
)
@click.option("--sample", is_flag=True, help="Sync the sample source shipped with the program.")
@click.option("--gudid", help="AccessGUDID listing page, RSS feed, release zip (URL or path), or folder.")
@data_dir_option
@click.option(
    "--dry-run", is_flag=True, help="Print the plan and every file to fetch (URL, bytes, records); download nothing."
)
@click.option(
    "--urls",
    is_flag=True,
    help="With --dry-run: print only the URLs to fetch, one a line, for a download tool (wget -x -nH -i).",
)
@click.option(
    "--allow-shrink",
    is_flag=True,
    help="Publish a dataset even if it would drop below half the records it holds (refused otherwise).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the final report as JSON on stdout.")
@click.option("--quiet", is_flag=True, help="No progress bars.")
@_edge
def sync(
    manifest, only, since, source_dir, sample, gudid, data_dir, dry_run, urls, allow_shrink, as_json, quiet
) -> None:
    """Download and load the openFDA device datasets and AccessGUDID.

    Exit code: 0 done, 1 failed, 3 partial (some datasets failed, the others were updated or are up to date).

    Example: mirror sync --only event,recall --since 2020
    """
    if urls and not dry_run:
        raise click.UsageError("--urls lists the files of a plan: add --dry-run")
    settings = _settings(data_dir)
    opts = SyncOptions(
        manifest=manifest,
        only=_only(only),
        since=since,
        source_dir=SAMPLE_DIR if sample else source_dir,
        gudid=gudid,
        dry_run=dry_run,
        allow_shrink=allow_shrink,
        quiet=quiet or as_json or urls,
    )
    try:
        report = run_sync(settings, opts)
    except MirrorError as e:
        if as_json:  # the outcome as data even when the sync could not start (lock, settings, folder)
            _json({"ok": False, "exit_code": 1, "errors": [str(e)], "datasets": {}})
        raise
    code = _sync_exit_code(report)
    if isinstance(report, PlanReport) and urls:
        for item in report.fetch:
            click.echo(item.url)
    elif as_json:
        _json(report.to_dict() | {"exit_code": code})
    else:
        _print_report(report)
    for line in report.errors:
        click.echo(f"Error: {line}", err=True)
    if code:
        sys.exit(code)


PARTIAL = 3  # some datasets failed; the others were updated or are up to date (docs/cli.md)


def _sync_exit_code(report) -> int:
    """0: every dataset updated, up to date or skipped; 3: some failed, others fine; 1: none fine."""
    if report.ok:
        return 0
    fine = any(r.status in ("updated", "up-to-date") for r in report.datasets.values())
    return PARTIAL if fine else 1


def _print_report(report) -> None:
    head = "plan" if report.dry_run else "sync"
    click.echo(f"{head}: {report.manifest} -> {report.data_dir}")
    for name, r in report.datasets.items():
        extra = f"  to fetch {r.files_to_fetch} of {r.files} files" if report.dry_run else ""
        click.echo(
            f"  {name:20} {r.status:11} as of {r.export_date or '-':10}  {r.records:>12,} records  "
            f"{r.files:>4} files  {r.bytes_planned / 1e6:>10,.1f} MB{extra}"
        )
        if r.note:
            click.echo(f"      note: {r.note}")
    if isinstance(report, PlanReport):
        click.echo(
            f"  total: {sum(r.files for r in report.datasets.values())} files, "
            f"{sum(r.records for r in report.datasets.values()):,} records, "
            f"{sum(r.bytes_planned for r in report.datasets.values()) / 1e6:,.1f} MB"
        )
        click.echo(
            f"files to fetch ({len(report.fetch)}; save each under DIR at its path, then `mirror sync --from DIR`):"
        )
        for f in report.fetch:
            size = "-" if f.bytes is None else f"{f.bytes:,} B"
            records = "-" if f.records is None else f"{f.records:,} records"
            click.echo(f"  {f.url}  {size}  {records}  -> {f.path}")
    else:
        click.echo(f"  done in {report.seconds:.1f} s")


@cli.command()
@data_dir_option
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@_edge
def status(data_dir, as_json) -> None:
    """Records, data-as-of date, sync time and size per dataset, with a staleness warning.

    Example: mirror status --json
    """
    settings = _settings(data_dir)
    st = mirror_status(Store(settings.data_dir), settings.stale_days)
    if as_json:
        _json(st)
        return
    click.echo(f"mirror: {st['database']}")
    rows = dict(st["endpoints"])
    if "gudid" in st:
        rows["gudid"] = st["gudid"]
    for name, d in rows.items():
        warn = f"  STALE: data older than {st['stale_days']} days" if d["stale"] else ""
        old = "" if d["storage_current"] else "  (older storage: `mirror sync` rewrites it compressed)"
        click.echo(
            f"  {name:20} {d['records']:>12,} records  as of {d['export_date'] or '-':10}  "
            f"synced {d['synced_at'] or '-':25} {d['bytes_on_disk'] / 1e6:>9,.1f} MB  "
            f"storage {d['storage_version']}{old}{warn}"
        )
    if st.get("unfinished_sync"):
        click.echo("  an unfinished sync will resume on the next `mirror sync`")


@cli.command()
@data_dir_option
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@_edge
def verify(data_dir, as_json) -> None:
    """Re-check loaded counts against the recorded manifest and read every table.

    Example: mirror verify --json
    """
    result = mirror_verify(Store(_settings(data_dir).data_dir))
    if as_json:
        _json(result)
    else:
        for name, d in result["datasets"].items():
            click.echo(f"  {name:20} {'ok' if d['ok'] else 'FAILED'}")
            for p in d["problems"]:
                click.echo(f"      {p}")
            for n in d["notes"]:
                click.echo(f"      note: {n}")
            if d["repair"]:
                click.echo(f"      to repair: {d['repair']}")
    if not result["ok"]:
        sys.exit(1)


@cli.command()
@click.argument("dest", type=click.Path(path_type=Path))
@click.option("--only", help="Comma-separated datasets to export.")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["bundle", "parquet"]),
    default="bundle",
    show_default=True,
    help="bundle: the downloaded files for `mirror sync --from`; parquet: each dataset's tables as Parquet.",
)
@data_dir_option
@_edge
def export(dest, only, fmt, data_dir) -> None:
    """Write an air-gap bundle (files, download.json, bundle.json, NOTICE) to DEST, or the tables as Parquet.

    Example: mirror export /media/usb/fda-bundle && mirror sync --from /media/usb/fda-bundle
    Example: mirror export --format parquet /srv/warehouse/fda
    """
    store = Store(_settings(data_dir).data_dir)
    if fmt == "parquet":
        from .ops.parquet import export_parquet

        got = export_parquet(store, dest, _only(only))
        click.echo(
            f"exported {got['records']:,} records ({got['bytes'] / 1e6:,.1f} MB of Parquet) of "
            f"{', '.join(got['datasets'])} to {got['dir']} (manifest.json lists the tables and as-of dates)"
        )
        return
    out = export_bundle(store, dest, _only(only))
    click.echo(
        f"exported {out['files']} files ({out['bytes'] / 1e6:,.1f} MB) of {', '.join(out['datasets'])} to {out['dir']}"
    )


@cli.command()
@click.argument("query")
@data_dir_option
@click.option("--json", "as_json", is_flag=True, help="Print rows as JSON objects.")
@_edge
def sql(query, data_dir, as_json) -> None:
    """Run one read-only SELECT on the mirror (tables device_event, device_510k, gudid_device, ...).

    Example: mirror sql "SELECT product_code, device_name FROM device_classification LIMIT 5"
    """
    from .ops.sql import run_sql

    settings = _settings(data_dir)
    result = run_sql(Store(settings.data_dir, memory_limit=settings.duckdb_memory_limit), query)
    names, rows = result.columns, result.rows
    if as_json:
        _json([dict(zip(names, r)) for r in rows])
    else:
        click.echo("\t".join(names))
        for r in rows:
            click.echo("\t".join("" if v is None else str(v) for v in r))


def _endpoint_path(endpoint: str) -> str:
    """`device/event`, `event`, `/device/event.json` or `download` -> the API path."""
    e = endpoint.strip().strip("/").removesuffix(".json")
    if e in ("download", "download.json"):
        return "/download.json"
    return f"/device/{e.removeprefix('device/')}.json"


@cli.command()
@click.argument("endpoint")
@click.argument("querystring", default="")
@data_dir_option
@_edge
def query(endpoint, querystring, data_dir) -> None:
    """Answer one openFDA API request from the mirror and print the JSON response.

    ENDPOINT is device/event, device/510k, ... (or download); QUERYSTRING is what follows `?` in an
    api.fda.gov URL. Exit code: 0 on 200, 1 on 404, 2 on 400, 3 on 500. A `Link` header goes to stderr.

    Example: mirror query device/event 'search=device.device_report_product_code:DXY&limit=5'
    """
    from .api import Api

    api = Api(_settings(data_dir))
    try:
        resp = api.get(_endpoint_path(endpoint), querystring.lstrip("?"))
    finally:
        api.close()
    click.echo(resp.body.decode())
    if "Link" in resp.headers:
        click.echo(f"Link: {resp.headers['Link']}", err=True)
    sys.exit({200: 0, 404: 1, 400: 2}.get(resp.status, 3))


@cli.command()
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="Address to listen on (loopback by default; 0.0.0.0 exposes the API to the network).",
)
@click.option(
    "--port", default=8000, show_default=True, type=click.IntRange(0, 65535), help="TCP port (0: any free port)."
)
@data_dir_option
@_edge
def serve(host, port, data_dir) -> None:
    """Serve the openFDA device API from the mirror over HTTP (GET /device/<endpoint>.json, /download.json).

    Example: mirror serve --port 8000 & curl 'http://127.0.0.1:8000/device/510k.json?search=product_code:LZG&limit=2'
    """
    from .api.server import serve as run_server

    run_server(_settings(data_dir), host, port)


def main() -> None:
    cli(prog_name="mirror")
