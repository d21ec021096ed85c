"""Badugi hand values by the best-subset rule (HOUSE_RULES.md "Hand ranking", seed 000).

A hand's value is its best subset of cards with all-different ranks and suits: more cards beat
fewer; between equal sizes the highest card decides, then the next (ace low); suits never break
ties. There are 1,092 classes (13 + 78 + 286 + 715 rank sets); rank 1 is A-2-3-4 of four suits.

Speed: only 25,012 card subsets can play (1 to 4 cards of distinct ranks and suits). Each gets an
id, numbered in order of class rank, and a ready-made HandValue. One table over every ordered
4-card draw (52**4 uint16 entries, built with numpy in a fraction of a second) holds the id of the
best subset, so a four-card hand costs one index and two lookups, a five-card hand five; the
batch path gathers ids for whole numpy arrays and maps them to ranks. Id 0 marks a repeated card.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from itertools import chain, combinations, permutations

import numpy as np
import numpy.typing as npt

from dealer_assist.cards import Card, CardError, Rank, Suit, card_from_index
from dealer_assist.rules.hand_value import HandValue

_SIZES = (4, 3, 2, 1)
CLASS_COUNT = 1092
SUBSET_COUNT = 25012
_DECK = tuple(card_from_index(i) for i in range(52))


@cache
def _classes() -> tuple[tuple[int, ...], ...]:
    """Every Badugi class as its ranks high to low, best first (index 0 is rank 1)."""
    out: list[tuple[int, ...]] = []
    for size in _SIZES:
        sets = [tuple(sorted(c, reverse=True)) for c in combinations(range(1, 14), size)]
        sets.sort()
        out.extend(sets)
    return tuple(out)


@cache
def _rank_of_ranks() -> dict[tuple[int, ...], int]:
    """Class rank (1-based) by its ranks high to low."""
    return {ranks: i + 1 for i, ranks in enumerate(_classes())}


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


@cache
def _subsets() -> tuple[tuple[HandValue, ...], tuple[npt.NDArray[np.uint16], ...]]:
    """Every playable subset: its HandValue by id (index 0 unused), and id by subset code per size.

    Ids run 1..25,012 in order of class rank, so a smaller id is never a worse hand. A subset's code
    is its card indices in ascending order read as a base-52 number; `ids[k - 1][code]` is the id of
    that k-card subset, 0 where those cards repeat a rank or a suit (they cannot play together).
    """
    rank_of = _rank_of_ranks()
    names = [badugi_name(r) for r in range(1, CLASS_COUNT + 1)]
    found: list[tuple[int, int, int, tuple[int, ...]]] = []
    for size in range(1, 5):
        for ranks in combinations(range(13, 0, -1), size):  # high card first
            for suits in permutations(range(4), size):
                indices = tuple((r - 1) * 4 + s for r, s in zip(ranks, suits, strict=True))
                code = 0
                for index in sorted(indices):
                    code = code * 52 + index
                found.append((rank_of[ranks], size, code, indices))
    found.sort()
    ids = tuple(np.zeros(52**k, dtype=np.uint16) for k in range(1, 5))
    values = [HandValue("badugi", 0, "", ())]
    for subset_id, (rank, size, code, indices) in enumerate(found, start=1):
        ids[size - 1][code] = subset_id
        values.append(HandValue("badugi", rank, names[rank - 1], tuple(_DECK[i] for i in indices)))
    return tuple(values), ids


@cache
def _rank_of_id() -> npt.NDArray[np.uint16]:
    """Class rank by subset id; 0 for id 0 (a repeated card)."""
    return np.array([v.rank for v in _subsets()[0]], dtype=np.uint16)


@cache
def _table() -> npt.NDArray[np.uint16]:
    """Best subset id of every ordered 4-tuple of card indices, flattened as ((a*52+b)*52+c)*52+d.

    Built over the 270,725 four-card sets (best of their 15 subsets), then copied to all 24 orders.
    """
    _, ids = _subsets()
    flat = np.fromiter(chain.from_iterable(combinations(range(52), 4)), dtype=np.int32, count=270_725 * 4)
    combos = flat.reshape(-1, 4).T.copy()  # four contiguous columns, each row ascending
    none = np.iinfo(np.uint16).max
    best = np.full(combos.shape[1], none, dtype=np.uint16)
    for size in range(1, 5):
        for pos in combinations(range(4), size):
            code = combos[pos[0]].copy()
            for p in pos[1:]:
                code *= 52
                code += combos[p]
            cand = ids[size - 1].take(code)
            cand[cand == 0] = none
            np.minimum(best, cand, out=best)
    table = np.zeros(52**4, dtype=np.uint16)
    for a, b, c, d in permutations(combos):
        table[((a * 52 + b) * 52 + c) * 52 + d] = best
    table.setflags(write=False)
    return table


@cache
def _lookup() -> tuple[memoryview, tuple[HandValue, ...]]:
    """The table as a memoryview (plain-int item lookups without numpy's overhead, no copy) and each id's HandValue."""
    return _table().data, _subsets()[0]


# Per-position offsets of a card's suit in the flattened index, keyed by the suit's letter; the
# rank part is rank * 4 * 52**k. A card's index is (rank - 1) * 4 + suit order.
_SUIT_OFFSET = tuple({s.value: (s.order - 4) * 52**k for s in Suit} for k in (3, 2, 1, 0))
_S3, _S2, _S1, _S0 = _SUIT_OFFSET


def _best_id(cards: Sequence[Card], table: memoryview) -> int:
    """Subset id of the best Badugi in 4 or 5 cards; 0 if a card repeats."""
    if len(cards) == 4:
        a, b, c, d = cards
        return table[
            a.rank * 562432 + _S3[a.suit._value_] + b.rank * 10816 + _S2[b.suit._value_]
            + c.rank * 208 + _S1[c.suit._value_] + d.rank * 4 + _S0[d.suit._value_]
        ]
    a, b, c, d, e = cards
    ia = a.rank * 4 + _S0[a.suit._value_]
    ib = b.rank * 4 + _S0[b.suit._value_]
    ic = c.rank * 4 + _S0[c.suit._value_]
    id_ = d.rank * 4 + _S0[d.suit._value_]
    ie = e.rank * 4 + _S0[e.suit._value_]
    ab = (ia * 52 + ib) * 2704
    abc = ab + ic * 52
    # Any repeated pair of cards sits in at least three of the five four-card subsets, so the
    # minimum is 0 exactly when a card repeats.
    return min(
        table[abc + id_], table[abc + ie], table[ab + id_ * 52 + ie],
        table[(ia * 2704 + ic * 52 + id_) * 52 + ie], table[((ib * 52 + ic) * 52 + id_) * 52 + ie],
    )


def _repeated(cards: Sequence[Card]) -> CardError:
    return CardError(f"the same card appears twice in {' '.join(map(str, cards))}")


def badugi_rank(cards: Sequence[Card]) -> int:
    """Rank (1 = best) of the best Badugi among 1 to 5 cards; with 5, the best of any four."""
    return evaluate_badugi(cards).rank


def _small_value(cards: Sequence[Card]) -> HandValue:
    """The value of 1 to 3 cards, by trying every subset (rare: only hand-typed hands are short)."""
    if len(set(cards)) != len(cards):
        raise _repeated(cards)
    values, ids = _subsets()
    best = SUBSET_COUNT + 1
    for size in range(len(cards), 0, -1):
        for combo in combinations(sorted(c.index for c in cards), size):
            code = 0
            for index in combo:
                code = code * 52 + index
            found = int(ids[size - 1][code])
            if found:
                best = min(best, found)
    return values[best]


def best_badugi_cards(cards: Sequence[Card], rank: int) -> tuple[Card, ...]:
    """A subset of `cards` that plays as class `rank` (high card first)."""
    want = badugi_class(rank)
    for combo in combinations(cards, len(want)):
        ranks = sorted((int(c.rank) for c in combo), reverse=True)
        if tuple(ranks) == want and len({c.suit for c in combo}) == len(combo):
            return tuple(sorted(combo, key=lambda c: -int(c.rank)))
    raise ValueError(f"cards {' '.join(map(str, cards))} do not make badugi class {rank}")


def evaluate_badugi(cards: Sequence[Card]) -> HandValue:
    """The Badugi value of 1 to 5 cards (5 cards: Badacey's Badugi half, best of any four).

    `used` are the cards that play, high card first (the deck's own Card objects, equal to yours).
    """
    n = len(cards)
    if n == 4 or n == 5:
        table, values = _lookup()
        best = _best_id(cards, table)
        if best:
            return values[best]
        raise _repeated(cards)
    if 1 <= n <= 3:
        return _small_value(cards)
    raise CardError(f"a Badugi hand has 1 to 5 cards, got {n}")


def _card_array(card_ids: npt.ArrayLike, sizes: tuple[int, ...]) -> np.ndarray:
    """`card_ids` as an array, checked to be (N, k) integers with k in `sizes` (values not checked)."""
    ids = np.asarray(card_ids)
    if ids.ndim != 2 or ids.shape[1] not in sizes:
        want = " or ".join(f"(N, {k})" for k in sizes)
        raise CardError(f"batch must be an {want} array of card indices, got shape {ids.shape}")
    if ids.dtype.kind not in "iu":
        raise CardError(f"card indices must be integers, got {ids.dtype}")
    return ids


def _check_range(ids: np.ndarray) -> None:
    """Raise CardError unless every value is 0..51."""
    # One pass: read as unsigned, a negative index is huge, so the maximum alone finds both ends.
    unsigned = ids.view(ids.dtype.str.replace("i", "u")) if ids.dtype.kind == "i" else ids
    if ids.size and unsigned.max() > 51:
        raise CardError("card indices must be 0..51")


def card_bytes(card_ids: npt.ArrayLike, sizes: tuple[int, ...]) -> npt.NDArray[np.uint8]:
    """Validate an (N, k) integer array of card indices (0..51); return it as C-contiguous uint8."""
    ids = _card_array(card_ids, sizes)
    _check_range(ids)
    return np.ascontiguousarray(ids, dtype=np.uint8)


# Rows per step of the batch paths: each step's temporaries (a few native ints per row) stay in the
# CPU's L2 cache instead of streaming whole-batch arrays through memory.
_CHUNK = 16384


@cache
def _pair_offsets() -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp]]:
    """Index parts by two cards read as one little-endian uint16: (a*52+b)*52**2 and a*52+b.

    Native index integers, so the gathers that use them need no conversion.
    """
    code = np.arange(1 << 16, dtype=np.intp)
    pair = (code & 255) * 52 + (code >> 8)
    pair[(code & 255) > 51] = 0
    pair[(code >> 8) > 51] = 0
    return pair * 2704, pair


@cache
def _rank_table() -> npt.NDArray[np.uint16]:
    """`_table()` mapped to class ranks: the batch path's one big lookup (built on its first use)."""
    ranks = _rank_of_id().take(_table())
    ranks.setflags(write=False)
    return ranks


def evaluate_badugi_batch(card_ids: npt.ArrayLike) -> npt.NDArray[np.uint16]:
    """Ranks for an (N, 4) or (N, 5) integer array of card indices (`Card.index`); 0 marks a repeated card.

    Four cards: each row's bytes read as two uint16 card pairs, two small lookups make the index,
    one lookup in the rank table gives the rank.
    Five cards: the best of the five four-card subsets (a 0 from any subset means a repeated card).
    Rows go in steps of `_CHUNK`; a value outside 0..51 anywhere raises CardError.
    """
    ids = _card_array(card_ids, (4, 5))
    count = ids.shape[0]
    out = np.empty(count, dtype=np.uint16)
    if ids.shape[1] == 4:
        high, low = _pair_offsets()
        rank_table = _rank_table()
        for start in range(0, count, _CHUNK):
            part = ids[start : start + _CHUNK]
            _check_range(part)
            pairs = np.ascontiguousarray(part, dtype=np.uint8).view("<u2")
            index = high.take(pairs[:, 0])
            index += low.take(pairs[:, 1])
            out[start : start + len(part)] = rank_table.take(index)
        return out
    for start in range(0, count, _CHUNK):
        part = ids[start : start + _CHUNK]
        _check_range(part)
        out[start : start + len(part)] = _five_card_ranks(np.ascontiguousarray(part, dtype=np.uint8))
    return out


def _five_card_ranks(cards: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint16]:
    """Ranks of (n, 5) uint8 rows: the best of their five four-card subsets."""
    table = _table()
    a, b, c, d, e = np.ascontiguousarray(cards.T, dtype=np.int32)
    abc = a * 52
    abc += b
    abc *= 52
    abc += c
    abc *= 52
    best = table.take(abc + d)
    np.minimum(best, table.take(abc + e), out=best)
    de = d * 52
    de += e
    for first, second in ((a, b), (a, c), (b, c)):
        x = first * 140608
        x += second * 2704
        x += de
        np.minimum(best, table.take(x), out=best)
    ranks: npt.NDArray[np.uint16] = _rank_of_id().take(best)
    return ranks


def warm_up() -> None:
    """Build the lookup table now (a fraction of a second) rather than on the first hand."""
    _lookup()

