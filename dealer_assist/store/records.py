"""Frozen records the hand log hands out: references to written rows and the rows read back."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from dealer_assist.vision.events import TableEvent, event_from_dict

HandStatus = Literal["complete", "misdeal", "void", "incomplete"]
HAND_STATUSES: tuple[HandStatus, ...] = ("complete", "misdeal", "void", "incomplete")

CorrectionKind = Literal["misread_card", "void_hand", "accept_flag", "dismiss_flag", "note", "shown_hand",
                         "mucked_hand", "false_event", "missed_event", "award"]
# What each correction kind may point at. After a hand has ended, `shown_hand` is a hand the floor read that the camera
# did not (data {"seat": N, "cards": "Ah 2c 3d 4s"}), `mucked_hand` a seat the floor saw muck at the showdown (data
# {"seat": N}; the camera took it for a hand turned up, say), `false_event` an event the camera reported that did not
# happen (a glare taken for a card, say; target the event), `missed_event` an event that happened and the camera did
# not report (a replacement pitched under the dealer's hand, say; data {"event": the event as `TableEvent.to_dict`}),
# and `award` the floor's award of the hand refereed again with the floor's corrections (`store.floor_award`; data
# {"award": the award's JSON, "after": [the corrections' ids]}).
CORRECTION_TARGETS: dict[str, str] = {
    "misread_card": "events",
    "void_hand": "hands",
    "accept_flag": "flags",
    "dismiss_flag": "flags",
    "note": "hands",
    "shown_hand": "hands",
    "mucked_hand": "hands",
    "false_event": "events",
    "missed_event": "hands",
    "award": "hands",
}

MISSED_EVENT_KINDS = ("dealt", "exposed", "discarded", "replaced", "folded")
"""The table events the floor can add as `missed_event` (a seat's card, exposure, discard, replacement or fold)."""


def missed_event(data: dict[str, Any]) -> TableEvent:
    """The event a `missed_event` correction's data["event"] holds (no frame: the floor names a time, not a frame);
    a bad one gets `event_from_dict`'s one-line error."""
    return event_from_dict({"frame": None, **data})


@dataclass(frozen=True, slots=True)
class RecordRef:
    """A row just written: its table, id (per table), place in the chain and hash."""

    table: str
    id: int
    seq: int
    hash: str


@dataclass(frozen=True, slots=True)
class HandSummary:
    """One hand as `log list` shows it."""

    id: int
    number: int
    table: str
    dealer: str
    session_id: int
    game: str
    button: int
    seats: dict[int, int]
    started_at: str
    status: str | None
    ended_at: str | None
    flags: int
    pot: int | None = None                  # chips in the pots of the hand's last award; None without an award
    won: dict[int, int] = field(default_factory=dict)   # what each seat won from those pots (winners only)
    floor_award: bool = False               # that award is the floor's (an `award` correction), not the referee's


@dataclass(frozen=True, slots=True)
class StoredEvent:
    """A table event as recorded."""

    id: int
    seq: int
    recorded_at: str
    event: TableEvent


@dataclass(frozen=True, slots=True)
class StoredAction:
    """A betting action as recorded; `source` says whether the dealer entered it or vision saw it."""

    id: int
    seq: int
    recorded_at: str
    seat: int
    action: str
    amount: int | None
    t: float
    frame: int | None
    source: str
    phase: str | None


FLAG_COLUMNS = ("kind", "severity", "seat", "rule", "option", "t", "frame", "message")
"""A flag row's columns from the referee's Flag (`Flag.to_dict`); the row adds its hand and key frame."""


@dataclass(frozen=True, slots=True)
class StoredFlag:
    """A flag as recorded, with the SHA-256 of its key frame if one was saved."""

    id: int
    seq: int
    recorded_at: str
    kind: str
    severity: str
    seat: int | None
    rule: str
    option: str | None
    t: float
    frame: int | None
    message: str
    snapshot: str | None


@dataclass(frozen=True, slots=True)
class StoredAward:
    """A showdown award as recorded: the JSON form of the referee's award and its sentences."""

    id: int
    seq: int
    recorded_at: str
    t: float | None
    award: dict[str, Any]
    explanation: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class StoredCorrection:
    """A floor correction: what it points at (`target_table`, `target_id`), why, and who made it."""

    id: int
    seq: int
    recorded_at: str
    kind: str
    target_table: str
    target_id: int
    data: dict[str, Any]
    reason: str
    by: str
    t: float | None


@dataclass(frozen=True, slots=True)
class StoredSnapshot:
    """A key frame saved beside the database, named by the SHA-256 of its JPEG bytes."""

    id: int
    seq: int
    recorded_at: str
    label: str
    sha256: str
    size: int
    t: float | None
    frame: int | None


@dataclass(frozen=True, slots=True)
class HandEnd:
    """How a hand ended; `incomplete` means the writer stopped (a crash) before ending it."""

    id: int
    seq: int
    status: str
    reason: str | None
    ended_at: str
    t: float | None
    unrefereed: int | None = None
    """How many of the hand's last inputs were recorded without being refereed (held by a live referee when the
    recorder stopped, `store.held`); None or 0 when none were."""


StoredRecord = StoredEvent | StoredAction | StoredFlag | StoredAward | StoredCorrection | StoredSnapshot


@dataclass(frozen=True, slots=True)
class HandStory:
    """Everything recorded about one hand, in the order it was written (by chain sequence). `camera`: refereed as a
    camera's table (True) or strictly (False); None when the log did not say (hands recorded before it kept this).
    `calibration`: the session's camera calibration (TOML text), None where no camera's was recorded."""

    hand: HandSummary
    seq: int
    house_rules: str
    t: float | None
    records: tuple[StoredRecord, ...] = field(default=())
    end: HandEnd | None = None
    camera: bool | None = None
    calibration: str | None = None

    @property
    def unrefereed(self) -> frozenset[int]:
        """The sequence numbers of the inputs recorded without being refereed: the hand's last `end.unrefereed` events
        and actions, which a live referee still held when the recorder stopped (recorded when the log was reopened)."""
        n = self.end.unrefereed if self.end is not None else None
        if not n:
            return frozenset()
        return frozenset([r.seq for r in self.records if isinstance(r, StoredEvent | StoredAction)][-n:])
