"""The fewest-mistakes account of a whole deal: the seats the cards landed at, in order, against the seats due.

The card-by-card checker (`deal.DealChecker`) looks one card ahead, so two mistakes next to each other (a seat skipped,
then the next card pitched one place on) can read as three, or as the same two at the wrong seats. At a camera's table
its order findings wait for the deal's end anyway; there the whole deal is aligned with the expected one, as an edit
distance: a skipped seat is a slot no card filled, a card to the wrong seat a slot filled at another seat, a card too
many a card that filled no slot. Of the accounts with the fewest mistakes, the one whose stray cards landed nearest
along the dealer's lap stands: a misdirected card is most often pitched one place on (two cards off the deck as one,
or the dealer a place ahead), not across the table. Written by hand: an edit distance with this cost and trace is a
few lines, and no library keeps the per-step account.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Step(Enum):
    """What one step of the account says."""

    MATCH = "match"     # the slot's card landed at its seat
    SKIP = "skip"       # the slot got no card
    WRONG = "wrong"     # the slot's card landed at another seat
    EXTRA = "extra"     # a card that filled no slot


@dataclass(frozen=True, slots=True)
class Aligned:
    """One step: the expected slot it concerns (index into the expected seats) and the landing (index into the
    seats landed at); None where the step has none."""

    step: Step
    slot: int | None
    landing: int | None


def lap_distance(order: tuple[int, ...], due: int, landed: int) -> int:
    """How many places on along the dealer's lap `landed` is from `due` (a seat not dealt in: a whole lap)."""
    if due not in order or landed not in order:
        return len(order)
    return (order.index(landed) - order.index(due)) % len(order)


def align_deal(order: tuple[int, ...], expected: list[int], landed: list[int]) -> list[Aligned]:
    """The account of `landed` against `expected` with the fewest mistakes, then the nearest stray cards."""
    n, m = len(expected), len(landed)
    inf = (n + m + 1, 0)
    cost = [[inf] * (m + 1) for _ in range(n + 1)]
    cost[0][0] = (0, 0)
    for i in range(n + 1):
        for j in range(m + 1):
            here = cost[i][j]
            if i < n and j < m:
                if expected[i] == landed[j]:
                    cost[i + 1][j + 1] = min(cost[i + 1][j + 1], here)
                else:
                    far = lap_distance(order, expected[i], landed[j])
                    cost[i + 1][j + 1] = min(cost[i + 1][j + 1], (here[0] + 1, here[1] + far))
            if i < n:
                cost[i + 1][j] = min(cost[i + 1][j], (here[0] + 1, here[1]))
            if j < m:
                cost[i][j + 1] = min(cost[i][j + 1], (here[0] + 1, here[1]))
    steps: list[Aligned] = []
    i, j = n, m
    while i or j:
        here = cost[i][j]
        if i and j and expected[i - 1] == landed[j - 1] and cost[i - 1][j - 1] == here:
            steps.append(Aligned(Step.MATCH, i - 1, j - 1))
            i, j = i - 1, j - 1
        elif i and j and expected[i - 1] != landed[j - 1] and (
                cost[i - 1][j - 1][0] + 1,
                cost[i - 1][j - 1][1] + lap_distance(order, expected[i - 1], landed[j - 1])) == here:
            steps.append(Aligned(Step.WRONG, i - 1, j - 1))
            i, j = i - 1, j - 1
        elif i and (cost[i - 1][j][0] + 1, cost[i - 1][j][1]) == here:
            steps.append(Aligned(Step.SKIP, i - 1, None))
            i -= 1
        else:
            steps.append(Aligned(Step.EXTRA, None, j - 1))
            j -= 1
    steps.reverse()
    return steps
