"""Ace-to-five low is exact: it orders hands as PokerKit's RegularLowHand does."""

from __future__ import annotations

from collections import Counter
from itertools import pairwise, product

import numpy as np
import pytest
from pokerkit import Card as PKCard
from pokerkit import RegularLowHand

from dealer_assist.cards import SUITS, Card, CardError, Rank, card_from_index, parse_cards
from dealer_assist.rules.lowball import (
    CLASS_COUNT,
    SORT5,
    a5_class,
    a5_name,
    a5_rank,
    evaluate_a5,
    evaluate_a5_batch,
)

PK_CARDS = tuple(next(iter(PKCard.parse(str(card_from_index(i))))) for i in range(52))
SAMPLE = 250_000


def random_hands(n: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.argsort(rng.random((n, 52)), axis=1)[:, :5]


def check_same_order(pairs: list[tuple[int, tuple[int, ...]]]) -> int:
    """Our rank and PokerKit's hand agree one-to-one, and our rank order is PokerKit's; return classes seen."""
    entry_of_rank: dict[int, object] = {}
    hand_of_rank: dict[int, RegularLowHand] = {}
    rank_of_entry: dict[object, int] = {}
    lookup = RegularLowHand.lookup
    for rank, row in pairs:
        cards = tuple(PK_CARDS[i] for i in row)
        entry = lookup.get_entry(cards)
        if rank not in entry_of_rank:
            entry_of_rank[rank] = entry
            hand_of_rank[rank] = RegularLowHand(cards)
        assert entry_of_rank[rank] == entry, f"rank {rank} is two PokerKit classes: {row}"
        assert rank_of_entry.setdefault(entry, rank) == rank, f"PokerKit class {entry} is two ranks: {row}"
    ordered = [hand_of_rank[r] for r in sorted(hand_of_rank)]
    assert all(better > worse for better, worse in pairwise(ordered))
    return len(ordered)


def test_every_class_orders_as_pokerkit() -> None:
    pairs = []
    for rank in range(1, CLASS_COUNT + 1):
        seen: Counter[int] = Counter()
        cards = []
        for r in a5_class(rank):
            cards.append(Card(Rank(r), SUITS[seen[r]]))
            seen[r] += 1
        assert a5_rank(cards) == rank
        pairs.append((rank, tuple(c.index for c in cards)))
    assert check_same_order(pairs) == CLASS_COUNT


def test_random_sample_orders_as_pokerkit() -> None:
    ids = random_hands(SAMPLE, seed=2024)
    ranks = evaluate_a5_batch(ids)
    seen = check_same_order(list(zip(ranks.tolist(), map(tuple, ids.tolist()), strict=True)))
    assert seen > 5_000


def test_single_path_equals_batch_path() -> None:
    ids = random_hands(20_000, seed=99)
    batch = evaluate_a5_batch(ids).tolist()
    single = [a5_rank([card_from_index(i) for i in row]) for row in ids.tolist()]
    assert batch == single


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("5c 4d 3h 2s Ac", "5-4-3-2-A low"),
        ("6c 4d 3h 2s Ac", "6-4-3-2-A low"),
        ("2c 2d 7h 6s 5c", "pair of deuces, 7-6-5"),
        ("5c 5d 2h 2s Kc", "two pair, fives and deuces, K"),
        ("9c 9d 9h 2s Ac", "three nines, 2-A"),
        ("Kc Kd Kh Qs Qc", "full house, kings full of queens"),
        ("Ac Ad Ah As 2c", "four aces, 2"),
    ],
)
def test_names_a_dealer_says(text: str, name: str) -> None:
    assert evaluate_a5(parse_cards(text)).name == name


def test_class_ends_and_category_order() -> None:
    assert a5_name(1) == "5-4-3-2-A low"
    assert a5_name(CLASS_COUNT) == "four kings, Q"
    # Any unpaired hand beats any pair: K-Q-J-T-9 low against a pair of aces.
    assert evaluate_a5(parse_cards("Kc Qd Jh Ts 9c")).beats(evaluate_a5(parse_cards("Ac Ad 2h 3s 4c")))


def test_bad_hands_are_errors() -> None:
    with pytest.raises(CardError, match="exactly 5"):
        a5_rank(parse_cards("Ac 2d 3h 4s"))
    c = parse_cards("Ac 2d 3h 4s", unique=False)
    with pytest.raises(CardError, match="twice"):
        a5_rank([*c, c[0]])
    with pytest.raises(CardError):
        evaluate_a5_batch(np.zeros((2, 4), dtype=np.int64))
    with pytest.raises(CardError):
        evaluate_a5_batch(np.array([[0, 1, 2, 3, 52]]))


def test_sorting_network_sorts_every_input() -> None:
    for values in product(range(5), repeat=5):
        out = list(values)
        for i, j in SORT5:
            if out[i] > out[j]:
                out[i], out[j] = out[j], out[i]
        assert out == sorted(values)


def test_batch_marks_repeated_cards_and_takes_small_integer_types() -> None:
    rows = np.array([[0, 5, 10, 15, 0], [0, 5, 10, 15, 16], [51, 50, 49, 48, 47]])
    assert evaluate_a5_batch(rows).tolist() == [0, 1, CLASS_COUNT]
    assert evaluate_a5_batch(rows.astype(np.uint8)).tolist() == [0, 1, CLASS_COUNT]
    assert evaluate_a5_batch(np.zeros((0, 5), dtype=np.int64)).shape == (0,)
