"""The state one refereed deal keeps besides the rules Hand, and how it raises flags."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeVar

from dealer_assist.audit.deal import DealChecker, DealNote
from dealer_assist.audit.flags import make_flag
from dealer_assist.audit.outputs import HandStart, Output
from dealer_assist.audit.records import DealerAction, Flag, FlagKind, Severity
from dealer_assist.cards import Card
from dealer_assist.rules.awards import Award
from dealer_assist.rules.hand import Hand, Phase
from dealer_assist.vision.events import (
    CardExposed,
    CardReplaced,
    CardsDiscarded,
    CardsShown,
    SeatFolded,
)

Pending = DealerAction | CardsShown | SeatFolded | CardReplaced


Waiting = TypeVar("Waiting")


def take_entry(waiting: list[tuple[DealerAction, Waiting]], entry: DealerAction) -> list[tuple[DealerAction, Waiting]]:
    """The pairs of `entry` (the very record, not an equal one), taken out of `waiting`: the lists of entries keyed out
    of turn that wait, each with what it was keyed with, for the moment the entry comes to stand."""
    found = [pair for pair in waiting if pair[0] is entry]
    waiting[:] = [pair for pair in waiting if pair[0] is not entry]
    return found


@dataclass(slots=True)
class ShortDraw:
    """A seat a draw left short when the table moved on: what it discarded and got, what it is still owed, when."""

    discarded: int
    got: int
    owed: int
    t: float
    frame: int | None
    draw_no: int


class RunState:
    """What the deal, draw, betting and showdown checks share: the Hand, the camera's counts, the outputs."""

    def __init__(self, start: HandStart, camera: bool = False) -> None:
        self.start = start
        self.rules = start.rules
        self.hand = Hand(start.rules, start.stacks_by_seat, start.button)
        self.hand.post_all()
        self.camera = camera
        self.deal = DealChecker(self.hand.seats, start.rules.hand_size, camera=camera)
        self._deal_held: tuple[list[DealNote], float] | None = None
        """At a camera's table, the deal's findings and when the table moved on, until `SHORT_GRACE_S` passed."""
        self._short: dict[int, ShortDraw] = {}
        """At a camera's table, seats a draw left short when the table moved on, until their replacements land within
        `SHORT_GRACE_S` (the camera confirmed them late) or that time passes."""
        self.outputs: list[Output] = []
        self.flags: list[Flag] = []
        self.award: Award | None = None
        self.pending: list[Pending] = []
        self._held: CardsDiscarded | None = None
        self._draw_no = 0
        self._declared: dict[int, int] = {}
        self._received: dict[int, int] = {}
        self._ooo_owed: dict[int, int] = {}
        self._collected: dict[int, CardsDiscarded] = {}
        self._muck_ended_draw: int | None = None
        """The seat whose cards going to the muck ended an all-in last draw (`DrawChecks._muck_ends_draw`): a card it
        gets after is a second draw, not a muck."""
        self._muck_read: CardsDiscarded | None = None
        """A seat's whole hand going, read as a discard, that may be the muck ending an all-in last draw
        (`HandRun._muck_read_as_discard`), until the next input says whether its cards come back."""
        self._taken: dict[int, tuple[str, int]] = {}
        """Seats taken to have checked or called for an entry never made, with what they were taken to do and in
        which betting round, until that entry comes late (see `HandRun._late_entry_of_taken`)."""
        self._last_entry: DealerAction | None = None
        """The dealer's entry before this one, while no table event came since (a repeat of it is a key pressed
        twice)."""
        self._entry_before: DealerAction | None = None
        """The dealer's entry before this one, while the camera saw nothing since but cards going to the muck."""
        self._doubted: dict[int, DealerAction] = {}
        """A check or call that stood as a seat's say in turn though the seat had been taken to make the same a
        round before: if the seat's next entry does not fit, this one was that late entry (an error flag)."""
        self._keyed_in_round: list[tuple[DealerAction, int]] = []
        """Entries keyed out of turn, with the betting round they were keyed in (`HandRun._flag_stale_entry`)."""
        self._fold_of_nothing: list[tuple[DealerAction, int | None]] = []
        """Folds keyed out of turn that would answer no bet (`HandRun._flag_answer_to_nothing`): flagged if they stand
        as the seat's fold when its turn comes, not if the camera shows them another seat's, keyed for the wrong one."""
        self._early: list[tuple[CardsDiscarded, int | None]] = []
        """Discards seen while a betting round before a draw was still open, with the seat then to act."""
        self._late_held: list[CardsDiscarded] = []
        """At a camera's table, discards that may be late for the draw just over or early for the next (among
        `_early` too), until `ENTRY_LAG_S` says which (`DrawChecks._release_late`)."""
        self._next_held: list[tuple[CardsDiscarded, int]] = []
        """Discards by a seat done drawing in the draw under way, at a camera's table, with that draw's number: the
        next draw's if it opens within `ENTRY_LAG_S` (the betting between keyed late: `_release_next_draw`)."""
        self._show_t: dict[int, float] = {}
        """When each seat showed at showdown (by the event's time, not its arrival; mucks count as never)."""
        self._turned: dict[int, list[Card]] = {}
        """Cards of each seat turned face up one by one at showdown."""
        self.taken_in: Phase | None = None
        """The phase the last dealer entry was taken in: an entry that ends a draw (the seats left stood pat) is the
        next betting round's, though the draw was still on when it came."""
        self._entered: set[int] = set()
        """Seats whose shown hand the dealer keyed in (`CardsShown.entered`): the camera's reads of it no longer
        count."""
        self._once: set[tuple[object, ...]] = set()
        self.short_flags: dict[int, list[Flag]] = {}
        """Each seat's flags for a draw that left it short (`DrawChecks._short_flag`): a whole hand the seat shows later
        says the camera missed the card (`Referee._settle_short_draws`)."""
        self._fold_held: dict[int, tuple[str, float, int | None]] = {}
        """At a camera's table, folds the camera saw out of turn, with their flag's words, time and frame, until the
        seat's turn comes or `ENTRY_LAG_S` passes (`HandRun._release_folds`)."""
        self._muck_in_lag: set[int] = set()
        """Seats whose cards the camera saw go out of turn in the last betting round, less than `ENTRY_LAG_S` before the
        round closed without their turn (`HandRun._folds_at_showdown`): their muck at the showdown, as far as known."""
        self._draw_muck_held: dict[int, tuple[SeatFolded | CardsDiscarded, int]] = {}
        """At a camera's table, whole hands the camera saw go during a draw from seats yet to draw in it (a fold, or a
        discard of every card held), with the draw's number: a discard of them all, or a fold facing the bet that a
        late entry will show opened the betting (`HandRun._release_draw_mucks`)."""
        self._missing_held: dict[int, tuple[str, float, int | None]] = {}
        """At a camera's table, the flags of seats taken to check or call for an entry not yet made, with their time and
        frame, until the entry comes keyed late or `ENTRY_LAG_S` passes (`HandRun._release_missing`)."""
        self._exposed_held: list[tuple[CardExposed, Phase]] = []
        """At a camera's table, cards seen face up at seats in the last draw or the betting round after it, with the
        phase they were seen in, until the showdown comes (they were shows beginning) or `ENTRY_LAG_S` passes
        (`HandRun._release_exposed`)."""
        self._draw_fold_held: dict[int, tuple[str, SeatFolded, int]] = {}
        """Folds the camera saw during a draw by a seat done drawing, at a camera's table: the entries that end the
        draw may be keyed late (`HandRun._release_draw_folds`); the flag's words, the fold and the draw's number."""
        self._now = 0.0
        """The time of the input being followed."""
        self._fold_wait: SeatFolded | None = None
        """At a camera's table, a fold the camera saw in the seat's turn, waiting `ENTRY_LAG_S` for that seat's say
        keyed late (`HandRun._release_fold_wait`)."""
        self._camera_fold_t = float("-inf")
        """When the camera last saw a seat's cards go to the muck."""
        self._award_hold: float | None = None
        """At a camera's table, until when the award a fold the camera saw made waits (`ENTRY_LAG_S` after it): the
        dealer may key, late, a say that seat made before its cards went."""
        self.physical: dict[int, int] = dict.fromkeys(self.hand.seats, 0)
        """Cards in front of each seat as the camera counted them (a misdeal makes it differ from the Hand)."""
        self._betting_round: int | None = None
        """The betting round under way after the last input (None: none), to see one close."""
        self._last_phase = self.hand.phase
        self._last_draw = 0
        self.cards_seen = False
        self._first_card_t: float | None = None
        """When this draw's first replacement landed."""
        self.reorder = False
        """An input turned out to have been confirmed late: the referee feeds the hand again in time order."""
        self.reordered = False

    # -- outputs -----------------------------------------------------------------------------------

    def _flag(self, kind: FlagKind, seat: int | None, message: str, t: float, frame: int | None, *,
              severity: Severity | None = None, option: str | None = None, once: tuple[object, ...] | None = None,
              ) -> None:
        if once is not None:
            if once in self._once:
                return
            self._once.add(once)
        self._add(make_flag(kind, seat, message, t, frame, severity=severity, option=option))

    def _add(self, flag: Flag) -> None:
        self.flags.append(flag)
        self.outputs.append(flag)

