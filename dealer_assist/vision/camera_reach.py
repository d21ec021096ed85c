"""How large a calibrated camera shows the cards at each seat, and whether it can read a shown hand.

The referee awards a pot only when every shown card is read, and the classifier reads an index corner by its
height in the frame (held-out designs, the model card's figures: 20 px and up 79%, 12 to 20 px 38%, 8 to 12 px
12%, under 8 px 2%). A floor supervisor must know before a session that a camera is too coarse, not learn it from
hands left to the floor.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from dealer_assist.vision.calibration import CameraCalibration
from dealer_assist.vision.pipeline import CARD_H_CM
from dealer_assist.vision.table_profile import TableProfile

INDEX_SHARE = 0.23
"""An index corner (rank over suit) is this share of a card's height: the median over the decks' art (0.21 to 0.29)."""
READ_WELL_PX = 20.0
"""Index corners this tall and up are read most of the time (79% on held-out designs, against 38% at 12-20 px)."""
FEW_READ_PX = 12.0
"""Under this, few corners are read (12% at 8-12 px, 2% under 8 px)."""
STANDARD_WIDTHS = (1280, 1920, 2560, 3840, 5120, 7680)


@dataclass(frozen=True, slots=True)
class CameraReach:
    """The height of an index corner, in image px, at each seat's card spot (seat 1 first)."""

    image_size: tuple[int, int]
    corner_px: tuple[float, ...]

    @property
    def smallest(self) -> tuple[int, float]:
        """The seat where the corners look smallest, and their height there."""
        i = int(np.argmin(self.corner_px))
        return i + 1, self.corner_px[i]

    @property
    def reads_shows(self) -> bool:
        """Whether every seat's corners are tall enough to be read most of the time."""
        return self.smallest[1] >= READ_WELL_PX

    def warning(self) -> str | None:
        """One line for the floor when the camera is too coarse to read shown hands well (None when it is not)."""
        seat, px = self.smallest
        if px >= READ_WELL_PX:
            return None
        w, h = self.image_size
        width = next((s for s in STANDARD_WIDTHS if s >= w * READ_WELL_PX / max(px, 1e-6)), None)
        need = f"a {width}x{round(width * h / w)} camera" if width else "a camera closer to the cards"
        expect = "most shows unread" if px < FEW_READ_PX else "some shown cards unread"
        return (f"camera: a card's index corner at seat {seat} is about {px:.0f} px tall in this {w}x{h} frame; "
                f"shown cards are read well from about {READ_WELL_PX:.0f} px, so expect {expect} and those pots "
                f"left to the floor (this table wants {need})")


def camera_reach(profile: TableProfile, calibration: CameraCalibration) -> CameraReach:
    """The index-corner height at each seat's card spot: a card's height there (the mean of its image length
    along the table's two axes, as a card may lie either way) times `INDEX_SHARE`."""
    lengths = calibration.lengths_px([s.card_spot for s in profile.seats], CARD_H_CM).mean(axis=1)
    return CameraReach(calibration.image_size, tuple(float(INDEX_SHARE * v) for v in lengths))
