"""Badugi evaluation is exact: all 270,725 four-card hands order as PokerKit's BadugiHand does."""

from __future__ import annotations

import random
from itertools import combinations, pairwise

import numpy as np
import pytest
from pokerkit import BadugiHand
from pokerkit import Card as PKCard

from dealer_assist.cards import FULL_DECK, Card, CardError, card_from_index, parse_cards
from dealer_assist.rules.badugi import (
    CLASS_COUNT,
    badugi_class,
    badugi_name,
    badugi_rank,
    evaluate_badugi,
    evaluate_badugi_batch,
)

# PokerKit's card for each `Card.index`.
PK_CARDS = tuple(next(iter(PKCard.parse(str(card_from_index(i))))) for i in range(52))


def all_four_card_ids() -> np.ndarray:
    return np.array(list(combinations(range(52), 4)), dtype=np.int64)


def test_all_four_card_hands_order_as_pokerkit() -> None:
    ids = all_four_card_ids()
    assert len(ids) == 270_725
    ours = evaluate_badugi_batch(ids)
    assert ours.min() >= 1 and ours.max() <= CLASS_COUNT
    # PokerKit's hand for every four cards; our rank must map one-to-one onto its entries...
    entry_of_rank: dict[int, object] = {}
    hand_of_rank: dict[int, BadugiHand] = {}
    rank_of_entry: dict[object, int] = {}
    for row, rank in zip(ids.tolist(), ours.tolist(), strict=True):
        hand = BadugiHand.from_game(tuple(PK_CARDS[i] for i in row))
        assert isinstance(hand, BadugiHand)
        entry = hand.entry
        if rank in entry_of_rank:
            assert entry_of_rank[rank] == entry, f"rank {rank} is two PokerKit classes: {row}"
        else:
            entry_of_rank[rank] = entry
            hand_of_rank[rank] = hand
        assert rank_of_entry.setdefault(entry, rank) == rank, f"PokerKit class {entry} is two ranks: {row}"
    # ...every class occurs...
    assert sorted(entry_of_rank) == list(range(1, CLASS_COUNT + 1))
    # ...and sorting the classes by our rank sorts PokerKit's hands strongest first, strictly.
    by_rank = [hand_of_rank[r] for r in range(1, CLASS_COUNT + 1)]
    assert all(better > worse for better, worse in pairwise(by_rank))


def test_single_path_equals_batch_path_four_and_five_cards() -> None:
    rnd = random.Random(7)
    for size in (4, 5):
        hands = [rnd.sample(range(52), size) for _ in range(20_000)]
        batch = evaluate_badugi_batch(np.array(hands))
        single = [badugi_rank([card_from_index(i) for i in h]) for h in hands]
        assert batch.tolist() == single


def test_five_cards_is_best_of_any_four() -> None:
    rnd = random.Random(11)
    for _ in range(3_000):
        cards = rnd.sample(FULL_DECK, 5)
        best = min(badugi_rank(list(four)) for four in combinations(cards, 4))
        value = evaluate_badugi(cards)
        assert value.rank == best
        assert set(value.used) <= set(cards)
        assert evaluate_badugi(list(value.used)).rank == best


def test_used_cards_play_as_the_class() -> None:
    rnd = random.Random(3)
    for _ in range(3_000):
        cards = rnd.sample(FULL_DECK, 4)
        value = evaluate_badugi(cards)
        assert set(value.used) <= set(cards)
        assert tuple(int(c.rank) for c in value.used) == badugi_class(value.rank)  # high card first
        assert len({c.suit for c in value.used}) == len(value.used)


def test_small_hands_one_to_three_cards() -> None:
    assert evaluate_badugi(parse_cards("Ah")).name == "one-card A"
    assert evaluate_badugi(parse_cards("Kh Kd")).name == "one-card K"
    assert evaluate_badugi(parse_cards("2h 3h 4d")).name == "two-card 4-2"
    # For 1 to 3 cards the cards that play are the subset PokerKit picks as the best.
    rnd = random.Random(5)
    for _ in range(1_000):
        cards = rnd.sample(FULL_DECK, rnd.randint(1, 3))
        theirs = BadugiHand.from_game(tuple(PK_CARDS[c.index] for c in cards))
        assert theirs == BadugiHand.from_game(tuple(PK_CARDS[c.index] for c in evaluate_badugi(cards).used))


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("8c 7d 2h As", "8-7-2-A badugi"),
        ("Ac 2d 3h 4s", "4-3-2-A badugi"),
        ("6h 4d 3s Ah", "three-card 4-3-A"),
        ("Ad As 2d 2c", "two-card 2-A"),
        ("Qd Jd 8d 4d", "one-card 4"),
        ("Tc Jd Qh Ks", "K-Q-J-T badugi"),
    ],
)
def test_names_a_dealer_says(text: str, name: str) -> None:
    assert evaluate_badugi(parse_cards(text)).name == name


def test_class_table_ends() -> None:
    assert badugi_name(1) == "4-3-2-A badugi"
    assert badugi_name(715) == "K-Q-J-T badugi"
    assert badugi_name(716) == "three-card 3-2-A"
    assert badugi_name(CLASS_COUNT) == "one-card K"
    with pytest.raises(ValueError):
        badugi_class(0)


def test_bad_hands_are_errors() -> None:
    c = parse_cards("Ac 2d 3h 4s 5c", unique=False)
    with pytest.raises(CardError, match="twice"):
        badugi_rank([c[0], c[1], c[2], c[0]])
    with pytest.raises(CardError, match="twice"):
        badugi_rank([c[0], c[1], c[2], c[3], c[0]])
    with pytest.raises(CardError, match="twice"):
        badugi_rank([c[0], c[0]])
    with pytest.raises(CardError, match="1 to 5 cards"):
        badugi_rank([])
    with pytest.raises(CardError, match="1 to 5 cards"):
        badugi_rank([*c, Card(c[0].rank, c[1].suit)])


def test_batch_marks_repeated_cards_and_rejects_bad_shapes() -> None:
    out = evaluate_badugi_batch(np.array([[0, 1, 2, 0], [0, 5, 10, 15]]))
    assert out.tolist() == [0, 1]
    out = evaluate_badugi_batch(np.array([[0, 1, 2, 3, 3], [0, 5, 10, 15, 51]]))
    assert out.tolist() == [0, 1]
    with pytest.raises(CardError):
        evaluate_badugi_batch(np.zeros((3, 3), dtype=np.int64))
    with pytest.raises(CardError):
        evaluate_badugi_batch(np.array([[0, 1, 2, 52]]))
    with pytest.raises(CardError):
        evaluate_badugi_batch(np.array([[0, 1, 2, -1]]))
    assert evaluate_badugi_batch(np.zeros((0, 4), dtype=np.int64)).shape == (0,)
    rows = np.array([[51, 50, 49, 48], [0, 5, 10, 15], [3, 6, 9, 12]], dtype=np.uint8)
    assert evaluate_badugi_batch(rows).tolist() == [CLASS_COUNT, 1, 1]
    with pytest.raises(CardError, match="integers"):
        evaluate_badugi_batch(np.zeros((1, 4), dtype=np.float64))


def test_five_card_hands_order_as_pokerkit_best_of_any_four() -> None:
    # Badacey's Badugi half: PokerKit's from_game picks the best hand from all five hole cards.
    ids = np.array([random.Random(n).sample(range(52), 5) for n in range(6_000)])
    ours = evaluate_badugi_batch(ids).tolist()
    hand_of_rank: dict[int, BadugiHand] = {}
    for row, rank in zip(ids.tolist(), ours, strict=True):
        hand = BadugiHand.from_game(tuple(PK_CARDS[i] for i in row))
        assert isinstance(hand, BadugiHand)
        assert hand_of_rank.setdefault(rank, hand) == hand, f"rank {rank} is two PokerKit classes: {row}"
    by_rank = [hand_of_rank[r] for r in sorted(hand_of_rank)]
    assert all(better > worse for better, worse in pairwise(by_rank))
    assert len(by_rank) > 500
