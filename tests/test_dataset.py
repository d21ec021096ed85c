"""The YOLO dataset writer and classifier crops agree with the renderer's ground truth."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from dealer_assist.synth import dataset as ds
from dealer_assist.synth.scene import SceneOptions, render_scene
from dealer_assist.synth.truth import IndexCornerTruth, ObjectTruth, SceneTruth

IDENTITY = ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0))


def _truth(objects: tuple[ObjectTruth, ...], w: int = 640, h: int = 360) -> SceneTruth:
    return SceneTruth(seed=7, split="train", width=w, height=h, homography=IDENTITY, table="t", seats=6,
                      face_design="proc-classic", back_design="back:proc-red-lattice", objects=objects)


def _rect(x0: float, y0: float, x1: float, y1: float) -> tuple[tuple[float, float], ...]:
    return ((x0, y0), (x1, y0), (x1, y1), (x0, y1))


def _hand_made() -> SceneTruth:
    from dealer_assist.cards import parse_card

    face = ObjectTruth(1, "card_face", _rect(100, 100, 150, 170), 0.9, (0, 0), card=parse_card("Qh"),
                       corners=(IndexCornerTruth(_rect(102, 102, 110, 118), 1.0),
                                IndexCornerTruth(_rect(140, 152, 148, 168), 0.2)))
    back = ObjectTruth(2, "card_back", _rect(300, 100, 350, 170), 0.8, (0, 0))
    hidden_back = ObjectTruth(3, "card_back", _rect(302, 102, 352, 172), 0.1, (0, 0))
    button = ObjectTruth(4, "button", _rect(500, 300, 520, 320), 1.0, (0, 0))
    off_image = ObjectTruth(5, "card_back", _rect(620, 340, 700, 420), 1.0, (0, 0))
    chip = ObjectTruth(6, "chip", _rect(10, 10, 20, 20), 1.0, (0, 0))
    return _truth((face, back, hidden_back, button, off_image, chip))


def test_labels_follow_visibility_rules() -> None:
    boxes = ds.label_boxes(_hand_made())
    assert [(b.cls, b.card) for b in boxes] == [(0, 46), (1, -1), (2, -1)]
    g = ds.INDEX_GROW  # the index corner (102,102)-(110,118) grown about its centre (106, 110)
    assert (boxes[0].x0, boxes[0].y0, boxes[0].x1, boxes[0].y1) == pytest.approx(
        (106 - 4 * g, 110 - 8 * g, 106 + 4 * g, 110 + 8 * g))
    assert boxes[1].x0 == 300 and boxes[1].x1 == 350  # backs and the button are not grown


def test_tiles_cover_the_image_and_labels_map_back() -> None:
    truth = _hand_made()
    image = np.zeros((360, 640, 3), np.uint8)
    tiles = list(ds.yolo_tiles(image, truth, tile=320, long_side=640))
    assert len(tiles) == 2 * 2
    origins = [(x, y) for y in ds.tile_origins(360, 320) for x in ds.tile_origins(640, 320)]
    found = set()
    for (tile, lines), (tx, ty) in zip(tiles, origins, strict=True):
        assert tile.shape == (320, 320, 3)
        for line in lines:
            cls, cx, cy, w, h = line.split()
            vals = [float(v) for v in (cx, cy, w, h)]
            assert all(0 <= v <= 1 for v in vals)
            x0 = (vals[0] - vals[2] / 2) * 320 + tx
            y0 = (vals[1] - vals[3] / 2) * 320 + ty
            found.add((int(cls), round(x0), round(y0)))
    g = ds.INDEX_GROW
    assert {(0, round(106 - 4 * g), round(110 - 8 * g)), (2, 500, 300)} <= found
    assert (1, 300, 100) in found or (1, 320, 100) in found  # cut by a tile border: labelled where most of it is


def test_one_stage_tiles_name_each_card() -> None:
    """`benchmarks/one_stage.py`'s tiles: an index corner labelled with its card's class, then back and button."""
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
    from one_stage import one_stage_class

    from dealer_assist.vision.detections import BACK_ID, BUTTON_ID

    truth = _hand_made()
    lines = [line for _, tile_lines in ds.yolo_tiles(np.zeros((360, 640, 3), np.uint8), truth, tile=320,
                                                     long_side=640, classes=one_stage_class) for line in tile_lines]
    classes = {int(line.split()[0]) for line in lines}
    assert classes == {46, BACK_ID, BUTTON_ID}   # Qh's corner is class 46 (`Card.index`), as the classifier names it

    from one_stage import _one_deck

    from dealer_assist.vision.detections import Detections

    dets = Detections.from_boxes(np.array([[0, 0, 5, 5], [10, 0, 15, 5], [20, 0, 25, 5], [30, 0, 35, 5]], float),
                                 np.array([0.3, 0.6, 0.9, 0.8]), np.array([46, 46, BACK_ID, BACK_ID]))
    kept = _one_deck(dets)           # one deck: the more confident Qh read stands; every back stays
    assert kept.class_id.tolist() == [46, BACK_ID, BACK_ID]
    assert kept.confidence.tolist() == pytest.approx([0.6, 0.9, 0.8])


def test_tile_origins() -> None:
    assert ds.tile_origins(300, 320) == [0]
    assert ds.tile_origins(720, 320) == [0, 200, 400]
    assert ds.tile_origins(1280, 320) == [0, 320, 640, 960]


def test_write_yolo_dataset(tmp_path: Path) -> None:
    truth = _hand_made()
    image = np.zeros((360, 640, 3), np.uint8)
    yaml = ds.write_yolo_dataset(tmp_path, {"train": [(image, truth)], "val": [(image, truth)]})
    text = yaml.read_text()
    assert "0: index" in text and "2: button" in text
    labels = sorted((tmp_path / "labels" / "train").glob("*.txt"))
    assert len(labels) == len(list((tmp_path / "images" / "train").glob("*.jpg"))) > 0


@pytest.fixture(scope="module")
def scene() -> tuple[np.ndarray, SceneTruth]:
    s = render_scene(1, "train", SceneOptions(size=(1280, 720), phase="showdown", full_table=False,
                                                face_design="proc-classic", back_design="back:proc-red-lattice"))
    return s.image, s.truth


def test_rendered_scene_labels_match_truth(scene: tuple[np.ndarray, SceneTruth]) -> None:
    _, truth = scene
    boxes = ds.label_boxes(truth)
    want_index = sum(1 for o in truth.objects if o.kind == "card_face" for c in o.corners
                     if c.visible >= ds.MIN_INDEX_VISIBLE)
    got_index = [b for b in boxes if b.cls == 0]
    assert 0 < len(got_index) <= want_index
    cards = {o.card.index for o in truth.objects if o.kind == "card_face" and o.card is not None}
    assert {b.card for b in got_index} <= cards
    for b in boxes:
        assert 0 <= b.x0 < b.x1 <= truth.width and 0 <= b.y0 < b.y1 <= truth.height


def test_index_crops_labels(scene: tuple[np.ndarray, SceneTruth]) -> None:
    image, truth = scene
    pairs = list(ds.index_crops(image, truth, np.random.default_rng(0), size=32))
    labels = [label for _, label in pairs]
    cards = {o.card.index for o in truth.objects if o.kind == "card_face" and o.card is not None}
    assert set(labels) - {ds.NOT_A_CARD} <= cards
    assert ds.NOT_A_CARD in labels and any(label != ds.NOT_A_CARD for label in labels)
    assert all(c.shape == (32, 32, 3) and c.dtype == np.uint8 for c, _ in pairs)


def test_art_crops() -> None:
    from dealer_assist.synth.card_art import load_back_design, load_face_design

    faces = [load_face_design("proc-classic")]
    backs = [load_back_design("back:proc-red-lattice").image]
    x, y = ds.art_crops(64, np.random.default_rng(1), list(faces), backs, size=32)
    assert x.shape == (64, 32, 32, 3) and y.shape == (64,)
    assert 0 < int((y == ds.NOT_A_CARD).sum()) < 64
    assert y.min() >= 0 and y.max() <= ds.NOT_A_CARD
    x2, y2 = ds.art_crops(64, np.random.default_rng(1), list(faces), backs, size=32)
    assert np.array_equal(x, x2) and np.array_equal(y, y2)  # deterministic from the seed


def test_art_crops_tilt_foreshortens_like_a_camera_up_to_40_degrees() -> None:
    """The tilt is a squash along one direction: eigenvalues 1 and cos(tilt), never a stretch or a mirror."""
    rng = np.random.default_rng(3)
    squashed = 0
    for _ in range(300):
        m = ds._tilt(rng)
        assert np.allclose(m, m.T)
        lo, hi = sorted(np.linalg.eigvalsh(m))
        assert hi == pytest.approx(1.0)
        assert np.cos(np.radians(40)) - 1e-9 <= lo <= 1.0 + 1e-9
        squashed += lo < 0.99
    assert 100 < squashed < 250  # most crops tilted, some seen straight down
