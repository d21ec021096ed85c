"""The app's referee gives the tracker its phase hint, as `dealer-assist audit` does (`audit.loop.RefereeLoop`): the
referee runs on the UI thread (`LiveSession`), the tracker on the worker's, the hint goes between them through the
worker's `PhaseMailbox`. The simulated demo in lockstep hears exactly what the audit's loop would tell it; the live
camera's hint is as of the last frame the referee followed, with the dealer's fold from the pad in it."""

from __future__ import annotations

import threading

import numpy as np
import pytest
from phase_recorder import Recorder, spy_on_pipelines
from table_camera import oblique_camera

from dealer_assist.app.models import sim_demo
from dealer_assist.app.models.flags import FlagListModel
from dealer_assist.app.models.live_session import LiveSession, VisionWorker
from dealer_assist.app.models.sim_demo import SimVideoWorker
from dealer_assist.app.models.table import TableModel
from dealer_assist.app.models.worker_feed import PhaseMailbox, Reached
from dealer_assist.audit.loop import RefereeLoop
from dealer_assist.audit.ordering import DEFAULT_HORIZON_S
from dealer_assist.audit.records import DealerAction
from dealer_assist.audit.referee import Referee
from dealer_assist.audit.table import TableConfig
from dealer_assist.errors import DealerAssistError
from dealer_assist.rules.house_rules import HouseRules
from dealer_assist.vision.backends.fake_backend import FakeDetector
from dealer_assist.vision.events import CardDealt, SeatFolded, TableEvent
from dealer_assist.vision.frames import Frame
from dealer_assist.vision.pipeline import Pipeline, ScriptedTable
from dealer_assist.vision.sources import FramesSource
from dealer_assist.vision.table_profile import oval_profile
from dealer_assist.vision.tracker import PhaseHint

FPS = 30.0


def test_mailbox_hands_over_the_newest_hint_once() -> None:
    box, pipe = PhaseMailbox(), Recorder()
    assert box.hint is None and not box.deliver(pipe)
    box.set_hint(PhaseHint("deal", -3.0))
    box.set_hint(PhaseHint("betting", -2.9, frozenset({4})))
    assert box.deliver(pipe) and not box.deliver(pipe)  # the newest only, and once
    assert pipe.calls == [PhaseHint("betting", -2.9, frozenset({4}))]
    with pytest.raises(DealerAssistError):
        box.set_hint(PhaseHint("flop"))  # refused on the referee's thread, not the tracker's
    halt = threading.Event()
    assert box.wait_for(-2.9, halt)
    threading.Timer(0.05, lambda: box.set_hint(PhaseHint("draw", 1.0))).start()
    assert box.wait_for(1.0, halt)  # woken by the hint
    threading.Timer(0.05, halt.set).start()
    assert not box.wait_for(5.0, halt)  # woken by the halt


# -- the simulated demo ----------------------------------------------------------------------------------------------


@pytest.fixture
def hints(monkeypatch: pytest.MonkeyPatch) -> list[PhaseHint]:
    """Every hint any Pipeline is given (on whichever thread)."""
    return spy_on_pipelines(monkeypatch)


def _audit_hints(seed: int, hints: list[PhaseHint]) -> list[PhaseHint]:
    """The hints the audit's loop gives the demo's tracker, on one thread: once a frame, after the frame."""
    start = len(hints)
    worker = SimVideoWorker("badugi-limit", seed, realtime=False, render=False)
    worker.build()
    assert worker.config is not None
    sim = worker.sim
    loop = RefereeLoop(Referee(worker.config), worker.horizon_s, tracker=worker.pipeline)
    loop.push(worker.actions)
    for f in range(sim.frame_count):
        loop.push(worker.pipeline.update_detections(sim_demo.truth_detections(sim, f), f / sim.fps, f))
        loop.advance(f / sim.fps)
    return hints[start:]


def test_sim_demo_tracker_hears_what_the_audits_loop_tells_it(hints: list[PhaseHint]) -> None:
    """Seed 1: seats 4, then 1 fold. The demo's worker in lockstep, its referee polled as the window polls it."""
    worker = SimVideoWorker("badugi-limit", 1, realtime=False, render=False, lockstep=True)
    worker.start()
    assert worker.ready.wait(60) and worker.config is not None, worker.error
    session = LiveSession(Referee(worker.config), TableModel(), FlagListModel(), worker)
    for _ in range(2000):
        if session.ended:
            break
        session.poll(wait_s=0.02)
    session.stop()
    assert worker.status == "ended" and session.ended, worker.error
    demo = list(hints)
    sim = worker.sim
    # once a frame from the second on, and once before the final flush: as of each frame, 3 s behind it
    assert [h.as_of for h in demo] == pytest.approx([f / sim.fps - 3.0 for f in range(sim.frame_count)])
    phases = [h.phase for k, h in enumerate(demo) if k == 0 or h.phase != demo[k - 1].phase]
    assert phases == ["deal", *["betting", "draw"] * 3, "betting", "showdown"]
    folds = {a["seat"]: a["t"] for a in sim.truth.actions if a["action"] == "fold"}
    assert folds.keys() == {4, 1}
    seen = {h.folded for h in demo}
    assert seen == {frozenset(), frozenset({4}), frozenset({1, 4})}
    first = {s: min(h.as_of for h in demo if s in h.folded) for s in folds}  # known once the referee got there
    assert all(folds[s] <= first[s] <= folds[s] + 0.5 for s in folds)
    assert demo == _audit_hints(1, hints)  # the very hints of `dealer-assist audit`'s loop, frame by frame
    assert session.award is not None and worker.award is not None
    assert dict(session.award.totals) == dict(worker.award.totals)
    assert not session.flags.entries and not session.errors


def test_sim_demo_without_a_session_is_not_held_back() -> None:
    """No lockstep (the procedure drill drops the events): the worker plays to the end on its own."""
    worker = SimVideoWorker("badugi-limit", 8, realtime=False, render=False)
    worker.start()
    worker.join(timeout=240)  # a fresh clone draws its card art first: over a minute on 2 busy cores
    assert worker.status == "ended" and worker.hints.hint is None
    items = []
    while not worker.events.empty():
        items.append(worker.events.get_nowait())
    assert isinstance(items[0], DealerAction) and items[-1] == Reached(worker.last_t, end=True)
    assert sum(isinstance(i, Reached) for i in items) == worker.sim.frame_count + 1


# -- the live camera -------------------------------------------------------------------------------------------------


class RecordingPipeline(Pipeline):
    """A pipeline that records the hints it is given and when (video time) each event came out."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.hints: list[PhaseHint] = []
        self.emitted: list[tuple[float, TableEvent]] = []

    def set_hint(self, hint: PhaseHint) -> None:
        self.hints.append(hint)
        super().set_hint(hint)

    def update(self, frame: Frame) -> list[TableEvent]:
        events = super().update(frame)
        self.emitted += [(frame.t, e) for e in events]
        return events


class PacedSource(FramesSource):
    """A camera that gives its next frame only once the referee has followed the one before as far as it follows
    (its hint as of `horizon_s` behind that frame came), so the test does not hang on the speed of either thread."""

    def __init__(self, frames: list[np.ndarray], fps: float, horizon_s: float = DEFAULT_HORIZON_S) -> None:
        super().__init__(frames, fps=fps)
        self.hints: PhaseMailbox | None = None
        self.halt = threading.Event()
        self.horizon_s = horizon_s
        self._last: float | None = None

    def read(self) -> Frame | None:
        if self._last is not None and self.hints is not None:
            self.hints.wait_for(self._last - self.horizon_s, self.halt)
        frame = super().read()
        self._last = frame.t if frame is not None else None
        return frame


def test_live_camera_tracker_hears_the_dealers_fold_as_the_audit_does() -> None:
    """Seats 1, 3, 5 dealt; the dealer enters seat 5's fold on the pad as soon as the pad shows seat 5 to act (the
    look-ahead: at once), then its cards go to the muck. The referee follows the video 3 s behind, as `audit` does, and
    tells the tracker the phase and the fold as of then; the tracker, seeing the seat empty, waits for the referee to
    reach the moment the cards went and then says "folded", stamped when they went."""
    script = ScriptedTable(6, FPS).button(5).hold(0.5)
    for _ in range(4):
        for seat in (1, 3, 5):
            script.deal(seat).hold(0.3)
    script.hold(2.0)
    went = script.t
    script.fold(5).hold(5.0)
    profile = oval_profile(6)
    cal = oblique_camera(profile)
    pipeline = RecordingPipeline.build(profile, cal, FakeDetector(script.detections(profile, cal)))
    assert isinstance(pipeline, RecordingPipeline)
    source = PacedSource([np.zeros((720, 1280, 3), np.uint8)] * len(script.observations), FPS)
    worker = VisionWorker(source, pipeline)
    assert worker.horizon_s == DEFAULT_HORIZON_S
    source.hints = worker.hints
    table = TableModel()
    referee = Referee(TableConfig.make(HouseRules.preset("badugi-limit"), {1: 200, 3: 200, 5: 200}, button=5))
    session = LiveSession(referee, table, FlagListModel(), worker)
    entered: float | None = None
    session.start()
    try:
        for _ in range(5000):
            if session.ended:
                break
            session.poll(wait_s=0.02)
            if entered is None and table.prompt.actor == 5:
                entered = worker.last_t
                session.dealer_action(DealerAction(5, "fold"))
                assert table.prompt.actor == 1 and referee.folded_seats == set()   # the pad moved on; the record not
        folded = referee.folded_seats
    finally:
        source.halt.set()
        session.stop()
    assert session.ended and entered is not None and entered < went
    # the pad showed seat 5 to act as soon as the camera's last card landed, not 3 s later
    last_card = max(e.t for _, e in pipeline.emitted if isinstance(e, CardDealt))
    assert entered - last_card < 0.5
    frames = len(script.observations)
    # as of each frame the referee followed, 3 s behind it, one a frame
    assert [h.as_of for h in pipeline.hints] == pytest.approx([f / FPS - DEFAULT_HORIZON_S for f in range(frames - 1)])
    assert all(h.phase == "deal" for h in pipeline.hints if h.as_of is not None and h.as_of < 0.5)
    assert all(h.folded == {5} and h.phase == "betting" for h in pipeline.hints if h.as_of > entered)
    assert all(h.folded == set() for h in pipeline.hints if h.as_of < entered)
    [(out_t, fold)] = [(t, e) for t, e in pipeline.emitted if isinstance(e, SeatFolded)]
    assert fold.seat == 5 and abs(fold.t - went) < 0.1 and folded == {5}
    # out once the referee has reached the moment the cards went (the zone empty 0.8 s is long passed by then)
    assert DEFAULT_HORIZON_S - 0.1 <= out_t - fold.t < DEFAULT_HORIZON_S + 0.5
    assert not session.flags.entries
