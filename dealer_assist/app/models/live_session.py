"""Live mode wired end to end: camera frames -> vision pipeline (its own thread) -> table events ->
Referee (UI thread, in time order with the dealer's actions) -> the seat, pot, prompt, flag and award
models the widgets show.

The vision thread puts each frame in the view's slot of one (the video never waits) and every table
event in a queue (events are never dropped); the UI drains the queue on a timer with `poll()`.
"""

from __future__ import annotations

import queue
import threading
from dataclasses import replace
from typing import Any, Protocol

from dealer_assist.app.models.capture import FrameRing, LatestFrame
from dealer_assist.app.models.demo_driver import hand_seat_states
from dealer_assist.app.models.flags import FlagEntry, FlagListModel
from dealer_assist.app.models.signal import Signal
from dealer_assist.app.models.table import TableModel
from dealer_assist.audit.outputs import AwardMade
from dealer_assist.audit.records import DealerAction, Flag, FlagKind, Severity
from dealer_assist.audit.referee import Referee
from dealer_assist.errors import DealerAssistError
from dealer_assist.rules.awards import Award
from dealer_assist.vision.events import TableEvent
from dealer_assist.vision.frames import FrameSource, SourceError
from dealer_assist.vision.pipeline import Pipeline


class VisionWorker(threading.Thread):
    """Reads a source, shows each frame through `slot`, runs the pipeline, queues the events."""

    def __init__(self, source: FrameSource, pipeline: Pipeline, slot: LatestFrame | None = None,
                 ring: FrameRing | None = None) -> None:
        super().__init__(name="vision", daemon=True)
        self.source = source
        self.ring = ring if ring is not None else FrameRing()
        self.pipeline = pipeline
        self.slot = slot
        self.events: queue.Queue[TableEvent] = queue.Queue()
        self.last_t = 0.0
        self.status = "running"
        self.error: str | None = None
        self._halt = threading.Event()

    def stop(self) -> None:
        self._halt.set()

    def run(self) -> None:
        try:
            while not self._halt.is_set():
                frame = self.source.read()
                if frame is None:
                    break
                if self.slot is not None:
                    self.slot.put(frame)
                self.ring.add(frame)
                for event in self.pipeline.update(frame):
                    self.events.put(event)
                self.last_t = frame.t
            for event in self.pipeline.flush():
                self.events.put(event)
            self.status = "ended" if not self._halt.is_set() else "stopped"
        except (SourceError, DealerAssistError, OSError) as exc:
            self.error = str(exc)
            self.status = "failed"
        finally:
            self.source.close()


class EventWorker(Protocol):
    """What LiveSession needs of its worker thread (VisionWorker, or the demo's SimVideoWorker)."""

    events: queue.Queue[Any]  # TableEvent, and for the demo also DealerAction
    last_t: float
    ring: FrameRing

    def start(self) -> None: ...

    def stop(self) -> None: ...

    def join(self, timeout: float | None = None) -> None: ...

    def is_alive(self) -> bool: ...


class LiveSession:
    """The referee between the vision worker and the models; emits `award_ready(award)`."""

    def __init__(self, referee: Referee, table: TableModel, flags: FlagListModel,
                 worker: EventWorker | None = None) -> None:
        self.referee = referee
        self.table = table
        self.flags = flags
        self.worker = worker
        self.award: Award | None = None
        self.award_ready = Signal()
        self.hand_started = Signal()
        self.errors: list[str] = []
        self._hands = 0
        self._flag_index: dict[int, int] = {}  # flag list entry id -> the flag's number in the referee's hand
        flags.resolved.connect(self._resolved)
        self.sync()

    def start(self) -> None:
        if self.worker is not None and not self.worker.is_alive():
            self.worker.start()

    def stop(self) -> None:
        if self.worker is not None:
            self.worker.stop()
            self.worker.join(timeout=3)
        self.referee.close(self.worker.last_t if self.worker is not None else 0.0)

    def poll(self, limit: int = 500) -> int:
        """Feed the referee the events the vision thread queued (at most `limit`); returns how many."""
        if self.worker is None:
            return 0
        fed = 0
        while fed < limit:
            try:
                event = self.worker.events.get_nowait()
            except queue.Empty:
                break
            self.feed(event)
            fed += 1
        return fed

    def feed(self, item: TableEvent | DealerAction) -> None:
        try:
            outputs = self.referee.feed(item)
        except DealerAssistError as exc:  # never take the table down: flag it and carry on
            self.errors.append(str(exc))
            self._flag(Flag(FlagKind.UNEXPECTED_EVENT, Severity.ERROR, getattr(item, "seat", None), "referee", None,
                            f"referee could not take {type(item).__name__}: {exc}", item.t))
            outputs = []
        if len(self.referee.hands) != self._hands:
            self._hands = len(self.referee.hands)
            self.award = None
            self.flags.clear()
            self._flag_index.clear()
            self.hand_started.emit()
        new_flags = [out for out in outputs if isinstance(out, Flag)]
        base = len(self.referee.hands[-1].flags) - len(new_flags) if self.referee.hands else 0
        for k, flag in enumerate(new_flags):
            entry = self.flags.add(flag)
            self._flag_index[entry.id] = base + k
        for out in outputs:
            if isinstance(out, AwardMade):
                self.award = out.award
                self.sync()
                self.award_ready.emit(out.award)
        self.sync()

    def dealer_action(self, action: DealerAction) -> None:
        """An action from the pad, stamped with the video's time so it sorts with the camera's events."""
        t = self.worker.last_t if self.worker is not None else action.t
        self.feed(replace(action, t=t))

    def _flag(self, flag: Flag) -> None:
        self.flags.add(flag)

    def _resolved(self, entry: FlagEntry) -> None:
        """The floor accepted or dismissed a flag (behind the PIN): the referee records it as a correction."""
        number = self._flag_index.get(entry.id)
        if number is None:
            return
        t = self.worker.last_t if self.worker is not None else entry.flag.t
        try:
            if entry.resolution == "accepted":
                self.referee.accept_flag(number, reason=entry.reason, by="supervisor", t=t)
            elif entry.resolution == "dismissed":
                self.referee.dismiss_flag(number, reason=entry.reason, by="supervisor", t=t)
        except DealerAssistError as exc:  # the hand has ended: the log's correction is the way then
            self.errors.append(str(exc))

    def sync(self) -> None:
        run = self.referee.run
        if run is not None:
            states = hand_seat_states(run.hand, labels=())
            self.table.set_seats(states, game=run.rules.game, button=run.hand.button)
        self.table.set_prompt(self.referee.prompt)
