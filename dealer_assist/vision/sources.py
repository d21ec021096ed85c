"""Frame sources: camera index, stream URL and video file through cv2.VideoCapture, plus in-memory frames.

`open_source(spec)` picks one from a spec string ("0", "rtsp://...", "hand.mp4", "sim:..."). Schemes
that live in higher layers (the simulated table is in `synth`) are added with `register_source`, so
vision never imports them. `LatestFrameReader` runs a source on its own thread with a queue of one:
the consumer always gets the newest frame and stale ones are dropped, never queued.
"""

from __future__ import annotations

import os
import re
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

from dealer_assist.vision.frames import Frame, FrameSource, SourceError

# FFmpeg (inside OpenCV) prints every broken packet of a damaged video on stderr, hundreds of lines before the one
# that says the file is corrupt; OpenCV reads this level once, when the first video opens. Set it to see them.
os.environ.setdefault("OPENCV_FFMPEG_LOGLEVEL", "-8")   # AV_LOG_QUIET

SourceFactory = Callable[[str], FrameSource]
_FACTORIES: dict[str, SourceFactory] = {}
STREAM_SCHEMES = ("rtsp://", "rtsps://", "rtmp://", "http://", "https://", "udp://", "tcp://")
VIDEO_SUFFIXES = (".mp4", ".avi", ".mkv", ".mov", ".m4v", ".webm", ".mpg", ".mpeg", ".wmv")


def register_source(scheme: str, factory: SourceFactory) -> None:
    """Let `open_source("<scheme>:rest")` build a source with `factory("rest")` (the CLI registers "sim")."""
    _FACTORIES[scheme.lower()] = factory


def registered_schemes() -> list[str]:
    """Schemes added with `register_source`."""
    return sorted(_FACTORIES)


_CAMERA_RE = re.compile(r"^(\d+)(?:@(\d+)x(\d+))?$")


def open_source(spec: str) -> FrameSource:
    """A frame source from "0" or "0@1920x1080" (camera index, optional capture size), "rtsp://..."
    (stream), "file.mp4" (video) or "scheme:..." (a registered source, e.g. the simulated table)."""
    text = spec.strip()
    if not text:
        raise SourceError("empty source; accepted: a camera index (0, 0@1920x1080), a stream URL (rtsp://...), "
                          "a video file, or sim:...")
    camera = _CAMERA_RE.match(text)
    if camera:
        index, w, h = camera.groups()
        return CaptureSource(int(index), size=(int(w), int(h)) if w else None)
    lower = text.lower()
    if lower.startswith(STREAM_SCHEMES):
        return CaptureSource(text)
    scheme, sep, rest = text.partition(":")
    if sep and scheme.lower() in _FACTORIES:
        return _FACTORIES[scheme.lower()](rest)
    if sep and len(scheme) > 1 and not Path(text).exists() and scheme.isalpha():
        known = ", ".join(registered_schemes()) or "none registered"
        raise SourceError(f"unknown source scheme {scheme!r} in {spec!r}; registered schemes: {known}")
    return CaptureSource(Path(text))


@contextmanager
def quiet_video_logs() -> Iterator[None]:
    """OpenCV's own log silenced for the block: a video that cannot be opened or read is said once, by our error."""
    level = cv2.utils.logging.getLogLevel()
    cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_SILENT)
    try:
        yield
    finally:
        cv2.utils.logging.setLogLevel(level)


class CaptureSource:
    """A camera (int index), a stream (URL) or a video file (Path) read with cv2.VideoCapture.

    Finite files end with `read() -> None`; a camera that stops answering raises SourceError. A single
    frame that fails to decode is skipped and counted in `skipped`; `max_bad_frames` in a row is an error.
    """

    def __init__(self, target: int | str | Path, *, max_bad_frames: int = 30, fps: float | None = None,
                 size: tuple[int, int] | None = None) -> None:
        self._target = target
        self._is_file = isinstance(target, Path)
        self._name = f"camera {target}" if isinstance(target, int) else str(target)
        if isinstance(target, Path) and target.is_dir():
            raise SourceError(f"{str(target)!r} is a folder; accepted: a video file ({', '.join(VIDEO_SUFFIXES)}), "
                              "a camera index or a stream URL")
        if isinstance(target, Path) and not target.is_file():
            raise SourceError(f"video file {str(target)!r} not found")
        with quiet_video_logs():
            cap = cv2.VideoCapture(target if isinstance(target, int) else str(target))
        if not cap.isOpened():
            cap.release()
            what = "camera" if isinstance(target, int) else ("video file" if self._is_file else "stream")
            raise SourceError(f"cannot open {what} {self._name!r}" +
                              (" (not a video OpenCV can decode)" if self._is_file else " (not connected?)"))
        if size is not None and isinstance(target, int):   # ask the camera for this capture size
            cap.set(cv2.CAP_PROP_FRAME_WIDTH, float(size[0]))
            cap.set(cv2.CAP_PROP_FRAME_HEIGHT, float(size[1]))
        self._cap = cap
        reported = float(cap.get(cv2.CAP_PROP_FPS) or 0.0)
        self._fps = fps or (reported if 1.0 <= reported <= 240.0 else 30.0)
        self._frame_count = int(cap.get(cv2.CAP_PROP_FRAME_COUNT) or 0) if self._is_file else 0
        self._index = 0
        self._start = time.monotonic()
        self._max_bad = max_bad_frames
        self.skipped = 0
        self._closed = False

    @property
    def name(self) -> str:
        return self._name

    @property
    def fps(self) -> float:
        return self._fps

    def read(self) -> Frame | None:
        """The next frame; None at the end of a file; SourceError if the camera or stream vanished."""
        if self._closed:
            raise SourceError(f"{self._name}: read after close")
        bad = 0
        while True:
            try:
                ok, image = self._cap.read()
            except cv2.error:  # a backend that throws on a broken frame instead of returning False
                ok, image = False, None
            index = self._index
            self._index += 1
            if ok and _valid_image(image):
                t = index / self._fps if self._is_file else time.monotonic() - self._start
                return Frame(np.ascontiguousarray(image, dtype=np.uint8), t, index)
            if self._is_file and not ok and (self._frame_count <= 0 or index >= self._frame_count - 1):
                return None                                     # the end of the file
            bad += 1
            self.skipped += 1
            if bad >= self._max_bad:
                if self._is_file and index >= 0.95 * self._frame_count:
                    return None                                 # the container over-counted its frames
                why = "the file is corrupt" if self._is_file else "the camera or stream vanished"
                raise SourceError(f"{self._name}: {bad} frames in a row could not be read from frame "
                                  f"{index - bad + 1} ({why})")
            if self._is_file and not ok:
                self._cap.set(cv2.CAP_PROP_POS_FRAMES, index + 1)   # step over the broken frame
            elif not self._is_file:
                time.sleep(0.01)

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            self._cap.release()


def _valid_image(image: object) -> bool:
    return (isinstance(image, np.ndarray) and image.ndim == 3 and image.shape[2] == 3
            and image.shape[0] > 0 and image.shape[1] > 0)


class FramesSource:
    """Frames from memory (tests, replays): images with timestamps at `fps`, or ready-made Frames."""

    def __init__(self, frames: Iterable[Frame | npt.NDArray[np.uint8]], fps: float = 30.0,
                 name: str = "frames") -> None:
        self._iter: Iterator[Frame | npt.NDArray[np.uint8]] = iter(frames)
        self._fps = fps
        self._name = name
        self._index = 0

    @property
    def name(self) -> str:
        return self._name

    @property
    def fps(self) -> float:
        return self._fps

    def read(self) -> Frame | None:
        item = next(self._iter, None)
        if item is None:
            return None
        frame = item if isinstance(item, Frame) else Frame(item, self._index / self._fps, self._index)
        self._index = frame.index + 1
        return frame

    def close(self) -> None:
        self._iter = iter(())


def iter_frames(source: FrameSource) -> Iterator[Frame]:
    """Every frame of a source until it ends (closing it afterwards)."""
    try:
        while (frame := source.read()) is not None:
            yield frame
    finally:
        source.close()


class LatestFrameReader:
    """Reads a source on a background thread, keeping only the newest frame (a queue of one).

    The GUI polls `latest()` on a timer; frames it did not take in time are dropped and counted.
    An error on the capture thread is re-raised (as SourceError) by the next `latest()` or `read()`.
    """

    def __init__(self, source: FrameSource, *, pace: bool = False) -> None:
        self._source = source
        self._pace = pace
        self._cond = threading.Condition()
        self._frame: Frame | None = None
        self._error: SourceError | None = None
        self._ended = False
        self._stop = threading.Event()
        self.dropped = 0
        self.delivered = 0
        self._thread = threading.Thread(target=self._run, name=f"capture:{source.name}", daemon=True)
        self._thread.start()

    @property
    def name(self) -> str:
        return self._source.name

    @property
    def fps(self) -> float:
        return self._source.fps

    @property
    def ended(self) -> bool:
        """True once the source has ended and its last frame was taken."""
        with self._cond:
            return self._ended and self._frame is None

    def _run(self) -> None:
        period = 1.0 / self._source.fps if self._pace and self._source.fps > 0 else 0.0
        next_due = time.monotonic()
        try:
            while not self._stop.is_set():
                frame = self._source.read()
                if frame is None:
                    break
                with self._cond:
                    if self._frame is not None:
                        self.dropped += 1
                    self._frame = frame
                    self._cond.notify_all()
                if period:
                    next_due += period
                    time.sleep(max(0.0, next_due - time.monotonic()))
        except SourceError as exc:
            with self._cond:
                self._error = exc
        except Exception as exc:  # never let a capture thread die with a traceback
            with self._cond:
                self._error = SourceError(f"{self._source.name}: {type(exc).__name__}: {exc}")
        finally:
            with self._cond:
                self._ended = True
                self._cond.notify_all()

    def latest(self) -> Frame | None:
        """The newest frame not yet taken, or None if none arrived since the last call (never blocks)."""
        with self._cond:
            if self._error is not None and self._frame is None:
                raise self._error
            frame, self._frame = self._frame, None
            if frame is not None:
                self.delivered += 1
            return frame

    def read(self, timeout: float | None = None) -> Frame | None:
        """Block until a new frame (newest wins); None when the source has ended or `timeout` passed."""
        with self._cond:
            self._cond.wait_for(lambda: self._frame is not None or self._ended or self._error is not None, timeout)
        return self.latest()

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=2.0)
        self._source.close()

    def __enter__(self) -> LatestFrameReader:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
