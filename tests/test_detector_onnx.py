"""The shipped ONNX models (models/cards.json) through ONNX Runtime on rendered held-out scenes; no torch.

The shipped models come from about 5 CPU-hours and 1,350 GPU-seconds of detector training and 130 CPU-minutes of
classifier training (models/README.md): on these close
views they find the face-down cards and read two thirds of the face-up cards without a misread, far
from the issue's 99.5% over whole tables. The guards below hold what they do now.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from dealer_assist.synth.evaluate import Tally
from dealer_assist.synth.hand_video import SimulatedTable
from dealer_assist.synth.scene import SceneOptions, render_scene
from dealer_assist.vision.detections import Detections
from dealer_assist.vision.detector import MODELS_DIR, load_manifest, make_detector
from dealer_assist.vision.mapper import TableMapper

pytestmark = pytest.mark.skipif(not (MODELS_DIR / "cards.json").is_file(), reason="no shipped model in models/")

# Held-out designs that draw everywhere (procedural): the detector never saw them in training.
HELD_OUT = SceneOptions(size=(1280, 720), phase="showdown", full_table=False, face_design="proc-serif",
                        back_design="back:proc-black-rings")
SEEDS = (1, 4, 9, 2, 5)


@pytest.fixture(scope="module")
def detector():  # type: ignore[no-untyped-def]
    return make_detector("onnx", threads=2)


@pytest.fixture(scope="module")
def tally(detector) -> Tally:  # type: ignore[no-untyped-def]
    t = Tally()
    for seed in SEEDS:
        scene = render_scene(seed, "held_out", HELD_OUT)
        dets = detector.detect(scene.image)
        assert isinstance(dets, Detections)
        t.add(scene.truth, dets)
    return t


def test_finds_backs_in_held_out_scenes(tally: Tally) -> None:
    fig = tally.figures()
    assert tally.backs_must >= 10
    assert fig["backs_recall"] >= 0.8, tally.misses
    assert fig["backs_precision"] >= 0.8, tally.misses


def test_reads_some_face_up_cards_without_misreading(tally: Tally) -> None:
    fig = tally.figures()
    assert tally.cards_must >= 20
    assert fig["face_up_recall"] >= 0.35, tally.misses
    assert fig["face_up_precision"] >= 0.9, tally.misses  # no misread on the shipped model


def test_reads_face_up_cards_in_held_out_scenes(tally: Tally) -> None:
    fig = tally.figures()
    assert tally.cards_must >= 5
    # 14 of 27 on the shipped models (13 with the int8 copy of the classifier before them, 14 with its float source:
    # an 8s read at 0.699 and 0.701 against a bar of 0.7); 17 on the CPU-trained detector before, which read fewer
    # of the other held-out designs (recall by design over 100 held-out scenes: models/README.md, "Now")
    assert fig["face_up_recall"] >= 0.45, tally.misses
    assert fig["face_up_precision"] >= 0.9, tally.misses


# A phone photo of one spot: index corners 60 to 110 px at 1920 px, larger than any the detector was trained on.
CLOSE_UP = SceneOptions(size=(1920, 1080), phase="showdown", full_table=False, view_half_cm=(9.0, 14.0),
                        face_design="proc-serif", back_design="back:proc-black-rings")


# Closer still: index corners 120 to 250 px at 1920 px.
CLOSER = dataclasses.replace(CLOSE_UP, view_half_cm=(4.5, 6.5))


def _close_tallies(detector, view: SceneOptions) -> tuple[Tally, Tally]:  # type: ignore[no-untyped-def]
    with_shrunk, one_read = Tally(), Tally()
    one = make_detector("onnx", threads=2, shrinks=())
    for seed in range(1, 9):
        scene = render_scene(seed, "held_out", view)
        with_shrunk.add(scene.truth, detector.detect(scene.image))
        one_read.add(scene.truth, one.detect(scene.image))
    return with_shrunk, one_read


def test_reads_close_up_cards_through_the_shrunk_read(detector) -> None:  # type: ignore[no-untyped-def]
    with_shrunk, _ = _close_tallies(detector, CLOSE_UP)
    assert with_shrunk.cards_must >= 10
    fig = with_shrunk.figures()
    assert fig["face_up_recall"] >= 0.75, with_shrunk.misses  # 11 of 12 on the shipped model
    assert fig["face_up_precision"] >= 0.9, with_shrunk.misses


def test_the_shrunk_read_finds_cards_too_large_for_one_read(detector) -> None:  # type: ignore[no-untyped-def]
    # The shipped detector reads CLOSE_UP's corners in one read (12 of 12; 9 with the one before), not these:
    # 3 of 6 in one read, 6 of 6 with the shrunk read (2 and 6 with the detector before)
    with_shrunk, one_read = _close_tallies(detector, CLOSER)
    assert with_shrunk.cards_must >= 5
    assert with_shrunk.figures()["face_up_precision"] >= 0.9, with_shrunk.misses
    assert one_read.figures()["face_up_recall"] < with_shrunk.figures()["face_up_recall"], one_read.misses


def test_the_backend_reads_face_up_cards_at_the_manifests_bar() -> None:
    import dataclasses

    from dealer_assist.vision.backends.onnx_backend import OnnxDetector
    from dealer_assist.vision.detector import load_manifest

    manifest = load_manifest(MODELS_DIR)
    scene = render_scene(4, "held_out", HELD_OUT)

    def reads(bar: float) -> int:
        detector = OnnxDetector(dataclasses.replace(manifest, card_threshold=bar), threads=2)
        assert detector.thresholds.card == bar
        return int(detector.detect(scene.image).is_face_up.sum())

    assert reads(0.2) > reads(0.99)


def test_a_table_camera_reads_at_the_manifests_camera_bar() -> None:
    """Built into a pipeline for a calibrated table camera, the backend reads at `camera_card_threshold` (a read
    there counts only once it repeats over frames); a still keeps `card_threshold`, and a bar asked for stays."""
    import dataclasses

    from dealer_assist.synth.hand_video import SimulatedTable
    from dealer_assist.vision.backends.common import Thresholds
    from dealer_assist.vision.backends.onnx_backend import OnnxDetector
    from dealer_assist.vision.detector import load_manifest
    from dealer_assist.vision.pipeline import Pipeline

    manifest = dataclasses.replace(load_manifest(MODELS_DIR), card_threshold=0.72, camera_card_threshold=0.5)
    sim = SimulatedTable("badugi-limit", 0, size=(1280, 720))
    detector = OnnxDetector(manifest, threads=2)
    assert detector.thresholds.card == 0.72
    Pipeline.build(sim.profile, sim.calibration, detector)
    assert detector.thresholds.card == 0.5
    asked = OnnxDetector(manifest, threads=2, thresholds=Thresholds(card=0.8))
    Pipeline.build(sim.profile, sim.calibration, asked)
    assert asked.thresholds.card == 0.8
    plain = OnnxDetector(dataclasses.replace(manifest, camera_card_threshold=None), threads=2)
    Pipeline.build(sim.profile, sim.calibration, plain)
    assert plain.thresholds.card == 0.72


def test_plain_images_of_any_size_have_no_objects(detector) -> None:  # type: ignore[no-untyped-def]
    assert len(detector.detect(np.full((720, 1280, 3), 90, np.uint8))) == 0
    assert len(detector.detect(np.full((40, 50, 3), 90, np.uint8))) == 0
    assert len(detector.detect(np.full((4000, 6000, 3), 90, np.uint8))) == 0


def test_large_photo_boxes_are_in_its_own_pixels(detector) -> None:  # type: ignore[no-untyped-def]
    scene = render_scene(4, "held_out", HELD_OUT)
    small = detector.detect(scene.image)
    big_image = np.ascontiguousarray(np.repeat(np.repeat(scene.image, 4, axis=0), 4, axis=1))
    big = detector.detect(big_image)
    assert len(small) > 0 and len(big) > 0
    assert big.xyxy[:, 2].max() > 1280 or big.xyxy[:, 3].max() > 720
    assert big.xyxy.max() <= 4 * 1280 + 1


def test_a_calibrated_camera_keeps_only_the_reads_it_needs() -> None:
    det = make_detector("onnx", threads=2)
    assert det.shrinks == (2, 4)  # type: ignore[attr-defined]  # a still of unknown scale
    det.expect_card_length(60.0, (1280, 720))  # type: ignore[attr-defined]  # a table camera
    assert det.shrinks == ()  # type: ignore[attr-defined]
    det.expect_card_length(900.0, (1920, 1080))  # type: ignore[attr-defined]  # 600 model px: a camera over one spot
    assert det.shrinks == (2, 4)  # type: ignore[attr-defined]


def test_counts_the_cards_of_dealt_rows_on_a_hand_video() -> None:
    """Between the deal and the draw, each seat's row of backs is counted card by card (through the mapper, as the
    tracker sees it): the backs half under the next card score low and must still count, and no extra ones."""
    sim_tables = [SimulatedTable("badugi-limit", seed=seed) for seed in (0, 2)]
    detector = make_detector("onnx", threads=2, shrinks=())
    truth = counted = over = 0
    for sim in sim_tables:
        mapper = TableMapper(sim.profile, sim.calibration)
        for f in range(120, 160, 8):
            image, objects = sim.render_frame_truth(f)
            seen = mapper.update(detector.detect(image), f / sim.fps, f)
            for seat in sim.truth.players:
                want = sum(o.kind == "card_back" and o.zone == f"seat:{seat}" and o.visible >= 0.3 for o in objects)
                got = seen.seat(seat).count
                truth, counted, over = truth + want, counted + min(want, got), over + max(0, got - want)
    assert truth >= 200
    assert counted >= 0.85 * truth, (counted, truth)
    assert over <= 0.2 * truth, (over, truth)


def test_the_shipped_classifier_reads_crops_of_every_size_its_manifest_names(detector) -> None:  # type: ignore[no-untyped-def]
    """The manifest's large read sends 48 px crops to the classifier: its graph must take them (a graph exported at
    32 px only would fail on the first close photo), and a close view's large corners must actually go there."""
    manifest = detector.manifest
    sizes = [manifest.classifier_size] + ([manifest.large_read.size] if manifest.large_read else [])
    for side in sizes:
        probs = detector._classify(np.zeros((3, 3, side, side), np.float32))
        assert probs.shape == (3, 53) and np.allclose(probs.sum(axis=1), 1, atol=1e-4)
    if manifest.large_read is None:
        return
    seen: list[int] = []
    classify = detector._classify

    def spy(blob: np.ndarray) -> np.ndarray:
        seen.append(int(blob.shape[-1]))
        return classify(blob)

    close = render_scene(2, "held_out", dataclasses.replace(HELD_OUT, size=(1920, 1080), view_half_cm=(9.0, 22.0)))
    detector._classify = spy
    try:
        detector.detect(close.image)
    finally:
        del detector._classify
    assert manifest.large_read.size in seen and manifest.classifier_size in seen


def test_the_int8_classifier_reads_as_its_float_source_where_the_cpu_allows(detector, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The app runs an int8 copy of the classifier: on the crops of held-out close views (both crop sides), it must
    give the float graph's probabilities to within a few hundredths and the same reading wherever the float one is
    sure. A copy calibrated on other inputs than crops (noise: 0.98 off) would carry reads across the bar. On a CPU
    whose int8 sums saturate (AVX2 without VNNI: 0.77 off) the probe (`int8_check`) says so, and the backend runs the
    float graph instead."""
    import onnxruntime as ort

    from dealer_assist.synth.dataset import index_crops
    from dealer_assist.vision.backends.common import classifier_blob
    from dealer_assist.vision.backends.int8_check import int8_exact

    monkeypatch.delenv("DEALER_ASSIST_INT8", raising=False)
    manifest = detector.manifest
    assert manifest.quantized and manifest.classifier_float and manifest.classifier_float != manifest.classifier
    exact_cpu = int8_exact(manifest.int8_weight_max)
    assert detector.int8 == exact_cpu
    session = ort.InferenceSession(str(manifest.root / manifest.classifier_float), providers=["CPUExecutionProvider"])
    quantized = ort.InferenceSession(str(manifest.root / manifest.classifier), providers=["CPUExecutionProvider"])
    rng = np.random.default_rng(0)
    sizes = [manifest.classifier_size] + ([manifest.large_read.size] if manifest.large_read else [])
    view = dataclasses.replace(HELD_OUT, size=(1920, 1080), view_half_cm=(9.0, 22.0))
    for side in sizes:
        crops = [c for seed in (2, 3, 4) for c, _ in index_crops(*_scene(seed, view), rng, size=side, crop_scale=1.5)]
        blob = classifier_blob(np.stack(crops))
        exact = session.run(None, {session.get_inputs()[0].name: blob})[0]
        int8 = np.concatenate([quantized.run(None, {quantized.get_inputs()[0].name: blob[i:i + 64]})[0]
                               for i in range(0, len(blob), 64)])
        assert len(crops) >= 20
        off = float(np.abs(exact - int8).max())
        assert (off < 0.08) == exact_cpu, (side, off)     # the probe foretells the int8 graph's own error
        read = detector._classify(blob)
        assert float(np.abs(exact - read).max()) < (0.08 if exact_cpu else 1e-5), side
        sure = exact.max(axis=1) >= 0.9
        assert sure.sum() >= 5 and (exact[sure].argmax(axis=1) == read[sure].argmax(axis=1)).all(), side


def test_the_backends_run_the_float_graphs_where_int8_is_forced_off(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """`DEALER_ASSIST_INT8` forces the choice either way: "0" loads the float detector and classifier the manifest
    names beside the int8 ones, "1" the int8 ones, whatever the probe says."""
    from dealer_assist.vision.backends import onnx_backend

    loaded: list[str] = []
    real = onnx_backend._session
    monkeypatch.setattr(onnx_backend, "_session", lambda path, threads: loaded.append(path.name) or real(path, threads))
    monkeypatch.setenv("DEALER_ASSIST_INT8", "0")
    manifest = load_manifest(MODELS_DIR)
    off = make_detector("onnx")
    assert loaded == [manifest.detector_float, manifest.classifier_float] and not off.int8
    assert off.graphs.startswith("float")
    loaded.clear()
    monkeypatch.setenv("DEALER_ASSIST_INT8", "1")
    on = make_detector("onnx")
    assert loaded == [manifest.detector, manifest.classifier] and on.int8 and on.graphs == "int8"


def _scene(seed: int, view: SceneOptions) -> tuple[np.ndarray, object]:
    scene = render_scene(seed, "held_out", view)
    return scene.image, scene.truth
