"""Ace-to-five low values for five cards (Badacey's low half; HOUSE_RULES.md "Hand ranking").

Aces are low, straights and flushes do not count, pairs do: any unpaired hand beats any paired
one, then one pair, two pair, trips, full house, quads; within a category the higher-ranking
group is worse, then the kickers high to low. Suits never matter, so a class is a multiset of
five ranks: 6,175 classes, rank 1 is 5-4-3-2-A.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import cache
from itertools import combinations_with_replacement

import numpy as np
import numpy.typing as npt

from dealer_assist.cards import Card, CardError, Rank, Suit, card_from_index
from dealer_assist.rules.badugi import card_bytes
from dealer_assist.rules.hand_value import HandValue

CLASS_COUNT = 6175
_CATEGORIES = ((1, 1, 1, 1, 1), (2, 1, 1, 1), (2, 2, 1), (3, 1, 1), (3, 2), (4, 1))


def _order_key(ranks: tuple[int, ...]) -> tuple[int, tuple[int, ...]]:
    """Sort key, smaller is better: category, then groups by size (larger first) then rank high to low."""
    counts = Counter(ranks)
    shape = tuple(sorted(counts.values(), reverse=True))
    groups = sorted(counts.items(), key=lambda kv: (-kv[1], -kv[0]))
    return _CATEGORIES.index(shape), tuple(r for r, _ in groups)


@cache
def _classes() -> tuple[tuple[int, ...], ...]:
    """Every class as its sorted ranks (high to low), best first."""
    sets = [
        tuple(sorted(c, reverse=True))
        for c in combinations_with_replacement(range(1, 14), 5)
        if max(Counter(c).values()) <= 4
    ]
    sets.sort(key=_order_key)
    return tuple(sets)


@cache
def _rank_by_key() -> dict[tuple[int, ...], int]:
    return {ranks: i + 1 for i, ranks in enumerate(_classes())}


@cache
def _dense_table() -> npt.NDArray[np.uint16]:
    """Rank by base-13 code of the five ranks sorted ascending (0-based digits)."""
    codes = []
    for ranks in _classes():
        code = 0
        for r in reversed(ranks):  # ascending
            code = code * 13 + r - 1
        codes.append(code)
    table = np.zeros(13**5, dtype=np.uint16)
    table[codes] = np.arange(1, CLASS_COUNT + 1, dtype=np.uint16)
    return table


def a5_class(rank: int) -> tuple[int, ...]:
    if not 1 <= rank <= CLASS_COUNT:
        raise ValueError(f"A-5 rank {rank} out of range 1..{CLASS_COUNT}")
    return _classes()[rank - 1]


def a5_name(rank: int) -> str:
    """What a dealer says: "6-4-3-2-A low", "pair of deuces, 7-6-5", "two pair, fives and deuces"."""
    ranks = a5_class(rank)
    _, groups = _order_key(ranks)
    counts = Counter(ranks)
    shape = sorted(counts.values(), reverse=True)

    def sym(r: int) -> str:
        return Rank(r).symbol

    def plural(r: int) -> str:
        return Rank(r).spoken

    kickers = "-".join(sym(r) for r in groups if counts[r] == 1)
    if shape == [1, 1, 1, 1, 1]:
        return "-".join(sym(r) for r in groups) + " low"
    if shape == [2, 1, 1, 1]:
        return f"pair of {plural(groups[0])}, {kickers}"
    if shape == [2, 2, 1]:
        return f"two pair, {plural(groups[0])} and {plural(groups[1])}, {kickers}"
    if shape == [3, 1, 1]:
        return f"three {plural(groups[0])}, {kickers}"
    if shape == [3, 2]:
        return f"full house, {plural(groups[0])} full of {plural(groups[1])}"
    return f"four {plural(groups[0])}, {kickers}"


# A rank multiset as a product of one prime per rank (ace = 2, ..., king = 41): unique, order-free.
_PRIMES = (0, 2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41)


@cache
def _by_product() -> dict[int, int]:
    """Class rank by the prime product of its five ranks."""
    out: dict[int, int] = {}
    for ranks, rank in _rank_by_key().items():
        product = 1
        for r in ranks:
            product *= _PRIMES[r]
        out[product] = rank
    return out


@cache
def _names() -> tuple[str, ...]:
    """Every class's spoken name, by rank (index 0 unused)."""
    return ("", *(a5_name(r) for r in range(1, CLASS_COUNT + 1)))


_DECK = tuple(card_from_index(i) for i in range(52))
# A card's index (rank - 1) * 4 + suit order is rank * 4 + this offset, keyed by the suit's letter.
_SUIT_OFFSET = {s.value: s.order - 4 for s in Suit}


def _indices(cards: Sequence[Card]) -> tuple[int, int, int, int, int]:
    """Card indices of exactly five distinct cards, or a CardError saying what is wrong."""
    if len(cards) != 5:
        raise CardError(f"an A-5 low hand has exactly 5 cards, got {len(cards)}")
    a, b, c, d, e = cards
    s = _SUIT_OFFSET
    ia = a.rank * 4 + s[a.suit._value_]
    ib = b.rank * 4 + s[b.suit._value_]
    ic = c.rank * 4 + s[c.suit._value_]
    id_ = d.rank * 4 + s[d.suit._value_]
    ie = e.rank * 4 + s[e.suit._value_]
    if ((1 << ia) | (1 << ib) | (1 << ic) | (1 << id_) | (1 << ie)).bit_count() != 5:
        raise CardError(f"the same card appears twice in {' '.join(map(str, cards))}")
    return ia, ib, ic, id_, ie


def a5_rank(cards: Sequence[Card]) -> int:
    """Rank (1 = best) of exactly five cards under ace-to-five low."""
    ids = _indices(cards)
    p = _PRIMES
    return _by_product()[
        p[(ids[0] >> 2) + 1] * p[(ids[1] >> 2) + 1] * p[(ids[2] >> 2) + 1] * p[(ids[3] >> 2) + 1] * p[(ids[4] >> 2) + 1]
    ]


def evaluate_a5(cards: Sequence[Card]) -> HandValue:
    """The A-5 low value of five cards; all five play, listed high card first (the deck's own Card objects)."""
    ids = sorted(_indices(cards), reverse=True)
    p = _PRIMES
    rank = _by_product()[
        p[(ids[0] >> 2) + 1] * p[(ids[1] >> 2) + 1] * p[(ids[2] >> 2) + 1] * p[(ids[3] >> 2) + 1] * p[(ids[4] >> 2) + 1]
    ]
    deck = _DECK
    return HandValue("a5", rank, _names()[rank], (deck[ids[0]], deck[ids[1]], deck[ids[2]], deck[ids[3]], deck[ids[4]]))


# A sorting network for five values (9 compare-exchanges), checked against every input in the tests.
SORT5 = ((0, 1), (3, 4), (2, 4), (2, 3), (0, 3), (0, 2), (1, 4), (1, 3), (1, 2))


def evaluate_a5_batch(card_ids: npt.ArrayLike) -> npt.NDArray[np.uint16]:
    """Ranks for an (N, 5) integer array of card indices (`Card.index`); 0 marks a repeated card.

    The five columns are sorted by a sorting network (card index order is rank order), a repeated
    card shows as two equal neighbours, and the sorted ranks are a base-13 code into a dense table.
    """
    cards = card_bytes(card_ids, (5,))
    cols = list(np.ascontiguousarray(cards.T))
    for i, j in SORT5:
        low = np.minimum(cols[i], cols[j])
        np.maximum(cols[i], cols[j], out=cols[j])
        cols[i] = low
    repeated = cols[0] == cols[1]
    for i in range(1, 4):
        repeated |= cols[i] == cols[i + 1]
    code = (cols[0] >> 2).astype(np.int32)
    for col in cols[1:]:
        code *= 13
        code += col >> 2
    ranks: npt.NDArray[np.uint16] = _dense_table().take(code)
    ranks[repeated] = 0
    return ranks


def warm_up() -> None:
    """Build the lookup tables now rather than on the first hand."""
    _by_product()
    _names()
    _dense_table()
