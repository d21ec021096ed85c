"""The stub and the used cards: where every card is, and the reshuffle rule of seed 004.

Cards may be known (simulation, or faces the camera saw) or unknown (`None`, a face-down card).
With a known deck the stub is an ordered list (top at the end); without one only its count is
known. Every used card is tagged with the draw round it left play in, so a reshuffle takes the
burn cards and earlier rounds' discards and folded hands, never the current round's discards.
"""

from __future__ import annotations

import random
from collections.abc import Iterable

from dealer_assist.cards import FULL_DECK, Card

STUB = -1
"""`where` code of a known card that is in the stub."""
USED = -2
"""`where` code of a known card that was burned, discarded or mucked."""


class Stub:
    """The cards not in any hand: the stub, burns, discards and mucked hands."""

    __slots__ = ("_rng", "burns", "count", "known", "used", "where")

    def __init__(self, cards: Iterable[Card] | None, rng: random.Random | None) -> None:
        self.known: list[Card] | None = None if cards is None else list(cards)
        if self.known is not None:
            self.known.reverse()
        self.count = 52 if self.known is None else len(self.known)
        # seat index (>= 0), STUB or USED for every known card; absent = unknown / never seen.
        self.where: dict[Card, int] = {}
        if self.known is not None:
            self.where = dict.fromkeys(self.known, STUB)
        self.burns: list[Card | None] = []
        self.used: list[tuple[Card | None, int]] = []  # discards and mucked hands with their round tag
        self._rng = rng or random.Random(0)

    def snapshot(self) -> tuple[object, ...]:
        return (
            None if self.known is None else tuple(self.known),
            self.count,
            tuple(sorted((c.index, w) for c, w in self.where.items())),
            tuple(self.burns),
            tuple(self.used),
        )

    def dealable(self, card: Card) -> bool:
        """A card may be dealt only from the stub: known to be there, or (no deck) never seen."""
        w = self.where.get(card)
        if self.known is not None:
            return w == STUB
        return w is None or w == STUB

    def take(self, card: Card | None) -> Card | None:
        """Take one card off the stub (the top one when `card` is None and the deck is known)."""
        self.count -= 1
        known = self.known
        if known is not None:
            if card is None:
                card = known.pop()
            elif known[-1] == card:
                known.pop()
            else:
                known.remove(card)
        return card

    def pool(self, draw: int) -> list[Card | None]:
        """Cards a reshuffle in draw `draw` takes: all burns, and used cards of earlier rounds."""
        return [*self.burns, *(c for c, tag in self.used if tag < draw)]

    def pool_size(self, draw: int) -> int:
        return len(self.burns) + sum(1 for _, tag in self.used if tag < draw)

    def reshuffle(self, draw: int) -> int:
        """Shuffle the pool (and what is left of the stub) into a new stub; returns the new count."""
        cards = self.pool(draw)
        self.burns = []
        self.used = [(c, tag) for c, tag in self.used if tag >= draw]
        self.count += len(cards)
        for c in cards:
            if c is not None:
                self.where[c] = STUB
        if self.known is not None:
            pile: list[Card] = [c for c in cards if c is not None]
            pile.extend(self.known)
            self._rng.shuffle(pile)
            self.known = pile
        return self.count

    def discard(self, cards: Iterable[Card | None], tag: int) -> None:
        """Cards leaving play (a discard or a folded hand) in round `tag`."""
        for c in cards:
            self.used.append((c, tag))
            if c is not None:
                self.where[c] = USED

    def burn(self, card: Card | None) -> None:
        self.burns.append(card)
        if card is not None:
            self.where[card] = USED


def full_deck_shuffled(rng: random.Random) -> list[Card]:
    """A shuffled 52-card deck, top card first."""
    pile = list(FULL_DECK)
    rng.shuffle(pile)
    return pile
