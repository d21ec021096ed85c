"""One playing card: a rank (ace low, 1..13) and a suit, parsed from what a dealer types."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum, IntEnum

from dealer_assist.errors import DealerAssistError


class CardError(DealerAssistError, ValueError):
    """A card string that is not a card."""


class Rank(IntEnum):
    """Ranks with the ace low, as in every lowball game this tool deals."""

    ACE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13

    @property
    def symbol(self) -> str:
        return _RANK_SYMBOLS[self.value - 1]

    @property
    def spoken(self) -> str:
        """The rank as a dealer says it in the plural ("deuces", "sixes")."""
        return _RANK_PLURALS[self.value - 1]


class Suit(Enum):
    """Suits in the order used by the odd-chip-by-suit rule (clubs lowest, spades highest)."""

    CLUBS = "c"
    DIAMONDS = "d"
    HEARTS = "h"
    SPADES = "s"

    @property
    def order(self) -> int:
        return _SUIT_ORDER[self.value]

    @property
    def symbol(self) -> str:
        return {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}[self.value]


_RANK_SYMBOLS = "A23456789TJQK"
_RANK_PLURALS = (
    "aces", "deuces", "threes", "fours", "fives", "sixes", "sevens",
    "eights", "nines", "tens", "jacks", "queens", "kings",
)
_SUIT_ORDER = {"c": 0, "d": 1, "h": 2, "s": 3}
_RANK_BY_TEXT = {s: Rank(i + 1) for i, s in enumerate(_RANK_SYMBOLS)} | {"10": Rank.TEN, "1": Rank.ACE}
_SUIT_BY_TEXT = {s.value: s for s in Suit} | {s.symbol: s for s in Suit}
_CARD_RE = re.compile(r"^(10|[2-9TJQKA1])([cdhs♣♦♥♠])$", re.IGNORECASE)

RANKS: tuple[Rank, ...] = tuple(Rank)
SUITS: tuple[Suit, ...] = tuple(Suit)


@dataclass(frozen=True, slots=True, order=False)
class Card:
    """A card; `index` (0..51) is rank-major so that index // 4 is the rank minus one."""

    rank: Rank
    suit: Suit

    @property
    def index(self) -> int:
        return (self.rank.value - 1) * 4 + self.suit.order

    def __str__(self) -> str:
        # Not rank.symbol + suit.value: an enum's `value` property costs a microsecond, and the hand log writes
        # every card it records through here.
        return _RANK_SYMBOLS[self.rank - 1] + self.suit._value_

    def __repr__(self) -> str:
        return f"Card({self})"


_DECK_ORDER: tuple[Card, ...] = tuple(Card(r, s) for r in RANKS for s in SUITS)


def card_from_index(index: int) -> Card:
    """The card with `Card.index == index`."""
    if not 0 <= index < 52:
        raise CardError(f"card index {index} is out of range; accepted: 0 to 51")
    return _DECK_ORDER[index]


def parse_card(text: str | Card) -> Card:
    """Parse "Ah", "td", "10h", "A♥"; raises CardError naming the bad text and the accepted forms."""
    if isinstance(text, Card):
        return text
    match = _CARD_RE.match(text.strip())
    if not match:
        raise CardError(
            f"not a card: {text!r}; accepted: a rank (A 2-9 T 10 J Q K) then a suit (c d h s), e.g. Ah, Td, 10h"
        )
    rank_text, suit_text = match.groups()
    return Card(_RANK_BY_TEXT[rank_text.upper()], _SUIT_BY_TEXT[suit_text.lower()])


_SPLIT_RE = re.compile(r"[\s,]+")


def parse_cards(text: str | Iterable[str | Card], *, unique: bool = True) -> tuple[Card, ...]:
    """Parse "Ah 2d 3c 4s", "Ah,2d", "Ah2d3c4s" or a list of card strings; duplicates are an error."""
    if isinstance(text, str):
        stripped = text.strip()
        parts = [p for p in _SPLIT_RE.split(stripped) if p]
        if len(parts) == 1 and len(parts[0]) > 3:
            parts = _split_run(parts[0])
    else:
        parts = list(text)
    cards = tuple(parse_card(p) for p in parts)
    if unique and len(set(cards)) != len(cards):
        dupe = next(c for i, c in enumerate(cards) if c in cards[:i])
        raise CardError(f"card {dupe} appears twice in {format_cards(cards)}; each card exists once in a deck")
    return cards


def _split_run(run: str) -> list[str]:
    """Split "Ah2d10c" into ["Ah", "2d", "10c"]."""
    out: list[str] = []
    i = 0
    while i < len(run):
        size = 3 if run.startswith("10", i) else 2
        out.append(run[i : i + size])
        i += size
    return out


def format_cards(cards: Iterable[Card]) -> str:
    """Cards as "Ah 2d 3c"."""
    return " ".join(str(c) for c in cards)
