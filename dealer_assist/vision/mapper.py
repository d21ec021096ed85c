"""TableMapper: one frame's detections, through the homography, into the table's zones.

Each object is placed by its centre in table cm: in a seat's card zone, the muck, the stub, the pot,
or nowhere (in flight, in a hand). A card's face is counted once per frame: when both of its index
corners are found, their middle (the card's) decides the zone; the same face seen in two distant
places goes to the more confident sighting. The button
goes to the nearest seat's button spot. The result is a `TableObservation`, what the Tracker smooths.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from dealer_assist.cards import Card, card_from_index
from dealer_assist.vision.calibration import CameraCalibration
from dealer_assist.vision.detections import BACK_ID, BUTTON_ID, Detections
from dealer_assist.vision.table_profile import Polygon, TableProfile, points_in_polygon


@dataclass(frozen=True, slots=True)
class ZoneView:
    """What one zone holds in one frame: how many cards face down, and which face up."""

    backs: int = 0
    face_up: frozenset[Card] = field(default_factory=frozenset)

    @property
    def count(self) -> int:
        return self.backs + len(self.face_up)

    def __str__(self) -> str:
        ups = " ".join(sorted(str(c) for c in self.face_up))
        return f"{self.backs}d" + (f"+{ups}" if ups else "")


EMPTY = ZoneView()


@dataclass(frozen=True, slots=True)
class TableObservation:
    """One frame's zone contents: seats[i] is seat i+1; `stray` counts cards outside every zone, and
    `loose[i]` those of them near seat i+1 (cards on their way out of a seat, or on their way in)."""

    t: float
    frame: int
    seats: tuple[ZoneView, ...]
    muck: ZoneView = EMPTY
    stub: ZoneView = EMPTY
    pot: ZoneView = EMPTY
    button_seat: int | None = None
    stray: int = 0
    loose: tuple[int, ...] = ()

    def seat(self, number: int) -> ZoneView:
        return self.seats[number - 1]


@dataclass(frozen=True, slots=True)
class MapperConfig:
    """Thresholds: minimum confidence kept, how far outside a seat zone a card may lie, button reach."""

    # The detector's per-class thresholds already decide what it reports; a second bar here only loses real cards
    # (a back half under the next card of a dealt row scores 0.3 to 0.45, a face-up read is detector x classifier
    # score, mostly 0.1 to 0.6). At 0.5 it cut the events reproduced on the hand videos from 64% to 31%.
    min_confidence: float = 0.0
    zone_margin_cm: float = 3.0
    button_reach_cm: float = 30.0
    same_card_cm: float = 12.0      # detections of one face closer than this are one card (its two corners)
    loose_reach_cm: float = 35.0    # a card outside every zone this near a seat's card spot is loose at that seat
    # The game's hand size (None: no limit). More cards than that at a seat is a dealer error the referee must see,
    # but far more often the detector's second box on one card of a dealt row (its whole outline and the strip
    # that shows). So past the hand size, a back counts only when it lies `extra_back_gap_cm` or more from every
    # more confident back there: a second box on one card lies closer, a card dealt too many beside the others.
    hand_size: int | None = None
    extra_back_gap_cm: float = 2.0


def _distance_to_polygon(points: npt.NDArray[np.float64], poly: Polygon) -> npt.NDArray[np.float64]:
    """Distance from each point (N, 2) to the polygon's edges."""
    verts = np.asarray(poly, dtype=np.float64)
    a, b = verts, np.roll(verts, -1, axis=0)
    ab = b - a                                                   # (E, 2)
    ap = points[:, None, :] - a[None, :, :]                      # (N, E, 2)
    denom = np.maximum((ab * ab).sum(axis=1), 1e-12)
    u = np.clip((ap * ab[None]).sum(axis=2) / denom[None], 0.0, 1.0)
    closest = a[None] + u[..., None] * ab[None]
    out: npt.NDArray[np.float64] = np.sqrt(((points[:, None, :] - closest) ** 2).sum(axis=2)).min(axis=1)
    return out


class TableMapper:
    """Maps image-space detections into per-zone observations for one calibrated table."""

    def __init__(self, profile: TableProfile, calibration: CameraCalibration,
                 config: MapperConfig | None = None) -> None:
        self.profile = profile
        self.calibration = calibration
        self.config = config or MapperConfig()
        self._seat_zones = [s.zone for s in profile.seats]
        self._areas = (profile.muck, profile.stub, profile.pot)
        self._button_spots = np.array([s.button_spot for s in profile.seats], dtype=np.float64)
        self._card_spots = np.array([s.card_spot for s in profile.seats], dtype=np.float64)

    def zone_of(self, points: npt.ArrayLike) -> npt.NDArray[np.int64]:
        """Zone code per table point: 1..N a seat, 0 nowhere, -1 muck, -2 stub, -3 pot."""
        pts = np.asarray(points, dtype=np.float64).reshape(-1, 2)
        codes = np.zeros(len(pts), dtype=np.int64)
        if not len(pts):
            return codes
        for code, poly in zip((-1, -2, -3), self._areas, strict=True):
            codes[(codes == 0) & points_in_polygon(pts, poly)] = code
        for number, zone in enumerate(self._seat_zones, 1):
            codes[(codes == 0) & points_in_polygon(pts, zone)] = number
        loose = np.flatnonzero(codes == 0)
        if len(loose) and self.config.zone_margin_cm > 0:
            dists = np.stack([_distance_to_polygon(pts[loose], z) for z in self._seat_zones], axis=1)
            nearest = dists.argmin(axis=1)
            near = dists[np.arange(len(loose)), nearest] <= self.config.zone_margin_cm
            codes[loose[near]] = nearest[near] + 1
        return codes

    def update(self, detections: Detections, t: float, frame: int) -> TableObservation:
        """The zone contents seen in one frame's detections."""
        dets = detections.with_min_confidence(self.config.min_confidence)
        n = self.profile.seat_count
        if len(dets) == 0:
            return TableObservation(t, frame, tuple(EMPTY for _ in range(n)))
        centres = self.calibration.to_table(dets.centers)
        codes = self.zone_of(centres)
        cls = dets.class_id
        conf = dets.confidence
        backs: dict[int, int] = {}                               # zone code -> face-down cards
        for i in np.flatnonzero(cls == BACK_ID):
            backs[int(codes[i])] = backs.get(int(codes[i]), 0) + 1
        faces: dict[int, set[Card]] = {}                         # zone code -> face-up cards
        for cid in np.unique(cls[cls < BACK_ID]):
            idx = np.flatnonzero(cls == cid)
            code = int(codes[idx[int(np.argmax(conf[idx]))]])
            if len(idx) > 1 and np.ptp(centres[idx], axis=0).max() <= self.config.same_card_cm:
                # both index corners of one card: the card's middle decides its zone
                code = int(self.zone_of(np.average(centres[idx], axis=0, weights=conf[idx]))[0])
            faces.setdefault(code, set()).add(card_from_index(int(cid)))

        if self.config.hand_size is not None:
            for number in range(1, n + 1):
                over = backs.get(number, 0) + len(faces.get(number, ())) - self.config.hand_size
                if over > 0 and backs.get(number, 0):
                    second = self._second_boxes(centres, conf, (cls == BACK_ID) & (codes == number))
                    backs[number] -= min(over, second)

        def view(code: int) -> ZoneView:
            return ZoneView(backs.get(code, 0), frozenset(faces.get(code, ())))

        stray_idx = np.flatnonzero((codes == 0) & (cls != BUTTON_ID))
        loose = [0] * n
        if len(stray_idx):
            d = np.hypot(*(centres[stray_idx][:, None, :] - self._card_spots[None]).transpose(2, 0, 1))
            for seat in np.flatnonzero((d <= self.config.loose_reach_cm).any(axis=0)):
                loose[int(seat)] = int((d[:, seat] <= self.config.loose_reach_cm).sum())
        return TableObservation(
            t, frame, tuple(view(s) for s in range(1, n + 1)), view(-1), view(-2), view(-3),
            self._button_seat(dets, centres), len(stray_idx), tuple(loose),
        )

    def _second_boxes(self, centres: npt.NDArray[np.float64], conf: npt.NDArray[np.float32],
                      mask: npt.NDArray[np.bool_]) -> int:
        """How many of the masked backs lie closer than `extra_back_gap_cm` to a more confident one kept."""
        kept: list[npt.NDArray[np.float64]] = []
        dropped = 0
        for i in np.flatnonzero(mask)[np.argsort(-conf[mask], kind="stable")]:
            if any(np.hypot(*(centres[i] - k)) < self.config.extra_back_gap_cm for k in kept):
                dropped += 1
            else:
                kept.append(centres[i])
        return dropped

    def _button_seat(self, dets: Detections, centres: npt.NDArray[np.float64]) -> int | None:
        """The seat whose button spot is nearest the most confident button, if it is within reach."""
        idx = np.flatnonzero(dets.is_button)
        if not len(idx):
            return None
        best = idx[int(np.argmax(dets.confidence[idx]))]
        d = np.hypot(*(self._button_spots - centres[best]).T)
        seat = int(np.argmin(d))
        return seat + 1 if d[seat] <= self.config.button_reach_cm else None
