"""Coloured or dim light on a rendered frame: what a camera with a fixed white balance and exposure sees.

The renderer's own tints stay within about 15% per channel (`table_render.random_effects`); these casts go past
that, to measure the detector and `vision.white_balance` under the light of a real card room.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from dealer_assist.errors import DealerAssistError

Image = npt.NDArray[np.uint8]

# blue, green, red multipliers
LIGHT_CASTS: dict[str, tuple[float, float, float]] = {
    "neutral": (1.0, 1.0, 1.0),
    "warm": (0.55, 0.85, 1.1),     # tungsten lamps on a camera balanced for daylight
    "cool": (1.15, 1.0, 0.75),     # cold fluorescent or LED light on a camera balanced for tungsten
    "dim": (0.55, 0.55, 0.55),     # a dark room on a camera whose exposure is fixed
}


def cast_light(image: Image, light: str) -> Image:
    """The frame under `light` (a name in LIGHT_CASTS); another name is a one-line error naming the accepted ones."""
    if light not in LIGHT_CASTS:
        raise DealerAssistError(f"unknown light {light!r}; accepted: {', '.join(LIGHT_CASTS)}")
    gains = np.asarray(LIGHT_CASTS[light], dtype=np.float32)
    if light == "neutral":
        return image
    return np.asarray(np.clip(image.astype(np.float32) * gains + 0.5, 0, 255), dtype=np.uint8)
