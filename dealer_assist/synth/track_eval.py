"""End to end on simulated hand videos: rendered frames -> detections -> Pipeline (mapper + tracker) -> events,
scored against the video's ground-truth events.

Two ways to get each frame's detections:

- `visible_detections` ("truth with visibility"): the renderer's per-object ground truth of the frame,
  keeping only what a detector can see, with the thresholds the detector is trained on
  (`synth.dataset`): a face-up card's index corner with at least `MIN_INDEX_VISIBLE` (0.5) of it
  showing (one detection per corner, its box, labelled with the card, as the ONNX backend reports
  index corners), a face-down card with at least `MIN_BACK_VISIBLE` (0.3) of it showing (the box of
  its outline), the button with at least `MIN_BUTTON_VISIBLE` (0.3). A card under a hand, a chip
  stack or the cards above it in a row is therefore missed, exactly as far as it is hidden.
- any `Detector` (the ONNX model in `models/`), fed the rendered image.

Scoring (`score_video`): the truth's events without `burned` (the camera does not see burns), against
the tracked events put back in time order 3 s behind the video as `dealer-assist audit` does (`time_ordered`),
matched in order by `vision.pipeline.score_events`. The tracker's first sighting
of the button (a `button_moved` before anything happened, when no button was known) is its starting
state, not an event, and is left out of the found events. An extra event stamped while a hand or a
chip stack passes over the table (`SimulatedTable.occluders`) counts as spurious from an occluder.
Latency is video time from the truth's landing frame to the frame whose update returned the event.

Phase hints: with `follow` (`track_video(sim, follow=...)`), something that follows the tracked events as the
product does (the benchmark passes the audit's `RefereeLoop`: a Referee fed the events and the video's dealer
actions in time order, `horizon_s` behind) gets each frame's events and then tells the pipeline's tracker the
hand's phase (`Pipeline.set_hint`). This module does not import `audit` (layers): it only calls `push` and
`advance`.
"""

from __future__ import annotations

import heapq
import itertools
import statistics
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

import numpy as np
import numpy.typing as npt

from dealer_assist.errors import DealerAssistError
from dealer_assist.rules.house_rules import HouseRules
from dealer_assist.synth.dataset import MIN_BACK_VISIBLE, MIN_BUTTON_VISIBLE, MIN_INDEX_VISIBLE
from dealer_assist.synth.hand_video import Occluder, SimulatedTable
from dealer_assist.synth.truth import ObjectTruth
from dealer_assist.vision.backends.fake_backend import FakeDetector
from dealer_assist.vision.detections import BACK_ID, BUTTON_ID, Detections
from dealer_assist.vision.detector import Detector
from dealer_assist.vision.events import (
    ButtonMoved,
    CardDealt,
    CardReplaced,
    CardsDiscarded,
    CardsGathered,
    SeatFolded,
    TableEvent,
)
from dealer_assist.vision.pipeline import EventScore, Pipeline, score_events
from dealer_assist.vision.tracker import TrackerConfig

Image = npt.NDArray[np.uint8]
DetectFn = Callable[[Image, list[ObjectTruth]], Detections]
ORDER_HORIZON_S = 3.0
"""As `dealer-assist audit --horizon`'s default."""


def _box(poly: Sequence[tuple[float, float]]) -> list[float]:
    xs = [p[0] for p in poly]
    ys = [p[1] for p in poly]
    return [min(xs), min(ys), max(xs), max(ys)]


def visible_detections(objects: Sequence[ObjectTruth], *, min_index: float = MIN_INDEX_VISIBLE,
                       min_back: float = MIN_BACK_VISIBLE, min_button: float = MIN_BUTTON_VISIBLE) -> Detections:
    """What a detector can see of a rendered frame's objects (see the module notes for the thresholds)."""
    boxes: list[list[float]] = []
    ids: list[int] = []
    for o in objects:
        if o.kind == "card_face" and o.card is not None:
            for corner in o.corners:
                if corner.visible >= min_index:
                    boxes.append(_box(corner.polygon))
                    ids.append(o.card.index)
        elif o.kind == "card_back" and o.visible >= min_back:
            boxes.append(_box(o.polygon))
            ids.append(BACK_ID)
        elif o.kind == "button" and o.visible >= min_button:
            boxes.append(_box(o.polygon))
            ids.append(BUTTON_ID)
    if not ids:
        return Detections.empty()
    return Detections.from_boxes(np.array(boxes, np.float32), np.full(len(ids), 0.9, np.float32),
                                 np.array(ids, np.int64))


@dataclass(frozen=True)
class DetectorFn:
    """A real detector as a `DetectFn` (it looks at the pixels only); `track_video` builds its pipeline round
    the detector, so that a scale-aware one hears the camera's card size as it would live."""

    detector: Detector

    def __call__(self, image: Image, _objects: list[ObjectTruth]) -> Detections:
        return self.detector.detect(image)


def detector_fn(detector: Detector) -> DetectFn:
    """A real detector as a `DetectFn`."""
    return DetectorFn(detector)


def truth_fn(image: Image, objects: list[ObjectTruth]) -> Detections:
    """`visible_detections` as a `DetectFn`."""
    return visible_detections(objects)


def time_ordered(found: Sequence[TableEvent], emitted: Sequence[float], horizon_s: float = ORDER_HORIZON_S,
                 ) -> tuple[list[TableEvent], list[float]]:
    """The events in the order the referee gets them: put back in time order `horizon_s` behind the video, as
    `audit.ordering.InputOrderer` does for `dealer-assist audit` (an event stamped when cards left a seat but
    known only once the next seat moved must not count as out of order)."""
    heap: list[tuple[float, int, TableEvent, float]] = []
    out: list[tuple[TableEvent, float]] = []
    released = float("-inf")

    def release(now: float) -> None:
        nonlocal released
        while heap and heap[0][0] <= now - horizon_s:
            t, _, event, at = heapq.heappop(heap)
            released = max(released, t)
            out.append((event, at))

    for seq, (event, at) in enumerate(zip(found, emitted, strict=True)):
        release(at)
        heapq.heappush(heap, (max(event.t, released), seq, event, at))
    release(float("inf"))
    return [e for e, _ in out], [a for _, a in out]


class Follower(Protocol):
    """Follows the tracked events (as `audit.loop.RefereeLoop` does) and may tell the pipeline the hand's phase."""

    def push(self, items: Iterable[TableEvent]) -> None: ...

    def advance(self, now: float) -> object: ...


FollowerFactory = Callable[[SimulatedTable, Pipeline], Follower]
"""Makes the follower of one video, given the video and the pipeline tracking it."""


@dataclass(frozen=True)
class SeatCounts:
    """How often the detector's card count at a seat matched the truth, over settled seat-frames: the seat holds
    cards, none arrived or left within `SETTLED_S`, and no hand or chip stack is passing. What the tracker can
    make events of is only as good as this (truth with visibility: about 99%)."""

    settled: int
    over: int
    under: int

    @property
    def right(self) -> int:
        return self.settled - self.over - self.under

    def __add__(self, other: SeatCounts) -> SeatCounts:
        return SeatCounts(self.settled + other.settled, self.over + other.over, self.under + other.under)


SETTLED_S = 0.7
LANDINGS = frozenset({"dealt", "replaced"})


def truth_seat_counts(events: Sequence[TableEvent], seats: int, frames: int) -> npt.NDArray[np.int64]:
    """(frames, seats + 1): the cards in front of each seat at each frame, from the truth's events (column 0 unused)."""
    out = np.zeros((frames, seats + 1), np.int64)
    count = [0] * (seats + 1)
    ordered = sorted(events, key=lambda e: e.frame)
    k = 0
    for f in range(frames):
        while k < len(ordered) and ordered[k].frame <= f:
            e, k = ordered[k], k + 1
            seat = getattr(e, "seat", None)
            if isinstance(e, CardDealt | CardReplaced) and seat:
                count[seat] += 1
            elif isinstance(e, CardsDiscarded):
                count[e.seat] -= e.count
            elif isinstance(e, SeatFolded):
                count[e.seat] = 0
            elif isinstance(e, CardsGathered):
                count = [0] * (seats + 1)
        out[f] = count
    return out


def seat_counts(sim: SimulatedTable, seen: npt.NDArray[np.int64]) -> SeatCounts:
    """Compare `seen` (frames, seats + 1), the mapper's count per seat and frame, with the truth's (see SeatCounts)."""
    frames, width = seen.shape
    truth = truth_seat_counts(sim.truth.events, width - 1, frames)
    near = round(SETTLED_S * sim.fps)
    busy = np.zeros_like(truth, dtype=bool)
    for e in sim.truth.events:
        seat = getattr(e, "seat", None)
        if seat:
            busy[max(0, e.frame - near):e.frame + near + 1, seat] = True
    for o in sim.occluders:
        busy[max(0, o.start - 2):o.end + 3, :] = True
    settled = (truth > 0) & ~busy
    settled[:, 0] = False
    return SeatCounts(int(settled.sum()), int((settled & (seen > truth)).sum()), int((settled & (seen < truth)).sum()))


def _unmatched(events: Sequence[TableEvent], others: Sequence[TableEvent], within_s: float) -> tuple[TableEvent, ...]:
    """The `events` with no event of `others` of the same kind and seat within `within_s`."""
    def key(e: TableEvent) -> tuple[str, object]:
        return e.kind, e.to_dict().get("seat")

    return tuple(e for e in events if not any(key(o) == key(e) and abs(o.t - e.t) <= within_s for o in others))


@dataclass(frozen=True)
class TrackedVideo:
    """One simulated hand tracked end to end."""

    seed: int
    game: str
    frames: int
    truth: tuple[TableEvent, ...]
    found: tuple[TableEvent, ...]
    emitted_at: tuple[float, ...]          # video time of the frame whose update returned each found event
    occluders: tuple[Occluder, ...]
    fps: float
    counts: SeatCounts = field(default_factory=lambda: SeatCounts(0, 0, 0))

    def score(self, tolerance_s: float = 1.5) -> EventScore:
        return score_events(self.truth, self.found, tolerance_s)

    def spurious_from_occluders(self, score: EventScore | None = None) -> tuple[TableEvent, ...]:
        """Extra events stamped while a hand or a chip stack was passing over the table."""
        s = score or self.score()
        return tuple(e for e in s.extra if any(o.start <= e.frame <= o.end for o in self.occluders))

    def invented(self, score: EventScore | None = None, within_s: float = 2.0) -> tuple[TableEvent, ...]:
        """Extra events with no truth event of the same kind and seat within `within_s` (not merely out of order,
        late or miscounted: something that did not happen)."""
        return _unmatched((score or self.score()).extra, self.truth, within_s)

    def unseen(self, score: EventScore | None = None, within_s: float = 2.0) -> tuple[TableEvent, ...]:
        """Truth events missed with no reported event of the same kind and seat within `within_s` (not merely out of
        order, late or miscounted: something the camera did not report at all); `invented`'s mirror."""
        return _unmatched((score or self.score()).missed, self.found, within_s)

    def latencies(self, score: EventScore | None = None, kinds: frozenset[str] | None = None) -> list[float]:
        """Seconds of video from each matched truth event (of `kinds`, or any) to the frame that reported it."""
        s = score or self.score()
        return [self.emitted_at[j] - self.truth[i].t for i, j in s.pairs
                if kinds is None or self.truth[i].kind in kinds]


def save_detections(path: Path, frames: Sequence[Detections]) -> None:
    """Each frame's detections in one .npz (the frames' boundaries, then all objects' polygons, scores, classes)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    bounds = np.cumsum([0, *(len(d) for d in frames)])
    empty = Detections.empty()
    with path.open("wb") as f:
        np.savez_compressed(f, bounds=bounds,
                            polygons=np.concatenate([d.polygons for d in frames] or [empty.polygons]),
                            confidence=np.concatenate([d.confidence for d in frames] or [empty.confidence]),
                            class_id=np.concatenate([d.class_id for d in frames] or [empty.class_id]))


def load_detections(path: Path) -> list[Detections]:
    """What `save_detections` wrote."""
    with np.load(path) as data:
        bounds, polys, conf, ids = data["bounds"], data["polygons"], data["confidence"], data["class_id"]
    return [Detections.from_polygons(polys[a:b], conf[a:b], ids[a:b]) for a, b in itertools.pairwise(bounds)]


def track_video(sim: SimulatedTable, detect: DetectFn = truth_fn, *, frames: int | None = None,
                horizon_s: float = ORDER_HORIZON_S, follow: FollowerFactory | None = None,
                cache: Path | None = None, process_fps: float | None = None) -> TrackedVideo:
    """Render every frame (or the first `frames`), detect, map and track; the truth is cut to the same span.

    `follow`: makes a follower that gets each frame's events, then `advance(t)` (it may give the pipeline phase
    hints); without it the tracker gets no hints. `cache`: a file of the frames' detections (`save_detections`);
    when it holds enough frames nothing is rendered or detected (to try tracker changes on a slow detector's
    output), else it is written. `process_fps`: the pipeline keeps up with only this many frames a second (a slow
    CPU): once free it takes the newest frame that has come, and the ones before it are dropped, as a live source
    drops stale frames (`vision.sources`), so the tracker and the follower see only the frames it took (every
    frame is still detected, so that a cache is whole)."""
    if process_fps is not None and not process_fps > 0:
        raise DealerAssistError(f"process_fps {process_fps} must be a positive number of frames a second")
    truth = sim.truth
    rules = HouseRules.preset(truth.game)
    calibration = sim.calibration
    detector = detect.detector if isinstance(detect, DetectorFn) else FakeDetector()
    pipe = Pipeline.build(sim.profile, calibration, detector,
                          TrackerConfig(hand_size=rules.hand_size, draw_procedure=rules.draw_procedure))
    follower = follow(sim, pipe) if follow is not None else None
    n = sim.frame_count if frames is None else min(frames, sim.frame_count)
    found: list[TableEvent] = []
    emitted: list[float] = []
    cached = load_detections(cache) if cache is not None and cache.is_file() else []
    seen: list[Detections] = []
    counts = np.zeros((n, sim.profile.seat_count + 1), np.int64)
    free_at = float("-inf")     # when the pipeline is done with the frame it is on
    for f in range(n):
        if len(cached) >= n:
            detections = cached[f]
        else:
            image, objects = sim.render_frame_truth(f)
            detections = detect(image, objects)
            seen.append(detections)
        if process_fps is not None:
            start = max(f / sim.fps, free_at)
            if (f + 1) / sim.fps <= start + 1e-9:    # a newer frame is there once the pipeline is free: this one drops
                counts[f] = counts[f - 1]
                continue
            free_at = start + 1.0 / process_fps
        batch = pipe.update_detections(detections, f / sim.fps, f)
        if pipe.last_observation is not None:
            counts[f, 1:] = [v.count for v in pipe.last_observation.seats]
        if follower is not None:
            follower.push(batch)
            follower.advance(f / sim.fps)
        found += batch
        emitted += [f / sim.fps] * len(batch)
    if cache is not None and seen:
        save_detections(cache, seen)
    tail = pipe.flush()
    found += tail
    emitted += [(n - 1) / sim.fps] * len(tail)
    if found and isinstance(found[0], ButtonMoved) and found[0].frame <= sim.fps * 0.5:
        found, emitted = found[1:], emitted[1:]          # the button's first sighting: the starting state
    found, emitted = time_ordered(found, emitted, horizon_s)
    # A cut video is compared up to 2 s before the cut, both ways: later events could not have settled yet.
    horizon = n if n == sim.frame_count else n - round(2.0 * sim.fps)
    want = tuple(e for e in truth.events if e.kind != "burned" and e.frame < horizon)
    kept = [k for k, e in enumerate(found) if e.frame < horizon]
    found, emitted = [found[k] for k in kept], [emitted[k] for k in kept]
    return TrackedVideo(truth.seed, truth.game, n, want, tuple(found), tuple(emitted), sim.occluders, sim.fps,
                        seat_counts(sim, counts))


@dataclass(frozen=True)
class Summary:
    """Figures over several tracked videos."""

    truth: int
    matched: int
    found: int
    spurious_occluders: int
    invented: int
    latency_median_ms: float
    latency_max_ms: float
    missed: tuple[tuple[int, TableEvent], ...]
    extra: tuple[tuple[int, TableEvent], ...]
    counts: SeatCounts = field(default_factory=lambda: SeatCounts(0, 0, 0))
    landings_ms: tuple[float, ...] = ()
    """Each matched card landing's (dealt, replaced) latency: the issue's budget is 300 ms of video."""

    def landing_share_within(self, ms: float) -> float:
        """The share of matched card landings reported within `ms` of video (nan: none matched)."""
        if not self.landings_ms:
            return float("nan")
        return sum(x <= ms + 1e-6 for x in self.landings_ms) / len(self.landings_ms)

    @property
    def recall(self) -> float:
        return self.matched / self.truth if self.truth else 1.0

    @property
    def precision(self) -> float:
        return self.matched / self.found if self.found else 1.0


def summarise(videos: Sequence[TrackedVideo], tolerance_s: float = 1.5) -> Summary:
    truth = matched = found = spurious = invented = 0
    lat: list[float] = []
    landings: list[float] = []
    missed: list[tuple[int, TableEvent]] = []
    extra: list[tuple[int, TableEvent]] = []
    for v in videos:
        s = v.score(tolerance_s)
        truth, matched, found = truth + s.truth, matched + s.matched, found + s.found
        spurious += len(v.spurious_from_occluders(s))
        invented += len(v.invented(s))
        lat += v.latencies(s)
        landings += v.latencies(s, LANDINGS)
        missed += [(v.seed, e) for e in s.missed]
        extra += [(v.seed, e) for e in s.extra]
    med = statistics.median(lat) * 1000 if lat else float("nan")
    return Summary(truth, matched, found, spurious, invented, med, max(lat) * 1000 if lat else float("nan"),
                   tuple(missed), tuple(extra), sum((v.counts for v in videos), SeatCounts(0, 0, 0)),
                   tuple(sorted(x * 1000 for x in landings)))
