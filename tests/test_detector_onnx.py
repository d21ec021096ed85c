"""The shipped ONNX models (models/cards.json) through ONNX Runtime on rendered held-out scenes; no torch."""

from __future__ import annotations

import numpy as np
import pytest

from dealer_assist.synth.evaluate import Tally
from dealer_assist.synth.scene import SceneOptions, render_scene
from dealer_assist.vision.detector import MODELS_DIR, make_detector

pytestmark = pytest.mark.skipif(not (MODELS_DIR / "cards.json").is_file(), reason="no shipped model in models/")

# Held-out designs that draw everywhere (procedural): the detector never saw them in training.
HELD_OUT = SceneOptions(size=(1280, 720), phase="showdown", full_table=False, face_design="proc-serif",
                        back_design="back:proc-black-rings")


@pytest.fixture(scope="module")
def detector():  # type: ignore[no-untyped-def]
    return make_detector("onnx", threads=2)


def test_finds_cards_backs_and_button_in_held_out_scenes(detector) -> None:  # type: ignore[no-untyped-def]
    tally = Tally()
    for seed in (1, 4, 9):
        scene = render_scene(seed, "held_out", HELD_OUT)
        tally.add(scene.truth, detector.detect(scene.image))
    fig = tally.figures()
    assert tally.cards_must >= 5
    assert fig["face_up_recall"] >= 0.6, tally.misses
    assert fig["face_up_precision"] >= 0.8, tally.misses
    assert fig["backs_recall"] >= 0.6


def test_plain_image_has_no_objects_and_sizes_are_handled(detector) -> None:  # type: ignore[no-untyped-def]
    assert len(detector.detect(np.full((720, 1280, 3), 90, np.uint8))) == 0
    assert len(detector.detect(np.full((40, 50, 3), 90, np.uint8))) == 0
    big = np.full((4000, 6000, 3), 90, np.uint8)
    assert len(detector.detect(big)) == 0


def test_large_photo_finds_what_the_frame_shows(detector) -> None:  # type: ignore[no-untyped-def]
    scene = render_scene(9, "held_out", HELD_OUT)
    small = detector.detect(scene.image)
    big = detector.detect(np.ascontiguousarray(np.kron(scene.image, np.ones((4, 4, 1), np.uint8))[:, :, :3]))
    up_small = {lbl for lbl, up in zip(small.labels, small.is_face_up.tolist(), strict=True) if up}
    up_big = {lbl for lbl, up in zip(big.labels, big.is_face_up.tolist(), strict=True) if up}
    assert len(up_small & up_big) >= 0.7 * max(1, len(up_small))
    assert big.xyxy.max() > 1280  # boxes are in the big image's pixels
