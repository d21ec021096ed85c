"""Training data: a YOLO dataset (index corner, back, button) from rendered scenes; index-corner crops.

The detector works at a fixed "work scale": a frame is resized so that its long side is
`WORK_LONG_SIDE` px (1920x1080 -> 1280x720; 1280x720 stays as it is). Training images are tiles of
`TILE` px cut from scenes resized the same way, so objects keep the size the model sees at run time.
The classifier reads index corners from the full-resolution image, as square crops around each corner's box.

Labels follow the ground truth exactly:
- "index": each index corner of a face-up card with at least `MIN_INDEX_VISIBLE` of it visible
  (its axis-aligned box grown `INDEX_GROW` times about its centre);
- "back": each face-down card with at least `MIN_BACK_VISIBLE` visible (box of its outline);
- "button": the dealer button with at least `MIN_BUTTON_VISIBLE` visible.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

from dealer_assist.synth.truth import ObjectTruth, SceneTruth

Image = npt.NDArray[np.uint8]

DETECTOR_CLASSES: tuple[str, ...] = ("index", "back", "button")
WORK_LONG_SIDE = 1280
TILE = 320
MIN_INDEX_VISIBLE = 0.5
MIN_BACK_VISIBLE = 0.3
MIN_BUTTON_VISIBLE = 0.3
MIN_INSIDE = 0.6  # share of an object's box that must lie inside a tile for it to be labelled there
INDEX_GROW = 1.6
"""An "index" label is the index corner's box grown this much about its centre: at 1280 px a full-table
view's corners are 5 to 9 px, too small for stride-8 anchor points to land inside; the classifier still
crops around the true corner (crop side = crop_scale / INDEX_GROW x the detected box)."""
NOT_A_CARD = 52
MIN_CROP_PX = 7.0
"""Index corners smaller than this (longer side, image px) teach the classifier nothing but guessing: their
glyphs are 2 to 3 px. Training crops skip them; at run time the classifier abstains on them (low confidence)."""
ART_MIN_PX = 8.0
LARGE_ART_PX = (24.0, 120.0)
"""Corner sizes (image px) of the art crops drawn at the classifier's large input: a close photo's corners."""
LARGE_READ_FROM_PX = 40.0
"""A crop square at least this many image px across is read at the classifier's large input as well (where the
manifest names one): a corner of 27 px and more, shrunk less there; a table camera's corners are 5 to 20 px."""


@dataclass(frozen=True, slots=True)
class LabelBox:
    """One labelled box in image px: a detector class and, for index corners, the card's index (0..51)."""

    cls: int
    x0: float
    y0: float
    x1: float
    y1: float
    card: int = -1

    def clipped(self, w: float, h: float) -> LabelBox:
        return LabelBox(self.cls, max(0.0, self.x0), max(0.0, self.y0), min(w, self.x1), min(h, self.y1), self.card)

    @property
    def area(self) -> float:
        return max(0.0, self.x1 - self.x0) * max(0.0, self.y1 - self.y0)


def _box(poly: Iterable[tuple[float, float]]) -> tuple[float, float, float, float]:
    pts = np.asarray(list(poly), dtype=np.float64)
    return float(pts[:, 0].min()), float(pts[:, 1].min()), float(pts[:, 0].max()), float(pts[:, 1].max())


def label_boxes(truth: SceneTruth) -> list[LabelBox]:
    """The detector's labels for a scene, in image px, clipped to the image; objects mostly off-image dropped."""
    out: list[LabelBox] = []
    w, h = float(truth.width), float(truth.height)

    def add(cls: int, poly: Iterable[tuple[float, float]], card: int = -1, grow: float = 1.0) -> None:
        x0, y0, x1, y1 = _box(poly)
        cx, cy, hw, hh = (x0 + x1) / 2, (y0 + y1) / 2, (x1 - x0) * grow / 2, (y1 - y0) * grow / 2
        box = LabelBox(cls, cx - hw, cy - hh, cx + hw, cy + hh, card=card)
        clipped = box.clipped(w, h)
        if box.area > 0 and clipped.area / box.area >= MIN_INSIDE and clipped.area >= 4:
            out.append(clipped)

    for obj in truth.objects:
        if obj.kind == "card_face" and obj.card is not None:
            for corner in obj.corners:
                if corner.visible >= MIN_INDEX_VISIBLE:
                    add(0, corner.polygon, obj.card.index, INDEX_GROW)
        elif obj.kind == "card_back" and obj.visible >= MIN_BACK_VISIBLE:
            add(1, obj.polygon)
        elif obj.kind == "button" and obj.visible >= MIN_BUTTON_VISIBLE:
            add(2, obj.polygon)
    return out


def work_scale(width: int, height: int, long_side: int = WORK_LONG_SIDE) -> float:
    """Factor that brings an image to the work scale (long side = `long_side`)."""
    return long_side / max(width, height)


def tile_origins(length: int, tile: int) -> list[int]:
    """Start offsets of tiles covering `length` px with the fewest tiles, evenly overlapped."""
    if length <= tile:
        return [0]
    n = int(np.ceil(length / tile))
    if n == 1:
        return [0]
    step = (length - tile) / (n - 1)
    return [round(i * step) for i in range(n)]


def yolo_tiles(image: Image, truth: SceneTruth, tile: int = TILE, long_side: int = WORK_LONG_SIDE,
               classes: Callable[[LabelBox], int] | None = None) -> Iterator[tuple[Image, list[str]]]:
    """The scene at work scale, cut into tiles; each with its YOLO label lines ("cls cx cy w h", normalised).
    `classes` names each box's class (default: the detector's three, `LabelBox.cls`)."""
    s = work_scale(truth.width, truth.height, long_side)
    size = (round(image.shape[1] * s), round(image.shape[0] * s))
    small = image if size == (image.shape[1], image.shape[0]) else cv2.resize(image, size, interpolation=cv2.INTER_AREA)
    boxes = label_boxes(truth)
    hh, ww = small.shape[:2]
    for ty in tile_origins(hh, tile):
        for tx in tile_origins(ww, tile):
            crop = np.full((tile, tile, 3), 114, dtype=np.uint8)
            part = small[ty : ty + tile, tx : tx + tile]
            crop[: part.shape[0], : part.shape[1]] = part
            lines = []
            for b in boxes:
                full = LabelBox(b.cls, b.x0 * s - tx, b.y0 * s - ty, b.x1 * s - tx, b.y1 * s - ty)
                inside = full.clipped(min(tile, part.shape[1]), min(tile, part.shape[0]))
                if full.area <= 0 or inside.area / full.area < MIN_INSIDE or inside.area < 2:
                    continue
                cx, cy = (inside.x0 + inside.x1) / 2 / tile, (inside.y0 + inside.y1) / 2 / tile
                bw, bh = (inside.x1 - inside.x0) / tile, (inside.y1 - inside.y0) / tile
                lines.append(f"{b.cls if classes is None else classes(b)} {cx:.6f} {cy:.6f} {bw:.6f} {bh:.6f}")
            yield crop, lines


def write_yolo_dataset(root: Path, splits: dict[str, Iterable[tuple[Image, SceneTruth]]]) -> Path:
    """Write `root/images/<split>/*.jpg`, `root/labels/<split>/*.txt` and `root/data.yaml`; returns the yaml."""
    counts: dict[str, int] = {}
    for split, scenes in splits.items():
        img_dir = root / "images" / split
        lbl_dir = root / "labels" / split
        img_dir.mkdir(parents=True, exist_ok=True)
        lbl_dir.mkdir(parents=True, exist_ok=True)
        n = 0
        for image, truth in scenes:
            for k, (tile_img, lines) in enumerate(yolo_tiles(image, truth)):
                stem = f"s{truth.seed:07d}_{k}"
                cv2.imwrite(str(img_dir / f"{stem}.jpg"), tile_img, [cv2.IMWRITE_JPEG_QUALITY, 92])
                (lbl_dir / f"{stem}.txt").write_text("\n".join(lines) + ("\n" if lines else ""))
                n += 1
        counts[split] = n
    yaml = root / "data.yaml"
    names = "\n".join(f"  {i}: {name}" for i, name in enumerate(DETECTOR_CLASSES))
    yaml.write_text(f"path: {root.resolve()}\ntrain: images/train\nval: images/val\nnames:\n{names}\n")
    (root / "counts.json").write_text(json.dumps(counts))
    return yaml


# --------------------------------------------------------------------------------------------
# Index-corner crops for the classifier.


def square_crop(image: Image, cx: float, cy: float, side: float, size: int) -> Image:
    """A size x size crop of the square (centre cx, cy; side px) from the image, borders replicated."""
    s = size / max(side, 1.0)
    m = np.array([[s, 0, size / 2 - s * cx], [0, s, size / 2 - s * cy]], dtype=np.float64)
    interp = cv2.INTER_AREA if s < 1 else cv2.INTER_LINEAR
    return np.asarray(cv2.warpAffine(image, m, (size, size), flags=interp, borderMode=cv2.BORDER_REPLICATE),
                      dtype=np.uint8)


def index_crops(
    image: Image, truth: SceneTruth, rng: np.random.Generator, *, size: int = 32, crop_scale: float = 1.5,
    jitter: float = 0.12, per_corner: int = 2, negatives: float = 0.5, min_px: float = MIN_CROP_PX,
) -> Iterator[tuple[Image, int]]:
    """(crop, label) pairs: label = card index for visible index corners (jittered like detector boxes),
    NOT_A_CARD for crops of backs, buttons, chips, hands, pips, barely visible corners and bare felt."""
    h, w = image.shape[:2]
    positives = 0
    faces = [o for o in truth.objects if o.kind == "card_face" and o.card is not None]
    for obj in faces:
        assert obj.card is not None
        for corner in obj.corners:
            if corner.visible < MIN_INDEX_VISIBLE:
                continue
            x0, y0, x1, y1 = _box(corner.polygon)
            if x0 < 0 or y0 < 0 or x1 > w or y1 > h or max(x1 - x0, y1 - y0) < min_px:
                continue
            for _ in range(per_corner):
                bw, bh = (x1 - x0) * rng.uniform(0.85, 1.15), (y1 - y0) * rng.uniform(0.85, 1.15)
                side = max(bw, bh) * crop_scale
                cx = (x0 + x1) / 2 + rng.normal(0, jitter) * max(bw, bh)
                cy = (y0 + y1) / 2 + rng.normal(0, jitter) * max(bw, bh)
                yield square_crop(image, cx, cy, side, size), obj.card.index
                positives += 1
    # Negatives: things the detector might mistake for an index corner.
    n_neg = max(2, round(positives * negatives))
    sides = [max(_box(c.polygon)[2] - _box(c.polygon)[0], _box(c.polygon)[3] - _box(c.polygon)[1])
             for o in faces for c in o.corners] or [0.03 * max(w, h)]
    typical = float(np.median(sides))
    others = [o for o in truth.objects if o.kind in ("card_back", "button", "chip", "hand") and o.visible > 0.3]
    for _ in range(n_neg):
        side = typical * crop_scale * rng.uniform(0.8, 1.3)
        pick = rng.uniform()
        if pick < 0.4 and others:
            obj = others[int(rng.integers(len(others)))]
            cx, cy = _point_in(obj, rng)
        elif pick < 0.7 and faces:
            obj = faces[int(rng.integers(len(faces)))]
            cx, cy = _point_in(obj, rng)  # pips, pictures, card edges: anything but a readable index
            if any(_near_readable_corner(cx, cy, o, typical) for o in faces):
                continue
        elif pick < 0.8 and faces:
            obj = faces[int(rng.integers(len(faces)))]
            hidden = [c for c in obj.corners if c.visible < 0.25]
            if not hidden:
                continue
            c = hidden[int(rng.integers(len(hidden)))]
            x0, y0, x1, y1 = _box(c.polygon)
            cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        else:
            cx, cy = rng.uniform(0, w), rng.uniform(0, h)
            if any(_near_readable_corner(cx, cy, o, typical) for o in faces):
                continue
        if 0 <= cx < w and 0 <= cy < h:
            yield square_crop(image, cx, cy, side, size), NOT_A_CARD


def _point_in(obj: ObjectTruth, rng: np.random.Generator) -> tuple[float, float]:
    pts = np.asarray(obj.polygon, dtype=np.float64)
    weights = rng.dirichlet(np.ones(len(pts)) * 0.7)
    p = weights @ pts
    return float(p[0]), float(p[1])


def _near_readable_corner(cx: float, cy: float, obj: ObjectTruth, typical: float) -> bool:
    for c in obj.corners:
        if c.visible >= 0.25:
            x0, y0, x1, y1 = _box(c.polygon)
            if abs(cx - (x0 + x1) / 2) < typical and abs(cy - (y0 + y1) / 2) < typical:
                return True
    return False


# --------------------------------------------------------------------------------------------
# Index-corner crops straight from card art: cheap and plentiful, for the classifier.

_FELTS = ((40, 110, 30), (30, 80, 20), (90, 60, 20), (30, 30, 110), (60, 60, 60), (20, 60, 90), (110, 40, 40))


_SHRUNK: dict[tuple[int, int], Image] = {}


def _shrunk(img: Image, want: float) -> tuple[Image, float]:
    """A copy of `img` shrunk by halves to no less than `want` of its size (no aliasing in the warp)."""
    f = 1.0
    out = img
    level = 0
    while want <= f * 0.5 and out.shape[1] > 8:
        level += 1
        key = (id(img), level)
        cached: Image | None = _SHRUNK.get(key)
        if cached is None:
            if len(_SHRUNK) > 20000:
                _SHRUNK.clear()
            half_size = (max(2, out.shape[1] // 2), max(2, out.shape[0] // 2))
            cached = np.asarray(cv2.resize(out, half_size, interpolation=cv2.INTER_AREA), dtype=np.uint8)
            _SHRUNK[key] = cached
        out = cached
        f *= 0.5
    return out, f


def _paste(canvas: npt.NDArray[np.float32], art: Image, m: npt.NDArray[np.float64]) -> npt.NDArray[np.float32]:
    """Warp a BGRA card image onto a float BGR canvas with affine `m`; returns the coverage (alpha) map."""
    h, w = canvas.shape[:2]
    warped = cv2.warpAffine(art, m, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=0)
    alpha = warped[:, :, 3:4].astype(np.float32) / 255.0
    canvas *= 1 - alpha
    canvas += warped[:, :, :3].astype(np.float32) * alpha
    return alpha[:, :, 0]


ART_CROPS_VERSION = 2
"""Bumped when `art_crops` draws differently, so cached classifier data from older draws is rebuilt."""


def _tilt(rng: np.random.Generator) -> npt.NDArray[np.float64]:
    """The card plane seen from a tilted camera, to first order: squashed by cos(tilt) (up to 40 degrees,
    past the scenes' 30) along a random direction, so art crops show the foreshortened glyphs of scenes."""
    phi = float(rng.uniform(0, np.pi))
    squash = float(np.cos(np.radians(rng.uniform(0, 40)))) if rng.uniform() < 0.6 else 1.0
    c, s = np.cos(phi), np.sin(phi)
    turn = np.array([[c, -s], [s, c]])
    return np.asarray(turn @ np.diag([1.0, squash]) @ turn.T, dtype=np.float64)


def art_crops(
    n: int, rng: np.random.Generator, face_designs: list[object], back_images: list[Image], *, size: int = 32,
    crop_scale: float = 1.5, min_px: float = ART_MIN_PX, max_px: float = 40.0, negatives: float = 0.3,
) -> tuple[Image, npt.NDArray[np.int64]]:
    """`n` crops drawn from card art: an index corner of a random card of a random design, turned to any
    angle, shrunk so the corner is `min_px`..`max_px` (log-uniform), maybe half-covered by the next card
    of a spread, on felt, with blur, noise, light and JPEG; the crop jittered like a detector box.
    About `negatives` of them show no readable index (a back, a face's middle, felt, a covered corner)
    and are labelled NOT_A_CARD. `face_designs` are `card_art.FaceDesign`s."""
    from dealer_assist.cards import FULL_DECK

    xs = np.empty((n, size, size, 3), dtype=np.uint8)
    ys = np.empty(n, dtype=np.int64)
    k = 0
    while k < n:
        design: object = face_designs[int(rng.integers(len(face_designs)))]
        faces: dict[object, Image] = design.faces  # type: ignore[attr-defined]
        boxes = design.index_boxes  # type: ignore[attr-defined]
        card = FULL_DECK[int(rng.integers(52))]
        art = faces[card]
        ah, aw = art.shape[:2]
        box = boxes[int(rng.integers(len(boxes)))]
        bx0, by0, bx1, by1 = box.x0 * aw, box.y0 * ah, box.x1 * aw, box.y1 * ah
        target = float(np.exp(rng.uniform(np.log(min_px), np.log(max_px))))
        theta = float(rng.uniform(0, 2 * np.pi))
        c, s = np.cos(theta), np.sin(theta)
        rmat = np.array([[c, -s], [s, c]]) @ _tilt(rng)
        corners = np.array([[bx0, by0], [bx1, by0], [bx1, by1], [bx0, by1]])
        rot = corners @ rmat.T
        ext = rot.max(axis=0) - rot.min(axis=0)
        k_scale = target / max(float(ext.max()), 1.0)
        canvas_side = int(np.ceil(target * crop_scale * 2.2)) + 8
        centre = np.array([(bx0 + bx1) / 2, (by0 + by1) / 2])
        kind = rng.uniform()
        label = card.index
        if kind < negatives * 0.35:  # a face's middle (pips, pictures) or edge
            centre = np.array([rng.uniform(0.2, 0.8) * aw, rng.uniform(0.25, 0.75) * ah])
            label = NOT_A_CARD
        elif kind < negatives * 0.6 and back_images:  # a back
            art = back_images[int(rng.integers(len(back_images)))]
            ah, aw = art.shape[:2]
            centre = np.array([rng.uniform(0.05, 0.95) * aw, rng.uniform(0.05, 0.95) * ah])
            label = NOT_A_CARD
        corners = corners - np.array([(bx0 + bx1) / 2, (by0 + by1) / 2]) + centre  # the crop's box follows centre
        felt_crop = label == card.index and kind < negatives
        if felt_crop:
            label = NOT_A_CARD
        half = canvas_side / 2

        def affine(scale_f: float, anchor: npt.NDArray[np.float64], rmat: npt.NDArray[np.float64] = rmat,
                   k_scale: float = k_scale, half: float = half) -> npt.NDArray[np.float64]:
            """Art px of an image shrunk by scale_f -> canvas: `anchor` (full-size art px) lands mid-canvas."""
            a = rmat * (k_scale / scale_f)
            return np.column_stack([a, half - a @ (anchor * scale_f)])

        felt = np.array(_FELTS[int(rng.integers(len(_FELTS)))], np.float32) * rng.uniform(0.6, 1.3)
        canvas = np.empty((canvas_side, canvas_side, 3), np.float32)
        canvas[:] = felt
        if label != NOT_A_CARD and rng.uniform() < 0.5:  # the card under it in a spread, offset sideways
            u_small, uf = _shrunk(faces[FULL_DECK[int(rng.integers(52))]], k_scale)
            du = np.array([rng.uniform(0.15, 0.45) * aw, rng.uniform(-0.05, 0.05) * ah])
            _paste(canvas, u_small, affine(uf, centre + du))
        small, f = _shrunk(art, k_scale)
        m = affine(f, centre)
        _paste(canvas, small, m)
        covered = 0.0
        pts = (m[:, :2] @ (corners * f).T).T + m[:, 2]
        if label != NOT_A_CARD and rng.uniform() < 0.35:  # the next card of a spread covers part of the corner
            o_small, of = _shrunk(faces[FULL_DECK[int(rng.integers(52))]], k_scale)
            shift = np.array([-(bx1 - bx0) * rng.uniform(0.0, 1.3) - bx0, rng.uniform(-0.03, 0.03) * ah])
            before = canvas.copy()
            alpha = _paste(canvas, o_small, affine(of, centre + shift))
            mask = np.zeros((canvas_side, canvas_side), np.uint8)
            cv2.fillConvexPoly(mask, np.round(pts).astype(np.int32), 1)
            inside = mask > 0
            covered = float(alpha[inside].mean()) if inside.any() else 0.0
            if 0.3 < covered < 0.6:
                canvas = before  # ambiguous: undo rather than teach either answer
                covered = 0.0
        if covered >= 0.6:
            label = NOT_A_CARD
        img = _camera_effects(canvas, rng)
        cx, cy, side = _detector_square(pts, rng, crop_scale)
        if felt_crop:  # beside the card: felt, an edge
            cx, cy = cx + rng.choice([-1, 1]) * side * 1.3, cy + rng.choice([-1, 1]) * side * 1.3
        xs[k] = square_crop(img, cx, cy, side, size)
        ys[k] = label
        k += 1
    return xs, ys


def _camera_effects(canvas: npt.NDArray[np.float32], rng: np.random.Generator) -> Image:
    """Camera effects at the native pixel scale: exposure, white balance, a washed-out lens, glare, blur, noise,
    JPEG."""
    canvas *= np.float32(rng.uniform(0.65, 1.2)) * rng.uniform(0.85, 1.15, 3).astype(np.float32)
    if rng.uniform() < 0.3:
        canvas += (canvas.mean() - canvas) * np.float32(rng.uniform(0.1, 0.45))
    if rng.uniform() < 0.25:
        canvas += (255 - canvas) * np.float32(rng.uniform(0.1, 0.5))  # glare
    sigma = float(rng.choice([0.0, 0.0, rng.uniform(0.3, 1.2)]))
    if sigma > 0.05:
        canvas = np.asarray(cv2.GaussianBlur(canvas, (0, 0), sigma), dtype=np.float32)
    canvas += rng.normal(0, rng.uniform(0, 7), canvas.shape).astype(np.float32)
    img = np.clip(canvas, 0, 255).astype(np.uint8)
    if rng.uniform() < 0.7:
        _, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(35, 95))])
        img = np.asarray(cv2.imdecode(buf, cv2.IMREAD_COLOR), dtype=np.uint8)
    return img


def _detector_square(pts: npt.NDArray[np.float64], rng: np.random.Generator,
                     crop_scale: float) -> tuple[float, float, float]:
    """The classifier's square (centre x, y and side) around what the detector would box: the axis-aligned box
    of `pts`, its size and centre jittered as a detector's box is."""
    x0, y0 = pts.min(axis=0)
    x1, y1 = pts.max(axis=0)
    bw, bh = (x1 - x0) * rng.uniform(0.85, 1.15), (y1 - y0) * rng.uniform(0.85, 1.15)
    side = max(bw, bh) * crop_scale
    cx = (x0 + x1) / 2 + rng.normal(0, 0.12) * max(bw, bh)
    cy = (y0 + y1) / 2 + rng.normal(0, 0.12) * max(bw, bh)
    return float(cx), float(cy), float(side)


PRINT_TEXTS: tuple[str, ...] = (
    "A", "K", "Q", "J", "10", "1", "2", "5", "7", "8", "9", "25", "50", "100", "500", "1K", "5K", "$5", "$25",
    "BET", "ANTE", "POT", "DEALER", "BADUGI", "POKER", "NO", "OK",
)
"""Print a table shows that is no card: chip denominations, the felt's lettering, the dealer button."""
# Print is drawn for the benchmark's check that it is never read as a card (`print_scene`), not for training.
_CHIP_COLOURS = ((240, 240, 240), (40, 40, 200), (40, 140, 40), (30, 30, 30), (160, 60, 120), (200, 120, 30),
                 (40, 170, 220), (30, 80, 180))
_INKS = ((255, 255, 255), (20, 20, 20), (40, 190, 230), (30, 30, 200), (200, 80, 30))


def _print_ground(rng: np.random.Generator, on_chip: bool) -> npt.NDArray[np.float32]:
    colours = _CHIP_COLOURS if on_chip else _FELTS
    return np.array(colours[int(rng.integers(len(colours)))], np.float32) * np.float32(rng.uniform(0.7, 1.2))


def stamp_print(canvas: npt.NDArray[np.float32], rng: np.random.Generator, fonts: Sequence[str],
                centre: tuple[float, float], height: float, *, ring: float = 0.0) -> npt.NDArray[np.float64]:
    """Draw one `PRINT_TEXTS` string, its letters `height` px tall (any angle, a random font and ink), on a float
    BGR canvas at `centre`, with a chip's inlay ring of radius `ring` px round it; returns the text's 4 corners."""
    from dealer_assist.synth.procedural import glyph

    c0 = np.asarray(centre, np.float64)
    if ring > 0:
        ring_ink = tuple(float(v) for v in _INKS[int(rng.integers(len(_INKS)))])
        cv2.circle(canvas, (int(c0[0]), int(c0[1])), int(ring), ring_ink, max(1, int(ring / 8)), cv2.LINE_AA)
    text = PRINT_TEXTS[int(rng.integers(len(PRINT_TEXTS)))]
    mask = glyph(text, fonts[int(rng.integers(len(fonts)))], max(4, round(height)), 700)
    mh, mw = mask.shape
    fit = min(1.0, 2 * ring / max(mw, 1)) if ring > 0 else 1.0  # a chip's word fits inside its inlay
    theta = float(rng.uniform(0, 2 * np.pi))
    rmat = np.array([[np.cos(theta), -np.sin(theta)], [np.sin(theta), np.cos(theta)]]) * fit
    m = np.column_stack([rmat, c0 - rmat @ np.array([mw / 2, mh / 2])])
    h, w = canvas.shape[:2]
    alpha = cv2.warpAffine(mask, m, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)[..., None]
    ink = np.array(_INKS[int(rng.integers(len(_INKS)))], np.float32)
    canvas *= 1 - alpha
    canvas += ink * alpha
    corners = np.array([[0, 0], [mw, 0], [mw, mh], [0, mh]], np.float64)
    return np.asarray(corners @ m[:, :2].T + m[:, 2], np.float64)


def print_scene(rng: np.random.Generator, fonts: Sequence[str], *, size: tuple[int, int] = (1280, 720),
                items: int = 30, min_px: float = 10.0, max_px: float = 40.0) -> Image:
    """A frame of felt with `items` pieces of print and no card, at the scale of a table whose index corners
    (2.5 cm) are `min_px` to `max_px` tall: chips (4 cm) with their denominations (1 cm) and the felt's lettering
    (1 to 2.5 cm). Whatever a detector names a card, a back or the button here is a false read."""
    w, h = size
    canvas = np.empty((h, w, 3), np.float32)
    canvas[:] = _print_ground(rng, on_chip=False)
    mottle = cv2.resize(rng.normal(0, 1, (9, 16)).astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC)
    canvas *= (1 + 0.08 * np.clip(mottle, -2, 2))[..., None]
    for _ in range(items):
        cm = float(np.exp(rng.uniform(np.log(min_px), np.log(max_px)))) / 2.5  # px per table cm here
        centre = (float(rng.uniform(cm * 5, w - cm * 5)), float(rng.uniform(cm * 5, h - cm * 5)))
        if rng.uniform() < 0.5:
            cv2.circle(canvas, (int(centre[0]), int(centre[1])), int(cm * 2),
                       tuple(float(v) for v in _print_ground(rng, on_chip=True)), -1, cv2.LINE_AA)
            stamp_print(canvas, rng, fonts, centre, cm * rng.uniform(0.7, 1.1), ring=cm * rng.uniform(1.1, 1.5))
        else:
            stamp_print(canvas, rng, fonts, centre, cm * rng.uniform(1.0, 2.5))
    return _camera_effects(canvas, rng)
