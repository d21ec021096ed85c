"""A fixed oblique 1280x720 camera over a table profile, and a scripted deal: shared by the calibrated-table tests."""

from __future__ import annotations

import cv2
import numpy as np

from dealer_assist.vision.calibration import CameraCalibration
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
