"""`dealer-assist train --continue-from`: which weights it starts from, and a clear error without any."""

from __future__ import annotations

from pathlib import Path

import click
import cv2
import numpy as np
import pytest

from dealer_assist.cli.train import continue_settings


def test_continue_from_a_folder_with_both_models(tmp_path: Path) -> None:
    (tmp_path / "cards-detector.pt").write_bytes(b"x")
    (tmp_path / "cards-classifier.pt").write_bytes(b"x")
    extra = continue_settings(tmp_path)
    assert extra["detector_init"] == str(tmp_path / "cards-detector.pt")
    assert extra["classifier_init"] == str(tmp_path / "cards-classifier.pt")
    assert extra["detector_args"]["warmup_epochs"] == 0.0 and extra["detector_args"]["lr0"] < 0.003


def test_continue_from_only_a_detector(tmp_path: Path) -> None:
    (tmp_path / "cards-detector.pt").write_bytes(b"x")
    assert set(continue_settings(tmp_path)) == {"detector_init", "detector_args"}


def test_continue_from_an_empty_folder_is_one_clear_error(tmp_path: Path) -> None:
    with pytest.raises(click.BadParameter, match=r"neither cards-detector\.pt nor cards-classifier\.pt"):
        continue_settings(tmp_path)


def test_detector_run_folder_is_absolute_so_the_checkpoint_is_where_it_is_looked_for(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ultralytics puts a relative `project` under its own runs/detect/; the recipe then found no checkpoint."""
    import sys
    import types

    from dealer_assist.synth import train as train_mod

    seen: dict[str, object] = {}

    class FakeYolo:
        def __init__(self, path: str, task: str) -> None:
            seen["model"] = path

        def train(self, **args: object) -> None:
            seen.update(args)
            weights = Path(str(args["project"])) / str(args["name"]) / "weights"
            weights.mkdir(parents=True)
            (weights / "best.pt").write_bytes(b"pt")

    monkeypatch.setitem(sys.modules, "ultralytics", types.SimpleNamespace(YOLO=FakeYolo))
    monkeypatch.setitem(sys.modules, "torch", types.SimpleNamespace(set_num_threads=lambda n: None))
    monkeypatch.chdir(tmp_path)
    cfg = train_mod.TrainConfig(runs=Path("rel") / "runs")
    best = train_mod.train_detector(cfg, tmp_path / "data.yaml", lambda msg: None)
    assert Path(str(seen["project"])).is_absolute()
    assert best == tmp_path / "rel" / "runs" / "detector" / "weights" / "best.pt" and best.is_file()


def test_exporting_another_size_leaves_the_graph_beside_the_checkpoint_alone(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ultralytics' exporter writes `<checkpoint stem>.onnx` beside the checkpoint: in models/ that is the shipped
    graph, which an export at another input size must not overwrite."""
    import sys
    import types

    from dealer_assist.synth import train as train_mod

    class FakeYolo:
        def __init__(self, path: str, task: str) -> None:
            self.path = Path(path)

        def export(self, imgsz: list[int], **_: object) -> str:
            out = self.path.with_suffix(".onnx")
            out.write_bytes(f"graph {imgsz[0]}x{imgsz[1]}".encode())
            return str(out)

    monkeypatch.setitem(sys.modules, "ultralytics", types.SimpleNamespace(YOLO=FakeYolo))
    models = tmp_path / "models"
    models.mkdir()
    (models / "cards-detector.pt").write_bytes(b"pt")
    (models / "cards-detector.onnx").write_bytes(b"shipped")
    cfg = train_mod.TrainConfig(out=models, runs=tmp_path / "runs")
    out = train_mod.export_detector(cfg, models / "cards-detector.pt", tmp_path / "small.onnx", (320, 320))
    assert out.read_bytes() == b"graph 320x320"
    assert (models / "cards-detector.onnx").read_bytes() == b"shipped"
    same = train_mod.export_detector(cfg, models / "cards-detector.pt", models / "cards-detector.onnx", (736, 1280))
    assert same.read_bytes() == b"graph 736x1280"


@pytest.mark.parametrize(("option", "field"), [("--art-crops", "art_crops"), ("--close-ups", "close_ups")])
def test_count_options_reach_the_recipe(monkeypatch: pytest.MonkeyPatch, option: str, field: str) -> None:
    from click.testing import CliRunner

    from dealer_assist.cli.train import train
    from dealer_assist.synth import train as train_mod

    seen: dict[str, object] = {}

    def fake_run(cfg: train_mod.TrainConfig, log: object) -> dict[str, object]:
        seen[field] = getattr(cfg, field)
        return {}

    monkeypatch.setattr(train_mod, "run", fake_run)
    result = CliRunner().invoke(train, [option, "1234"])
    assert result.exit_code == 0, result.output
    assert seen[field] == 1234


def test_classifier_arch_reaches_the_recipe_and_an_unknown_one_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    from click.testing import CliRunner

    from dealer_assist.cli.train import train
    from dealer_assist.synth import train as train_mod

    seen: list[str] = []
    monkeypatch.setattr(train_mod, "run", lambda cfg, log: seen.append(cfg.classifier_arch) or {})
    assert CliRunner().invoke(train, ["--classifier-arch", "v4"]).exit_code == 0
    assert seen == ["v4"]
    refused = CliRunner().invoke(train, ["--classifier-arch", "v9"])
    assert refused.exit_code == 2 and "'v9' is not one of" in refused.output


def test_continuing_a_classifier_of_another_layout_is_one_clear_error(tmp_path: Path) -> None:
    torch = pytest.importorskip("torch")
    from dealer_assist.errors import DealerAssistError
    from dealer_assist.synth import train as train_mod

    index_net, _ = train_mod._classifier_module()
    torch.save(index_net("v3").state_dict(), tmp_path / "cards-classifier.pt")
    crops = tmp_path / "crops.npz"
    x = np.zeros((2, 32, 32, 3), np.uint8)
    np.savez(crops, x_train=x, y_train=np.array([0, 52]), x_val=x, y_val=np.array([0, 52]))
    cfg = train_mod.TrainConfig(classifier_arch="v4", classifier_epochs=1)
    cfg.extra["classifier_init"] = str(tmp_path / "cards-classifier.pt")
    with pytest.raises(DealerAssistError, match=r"another layout than 'v4'; continue with the --classifier-arch"):
        train_mod.train_classifier(cfg, crops, tmp_path / "out.onnx", lambda msg: None)


def test_a_classifier_with_a_large_input_trains_on_both_sizes_and_exports_any_side(tmp_path: Path) -> None:
    """`--classifier-large-size`: the crops at the large size train the same weights in batches of their own, and
    the exported graph reads crops of either side."""
    pytest.importorskip("torch")
    ort = pytest.importorskip("onnxruntime")
    from dealer_assist.synth import train as train_mod

    rng = np.random.default_rng(0)
    crops = tmp_path / "crops.npz"
    small = rng.integers(0, 255, (256, 32, 32, 3), dtype=np.uint8)
    large = rng.integers(0, 255, (256, 48, 48, 3), dtype=np.uint8)
    labels = rng.integers(0, 53, 256)
    np.savez(crops, x_train=small, y_train=labels, x_val=small[:8], y_val=labels[:8],
             x_train_large=large, y_train_large=labels, x_val_large=large[:8], y_val_large=labels[:8])
    logs: list[str] = []
    cfg = train_mod.TrainConfig(classifier_epochs=1, classifier_large_size=48, threads=1)
    out, figures = train_mod.train_classifier(cfg, crops, tmp_path / "c.onnx", logs.append)
    assert "256 train crops, 8 val crops, 256 + 8 at 48 px" in logs[0]
    assert "large_card_accuracy" in figures
    session = ort.InferenceSession(str(out), providers=["CPUExecutionProvider"])
    for side in (32, 48):
        probs = session.run(None, {"crops": np.zeros((2, 3, side, side), np.float32)})[0]
        assert probs.shape == (2, 53) and np.allclose(probs.sum(axis=1), 1, atol=1e-4)


def test_classifier_large_size_reaches_the_recipe_and_changes_the_classifier_data(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from click.testing import CliRunner

    from dealer_assist.cli.train import train
    from dealer_assist.synth import dataset as ds
    from dealer_assist.synth import train as train_mod

    seen: list[tuple[int, int]] = []
    monkeypatch.setattr(train_mod, "run", lambda cfg, log: seen.append(
        (cfg.classifier_large_size, cfg.large_art_crops)) or {})
    assert CliRunner().invoke(train, ["--classifier-large-size", "48", "--large-art-crops", "7"]).exit_code == 0
    assert seen == [(48, 7)]
    drawn: list[tuple[int, float, float]] = []

    def art_crops(n: int, rng: object, faces: object, backs: object, *, size: int = 32, crop_scale: float = 1.5,
                  min_px: float = 8.0, max_px: float = 40.0) -> tuple[np.ndarray, np.ndarray]:
        drawn.append((size, min_px, max_px))
        return np.zeros((n, size, size, 3), np.uint8), np.zeros(n, np.int64)

    monkeypatch.setattr(ds, "art_crops", art_crops)
    monkeypatch.setattr(train_mod, "classifier_faces", lambda: ())
    for large in (0, 48):
        cfg = train_mod.TrainConfig(data=tmp_path, art_crops=40, classifier_large_size=large, large_art_crops=40)
        path = train_mod.build_classifier_data(cfg, None, lambda msg: None)
        files = set(np.load(path).files)
        assert ("x_train_large" in files) == bool(large)
    assert drawn == [(32, 8.0, 40.0), (32, 8.0, 40.0), (48, *ds.LARGE_ART_PX)]
    assert len(list(tmp_path.glob("classifier-*.npz"))) == 2  # the large read is in the data's key


def test_large_scenes_reach_the_recipe_and_join_the_classifier_data(monkeypatch: pytest.MonkeyPatch,
                                                                     tmp_path: Path) -> None:
    """`--large-scenes`: the close views' large corners join the training crops at both sizes, and their own
    validation views replace the art slice as the large read's validation."""
    from click.testing import CliRunner

    from dealer_assist.cli.train import train
    from dealer_assist.synth import dataset as ds
    from dealer_assist.synth import train as train_mod

    seen: list[int] = []
    monkeypatch.setattr(train_mod, "run", lambda cfg, log: seen.append(cfg.large_scenes) or {})
    assert CliRunner().invoke(train, ["--classifier-large-size", "48", "--large-scenes", "9"]).exit_code == 0
    assert seen == [9]
    monkeypatch.setattr(ds, "art_crops", lambda n, rng, faces, backs, *, size=32, **_: (
        np.zeros((n, size, size, 3), np.uint8), np.zeros(n, np.int64)))
    monkeypatch.setattr(train_mod, "classifier_faces", lambda: ())

    def views(cfg: object, log: object) -> dict[str, np.ndarray]:
        return {"x_train": np.ones((3, 32, 32, 3), np.uint8), "y_train": np.full(3, 7),
                "x_train_large": np.ones((3, 48, 48, 3), np.uint8), "y_train_large": np.full(3, 7),
                "x_val_large": np.ones((2, 48, 48, 3), np.uint8), "y_val_large": np.full(2, 9)}

    monkeypatch.setattr(train_mod, "large_scene_crops", views)
    cfg = train_mod.TrainConfig(data=tmp_path, art_crops=40, classifier_large_size=48, large_art_crops=40,
                                large_scenes=3)
    data = np.load(train_mod.build_classifier_data(cfg, None, lambda msg: None))
    assert len(data["y_train_large"]) == 40 + 3 and list(data["y_train_large"][-3:]) == [7, 7, 7]
    assert list(data["y_val_large"]) == [9, 9] and list(data["y_train"][-3:]) == [7, 7, 7]
    cfg = train_mod.TrainConfig(data=tmp_path, art_crops=40, classifier_large_size=48, large_art_crops=40)
    train_mod.build_classifier_data(cfg, None, lambda msg: None)
    assert len(list(tmp_path.glob("classifier-*.npz"))) == 2  # the close views are in the data's key


def test_large_scene_crops_cut_the_same_corners_at_both_sizes() -> None:
    """A large corner is read at both classifier sizes, so each close view gives the same crops (corners, jitters,
    other things) at 32 and 48 px, labelled alike; only corners whose crop square reaches the large read."""
    from dealer_assist.synth import train as train_mod

    cfg = train_mod.TrainConfig(classifier_large_size=48, large_scenes=4, workers=1)  # the 4th shows large corners
    out = train_mod.large_scene_crops(cfg, lambda msg: None)
    assert out["x_train"].shape[1:] == (32, 32, 3) and out["x_train_large"].shape[1:] == (48, 48, 3)
    assert len(out["y_train"]) == len(out["y_train_large"]) > 0
    assert (out["y_train"] == out["y_train_large"]).all()
    assert (out["y_train_large"] < 52).any() and (out["y_train_large"] == 52).any()  # corners and other things
    assert len(out["y_val_large"]) > 0
    small = cv2.resize(out["x_train_large"][0], (32, 32), interpolation=cv2.INTER_AREA)
    assert float(np.abs(small.astype(np.float32) - out["x_train"][0]).mean()) < 12  # one square, two sizes


def test_close_ups_change_the_data_key() -> None:
    from dealer_assist.synth import train as train_mod

    # the rendered data depends on it, so cached data made without close-ups is not reused
    assert train_mod.TrainConfig(close_ups=7).data_key() != train_mod.TrainConfig().data_key()


def test_close_up_training_scenes_are_rendered_as_close_views(tmp_path: Path) -> None:
    from dealer_assist.synth import train as train_mod

    cfg = train_mod.TrainConfig(data=tmp_path, images=1, close_ups=1, val_images=1, workers=1)
    yaml, _ = train_mod.build_data(cfg, lambda msg: None)
    tiles = sorted(p.name for p in (yaml.parent / "images" / "train").iterdir())
    assert any(t.startswith(f"s{train_mod.TRAIN_SEED0:07d}_") for t in tiles)
    assert any(t.startswith(f"s{train_mod.CLOSE_TRAIN_SEED0:07d}_") for t in tiles)
    # a close view of one spot: its table spans far fewer centimetres than a seat's regular view
    _, wide = train_mod.render(train_mod.CLOSE_TRAIN_SEED0, "train")
    _, close = train_mod.render(train_mod.CLOSE_TRAIN_SEED0, "train", close_up=True)

    def card_px(truth: object) -> float:
        import numpy as np

        cards = [o for o in truth.objects if o.kind in ("card_back", "card_face")]  # type: ignore[attr-defined]
        return float(np.median([np.ptp(np.asarray(o.polygon), axis=0).max() for o in cards]))

    assert card_px(close) > 1.5 * card_px(wide)


def test_a_renderer_change_changes_the_data_key(monkeypatch: pytest.MonkeyPatch) -> None:
    from dealer_assist.synth import scene
    from dealer_assist.synth import train as train_mod

    before = train_mod.TrainConfig().data_key()
    monkeypatch.setattr(scene, "renderer_key", lambda: "another renderer")
    assert train_mod.TrainConfig().data_key() != before


@pytest.mark.timeout(180)
def test_data_builds_after_opencv_ran_threaded_in_this_process(tmp_path: Path) -> None:
    """A forked worker inherits OpenCV's thread pool without its threads and hangs in cv2.setNumThreads;
    the scene workers are spawned instead."""
    import cv2
    import numpy as np

    from dealer_assist.synth import train as train_mod

    before = cv2.getNumThreads()
    try:
        cv2.setNumThreads(2)
        cv2.GaussianBlur(np.zeros((1500, 1500), np.float32), (31, 31), 5)  # starts the thread pool
        cfg = train_mod.TrainConfig(data=tmp_path, images=1, val_images=1, workers=1)
        yaml, crops = train_mod.build_data(cfg, lambda msg: None)
    finally:
        cv2.setNumThreads(before)
    assert any((yaml.parent / "images" / "train").iterdir()) and crops.is_file()


def test_the_recipe_ships_its_face_up_bar_in_the_manifest(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The bar a face-up read needs is the model's operating point: the recipe writes it into cards.json, and
    the held-out evaluation reads the models at it."""
    from dealer_assist.synth import train
    from dealer_assist.vision.detector import load_manifest

    (tmp_path / "cards-detector.pt").write_bytes(b"weights")
    (tmp_path / "cards-classifier.onnx").write_bytes(b"classifier")
    monkeypatch.setattr(train, "export_detector", lambda cfg, ckpt, out, imgsz: out)
    monkeypatch.setattr(train, "finalize_onnx", lambda path, meta: None)
    bars: list[float] = []

    def evaluate(model_dir: Path, n: int, log: object, threads: int = 2) -> dict[str, float]:
        bars.append(load_manifest(model_dir).card_threshold)
        return {"face_up_precision": 1.0}

    monkeypatch.setattr(train, "evaluate_models", evaluate)
    cfg = train.TrainConfig(out=tmp_path, skip=("detector", "classifier"), quantize=False, card_threshold=0.65)
    train.run(cfg, log=lambda message: None)
    assert bars == [0.65]
    assert load_manifest(tmp_path).card_threshold == 0.65
    assert load_manifest(tmp_path).large_read is None  # the one-command recipe: one crop size
    assert train.TrainConfig().card_threshold > 0.5  # precision first: a misread goes into an award
    cfg = train.TrainConfig(out=tmp_path, skip=("detector", "classifier"), quantize=False, classifier_large_size=48,
                            large_card_threshold=0.55)
    train.run(cfg, log=lambda message: None)
    large = load_manifest(tmp_path).large_read
    assert large is not None and (large.size, large.card_threshold) == (48, 0.55)


def test_the_recipe_ships_int8_copies_calibrated_at_every_crop_side(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """With quantization on (the default), the manifest names the int8 detector and classifier the app runs and
    keeps their float sources; the classifier's calibration crops come at every side it reads."""
    from dealer_assist.synth import quantize, train
    from dealer_assist.vision.detector import load_manifest

    (tmp_path / "cards-detector.pt").write_bytes(b"weights")
    (tmp_path / "cards-classifier.onnx").write_bytes(b"classifier")
    monkeypatch.setattr(train, "export_detector", lambda cfg, ckpt, out, imgsz: out)
    monkeypatch.setattr(train, "finalize_onnx", lambda path, meta: None)
    monkeypatch.setattr(train, "evaluate_models", lambda model_dir, n, log, threads=2: {})
    monkeypatch.setattr(quantize, "calibration_frames", lambda n, seed0: [])
    monkeypatch.setattr(train, "render", lambda seed, split, close_up=False: (None, None))
    sides: list[list[int]] = []
    monkeypatch.setattr(quantize, "classifier_calibration",
                        lambda scenes, sizes, crop_scale: sides.append(list(sizes)) or [])

    def int8(src: Path, dst: Path, *_: object) -> Path:
        dst.write_bytes(b"int8 " + src.read_bytes() if src.is_file() else b"int8")
        return dst

    monkeypatch.setattr(quantize, "quantize_detector", int8)
    monkeypatch.setattr(quantize, "quantize_classifier", int8)
    logs: list[str] = []
    train.run(train.TrainConfig(out=tmp_path, skip=("detector", "classifier"), classifier_large_size=48), logs.append)
    manifest = load_manifest(tmp_path)
    assert manifest.detector == "cards-detector-int8.onnx" and manifest.classifier == "cards-classifier-int8.onnx"
    assert manifest.detector_float == "cards-detector.onnx"
    assert manifest.classifier_float == "cards-classifier.onnx" and manifest.int8_weight_max == 64
    assert (tmp_path / "cards-classifier-int8.onnx").read_bytes() == b"int8 classifier"
    assert sides == [[32], [32, 48]]  # table views at the small side, close views at both
    assert any("classifier: int8 copy calibrated" in line for line in logs)
    sides.clear()
    train.run(train.TrainConfig(out=tmp_path, skip=("detector", "classifier"), quantize=False), logs.append)
    assert load_manifest(tmp_path).classifier == "cards-classifier.onnx" and sides == []


def test_face_down_layouts_reach_the_recipe_and_bad_shares_are_one_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    from click.testing import CliRunner

    from dealer_assist.cli.train import train
    from dealer_assist.synth import train as train_mod

    seen: list[tuple[float, float, float]] = []
    monkeypatch.setattr(train_mod, "run", lambda cfg, log: seen.append(cfg.face_down_layouts) or {})
    assert CliRunner().invoke(train, ["--face-down-layouts", "0.2,0.2,0.6"]).exit_code == 0
    assert seen == [(0.2, 0.2, 0.6)]
    assert train_mod.TrainConfig(face_down_layouts=(0.2, 0.2, 0.6)).data_key() != train_mod.TrainConfig().data_key()
    for bad in ("0.5,0.5", "0.5,0.5,0.5", "a,b,c", "-0.2,0.6,0.6"):
        refused = CliRunner().invoke(train, ["--face-down-layouts", bad])
        assert refused.exit_code == 2 and "not three shares summing to 1" in refused.output, bad
    assert len(seen) == 1


@pytest.mark.parametrize(("option", "field", "value", "bad"), [
    ("--random-backs", "random_backs", 16, "17"),
    ("--felt-print", "felt_print", 12, "-1"),
])
def test_a_training_scene_knob_reaches_the_recipe_and_only_a_nonzero_count_changes_the_data_key(
        monkeypatch: pytest.MonkeyPatch, option: str, field: str, value: int, bad: str) -> None:
    from click.testing import CliRunner

    from dealer_assist.cli.train import train
    from dealer_assist.synth import train as train_mod

    seen: list[int] = []
    monkeypatch.setattr(train_mod, "run", lambda cfg, log: seen.append(getattr(cfg, field)) or {})
    assert CliRunner().invoke(train, [option, str(value)]).exit_code == 0
    assert CliRunner().invoke(train, []).exit_code == 0
    assert seen == [value, 0]
    assert CliRunner().invoke(train, [option, bad]).exit_code == 2
    default = train_mod.TrainConfig().data_key()
    assert train_mod.TrainConfig(**{field: value}).data_key() != default
    assert train_mod.TrainConfig(**{field: 0}).data_key() == default
    image, _ = train_mod.render(1_000_000, "train", **{field: value})
    assert not np.array_equal(image, train_mod.render(1_000_000, "train")[0])


def test_stop_after_data_renders_the_tiles_and_trains_nothing(tmp_path: Path) -> None:
    from dealer_assist.synth import train as train_mod

    cfg = train_mod.TrainConfig(data=tmp_path / "data", out=tmp_path / "out", images=1, val_images=1, workers=1,
                                face_down_layouts=(0.0, 0.0, 1.0), random_backs=16, stop_after="data")
    result = train_mod.run(cfg, lambda msg: None)
    root = Path(result["data"])
    assert root.parent == tmp_path / "data" and root.name == cfg.data_key()
    assert (root / "data.yaml").is_file() and (root / "crops.npz").is_file()
    assert any((root / "images" / "train").iterdir())
    assert not any((tmp_path / "out").iterdir())  # no model, no manifest


def test_a_rendered_set_named_directly_is_used_where_it_now_lies(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Tiles copied to a GPU machine: their key differs there (no Debian decks), and data.yaml named the old folder.
    Stopping after the detector, the crops may be left behind."""
    from dealer_assist.errors import DealerAssistError
    from dealer_assist.synth import train as train_mod

    moved = tmp_path / "copied"
    (moved / "images" / "train").mkdir(parents=True)
    (moved / "data.yaml").write_text("path: /somewhere/else/d86b64a108\ntrain: images/train\n")
    seen: dict[str, Path] = {}

    def fake_train_detector(cfg: train_mod.TrainConfig, data_yaml: Path, log: object) -> Path:
        seen["yaml"] = data_yaml
        ckpt = tmp_path / "best.pt"
        ckpt.write_bytes(b"pt")
        return ckpt

    monkeypatch.setattr(train_mod, "train_detector", fake_train_detector)
    cfg = train_mod.TrainConfig(data=moved, out=tmp_path / "out", stop_after="detector")
    result = train_mod.run(cfg, lambda msg: None)
    assert seen["yaml"] == moved / "data.yaml"
    assert f"path: {moved.resolve()}\n" in (moved / "data.yaml").read_text()
    assert (tmp_path / "out" / "cards-detector.pt").read_bytes() == b"pt"
    assert not (tmp_path / "out" / "cards.json").exists() and result["data"] == str(moved)
    with pytest.raises(DealerAssistError, match="unknown stage to stop after 'export'; accepted: , data, detector"):
        train_mod.run(train_mod.TrainConfig(data=moved, out=tmp_path / "out", stop_after="export"), lambda m: None)


def test_hand_videos_add_the_table_cameras_frames_to_the_detectors_tiles(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`train --hand-videos N`: 4 frames of each of N simulated hands (training designs) cut into labelled tiles
    beside the scenes', and a few hands more in validation; the count reaches the recipe and changes the data key."""
    from click.testing import CliRunner

    from dealer_assist.cli.train import train
    from dealer_assist.errors import DealerAssistError
    from dealer_assist.synth import train as train_mod

    cfg = train_mod.TrainConfig(data=tmp_path / "data", out=tmp_path / "out", images=1, val_images=1, workers=1,
                                hand_videos=2, stop_after="data")
    root = Path(train_mod.run(cfg, lambda msg: None)["data"])
    videos = {split: sorted((root / "labels" / split).glob("v*.txt")) for split in ("train", "val")}
    assert {p.name[:7] for p in videos["train"]} == {"v005000", "v005001"}
    assert {p.name[:7] for p in videos["val"]} == {"v009000"}
    assert len({p.name[:12] for p in videos["train"]}) == 2 * train_mod.VIDEO_FRAMES  # frames of the two hands
    assert any((root / "labels" / "train").glob("s*.txt"))  # the scenes' tiles stay
    lines = [line.split() for p in videos["train"] + videos["val"] for line in p.read_text().splitlines()]
    assert lines and {line[0] for line in lines} <= {"0", "1", "2"} and any(line[0] == "1" for line in lines)
    assert all(0 < float(v) <= 1 for line in lines for v in line[1:])
    for p in videos["train"]:
        assert (root / "images" / "train" / f"{p.stem}.jpg").is_file()

    seen: list[int] = []
    monkeypatch.setattr(train_mod, "run", lambda cfg, log: seen.append(cfg.hand_videos) or {})
    assert CliRunner().invoke(train, ["--hand-videos", "320"]).exit_code == 0
    assert seen == [320]
    for bad in ("-1", str(train_mod.MAX_HAND_VIDEOS + 1)):  # more would reach the validation hands' seeds
        assert CliRunner().invoke(train, ["--hand-videos", bad]).exit_code == 2
    with pytest.raises(DealerAssistError, match="at most 4000"):
        train_mod.build_data(train_mod.TrainConfig(data=tmp_path / "d2", hand_videos=4001), lambda msg: None)
    assert train_mod.TrainConfig(hand_videos=320).data_key() != train_mod.TrainConfig().data_key()


def test_detector_lr_overrides_the_fine_tune_rate(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """--detector-lr sets the detector's lr0, also over --continue-from's own (a gentler fine-tune)."""
    from click.testing import CliRunner

    from dealer_assist.cli.train import train
    from dealer_assist.synth import train as train_mod

    (tmp_path / "cards-detector.pt").write_bytes(b"x")
    seen: dict[str, object] = {}

    def fake_run(cfg: train_mod.TrainConfig, log: object) -> dict[str, object]:
        seen.update(cfg.extra.get("detector_args", {}))
        return {}

    monkeypatch.setattr(train_mod, "run", fake_run)
    result = CliRunner().invoke(train, ["--continue-from", str(tmp_path), "--detector-lr", "0.0003"])
    assert result.exit_code == 0, result.output
    assert seen == {"lr0": 0.0003, "warmup_epochs": 0.0}
    assert CliRunner().invoke(train, ["--detector-lr", "0"]).exit_code != 0
