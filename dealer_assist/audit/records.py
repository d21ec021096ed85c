"""Records the referee exchanges with the dealer, the hand log and the app: actions, flags, prompts."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Literal

from dealer_assist.errors import DealerAssistError

ActionKind = Literal["fold", "check", "call", "bet", "raise"]
ACTION_KINDS: tuple[ActionKind, ...] = ("fold", "check", "call", "bet", "raise")


class Severity(Enum):
    """How urgently the floor must look: info is recorded only, warning asks the dealer, misdeal stops play."""

    INFO = "info"
    WARNING = "warning"
    ERROR = "error"
    MISDEAL = "misdeal"


class FlagKind(Enum):
    """Every kind of flag the referee raises (issue 4, section 1)."""

    WRONG_CARD_COUNT = "wrong_card_count"
    CARD_TO_WRONG_SEAT = "card_to_wrong_seat"
    SEAT_SKIPPED = "seat_skipped"
    CARD_EXPOSED = "card_exposed"
    REPLACEMENTS_MISMATCH = "replacements_mismatch"
    DRAW_OUT_OF_ORDER = "draw_out_of_order"
    DISCARD_RETURNED = "discard_returned"
    ACTION_OUT_OF_TURN = "action_out_of_turn"
    ACTION_MISSING = "action_missing"
    WRONG_BET_SIZE = "wrong_bet_size"
    ILLEGAL_ACTION = "illegal_action"
    FOLD_OUT_OF_ORDER = "fold_out_of_order"
    SHOW_OUT_OF_ORDER = "show_out_of_order"
    UNEXPECTED_EVENT = "unexpected_event"


@dataclass(frozen=True, slots=True)
class DealerAction:
    """A betting action entered by the dealer (or a fold seen by the camera). `amount` is the total bet to."""

    seat: int
    action: ActionKind
    amount: int | None = None
    t: float = 0.0
    source: Literal["dealer", "vision"] = "dealer"

    def __post_init__(self) -> None:
        if self.action not in ACTION_KINDS:
            raise DealerAssistError(f"unknown action {self.action!r}; accepted: {', '.join(ACTION_KINDS)}")
        if self.action in ("bet", "raise") and (self.amount is None or self.amount <= 0):
            raise DealerAssistError(f"a {self.action} needs a positive amount (the total bet to), got {self.amount}")

    @property
    def words(self) -> str:
        """The entry as a flag message names it: "call", "raise to 8"."""
        return self.action if self.amount is None else f"{self.action} to {self.amount}"

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "action": self.action, "amount": self.amount, "t": self.t, "source": self.source}


@dataclass(frozen=True, slots=True)
class Flag:
    """A rule the table broke: what, where, when, and which rule and house option say so."""

    kind: FlagKind
    severity: Severity
    seat: int | None
    rule: str
    option: str | None
    message: str
    t: float
    frame: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind.value, "severity": self.severity.value, "seat": self.seat, "rule": self.rule,
            "option": self.option, "message": self.message, "t": self.t, "frame": self.frame,
        }


@dataclass(frozen=True, slots=True)
class LegalAction:
    """One action the actor may take now; bets and raises carry the inclusive range of totals."""

    action: ActionKind
    min_amount: int | None = None
    max_amount: int | None = None


@dataclass(frozen=True, slots=True)
class Prompt:
    """What the dealer needs to know now: the phase, who acts, what is legal, where the next card goes."""

    phase: str
    actor: int | None = None
    legal: tuple[LegalAction, ...] = ()
    next_card_seat: int | None = None
    replacements_owed: dict[int, int] = field(default_factory=dict)
    stub_count: int | None = None
    reshuffle_needed: bool = False
    message: str = ""
