"""Phase hints in tests: a pipeline stand-in that records them, and a spy on the real Pipeline."""

from __future__ import annotations

import pytest

from dealer_assist.vision.pipeline import Pipeline
from dealer_assist.vision.tracker import PhaseHint


class Recorder:
    """Stands in for a pipeline: records the hints it is given."""

    def __init__(self) -> None:
        self.calls: list[PhaseHint] = []

    def set_hint(self, hint: PhaseHint) -> None:
        self.calls.append(hint)


def spy_on_pipelines(monkeypatch: pytest.MonkeyPatch) -> list[PhaseHint]:
    """Every hint any Pipeline is given (on whichever thread), still passed on to its tracker."""
    calls: list[PhaseHint] = []
    forward = Pipeline.set_hint

    def spy(self: Pipeline, hint: PhaseHint) -> None:
        calls.append(hint)
        forward(self, hint)

    monkeypatch.setattr(Pipeline, "set_hint", spy)
    return calls
