"""Every hand example of the seed documents with explicit suits (HOUSE_RULES.md "Hand ranking").

004's ranked Badugi list lost its suit symbols and has a copy-paste slip, so its lines are not
tested literally; its Badugi-section order is tested with rainbow suits chosen here, as the text
says "of different suits".
"""

from __future__ import annotations

import itertools

import pytest

from dealer_assist.cards import parse_cards
from dealer_assist.rules import HandValue, evaluate_a5, evaluate_badugi


def badugi(text: str) -> HandValue:
    return evaluate_badugi(parse_cards(text))


def a5(text: str) -> HandValue:
    return evaluate_a5(parse_cards(text))


# --- 001 -----------------------------------------------------------------------------------------


def test_001_kh_disregarded_three_card() -> None:
    value = badugi("Ac 2d 4h Kh")
    assert value.name == "three-card 4-2-A"
    assert {str(c) for c in value.used} == {"Ac", "2d", "4h"}


def test_001_best_hand_is_a234_of_four_suits() -> None:
    assert badugi("Ac 2d 3h 4s").rank == 1


def test_001_four_card_beats_three_card_and_suits_have_no_value() -> None:
    assert badugi("Kc Qd Jh Ts").beats(badugi("Ac 2d 3h 3s"))
    assert badugi("Ac 2d 3h 4s").ties(badugi("As 2h 3d 4c"))


# --- 002 K ---------------------------------------------------------------------------------------


def test_002_k_i_best_then_a235() -> None:
    best, second = badugi("Ac 2d 3h 4s"), badugi("Ad 2c 3s 5h")
    assert (best.rank, best.name) == (1, "4-3-2-A badugi")
    assert (second.rank, second.name) == (2, "5-3-2-A badugi")


def test_002_k_ii_kkkk_is_the_worst_hand() -> None:
    worst = badugi("Kc Kd Kh Ks")
    assert worst.name == "one-card K"
    assert worst.rank == 1092


@pytest.mark.parametrize("three", ["Ac 2d 3h 3s", "Ac 2d 3h 2c", "Ac 2d 3h 5h", "Ac 2d 3h Ah"])
def test_002_k_iii_a_tjqk_beats_a23_with_a_pairing_or_suited_fourth(three: str) -> None:
    four = badugi("Tc Jd Qh Ks")
    assert four.name == "K-Q-J-T badugi"
    assert len(badugi(three).used) == 3
    assert four.beats(badugi(three))


def test_002_k_iv_lowest_high_card_then_next() -> None:
    assert badugi("7c 4d 3h 2s").beats(badugi("8c 3d 2h As"))
    assert badugi("8c 5d 2h As").beats(badugi("8c 6d 2h As"))
    assert badugi("8c 6d 3h As").beats(badugi("8d 6c 4h As"))
    assert badugi("8c 6d 3h As").beats(badugi("8d 6c 3s 2h"))
    assert badugi("8c 6d 3h As").ties(badugi("8d 6c 3s Ah"))


# --- 004 -----------------------------------------------------------------------------------------


def test_004_three_card_four_beats_three_card_seven() -> None:
    four, seven = badugi("6h 4d 3s Ah"), badugi("7h 5d 4d 3s")
    assert four.name == "three-card 4-3-A"
    assert seven.name == "three-card 7-4-3"
    assert four.beats(seven)
    assert badugi("Kc Qd Jh Ts").beats(four)  # "would lose to any Badugi"


def test_004_two_card_deuce_and_one_card_four() -> None:
    deuce = badugi("Ad As 2d 2c")
    assert deuce.name == "two-card 2-A"
    one = badugi("Qd Jd 8d 4d")
    assert one.name == "one-card 4"
    assert [str(c) for c in one.used] == ["4d"]
    assert badugi("7h 5d 4d 3s").beats(deuce)  # all three-card hands beat all two-card hands
    assert deuce.beats(one)


def test_004_badugi_examples() -> None:
    assert badugi("8c 7d 3h 2s").beats(badugi("9c 8d 4h 3s"))
    assert badugi("9c 8d 4h 3s").name == "9-8-4-3 badugi"
    assert badugi("5c 4d 3h 2s").beats(badugi("6c 3d 2h As"))
    assert badugi("6c 4d 3h 2s").beats(badugi("6c 5d 4h As"))
    assert badugi("6c 4d 3h 2s").name == "6-4-3-2 badugi"


def test_004_badugi_section_order_with_rainbow_suits() -> None:
    # From least to most powerful; the bracketed forms of the list are not tested literally.
    order = ["Kc Qd Jh Ts", "8c 7d 2h As", "8c 5d 4h 2s", "4c 3d 2h As"]
    ranks = [badugi(h).rank for h in order]
    assert ranks == sorted(ranks, reverse=True) and len(set(ranks)) == 4
    assert badugi(order[0]).name == "K-Q-J-T badugi"
    assert badugi(order[1]).name == "8-7-2-A badugi"


A5_LIST_004 = [
    "2c 2d 7h 6s 5c",
    "Kc Jd 8h 7s 4c",
    "Tc 7d 5h 4s 3c",
    "8c 4d 3h 2s Ac",
    "7c 6d 5h 4s 2c",
    "7c 6d 5h 2s Ac",
    "7c 5d 4h 3s 2c",
    "6c 5d 4h 3s 2c",
    "6c 4d 3h 2s Ac",
    "5c 4d 3h 2s Ac",
]


def test_004_a5_list_in_order() -> None:
    ranks = [a5(h).rank for h in A5_LIST_004]
    assert all(worse > better for worse, better in itertools.pairwise(ranks))
    assert a5(A5_LIST_004[-1]).rank == 1
    assert a5(A5_LIST_004[-1]).name == "5-4-3-2-A low"
    assert a5(A5_LIST_004[-2]).name == "6-4-3-2-A low"
    assert a5(A5_LIST_004[0]).name == "pair of deuces, 7-6-5"


def test_004_a5_straights_and_flushes_do_not_count() -> None:
    assert a5("5c 4c 3c 2c Ac").rank == 1
    assert a5("6h 5h 4h 3h 2h").ties(a5("6c 5d 4h 3s 2c"))


def test_003_c_seven_five_two_beats_seven_five_four() -> None:
    assert a5("7c 5d 2h 3s Ac").beats(a5("7d 5c 4h 3c 6s"))


# --- 000 last paragraph over 002 J(ii) ---------------------------------------------------------


def test_000_best_subset_rule_beats_the_discard_the_higher_suited_card_shortcut() -> None:
    # 002 J(ii) would discard the 4d (higher diamond) and then one three: a two-card hand. The
    # best-subset rule of 000 discards the paired, suited 3d instead: three-card 4-3-2.
    value = badugi("2c 3h 3d 4d")
    assert value.name == "three-card 4-3-2"
    assert {str(c) for c in value.used} == {"2c", "3h", "4d"}
