"""The vision chain: Frame -> Detector -> TableMapper -> Tracker -> table events, one `update(frame)` call.

Also a scripted table (`ScriptedTable`): per-frame zone contents written as a little story (deal a card,
hold, occlude, gather), turned into observations for the Tracker or into image-space detections for a
fake detector, so the whole chain is testable with no model and no video.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from dealer_assist.cards import Card, parse_card
from dealer_assist.errors import DealerAssistError
from dealer_assist.vision.calibration import CameraCalibration
from dealer_assist.vision.detections import BACK_ID, BUTTON_ID, Detections
from dealer_assist.vision.detector import CameraBar, Detector, ScaleAware
from dealer_assist.vision.events import TableEvent
from dealer_assist.vision.frames import Frame, FrameSource
from dealer_assist.vision.mapper import EMPTY, MapperConfig, TableMapper, TableObservation, ZoneView
from dealer_assist.vision.table_profile import Point, TableProfile
from dealer_assist.vision.tracker import PhaseHint, Tracker, TrackerConfig
from dealer_assist.vision.white_reference import WhiteReference

CARD_W_CM, CARD_H_CM = 6.3, 8.8


@dataclass(slots=True)
class PipelineStats:
    """Running totals: frames processed and seconds spent in detection and in mapping + tracking."""

    frames: int = 0
    events: int = 0
    detect_s: float = 0.0
    track_s: float = 0.0

    @property
    def fps(self) -> float:
        spent = self.detect_s + self.track_s
        return self.frames / spent if spent > 0 else 0.0


def card_length_px(profile: TableProfile, calibration: CameraCalibration) -> float:
    """The longest a card can look in this camera's frames (its diagonal, at the nearest card spot), image px."""
    spots = [s.card_spot for s in profile.seats]
    spots += [tuple(np.mean(np.asarray(area), axis=0)) for area in (profile.muck, profile.stub, profile.pot)]
    return float(calibration.lengths_px(spots, math.hypot(CARD_W_CM, CARD_H_CM)).max())


class Pipeline:
    """One table's vision chain. `update(frame)` returns the events that frame confirmed."""

    def __init__(self, detector: Detector, mapper: TableMapper, tracker: Tracker,
                 white: WhiteReference | None = None) -> None:
        self.detector = detector
        self.mapper = mapper
        self.tracker = tracker
        self.stats = PipelineStats()
        self.last_detections: Detections = Detections.empty()
        self.last_observation: TableObservation | None = None
        # the light's colour and the exposure, from calibration and then from the rail markers in the frames
        self.white = white or WhiteReference({}, "", mapper.calibration.white_balance)

    @classmethod
    def build(cls, profile: TableProfile, calibration: CameraCalibration, detector: Detector,
              tracker_config: TrackerConfig | None = None, mapper_config: MapperConfig | None = None) -> Pipeline:
        """The chain for a profile and its camera calibration (which also tells a scale-aware detector how large
        the cards look, so that it reads each frame only at the scales it needs)."""
        if isinstance(detector, ScaleAware):
            detector.expect_card_length(card_length_px(profile, calibration), calibration.image_size)
        if isinstance(detector, CameraBar):
            detector.use_camera_bar()
        mapper_config = mapper_config or MapperConfig()
        if mapper_config.hand_size is None:          # the tracker's game: more cards than a hand need a closer look
            mapper_config = replace(mapper_config, hand_size=(tracker_config or TrackerConfig()).hand_size)
        return cls(detector, TableMapper(profile, calibration, mapper_config),
                   Tracker(profile.seat_count, tracker_config), WhiteReference.for_table(profile, calibration))

    def update(self, frame: Frame) -> list[TableEvent]:
        """Detect, map and track one frame."""
        cal = self.mapper.calibration
        h, w = frame.image.shape[:2]
        if (w, h) != tuple(cal.image_size) and getattr(self.detector, "reads_image", True):
            # Another frame size maps every card to the wrong place on the table: no event, no error, no flag.
            raise DealerAssistError(
                f"the frames are {w}x{h} but the camera calibration for table {cal.table!r} was made on "
                f"{cal.image_size[0]}x{cal.image_size[1]} frames; calibrate this camera at {w}x{h} "
                "(dealer-assist calibrate) or record at the calibrated size")
        t0 = time.perf_counter()
        detections = self.detector.detect(self.white.update(frame.image).apply(frame.image))
        t1 = time.perf_counter()
        events = self.update_detections(detections, frame.t, frame.index)
        self.stats.detect_s += t1 - t0
        self.stats.track_s += time.perf_counter() - t1
        return events

    def update_detections(self, detections: Detections, t: float, index: int) -> list[TableEvent]:
        """Map and track detections already made for the frame at time `t`, index `index`."""
        self.last_detections = detections
        self.last_observation = self.mapper.update(detections, t, index)
        events = self.tracker.update(self.last_observation)
        self.stats.frames += 1
        self.stats.events += len(events)
        return events

    def set_hint(self, hint: PhaseHint) -> None:
        """The referee's phase hint, for the tracker (`Tracker.set_hint`)."""
        self.tracker.set_hint(hint)

    def flush(self) -> list[TableEvent]:
        """At the end of the source: events still waiting on what comes next."""
        events = self.tracker.flush()
        self.stats.events += len(events)
        return events

    def run(self, source: FrameSource) -> Iterator[tuple[Frame, list[TableEvent]]]:
        """Every frame of a finite source with the events it confirmed (the last item holds the flushed ones)."""
        last: Frame | None = None
        try:
            while (frame := source.read()) is not None:
                last = frame
                yield frame, self.update(frame)
        finally:
            source.close()
        if last is not None:
            tail = self.flush()
            if tail:
                yield last, tail


# -- a scripted table --------------------------------------------------------------------------------


def _view(backs: int = 0, face_up: Iterable[Card | str] = ()) -> ZoneView:
    return ZoneView(backs, frozenset(parse_card(c) for c in face_up))


@dataclass
class ScriptedTable:
    """Writes per-frame zone contents as a story: `deal(3)`, `hold(0.5)`, `occlude([2, 3], 0.3)`, ...

    `observations` is what a perfect mapper would report each frame; `detections(profile, calibration)`
    turns them into image-space detections for a fake detector.
    """

    seats: int
    fps: float = 30.0
    observations: list[TableObservation] = field(default_factory=list)
    _seats: list[ZoneView] = field(init=False)
    _muck: ZoneView = EMPTY
    _stub: ZoneView = EMPTY
    _button: int | None = None
    _going: dict[int, int] = field(default_factory=dict)     # seat -> frames its leaving cards stay in sight

    def __post_init__(self) -> None:
        self._seats = [EMPTY] * self.seats

    def _leaving(self, seat: int) -> None:
        """Cards leave `seat`: they are seen loose beside it for 0.2 s (a real toss or push is visible)."""
        self._going[seat] = max(1, round(0.2 * self.fps))

    @property
    def t(self) -> float:
        """The time of the next frame."""
        return len(self.observations) / self.fps

    @property
    def frame(self) -> int:
        """The index of the next frame."""
        return len(self.observations)

    def _obs(self, seats: Sequence[ZoneView] | None = None, show_button: bool = True) -> TableObservation:
        loose = tuple(1 if self._going.get(n, 0) > 0 else 0 for n in range(1, self.seats + 1))
        self._going = {n: k - 1 for n, k in self._going.items() if k > 1}
        return TableObservation(self.t, self.frame, tuple(seats or self._seats), self._muck, self._stub, EMPTY,
                                self._button if show_button else None, sum(loose), loose)

    def hold(self, seconds: float) -> ScriptedTable:
        """Frames of the current state for `seconds`."""
        for _ in range(max(0, round(seconds * self.fps))):
            self.observations.append(self._obs())
        return self

    def set(self, seat: int, backs: int = 0, face_up: Iterable[Card | str] = ()) -> ScriptedTable:
        """A seat's contents from now on (cards it loses are seen going)."""
        view = _view(backs, face_up)
        if view.count < self._seats[seat - 1].count:
            self._leaving(seat)
        self._seats[seat - 1] = view
        return self

    def miscount(self, seat: int, backs: int, seen_going: bool = False) -> ScriptedTable:
        """The detector counts `backs` face-down cards at a seat from now on, with nothing seen going or coming (a
        second box on one card appearing or gone); `seen_going`: a card is seen loose beside the seat as it falls
        (one pitched to the next seat flew past)."""
        if seen_going:
            self._leaving(seat)
        self._seats[seat - 1] = ZoneView(backs, self._seats[seat - 1].face_up)
        return self

    def deal(self, seat: int, card: Card | str | None = None) -> ScriptedTable:
        """One card lands at a seat (face down, or face up when `card` is given)."""
        v = self._seats[seat - 1]
        self._seats[seat - 1] = (ZoneView(v.backs + 1, v.face_up) if card is None
                                 else ZoneView(v.backs, v.face_up | {parse_card(card)}))
        return self

    def discard(self, seat: int, count: int) -> ScriptedTable:
        """`count` face-down cards leave a seat for the muck."""
        v = self._seats[seat - 1]
        self._seats[seat - 1] = ZoneView(v.backs - count, v.face_up)
        self._leaving(seat)
        self._muck = ZoneView(self._muck.backs + count)
        return self

    def burn(self) -> ScriptedTable:
        """One card from the stub to the muck, face down: the muck grows with nothing loose beside any seat."""
        self._muck = ZoneView(self._muck.backs + 1)
        return self

    def fold(self, seat: int) -> ScriptedTable:
        """All of a seat's cards go into the muck."""
        self._muck = ZoneView(self._muck.backs + self._seats[seat - 1].count)
        self._seats[seat - 1] = EMPTY
        self._leaving(seat)
        return self

    def show(self, seat: int, cards: Iterable[Card | str]) -> ScriptedTable:
        """The seat turns its hand face up."""
        self._seats[seat - 1] = _view(0, cards)
        return self

    def flip(self, seat: int, card: Card | str) -> ScriptedTable:
        """One face-down card of a seat is turned face up."""
        v = self._seats[seat - 1]
        self._seats[seat - 1] = ZoneView(v.backs - 1, v.face_up | {parse_card(card)})
        return self

    def expose_on_stub(self, card: Card | str | None) -> ScriptedTable:
        self._stub = _view(0, [card] if card else [])
        return self

    def gather(self, seen_going: bool = True) -> ScriptedTable:
        """Every seat and the muck cleared (without `seen_going`, nothing is seen loose by the seats: the dealer's
        arm sweeps their cards straight in with the muck)."""
        for n, v in enumerate(self._seats, 1):
            if v.count and seen_going:
                self._leaving(n)
        self._seats = [EMPTY] * self.seats
        self._muck = EMPTY
        return self

    def button(self, seat: int | None) -> ScriptedTable:
        self._button = seat
        return self

    def occlude(self, seats: Iterable[int], seconds: float, *, spurious: int = 0) -> ScriptedTable:
        """A hand over `seats` for `seconds`: their cards vanish (or, with `spurious`, extra backs appear)."""
        hidden = set(seats)
        for _ in range(max(0, round(seconds * self.fps))):
            views = [(ZoneView(v.backs + spurious, v.face_up) if spurious else EMPTY) if i in hidden else v
                     for i, v in enumerate(self._seats, 1)]
            self.observations.append(self._obs(views, show_button=False))
        return self

    def detections(self, profile: TableProfile, calibration: CameraCalibration) -> list[Detections]:
        """Each observation as image-space detections: cards drawn at their seat's card spot."""
        return [observation_to_detections(o, profile, calibration) for o in self.observations]


def _card_polygon(centre: Point, angle_deg: float) -> np.ndarray:
    a = math.radians(angle_deg)
    u = np.array([math.cos(a), math.sin(a)])       # along the card's long side, toward the table's middle
    v = np.array([-u[1], u[0]])
    c = np.asarray(centre, dtype=np.float64)
    h, w = CARD_H_CM / 2, CARD_W_CM / 2
    return np.array([c - u * h - v * w, c - u * h + v * w, c + u * h + v * w, c + u * h - v * w])


def observation_to_detections(obs: TableObservation, profile: TableProfile,
                              calibration: CameraCalibration) -> Detections:
    """Image-space detections that a perfect detector would report for an observation."""
    polys: list[np.ndarray] = []
    ids: list[int] = []

    def spread(centre: Point, facing: float, view: ZoneView) -> None:
        a = math.radians(facing)
        side = np.array([-math.sin(a), math.cos(a)])        # along the rail
        items = [BACK_ID] * view.backs + sorted(c.index for c in view.face_up)
        for k, cid in enumerate(items):
            offset = (k - (len(items) - 1) / 2) * 2.2           # a slight fan, 2.2 cm apart
            c = np.asarray(centre) + side * offset
            polys.append(_card_polygon((float(c[0]), float(c[1])), facing))
            ids.append(cid)

    for seat, view in zip(profile.seats, obs.seats, strict=True):
        spread(seat.card_spot, seat.facing_deg, view)
    for seat, n in zip(profile.seats, obs.loose, strict=False):
        if n:                                   # cards on their way out: just past the zone, toward the middle
            a = math.radians(seat.facing_deg)
            spot = (seat.card_spot[0] + 19 * math.cos(a), seat.card_spot[1] + 19 * math.sin(a))
            spread(spot, seat.facing_deg, ZoneView(n))
    for poly, view in ((profile.muck, obs.muck), (profile.stub, obs.stub), (profile.pot, obs.pot)):
        centre = np.asarray(poly).mean(axis=0)
        spread((float(centre[0]), float(centre[1])), -90.0, ZoneView(min(view.backs, 8), view.face_up))
    if obs.button_seat is not None:
        bx, by = profile.seat(obs.button_seat).button_spot
        polys.append(np.array([[bx - 2, by - 2], [bx + 2, by - 2], [bx + 2, by + 2], [bx - 2, by + 2]]))
        ids.append(BUTTON_ID)
    if not polys:
        return Detections.empty()
    table = np.stack(polys)
    image = calibration.to_image(table.reshape(-1, 2)).reshape(-1, 4, 2)
    return Detections.from_polygons(image, np.full(len(ids), 0.95), np.array(ids))


def measure_landing_latency(fps: float = 30.0, config: TrackerConfig | None = None, seats: int = 9,
                            occluded_frames: int = 0) -> float:
    """Worst video time (s) from a card landing to its event, over every seat (for benchmarks and tests).

    With `occluded_frames`, the landed card is missed for that many frames right after it lands.
    """
    worst = 0.0
    for seat in range(1, seats + 1):
        table = ScriptedTable(seats, fps).hold(0.5)
        landing = table.frame
        table.deal(seat).hold(2 / fps)
        if occluded_frames:
            table.occlude([seat], occluded_frames / fps)
        table.hold(1.0)
        tracker = Tracker(seats, config)
        emitted = next((o.frame for o in table.observations if tracker.update(o)), None)
        if emitted is None:
            return float("inf")
        worst = max(worst, (emitted - landing) / fps)
    return worst


@dataclass(frozen=True, slots=True)
class EventScore:
    """How a tracked event stream compares with the truth: matched in order, missed, extra, time error."""

    truth: int
    found: int
    matched: int
    max_dt: float
    mean_dt: float
    missed: tuple[TableEvent, ...]
    extra: tuple[TableEvent, ...]
    pairs: tuple[tuple[int, int], ...] = ()
    """(index in truth, index in found) of each match, in order."""

    @property
    def recall(self) -> float:
        return self.matched / self.truth if self.truth else 1.0

    @property
    def precision(self) -> float:
        return self.matched / self.found if self.found else 1.0


def _same_event(a: TableEvent, b: TableEvent, tolerance_s: float) -> bool:
    if a.kind != b.kind or abs(a.t - b.t) > tolerance_s:
        return False
    da, db = a.to_dict(), b.to_dict()
    if any(da.get(key) != db.get(key) for key in ("seat", "count")):
        return False
    # a face the truth names must be the face seen, when one was seen (in any order)
    if da.get("card") and db.get("card") and da["card"] != db["card"]:
        return False
    return not (da.get("cards") and db.get("cards") and sorted(da["cards"]) != sorted(db["cards"]))


def score_events(truth: Sequence[TableEvent], found: Sequence[TableEvent], tolerance_s: float = 1.0) -> EventScore:
    """Match `found` against `truth` in order (longest common subsequence of same kind, seat, count and
    face within `tolerance_s`): what a benchmark reports as events reproduced, in order."""
    n, m = len(truth), len(found)
    best = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        for j in range(m - 1, -1, -1):
            best[i][j] = (best[i + 1][j + 1] + 1 if _same_event(truth[i], found[j], tolerance_s)
                          else max(best[i + 1][j], best[i][j + 1]))
    i = j = 0
    pairs: list[tuple[int, int]] = []
    while i < n and j < m:
        if _same_event(truth[i], found[j], tolerance_s) and best[i][j] == best[i + 1][j + 1] + 1:
            pairs.append((i, j))
            i, j = i + 1, j + 1
        elif best[i + 1][j] >= best[i][j + 1]:
            i += 1
        else:
            j += 1
    dts = [abs(truth[a].t - found[b].t) for a, b in pairs]
    hit_t, hit_f = {a for a, _ in pairs}, {b for _, b in pairs}
    return EventScore(n, m, len(pairs), max(dts, default=0.0), sum(dts) / len(dts) if dts else 0.0,
                      tuple(e for k, e in enumerate(truth) if k not in hit_t),
                      tuple(e for k, e in enumerate(found) if k not in hit_f), tuple(pairs))
