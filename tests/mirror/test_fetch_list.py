"""The fetch list: `--dry-run` names every file (URL, bytes, records), `--json` as data, `--urls` for a download tool;
the files fetched by other means, laid out by URL path, sync with `--from`."""

from __future__ import annotations

import json
from urllib.parse import urlsplit

import httpx
from click.testing import CliRunner

from mirror.cli import cli
from mirror.ops.status import status
from mirror.store.files import Store
from mirror.sync import SAMPLE_DIR


def _sync(*args: str):
    r = CliRunner().invoke(cli, ["sync", *args], catch_exceptions=False)
    return r.exit_code, r.stdout, r.stderr


def test_a_dry_run_lists_every_file_and_the_folder_they_are_saved_into_syncs(http_source, tmp_path):
    srv, manifest = http_source
    release = next((SAMPLE_DIR / "gudid").glob("*.zip")).name
    gudid = f"{srv.url}/gudid/{release}"
    data = tmp_path / "data"
    args = ["--manifest", manifest, "--gudid", gudid, "--data-dir", str(data)]

    code, out, err = _sync(*args, "--dry-run", "--json")
    assert code == 0, err
    plan = json.loads(out)
    files = plan["fetch"]
    assert files[0] == {
        "dataset": "manifest",
        "url": manifest,
        "path": "download.json",
        "bytes": None,
        "records": None,
        "export_date": "",
    }
    device = [f for f in files if f["dataset"] not in ("manifest", "gudid")]
    assert len(device) == sum(d["files"] for n, d in plan["datasets"].items() if n != "gudid") == 12
    for name, d in plan["datasets"].items():
        if name != "gudid":
            mine = [f for f in device if f["dataset"] == name]
            assert sum(f["records"] for f in mine) == d["records"]
            assert sum(f["bytes"] for f in mine) == d["bytes_planned"]
    for f in device:
        assert f["url"] == f"{srv.url}/{f['path']}" and f["path"].startswith(f"device/{f['dataset']}/")
    assert files[-1] == {
        "dataset": "gudid",
        "url": gudid,
        "path": f"gudid/{release}",
        "bytes": None,
        "records": None,
        "export_date": "2025-10-01",
    }
    assert not data.exists() or not list(data.rglob("*.zip")), "a dry run downloads nothing"

    code, out, err = _sync(*args, "--dry-run", "--urls")
    assert code == 0 and out.splitlines() == [f["url"] for f in files]

    code, out, err = _sync(*args, "--dry-run")
    event = next(f for f in files if f["dataset"] == "event")
    assert f"  {event['url']}  {event['bytes']:,} B  {event['records']:,} records  -> {event['path']}" in out

    # the connected machine: each listed URL saved at its URL path (download.json at the root), as wget -x -nH does
    carried = tmp_path / "carried"
    with httpx.Client() as client:
        for url in out_urls(args):
            r = client.get(url)
            assert r.status_code == 200, url
            path = urlsplit(url).path.lstrip("/")
            dest = carried / ("download.json" if url == manifest else path)
            dest.parent.mkdir(parents=True, exist_ok=True)
            dest.write_bytes(r.content)
    fetched_before = len(srv.requests)

    code, out, err = _sync("--from", str(carried), "--data-dir", str(data), "--quiet", "--json")
    assert code == 0, err
    report = json.loads(out)
    assert {d["status"] for d in report["datasets"].values()} == {"updated"}
    assert len(srv.requests) == fetched_before, "the offline sync reads the folder only"
    st = status(Store(data))
    assert st["endpoints"]["event"]["records"] == 7 and st["gudid"]["records"] == 5
    assert sum(d["records"] for d in st["endpoints"].values()) == sum(f["records"] for f in device)


def out_urls(args: list[str]) -> list[str]:
    code, out, err = _sync(*args, "--dry-run", "--urls")
    assert code == 0, err
    return out.splitlines()


def test_urls_needs_a_dry_run(tmp_path):
    code, out, err = _sync("--sample", "--urls", "--data-dir", str(tmp_path))
    assert code == 2 and "--dry-run" in err
