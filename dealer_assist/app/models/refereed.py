"""The demo through the referee: every step of the simulated hand becomes what the camera and the
dealer would report (cards dealt face down, discards, replacements, shows, betting actions), fed to
a `Referee`; the live view then shows the referee's prompt, flags and award, as it will at a real
table. The simulated Hand stays the ground truth: the two awards are compared at showdown.
"""

from __future__ import annotations

from dealer_assist.app.models.demo_driver import DemoDriver
from dealer_assist.app.models.flags import FlagListModel
from dealer_assist.audit.outputs import AwardMade
from dealer_assist.audit.records import DealerAction, Flag, FlagKind, Prompt, Severity
from dealer_assist.audit.referee import Referee
from dealer_assist.audit.table import TableConfig
from dealer_assist.errors import DealerAssistError
from dealer_assist.rules.awards import Award
from dealer_assist.rules.steps import (
    BetTo,
    Burned,
    Called,
    Checked,
    Dealt,
    Discarded,
    Folded,
    RaisedTo,
    Replaced,
    Shown,
)
from dealer_assist.vision.events import CardBurned, CardDealt, CardReplaced, CardsDiscarded, CardsShown, TableEvent

FPS = 30.0


def step_input(step: object, t: float) -> TableEvent | DealerAction | None:
    """What the camera or the dealer reports for one step of the simulated hand (None: nothing seen)."""
    frame = int(t * FPS)
    if isinstance(step, Dealt):
        return CardDealt(t, frame, step.seat, None)
    if isinstance(step, Burned):
        return CardBurned(t, frame)
    if isinstance(step, Discarded):
        return CardsDiscarded(t, frame, step.seat, step.count)
    if isinstance(step, Replaced):
        return CardReplaced(t, frame, step.seat, None)
    if isinstance(step, Shown):
        return CardsShown(t, frame, step.seat, tuple(step.cards))
    if isinstance(step, Folded):
        return DealerAction(step.seat, "fold", t=t)
    if isinstance(step, Checked):
        return DealerAction(step.seat, "check", t=t)
    if isinstance(step, Called):
        return DealerAction(step.seat, "call", t=t)
    if isinstance(step, BetTo):
        return DealerAction(step.seat, "bet", step.amount, t=t)
    if isinstance(step, RaisedTo):
        return DealerAction(step.seat, "raise", step.amount, t=t)
    return None


class RefereedDemo:
    """Mirrors a DemoDriver into a fresh Referee per hand; flags go to `flags`, the award to `award`."""

    def __init__(self, driver: DemoDriver, flags: FlagListModel | None = None) -> None:
        self.driver = driver
        self.flags = flags
        self.referee: Referee | None = None
        self.award: Award | None = None
        self.raised: list[Flag] = []
        self.failed: str | None = None
        self.seen = 0
        self.t = 0.0
        driver.hand_started.connect(self.start_hand)
        driver.stepped.connect(self.feed_new)
        driver.prompt_source = self.prompt
        self.start_hand()

    def start_hand(self) -> None:
        hand = self.driver.hand
        config = TableConfig(self.driver.rules, tuple(sorted(hand.stacks_by_seat().items())), hand.button)
        self.referee = Referee(config)
        self.award = None
        self.failed = None
        self.seen = 0
        if self.flags is not None:
            self.flags.clear()

    def prompt(self) -> Prompt | None:
        """The referee's prompt while it referees a hand (None: let the driver say what is due)."""
        if self.referee is None or self.referee.run is None:
            return None
        return self.referee.prompt

    def feed_new(self) -> None:
        referee = self.referee
        if referee is None:
            return
        history = self.driver.hand.history
        for step in history[self.seen:]:
            self.t += 0.25
            item = step_input(step, round(self.t, 2))
            if item is None:
                continue
            if not self.report(item):
                break
        self.seen = len(history)
        truth = self.driver.award
        if truth is not None and self.award is not None and dict(truth.totals) != dict(self.award.totals):
            self._flag(Flag(FlagKind.UNEXPECTED_EVENT, Severity.ERROR, None, "award", None,
                            f"the referee's award {dict(self.award.totals)} differs from the simulation's "
                            f"{dict(truth.totals)}", self.t))

    def report(self, item: TableEvent | DealerAction) -> bool:
        """Feed one camera event or dealer action to the referee and route what it raises; False if it failed."""
        referee = self.referee
        if referee is None:
            return False
        try:
            outputs = referee.feed(item)
        except DealerAssistError as exc:  # the referee must never take the table down: flag it, step aside
            self.failed = f"{type(exc).__name__}: {exc}"
            self._flag(Flag(FlagKind.UNEXPECTED_EVENT, Severity.ERROR, getattr(item, "seat", None), "referee",
                            None, f"referee stopped on {type(item).__name__}: {exc}", item.t))
            self.referee = None
            return False
        for out in outputs:
            if isinstance(out, Flag):
                self._flag(out)
            elif isinstance(out, AwardMade):
                self.award = out.award
        return True

    def _flag(self, flag: Flag) -> None:
        self.raised.append(flag)
        if self.flags is not None:
            self.flags.add(flag)
