"""End to end on rendered simulated hand videos (held-out deck designs): frames -> detections that only see
what is visible -> Pipeline (mapper + tracker) -> events, scored against the video's truth in order.

Small frames, 3 players on a 6-seat table, fps 15: a few seconds. The full figures are
`benchmarks/vision_events.py`.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from dealer_assist.rules.house_rules import HouseRules
from dealer_assist.synth.hand_video import ERROR_KINDS, ROW_STEP_CM, SimulatedTable, _Builder, build_script
from dealer_assist.synth.track_eval import summarise, track_video, visible_detections
from dealer_assist.synth.truth import IndexCornerTruth, ObjectTruth
from dealer_assist.vision.calibration import CameraCalibration
from dealer_assist.vision.detections import BACK_ID, BUTTON_ID
from dealer_assist.vision.frames import SourceError
from dealer_assist.vision.mapper import TableMapper
from dealer_assist.vision.table_profile import oval_profile
from dealer_assist.vision.tracker import TrackerConfig

PROFILE6 = oval_profile(6)
PROFILE9 = oval_profile(9)


def _sim(game: str, seed: int, errors: tuple[str, ...] = ()) -> SimulatedTable:
    return SimulatedTable(game, seed, errors=errors, profile=PROFILE6, size=(480, 270), fps=15.0, players=3)


@pytest.mark.usefixtures("procedural_decks")   # the same video on every machine, whatever art it has
@pytest.mark.parametrize(("game", "seed", "errors"), [
    ("badugi-limit", 4, ()),
    ("badugi-limit", 17, ERROR_KINDS),
    pytest.param("badacey-limit-triple", 1, ERROR_KINDS, marks=pytest.mark.xfail(strict=True, reason=(
        "without the referee's hints, a player's arm over seat 1's pile while the muck grows (13 s) reads as a "
        "discard of 1 and a replacement; the referee's hints do not help either: `benchmarks/vision_events.py "
        "--hints referee` counts such events as spurious_events_from_occluders"))),
])
def test_rendered_hand_events_reproduced_in_order(game: str, seed: int, errors: tuple[str, ...]) -> None:
    """Cases the chain reproduces exactly, and one it does not (a known fault, kept in view); the whole picture over
    many videos is the benchmark's."""
    video = track_video(_sim(game, seed, errors))
    s = summarise([video])
    assert s.recall == 1.0, s.missed
    assert s.precision == 1.0, s.extra
    assert s.spurious_occluders == 0 and s.invented == 0
    assert video.occluders                                  # hands and chips did pass over the table
    assert s.latency_median_ms <= 300
    assert s.counts.settled > 200 and s.counts.right >= 0.95 * s.counts.settled


def test_visible_detections_follow_the_detector_thresholds() -> None:
    square = ((0.0, 0.0), (10.0, 0.0), (10.0, 10.0), (0.0, 10.0))
    from dealer_assist.cards import parse_card

    objects = [
        ObjectTruth(1, "card_back", square, 0.35, (0.0, 0.0)),             # a strip of a row: counted
        ObjectTruth(2, "card_back", square, 0.2, (0.0, 0.0)),              # under the next card: not
        ObjectTruth(3, "card_face", square, 0.4, (0.0, 0.0), card=parse_card("Ah"),
                    corners=(IndexCornerTruth(((0, 0), (2, 0), (2, 3), (0, 3)), 0.9),
                             IndexCornerTruth(((8, 7), (10, 7), (10, 10), (8, 10)), 0.3))),
        ObjectTruth(4, "button", square, 0.1, (0.0, 0.0)),                 # under a hand
        ObjectTruth(5, "hand", square, 1.0, (0.0, 0.0)),
    ]
    d = visible_detections(objects)
    assert sorted(d.class_id.tolist()) == sorted([BACK_ID, parse_card("Ah").index])
    assert BUTTON_ID not in d.class_id.tolist()
    face = d.xyxy[d.class_id == parse_card("Ah").index][0]
    assert face.tolist() == [0.0, 0.0, 2.0, 3.0]                          # the visible index corner's box


def _slots_ok(b: _Builder, profile_seats: int) -> None:
    """At every event, the face-down cards resting in a seat's row lie most of a row step apart (none hidden)."""
    for e in b.events:
        f = e.frame + 1
        by_seat: dict[str, list[tuple[float, float]]] = {}
        for o in b.objs:
            st = o.state(f) if o.kind == "card" else None
            if st is not None and st[3].startswith("seat:") and not st[2]:     # face down (a showdown spreads)
                by_seat.setdefault(st[3], []).append(st[0])
        for seat, pts in by_seat.items():
            a = np.asarray(pts)
            d = np.hypot(*(a[:, None] - a[None]).transpose(2, 0, 1)) + np.eye(len(a)) * 99
            assert d.min() >= 0.6 * ROW_STEP_CM, (e, seat)


@pytest.mark.parametrize("game", ["badugi-limit", "badacey-limit-triple"])
def test_replacements_land_in_a_free_slot(game: str) -> None:
    """Regression: a replacement went to slot len(pile), which after a random discard could be a slot still
    holding a card (the two lay on top of each other and the pile was miscounted)."""
    for seed in range(12):
        b, _ = build_script(HouseRules.preset(game), PROFILE9, seed, fps=15.0,
                            errors=list(ERROR_KINDS) if seed % 3 == 0 else [])
        _slots_ok(b, 9)


def test_replacements_wait_for_the_discards_to_leave() -> None:
    """The simulated dealer mucks the discards before pitching replacements: each seat's first replacement
    lands at least the tracker's leave_s (empty_s when every card went) plus 0.1 s after the last discard
    left the seat's zone, as a real dealer takes that long anyway."""
    cfg = TrackerConfig()
    mapper = TableMapper(PROFILE9, CameraCalibration.from_table_to_image(np.eye(3), (100, 100), PROFILE9.name))
    checked = 0
    for game in ("badugi-limit", "badacey-limit-triple"):
        rules = HouseRules.preset(game)
        for seed in range(10):
            b, _ = build_script(rules, PROFILE9, seed, fps=15.0)
            for i, e in enumerate(b.events):
                if e.kind != "discarded":
                    continue
                seat, count = e.seat, e.count  # type: ignore[attr-defined]
                left = 0
                for o in b.objs:
                    move = next((m for m in o.moves if m.zone == "muck" and m.end == e.frame), None)
                    if o.kind != "card" or move is None:
                        continue
                    for f in range(move.start, move.end + 1):
                        st = o.state(f)
                        assert st is not None
                        if int(mapper.zone_of([st[0]])[0]) != seat:
                            left = max(left, f)
                            break
                nxt = next((x for x in b.events[i + 1:] if x.kind == "replaced" and x.seat == seat), None)  # type: ignore[attr-defined]
                if nxt is None:
                    continue
                need = cfg.empty_s if count >= rules.hand_size else cfg.leave_s
                assert (nxt.frame - left) / 15.0 >= need + 0.1, (game, seed, e)
                checked += 1
    assert checked > 20


def test_sim_source_spec_from_the_cli_layer() -> None:
    from dealer_assist.cli.sources import open_source
    from dealer_assist.vision.sources import registered_schemes

    src = open_source("sim:badacey-limit-triple:3:size=160x90:table=oval-6:players=3:errors=exposed_card")
    assert "sim" in registered_schemes()
    assert isinstance(src, SimulatedTable) and src.name == "sim:badacey-limit-triple:3"
    assert src.size == (160, 90) and src.profile.seat_count == 6 and len(src.truth.players) == 3
    assert [e.kind for e in src.truth.errors] == ["exposed_card"]
    frame = src.read()
    assert frame is not None and frame.image.shape == (90, 160, 3) and frame.index == 0
    assert open_source("sim::2:size=160x90").name == "sim:badugi-limit:2"
    for bad in ("sim:nosuchgame:1", "sim:badugi-limit:x", "sim:badugi-limit:1:colour=red", "sim::1:size=12"):
        with pytest.raises(SourceError):
            open_source(bad)


def test_a_real_detector_hears_the_sim_cameras_card_size() -> None:
    from test_pipeline import ScaleSpy

    from dealer_assist.synth.track_eval import detector_fn

    spy = ScaleSpy()
    track_video(_sim("badugi-limit", 4), detector_fn(spy), frames=3)
    assert spy.seen == 3
    assert len(spy.told) == 1 and spy.told[0][1] == (480, 270)
    assert 10 < spy.told[0][0] < 60  # a whole 6-seat table across 480 px


def test_cached_detections_replay_the_same_events_without_detecting(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """`track_video(cache=...)`: the first run writes each frame's detections, the second replays them (the detector
    is not called, nothing is rendered) and tracks the same events."""
    from test_pipeline import ScaleSpy

    from dealer_assist.synth.track_eval import detector_fn, load_detections, save_detections

    cache = tmp_path / "cache" / "video.npz"
    first = track_video(_sim("badugi-limit", 4), frames=120, cache=cache)
    assert len(load_detections(cache)) == 120
    spy = ScaleSpy()
    again = track_video(_sim("badugi-limit", 4), detector_fn(spy), frames=120, cache=cache)
    assert spy.seen == 0 and again.found == first.found and first.found
    save_detections(tmp_path / "none.npz", [])
    assert load_detections(tmp_path / "none.npz") == []


def test_a_frame_limit_past_the_videos_end_scores_the_whole_video(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """`frames` at or past the video's length is the whole video: its last events (the button moving on) are
    compared, not cut as unsettled. A cut video drops the last 2 s of truth and of found events alike."""
    cache = tmp_path / "video.npz"
    whole = track_video(_sim("badugi-limit", 4), cache=cache)
    assert whole.truth[-1].kind == "button_moved"
    again = track_video(_sim("badugi-limit", 4), frames=10**6, cache=cache)
    assert again.truth == whole.truth and again.found == whole.found
    assert summarise([again]).recall == 1.0 and summarise([again]).precision == 1.0
    cut = track_video(_sim("badugi-limit", 4), frames=whole.frames - 15, cache=cache)
    horizon = whole.frames - 15 - 30
    assert cut.truth == tuple(e for e in whole.truth if e.frame < horizon) and cut.truth != whole.truth
    assert cut.found and all(e.frame < horizon for e in cut.found)


def test_truth_seat_counts_follow_the_events() -> None:
    from dealer_assist.synth.track_eval import truth_seat_counts
    from dealer_assist.vision.events import CardDealt, CardReplaced, CardsDiscarded, CardsGathered, SeatFolded

    events = [CardDealt(0.0, 1, 2), CardDealt(0.0, 2, 2), CardDealt(0.0, 3, 1), CardsDiscarded(0.0, 5, 2, 1),
              CardReplaced(0.0, 6, 2), SeatFolded(0.0, 7, 1), CardsGathered(0.0, 9)]
    counts = truth_seat_counts(events, 2, 10)
    assert counts[:, 2].tolist() == [0, 1, 2, 2, 2, 1, 2, 2, 2, 0]
    assert counts[:, 1].tolist() == [0, 0, 0, 1, 1, 1, 1, 0, 0, 0]


def test_seat_counts_catch_a_detector_that_sees_one_card_too_many() -> None:
    """A detector adding a back at every seat holding cards makes nearly every settled seat-frame over-counted."""
    from dealer_assist.synth.track_eval import seat_counts, truth_seat_counts

    sim = _sim("badugi-limit", 4)
    truth = truth_seat_counts(sim.truth.events, sim.profile.seat_count, sim.frame_count)
    right = seat_counts(sim, truth)
    assert right.settled > 200 and right.over == right.under == 0
    over = seat_counts(sim, truth + (truth > 0))
    assert over.over == over.settled and over.right == 0


@pytest.mark.parametrize(("game", "seed"), [("badugi-limit", 19), ("badugi-limit", 23), ("badacey-limit-triple", 1),
                                            ("badacey-limit-triple", 23)])
def test_every_injected_error_is_one_the_referee_flags_on_the_true_events(game: str, seed: int) -> None:
    """All four errors in one hand: the extra replacement goes to a seat the deal left whole. At a seat the deal left
    short the card makes the hand whole, which the referee (as the rules' simulator) takes for the short deal made
    up, so the injected error was no flag even on the true events (these seeds, before)."""
    from dealer_assist.audit.records import DealerAction
    from dealer_assist.audit.referee import Referee
    from dealer_assist.audit.table import TableConfig
    from dealer_assist.synth.hand_video import FLAG_OF_ERROR

    sim = SimulatedTable(game, seed, size=(320, 180), fps=15.0, errors=ERROR_KINDS)
    truth = sim.truth
    rules = HouseRules.preset(game)
    referee = Referee(TableConfig.for_profile(sim.profile, rules, truth.stacks_by_seat(), button=truth.button))
    actions = [DealerAction(int(a["seat"]), a["action"], a.get("amount"), t=float(a["t"])) for a in truth.actions]
    referee.feed_all(sorted([*truth.events, *actions], key=lambda i: (i.t, isinstance(i, DealerAction))))
    referee.close(sim.frame_count / sim.fps)
    got = sorted((f.kind.value, f.seat) for h in referee.hands for f in h.flags)
    assert got == sorted((FLAG_OF_ERROR[e.kind], e.seat) for e in truth.errors)


def test_a_pipeline_slower_than_the_camera_sees_only_the_frames_it_keeps_up_with(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """`process_fps`: a CPU that reads 5 frames a second of a 15 frames/s camera tracks every third frame (the
    others dropped, as a live source drops stale frames); the hand's events still come, stamped at kept frames."""
    from dealer_assist.errors import DealerAssistError
    from dealer_assist.vision.pipeline import Pipeline

    cache = tmp_path / "video.npz"
    track_video(_sim("badugi-limit", 4), cache=cache)
    fed: list[int] = []
    original = Pipeline.update_detections

    def spy(self, detections, t, frame):  # type: ignore[no-untyped-def]
        fed.append(frame)
        return original(self, detections, t, frame)

    Pipeline.update_detections = spy  # type: ignore[method-assign]
    try:
        slow = track_video(_sim("badugi-limit", 4), cache=cache, process_fps=5.0)
    finally:
        Pipeline.update_detections = original  # type: ignore[method-assign]
    assert fed[:4] == [0, 3, 6, 9] and all(b - a == 3 for a, b in itertools.pairwise(fed))
    assert all(e.frame % 3 == 0 for e in slow.found)
    assert summarise([slow]).recall >= 0.8        # truth with visibility: most events survive a third of the frames
    with pytest.raises(DealerAssistError, match="process_fps 0"):
        track_video(_sim("badugi-limit", 4), cache=cache, process_fps=0.0)
