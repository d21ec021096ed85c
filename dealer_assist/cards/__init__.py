"""Cards, ranks, suits and decks; parsing and printing "Ah" / "Td" / "10h"."""

from dealer_assist.cards.card import (
    RANKS,
    SUITS,
    Card,
    CardError,
    Rank,
    Suit,
    card_from_index,
    format_cards,
    parse_card,
    parse_cards,
)
from dealer_assist.cards.deck import FULL_DECK, Deck

__all__ = [
    "FULL_DECK",
    "RANKS",
    "SUITS",
    "Card",
    "CardError",
    "Deck",
    "Rank",
    "Suit",
    "card_from_index",
    "format_cards",
    "parse_card",
    "parse_cards",
]
