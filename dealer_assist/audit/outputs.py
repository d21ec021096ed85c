"""What the referee hands out besides flags: hand starts and ends, awards, key moments, corrections."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from dealer_assist.audit.records import DealerAction, Flag
from dealer_assist.cards import Card
from dealer_assist.rules.awards import Award
from dealer_assist.rules.house_rules import HouseRules
from dealer_assist.vision.events import TableEvent

CorrectionKind = Literal["misread_card", "void_hand", "accept_flag", "dismiss_flag", "note"]
EndStatus = Literal["complete", "misdeal", "void", "incomplete"]


@dataclass(frozen=True, slots=True)
class HandStart:
    """A new deal: its number at this referee, the button, each seat's chips and the house rules; `camera`: refereed
    as a camera's table (`TableConfig.camera`), which the hand log keeps so that the hand can be refereed again."""

    number: int
    button: int
    stacks: tuple[tuple[int, int], ...]
    rules: HouseRules
    t: float
    frame: int | None
    camera: bool = False

    @property
    def stacks_by_seat(self) -> dict[int, int]:
        return dict(self.stacks)


@dataclass(frozen=True, slots=True)
class HandEnded:
    """How a deal ended: complete (awarded), misdeal or void (floor), incomplete (the recording stopped)."""

    number: int
    status: EndStatus
    reason: str | None
    t: float


@dataclass(frozen=True, slots=True)
class AwardMade:
    """The pots were awarded (`award` says who gets what and why); uncontested when all others folded.

    pending: the numbers of the hand's error and misdeal flags the floor had not resolved when the award was made.
    The referee follows the table past them, so such an award is provisional: the floor decides whether the hand
    stands (dismiss or accept the flag and play on) or not (void it, or declare a misdeal: chips go back).
    """

    award: Award
    uncontested: bool
    t: float
    frame: int | None
    pending: tuple[int, ...] = ()

    @property
    def provisional(self) -> bool:
        return bool(self.pending)


@dataclass(frozen=True, slots=True)
class KeyMoment:
    """A moment worth a key frame in the log: "deal complete", "draw 1", ..., "showdown"."""

    label: str
    t: float
    frame: int | None


REFEREE_BY = "the referee"
"""Who made a correction the referee made itself (a flag a keyed-in shown hand settled), not the floor."""

FLAG_RULINGS: dict[str, Literal["accepted", "dismissed"]] = {"accept_flag": "accepted", "dismiss_flag": "dismissed"}
"""The corrections that rule on a flag, and the word for each ruling."""


@dataclass(frozen=True, slots=True)
class Correction:
    """A floor decision, recorded as a new input (nothing seen is overwritten).

    misread_card: `target` is the index of the hand's input whose card was misread, `card` what it
    really was (`was`: which card of a multi-card event). accept_flag / dismiss_flag: `target` is the
    flag's number in the hand. void_hand: ends the hand with `status` ("void" or "misdeal").
    """

    kind: CorrectionKind
    reason: str
    by: str
    target: int | None = None
    card: Card | None = None
    was: Card | None = None
    status: EndStatus | None = None
    t: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "reason": self.reason, "by": self.by, "target": self.target,
                "card": None if self.card is None else str(self.card),
                "was": None if self.was is None else str(self.was), "status": self.status, "t": self.t}


RefereeInput = TableEvent | DealerAction | Correction
Output = Flag | AwardMade | KeyMoment
