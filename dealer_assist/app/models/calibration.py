"""The calibration wizard as pure logic: a frame, a table profile, 4 clicked rail marks (or ArUco),
the homography, an overlay to check by eye, and the file saved beside the profile.

Also `fitted_calibration`: the calibration used to draw zones on a frame when a table has none yet
(the profile's box fitted into the frame), so the live overlay shows something sensible on the
simulated table.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
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
from dealer_assist.vision.table_profile import TableProfile, load_profile, points_in_polygon, shipped_profiles

Image = npt.NDArray[np.uint8]
STEPS = (
    "1. Grab a frame with the whole table in view.",
    "2. Pick the table profile.",
    "3. Click the 4 rail marks in order (or Detect ArUco).",
    "4. Check the overlay: every zone on its place; drag a seat zone to fit it to the table.",
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
        self.profile_saved_to: Path | None = None
        self.moved: set[int] = set()  # seats whose zones were dragged since the profile was loaded
        self.dragging: int | None = None
        self._drag_from: tuple[float, float] | None = None
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
        self.moved = set()
        self.reset_points()
        return True

    # --- dragging seat zones (once calibrated) --------------------------------------------------
    def seat_at(self, x: float, y: float) -> int | None:
        """The seat whose zone holds this image point (None: no seat, or not calibrated yet)."""
        if self.calibration is None or self.profile is None:
            return None
        (tx, ty), = self.calibration.to_table([(x, y)])
        for seat in self.profile.seats:
            if _inside(float(tx), float(ty), seat.zone):
                return seat.number
        return None

    def begin_drag(self, x: float, y: float) -> int | None:
        """Start dragging the seat zone under the image point; returns its seat number."""
        self.dragging = self.seat_at(x, y)
        self._drag_from = (x, y) if self.dragging is not None else None
        if self.dragging is not None:
            self.message = f"Dragging seat {self.dragging}'s zone: let go where its cards lie."
        return self.dragging

    def drag_to(self, x: float, y: float) -> None:
        if self.dragging is None or self._drag_from is None or self.calibration is None:
            return
        (ax, ay), (bx, by) = self.calibration.to_table([self._drag_from, (x, y)])
        if self.move_seat(self.dragging, float(bx - ax), float(by - ay)):
            self._drag_from = (x, y)

    def end_drag(self) -> None:
        if self.dragging is not None:
            self.message = (f"Seat {self.dragging}'s zone moved. Check the overlay, drag more, then Save "
                            "(the adjusted profile is saved with the calibration).")
        self.dragging = None
        self._drag_from = None

    def move_seat(self, number: int, dx: float, dy: float) -> bool:
        """Move a seat's zone, card spot and button spot by (dx, dy) table cm; False if it would leave the table or
        reach over another seat's cards."""
        if self.profile is None:
            return False
        profile = self.profile
        seat = profile.seat(number)
        zone = tuple((px + dx, py + dy) for px, py in seat.zone)
        spot = (seat.card_spot[0] + dx, seat.card_spot[1] + dy)
        button = (seat.button_spot[0] + dx, seat.button_spot[1] + dy)
        if not all(0 <= px <= profile.width_cm and 0 <= py <= profile.height_cm for px, py in (*zone, spot, button)):
            return False
        others = [s for s in profile.seats if s.number != number]
        if any(points_in_polygon([spot], s.zone)[0] or points_in_polygon([s.card_spot], zone)[0] for s in others):
            return False              # over another seat's cards: the saved profile would not load (zones overlap)
        moved = replace(seat, zone=zone, card_spot=spot, button_spot=button)
        self.profile = replace(profile, seats=tuple(moved if s.number == number else s for s in profile.seats))
        self.moved.add(number)
        self.saved_to = None
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
            light = self.calibration.light_words()
            return (f"Calibrated by {self.calibration.method}, error {self.calibration.error_cm:.2f} cm. "
                    f"{light + ' ' if light else ''}Check the overlay, then Save (or Undo a point).")
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
            if self.moved:  # the dragged zones: the table's profile, beside its camera calibration
                profile_path = target.with_name(f"{self.profile.name}.toml")
                self.profile_saved_to = self.profile.save(profile_path)
            self.saved_to = self.calibration.save(target)
        except (OSError, DealerAssistError) as exc:
            self.message = f"Could not save {target}: {exc}"
            return None
        also = f" and the adjusted profile to {self.profile_saved_to}" if self.moved else ""
        self.message = f"Saved to {self.saved_to}{also}"
        return self.saved_to


def _inside(x: float, y: float, polygon: tuple[tuple[float, float], ...]) -> bool:
    """Point in polygon (ray casting)."""
    inside = False
    n = len(polygon)
    for i in range(n):
        (x1, y1), (x2, y2) = polygon[i], polygon[(i + 1) % n]
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside
