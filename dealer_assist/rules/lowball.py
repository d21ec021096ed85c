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

from dealer_assist.cards import Card, CardError, Rank
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
    table = np.zeros(13**5, dtype=np.uint16)
    weights = 13 ** np.arange(4, -1, -1)
    for ranks, rank in _rank_by_key().items():
        digits = np.array(sorted(ranks), dtype=np.int64) - 1
        table[int(digits @ weights)] = rank
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


def a5_rank(cards: Sequence[Card]) -> int:
    """Rank (1 = best) of exactly five cards under ace-to-five low."""
    if len(cards) != 5:
        raise CardError(f"an A-5 low hand has exactly 5 cards, got {len(cards)}")
    if len(set(cards)) != 5:
        raise CardError(f"the same card appears twice in {' '.join(map(str, cards))}")
    return _rank_by_key()[tuple(sorted((int(c.rank) for c in cards), reverse=True))]


def evaluate_a5(cards: Sequence[Card]) -> HandValue:
    """The A-5 low value of five cards; all five play."""
    rank = a5_rank(cards)
    used = tuple(sorted(cards, key=lambda c: -int(c.rank)))
    return HandValue("a5", rank, a5_name(rank), used)


def evaluate_a5_batch(card_ids: npt.ArrayLike) -> npt.NDArray[np.uint16]:
    """Ranks for an (N, 5) integer array of card indices (`Card.index`)."""
    ids = np.asarray(card_ids, dtype=np.int64)
    if ids.ndim != 2 or ids.shape[1] != 5:
        raise CardError(f"batch must be an (N, 5) array of card indices, got shape {ids.shape}")
    if ids.size and (ids.min() < 0 or ids.max() > 51):
        raise CardError("card indices must be 0..51")
    digits = np.sort(ids // 4, axis=1)
    code = digits @ (13 ** np.arange(4, -1, -1))
    ranks: npt.NDArray[np.uint16] = _dense_table()[code]
    return ranks
