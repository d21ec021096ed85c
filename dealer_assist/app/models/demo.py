"""A sample table for the demo and the screenshots until the referee drives the live view."""

from __future__ import annotations

from dealer_assist.app.models.table import SeatState
from dealer_assist.audit.records import Flag, FlagKind, LegalAction, Prompt, Severity
from dealer_assist.cards import parse_cards
from dealer_assist.rules.awards import Award, award_pots

PLAYERS = ("Ana", "Ben", "Chen", "Dee", "Eli", "Fay")


def sample_seats() -> tuple[SeatState, ...]:
    """Six seats after the second draw: one folded, one all-in, one showing (exposed) cards."""
    down = (None, None, None, None)
    return (
        SeatState(1, "Ana", 480, down, "in", (2, 1), 60),
        SeatState(2, "Ben", 0, down, "all-in", (1, 0), 35),
        SeatState(3, "Chen", 725, (), "folded", (3,), 10),
        SeatState(4, "Dee", 390, tuple(parse_cards("Ac 3d 5h 8s")), "in", (1, 1), 60),
        SeatState(5, "Eli", 910, down, "in", (2, 2), 60),
        SeatState(6, "Fay", 655, (), "folded", (), 5),
    )


def sample_prompt() -> Prompt:
    return Prompt(
        phase="betting after draw 2",
        actor=5,
        legal=(LegalAction("fold"), LegalAction("call", 60, 60), LegalAction("raise", 80, 80)),
        message="seat 5 faces a bet of 20",
    )


def sample_flags() -> tuple[Flag, ...]:
    return (
        Flag(FlagKind.CARD_EXPOSED, Severity.WARNING, 4, "exposed-card", "exposed_card_during_draw",
             "Card exposed during the draw (8s); it plays", 41.2, 1236),
        Flag(FlagKind.ACTION_OUT_OF_TURN, Severity.ERROR, 6, "action-order", None,
             "Seat 6 folded before seat 5 acted", 12.5, 375),
        Flag(FlagKind.WRONG_CARD_COUNT, Severity.INFO, None, "deal-count", None,
             "Stub count checked: 28 cards", 3.0, 90),
    )


def sample_award() -> Award:
    """A three-way showdown with a side pot and a tie with an odd chip."""
    return award_pots(
        game="badugi",
        contributions={1: 61, 2: 35, 3: 10, 4: 61, 5: 61, 6: 5},
        hands={
            1: tuple(parse_cards("2c 4d 7h 9s")),
            2: tuple(parse_cards("As 2h 3h 5d")),
            3: None,
            4: tuple(parse_cards("2d 4c 7s 9h")),
            5: tuple(parse_cards("Kc Kd 3s 6h")),
            6: None,
        },
        button=3,
        seat_order=(1, 2, 3, 4, 5, 6),
    )
