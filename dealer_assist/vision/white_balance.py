"""The camera's white reference: per-channel gains measured once on the white of the rail's ArUco markers.

A table under warm or cool light, seen by a camera whose white balance is fixed, turns the cards' white faces cream or
blue. The detector was trained on tints within about 15%: under a stronger cast it takes cream faces for backs and
misses the button; in a frame exposed too dark it misses the button too. The markers' white is a known neutral, so
calibration measures the cast and the exposure there, and each frame is corrected before detection. A correction
within `CAST_DEAD_ZONE` is left alone (the training scenes' own tints), and a white of `DIM_WHITE` or more is
bright enough (the training scenes' markers range from about 150 to 255).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

Image = npt.NDArray[np.uint8]

CAST_DEAD_ZONE = 1.25   # largest channel gain under which a frame is left as it is
MAX_GAIN = 4.0          # a channel needing more than this is not a white reference (a dark or coloured patch)
MARKER_MARGIN = 1.35    # a marker's quad grown about its centre to take in the white border printed around it
MIN_WHITE_LEVEL = 40.0  # a reference whose brightest channel is darker than this cannot be measured
DIM_WHITE = 140.0       # a reference darker than this is brought up to TARGET_WHITE (an exposure too dark)
TARGET_WHITE = 220.0    # the median white of the held-out scenes' markers


@dataclass(frozen=True, slots=True)
class WhiteBalance:
    """Gains for the blue, green and red channels that make the reference white neutral (the smallest is 1) and, for a
    frame exposed too dark, bright (all above 1)."""

    gains: tuple[float, float, float] = (1.0, 1.0, 1.0)

    @property
    def neutral(self) -> bool:
        """True when the correction is small enough that frames are left as they are."""
        return max(self.gains) < CAST_DEAD_ZONE

    @property
    def cast(self) -> str:
        """The light's colour where it is corrected, warm or cool; an empty string where it is not."""
        b, _, r = self.gains
        if max(self.gains) / min(self.gains) < CAST_DEAD_ZONE:
            return ""
        return "warm" if b > r else "cool"

    @property
    def dark(self) -> bool:
        """True where the frames are brightened (the markers' white darker than DIM_WHITE)."""
        return min(self.gains) >= CAST_DEAD_ZONE

    def apply(self, image: Image) -> Image:
        """The frame corrected (a new array), or the same frame when the correction is within the dead zone."""
        if self.neutral or image.ndim != 3 or image.shape[2] != 3:
            return image
        ramp = np.arange(256, dtype=np.float32)
        lut = np.clip(np.stack([ramp * g for g in self.gains], axis=1) + 0.5, 0, 255).astype(np.uint8)
        # cv2.LUT with a 3-channel table: one lookup per pixel, about 1 ms for a 1280x720 frame
        return np.asarray(cv2.LUT(image, lut.reshape(256, 1, 3)), dtype=np.uint8)


def measure_white(image: Image, quads: Iterable[Any]) -> WhiteBalance:
    """The gains that make the white of the markers at `quads` (each 4 image points) neutral; neutral gains when no
    white can be measured there (no marker, a colour image needed, or the white too dark)."""
    return white_of(image, quads) or WhiteBalance()


def white_of(image: Image, quads: Iterable[Any]) -> WhiteBalance | None:
    """As `measure_white`, but None where there is no white to measure."""
    if image.ndim != 3 or image.shape[2] != 3:
        return None
    whites = []
    h, w = image.shape[:2]
    for quad in quads:
        pts = np.asarray(quad, dtype=np.float64).reshape(4, 2)
        centre = pts.mean(axis=0)
        grown = np.round(centre + (pts - centre) * MARKER_MARGIN).astype(np.int32)
        # the marker's own box, not a mask the size of the frame: this runs every `every` frames of a live camera
        x0, y0 = np.maximum(grown.min(axis=0), 0)
        x1, y1 = np.minimum(grown.max(axis=0) + 1, [w, h])
        if x1 <= x0 or y1 <= y0:
            continue
        mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
        cv2.fillConvexPoly(mask, grown - np.array([x0, y0], dtype=np.int32), 1)
        px = image[y0:y1, x0:x1][mask.astype(bool)].astype(np.float32)
        if len(px) < 16:
            continue
        lum = px.sum(axis=1)
        lo, hi = np.percentile(lum, [5, 95])
        if hi - lo < 60:                      # no black and white pattern here: not a marker's print
            continue
        whites.append(px[lum > 0.5 * (lo + hi)])
    if not whites:
        return None
    ref = np.median(np.concatenate(whites), axis=0)
    if float(ref.max()) < MIN_WHITE_LEVEL:
        return None
    gains = float(ref.max()) / np.maximum(ref, 1.0)
    if float(ref.max()) < DIM_WHITE:
        gains = gains * (TARGET_WHITE / float(ref.max()))
    if float(gains.max()) > MAX_GAIN:
        return None
    b, g, r = (round(float(v), 4) for v in gains)
    return WhiteBalance((b, g, r))
