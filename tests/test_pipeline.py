"""The whole chain, frame source to events, with a fake detector playing a scripted hand."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from table_camera import oblique_camera

from dealer_assist.vision.backends.fake_backend import FakeDetector
from dealer_assist.vision.calibration import CameraCalibration
from dealer_assist.vision.detections import Detections
from dealer_assist.vision.events import TableEvent, event_from_dict
from dealer_assist.vision.pipeline import Pipeline, ScriptedTable
from dealer_assist.vision.sources import FramesSource
from dealer_assist.vision.table_profile import oval_profile

FPS = 30.0


def _hand(seats: int) -> ScriptedTable:
    t = ScriptedTable(seats, FPS).button(seats).hold(1.0)
    players = [1, 3, 5]
    for _ in range(4):
        for s in players:
            t.deal(s).hold(0.35)
    t.occlude([3, 5], 0.3).hold(1.0)                       # the dealer's arm passes over two seats
    t.discard(1, 3).hold(1.0)
    for _ in range(3):
        t.deal(1).hold(0.35)
    t.hold(1.0).fold(3).hold(2.5)
    t.show(1, ["Ac", "2d", "3h", "4s"]).hold(0.5).show(5, ["As", "2s", "3s", "4d"]).hold(1.5)
    return t.gather().hold(1.5)


def test_end_to_end_with_fake_detector() -> None:
    profile = oval_profile(6)
    cal = oblique_camera(profile)
    script = _hand(6)
    detector = FakeDetector(script.detections(profile, cal))
    pipe = Pipeline.build(profile, cal, detector)
    blank = np.zeros((720, 1280, 3), np.uint8)
    source = FramesSource([blank] * len(script.observations), fps=FPS)
    events = [e for _, batch in pipe.run(source) for e in batch]
    kinds = [(e.kind, getattr(e, "seat", None)) for e in events]
    expected = [("button_moved", 6)] + [("dealt", s) for _ in range(4) for s in (1, 3, 5)]
    expected += [("discarded", 1)] + [("replaced", 1)] * 3
    expected += [("folded", 3), ("shown", 1), ("shown", 5), ("gathered", None)]
    assert kinds == expected
    assert events[13].to_dict()["count"] == 3
    assert [str(c) for c in events[-2].to_dict()["cards"]] == ["As", "2s", "3s", "4d"]
    assert detector.calls == len(script.observations) == pipe.stats.frames
    assert pipe.stats.events == len(events)
    # every event survives the trip to the hand log and back
    assert [event_from_dict(e.to_dict()) for e in events] == events
    assert pipe.last_observation is not None and pipe.tracker.seats == tuple(pipe.last_observation.seats)


def test_pipeline_latency_through_the_chain() -> None:
    profile = oval_profile(9)
    cal = oblique_camera(profile)
    script = ScriptedTable(9, FPS).hold(0.5)
    landing = script.frame
    script.deal(7).hold(1.0)
    pipe = Pipeline.build(profile, cal, FakeDetector(script.detections(profile, cal)))
    blank = np.zeros((8, 8, 3), np.uint8)
    emitted = [(frame.index, e) for frame, batch in pipe.run(FramesSource([blank] * script.frame, FPS))
               for e in batch]
    [(at, event)] = emitted
    assert event.kind == "dealt" and event.frame == landing
    assert (at - landing) / FPS <= 0.300


def test_score_events() -> None:
    from dealer_assist.cards import parse_card
    from dealer_assist.vision.events import CardDealt, CardsShown, SeatFolded
    from dealer_assist.vision.pipeline import score_events

    truth = [CardDealt(1.0, 30, 1), CardDealt(1.4, 42, 2), SeatFolded(5.0, 150, 2),
             CardsShown(9.0, 270, 1, (parse_card("Ah"), parse_card("2c")))]
    found = [CardDealt(1.05, 31, 1), CardDealt(1.5, 45, 3), SeatFolded(5.1, 153, 2),
             CardsShown(9.0, 270, 1, (parse_card("Ah"), parse_card("2c")))]
    s = score_events(truth, found)
    assert (s.matched, s.recall, s.precision) == (3, 0.75, 0.75)
    assert [e.kind for e in s.missed] == ["dealt"] and s.extra[0].to_dict()["seat"] == 3
    assert s.max_dt == pytest.approx(0.1)
    assert score_events(truth, truth).recall == 1.0 and score_events([], []).precision == 1.0
    assert score_events(truth, list(reversed(truth))).matched == 1          # order matters


def test_scripted_hand_scores_perfectly() -> None:
    from dealer_assist.vision.pipeline import score_events

    profile = oval_profile(6)
    cal = oblique_camera(profile)
    script = _hand(6)
    pipe = Pipeline.build(profile, cal, FakeDetector(script.detections(profile, cal)))
    blank = np.zeros((8, 8, 3), np.uint8)
    events = [e for _, batch in pipe.run(FramesSource([blank] * script.frame, FPS)) for e in batch]
    again = Pipeline.build(profile, cal, FakeDetector(script.detections(profile, cal)))
    replay = [e for _, batch in again.run(FramesSource([blank] * script.frame, FPS)) for e in batch]
    assert replay == events                                                  # deterministic
    assert score_events(events, replay).recall == 1.0


def _sim_events(seed: int) -> tuple[list[TableEvent], list[TableEvent]]:
    """Track a simulated hand (synth.hand_video) from its objects' exact positions: a perfect detector."""
    from dealer_assist.synth.hand_video import SimulatedTable
    from dealer_assist.vision.calibration import apply_homography
    from dealer_assist.vision.detections import Detections

    sim = SimulatedTable("badugi-limit", seed, fps=15.0, effects=0)
    truth = sim.truth
    pipe = Pipeline.build(sim.profile, sim.calibration, FakeDetector())
    found: list[TableEvent] = []
    for f in range(sim.frame_count):
        labels, points = [], []
        for p in sim.placements(f):
            if p.kind in ("card_face", "card_back", "button") and p.gt:
                labels.append("back" if p.kind == "card_back" else "button" if p.kind == "button" else str(p.card))
                points.append(p.xy)
        img = apply_homography(truth.homography, points) if points else np.zeros((0, 2))
        dets = Detections.from_labels(labels, np.concatenate([img - 5, img + 5], axis=1)) if points else \
            Detections.empty()
        found += pipe.update_detections(dets, f / sim.fps, f)
    found += pipe.flush()
    return [e for e in truth.events if e.kind != "burned"], found


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_simulated_hand_events_reproduced(seed: int) -> None:
    from dealer_assist.vision.pipeline import score_events

    truth, found = _sim_events(seed)
    score = score_events(truth, found, tolerance_s=1.5)
    assert score.recall == 1.0, score.missed
    assert [e.kind for e in score.extra] in ([], ["button_moved"])   # the button's first sighting


class ScaleSpy(FakeDetector):
    """A fake detector that records what the pipeline tells it of the card size, and counts the images it sees."""

    def __init__(self) -> None:
        super().__init__()
        self.told: list[tuple[float, tuple[int, int]]] = []
        self.seen = 0

    def expect_card_length(self, image_px: float, image_size: tuple[int, int]) -> None:
        self.told.append((image_px, image_size))

    def detect(self, image: np.ndarray) -> Detections:  # type: ignore[override]
        self.seen += 1
        return super().detect(image)


def test_pipeline_tells_a_scale_aware_detector_how_large_cards_look() -> None:
    from dealer_assist.vision.backends.common import shrinks_for_card
    from dealer_assist.vision.pipeline import card_length_px

    profile = oval_profile(9)
    cal = oblique_camera(profile)  # the whole table across 1280 px: about 5 px per cm
    spy = ScaleSpy()
    Pipeline.build(profile, cal, spy)
    assert len(spy.told) == 1 and spy.told[0][1] == (1280, 720)
    length = spy.told[0][0]
    assert length == pytest.approx(card_length_px(profile, cal))
    assert 40 < length < 90  # a card's 10.8 cm diagonal at 4 to 8 px per cm
    assert shrinks_for_card(length) == ()  # so the live detector reads each frame once
    # a camera over one seat sees the card six times larger: the detector keeps its shrunk reads
    w, h = profile.width_cm, profile.height_cm
    quad = np.float32([[0, 0], [6 * 1280, 0], [6 * 1280, 6 * 720], [0, 6 * 720]])
    close = CameraCalibration.from_table_to_image(
        cv2.getPerspectiveTransform(np.float32([[0, 0], [w, 0], [w, h], [0, h]]), quad), (1280, 720), profile.name)
    assert card_length_px(profile, close) > 5 * length


def test_pipeline_gives_the_mapper_the_games_hand_size() -> None:
    """The mapper's rule against a second box on one card needs the hand size: the tracker's game's, unless the
    mapper config names one."""
    from dealer_assist.vision.mapper import MapperConfig
    from dealer_assist.vision.tracker import TrackerConfig

    profile = oval_profile(6)
    cal = oblique_camera(profile)
    assert Pipeline.build(profile, cal, FakeDetector([])).mapper.config.hand_size == 4
    badacey = Pipeline.build(profile, cal, FakeDetector([]), TrackerConfig(hand_size=5))
    assert badacey.mapper.config.hand_size == 5
    own = Pipeline.build(profile, cal, FakeDetector([]), TrackerConfig(hand_size=5), MapperConfig(hand_size=7))
    assert own.mapper.config.hand_size == 7 and own.mapper.config.zone_margin_cm == MapperConfig().zone_margin_cm


def test_frames_of_another_size_than_the_calibration_are_refused() -> None:
    """A 1280x720 calibration on 320x180 frames put every card in the wrong place: no events and no error."""
    from dealer_assist.errors import DealerAssistError
    from dealer_assist.vision.frames import Frame

    class PixelReader(FakeDetector):
        reads_image = True

    profile = oval_profile(6)
    camera = oblique_camera(profile)
    pipe = Pipeline.build(profile, camera, PixelReader())
    w, h = camera.image_size
    pipe.update(Frame(np.zeros((h, w, 3), np.uint8), 0.0, 0))
    with pytest.raises(DealerAssistError, match=rf"the frames are 320x180 but .* made on {w}x{h} frames"):
        pipe.update(Frame(np.zeros((180, 320, 3), np.uint8), 0.1, 1))
