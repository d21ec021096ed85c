"""The value of a hand under one ranking: a rank (1 is the best possible hand) and a spoken name."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from dealer_assist.cards import Card

Ranking = Literal["badugi", "a5"]


@dataclass(frozen=True, slots=True)
class HandValue:
    """A ranked hand. Lower `rank` is better; equal ranks tie. `used` are the cards that play."""

    ranking: Ranking
    rank: int
    name: str
    used: tuple[Card, ...]

    def beats(self, other: HandValue) -> bool:
        if other.ranking != self.ranking:
            raise ValueError(f"cannot compare a {self.ranking} hand with a {other.ranking} hand")
        return self.rank < other.rank

    def ties(self, other: HandValue) -> bool:
        return self.ranking == other.ranking and self.rank == other.rank
