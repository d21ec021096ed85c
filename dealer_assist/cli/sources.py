"""Frame sources as the command line opens them: vision's `open_source` plus the schemes that live in higher
layers, registered here so that vision never imports synth. Also the checks the commands share on what they read
and write: finite number ranges, and output files that can be written without destroying an input.

    sim:GAME:SEED[:OPTION=VALUE...]      a simulated hand (synth.hand_video.SimulatedTable) as a frame source

e.g. `sim:badugi-limit:7`, `sim::3` (the default game), `sim:badacey-limit-triple:2:errors=skipped_seat+wrong_seat:
size=640x360:table=oval-6:players=4:fps=15`. `audit` and `app` open their sources through `open_source` here.
"""

from __future__ import annotations

import errno
import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import click

from dealer_assist.errors import DealerAssistError
from dealer_assist.vision.frames import FrameSource, SourceError
from dealer_assist.vision.table_profile import TableProfile

SIM_OPTIONS = ("errors", "size", "table", "players", "fps")
MAX_THREADS = 256
"""The most CPU threads a command takes (--threads): far more than any table PC has, few enough to start at once."""


class FiniteRange(click.FloatRange):
    """click.FloatRange that also refuses nan and inf: nan passes every comparison, so the range alone lets it in."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        number = super().convert(value, param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value!r} is not a finite number; accepted: {self._describe_range()}", param, ctx)
        return number


def thread_count(ctx: click.Context, param: click.Parameter, value: int | None) -> int | None:
    """A --threads callback: at most MAX_THREADS (a runtime asked for 100000 threads never comes back)."""
    if value is not None and value > MAX_THREADS:
        raise click.BadParameter(f"{value} is too many; accepted: 0 (the runtime decides) to {MAX_THREADS}")
    return value


def profile_file(profile: TableProfile) -> str | None:
    """The file a table profile was loaded from, as an input an output must not overwrite (None for a shipped name
    given without its file, or a generated profile)."""
    return profile.source if Path(profile.source).is_file() else None


def output_file(path: str | Path, option: str, others: Mapping[str, str | Path | None] | None = None) -> Path:
    """`path` checked before any work as a file the command can write: not a folder, in a folder that exists or can be
    made, and none of `others` (the command's inputs and other outputs, by what they are), which writing would
    destroy. The one-line error names the option and the path."""
    p = Path(path)
    target = p.resolve()
    for what, other in (others or {}).items():
        if other is not None and Path(other).resolve() == target:
            raise DealerAssistError(f"{option} {p} is also {what}; writing it there would destroy that, so give "
                                    f"{option} another file")
    if target.is_dir():
        raise DealerAssistError(f"{option} {p} is a folder; accepted: a file path")
    folder = target.parent
    while not folder.exists():
        folder = folder.parent
    if not folder.is_dir():
        raise DealerAssistError(f"cannot write {option} {p}: {folder} is a file, not a folder")
    existed = target.exists()
    try:
        target.parent.mkdir(parents=True, exist_ok=True)   # the command would make it anyway
        with target.open("ab"):                            # appends nothing: the file is kept as it is
            pass
        if not existed:
            target.unlink()
    except OSError as exc:
        why = (f"the folder {target.parent} takes no new files" if exc.errno == errno.ENOENT
               else exc.strerror or str(exc))
        raise DealerAssistError(f"cannot write {option} {p}: {why}") from None
    return p


def _size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise SourceError(f"sim source: size {text!r} is not WIDTHxHEIGHT, e.g. 1280x720") from None
    if not (64 <= w <= 4096 and 64 <= h <= 4096):
        raise SourceError(f"sim source: size {text!r}: width and height must be 64 to 4096")
    return w, h


def sim_source(rest: str) -> FrameSource:
    """The simulated table for the part of a "sim:" spec after the scheme (see the module notes)."""
    from dealer_assist.rules.house_rules import PRESETS
    from dealer_assist.synth.hand_video import SimulatedTable
    from dealer_assist.vision.table_profile import load_profile

    parts = rest.split(":") if rest else []
    game = parts[0] if parts and parts[0] else "badugi-limit"
    if game not in PRESETS:
        raise SourceError(f"sim source: unknown game {game!r}; accepted: {', '.join(PRESETS)}")
    try:
        seed = int(parts[1]) if len(parts) > 1 and parts[1] else 0
    except ValueError:
        raise SourceError(f"sim source: seed {parts[1]!r} is not a whole number (sim:GAME:SEED)") from None
    kwargs: dict[str, Any] = {}
    for item in parts[2:]:
        key, sep, value = item.partition("=")
        if not sep or key not in SIM_OPTIONS:
            raise SourceError(f"sim source: bad option {item!r}; accepted: "
                              + ", ".join(f"{k}=..." for k in SIM_OPTIONS))
        try:
            if key == "errors":
                kwargs["errors"] = [e for e in value.replace(",", "+").split("+") if e]
            elif key == "size":
                kwargs["size"] = _size(value)
            elif key == "table":
                kwargs["profile"] = load_profile(value)
            elif key == "players":
                kwargs["players"] = int(value)
            else:
                kwargs["fps"] = float(value)
        except ValueError:
            raise SourceError(f"sim source: bad value in {item!r}") from None
    return SimulatedTable(game, seed, **kwargs)


def register_sources() -> None:
    """Add the schemes of higher layers to vision's `open_source` (idempotent)."""
    from dealer_assist.vision.sources import register_source

    register_source("sim", sim_source)


def open_source(spec: str) -> FrameSource:
    """vision's `open_source` with every scheme registered: a camera index, stream URL, video file or sim:..."""
    from dealer_assist.vision.sources import open_source as _open

    register_sources()
    return _open(spec)
