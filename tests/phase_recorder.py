"""Phase hints in tests: a pipeline stand-in that records them, and a spy on the real Pipeline."""

from __future__ import annotations

from collections.abc import Iterable

import pytest

from dealer_assist.vision.pipeline import Pipeline
from dealer_assist.vision.tracker import PhaseHint


class Recorder:
    """Stands in for a pipeline: records the hints it is given."""

    def __init__(self) -> None:
        self.calls: list[PhaseHint] = []

    def set_phase(self, phase: str | None, *, as_of: float | None = None, folded: Iterable[int] = (),
                  drawing: Iterable[int] = (), drawn: Iterable[int] = ()) -> None:
        self.calls.append(PhaseHint(phase, as_of, frozenset(folded), frozenset(drawing), frozenset(drawn)))


def spy_on_pipelines(monkeypatch: pytest.MonkeyPatch) -> list[PhaseHint]:
    """Every hint any Pipeline is given (on whichever thread), still passed on to its tracker."""
    calls: list[PhaseHint] = []
    forward = Pipeline.set_phase

    def spy(self: Pipeline, phase: str | None, *, as_of: float | None = None, folded: Iterable[int] = (),
            drawing: Iterable[int] = (), drawn: Iterable[int] = ()) -> None:
        calls.append(PhaseHint(phase, as_of, frozenset(folded), frozenset(drawing), frozenset(drawn)))
        forward(self, phase, as_of=as_of, folded=folded, drawing=drawing, drawn=drawn)

    monkeypatch.setattr(Pipeline, "set_phase", spy)
    return calls
