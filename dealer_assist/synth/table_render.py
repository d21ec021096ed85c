"""Drawing a table: a pinhole camera over the table plane, felt, rail, and objects warped into place.

Everything is placed in table centimetres (the table profile's coordinates: origin at the top-left of
the table's bounding box, x right, y toward the dealer) and warped into the image through the
camera, one small region of interest per object, so a 720p frame with forty cards takes tens of
milliseconds. Objects above the table (chip stacks, the stub, hands) use the homography of their own
height, so they show parallax under a tilted camera. An id buffer records which object owns each
pixel; visible fractions in the ground truth come from it.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import cv2
import numpy as np
import numpy.typing as npt

from dealer_assist.cards import Card
from dealer_assist.synth.card_art import BackDesign, FaceDesign, f32, u8
from dealer_assist.synth.truth import IndexCornerTruth, ObjectKind, ObjectTruth
from dealer_assist.vision.table_profile import TableProfile

Image = npt.NDArray[np.uint8]
Mat = npt.NDArray[np.float64]

CARD_HEIGHT_CM = 8.89
CHIP_DIAMETER_CM = 3.9
CHIP_THICKNESS_CM = 0.33
BUTTON_DIAMETER_CM = 5.0
RAIL_CM = 10.0
MIN_CAMERA_CM = 110.0


# --------------------------------------------------------------------------------------------
# Camera


@dataclass(frozen=True)
class Camera:
    """A pinhole camera over the table: x = K (R X + t), with X in table cm and z pointing into the table."""

    K: Mat
    R: Mat
    t: Mat
    width: int
    height: int
    tilt_deg: float

    def plane_homography(self, height_cm: float = 0.0) -> Mat:
        """Homography from table cm to image pixels for the plane `height_cm` above the table."""
        m = np.column_stack([self.R[:, 0], self.R[:, 1], self.R[:, 2] * (-height_cm) + self.t])
        h = self.K @ m
        out: Mat = h / h[2, 2]
        return out

    @property
    def homography(self) -> Mat:
        return self.plane_homography(0.0)

    def project(self, pts: npt.ArrayLike, height_cm: float = 0.0) -> npt.NDArray[np.float64]:
        """Project (N, 2) table points lying `height_cm` above the table to (N, 2) image pixels."""
        return apply_h(self.plane_homography(height_cm), pts)


def apply_h(h: Mat, pts: npt.ArrayLike) -> npt.NDArray[np.float64]:
    p = np.asarray(pts, dtype=np.float64).reshape(-1, 2)
    q = np.column_stack([p, np.ones(len(p))]) @ h.T
    out: npt.NDArray[np.float64] = q[:, :2] / q[:, 2:3]
    return out


def _rot(axis: str, deg: float) -> Mat:
    a = math.radians(deg)
    c, s = math.cos(a), math.sin(a)
    if axis == "x":
        return np.array([[1, 0, 0], [0, c, -s], [0, s, c]], dtype=np.float64)
    if axis == "y":
        return np.array([[c, 0, s], [0, 1, 0], [-s, 0, c]], dtype=np.float64)
    return np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]], dtype=np.float64)


def make_camera(
    view: Sequence[tuple[float, float]],
    size: tuple[int, int],
    *,
    tilt_deg: float = 0.0,
    tilt_dir_deg: float = 0.0,
    roll_deg: float = 0.0,
    fov_deg: float = 60.0,
    fill: float = 0.92,
    offset: tuple[float, float] = (0.0, 0.0),
) -> Camera:
    """A camera that frames the table points `view` (cm) in an image of `size`.

    `tilt_deg` leans the optical axis away from the table's normal (toward `tilt_dir_deg`), `roll_deg`
    turns the image about the axis; the view is then scaled to fill `fill` of the image and shifted by
    `offset` (fractions of the image size).
    """
    w, h = size
    pts = np.asarray(view, dtype=np.float64)
    centre = (pts.min(axis=0) + pts.max(axis=0)) / 2
    extent = float(np.linalg.norm(pts.max(axis=0) - pts.min(axis=0)))
    # a real camera hangs at least about a metre over the felt (hands reach 15 cm up)
    dist = max(MIN_CAMERA_CM, extent / (2 * math.tan(math.radians(fov_deg) / 2)))
    # Camera axes in table coordinates (columns): start looking straight down (z into the table).
    m = _rot("z", tilt_dir_deg) @ _rot("x", tilt_deg) @ _rot("z", roll_deg - tilt_dir_deg)
    forward = m[:, 2]
    target = np.array([centre[0], centre[1], 0.0])
    cam_pos = target - forward * dist
    r = m.T
    t = -r @ cam_pos
    k0 = np.eye(3)
    cam0 = Camera(k0, r, t, w, h, tilt_deg)
    proj = cam0.project(pts)
    lo, hi = proj.min(axis=0), proj.max(axis=0)
    span = np.maximum(hi - lo, 1e-9)
    f = fill * min(w / span[0], h / span[1])
    mid = (lo + hi) / 2
    cx = w / 2 - f * mid[0] + offset[0] * w
    cy = h / 2 - f * mid[1] + offset[1] * h
    k = np.array([[f, 0, cx], [0, f, cy], [0, 0, 1]], dtype=np.float64)
    return Camera(k, r, t, w, h, tilt_deg)


# --------------------------------------------------------------------------------------------
# Things to draw


@dataclass(frozen=True, slots=True)
class Placement:
    """One object on (or above) the table.

    `angle_deg` turns the object's artwork: 0 puts the card's top toward -y (away from the dealer).
    `style` seeds the look of chips and hands. `gt` False draws without a ground-truth record (used
    for card edges of a thick stub).
    """

    kind: ObjectKind
    xy: tuple[float, float]
    angle_deg: float = 0.0
    card: Card | None = None
    zone: str = "table"
    height_cm: float = 0.0
    style: int = 0
    count: int = 1  # chips in a stack
    length_cm: float = 0.0  # hands: how far the arm reaches from `xy` back to `anchor`
    anchor: tuple[float, float] = (0.0, 0.0)  # hands: where the arm comes from (off the table)
    gt: bool = True


FELT_LOOKS = 6  # mottle texture, printed line and logo combinations (cached per table)
FELT_LOGOS: tuple[str, ...] = ("", "BADUGI", "", "DEALER ASSIST", "", "POKER ROOM")


@dataclass(frozen=True)
class Felt:
    colour: tuple[int, int, int]
    rail: tuple[int, int, int]
    floor: tuple[int, int, int]
    look: int
    markers: bool
    seed: int


FELT_COLOURS: tuple[tuple[int, int, int], ...] = (
    (40, 110, 35), (55, 95, 20), (30, 80, 30), (110, 70, 20), (90, 55, 25), (40, 40, 130),
    (35, 30, 95), (60, 60, 60), (35, 35, 35), (90, 40, 80), (120, 100, 40), (50, 120, 90),
)
RAIL_COLOURS: tuple[tuple[int, int, int], ...] = ((20, 20, 22), (25, 35, 60), (15, 25, 45), (40, 40, 45), (30, 50, 90))
FLOOR_COLOURS: tuple[tuple[int, int, int], ...] = (
    (40, 50, 60), (30, 30, 35), (60, 80, 100), (20, 25, 30), (70, 60, 55),
)


def random_felt(rng: np.random.Generator) -> Felt:
    base = np.array(FELT_COLOURS[int(rng.integers(len(FELT_COLOURS)))], dtype=np.float64)
    base = np.clip(base * rng.uniform(0.8, 1.2, 3), 5, 250)
    return Felt(
        colour=(int(base[0]), int(base[1]), int(base[2])),
        rail=RAIL_COLOURS[int(rng.integers(len(RAIL_COLOURS)))],
        floor=FLOOR_COLOURS[int(rng.integers(len(FLOOR_COLOURS)))],
        look=int(rng.integers(FELT_LOOKS)), markers=bool(rng.random() < 0.4), seed=int(rng.integers(2**31)),
    )


@dataclass(frozen=True)
class Effects:
    """Image-space look: light, glare, blur, noise, JPEG."""

    gain: tuple[float, float, float] = (1.0, 1.0, 1.0)
    gradient: tuple[float, float, float] = (0.0, 0.0, 0.0)  # (strength, direction radians, vignette)
    spots: tuple[tuple[float, float, float, float], ...] = ()  # (x, y, radius, strength) in image fractions
    glare: tuple[tuple[float, float, float, float, float], ...] = ()  # (x, y, rx, ry, strength)
    blur_sigma: float = 0.0
    motion: float = 0.0
    noise_sigma: float = 0.0
    jpeg_quality: int = 0  # 0 = none


def random_effects(rng: np.random.Generator, strength: float = 1.0) -> Effects:
    s = strength
    spots = tuple(
        (float(rng.uniform(0, 1)), float(rng.uniform(0, 1)), float(rng.uniform(0.2, 0.6)),
         float(rng.uniform(-0.35, 0.35) * s))
        for _ in range(int(rng.integers(0, 3)))
    )
    glare = tuple(
        (float(rng.uniform(0.1, 0.9)), float(rng.uniform(0.1, 0.9)), float(rng.uniform(0.03, 0.12)),
         float(rng.uniform(0.02, 0.08)), float(rng.uniform(0.2, 0.7) * s))
        for _ in range(int(rng.random() < 0.35 * s) + int(rng.random() < 0.1 * s))
    )
    return Effects(
        gain=tuple(float(v) for v in rng.uniform(0.85, 1.12, 3) * rng.uniform(0.75, 1.2)),  # type: ignore[arg-type]
        gradient=(float(rng.uniform(0, 0.35) * s), float(rng.uniform(0, 2 * math.pi)), float(rng.uniform(0, 0.45) * s)),
        spots=spots, glare=glare,
        blur_sigma=float(rng.choice([0.0, 0.0, rng.uniform(0.3, 1.3) * s])),
        motion=float(rng.uniform(2, 6) * s) if rng.random() < 0.1 * s else 0.0,
        noise_sigma=float(rng.uniform(0, 7) * s),
        jpeg_quality=int(rng.integers(35, 95)) if rng.random() < 0.7 * s else 0,
    )


# --------------------------------------------------------------------------------------------
# Sprites: chips, the button, hands


CHIP_COLOURS: tuple[tuple[int, int, int], ...] = (
    (240, 240, 240), (40, 40, 200), (40, 140, 40), (30, 30, 30), (160, 60, 120), (200, 120, 30), (40, 170, 220),
    (200, 200, 80), (60, 200, 230), (170, 170, 170), (180, 140, 240), (30, 90, 160))
CHIP_EDGES = 4  # six spots, many stripes, a plain rim, two-colour dashes
CHIP_INLAYS = 3  # plain, a printed denomination, a denomination inside a ring
CHIP_STYLES = len(CHIP_COLOURS) * CHIP_EDGES * CHIP_INLAYS
CHIP_DENOMINATIONS = ("1", "5", "25", "100", "500", "1K", "5K", "2", "50", "10")


@functools.lru_cache(maxsize=CHIP_STYLES)
def chip_sprite(style: int) -> Image:
    """A chip seen from above (BGRA, 128 px), one of `CHIP_STYLES` looks: a coloured disc, an edge pattern, an inlay
    that is plain or prints the chip's value. Real chips vary this much, and a detector that saw one look called
    plain or printed chips face-down cards."""
    colour_i = style % len(CHIP_COLOURS)
    edge = (style // len(CHIP_COLOURS)) % CHIP_EDGES
    inlay = (style // (len(CHIP_COLOURS) * CHIP_EDGES)) % CHIP_INLAYS
    base = CHIP_COLOURS[colour_i]
    spot = (250, 250, 250) if sum(base) < 600 else (60, 60, 200)
    n = 128
    img = np.zeros((n, n, 4), np.uint8)
    c = n // 2
    cv2.circle(img, (c, c), c - 1, (*base, 255), -1, cv2.LINE_AA)
    if edge == 0:
        for k in range(6):
            a0 = k * 60 + (style * 7) % 30
            cv2.ellipse(img, (c, c), (c - 8, c - 8), 0, a0, a0 + 18, (*spot, 255), 12)
    elif edge == 1:
        for k in range(16):
            cv2.ellipse(img, (c, c), (c - 6, c - 6), 0, k * 22.5, k * 22.5 + 5, (*spot, 255), 10)
    elif edge == 2:
        cv2.circle(img, (c, c), c - 10, (*spot, 255), 2, cv2.LINE_AA)
    else:
        other = CHIP_COLOURS[(colour_i + 5) % len(CHIP_COLOURS)]
        for k in range(8):
            cv2.ellipse(img, (c, c), (c - 8, c - 8), 0, k * 45, k * 45 + 22, (*other, 255), 14)
    cv2.circle(img, (c, c), int(c * 0.62), (*spot, 255), 2, cv2.LINE_AA)
    cv2.circle(img, (c, c), int(c * 0.55), (*[int(v * 0.92) for v in base], 255), -1, cv2.LINE_AA)
    if inlay:
        text = CHIP_DENOMINATIONS[style % len(CHIP_DENOMINATIONS)]
        ink = (20, 20, 20) if sum(base) > 450 else (245, 245, 245)
        if inlay == 2:
            cv2.circle(img, (c, c), int(c * 0.45), (*ink, 255), 2, cv2.LINE_AA)
        layer = np.zeros((n, n), np.uint8)
        face = _chip_font(style)
        size = 34 if len(text) < 3 else 24
        rect = cv2.getTextSize((n, n), text, (0, 0), face, size, 700)
        cv2.putText(layer, text, (int(c - rect[2] / 2), int(c + size / 3)), 255, face, size, 700)
        a = layer.astype(np.float32)[..., None] / 255.0
        img[..., :3] = (img[..., :3] * (1 - a) + np.array(ink, np.float32) * a).astype(np.uint8)
    return img


def _chip_font(style: int) -> cv2.FontFace:
    """A typeface for a chip's value: one of the font decks' rank fonts when the training fonts are installed (never
    DejaVu, which the benchmark's print check uses), else DejaVu, else OpenCV's own."""
    from dealer_assist.synth.procedural import rank_fonts

    fonts = rank_fonts()
    dejavu = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"
    for path in ([fonts[style % len(fonts)]] if fonts else []) + [dejavu]:
        try:
            return cv2.FontFace(path)
        except cv2.error:
            continue
    return cv2.FontFace("sans")


@functools.lru_cache(maxsize=4)
def button_sprite(style: int) -> Image:
    """The dealer button from above (BGRA, 128 px): a white puck reading DEALER."""
    n = 128
    img = np.zeros((n, n, 4), np.uint8)
    c = n // 2
    paper = ((245, 245, 240), (235, 240, 245), (225, 235, 240))[style % 3]
    cv2.circle(img, (c, c), c - 1, (*paper, 255), -1, cv2.LINE_AA)
    cv2.circle(img, (c, c), c - 7, (60, 60, 60, 255), 2, cv2.LINE_AA)
    try:
        face = cv2.FontFace("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf")
    except cv2.error:
        face = cv2.FontFace("sans")
    text_layer = np.zeros((n, n), np.uint8)
    cv2.putText(text_layer, "DEALER", (14, c + 9), 255, face, 25, 700)
    ink = text_layer > 0
    img[ink, :3] = (img[ink, :3] * (1 - text_layer[ink, None] / 255.0)).astype(np.uint8)
    return img


FELT_PRINT_TEXTS: tuple[str, ...] = (
    "A", "K", "Q", "J", "10", "2", "5", "7", "8", "9", "25", "100", "500", "1K", "$1", "$25", "$100", "BET",
    "ANTE", "POT", "CALL", "RAISE", "DEALER", "BADUGI", "BADACEY", "LIMIT", "POKER", "CASINO", "TABLE 7", "NO", "OK",
)
"""Print on a table that is no card: the felt's lettering, and the words and values on a lone chip."""
FELT_PRINT_INKS: tuple[tuple[int, int, int], ...] = (
    (250, 250, 250), (20, 20, 20), (40, 190, 230), (30, 30, 200), (200, 80, 30), (60, 170, 60), (60, 220, 230),
    (150, 150, 150))
PRINT_STYLES = 1 << 20
_PRINT_PX = 48  # a letter's height in the sprite


@functools.lru_cache(maxsize=512)
def print_sprite(style: int) -> tuple[Image, float, float]:
    """Print lying on the felt (BGRA, its width and height in table cm): a word or value in one of the training
    fonts, either the felt's lettering (letters 0.8 to 3 cm, full or faint ink) or on a disc, as a lone chip's.
    Training negatives: a detector trained without them called large letters and lone printed chips backs."""
    from dealer_assist.synth.procedural import glyph, rank_fonts

    rng = np.random.default_rng([style, 0x9817])
    text = FELT_PRINT_TEXTS[int(rng.integers(len(FELT_PRINT_TEXTS)))]
    fonts = rank_fonts() or ("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",)
    mask = glyph(text, fonts[int(rng.integers(len(fonts)))], _PRINT_PX, 700 if rng.random() < 0.7 else 400)
    ink = np.array(FELT_PRINT_INKS[int(rng.integers(len(FELT_PRINT_INKS)))], np.float32)
    if rng.random() < 0.4:  # a lone chip lying flat, a word or its value across it
        diam_cm = float(rng.uniform(3.6, 4.4))
        ppc = _PRINT_PX / float(rng.uniform(0.6, 1.0))
        n = max(8, round(diam_cm * ppc))
        img = np.zeros((n, n, 4), np.uint8)
        c = n // 2
        disc = CHIP_COLOURS[int(rng.integers(len(CHIP_COLOURS)))]
        cv2.circle(img, (c, c), c - 1, (*disc, 255), -1, cv2.LINE_AA)
        if rng.random() < 0.6:
            cv2.circle(img, (c, c), int(c * rng.uniform(0.7, 0.9)), (*(int(v) for v in ink), 255),
                       max(1, n // 40), cv2.LINE_AA)
        mh, mw = mask.shape
        fit = min(1.0, 0.8 * n / mw)
        fitted = cv2.resize(mask, (max(1, round(mw * fit)), max(1, round(mh * fit))), interpolation=cv2.INTER_AREA)
        mh, mw = fitted.shape
        y0, x0 = (n - mh) // 2, (n - mw) // 2
        a = fitted[..., None].astype(np.float32)
        roi = img[y0:y0 + mh, x0:x0 + mw, :3].astype(np.float32)
        img[y0:y0 + mh, x0:x0 + mw, :3] = np.clip(roi * (1 - a) + ink * a + 0.5, 0, 255).astype(np.uint8)
        return img, n / ppc, n / ppc
    ppc = _PRINT_PX / float(rng.uniform(0.8, 3.0))
    framed = cv2.copyMakeBorder(mask, 4, 4, 4, 4, cv2.BORDER_CONSTANT, value=0)
    img = np.zeros((*framed.shape, 4), np.uint8)
    img[..., :3] = ink.astype(np.uint8)
    img[..., 3] = np.clip(framed * 255 * float(rng.uniform(0.45, 1.0)) + 0.5, 0, 255).astype(np.uint8)
    return img, framed.shape[1] / ppc, framed.shape[0] / ppc


SKIN = ((140, 170, 220), (120, 150, 205), (95, 125, 175), (70, 95, 140), (50, 70, 105), (160, 190, 235))
SLEEVES = ((30, 30, 30), (200, 200, 200), (120, 60, 30), (40, 40, 120), (60, 90, 60), (240, 240, 240))
HAND_PX_PER_CM = 4.0


def hand_sprite(style: int, length_cm: float) -> tuple[Image, float]:
    """A hand and forearm pointing up (-y), fingers at the top; returns (BGRA, y of the fingertip row in cm).

    The sprite is `length_cm` long; its origin for placement is the middle of the palm.
    """
    return _hand_sprite(style, round(length_cm))


@functools.lru_cache(maxsize=64)
def _hand_sprite(style: int, length_cm: int) -> tuple[Image, float]:
    rng = np.random.default_rng(style)
    s = HAND_PX_PER_CM
    width_cm = 16.0
    w, h = int(width_cm * s), int((length_cm + 12) * s)
    skin = np.array(SKIN[style % len(SKIN)], np.float64) * rng.uniform(0.9, 1.08)
    sleeve = np.array(SLEEVES[(style // 7) % len(SLEEVES)], np.float64) * rng.uniform(0.85, 1.1)
    cx = w / 2
    palm_y = 12 * s
    pose = ("flat", "spread", "fist", "point", "flat")[(style // 3) % 5]
    mask = np.zeros((h, w), np.uint8)  # skin
    # fingers: (offset across the palm in cm, length in cm, thickness in cm)
    fingers = ((-2.5, 6.3, 1.6), (-0.85, 7.3, 1.7), (0.85, 7.0, 1.7), (2.45, 5.6, 1.5))
    fan = {"flat": 2.0, "spread": 7.0, "fist": 1.0, "point": 2.0}[pose]
    side = 1 if rng.random() < 0.5 else -1  # which side the thumb is on
    index_finger = 0 if side < 0 else 3
    for i, (dx, ln, th) in enumerate(fingers):
        if pose == "point" and i == index_finger:
            ln = 7.0
        if pose == "fist" or (pose == "point" and i != index_finger):
            ln *= 0.35
        a = math.radians(dx * fan + rng.normal(0, 1.5))
        x0, y0 = cx + dx * s * 0.95, palm_y - 3.0 * s
        x1, y1 = x0 + math.sin(a) * ln * s, y0 - math.cos(a) * ln * s
        cv2.line(mask, (int(x0), int(y0)), (int(x1), int(y1)), 255, int(th * s), cv2.LINE_AA)
    tx = cx + side * (5.5 if pose == "spread" else 4.2) * s
    cv2.line(mask, (int(cx + side * 3.0 * s), int(palm_y + 1.5 * s)), (int(tx), int(palm_y - 2.5 * s)), 255,
             int(2.0 * s), cv2.LINE_AA)
    cv2.ellipse(mask, (int(cx), int(palm_y)), (int(4.4 * s), int(4.8 * s)), 0, 0, 360, 255, -1, cv2.LINE_AA)
    wrist = palm_y + 4 * s
    pts = np.array([(cx - 3.4 * s, wrist - 2 * s), (cx + 3.4 * s, wrist - 2 * s), (cx + 4.6 * s, h - 1),
                    (cx - 4.6 * s, h - 1)], np.int32)
    cv2.fillConvexPoly(mask, pts, 255, cv2.LINE_AA)
    cloth = np.zeros((h, w), np.uint8)
    cuff = int(wrist + rng.uniform(3, 14) * s)
    if cuff < h:
        sl = np.array([(cx - 5.0 * s, cuff), (cx + 5.0 * s, cuff), (cx + 6.2 * s, h - 1), (cx - 6.2 * s, h - 1)],
                      np.int32)
        cv2.fillConvexPoly(cloth, sl, 255, cv2.LINE_AA)
    # rounded shading from the distance to the outline, plus fabric folds on the sleeve
    alpha = np.maximum(mask, cloth)
    dist = cv2.distanceTransform((alpha > 127).astype(np.uint8), cv2.DIST_L2, 3)
    round_ = np.clip(dist / (1.2 * s), 0, 1) ** 0.5
    shade = (0.62 + 0.38 * round_)[:, :, None]
    folds = cv2.resize(rng.normal(0, 1, (max(2, h // 24), 3)).astype(np.float32), (w, h),
                       interpolation=cv2.INTER_CUBIC)[:, :, None]
    colour = np.where((cloth > 127)[:, :, None], sleeve * (1 + 0.12 * folds), skin)
    img = np.zeros((h, w, 4), np.uint8)
    img[:, :, :3] = np.clip(colour * shade, 0, 255).astype(np.uint8)
    img[:, :, 3] = alpha
    return img, palm_y / s


# --------------------------------------------------------------------------------------------
# Table layers (cached per table): outline, felt, rail crown, printed line / logo, ArUco markers

_LAYER_PPC = 3.0
_LAYER_MARGIN = 20.0


def _layer_frame(profile: TableProfile) -> tuple[Mat, int, int]:
    to_canvas = np.array([[_LAYER_PPC, 0, _LAYER_MARGIN * _LAYER_PPC], [0, _LAYER_PPC, _LAYER_MARGIN * _LAYER_PPC],
                          [0, 0, 1]], np.float64)
    cw = int((profile.width_cm + 2 * _LAYER_MARGIN) * _LAYER_PPC)
    ch = int((profile.height_cm + 2 * _LAYER_MARGIN) * _LAYER_PPC)
    return to_canvas, cw, ch


@functools.lru_cache(maxsize=24)
def _table_base(profile: TableProfile) -> tuple[npt.NDArray[np.float32], ...]:
    """(table mask, rail crown, felt mask, distance in from the edge in cm) on the layer canvas."""
    to_canvas, cw, ch = _layer_frame(profile)
    outline = np.round(apply_h(to_canvas, _chaikin(np.asarray(profile.outline, np.float64), 3)) * 16).astype(np.int32)
    table = np.zeros((ch, cw), np.uint8)
    cv2.fillPoly(table, [outline], 255, cv2.LINE_AA, shift=4)
    tm = table.astype(np.float32) / 255
    dist = (cv2.distanceTransform((table > 127).astype(np.uint8), cv2.DIST_L2, 5) / _LAYER_PPC).astype(np.float32)
    felt = np.clip((dist - RAIL_CM) * _LAYER_PPC * 0.5 + 0.5, 0, 1).astype(np.float32)
    crown = (np.exp(-((dist - RAIL_CM / 2) ** 2) / (2 * (RAIL_CM / 4) ** 2)) * (dist < RAIL_CM)).astype(np.float32)
    return f32(tm), f32(crown), f32(felt), f32(dist)


def _chaikin(poly: npt.NDArray[np.float64], rounds: int) -> npt.NDArray[np.float64]:
    """Corner cutting: a closed polygon's facets smoothed into a curve (the rail is round, not 48-sided)."""
    for _ in range(rounds):
        nxt = np.roll(poly, -1, axis=0)
        poly = np.stack([0.75 * poly + 0.25 * nxt, 0.25 * poly + 0.75 * nxt], axis=1).reshape(-1, 2)
    return poly


MOTTLE = (0.03, 0.05, 0.07, 0.09)
DECO_GAIN = 0.3


@functools.lru_cache(maxsize=128)
def _table_layers(profile: TableProfile, look: int) -> tuple[Image, Mat]:
    """Layers on the table plane, uint8: table, table*crown, felt, felt*(v/2 + 1/2) where v holds the
    felt's mottle and its printed line / logo as a lightness change of at most `V_RANGE`."""
    to_canvas, cw, ch = _layer_frame(profile)
    tm, crown, felt, dist = _table_base(profile)
    texture, line, logo = look % len(MOTTLE), bool(look & 1), FELT_LOGOS[look % len(FELT_LOGOS)]
    rng = np.random.default_rng(look)
    tex = cv2.resize(rng.normal(0, 1, (8, 14)).astype(np.float32), (cw, ch), interpolation=cv2.INTER_CUBIC)
    v = np.clip(tex, -1.5, 1.5) * MOTTLE[texture % len(MOTTLE)]
    if line:
        v += np.clip(1.0 - np.abs(dist - RAIL_CM - 14.0) * 2.0, 0, 1) * DECO_GAIN
    if logo:
        try:
            face = cv2.FontFace("/usr/share/fonts/truetype/dejavu/DejaVuSerif-Bold.ttf")
        except cv2.error:
            face = cv2.FontFace("sans")
        layer = np.zeros((ch, cw), np.uint8)
        size = int(7 * _LAYER_PPC)
        rect = cv2.getTextSize((cw, ch), logo, (0, 0), face, size)
        cx, cy = apply_h(to_canvas, [(profile.width_cm / 2, profile.height_cm / 2)])[0]
        cv2.putText(layer, logo, (int(cx - int(rect[2]) / 2), int(cy + size / 3)), 255, face, size, 700)
        v += layer.astype(np.float32) / 255.0 * DECO_GAIN * 0.5
    v = np.clip(v / V_RANGE, -1, 1)
    stack = np.dstack([tm, tm * crown, felt, felt * (v * 0.5 + 0.5)])
    return (np.clip(stack * 255 + 0.5, 0, 255)).astype(np.uint8), to_canvas


V_RANGE = 0.45


@functools.lru_cache(maxsize=8)
def _marker_layer(profile: TableProfile) -> Image | None:
    """(grey, alpha) layer with the profile's ArUco markers and their white quiet zones."""
    try:
        dictionary = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, profile.aruco_dictionary))
    except (AttributeError, cv2.error):
        return None
    to_canvas, cw, ch = _layer_frame(profile)
    grey = np.zeros((ch, cw), np.uint8)
    alpha = np.zeros((ch, cw), np.uint8)
    for m in profile.markers:
        side = 60
        img = cv2.aruco.generateImageMarker(dictionary, m.id, side)
        quiet = cv2.copyMakeBorder(img, 10, 10, 10, 10, cv2.BORDER_CONSTANT, value=255)
        n = side + 20
        src = np.array([[0, 0], [n, 0], [n, n], [0, n]], np.float32)
        c = m.corners()
        centre = c.mean(axis=0)
        grown = centre + (c - centre) * n / side
        dst = apply_h(to_canvas, grown).astype(np.float32)
        hm = cv2.getPerspectiveTransform(src, dst)
        g = cv2.warpPerspective(quiet, hm, (cw, ch), flags=cv2.INTER_LINEAR, borderValue=0)
        a = cv2.warpPerspective(np.full_like(quiet, 255), hm, (cw, ch), flags=cv2.INTER_LINEAR, borderValue=0)
        grey = np.where(a > 0, g, grey)
        alpha = np.maximum(alpha, a)
    return np.dstack([grey, alpha])


# --------------------------------------------------------------------------------------------
# The renderer


@dataclass
class _Drawn:
    id: int
    placement: Placement
    roi: tuple[int, int, int, int]  # x0, y0, x1, y1 in the image
    own: npt.NDArray[np.bool_]
    outline: npt.NDArray[np.float64]
    corners: list[npt.NDArray[np.float64]] = field(default_factory=list)
    extra_outline: list[npt.NDArray[np.float64]] = field(default_factory=list)


_MIPS: dict[tuple[str, int], tuple[Image, float]] = {}  # shrunk artwork, shared by every renderer


class TableRenderer:
    """Draws placements over a cached background for one table, camera, pair of designs and felt."""

    def __init__(self, profile: TableProfile, camera: Camera, face: FaceDesign, back: BackDesign, felt: Felt) -> None:
        self.profile = profile
        self.camera = camera
        self.face = face
        self.back = back
        self.felt = felt
        self.size = (camera.width, camera.height)
        self.background = self._render_background()
        self.card_w_cm = CARD_HEIGHT_CM / face.aspect
        self.back_w_cm = CARD_HEIGHT_CM / back.aspect

    # -- background ------------------------------------------------------------------------

    def _render_background(self) -> Image:
        """Floor, padded rail and felt, composed in image space from layers cached per table.

        The colour is linear in the warped layers (table, rail crown, felt, felt lightness), so one
        `cv2.transform` composes the frame.
        """
        cam, felt = self.camera, self.felt
        w, h = self.size
        layers, to_canvas = _table_layers(self.profile, felt.look)
        hmat = cam.homography @ np.linalg.inv(to_canvas)
        # felt and rail are smooth: compose them at half size, then enlarge once
        hw, hh = (w + 1) // 2, (h + 1) // 2
        half = np.diag([hw / w, hh / h, 1.0]) @ hmat
        warped = cv2.warpPerspective(layers, half, (hw, hh), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                                     borderValue=(0, 0, 0, 0))
        floor = np.array(felt.floor, np.float64)
        r0 = np.array(felt.rail, np.float64) * 0.7
        f0 = np.array(felt.colour, np.float64)
        # out = floor + tm (r0 - floor) + tm*crown r0 + fm (f0 - r0) + fm*v f0, with c3 = fm (v/2 + 1/2)
        mat = np.zeros((3, 5), np.float32)
        mat[:, 0] = (r0 - floor) / 255
        mat[:, 1] = r0 / 255
        mat[:, 2] = (f0 - r0 - V_RANGE * f0) / 255
        mat[:, 3] = 2 * V_RANGE * f0 / 255
        mat[:, 4] = floor
        out = cv2.resize(cv2.transform(warped, mat), (w, h), interpolation=cv2.INTER_LINEAR)
        if felt.markers and self.profile.markers:
            mk = _marker_layer(self.profile)
            if mk is not None:
                mw = cv2.warpPerspective(mk, hmat, (w, h), flags=cv2.INTER_LINEAR, borderValue=(0, 0))
                alpha = cv2.merge([mw[:, :, 1]] * 3)
                grey = cv2.merge([mw[:, :, 0]] * 3)
                out = cv2.add(cv2.multiply(out, cv2.bitwise_not(alpha), scale=1 / 255),
                              cv2.multiply(grey, alpha, scale=1 / 255))
        return np.ascontiguousarray(out)

    # -- sprites -----------------------------------------------------------------------------

    def _sprite(self, p: Placement) -> tuple[str, Image, float, float]:
        """(cache key, BGRA image, width cm, height cm) of a placement's artwork."""
        if p.kind == "card_face":
            assert p.card is not None
            img = self.face.faces[p.card]
            return f"f{p.card}", img, self.card_w_cm, CARD_HEIGHT_CM
        if p.kind == "card_back":
            return "back", self.back.image, self.back_w_cm, CARD_HEIGHT_CM
        if p.kind == "chip":
            return f"chip{p.style}", chip_sprite(p.style), CHIP_DIAMETER_CM, CHIP_DIAMETER_CM
        if p.kind == "button":
            return "button", button_sprite(p.style), BUTTON_DIAMETER_CM, BUTTON_DIAMETER_CM
        if p.kind == "print":
            img, w_cm, h_cm = print_sprite(p.style)
            return f"print{p.style}", img, w_cm, h_cm
        img, _ = hand_sprite(p.style, p.length_cm)
        return f"hand{p.style}:{round(p.length_cm)}", img, img.shape[1] / HAND_PX_PER_CM, img.shape[0] / HAND_PX_PER_CM

    def _mip(self, key: str, img: Image, want_scale: float) -> tuple[Image, float]:
        """A pre-shrunk copy of `img` no smaller than `want_scale` of it (avoids aliasing in the warp)."""
        level = 0
        while want_scale * (2 ** (level + 1)) <= 1.0 and level < 4:
            level += 1
        if level == 0:
            return img, 1.0
        key = f"{self.face.name}|{self.back.name}|{key}" if key[0] in "fb" else key
        cached = _MIPS.get((key, level))
        if cached is None:
            f = 0.5**level
            small = cv2.resize(img, (max(2, round(img.shape[1] * f)), max(2, round(img.shape[0] * f))),
                               interpolation=cv2.INTER_AREA)
            cached = (u8(small), float(img.shape[1] / small.shape[1]))
            if len(_MIPS) > 6000:
                _MIPS.clear()
            _MIPS[(key, level)] = cached
        return cached

    def _placement_h(self, p: Placement, art_w: int, art_h: int, w_cm: float, h_cm: float,
                     height: float) -> Mat:
        """Homography from artwork pixels to image pixels."""
        a = math.radians(p.angle_deg)
        c, s = math.cos(a), math.sin(a)
        sx, sy = w_cm / art_w, h_cm / art_h
        if p.kind == "hand":
            _, palm = hand_sprite(p.style, p.length_cm)
            oy = palm * HAND_PX_PER_CM
        else:
            oy = art_h / 2
        to_local = np.array([[sx, 0, -art_w / 2 * sx], [0, sy, -oy * sy], [0, 0, 1]])
        rot = np.array([[c, -s, p.xy[0]], [s, c, p.xy[1]], [0, 0, 1]])
        out: Mat = self.camera.plane_homography(height) @ rot @ to_local
        return out

    # -- drawing -----------------------------------------------------------------------------

    def render(self, placements: Sequence[Placement], effects: Effects, noise_seed: int,
               ) -> tuple[Image, list[ObjectTruth]]:
        w, h = self.size
        img = self.background.copy()
        ids = np.zeros((h, w), np.int32)
        drawn: list[_Drawn] = []
        next_id = 1
        for p in placements:
            obj_id = next_id
            next_id += 1
            if p.kind == "chip":
                d = self._draw_stack(img, ids, p, obj_id)
            else:
                d = self._draw_flat(img, ids, p, obj_id, p.height_cm)
            if d is not None and p.gt:
                drawn.append(d)
        truths = [self._truth(d, ids) for d in drawn]
        out = apply_effects(img, effects, noise_seed)
        return out, [t for t in truths if t is not None]

    def _draw_flat(self, img: Image, ids: npt.NDArray[np.int32], p: Placement, obj_id: int,
                   height: float, shadow: bool = True) -> _Drawn | None:
        key, art, w_cm, h_cm = self._sprite(p)
        ah, aw = art.shape[:2]
        hmat = self._placement_h(p, aw, ah, w_cm, h_cm, height)
        corners_h = np.array([(0, 0, 1), (aw, 0, 1), (aw, ah, 1), (0, ah, 1)], np.float64) @ hmat.T
        if corners_h[:, 2].min() <= 1e-6:
            return None  # reaches behind the camera
        outline = apply_h(hmat, [(0, 0), (aw, 0), (aw, ah), (0, ah)])
        scale = _local_scale(hmat, aw / 2, ah / 2)
        small, factor = self._mip(key, art, scale)
        hmat_small = hmat @ np.diag([factor, factor, 1.0])
        shadow_off = 0.0
        if shadow and p.kind == "hand":
            shadow_off = 1.0
        pad = 2 + int(min(scale * 40 * shadow_off, 400))
        x0, y0 = np.floor(outline.min(axis=0)).astype(int) - pad
        x1, y1 = np.ceil(outline.max(axis=0)).astype(int) + pad
        X0, Y0, X1, Y1 = max(0, x0), max(0, y0), min(self.size[0], x1), min(self.size[1], y1)
        if X1 <= X0 or Y1 <= Y0:
            return None
        shift = np.array([[1, 0, -X0], [0, 1, -Y0], [0, 0, 1]], np.float64)
        warped = cv2.warpPerspective(small, shift @ hmat_small, (X1 - X0, Y1 - Y0), flags=cv2.INTER_LINEAR,
                                     borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0, 0))
        alpha = warped[:, :, 3:4].astype(np.float32) * (1.0 / 255.0)
        roi = img[Y0:Y1, X0:X1]
        roi_f = roi.astype(np.float32)
        if shadow and p.kind != "print":  # ink on the felt casts none
            self._shadow(roi_f, alpha, p, scale)
        roi_f += alpha * (warped[:, :, :3].astype(np.float32) - roi_f)
        roi[:] = np.clip(roi_f + 0.5, 0, 255).astype(np.uint8)
        own = alpha[:, :, 0] > 0.5
        ids[Y0:Y1, X0:X1][own] = obj_id
        d = _Drawn(obj_id, p, (X0, Y0, X1, Y1), own, outline)
        if p.kind == "card_face":
            for b in self.face.index_boxes:
                d.corners.append(apply_h(hmat, [(x * aw, y * ah) for x, y in b.corners()]))
        elif p.kind in ("chip", "button"):
            ang = np.linspace(0, 2 * math.pi, 24, endpoint=False)
            d.outline = apply_h(hmat, np.column_stack([aw / 2 + aw / 2 * np.cos(ang), ah / 2 + ah / 2 * np.sin(ang)]))
        elif p.kind == "hand":
            cnts, _ = cv2.findContours(own.astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
            if cnts:
                hull = cv2.convexHull(np.vstack(cnts)).reshape(-1, 2).astype(np.float64)
                d.outline = hull + np.array([X0, Y0], np.float64)
        return d

    def _shadow(self, roi: npt.NDArray[np.float32], alpha: npt.NDArray[np.float32], p: Placement, scale: float) -> None:
        a = alpha[:, :, 0]
        hh, ww = a.shape
        if p.kind == "hand":
            # a soft shadow offset by the hand's height, blurred at a quarter resolution
            dx = int(min(p.height_cm * 1.2 * scale * 4, ww / 3))
            dy = int(min(p.height_cm * 0.8 * scale * 4, hh / 3))
            small = cv2.resize(a, (max(1, ww // 4), max(1, hh // 4)), interpolation=cv2.INTER_AREA)
            small = cv2.GaussianBlur(small, (0, 0), float(np.clip(p.height_cm * 0.3 * scale, 0.5, 25.0)))
            a = f32(cv2.resize(small, (ww, hh), interpolation=cv2.INTER_LINEAR))
            strength = 0.35
        else:
            dx, dy, strength = 1, 1, 0.3 if p.kind in ("chip", "button") else 0.2
        sh = np.zeros_like(a)
        if abs(dx) < ww and abs(dy) < hh:
            sh[dy:, dx:] = a[: hh - dy, : ww - dx]
        roi *= (1 - strength * sh)[:, :, None]

    def _draw_stack(self, img: Image, ids: npt.NDArray[np.int32], p: Placement,
                    obj_id: int) -> _Drawn | None:
        first: _Drawn | None = None
        rng = np.random.default_rng(p.style * 7919 + p.count)
        outlines = []
        levels = sorted({*range(0, max(1, p.count), max(1, p.count // 3)), max(0, p.count - 1)})
        for i in levels:
            jitter = rng.normal(0, 0.08, 2)
            q = Placement("chip", (p.xy[0] + jitter[0], p.xy[1] + jitter[1]), float(rng.uniform(0, 360)),
                          zone=p.zone, style=p.style, height_cm=p.height_cm + i * CHIP_THICKNESS_CM)
            d = self._draw_flat(img, ids, q, obj_id, q.height_cm, shadow=(i == 0))
            if d is None:
                continue
            # the chip's edge: darken a ring so a stack reads as a cylinder
            outlines.append(d.outline)
            if first is None:
                first = d
            else:
                x0 = min(first.roi[0], d.roi[0])
                y0 = min(first.roi[1], d.roi[1])
                x1 = max(first.roi[2], d.roi[2])
                y1 = max(first.roi[3], d.roi[3])
                first = _Drawn(obj_id, p, (x0, y0, x1, y1), ids[y0:y1, x0:x1] == obj_id, first.outline)
        if first is None:
            return None
        pts = np.vstack(outlines).astype(np.float32)
        first.outline = cv2.convexHull(pts).reshape(-1, 2).astype(np.float64)
        x0, y0, x1, y1 = first.roi
        first.own = ids[y0:y1, x0:x1] == obj_id
        return first

    def _truth(self, d: _Drawn, ids: npt.NDArray[np.int32]) -> ObjectTruth | None:
        w, h = self.size
        x0, y0, x1, y1 = d.roi
        mine = ids[y0:y1, x0:x1] == d.id
        own_count = int(d.own.sum())
        full_area = abs(float(cv2.contourArea(d.outline.astype(np.float32))))
        clipped = _clipped_area(d.outline, w, h)
        denom = own_count * (full_area / clipped) if clipped > 1e-6 else max(1.0, full_area)
        visible = float(mine.sum()) / max(1.0, denom)
        corners = tuple(IndexCornerTruth(_as_poly(c), _visible_in(c, ids, d, w, h)) for c in d.corners)
        p = d.placement
        return ObjectTruth(
            id=d.id, kind=p.kind, polygon=_as_poly(d.outline), visible=min(1.0, visible), table_xy=p.xy,
            zone=p.zone, card=p.card if p.kind == "card_face" else None, corners=corners,
            design=self.face.name if p.kind == "card_face" else self.back.name if p.kind == "card_back" else None,
        )


def _as_poly(a: npt.NDArray[np.float64]) -> tuple[tuple[float, float], ...]:
    return tuple((float(x), float(y)) for x, y in a)


def _local_scale(hmat: Mat, x: float, y: float) -> float:
    p = apply_h(hmat, [(x, y), (x + 1, y), (x, y + 1)])
    return float(max(np.linalg.norm(p[1] - p[0]), np.linalg.norm(p[2] - p[0])))


def _clipped_area(poly: npt.NDArray[np.float64], w: int, h: int) -> float:
    rect = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    pts = poly.astype(np.float32)
    if len(pts) >= 3:
        hull = cv2.convexHull(pts)
        area, _ = cv2.intersectConvexConvex(hull, rect)
        return float(area)
    return 0.0


def _visible_in(poly: npt.NDArray[np.float64], ids: npt.NDArray[np.int32], d: _Drawn, w: int, h: int) -> float:
    """Share of the object's own pixels inside `poly` that still show it at the end.

    Pixels of the polygon that fall off the image count as hidden; pixels outside the object's own
    silhouette (a rounded corner) count as neither.
    """
    x0, y0 = np.floor(poly.min(axis=0)).astype(int) - 1
    x1, y1 = np.ceil(poly.max(axis=0)).astype(int) + 1
    mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillPoly(mask, [np.round((poly - [x0, y0]) * 16).astype(np.int32)], 1, cv2.LINE_8, shift=4)
    total = int(mask.sum())
    if total == 0:
        return 0.0
    X0, Y0, X1, Y1 = max(0, x0), max(0, y0), min(w, x1), min(h, y1)
    if X1 <= X0 or Y1 <= Y0:
        return 0.0
    sub = mask[Y0 - y0 : Y1 - y0, X0 - x0 : X1 - x0] > 0
    off_image = total - int(sub.sum())
    # the object's silhouette over the same window
    rx0, ry0, rx1, ry1 = d.roi
    own = np.zeros((Y1 - Y0, X1 - X0), bool)
    ax0, ay0, ax1, ay1 = max(X0, rx0), max(Y0, ry0), min(X1, rx1), min(Y1, ry1)
    if ax1 > ax0 and ay1 > ay0:
        own[ay0 - Y0 : ay1 - Y0, ax0 - X0 : ax1 - X0] = d.own[ay0 - ry0 : ay1 - ry0, ax0 - rx0 : ax1 - rx0]
    inside = sub & own
    denom = int(inside.sum()) + off_image
    if denom == 0:
        return 0.0
    seen = int((ids[Y0:Y1, X0:X1][inside] == d.id).sum())
    return seen / denom


# --------------------------------------------------------------------------------------------
# Image-space effects


@functools.lru_cache(maxsize=1)
def _noise_block() -> Image:
    """A fixed block of Gaussian noise (sigma 32, stored as 128 + n) that frames sample at seeded offsets."""
    rng = np.random.default_rng(20240611)
    return np.clip(rng.normal(128, 32, (1200, 2100, 3)), 0, 255).astype(np.uint8)


def apply_effects(img: Image, fx: Effects, noise_seed: int) -> Image:
    """Light, glare, blur, noise and JPEG on a BGR image (uint8 arithmetic throughout, for speed)."""
    h, w = img.shape[:2]
    gh, gw = 36, 64
    yy, xx = np.mgrid[0:gh, 0:gw].astype(np.float32)
    xx /= gw - 1
    yy /= gh - 1
    strength, direction, vignette = fx.gradient
    field = 1 + strength * ((xx - 0.5) * math.cos(direction) + (yy - 0.5) * math.sin(direction))
    field -= vignette * ((xx - 0.5) ** 2 + (yy - 0.5) ** 2) * 1.6
    for sx, sy, r, s in fx.spots:
        field += s * np.exp(-((xx - sx) ** 2 + ((yy - sy) * h / w) ** 2) / (2 * r * r))
    field = np.clip(field, 0.25, 1.8)
    gain3 = np.clip(np.dstack([field * g * 100 for g in fx.gain]), 0, 255).astype(np.uint8)
    gain = cv2.resize(gain3, (w, h), interpolation=cv2.INTER_LINEAR)
    out = cv2.multiply(img, gain, scale=1 / 100)
    if fx.glare:
        glare = np.zeros((gh * 4, gw * 4), np.float32)
        for gx, gy, rx, ry, s in fx.glare:
            axes = (max(1, int(rx * gw * 4)), max(1, int(ry * gh * 4)))
            cv2.ellipse(glare, (int(gx * gw * 4), int(gy * gh * 4)), axes, float(gx * 180), 0, 360, s, -1, cv2.LINE_AA)
        glare = f32(cv2.GaussianBlur(glare, (0, 0), 3))
        g = cv2.resize(np.clip(glare * 255, 0, 255).astype(np.uint8), (w, h), interpolation=cv2.INTER_LINEAR)
        g3 = cv2.merge([g, g, g])
        out = cv2.add(out, cv2.multiply(cv2.bitwise_not(out), g3, scale=1 / 255))
    if fx.motion > 0.5:
        k = int(fx.motion) | 1
        kernel = np.zeros((k, k), np.float32)
        kernel[k // 2, :] = 1.0 / k
        rot = cv2.getRotationMatrix2D((k / 2 - 0.5, k / 2 - 0.5), float(noise_seed % 180), 1.0)
        kernel = f32(cv2.warpAffine(kernel, rot, (k, k)))
        kernel /= max(1e-6, float(kernel.sum()))
        out = cv2.filter2D(out, -1, kernel)
    if fx.blur_sigma > 0.05:
        out = cv2.GaussianBlur(out, (0, 0), fx.blur_sigma)
    if fx.noise_sigma > 0.1:
        block = _noise_block()
        rng = np.random.default_rng(noise_seed)
        if block.shape[0] >= h and block.shape[1] >= w:
            oy = int(rng.integers(0, block.shape[0] - h + 1))
            ox = int(rng.integers(0, block.shape[1] - w + 1))
            noise = block[oy : oy + h, ox : ox + w]
        else:
            noise = u8(cv2.resize(block, (w, h), interpolation=cv2.INTER_NEAREST))
        amp = fx.noise_sigma / 32.0
        out = cv2.addWeighted(out, 1.0, noise, amp, -128.0 * amp)
    result = u8(out)
    if fx.jpeg_quality:
        ok, buf = cv2.imencode(".jpg", result, [cv2.IMWRITE_JPEG_QUALITY, int(fx.jpeg_quality)])
        if ok:
            decoded = cv2.imdecode(buf, cv2.IMREAD_COLOR)
            if decoded is not None:
                result = u8(decoded)
    return result
