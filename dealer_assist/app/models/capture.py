"""Capture off the GUI thread with a slot of one: the view polls the latest frame, stale frames drop.

`CaptureThread` reads any `FrameSource` at its own pace; `LatestFrame` keeps only the newest frame.
A source that fails is reopened after a pause (the `status` says so, for the window's banner), so
a camera that disconnects never crashes the app. `SyntheticSource` makes frames from numpy only,
for the demo, the benchmarks and tests.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

import numpy as np

from dealer_assist.store.sink import HeldFrame
from dealer_assist.vision.frames import Frame, FrameSource, SourceError


def colour_image(image: object) -> bool:
    """Whether a frame's image is what the view and the pipeline take: H x W x 3 bytes (BGR)."""
    return (isinstance(image, np.ndarray) and image.dtype == np.uint8 and image.ndim == 3 and image.shape[2] == 3
            and image.shape[0] > 0 and image.shape[1] > 0)


class LatestFrame:
    """A thread-safe slot holding the newest frame; `take_new` gives it once, then None until replaced."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._frame: Frame | None = None
        self._fresh = False
        self.dropped = 0
        self.delivered = 0

    def put(self, frame: Frame) -> None:
        with self._lock:
            if self._fresh:
                self.dropped += 1
            self._frame = frame
            self._fresh = True

    def take_new(self) -> Frame | None:
        with self._lock:
            if not self._fresh:
                return None
            self._fresh = False
            self.delivered += 1
            return self._frame

    def peek(self) -> Frame | None:
        with self._lock:
            return self._frame


class SyntheticSource:
    """An endless felt-green frame with a moving card-sized block; `fps` paces the capture thread."""

    def __init__(self, width: int = 1280, height: int = 720, fps: float = 30.0, frames: int | None = None) -> None:
        self.width, self.height, self._fps, self.limit = width, height, fps, frames
        self._index = 0
        self._base = np.empty((height, width, 3), np.uint8)
        self._base[:] = (40, 90, 30)  # BGR felt; the live overlay draws the table's zones over it

    @property
    def name(self) -> str:
        return "simulated table"

    @property
    def fps(self) -> float:
        return self._fps

    def read(self) -> Frame | None:
        if self.limit is not None and self._index >= self.limit:
            return None
        image = self._base.copy()
        x = int((self._index * 9) % (self.width - 60))
        y = int(self.height / 2 + np.sin(self._index / 15) * self.height / 4)
        image[y : y + 84, x : x + 60] = (245, 245, 245)
        frame = Frame(image, self._index / self._fps, self._index)
        self._index += 1
        return frame

    def close(self) -> None:
        pass


class CaptureThread(threading.Thread):
    """Reads frames into a LatestFrame; reopens a failed source with `reopen` after `retry_s`."""

    def __init__(
        self,
        source: FrameSource,
        slot: LatestFrame,
        reopen: Callable[[], FrameSource] | None = None,
        retry_s: float = 1.0,
        pace: bool = True,
    ) -> None:
        super().__init__(name="capture", daemon=True)
        self.source = source
        self.slot = slot
        self.reopen = reopen
        self.retry_s = retry_s
        self.pace = pace
        self._halt = threading.Event()
        self.status = "running"
        self.error: str | None = None
        self.frames = 0

    def stop(self) -> None:
        self._halt.set()

    def run(self) -> None:
        period = 1.0 / self.source.fps if self.source.fps > 0 else 0.0
        next_at = time.perf_counter()
        while not self._halt.is_set():
            try:
                frame = self.source.read()
            except (SourceError, OSError) as exc:
                self.error = f"{self.source.name}: {exc}"
                if not self._reconnect():
                    return
                continue
            if frame is None:
                self.status = "ended"
                return
            self.slot.put(frame)
            self.frames += 1
            if self.pace and period:
                next_at += period
                delay = next_at - time.perf_counter()
                if delay > 0:
                    self._halt.wait(delay)
                else:
                    next_at = time.perf_counter()
        self.source.close()
        self.status = "stopped"

    def _reconnect(self) -> bool:
        if self.reopen is None:
            self.status = "failed"
            return False
        while not self._halt.is_set():
            self.status = "reconnecting"
            self._halt.wait(self.retry_s)
            try:
                self.source = self.reopen()
            except (SourceError, OSError) as exc:
                self.error = f"reconnect failed: {exc}"
                continue
            self.status = "running"
            self.error = None
            return True
        return False


class SourceProbe(threading.Thread):
    """One attempt to open a source, off the UI thread: a stream's open can block for many seconds (FFmpeg's own
    timeout), a camera's for a second or two. The window polls `done`, then `take()`s the source (None: it did not
    open, `error` says why). A probe `cancel()`led before or after it opened closes what it opened: nothing leaks."""

    def __init__(self, spec: str, opener: Callable[[str], FrameSource]) -> None:
        super().__init__(name="source-probe", daemon=True)
        self.spec = spec
        self.error: str | None = None
        self.done = threading.Event()
        self._opener = opener
        self._source: FrameSource | None = None
        self._cancelled = False
        self._lock = threading.Lock()

    def run(self) -> None:
        source: FrameSource | None = None
        try:
            source = self._opener(self.spec)
        except (SourceError, OSError) as exc:
            self.error = str(exc) or type(exc).__name__
        except Exception as exc:  # anything else (a cv2.error) is one more failed attempt too, named by its type
            self.error = f"{type(exc).__name__}: {exc}"
        with self._lock:
            if self._cancelled and source is not None:
                source.close()
                source = None
            self._source = source
        self.done.set()

    def take(self) -> FrameSource | None:
        """The opened source, handed over once (None: not opened, or already taken, or cancelled)."""
        with self._lock:
            source, self._source = self._source, None
            return source

    def cancel(self) -> None:
        """No longer wanted: a source already opened is closed now, one still opening is closed when it opens."""
        with self._lock:
            self._cancelled = True
            source, self._source = self._source, None
        if source is not None:
            source.close()


class FrameRing:
    """The last `size` frames, shrunk to `width` px wide, by frame index: the picture behind a flag.

    Written by the vision thread, read by the UI when a flag is clicked; a lock keeps the two apart.
    """

    def __init__(self, size: int = 150, width: int = 480) -> None:
        self.size = size
        self.width = width
        self._frames: dict[int, np.ndarray] = {}
        self._times: dict[int, float] = {}
        self._order: list[int] = []
        self._lock = threading.Lock()

    def add(self, frame: Frame) -> None:
        image = frame.image
        step = max(1, image.shape[1] // self.width)
        small = np.ascontiguousarray(image[::step, ::step])  # nearest-neighbour shrink: cheap, no cv2
        with self._lock:
            self._frames[frame.index] = small
            self._times[frame.index] = frame.t
            self._order.append(frame.index)
            while len(self._order) > self.size:
                gone = self._order.pop(0)
                self._frames.pop(gone, None)
                self._times.pop(gone, None)

    def nearest(self, index: int | None, t: float | None = None) -> HeldFrame | None:
        """For the hand log's key frames: frame `index` (else the one nearest time `t`, else the newest) if kept,
        else the nearest one kept, named by its own index and time."""
        with self._lock:
            if not self._order:
                return None
            if index is not None:
                at = min(self._order, key=lambda i: (abs(i - index), -i))
            elif t is not None:
                at = min(self._order, key=lambda i: (abs(self._times[i] - t), -i))
            else:
                at = self._order[-1]
            return HeldFrame(at, self._times[at], self._frames[at])

    def get(self, index: int | None) -> np.ndarray | None:
        """The frame with this index, else the nearest one kept (None when nothing is near)."""
        if index is None:
            return None
        with self._lock:
            if index in self._frames:
                return self._frames[index]
            if not self._order:
                return None
            nearest = min(self._order, key=lambda i: abs(i - index))
            return self._frames[nearest] if abs(nearest - index) <= 15 else None
