"""The one exception family the CLI and app turn into a one-line message instead of a traceback, and the report of
a fault inside the tool (a bug, not bad input): one line for whoever runs it, the traceback kept in a file. Whoever
runs `audit` on the floor needs to know it stopped, that what was recorded is kept, and where the details are for
the report; a screen of traceback tells them none of that."""

from __future__ import annotations

import os
import tempfile
import traceback
from datetime import UTC, datetime
from pathlib import Path


class DealerAssistError(Exception):
    """Bad input or an impossible request; the message says what was wrong and what is accepted."""


APP_NAME = "dealer-assist"
CRASH_DIR_ENV = "DEALER_ASSIST_CRASH_DIR"


def crash_dir() -> Path:
    """$DEALER_ASSIST_CRASH_DIR, else the user log directory (platformdirs)."""
    if os.environ.get(CRASH_DIR_ENV):
        return Path(os.environ[CRASH_DIR_ENV])
    import platformdirs

    return Path(platformdirs.user_log_dir(APP_NAME, appauthor=False))


def fault_report(exc: BaseException, argv: list[str]) -> Path:
    """The traceback and command line in a new file; the system temp folder when the log directory is not writable."""
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S%fZ")
    text = f"dealer-assist {' '.join(argv)}\n\n" + "".join(traceback.format_exception(exc))
    for folder in (crash_dir(), Path(tempfile.gettempdir())):
        try:
            folder.mkdir(parents=True, exist_ok=True)
            path = folder / f"crash-{stamp}.txt"
            path.write_text(text, encoding="utf-8")
            return path
        except OSError:
            continue
    raise exc


def fault_line(exc: BaseException, report: Path) -> str:
    """'internal error (KeyError: 5 at rules/hand.py:273); ...' naming the innermost frame in the package."""
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if "dealer_assist" in f.filename]
    where = ""
    if frames:
        name = frames[-1].filename.replace(os.sep, "/").split("dealer_assist/")[-1]
        where = f" at {name}:{frames[-1].lineno}"
    detail = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
    return (f"internal error ({detail}{where}); everything recorded before it is kept. Details: {report} "
            "(please send it with the report)")
