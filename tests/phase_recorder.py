"""A pipeline stand-in for tests: records the phase hints it is given."""

from __future__ import annotations

from collections.abc import Iterable

from dealer_assist.vision.tracker import PhaseHint


class Recorder:
    """Stands in for a pipeline: records the hints it is given."""

    def __init__(self) -> None:
        self.calls: list[PhaseHint] = []

    def set_phase(self, phase: str | None, *, as_of: float | None = None, folded: Iterable[int] = ()) -> None:
        self.calls.append(PhaseHint(phase, as_of, frozenset(folded)))
