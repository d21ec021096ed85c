"""Table events round-trip through plain dicts (the hand log stores them that way)."""

from __future__ import annotations

import pytest

from dealer_assist.cards import parse_card, parse_cards
from dealer_assist.errors import DealerAssistError
from dealer_assist.vision.events import (
    EVENT_TYPES,
    ButtonMoved,
    CardBurned,
    CardDealt,
    CardExposed,
    CardReplaced,
    CardsDiscarded,
    CardsGathered,
    CardsShown,
    SeatFolded,
    TableEvent,
    event_from_dict,
)

SAMPLES: list[TableEvent] = [
    CardDealt(1.0, 30, seat=3),
    CardDealt(1.5, 45, seat=4, card=parse_card("Ah")),
    CardExposed(2.0, 60, seat=None, card=parse_card("Kd")),
    CardBurned(3.0, 90),
    CardsDiscarded(4.0, 120, seat=2, count=2),
    CardsDiscarded(4.1, 123, seat=2, count=1, cards=parse_cards("Qs")),
    CardReplaced(4.5, 135, seat=2),
    SeatFolded(5.0, 150, seat=5),
    CardsShown(6.0, 180, seat=1, cards=parse_cards("Ac 2d 3h 4s")),
    ButtonMoved(7.0, 210, seat=6),
    CardsGathered(8.0, 240),
]


@pytest.mark.parametrize("event", SAMPLES, ids=lambda e: e.kind)
def test_roundtrip(event: TableEvent) -> None:
    data = event.to_dict()
    assert data["kind"] == event.kind
    assert event_from_dict(data) == event


def test_every_kind_sampled() -> None:
    assert {e.kind for e in SAMPLES} == set(EVENT_TYPES)


def test_bad_records() -> None:
    with pytest.raises(DealerAssistError, match="unknown table event kind"):
        event_from_dict({"kind": "teleported"})
    with pytest.raises(DealerAssistError, match="bad dealt event"):
        event_from_dict({"kind": "dealt", "t": 1.0})
