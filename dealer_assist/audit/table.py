"""A table's configuration for the referee, and what carries from one hand to the next (button, stacks)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from dealer_assist.errors import DealerAssistError
from dealer_assist.rules.house_rules import HouseRules
from dealer_assist.vision.table_profile import TableProfile

DEFAULT_BUY_IN_BIG_BETS = 100


@dataclass(frozen=True, slots=True)
class TableConfig:
    """House rules, the seats in play with their chips, and the button of the first hand.

    `camera`: the cards are seen by a table camera, which confirms a card's landing a frame or a pitch early or late;
    the deal checker then holds what looks out of turn until the deal ends, and flags it only if the deal left a seat
    short or over (`audit.deal.DealChecker`). Scripted and entered streams keep the strict order.
    """

    rules: HouseRules
    stacks: tuple[tuple[int, int], ...]
    button: int
    camera: bool = False

    def __post_init__(self) -> None:
        seats = [s for s, _ in self.stacks]
        if len(seats) < 2:
            raise DealerAssistError("a table needs at least 2 seats in play")
        if len(set(seats)) != len(seats) or any(chips <= 0 for _, chips in self.stacks):
            raise DealerAssistError(f"bad stacks {dict(self.stacks)}: each seat once, with chips")

    @classmethod
    def make(cls, rules: HouseRules, seats: int | Mapping[int, int], button: int | None = None,
             buy_in: int | None = None, camera: bool = False) -> TableConfig:
        """`seats`: a seat count (seats 1..N, each with `buy_in` chips) or a seat -> chips map."""
        if isinstance(seats, int):
            chips = buy_in or DEFAULT_BUY_IN_BIG_BETS * max(rules.big_bet, rules.big_blind)
            stacks = dict.fromkeys(range(1, seats + 1), chips)
        else:
            stacks = dict(seats)
        order = sorted(stacks)
        return cls(rules, tuple(sorted(stacks.items())), order[0] if button is None else button, camera)

    @classmethod
    def for_profile(cls, profile: TableProfile, rules: HouseRules, seats: Mapping[int, int] | None = None,
                    button: int | None = None, buy_in: int | None = None, camera: bool = True) -> TableConfig:
        """A table profile's seats (all of them with `buy_in` chips, or `seats`), checked against the profile; a
        profile is a camera's table, so `camera` by default."""
        if seats is None:
            return cls.make(rules, profile.seat_count, button, buy_in, camera)
        unknown = sorted(set(seats) - set(range(1, profile.seat_count + 1)))
        if unknown:
            raise DealerAssistError(f"seats {unknown} are not at table {profile.name} "
                                    f"(seats 1 to {profile.seat_count})")
        return cls.make(rules, seats, button, camera=camera)

    @property
    def stacks_by_seat(self) -> dict[int, int]:
        return dict(self.stacks)


SEATS_EXAMPLE = "1,2,5 or 1:400,2:250,5:300"


def parse_seats(text: str, chips: int) -> dict[int, int]:
    """Seats in play as a dealer or floor writes them: "1,2,5" (each with `chips`) or "1:400,2:250" (with their own
    chips), mixed freely; an empty text is no seats (the caller's default: every seat of the table)."""
    out: dict[int, int] = {}
    for item in text.replace(";", ",").split(","):
        if not item.strip():
            continue
        seat_text, _, chips_text = item.partition(":")
        try:
            seat, stack = int(seat_text), int(chips_text) if chips_text.strip() else chips
        except ValueError:
            raise DealerAssistError(f"seats in play: {item.strip()!r} is not SEAT or SEAT:CHIPS; "
                                    f"accepted: {SEATS_EXAMPLE}") from None
        if seat < 1 or stack < 1:
            raise DealerAssistError(f"seats in play: {item.strip()!r} needs a seat from 1 and chips above 0; "
                                    f"accepted: {SEATS_EXAMPLE}")
        if seat in out:
            raise DealerAssistError(f"seats in play: seat {seat} is given twice; give each seat once, e.g. "
                                    f"{SEATS_EXAMPLE}")
        out[seat] = stack
    if len(out) == 1:
        raise DealerAssistError(f"seats in play: one seat ({next(iter(out))}) is no game; give at least 2, e.g. "
                                f"{SEATS_EXAMPLE}")
    return out


def next_button(button: int, seats: list[int]) -> int:
    """The first seat in play clockwise after `button` (seat numbers rise clockwise)."""
    order = sorted(seats)
    return next((s for s in order if s > button), order[0])
