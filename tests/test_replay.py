"""The dealer's steps of a recorded hand, shared by PHH import and the hand log's replay."""

from __future__ import annotations

from collections import deque

import pytest

from dealer_assist.cards import Card, parse_cards
from dealer_assist.rules.hand import Hand, Phase
from dealer_assist.rules.house_rules import HouseRules
from dealer_assist.rules.replay import MissingCard, dealer_step

STACKS = {1: 100, 2: 100, 3: 100}


RECORDED = {1: "3h 7s Jd Kc", 2: "Ac 5d 9h 2s", 3: "2d 6h Tc Qs"}


def test_deals_the_recorded_cards_then_hands_over_to_the_players() -> None:
    hand = Hand(HouseRules(), STACKS, button=1)
    cards: dict[int, deque[Card | None]] = {s: deque(parse_cards(text)) for s, text in RECORDED.items()}
    while dealer_step(hand, cards, deque()):
        pass
    assert hand.phase is Phase.BETTING
    for seat, text in RECORDED.items():
        assert hand.cards(seat) == parse_cards(text)
    assert all(not pile for pile in cards.values())


def test_missing_card_is_a_one_line_error_naming_the_seat() -> None:
    hand = Hand(HouseRules(), STACKS, button=1)
    cards: dict[int, deque[Card | None]] = {1: deque(), 2: deque(), 3: deque()}
    assert dealer_step(hand, cards, deque())  # the blinds are posted
    with pytest.raises(MissingCard, match="no card was recorded for seat 2 when the deal reached it"):
        while dealer_step(hand, cards, deque()):
            pass


def test_players_turn_leaves_the_hand_unchanged() -> None:
    hand = Hand(HouseRules(), STACKS, button=1)
    cards: dict[int, deque[Card | None]] = {s: deque([None] * 4) for s in STACKS}
    while dealer_step(hand, cards, deque()):
        pass
    assert hand.phase is Phase.BETTING and all(not pile for pile in cards.values())
    before = (hand.phase, list(hand.stacks), len(hand.history))
    assert not dealer_step(hand, cards, deque())
    assert (hand.phase, list(hand.stacks), len(hand.history)) == before
