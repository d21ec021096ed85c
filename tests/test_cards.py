"""Parsing and printing cards the way dealers type them."""

from __future__ import annotations

import pytest

from dealer_assist.cards import (
    FULL_DECK,
    Card,
    CardError,
    Deck,
    Rank,
    Suit,
    card_from_index,
    format_cards,
    parse_card,
    parse_cards,
)


@pytest.mark.parametrize(
    ("text", "rank", "suit", "printed"),
    [
        ("Ah", Rank.ACE, Suit.HEARTS, "Ah"),
        ("ah", Rank.ACE, Suit.HEARTS, "Ah"),
        ("Td", Rank.TEN, Suit.DIAMONDS, "Td"),
        ("10h", Rank.TEN, Suit.HEARTS, "Th"),
        ("tS", Rank.TEN, Suit.SPADES, "Ts"),
        ("2c", Rank.TWO, Suit.CLUBS, "2c"),
        ("K♠", Rank.KING, Suit.SPADES, "Ks"),
        (" qd ", Rank.QUEEN, Suit.DIAMONDS, "Qd"),
    ],
)
def test_parse_and_print(text: str, rank: Rank, suit: Suit, printed: str) -> None:
    card = parse_card(text)
    assert card == Card(rank, suit)
    assert str(card) == printed


@pytest.mark.parametrize("text", ["", "A", "Ax", "11h", "1", "Zh", "AhK", "0h", "hA"])
def test_bad_card_names_the_problem(text: str) -> None:
    with pytest.raises(CardError) as err:
        parse_card(text)
    message = str(err.value)
    assert repr(text) in message
    assert "accepted" in message
    assert "\n" not in message


def test_parse_cards_forms() -> None:
    want = (parse_card("Ah"), parse_card("2d"), parse_card("Tc"))
    assert parse_cards("Ah 2d Tc") == want
    assert parse_cards("Ah,2d, 10c") == want
    assert parse_cards("Ah2d10c") == want
    assert parse_cards(["Ah", "2d", "Tc"]) == want
    assert format_cards(want) == "Ah 2d Tc"


def test_duplicate_card_rejected() -> None:
    with pytest.raises(CardError, match="Ah appears twice"):
        parse_cards("Ah 2d ah")


def test_index_roundtrip_and_deck() -> None:
    assert sorted(c.index for c in FULL_DECK) == list(range(52))
    for card in FULL_DECK:
        assert card_from_index(card.index) == card
        assert card.index // 4 == card.rank - 1
    with pytest.raises(CardError):
        card_from_index(52)
    a = Deck.shuffled(7)
    b = Deck.shuffled(7)
    assert a.cards == b.cards and len(a) == 52
    assert a.cards != Deck.shuffled(8).cards
    top = a.peek()
    assert a.deal() == top and len(a) == 51
    with pytest.raises(CardError):
        Deck([parse_card("Ah"), parse_card("Ah")])
    empty = Deck([])
    with pytest.raises(CardError, match="empty"):
        empty.deal()


def test_suit_order_for_odd_chip() -> None:
    assert [s.order for s in (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES)] == [0, 1, 2, 3]
