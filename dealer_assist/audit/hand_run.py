"""One deal refereed: a rules Hand driven by what the camera saw and what the dealer entered.

Hole cards are unknown (None) until shown. Blinds and antes are posted when the hand starts (the
camera does not see chips). Every input is checked; a flagged input is still followed the way the
table really went (see `deal`, `action_check`, `draw_check` and `showdown_check`), so one mistake
raises one flag and later checks stay meaningful. Inputs that come before their turn wait in `pending` and are
applied when their turn comes (a fold out of turn stands; an out-of-turn check, call or raise stands
if it is still legal as entered, else it is dropped and the seat acts again; one still waiting when its betting
round closes is dropped with a flag).
"""

from __future__ import annotations

from dealer_assist.audit.action_check import apply_action
from dealer_assist.audit.deal import DealNote, Slot
from dealer_assist.audit.draw_check import ENTRY_LAG_S, SHORT_GRACE_S
from dealer_assist.audit.missed_turn import entry_is_legal, fits_after_missing
from dealer_assist.audit.outputs import AwardMade, KeyMoment
from dealer_assist.audit.records import ActionKind, DealerAction, FlagKind, Severity
from dealer_assist.audit.run_state import Pending, take_entry
from dealer_assist.audit.showdown_check import ShowdownChecks
from dealer_assist.rules.awards import MAX_UNREAD, AwardUndetermined, seats_text
from dealer_assist.rules.hand import Phase
from dealer_assist.rules.steps import Awarded, IllegalStep
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

REPEAT_S = 1.0
"""Two identical entries this close, the round still open and not the seat's turn, are one key pressed twice.
Further apart they are two says (the same seat checking in two rounds, a missing entry between left the first open)."""
BOUNCE_S = 0.3
"""Two identical entries this close are one key pressed twice even when the first closed the round: nobody draws and
acts again that fast (with no card seen between, a draw where all stood pat)."""
VISION_PHASES = {Phase.POSTING: "deal", Phase.DEALING: "deal", Phase.BETTING: "betting", Phase.DRAWING: "draw"}


UNREAD_SHOW = "the pots cannot be awarded by the camera"
"""How the flag ends that says a shown hand went (partly) unread, so the floor awards the pots: the camera's limit,
not a dealer error (benchmarks count these apart)."""


class HandRun(ShowdownChecks):
    """The referee's view of one deal; `feed()` takes inputs in order, `outputs` collects what it raised."""

    # -- queries -----------------------------------------------------------------------------------

    @property
    def phase(self) -> Phase:
        return self.hand.phase

    @property
    def vision_phase(self) -> str:
        """The phase hint for the tracker: "deal", "betting", "draw" or "showdown"."""
        return VISION_PHASES.get(self.hand.phase, "showdown")

    @property
    def folded_seats(self) -> frozenset[int]:
        """Seats dealt in that have folded (or mucked at showdown): their cards going to the muck is a fold."""
        hand = self.hand
        return frozenset(s for s, i in hand.index_of.items() if not hand.live[i])

    @property
    def drawing_seats(self) -> frozenset[int]:
        """Seats whose draw may be under way now, for the tracker: in a draw, the first seat in the draw's order yet
        to discard or stand pat (with `discard_then_replace`, every such seat: they discard in any order)."""
        hand = self.hand
        if hand.phase is not Phase.DRAWING:
            return frozenset()
        current = self._draw_no == hand.draw
        went = {*self._declared, *self._collected} if current else set()
        if self._held is not None:
            went.add(self._held.seat)
        waiting = [s for s in self._draw_seats() if s not in went]
        if self.rules.draw_procedure == "sequential":
            waiting = waiting[:1]
        return frozenset(waiting)

    @property
    def drawn_seats(self) -> frozenset[int]:
        """Seats done drawing in the draw under way, for the tracker: each declared its discard (or stood pat) and
        got every replacement it is owed. No card leaves such a seat again in this draw but by a dealer error."""
        hand = self.hand
        if hand.phase is not Phase.DRAWING or self._draw_no != hand.draw:
            return frozenset()
        return frozenset(s for s, n in self._declared.items() if self._received.get(s, 0) >= n)

    @property
    def owed_seats(self) -> frozenset[int]:
        """Seats that declared a discard in the draw under way and still wait for some of their replacements, for the
        tracker: with the draw procedure "sequential" no other seat's cards go before they are served."""
        hand = self.hand
        if hand.phase is not Phase.DRAWING or self._draw_no != hand.draw:
            return frozenset()
        return frozenset(s for s, n in self._declared.items() if self._received.get(s, 0) < n)

    @property
    def discards_seen(self) -> dict[int, int]:
        """With `discard_then_replace`, before the draw's first replacement: the discards seen so far in the draw under
        way (seat -> cards), which the Hand is given only when replacing begins (the seats discard in any order)."""
        hand = self.hand
        if hand.phase is not Phase.DRAWING or self._draw_no != hand.draw:
            return {}
        return {s: ev.count for s, ev in self._collected.items()}

    def shows_at_showdown(self) -> bool:
        """Whether a hand shown now is shown at the showdown (a muck the camera saw now may have been that show): the
        showdown is on, cards are being shown as the last betting round is open (`_showing_down`), or every draw left
        has no betting after it and none is visibly under way (a show ends them: `ShowdownChecks._shown`)."""
        hand = self.hand
        if hand.phase is Phase.SHOWDOWN:
            return True
        if hand.phase is Phase.BETTING:
            return self._showing_down()
        if hand.phase is not Phase.DRAWING or not self._no_betting_next():
            return False
        return (hand.next_card_seat is None and self._held is None
                and not (self._draw_no == hand.draw and self._collected))

    @property
    def mucked_at_showdown(self) -> frozenset[int]:
        """Seats whose cards went to the muck at the showdown (not a fold in the betting): a hand the dealer keys in for
        one is the show the camera took for a muck (`Referee._rebuild`)."""
        return frozenset(s for s, t in self._show_t.items() if t == float("-inf"))

    @property
    def done(self) -> bool:
        return self.hand.phase is Phase.DONE

    # -- the input step ----------------------------------------------------------------------------

    def feed(self, item: TableEvent | DealerAction) -> None:
        """Check one input against the hand and follow it."""
        t, frame = item.t, getattr(item, "frame", None)
        self._now = t
        self._release_late_findings(item, t)
        if isinstance(item, CardsShown) and item.seat in self._entered and not item.entered:
            return                                 # the dealer keyed that hand in: the camera's later reads of it go
        if isinstance(item, CardsShown) and item.entered:
            self._entered.add(item.seat)
        if self._muck_read is not None and not isinstance(item, CardBurned):
            self._settle_muck_read(item)      # (a burn says nothing: one goes before a second draw's cards too)
        if self._short:
            self._release_short(t)
        self._release_deal(t)
        if isinstance(item, CardDealt | CardReplaced) and self._draw_card_in_betting(item.seat):
            self._close_betting(f"seat {item.seat} discarded and was dealt a draw card", t, frame)
        if isinstance(item, DealerAction):
            self._action(item, frame)
        else:
            self._last_entry = None              # the table moved between two entries: not one key pressed twice
            if not isinstance(item, SeatFolded):
                self._entry_before = None        # (a fold seen is most often one keyed already)
        if isinstance(item, CardDealt):
            self._dealt(item)
        elif isinstance(item, CardExposed):
            self._exposed(item)
        elif isinstance(item, CardBurned):
            self._finish_deal(t)
            if self.hand.can_burn():
                self.hand.burn(None)
        elif isinstance(item, CardsDiscarded):
            self._finish_deal(t)
            if self._muck_read_as_discard(item):
                self._muck_read = item            # a muck, unless its cards come back (`_settle_muck_read`)
            elif self._whole_hand_before_its_draw(item):
                self._draw_muck_held[item.seat] = (item, self.hand.draw)   # or a fold (`_release_draw_mucks`)
            else:
                self._discarded(item)
        elif isinstance(item, CardReplaced):
            self._finish_deal(t)
            self._replaced(item)
        elif isinstance(item, SeatFolded):
            self._finish_deal(t)
            self._camera_fold_t = t
            self._folded(item)
        elif isinstance(item, CardsShown):
            self._finish_deal(t)
            self._shown(item)
        self._drain()
        if (self.camera and self._award_hold is None and self.hand.phase is Phase.AWARDING
                and t <= self._camera_fold_t + ENTRY_LAG_S):
            self._award_hold = self._camera_fold_t + ENTRY_LAG_S   # a fold the camera saw (now, or waiting) ended it
        self._after(t, frame)

    def release_held(self) -> None:
        """The hand is over or awarded (gathered, the recording ended, the pots awarded): findings held for a late
        camera are raised now."""
        if self._muck_read is not None:
            self._settle_muck_read(None)
        if self._short:
            self._release_short(float("inf"))
        self._release_deal(float("inf"))
        self._release_late_findings(None, float("inf"))
        self._award_hold = None

    def _release_late_findings(self, item: TableEvent | DealerAction | None, now: float) -> None:
        """Settle, in this order, what waits for a late camera or a late entry (at most `ENTRY_LAG_S`) and is settled
        by `item` (None: the hand is being closed) or by the time passing `now`; each release says what settles it."""
        if self._draw_muck_held:
            self._release_draw_mucks(item, now)
        if self._missing_held:
            self._release_missing(now)
        if self._exposed_held:
            self._release_exposed(now)
        if self._fold_wait is not None:
            self._release_fold_wait(item)
        if self._fold_held:
            self._release_folds(now)
        if self._draw_fold_held:
            self._release_draw_folds(now)
        if self._next_held:
            self._release_next_draw(now)
        if self._late_held:
            self._release_late(now, item.seat if isinstance(item, CardDealt | CardReplaced) else None)

    def finish_award(self, t: float) -> None:
        """The recording ended while an award waited (`_award_hold`): award now."""
        if self.hand.phase is Phase.AWARDING:
            self._after(t, None)

    def _release_fold_wait(self, item: TableEvent | DealerAction | None) -> None:
        """A fold the camera saw in the seat's turn waits `ENTRY_LAG_S` for that seat's say keyed late (it checked, say,
        then folded to a bet): such an entry goes first, the fold after it, in a later turn. Any other input (none:
        the hand is being closed), or the time passing, applies the fold first; the seat's own keyed fold replaces
        it."""
        ev = self._fold_wait
        assert ev is not None
        if isinstance(item, DealerAction) and item.seat == ev.seat and item.t <= ev.t + ENTRY_LAG_S:
            if item.action == "fold":
                self._fold_wait = None
                self.physical[ev.seat] = 0        # the camera saw its cards go: its keyed fold is that muck
            return
        self._fold_wait = None
        self._folded(ev, wait=False)

    def _release_folds(self, now: float) -> None:
        """Raise the out-of-turn flag of each fold the camera saw before its turn that is still waiting for its turn
        `ENTRY_LAG_S` after it (the entries before it were not merely keyed late)."""
        self._flag_past_lag(self._fold_held, FlagKind.FOLD_OUT_OF_ORDER, now)

    def _fold_held_in_lag(self, seat: int) -> tuple[str, float, int | None] | None:
        """Take `seat`'s held out-of-turn fold flag (`_fold_held`) now that its turn came or its round closed: raised
        if the fold was seen more than `ENTRY_LAG_S` before (None then), else returned (the entries were keyed late)."""
        held = self._fold_held.pop(seat, None)
        if held is not None and self._now > held[1] + ENTRY_LAG_S:
            self._flag(FlagKind.FOLD_OUT_OF_ORDER, seat, *held)
            return None
        return held

    def _flag_past_lag(self, held: dict[int, tuple[str, float, int | None]], kind: FlagKind, now: float) -> None:
        """Raise each flag in `held` (seat: words, time, frame) whose entries have not come `ENTRY_LAG_S` after it."""
        for seat, (words, t, frame) in list(held.items()):
            if now > t + ENTRY_LAG_S:
                del held[seat]
                self._flag(kind, seat, words, t, frame)

    def _release_draw_folds(self, now: float) -> None:
        """A fold the camera saw during a draw, by a seat done drawing, is out of order if the draw is still on
        `ENTRY_LAG_S` after it. If the draw ended by then (the betting's first entries were keyed late: the seat folded
        facing a bet), it is a fold in that betting round, out of turn only if its turn is still to come `ENTRY_LAG_S`
        after it (`_action`); at 1 s late entries, 5 of 180 clean hands were flagged "folded during draw"."""
        hand = self.hand
        for seat, (words, ev, draw_no) in list(self._draw_fold_held.items()):
            if hand.phase is Phase.DRAWING and hand.draw == draw_no:
                if now > ev.t + ENTRY_LAG_S:
                    del self._draw_fold_held[seat]
                    self._flag(FlagKind.FOLD_OUT_OF_ORDER, seat, words, ev.t, ev.frame)
                continue
            del self._draw_fold_held[seat]
            if ev in self.pending and hand.phase is Phase.BETTING:
                self.pending.remove(ev)
                self._action(DealerAction(seat, "fold", t=ev.t, source="vision"), ev.frame)

    def _release_draw_mucks(self, item: TableEvent | DealerAction | None, now: float) -> None:
        """A whole hand seen going during a draw from a seat yet to draw in it (`_draw_muck_held`: a fold, or a discard
        of every card it holds, as the tracker reports it while told the draw is on): while the draw is still on when
        the table moves (a card, a discard, a burn: the dealer serving the draw), or `ENTRY_LAG_S` after it, or at the
        end (`item` None), a discard of them all, as at once before. When an entry closed the draw first (the
        betting's first say keyed late; the seat stood pat, unseen), the seat folded in that betting round: at
        entries keyed 1 s late, 2 of 180 clean hands were flagged "discarded 4 and got 0 replacements"
        (`benchmarks/referee_entries.py --keyed-late 1`), and through the detector, with entries keyed 0.3 to 1.2 s
        late, 2 of the 56 hand videos (`benchmarks/vision_events.py --action-lag 0.3:1.2`)."""
        hand = self.hand
        for seat, (ev, draw_no) in list(self._draw_muck_held.items()):
            if hand.phase is Phase.DRAWING and hand.draw == draw_no:
                if isinstance(item, DealerAction) and now <= ev.t + ENTRY_LAG_S:
                    continue
                del self._draw_muck_held[seat]
                held = self.physical.get(seat, 0)
                if isinstance(ev, CardsDiscarded):
                    self._discarded(ev)
                elif held and seat not in self._declared and seat not in self._collected:
                    self._discarded(CardsDiscarded(ev.t, ev.frame, seat, held))
                else:
                    self._folded(ev, wait=False)
                continue
            del self._draw_muck_held[seat]
            self._folded(SeatFolded(ev.t, ev.frame, seat) if isinstance(ev, CardsDiscarded) else ev,
                         wait=item is not None)

    def _release_missing(self, now: float) -> None:
        """At a camera's table, a seat taken to check or call because the table went on without its entry
        (`_take_missing`) is flagged only if that entry has not come `ENTRY_LAG_S` after: a dealer keying late enters
        the last calls of a round after the camera saw the draw begin (through the detector, with entries keyed 0.3
        to 1.2 s late, 2 such flags on the 56 hand videos). The flag bears the time the table went on."""
        self._flag_past_lag(self._missing_held, FlagKind.ACTION_MISSING, now)

    def _release_deal(self, now: float) -> None:
        """The deal's findings held at a camera's table, once no late card can change them (`SHORT_GRACE_S`)."""
        if self._deal_held is not None and now > self._deal_held[1] + SHORT_GRACE_S:
            notes, self._deal_held = self._deal_held[0], None
            for note in notes:
                self._flag(note.kind, note.seat, note.message, note.t, note.frame)

    def settle(self, t: float, frame: int | None) -> None:
        """The cards are being gathered: finish what the table finished (mucks at showdown) and award."""
        self.release_held()
        self._finish_deal()
        hand = self.hand
        if hand.phase is Phase.BETTING and hand.round == self.rules.draws:
            # A seat still to act that kept its cards to the gather while others showed or mucked theirs did not
            # fold: the last round ended and the seats went to showdown.
            if self._showing_down():
                self._close_betting("the seats showed down and the cards were gathered", t, frame)
            elif any(e.action == "fold" and e.seat != hand.actor for e in self._entries_waiting()):
                self._close_betting(f"seat {hand.actor} kept its cards while others went to the muck, and the cards "
                                    "were gathered", t, frame)
        while hand.phase is Phase.SHOWDOWN:
            self._drain()
            seat = hand.next_shower
            if seat is None or hand.phase is not Phase.SHOWDOWN:
                break
            shown = [p for p in self.pending if isinstance(p, CardsShown) and p.seat == seat]
            if not shown and self._muck_seen_early(seat):
                continue
            if self._concede_early(seat):       # the others gave up first: shown unread or kept, it may win alone
                continue
            if shown and self._show_read_in_part(shown[-1]):
                continue
            # At a camera's table a hand kept to the gather, neither seen face up nor seen going to the muck, may be a
            # show the camera missed: taking it for a muck hands the pot to the others, final. The floor decides.
            if shown or not hand.can_muck(seat) or self.camera:
                if not any(f.severity is Severity.MISDEAL for f in self.flags):   # a misdeal explains it
                    what = self._not_shown(seat, shown[-1] if shown else None)
                    self._flag(FlagKind.UNEXPECTED_EVENT, seat, f"seat {seat}'s hand was {what}; {UNREAD_SHOW}", t,
                               frame, severity=Severity.WARNING)
                break
            self._flag_mucked_first(seat, t, frame)
            hand.muck(seat)
            self._show_t[seat] = float("-inf")
        self._after(t, frame)

    def _muck_seen_early(self, seat: int) -> bool:
        """At the gather, `seat` is due to show, was never seen face up nor keyed in, and the camera saw its cards go
        while the last betting round was still open as far as the entries told (its closing calls keyed late, the
        fold left waiting for a turn the round closed without, within `ENTRY_LAG_S`: `_folds_at_showdown`). Those cards
        went to the muck at its showdown turn: taken as its muck now, as one seen on time is (`_folded`), rather than
        left to the floor (at entries keyed 1 s late, 8 of 180 clean hands were: `benchmarks/referee_entries.py
        --keyed-late 1`). Only now, at the gather: a show keyed in later must still count (badugi-limit seed 10).
        Whether it was."""
        hand = self.hand
        seen = [p for p in self.pending if isinstance(p, DealerAction) and p.seat == seat and p.action == "fold"
                and p.source == "vision"]
        if seat not in self._muck_in_lag or not seen or not hand.can_muck(seat):
            return False
        self.pending = [p for p in self.pending if not (isinstance(p, DealerAction) and p.seat == seat)]
        self._concede_early(seat, before=seen[0].t)      # seats that mucked before it gave up first
        if hand.phase is Phase.SHOWDOWN and hand.can_muck(seat):
            hand.muck(seat)
            self._show_t[seat] = float("-inf")
        return True

    def _mucked_before(self, seat: int, before: float = float("inf")) -> list[SeatFolded | DealerAction]:
        """The mucks (seen, or a fold entered) of other live seats still waiting on `seat`'s show, made before
        `before`, oldest first."""
        hand = self.hand
        early = [p for p in self.pending if p.seat != seat and p.seat in hand.index_of and p.t < before
                 and hand.live[hand.index_of[p.seat]]
                 and (isinstance(p, SeatFolded) or (isinstance(p, DealerAction) and p.action == "fold"))]
        return sorted(early, key=lambda p: p.t)

    def _concede_early(self, seat: int, before: float = float("inf")) -> bool:
        """`seat`, due to show, kept its cards to the gather (or mucked them at `before`), and other seats' cards went
        to the muck before that (out of turn, waiting on its show): those players gave up their hands, which are dead
        whatever the show order (a last hand in wins without showing: HOUSE_RULES, Betting). Whether any was mucked."""
        hand = self.hand
        mucked = False
        for p in self._mucked_before(seat, before):
            if hand.phase is Phase.SHOWDOWN and hand.can_muck(p.seat, out_of_turn=True):
                self.pending.remove(p)
                hand.muck(p.seat, out_of_turn=True)
                self._show_t[p.seat] = float("-inf")
                mucked = True
        return mucked

    def _flag_mucked_first(self, seat: int, t: float, frame: int | None) -> None:
        """`seat`, due to show, kept its cards to the gather and is taken to muck them; when other seats' mucks made
        before that still wait (they could not be conceded: `_concede_early`, a seat alone in a side pot), theirs were
        the dead hands and the pot may be `seat`'s, which the show order cannot say: the floor decides (an error flag,
        which holds the award)."""
        early = sorted({p.seat for p in self._mucked_before(seat)})
        if early:
            self._flag(FlagKind.SHOW_OUT_OF_ORDER, seat, f"seat {seat}, due to show first, kept its cards to the "
                       f"gather, but {seats_text(early)} mucked before it; a mucked hand is "
                       f"dead, so the pot may be seat {seat}'s", t, frame, severity=Severity.ERROR)

    def _show_read_in_part(self, ev: CardsShown) -> bool:
        """The cards were gathered after a seat's hand was turned up and only some of its corners read: the hand
        was shown (cards speak), so it goes to the showdown with the rest unread, and the award stands if no card
        they could be changes who wins (award_pots). Not after a misdeal, nor with more than MAX_UNREAD unread."""
        seat, hand = ev.seat, self.hand
        held = self.physical.get(seat, self.rules.hand_size)
        unread = held - len(ev.cards)
        if held != self.rules.hand_size or not 0 < unread <= MAX_UNREAD or any(
                f.severity is Severity.MISDEAL for f in self.flags):
            return False
        try:
            hand.show(seat, ev.cards, unread=unread)
        except IllegalStep:
            return False
        self.pending = [p for p in self.pending if not (isinstance(p, CardsShown) and p.seat == seat)]
        self._shown_in_order(ev)
        return True

    def _not_shown(self, seat: int, shown: CardsShown | None) -> str:
        """What kept a seat's hand from being shown, as the camera saw it (the end of "seat N's hand was ...")."""
        if shown is None:
            return "gathered without being seen face up or going to the muck"
        held = self.physical.get(seat, self.rules.hand_size)
        if len(shown.cards) < held:
            return f"shown, but the camera read only {len(shown.cards)} of its {held} cards"
        return "shown with the wrong number of cards"

    def _after(self, t: float, frame: int | None) -> None:
        """Key moments and the award once the hand reaches them."""
        hand = self.hand
        if self._betting_round is not None and (hand.phase is not Phase.BETTING or hand.round != self._betting_round):
            self._drop_stale(t, frame)
        self._betting_round = hand.round if hand.phase is Phase.BETTING else None
        if self._last_phase is Phase.DEALING and hand.phase is not Phase.DEALING:
            self.outputs.append(KeyMoment("deal complete", t, frame))
        if self._last_phase is Phase.DRAWING and (hand.phase is not Phase.DRAWING or hand.draw != self._last_draw):
            self.outputs.append(KeyMoment(f"draw {self._last_draw}", t, frame))
        if hand.phase is Phase.AWARDING:
            if self._award_hold is not None and t <= self._award_hold:
                self._last_phase, self._last_draw = hand.phase, hand.draw
                return                          # a say keyed late may yet come for the seat the camera saw fold
            self.release_held()                 # an award must see every flag that holds it
            self._flag_unapplied(t, frame)
            try:
                step = hand.award()
            except AwardUndetermined as exc:
                self._flag(FlagKind.UNEXPECTED_EVENT, exc.seat, f"{exc}; {UNREAD_SHOW}", t,
                           frame, severity=Severity.WARNING, once=("award", exc.seat))
                self._last_phase, self._last_draw = hand.phase, hand.draw
                return
            assert isinstance(step, Awarded)
            self.award = step.award
            if not step.uncontested:
                self.outputs.append(KeyMoment("showdown", t, frame))
            self.outputs.append(AwardMade(step.award, step.uncontested, t, frame))
        self._last_phase, self._last_draw = hand.phase, hand.draw

    def _drop_stale(self, t: float, frame: int | None) -> None:
        """A betting round closed while a check, call, bet or raise entered during it still waited for its seat's turn:
        the seat had had its say, so the entry was another seat's, keyed in for the wrong one, or a mistake. It is
        dropped rather than carried into the next round as that seat's say; one that moved chips is an error flag
        (the award waits on the floor). An entered fold still stands when its turn comes."""
        for entry in self._entries_left(folds=False):
            chips = entry.action != "check"
            self._flag(FlagKind.ACTION_OUT_OF_TURN, entry.seat, f"seat {entry.seat}'s {entry.words}, entered at "
                       f"{entry.t:.1f} s, waited for a turn the betting round closed without; it is dropped (it may "
                       "have been another seat's say)" + ("; the chips in the pots may be wrong" if chips else ""), t,
                       frame, severity=Severity.ERROR if chips else Severity.WARNING)
            self.pending.remove(entry)

    def _entries_left(self, *, folds: bool) -> list[DealerAction]:
        """The dealer's entries still waiting for their seat's turn, its folds among them or not."""
        return [p for p in self.pending if isinstance(p, DealerAction) and p.source == "dealer"
                and (folds or p.action != "fold")]

    def _flag_unapplied(self, t: float, frame: int | None) -> None:
        """Entries still waiting for a turn that never came when the pots are awarded: a bet, raise or call among
        them is chips the pots may lack, and a fold a seat the award may count in, so the floor must decide (an
        error flag, which holds the award); a check moves nothing (a warning)."""
        for entry in self._entries_left(folds=True):
            harmless = entry.action == "check"
            cost = "" if harmless else (
                "; the award counts in a seat the dealer said folded" if entry.action == "fold"
                else "; its chips are not in the pots")
            self._flag(FlagKind.ACTION_OUT_OF_TURN, entry.seat, f"seat {entry.seat}'s {entry.words}, entered at "
                       f"{entry.t:.1f} s, never came due: no turn of the seat was left where it stands{cost}", t,
                       frame, severity=Severity.WARNING if harmless else Severity.ERROR)
            self.pending.remove(entry)

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

    def _finish_deal(self, t: float | None = None) -> None:
        """The table moved on from the deal (at `t`; None: the cards are gathered, nothing comes late). At a camera's
        table the deal's findings wait `SHORT_GRACE_S`: a camera confirms the last pitched card up to a second late,
        after the first entry (a seat's last card seen 0.5 s after the deal ended was a skip flagged on a clean
        hand)."""
        if self.deal.finished:
            return
        slots, notes = self.deal.finish()
        if self.camera and notes and t is not None:
            self._apply_deal(slots, [])
            self._deal_held = (notes, t)
        else:
            self._apply_deal(slots, notes)

    def _late_deal_card(self, ev: CardDealt) -> bool:
        """A card seen within `SHORT_GRACE_S` after the deal ended, while its findings wait: the deal's last card
        confirmed late. The deal is checked again with it."""
        held = self._deal_held
        if held is None or ev.t > held[1] + SHORT_GRACE_S or self.hand.phase is Phase.DRAWING:
            return False
        self.deal, notes = self.deal.with_late_card(ev.seat, ev.card, ev.t, ev.frame)
        self._deal_held = (notes, held[1]) if notes else None
        return True

    def _dealt(self, ev: CardDealt) -> None:
        self.cards_seen = True
        if self.hand.phase is Phase.DRAWING:
            self._replaced(CardReplaced(ev.t, ev.frame, ev.seat, ev.card))
            return
        self.physical[ev.seat] = self.physical.get(ev.seat, 0) + 1
        if self._late_deal_card(ev):
            return
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
        if self.camera and self._before_the_showdown() and ev.seat is not None and ev.card is not None:
            self._exposed_held.append((ev, hand.phase))    # the show may have begun (`_release_exposed`)
            return
        self._flag_exposed(ev, hand.phase)

    def _before_the_showdown(self) -> bool:
        """In the last draw, once the deal is over, or in the betting round after it: the entries that would take the
        hand to the showdown may still be keyed."""
        hand = self.hand
        last = self.rules.draws
        return self.deal.finished and ((hand.phase is Phase.BETTING and hand.round == last)
                                       or (hand.phase is Phase.DRAWING and hand.draw == last))

    def _flag_exposed(self, ev: CardExposed, phase: Phase) -> None:
        card = "a card" if ev.card is None else f"card {ev.card}"
        where = "on the stub" if ev.seat is None else f"at seat {ev.seat}"
        # a card left face up is seen again whenever its pile is read afresh: one exposure, one flag
        once = None if ev.card is None else ("exposed", ev.seat, ev.card)
        if not self.deal.finished:
            self._flag(FlagKind.CARD_EXPOSED, ev.seat, f"{card} was exposed {where} during the deal", ev.t, ev.frame,
                       once=once)
        else:
            self._flag(FlagKind.CARD_EXPOSED, ev.seat, f"{card} was seen face up {where} ({phase})", ev.t,
                       ev.frame, severity=Severity.WARNING, once=once)

    def _release_exposed(self, now: float) -> None:
        """At a camera's table, a card seen face up at a seat in the last draw or the betting round after it
        (`_exposed_held`): the seat turning its hand up for the showdown, the last says keyed late, when the showdown
        comes within `ENTRY_LAG_S`; else an exposure, flagged with its time and phase (with entries keyed 0.3 to
        1.2 s late, 4 such flags on the 28 clean hand videos)."""
        hand = self.hand
        for held in list(self._exposed_held):
            ev, phase = held
            if hand.phase is Phase.SHOWDOWN:
                self._exposed_held.remove(held)
                self._face_up(ev)
            elif self._before_the_showdown() and now <= ev.t + ENTRY_LAG_S:
                continue
            else:
                self._exposed_held.remove(held)
                self._flag_exposed(ev, phase)

    # -- betting -----------------------------------------------------------------------------------

    def _action(self, action: DealerAction, frame: int | None) -> None:
        """Follow an entry; when the seat's previous entry was in doubt (`_late_entry_of_taken`) and this one does
        not fit after it, that one was a late entry taken for a say in turn: an error flag, which holds the award."""
        seat, dealer = action.seat, action.source == "dealer"
        previous = self._entry_before
        if dealer:
            if self._repeated(action, self._last_entry):
                return
            self._last_entry = self._entry_before = action
        doubt = self._doubted.pop(seat, None) if dealer else None
        taken = self._taken_in_reach(seat) if dealer and action.action in ("bet", "raise") else None
        hand = self.hand
        # "raise" with no bet to raise stands as a bet (the word does not matter), but from a seat taken to call a
        # round before, it may be that round's raise, entered late.
        unfaced = (taken is not None and action.action == "raise" and hand.phase is Phase.BETTING
                   and hand.actor == seat and hand.can_check(seat))
        # A call, raise or fold as the first say after a draw nobody was seen drawing in, from the seat whose say ended
        # the round before: nothing to answer yet, so a say keyed late (`_flag_answer_to_nothing`).
        answers_nothing = (dealer and action.action in ("call", "raise", "fold") and hand.phase is Phase.DRAWING
                           and previous is not None and previous.seat == seat and self._draw_unseen())
        flags = len(self.flags)
        if not dealer and action.action == "fold" and hand.phase is Phase.BETTING and hand.actor == seat:
            self._flag_fold_after_later_entries(action, frame)
        self._follow_action(action, frame)
        if answers_nothing and self.hand.phase is not Phase.DRAWING:
            if action.action == "fold" and any(p is action for p in self.pending):
                self._fold_of_nothing.append((action, frame))   # out of turn: flagged if it stands (`_apply_pending`)
            else:
                self._flag_answer_to_nothing(action, frame)
        if unfaced and taken is not None:
            self._flag(FlagKind.ACTION_OUT_OF_TURN, seat, f"seat {seat}'s {action.words} came with no bet to raise, "
                       f"and seat {seat} was taken to {taken[0]} earlier for an entry never made: it may be that "
                       "entry, a raise entered late, so the chips in the pots may be wrong", action.t, frame,
                       severity=Severity.ERROR)
            return
        misfit = (FlagKind.ACTION_OUT_OF_TURN, FlagKind.FOLD_OUT_OF_ORDER, FlagKind.ILLEGAL_ACTION)
        if not any(f.seat == seat and f.kind in misfit for f in self.flags[flags:]):
            if doubt is not None and doubt is previous and action.action == "fold":
                # It fits, but folding right after the doubted entry, no entry between, is what a seat facing the bet
                # its late entry met would do; one that had called the bet would muck after a show. (Entered one
                # place late, a call so read made 2 of 2,323 awards wrong and final: `benchmarks/referee_entries.py`.)
                self._flag(FlagKind.ACTION_OUT_OF_TURN, seat, f"seat {seat}'s {doubt.action}, entered at "
                           f"{doubt.t:.1f} s, was taken as its say in turn, yet it may have been the {doubt.action} it "
                           "was taken to make a round before, entered late: it folded right after it, so the chips in "
                           "the pots may be wrong", action.t, frame, severity=Severity.ERROR)
            return
        if doubt is not None:
            self._flag(FlagKind.ACTION_OUT_OF_TURN, seat, f"seat {seat}'s {doubt.action}, entered at {doubt.t:.1f} s, "
                       f"was taken as its say in turn, yet it may have been the {doubt.action} it was taken to make a "
                       "round before, entered late: its next entry does not fit after it", action.t, frame,
                       severity=Severity.ERROR)
        elif taken is not None:
            self._flag(FlagKind.ACTION_OUT_OF_TURN, seat, f"seat {seat} was taken to {taken[0]} for an entry never "
                       f"made, and its next entry, a {action.action}, does not fit: it may be that entry, made late, "
                       "so the chips in the pots may be wrong", action.t, frame, severity=Severity.ERROR)

    def _repeated(self, action: DealerAction, last: DealerAction | None) -> bool:
        """The same entry twice in a row, with no table event between (a key pressed twice; see `REPEAT_S`, `BOUNCE_S`):
        the second is a repeat, not the seat's next say (it waited for that turn and moved chips there, or closed a
        draw as all pat). An info flag says so."""
        hand = self.hand
        if last is None or (action.seat, action.action, action.amount) != (last.seat, last.action, last.amount):
            return False
        gap = action.t - last.t
        # Nothing moved the hand since `last` (a table event would have cleared it): it is as `last` left it.
        if hand.phase is Phase.BETTING:
            if gap > REPEAT_S or hand.actor == action.seat:
                return False
        elif gap > BOUNCE_S:                    # the round closed: the same say may open the next (a pat draw)
            return False
        said = f"seat {action.seat}'s {action.words} was entered twice in a row; the second is taken as the same key " \
               "pressed twice and not applied"
        taken = self._taken_in_reach(action.seat)
        # Or it is the say the seat was taken to make, entered late; when it is another say, the chips are wrong.
        if taken is not None and taken[0] != action.action:
            self._flag(FlagKind.UNEXPECTED_EVENT, action.seat, f"{said}, but seat {action.seat} was taken to "
                       f"{taken[0]} earlier for an entry never made: if this is that say, entered late, the chips in "
                       "the pots are wrong", action.t, None, severity=Severity.ERROR)
        else:
            self._flag(FlagKind.UNEXPECTED_EVENT, action.seat, said, action.t, None)
        return True

    def _follow_action(self, action: DealerAction, frame: int | None, *, inferred: bool = False) -> None:
        self._finish_deal(action.t)
        hand = self.hand
        if action.action == "fold" and action.seat in hand.index_of and not hand.live[hand.index_of[action.seat]]:
            # already folded: the camera saw its cards go before the dealer keyed the fold (or it was keyed twice);
            # no say of the next betting round, so it does not end a draw the camera's fold began
            return
        if hand.phase is Phase.DRAWING and self._fold_in_draw(action, frame):
            self.taken_in = hand.phase
            return
        if hand.phase is Phase.DRAWING and self._missing_in_lag(action) and self._late_entry_of_taken(action):
            # the say the seat was taken to make, keyed late as the camera saw the draw begin: no say of the next
            # betting round, so it does not end the draw (every seat not yet seen drawing standing pat)
            self.taken_in = hand.phase
            return
        if hand.phase is Phase.DRAWING:
            self._close_draw(action.t, frame)
        self.taken_in = hand.phase
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
            if (action.source == "dealer" and self._award_hold is not None and action.t <= self._award_hold
                    and action.action != "fold"):
                self._flag(FlagKind.ILLEGAL_ACTION, seat, f"seat {seat}'s {action.words} was keyed "
                           f"{action.t - (self._award_hold - ENTRY_LAG_S):.1f} s after the camera saw its cards go to "
                           "the muck, which ended the hand: the dealer may have keyed it late, the seat folding after "
                           "it, so the says after it are missing and the pots may be wrong", action.t, frame,
                           option=None, severity=Severity.ERROR, once=("keyed after fold", seat))
                return
            if self.physical.get(seat, 0) > 0:          # the camera still sees its cards: the fold was an entry
                self._flag(FlagKind.ILLEGAL_ACTION, seat, f"seat {seat} was entered as folded, but its cards never "
                           f"went to the muck and it acts again ({action.action}): the fold may have been another "
                           "seat's", action.t, frame, option=None, severity=Severity.ERROR, once=("fold kept", seat))
                return
            # Chips keyed for a folded seat (its say keyed after the camera saw its fold, or another seat's keyed for
            # it) are not in the pots: the award waits on the floor. A check moves nothing.
            chips = action.action != "check"
            self._flag(FlagKind.ILLEGAL_ACTION, seat, f"seat {seat} has folded; {action.action} not applied"
                       + ("; the chips in the pots may be wrong" if chips else ""), action.t, frame, option=None,
                       severity=Severity.ERROR if chips else None)
            return
        if self._late_entry_of_taken(action):
            return
        if hand.phase is not Phase.BETTING or hand.actor is None:
            kind = FlagKind.FOLD_OUT_OF_ORDER if action.action == "fold" else FlagKind.ACTION_OUT_OF_TURN
            if hand.phase in (Phase.SHOWDOWN, Phase.AWARDING, Phase.DONE) and action.action in ("bet", "raise",
                                                                                               "call"):
                # Chips entered at the showdown or after the hand ended, not a say the seat was taken to make: a
                # betting round the entries had not given the referee, so the pots it awards may be wrong.
                when = "at the showdown" if hand.phase is Phase.SHOWDOWN else "after the hand ended"
                self._flag(kind, seat, f"seat {seat} {action.words} {when}, with no betting round under way: the "
                           "entries are behind the table, so the chips in the pots may be wrong", action.t, frame,
                           severity=Severity.ERROR)
                return
            self._flag(kind, seat, f"seat {seat} {action.action} while no betting round is under way "
                       f"({hand.phase})", action.t, frame)
            if action.action == "fold" and hand.phase is not Phase.DONE:
                self.pending.append(action)
            return
        fit = None if inferred else fits_after_missing(hand, action, self._entries_waiting(), not self._early)
        if fit == "this round":
            self._take_missing(f"seat {seat}'s {action.action} came after every other seat still to act had "
                              "entered its action", action.t, frame)
            self._follow_action(action, frame, inferred=True)
            return
        if fit == "next round":
            self._keyed_in_round.clear()          # the entries waiting are the next round's, keyed in turn there
            self._close_betting(f"the entries since, seat {seat}'s {action.action} the last, fit the betting after "
                                f"draw {hand.round + 1}, and no card was seen drawn: every seat stood pat", action.t,
                                frame)
            if self.phase is Phase.DRAWING:   # (not `hand.phase`: the type checker holds it at BETTING)
                self._close_draw(action.t, frame)
            self._drain()
            self._follow_action(action, frame, inferred=True)
            return
        if hand.actor != seat:
            kind = FlagKind.FOLD_OUT_OF_ORDER if action.action == "fold" else FlagKind.ACTION_OUT_OF_TURN
            heads_up = "heads_up_button_small_blind" if len(hand.seats) == 2 else None
            words = (f"seat {seat} {action.action} out of turn: seat {hand.actor} is to act; it stands when its turn "
                     "comes" + ("" if action.action == "fold" else " if still legal"))
            if self.camera and action.source == "vision" and action.action == "fold" and heads_up is None:
                self._fold_held[seat] = (words, action.t, frame)      # the entries before it may be keyed late
            else:
                self._flag(kind, seat, words, action.t, frame, option=heads_up)
            self._flag_replaced(action, frame)
            self.pending = [p for p in self.pending if not (isinstance(p, DealerAction) and p.seat == seat)]
            self.pending.append(action)
            if action.source == "dealer":
                self._keyed_in_round.append((action, hand.round))
            return
        self._flag_call_of_nothing(action, frame)
        result = apply_action(hand, action, frame)
        if result.flag is not None:
            self._add(result.flag)

    def _flag_call_of_nothing(self, action: DealerAction, frame: int | None, *, waited: bool = False) -> None:
        """A keyed call about to stand with no bet to call (a check): the bet it called was keyed late or not at all,
        so the chips in the pots may be wrong, an error flag (`benchmarks/referee_entries.py`, late by 2 and 3). So
        when the call was keyed out of turn and `waited` for its turn, or when it is in turn while entries keyed out
        of turn wait, none of them a bet (a bet would be what it calls, the seat's check before it missing)."""
        seat = action.seat
        if action.action != "call" or action.source != "dealer" or self.hand.can_call(seat):
            return
        if waited:
            self._flag(FlagKind.ACTION_OUT_OF_TURN, seat, f"seat {seat}'s call, keyed out of turn at {action.t:.1f} s, "
                       "found no bet to call when its turn came; taken as a check, but the bet it called may have been "
                       "keyed late or not at all, so the chips in the pots may be wrong", self._now, None,
                       severity=Severity.ERROR)
            return
        waiting = [p for p in self._entries_waiting() if p.source == "dealer"]
        if waiting and not any(p.action == "bet" for p in waiting):
            self._flag(FlagKind.ACTION_OUT_OF_TURN, seat, f"seat {seat}'s call found no bet to call while the entries "
                       f"of {seats_text(sorted({p.seat for p in waiting}))} waited for their turns; taken as a check, "
                       "but the bet it called may be among them or keyed late, so the chips in the pots may be wrong",
                       action.t, frame, severity=Severity.ERROR)

    def _flag_fold_after_later_entries(self, fold: DealerAction, frame: int | None) -> None:
        """The camera saw a seat's cards go in its turn, more than `ENTRY_LAG_S` after the dealer keyed the say of a
        seat after it: the dealer keys in turn, so the seat had its say then, and had it folded, its cards would have
        gone then. More likely it called or checked, never keyed, and its cards went at the showdown: taken as the
        fold, but with an error flag, as the chips in the pots may be wrong (`benchmarks/referee_entries.py`: a call
        left out, the seat mucking at the showdown, made awards wrong and final)."""
        later = [p for p in self._entries_waiting() if p.source == "dealer" and p.seat != fold.seat]
        if not later or later[0].t >= fold.t - ENTRY_LAG_S:
            return
        seat = fold.seat
        self._flag(FlagKind.ACTION_MISSING, seat, f"seat {seat}'s cards went to the muck in its turn "
                   f"{fold.t - later[0].t:.1f} s after seat {later[0].seat}'s {later[0].action} was keyed, with no "
                   f"entry for seat {seat}: taken as its fold, but it may have called or checked, never keyed, and "
                   "mucked at the showdown, so the chips in the pots may be wrong", fold.t, frame,
                   severity=Severity.ERROR)

    def _flag_stale_entry(self, entry: DealerAction) -> None:
        """An entry keyed out of turn in one betting round that comes to stand only in a later one: the round closed
        without the seat's turn coming, so the seat's bet or raise was the last, and a say after it in that round is
        none the table makes. More likely entries were keyed late or left out: an error flag (the chips in the pots
        may be wrong; `benchmarks/referee_entries.py`)."""
        keyed = take_entry(self._keyed_in_round, entry)
        if not keyed or keyed[0][1] >= self.hand.round:
            return
        if any(f.severity is Severity.ERROR and f.seat == entry.seat for f in self.flags):
            return                                # the seat's says are in doubt already: one error holds the award
        self._flag(FlagKind.ACTION_OUT_OF_TURN, entry.seat, f"seat {entry.seat}'s {entry.action}, keyed out of turn "
                   f"at {entry.t:.1f} s, stands only now, a betting round later: its turn never came in the round it "
                   "was keyed in, so entries of that round were keyed late or left out, and the chips in the pots may "
                   "be wrong", self._now, None, severity=Severity.ERROR)

    def _flag_answer_to_nothing(self, action: DealerAction, frame: int | None) -> None:
        """A call, raise or fold keyed while a draw nobody was seen drawing in was under way, by the seat whose say
        ended the betting before it: a betting round starts with no bet to answer, so one of the seat's two says was
        more likely keyed late (the call of the round before, or a call taken for a later round's) than the table
        having drawn unseen; the chips in the pots may be wrong, an error flag (`benchmarks/referee_entries.py`:
        entries keyed two or three places late made awards wrong and final this way). The entry is followed as
        before."""
        what = {"call": "call", "raise": "raise", "fold": "fold to"}[action.action]
        self._flag(FlagKind.ACTION_OUT_OF_TURN, action.seat, f"seat {action.seat}'s {action.action} came right after "
                   "its say that ended the betting, with no card seen drawn since, yet a betting round starts with no "
                   f"bet to {what}: one of the two says may have been keyed late, so the chips in the pots may be "
                   "wrong", action.t, frame, severity=Severity.ERROR)

    def _fold_in_draw(self, action: DealerAction, frame: int | None) -> bool:
        """A fold entered while the draw is still visibly under way (a seat is owed cards, or a discard waits) is no
        evidence that the draw ended (seats not seen drawing stood pat, and the betting began): it is a fold out of
        turn, flagged, and it stands when the seat's turn to act comes. Whether it was taken so."""
        hand, seat = self.hand, action.seat
        if action.action != "fold" or seat not in hand.index_of or not hand.live[hand.index_of[seat]]:
            return False
        if hand.next_card_seat is None and self._held is None and not any(self.discards_seen.values()):
            return False
        self._flag(FlagKind.FOLD_OUT_OF_ORDER, seat, f"seat {seat} folded during draw {hand.draw}; it stands when "
                   "its turn to act comes", action.t, frame)
        self.pending.append(action)
        return True

    def _flag_replaced(self, action: DealerAction, frame: int | None) -> None:
        """A seat's out-of-turn entry replaces its earlier one, still waiting: when either is a bet or a raise, one
        of them was probably meant for another seat (whose say then goes missing) and chips may be wrong, so an
        error flag holds the award."""
        seat = action.seat
        for old in [p for p in self.pending if isinstance(p, DealerAction) and p.seat == seat]:
            if (old.action, old.amount) == (action.action, action.amount) or not {old.action, action.action} & {
                    "bet", "raise"}:
                continue
            self._flag(FlagKind.ACTION_OUT_OF_TURN, seat, f"seat {seat}'s {old.words}, entered at {old.t:.1f} s before "
                       f"its turn, is replaced by its {action.action} before that turn came; one of the two may have "
                       "been another seat's say", action.t, frame, severity=Severity.ERROR)

    def _taken_in_reach(self, seat: int) -> tuple[str, int] | None:
        """What `seat` was taken to do for an entry never made, and in which round, while that entry may still come
        late (up to the betting round after); past that it is forgotten."""
        taken = self._taken.get(seat)
        if taken is not None and self.hand.round > taken[1] + 1:
            del self._taken[seat]
            return None
        return taken

    def _late_entry_of_taken(self, action: DealerAction) -> bool:
        """Is `action` the check or call a seat was taken to make (`_take_missing`), entered late? It is when it
        cannot stand as the seat's say now (not its turn, nothing to call, a bet to face) and comes no later than the
        betting round after the one it was taken in; it is then spent. When it can stand now it does, but stays in
        doubt: if the seat's next entry does not fit, it was the late one (see `_action`)."""
        hand, seat = self.hand, action.seat
        taken = self._taken_in_reach(seat)
        if taken is None or action.action not in ("check", "call"):
            return False
        # A "call" facing no bet would stand as a check, but a call the seat was taken to make explains it better.
        now = hand.can_call(seat) if action.action == "call" else hand.can_check(seat)
        if hand.phase is Phase.BETTING and hand.actor == seat and now:
            self._doubted[seat] = action        # its next entry tells whether this one was late
            return False
        del self._taken[seat]
        if self._missing_in_lag(action):
            del self._missing_held[seat]        # keyed late, not missing: no flag
        return True

    def _missing_in_lag(self, action: DealerAction) -> bool:
        """Is `action` keyed within `ENTRY_LAG_S` of the held missing-action flag of its seat (`_missing_held`)?"""
        held = self._missing_held.get(action.seat)
        return held is not None and action.t <= held[1] + ENTRY_LAG_S

    def _draw_card_in_betting(self, seat: int) -> bool:
        """A card landing, in a betting round before a draw, at a seat seen discarding in it: the dealer has gone
        on to the draw."""
        return self.hand.phase is Phase.BETTING and any(ev.seat == seat for ev, _ in self._early)

    def _close_betting(self, evidence: str, t: float, frame: int | None) -> None:
        """The table went on past an open betting round (`evidence`): each seat still to act whose action was
        never entered is flagged and taken to have checked, or called, since its cards stayed in; entries made
        out of turn while waiting on it then stand in turn. One missing entry so costs one flag, not a hand."""
        hand = self.hand
        round_no = hand.round
        early, self._early = self._early, []          # they are the evidence, not early discards
        while hand.phase is Phase.BETTING and hand.round == round_no and hand.actor is not None:
            if not self._take_missing(evidence, t, frame):
                break
        self._early = early
        if hand.phase is Phase.DRAWING:
            self._flush_early(inferred=True)

    def _take_missing(self, evidence: str, t: float, frame: int | None) -> bool:
        """The seat to act had its turn with no entry made (`evidence`): flag it, take it to check or call (its cards
        stayed in), and let the entries waiting on it stand in turn. False when it can do neither."""
        hand = self.hand
        seat = hand.actor
        kind: ActionKind
        if seat is None:
            return False
        if hand.can_check(seat):
            kind = "check"
        elif hand.can_call(seat):
            kind = "call"
        else:
            return False
        round_no = hand.round
        name = "the betting before the first draw" if round_no == 0 else f"the betting after draw {round_no}"
        waiting = sorted({p.seat for p in self.pending if isinstance(p, DealerAction)})
        after = f"; the out-of-turn entries of {seats_text(waiting)} waited on it" if waiting else ""
        words = (f"no action was entered for seat {seat} in {name}, yet the table went on ({evidence}); taken as a "
                 f"{kind}, since its cards stayed in{after}")
        if self.camera:
            self._missing_held[seat] = (words, t, frame)     # its entry may yet come, keyed late (`_release_missing`)
        else:
            self._flag(FlagKind.ACTION_MISSING, seat, words, t, frame)
        apply_action(hand, DealerAction(seat, kind, t=t, source="vision"), frame)
        self._taken[seat] = (kind, round_no)
        self._drain()
        return True

    def _showing_down(self) -> bool:
        """The last betting round is open, yet cards are already being shown: the table is at showdown."""
        hand = self.hand
        return (hand.phase is Phase.BETTING and hand.round == self.rules.draws
                and any(isinstance(p, CardsShown) for p in self.pending))

    def _entries_waiting(self) -> list[DealerAction]:
        """The entries made out of turn and not yet applied, a fold the camera saw among them, in the order made."""
        return [p if isinstance(p, DealerAction) else DealerAction(p.seat, "fold", t=p.t, source="vision")
                for p in self.pending if isinstance(p, DealerAction | SeatFolded)]

    def _folded(self, ev: SeatFolded, *, wait: bool = True) -> None:
        hand = self.hand
        seat = ev.seat
        if seat not in hand.index_of or not hand.live[hand.index_of[seat]]:
            return
        if wait and self.camera and hand.phase is Phase.BETTING and hand.actor == seat and self._fold_wait is None:
            self._fold_wait = ev          # the seat's say before it, keyed late, may yet come (`_release_fold_wait`)
            return
        if hand.phase is Phase.BETTING and hand.actor == seat:
            self._fold_keyed_for_another(ev)
        held = self.physical.get(seat, 0)
        if hand.phase is Phase.DRAWING:
            self._sync_draw()
            if self._muck_ends_draw(seat):
                self._end_draws_at_muck(seat, ev.t, ev.frame)
                if self.phase is not Phase.DRAWING:   # (not `hand.phase`: the type checker holds it at DRAWING)
                    self._folded(ev)                  # a muck at the showdown
                    return
            if seat not in self._declared and seat not in self._collected and held:
                # Every card to the muck in a draw is a discard of them all (no one folds in a draw), unless an entry
                # keyed late says the draw was over (`_release_draw_mucks`).
                if self.camera and wait:
                    self._draw_muck_held[seat] = (ev, hand.draw)
                else:
                    self._discarded(CardsDiscarded(ev.t, ev.frame, seat, held))
                return
            words = f"seat {seat} folded during draw {hand.draw}; it stands when its turn to act comes"
            if self.camera:
                self._draw_fold_held[seat] = (words, ev, hand.draw)   # the entries ending the draw may be keyed late
            else:
                self._flag(FlagKind.FOLD_OUT_OF_ORDER, seat, words, ev.t, ev.frame)
            self.physical[seat] = 0
            self.pending.append(ev)
            return
        self.physical[seat] = 0
        if hand.phase in (Phase.AWARDING, Phase.DONE):
            return
        if hand.phase is Phase.SHOWDOWN:
            if hand.next_shower == seat:
                # the seats that mucked before it, out of turn, gave up first: it may be the last hand in, and win
                self._concede_early(seat, before=ev.t)
                if hand.phase is Phase.SHOWDOWN and hand.can_muck(seat):
                    hand.muck(seat)
                    self._show_t[seat] = float("-inf")
            else:
                self.pending.append(ev)
            return
        if self._showing_down():
            # Cards are being shown, so the last round is over: this is a muck at showdown, not a fold facing a bet.
            self._close_betting(f"the seats were showing down when seat {seat}'s cards went to the muck", ev.t,
                                ev.frame)
            if self.phase is Phase.SHOWDOWN:   # (not `hand.phase`: the type checker holds it at BETTING)
                self._folded(ev)
                return
        if hand.actor != seat and any(isinstance(p, DealerAction) and p.seat == seat for p in self.pending):
            self.pending.append(ev)       # its entered action waits on the seat to act, and the muck comes after it
            return
        self._action(DealerAction(seat, "fold", t=ev.t, source="vision"), ev.frame)

    def _whole_hand_before_its_draw(self, ev: CardsDiscarded) -> bool:
        """At a camera's table, every card a seat yet to draw holds going in the draw: a discard of them all, or its
        fold facing the bet an entry keyed late will show opened the betting (`_release_draw_mucks`)."""
        if not self.camera or self.hand.phase is not Phase.DRAWING:
            return False
        self._sync_draw()
        seat, hand = ev.seat, self.hand
        return (seat in hand.index_of and hand.live[hand.index_of[seat]]
                and ev.count >= self.physical.get(seat, 0) > 0 and seat not in self._declared
                and seat not in self._collected and seat not in self._draw_muck_held)

    def _muck_read_as_discard(self, ev: CardsDiscarded) -> bool:
        """A seat's whole hand going, read as a discard because the draw was on as far as the referee knew, when it
        is the muck that ends an all-in last draw (`_muck_ends_draw`): the tracker is told "draw" until the draw ends,
        and the seats standing pat at its end make no event that would end it. Or the seat is drawing twice: which
        one the next input says (`_settle_muck_read`)."""
        self._sync_draw()
        return (ev.count >= self.physical.get(ev.seat, 0) > 0 and self._muck_ends_draw(ev.seat)
                and not self._seen_late(ev))

    def _settle_muck_read(self, item: TableEvent | DealerAction | None) -> None:
        """The input after a whole hand going that `_muck_read_as_discard` took (None: the cards are gathered, or the
        recording ended): a card to that seat makes it a second discard (a draw out of order), or a discard of four
        when no seat had drawn in the draw, as another seat discarding then does; anything else, the muck that ended
        the draw."""
        ev, self._muck_read = self._muck_read, None
        assert ev is not None
        if isinstance(item, CardDealt | CardReplaced) and item.seat == ev.seat:
            self._discarded(ev)
        elif isinstance(item, CardsDiscarded) and not self._declared and not self._received:
            self._discarded(ev)   # another seat drawing in a draw no one had drawn in: its whole hand was a discard
        else:
            self._folded(SeatFolded(ev.t, ev.frame, ev.seat))

    def _fold_keyed_for_another(self, ev: SeatFolded) -> None:
        """The seat to act mucks (the camera saw it) with no fold entered for it, while a fold entered for another
        seat waits out of turn, that seat's cards still in front of it: the entry was this fold, keyed in for the
        wrong seat. It is dropped with a flag, instead of folding a seat whose cards stay (a wrong pot)."""
        entered = self._entries_left(folds=True)
        if any(p.seat == ev.seat and p.action == "fold" for p in entered):
            return
        for entry in entered:
            if entry.action == "fold" and entry.t <= ev.t and self.physical.get(entry.seat, 0) > 0:
                self.pending.remove(entry)
                self._flag(FlagKind.FOLD_OUT_OF_ORDER, entry.seat, f"seat {entry.seat}'s fold, entered at {entry.t:.1f}"
                           f" s while seat {ev.seat} was to act, is taken as seat {ev.seat}'s, keyed in for the wrong "
                           f"seat: the camera saw seat {ev.seat}'s cards go to the muck, and seat {entry.seat}'s stay",
                           ev.t, ev.frame)
                return

    # -- waiting inputs ----------------------------------------------------------------------------

    def _due(self, item: Pending) -> bool:
        hand = self.hand
        if isinstance(item, DealerAction):
            return hand.phase is Phase.BETTING and hand.actor == item.seat
        if isinstance(item, CardReplaced):
            return hand.phase is Phase.DRAWING and hand.next_card_seat == item.seat
        if isinstance(item, CardsShown):
            return hand.phase is Phase.SHOWDOWN and hand.next_shower == item.seat and self._show_whole(item)
        return (hand.phase is Phase.SHOWDOWN and hand.next_shower == item.seat) or (
            hand.phase is Phase.BETTING and hand.actor == item.seat)

    def _apply_pending(self, item: Pending) -> None:
        hand = self.hand
        if isinstance(item, DealerAction) and item.action == "fold" and item.source == "vision":
            held = self._fold_held_in_lag(item.seat)
            if held is not None and self._fold_wait is None:
                # Its turn came within ENTRY_LAG_S of the cards going, by entries keyed late: the seat's own say
                # before the fold may be keyed late too, and goes first, as for a fold seen in turn.
                self._fold_wait = SeatFolded(item.t, held[2] or 0, item.seat)
                return
        if isinstance(item, DealerAction):
            if entry_is_legal(hand, item):
                self._flag_call_of_nothing(item, None, waited=True)
                for doubt in take_entry(self._fold_of_nothing, item):
                    self._flag_answer_to_nothing(*doubt)
                self._flag_stale_entry(item)
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

    def _folds_at_showdown(self) -> None:
        """The last betting round closed while a fold the camera saw out of turn still waited for its seat's turn: that
        seat had made its last say (a turn to act would have taken the fold), and the round's last entries were keyed
        late (badugi-limit seed 2: seat 4 raised, the calls after it keyed up to 1.2 s late, its cards went 0.4 s
        before the last call was keyed). Out of turn only if it waited longer than `ENTRY_LAG_S` for the round to
        close. It is not taken as a muck then: cards picked up to be turned face up look the same to the camera, and a
        show it then misses, keyed in by the dealer, must still count (badugi-limit seed 10, seat 3: taken as a muck,
        the pot went to the other seat, a wrong award made final). Only at the gather, if the seat never showed
        (`_muck_seen_early`)."""
        for p in self.pending:
            if (isinstance(p, DealerAction) and p.source == "vision" and p.action == "fold"
                    and self._fold_held_in_lag(p.seat) is not None):
                self._muck_in_lag.add(p.seat)     # its muck at the showdown, unless it shows (`_muck_seen_early`)

    def _drain(self) -> None:
        hand = self.hand
        progress = True
        while progress:
            progress = False
            if self._early and hand.phase is Phase.DRAWING:
                self._flush_early(inferred=False)     # the round closed by an entered action: they came early
                progress = True
                continue
            if self._held is not None and hand.phase is Phase.DRAWING and hand.next_card_seat is None:
                held, self._held = self._held, None
                self._declare(held)
                progress = True
                continue
            if hand.phase is Phase.SHOWDOWN:
                self._folds_at_showdown()
            for item in self.pending:
                if self._due(item):
                    self.pending.remove(item)
                    self._apply_pending(item)
                    progress = True
                    break
