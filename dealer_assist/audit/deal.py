"""The initial deal checked card by card: wrong seat, skipped seat, wrong count, following the real table.

The expected sequence is the seats clockwise from the first left of the button, `hand_size` times.
A card landing where it should is a match. A mismatch waits for the next card to say what it was:
if the next card goes to the seat that was due, the card was one too many, out of turn, and the deal went on
(`card_to_wrong_seat`); if it goes to the seat after the one that got it, the dealer skipped the seats between
(`seat_skipped`); otherwise the card went to the wrong seat and the dealer carried on as intended
(`card_to_wrong_seat`). Either way the checker then follows the dealer's real position, so one
mistake raises one flag. When the deal ends (an action or a draw arrives) any seat still short or
over that no earlier flag explains is a `wrong_card_count`. Every slot of the expected sequence is
handed out once, with the card when it really landed there, so the rules Hand can be dealt in step.

A camera can miss a card as it lands (the next card of a row covers it) and count it only when the seat's next
card lands: the seat's count then rises by two at once, which no dealer does (a seat's cards come a lap of pitches
apart). So a seat-skipped finding is held until the seat's next card: if another comes with it (within
`TOGETHER_S`), the skipped card was there, seen late, and the finding is dropped; else (or when the deal ends
first) it is raised with its own time. Two cards at once at a seat that no finding waits on are the camera counting
one card twice, or counting the seat's next card early: the second is held as the seat's early card, and fills the
seat's next turn if no card lands there then; one never used is a card too many (`wrong_card_count` at the end).

With `camera` (the cards are seen by a table camera, `TableConfig.camera`), a camera's timing is allowed for further:
a card out of turn at a seat dealt in, followed by the card of the seat that was due, is held as that seat's card of a
later turn counted early (the camera confirms a landing a frame or a pitch early or late, or counts a pile one card
over while a card is pitched past it), and fills that turn if no card lands there then (else it was a card too many,
`card_to_wrong_seat` with its own time); and every wrong-seat or skip finding waits for the deal's end, where it is
raised only if the deal left some seat short or over. A deal that leaves every seat its hand, seen in another order,
is the camera's timing: no flag. A deal that does not, and where no card was taken for one seen late or counted early,
is accounted for as a whole at its end (`deal_alignment`: the fewest mistakes, then the stray cards nearest along the
dealer's lap) in place of the card-by-card findings, which see one card ahead and can split two mistakes side by side
into three, or pin them on the wrong seats. Without `camera` (scripted or entered streams) the order is the dealer's:
each finding is raised at once, as the house rules ask of a card dealt out of sequence.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from dealer_assist.audit.deal_alignment import Step, align_deal
from dealer_assist.audit.records import FlagKind
from dealer_assist.cards import Card

ORDER_KINDS = (FlagKind.CARD_TO_WRONG_SEAT, FlagKind.SEAT_SKIPPED)
TOGETHER_S = 0.25   # two cards landing at one seat this close together: one was there before, seen late


def _cards(n: int) -> str:
    return f"{n} card" if n == 1 else f"{n} cards"


@dataclass(frozen=True, slots=True)
class DealNote:
    """A finding about the deal: the flag kind, the seat, the words, and when (the card's event)."""

    kind: FlagKind
    seat: int
    message: str
    t: float
    frame: int | None


@dataclass(frozen=True, slots=True)
class Slot:
    """One place of the expected deal filled: the seat it was due to and the card if it landed there."""

    seat: int
    card: Card | None
    landed: bool


@dataclass(slots=True)
class _Landing:
    seat: int
    card: Card | None
    t: float
    frame: int | None


@dataclass(slots=True)
class DealChecker:
    """Follows the deal; `card()` and `finish()` return the slots filled and the notes raised."""

    order: tuple[int, ...]
    hand_size: int
    camera: bool = False
    expected: list[int] = field(init=False)
    pos: int = 0
    counts: dict[int, int] = field(init=False)
    short_explained: dict[int, int] = field(init=False)
    over_explained: dict[int, int] = field(init=False)
    last_landing: dict[int, _Landing] = field(init=False)
    pending: tuple[int, _Landing] | None = None
    finished: bool = False
    held: dict[int, list[DealNote]] = field(init=False)     # seat -> its skipped findings not yet raised
    armed: dict[int, float] = field(init=False)    # seat holding findings -> when its next card landed
    early: dict[int, int] = field(init=False)      # seat -> cards it got at once with another, not yet in a turn
    extra: dict[int, list[DealNote]] = field(init=False)   # seat -> its early cards that came out of turn, unflagged
    order_notes: list[DealNote] = field(init=False)   # camera: wrong-seat and skip findings, until the deal ends
    landings: list[tuple[int, Card | None, float, int | None]] = field(init=False)   # every card, as fed
    seen: list[_Landing] = field(init=False)       # the deal's cards in the order they landed, but for the camera's
    timing_allowed: bool = False                   # a card taken as seen late or counted early, or out of turn for a
                                                   # later turn's (seen in another order than the dealer's)

    def __post_init__(self) -> None:
        self.expected = [s for _ in range(self.hand_size) for s in self.order]
        self.counts = dict.fromkeys(self.order, 0)
        self.short_explained = dict.fromkeys(self.order, 0)
        self.over_explained = dict.fromkeys(self.order, 0)
        self.last_landing = {}
        self.held = {}
        self.armed = {}
        self.early = {}
        self.extra = {}
        self.order_notes = []
        self.seen = []
        self.landings = []

    @property
    def complete(self) -> bool:
        """Every expected slot is filled and no mismatch waits."""
        return self.pos >= len(self.expected) and self.pending is None

    @property
    def next_seat(self) -> int | None:
        """The seat the next card should go to (None once every slot is filled)."""
        if self.pending is not None:
            return self.expected[self.pending[0] + 1] if self.pending[0] + 1 < len(self.expected) else None
        return self.expected[self.pos] if self.pos < len(self.expected) else None

    def card(self, seat: int, card: Card | None, t: float, frame: int | None) -> tuple[list[Slot], list[DealNote]]:
        """A card landed at `seat`."""
        if not self.finished:
            self.landings.append((seat, card, t, frame))
        slots, notes = self._card(seat, card, t, frame)
        return slots, notes if self.finished else self._hold_order(notes)

    def _card(self, seat: int, card: Card | None, t: float, frame: int | None) -> tuple[list[Slot], list[DealNote]]:
        slots: list[Slot] = []
        notes: list[DealNote] = self._release_held(seat, t)
        landing = _Landing(seat, card, t, frame)
        if self._seen_late(seat) or self._counted_early(seat, t):
            self.timing_allowed = True
            return slots, notes
        if not self.finished:
            self.seen.append(landing)
        if seat in self.held:
            self.armed[seat] = t
        if self.pending is not None:
            self._resolve(seat, slots, notes)
        self.counts[seat] = self.counts.get(seat, 0) + 1
        self.last_landing[seat] = landing
        if self.finished or self.pos >= len(self.expected):
            if self.finished:
                notes += self._count_notes(only=seat)
            return slots, notes
        while self.pos < len(self.expected) and seat != self.expected[self.pos] and self._use_early(slots):
            pass
        if self.pos >= len(self.expected):
            return slots, notes
        if seat == self.expected[self.pos]:
            slots.append(Slot(seat, card, True))
            self.pos += 1
            notes += self._too_many(seat)
        else:
            self.pending = (self.pos, landing)
        return slots, notes

    def finish(self) -> tuple[list[Slot], list[DealNote]]:
        """The deal is over (the table moved on): settle a waiting mismatch, fill the slots, check counts."""
        slots: list[Slot] = []
        notes: list[DealNote] = []
        if self.finished:
            return slots, notes
        if self.pending is not None:
            self._resolve(None, slots, notes)
        notes += sorted((n for held in self.held.values() for n in held), key=lambda n: n.t)
        self.held, self.armed = {}, {}
        while self._use_early(slots):
            pass
        for seat in list(self.extra):
            notes += self._too_many(seat, every=True)
        if self.pos == len(self.expected) - 1:
            # One card short at the very end: the dealer skipped the last seat of the last round.
            seat = self.expected[self.pos]
            self.short_explained[seat] += 1
            landing = max(self.last_landing.values(), key=lambda x: x.t, default=None)
            notes.append(DealNote(FlagKind.SEAT_SKIPPED, seat, f"seat {seat} was skipped: the deal ended one card "
                                  "short, at its turn", landing.t if landing else 0.0,
                                  landing.frame if landing else None))
        while self.pos < len(self.expected):
            slots.append(Slot(self.expected[self.pos], None, False))
            self.pos += 1
        self.finished = True
        notes += self._count_notes()
        if not self.camera:
            return slots, notes
        rest = self._hold_order(notes)
        order = sorted(self.order_notes, key=lambda n: n.t)
        self.order_notes = []
        if all(self.counts.get(seat, 0) == self.hand_size for seat in self.order):
            order = []          # every seat holds its hand: what looked out of order was the camera's timing
        elif not self.timing_allowed and (order or rest):
            order = self._aligned_notes()
            rest = [n for n in rest if n.kind is not FlagKind.WRONG_CARD_COUNT]
        return slots, [*order, *rest]

    def with_late_card(self, seat: int, card: Card | None, t: float,
                       frame: int | None) -> tuple[DealChecker, list[DealNote]]:
        """The deal again with one more card, seen after it ended (a camera confirms the last pitch late): a fresh
        checker fed every card and this one, finished, and its findings (the slots were handed out already)."""
        again = DealChecker(self.order, self.hand_size, self.camera)
        for landing in [*self.landings, (seat, card, t, frame)]:
            again.card(*landing)
        return again, again.finish()[1]

    # -- internals ---------------------------------------------------------------------------------

    def _hold_order(self, notes: list[DealNote]) -> list[DealNote]:
        """At a camera's table, keep the wrong-seat and skip findings for the deal's end; the other notes."""
        if not self.camera:
            return notes
        self.order_notes += [n for n in notes if n.kind in ORDER_KINDS]
        return [n for n in notes if n.kind not in ORDER_KINDS]

    def _release_held(self, seat: int, t: float) -> list[DealNote]:
        """Raise the held skip findings of seats whose next card came alone (nothing with it since)."""
        notes: list[DealNote] = []
        for other in [s for s, at in self.armed.items() if t - at > TOGETHER_S or (s != seat and at != t)]:
            del self.armed[other]
            notes += self.held.pop(other, [])
        return notes

    def _seen_late(self, seat: int) -> bool:
        """A card with the next one of a seat held as skipped: the skipped card, seen late; its finding goes."""
        if seat not in self.armed:
            return False
        del self.armed[seat]
        self.held[seat].pop()
        if not self.held[seat]:
            del self.held[seat]
        self.short_explained[seat] -= 1
        self.counts[seat] += 1
        return True

    def _counted_early(self, seat: int, t: float) -> bool:
        """A card with the one before at the same seat: held as the seat's early card, for a turn of it to come."""
        before = self.last_landing.get(seat)
        if self.finished or before is None or t - before.t > TOGETHER_S:
            return False
        self.early[seat] = self.early.get(seat, 0) + 1
        self.counts[seat] += 1
        return True

    def _take_early(self, seat: int, slots: list[Slot]) -> bool:
        """Fill a turn of `seat` with its early card, if it has one (one that came out of turn is then no flag: the
        camera counted the seat's card early, or the dealer only pitched it early)."""
        if not self.early.get(seat):
            return False
        self.early[seat] -= 1
        if self._pop_extra(seat) is not None:
            # a card out of turn taken for this turn's, counted early: the deal was seen in another order. One found
            # too many instead (`_too_many`) leaves the deal's order as seen, for the account at its end: heads-up, a
            # seat skipped looks, card by card, like the other seat's card out of turn until the deal ends short.
            self.timing_allowed = True
        slots.append(Slot(seat, None, True))
        return True

    def _pop_extra(self, seat: int) -> DealNote | None:
        """The finding of the seat's first early card that came out of turn, taken off its list (None: it has none)."""
        held = self.extra.get(seat)
        if not held:
            return None
        note = held.pop(0)
        if not held:
            del self.extra[seat]
        return note

    def _too_many(self, seat: int, every: bool = False) -> list[DealNote]:
        """The seat's turn got a card of its own (or, `every`, the deal ended) while it held a card that came out of
        turn: that card was one too many, flagged now with its own time."""
        notes: list[DealNote] = []
        while (note := self._pop_extra(seat)) is not None:
            self.early[seat] -= 1
            self.over_explained[seat] += 1
            notes.append(note)
            if not every:
                break
        return notes

    def _use_early(self, slots: list[Slot]) -> bool:
        """Fill the turn due now with its seat's early card, if it has one."""
        if self.pos >= len(self.expected) or not self._take_early(self.expected[self.pos], slots):
            return False
        self.pos += 1
        return True

    def _skip_target(self, p: int, seat: int) -> int | None:
        """Where the dealer would be if they skipped ahead from slot `p` to `seat` within one lap."""
        for q in range(p + 1, min(p + len(self.order), len(self.expected))):
            if self.expected[q] == seat:
                return q
        return None

    def _resolve(self, next_seat: int | None, slots: list[Slot], notes: list[DealNote]) -> None:
        assert self.pending is not None
        p, landing = self.pending
        self.pending = None
        e, s = self.expected[p], landing.seat
        if next_seat == e and s != e:
            # the seat due got the next card: the one before it was a card too many to seat s, and the deal went on;
            # or, at a seat dealt in, its card of a later turn counted early (a card pitched past it, a box too many):
            # held as its early card, it fills that turn if no card lands there then, else it is flagged then
            message = f"a card went to {self._where(s)} out of turn (seat {e} was due, and got the next card)"
            if self.camera and s in self.order:
                self.early[s] = self.early.get(s, 0) + 1
                self.extra.setdefault(s, []).append(DealNote(FlagKind.CARD_TO_WRONG_SEAT, s, message, landing.t,
                                                             landing.frame))
            else:
                notes.append(self._wrong_seat(landing, message))
            self.pos = p
            return
        q = self._skip_target(p, s)
        end = len(self.expected)
        wrong_fits = next_seat is not None and p + 1 < end and self.expected[p + 1] == next_seat
        skip_fits = q is not None and (
            (next_seat is not None and q + 1 < end and self.expected[q + 1] == next_seat)
            or (next_seat is None and q == end - 1 and p != end - 1))
        if skip_fits and not wrong_fits:
            assert q is not None
            for k in range(p, q):
                skipped = self.expected[k]
                if self._take_early(skipped, slots):            # its card came early, with another
                    continue
                self.short_explained[skipped] += 1
                slots.append(Slot(skipped, None, False))
                self.held.setdefault(skipped, []).append(DealNote(
                    FlagKind.SEAT_SKIPPED, skipped, f"seat {skipped} was skipped: the card due to it went to seat "
                    f"{s}, and the deal carried on from seat {s}", landing.t, landing.frame))
            slots.append(Slot(s, landing.card, True))
            self.pos = q + 1
            return
        self.short_explained[e] += 1
        slots.append(Slot(e, None, False))
        notes.append(self._wrong_seat(landing, f"a card due to seat {e} went to {self._where(s)}"))
        self.pos = p + 1

    def _aligned_notes(self) -> list[DealNote]:
        """The findings of the whole deal's fewest-mistakes account (`deal_alignment`), in place of the card-by-card
        checker's; every seat's shortfall and surplus is then explained."""
        steps = align_deal(self.order, self.expected, [x.seat for x in self.seen])
        last_landing = max((k for k, a in enumerate(steps) if a.landing is not None), default=-1)
        last_slot = max((k for k, a in enumerate(steps) if a.slot is not None), default=-1)
        end = self.seen[-1] if self.seen else None
        notes: list[DealNote] = []
        trailing_skips = [a for a in steps[last_landing + 1:] if a.step is Step.SKIP]
        # a card past the deal's last slot that brings its seat to the hand: the seat's skipped card, dealt late
        made_up = {self.seen[a.landing].seat for a in steps[last_slot + 1:] if a.landing is not None
                   and self.counts.get(self.seen[a.landing].seat, 0) == self.hand_size}
        for k, a in enumerate(steps):
            if a.step is Step.SKIP and k < last_landing:
                # the card that landed next, where the dealer carried on from
                to = self.seen[next(b.landing for b in steps[k + 1:] if b.landing is not None)]
                skipped = self.expected[a.slot or 0]
                late = "; it got its card after the deal's last round" if skipped in made_up else ""
                notes.append(DealNote(FlagKind.SEAT_SKIPPED, skipped, f"seat {skipped} was skipped: the card due to "
                                      f"it went to seat {to.seat}, and the deal carried on from seat {to.seat}{late}",
                                      to.t, to.frame))
            elif a.step is Step.WRONG and a.slot is not None and a.landing is not None:
                x = self.seen[a.landing]
                notes.append(DealNote(FlagKind.CARD_TO_WRONG_SEAT, x.seat, f"a card due to seat "
                                      f"{self.expected[a.slot]} went to {self._where(x.seat)}", x.t, x.frame))
            elif a.step is Step.EXTRA and k < last_slot and a.landing is not None:
                x = self.seen[a.landing]
                due = next(self.expected[b.slot] for b in steps[k + 1:] if b.slot is not None)
                why = f"out of turn (seat {due} was due)" if due != x.seat else "one too many (two at once)"
                notes.append(DealNote(FlagKind.CARD_TO_WRONG_SEAT, x.seat, f"a card went to {self._where(x.seat)} "
                                      + why, x.t, x.frame))
        t, frame = (end.t, end.frame) if end else (0.0, None)
        if len(trailing_skips) == 1:
            seat = self.expected[trailing_skips[0].slot or 0]
            notes.append(DealNote(FlagKind.SEAT_SKIPPED, seat, f"seat {seat} was skipped: the deal ended one card "
                                  "short, at its turn", t, frame))
        miscounted = {self.expected[a.slot or 0] for a in trailing_skips} if len(trailing_skips) > 1 else set()
        miscounted |= {self.seen[a.landing].seat for a in steps[last_slot + 1:] if a.landing is not None}
        # a seat that ended with its hand got a card out of order, which its skip or stray-card note already says
        miscounted = {seat for seat in miscounted if self.counts.get(seat, 0) != self.hand_size}
        for seat in sorted(miscounted):
            have = self.counts.get(seat, 0)
            at = self.last_landing.get(seat)
            notes.append(DealNote(FlagKind.WRONG_CARD_COUNT, seat, f"seat {seat} got {_cards(have)} in the deal, not "
                                  f"{self.hand_size}", at.t if at else t, at.frame if at else frame))
        for seat in self.short_explained:
            have = self.counts.get(seat, 0)
            self.short_explained[seat] = max(0, self.hand_size - have)
            self.over_explained[seat] = max(0, have - self.hand_size)
        return sorted(notes, key=lambda n: n.t)

    def _where(self, seat: int) -> str:
        """How a flag names the seat a stray card went to."""
        return f"seat {seat}" if seat in self.counts and seat in self.order else f"seat {seat} (not dealt in)"

    def _wrong_seat(self, landing: _Landing, message: str) -> DealNote:
        """The flag for a card that landed at a seat it was not due to; its extra card there is explained."""
        if landing.seat in self.over_explained:
            self.over_explained[landing.seat] += 1
        return DealNote(FlagKind.CARD_TO_WRONG_SEAT, landing.seat, message, landing.t, landing.frame)

    def _count_notes(self, only: int | None = None) -> list[DealNote]:
        notes: list[DealNote] = []
        for seat in self.order if only is None else (only,):
            have = self.counts.get(seat, 0)
            if seat not in self.short_explained:
                continue
            short = self.hand_size - have - self.short_explained[seat]
            over = have - self.hand_size - self.over_explained[seat]
            landing = self.last_landing.get(seat)
            t = landing.t if landing else 0.0
            frame = landing.frame if landing else None
            if short > 0 and only is None:
                self.short_explained[seat] += short
                notes.append(DealNote(FlagKind.WRONG_CARD_COUNT, seat,
                                      f"seat {seat} got {_cards(have)} in the deal, not {self.hand_size}", t, frame))
            elif over > 0:
                self.over_explained[seat] += over
                words = (f"seat {seat} got {_cards(have)} in the deal, not {self.hand_size}" if only is None else
                         f"seat {seat} got a card after the deal: it holds {have} cards, not {self.hand_size}")
                notes.append(DealNote(FlagKind.WRONG_CARD_COUNT, seat, words, t, frame))
        return notes
