"""The demo on the simulated table's real video: synth's `SimulatedTable` renders a whole hand, the
vision chain tracks it, the referee referees it, and the live view shows it all as at a real table.

Everything heavy runs on the `SimVideoWorker` thread: building the simulated hand, rendering each
frame, detecting, mapping and tracking. Frames go into the view's slot of one (the view polls it on
a QTimer, stale frames are dropped); the dealer's betting input (the simulation's own actions, as a
dealer would enter them, queued up front), then each frame's table events and a `Reached(t)` marker,
go into a queue that `LiveSession.poll` drains on the UI thread into the audit's `RefereeLoop`: put
back in time order `horizon_s` behind the video and fed to the `Referee`, whose phase hint comes back
through the worker's `PhaseMailbox` to the tracker before the next frame, as in `dealer-assist audit`.
Not paced by a clock (`realtime=False`), the worker can run in `lockstep`: it waits for the hint of
each frame before the next, so the tracker hears exactly what the audit's loop would tell it.

Detections: running the trained card detector on every frame is too slow on a small CPU beside the
renderer, so by default the detector is *simulated*: each frame's ground truth (every card where
the simulation put it, face up: which; face down: "back"; the button) through the camera's
homography. The UI says so ("simulated detections"). The tracker, the referee and the award are the
real ones. When rendering falls behind real time, frames are skipped for display but every frame's
detections still go through the tracker, so the events never depend on the machine's speed.
"""

from __future__ import annotations

import contextlib
import queue
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import numpy.typing as npt

from dealer_assist.app.models.capture import FrameRing, LatestFrame
from dealer_assist.app.models.worker_feed import PhaseMailbox, Reached
from dealer_assist.audit.records import DealerAction
from dealer_assist.audit.table import TableConfig
from dealer_assist.cards import Card
from dealer_assist.errors import DealerAssistError
from dealer_assist.rules.awards import Award, AwardError, award_pots
from dealer_assist.rules.hand import Hand
from dealer_assist.rules.house_rules import HouseRules
from dealer_assist.rules.steps import Awarded
from dealer_assist.synth.truth_detections import placement_detections
from dealer_assist.vision.calibration import CameraCalibration
from dealer_assist.vision.detections import Detections
from dealer_assist.vision.events import CardsShown, TableEvent
from dealer_assist.vision.frames import Frame
from dealer_assist.vision.pipeline import Pipeline
from dealer_assist.vision.table_profile import TableProfile
from dealer_assist.vision.tracker import TrackerConfig

SIMULATED_DETECTIONS = "simulated detections (the simulator's ground truth, no model)"


@dataclass(frozen=True, slots=True)
class SimFrame(Frame):
    """A rendered frame with the detections the pipeline was given for it (for the overlay)."""

    detections: Detections | None = None


def truth_detections(sim: Any, frame: int) -> Detections:
    """What a perfect detector sees in frame `frame` of a `SimulatedTable` (no pixels looked at)."""
    return placement_detections(sim.placements(frame), sim.camera.homography)


def truth_hand(sim: Any, preset: str, seed: int, errors: Sequence[str], players: int | None) -> Hand:
    """The rules engine's hand behind a SimulatedTable (rebuilt: the same seed gives the same hand)."""
    from dealer_assist.synth.hand_video import build_script

    _, hand = build_script(HouseRules.preset(preset), sim.profile, seed, fps=sim.fps, players=players,
                           errors=list(errors), card_w=sim.renderer.card_w_cm)
    return hand


def hand_award(hand: Hand) -> Award | None:
    """The rules engine's award of a finished hand."""
    for step in reversed(hand.history):
        if isinstance(step, Awarded):
            return step.award
    return None


def video_award(hand: Hand, events: Sequence[TableEvent]) -> Award | None:
    """The rules engine's award of the hand the video shows: the simulated hand's betting (the same
    pots) with the cards each seat turns up on the video (the video draws its own discards, so the
    final cards differ from the simulated hand's). Uncontested hands: the simulated hand's award."""
    awarded = hand_award(hand)
    if awarded is None:
        return None
    shown = {e.seat: tuple(e.cards) for e in events if isinstance(e, CardsShown)}
    if not shown:
        return awarded
    rules = hand.rules
    live = {s for i, s in enumerate(hand.seats) if hand.live[i]}
    hands: dict[int, Sequence[Card] | None] = {s: (shown.get(s) if s in live else None) for s in hand.seats}
    try:
        return award_pots(game=rules.game, contributions=hand.contributions(), hands=hands, button=hand.button,
                          seat_order=sorted(hand.seats), chip_unit=rules.chip_unit,
                          odd_chip_rule=rules.odd_chip_rule)
    except AwardError:  # a misdealt video (a seat short of cards): no award to compare with
        return None


def _render_server(args: dict[str, Any]) -> None:
    """In a child process (`python -m dealer_assist.app.models.sim_demo ARGS`): build the same
    SimulatedTable and, for each frame index read from stdin (one per line), write its raw BGR bytes."""
    import sys

    from dealer_assist.synth.hand_video import SimulatedTable

    sim = SimulatedTable(args["preset"], args["seed"], errors=args["errors"], size=tuple(args["size"]),
                         fps=args["fps"], players=args["players"])
    out = sys.stdout.buffer
    out.write(b"ready\n")
    out.flush()
    for line in sys.stdin:
        out.write(np.ascontiguousarray(sim.render_frame(int(line))).tobytes())
        out.flush()


class RenderProcess:
    """Renders frames of a SimulatedTable in a child process, so the renderer's Python never holds the
    GUI process's GIL (the UI thread stays free). `render(f)` blocks the calling (worker) thread only."""

    def __init__(self, preset: str, seed: int, errors: Sequence[str], size: tuple[int, int], fps: float,
                 players: int | None) -> None:
        import json
        import subprocess
        import sys

        self.size = size
        args = {"preset": preset, "seed": seed, "errors": list(errors), "size": list(size), "fps": fps,
                "players": players}
        self._proc = subprocess.Popen([sys.executable, "-m", "dealer_assist.app.models.sim_demo", json.dumps(args)],
                                      stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        assert self._proc.stdout is not None and self._proc.stdin is not None
        self._out, self._in = self._proc.stdout, self._proc.stdin

    def wait_ready(self) -> None:
        """Block until the child has built its table (a killed child raises OSError)."""
        if self._out.readline() != b"ready\n":
            self.close()
            raise OSError("the render process did not start")

    def kill(self) -> None:
        """From any thread: stop the child now (a render or wait_ready in progress raises OSError)."""
        with contextlib.suppress(OSError):
            self._proc.kill()

    def render(self, f: int) -> npt.NDArray[np.uint8]:
        w, h = self.size
        self._in.write(f"{f}\n".encode())
        self._in.flush()
        data = self._out.read(w * h * 3)
        if len(data) != w * h * 3:
            raise OSError("the render process stopped")
        return np.frombuffer(data, np.uint8).reshape(h, w, 3)

    def close(self) -> None:
        import subprocess

        with contextlib.suppress(OSError):
            self._in.close()
        try:
            self._proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            self._proc.kill()


class SimVideoWorker(threading.Thread):
    """Builds a simulated hand video and plays it at its frame rate: frames to `slot`, inputs to `events`.

    `ready` is set once the video is built (then `profile`, `calibration`, `config`, `hand`, `truth`
    are there); `status` is "building", "running", "ended", "stopped" or "failed" (with `error`).
    With `realtime=False` every frame is rendered as fast as the machine goes (tests, headless); with
    `lockstep` too, each frame waits for the referee's hint of the frame before (a `LiveSession` must poll it).
    """

    def __init__(
        self,
        preset: str = "badugi-limit",
        seed: int = 1,
        *,
        errors: Sequence[str] = (),
        players: int | None = None,
        slot: LatestFrame | None = None,
        size: tuple[int, int] = (1280, 720),
        fps: float = 15.0,
        realtime: bool = True,
        speed: float = 1.0,
        render: bool = True,
        horizon_s: float = 3.0,
        action_delay_s: float = 0.0,
        render_process: bool | None = None,
        lockstep: bool = False,
    ) -> None:
        super().__init__(name="sim-video", daemon=True)
        self.preset = preset
        self.seed = seed
        self.errors = tuple(errors)
        self.players = players
        self.slot = slot
        self.size = size
        self.video_fps = fps
        self.realtime = realtime
        self.speed = speed
        self.render = render
        self.horizon_s = horizon_s
        self.action_delay_s = action_delay_s
        self.lockstep = lockstep and not realtime
        # Rendering in a child process keeps the GIL free for the UI; only worth it when rendering in real time.
        self.render_process = (render and realtime) if render_process is None else render_process
        self._renderer: RenderProcess | None = None
        self.ring = FrameRing(size=int(fps * 6))
        self.events: queue.Queue[TableEvent | DealerAction | Reached] = queue.Queue()
        self.hints = PhaseMailbox()
        self.last_t = 0.0
        self.frame_index = -1
        self.rendered = 0
        self.status = "building"
        self.error: str | None = None
        self.ready = threading.Event()
        self._halt = threading.Event()
        self.sim: Any = None
        self.profile: TableProfile | None = None
        self.calibration: CameraCalibration | None = None
        self.config: TableConfig | None = None
        self.hand: Hand | None = None
        self.duration_s = 0.0

    @property
    def award(self) -> Award | None:
        """The rules engine's award of the hand on the video (the ground truth the referee must match)."""
        if self.hand is None or self.sim is None:
            return None
        return video_award(self.hand, self.sim.truth.events)

    def stop(self) -> None:
        self._halt.set()
        renderer = self._renderer
        if renderer is not None:
            renderer.kill()

    def build(self) -> None:
        from dealer_assist.synth.hand_video import SimulatedTable

        rules = HouseRules.preset(self.preset)
        sim = SimulatedTable(self.preset, self.seed, errors=self.errors, size=self.size, fps=self.video_fps,
                             players=self.players)
        self.sim = sim
        self.profile = sim.profile
        self.calibration = sim.calibration
        self.config = TableConfig.for_profile(sim.profile, rules, sim.truth.stacks_by_seat(),
                                              button=sim.truth.button)
        self.hand = truth_hand(sim, self.preset, self.seed, self.errors, self.players)
        self.duration_s = sim.frame_count / sim.fps
        self.pipeline = Pipeline.build(sim.profile, self.calibration, _NoDetector(),
                                       TrackerConfig(hand_size=rules.hand_size, draw_procedure=rules.draw_procedure))
        self.actions = [DealerAction(int(a["seat"]), a["action"], a.get("amount"), t=float(a["t"]))
                        for a in sim.truth.actions]

    def run(self) -> None:
        try:
            if self.render_process:
                try:
                    self._renderer = RenderProcess(self.preset, self.seed, self.errors, self.size, self.video_fps,
                                                   self.players)
                except (OSError, ValueError):  # no child process here: render in this thread
                    self._renderer = None
            self.build()
            if self._renderer is not None and not self._halt.is_set():
                try:
                    self._renderer.wait_ready()
                except OSError:
                    self._renderer = None  # render here instead
            if self._halt.is_set():
                self.status = "stopped"
                self.ready.set()
                return
            self.status = "running"
            self.ready.set()
            self._play()
        except (DealerAssistError, OSError, ValueError, EOFError) as exc:
            if self._halt.is_set():  # stopped mid-render: the renderer was killed on purpose
                self.status = "stopped"
            else:
                self.error = f"{type(exc).__name__}: {exc}"
                self.status = "failed"
            self.ready.set()
        finally:
            if self._renderer is not None:
                self._renderer.close()
                self._renderer = None

    def _render(self, f: int) -> npt.NDArray[np.uint8]:
        if self._renderer is not None:
            return self._renderer.render(f)
        image: npt.NDArray[np.uint8] = self.sim.render_frame(f)
        return image

    def _play(self) -> None:
        sim = self.sim
        for a in self.actions:  # up front, as `dealer-assist audit` pushes an actions file: the loop orders them
            self.events.put(replace(a, t=round(a.t + self.action_delay_s, 4)))
        fps = sim.fps
        started = time.perf_counter()
        f = 0
        while f < sim.frame_count and not self._halt.is_set():
            if self.realtime:  # show the frame due now; the ones skipped are still tracked
                due = int((time.perf_counter() - started) * fps * self.speed)
                if due < f:
                    self._halt.wait((f - due) / (fps * self.speed))
                    continue
                show = min(due, sim.frame_count - 1)
            else:
                show = f
            while f <= show:
                if f and not self._follow(f - 1):
                    break
                detections = truth_detections(sim, f)
                t = f / fps
                if f == show and self.render:
                    image = self._render(f)
                    frame = SimFrame(image, t, f, detections)
                    self.ring.add(frame)
                    if self.slot is not None:
                        self.slot.put(frame)
                    self.rendered += 1
                for event in self.pipeline.update_detections(detections, t, f):
                    self.events.put(event)
                self.events.put(Reached(t))
                self.last_t, self.frame_index = t, f
                f += 1
        if self._halt.is_set() or not self._follow(f - 1):
            self.status = "stopped"
            return
        for event in self.pipeline.flush():
            self.events.put(event)
        self.events.put(Reached(self.last_t, end=True))
        self.status = "ended"

    def _follow(self, f: int) -> bool:
        """Before the tracker goes on: in lockstep, wait for the referee's hint as of frame `f` (False: stopped
        meanwhile); then give the pipeline the newest hint."""
        if self.lockstep and not self.hints.wait_for(f / self.sim.fps - self.horizon_s, self._halt):
            return False
        self.hints.deliver(self.pipeline)
        return True


class _NoDetector:
    """The pipeline's detector slot when detections are given per frame (`update_detections`)."""

    name = "simulated"
    reads_image = False  # detections come with each frame, not from its pixels

    def detect(self, image: npt.NDArray[np.uint8]) -> Detections:
        return Detections.empty()


if __name__ == "__main__":
    import json
    import sys

    _render_server(json.loads(sys.argv[1]))
