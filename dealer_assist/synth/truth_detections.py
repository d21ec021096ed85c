"""What a perfect detector reports for the simulator's placements (the demo's and `audit --detector fake:` input)."""

from __future__ import annotations

import math
from collections.abc import Iterable

import numpy as np
import numpy.typing as npt

from dealer_assist.synth.table_render import CARD_HEIGHT_CM, Placement
from dealer_assist.vision.detections import BACK_ID, BUTTON_ID, Detections

CARD_WIDTH_CM = 6.3
BUTTON_BOX_CM = 5.0


def card_outline(xy: tuple[float, float], angle_deg: float) -> npt.NDArray[np.float64]:
    """A card's four corners in table cm (angle 0 puts its top toward -y, as the renderer draws it)."""
    a = math.radians(angle_deg)
    up = np.array([math.sin(a), -math.cos(a)])
    right = np.array([math.cos(a), math.sin(a)])
    c = np.asarray(xy, dtype=np.float64)
    h, w = CARD_HEIGHT_CM / 2, CARD_WIDTH_CM / 2
    return np.array([c + up * h - right * w, c + up * h + right * w, c - up * h + right * w, c - up * h - right * w])


def placement_detections(placements: Iterable[Placement], homography: npt.ArrayLike) -> Detections:
    """Cards (faces named, backs as "back") and the button among `placements`, mapped to image pixels."""
    polys: list[npt.NDArray[np.float64]] = []
    ids: list[int] = []
    half = BUTTON_BOX_CM / 2
    for p in placements:
        if p.kind in ("card_face", "card_back"):
            polys.append(card_outline(p.xy, p.angle_deg))
            ids.append(p.card.index if p.kind == "card_face" and p.card is not None else BACK_ID)
        elif p.kind == "button":
            x, y = p.xy
            corners = [[x - half, y - half], [x + half, y - half], [x + half, y + half], [x - half, y + half]]
            polys.append(np.array(corners, dtype=np.float64))
            ids.append(BUTTON_ID)
    if not polys:
        return Detections.empty()
    table = np.stack(polys).reshape(-1, 2)
    q = np.column_stack([table, np.ones(len(table))]) @ np.asarray(homography, dtype=np.float64).T
    image = (q[:, :2] / q[:, 2:3]).reshape(-1, 4, 2)
    return Detections.from_polygons(image, np.full(len(ids), 0.99), np.array(ids))
