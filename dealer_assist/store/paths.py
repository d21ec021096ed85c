"""Where the hand log lives: `--log PATH`, else $DEALER_ASSIST_LOG, else the user data directory."""

from __future__ import annotations

import os
from pathlib import Path

from platformdirs import user_data_path

from dealer_assist.errors import DealerAssistError

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


def log_files(db_path: Path) -> list[Path]:
    """The files a log is kept in: the database, its WAL, shared-memory and rollback-journal files, and its anchor."""
    suffixes = ("", "-wal", "-shm", "-journal", ".head")
    bases = {db_path.absolute(), db_path.resolve()}  # SQLite names its side files after the real path
    return [base.with_name(base.name + suffix) for base in sorted(bases) for suffix in suffixes]


def refuse_log_path(db_path: Path, target: Path, what: str) -> None:
    """A one-line error when `target` is one of the log's own files or inside its key-frame folder: writing `what`
    there would destroy the record it was made from."""
    try:
        out = target.resolve()
        files = [(f, f.resolve()) for f in log_files(db_path)]
        folders = {snapshot_dir(base).resolve() for base in (db_path, db_path.resolve())}
    except (OSError, RuntimeError) as exc:  # a symbolic-link loop
        raise DealerAssistError(f"cannot write {what} to {target}: {exc}") from None
    for name, real in files:
        same = out == real or (out.exists() and real.exists() and os.path.samefile(out, real))
        if same:
            raise DealerAssistError(f"refusing to write {what} to {target}: it is the hand log's own file {name}; "
                                    "give a path outside the log's files and key-frame folder")
    folder = next((f for f in sorted(folders) if out == f or f in out.parents), None)
    if folder is not None:
        raise DealerAssistError(f"refusing to write {what} to {target}: it is inside the hand log's key-frame folder "
                                f"{folder}; give a path outside the log's files and key-frame folder")


def path_problem(path: Path, exc: OSError) -> str:
    """Why `path` could not be made, opened or written, in words: a file where a folder goes, a folder where a file
    goes, else the system's own reason."""
    if path.is_dir():
        return f"{path} is a folder, not a file"
    for parent in path.parents:
        if parent.exists():
            if not parent.is_dir():
                return f"{parent} is a file, not a folder"
            break
    return exc.strerror or str(exc)
