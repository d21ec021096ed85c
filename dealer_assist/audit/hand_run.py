"""One deal refereed: a rules Hand driven by what the camera saw and what the dealer entered.

Hole cards are unknown (None) until shown. Blinds and antes are posted when the hand starts (the
camera does not see chips). Every input is checked; a flagged input is still followed the way the
table really went (see `deal`, `action_check` and the draw rules below), so one mistake raises one
flag and later checks stay meaningful. Inputs that come before their turn wait in `pending` and are
applied when their turn comes (a fold out of turn stands; an out-of-turn check, call or raise stands
if it is still legal as entered, else it is dropped and the seat acts again).

Draws: a seat that lets the next seat discard first stood pat. With the `sequential` procedure a
discard while the seat before is still owed cards is held until the next card: if that card goes to
the owed seat, the discard came out of order; otherwise the owed seat was short-changed. The burn
and a reshuffle are not seen by the camera; they are taken as done when the next card is due.
"""

from __future__ import annotations

from dealer_assist.audit.action_check import apply_action
from dealer_assist.audit.deal import DealChecker, DealNote, Slot
from dealer_assist.audit.flags import make_flag
from dealer_assist.audit.outputs import AwardMade, HandStart, KeyMoment, Output
from dealer_assist.audit.records import DealerAction, Flag, FlagKind, Severity
from dealer_assist.cards import Card
from dealer_assist.rules.awards import Award
from dealer_assist.rules.hand import Hand, Phase
from dealer_assist.rules.steps import Awarded, IllegalStep
from dealer_assist.rules.stub import USED
from dealer_assist.vision.events import (
    CardBurned,
    CardDealt,
    CardExposed,
    CardReplaced,
    CardsDiscarded,
    CardsShown,
    SeatFolded,
    TableEvent,
)

Pending = DealerAction | CardsShown | SeatFolded | CardReplaced
VISION_PHASES = {Phase.POSTING: "deal", Phase.DEALING: "deal", Phase.BETTING: "betting", Phase.DRAWING: "draw"}


class HandRun:
    """The referee's view of one deal; `feed()` takes inputs in order, `outputs` collects what it raised."""

    def __init__(self, start: HandStart) -> None:
        self.start = start
        self.rules = start.rules
        self.hand = Hand(start.rules, start.stacks_by_seat, start.button)
        self.hand.post_all()
        self.deal = DealChecker(self.hand.seats, start.rules.hand_size)
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
        self._show_t: dict[int, float] = {}
        self._turned: dict[int, list[Card]] = {}
        """When each seat showed or mucked at showdown (by the event's time, not its arrival)."""
        self._once: set[tuple[object, ...]] = set()
        self.physical: dict[int, int] = dict.fromkeys(self.hand.seats, 0)
        """Cards in front of each seat as the camera counted them (a misdeal makes it differ from the Hand)."""
        self._last_phase = self.hand.phase
        self._last_draw = 0
        self.cards_seen = False

    # -- queries -----------------------------------------------------------------------------------

    @property
    def phase(self) -> Phase:
        return self.hand.phase

    @property
    def vision_phase(self) -> str:
        """The phase hint for the tracker: "deal", "betting", "draw" or "showdown"."""
        return VISION_PHASES.get(self.hand.phase, "showdown")

    @property
    def done(self) -> bool:
        return self.hand.phase is Phase.DONE

    # -- the input step ----------------------------------------------------------------------------

    def feed(self, item: TableEvent | DealerAction) -> None:
        """Check one input against the hand and follow it."""
        t, frame = item.t, getattr(item, "frame", None)
        if isinstance(item, DealerAction):
            self._action(item, frame)
        elif isinstance(item, CardDealt):
            self._dealt(item)
        elif isinstance(item, CardExposed):
            self._exposed(item)
        elif isinstance(item, CardBurned):
            self._finish_deal()
            if self.hand.can_burn():
                self.hand.burn(None)
        elif isinstance(item, CardsDiscarded):
            self._finish_deal()
            self._discarded(item)
        elif isinstance(item, CardReplaced):
            self._finish_deal()
            self._replaced(item)
        elif isinstance(item, SeatFolded):
            self._finish_deal()
            self._folded(item)
        elif isinstance(item, CardsShown):
            self._finish_deal()
            self._shown(item)
        self._drain()
        self._after(t, frame)

    def settle(self, t: float, frame: int | None) -> None:
        """The cards are being gathered: finish what the table finished (mucks at showdown) and award."""
        self._finish_deal()
        hand = self.hand
        while hand.phase is Phase.SHOWDOWN:
            self._drain()
            seat = hand.next_shower
            if seat is None or hand.phase is not Phase.SHOWDOWN:
                break
            shown = any(isinstance(p, CardsShown) and p.seat == seat for p in self.pending)
            if shown or not hand.can_muck(seat):
                if not any(f.severity is Severity.MISDEAL for f in self.flags):   # a misdeal explains it
                    what = "shown with the wrong number of cards" if shown else "gathered without being seen face up"
                    self._flag(FlagKind.UNEXPECTED_EVENT, seat, f"seat {seat}'s hand was {what}; the pots cannot "
                               "be awarded by the camera", t, frame, severity=Severity.WARNING)
                break
            hand.muck(seat)
            self._show_t[seat] = float("-inf")
        self._after(t, frame)

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

    def _after(self, t: float, frame: int | None) -> None:
        """Key moments and the award once the hand reaches them."""
        hand = self.hand
        if self._last_phase is Phase.DEALING and hand.phase is not Phase.DEALING:
            self.outputs.append(KeyMoment("deal complete", t, frame))
        if self._last_phase is Phase.DRAWING and (hand.phase is not Phase.DRAWING or hand.draw != self._last_draw):
            self.outputs.append(KeyMoment(f"draw {self._last_draw}", t, frame))
        if hand.phase is Phase.AWARDING:
            step = hand.award()
            assert isinstance(step, Awarded)
            self.award = step.award
            if not step.uncontested:
                self.outputs.append(KeyMoment("showdown", t, frame))
            self.outputs.append(AwardMade(step.award, step.uncontested, t, frame))
        self._last_phase, self._last_draw = hand.phase, hand.draw

    # -- the deal ----------------------------------------------------------------------------------

    def _apply_deal(self, slots: list[Slot], notes: list[DealNote]) -> None:
        for slot in slots:
            card = slot.card if slot.landed else None
            if card is not None and not self.hand.can_deal_card(None, card):
                card = None
            if self.hand.phase is Phase.DEALING:
                self.hand.deal_card(None, card)
        for note in notes:
            self._flag(note.kind, note.seat, note.message, note.t, note.frame)

    def _finish_deal(self) -> None:
        if not self.deal.finished:
            self._apply_deal(*self.deal.finish())

    def _dealt(self, ev: CardDealt) -> None:
        self.cards_seen = True
        if self.hand.phase is Phase.DRAWING:
            self._replaced(CardReplaced(ev.t, ev.frame, ev.seat, ev.card))
            return
        self.physical[ev.seat] = self.physical.get(ev.seat, 0) + 1
        self._apply_deal(*self.deal.card(ev.seat, ev.card, ev.t, ev.frame))

    def _exposed(self, ev: CardExposed) -> None:
        hand = self.hand
        if hand.phase in (Phase.AWARDING, Phase.DONE):
            return
        showdown = hand.phase is Phase.SHOWDOWN or (
            hand.phase is Phase.DRAWING and self.deal.finished and self._no_betting_next())
        if showdown:
            if ev.seat is not None and ev.card is not None:
                self._face_up(ev)
            return
        card = "a card" if ev.card is None else f"card {ev.card}"
        where = "on the stub" if ev.seat is None else f"at seat {ev.seat}"
        if not self.deal.finished:
            self._flag(FlagKind.CARD_EXPOSED, ev.seat, f"{card} was exposed {where} during the deal", ev.t, ev.frame)
        else:
            self._flag(FlagKind.CARD_EXPOSED, ev.seat, f"{card} was seen face up {where} ({hand.phase})", ev.t,
                       ev.frame, severity=Severity.WARNING)

    # -- betting -----------------------------------------------------------------------------------

    def _action(self, action: DealerAction, frame: int | None) -> None:
        self._finish_deal()
        hand = self.hand
        if hand.phase is Phase.DRAWING:
            self._close_draw(action.t, frame)
        seat = action.seat
        if seat in hand.index_of and not hand.live[hand.index_of[seat]] and action.action == "fold":
            return                                    # already folded (the camera saw it, or entered twice)
        if hand.phase is Phase.SHOWDOWN and action.action == "fold":
            self._folded(SeatFolded(action.t, frame or 0, seat))
            return
        if seat not in hand.index_of:
            self._flag(FlagKind.ILLEGAL_ACTION, seat, f"seat {seat} is not dealt in this hand; {action.action} "
                       "not applied", action.t, frame, option=None)
            return
        if not hand.live[hand.index_of[seat]]:
            self._flag(FlagKind.ILLEGAL_ACTION, seat, f"seat {seat} has folded; {action.action} not applied",
                       action.t, frame, option=None)
            return
        if hand.phase is not Phase.BETTING or hand.actor is None:
            kind = FlagKind.FOLD_OUT_OF_ORDER if action.action == "fold" else FlagKind.ACTION_OUT_OF_TURN
            self._flag(kind, seat, f"seat {seat} {action.action} while no betting round is under way "
                       f"({hand.phase})", action.t, frame)
            if action.action == "fold" and hand.phase is not Phase.DONE:
                self.pending.append(action)
            return
        if hand.actor != seat:
            kind = FlagKind.FOLD_OUT_OF_ORDER if action.action == "fold" else FlagKind.ACTION_OUT_OF_TURN
            heads_up = "heads_up_button_small_blind" if len(hand.seats) == 2 else None
            self._flag(kind, seat, f"seat {seat} {action.action} out of turn: seat {hand.actor} is to act; "
                       "it stands when its turn comes" + ("" if action.action == "fold" else " if still legal"),
                       action.t, frame, option=heads_up)
            self.pending = [p for p in self.pending if not (isinstance(p, DealerAction) and p.seat == seat)]
            self.pending.append(action)
            return
        result = apply_action(hand, action, frame)
        if result.flag is not None:
            self._add(result.flag)

    def _folded(self, ev: SeatFolded) -> None:
        hand = self.hand
        seat = ev.seat
        if seat not in hand.index_of or not hand.live[hand.index_of[seat]]:
            return
        held = self.physical.get(seat, 0)
        if hand.phase is Phase.DRAWING:
            self._sync_draw()
            if seat not in self._declared and seat not in self._collected and held:
                # Every card to the muck in a draw is a discard of them all (no one folds in a draw).
                self._discarded(CardsDiscarded(ev.t, ev.frame, seat, held))
                return
            self._flag(FlagKind.FOLD_OUT_OF_ORDER, seat, f"seat {seat} folded during draw {hand.draw}; it stands "
                       "when its turn to act comes", ev.t, ev.frame)
            self.physical[seat] = 0
            self.pending.append(ev)
            return
        self.physical[seat] = 0
        if hand.phase in (Phase.AWARDING, Phase.DONE):
            return
        if hand.phase is Phase.SHOWDOWN:
            if hand.next_shower == seat:
                if hand.can_muck(seat):
                    hand.muck(seat)
                    self._show_t[seat] = float("-inf")
            else:
                self.pending.append(ev)
            return
        self._action(DealerAction(seat, "fold", t=ev.t, source="vision"), ev.frame)

    # -- draws -------------------------------------------------------------------------------------

    def _sync_draw(self) -> None:
        if self.hand.phase is Phase.DRAWING and self.hand.draw != self._draw_no:
            self._draw_no = self.hand.draw
            self._declared, self._received, self._ooo_owed, self._collected = {}, {}, {}, {}

    def _no_betting_next(self) -> bool:
        """At most one seat in the hand has chips behind: the betting round after this draw is skipped."""
        hand = self.hand
        return sum(1 for i in range(len(hand.seats)) if hand.live[i] and hand.stacks[i] > 0) <= 1

    def _draw_seats(self) -> list[int]:
        return [self.hand.seats[i] for i in self.hand.draw_order]

    def _discarded(self, ev: CardsDiscarded) -> None:
        hand = self.hand
        self._sync_draw()
        if self._held is not None:
            self._resolve_held(None, ev.t, ev.frame)
        seat = ev.seat
        self.physical[seat] = max(0, self.physical.get(seat, 0) - ev.count)
        if hand.phase is Phase.BETTING and seat in self._declared and self._draw_no == hand.round:
            self._flag(FlagKind.DRAW_OUT_OF_ORDER, seat, f"seat {seat} discarded {ev.count} after draw "
                       f"{self._draw_no} was over", ev.t, ev.frame)
            self._ooo_owed[seat] = self._ooo_owed.get(seat, 0) + ev.count
            return
        if hand.phase is Phase.BETTING and seat in hand.index_of and hand.live[hand.index_of[seat]]:
            if hand.round < self.rules.draws:
                self._flag(FlagKind.UNEXPECTED_EVENT, seat, f"seat {seat} discarded while seat {hand.actor} is still "
                           "to act in the betting round", ev.t, ev.frame, severity=Severity.WARNING)
            return
        if hand.phase is not Phase.DRAWING or seat not in self._draw_seats():
            self._flag(FlagKind.UNEXPECTED_EVENT, seat, f"seat {seat} discarded {ev.count} outside its draw "
                       f"({hand.phase})", ev.t, ev.frame, severity=Severity.WARNING)
            return
        if (self.rules.draw_procedure == "discard_then_replace" and not hand.replaced_any
                and hand.next_discarder is not None and seat not in self._declared):
            # All seats discard before any replacement: the order the camera saw them in does not matter.
            before = self._collected.get(seat)
            if before is not None:
                ev = CardsDiscarded(before.t, before.frame, seat, before.count + ev.count, before.cards + ev.cards)
            self._collected[seat] = ev
            return
        if seat in self._declared and self._no_betting_next() and hand.draw < self.rules.draws:
            self._close_draw(ev.t, ev.frame)         # no betting between draws: this is the next draw
            self._sync_draw()
        if seat in self._declared:
            who = "stood pat" if self._declared[seat] == 0 else f"discarded {self._declared[seat]}"
            self._flag(FlagKind.DRAW_OUT_OF_ORDER, seat, f"seat {seat} discarded {ev.count} after the seats after it "
                       f"had drawn (it {who} in its turn)", ev.t, ev.frame)
            self._ooo_owed[seat] = self._ooo_owed.get(seat, 0) + ev.count
            return
        if self.rules.draw_procedure == "sequential" and hand.next_card_seat is not None:
            self._held = ev
            return
        self._declare(ev)

    def _declare(self, ev: CardsDiscarded) -> None:
        """Apply a discard in turn: seats before it that did not discard stood pat."""
        hand = self.hand
        seat = ev.seat
        while hand.phase is Phase.DRAWING and hand.next_discarder not in (None, seat):
            pat = hand.next_discarder
            assert pat is not None
            hand.discard(pat, 0)
            self._declared[pat] = 0
        if hand.phase is not Phase.DRAWING or hand.next_discarder != seat:
            return
        size = len(hand.cards(seat))
        count = min(ev.count, size)
        faces: list[Card | None] = list(ev.cards[:count])
        faces += [None] * (count - len(faces))
        try:
            hand.discard(seat, faces)
        except IllegalStep:
            try:
                hand.discard(seat, count)
            except IllegalStep as exc:
                self._flag(FlagKind.UNEXPECTED_EVENT, seat, f"seat {seat}'s discard of {count}: {exc.rule}", ev.t,
                           ev.frame, severity=Severity.WARNING, option=exc.option)
                return
        self._declared[seat] = count
        self._received[seat] = 0

    def _resolve_held(self, replacement_seat: int | None, t: float, frame: int | None) -> None:
        """The next input after a held discard: a card to the owed seat means the discard came early."""
        held = self._held
        assert held is not None
        owed_seat = self.hand.next_card_seat
        if replacement_seat is not None and replacement_seat == owed_seat:
            self._flag(FlagKind.DRAW_OUT_OF_ORDER, held.seat, f"seat {held.seat} discarded before seat {owed_seat} "
                       "got its replacements", held.t, held.frame, once=("early", self._draw_no, held.seat))
            return
        self._held = None
        self._short_change(t, frame)
        self._declare(held)

    def _short_change(self, t: float, frame: int | None) -> None:
        """Seats still owed cards when the table moved on: flag, then give them the cards they lack."""
        hand = self.hand
        seat = hand.next_card_seat
        draw = hand.draw
        while hand.phase is Phase.DRAWING and hand.draw == draw and seat is not None:
            owed = hand.owed_to(seat)
            got = self._received.get(seat, 0)
            if self.physical.get(seat, 0) < self.rules.hand_size:    # not a seat a misdeal left over
                self._flag(FlagKind.REPLACEMENTS_MISMATCH, seat, f"seat {seat} discarded {self._declared.get(seat, 0)} "
                           f"and got {got} replacement{'s' if got != 1 else ''} ({owed} short)", t, frame,
                           once=("mismatch", self._draw_no, seat))
            for _ in range(owed):
                if not self._give(seat, None):
                    return
            seat = hand.next_card_seat

    def _flush_collected(self) -> None:
        """Discard-then-replace: the declarations seen, in the draw's order; seats not seen stood pat."""
        hand = self.hand
        collected, self._collected = self._collected, {}
        for seat in self._draw_seats():
            if seat in collected and hand.phase is Phase.DRAWING:
                self._declare(collected[seat])
        draw = hand.draw
        while hand.phase is Phase.DRAWING and hand.draw == draw and hand.next_discarder is not None:
            pat = hand.next_discarder
            hand.discard(pat, 0)
            self._declared[pat] = 0

    def _close_draw(self, t: float, frame: int | None) -> None:
        """Betting resumed: undeclared seats stood pat, seats still owed were short-changed."""
        self._sync_draw()
        if self._collected:
            self._flush_collected()
        if self._held is not None:
            self._resolve_held(None, t, frame)
        hand = self.hand
        draw = hand.draw
        while hand.phase is Phase.DRAWING and hand.draw == draw:
            pat = hand.next_discarder
            if pat is not None:
                hand.discard(pat, 0)
                self._declared[pat] = 0
            elif hand.next_card_seat is not None:
                self._short_change(t, frame)
            else:
                break

    def _give(self, seat: int, card: Card | None) -> bool:
        """One replacement to the seat due; burn and reshuffle first when due (the camera does not see them)."""
        hand = self.hand
        if hand.burn_due:
            hand.burn(None)
        if hand.needs_reshuffle:
            hand.reshuffle()
        if card is not None and not hand.can_replace(seat, card):
            card = None
        try:
            hand.replace(seat, card)
        except IllegalStep:
            return False
        self._received[seat] = self._received.get(seat, 0) + 1
        return True

    def _replaced(self, ev: CardReplaced) -> None:
        hand = self.hand
        self._sync_draw()
        seat = ev.seat
        self.physical[seat] = self.physical.get(seat, 0) + 1
        if self._held is not None:
            self._resolve_held(seat, ev.t, ev.frame)
        if self._ooo_owed.get(seat, 0) > 0:
            self._ooo_owed[seat] -= 1
            return
        if (hand.phase is Phase.DRAWING and self.rules.draw_procedure == "discard_then_replace"
                and (self._collected or seat in self._declared)):
            self._flush_collected()                   # replacing began: the seats not seen stood pat
        if hand.phase is Phase.DRAWING and hand.next_card_seat == seat:
            self._replace_due(ev)
            return
        if hand.phase is Phase.DRAWING and hand.owed_to(seat) > 0:
            self._flag(FlagKind.DRAW_OUT_OF_ORDER, seat, f"seat {seat} got a replacement before seat "
                       f"{hand.next_card_seat}", ev.t, ev.frame, once=("early-card", self._draw_no, seat))
            self.pending.append(ev)
            return
        if self._held is not None and self._held.seat == seat:
            self.pending.append(ev)
            return
        if seat in self._declared or (hand.phase is Phase.DRAWING and seat in self._draw_seats()):
            got = self._received.get(seat, 0) + 1
            self._received[seat] = got
            if self.physical[seat] <= self.rules.hand_size:       # it makes up a seat a misdeal left short
                return
            self._flag(FlagKind.REPLACEMENTS_MISMATCH, seat, f"seat {seat} discarded {self._declared.get(seat, 0)} "
                       f"and got {got} replacements", ev.t, ev.frame, once=("mismatch", self._draw_no, seat))
            return
        self._flag(FlagKind.UNEXPECTED_EVENT, seat, f"a card arrived at seat {seat} outside a draw ({hand.phase})",
                   ev.t, ev.frame, severity=Severity.WARNING)

    def _replace_due(self, ev: CardReplaced) -> None:
        card = ev.card
        hand = self.hand
        if card is not None and hand.stub.locate(card) == USED:
            self._flag(FlagKind.DISCARD_RETURNED, ev.seat, f"card {card} went back to seat {ev.seat} as a replacement "
                       "after it was discarded or burned", ev.t, ev.frame)
            card = None
        elif card is not None and hand.stub.locate(card) >= 0:
            card = None
        if not self._give(ev.seat, card):
            self._flag(FlagKind.UNEXPECTED_EVENT, ev.seat, f"the stub cannot give seat {ev.seat} a card now", ev.t,
                       ev.frame, severity=Severity.WARNING, option="last_card_dealable")

    # -- showdown ----------------------------------------------------------------------------------

    def _face_up(self, ev: CardExposed) -> None:
        """Cards turned one by one at showdown: all of a seat's cards face up is a show (short hands too)."""
        assert ev.seat is not None and ev.card is not None
        up = self._turned.setdefault(ev.seat, [])
        if ev.card not in up:
            up.append(ev.card)
        if len(up) == self.physical.get(ev.seat) and len(up) != self.rules.hand_size:
            self._shown(CardsShown(ev.t, ev.frame, ev.seat, tuple(up)))

    def _shown(self, ev: CardsShown) -> None:
        hand = self.hand
        seat = ev.seat
        if hand.phase in (Phase.AWARDING, Phase.DONE) or seat not in hand.index_of:
            return
        if not hand.live[hand.index_of[seat]]:
            return
        self.pending = [p for p in self.pending if not (isinstance(p, CardsShown) and p.seat == seat)]
        while hand.phase is Phase.DRAWING and self._no_betting_next():
            self._close_draw(ev.t, ev.frame)         # the draws are over (no betting between them): showdown
        if hand.phase is Phase.SHOWDOWN and hand.next_shower == seat:
            self._show(ev)
        else:
            self.pending.append(ev)

    def _show(self, ev: CardsShown) -> bool:
        hand = self.hand
        if len(ev.cards) != self.rules.hand_size:
            if len(ev.cards) == self.physical.get(ev.seat) and hand.can_muck(ev.seat):
                hand.muck(ev.seat)                  # the wrong number of cards (after a flagged error): dead
                self._shown_in_order(ev)
                return True
            self.pending.append(ev)                 # partly turned over: wait for the rest
            return False
        try:
            hand.show(ev.seat, ev.cards)
        except IllegalStep as exc:
            self._flag(FlagKind.UNEXPECTED_EVENT, ev.seat, f"seat {ev.seat} showed {' '.join(map(str, ev.cards))}: "
                       f"{exc.rule}", ev.t, ev.frame, severity=Severity.WARNING)
            return False
        self._shown_in_order(ev)
        return True

    def _shown_in_order(self, ev: CardsShown) -> None:
        """A show is out of order when a seat due before it showed or mucked later (by the table's clock)."""
        late = sorted(s for s, t in self._show_t.items() if t > ev.t + 1e-6)
        self._show_t[ev.seat] = ev.t
        if late:
            self._flag(FlagKind.SHOW_OUT_OF_ORDER, ev.seat, f"seat {ev.seat} showed before seat "
                       f"{' and '.join(map(str, late))}, whose turn came first", ev.t, ev.frame,
                       once=("show", ev.seat))

    # -- waiting inputs ----------------------------------------------------------------------------

    def _due(self, item: Pending) -> bool:
        hand = self.hand
        if isinstance(item, DealerAction):
            return hand.phase is Phase.BETTING and hand.actor == item.seat
        if isinstance(item, CardReplaced):
            return hand.phase is Phase.DRAWING and hand.next_card_seat == item.seat
        if isinstance(item, CardsShown):
            return (hand.phase is Phase.SHOWDOWN and hand.next_shower == item.seat
                    and len(item.cards) in (self.rules.hand_size, self.physical.get(item.seat)))
        return (hand.phase is Phase.SHOWDOWN and hand.next_shower == item.seat) or (
            hand.phase is Phase.BETTING and hand.actor == item.seat)

    def _apply_pending(self, item: Pending) -> None:
        hand = self.hand
        if isinstance(item, DealerAction):
            legal = {
                "fold": hand.can_fold(item.seat), "check": hand.can_check(item.seat),
                "call": hand.can_call(item.seat) or hand.can_check(item.seat),
                "bet": hand.can_bet(item.amount or 0, item.seat),
                "raise": hand.can_raise_to(item.amount or 0, item.seat),
            }[item.action]
            if legal:
                result = apply_action(hand, item, None)
                if result.flag is not None:
                    self._add(result.flag)
        elif isinstance(item, CardReplaced):
            self._replace_due(item)
        elif isinstance(item, CardsShown):
            self._show(item)
        elif hand.phase is Phase.SHOWDOWN:
            if hand.can_muck(item.seat):
                hand.muck(item.seat)
                self._show_t[item.seat] = float("-inf")
        else:
            self._action(DealerAction(item.seat, "fold", t=item.t, source="vision"), item.frame)

    def _drain(self) -> None:
        hand = self.hand
        progress = True
        while progress:
            progress = False
            if self._held is not None and hand.phase is Phase.DRAWING and hand.next_card_seat is None:
                held, self._held = self._held, None
                self._declare(held)
                progress = True
                continue
            for item in self.pending:
                if self._due(item):
                    self.pending.remove(item)
                    self._apply_pending(item)
                    progress = True
                    break
