"""The draws checked against the Hand: pats, short and extra replacements, out-of-order discards, reshuffles.

A seat that lets the next seat discard first stood pat. With the `sequential` procedure a discard
while the seat before is still owed cards is held until the next card: if that card goes to the owed
seat, the discard came out of order; otherwise the owed seat was short-changed. With
`discard_then_replace` the discards are collected and declared in the draw's order when replacing
begins (their order on camera does not matter). The camera's count of each seat's cards decides
whether a replacement too many or too few is an error or makes up for a flagged misdeal. The burn
and a reshuffle are not seen by the camera; they are taken as done when the next card is due. At a camera's table
(`TableConfig.camera`) a seat still owed replacements when the table moves on is flagged only if they do not land
within `SHORT_GRACE_S` after, and a discard is out of order only if the seat owed cards gets one `SHORT_GRACE_S` or
more after it: a camera confirms a pitched card up to a second late.
"""

from __future__ import annotations

from dealer_assist.audit.records import DealerAction, FlagKind, Severity
from dealer_assist.audit.run_state import RunState, ShortDraw
from dealer_assist.cards import Card
from dealer_assist.rules.hand import Phase
from dealer_assist.rules.steps import IllegalStep
from dealer_assist.rules.stub import USED
from dealer_assist.vision.events import (
    CardReplaced,
    CardsDiscarded,
)

SHORT_GRACE_S = 1.0   # a camera's late confirmation of a pitched replacement, after the table moved on
ENTRY_LAG_S = 1.5
"""At a camera's table, how late a dealer's entry may be keyed after the say it records. A dealer keys a say a second
or so after the player makes it, while the camera sees cards go as they go: a fold the camera saw while another seat
was to act is out of turn only if that seat's turn has not come this long after the fold (`HandRun`), a discard seen
before the betting round's entries closed it is early only if the closing entry came later than this after it, and a
discard by a seat that drew in the draw just over is late for that draw only if no entry of the betting round after
it came within this (`DrawChecks._discarded`)."""


class DrawChecks(RunState):
    """Draw rounds: discards, replacements, pats and the end of a draw."""

    def _sync_draw(self) -> None:
        if self.hand.phase is Phase.DRAWING and self.hand.draw != self._draw_no:
            self._draw_no = self.hand.draw
            self._declared, self._received, self._ooo_owed, self._collected = {}, {}, {}, {}
            self._first_card_t = None

    def _no_betting_next(self) -> bool:
        """At most one seat in the hand has chips behind: the betting round after this draw is skipped."""
        hand = self.hand
        return sum(1 for i in range(len(hand.seats)) if hand.live[i] and hand.stacks[i] > 0) <= 1

    def _draw_unseen(self) -> bool:
        """A draw is under way and no seat has been seen drawing in it: no discard, no card given (a draw not yet
        synced has seen nothing)."""
        hand = self.hand
        return hand.phase is Phase.DRAWING and (self._draw_no != hand.draw or not (
            self._declared or self._received or self._collected))

    def _muck_ends_draw(self, seat: int) -> bool:
        """A draw with no betting after it (every seat still in but one at most is all-in), nothing of it visibly under
        way (no seat owed cards, no discard waiting), and either the last draw with `seat` having had its turn in it
        (declared, every replacement in), or a draw no seat has drawn in yet. `seat`'s cards going to the muck now end
        the draws left, the seats not seen drawing having stood pat (the camera sees nothing when a seat keeps its
        cards): it is a muck at the showdown, not a fold or a discard out of turn. With betting still possible the muck
        would be a fold, which waits for the betting (see `_folded`)."""
        hand = self.hand
        if hand.phase is not Phase.DRAWING or self._draw_no != hand.draw or not self._no_betting_next():
            return False
        if hand.next_card_seat is not None or self._held is not None or self._collected:
            return False
        if self._draw_unseen():
            return True           # every seat stood pat in this draw and any after it: nothing shows a draw
        declared = self._declared.get(seat)
        return hand.draw == self.rules.draws and declared is not None and self._received.get(seat, 0) >= declared

    def _end_draws_at_muck(self, seat: int, t: float, frame: int | None) -> None:
        """`seat`'s muck ended the draws left (`_muck_ends_draw`): the seats not seen drawing stood pat."""
        self._muck_ended_draw = seat
        self._close_draws_left(t, frame)

    def _close_draws_left(self, t: float, frame: int | None) -> None:
        """The draws are over, no betting coming between them (a muck or a show at the showdown says so): close each
        one left, the seats not seen drawing standing pat; stops where a draw cannot be closed."""
        while self.hand.phase is Phase.DRAWING and self._no_betting_next():
            draw = self.hand.draw
            self._close_draw(t, frame)           # (it syncs the draw it closes first)
            if self.hand.phase is Phase.DRAWING and self.hand.draw == draw:
                break

    def _draw_seats(self) -> list[int]:
        return [self.hand.seats[i] for i in self.hand.draw_order]

    def _discarded(self, ev: CardsDiscarded, *, hold: bool = True) -> None:
        hand = self.hand
        self._sync_draw()
        if self._held is not None:
            self._resolve_held(None, ev.t, ev.frame)
        seat = ev.seat
        if self._seen_late(ev):
            self.reorder = True                       # the camera confirmed it late: referee again in time order
            return
        # A seat that drew in this draw discarding again before any action of the round after it was entered is
        # late for this draw; after one, it is early for the next.
        late = (hand.phase is Phase.BETTING and seat in self._declared and self._draw_no == hand.round
                and not hand.betting.acted and not any(isinstance(p, DealerAction) for p in self.pending))
        if late and self.camera and hand.round < self.rules.draws:
            # or early for the next draw, with the betting round's entries keyed late: `_release_late` says which
            self._late_held.append(ev)
            self._early.append((ev, hand.actor))
            return
        if hand.phase is Phase.BETTING and not late and seat in hand.in_hand() and hand.round < self.rules.draws:
            self._early.append((ev, hand.actor))      # its draw has not opened: declared when it does
            return
        if late:
            self._late_discard(ev)
            return
        if hold and self._again_next_draw(ev):
            return
        self.physical[seat] = max(0, self.physical.get(seat, 0) - ev.count)
        if hand.phase is Phase.BETTING and seat in hand.in_hand():
            return                                    # after the last draw: the hand's cards going in
        if hand.phase is not Phase.DRAWING or seat not in self._draw_seats():
            if hand.phase is Phase.SHOWDOWN and seat in hand.in_hand():
                # A live hand drawing after the last draw: the table had a draw or a betting round more than the
                # entries gave the referee, so the chips it followed, and the award, may be wrong.
                self._flag(FlagKind.UNEXPECTED_EVENT, seat, f"seat {seat} discarded {ev.count} after the last draw, "
                           "at the showdown: the table is a draw or a betting round past the entries, so the chips "
                           "in the pots may be wrong", ev.t, ev.frame, severity=Severity.ERROR)
            else:
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

    def _again_next_draw(self, ev: CardsDiscarded) -> bool:
        """At a camera's table, a seat done drawing in the draw under way that discards again: the betting round after
        the draw, and the next draw, may have begun with their entries keyed late (a round of quick checks keyed a
        second late: badugi-limit seed 6, seat 5's next discard came as its check was keyed). Held for
        `ENTRY_LAG_S` (`_release_next_draw`); whether it was."""
        hand, seat = self.hand, ev.seat
        if not (self.camera and hand.phase is Phase.DRAWING and seat in self._declared
                and hand.draw < self.rules.draws and not self._no_betting_next()
                and self._received.get(seat, 0) >= self._declared[seat]):
            return False
        self._next_held.append((ev, hand.draw))
        return True

    def _release_next_draw(self, now: float) -> None:
        """Each discard held by `_again_next_draw`: the next draw's discard if that draw opened within `ENTRY_LAG_S`
        of it (the round between was keyed late); else, as before, a second discard in the draw it came in, flagged
        (a detector's false discard, badacey-limit-triple seed 17: taken for the next draw's because the draw merely
        closed within the lag, it made the referee jump a betting round ahead, and the award wrong)."""
        hand = self.hand
        for held in list(self._next_held):
            ev, draw_no = held
            opened = hand.phase is Phase.DRAWING and hand.draw == draw_no + 1
            if not opened and now <= ev.t + ENTRY_LAG_S:
                continue
            self._next_held.remove(held)
            if opened or (hand.phase is Phase.DRAWING and hand.draw == draw_no):
                self._discarded(ev, hold=False)
            else:
                self._second_discard(ev, draw_no)

    def _second_discard(self, ev: CardsDiscarded, draw_no: int) -> None:
        """A seat that had drawn in draw `draw_no`, now closed, discarded again during it (`_release_next_draw`)."""
        seat = ev.seat
        self.physical[seat] = max(0, self.physical.get(seat, 0) - ev.count)
        self._flag(FlagKind.DRAW_OUT_OF_ORDER, seat, f"seat {seat} discarded {ev.count} during draw {draw_no} after "
                   "it had drawn in it", ev.t, ev.frame)

    def _seen_late(self, ev: CardsDiscarded) -> bool:
        """A discard (all of a seat's cards, confirmed only when its replacements came) from before this
        draw's first replacement, by a seat taken to stand pat that has had no card since."""
        hand = self.hand
        in_draw = hand.phase is Phase.DRAWING or (hand.phase is Phase.BETTING and self._draw_no == hand.round)
        return (in_draw and not self.reordered and self._declared.get(ev.seat) == 0
                and not self._received.get(ev.seat) and self._first_card_t is not None
                and ev.t < self._first_card_t)

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
            if self.camera and t <= held.t + SHORT_GRACE_S:
                return          # a replacement the camera confirmed late: it may have landed before the discard
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
                short = ShortDraw(self._declared.get(seat, 0), got, owed, t, frame, self._draw_no)
                if self.camera and owed:
                    self._short[seat] = short
                else:
                    self._short_flag(seat, short)
            for _ in range(owed):
                if not self._give(seat, None):
                    return
            seat = hand.next_card_seat

    def _short_flag(self, seat: int, short: ShortDraw) -> None:
        got, before = short.got, len(self.flags)
        self._flag(FlagKind.REPLACEMENTS_MISMATCH, seat, f"seat {seat} discarded {short.discarded} and got {got} "
                   f"replacement{'s' if got != 1 else ''} ({short.owed} short)", short.t, short.frame,
                   once=("mismatch", short.draw_no, seat))
        if len(self.flags) > before:
            self.short_flags.setdefault(seat, []).append(self.flags[-1])

    def _release_short(self, now: float) -> None:
        """Seats left short whose replacements did not land within `SHORT_GRACE_S`: flagged, with the time the table
        moved on."""
        for seat, short in list(self._short.items()):
            if now > short.t + SHORT_GRACE_S:
                del self._short[seat]
                self._short_flag(seat, short)

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
            if hand.stub_count == 0 and hand.can_reshuffle():
                hand.reshuffle()        # nothing left to burn: the reshuffle comes first (004)
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

    def _flush_early(self, inferred: bool) -> None:
        """The draw opened: the discards seen before it are declared in it. Unless the round was only taken as
        closed because of them (`inferred`), or, at a camera's table, the entry that closed it came within
        `ENTRY_LAG_S` of the discard (keyed late), each came while a seat was still to act, and is flagged."""
        early, self._early = self._early, []
        self._late_held = []
        for ev, actor in early:
            if not inferred and not (self.camera and self._now <= ev.t + ENTRY_LAG_S):
                self._flag(FlagKind.UNEXPECTED_EVENT, ev.seat, f"seat {ev.seat} discarded while seat {actor} was "
                           "still to act in the betting round", ev.t, ev.frame, severity=Severity.WARNING)
            self._discarded(ev)

    def _late_discard(self, ev: CardsDiscarded) -> None:
        """A seat that drew in the draw just over discarded again before the betting round after it began: late for
        that draw, flagged; its replacements are owed outside the draw order."""
        seat = ev.seat
        self.physical[seat] = max(0, self.physical.get(seat, 0) - ev.count)
        self._flag(FlagKind.DRAW_OUT_OF_ORDER, seat, f"seat {seat} discarded {ev.count} after draw {self._draw_no} "
                   "was over", ev.t, ev.frame)
        self._ooo_owed[seat] = self._ooo_owed.get(seat, 0) + ev.count

    def _release_late(self, now: float, card_to: int | None = None) -> None:
        """At a camera's table, each discard held as late or early (`_discarded`) once `ENTRY_LAG_S` has passed: with
        no entry of the betting round yet, it was late for the draw just over; else it stays early for the next. A
        card to the seat (`card_to`) before any entry says late at once: its replacement, served out of the draw."""
        hand = self.hand
        for ev in [e for e in self._late_held if now > e.t + ENTRY_LAG_S or e.seat == card_to]:
            self._late_held.remove(ev)
            if hand.phase is Phase.BETTING and hand.betting.acted:
                continue
            self._early = [(e, a) for e, a in self._early if e is not ev]
            self._late_discard(ev)

    def _replaced(self, ev: CardReplaced) -> None:
        hand = self.hand
        self._sync_draw()
        seat = ev.seat
        if seat not in hand.index_of:                # a card pitched to an empty seat (or a stray the camera saw)
            self._flag(FlagKind.UNEXPECTED_EVENT, seat, f"a card arrived at seat {seat}, which has no player in this "
                       "hand", ev.t, ev.frame, severity=Severity.WARNING, once=("no-player", self._draw_no, seat))
            return
        self.physical[seat] = self.physical.get(seat, 0) + 1
        if seat == self._muck_ended_draw and hand.phase is not Phase.DRAWING:
            self._flag(FlagKind.DRAW_OUT_OF_ORDER, seat, f"seat {seat} was given a card after its cards went to the "
                       f"muck at the end of draw {self._draw_no}, taken as a muck at the showdown: it drew twice, and "
                       "the hand taken as dead may be live", ev.t, ev.frame, once=("drew twice", self._draw_no, seat))
            return
        if self._first_card_t is None and hand.phase is Phase.DRAWING:
            self._first_card_t = ev.t
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
        short = self._short.get(seat)
        if short is not None and ev.t <= short.t + SHORT_GRACE_S:
            short.got += 1                                       # the camera confirmed it late: it was in time
            short.owed -= 1
            if short.draw_no == self._draw_no:
                self._received[seat] = self._received.get(seat, 0) + 1
            if short.owed <= 0:
                del self._short[seat]
            return
        if seat in self._declared or (hand.phase is Phase.DRAWING and seat in self._draw_seats()):
            got = self._received.get(seat, 0) + 1
            self._received[seat] = got
            if self.physical[seat] <= self.rules.hand_size:       # it makes up a seat a misdeal left short
                return
            discarded = self._declared.get(seat, 0)
            cards = f"{got} card{'s' if got != 1 else ''}"
            words = (f"seat {seat} discarded {discarded} and got {got} replacements" if discarded
                     else f"seat {seat} got {cards} in the draw without discarding")
            self._flag(FlagKind.REPLACEMENTS_MISMATCH, seat, words, ev.t, ev.frame,
                       once=("mismatch", self._draw_no, seat))
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

