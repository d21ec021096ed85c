"""Table events: what the tracker saw happen, with the frame's timestamp and number.

These records cross layers (vision -> referee -> hand log), so they are frozen and serialise to
plain dicts. Seats are the table's seat numbers (1..N, clockwise). A face-down card is `None`.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any, ClassVar

from dealer_assist.cards import Card, parse_card
from dealer_assist.errors import DealerAssistError

# A dict, not functools.cache: mypy does not take a class for a Hashable argument.
_FIELD_PLANS: dict[type, tuple[tuple[str, bool, Any], ...]] = {}


def _field_plan(cls: type) -> tuple[tuple[str, bool, Any], ...]:
    """Each field's name, whether it is left out at its default, and that default: read once per event class, since
    `to_dict` runs for every event the hand log records."""
    plan = _FIELD_PLANS.get(cls)
    if plan is None:
        plan = _FIELD_PLANS[cls] = tuple((f.name, bool(f.metadata.get("omit_default")), f.default)
                                         for f in fields(cls))
    return plan


@dataclass(frozen=True, slots=True)
class TableEvent:
    """Base of every event: `t` is the frame's timestamp in seconds, `frame` its index in the source."""

    kind: ClassVar[str] = "event"
    t: float
    frame: int

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind}
        for name, omit, default in _field_plan(type(self)):
            value = getattr(self, name)
            if omit and value == default:
                continue        # a field added later, left out at its default: older records read the same
            if isinstance(value, Card):
                value = str(value)
            elif isinstance(value, tuple):
                value = [str(v) if isinstance(v, Card) else v for v in value]
            out[name] = value
        return out


@dataclass(frozen=True, slots=True)
class CardDealt(TableEvent):
    """A card landed in a seat's zone during the deal (face down unless exposed)."""

    kind: ClassVar[str] = "dealt"
    seat: int
    card: Card | None = None


@dataclass(frozen=True, slots=True)
class CardExposed(TableEvent):
    """A card was seen face up where it should not be (deal, stub, a flashed hole card)."""

    kind: ClassVar[str] = "exposed"
    seat: int | None
    card: Card | None = None


@dataclass(frozen=True, slots=True)
class CardBurned(TableEvent):
    """A card went from the stub to the muck before a draw round."""

    kind: ClassVar[str] = "burned"


@dataclass(frozen=True, slots=True)
class CardsDiscarded(TableEvent):
    """A seat pushed `count` cards forward (or into the muck) in a draw; faces if they were seen."""

    kind: ClassVar[str] = "discarded"
    seat: int
    count: int
    cards: tuple[Card, ...] = field(default=())


@dataclass(frozen=True, slots=True)
class CardReplaced(TableEvent):
    """A replacement card landed in a seat's zone during a draw."""

    kind: ClassVar[str] = "replaced"
    seat: int
    card: Card | None = None


@dataclass(frozen=True, slots=True)
class SeatFolded(TableEvent):
    """A seat's cards went into the muck outside a draw."""

    kind: ClassVar[str] = "folded"
    seat: int


@dataclass(frozen=True, slots=True)
class CardsShown(TableEvent):
    """A seat turned its hand face up at showdown; `cards` are those read (fewer, even none, when the camera could not
    read them all: the referee waits for the rest, and never takes the seat for one that mucked). `entered`: the
    dealer or the floor keyed the hand in as read at the table, where the camera could not read it."""

    kind: ClassVar[str] = "shown"
    seat: int
    cards: tuple[Card, ...]
    # Keyed in by the dealer or the floor (the camera could not read the hand), not read by the camera.
    entered: bool = field(default=False, metadata={"omit_default": True})


@dataclass(frozen=True, slots=True)
class ButtonMoved(TableEvent):
    """The dealer button now sits in front of `seat`."""

    kind: ClassVar[str] = "button_moved"
    seat: int


@dataclass(frozen=True, slots=True)
class CardsGathered(TableEvent):
    """Every seat zone and the muck were cleared: the hand is over and the next may start."""

    kind: ClassVar[str] = "gathered"


EVENT_TYPES: dict[str, type[TableEvent]] = {
    cls.kind: cls
    for cls in (CardDealt, CardExposed, CardBurned, CardsDiscarded, CardReplaced, SeatFolded, CardsShown,
                ButtonMoved, CardsGathered)
}


def event_from_dict(data: dict[str, Any]) -> TableEvent:
    """Rebuild an event from `to_dict` output; a bad record gets a one-line error."""
    kind = data.get("kind")
    cls = EVENT_TYPES.get(str(kind))
    if cls is None:
        raise DealerAssistError(f"unknown table event kind {kind!r}; accepted: {', '.join(sorted(EVENT_TYPES))}")
    kwargs: dict[str, Any] = {}
    for f in fields(cls):
        if f.name not in data:
            continue
        value = data[f.name]
        if f.name == "card":
            value = None if value is None else parse_card(value)
        elif f.name == "cards":
            value = tuple(parse_card(v) for v in value)
        elif f.name == "entered" and not isinstance(value, bool):
            raise DealerAssistError(f"bad {kind} event: entered must be true or false, got {value!r}")
        kwargs[f.name] = value
    try:
        return cls(**kwargs)
    except TypeError as exc:
        raise DealerAssistError(f"bad {kind} event {data!r}: {exc}") from None
