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
    ordered = sorted(contributions.items(), key=lambda kv: kv[1], reverse=True)
    top_seat, top = ordered[0]
    second = ordered[1][1] if len(ordered) > 1 else 0
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
    live_set = set(live)
    in_pot = [seat for seat, amount in contributions.items() if amount > 0]
    if in_pot and not any(seat in live_set for seat in in_pot):
        raise PotError("no live seat put chips in; at least one seat that has not folded must be in the pot")
    returned = uncalled(contributions)
    net = {seat: amount - returned.get(seat, 0) for seat, amount in contributions.items()}
    levels = sorted({amount for amount in net.values() if amount > 0})
    pots: list[Pot] = []
    previous = 0
    for level in levels:
        payers = tuple(sorted(seat for seat, amount in net.items() if amount > previous))
        amount = sum(min(net[seat], level) - previous for seat in payers)
        eligible = tuple(seat for seat in payers if seat in live_set and net[seat] >= level)
        previous = level
        if pots and (not eligible or pots[-1].eligible == eligible):
            last = pots[-1]
            merged = tuple(sorted(set(last.contributors) | set(payers)))
            pots[-1] = Pot(last.amount + amount, last.eligible, merged)
        else:
            pots.append(Pot(amount, eligible, payers))
    return tuple(pots), returned
