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


def test_ultralytics_backend_reads_a_table_camera_at_the_camera_bar() -> None:
    import dataclasses

    from dealer_assist.vision.backends.ultralytics_backend import UltralyticsDetector
    from dealer_assist.vision.detector import load_manifest

    manifest = dataclasses.replace(load_manifest(MODELS_DIR), card_threshold=0.72, camera_card_threshold=0.5)
    det = UltralyticsDetector(manifest, device="cpu")
    assert det.thresholds.card == 0.72
    det.use_camera_bar()
    assert det.thresholds.card == 0.5


def test_the_device_is_the_gpu_when_there_is_one_and_a_bad_one_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    """`--device` picks where Ultralytics predicts; by default the first GPU torch sees, else the CPU. A device that
    is not there is refused before the model loads, naming what is accepted."""
    import torch

    from dealer_assist.vision.backends.ultralytics_backend import resolve_device
    from dealer_assist.vision.detector import DetectorError

    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    assert resolve_device(None) == "cpu" and resolve_device("CPU") == "cpu"
    with pytest.raises(DetectorError, match=r"no CUDA device 0 here \(torch sees no CUDA device\); use --device cpu"):
        resolve_device("0")
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    monkeypatch.setattr(torch.cuda, "device_count", lambda: 2)
    assert resolve_device(None) == "0" and resolve_device("1") == "1"
    with pytest.raises(DetectorError, match=r"no CUDA device 2 here \(torch sees 2 CUDA devices\)"):
        resolve_device("2")
    with pytest.raises(DetectorError, match="unknown device 'gpu'; accepted: cpu, or a CUDA device index such as 0"):
        resolve_device("gpu")
