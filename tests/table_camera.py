"""A fixed oblique 1280x720 camera over a table profile, a scripted deal, and a scripted camera that can stall, vanish
or send corrupt frames: shared by the calibrated-table tests."""

from __future__ import annotations

import threading

import cv2
import numpy as np

from dealer_assist.vision.calibration import CameraCalibration
from dealer_assist.vision.frames import Frame, SourceError
from dealer_assist.vision.pipeline import ScriptedTable
from dealer_assist.vision.table_profile import TableProfile


def oblique_camera(profile: TableProfile) -> CameraCalibration:
    """The table's corners seen as a tilted quadrilateral in a 1280x720 frame."""
    w, h = profile.width_cm, profile.height_cm
    quad = np.float32([[120, 150], [1180, 90], [1240, 690], [30, 620]])
    t2i = cv2.getPerspectiveTransform(np.float32([[0, 0], [w, 0], [w, h], [0, h]]), quad)
    return CameraCalibration.from_table_to_image(t2i, (1280, 720), profile.name)


def three_seats_dealt(fps: float) -> ScriptedTable:
    """A six-seat table, the button on seat 5; four rounds of face-down cards to seats 1, 3 and 5."""
    script = ScriptedTable(6, fps).button(5).hold(0.5)
    for _ in range(4):
        for seat in (1, 3, 5):
            script.deal(seat).hold(0.3)
    return script.hold(1.0)


class GatedCamera:
    """Scripted frames like a camera's; stops at `gate_at` until `gate` is set, then fails with `fail` (if given)
    after `fail_after` frames, or gives `bad` frames (corrupt) at those indices."""

    def __init__(self, count: int, *, gate_at: int | None = None, fail_after: int | None = None,
                 bad: frozenset[int] = frozenset(), fps: float = 30.0) -> None:
        self.count, self.gate_at, self.fail_after, self.bad = count, gate_at, fail_after, bad
        self.frame_rate = fps
        self.gate = threading.Event()
        self.waiting = threading.Event()
        self.index = 0
        self.closed = False
        self.image = np.zeros((720, 1280, 3), np.uint8)

    @property
    def name(self) -> str:
        return "camera 0"

    @property
    def fps(self) -> float:
        return self.frame_rate

    def read(self) -> Frame | None:
        if self.gate_at is not None and self.index == self.gate_at:
            self.waiting.set()
            self.gate.wait(10)
        if self.fail_after is not None and self.index >= self.fail_after:
            raise SourceError("camera 0: 30 frames in a row could not be read from frame "
                              f"{self.index} (the camera or stream vanished)")
        if self.index >= self.count:
            return None
        i = self.index
        self.index += 1
        image = np.zeros((10, 10), np.uint8) if i in self.bad else self.image
        return Frame(image, i / self.frame_rate, i)

    def close(self) -> None:
        self.closed = True
