"""Frame sources as the command line opens them: vision's `open_source` plus the schemes that live in higher
layers, registered here so that vision never imports synth.

    sim:GAME:SEED[:OPTION=VALUE...]      a simulated hand (synth.hand_video.SimulatedTable) as a frame source

e.g. `sim:badugi-limit:7`, `sim::3` (the default game), `sim:badacey-limit-triple:2:errors=skipped_seat+wrong_seat:
size=640x360:table=oval-6:players=4:fps=15`. `audit` and `app` open their sources through `open_source` here.
"""

from __future__ import annotations

from typing import Any

from dealer_assist.vision.frames import FrameSource, SourceError

SIM_OPTIONS = ("errors", "size", "table", "players", "fps")


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
