"""The optional Ultralytics backend (training extra) on the shipped checkpoint: the same reads as ONNX.

Runs where `bash installer/install.sh --train` installed ultralytics; the default install has no torch.
"""

from __future__ import annotations

import pytest
from test_detector_onnx import CLOSE_UP

from dealer_assist.synth.evaluate import Tally
from dealer_assist.synth.scene import render_scene
from dealer_assist.vision.detector import MODELS_DIR, make_detector

pytest.importorskip("ultralytics")
pytestmark = pytest.mark.skipif(not (MODELS_DIR / "cards-detector.pt").is_file(), reason="no shipped checkpoint")


def test_ultralytics_backend_reads_close_up_cards_through_the_shrunk_read() -> None:
    det = make_detector("ultralytics", threads=2)
    one = make_detector("ultralytics", threads=2, shrinks=())
    with_shrunk, one_read = Tally(), Tally()
    # Seeds with face-up cards; in seed 18 the one read misses all 3 (the models of 2026-11-27 11:40, which read
    # every card of seeds 1 to 17 in one read).
    for seed in (1, 2, 7, 11, 18):
        scene = render_scene(seed, "held_out", CLOSE_UP)
        with_shrunk.add(scene.truth, det.detect(scene.image))
        one_read.add(scene.truth, one.detect(scene.image))
    assert with_shrunk.cards_must >= 4
    assert with_shrunk.figures()["face_up_recall"] >= 0.6, with_shrunk.misses
    assert one_read.figures()["face_up_recall"] < with_shrunk.figures()["face_up_recall"]
    det.expect_card_length(60.0, (1280, 720))  # type: ignore[attr-defined]
    assert det.shrinks == ()  # type: ignore[attr-defined]
