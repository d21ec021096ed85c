"""Main and side pots from what each seat put in (HOUSE_RULES.md "Pots, splits and odd chips").

A pot is one contribution level: every seat pays into it up to that level, and only the live
(non-folded) seats that reached the level may win it. Chips the top contributor put in beyond what
anyone else matched were never called and go back to that seat.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass

from dealer_assist.errors import DealerAssistError


class PotError(DealerAssistError, ValueError):
    """Contributions that cannot make pots (a negative amount, no live seat)."""


@dataclass(frozen=True, slots=True)
class Pot:
    """One pot: its chips, the seats that may win it, and the seats whose chips are in it."""

    amount: int
    eligible: tuple[int, ...]
    contributors: tuple[int, ...]


def uncalled(contributions: Mapping[int, int]) -> dict[int, int]:
    """The chips the single top contributor put in beyond the second-highest contribution."""
    if not contributions:
        return {}
    it = iter(contributions.items())
    top_seat, top = next(it)
    second: int | None = None
    for seat, amount in it:
        if amount > top:
            second = top
            top_seat, top = seat, amount
        elif second is None or amount > second:
            second = amount
    if second is None:
        second = 0
    return {top_seat: top - second} if top > second else {}


def build_pots(contributions: Mapping[int, int], live: Collection[int]) -> tuple[tuple[Pot, ...], dict[int, int]]:
    """Side pots by contribution level, main pot first, and the uncalled chips returned per seat.

    Levels are the distinct contributions after the uncalled excess is returned. Consecutive levels
    with the same eligible seats merge into one pot (a folded seat's chips do not make a pot of
    their own). Chips above the highest level any live seat reached (only possible when a folded
    seat put in more than every live seat, which legal play never produces) join the highest pot
    that has an eligible seat.
    """
    for seat, amount in contributions.items():
        if amount < 0:
            raise PotError(f"seat {seat} has a negative contribution ({amount}); a contribution is 0 chips or more")
    live_set = live if isinstance(live, set | frozenset) else set(live)
    in_pot = [seat for seat, amount in contributions.items() if amount > 0]
    if in_pot and not any(seat in live_set for seat in in_pot):
        raise PotError("no live seat put chips in; at least one seat that has not folded must be in the pot")
    returned = uncalled(contributions)
    net = dict(contributions)
    for seat, amount in returned.items():
        net[seat] -= amount
    payers_all = sorted(seat for seat, amount in net.items() if amount > 0)
    if not payers_all:
        return (), returned
    levels = sorted({net[seat] for seat in payers_all})
    live_levels = {net[seat] for seat in payers_all if seat in live_set}
    top_live = max(live_levels, default=0)
    # Level by level, a pot holds the chips between the previous level and this one; a level whose
    # eligible seats are those of the level before (or none) joins the pot below. The eligible seats
    # (live seats that reached the level) change only just above a live seat's level, so each pot
    # starts at the first level or just above a live seat's level, and runs up to the next start.
    starts: list[int] = []  # the level below each pot's first level
    previous = 0
    for level in levels:
        if not starts or (previous in live_levels and level <= top_live):
            starts.append(previous)
        previous = level
    starts.append(levels[-1])
    pots: list[Pot] = []
    for k in range(len(starts) - 1):
        low, high = starts[k], starts[k + 1]
        payers = tuple(seat for seat in payers_all if net[seat] > low)
        amount = 0
        for seat in payers:
            amount += (high if net[seat] > high else net[seat]) - low
        eligible = tuple(seat for seat in payers if seat in live_set)
        pots.append(Pot(amount, eligible, payers))
    return tuple(pots), returned
