"""Card art: real deck designs from Debian's card packages plus procedural decks drawn with DejaVu.

Every design has a name; faces and backs are separate designs so that a scene may pair any face
design with any back. The split between designs used for training and designs held out for
evaluation is fixed data (`DESIGNS_TRAIN`, `DESIGNS_HELD_OUT`) so accuracy figures always come from
artwork the detector never saw.

Debian decks are rasterised once with `rsvg-convert` into `.cache/card-art/<design>/` (git-ignored).
`rsvg-convert --export-id` crops to a wrong box on most of these single-file decks (it counts the
`<use>` clones' nominal sizes), so each card is located by rendering the sheet with only that
element visible (a CSS override) at low resolution, taking its largest opaque blob, then cropping
that box from one high-resolution render of the whole sheet.

Kept (English indices A K Q J; checked by eye on rasterised faces), gnome-cards-data: anglo,
anglo_bitmap, anglo_modern, anglo_modern_4_color, anglo_poker, atlasnye (Russian art, English
indices), bellot, dondorf (4 indices), gnomangelo, gnomangelo_bitmap, neoclassical,
neoclassical_4_color, orell, ornamental, paris, plastic, simplistic, tigullio;
kdegames-card-data-kf5: jolly-royal, nicu-white, standard, tigullio-international.
Skipped, with the reason, in `SKIPPED_DECKS`: French indices (ancient_french, guyenne-classic has
none), German (berlin, lattmann, rheinland, xskat), Russian (Атласные, slavic_costumes, the skat
deck atlasnye_skat), Swiss (swiss-xvii), Italian (tarocco), konqi-modern (licence), and decks whose
SVG does not rasterise per card or whose index is not a corner index (tango, tango_nuevo, oxygen*,
penguins, future, ancient-egyptians, nicu-ornamental: a copy of ornamental).
"""

from __future__ import annotations

import functools
import gzip
import hashlib
import json
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import cv2
import numpy as np
import numpy.typing as npt

from dealer_assist.cards import FULL_DECK, Card, Rank, Suit
from dealer_assist.errors import DealerAssistError

Image = npt.NDArray[np.uint8]

ART_WIDTH = 300
"""Width in pixels of every card image (faces and backs); the height follows the design's aspect."""

AISLERIOT_DIR = Path("/usr/share/aisleriot/cards")
KDE_DIR = Path("/usr/share/carddecks")


def u8(a: Any) -> Image:
    """`a` as a uint8 array (no copy when it already is one); keeps cv2's loose return types out of mypy."""
    return np.asarray(a, dtype=np.uint8)


def f32(a: Any) -> npt.NDArray[np.float32]:
    return np.asarray(a, dtype=np.float32)


class CardArtError(DealerAssistError):
    """Card art that cannot be found or rasterised."""


@dataclass(frozen=True, slots=True)
class SvgDeck:
    """A deck of the Debian packages: its design name, file and element-id style."""

    name: str
    path: Path
    style: Literal["aisleriot", "kde"]


# Debian decks kept: English indices. Face design name == deck name; its back is "back:<name>".
_AISLERIOT_KEPT = (
    "anglo", "anglo_bitmap", "anglo_modern", "anglo_modern_4_color", "anglo_poker", "gnomangelo",
    "gnomangelo_bitmap", "neoclassical", "neoclassical_4_color", "ornamental", "plastic", "simplistic", "tigullio",
    "atlasnye", "bellot", "dondorf", "orell", "paris",
)
_KDE_KEPT = {
    "jolly-royal": "jolly-royal.svgz", "nicu-white": "white.svgz", "standard": "standard.svgz",
    "tigullio-international": "tigullio-international.svgz",
}
# Backs left out: nicu-white prints four aces on its back (it would teach the detector that a back
# shows indices); standard's "back" element is a fragment, not the whole back.
_BAD_BACKS = frozenset({"kde-nicu-white", "kde-standard"})
SKIPPED_DECKS: dict[str, str] = {
    "ancient_french": "French indices (R D V)", "guyenne-classic": "no indices at all",
    "kde:gm-paris": "same art as aisleriot's paris", "kde:xskat-french": "a 32-card skat deck",
    "kde:dondorf": "same art as aisleriot's dondorf",
    "berlin": "German indices (B D K)", "lattmann": "German indices (B D K)", "rheinland": "German indices (B D K)",
    "kde:xskat-german": "German suits and indices",
    "atlasnye_skat": "a 32-card skat deck", "Атласные": "Russian indices (В Д К)",
    "slavic_costumes": "Russian indices (В Д К)", "swiss-xvii": "Swiss suits",
    "tarocco": "Italian indices (F D R)", "kde:konqi-modern": "licence",
    "tango": "its faces do not rasterise (every card id draws the ace of spades)",
    "tango_nuevo": "no index corner: rank and suit sit in opposite top corners, nothing at the bottom",
    "kde:nicu-ornamental": "same art as aisleriot's ornamental, and one face crops wrong",
    "kde:oxygen, oxygen-air, oxygen-white": "split index (suit top-left, rank top-right); backs print aces",
    "kde:penguins": "its element ids draw the ace of diamonds for every card",
    "kde:future": "its element ids do not match the KDE scheme (#4_club draws nothing)",
    "kde:ancient-egyptians": "embedded bitmaps exhaust librsvg's memory at card resolution",
}

SVG_DECKS: tuple[SvgDeck, ...] = (
    *(SvgDeck(n, AISLERIOT_DIR / f"{n}.svgz", "aisleriot") for n in _AISLERIOT_KEPT),
    *(SvgDeck(f"kde-{n}", KDE_DIR / f"svg-{n}" / f, "kde") for n, f in _KDE_KEPT.items()),
)

PROCEDURAL_FACES: tuple[str, ...] = (
    "proc-classic", "proc-bold", "proc-serif", "proc-four-colour", "proc-jumbo", "proc-mono",
)
PROCEDURAL_BACKS: tuple[str, ...] = (
    "back:proc-red-lattice", "back:proc-blue-lattice", "back:proc-green-diamonds", "back:proc-black-rings",
    "back:proc-maroon-stripes", "back:proc-navy-dots",
)
RANDOM_BACK_PREFIX = "back:proc-random-"
RANDOM_BACKS: tuple[str, ...] = tuple(f"{RANDOM_BACK_PREFIX}{k:02d}" for k in range(16))
"""Seeded random backs (`procedural.draw_random_back`): colours and layouts the decks lack. Not designs of either
split: training scenes draw from them as well only when asked (`SceneOptions.extra_backs`, `train --random-backs`)."""

FACE_DESIGNS: tuple[str, ...] = (*(d.name for d in SVG_DECKS), *PROCEDURAL_FACES)
BACK_DESIGNS: tuple[str, ...] = (
    *(f"back:{d.name}" for d in SVG_DECKS if d.name not in _BAD_BACKS), *PROCEDURAL_BACKS,
)

# Held out of every training split, whole families at a time (neoclassical with its 4-colour twin):
# 6 face designs and 4 back designs, one procedural of each so that the split also works where the
# Debian packages are absent. The anglo family (anglo, anglo_bitmap, gnomangelo, ...) stays whole in
# training, as do ornamental / nicu-white and tigullio / tigullio-international.
FACES_HELD_OUT: frozenset[str] = frozenset(
    {"neoclassical", "neoclassical_4_color", "kde-jolly-royal", "simplistic", "kde-standard", "proc-serif"}
)
BACKS_HELD_OUT: frozenset[str] = frozenset(
    {"back:plastic", "back:tigullio", "back:kde-jolly-royal", "back:proc-black-rings"}
)
DESIGNS_HELD_OUT: frozenset[str] = FACES_HELD_OUT | BACKS_HELD_OUT
DESIGNS_TRAIN: frozenset[str] = frozenset(FACE_DESIGNS + BACK_DESIGNS) - DESIGNS_HELD_OUT

Split = Literal["train", "held_out", "all"]


def designs_for(split: Split, kind: Literal["face", "back"], *, available_only: bool = True) -> tuple[str, ...]:
    """Design names of one kind in a split, in a fixed order; by default only those installed here."""
    pool = FACE_DESIGNS if kind == "face" else BACK_DESIGNS
    if split == "train":
        chosen = [d for d in pool if d in DESIGNS_TRAIN]
    elif split == "held_out":
        chosen = [d for d in pool if d in DESIGNS_HELD_OUT]
    else:
        chosen = list(pool)
    if available_only:
        chosen = [d for d in chosen if design_available(d)]
    return tuple(chosen)


def design_available(name: str) -> bool:
    """Whether a design can be drawn here (procedural ones always; Debian ones need their package)."""
    base = name.removeprefix("back:")
    if base.startswith("proc-"):
        return True
    deck = _SVG_BY_NAME.get(base)
    return deck is not None and deck.path.is_file() and shutil.which("rsvg-convert") is not None


_SVG_BY_NAME = {d.name: d for d in SVG_DECKS}


# --------------------------------------------------------------------------------------------
# The loaded design: images plus where its index corners are.


@dataclass(frozen=True, slots=True)
class Box:
    """An axis-aligned box in card-normalised coordinates (0..1 across and down the card face)."""

    x0: float
    y0: float
    x1: float
    y1: float

    def corners(self) -> tuple[tuple[float, float], ...]:
        return ((self.x0, self.y0), (self.x1, self.y0), (self.x1, self.y1), (self.x0, self.y1))


@dataclass(frozen=True)
class FaceDesign:
    """The 52 faces of one design (BGRA, ART_WIDTH wide) and its index-corner boxes."""

    name: str
    faces: Mapping[Card, Image]
    index_boxes: tuple[Box, ...]

    @property
    def aspect(self) -> float:
        """Height over width."""
        img = self.faces[FULL_DECK[0]]
        return float(img.shape[0] / img.shape[1])


@dataclass(frozen=True)
class BackDesign:
    name: str
    image: Image

    @property
    def aspect(self) -> float:
        return float(self.image.shape[0] / self.image.shape[1])


def cache_dir() -> Path:
    """Where rasterised art lives: $DEALER_ASSIST_CACHE/card-art, else <repo>/.cache/card-art."""
    root = os.environ.get("DEALER_ASSIST_CACHE")
    base = Path(root) if root else Path(__file__).resolve().parents[2] / ".cache"
    return base / "card-art"


class _LazyFaces(Mapping[Card, Image]):
    """The 52 face images of a cached deck, each read from its PNG the first time it is used."""

    def __init__(self, folder: Path) -> None:
        self._folder = folder
        self._loaded: dict[Card, Image] = {}

    def __getitem__(self, card: Card) -> Image:
        img = self._loaded.get(card)
        if img is None:
            if card not in _DECK_SET:
                raise KeyError(card)
            img = self._loaded[card] = _read_png(self._folder / f"{card}.png")
        return img

    def __iter__(self) -> Iterator[Card]:
        return iter(FULL_DECK)

    def __len__(self) -> int:
        return len(FULL_DECK)


_DECK_SET = frozenset(FULL_DECK)


@functools.lru_cache(maxsize=64)
def load_face_design(name: str) -> FaceDesign:
    """The faces of a design (rasterising a Debian deck into the cache on first use)."""
    if name.startswith("proc-"):
        from dealer_assist.synth import procedural

        drawn = {card: procedural.draw_face(name, card) for card in FULL_DECK}
        return FaceDesign(name, drawn, procedural.index_boxes(name))
    deck = _SVG_BY_NAME.get(name)
    if deck is None:
        raise CardArtError(f"unknown face design {name!r}; known: {', '.join(FACE_DESIGNS)}")
    folder = ensure_rasterised(deck)
    faces = _LazyFaces(folder)
    meta = json.loads((folder / "meta.json").read_text())
    boxes = tuple(Box(*b) for b in meta["index_boxes"])
    return FaceDesign(name, faces, boxes)


@functools.lru_cache(maxsize=64)
def load_back_design(name: str) -> BackDesign:
    """The back of a design ("back:<deck>" or "back:proc-...")."""
    base = name.removeprefix("back:")
    if base.startswith("proc-"):
        from dealer_assist.synth import procedural

        return BackDesign(name, procedural.draw_back(name))
    deck = _SVG_BY_NAME.get(base)
    if deck is None or not name.startswith("back:"):
        raise CardArtError(f"unknown back design {name!r}; known: {', '.join(BACK_DESIGNS)}")
    return BackDesign(name, _read_png(ensure_rasterised(deck) / "back.png"))


def _read_png(path: Path) -> Image:
    img = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
    if img is None or img.ndim != 3 or img.shape[2] != 4:
        raise CardArtError(f"card art {path} is missing or not a BGRA PNG; delete {path.parent} to rebuild it")
    return u8(img)


# --------------------------------------------------------------------------------------------
# Rasterising a Debian deck.

_SUIT_WORDS = {Suit.CLUBS: "club", Suit.DIAMONDS: "diamond", Suit.HEARTS: "heart", Suit.SPADES: "spade"}
_RANK_WORDS = {Rank.JACK: "jack", Rank.QUEEN: "queen", Rank.KING: "king"}


def element_id(card: Card, style: Literal["aisleriot", "kde"]) -> str:
    """The SVG element id of a card: aisleriot "heart_queen", "club_1"; KDE "queen_heart", "1_club"."""
    rank = _RANK_WORDS.get(card.rank, str(card.rank.value))
    suit = _SUIT_WORDS[card.suit]
    return f"{suit}_{rank}" if style == "aisleriot" else f"{rank}_{suit}"


_SHEET_LO = 1300  # width of the low-resolution sheet renders used to find each card


def ensure_rasterised(deck: SvgDeck) -> Path:
    """Rasterise a deck's 52 faces and back into the cache (once); returns the folder."""
    folder = cache_dir() / deck.name
    if (folder / "meta.json").is_file():
        return folder
    if not deck.path.is_file():
        raise CardArtError(f"deck {deck.name}: {deck.path} is missing; install the Debian card-art packages "
                           "(bash installer/install.sh --train)")
    exe = shutil.which("rsvg-convert")
    if exe is None:
        raise CardArtError("rsvg-convert is missing; install librsvg2-bin")
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        svg = tmp / "deck.svg"
        svg.write_bytes(gzip.decompress(deck.path.read_bytes()))
        ids = {str(c): element_id(c, deck.style) for c in FULL_DECK} | {"back": "back"}
        boxes: dict[str, tuple[int, int, int, int]] = {}
        for key, eid in ids.items():
            boxes[key] = _locate(exe, svg, eid, tmp)
        card_w = float(np.median([b[2] for b in boxes.values()]))
        scale = ART_WIDTH * 1.25 / card_w
        hi = tmp / "hi.png"
        _rsvg(exe, ["-w", str(round(_SHEET_LO * scale)), "-a", str(svg), "-o", str(hi)])
        sheet = _read_png(hi)
        folder_tmp = folder.with_name(f"{folder.name}.partial-{os.getpid()}")
        shutil.rmtree(folder_tmp, ignore_errors=True)
        folder_tmp.mkdir(parents=True)
        for key, (x, y, w, h) in boxes.items():
            crop = _crop_card(sheet, x * scale, y * scale, w * scale, h * scale)
            cv2.imwrite(str(folder_tmp / f"{key}.png"), crop)
    faces = {c: _read_png(folder_tmp / f"{c}.png") for c in FULL_DECK}
    distinct = {hashlib.sha1(cv2.resize(img, (40, 56)).tobytes()).hexdigest() for img in faces.values()}
    if len(distinct) < 52:
        shutil.rmtree(folder_tmp, ignore_errors=True)
        raise CardArtError(f"deck {deck.name}: only {len(distinct)} distinct faces rasterised; its element ids are "
                           "not the expected ones")
    meta = {
        "deck": deck.name, "source": str(deck.path),
        "sha256": hashlib.sha256(deck.path.read_bytes()).hexdigest(),
        "index_boxes": [[round(v, 4) for v in (b.x0, b.y0, b.x1, b.y1)] for b in find_index_boxes(faces)],
    }
    (folder_tmp / "meta.json").write_text(json.dumps(meta, indent=1))
    try:
        folder_tmp.rename(folder)
    except OSError:  # another process finished the same deck first
        shutil.rmtree(folder_tmp, ignore_errors=True)
        if not (folder / "meta.json").is_file():
            raise
    return folder


def _rsvg(exe: str, args: Sequence[str]) -> None:
    proc = subprocess.run([exe, *args], capture_output=True, timeout=300, check=False)
    if proc.returncode != 0:
        raise CardArtError(f"rsvg-convert {' '.join(args)} failed: {proc.stderr.decode(errors='replace')[:300]}")


def _locate(exe: str, svg: Path, eid: str, tmp: Path) -> tuple[int, int, int, int]:
    """Box (x, y, w, h) of one card in the low-resolution sheet: render it alone, take its largest blob."""
    css = tmp / "only.css"
    css.write_text(f'svg {{ visibility: hidden; }}\n[id="{eid}"] {{ visibility: visible; }}\n')
    out = tmp / "only.png"
    _rsvg(exe, ["-w", str(_SHEET_LO), "-a", "-s", str(css), str(svg), "-o", str(out)])
    alpha = _read_png(out)[:, :, 3]
    mask = (alpha > 128).astype(np.uint8)
    n, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    if n < 2:
        raise CardArtError(f"{svg.name}: element #{eid} renders nothing")
    best = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    x, y, w, h = (int(v) for v in stats[best, :4])
    return x, y, w, h


def _crop_card(sheet: Image, x: float, y: float, w: float, h: float) -> Image:
    """Crop one card from the high-resolution sheet, keep only its own blob, resize to ART_WIDTH."""
    pad = 4
    x0, y0 = max(0, int(x) - pad), max(0, int(y) - pad)
    x1, y1 = min(sheet.shape[1], int(x + w) + pad + 1), min(sheet.shape[0], int(y + h) + pad + 1)
    crop = sheet[y0:y1, x0:x1].copy()
    mask = (crop[:, :, 3] > 128).astype(np.uint8)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    if n >= 2:
        best = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
        keep = cv2.dilate((labels == best).astype(np.uint8), np.ones((3, 3), np.uint8))
        crop[:, :, 3] = np.where(keep > 0, crop[:, :, 3], 0)
        bx, by, bw, bh = (int(v) for v in stats[best, :4])
        crop = crop[max(0, by - 1) : by + bh + 1, max(0, bx - 1) : bx + bw + 1]
    height = round(crop.shape[0] * ART_WIDTH / crop.shape[1])
    return u8(cv2.resize(crop, (ART_WIDTH, height), interpolation=cv2.INTER_AREA))


# --------------------------------------------------------------------------------------------
# Index corners, found from the artwork.


def find_index_boxes(faces: dict[Card, Image]) -> tuple[Box, ...]:
    """Index-corner boxes of a design, from the ink near the corners of its low spot cards.

    Aces, deuces and treys have their pips on the centre line, so the ink in a corner region is
    the index alone. Returns the top-left box, its 180-degree twin, and the top-right pair when the
    design prints four indices.
    """
    tl = _corner_box([_flip(img, False) for c, img in faces.items() if c.rank.value <= 3])
    tr = _corner_box([_flip(img, True) for c, img in faces.items() if c.rank.value <= 3])
    if tl is None:
        tl = Box(0.03, 0.02, 0.2, 0.3)
    boxes = [tl, Box(1 - tl.x1, 1 - tl.y1, 1 - tl.x0, 1 - tl.y0)]
    if tr is not None and tr.x1 - tr.x0 > 0.5 * (tl.x1 - tl.x0):
        r = Box(1 - tr.x1, tr.y0, 1 - tr.x0, tr.y1)
        boxes += [r, Box(1 - r.x1, 1 - r.y1, 1 - r.x0, 1 - r.y0)]
    return tuple(boxes)


def _flip(img: Image, mirror: bool) -> Image:
    return img[:, ::-1] if mirror else img


def _corner_box(images: Iterable[Image]) -> Box | None:
    boxes = []
    total = 0
    for img in images:
        total += 1
        b = _ink_in_corner(img)
        if b is not None:
            boxes.append(b)
    if len(boxes) < max(1, total // 2):
        return None
    arr = np.array([(b.x0, b.y0, b.x1, b.y1) for b in boxes])
    x0, y0 = np.percentile(arr[:, 0], 10), np.percentile(arr[:, 1], 10)
    x1, y1 = np.percentile(arr[:, 2], 90), np.percentile(arr[:, 3], 90)
    pad = 0.012
    return Box(max(0.0, x0 - pad), max(0.0, y0 - pad), min(0.5, x1 + pad), min(0.5, y1 + pad))


def _ink_in_corner(img: Image) -> Box | None:
    h, w = img.shape[:2]
    rgb = img[:, :, :3].astype(np.int16)
    alpha = img[:, :, 3]
    inner = alpha > 250
    inner = cv2.erode(inner.astype(np.uint8), np.ones((9, 9), np.uint8)) > 0
    bg = np.median(rgb[h // 2 - h // 8 : h // 2 + h // 8, 2 : w // 12].reshape(-1, 3), axis=0)
    diff = np.abs(rgb - bg).max(axis=2) > 60
    ink = (diff & inner).astype(np.uint8)
    rx, ry = int(w * 0.3), int(h * 0.36)
    region = ink[:ry, :rx]
    # Skip the frame line that some designs draw just inside the edge.
    edge = max(3, w // 40)
    region[:edge, :] = 0
    region[:, :edge] = 0
    n, _, stats, _ = cv2.connectedComponentsWithStats(region, connectivity=8)
    parts = []
    for i in range(1, n):
        x, y, bw, bh, area = (int(v) for v in stats[i])
        if area < 6 or x + bw >= rx - 1 or y + bh >= ry - 1:
            continue  # specks, or a pip / picture reaching out of the corner region
        if bw > 0.9 * rx or bh > 0.9 * ry:
            continue  # a frame line
        parts.append((x, y, x + bw, y + bh))
    if not parts:
        return None
    arr = np.array(parts, dtype=float)
    return Box(arr[:, 0].min() / w, arr[:, 1].min() / h, arr[:, 2].max() / w, arr[:, 3].max() / h)


def rasterise_all(names: Iterable[str] | None = None) -> list[str]:
    """Rasterise every kept Debian deck that is installed (for `installer --train` and dataset runs)."""
    done = []
    for deck in SVG_DECKS:
        if names is not None and deck.name not in set(names):
            continue
        if deck.path.is_file():
            ensure_rasterised(deck)
            done.append(deck.name)
    return done


if __name__ == "__main__":  # python -m dealer_assist.synth.card_art: rasterise every installed deck now
    print("rasterised:", ", ".join(rasterise_all()) or "none (install gnome-cards-data / kdegames-card-data-kf5)")
