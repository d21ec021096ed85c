"""Frame sources: a real video file, missing/corrupt files, a vanishing camera, specs, the latest-frame reader."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any, ClassVar

import cv2
import numpy as np
import pytest

from dealer_assist.vision import sources
from dealer_assist.vision.frames import Frame, FrameSource, SourceError
from dealer_assist.vision.sources import (
    CaptureSource,
    FramesSource,
    LatestFrameReader,
    iter_frames,
    open_source,
    register_source,
)


def _write_video(path: Path, n: int = 12, fps: float = 30.0) -> Path:
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), fps, (64, 48))
    assert writer.isOpened()
    for i in range(n):
        img = np.zeros((48, 64, 3), np.uint8)
        img[:, :, 1] = i * 20          # frame number encoded in the green level
        writer.write(img)
    writer.release()
    return path


def test_video_file_reads_every_frame_then_ends(tmp_path: Path) -> None:
    src = open_source(str(_write_video(tmp_path / "clip.avi")))
    assert isinstance(src, FrameSource)
    assert src.fps == pytest.approx(30.0)
    frames = list(iter_frames(src))
    assert [f.index for f in frames] == list(range(12))
    assert frames[3].t == pytest.approx(0.1)
    assert frames[0].image.shape == (48, 64, 3)
    levels = [int(f.image[:, :, 1].mean() + 0.5) for f in frames]
    assert all(abs(a - 20 * i) <= 3 for i, a in enumerate(levels))


def test_missing_and_undecodable_files(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match=r"video file .* not found"):
        open_source(str(tmp_path / "none.mp4"))
    junk = tmp_path / "junk.mp4"
    junk.write_bytes(b"this is not a video" * 10)
    with pytest.raises(SourceError) as exc:
        open_source(str(junk))
    assert "cannot open video file" in str(exc.value) and "\n" not in str(exc.value)


class FakeCapture:
    """Stands in for cv2.VideoCapture: a script of (ok, image) results."""

    script: ClassVar[list[tuple[bool, Any]]] = []
    frame_count: ClassVar[int] = 0

    def __init__(self, target: Any) -> None:
        self.results = list(self.script)
        self.released = False

    def isOpened(self) -> bool:
        return True

    def get(self, prop: int) -> float:
        return {cv2.CAP_PROP_FPS: 25.0, cv2.CAP_PROP_FRAME_COUNT: float(self.frame_count)}.get(prop, 0.0)

    def set(self, prop: int, value: float) -> bool:
        return True

    def read(self) -> tuple[bool, Any]:
        return self.results.pop(0) if self.results else (False, None)

    def release(self) -> None:
        self.released = True


IMG = np.zeros((4, 4, 3), np.uint8)


def test_vanished_camera_is_a_one_line_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(FakeCapture, "script", [(True, IMG), (True, IMG)])
    monkeypatch.setattr(sources.cv2, "VideoCapture", FakeCapture)
    src = open_source("0")
    assert src.name == "camera 0" and src.fps == 25.0
    assert src.read() is not None and src.read() is not None
    with pytest.raises(SourceError) as exc:
        src.read()
    assert "camera or stream vanished" in str(exc.value) and "\n" not in str(exc.value)


def test_camera_capture_size(monkeypatch: pytest.MonkeyPatch) -> None:
    asked: dict[int, float] = {}

    class Sized(FakeCapture):
        def set(self, prop: int, value: float) -> bool:
            asked[prop] = value
            return True

    monkeypatch.setattr(sources.cv2, "VideoCapture", Sized)
    src = open_source("1@1920x1080")
    assert src.name == "camera 1"
    assert asked == {cv2.CAP_PROP_FRAME_WIDTH: 1920.0, cv2.CAP_PROP_FRAME_HEIGHT: 1080.0}


def test_camera_that_never_opens(monkeypatch: pytest.MonkeyPatch) -> None:
    class Closed(FakeCapture):
        def isOpened(self) -> bool:
            return False

    monkeypatch.setattr(sources.cv2, "VideoCapture", Closed)
    with pytest.raises(SourceError, match="cannot open camera 'camera 3'"):
        open_source("3")
    with pytest.raises(SourceError, match="cannot open stream"):
        open_source("rtsp://10.0.0.9/table1")


def test_single_corrupt_frame_is_skipped_and_counted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "v.mp4"
    path.write_bytes(b"x")
    broken = np.zeros((0, 0, 3), np.uint8)
    monkeypatch.setattr(FakeCapture, "script", [(True, IMG), (False, None), (True, broken), (True, IMG)])
    monkeypatch.setattr(FakeCapture, "frame_count", 4)
    monkeypatch.setattr(sources.cv2, "VideoCapture", FakeCapture)
    src = CaptureSource(path)
    frames = list(iter_frames(src))
    assert [f.index for f in frames] == [0, 3]        # indices stay the file's frame numbers
    assert src.skipped == 2


def test_corrupt_file_is_an_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "v.mp4"
    path.write_bytes(b"x")
    monkeypatch.setattr(FakeCapture, "script", [(True, IMG)] + [(False, None)] * 40 + [(True, IMG)] * 60)
    monkeypatch.setattr(FakeCapture, "frame_count", 101)
    monkeypatch.setattr(sources.cv2, "VideoCapture", FakeCapture)
    src = CaptureSource(path, max_bad_frames=30)
    assert src.read() is not None
    with pytest.raises(SourceError, match=r"could not be read from frame 1 \(the file is corrupt"):
        src.read()


def test_spec_parsing_and_registry(monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[str] = []

    def factory(rest: str) -> FrameSource:
        made.append(rest)
        return FramesSource([IMG], name=f"sim:{rest}")

    register_source("simtest", factory)
    src = open_source("simtest:badugi?seed=3")
    assert made == ["badugi?seed=3"] and src.name == "sim:badugi?seed=3"
    assert "simtest" in sources.registered_schemes()
    with pytest.raises(SourceError, match="unknown source scheme 'nosuch'"):
        open_source("nosuch:abc")
    with pytest.raises(SourceError, match="empty source"):
        open_source("  ")


def test_frames_source() -> None:
    src = FramesSource([IMG, IMG, Frame(IMG, 5.0, 150)], fps=10.0)
    got = list(iter_frames(src))
    assert [(f.index, f.t) for f in got] == [(0, 0.0), (1, 0.1), (150, 5.0)]


class SlowSource:
    """A source that makes 30 frames as fast as it can, then ends."""

    name = "slow"
    fps = 30.0

    def __init__(self, n: int = 30, fail: bool = False) -> None:
        self.i = 0
        self.n = n
        self.fail = fail
        self.closed = False

    def read(self) -> Frame | None:
        if self.i >= self.n:
            if self.fail:
                raise SourceError("slow: camera vanished")
            return None
        self.i += 1
        time.sleep(0.002)
        return Frame(IMG, self.i / 30, self.i - 1)

    def close(self) -> None:
        self.closed = True


def test_latest_frame_reader_drops_stale_frames() -> None:
    src = SlowSource()
    with LatestFrameReader(src) as reader:
        time.sleep(0.2)                          # the consumer is busy; frames pile up
        frame = reader.latest()
        assert frame is not None and frame.index == 29    # only the newest survives
        assert reader.dropped == 29
        assert reader.latest() is None           # nothing new since
        assert reader.read(timeout=1.0) is None and reader.ended
    assert src.closed


def test_latest_frame_reader_reports_errors_without_traceback() -> None:
    reader = LatestFrameReader(SlowSource(n=3, fail=True))
    seen = []
    with pytest.raises(SourceError, match="camera vanished"):
        for _ in range(100):
            f = reader.read(timeout=1.0)
            if f is not None:
                seen.append(f.index)
    reader.close()
    assert seen and seen[-1] <= 2


def test_latest_frame_reader_with_file(tmp_path: Path) -> None:
    path = _write_video(tmp_path / "clip.avi", n=6)
    with LatestFrameReader(open_source(str(path)), pace=True) as reader:
        got = []
        while (f := reader.read(timeout=2.0)) is not None:
            got.append(f.index)
    assert got and got == sorted(got) and got[-1] == 5
