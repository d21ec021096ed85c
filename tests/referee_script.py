"""A tiny script language for referee tests: table events and dealer actions with rising timestamps."""

from __future__ import annotations

from dataclasses import dataclass, field

from dealer_assist.audit.records import ActionKind, DealerAction
from dealer_assist.cards import Card, parse_card
from dealer_assist.vision.events import (
    ButtonMoved,
    CardBurned,
    CardDealt,
    CardExposed,
    CardReplaced,
    CardsDiscarded,
    CardsGathered,
    CardsShown,
    SeatFolded,
    TableEvent,
)

Item = TableEvent | DealerAction


@dataclass
class Script:
    """Builds an input stream; each item is 0.5 s after the last."""

    items: list[Item] = field(default_factory=list)
    frame: int = 0

    def _tick(self) -> tuple[float, int]:
        self.frame += 15
        return self.frame / 30, self.frame

    def deal(self, *seats: int) -> Script:
        for seat in seats:
            t, f = self._tick()
            self.items.append(CardDealt(t, f, seat))
        return self

    def together(self, seat: int) -> Script:
        """Another card at `seat` one frame after the last item: the camera saw two cards there at once."""
        self.frame += 1
        self.items.append(CardDealt(self.frame / 30, self.frame, seat))
        return self

    def deal_all(self, order: tuple[int, ...], size: int = 4) -> Script:
        return self.deal(*(order * size))

    def up(self, seat: int, card: str) -> Script:
        """A card dealt face up (the tracker reports the deal and the exposure)."""
        t, f = self._tick()
        c = parse_card(card)
        self.items += [CardDealt(t, f, seat, c), CardExposed(t, f, seat, c)]
        return self

    def wait(self, seconds: float) -> Script:
        """Nothing happens for `seconds` more (the next item comes that much later than the usual 0.5 s)."""
        self.frame += round(seconds * 30)
        return self

    def seen_up(self, seat: int, *cards: str) -> Script:
        """Cards already at the seat read face up (the tracker reports exposures only)."""
        t, f = self._tick()
        self.items += [CardExposed(t, f, seat, parse_card(c)) for c in cards]
        return self

    def act(self, seat: int, action: ActionKind, amount: int | None = None) -> Script:
        t, _ = self._tick()
        self.items.append(DealerAction(seat, action, amount, t=t))
        return self

    def discard(self, seat: int, count: int, cards: tuple[str, ...] = ()) -> Script:
        t, f = self._tick()
        self.items.append(CardsDiscarded(t, f, seat, count, tuple(parse_card(c) for c in cards)))
        return self

    def replace(self, seat: int, count: int = 1, card: str | None = None) -> Script:
        for _ in range(count):
            t, f = self._tick()
            self.items.append(CardReplaced(t, f, seat, None if card is None else parse_card(card)))
        return self

    def draw(self, seat: int, count: int) -> Script:
        """A seat discards `count` and gets as many (0: stands pat, nothing seen)."""
        if count:
            self.discard(seat, count).replace(seat, count)
        return self

    def fold(self, seat: int) -> Script:
        t, f = self._tick()
        self.items.append(SeatFolded(t, f, seat))
        return self

    def show(self, seat: int, cards: str) -> Script:
        t, f = self._tick()
        self.items.append(CardsShown(t, f, seat, tuple(parse_card(c) for c in cards.split())))
        return self

    def burn(self) -> Script:
        """The camera sees the dealer burn a card from the stub."""
        t, f = self._tick()
        self.items.append(CardBurned(t, f))
        return self

    def gather(self) -> Script:
        t, f = self._tick()
        self.items.append(CardsGathered(t, f))
        return self

    def button(self, seat: int) -> Script:
        t, f = self._tick()
        self.items.append(ButtonMoved(t, f, seat))
        return self


def cards(text: str) -> tuple[Card, ...]:
    return tuple(parse_card(c) for c in text.split())
