"""One line on the camera calibration a session's cards were mapped by, for `log show` and the review pane."""

from __future__ import annotations

import tomllib
from typing import Any

CORRECTED_FROM = 1.25
"""The white gain from which the pipeline corrects frames before detection: `vision.white_balance.CAST_DEAD_ZONE` (not
imported: it brings cv2 into `log show`; a test keeps the two equal)."""

_METHODS = {
    "points": "calibrated from {n} table points marked by hand",
    "known": "the simulated table's own calibration (exact)",
    "fitted": "fitted to the frame by hand (no marks)",
}


def _method_words(method: str, points: int) -> str:
    if method.startswith("aruco:"):
        ids = [i for i in method.removeprefix("aruco:").split(",") if i]
        return f"calibrated from the rail's ArUco markers {', '.join(ids)}"
    return _METHODS.get(method, "calibrated by {method}").format(n=points or 4, method=method)


def calibration_line(text: str) -> str:
    """ "Camera: calibrated from the rail's ArUco markers 0, 1, 2, 3, for 1280x720 frames (error 0.31 cm, made ...);
    the markers' white at calibration: gains blue 2.16, green 1.32, red 1.00 (frames corrected before detection)".
    A calibration the log holds but cannot parse is said so, never an error (the log shows what it holds)."""
    try:
        data: dict[str, Any] = tomllib.loads(text)
        method = str(data.get("method", "points"))
        points = data.get("points", {}).get("image", [])
        size = f"{int(data['image_width'])}x{int(data['image_height'])}"
        made = f", made {data['created']}" if data.get("created") else ""
        error = float(data.get("error_cm", 0.0))
        gains = [float(g) for g in data.get("white_gains", (1.0, 1.0, 1.0))]
    except (tomllib.TOMLDecodeError, KeyError, TypeError, ValueError, AttributeError) as exc:
        return f"Camera: a calibration is recorded but cannot be read ({type(exc).__name__}); `log export` gives it"
    line = f"Camera: {_method_words(method, len(points))}, for {size} frames (error {error:.2f} cm{made})"
    if len(gains) == 3 and gains != [1.0, 1.0, 1.0]:
        b, g, r = gains
        done = ("frames corrected before detection" if max(gains) >= CORRECTED_FROM
                else "a tint the detector is trained for: frames read as they came")
        line += f"; the markers' white at calibration: gains blue {b:.2f}, green {g:.2f}, red {r:.2f} ({done})"
    return line
