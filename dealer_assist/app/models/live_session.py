"""Live mode wired end to end: camera frames -> vision pipeline (its own thread) -> table events ->
Referee (UI thread, in time order with the dealer's actions) -> the seat, pot, prompt, flag and award
models the widgets show; the referee's phase hint goes back to the tracker.

The vision thread puts each frame in the view's slot of one (the video never waits) and every table
event in a queue (events are never dropped), then a `Reached(t)` marker; the UI drains the queue on a
timer with `poll()` into the audit's `RefereeLoop`, advanced at each marker as `dealer-assist audit`
advances it once a frame: items are fed `horizon_s` behind the video in time order, then the referee's
phase, as of then, goes to the worker's `PhaseMailbox`, which the vision thread hands its pipeline before
the next frame (see `worker_feed`).

The referee follows the video `horizon_s` behind it (`audit.ordering.DEFAULT_HORIZON_S`, 3 s, for a camera's worker as
for the simulated demo's), as `dealer-assist audit` does: the tracker confirms a card's landing a few frames after it
lay there and a fold up to seconds after the cards went, and a dealer keys a say the moment the player makes it, so
only items put back in time order are refereed as they happened. So the hand log, the flags and the award are what the
audit of the same video would record. The pad cannot wait those seconds: the seats and the prompt it shows come from
the referee's look-ahead (`Referee.look_ahead`), a copy fed what is still held, in time order, as it stands now.
While held, each item is journaled beside the hand log (`store.held`), so a crash loses none of them.

A shown hand the camera could not read is keyed in by the dealer at the showdown (`enter_show`): it reaches the
referee as the seat's show marked entered (`CardsShown.entered`), in time order with the camera's events, as the
dealer's actions do; `verify_show` says why one cannot be taken now.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Sequence
from dataclasses import replace
from typing import Any, Protocol

from dealer_assist.app.models.action_pad import ShowEntry
from dealer_assist.app.models.capture import FrameRing, LatestFrame, colour_image
from dealer_assist.app.models.demo_driver import hand_seat_states
from dealer_assist.app.models.flags import FlagEntry, FlagListModel
from dealer_assist.app.models.signal import Signal
from dealer_assist.app.models.table import TableModel
from dealer_assist.app.models.worker_feed import PhaseMailbox, Reached
from dealer_assist.audit.hand_run import UNREAD_SHOW
from dealer_assist.audit.loop import RefereeLoop
from dealer_assist.audit.ordering import DEFAULT_HORIZON_S
from dealer_assist.audit.outputs import FLAG_RULINGS, REFEREE_BY, AwardMade, Output
from dealer_assist.audit.records import DealerAction, Flag, FlagKind, Severity
from dealer_assist.audit.referee import Referee, award_waits_on, pending_reason
from dealer_assist.cards import Card
from dealer_assist.errors import DealerAssistError
from dealer_assist.rules.awards import Award
from dealer_assist.rules.hand import Phase
from dealer_assist.vision.events import CardsShown, TableEvent
from dealer_assist.vision.frames import FrameSource, SourceError
from dealer_assist.vision.pipeline import Pipeline

SHOW_PHASES = (Phase.SHOWDOWN, Phase.AWARDING, Phase.DONE)
"""The hand's phases in which a shown hand may be keyed in (until the cards are gathered, which ends the hand)."""


class VisionWorker(threading.Thread):
    """Reads a source, shows each frame through `slot`, runs the pipeline, queues the events and `Reached(t)`;
    before each frame, the referee's newest phase hint (`hints`) goes to the pipeline."""

    def __init__(self, source: FrameSource, pipeline: Pipeline, slot: LatestFrame | None = None,
                 ring: FrameRing | None = None, horizon_s: float = DEFAULT_HORIZON_S) -> None:
        super().__init__(name="vision", daemon=True)
        self.source = source
        self.ring = ring if ring is not None else FrameRing()
        self.pipeline = pipeline
        self.slot = slot
        self.events: queue.Queue[TableEvent | Reached] = queue.Queue()
        self.hints = PhaseMailbox()
        self.horizon_s = horizon_s
        self.last_t = 0.0
        self.last_seen: tuple[float, int] = (0.0, 0)  # the last frame processed: its time and index, set together
        self.status = "running"
        self.error: str | None = None
        self.skipped = 0  # frames that were not a colour image
        self._halt = threading.Event()

    def stop(self) -> None:
        self._halt.set()

    def run(self) -> None:
        try:
            while not self._halt.is_set():
                frame = self.source.read()
                if frame is None:
                    break
                if not colour_image(frame.image):   # a broken decode: skipped (counted), never drawn or tracked
                    self.skipped += 1
                    continue
                if self.slot is not None:
                    self.slot.put(frame)
                self.ring.add(frame)
                self.hints.deliver(self.pipeline)
                for event in self.pipeline.update(frame):
                    self.events.put(event)
                self.events.put(Reached(frame.t))
                self.last_seen = (frame.t, frame.index)
                self.last_t = frame.t
            for event in self.pipeline.flush():
                self.events.put(event)
            self.events.put(Reached(self.last_t, end=True))
            self.status = "ended" if not self._halt.is_set() else "stopped"
        except (SourceError, DealerAssistError, OSError) as exc:
            self.error = str(exc)
            self.status = "failed"
        finally:
            self.source.close()


class EventWorker(Protocol):
    """What LiveSession needs of its worker thread (VisionWorker, or the demo's SimVideoWorker)."""

    events: queue.Queue[Any]  # TableEvent and Reached, and for the demo also DealerAction
    hints: PhaseMailbox  # the referee's phase hint, for the worker's pipeline
    horizon_s: float  # how far behind the video the referee follows it
    last_t: float
    ring: FrameRing

    def start(self) -> None: ...

    def stop(self) -> None: ...

    def join(self, timeout: float | None = None) -> None: ...

    def is_alive(self) -> bool: ...


class InputJournal(Protocol):
    """Where the items the loop holds are journaled until the referee takes them (`store.held.HeldJournal`)."""

    def hold(self, item: TableEvent | DealerAction) -> None: ...

    def taken(self, item: TableEvent | DealerAction) -> None: ...

    def close(self) -> None: ...


class LiveSession:
    """The referee between the vision worker and the models; emits `award_ready(award)`. The log, flags and award are
    the referee's (`horizon_s` behind the video); the seats and prompt the look-ahead's (`view`)."""

    def __init__(self, referee: Referee, table: TableModel, flags: FlagListModel,
                 worker: EventWorker | None = None, journal: InputJournal | None = None) -> None:
        self.referee = referee
        self.table = table
        self.flags = flags
        self.worker = worker
        self.journal = journal
        self._view: Referee | None = None  # the look-ahead (None: nothing is held, the referee is the table now)
        self._stale = True                 # an item came or went since the look-ahead was made
        # Hint hand-over: an immutable PhaseHint swapped into the worker's mailbox, applied by the worker before a frame
        # (the tracker is only touched on its own thread; no lock around the pipeline, no hint torn mid-frame).
        self.loop = RefereeLoop(referee, worker.horizon_s if worker is not None else 0.0,
                                tracker=worker.hints if worker is not None else None, feed=self.feed)
        self.now = float("-inf")  # the video time the loop has been advanced to
        self.ended = False  # the worker's source ended and everything it queued has been fed
        self.closed = False  # the referee was closed (`stop`, `end_on_failure`): its hand ended, it takes no entries
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
        """Stop the worker; what it queued and what the loop still holds is refereed before the referee closes."""
        if self.worker is not None:
            self.worker.stop()
            self.worker.join(timeout=3)
            if not self.closed:
                self.poll(limit=None)
                self._feed_held()
        self._close_referee()

    def _close_referee(self) -> None:
        """Close the referee once (its hand in progress ends) at the last frame the worker read."""
        if not self.closed:
            self.closed = True
            self.referee.close(self.worker.last_t if self.worker is not None else 0.0)
            if self.journal is not None:
                self.journal.close()
            self.sync()

    def _feed_held(self) -> None:
        self.loop.drain()
        self._stale = True

    def end_on_failure(self) -> None:
        """The worker's source failed (a camera that vanished): what it queued is refereed, and the hand in progress
        ends (incomplete); the worker queues no end of its own then. The models show no seat to act any more: the
        pad takes no entry for a hand that has ended (`dealer_action` refuses one that comes anyway)."""
        self.poll(limit=None)
        self._feed_held()
        self.ended = True
        self._close_referee()

    def poll(self, limit: int | None = 500, wait_s: float = 0.0) -> int:
        """Take what the vision thread queued (at most `limit` items): events into the loop, and at each `Reached`
        the loop advanced (the referee fed, the tracker told). With `wait_s`, wait that long in all for more (a
        worker in lockstep, not paced by a clock, waits on each frame's hint). Returns how many items were taken."""
        if self.worker is None:
            return 0
        deadline = time.monotonic() + wait_s
        taken = 0
        while limit is None or taken < limit:
            left = 0.0 if self.ended else deadline - time.monotonic()
            try:
                item = self.worker.events.get(timeout=left) if left > 0 else self.worker.events.get_nowait()
            except queue.Empty:
                break
            self._take(item)
            taken += 1
        return taken

    def _take(self, item: TableEvent | DealerAction | Reached) -> None:
        if not isinstance(item, Reached):
            self._hold(item)
            return
        self.advance(item.t)
        if item.end:
            self._feed_held()
            self.ended = True
            self.sync()

    def _hold(self, item: TableEvent | DealerAction) -> None:
        """Into the loop (journaled first, so a crash from here on loses nothing); the look-ahead is made again."""
        if self.journal is not None:
            self.journal.hold(item)
        self.loop.push([item])
        self._stale = True

    def advance(self, now: float) -> None:
        """Feed the referee what is due at video time `now` (never back in time) and tell the tracker."""
        self.now = max(self.now, now)
        self.loop.advance(self.now)
        if self._stale:
            self.sync()

    @property
    def view(self) -> Referee:
        """The hand as it stands now: the referee, or where the loop still holds items, its look-ahead fed them in time
        order (made again only after an item came or went). What the pad and the seats show; not the record."""
        if self._stale:
            held = self.loop.orderer.held() if not self.closed else []
            self._view = self.referee.look_ahead(held) if held else None
            self._stale = False
        return self._view if self._view is not None else self.referee

    def feed(self, item: TableEvent | DealerAction) -> list[Output]:
        """Give the referee one item now (the loop calls this with the items it releases) and update the models."""
        if self.journal is not None:
            self.journal.taken(item)   # before: the log records it as the referee takes it (never twice after a crash)
        self._stale = True
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
        self._show_rulings()
        for out in outputs:
            if isinstance(out, AwardMade):
                self.award = out.award
                self.award_ready.emit(out.award)
        if not len(self.loop.orderer):
            self.sync()   # else once the loop has fed what is due (`advance`): one look-ahead, not one per item
        return outputs

    def dealer_action(self, action: DealerAction) -> bool:
        """An action from the pad, stamped with the video's time so it sorts with the camera's events: what the
        camera queued before it goes in first, then it goes in with them (`horizon_s` later, as they do).

        Returns False, recording nothing, once the session is closed (the camera was lost: its hand has ended)."""
        if self.closed:
            return False
        if self.worker is None:
            self._enter(action, action.t)
            return True
        t = self.worker.last_t  # read before draining: everything up to this frame is queued by now
        self.poll(limit=None)
        self._enter(replace(action, t=t), t)
        return True

    def _enter(self, item: DealerAction | CardsShown, t: float) -> None:
        """A dealer's entry into the loop, after what the camera queued before it: fed at once where nothing more
        will come (no worker, or its source ended), else with the camera's events up to video time `t`."""
        self._hold(item)
        if self.worker is None or self.ended:
            self.loop.drain()
        else:
            self.advance(t)
        self.sync()

    # --- a shown hand keyed in by the dealer ---------------------------------------------------------
    def verify_show(self, seat: int | None = None, cards: Sequence[Card] | None = None) -> None:
        """Raise DealerAssistError, in one line, when a shown hand keyed in cannot be taken now: the session was
        closed (the camera was lost), no hand is in progress or it is not at the showdown yet; with `seat`, the seat
        is not in the hand or its hand is dead (folded or mucked); with `cards`, they are not a whole hand of the
        game or a card repeats. Nothing else (the referee takes it as the seat's show)."""
        if self.closed:
            raise DealerAssistError("refereeing has stopped (the camera was lost): no hand takes an entry")
        view = self.view
        run = view.run
        if run is None:
            raise DealerAssistError("no hand in progress: a shown hand is entered at the showdown, before the cards "
                                    "are gathered")
        hand = run.hand
        # (or an all-in last draw the camera has not seen end: a hand turned up ends it, `HandRun.shows_at_showdown`)
        if hand.phase not in SHOW_PHASES and not run.shows_at_showdown():
            raise DealerAssistError(f"the hand is not at the showdown yet ({view.prompt.phase}): a shown hand "
                                    "is entered once the last betting round is over")
        if seat is not None:
            if seat not in hand.index_of:
                raise DealerAssistError(f"seat {seat} is not in the hand (seats {', '.join(map(str, hand.seats))})")
            # a seat the camera saw muck at the showdown may have shown: the referee takes the entry as that show
            if not hand.live[hand.index_of[seat]] and seat not in run.mucked_at_showdown:
                raise DealerAssistError(f"seat {seat} has folded or mucked: its hand is dead and is not shown")
        if cards is not None:
            size, game = run.rules.hand_size, run.rules.game
            if len(cards) != size:
                raise DealerAssistError(f"a {game} hand is {size} cards, not {len(cards)}: enter the seat's whole "
                                        f"hand, e.g. {ShowEntry(hand_size=size).example}")
            repeated = next((c for i, c in enumerate(cards) if c in cards[:i]), None)
            if repeated is not None:
                raise DealerAssistError(f"card {repeated} is entered twice; each card exists once in a deck")

    def show_refusal(self, seat: int | None = None, cards: Sequence[Card] | None = None) -> str | None:
        """Why a shown hand cannot be keyed in now (see `verify_show`), or None when it can."""
        try:
            self.verify_show(seat, cards)
        except DealerAssistError as exc:
            return str(exc)
        return None

    @property
    def show_seat(self) -> int | None:
        """The seat whose hand the dealer most likely keys in: the one the referee waits on to show, else the first
        live seat whose show went unread (its cards are not all known, or a flag says the camera could not read it)."""
        view = self.view
        run = view.run
        if run is None:
            return None
        hand = run.hand
        if hand.next_shower is not None:
            return hand.next_shower
        if hand.phase not in SHOW_PHASES:
            return None
        live = [s for s in hand.seats if hand.live[hand.index_of[s]]]
        for seat in live:
            if any(c is None for c in hand.hands[hand.index_of[seat]]):
                return seat
        record = view.record
        flagged = [f.seat for f in record.flags if UNREAD_SHOW in f.message] if record is not None else []
        return next((s for s in flagged if s in live), None)

    def enter_show(self, seat: int, cards: Sequence[Card]) -> str | None:
        """The dealer keyed in `seat`'s shown hand (the camera could not read it): it goes to the referee as the
        seat's show marked entered, stamped with the video's time and frame as the dealer's actions are, so it sorts
        with the camera's events and is recorded as it happens; the pots are awarded on it as on a read show.

        Returns why it was refused (`verify_show`, checked once what the camera queued before it is refereed), or
        None when it was taken. A refused entry records nothing."""
        if self.closed:
            return self.show_refusal(seat, cards)
        if self.worker is None:
            t, frame = (self.now if self.now > float("-inf") else 0.0), 0
        else:
            t, frame = getattr(self.worker, "last_seen", (self.worker.last_t, 0))  # read before draining, as
            self.poll(limit=None)                                                 # `dealer_action` does
        reason = self.show_refusal(seat, cards)
        if reason is not None:
            return reason
        self._enter(CardsShown(t, frame, seat, tuple(cards), entered=True), t)
        return None

    def _flag(self, flag: Flag) -> None:
        self.flags.add(flag)

    def _show_rulings(self) -> None:
        """The referee's own rulings on its flags (a short draw a whole shown hand disproved), shown in the list."""
        record = self.referee.hands[-1] if self.referee.hands else None
        if record is None:
            return
        for entry_id, number in self._flag_index.items():
            fix = record.resolutions.get(number)
            if fix is not None and fix.by == REFEREE_BY and self.flags.entry(entry_id).resolution == "open":
                self.flags.settle(entry_id, FLAG_RULINGS[fix.kind], f"by the referee: {fix.reason}")

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
            return
        self._stale = True                 # the look-ahead copies the referee's hand: made again with the ruling
        if self.award is not None:
            self.award_ready.emit(self.award)  # the board drops "provisional" once its flags are resolved

    @property
    def award_note(self) -> str | None:
        """Why the hand's award is provisional (flags the floor has not resolved), or None when it stands."""
        if not self.referee.hands:
            return None
        record = self.referee.hands[-1]
        pending = award_waits_on(record)
        return pending_reason([record.flags[n] for n in pending]) if pending else None

    def sync(self) -> None:
        """The seats and the prompt as the table stands now (`view`)."""
        view = self.view
        run = view.run
        if run is not None:
            states = hand_seat_states(run.hand, labels=())
            self.table.set_seats(states, game=run.rules.game, button=run.hand.button)
        self.table.set_prompt(view.prompt)
