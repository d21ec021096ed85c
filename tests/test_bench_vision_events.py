"""`benchmarks/vision_events.py`'s award and flag scoring, on referees fed a video's true events."""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

from test_white_balance import _white_spread
from vision_events import (
    LitDetectorFn,
    _actions,
    _referee,
    award_outcome,
    cache_name,
    flag_outcome,
    keyed_shows,
    lit_detector,
)

from dealer_assist.audit.records import DealerAction
from dealer_assist.audit.referee import Referee
from dealer_assist.synth.hand_video import ERROR_KINDS, SimulatedTable
from dealer_assist.vision.events import CardsShown


def _fed(sim: SimulatedTable, drop: str | None = None, unread_shows: bool = False,
         keyed_s: float | None = None) -> Referee:
    """The video's referee fed its true events and dealer actions (less the events of kind `drop`; with
    `unread_shows`, every show seen with no card read; with `keyed_s`, each shown hand keyed in that long after)."""
    referee = _referee(sim)
    events = [replace(e, cards=()) if unread_shows and isinstance(e, CardsShown) else e for e in sim.truth.events]
    keyed = keyed_shows(sim, keyed_s) if keyed_s is not None else []
    items = [*(e for e in events if e.kind != drop), *keyed, *_actions(sim)]
    referee.feed_all(sorted(items, key=lambda i: (i.t, isinstance(i, DealerAction))))
    referee.close(sim.frame_count / sim.fps)
    return referee


def test_flags_are_scored_against_the_injected_errors() -> None:
    errors = SimulatedTable("badugi-limit", 1, size=(320, 180), errors=ERROR_KINDS)
    assert flag_outcome(errors, _fed(errors)) == (4, 4, 0, 0, 0)
    clean = SimulatedTable("badugi-limit", 2, size=(320, 180))
    assert flag_outcome(clean, _fed(clean)) == (0, 0, 0, 0, 0)
    unread = flag_outcome(clean, _fed(clean, unread_shows=True))     # the showdown's corners all unread
    assert unread[:2] == (0, 0) and unread[2] == unread[3] == 1
    assert award_outcome(clean, _fed(clean)) == "right"
    assert award_outcome(clean, _fed(clean, unread_shows=True)) == "none"
    keyed = _fed(clean, unread_shows=True, keyed_s=2.0)           # the dealer keys in each hand turned up
    assert award_outcome(clean, keyed) == "right" and flag_outcome(clean, keyed) == (0, 0, 0, 0, 0)
    gathered = next(e.t for e in clean.truth.events if e.kind == "gathered")
    assert all(s.entered and s.t < gathered for s in keyed_shows(clean, 60.0))   # always before the gather
    missing = flag_outcome(clean, _fed(clean, drop="replaced"))        # the camera lost every replacement
    assert missing[:2] == (0, 0) and missing[2] > 0
    assert 0 < missing[4] < missing[2]      # the short draws of the seats that showed whole hands: dismissed


def test_detection_caches_are_named_by_size_face_up_bar_and_felt_print() -> None:
    assert cache_name("badugi-limit", 3, 2000, (1280, 720), None, "abc") == "badugi-limit-3-2000-abc.npz"
    assert cache_name("badugi-limit", 3, 2000, (1920, 1080), None, "abc") == "badugi-limit-3-2000-1920x1080-abc.npz"
    assert cache_name("badugi-limit", 3, 2000, (1280, 720), 0.5, "abc") == "badugi-limit-3-2000-bar0.5-abc.npz"
    assert cache_name("badugi-limit", 3, 2000, (1280, 720), None, "abc", 12) == "badugi-limit-3-2000-print12-abc.npz"


def test_videos_under_coloured_light_are_corrected_from_the_first_frames_markers() -> None:
    import numpy as np
    import numpy.typing as npt

    from dealer_assist.synth.lighting import cast_light
    from dealer_assist.synth.track_eval import DetectorFn
    from dealer_assist.vision.backends.fake_backend import FakeDetector
    from dealer_assist.vision.detections import Detections

    seen: list[npt.NDArray[np.uint8]] = []

    def record(image: npt.NDArray[np.uint8]) -> Detections:
        seen.append(image)
        return Detections.empty()

    sim = SimulatedTable("badugi-limit", 2, size=(1280, 720))
    detector = FakeDetector(record)
    assert type(lit_detector(sim, detector, "neutral", "markers")) is DetectorFn
    fixed = lit_detector(sim, detector, "warm", "markers")
    as_seen = lit_detector(sim, detector, "warm", "none")
    assert isinstance(fixed, LitDetectorFn) and isinstance(as_seen, LitDetectorFn)
    assert fixed.white is not None and as_seen.white is None
    assert fixed.white.balance.gains[0] > 1.6 and fixed.white.balance.gains[2] == 1.0
    frame = sim.render_frame(0)
    fixed(frame, [])
    as_seen(frame, [])
    corrected, warm = seen[-2:]
    assert np.array_equal(warm, cast_light(frame, "warm"))
    spreads = _white_spread(warm, frame), _white_spread(corrected, frame)   # the frame's whites: markers, button
    assert spreads[0] > 80 and spreads[1] < 20, spreads                     # cream, then white
