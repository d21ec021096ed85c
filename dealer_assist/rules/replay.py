"""The dealer's own steps when a recorded hand is replayed through a `Hand` (PHH import, hand-log replay)."""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping

from dealer_assist.cards import Card
from dealer_assist.errors import DealerAssistError
from dealer_assist.rules.hand import Hand, Phase


class MissingCard(DealerAssistError):
    """The record holds no card for the seat the deal or the draw has reached."""


def dealer_step(hand: Hand, cards: Mapping[int, deque[Card | None]], burns: deque[Card | None]) -> bool:
    """Take the dealer's next step (post, deal, burn, reshuffle, replace, award) from the recorded cards.

    Returns False when the next step is a player's (bet, discard, show), leaving the hand unchanged.
    """
    phase = hand.phase
    if phase is Phase.POSTING:
        hand.post()
    elif phase is Phase.DEALING:
        seat = hand.next_card_seat
        assert seat is not None
        hand.deal_card(seat, _next_card(cards, seat, "when the deal reached it"))
    elif phase is Phase.AWARDING:
        hand.award()
    elif phase is Phase.DRAWING and hand.next_discarder is None:
        if hand.needs_reshuffle:
            hand.reshuffle()
        elif hand.burn_due:
            hand.burn(burns.popleft() if burns else None)
        else:
            seat = hand.next_card_seat
            assert seat is not None
            hand.replace(seat, _next_card(cards, seat, "as a replacement"))
    else:
        return False
    return True


def _next_card(cards: Mapping[int, deque[Card | None]], seat: int, when: str) -> Card | None:
    pile = cards.get(seat)
    if not pile:
        raise MissingCard(f"no card was recorded for seat {seat} {when}")
    return pile.popleft()
