"""Table events end to end on simulated hand videos with held-out deck designs.

    .venv/bin/python benchmarks/vision_events.py [--seeds 0-5] [--games badugi-limit,badacey-limit-triple]
        [--errors all] [--size 640x360] [--onnx-frames 300] [--onnx-size 1280x720] [--model models/]
        [--hints referee|none] [--felt-print N] [--verbose] [--cache DIR] [--keyed-shows S]
        [--floor-award shows|mucks|strike|missed]

Each video (`synth.hand_video.SimulatedTable`, a held-out face and back design, fps 15) is rendered
frame by frame, turned into detections, run through the Pipeline (mapper + tracker) and scored
against the video's ground-truth events in order (`synth.track_eval`, `vision.pipeline.score_events`):

- `truth_*`: "truth with visibility", the renderer's per-object ground truth keeping only what a
  detector can see (index corners >= 0.5 visible, backs and the button >= 0.3: the thresholds the
  detector's training labels use, `synth.dataset`);
- `onnx_*`: the trained detector in `models/` on the rendered 1280x720 frames (`--onnx-size`; the first
  `--onnx-frames` of each video, fewer seeds: it is slower), when a model is there.

Prints `name: value` lines: events_recall_in_order, events_precision, spurious_events_from_occluders
(extra events stamped while a hand or chip stack passes over the table), invented_events (extra events
with no truth event of their kind and seat within 2 s), event_latency_ms_median
(video time from the truth event to the frame that reported it) and the worst latency; landing_latency_ms_median /
_p95 / _max and landings_within_300ms: the same for the cards dealt and replaced alone (the issue's budget: a card
landing is an event within 300 ms of video); seat_count_right /
_over / _under: how often the mapper's card count at a seat matched the truth's, over settled seat-frames (the
seat holds cards, nothing came or went there within 0.7 s, no hand or chips passing; `synth.track_eval.SeatCounts`).
With referee hints, for each whole ONNX video: onnx_awards_right / _wrong / _none, the referee's award against the one
it makes from the video's true events and the same dealer actions (none: it awarded nothing, the floor decides);
onnx_injected_errors_flagged (the injected dealer errors whose flag, `FLAG_OF_ERROR`, the referee raised at their
seat), onnx_other_flags_with_errors and onnx_flags_on_clean_hands (`audit` must raise exactly the injected flags);
onnx_unread_show_flags_on_clean_hands: of the last, those saying a shown hand went partly unread and the floor awards
the pots (`hand_run.UNREAD_SHOW`: the camera's limit, not a dealer error).
Per-video errors are injected on every other seed (`--errors`).
`--keyed-shows SECONDS`: the dealer keys in every shown hand that long after it is turned up (`CardsShown.entered`,
as the app's Live mode and `audit --actions` take it), so the awards measure the referee and tracker with the shown
hands read at the table, not by the camera.
`--floor-award shows|mucks|strike|missed`: the referee records each ONNX video's hand into a hand log, and after the
hand the floor keys in what a reviewer of the video would (`log correct`'s path, `store.floor_award`): every hand shown
(`shows`), also every seat that mucked at the showdown (`mucks`), also strikes each card event the tracker invented
(`strike`: no truth card of that seat within 2 s), also adds each card, discard or fold in the betting the tracker did
not report at all (`missed`: no reported event of that kind at that seat within 2 s). onnx_floor_awards_right /
_wrong / _none: the floor's award (or the camera's, where keying changes nothing) against the true events'.
`--verbose` also lists the missed and extra events and, for each whole ONNX video, the referee's flags no injected
error explains and the injected errors it raised no flag for.
`--felt-print N` lays N pieces of print on every video's felt (lettering and lone printed chips, as a real
felt carries; `scene.random_print`): no event may come of them.

`--cache DIR` keeps the ONNX run's detections per video (keyed by game, seed, errors, frames and the model files'
sizes and times): a second run with the same models replays them without rendering or detecting, to try
mapper and tracker changes in seconds.

Phase hints (`--hints referee`, the default): as `dealer-assist audit` does, a Referee follows the tracked events
and the video's dealer actions (the truth's `actions`, as the dealer entered them) put back in time order
`--horizon` seconds behind the video (`audit.loop.RefereeLoop`), and after each frame tells the tracker the
hand's phase as it sees it, the seats it knows have folded, and the video time it has followed the table up to.
The phases come from the referee, not from the video's ground truth; the dealer actions are the truth's.
`--hints none`: no hints, the tracker infers from the table alone.
"""

from __future__ import annotations

import argparse
import hashlib
import random
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
import numpy.typing as npt

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from dealer_assist.audit.hand_run import UNREAD_SHOW  # noqa: E402
from dealer_assist.audit.loop import RefereeLoop  # noqa: E402
from dealer_assist.audit.outputs import REFEREE_BY  # noqa: E402
from dealer_assist.audit.records import DealerAction, Flag  # noqa: E402
from dealer_assist.audit.referee import Referee  # noqa: E402
from dealer_assist.audit.table import TableConfig  # noqa: E402
from dealer_assist.rules.house_rules import HouseRules  # noqa: E402
from dealer_assist.store import HandLog, StoredEvent  # noqa: E402
from dealer_assist.store.floor_award import current_award, record_floor_award  # noqa: E402
from dealer_assist.store.records import MISSED_EVENT_KINDS  # noqa: E402
from dealer_assist.store.sink import HandLogSink  # noqa: E402
from dealer_assist.synth.hand_video import ERROR_KINDS, FLAG_OF_ERROR, InjectedError, SimulatedTable  # noqa: E402
from dealer_assist.synth.lighting import LIGHT_CASTS, cast_light  # noqa: E402
from dealer_assist.synth.track_eval import (  # noqa: E402
    DetectFn,
    DetectorFn,
    FollowerFactory,
    TrackedVideo,
    detector_fn,
    summarise,
    track_video,
)
from dealer_assist.synth.truth import ObjectTruth  # noqa: E402
from dealer_assist.vision.calibration import CalibrationError, calibrate_from_aruco  # noqa: E402
from dealer_assist.vision.detections import Detections  # noqa: E402
from dealer_assist.vision.detector import Detector  # noqa: E402
from dealer_assist.vision.events import CardsShown, SeatFolded, TableEvent  # noqa: E402
from dealer_assist.vision.pipeline import Pipeline  # noqa: E402
from dealer_assist.vision.white_balance import WhiteBalance  # noqa: E402
from dealer_assist.vision.white_reference import WhiteReference  # noqa: E402


def _seeds(text: str) -> list[int]:
    out: list[int] = []
    for part in text.split(","):
        if "-" in part:
            a, b = part.split("-")
            out += list(range(int(a), int(b) + 1))
        elif part:
            out.append(int(part))
    return out


def _referee(sim: SimulatedTable) -> Referee:
    """A Referee for the video's table: its seats, chips (the stacks the truth records, as `dealer-assist audit` reads
    them: the default 40 big blinds or bets each unless the video was made with short stacks) and button."""
    truth = sim.truth
    rules = HouseRules.preset(truth.game)
    return Referee(TableConfig.for_profile(sim.profile, rules, truth.stacks_by_seat(), button=truth.button))


def _actions(sim: SimulatedTable) -> list[DealerAction]:
    return [DealerAction(int(a["seat"]), a["action"], a.get("amount"), t=float(a["t"])) for a in sim.truth.actions]


def truth_referee(sim: SimulatedTable, actions: list[DealerAction] | None = None) -> Referee:
    """The video's referee fed its true events and the dealer's `actions` (the truth's, on time, by default) in time
    order, closed at the video's end."""
    referee = _referee(sim)
    items: list[TableEvent | DealerAction] = [*sim.truth.events, *(_actions(sim) if actions is None else actions)]
    referee.feed_all(sorted(items, key=lambda i: (i.t, isinstance(i, DealerAction))))
    referee.close(sim.frame_count / sim.fps)
    return referee


def lagged(actions: list[DealerAction], lag: float | str, seed: str) -> list[DealerAction]:
    """The actions as a dealer keys them: each `lag` seconds after it was made, or a time drawn evenly from "A:B"
    (seeded), in the order they were made (a dealer keys one say after the other, at least 0.1 s apart)."""
    lo, _, hi = str(lag).partition(":")
    rng = random.Random(seed)
    out: list[DealerAction] = []
    for a in sorted(actions, key=lambda a: a.t):
        t = max(0.0, a.t + rng.uniform(float(lo), float(hi or lo)))
        out.append(replace(a, t=max(t, out[-1].t + 0.1) if out and hi else t))
    return out


def keyed_shows(sim: SimulatedTable, delay_s: float) -> list[CardsShown]:
    """Each hand shown in the video as the dealer keys it in (`CardsShown.entered`): `delay_s` after it is turned up,
    and before the cards are gathered."""
    gathered = min((e.t for e in sim.truth.events if e.kind == "gathered"), default=sim.frame_count / sim.fps)
    out = []
    for e in sim.truth.events:
        if isinstance(e, CardsShown):
            t = min(e.t + delay_s, max(e.t, gathered - 0.5))
            out.append(CardsShown(t, round(t * sim.fps), e.seat, e.cards, entered=True))
    return out


def referee_follower(horizon_s: float, loops: list[RefereeLoop] | None = None,
                     keyed_delay_s: float | None = None, logs: list[HandLog] | None = None,
                     action_lag_s: float | str = 0.0) -> FollowerFactory:
    """A Referee loop for each video (its seats, chips, button and dealer actions, each keyed `action_lag_s` after
    the player acted; with `keyed_delay_s`, also each shown hand keyed in by the dealer that long after it was turned
    up), giving the tracker phase hints; each loop made is appended to `loops`. With `logs`, each referee records into
    a new hand log, appended there."""

    def make(sim: SimulatedTable, pipeline: Pipeline) -> RefereeLoop:
        referee = _referee(sim)
        if logs is not None:
            log = HandLog.open(Path(tempfile.mkdtemp()) / "hand-log.sqlite")
            logs.append(log)
            referee = Referee(referee.table, HandLogSink(log, log.open_session("T1", "sim")))
        loop = RefereeLoop(referee, horizon_s, tracker=pipeline)
        loop.push(lagged(_actions(sim), action_lag_s, f"{sim.truth.game}-{sim.truth.seed}"))
        if keyed_delay_s is not None:
            loop.push(keyed_shows(sim, keyed_delay_s))
        if loops is not None:
            loops.append(loop)
        return loop

    return make


def cache_name(game: str, seed: int, frames: int, size: tuple[int, int], bar: float | None, stamp: str,
               felt_print: int = 0) -> str:
    """A video's detections file in `--cache`: the models' `stamp`, and the frame size, face-up bar and print on the
    felt where they are not the table camera's 1280x720, the model's own and none (so the caches made before these
    options keep their names)."""
    px = "" if size == (1280, 720) else f"-{size[0]}x{size[1]}"
    at = "" if bar is None else f"-bar{bar:g}"
    pr = f"-print{felt_print}" if felt_print else ""
    return f"{game}-{seed}-{frames}{px}{at}{pr}-{stamp}.npz"


@dataclass(frozen=True)
class LitDetectorFn(DetectorFn):
    """The detector on frames cast by coloured light, corrected as the pipeline does: from the calibration's gains,
    then from the rail markers re-measured in the frames (`vision.white_reference`; None: not corrected)."""

    light: str = "neutral"
    white: WhiteReference | None = None

    def __call__(self, image: npt.NDArray[np.uint8], _objects: list[ObjectTruth]) -> Detections:
        lit = cast_light(image, self.light)
        return self.detector.detect(self.white.update(lit).apply(lit) if self.white is not None else lit)


def lit_detector(sim: SimulatedTable, detector: Detector, light: str, white_balance: str) -> DetectFn:
    """`detector_fn(detector)`, or under `light`, corrected as a camera calibrated by `calibrate --aruco` on the first
    frame is (`white_balance` "markers") or not ("none")."""
    if light == "neutral":
        return detector_fn(detector)
    if white_balance != "markers":
        return LitDetectorFn(detector, light)
    initial = WhiteBalance()
    try:
        initial = calibrate_from_aruco(cast_light(sim.render_frame(0), light), sim.profile).white_balance
    except CalibrationError as exc:
        print(f"# {sim.name}: no white reference at calibration ({exc})")
    return LitDetectorFn(detector, light, WhiteReference.for_table(sim.profile, sim.calibration, initial))


def award_outcome(sim: SimulatedTable, referee: Referee) -> str:
    """"right", "wrong" or "none": the referee's award (the last hand's) against the one it makes from the video's
    true events and the same dealer actions; "none" when it made none (the floor must decide). " provisional" is
    added when the award waits on an open error or misdeal flag."""
    truth = truth_referee(sim)
    want = next((h.awards[-1].award.totals for h in reversed(truth.hands) if h.awards), None)
    made = next((h.awards[-1] for h in reversed(referee.hands) if h.awards), None)
    if made is None:
        return "none"
    right = want is not None and dict(made.award.totals) == dict(want)
    return ("right" if right else "wrong") + (" provisional" if made.provisional else "")


def floor_outcome(sim: SimulatedTable, log: HandLog, video: TrackedVideo, keys: str) -> str:
    """"right", "wrong" or "none" (as `award_outcome`) for the floor's award after the hand: the true shown hands keyed
    in, with `keys` "mucks", "strike" or "missed" also the true mucks at the showdown, with "strike" or "missed" also
    the card events the tracker invented struck, with "missed" also the card, discard and fold events it did not
    report at all added (`log correct --shown/--mucked/--not-seen/--missed`)."""
    hand = log.hand_ids()[-1]
    last_bet = max((float(a["t"]) for a in sim.truth.actions), default=0.0)
    by, why = "floor", "read from the video"
    for e in sim.truth.events:
        if isinstance(e, CardsShown):
            log.record_correction(hand, "shown_hand", reason=why, by=by,
                                  data={"seat": e.seat, "cards": " ".join(map(str, e.cards))})
        elif isinstance(e, SeatFolded) and e.t > last_bet and keys in ("mucks", "strike", "missed"):
            log.record_correction(hand, "mucked_hand", reason=why, by=by, data={"seat": e.seat})
    if keys in ("strike", "missed"):
        invented = [e for e in video.invented() if e.kind in ("dealt", "replaced", "exposed")]
        for rec in log.story(hand).records:
            if isinstance(rec, StoredEvent) and rec.event in invented:
                log.record_correction(hand, "false_event", reason=why, by=by, target_id=rec.id)
    if keys == "missed":
        for e in video.unseen():
            if e.kind in MISSED_EVENT_KINDS and (e.kind != "folded" or e.t <= last_bet):
                log.record_correction(hand, "missed_event", reason=why, by=by, data={"event": e.to_dict()})
    record_floor_award(log, hand, by=by)
    award = current_award(log.story(hand))
    truth = truth_referee(sim)
    want = next((h.awards[-1].award.totals for h in reversed(truth.hands) if h.awards), None)
    if award is None:
        return "none"
    right = want is not None and {int(k): v for k, v in award["totals"].items()} == dict(want)
    return ("right" if right else "wrong") + (" provisional" if award.get("pending_flag_ids") else "")


def flag_outcome(sim: SimulatedTable, referee: Referee) -> tuple[int, int, int, int, int]:
    """(injected errors, those the referee flagged as it must, its other flags, those of them saying a shown hand
    went unread, those of them it dismissed itself later in the hand): `audit` must raise exactly the injected errors'
    flags (`FLAG_OF_ERROR`, at their seats) and none on a clean hand."""
    flags = [f for h in referee.hands for f in h.flags]
    other = unexplained_flags(sim, referee)
    unread = sum(1 for f in flags if UNREAD_SHOW in f.message)
    settled = sum(1 for f in other if settled_by_referee(referee, f))
    return len(sim.truth.errors), len(flags) - len(other), len(other), unread, settled


def settled_by_referee(referee: Referee, flag: Flag) -> bool:
    """Whether the referee dismissed `flag` itself later in its hand (a seat left short that showed a whole hand)."""
    for hand in referee.hands:
        for n, f in enumerate(hand.flags):
            if f is flag:
                fix = hand.resolutions.get(n)
                return fix is not None and fix.by == REFEREE_BY
    return False


def unexplained_flags(sim: SimulatedTable, referee: Referee) -> list[Flag]:
    """The referee's flags no injected error explains: each injected error explains one flag of its kind at its
    seat (`FLAG_OF_ERROR`)."""
    want = Counter((FLAG_OF_ERROR[e.kind], e.seat) for e in sim.truth.errors)
    out = []
    for f in (f for h in referee.hands for f in h.flags):
        if want[(f.kind.value, f.seat)] > 0:
            want[(f.kind.value, f.seat)] -= 1
        else:
            out.append(f)
    return out


def unflagged_errors(sim: SimulatedTable, referee: Referee) -> list[InjectedError]:
    """The injected errors the referee raised no flag for (their kind at their seat, `FLAG_OF_ERROR`)."""
    raised = Counter((f.kind.value, f.seat) for h in referee.hands for f in h.flags)
    out = []
    for e in sim.truth.errors:
        if raised[(FLAG_OF_ERROR[e.kind], e.seat)] > 0:
            raised[(FLAG_OF_ERROR[e.kind], e.seat)] -= 1
        else:
            out.append(e)
    return out


def _report(prefix: str, videos: list[TrackedVideo], elapsed: float, verbose: bool) -> None:
    s = summarise(videos)
    print(f"{prefix}_videos: {len(videos)}")
    print(f"{prefix}_frames: {sum(v.frames for v in videos)}")
    print(f"{prefix}_truth_events: {s.truth}")
    print(f"{prefix}_events_recall_in_order: {s.recall:.4f}")
    print(f"{prefix}_events_precision: {s.precision:.4f}")
    print(f"{prefix}_spurious_events_from_occluders: {s.spurious_occluders}")
    print(f"{prefix}_invented_events: {s.invented}")
    print(f"{prefix}_event_latency_ms_median: {s.latency_median_ms:.0f}")
    print(f"{prefix}_event_latency_ms_max: {s.latency_max_ms:.0f}")
    if s.landings_ms:
        land = np.asarray(s.landings_ms)
        print(f"{prefix}_landing_latency_ms_median: {np.median(land):.0f} (cards dealt and replaced, "
              f"{len(land)} matched)")
        print(f"{prefix}_landing_latency_ms_p95: {np.percentile(land, 95):.0f}")
        print(f"{prefix}_landing_latency_ms_max: {land.max():.0f}")
        print(f"{prefix}_landings_within_300ms: {s.landing_share_within(300):.4f} (target: every one)")
    c = s.counts
    if c.settled:
        print(f"{prefix}_seat_count_right: {c.right / c.settled:.4f}")
        print(f"{prefix}_seat_count_over: {c.over / c.settled:.4f}")
        print(f"{prefix}_seat_count_under: {c.under / c.settled:.4f}")
        print(f"{prefix}_settled_seat_frames: {c.settled}")
    print(f"{prefix}_seconds: {elapsed:.1f}")
    for game in dict.fromkeys(v.game for v in videos):
        g = summarise([v for v in videos if v.game == game])
        print(f"{prefix}_{game}_events_recall_in_order: {g.recall:.4f}")
        print(f"{prefix}_{game}_events_precision: {g.precision:.4f}")
    if verbose:
        for seed, e in s.missed:
            print(f"#   seed {seed} missed {e.to_dict()}")
        for seed, e in s.extra:
            print(f"#   seed {seed} extra  {e.to_dict()}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seeds", default="0-5")
    ap.add_argument("--games", default="badugi-limit,badacey-limit-triple")
    ap.add_argument("--errors", default="all", help="comma list of dealer errors for odd seeds, 'all' or 'none'")
    ap.add_argument("--size", default="640x360", help="frame size for the truth-with-visibility run")
    ap.add_argument("--onnx-frames", type=int, default=300, help="frames per video for the ONNX run (0: skip)")
    ap.add_argument("--onnx-seeds", default="0-1")
    ap.add_argument("--onnx-size", default="1280x720", help="frame size for the ONNX run (the table camera's)")
    ap.add_argument("--model", default=None)
    ap.add_argument("--horizon", type=float, default=3.0,
                    help="seconds behind the video events are put back in time order (audit --horizon)")
    ap.add_argument("--hints", choices=("referee", "none"), default="referee",
                    help="phase hints to the tracker from a referee following the events (as the audit), or none")
    ap.add_argument("--felt-print", type=int, default=0,
                    help="pieces of print on the felt of every video (lettering, lone printed chips; no event may "
                    "come of them); 0: none, as the figures before 2026-11-27 08:00")
    ap.add_argument("--verbose", action="store_true")
    ap.add_argument("--process-fps", type=float, default=0.0,
                    help="ONNX run: the pipeline keeps up with only this many frames a second, the others dropped as a "
                         "live camera's are (this CPU's rate; 0: every frame)")
    ap.add_argument("--cache", default=None, help="folder keeping the ONNX run's detections per video")
    ap.add_argument("--card-threshold", type=float, default=None,
                    help="classifier probability a face-up read needs (default: the model's cards.json card_threshold)")
    ap.add_argument("--keyed-shows", type=float, default=None, metavar="SECONDS",
                    help="ONNX run: the dealer keys in every shown hand this long after it is turned up (before the "
                         "gather), as the app and audit's actions file let them; default: never")
    ap.add_argument("--action-lag", default="0", metavar="SECONDS[:SECONDS]",
                    help="ONNX run: the dealer keys each action this long after the player acted (a live pad's "
                         "human lag), or a time drawn evenly from A:B for each (seeded by the video's seed), keyed in "
                         "order; 0: at the moment, as the simulator has it")
    ap.add_argument("--light", choices=tuple(LIGHT_CASTS), default="neutral",
                    help="the ONNX videos under coloured light (`synth.lighting`): each frame cast before detection")
    ap.add_argument("--white-balance", choices=("markers", "none"), default="markers",
                    help="markers: as the pipeline does, each frame corrected from the light's cast measured on the "
                         "rail markers' white, at calibration (the first frame) and in the frames "
                         "(`vision.white_reference`); none: not")
    ap.add_argument("--floor-award", choices=("shows", "mucks", "strike", "missed"), default=None,
                    help="after each ONNX video's hand, the floor keys in the shown hands (and the mucks; and strikes "
                         "the invented card events; and adds the ones never reported) and awards the hand again "
                         "(`log correct`)")
    args = ap.parse_args()
    w, h = (int(v) for v in args.size.lower().split("x"))
    ow, oh = (int(v) for v in args.onnx_size.lower().split("x"))
    onnx_size = (ow, oh)
    games = [g for g in args.games.split(",") if g]
    errors = () if args.errors == "none" else ERROR_KINDS if args.errors == "all" else tuple(args.errors.split(","))

    def table(game: str, seed: int, size: tuple[int, int]) -> SimulatedTable:
        return SimulatedTable(game, seed, size=size, fps=15.0, errors=errors if seed % 2 else (),
                              felt_print=args.felt_print)

    follow = referee_follower(args.horizon) if args.hints == "referee" else None
    print(f"phase_hints: {args.hints}")
    t0 = time.perf_counter()
    videos = [track_video(table(g, s, (w, h)), horizon_s=args.horizon, follow=follow)
              for g in games for s in _seeds(args.seeds)]
    _report("truth", videos, time.perf_counter() - t0, args.verbose)

    if args.onnx_frames <= 0:
        return
    from dealer_assist.vision.backends.common import Thresholds
    from dealer_assist.vision.detector import CameraBar, DetectorError, make_detector

    override = Thresholds(card=args.card_threshold) if args.card_threshold is not None else None
    try:
        detector = make_detector("onnx", args.model, thresholds=override)
    except DetectorError as exc:
        print(f"onnx_status: no model ({str(exc).splitlines()[0]})")
        return
    if isinstance(detector, CameraBar):
        detector.use_camera_bar()          # as Pipeline.build does: these are a table camera's frames
    print(f"onnx_card_threshold: {detector.thresholds.card}")  # type: ignore[attr-defined]
    print(f"onnx_graphs: {detector.graphs}")  # type: ignore[attr-defined]
    if args.process_fps:
        print(f"onnx_process_fps: {args.process_fps:g} (frames a second the pipeline keeps up with; the rest dropped)")

    def cache(game: str, seed: int) -> Path | None:
        if args.cache is None:
            return None
        folder = Path(args.model) if args.model else REPO / "models"
        files = sorted((p.name, p.stat().st_size, p.stat().st_mtime_ns) for p in [*folder.glob("*.onnx"),
                                                                                  *folder.glob("*.json")])
        # the float graphs (a CPU whose int8 sums saturate) read otherwise than the int8 ones: their own detections
        graphs = [] if getattr(detector, "int8", True) else ["float"]
        light = [] if args.light == "neutral" else [args.light, args.white_balance, "in the frames"]
        stamp = hashlib.sha256(repr([*files, errors, *graphs, *light]).encode()).hexdigest()[:12]
        bar = None if override is None else override.card
        return Path(args.cache) / cache_name(game, seed, args.onnx_frames, onnx_size, bar, stamp, args.felt_print)

    t0 = time.perf_counter()
    onnx: list[TrackedVideo] = []
    outcomes: list[str] = []
    flag_counts: list[tuple[int, int, int, int]] = []
    floor: list[str] = []
    for g in games:
        for s in _seeds(args.onnx_seeds):
            loops: list[RefereeLoop] = []
            logs: list[HandLog] | None = [] if args.floor_award else None
            sim = table(g, s, onnx_size)
            detect = lit_detector(sim, detector, args.light, args.white_balance)
            video = track_video(sim, detect, frames=args.onnx_frames, horizon_s=args.horizon,
                                process_fps=args.process_fps or None,
                                follow=referee_follower(args.horizon, loops, args.keyed_shows, logs,
                                                        args.action_lag) if follow
                                else None, cache=cache(g, s))
            onnx.append(video)
            if loops and video.frames == sim.frame_count:       # a whole video: its award can be compared
                loops[0].finish(video.frames / sim.fps)
                outcomes.append(award_outcome(sim, loops[0].referee))
                flag_counts.append(flag_outcome(sim, loops[0].referee))
                if args.verbose:
                    print(f"#   {g} seed {s} at {onnx_size[0]}x{onnx_size[1]}: camera's award {outcomes[-1]}")
                    for f in unexplained_flags(sim, loops[0].referee):
                        settled = " [dismissed by the referee]" if settled_by_referee(loops[0].referee, f) else ""
                        print(f"#   {g} seed {s} at {onnx_size[0]}x{onnx_size[1]}: flag no error explains: "
                              f"{f.severity.value} {f.kind.value} seat {f.seat} at {f.t:.2f} s: {f.message}{settled}")
                    for e in unflagged_errors(sim, loops[0].referee):
                        print(f"#   {g} seed {s} at {onnx_size[0]}x{onnx_size[1]}: error no flag raised: {e.kind} "
                              f"seat {e.seat} at {e.t:.2f} s: {e.detail}")
                if logs:
                    floor.append(floor_outcome(sim, logs[0], video, args.floor_award))
            for log in logs or ():
                log.close()
                if args.verbose:  # why an award was not made, or made provisional: the last hand's open flags
                    last = loops[0].referee.hands[-1] if loops[0].referee.hands else None
                    print(f"#   {g} seed {s}: award {outcomes[-1]}; the floor's {floor[-1] if floor else '-'}")
                    for f in (last.flags if last is not None else ()):
                        print(f"#     {f.severity} {f.kind} seat {f.seat}: {f.message}")
    _report("onnx", onnx, time.perf_counter() - t0, args.verbose)
    if outcomes:
        # Through the detector, how often the hand's award is the one its true events give: "none" is a hand the
        # referee would not award (flags, unread shows: the floor decides), "wrong" a pot to the wrong seat.
        _print_awards("onnx_awards", outcomes)
        injected = sum(c[0] for c in flag_counts)
        print(f"onnx_injected_errors_flagged: {sum(c[1] for c in flag_counts)} of {injected}")
        print(f"onnx_other_flags_with_errors: {sum(c[2] for c in flag_counts if c[0])}")
        print(f"onnx_flags_on_clean_hands: {sum(c[2] for c in flag_counts if not c[0])} "
              f"({sum(1 for c in flag_counts if not c[0])} hands)")
        print(f"onnx_unread_show_flags_on_clean_hands: {sum(c[3] for c in flag_counts if not c[0])}")
        print(f"onnx_flags_dismissed_by_the_referee: {sum(c[4] for c in flag_counts if not c[0])} on clean hands, "
              f"{sum(c[4] for c in flag_counts if c[0])} on hands with errors (of the two lines above them)")
    if floor:
        _print_awards("onnx_floor_awards", floor, f"; the floor keyed {args.floor_award}")


def _print_awards(name: str, outcomes: list[str], note: str = "") -> None:
    """`name`_right / _wrong / _none lines from `award_outcome`'s words."""
    for kind in ("right", "wrong"):
        made = [o for o in outcomes if o.startswith(kind)]
        print(f"{name}_{kind}: {len(made)} of {len(outcomes)} ({made.count(kind)} final, "
              f"{len(made) - made.count(kind)} provisional{note})")
    print(f"{name}_none: {outcomes.count('none')} of {len(outcomes)}")


if __name__ == "__main__":
    main()
