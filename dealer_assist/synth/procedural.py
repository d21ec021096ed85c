"""Procedural card faces and backs drawn with OpenCV's font engine (DejaVu when installed).

OpenCV 5 renders TrueType and OpenType fonts (`cv2.FontFace`); DejaVu has the suit glyphs, and OpenCV's
built-in sans font is the fallback, so these decks draw on any machine the package installs on.
"Font decks" (`FONT_DECKS`) draw the index in the other fonts the training setup installs, so that the
index-corner classifier learns ranks and suits from many typefaces, not from the few of the deck art.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

from dealer_assist.cards import FULL_DECK, Card, Rank, Suit
from dealer_assist.synth.card_art import ART_WIDTH, RANDOM_BACK_PREFIX, Box, f32, u8

Image = npt.NDArray[np.uint8]
FONT_DIR = Path("/usr/share/fonts/truetype/dejavu")
FONT_ROOT = Path("/usr/share/fonts")
ART_HEIGHT = round(ART_WIDTH * 1.4)
_RANK_TEXT = {Rank.ACE: "A", Rank.JACK: "J", Rank.QUEEN: "Q", Rank.KING: "K", Rank.TEN: "10"}


@dataclass(frozen=True, slots=True)
class FaceStyle:
    font: str
    rank_size: float  # rank glyph height as a fraction of the card width
    suit_size: float
    index_x: float  # centre of the index column, fraction of the width
    index_y: float  # top of the rank glyph, fraction of the height
    four_corners: bool
    colours: tuple[tuple[int, int, int], ...]  # BGR for clubs, diamonds, hearts, spades
    paper: tuple[int, int, int]
    pip_scale: float
    weight: int = 400
    suit_font: str = "DejaVuSans.ttf"


_RED = (30, 20, 200)
_BLACK = (25, 25, 25)
STYLES: dict[str, FaceStyle] = {
    "proc-classic": FaceStyle("DejaVuSans.ttf", 0.17, 0.13, 0.11, 0.035, False,
                              (_BLACK, _RED, _RED, _BLACK), (250, 250, 248), 1.0),
    "proc-bold": FaceStyle("DejaVuSans-Bold.ttf", 0.19, 0.14, 0.115, 0.03, False,
                           (_BLACK, _RED, _RED, _BLACK), (244, 248, 250), 1.0, 700),
    "proc-serif": FaceStyle("DejaVuSerif-Bold.ttf", 0.18, 0.13, 0.11, 0.035, False,
                            ((40, 30, 20), (40, 40, 190), (40, 40, 190), (40, 30, 20)), (236, 244, 248), 0.9, 700),
    "proc-four-colour": FaceStyle("DejaVuSansCondensed-Bold.ttf", 0.19, 0.14, 0.11, 0.03, False,
                                  ((40, 130, 30), (200, 90, 20), (30, 20, 200), _BLACK), (250, 250, 250), 1.0, 700),
    "proc-jumbo": FaceStyle("DejaVuSans-Bold.ttf", 0.26, 0.17, 0.15, 0.025, False,
                            (_BLACK, _RED, _RED, _BLACK), (248, 248, 248), 0.7, 700),
    "proc-mono": FaceStyle("DejaVuSansMono-Bold.ttf", 0.14, 0.1, 0.09, 0.03, True,
                           ((60, 40, 20), (20, 40, 180), (20, 40, 180), (60, 40, 20)), (240, 250, 250), 0.9, 700),
}


# Font decks: (rank font, suit font), paths under FONT_ROOT, from the Debian font packages that
# `installer/install.sh --train` installs. No DejaVu here: the held-out proc-serif deck is DejaVu.
_FONT_DECK_FONTS: dict[str, tuple[str, str]] = {
    "proc-font-nimbus-sans": ("opentype/urw-base35/NimbusSans-Bold.otf", "truetype/freefont/FreeSerif.ttf"),
    "proc-font-nimbus-roman": ("opentype/urw-base35/NimbusRoman-Bold.otf", "opentype/urw-base35/StandardSymbolsPS.otf"),
    "proc-font-nimbus-narrow": ("opentype/urw-base35/NimbusSansNarrow-Bold.otf", "truetype/dejavu/DejaVuSans.ttf"),
    "proc-font-c059": ("opentype/urw-base35/C059-Bold.otf", "truetype/freefont/FreeSerif.ttf"),
    "proc-font-p052": ("opentype/urw-base35/P052-Roman.otf", "opentype/urw-base35/StandardSymbolsPS.otf"),
    "proc-font-bookman": ("opentype/urw-base35/URWBookman-Demi.otf", "truetype/liberation/LiberationSans-Regular.ttf"),
    "proc-font-gothic": ("opentype/urw-base35/URWGothic-Demi.otf", "truetype/dejavu/DejaVuSans.ttf"),
    "proc-font-nimbus-mono": ("opentype/urw-base35/NimbusMonoPS-Bold.otf", "truetype/freefont/FreeSerif.ttf"),
    "proc-font-liberation-sans": ("truetype/liberation/LiberationSans-Bold.ttf",
                                  "truetype/liberation/LiberationSans-Bold.ttf"),
    "proc-font-liberation-serif": ("truetype/liberation/LiberationSerif-Regular.ttf",
                                   "opentype/urw-base35/StandardSymbolsPS.otf"),
    "proc-font-free-sans": ("truetype/freefont/FreeSansBold.ttf", "truetype/freefont/FreeSerif.ttf"),
    "proc-font-free-serif": ("truetype/freefont/FreeSerifBold.ttf", "truetype/freefont/FreeSerif.ttf"),
    "proc-font-carlito": ("truetype/crosextra/Carlito-Bold.ttf", "truetype/dejavu/DejaVuSans.ttf"),
    "proc-font-caladea": ("truetype/crosextra/Caladea-Bold.ttf", "truetype/liberation/LiberationSans-Regular.ttf"),
    "proc-font-lato": ("truetype/lato/Lato-Black.ttf", "opentype/urw-base35/StandardSymbolsPS.otf"),
    "proc-font-open-sans": ("truetype/open-sans/OpenSans-CondBold.ttf", "truetype/dejavu/DejaVuSans.ttf"),
    "proc-font-libertine": ("opentype/linux-libertine/LinLibertine_RB.otf", "truetype/freefont/FreeSerif.ttf"),
    "proc-font-biolinum": ("opentype/linux-libertine/LinBiolinum_RB.otf",
                           "truetype/liberation/LiberationSans-Bold.ttf"),
    "proc-font-garamond": ("opentype/ebgaramond/EBGaramond12-Bold.otf", "opentype/urw-base35/StandardSymbolsPS.otf"),
    "proc-font-cantarell": ("opentype/cantarell/Cantarell-ExtraBold.otf", "truetype/freefont/FreeSerif.ttf"),
    "proc-font-gentium": ("truetype/gentiumplus/GentiumPlus-Bold.ttf", "opentype/stix/STIXGeneral-Regular.otf"),
    "proc-font-charis": ("truetype/charis/CharisSIL-Bold.ttf", "truetype/croscore/Tinos-Bold.ttf"),
    "proc-font-andika": ("truetype/andika/Andika-Bold.ttf", "fonts-go/Go-Bold.ttf"),
    "proc-font-stix": ("opentype/stix/STIXGeneral-Bold.otf", "opentype/linux-libertine/LinBiolinum_RB.otf"),
    "proc-font-cousine": ("truetype/croscore/Cousine-Bold.ttf", "truetype/croscore/Arimo-Bold.ttf"),
    "proc-font-tinos": ("truetype/croscore/Tinos-Bold.ttf", "truetype/croscore/Tinos-Bold.ttf"),
    "proc-font-go": ("fonts-go/Go-Bold.ttf", "fonts-go/Go-Bold.ttf"),
    "proc-font-go-mono": ("fonts-go/Go-Mono-Bold.ttf", "opentype/stix/STIXGeneral-Regular.otf"),
    "proc-font-hack": ("truetype/hack/Hack-Bold.ttf", "truetype/firacode/FiraCode-Bold.ttf"),
    "proc-font-fira-code": ("truetype/firacode/FiraCode-Bold.ttf", "truetype/firacode/FiraCode-Bold.ttf"),
    "proc-font-anonymous": ("truetype/anonymous-pro/Anonymous Pro B.ttf", "truetype/freefont/FreeSerif.ttf"),
    "proc-font-inter": ("opentype/inter/Inter-Black.otf", "truetype/croscore/Arimo-Bold.ttf"),
    "proc-font-roboto-black": ("truetype/roboto/unhinted/RobotoTTF/Roboto-Black.ttf",
                               "opentype/linux-libertine/LinBiolinum_RB.otf"),
    "proc-font-roboto-condensed": ("truetype/roboto/unhinted/RobotoCondensed-Bold.ttf",
                                   "truetype/croscore/Arimo-Bold.ttf"),
    "proc-font-liberation-narrow": ("truetype/liberation/LiberationSansNarrow-Bold.ttf",
                                    "truetype/liberation/LiberationSans-Bold.ttf"),
    "proc-font-gillius-condensed": ("truetype/adf/GilliusADF-BoldCond.otf", "truetype/freefont/FreeSerif.ttf"),
    "proc-font-universalis-condensed": ("truetype/adf/UniversalisADFStd-BoldCond.otf",
                                        "truetype/liberation/LiberationSerif-Bold.ttf"),
    "proc-font-accanthis": ("truetype/adf/AccanthisADFStd-Bold.otf", "opentype/urw-base35/StandardSymbolsPS.otf"),
    "proc-font-berenis": ("truetype/adf/BerenisADFPro-Bold.otf", "truetype/croscore/Tinos-Bold.ttf"),
    "proc-font-baskervald": ("truetype/adf/BaskervaldADFStd-Heavy.otf", "opentype/stix/STIXGeneral-Regular.otf"),
    "proc-font-bebas": ("opentype/bebas-neue/BebasNeue-Bold.otf", "fonts-go/Go-Bold.ttf"),
    "proc-font-spartan": ("opentype/league-spartan/LeagueSpartan-Bold.otf",
                          "opentype/linux-libertine/LinBiolinum_RB.otf"),
    "proc-font-comfortaa": ("truetype/comfortaa/Comfortaa-Bold.ttf", "truetype/liberation/LiberationSans-Bold.ttf"),
    "proc-font-quicksand": ("truetype/quicksand/Quicksand-Bold.ttf", "truetype/croscore/Arimo-Bold.ttf"),
    "proc-font-pt-sans-narrow": ("truetype/paratype/PTN77F.ttf", "truetype/freefont/FreeSerif.ttf"),
    "proc-font-pt-serif": ("truetype/paratype/PTF75F.ttf", "opentype/urw-base35/StandardSymbolsPS.otf"),
    "proc-font-junicode": ("opentype/junicode/JunicodeTwoBeta-Bold.otf",
                           "truetype/liberation/LiberationSerif-Bold.ttf"),
    "proc-font-karla": ("truetype/karla/Karla-ExtraBold.otf", "fonts-go/Go-Bold.ttf"),
    "proc-font-jura": ("opentype/jura/Jura-Bold.otf", "opentype/stix/STIXGeneral-Regular.otf"),
}
FONT_PACKAGES: tuple[str, ...] = (
    "fonts-urw-base35", "fonts-liberation", "fonts-freefont-ttf", "fonts-crosextra-carlito",
    "fonts-crosextra-caladea", "fonts-lato", "fonts-open-sans", "fonts-linuxlibertine", "fonts-ebgaramond",
    "fonts-cantarell", "fonts-sil-gentiumplus", "fonts-sil-charis", "fonts-sil-andika", "fonts-stix", "fonts-croscore",
    "fonts-go", "fonts-hack", "fonts-firacode", "fonts-anonymous-pro", "fonts-inter", "fonts-roboto-unhinted",
    "fonts-adf-gillius", "fonts-adf-universalis", "fonts-adf-accanthis", "fonts-adf-berenis", "fonts-adf-baskervald",
    "fonts-bebas-neue", "fonts-league-spartan", "fonts-comfortaa", "fonts-quicksand", "fonts-paratype",
    "fonts-junicode", "fonts-karla", "fonts-jura",
)
"""Debian packages of the font decks' fonts (installed by `installer/install.sh --train`)."""


def _font_deck_style(name: str, rank_font: str, suit_font: str) -> FaceStyle:
    """A font deck's layout and colours, drawn from its name: sizes, corner place, 2 or 4 colours."""
    rng = np.random.default_rng(list(name.encode()))
    red = (int(rng.integers(10, 60)), int(rng.integers(10, 50)), int(rng.integers(150, 225)))
    black = (int(rng.integers(10, 50)),) * 3
    if rng.random() < 0.3:  # a four-colour deck: green clubs, blue diamonds
        clubs = (int(rng.integers(20, 60)), int(rng.integers(110, 160)), int(rng.integers(10, 50)))
        diamonds = (int(rng.integers(150, 220)), int(rng.integers(60, 120)), int(rng.integers(10, 40)))
        colours = (clubs, diamonds, red, black)
    else:
        colours = (black, red, red, black)
    paper = tuple(int(v) for v in rng.integers(232, 253, 3))
    return FaceStyle(
        str(FONT_ROOT / rank_font), float(rng.uniform(0.15, 0.22)), float(rng.uniform(0.11, 0.16)),
        float(rng.uniform(0.09, 0.13)), float(rng.uniform(0.025, 0.045)), bool(rng.random() < 0.2), colours,
        (paper[0], paper[1], paper[2]), float(rng.uniform(0.8, 1.1)), 400, str(FONT_ROOT / suit_font),
    )


FONT_DECKS: tuple[str, ...] = tuple(_FONT_DECK_FONTS)


def font_deck_available(name: str) -> bool:
    """Whether both fonts of a font deck are installed here."""
    return all((FONT_ROOT / f).is_file() for f in _FONT_DECK_FONTS[name])


def _style(design: str) -> FaceStyle:
    if design in _FONT_DECK_FONTS:
        return _font_deck_style(design, *_FONT_DECK_FONTS[design])
    return STYLES[design]


@functools.lru_cache(maxsize=64)
def _font(name: str) -> cv2.FontFace:
    """The font at `name`; where it is not installed, DejaVu Sans (it has the suit glyphs, which OpenCV's own sans
    lacks: clubs and spades drew alike), and OpenCV's sans only where DejaVu is missing too."""
    path = Path(name) if Path(name).is_absolute() else FONT_DIR / name
    for candidate in (path, FONT_DIR / "DejaVuSans.ttf"):
        if candidate.is_file():
            return cv2.FontFace(str(candidate))
    return cv2.FontFace("sans")


def glyph(text: str, font_name: str, height: int, weight: int) -> npt.NDArray[np.float32]:
    """Coverage mask (0..1) of a string, tightly cropped; the ink is `height` pixels tall."""
    return _glyph_cached(text, font_name, max(4, int(height)), weight)



@functools.lru_cache(maxsize=1)
def rank_fonts() -> tuple[str, ...]:
    """Paths of the font decks' rank fonts that are installed here (none without `install.sh --train`)."""
    paths = dict.fromkeys(str(FONT_ROOT / rank) for rank, _ in _FONT_DECK_FONTS.values())
    return tuple(p for p in paths if Path(p).is_file())


@functools.lru_cache(maxsize=512)
def _glyph_cached(text: str, font_name: str, height: int, weight: int) -> npt.NDArray[np.float32]:
    face = _font(font_name)
    size = height * 1.45
    pad = int(size)
    canvas = np.zeros((pad * 3, pad * (len(text) + 2)), np.uint8)
    cv2.putText(canvas, text, (pad, pad * 2), 255, face, int(size), weight)
    ys, xs = np.nonzero(canvas)
    if len(xs) == 0:
        return np.zeros((1, 1), np.float32)
    crop = canvas[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]
    scale = height / crop.shape[0]
    new_w = max(1, round(crop.shape[1] * scale))
    crop = u8(cv2.resize(crop, (new_w, height), interpolation=cv2.INTER_AREA))
    return crop.astype(np.float32) / 255.0


def _stamp(img: Image, mask: npt.NDArray[np.float32], cx: float, top: float, colour: tuple[int, int, int],
           rotate: bool = False) -> tuple[int, int, int, int]:
    """Blend `colour` through `mask` with its top-centre at (cx, top); returns the ink box (x0, y0, x1, y1)."""
    h, w = mask.shape
    if rotate:
        mask = mask[::-1, ::-1]
        x0, y0 = round(cx - w / 2), round(top - h)
    else:
        x0, y0 = round(cx - w / 2), round(top)
    x1, y1 = x0 + w, y0 + h
    cx0, cy0, cx1, cy1 = max(0, x0), max(0, y0), min(img.shape[1], x1), min(img.shape[0], y1)
    if cx1 <= cx0 or cy1 <= cy0:
        return (0, 0, 0, 0)
    m = mask[cy0 - y0 : cy1 - y0, cx0 - x0 : cx1 - x0, None]
    roi = img[cy0:cy1, cx0:cx1, :3].astype(np.float32)
    img[cy0:cy1, cx0:cx1, :3] = (roi * (1 - m) + np.array(colour, np.float32) * m).astype(np.uint8)
    return (cx0, cy0, cx1, cy1)


def _blank(paper: tuple[int, int, int], w: int = ART_WIDTH, h: int = ART_HEIGHT) -> Image:
    img = np.zeros((h, w, 4), np.uint8)
    radius = int(w * 0.06)
    mask = np.zeros((h, w), np.uint8)
    cv2.rectangle(mask, (radius, 0), (w - 1 - radius, h - 1), 255, -1)
    cv2.rectangle(mask, (0, radius), (w - 1, h - 1 - radius), 255, -1)
    r1x, r1y = w - 1 - radius, h - 1 - radius
    for x, y in ((radius, radius), (r1x, radius), (radius, r1y), (r1x, r1y)):
        cv2.circle(mask, (x, y), radius, 255, -1, cv2.LINE_AA)
    img[:, :, :3] = paper
    img[:, :, 3] = mask
    edge = cv2.morphologyEx(mask, cv2.MORPH_GRADIENT, np.ones((3, 3), np.uint8))
    img[edge > 0, :3] = (np.array(paper) * 0.7).astype(np.uint8)
    return img


# Pip positions (x, y) in card fractions; pips below the middle are drawn upside down.
_COLS = (0.3, 0.5, 0.7)
_ROWS4 = (0.2, 0.4, 0.6, 0.8)
_PIPS: dict[int, tuple[tuple[float, float], ...]] = {
    2: ((0.5, 0.2), (0.5, 0.8)),
    3: ((0.5, 0.2), (0.5, 0.5), (0.5, 0.8)),
    4: ((0.3, 0.2), (0.7, 0.2), (0.3, 0.8), (0.7, 0.8)),
    5: ((0.3, 0.2), (0.7, 0.2), (0.5, 0.5), (0.3, 0.8), (0.7, 0.8)),
    6: tuple((x, y) for y in (0.2, 0.5, 0.8) for x in (0.3, 0.7)),
    7: (*((x, y) for y in (0.2, 0.5, 0.8) for x in (0.3, 0.7)), (0.5, 0.35)),
    8: (*((x, y) for y in (0.2, 0.5, 0.8) for x in (0.3, 0.7)), (0.5, 0.35), (0.5, 0.65)),
    9: (*((x, y) for y in _ROWS4 for x in (0.3, 0.7)), (0.5, 0.5)),
    10: (*((x, y) for y in _ROWS4 for x in (0.3, 0.7)), (0.5, 0.3), (0.5, 0.7)),
}


def _map_pip_y(y: float) -> float:
    return 0.14 + (y - 0.2) / 0.6 * 0.72 if y != 0.5 else 0.5


def draw_face(design: str, card: Card) -> Image:
    """One face of a procedural design (BGRA, ART_WIDTH x ART_HEIGHT)."""
    img, _ = _draw_face(design, card)
    return img


def _draw_face(design: str, card: Card) -> tuple[Image, list[tuple[int, int, int, int]]]:
    style = _style(design)
    w, h = ART_WIDTH, ART_HEIGHT
    img = _blank(style.paper)
    colour = style.colours[("c", "d", "h", "s").index(card.suit.value)]
    suit = card.suit.symbol
    rank_text = _RANK_TEXT.get(card.rank, str(card.rank.value))
    rank_mask = glyph(rank_text, style.font, round(style.rank_size * w), style.weight)
    if rank_mask.shape[1] > 0.24 * w:  # "10" in a narrow column: squeeze it
        rank_mask = f32(cv2.resize(rank_mask, (int(0.24 * w), rank_mask.shape[0]), interpolation=cv2.INTER_AREA))
    suit_mask = glyph(suit, style.suit_font, round(style.suit_size * w), 400)
    ink: list[tuple[int, int, int, int]] = []
    corners = [(style.index_x, False), (1 - style.index_x, False)] if style.four_corners else [(style.index_x, False)]
    for ix, _ in corners:
        half_w = max(rank_mask.shape[1], suit_mask.shape[1]) / 2 + 0.03 * w
        cx, top = min(max(ix * w, half_w), w - half_w), style.index_y * h
        b1 = _stamp(img, rank_mask, cx, top, colour)
        b2 = _stamp(img, suit_mask, cx, b1[3] + 0.015 * h, colour)
        box = (min(b1[0], b2[0]), b1[1], max(b1[2], b2[2]), b2[3])
        ink.append(box)
        # The 180-degree twin.
        cx2, bottom = w - cx, h - top
        _stamp(img, rank_mask, cx2, bottom, colour, rotate=True)
        _stamp(img, suit_mask, cx2, bottom - (b1[3] - b1[1]) - 0.015 * h, colour, rotate=True)
    value = card.rank.value
    if value in _PIPS:
        pip = glyph(suit, style.suit_font, round(0.13 * w * style.pip_scale), 400)
        for x, y in _PIPS[value]:
            yy = _map_pip_y(y) * h
            if y > 0.5:
                _stamp(img, pip, x * w, yy + pip.shape[0] / 2, colour, rotate=True)
            else:
                _stamp(img, pip, x * w, yy - pip.shape[0] / 2, colour)
    elif card.rank == Rank.ACE:
        pip = glyph(suit, style.suit_font, round(0.36 * w * style.pip_scale), 400)
        _stamp(img, pip, w / 2, h / 2 - pip.shape[0] / 2, colour)
    else:
        _draw_court(img, style, card, colour, rank_text)
    return img, ink


def _draw_court(img: Image, style: FaceStyle, card: Card, colour: tuple[int, int, int], rank_text: str) -> None:
    w, h = img.shape[1], img.shape[0]
    x0, y0, x1, y1 = int(0.23 * w), int(0.13 * h), int(0.77 * w), int(0.87 * h)
    tint = {Suit.CLUBS: (200, 225, 205), Suit.DIAMONDS: (205, 215, 245), Suit.HEARTS: (200, 205, 245),
            Suit.SPADES: (225, 215, 205)}[card.suit]
    cv2.rectangle(img, (x0, y0), (x1, y1), (*tint, 255), -1)
    cv2.rectangle(img, (x0, y0), (x1, y1), (*colour, 255), 2, cv2.LINE_AA)
    mid = (y0 + y1) // 2
    cv2.line(img, (x0, y1), (x1, y0), (*colour, 255), 1, cv2.LINE_AA)
    band = (40, 170, 220) if card.rank == Rank.KING else (180, 60, 40) if card.rank == Rank.QUEEN else (60, 140, 60)
    for yy in (y0 + int(0.1 * h), y1 - int(0.1 * h)):
        cv2.rectangle(img, (x0 + 3, yy - 6), (x1 - 3, yy + 6), (*band, 255), -1)
    letter = glyph(rank_text, style.font, int(0.22 * h), 700)
    _stamp(img, letter, w / 2, mid - letter.shape[0] - 0.02 * h, colour)
    _stamp(img, letter, w / 2, mid + letter.shape[0] + 0.02 * h, colour, rotate=True)
    pip = glyph(card.suit.symbol, style.suit_font, int(0.07 * h), 400)
    _stamp(img, pip, x0 + 0.08 * w, y0 + 0.03 * h, colour)
    _stamp(img, pip, x1 - 0.08 * w, y1 - 0.03 * h, colour, rotate=True)


@functools.lru_cache(maxsize=16)
def index_boxes(design: str) -> tuple[Box, ...]:
    """Index-corner boxes of a procedural design, from where the index ink was actually drawn."""
    w, h = ART_WIDTH, ART_HEIGHT
    per_corner: list[list[tuple[int, int, int, int]]] = []
    for card in FULL_DECK:
        _, ink = _draw_face(design, card)
        for i, box in enumerate(ink):
            if len(per_corner) <= i:
                per_corner.append([])
            per_corner[i].append(box)
    boxes: list[Box] = []
    pad = 0.012
    for corner in per_corner:
        arr = np.array(corner, float)
        b = Box(max(0.0, arr[:, 0].min() / w - pad), max(0.0, arr[:, 1].min() / h - pad),
                min(1.0, arr[:, 2].max() / w + pad), min(1.0, arr[:, 3].max() / h + pad))
        boxes += [b, Box(1 - b.x1, 1 - b.y1, 1 - b.x0, 1 - b.y0)]
    return tuple(boxes)


# --------------------------------------------------------------------------------------------
# Backs.

_BACKS: dict[str, tuple[str, tuple[int, int, int], tuple[int, int, int]]] = {
    "back:proc-red-lattice": ("lattice", (40, 30, 170), (235, 235, 245)),
    "back:proc-blue-lattice": ("lattice", (150, 70, 20), (240, 235, 230)),
    "back:proc-green-diamonds": ("diamonds", (50, 110, 30), (200, 235, 205)),
    "back:proc-black-rings": ("rings", (35, 35, 35), (170, 170, 175)),
    "back:proc-maroon-stripes": ("stripes", (40, 30, 110), (150, 170, 220)),
    "back:proc-navy-dots": ("dots", (90, 40, 20), (230, 200, 170)),
}


def _hsv(h: float, s: float, v: float) -> tuple[int, int, int]:
    hsv = np.array([[[int(h) % 180, min(255, max(0, int(s))), min(255, max(0, int(v)))]]], np.uint8)
    px = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0]
    return int(px[0]), int(px[1]), int(px[2])


def _tiled(field: Image, pattern: str, ink: tuple[int, int, int], step: int, thick: int) -> None:
    """A back's repeating "lattice", "diamonds" or "rings", `step` px apart, lines `thick` px wide, drawn in place."""
    fh, fw = field.shape[:2]
    if pattern == "lattice":
        for k in range(-fh, fw + fh, step):
            cv2.line(field, (k, 0), (k + fh, fh), ink, thick, cv2.LINE_AA)
            cv2.line(field, (k, fh), (k + fh, 0), ink, thick, cv2.LINE_AA)
        return
    for yy in range(0, fh + step, step):
        for xx in range(0, fw + step, step):
            if pattern == "rings":
                cv2.circle(field, (xx, yy), max(2, step // 2 - 1), ink, thick, cv2.LINE_AA)
                continue
            c = (xx + (step // 2 if (yy // step) % 2 else 0), yy)
            pts = np.array([(c[0], c[1] - step // 3), (c[0] + step // 4, c[1]), (c[0], c[1] + step // 3),
                            (c[0] - step // 4, c[1])], np.int32)
            cv2.fillConvexPoly(field, pts, ink, cv2.LINE_AA)


def draw_random_back(number: int) -> Image:
    """Back number `number` of a family drawn from a seed, for training only: a real table's backs come in more
    colours and layouts than the decks (plain fields, nested frames, logos, a margin or none), and a detector that
    has seen only the decks' mostly blue lattices misses a plain red casino back. Symmetric under a half turn."""
    rng = np.random.default_rng(70_000 + number)
    w, h = ART_WIDTH, ART_HEIGHT
    # half of them red or blue, as most casino backs are
    hue = float(rng.choice([rng.uniform(-8, 8), rng.uniform(100, 125), rng.uniform(0, 180)], p=[0.25, 0.25, 0.5]))
    base = _hsv(hue, rng.uniform(90, 255), rng.uniform(60, 230))
    light = rng.random() < 0.7
    ink = (_hsv(hue + rng.uniform(-20, 20), rng.uniform(0, 60), rng.uniform(200, 255)) if light
           else _hsv(rng.uniform(0, 180), rng.uniform(80, 255), rng.uniform(20, 120)))
    paper = (250, 250, 250) if rng.random() < 0.85 else base
    img = _blank(paper)
    m = int(rng.choice([0.0, 0.03, 0.06, 0.09]) * w)
    fh, fw = h - 2 * m, w - 2 * m
    field = np.zeros((fh, fw, 3), np.uint8)
    field[:] = base
    step = int(rng.integers(max(6, w // 30), max(12, w // 7)))
    thick = int(rng.integers(1, 5))
    pattern = str(rng.choice(["plain", "frames", "lattice", "diamonds", "rings", "stripes", "dots", "checker",
                              "waves"]))
    if pattern == "frames":                 # nested frames, as on a plain plastic casino back
        for k in range(int(rng.integers(1, 5))):
            inset = 4 + k * step // 2
            cv2.rectangle(field, (inset, inset), (fw - 1 - inset, fh - 1 - inset), ink, thick + 1, cv2.LINE_AA)
    elif pattern in ("lattice", "diamonds", "rings"):
        _tiled(field, pattern, ink, step, thick)
    elif pattern == "stripes":
        slope = float(rng.uniform(-1.5, 1.5))
        for k in range(-2 * fh, fw + 2 * fh, max(4, step // 2)):
            cv2.line(field, (k, 0), (int(k + slope * fh), fh), ink, thick, cv2.LINE_AA)
    elif pattern == "dots":
        for yy in range(step // 2, fh, max(4, step // 2)):
            for xx in range(step // 2, fw, max(4, step // 2)):
                cv2.circle(field, (xx, yy), max(1, thick), ink, -1, cv2.LINE_AA)
    elif pattern == "checker":
        for yy in range(0, fh, step):
            for xx in range((yy // step) % 2 * step, fw, 2 * step):
                cv2.rectangle(field, (xx, yy), (xx + step - 1, yy + step - 1), ink, -1)
    elif pattern == "waves":
        xs = np.arange(fw)
        for yy in range(0, fh + step, step):
            ys = yy + (step / 3) * np.sin(xs / max(4, step) * 2 * np.pi)
            pts = np.stack([xs, ys], 1).astype(np.int32)
            cv2.polylines(field, [pts], False, ink, thick, cv2.LINE_AA)
    half = fh // 2
    field[fh - half:] = field[:half][::-1, ::-1]
    if rng.random() < 0.6:
        cv2.rectangle(field, (3, 3), (fw - 4, fh - 4), ink, int(rng.integers(2, 7)), cv2.LINE_AA)
    emblem = str(rng.choice(["none", "ellipse", "circle", "box", "letters"]))
    centre, fill = (fw // 2, fh // 2), base if rng.random() < 0.5 else ink
    other = ink if fill == base else base
    if emblem == "ellipse":
        axes = (int(fw * rng.uniform(0.15, 0.35)), int(fh * rng.uniform(0.08, 0.2)))
        cv2.ellipse(field, centre, axes, 0, 0, 360, fill, -1, cv2.LINE_AA)
        cv2.ellipse(field, centre, axes, 0, 0, 360, other, 3, cv2.LINE_AA)
    elif emblem == "circle":
        r = int(fw * rng.uniform(0.1, 0.3))
        cv2.circle(field, centre, r, fill, -1, cv2.LINE_AA)
        cv2.circle(field, centre, r, other, 3, cv2.LINE_AA)
    elif emblem == "box":
        dx, dy = int(fw * rng.uniform(0.15, 0.35)), int(fh * rng.uniform(0.06, 0.15))
        cv2.rectangle(field, (centre[0] - dx, centre[1] - dy), (centre[0] + dx, centre[1] + dy), fill, -1)
        cv2.rectangle(field, (centre[0] - dx, centre[1] - dy), (centre[0] + dx, centre[1] + dy), other, 3)
    elif emblem == "letters":               # a casino's or maker's name across the middle
        text = "".join(chr(int(c)) for c in rng.integers(65, 91, int(rng.integers(3, 7))))
        scale = fw / 200
        (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_DUPLEX, scale, 2)
        cv2.putText(field, text, (centre[0] - tw // 2, centre[1] + th // 2), cv2.FONT_HERSHEY_DUPLEX, scale, other, 2,
                    cv2.LINE_AA)
    img[m:h - m, m:w - m, :3] = field
    return img


def draw_back(design: str) -> Image:
    """A procedural back: a white margin round a two-colour pattern, symmetric under a half turn (or, for
    `back:proc-random-N`, back N of the seeded family, `draw_random_back`)."""
    if design.startswith(RANDOM_BACK_PREFIX):
        return draw_random_back(int(design.removeprefix(RANDOM_BACK_PREFIX)))
    pattern, base, ink = _BACKS[design]
    w, h = ART_WIDTH, ART_HEIGHT
    img = _blank((250, 250, 250))
    m = int(0.06 * w)
    field = np.zeros((h - 2 * m, w - 2 * m, 3), np.uint8)
    field[:] = base
    fh, fw = field.shape[:2]
    step = max(8, w // 14)
    if pattern in ("lattice", "diamonds", "rings"):
        _tiled(field, pattern, ink, step, 2)
    elif pattern == "stripes":
        for k in range(0, fw + fh, step // 2):
            cv2.line(field, (k, 0), (k - fh, fh), ink, 3, cv2.LINE_AA)
    else:
        for yy in range(step // 2, fh, step // 2):
            for xx in range(step // 2, fw, step // 2):
                cv2.circle(field, (xx, yy), 3, ink, -1, cv2.LINE_AA)
    half = fh // 2
    field[fh - half :] = field[:half][::-1, ::-1]  # symmetric under a half turn, as real backs are
    cv2.rectangle(field, (3, 3), (fw - 4, fh - 4), ink, 3, cv2.LINE_AA)
    cv2.ellipse(field, (fw // 2, fh // 2), (fw // 5, fh // 7), 0, 0, 360, base, -1, cv2.LINE_AA)
    cv2.ellipse(field, (fw // 2, fh // 2), (fw // 5, fh // 7), 0, 0, 360, ink, 3, cv2.LINE_AA)
    img[m : h - m, m : w - m, :3] = field
    return img
