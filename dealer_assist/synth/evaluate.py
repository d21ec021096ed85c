"""Held-out figures of a detector on rendered scenes with exact ground truth.

Matching rules (image px):
- A face-up card "must be found" when one of its index corners is at least `MUST_VISIBLE` visible
  (and inside the image); it "may be found" (no penalty either way) when a corner or `MAY_CARD_VISIBLE`
  of the card shows. A card detection is a true positive when the scene has that card (one deck per
  scene) and the detection's centre lies within the card's outline grown by a margin; otherwise it
  is a false positive. Recall counts must-find cards found; precision counts card detections that
  are true positives among those not matched to a may-find card.
- A face-down card must be found when at least `BACK_VISIBLE` of it shows; back detections are paired one to one
  with the backs whose outlines hold their centres, as many pairs as can be made (`max_matching`).
- The button is found when a button detection's centre lies within the button's outline (grown).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

import cv2
import numpy as np

from dealer_assist.cards import Card
from dealer_assist.synth.truth import ObjectTruth, SceneTruth
from dealer_assist.vision.detections import Detections

MUST_VISIBLE = 0.8
MAY_CORNER_VISIBLE = 0.2
MAY_CARD_VISIBLE = 0.3
BACK_VISIBLE = 0.5
BACK_MAY_VISIBLE = 0.05
SIZE_BUCKETS = (8.0, 12.0, 20.0)
"""Recall is also split by the height in image px of a card's most visible index corner."""
SIZE_NAMES = ("<8px", "8-12px", "12-20px", ">=20px")


def size_bucket(px: float) -> str:
    """The SIZE_NAMES entry for an index corner `px` high."""
    return SIZE_NAMES[sum(px >= edge for edge in SIZE_BUCKETS)]


def _inside(obj: ObjectTruth, x: float, y: float, grow: float) -> bool:
    poly = np.asarray(obj.polygon, dtype=np.float32).reshape(-1, 1, 2)
    return bool(cv2.pointPolygonTest(poly, (float(x), float(y)), True) >= -grow)


def _in_image(poly: Iterable[tuple[float, float]], w: int, h: int) -> bool:
    pts = np.asarray(list(poly))
    return bool(pts[:, 0].min() >= 0 and pts[:, 1].min() >= 0 and pts[:, 0].max() <= w and pts[:, 1].max() <= h)


def max_matching(holds: list[list[int]], n_right: int) -> dict[int, int]:
    """The most (left, right) pairs with each side used once, `holds[left]` listing the rights it may pair with.

    Backs of a fan or a dealt row overlap, so a box's centre often lies on two cards: pairing boxes to cards
    first come, first served left a card uncounted when an earlier box took it from a later box that lay on it
    alone. Augmenting paths (Kuhn) find the largest pairing; a scene holds tens of boxes, so this is instant
    (written here: scipy's linear_sum_assignment would add a dependency for twelve lines).
    """
    owner = [-1] * n_right

    def place(left: int, seen: set[int]) -> bool:
        for right in holds[left]:
            if right not in seen:
                seen.add(right)
                if owner[right] < 0 or place(owner[right], seen):
                    owner[right] = left
                    return True
        return False

    for left in range(len(holds)):
        place(left, set())
    return {left: right for right, left in enumerate(owner) if left >= 0}


@dataclass
class Tally:
    """Counts over scenes; figures are ratios of these."""

    cards_must: int = 0
    cards_found: int = 0
    card_dets: int = 0
    card_dets_ok: int = 0
    card_dets_wrong_label: int = 0
    backs_must: int = 0
    backs_found: int = 0
    back_dets: int = 0
    back_dets_ok: int = 0
    scenes_with_button: int = 0
    buttons_found: int = 0
    button_false: int = 0
    scenes: int = 0
    misses: list[str] = field(default_factory=list)
    must_by_size: dict[str, int] = field(default_factory=dict)
    found_by_size: dict[str, int] = field(default_factory=dict)

    def add(self, truth: SceneTruth, dets: Detections) -> None:
        self.scenes += 1
        w, h = truth.width, truth.height
        faces: dict[Card, ObjectTruth] = {o.card: o for o in truth.objects if o.kind == "card_face" and o.card}
        must: set[int] = set()
        may: set[int] = set()
        bucket: dict[int, str] = {}
        for face, o in faces.items():
            corners = [c for c in o.corners if _in_image(c.polygon, w, h)]
            vis = [c.visible for c in corners]
            if vis and max(vis) >= MUST_VISIBLE:
                must.add(face.index)
                top = max(corners, key=lambda c: c.visible)
                bucket[face.index] = size_bucket(float(np.ptp(np.asarray(top.polygon)[:, 1])))
            elif (vis and max(vis) >= MAY_CORNER_VISIBLE) or o.visible >= MAY_CARD_VISIBLE:
                may.add(face.index)
        found: set[int] = set()
        for i in np.flatnonzero(dets.is_face_up).tolist():
            cid = int(dets.class_id[i])
            cx, cy = (float(v) for v in dets.centers[i])
            card = dets.card(i)
            obj = faces.get(card) if card is not None else None
            size = 0.0
            if obj is not None:
                pts = np.asarray(obj.polygon)
                size = float(max(np.ptp(pts[:, 0]), np.ptp(pts[:, 1])))
            ok = obj is not None and _inside(obj, cx, cy, 0.1 * size + 3)
            if ok and cid in may and cid not in must:
                continue  # a partly hidden card read correctly: neither credit nor penalty
            self.card_dets += 1
            if ok and cid not in found:
                self.card_dets_ok += 1
                found.add(cid)
            else:
                near = [o for o in faces.values() if _inside(o, cx, cy, 3)]
                if near:
                    self.card_dets_wrong_label += 1
                self.misses.append(f"seed {truth.seed}: false {dets.labels[i]} at ({cx:.0f},{cy:.0f})")
        self.cards_must += len(must)
        self.cards_found += len(must & found)
        for cid in must:
            self.must_by_size[bucket[cid]] = self.must_by_size.get(bucket[cid], 0) + 1
            if cid in found:
                self.found_by_size[bucket[cid]] = self.found_by_size.get(bucket[cid], 0) + 1
        for cid in sorted(must - found):
            self.misses.append(f"seed {truth.seed}: missed card {cid}")
        # backs
        backs = [o for o in truth.objects if o.kind == "card_back"]
        must_b = [o for o in backs if o.visible >= BACK_VISIBLE]
        centres = [(float(x), float(y)) for x, y in dets.centers[dets.is_back]]
        holds = [[j for j, o in enumerate(must_b) if _inside(o, x, y, 2)] for x, y in centres]
        pairs = max_matching(holds, len(must_b))
        for k, (x, y) in enumerate(centres):
            if k in pairs:
                self.back_dets += 1
                self.back_dets_ok += 1
            elif not any(_inside(o, x, y, 2) for o in backs if o.visible >= BACK_MAY_VISIBLE):
                self.back_dets += 1  # a box on no card; one on a barely visible back or a second one: no penalty
        self.backs_must += len(must_b)
        self.backs_found += len(pairs)
        # button
        buttons = [o for o in truth.objects if o.kind == "button" and o.visible >= 0.5]
        found_button = False
        for i in np.flatnonzero(dets.is_button).tolist():
            cx, cy = (float(v) for v in dets.centers[i])
            if any(_inside(b, cx, cy, 4) for b in buttons):
                found_button = True
            else:
                self.button_false += 1
        if buttons:
            self.scenes_with_button += 1
            self.buttons_found += int(found_button)

    def recall_by_size(self) -> dict[str, tuple[float, int]]:
        """Face-up recall per index-corner height bucket: (recall, cards)."""
        return {k: (self.found_by_size.get(k, 0) / self.must_by_size[k], self.must_by_size[k])
                for k in SIZE_NAMES if self.must_by_size.get(k)}

    def figures(self) -> dict[str, float]:
        def ratio(a: int, b: int) -> float:
            return a / b if b else float("nan")

        return {
            "face_up_precision": ratio(self.card_dets_ok, self.card_dets),
            "face_up_recall": ratio(self.cards_found, self.cards_must),
            "backs_recall": ratio(self.backs_found, self.backs_must),
            "backs_precision": ratio(self.back_dets_ok, self.back_dets),
            "button_found": ratio(self.buttons_found, self.scenes_with_button),
            "scenes": float(self.scenes),
            "face_up_cards": float(self.cards_must),
            "backs": float(self.backs_must),
        }
