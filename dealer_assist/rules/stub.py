"""The stub and the used cards: where every card is, and the reshuffle rule of seed 004.

Cards may be known (simulation, or faces the camera saw) or unknown (`None`, a face-down card).
With a known deck the stub is an ordered list (top at the end); without one only its count is
known. Every used card is tagged with the draw round it left play in, so a reshuffle takes the
burn cards and earlier rounds' discards and folded hands, never the current round's discards.
"""

from __future__ import annotations

import random
from collections.abc import Iterable

from dealer_assist.cards import FULL_DECK, Card, card_from_index

STUB = -1
"""`where` code of a known card that is in the stub."""
USED = -2
"""`where` code of a known card that was burned, discarded or mucked."""
UNSEEN = -3
"""`where` code of a card never seen (only without a known deck)."""
_SUIT_ORDER = {"c": 0, "d": 1, "h": 2, "s": 3}


def _compute_key(card: Card) -> int:
    return (int(card.rank) - 1) * 4 + _SUIT_ORDER[card.suit._value_]


# The package's canonical Card objects (FULL_DECK, card_from_index) live as long as the program, so
# their ids are never reused: a lookup by id is the cheapest way to their key.
_KEY_BY_ID: dict[int, int] = {id(c): _compute_key(c) for c in (*FULL_DECK, *map(card_from_index, range(52)))}
_key_by_id = _KEY_BY_ID.get
key_of_id = _key_by_id
"""`key_of_id(id(card))`: a canonical card's key, else None (then use `card_key`); inlined in hot paths."""


def card_key(card: Card) -> int:
    """`card.index` (0..51) without Python-level property calls (the hot path of every deal)."""
    key = _key_by_id(id(card))
    return _compute_key(card) if key is None else key


class Stub:
    """The cards not in any hand: the stub, burns, discards and mucked hands."""

    __slots__ = ("_rng", "burns", "count", "known", "used", "used_by_round", "where")

    def __init__(self, cards: Iterable[Card] | None, rng: random.Random | None) -> None:
        self.known: list[Card] | None = None if cards is None else list(cards)
        if self.known is not None:
            self.known.reverse()
        self.count = 52 if self.known is None else len(self.known)
        # Seat index (>= 0), STUB, USED or UNSEEN for each of the 52 cards, by `card_key`.
        self.where: list[int] = [UNSEEN] * 52
        if self.known is not None:
            for c in self.known:
                self.where[card_key(c)] = STUB
        self.burns: list[Card | None] = []
        self.used: list[tuple[Card | None, int]] = []  # discards and mucked hands with their round tag
        self.used_by_round: list[int] = [0] * 6
        self._rng = rng

    def snapshot(self) -> tuple[object, ...]:
        return (
            None if self.known is None else tuple(self.known),
            self.count,
            tuple(self.where),
            tuple(self.burns),
            tuple(self.used),
        )

    def locate(self, card: Card) -> int:
        """Where a card is: a seat index, STUB, USED or UNSEEN."""
        return self.where[card_key(card)]

    def place(self, card: Card, where: int) -> None:
        self.where[card_key(card)] = where

    def dealable(self, card: Card) -> bool:
        """A card may be dealt only from the stub: known to be there, or (no deck) never seen."""
        w = self.where[card_key(card)]
        return w == STUB or (w == UNSEEN and self.known is None)

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
        return len(self.burns) + sum(self.used_by_round[:draw])

    def reshuffle(self, draw: int) -> int:
        """Shuffle the pool (and what is left of the stub) into a new stub; returns the new count."""
        cards = self.pool(draw)
        self.burns = []
        self.used = [(c, tag) for c, tag in self.used if tag >= draw]
        for tag in range(draw):
            self.used_by_round[tag] = 0
        self.count += len(cards)
        for c in cards:
            if c is not None:
                self.where[card_key(c)] = STUB
        if self.known is not None:
            pile: list[Card] = [c for c in cards if c is not None]
            pile.extend(self.known)
            if self._rng is None:
                self._rng = random.Random(len(pile))
            self._rng.shuffle(pile)
            self.known = pile
        return self.count

    def discard(self, cards: Iterable[Card | None], tag: int) -> None:
        """Cards leaving play (a discard or a folded hand) in round `tag`."""
        where = self.where
        used = self.used
        n = 0
        for c in cards:
            used.append((c, tag))
            n += 1
            if c is not None:
                key = _key_by_id(id(c))
                where[_compute_key(c) if key is None else key] = USED
        self.used_by_round[tag] += n

    def discard_known(self, cards: tuple[Card | None, ...], keys: list[int], tag: int) -> None:
        """`discard` when the keys of the faces among `cards` are already known."""
        self.used.extend([(c, tag) for c in cards])
        self.used_by_round[tag] += len(cards)
        where = self.where
        for key in keys:
            where[key] = USED

    def burn(self, card: Card | None) -> None:
        self.burns.append(card)
        if card is not None:
            self.where[card_key(card)] = USED


def full_deck_shuffled(rng: random.Random) -> list[Card]:
    """A shuffled 52-card deck, top card first."""
    pile = list(FULL_DECK)
    rng.shuffle(pile)
    return pile
