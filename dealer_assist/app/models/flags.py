"""The flag list as pure state: newest first; the floor accepts or dismisses with a reason and a PIN."""

from __future__ import annotations

import hmac
from dataclasses import dataclass, replace
from typing import Literal

from dealer_assist.app.models.signal import Signal
from dealer_assist.audit.records import Flag, Severity
from dealer_assist.errors import DealerAssistError

Resolution = Literal["open", "accepted", "dismissed"]

SEVERITY_COLOURS: dict[Severity, str] = {
    Severity.INFO: "#8fb8de",
    Severity.WARNING: "#f2c14e",
    Severity.ERROR: "#f28b54",
    Severity.MISDEAL: "#ff5c5c",
}


class PinError(DealerAssistError):
    """A wrong supervisor PIN, or a resolution without a reason."""


@dataclass(frozen=True, slots=True)
class FlagEntry:
    """A flag and what the floor decided about it."""

    id: int
    flag: Flag
    resolution: Resolution = "open"
    reason: str = ""

    def summary(self) -> str:
        seat = f"seat {self.flag.seat} · " if self.flag.seat is not None else ""
        head = f"[{self.flag.severity.value.upper()}] {seat}{self.flag.message}"
        if self.resolution != "open":
            head += f"  — {self.resolution} ({self.reason})"
        return head

    def detail(self) -> str:
        f = self.flag
        option = f"; house option {f.option}" if f.option else ""
        frame = f"; frame {f.frame}" if f.frame is not None else ""
        return f"{f.kind.value}: rule {f.rule}{option}; at t={f.t:.2f}s{frame}"


class FlagListModel:
    """Emits `changed()` whenever a flag is added or resolved; `resolved(entry)` after a resolution."""

    def __init__(self, pin: str = "0000") -> None:
        self._pin = pin
        self._entries: list[FlagEntry] = []
        self.changed = Signal()
        self.resolved = Signal()

    def set_pin(self, pin: str) -> None:
        self._pin = pin

    def add(self, flag: Flag) -> FlagEntry:
        entry = FlagEntry(len(self._entries), flag)
        self._entries.append(entry)
        self.changed.emit()
        return entry

    def clear(self) -> None:
        self._entries.clear()
        self.changed.emit()

    @property
    def entries(self) -> tuple[FlagEntry, ...]:
        """Newest first (by timestamp, then by arrival)."""
        return tuple(sorted(self._entries, key=lambda e: (e.flag.t, e.id), reverse=True))

    def entry(self, entry_id: int) -> FlagEntry:
        return self._entries[entry_id]

    def check_pin(self, pin: str) -> bool:
        return hmac.compare_digest(pin.encode(), self._pin.encode())

    def settle(self, entry_id: int, resolution: Resolution, reason: str) -> FlagEntry:
        """The referee's own ruling on its flag (a later event disproved it): shown like the floor's, with no PIN, and
        not passed back as the floor's (`resolved` is not emitted)."""
        entry = replace(self._entries[entry_id], resolution=resolution, reason=reason)
        self._entries[entry_id] = entry
        self.changed.emit()
        return entry

    def resolve(self, entry_id: int, resolution: Resolution, reason: str, pin: str) -> FlagEntry:
        """Accept or dismiss a flag; raises PinError for a wrong PIN or an empty reason (nothing changes)."""
        if resolution not in ("accepted", "dismissed"):
            raise PinError(f"a flag is accepted or dismissed, not {resolution!r}")
        if not self.check_pin(pin):
            raise PinError("wrong supervisor PIN; the flag is unchanged")
        if not reason.strip():
            raise PinError(f"say why the flag is {resolution}; the reason is recorded")
        entry = replace(self._entries[entry_id], resolution=resolution, reason=reason.strip())
        self._entries[entry_id] = entry
        self.changed.emit()
        self.resolved.emit(entry)
        return entry
