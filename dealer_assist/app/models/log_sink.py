"""The referee's hand-log sink, guarded: a log that stops being writable (a full disk, a removed drive, a locked
file) must not stop the referee, and must be said once, in one line.

The store's `HandLogSink` raises what SQLite or the disk raised; raised inside `Referee.feed`, that stopped the
events released with it from being refereed and reached the window as an "internal error". `GuardedSink` passes
each record on until the first failure, then keeps the referee going without the log and calls `on_failure` with
the line to show. What was committed before stays in the log (each record is its own transaction).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

from dealer_assist.audit.outputs import Correction, HandEnded, HandStart, Output
from dealer_assist.audit.records import DealerAction
from dealer_assist.audit.sink import RefereeSink
from dealer_assist.errors import DealerAssistError
from dealer_assist.vision.events import TableEvent

WRITE_ERRORS = (DealerAssistError, OSError, sqlite3.Error)  # what writing the hand log raises when it cannot


class GuardedSink:
    """Passes the referee's records to `inner` until one fails; then drops the rest and says why with `on_failure`."""

    def __init__(self, inner: RefereeSink, path: Path | str, on_failure: Callable[[str], None]) -> None:
        self.inner = inner
        self.path = path
        self.on_failure = on_failure
        self.error: str | None = None

    def _pass(self, write: Callable[[], None]) -> None:
        if self.error is not None:
            return
        try:
            write()
        except WRITE_ERRORS as exc:
            self.error = str(exc) or type(exc).__name__
            self.on_failure(f"The hand log {self.path} cannot be written ({self.error}): hands are no longer "
                            "recorded; everything recorded before is kept. Free the disk or fix the file, then "
                            "restart recording from Settings.")

    def hand_started(self, start: HandStart) -> None:
        self._pass(lambda: self.inner.hand_started(start))

    def recorded(self, hand: int, index: int, item: TableEvent | DealerAction, phase: str) -> None:
        self._pass(lambda: self.inner.recorded(hand, index, item, phase))

    def output(self, hand: int, out: Output, number: int | None) -> None:
        self._pass(lambda: self.inner.output(hand, out, number))

    def corrected(self, hand: int, correction: Correction) -> None:
        self._pass(lambda: self.inner.corrected(hand, correction))

    def hand_ended(self, end: HandEnded) -> None:
        self._pass(lambda: self.inner.hand_ended(end))
