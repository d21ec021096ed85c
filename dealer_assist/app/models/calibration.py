"""The calibration wizard as pure logic: a frame, a table profile, 4 clicked rail marks (or ArUco),
the homography, an overlay to check by eye, and the file saved beside the profile.

Also `fitted_calibration`: the calibration used to draw zones on a frame when a table has none yet
(the profile's box fitted into the frame), so the live overlay shows something sensible on the
simulated table.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from dealer_assist.errors import DealerAssistError
from dealer_assist.vision.calibration import (
    CameraCalibration,
    calibrate_from_aruco,
    calibrate_from_points,
    default_camera_path,
    draw_overlay,
)
from dealer_assist.vision.table_profile import TableProfile, load_profile, shipped_profiles

Image = npt.NDArray[np.uint8]
STEPS = (
    "1. Grab a frame with the whole table in view.",
    "2. Pick the table profile.",
    "3. Click the 4 rail marks in order (or Detect ArUco).",
    "4. Check the overlay: every zone on its place.",
    "5. Save.",
)


def profiles() -> list[str]:
    return shipped_profiles()


def fitted_calibration(profile: TableProfile, image_size: tuple[int, int], margin: float = 0.04) -> CameraCalibration:
    """A straight-down calibration putting the profile's box centred in the image (aspect kept)."""
    w, h = image_size
    scale = min(w * (1 - 2 * margin) / profile.width_cm, h * (1 - 2 * margin) / profile.height_cm)
    ox = (w - profile.width_cm * scale) / 2
    oy = (h - profile.height_cm * scale) / 2
    table_to_image = np.array([[scale, 0, ox], [0, scale, oy], [0, 0, 1]], dtype=np.float64)
    return CameraCalibration.from_table_to_image(table_to_image, image_size, profile.name, method="fitted")


@dataclass(frozen=True, slots=True)
class Marks:
    """The table points the 4 clicks are matched to, and how to describe each to the user."""

    table_points: tuple[tuple[float, float], ...]
    names: tuple[str, ...]


def rail_marks(profile: TableProfile) -> Marks:
    """The profile's first 4 rail markers (as `dealer-assist calibrate` uses), else 4 outline extremes."""
    if len(profile.markers) >= 4:
        markers = profile.markers[:4]
        return Marks(tuple(m.center for m in markers), tuple(f"rail mark {m.id}" for m in markers))
    pts = np.asarray(profile.outline, dtype=np.float64)
    picks = [pts[np.argmin(pts[:, 0])], pts[np.argmin(pts[:, 1])], pts[np.argmax(pts[:, 0])], pts[np.argmax(pts[:, 1])]]
    names = ("the table's left end", "the far rail's middle", "the right end", "the near rail's middle")
    return Marks(tuple((float(x), float(y)) for x, y in picks), names)


class CalibrationWizard:
    """State of one calibration: `message` says what to do next or what went wrong."""

    def __init__(self, profile_name: str | None = None) -> None:
        self.frame: Image | None = None
        self.profile: TableProfile | None = None
        self.clicks: list[tuple[float, float]] = []
        self.calibration: CameraCalibration | None = None
        self.message = STEPS[0]
        self.saved_to: Path | None = None
        if profile_name:
            self.set_profile(profile_name)

    @property
    def image_size(self) -> tuple[int, int] | None:
        return None if self.frame is None else (int(self.frame.shape[1]), int(self.frame.shape[0]))

    def set_frame(self, frame: Image) -> None:
        self.frame = frame
        self.reset_points()

    def set_profile(self, name: str) -> bool:
        try:
            self.profile = load_profile(name)
        except DealerAssistError as exc:
            self.profile = None
            self.message = f"Cannot load table profile {name!r}: {exc}"
            return False
        self.reset_points()
        return True

    def reset_points(self) -> None:
        self.clicks = []
        self.calibration = None
        self.saved_to = None
        self.message = self.next_instruction()

    def next_instruction(self) -> str:
        if self.frame is None:
            return STEPS[0]
        if self.profile is None:
            return STEPS[1]
        if self.calibration is not None:
            return (f"Calibrated by {self.calibration.method}, error {self.calibration.error_cm:.2f} cm. "
                    "Check the overlay, then Save (or Undo a point).")
        marks = rail_marks(self.profile)
        return f"Click {marks.names[len(self.clicks)]} ({len(self.clicks) + 1} of 4), or Detect ArUco."

    def click(self, x: float, y: float) -> None:
        """A click on the frame in image pixels."""
        if self.frame is None or self.profile is None or self.calibration is not None:
            self.message = self.next_instruction()
            return
        self.clicks.append((float(x), float(y)))
        if len(self.clicks) == 4:
            self._fit()
        else:
            self.message = self.next_instruction()

    def undo(self) -> None:
        if self.clicks:
            self.clicks.pop()
        self.calibration = None
        self.saved_to = None
        self.message = self.next_instruction()

    def _fit(self) -> None:
        assert self.profile is not None and self.image_size is not None
        marks = rail_marks(self.profile)
        try:
            self.calibration = calibrate_from_points(self.clicks, marks.table_points, self.image_size,
                                                     self.profile.name)
        except DealerAssistError as exc:
            self.clicks.pop()
            self.message = f"{exc}. Click the last mark again."
            return
        self.message = self.next_instruction()

    def detect_aruco(self) -> bool:
        if self.frame is None or self.profile is None:
            self.message = self.next_instruction()
            return False
        try:
            self.calibration = calibrate_from_aruco(self.frame, self.profile)
        except DealerAssistError as exc:
            self.message = f"ArUco: {exc}"
            return False
        self.clicks = []
        self.message = self.next_instruction()
        return True

    def overlay(self) -> Image | None:
        """The frame with the profile's zones drawn through the calibration, or the frame alone."""
        if self.frame is None:
            return None
        if self.calibration is None or self.profile is None:
            return self.frame
        return draw_overlay(self.frame, self.profile, self.calibration)

    def save(self, path: Path | None = None) -> Path | None:
        if self.calibration is None or self.profile is None:
            self.message = "Nothing to save yet: " + self.next_instruction()
            return None
        target = path or default_camera_path(self.profile)
        try:
            self.saved_to = self.calibration.save(target)
        except OSError as exc:
            self.message = f"Could not save {target}: {exc}"
            return None
        self.message = f"Saved to {self.saved_to}"
        return self.saved_to
