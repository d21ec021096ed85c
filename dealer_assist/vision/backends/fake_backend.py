"""A detector with no model: returns the detections it was given, for tests of the pipeline."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from dealer_assist.vision.detections import Detections


class FakeDetector:
    """Returns scripted detections: one fixed `Detections`, a sequence played in order (the last one
    repeats), or a function of the image. Counts its calls in `calls`."""

    reads_image = False
    """Its detections are given, not found in the frame, so a frame of any size (a placeholder) will do."""

    name = "fake"

    def __init__(
        self,
        detections: Detections | Sequence[Detections] | Callable[[npt.NDArray[np.uint8]], Detections] | None = None,
        **_: Any,
    ) -> None:
        self._fn: Callable[[npt.NDArray[np.uint8]], Detections] | None = None
        self._queue: list[Detections] = []
        if detections is None:
            self._queue = [Detections.empty()]
        elif isinstance(detections, Detections):
            self._queue = [detections]
        elif callable(detections):
            self._fn = detections
        else:
            self._queue = list(detections) or [Detections.empty()]
        self.calls = 0

    @classmethod
    def from_labels(cls, objects: Iterable[tuple[str, Sequence[float]]]) -> FakeDetector:
        """From (label, box x0 y0 x1 y1) pairs, e.g. [("Ah", (10, 10, 30, 40)), ("button", (...))]."""
        items = list(objects)
        return cls(Detections.from_labels([label for label, _ in items], [list(box) for _, box in items]))

    def detect(self, image: npt.NDArray[np.uint8]) -> Detections:
        self.calls += 1
        if self._fn is not None:
            return self._fn(image)
        index = min(self.calls - 1, len(self._queue) - 1)
        return self._queue[index]
