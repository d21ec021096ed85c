"""The demo: a simulated hand played step by step into the live view's models (Qt-free).

The dealer's steps (posts, cards, burns, draws, shows) play themselves; betting either plays itself
(`auto_bet`) or waits for the dealer to enter each action on the action pad, which `apply` checks
against the rules Hand: an illegal action is refused with the rule that forbids it.
"""

from __future__ import annotations

import contextlib
import queue
import random
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from dealer_assist.app.models.flags import FlagListModel
from dealer_assist.app.models.log_sink import WRITE_ERRORS
from dealer_assist.app.models.signal import Signal
from dealer_assist.app.models.table import SeatState, SeatStatus, TableModel
from dealer_assist.audit.prompt import legal_actions
from dealer_assist.audit.records import DealerAction, Prompt
from dealer_assist.errors import DealerAssistError
from dealer_assist.rules.awards import Award
from dealer_assist.rules.hand import Hand, Phase
from dealer_assist.rules.house_rules import HouseRules, HouseRulesError
from dealer_assist.rules.simulate import choose_action, default_stacks, step_dealer_or_draw
from dealer_assist.rules.steps import (
    Awarded,
    BetTo,
    Burned,
    Called,
    Checked,
    Dealt,
    Discarded,
    Folded,
    IllegalStep,
    RaisedTo,
    Replaced,
    Shown,
)
from dealer_assist.store.handlog import HandLog
from dealer_assist.vision.events import CardBurned, CardDealt, CardReplaced, CardsDiscarded, CardsShown

PLAYERS = ("Ana", "Ben", "Chen", "Dee", "Eli", "Fay", "Gus", "Hal", "Ivy", "Jo")


def rules_for(preset: str, small_blind: int | None = None, big_blind: int | None = None) -> HouseRules:
    """The preset's rules at the table's stakes (the preset's own stakes if these do not fit it)."""
    rules = HouseRules.preset(preset)
    if small_blind is None or big_blind is None:
        return rules
    try:
        changes: dict[str, int] = {"small_blind": small_blind, "big_blind": big_blind}
        if rules.betting == "fixed_limit":
            changes |= {"small_bet": big_blind, "big_bet": 2 * big_blind}
        return rules.with_options(**changes)
    except (HouseRulesError, ValueError):
        return rules


def hand_seat_states(hand: Hand, labels: Sequence[str] = PLAYERS) -> tuple[SeatState, ...]:
    """Each seat of a rules Hand as the seat panels show it: cards face down until shown, draws taken."""
    shown: set[int] = set()
    draws: dict[int, list[int]] = {s: [] for s in hand.seats}
    for step in hand.history:
        if isinstance(step, Shown):
            shown.add(step.seat)
        elif isinstance(step, Discarded):
            draws[step.seat].append(step.count)
    contributions = hand.contributions()
    states = []
    for i, seat in enumerate(hand.seats):
        live = hand.live[i]
        cards = hand.cards(seat) if live else ()
        visible = tuple(cards) if seat in shown else tuple(None for _ in cards)
        status: SeatStatus = "folded" if not live else ("all-in" if hand.stack(seat) == 0 else "in")
        label = (labels[(seat - 1) % len(labels)] if labels else "") + (" · button" if seat == hand.button else "")
        states.append(SeatState(seat, label.strip(" ·"), hand.stack(seat), visible, status, tuple(draws[seat]),
                                contributions[seat]))
    return tuple(sorted(states, key=lambda s: s.seat))


@dataclass(frozen=True, slots=True)
class StepResult:
    """What one call of `step` did: a short description, and whether the driver now waits for the pad."""

    text: str
    waiting: bool = False
    done: bool = False


class DemoDriver:
    """Plays hands of `rules` into `table` (and `flags`); emits `award_ready(award)` and `hand_started()`."""

    def __init__(
        self,
        rules: HouseRules,
        table: TableModel,
        flags: FlagListModel | None = None,
        players: int = 6,
        seed: int = 1,
        auto_bet: bool = True,
    ) -> None:
        self.rules = rules
        self.table = table
        self.flags = flags
        self.players = players
        self.rng = random.Random(seed)
        self.auto_bet = auto_bet
        self.hand_number = 0
        self.award: Award | None = None
        self.award_ready = Signal()
        self.hand_started = Signal()
        self.stepped = Signal()  # after every change to the hand (a step or an applied action)
        self.prompt_source: Callable[[], Prompt | None] | None = None  # e.g. the referee's prompt
        self.stacks: dict[int, int] = default_stacks(rules, players, self.rng, deep=True)
        self.button = self.rng.choice(sorted(self.stacks))
        self.hand = self._new_hand()

    # --- hands -------------------------------------------------------------------------------
    def _new_hand(self) -> Hand:
        self.hand_number += 1
        self.award = None
        hand = Hand(self.rules, self.stacks, self.button, rng=self.rng, seed=self.rng.randrange(2**32))
        self.hand = hand
        self.sync()
        self.hand_started.emit()
        return hand

    def next_hand(self) -> Hand:
        """Carry the stacks over (rebuying busted seats), move the button, deal a new hand."""
        unit = self.rules.big_blind * 20
        self.stacks = {s: (c if c > 0 else unit) for s, c in self.hand.stacks_by_seat().items()}
        seats = sorted(self.stacks)
        self.button = seats[(seats.index(self.button) + 1) % len(seats)]
        return self._new_hand()

    # --- stepping ----------------------------------------------------------------------------
    @property
    def waiting_for_dealer(self) -> bool:
        return self.hand.phase is Phase.BETTING and not self.auto_bet

    def step(self) -> StepResult:
        """One step of the hand: a dealer step, or (auto_bet) a betting action."""
        hand = self.hand
        if hand.done:
            return StepResult("hand over", done=True)
        if hand.phase is Phase.BETTING:
            if not self.auto_bet:
                return StepResult(f"waiting for seat {hand.actor}'s action", waiting=True)
            choose_action(hand, self.rng)
        else:
            step_dealer_or_draw(hand, self.rng, muck_rate=0.0)
        last = hand.history[-1] if hand.history else None
        if isinstance(last, Awarded):
            self.award = last.award
        self.stepped.emit()
        self.sync()
        if self.award is not None:
            self.award_ready.emit(self.award)
            return StepResult("award", done=True)
        return StepResult(type(last).__name__ if last is not None else "")

    def play_to_betting_or_end(self, limit: int = 10_000) -> StepResult:
        """Dealer steps until a betting decision is due from the pad, or the hand ends."""
        result = StepResult("")
        for _ in range(limit):
            result = self.step()
            if result.waiting or result.done:
                return result
        return result

    def apply(self, action: DealerAction) -> str | None:
        """Apply the dealer's action to the Hand; returns the refusal reason, or None when applied."""
        hand = self.hand
        try:
            if action.action == "fold":
                hand.fold(action.seat)
            elif action.action == "check":
                hand.check(action.seat)
            elif action.action == "call":
                hand.call(action.seat)
            elif action.action == "bet":
                assert action.amount is not None
                hand.bet(action.amount, action.seat)
            else:
                assert action.amount is not None
                hand.raise_to(action.amount, action.seat)
        except IllegalStep as exc:
            return str(exc)
        self.stepped.emit()
        self.sync()
        return None

    # --- models ------------------------------------------------------------------------------
    def prompt(self) -> Prompt:
        hand = self.hand
        opts = hand.options()
        if opts is not None:
            round_name = "before the draw" if hand.draw == 0 else f"after draw {hand.draw}"
            message = opts.why_no_raise or ""
            return Prompt(f"betting {round_name}", opts.seat, legal_actions(opts), stub_count=hand.stub_count,
                          message=message)
        phase = hand.phase
        if phase is Phase.POSTING and hand.next_post is not None:
            seat, kind, amount = hand.next_post
            text = f"seat {seat} posts the {kind} ({amount})"
        elif phase is Phase.DEALING:
            text = f"dealing: next card to seat {hand.next_card_seat}"
        elif phase is Phase.DRAWING:
            if hand.next_discarder is not None:
                text = f"draw {hand.draw}: seat {hand.next_discarder} to discard"
            elif hand.burn_due:
                text = f"draw {hand.draw}: burn a card"
            else:
                text = f"draw {hand.draw}: replacement card to seat {hand.next_card_seat}"
        elif phase is Phase.SHOWDOWN:
            text = f"showdown: seat {hand.next_shower} shows"
        elif phase is Phase.AWARDING:
            text = "awarding the pots"
        else:
            text = "hand over: read out the showdown board"
        owed = {s: hand.owed_to(s) for s in hand.seats if hand.owed_to(s)}
        return Prompt(str(phase), None, (), hand.next_card_seat, owed, hand.stub_count, hand.needs_reshuffle,
                      message=text)

    def seat_states(self) -> tuple[SeatState, ...]:
        return hand_seat_states(self.hand)

    def sync(self) -> None:
        """Push the hand's state into the table model (seats, pots, prompt)."""
        self.table.set_seats(self.seat_states(), game=self.rules.game, button=self.hand.button)
        prompt = self.prompt_source() if self.prompt_source is not None else None
        self.table.set_prompt(prompt if prompt is not None else self.prompt())


class DemoRecorder:
    """Records the demo's hands into the hand log as the referee would: the table events (cards dealt
    face down, discards, replacements, shows), every betting action, the award, the hand's end.

    Timestamps are seconds since the demo started, frames a 30 frames/s count, so Review reads as a
    real table's log. The driver's signals call `start_hand` and `record_new` on the UI thread; they
    only queue the work: a writer thread does the SQLite commits, so the UI never waits on the disk.
    """

    def __init__(self, log: HandLog, driver: DemoDriver, table: str = "demo (simulated)",
                 dealer: str = "simulator", threaded: bool = True) -> None:
        self.log = log
        self.driver = driver
        self.session = log.open_session(table, dealer, house_rules=driver.rules.to_dict())
        self.hand_id: int | None = None
        self.seen = 0
        self.started = time.monotonic()
        self.errors: list[str] = []
        self._hand_open = False  # UI-side: a hand was started and not yet awarded
        self._ended = False
        self._queue: queue.Queue[Callable[[], None] | None] = queue.Queue()
        self._writer: threading.Thread | None = None
        if threaded:
            self._writer = threading.Thread(target=self._drain, name="demo-recorder", daemon=True)
            self._writer.start()
        driver.hand_started.connect(self.start_hand)
        driver.stepped.connect(self.record_new)
        self.start_hand()

    def _drain(self) -> None:
        while True:
            job = self._queue.get()
            if job is None:
                return
            self._run(job)

    def _run(self, job: Callable[[], None]) -> None:
        try:
            job()
        except WRITE_ERRORS as exc:  # a full disk must not take the table down
            self.errors.append(str(exc) or type(exc).__name__)

    def _submit(self, job: Callable[[], None]) -> None:
        if self._writer is None:
            self._run(job)
        else:
            self._queue.put(job)

    def flush(self) -> None:
        """Wait until everything queued is written."""
        if self._writer is not None:
            done = threading.Event()
            self._queue.put(done.set)
            done.wait(timeout=10)

    def _when(self) -> tuple[float, int]:
        t = time.monotonic() - self.started
        return round(t, 3), int(t * 30)

    def start_hand(self) -> None:
        hand = self.driver.hand
        unfinished = self._hand_open and not self._ended
        t, _ = self._when()
        button, stacks, game = hand.button, dict(hand.stacks_by_seat()), self.driver.rules.game
        self.seen = 0
        self._ended = False
        self._hand_open = True

        def job() -> None:
            if unfinished and self.hand_id is not None:
                with contextlib.suppress(DealerAssistError):
                    self.log.end_hand(self.hand_id, "incomplete", reason="demo moved on before the award")
            self.hand_id = self.log.start_hand(self.session, button=button, stacks=stacks, game=game, t=t)

        self._submit(job)

    def record_new(self) -> None:
        history = self.driver.hand.history
        new = list(history[self.seen:])
        self.seen = len(history)
        if any(isinstance(step, Awarded) for step in new):
            self._ended = True
        t, frame = self._when()

        def job() -> None:
            for step in new:
                self._record(step, t, frame)

        self._submit(job)

    def _record(self, step: object, t: float, frame: int) -> None:
        assert self.hand_id is not None
        hand_id = self.hand_id
        if isinstance(step, Dealt):
            self.log.record_event(hand_id, CardDealt(t, frame, step.seat, None))
        elif isinstance(step, Burned):
            self.log.record_event(hand_id, CardBurned(t, frame))
        elif isinstance(step, Discarded):
            self.log.record_event(hand_id, CardsDiscarded(t, frame, step.seat, step.count))
        elif isinstance(step, Replaced):
            self.log.record_event(hand_id, CardReplaced(t, frame, step.seat, None))
        elif isinstance(step, Shown):
            self.log.record_event(hand_id, CardsShown(t, frame, step.seat, tuple(step.cards)))
        elif isinstance(step, Folded):
            self.log.record_action(hand_id, DealerAction(step.seat, "fold", t=t), frame=frame)
        elif isinstance(step, Checked):
            self.log.record_action(hand_id, DealerAction(step.seat, "check", t=t), frame=frame)
        elif isinstance(step, Called):
            self.log.record_action(hand_id, DealerAction(step.seat, "call", step.amount, t=t), frame=frame)
        elif isinstance(step, BetTo):
            self.log.record_action(hand_id, DealerAction(step.seat, "bet", step.amount, t=t), frame=frame)
        elif isinstance(step, RaisedTo):
            self.log.record_action(hand_id, DealerAction(step.seat, "raise", step.amount, t=t), frame=frame)
        elif isinstance(step, Awarded):
            self.log.record_award(hand_id, step.award, t=t)
            self.log.end_hand(hand_id, "complete", t=t)

    def close(self) -> None:
        """Write what is queued, end a hand in progress as incomplete, close the log."""
        unfinished = self._hand_open and not self._ended

        def finish() -> None:
            if unfinished and self.hand_id is not None:
                with contextlib.suppress(DealerAssistError):
                    self.log.end_hand(self.hand_id, "incomplete", reason="the app closed mid-hand")

        self._submit(finish)
        if self._writer is not None:
            self._queue.put(None)
            self._writer.join(timeout=10)
        self.log.close()
