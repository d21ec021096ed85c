"""A fixed oblique 1280x720 camera over a table profile, shared by the tests that need a calibrated table."""

from __future__ import annotations

import cv2
import numpy as np

from dealer_assist.vision.calibration import CameraCalibration
from dealer_assist.vision.table_profile import TableProfile


def oblique_camera(profile: TableProfile) -> CameraCalibration:
    """The table's corners seen as a tilted quadrilateral in a 1280x720 frame."""
    w, h = profile.width_cm, profile.height_cm
    quad = np.float32([[120, 150], [1180, 90], [1240, 690], [30, 620]])
    t2i = cv2.getPerspectiveTransform(np.float32([[0, 0], [w, 0], [w, h], [0, h]]), quad)
    return CameraCalibration.from_table_to_image(t2i, (1280, 720), profile.name)
