"""The built app's entry point: the bundle's defaults, the carried snapshot on first run, then `fda-explorer`.

Runs only in the PyInstaller bundle (`build/build.py`). It reads `build-info.json` (written by the build):
  model     the default for FDAX_MODEL: "embedded", "none", or "llamacpp:models/NAME.gguf" (bundle-relative)
  snapshot  "snapshot" (a folder carried as `snapshot/`) or "sample" (the sample source in `mirror/sample/`)
Before any command, the data folder the settings name (FDAX_DATA_DIR, else the user's data dir) is seeded from
the carried snapshot when it holds no mirror. A command given `--data-dir` is left alone: that folder is the
user's choice, not the app's first run; so is `mirror sync`, which is about to fill the folder itself (seeding the
sample first would leave sample datasets beside a partial sync's).
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

# Nothing leaves the machine: LangSmith tracing stays off whatever the environment says.
NO_SEED = ("--data-dir", "--help", "-h", "--version")


def bundle_dir() -> Path:
    return Path(getattr(sys, "_MEIPASS", Path(__file__).resolve().parent))


def build_info(bundle: Path) -> dict:
    path = bundle / "build-info.json"
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}


def apply_defaults(info: dict, bundle: Path) -> None:
    from agent.offline import enforce

    enforce()  # the agent package does it too; here before any import can read them
    from agent.modelspec import DEFAULT_MODEL, ModelSpec

    spec = ModelSpec.parse(info.get("model", DEFAULT_MODEL))
    model = f"llamacpp:{bundle / spec.arg}" if spec.kind == "llamacpp" else info.get("model", DEFAULT_MODEL)
    os.environ.setdefault("FDAX_MODEL", model)


def carried_snapshot(info: dict, bundle: Path) -> Path:
    if info.get("snapshot") == "snapshot":
        return bundle / "snapshot"
    from mirror.sync import SAMPLE_DIR

    return SAMPLE_DIR


def seed_first_run(info: dict, bundle: Path, argv: list[str]) -> None:
    """Seed the default data folder from the carried snapshot; a failure is reported and the command still runs."""
    if argv[:2] == ["mirror", "sync"] or any(a == f or a.startswith(f + "=") for a in argv for f in NO_SEED):
        return
    from mirror import MirrorError, Settings
    from mirror.ops.snapshot import is_empty, seed

    try:
        settings = Settings()
        if not is_empty(settings.data_dir):
            return
        print(f"First run: loading the carried mirror into {settings.data_dir} ...", file=sys.stderr, flush=True)
        note = seed(settings, carried_snapshot(info, bundle))
    except (MirrorError, OSError, ValueError) as e:
        print(f"Warning: the carried mirror was not loaded: {e}", file=sys.stderr)
        return
    if note:
        print(f"First run: loaded {', '.join(note['datasets'])}", file=sys.stderr, flush=True)


def main() -> None:
    bundle = bundle_dir()
    info = build_info(bundle)
    apply_defaults(info, bundle)
    seed_first_run(info, bundle, sys.argv[1:])
    from app.cli import main as fda_explorer

    fda_explorer()


if __name__ == "__main__":
    main()
