"""The white reference kept current while the camera runs: the rail markers re-measured where the calibration put them.

A camera's automatic exposure and white balance, or the room's lamps, change after calibration: a balance measured
once would then brighten a frame the camera has brightened itself. The markers stay where the calibration found them,
so every `every` frames each one is looked for in its own patch of the frame (an ArUco marker of its id found there:
never a hand, a chip or bare rail taken for white), its white measured (`white_balance.white_of`), and the median
of the last `keep` measurements corrects the frames until the next.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping

import cv2
import numpy as np
import numpy.typing as npt

from dealer_assist.vision.calibration import CalibrationError, CameraCalibration, aruco_detector
from dealer_assist.vision.table_profile import TableProfile
from dealer_assist.vision.white_balance import WhiteBalance, white_of

Image = npt.NDArray[np.uint8]
Quad = npt.NDArray[np.float64]

PATCH_GROW = 3.0   # a marker's patch: its box grown about its centre (cv2.aruco finds none in a patch of 1.8x)


class WhiteReference:
    """The frames' white balance, from the calibration's until the markers are measured in the frames themselves."""

    def __init__(self, quads: Mapping[int, Quad], dictionary: str, initial: WhiteBalance | None = None,
                 every: int = 15, keep: int = 5) -> None:
        self.quads = {i: np.asarray(q, dtype=np.float64).reshape(4, 2) for i, q in quads.items()}
        self.balance = initial or WhiteBalance()
        self.every = max(1, every)
        self._recent: deque[tuple[float, float, float]] = deque(maxlen=max(1, keep))
        self._frames = 0
        self.measured = 0       # measurements that found a marker
        self._detector: cv2.aruco.ArucoDetector | None = None
        if self.quads:
            try:
                self._detector = aruco_detector(dictionary, subpixel=False)
            except CalibrationError:
                self._detector = None                 # no dictionary to find the markers by: the calibration's gains

    @classmethod
    def for_table(cls, profile: TableProfile, calibration: CameraCalibration,
                  initial: WhiteBalance | None = None) -> WhiteReference:
        """The profile's rail markers where the calibration puts them, from `initial` (default: the calibration's
        gains)."""
        quads = {m.id: calibration.to_image(m.corners()) for m in profile.markers}
        return cls(quads, profile.aruco_dictionary, calibration.white_balance if initial is None else initial)

    def update(self, image: Image) -> WhiteBalance:
        """The balance for this frame: every `every` frames (the first included) the markers are measured again."""
        due = self._frames % self.every == 0
        self._frames += 1
        if due and self._detector is not None and image.ndim == 3 and image.shape[2] == 3:
            wb = white_of(image, self._found(image))
            if wb is not None:
                self._recent.append(wb.gains)
                self.measured += 1
                g = np.median(np.asarray(self._recent), axis=0)
                self.balance = WhiteBalance((float(g[0]), float(g[1]), float(g[2])))
        return self.balance

    def _found(self, image: Image) -> list[Quad]:
        """The quads of the markers found in their patches, in image px."""
        h, w = image.shape[:2]
        out = []
        for marker_id, quad in self.quads.items():
            centre = quad.mean(axis=0)
            half = (quad.max(axis=0) - quad.min(axis=0)) * PATCH_GROW / 2
            x0, y0 = np.maximum(np.floor(centre - half), 0).astype(int)
            x1, y1 = np.minimum(np.ceil(centre + half), [w, h]).astype(int)
            if x1 - x0 < 8 or y1 - y0 < 8:
                continue
            patch = cv2.cvtColor(image[y0:y1, x0:x1], cv2.COLOR_BGR2GRAY)
            corners, ids, _ = self._detector.detectMarkers(patch)  # type: ignore[union-attr]
            if ids is None:
                continue
            for c, i in zip(corners, ids.ravel(), strict=True):
                if int(i) == marker_id:
                    out.append(np.asarray(c, dtype=np.float64).reshape(4, 2) + np.array([x0, y0], dtype=np.float64))
        return out
