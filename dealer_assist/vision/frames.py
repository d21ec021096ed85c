"""Frames and the one interface every frame source (camera, stream, video file, simulated table) meets."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

from dealer_assist.errors import DealerAssistError


class SourceError(DealerAssistError):
    """A frame source that cannot be opened, or that vanished mid-stream."""


@dataclass(frozen=True, slots=True)
class Frame:
    """One BGR image with its timestamp (seconds from the source's start) and index in the source."""

    image: npt.NDArray[np.uint8]
    t: float
    index: int


@runtime_checkable
class FrameSource(Protocol):
    """Yields frames in order; `read()` returns None at the end of a finite source."""

    @property
    def name(self) -> str: ...

    @property
    def fps(self) -> float: ...

    def read(self) -> Frame | None: ...

    def close(self) -> None: ...
