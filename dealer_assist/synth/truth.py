"""Ground-truth records of a rendered scene: every object, where it is in the image, how much shows.

All polygons are in image pixels (x right, y down), as float pairs. Visible fractions come from the
renderer's id buffer (which object owns each pixel after compositing), never from estimates; parts
outside the image count as not visible.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from dealer_assist.cards import Card, parse_card

ObjectKind = Literal["card_face", "card_back", "button", "chip", "hand", "print"]
OBJECT_KINDS: tuple[ObjectKind, ...] = ("card_face", "card_back", "button", "chip", "hand", "print")
Point = tuple[float, float]
Polygon = tuple[Point, ...]


def _pts(poly: Polygon) -> list[list[float]]:
    return [[round(x, 2), round(y, 2)] for x, y in poly]


def _poly(data: Any) -> Polygon:
    return tuple((float(x), float(y)) for x, y in data)


@dataclass(frozen=True, slots=True)
class IndexCornerTruth:
    """One printed index (rank over suit) of a face-up card: its box in the image and the share visible."""

    polygon: Polygon
    visible: float

    def to_dict(self) -> dict[str, Any]:
        return {"polygon": _pts(self.polygon), "visible": round(self.visible, 4)}


@dataclass(frozen=True, slots=True)
class ObjectTruth:
    """One object on the table.

    `polygon` is the outline (a card's 4 corners in the order top-left, top-right, bottom-right,
    bottom-left of its artwork; a disc's 24-gon; a hand's hull). `visible` is the share of the
    object's own pixels that no later-drawn object covers. `zone` is "seat:N", "muck", "stub", "pot",
    "button", "transit" or "table"; `table_xy` the centre in table cm.
    """

    id: int
    kind: ObjectKind
    polygon: Polygon
    visible: float
    table_xy: Point
    zone: str = "table"
    card: Card | None = None
    corners: tuple[IndexCornerTruth, ...] = ()
    design: str | None = None

    def bbox(self) -> tuple[float, float, float, float]:
        """(x0, y0, x1, y1) of the outline, image pixels (may reach outside the image)."""
        xs = [p[0] for p in self.polygon]
        ys = [p[1] for p in self.polygon]
        return min(xs), min(ys), max(xs), max(ys)

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id, "kind": self.kind, "polygon": _pts(self.polygon), "visible": round(self.visible, 4),
            "table_xy": [round(self.table_xy[0], 2), round(self.table_xy[1], 2)], "zone": self.zone,
            "card": None if self.card is None else str(self.card),
            "corners": [c.to_dict() for c in self.corners], "design": self.design,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> ObjectTruth:
        return cls(
            id=int(d["id"]), kind=d["kind"], polygon=_poly(d["polygon"]), visible=float(d["visible"]),
            table_xy=(float(d["table_xy"][0]), float(d["table_xy"][1])), zone=str(d["zone"]),
            card=None if d.get("card") is None else parse_card(d["card"]),
            corners=tuple(IndexCornerTruth(_poly(c["polygon"]), float(c["visible"])) for c in d.get("corners", ())),
            design=d.get("design"),
        )


Matrix3 = tuple[tuple[float, float, float], tuple[float, float, float], tuple[float, float, float]]


@dataclass(frozen=True, slots=True)
class SceneTruth:
    """Everything known about one rendered image.

    `homography` maps table cm (the table profile's coordinates) to image pixels.
    """

    seed: int
    split: str
    width: int
    height: int
    homography: Matrix3
    table: str
    seats: int
    face_design: str
    back_design: str
    objects: tuple[ObjectTruth, ...]
    tilt_deg: float = 0.0

    def of_kind(self, kind: ObjectKind) -> tuple[ObjectTruth, ...]:
        return tuple(o for o in self.objects if o.kind == kind)

    def to_dict(self) -> dict[str, Any]:
        return {
            "seed": self.seed, "split": self.split, "width": self.width, "height": self.height,
            "homography": [list(r) for r in self.homography], "table": self.table, "seats": self.seats,
            "face_design": self.face_design, "back_design": self.back_design, "tilt_deg": round(self.tilt_deg, 3),
            "objects": [o.to_dict() for o in self.objects],
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> SceneTruth:
        h = d["homography"]
        return cls(
            seed=int(d["seed"]), split=str(d["split"]), width=int(d["width"]), height=int(d["height"]),
            homography=(tuple(h[0]), tuple(h[1]), tuple(h[2])),
            table=str(d["table"]), seats=int(d["seats"]), face_design=str(d["face_design"]),
            back_design=str(d["back_design"]), objects=tuple(ObjectTruth.from_dict(o) for o in d["objects"]),
            tilt_deg=float(d.get("tilt_deg", 0.0)),
        )
