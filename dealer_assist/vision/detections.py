"""One frame's detections as a frozen dataclass of numpy arrays (the supervision pattern).

Every detector backend returns `Detections`; every later stage reads it. Each object has a
quadrilateral `polygons[i]` (image px, 4 corners in order) and its bounding box `xyxy[i]`, a
`confidence` and a `class_id` into `CLASS_NAMES`: the 52 cards in `Card.index` order ("Ac" is 0,
"As" is 3, "Ks" is 51), then "back" (a face-down card) and "button" (the dealer button).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from dealer_assist.cards import Card, card_from_index, parse_card
from dealer_assist.errors import DealerAssistError

FloatArray = npt.NDArray[np.float32]
IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]

BACK_LABEL = "back"
BUTTON_LABEL = "button"
CLASS_NAMES: tuple[str, ...] = (*(str(card_from_index(i)) for i in range(52)), BACK_LABEL, BUTTON_LABEL)
BACK_ID = 52
BUTTON_ID = 53
_ID_BY_LABEL: dict[str, int] = {name: i for i, name in enumerate(CLASS_NAMES)}


def label_to_class_id(label: str | Card) -> int:
    """The class id of "Ah" / "10h" / a Card / "back" / "button"; a bad label gets a one-line error."""
    if isinstance(label, Card):
        return label.index
    key = label.strip()
    if key.lower() in (BACK_LABEL, BUTTON_LABEL):
        return _ID_BY_LABEL[key.lower()]
    try:
        return parse_card(key).index
    except DealerAssistError:
        raise DealerAssistError(
            f"unknown detection label {label!r}; accepted: a card like Ah, Td, 10h, or 'back', 'button'"
        ) from None


def class_id_to_label(class_id: int) -> str:
    """The label ("Ah", "back", "button") of a class id."""
    if not 0 <= class_id < len(CLASS_NAMES):
        raise DealerAssistError(f"class id {class_id} is out of range; accepted: 0 to {len(CLASS_NAMES) - 1}")
    return CLASS_NAMES[class_id]


def _as_float(a: Any, shape_tail: tuple[int, ...], what: str) -> FloatArray:
    arr = np.asarray(a, dtype=np.float32)
    if arr.size == 0:
        return np.zeros((0, *shape_tail), dtype=np.float32)
    if arr.ndim != 1 + len(shape_tail) or arr.shape[1:] != shape_tail:
        raise DealerAssistError(f"detections: {what} must have shape (N, {', '.join(map(str, shape_tail))})"
                                f", got {arr.shape}")
    return arr


def boxes_to_polygons(xyxy: FloatArray) -> FloatArray:
    """Axis-aligned boxes (N, 4) as quadrilaterals (N, 4, 2): top-left, top-right, bottom-right, bottom-left."""
    x1, y1, x2, y2 = xyxy[:, 0], xyxy[:, 1], xyxy[:, 2], xyxy[:, 3]
    return np.stack([np.stack([x1, y1], 1), np.stack([x2, y1], 1), np.stack([x2, y2], 1), np.stack([x1, y2], 1)],
                    axis=1).astype(np.float32)


def polygons_to_boxes(polygons: FloatArray) -> FloatArray:
    """The bounding boxes (N, 4) of quadrilaterals (N, 4, 2)."""
    if len(polygons) == 0:
        return np.zeros((0, 4), dtype=np.float32)
    return np.concatenate([polygons.min(axis=1), polygons.max(axis=1)], axis=1).astype(np.float32)


@dataclass(frozen=True, eq=False)
class Detections:
    """N detected objects: `polygons` (N,4,2), `xyxy` (N,4), `confidence` (N,), `class_id` (N,), image px.

    Build with `from_boxes`, `from_polygons`, `from_labels` or `empty`; the constructor checks shapes.
    """

    xyxy: FloatArray
    polygons: FloatArray
    confidence: FloatArray
    class_id: IntArray

    def __post_init__(self) -> None:
        n = len(self.class_id)
        if not (len(self.xyxy) == len(self.polygons) == len(self.confidence) == n):
            raise DealerAssistError(
                f"detections: arrays differ in length (xyxy {len(self.xyxy)}, polygons {len(self.polygons)}, "
                f"confidence {len(self.confidence)}, class_id {n})"
            )
        if n and (self.class_id.min() < 0 or self.class_id.max() >= len(CLASS_NAMES)):
            raise DealerAssistError(f"detections: class ids must be 0 to {len(CLASS_NAMES) - 1}")
        for arr in (self.xyxy, self.polygons, self.confidence, self.class_id):
            arr.setflags(write=False)

    # -- construction -------------------------------------------------------------------------

    @classmethod
    def empty(cls) -> Detections:
        """No objects."""
        return cls.from_boxes(np.zeros((0, 4)), np.zeros(0), np.zeros(0, dtype=np.int64))

    @classmethod
    def from_boxes(cls, xyxy: Any, confidence: Any, class_id: Any) -> Detections:
        """From axis-aligned boxes (N, 4) in x1, y1, x2, y2 order."""
        boxes = _as_float(xyxy, (4,), "xyxy")
        return cls(boxes, boxes_to_polygons(boxes), _as_float(confidence, (), "confidence"),
                   np.asarray(class_id, dtype=np.int64).reshape(-1))

    @classmethod
    def from_polygons(cls, polygons: Any, confidence: Any, class_id: Any) -> Detections:
        """From quadrilaterals (N, 4, 2), e.g. the rotated outline of a card or of its index corner."""
        polys = _as_float(polygons, (4, 2), "polygons")
        return cls(polygons_to_boxes(polys), polys, _as_float(confidence, (), "confidence"),
                   np.asarray(class_id, dtype=np.int64).reshape(-1))

    @classmethod
    def from_labels(cls, labels: Sequence[str | Card], shapes: Any, confidence: Any = None) -> Detections:
        """From labels ("Ah", "back", "button") and boxes (N, 4) or polygons (N, 4, 2); confidence defaults to 1."""
        ids = np.array([label_to_class_id(label) for label in labels], dtype=np.int64)
        conf = np.ones(len(ids), dtype=np.float32) if confidence is None else confidence
        arr = np.asarray(shapes, dtype=np.float32)
        if arr.ndim == 3 or (arr.size == 0 and arr.ndim != 2):
            return cls.from_polygons(arr.reshape(-1, 4, 2), conf, ids)
        return cls.from_boxes(arr, conf, ids)

    @classmethod
    def merge(cls, parts: Iterable[Detections]) -> Detections:
        """All objects of several Detections, in order."""
        items = list(parts)
        if not items:
            return cls.empty()
        return cls(np.concatenate([d.xyxy for d in items]), np.concatenate([d.polygons for d in items]),
                   np.concatenate([d.confidence for d in items]), np.concatenate([d.class_id for d in items]))

    # -- access -------------------------------------------------------------------------------

    def __len__(self) -> int:
        return len(self.class_id)

    def __getitem__(self, index: int | slice | Sequence[int] | npt.NDArray[Any]) -> Detections:
        """A subset by integer, slice, index list or boolean mask (always a Detections)."""
        idx: Any = [index] if isinstance(index, int | np.integer) else index
        return Detections(self.xyxy[idx], self.polygons[idx], self.confidence[idx], self.class_id[idx])

    @property
    def labels(self) -> list[str]:
        """Each object's label: "Ah" ... "Ks", "back" or "button"."""
        return [CLASS_NAMES[i] for i in self.class_id.tolist()]

    @property
    def centers(self) -> FloatArray:
        """Each object's centre (N, 2): the mean of its polygon's corners."""
        return self.polygons.mean(axis=1).astype(np.float32) if len(self) else np.zeros((0, 2), np.float32)

    @property
    def is_face_up(self) -> BoolArray:
        """Mask of face-up cards (any of the 52 card classes)."""
        out: BoolArray = self.class_id < BACK_ID
        return out

    @property
    def is_back(self) -> BoolArray:
        """Mask of face-down cards."""
        out: BoolArray = self.class_id == BACK_ID
        return out

    @property
    def is_button(self) -> BoolArray:
        """Mask of dealer buttons."""
        out: BoolArray = self.class_id == BUTTON_ID
        return out

    def card(self, i: int) -> Card | None:
        """Object i as a Card, or None for a back or the button."""
        cid = int(self.class_id[i])
        return card_from_index(cid) if cid < BACK_ID else None

    def with_min_confidence(self, threshold: float) -> Detections:
        """Only the objects at or above `threshold`."""
        return self[self.confidence >= threshold]

    def transformed(self, matrix: Any) -> Detections:
        """The same objects with their polygons mapped through a 3x3 homography (e.g. image px -> table cm)."""
        if len(self) == 0:
            return self
        h = np.asarray(matrix, dtype=np.float64).reshape(3, 3)
        pts = self.polygons.reshape(-1, 2).astype(np.float64)
        homog = np.concatenate([pts, np.ones((len(pts), 1))], axis=1) @ h.T
        w = homog[:, 2:3]
        w = np.where(np.abs(w) < 1e-12, 1e-12, w)
        mapped = (homog[:, :2] / w).reshape(-1, 4, 2).astype(np.float32)
        return Detections(polygons_to_boxes(mapped), mapped, self.confidence.copy(), self.class_id.copy())

    def to_list(self) -> list[dict[str, Any]]:
        """Plain records for JSON: {"card": "Ah"|"back", ...} or {"button": true, ...}, with confidence and polygon."""
        out: list[dict[str, Any]] = []
        for i, label in enumerate(self.labels):
            rec: dict[str, Any] = {"button": True} if label == BUTTON_LABEL else {"card": label}
            rec["confidence"] = round(float(self.confidence[i]), 4)
            rec["polygon"] = [[round(float(x), 1), round(float(y), 1)] for x, y in self.polygons[i]]
            out.append(rec)
        return out

    def __repr__(self) -> str:
        return f"Detections({len(self)}: {', '.join(self.labels)})"
