"""Where the hand log lives: `--log PATH`, else $DEALER_ASSIST_LOG, else the user data directory."""

from __future__ import annotations

import os
from pathlib import Path

from platformdirs import user_data_path

APP_NAME = "dealer-assist"
LOG_ENV = "DEALER_ASSIST_LOG"
LOG_FILENAME = "hand-log.sqlite"


def default_log_path() -> Path:
    """The per-user default, e.g. ~/.local/share/dealer-assist/hand-log.sqlite on Linux."""
    return user_data_path(APP_NAME, appauthor=False) / LOG_FILENAME


def resolve_log_path(explicit: str | os.PathLike[str] | None = None) -> Path:
    """The log to use: the explicit path, else the environment variable, else the default."""
    if explicit:
        return Path(explicit).expanduser()
    env = os.environ.get(LOG_ENV)
    if env:
        return Path(env).expanduser()
    return default_log_path()


def snapshot_dir(db_path: Path) -> Path:
    """Key frames live in a folder beside the database: `hand-log.sqlite` -> `hand-log.snapshots/`."""
    return db_path.with_name(db_path.stem + ".snapshots")
