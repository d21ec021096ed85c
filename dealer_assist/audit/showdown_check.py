"""The showdown checked against the Hand: show order by the table's clock, dead hands, cards turned one by one."""

from __future__ import annotations

from dealer_assist.audit.draw_check import DrawChecks
from dealer_assist.audit.outputs import KeyMoment
from dealer_assist.audit.records import FlagKind, Severity
from dealer_assist.rules.awards import seats_text
from dealer_assist.rules.hand import Phase
from dealer_assist.rules.steps import IllegalStep
from dealer_assist.vision.events import (
    CardExposed,
    CardsShown,
)


class ShowdownChecks(DrawChecks):
    """Shows and mucks at showdown."""

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
        self._close_draws_left(ev.t, ev.frame)          # the draws are over (no betting between them): showdown
        if hand.phase is Phase.SHOWDOWN and hand.next_shower == seat:
            self._show(ev)
        else:
            self.pending.append(ev)

    def _show_whole(self, ev: CardsShown) -> bool:
        """Whether a show holds every card of the seat's hand: as many as the seat holds, or a whole hand's worth
        unless the camera saw the seat get more (then a card is still unread, and it may make the hand dead)."""
        n, held = len(ev.cards), self.physical.get(ev.seat, 0)
        return n == held or (n == self.rules.hand_size and held <= n)

    def _show(self, ev: CardsShown) -> bool:
        hand = self.hand
        if len(ev.cards) != self.rules.hand_size or not self._show_whole(ev):
            if len(ev.cards) == self.physical.get(ev.seat) and hand.can_muck(ev.seat):
                hand.muck(ev.seat)                  # the wrong number of cards (after a flagged error): dead
                # Not a flag (the error behind it is flagged already), but the story and a key frame say why the
                # award passes over a hand that was shown.
                self.outputs.append(KeyMoment(f"dead hand: seat {ev.seat} showed {len(ev.cards)} cards, a "
                                              f"{self.rules.game} hand has {self.rules.hand_size}", ev.t, ev.frame))
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
        """A show is out of order when a seat due before it showed or mucked later (by the table's clock). A hand the
        dealer keyed in bears the time it was keyed, some while after it was turned up: it proves no seat early."""
        late = sorted(s for s, t in self._show_t.items() if t > ev.t + 1e-6 and s not in self._entered)
        self._show_t[ev.seat] = ev.t
        if late:
            self._flag(FlagKind.SHOW_OUT_OF_ORDER, ev.seat, f"seat {ev.seat} showed before {seats_text(late)}, whose "
                       f"turn{'s' if len(late) > 1 else ''} came first", ev.t, ev.frame,
                       once=("show", ev.seat))

