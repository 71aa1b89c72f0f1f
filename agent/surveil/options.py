"""What every surveillance command shares: the --data-dir option and the settings it reads."""

from __future__ import annotations

from pathlib import Path

import click

from mirror.settings import Settings

__all__ = ["DATA_DIR", "settings_for"]

DATA_DIR = click.option(
    "--data-dir", type=click.Path(path_type=Path), default=None, help="Mirror data folder (default: FDAX_DATA_DIR)."
)


def settings_for(data_dir: Path | None) -> Settings:
    """Settings from FDAX_* variables, with the data folder of --data-dir when given."""
    settings = Settings()
    return settings.model_copy(update={"data_dir": data_dir}) if data_dir else settings
