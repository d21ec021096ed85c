"""Where the referee's records go as they happen: a sink (the hand log adapter, the app, a test recorder)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from dealer_assist.audit.outputs import Correction, HandEnded, HandStart, Output
from dealer_assist.audit.records import DealerAction
from dealer_assist.vision.events import TableEvent


class RefereeSink(Protocol):
    """Receives every referee record in order; a hand's records come between its start and its end."""

    def hand_started(self, start: HandStart) -> None: ...

    def recorded(self, hand: int, index: int, item: TableEvent | DealerAction, phase: str) -> None:
        """An input of hand `hand` (its `index`-th), before what it caused; `phase` is the hand's phase then."""

    def output(self, hand: int, out: Output, number: int | None) -> None:
        """A flag (with its `number` in the hand), an award or a key moment."""

    def corrected(self, hand: int, correction: Correction) -> None: ...

    def hand_ended(self, end: HandEnded) -> None: ...


class NullSink:
    """Drops everything (replays, rebuilds)."""

    def hand_started(self, start: HandStart) -> None:
        pass

    def recorded(self, hand: int, index: int, item: TableEvent | DealerAction, phase: str) -> None:
        pass

    def output(self, hand: int, out: Output, number: int | None) -> None:
        pass

    def corrected(self, hand: int, correction: Correction) -> None:
        pass

    def hand_ended(self, end: HandEnded) -> None:
        pass


@dataclass
class RecordingSink:
    """Keeps every record as a tuple, in order (tests compare two runs with it)."""

    records: list[tuple[object, ...]] = field(default_factory=list)

    def hand_started(self, start: HandStart) -> None:
        self.records.append(("start", start))

    def recorded(self, hand: int, index: int, item: TableEvent | DealerAction, phase: str) -> None:
        self.records.append(("input", hand, index, item, phase))

    def output(self, hand: int, out: Output, number: int | None) -> None:
        self.records.append(("output", hand, out, number))

    def corrected(self, hand: int, correction: Correction) -> None:
        self.records.append(("correction", hand, correction))

    def hand_ended(self, end: HandEnded) -> None:
        self.records.append(("end", end))
