"""A 52-card deck with a reproducible shuffle."""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator

from dealer_assist.cards.card import RANKS, SUITS, Card, CardError

FULL_DECK: tuple[Card, ...] = tuple(Card(r, s) for s in SUITS for r in RANKS)


class Deck:
    """An ordered stub of cards; `deal()` takes from the top (index 0)."""

    def __init__(self, cards: Iterable[Card] = FULL_DECK) -> None:
        self._cards: list[Card] = list(cards)
        if len(set(self._cards)) != len(self._cards):
            raise CardError("a deck cannot hold the same card twice")

    @classmethod
    def shuffled(cls, seed: int | None = None, cards: Iterable[Card] = FULL_DECK) -> Deck:
        pile = list(cards)
        random.Random(seed).shuffle(pile)
        return cls(pile)

    def __len__(self) -> int:
        return len(self._cards)

    def __iter__(self) -> Iterator[Card]:
        return iter(self._cards)

    @property
    def cards(self) -> tuple[Card, ...]:
        return tuple(self._cards)

    def deal(self) -> Card:
        if not self._cards:
            raise CardError("the stub is empty; no card left to deal")
        return self._cards.pop(0)

    def peek(self) -> Card | None:
        return self._cards[0] if self._cards else None
