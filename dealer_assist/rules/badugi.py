"""Badugi hand values by the best-subset rule (HOUSE_RULES.md "Hand ranking", seed 000).

A hand's value is its best subset of cards with all-different ranks and suits: more cards beat
fewer; between equal sizes the highest card decides, then the next (ace low); suits never break
ties. There are 1,092 classes (13 + 78 + 286 + 715 rank sets); rank 1 is A-2-3-4 of four suits.

Single calls use a table over every ordered 4-card draw (52**4 uint16 entries, built once with
numpy in about a second) so a four-card hand costs one index; `evaluate_badugi_batch` uses the same
table for whole numpy arrays.
"""

from __future__ import annotations

import array
from collections.abc import Sequence
from functools import cache
from itertools import combinations

import numpy as np
import numpy.typing as npt

from dealer_assist.cards import Card, CardError, Rank
from dealer_assist.rules.hand_value import HandValue

_SIZES = (4, 3, 2, 1)


@cache
def _classes() -> tuple[tuple[int, ...], ...]:
    """Every Badugi class as its ranks high to low, best first (index 0 is rank 1)."""
    out: list[tuple[int, ...]] = []
    for size in _SIZES:
        sets = [tuple(sorted(c, reverse=True)) for c in combinations(range(1, 14), size)]
        sets.sort()
        out.extend(sets)
    return tuple(out)


CLASS_COUNT = 1092


@cache
def _rank_of_mask() -> npt.NDArray[np.uint16]:
    """Class rank (1-based) for each 13-bit rank mask of a valid subset; 0 where no class."""
    table = np.zeros(1 << 13, dtype=np.uint16)
    for i, ranks in enumerate(_classes()):
        mask = 0
        for r in ranks:
            mask |= 1 << (r - 1)
        table[mask] = i + 1
    return table


@cache
def _table() -> array.array[int]:
    """Rank of every ordered 4-tuple of card indices, flattened as ((a*52+b)*52+c)*52+d."""
    idx = np.arange(52, dtype=np.int32)
    a, b, c, d = np.meshgrid(idx, idx, idx, idx, indexing="ij", copy=False)
    cards = [x.ravel() for x in (a, b, c, d)]
    rank_bits = [np.left_shift(1, x // 4).astype(np.int32) for x in cards]
    suit_bits = [np.left_shift(1, x % 4).astype(np.int32) for x in cards]
    mask_rank = _rank_of_mask()
    best = np.full(cards[0].shape, np.iinfo(np.uint16).max, dtype=np.uint16)
    for size in range(1, 5):
        for combo in combinations(range(4), size):
            rbits = np.zeros_like(cards[0])
            sbits = np.zeros_like(cards[0])
            ok = np.ones(cards[0].shape, dtype=bool)
            for i in combo:
                ok &= (rbits & rank_bits[i]) == 0
                ok &= (sbits & suit_bits[i]) == 0
                rbits |= rank_bits[i]
                sbits |= suit_bits[i]
            cand = np.where(ok, mask_rank[rbits], np.iinfo(np.uint16).max).astype(np.uint16)
            np.minimum(best, cand, out=best)
    # Tuples that repeat a card are impossible hands; mark them 0 so a lookup can tell.
    dup = (cards[0] == cards[1]) | (cards[0] == cards[2]) | (cards[0] == cards[3])
    dup |= (cards[1] == cards[2]) | (cards[1] == cards[3]) | (cards[2] == cards[3])
    best[dup] = 0
    return array.array("H", best.tobytes())


@cache
def _table_np() -> npt.NDArray[np.uint16]:
    return np.frombuffer(_table(), dtype=np.uint16)


def badugi_class(rank: int) -> tuple[int, ...]:
    """The ranks (high to low, ace = 1) that class `rank` plays."""
    if not 1 <= rank <= CLASS_COUNT:
        raise ValueError(f"badugi rank {rank} out of range 1..{CLASS_COUNT}")
    return _classes()[rank - 1]


def badugi_name(rank: int) -> str:
    """What a dealer says: "8-7-2-A badugi", "three-card 4-3-A", "one-card 4"."""
    ranks = badugi_class(rank)
    text = "-".join(Rank(r).symbol for r in ranks)
    size = len(ranks)
    if size == 4:
        return f"{text} badugi"
    return f"{('one', 'two', 'three')[size - 1]}-card {text}"


def badugi_rank(cards: Sequence[Card]) -> int:
    """Rank (1 = best) of the best Badugi among 1 to 5 cards; with 5, the best of any four."""
    n = len(cards)
    if n == 4:
        a, b, c, d = cards
        r = _table()[((a.index * 52 + b.index) * 52 + c.index) * 52 + d.index]
        if r:
            return r
        raise CardError(f"the same card appears twice in {' '.join(map(str, cards))}")
    if n == 5:
        t = _table()
        ids = [c.index for c in cards]
        best = CLASS_COUNT + 1
        for skip in range(5):
            w, x, y, z = (ids[i] for i in range(5) if i != skip)
            r = t[((w * 52 + x) * 52 + y) * 52 + z]
            if r == 0:
                raise CardError(f"the same card appears twice in {' '.join(map(str, cards))}")
            best = min(best, r)
        return best
    if 1 <= n <= 3:
        if len(set(cards)) != n:
            raise CardError(f"the same card appears twice in {' '.join(map(str, cards))}")
        return _small_rank(tuple(cards))
    raise CardError(f"a Badugi hand has 1 to 5 cards, got {n}")


def _small_rank(cards: tuple[Card, ...]) -> int:
    mask_rank = _rank_of_mask()
    best = CLASS_COUNT + 1
    for size in range(len(cards), 0, -1):
        for combo in combinations(cards, size):
            if len({c.rank for c in combo}) == size and len({c.suit for c in combo}) == size:
                mask = sum(1 << (c.rank - 1) for c in combo)
                best = min(best, int(mask_rank[mask]))
    return best


def best_badugi_cards(cards: Sequence[Card], rank: int) -> tuple[Card, ...]:
    """A subset of `cards` that plays as class `rank` (high card first)."""
    want = badugi_class(rank)
    for combo in combinations(cards, len(want)):
        ranks = sorted((int(c.rank) for c in combo), reverse=True)
        if tuple(ranks) == want and len({c.suit for c in combo}) == len(combo):
            return tuple(sorted(combo, key=lambda c: -int(c.rank)))
    raise ValueError(f"cards {' '.join(map(str, cards))} do not make badugi class {rank}")


def evaluate_badugi(cards: Sequence[Card]) -> HandValue:
    """The Badugi value of 1 to 5 cards (5 cards: Badacey's Badugi half, best of any four)."""
    rank = badugi_rank(cards)
    return HandValue("badugi", rank, badugi_name(rank), best_badugi_cards(cards, rank))


def evaluate_badugi_batch(card_ids: npt.ArrayLike) -> npt.NDArray[np.uint16]:
    """Ranks for an (N, 4) or (N, 5) integer array of card indices (`Card.index`); 0 marks a repeated card."""
    ids = np.asarray(card_ids, dtype=np.int64)
    if ids.ndim != 2 or ids.shape[1] not in (4, 5):
        raise CardError(f"batch must be an (N, 4) or (N, 5) array of card indices, got shape {ids.shape}")
    if ids.size and (ids.min() < 0 or ids.max() > 51):
        raise CardError("card indices must be 0..51")
    table = _table_np()
    if ids.shape[1] == 4:
        ranks: npt.NDArray[np.uint16] = table[((ids[:, 0] * 52 + ids[:, 1]) * 52 + ids[:, 2]) * 52 + ids[:, 3]]
        return ranks
    out = np.full(ids.shape[0], CLASS_COUNT + 1, dtype=np.uint16)
    any_dup = np.zeros(ids.shape[0], dtype=bool)
    for skip in range(5):
        cols = [i for i in range(5) if i != skip]
        r = table[((ids[:, cols[0]] * 52 + ids[:, cols[1]]) * 52 + ids[:, cols[2]]) * 52 + ids[:, cols[3]]]
        any_dup |= r == 0
        np.minimum(out, np.where(r == 0, CLASS_COUNT + 1, r), out=out)
    out[any_dup] = 0
    return out


def warm_up() -> None:
    """Build the lookup table now (about a second) rather than on the first hand."""
    _table()
