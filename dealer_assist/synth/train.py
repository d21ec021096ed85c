"""The training recipe: render data from training designs, train the detector and the index classifier,
export both to ONNX in models/, evaluate on held-out designs. One call: `run(TrainConfig(...))`.

Two models (approach "few-class detector + classifier"):
- a narrow YOLOv8 (Ultralytics, from a model yaml, no pretrained weights) finding three classes:
  "index" (a face-up card's index corner), "back" (a face-down card), "button";
- a small CNN that reads a square crop around each index corner from the full-resolution image:
  rank (13) x suit (4), plus "not an index corner". Exported with its output already combined into
  53 probabilities: the 52 cards in `Card.index` order, then "not a card".

Ultralytics runs offline (YOLO_OFFLINE=1, amp=False, plots=False) with its config dir inside the run
folder and DejaVu Sans standing in for Arial, so nothing is fetched. torch and ultralytics are
imported inside functions only.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import os
import shutil
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from dealer_assist.errors import DealerAssistError
from dealer_assist.synth import dataset as ds
from dealer_assist.synth.card_art import designs_for
from dealer_assist.synth.export import finalize_onnx, write_manifest
from dealer_assist.synth.scene import FACE_DOWN_LAYOUTS
from dealer_assist.synth.truth import SceneTruth

REPO = Path(__file__).resolve().parents[2]
Log = Callable[[str], None]

# A narrow YOLOv8: the "n" depth with half of yolov8n's width (8..128 channels); three classes.
MODEL_YAML = """\
# Dealer Assist card detector: YOLOv8 layout, depth 0.33, width 0.125 (half of yolov8n).
nc: 3
scales:
  n: [0.33, 0.125, 1024]
backbone:
  - [-1, 1, Conv, [64, 3, 2]] # 0-P1/2
  - [-1, 1, Conv, [128, 3, 2]] # 1-P2/4
  - [-1, 3, C2f, [128, True]]
  - [-1, 1, Conv, [256, 3, 2]] # 3-P3/8
  - [-1, 6, C2f, [256, True]]
  - [-1, 1, Conv, [512, 3, 2]] # 5-P4/16
  - [-1, 6, C2f, [512, True]]
  - [-1, 1, Conv, [1024, 3, 2]] # 7-P5/32
  - [-1, 3, C2f, [1024, True]]
  - [-1, 1, SPPF, [1024, 5]] # 9
head:
  - [-1, 1, nn.Upsample, [None, 2, "nearest"]]
  - [[-1, 6], 1, Concat, [1]]
  - [-1, 3, C2f, [512]] # 12
  - [-1, 1, nn.Upsample, [None, 2, "nearest"]]
  - [[-1, 4], 1, Concat, [1]]
  - [-1, 3, C2f, [256]] # 15 (P3/8)
  - [-1, 1, Conv, [256, 3, 2]]
  - [[-1, 12], 1, Concat, [1]]
  - [-1, 3, C2f, [512]] # 18 (P4/16)
  - [-1, 1, Conv, [512, 3, 2]]
  - [[-1, 9], 1, Concat, [1]]
  - [-1, 3, C2f, [1024]] # 21 (P5/32)
  - [[15, 18, 21], 1, Detect, [nc]]
"""


@dataclass
class TrainConfig:
    """Everything that decides the result; the same config gives the same models (CPU, same versions)."""

    out: Path = REPO / "models"
    runs: Path = REPO / "runs" / "train"
    data: Path = REPO / "datasets" / "cards"
    images: int = 1200  # training scenes (training designs only)
    close_ups: int = 0  # more training scenes, each a close view of one spot (`CLOSE_UP_VIEW`)
    val_images: int = 40  # validation scenes (training designs, other seeds)
    heldout_images: int = 100  # evaluation scenes (held-out designs only)
    epochs: int = 100  # with `hours`, Ultralytics fits the epoch count (and the cosine schedule) into the cap
    hours: float = 0.75  # cap on detector training time (Ultralytics `time`), 0 = no cap; the recipe fits 90 min
    classifier_epochs: int = 20
    classifier_arch: str = "v3"  # validation reads: v1 39% (14 epochs), v2 43% (14), v3 54% (16)
    batch: int = 16
    imgsz: int = ds.TILE
    work_long_side: int = 1280
    classifier_size: int = 32
    # A second, larger classifier input for large index corners (a close photo's: 60 to 200 px corners, which a
    # 32 px crop shrinks past reading); the network is fully convolutional, so one set of weights reads both.
    # 0: none. Crops whose square is at least `ds.LARGE_READ_FROM_PX` image px are read at this size.
    # 0 in the one-command recipe: 48 makes each classifier epoch 1.7x as long, past the CPU's 90 minutes.
    classifier_large_size: int = 0
    large_art_crops: int = 48000  # art crops at `classifier_large_size`, corners `ds.LARGE_ART_PX`
    # Close views of a showdown (`LARGE_SCENE_SEED0`) whose large corners are cut at both classifier sizes, as the
    # large read sees them: the art crops have no camera (blur, light, a neighbour's corner beside the one read).
    # A tenth as many more, at `LARGE_VAL_SEED0`, validate the large read.
    large_scenes: int = 0
    # The probability a large corner's read (the mean of its two reads) needs: two reads that must agree are
    # surer when right than one (held-out close views, 2026-11-27: 98.0% precision at 0.5; models/README.md).
    large_card_threshold: float = 0.5
    crop_scale: float = 1.5
    # The classifier probability a face-up read needs (cards.json `card_threshold`): precision first, since a
    # misread goes into an award (held-out, 2026-11-25: 0.5 reads 24.5% at 84.3% precision, 0.6 19.7% at 93.9%).
    card_threshold: float = 0.6
    device: str = "cpu"
    threads: int = 2
    seed: int = 0
    workers: int = 2  # processes rendering scenes
    art_crops: int = 60000  # classifier crops drawn straight from card art (training designs and font decks)
    empty_tile_keep: float = 0.15
    # Shares of a seat's face-down cards drawn as a squared pile, a loose fan and a dealt row
    # (`SceneOptions.face_down_layouts`); more dealt rows teach the detector to count a pitched row.
    face_down_layouts: tuple[float, float, float] = FACE_DOWN_LAYOUTS
    # How many of the seeded random backs (`card_art.RANDOM_BACKS`) the training scenes also draw from: 0 for the
    # shipped models; a CPU round with 16 found more backs in stills but read the hand videos worse (model card).
    random_backs: int = 0
    # Pieces of print on each training scene's felt (`SceneOptions.felt_print`: lettering and lone printed chips,
    # negatives). 0 for the detectors shipped until 2026-11-27, which took such print for backs (model card).
    felt_print: int = 0
    # Simulated hand videos (`hand_video.SimulatedTable`, training designs, seeds from `VIDEO_TRAIN_SEED0`) whose
    # frames join the detector's tiles, `VIDEO_FRAMES` frames each at random moments of the hand: the table camera's
    # own view (dealt rows at the seats, the dealer's hands over them, a hand's whole life on one felt), which the
    # scenes only approach. `VIDEO_VAL_FRACTION` as many more (seeds from `VIDEO_VAL_SEED0`) join validation.
    # Tiles only: the classifier's crops stay the scenes'.
    hand_videos: int = 0
    stop_after: str = ""  # "data": render the data and stop; "detector": train the detector checkpoint and stop
    quantize: bool = True  # the app runs int8 copies of the detector and the classifier (about 2x faster on the CPU)
    calibration_frames: int = 16
    skip: tuple[str, ...] = ()  # stages to skip when their outputs exist: "data", "detector", "classifier"
    extra: dict[str, Any] = field(default_factory=dict)

    def data_key(self) -> str:
        """The rendered data's cache key: every setting it depends on, the renderer's source among them."""
        from dealer_assist.synth.scene import renderer_key

        parts = [self.images, self.close_ups, self.val_images, self.imgsz, self.work_long_side, self.classifier_size,
                 self.crop_scale, self.seed, self.empty_tile_keep, ds.INDEX_GROW, ds.MIN_CROP_PX,
                 sorted(designs_for("train", "face")), sorted(designs_for("train", "back")), renderer_key(),
                 list(self.face_down_layouts)] + ([self.random_backs] if self.random_backs else [])
        parts += [{"felt_print": self.felt_print}] if self.felt_print else []
        if self.hand_videos:
            parts += [{"hand_videos": self.hand_videos, "frames": VIDEO_FRAMES, "val": VIDEO_VAL_FRACTION}]
        return hashlib.sha256(json.dumps(parts).encode()).hexdigest()[:10]


REUSABLE: dict[str, str] = {"detector": "cards-detector.pt", "classifier": "cards-classifier.onnx"}
"""The stages `TrainConfig.skip` may name, and the file in `out` each is taken from."""

STOP_AFTER = ("", "data", "detector")
"""Where `run` may stop: at the end (""), after rendering the data, or after training the detector checkpoint
(the GPU part; a machine with a GPU but without the renderer's OpenCV or card art trains on copied tiles)."""

# Seeds: training scenes 1_000_000 + i, close-up training scenes 1_500_000 + i, validation 2_000_000 + i,
# held-out 3_000_000 + i.
TRAIN_SEED0, CLOSE_TRAIN_SEED0, VAL_SEED0, HELDOUT_SEED0 = 1_000_000, 1_500_000, 2_000_000, 3_000_000
LARGE_SCENE_SEED0, LARGE_VAL_SEED0 = 1_700_000, 2_700_000
# Hand videos (`TrainConfig.hand_videos`): the simulator's seeds, far from the benchmark's (0 to 7, held-out designs).
VIDEO_TRAIN_SEED0, VIDEO_VAL_SEED0, VIDEO_VAL_FRACTION, VIDEO_FRAMES = 5_000, 9_000, 0.075, 4
MAX_HAND_VIDEOS = VIDEO_VAL_SEED0 - VIDEO_TRAIN_SEED0  # more would reuse validation hands for training
CLOSE_UP_VIEW = (9.0, 30.0)
"""Half width in table cm of a close-up training view (a phone photo of one spot). The regular scenes' close
views (30 to 75 cm) never show a chip or card as large as this, and the full-scale read then called large chips
`back` in close-up photos; here they appear as what they are, and cards too large for a tile go unlabelled,
as the full-scale read is meant to leave them to the shrunk read."""


def render(seed: int, split: str, close_up: bool = False,
           face_down_layouts: tuple[float, float, float] = FACE_DOWN_LAYOUTS, random_backs: int = 0,
           felt_print: int = 0) -> tuple[np.ndarray[Any, Any], SceneTruth]:
    from dealer_assist.synth.card_art import RANDOM_BACKS
    from dealer_assist.synth.scene import SceneOptions, render_scene

    options = SceneOptions(face_down_layouts=face_down_layouts, extra_backs=RANDOM_BACKS[:random_backs],
                           felt_print=felt_print)
    if close_up:
        options = replace(options, full_table=False, view_half_cm=CLOSE_UP_VIEW)
    scene = render_scene(seed, split, options)  # type: ignore[arg-type]
    return scene.image, scene.truth


def heldout_scenes(n: int, seed0: int = HELDOUT_SEED0) -> Iterator[tuple[np.ndarray[Any, Any], SceneTruth]]:
    """The evaluation scenes: held-out face and back designs only."""
    for i in range(n):
        yield render(seed0 + i, "held_out")


# --------------------------------------------------------------------------------------------
# Stage 1: data


SceneJob = tuple[int, str, int, int, int, float, int, float, bool, tuple[float, float, float], int, int]


def _labelled_tiles(image: np.ndarray[Any, Any], truth: SceneTruth, tile: int, long_side: int, empty_keep: float,
                    rng: np.random.Generator) -> list[tuple[int, bytes, str]]:
    """An image's YOLO tiles as (its place among all the image's tiles, JPEG bytes, label text); a tile without
    objects kept with probability `empty_keep`."""
    out = []
    for k, (tile_img, lines) in enumerate(ds.yolo_tiles(image, truth, tile, long_side)):
        if not lines and rng.random() > empty_keep:
            continue
        _, buf = cv2.imencode(".jpg", tile_img, [cv2.IMWRITE_JPEG_QUALITY, 92])
        out.append((k, buf.tobytes(), "".join(line + "\n" for line in lines)))
    return out


def _scene_data(job: SceneJob) -> tuple[int, list[tuple[bytes, str]], np.ndarray[Any, Any], list[int], str]:
    """Render one scene and cut its tiles and crops (run in a worker process)."""
    (seed, split, tile, long_side, crop_size, crop_scale, base_seed, empty_keep, close_up, layouts, random_backs,
     felt_print) = job
    cv2.setNumThreads(1)
    rng = np.random.default_rng([base_seed, seed])
    try:
        image, truth = render(seed, split, close_up, layouts, random_backs, felt_print)
    except Exception as exc:  # a scene the renderer cannot draw is skipped, and said so
        return seed, [], np.zeros((0, crop_size, crop_size, 3), np.uint8), [], f"{type(exc).__name__}: {exc}"[:200]
    tiles = [(jpg, text) for _, jpg, text in _labelled_tiles(image, truth, tile, long_side, empty_keep, rng)]
    pairs = list(ds.index_crops(image, truth, rng, size=crop_size, crop_scale=crop_scale))
    crops = np.stack([c for c, _ in pairs]) if pairs else np.zeros((0, crop_size, crop_size, 3), np.uint8)
    return seed, tiles, crops, [label for _, label in pairs], ""


VideoJob = tuple[int, int, int, float]


def _video_data(job: VideoJob) -> tuple[int, list[tuple[str, bytes, str]], str]:
    """`VIDEO_FRAMES` frames of one simulated hand (training designs) cut into tiles (run in a worker process):
    badugi on even seeds, triple-draw Badacey on odd ones; 1080p one time in three, else 720p."""
    from dealer_assist.synth.hand_video import SimulatedTable

    seed, tile, long_side, empty_keep = job
    cv2.setNumThreads(1)
    rng = np.random.default_rng([seed, 77])
    game = ("badugi-limit", "badacey-limit-triple")[seed % 2]
    size = ((1280, 720), (1920, 1080))[int(rng.random() < 0.35)]
    try:
        table = SimulatedTable(game, seed, split="train", size=size, felt_print=int(rng.integers(0, 13)))
    except Exception as exc:  # a hand the simulator cannot play is skipped, and said so
        return seed, [], f"{type(exc).__name__}: {exc}"[:200]
    out = []
    for f in sorted(int(f) for f in rng.choice(table.frame_count, size=min(VIDEO_FRAMES, table.frame_count),
                                               replace=False)):
        image, objects = table.render_frame_truth(f)
        truth = SceneTruth(seed=seed, split="train", width=size[0], height=size[1],
                           homography=table.truth.homography,  # type: ignore[arg-type]
                           table=table.profile.name, seats=len(table.profile.seats),
                           face_design=table.truth.face_design, back_design=table.truth.back_design,
                           objects=tuple(objects))
        out += [(f"v{seed:06d}_{f:04d}_{k}", jpg, text)
                for k, jpg, text in _labelled_tiles(image, truth, tile, long_side, empty_keep, rng)]
    return seed, out, ""


def _video_tiles(pool: Any, cfg: TrainConfig, split: str, img_dir: Path, lbl_dir: Path, log: Log) -> None:
    """Write the tiles of the split's hand videos (`TrainConfig.hand_videos`)."""
    n, seed0 = ((cfg.hand_videos, VIDEO_TRAIN_SEED0) if split == "train"
                else (max(1, round(cfg.hand_videos * VIDEO_VAL_FRACTION)), VIDEO_VAL_SEED0))
    jobs: list[VideoJob] = [(seed0 + i, cfg.imgsz, cfg.work_long_side, cfg.empty_tile_keep) for i in range(n)]
    n_tiles = 0
    for done, (seed, tiles, err) in enumerate(pool.map(_video_data, jobs, chunksize=4), start=1):
        if err:
            log(f"data: hand video {seed} skipped ({err})")
        for stem, jpg, text in tiles:
            (img_dir / f"{stem}.jpg").write_bytes(jpg)
            (lbl_dir / f"{stem}.txt").write_text(text)
        n_tiles += len(tiles)
        if done % 100 == 0 or done == len(jobs):
            log(f"data: {split} {done}/{len(jobs)} hand videos, {n_tiles} tiles")


def build_data(cfg: TrainConfig, log: Log) -> tuple[Path, Path]:
    """Render training and validation scenes once (training designs only); write YOLO tiles and classifier
    crops. Returns (data.yaml, crops.npz). Scenes render in `cfg.workers` processes; the result does not
    depend on their number."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    if (cfg.data / "data.yaml").is_file():
        # A rendered set named directly, as copied to a GPU machine (its key would differ there: the Debian decks
        # are not installed); the crops may have been left behind, as training the detector needs only the tiles.
        log(f"data: using {cfg.data} as rendered")
        _write_data_yaml(cfg.data / "data.yaml")  # the folder has moved
        return cfg.data / "data.yaml", cfg.data / "crops.npz"
    if cfg.hand_videos > MAX_HAND_VIDEOS:
        raise DealerAssistError(f"{cfg.hand_videos} hand videos asked for; at most {MAX_HAND_VIDEOS} (more would "
                                "train on the validation hands)")
    root = cfg.data / cfg.data_key()
    yaml = root / "data.yaml"
    crops_path = root / "crops.npz"
    if yaml.is_file() and crops_path.is_file():
        log(f"data: reusing {root}")
        return yaml, crops_path
    shutil.rmtree(root, ignore_errors=True)
    root.mkdir(parents=True)
    crops: dict[str, list[np.ndarray[Any, Any]]] = {"x_train": [], "y_train": [], "x_val": [], "y_val": []}
    t0 = time.time()
    # Spawned, not forked: a fork copies OpenCV's thread pool without its threads, and the child's
    # cv2.setNumThreads then waits on them forever.
    spawn = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=max(1, cfg.workers), mp_context=spawn) as pool:
        for split, n, seed0 in (("train", cfg.images, TRAIN_SEED0), ("val", cfg.val_images, VAL_SEED0)):
            img_dir, lbl_dir = root / "images" / split, root / "labels" / split
            img_dir.mkdir(parents=True)
            lbl_dir.mkdir(parents=True)
            seeds = [(seed0 + i, False) for i in range(n)]
            if split == "train":
                seeds += [(CLOSE_TRAIN_SEED0 + i, True) for i in range(cfg.close_ups)]
            jobs: list[SceneJob] = [(seed, "train", cfg.imgsz, cfg.work_long_side, cfg.classifier_size,
                                     cfg.crop_scale, cfg.seed, 1.0 if close else cfg.empty_tile_keep, close,
                                     cfg.face_down_layouts, cfg.random_backs, cfg.felt_print)
                                    for seed, close in seeds]  # a close-up's unlabelled tiles are its lesson
            n_tiles = 0
            for done, (seed, tiles, x, y, err) in enumerate(pool.map(_scene_data, jobs, chunksize=1), start=1):
                if err:
                    log(f"data: scene {seed} skipped ({err})")
                for k, (jpg, text) in enumerate(tiles):
                    (img_dir / f"s{seed:07d}_{k:02d}.jpg").write_bytes(jpg)
                    (lbl_dir / f"s{seed:07d}_{k:02d}.txt").write_text(text)
                n_tiles += len(tiles)
                crops[f"x_{split}"].append(x)
                crops[f"y_{split}"].append(np.asarray(y, dtype=np.int64))
                if done % 25 == 0 or done == len(jobs):
                    n_crops = sum(len(v) for v in crops[f"y_{split}"])
                    log(f"data: {split} {done}/{len(jobs)} scenes, {n_tiles} tiles, {n_crops} crops, "
                        f"{time.time() - t0:.0f}s")
            if cfg.hand_videos:
                _video_tiles(pool, cfg, split, img_dir, lbl_dir, log)
    _write_data_yaml(yaml)
    arrays: dict[str, Any] = {k: np.concatenate(v) for k, v in crops.items()}
    np.savez(crops_path, **arrays)
    return yaml, crops_path


def _write_data_yaml(yaml: Path) -> None:
    """Ultralytics' dataset file for the tiles beside it (an absolute path: Ultralytics reads it from its cwd)."""
    names = "\n".join(f"  {i}: {name}" for i, name in enumerate(ds.DETECTOR_CLASSES))
    yaml.write_text(f"path: {yaml.parent.resolve()}\ntrain: images/train\nval: images/val\nnames:\n{names}\n")


def classifier_faces() -> tuple[str, ...]:
    """Face designs the classifier's art crops come from: the training designs and the installed font decks."""
    from dealer_assist.synth.procedural import FONT_DECKS, font_deck_available

    return (*designs_for("train", "face"), *(d for d in FONT_DECKS if font_deck_available(d)))


def build_classifier_data(cfg: TrainConfig, scene_crops: Path | None, log: Log) -> Path:
    """Classifier crops: `cfg.art_crops` drawn straight from training designs' art, plus the scene crops.
    Validation: the validation scenes' crops (or a slice of art crops when there are none)."""
    from dealer_assist.synth.card_art import load_back_design, load_face_design

    face_names = classifier_faces()
    key_parts = [cfg.data_key(), cfg.art_crops, str(scene_crops), ds.ART_MIN_PX, ds.ART_CROPS_VERSION, list(face_names)]
    if cfg.classifier_large_size:
        key_parts += [{"large": [cfg.classifier_large_size, cfg.large_art_crops, list(ds.LARGE_ART_PX)]}]
        if cfg.large_scenes:
            key_parts += [{"large_scenes": [cfg.large_scenes, LARGE_SCENE_PER_CORNER, cfg.face_down_layouts,
                                            cfg.random_backs, cfg.felt_print]}]
    key = hashlib.sha256(json.dumps(key_parts).encode()).hexdigest()[:10]
    path = cfg.data / f"classifier-{key}.npz"
    if path.is_file():
        log(f"classifier data: reusing {path}")
        return path
    t0 = time.time()
    faces = [load_face_design(n) for n in face_names]
    backs = [load_back_design(n).image for n in designs_for("train", "back")]
    log(f"classifier data: {len(faces)} face designs, {len(backs)} back designs (training split)")
    rng = np.random.default_rng([cfg.seed, 77])
    x_art, y_art = ds.art_crops(cfg.art_crops, rng, list(faces), backs, size=cfg.classifier_size,
                                crop_scale=cfg.crop_scale)
    parts: dict[str, list[np.ndarray[Any, Any]]] = {"x_train": [x_art], "y_train": [y_art], "x_val": [], "y_val": []}
    if scene_crops is not None and scene_crops.is_file():
        d = np.load(scene_crops)
        for k in parts:
            if k in d and len(d[k]):
                parts[k].append(d[k])
    if not parts["y_val"]:
        n_val = max(1, len(y_art) // 20)
        parts["x_val"] = [x_art[:n_val]]
        parts["y_val"] = [y_art[:n_val]]
        parts["x_train"][0], parts["y_train"][0] = x_art[n_val:], y_art[n_val:]
    arrays: dict[str, Any] = {k: np.concatenate(v) for k, v in parts.items()}
    if cfg.classifier_large_size and cfg.large_art_crops:
        x_big, y_big = ds.art_crops(cfg.large_art_crops, np.random.default_rng([cfg.seed, 78]), list(faces), backs,
                                    size=cfg.classifier_large_size, crop_scale=cfg.crop_scale,
                                    min_px=ds.LARGE_ART_PX[0], max_px=ds.LARGE_ART_PX[1])
        if not cfg.large_scenes:  # validate on a slice of the art crops
            n_val = max(1, len(y_big) // 20)
            arrays |= {"x_val_large": x_big[:n_val], "y_val_large": y_big[:n_val],
                       "x_train_large": x_big[n_val:], "y_train_large": y_big[n_val:]}
        else:  # train on all of them and the close views' corners; validate on other close views
            views = large_scene_crops(cfg, log)
            arrays |= {"x_train_large": np.concatenate([x_big, views["x_train_large"]]),
                       "y_train_large": np.concatenate([y_big, views["y_train_large"]]),
                       "x_val_large": views["x_val_large"], "y_val_large": views["y_val_large"],
                       "x_train": np.concatenate([arrays["x_train"], views["x_train"]]),
                       "y_train": np.concatenate([arrays["y_train"], views["y_train"]])}
    np.savez(path, **arrays)
    log(f"classifier data: {len(arrays['y_train'])} train crops, {len(arrays['y_val'])} val crops"
        + (f", {len(arrays['y_train_large'])} + {len(arrays['y_val_large'])} at {cfg.classifier_large_size} px"
           if "y_train_large" in arrays else "") + f", {time.time() - t0:.0f}s")
    return path


LARGE_SCENE_PER_CORNER = 6
"""Crops cut round each large corner of a close view (each jittered as a detector box is)."""

LargeSceneJob = tuple[int, int, int, float, int, tuple[float, float, float], int, int]


def _large_scene_crops(job: LargeSceneJob) -> tuple[int, dict[str, np.ndarray[Any, Any]], str]:
    """Render one close view of a showdown and cut its large corners (and as many other things) at both classifier
    sizes (run in a worker process)."""
    from dealer_assist.synth.card_art import RANDOM_BACKS
    from dealer_assist.synth.scene import SceneOptions, render_scene

    seed, small, large, crop_scale, base_seed, layouts, random_backs, felt_print = job
    cv2.setNumThreads(1)
    options = SceneOptions(full_table=False, view_half_cm=CLOSE_UP_VIEW, phase="showdown", face_down_layouts=layouts,
                           extra_backs=RANDOM_BACKS[:random_backs], felt_print=felt_print)
    out: dict[str, np.ndarray[Any, Any]] = {}
    try:
        scene = render_scene(seed, "train", options)
    except Exception as exc:  # a scene the renderer cannot draw is skipped, and said so
        return seed, out, f"{type(exc).__name__}: {exc}"[:200]
    for name, size in (("small", small), ("large", large)):
        rng = np.random.default_rng([base_seed, seed, 79])  # the same corners and jitters at both sizes
        pairs = list(ds.index_crops(scene.image, scene.truth, rng, size=size, crop_scale=crop_scale,
                                    per_corner=LARGE_SCENE_PER_CORNER, min_px=ds.LARGE_READ_FROM_PX / crop_scale))
        out[f"x_{name}"] = (np.stack([c for c, _ in pairs]) if pairs
                            else np.zeros((0, size, size, 3), np.uint8))
        out[f"y_{name}"] = np.array([label for _, label in pairs], dtype=np.int64)
    return seed, out, ""


def large_scene_crops(cfg: TrainConfig, log: Log) -> dict[str, np.ndarray[Any, Any]]:
    """Crops of the large corners of `cfg.large_scenes` close views of a showdown (training designs): at
    `classifier_large_size` ("x_train_large") and at `classifier_size` ("x_train"), since a large corner is read at
    both; `large_scenes // 10` more views at other seeds give "x_val_large"."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    t0 = time.time()
    n_val = max(1, cfg.large_scenes // 10)
    parts: dict[str, list[np.ndarray[Any, Any]]] = {"x_train": [], "y_train": [], "x_train_large": [],
                                                    "y_train_large": [], "x_val_large": [], "y_val_large": []}
    spawn = multiprocessing.get_context("spawn")  # as build_data: no forked OpenCV thread pool
    with ProcessPoolExecutor(max_workers=max(1, cfg.workers), mp_context=spawn) as pool:
        for split, n, seed0 in (("train", cfg.large_scenes, LARGE_SCENE_SEED0),
                                ("val", n_val, LARGE_VAL_SEED0)):
            jobs: list[LargeSceneJob] = [(seed0 + i, cfg.classifier_size, cfg.classifier_large_size, cfg.crop_scale,
                                          cfg.seed, cfg.face_down_layouts, cfg.random_backs, cfg.felt_print)
                                         for i in range(n)]
            for seed, crops, err in pool.map(_large_scene_crops, jobs, chunksize=1):
                if err:
                    log(f"classifier data: close view {seed} skipped ({err})")
                    continue
                parts[f"x_{split}_large"].append(crops["x_large"])
                parts[f"y_{split}_large"].append(crops["y_large"])
                if split == "train":
                    parts["x_train"].append(crops["x_small"])
                    parts["y_train"].append(crops["y_small"])
    if not all(parts.values()):
        raise DealerAssistError("no close view for the large corners could be rendered (see the skipped views above)")
    out = {k: np.concatenate(v) for k, v in parts.items()}
    log(f"classifier data: {len(out['y_train_large'])} + {len(out['y_val_large'])} crops of large corners from "
        f"{cfg.large_scenes} + {n_val} close views of a showdown, {time.time() - t0:.0f}s")
    return out


# --------------------------------------------------------------------------------------------
# Stage 2: the detector (Ultralytics)


def _offline_ultralytics(run_dir: Path) -> None:
    """Make Ultralytics fetch nothing: offline flag, its config dir in the run folder, a local stand-in font."""
    os.environ["YOLO_OFFLINE"] = "1"
    cfg_dir = run_dir / "ultralytics-config"
    (cfg_dir / "Ultralytics").mkdir(parents=True, exist_ok=True)
    os.environ["YOLO_CONFIG_DIR"] = str(cfg_dir)
    font = next((p for p in (Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"),) if p.is_file()), None)
    for name in ("Arial.ttf", "Arial.Unicode.ttf"):
        target = cfg_dir / "Ultralytics" / name
        if font is not None and not target.exists():
            shutil.copyfile(font, target)


def train_detector(cfg: TrainConfig, data_yaml: Path, log: Log) -> Path:
    """Train the YOLO detector from the model yaml; returns the best (or last) checkpoint."""
    run_dir = cfg.runs.resolve()  # Ultralytics puts a relative project under its own runs/detect/
    run_dir.mkdir(parents=True, exist_ok=True)
    _offline_ultralytics(run_dir)
    try:
        import torch

        yolo = importlib.import_module("ultralytics").YOLO
    except ImportError:
        raise DealerAssistError("training needs the train extra: bash installer/install.sh --train") from None
    torch.set_num_threads(max(1, cfg.threads))
    yaml_path = run_dir / "cards-yolov8n.yaml"
    yaml_path.write_text(MODEL_YAML)
    init = cfg.extra.get("detector_init")  # continue from a checkpoint instead of the bare yaml
    model = yolo(str(init) if init else str(yaml_path), task="detect")
    args: dict[str, Any] = dict(
        data=str(data_yaml), epochs=cfg.epochs, imgsz=cfg.imgsz, batch=cfg.batch, device=cfg.device,
        workers=1 if cfg.device == "cpu" else max(4, cfg.workers), seed=cfg.seed, deterministic=True,
        amp=False, plots=False,
        project=str(run_dir), name="detector", exist_ok=True, verbose=False,
        pretrained=str(init) if init else False,
        cache="ram", patience=0, close_mosaic=2, fliplr=0.5, flipud=0.5, degrees=0.0,
        mosaic=1.0, scale=0.35, translate=0.1, hsv_h=0.02, hsv_s=0.5, hsv_v=0.4, val=True,
        optimizer="AdamW", lr0=0.003, cos_lr=True, warmup_epochs=1.0,
    )
    if cfg.hours > 0:
        args["time"] = cfg.hours
    args.update(cfg.extra.get("detector_args", {}))
    log(f"detector: training {yaml_path.name} for {cfg.epochs} epochs (cap {cfg.hours} h) on {cfg.device}")
    model.train(**args)
    weights = run_dir / "detector" / "weights"
    best = weights / "best.pt" if (weights / "best.pt").is_file() else weights / "last.pt"
    if not best.is_file():
        raise DealerAssistError(f"detector training wrote no checkpoint in {weights}")
    return best


def export_detector(cfg: TrainConfig, checkpoint: Path, out: Path, imgsz: tuple[int, int]) -> Path:
    """Export the checkpoint to ONNX at a fixed input size (height, width) with Ultralytics' exporter. It exports a
    copy of the checkpoint: the exporter writes its graph beside the checkpoint, under the checkpoint's name, which in
    models/ is the shipped graph's."""
    _offline_ultralytics(cfg.runs)
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / checkpoint.name
        shutil.copyfile(checkpoint, copy)
        model = importlib.import_module("ultralytics").YOLO(str(copy), task="detect")
        path = Path(model.export(format="onnx", imgsz=list(imgsz), opset=17, simplify=True, dynamic=False,
                                 device="cpu", verbose=False))
        shutil.copyfile(path, out)
    return out


# --------------------------------------------------------------------------------------------
# Stage 3: the index-corner classifier (torch)

CLASSIFIER_ARCHS: dict[str, tuple[int | None, int, int, int]] = {
    # channels: full-resolution first layer (None: none, the crop is halved at once), then the three stages.
    # v2 keeps one layer at full resolution (glyph strokes are 1 to 2 px in a 32 px crop of a small corner);
    # v3 is v2 wider; v4 is v3 wider again (about 3x its weights, 1.8x its work per crop); v5 is v3 with SPATIAL_HEAD.
    "v1": (None, 32, 64, 128),
    "v2": (24, 32, 64, 128),
    "v3": (32, 48, 96, 192),
    "v4": (48, 64, 128, 256),
    "v5": (32, 48, 96, 192),
}
SPATIAL_HEAD = frozenset({"v5"})
"""Layouts whose head reads the last 4x4 map cell by cell instead of its average: the crop's middle is the corner
to read and its edges often hold a spread neighbour's corner, which an average cannot tell apart."""


def _classifier_module() -> Any:
    import torch
    from torch import nn

    def block(cin: int, cout: int, stride: int = 1) -> nn.Sequential:
        conv = nn.Conv2d(cin, cout, 3, stride=stride, padding=1, bias=False)
        return nn.Sequential(conv, nn.BatchNorm2d(cout), nn.ReLU(inplace=True))

    class IndexNet(nn.Module):
        """Crop (N, 3, S, S) RGB 0..1 -> rank logits (13), suit logits (4), index-corner logit (1)."""

        def __init__(self, arch: str = "v1") -> None:
            super().__init__()
            if arch not in CLASSIFIER_ARCHS:
                raise DealerAssistError(f"unknown classifier arch {arch!r}; accepted: {', '.join(CLASSIFIER_ARCHS)}")
            c0, c1, c2, c3 = CLASSIFIER_ARCHS[arch]
            cells = 4 if arch in SPATIAL_HEAD else 1       # the last map's side the head reads
            stem = [block(3, c1, stride=2)] if c0 is None else [block(3, c0), block(c0, c1, stride=2)]
            self.features = nn.Sequential(
                *stem, block(c1, c1), nn.MaxPool2d(2),
                block(c1, c2), block(c2, c2), nn.MaxPool2d(2),
                block(c2, c3), nn.AdaptiveAvgPool2d(cells), nn.Flatten(),
            )
            self.head = nn.Sequential(nn.Dropout(0.2), nn.Linear(c3 * cells * cells, 13 + 4 + 1))

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            out: torch.Tensor = self.head(self.features(x))
            return out

    class Combined(nn.Module):
        """The exported form: 53 probabilities, the 52 cards in Card.index order then "not a card"."""

        def __init__(self, net: nn.Module) -> None:
            super().__init__()
            self.net = net

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            z = self.net(x)
            rank = torch.softmax(z[:, :13], dim=1)
            suit = torch.softmax(z[:, 13:17], dim=1)
            valid = torch.sigmoid(z[:, 17:18])
            cards = (rank.unsqueeze(2) * suit.unsqueeze(1)).reshape(-1, 52) * valid
            return torch.cat([cards, 1 - valid], dim=1)

    return IndexNet, Combined


def classifier_loss(z: Any, y: Any) -> Any:
    """The classifier's training loss: is-a-corner for every crop, then rank and suit for the corners."""
    import torch.nn.functional as F

    is_card = y < ds.NOT_A_CARD
    loss = F.binary_cross_entropy_with_logits(z[:, 17], is_card.float())
    if bool(is_card.any()):
        yc = y[is_card]
        loss = loss + F.cross_entropy(z[is_card, :13], yc // 4, label_smoothing=0.05)
        loss = loss + F.cross_entropy(z[is_card, 13:17], yc % 4, label_smoothing=0.05)
    return loss


def train_classifier(cfg: TrainConfig, crops_path: Path, out: Path, log: Log) -> tuple[Path, dict[str, float]]:
    """Train the index-corner classifier on the crops and export it to ONNX; returns (path, val figures)."""
    import torch

    torch.manual_seed(cfg.seed)
    torch.set_num_threads(max(1, cfg.threads))
    device = torch.device("cpu" if cfg.device == "cpu" else f"cuda:{cfg.device}" if cfg.device.isdigit()
                          else cfg.device)
    data = np.load(crops_path)

    def tensors(name: str) -> tuple[Any, Any]:
        x = torch.from_numpy(data[f"x_{name}"][..., ::-1].copy()).permute(0, 3, 1, 2).contiguous()
        return x, torch.from_numpy(data[f"y_{name}"])

    x_train, y_train = tensors("train")
    x_val, y_val = tensors("val")
    large = "y_train_large" in data.files and cfg.classifier_large_size > 0
    x_big, y_big = tensors("train_large") if large else (x_train[:0], y_train[:0])
    x_big_val, y_big_val = tensors("val_large") if large else (x_val[:0], y_val[:0])
    index_net, combined = _classifier_module()
    net = index_net(cfg.classifier_arch)
    init = cfg.extra.get("classifier_init")
    if init:  # continue from earlier weights (a state dict saved beside the ONNX file)
        try:
            net.load_state_dict(torch.load(str(init), map_location="cpu"))
        except RuntimeError as exc:  # torch lists every mismatched tensor; one line says what to do
            raise DealerAssistError(f"{init} holds classifier weights of another layout than "
                                    f"{cfg.classifier_arch!r}; continue with the --classifier-arch they were "
                                    "trained with (see that folder's cards.json)") from exc
    net = net.to(device)
    # Batches of one crop size each; the large crops' batches are shuffled in among the others.
    small_steps, big_steps = max(1, len(y_train) // 128), len(y_big) // 128
    steps_per_epoch = small_steps + big_steps
    max_lr = float(cfg.extra.get("classifier_lr", 3e-3))
    opt = torch.optim.AdamW(net.parameters(), lr=max_lr, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=max_lr, total_steps=cfg.classifier_epochs * steps_per_epoch)
    gen = torch.Generator().manual_seed(cfg.seed)
    log(f"classifier: {len(y_train)} train crops, {len(y_val)} val crops"
        + (f", {len(y_big)} + {len(y_big_val)} at {cfg.classifier_large_size} px" if large else "")
        + f", {cfg.classifier_epochs} epochs")

    def augment(xb: torch.Tensor) -> torch.Tensor:
        x = xb.float() / 255.0
        k = int(torch.randint(0, 4, (1,), generator=gen))
        x = torch.rot90(x, k, dims=(2, 3))
        n = x.shape[0]
        gain = 1 + 0.25 * (torch.rand(n, 1, 1, 1, generator=gen) - 0.5) * 2
        bias = 0.08 * (torch.rand(n, 1, 1, 1, generator=gen) - 0.5) * 2
        x = x * gain + bias + 0.02 * torch.randn(x.shape, generator=gen)
        # Some crops get their colour channels swapped or drop their colour, so that suits are read by their
        # shape as well: four-colour decks (green clubs, blue diamonds) are otherwise read by colour alone.
        swap = torch.rand(n, generator=gen) < 0.25
        if bool(swap.any()):
            x[swap] = x[swap][:, torch.randperm(3, generator=gen)]
        grey = torch.rand(n, generator=gen) < 0.1
        if bool(grey.any()):
            x[grey] = x[grey].mean(dim=1, keepdim=True).expand(-1, 3, -1, -1)
        return x.clamp(0, 1)

    t0 = time.time()
    for epoch in range(cfg.classifier_epochs):
        net.train()
        perm = torch.randperm(len(y_train), generator=gen)
        perm_big = torch.randperm(len(y_big), generator=gen)
        order = torch.randperm(steps_per_epoch, generator=gen).tolist()  # >= small_steps: a large batch
        total = 0.0
        for s, b in enumerate(order):
            xs, ys, p, j = (x_train, y_train, perm, b) if b < small_steps else (x_big, y_big, perm_big, b - small_steps)
            idx = p[j * 128 : (j + 1) * 128]
            xb = augment(xs[idx]).to(device)
            yb = ys[idx].to(device)
            loss = classifier_loss(net(xb), yb)
            opt.zero_grad()
            loss.backward()  # type: ignore[no-untyped-call,unused-ignore]
            opt.step()
            sched.step()
            total += float(loss.detach())
            if (s + 1) % 100 == 0:
                log(f"classifier: epoch {epoch + 1} step {s + 1}/{steps_per_epoch} loss {total / (s + 1):.4f} "
                    f"{time.time() - t0:.0f}s")
        acc = _classifier_accuracy(net, combined, x_val, y_val, device)
        big_acc = _classifier_accuracy(net, combined, x_big_val, y_big_val, device) if large else {}
        log(f"classifier: epoch {epoch + 1}/{cfg.classifier_epochs} loss {total / steps_per_epoch:.4f} "
            f"val card acc {acc['card_accuracy']:.4f} not-a-card acc {acc['reject_accuracy']:.4f} "
            + (f"large: {big_acc['card_accuracy']:.4f} {big_acc['reject_accuracy']:.4f} " if large else "")
            + f"{time.time() - t0:.0f}s")
        _export_classifier(net, combined, cfg.classifier_size, out)  # usable after every epoch
        net.to(device)
    net.cpu()
    figures = _classifier_accuracy(net, combined, x_val, y_val, torch.device("cpu"))
    if large:
        figures |= {f"large_{k}": v for k, v in
                    _classifier_accuracy(net, combined, x_big_val, y_big_val, torch.device("cpu")).items()}
    return out, figures


def _export_classifier(net: Any, combined: Any, size: int, out: Path) -> None:
    import torch

    net.eval().cpu()
    model = combined(net).eval()
    dummy = torch.zeros(1, 3, size, size)
    tmp = out.with_suffix(".tmp.onnx")
    # any crop side: the backend reads large corners at `classifier_large_size`
    torch.onnx.export(model, (dummy,), str(tmp), input_names=["crops"], output_names=["probs"],
                      dynamic_axes={"crops": {0: "n", 2: "side", 3: "side"}, "probs": {0: "n"}}, opset_version=17,
                      dynamo=False)
    tmp.replace(out)
    torch.save(net.state_dict(), out.with_suffix(".pt"))


def _classifier_accuracy(net: Any, combined: Any, x: Any, y: Any, device: Any) -> dict[str, float]:
    import torch

    net.eval()
    model = combined(net).eval()
    preds = []
    with torch.no_grad():
        for i in range(0, len(y), 512):
            preds.append(model((x[i : i + 512].float() / 255.0).to(device)).argmax(1).cpu())
    p = torch.cat(preds) if preds else torch.zeros(0, dtype=torch.long)
    cards = y < ds.NOT_A_CARD
    card_acc = float((p[cards] == y[cards]).float().mean()) if bool(cards.any()) else float("nan")
    rej_acc = float((p[~cards] == ds.NOT_A_CARD).float().mean()) if bool((~cards).any()) else float("nan")
    return {"card_accuracy": card_acc, "reject_accuracy": rej_acc}


# --------------------------------------------------------------------------------------------
# Stage 4: held-out evaluation


def evaluate_models(model_dir: Path, n: int, log: Log, threads: int = 2) -> dict[str, float]:
    """Figures of the exported ONNX models on `n` held-out scenes."""
    from dealer_assist.synth.evaluate import Tally
    from dealer_assist.vision.detector import make_detector

    detector = make_detector("onnx", model_dir, threads=threads)
    tally = Tally()
    for i, (image, truth) in enumerate(heldout_scenes(n)):
        tally.add(truth, detector.detect(image))
        if (i + 1) % 50 == 0:
            log(f"evaluate: {i + 1}/{n} held-out scenes")
    figures = tally.figures()
    for miss in tally.misses[:20]:
        log(f"evaluate: {miss}")
    return figures


# --------------------------------------------------------------------------------------------
# The whole recipe


CLASSIFIER_OUTPUT = "52 cards in Card.index order, then not-a-card"
CLASSIFIER_CALIBRATION = (64, 32)
"""Training-design scenes the int8 classifier is calibrated on: table views (crops at the classifier's size),
close views (crops at its large size as well)."""


def quantize_classifier_run(cfg: TrainConfig, cls_onnx: Path, log: Log) -> Path:
    """The int8 copy of the classifier the app runs, calibrated on crops of training-design scenes at every crop
    side it reads (on the 2026-11-27 classifier: 2.5x as fast, held-out figures the same to 0.1%)."""
    from dealer_assist.synth.quantize import classifier_calibration, quantize_classifier

    tables, closes = CLASSIFIER_CALIBRATION
    sizes = [cfg.classifier_size] + ([cfg.classifier_large_size] if cfg.classifier_large_size else [])
    table_views = [render(VAL_SEED0 + i, "train") for i in range(tables)]
    close_views = [render(VAL_SEED0 + i, "train", close_up=True) for i in range(closes)]
    blobs = (classifier_calibration(table_views, [cfg.classifier_size], cfg.crop_scale)
             + classifier_calibration(close_views, sizes, cfg.crop_scale))
    log(f"classifier: int8 copy calibrated on {sum(len(b) for b in blobs)} crops of {tables} + {closes} "
        "training-design scenes")
    out = quantize_classifier(cls_onnx, cfg.out / "cards-classifier-int8.onnx", blobs)
    finalize_onnx(out, {"dealer_assist.output": CLASSIFIER_OUTPUT,
                        "dealer_assist.quantized": "int8 QDQ (reduce_range), from " + cls_onnx.name})
    return out


def run(cfg: TrainConfig, log: Log = print) -> dict[str, Any]:
    """Data, detector, classifier, export, evaluation; writes models/ and returns the figures."""
    t0 = time.time()
    cfg.out.mkdir(parents=True, exist_ok=True)
    ckpt_out = cfg.out / REUSABLE["detector"]
    cls_onnx = cfg.out / REUSABLE["classifier"]
    reuse_det = "detector" in cfg.skip and ckpt_out.is_file()
    reuse_cls = "classifier" in cfg.skip and cls_onnx.is_file()
    if cfg.stop_after not in STOP_AFTER:
        raise DealerAssistError(f"unknown stage to stop after {cfg.stop_after!r}; accepted: {', '.join(STOP_AFTER)}")
    data_yaml, scene_crops = build_data(cfg, log) if not (reuse_det and reuse_cls) else (Path(), Path())
    if cfg.stop_after == "data":
        log(f"data: {data_yaml.parent} (stopping after the data)")
        return {"data": str(data_yaml.parent)}
    crops = build_classifier_data(cfg, scene_crops, log) if not (reuse_cls or cfg.stop_after) else Path()
    t_data = time.time() - t0
    if reuse_det:
        log(f"detector: reusing {ckpt_out}")
        ckpt = ckpt_out
    else:
        ckpt = train_detector(cfg, data_yaml, log)
        shutil.copyfile(ckpt, ckpt_out)
    t_det = time.time() - t0 - t_data
    if cfg.stop_after == "detector":  # export, quantization and evaluation then run elsewhere (`--reuse detector`)
        log(f"detector: {ckpt_out} (stopping after the detector)")
        return {"data": str(data_yaml.parent), "timings_s": {"data": round(t_data), "detector": round(t_det)}}
    imgsz = (-(-cfg.work_long_side * 9 // 16 // 32) * 32, cfg.work_long_side)  # 1280 -> (736, 1280)
    det_onnx = export_detector(cfg, ckpt_out, cfg.out / "cards-detector.onnx", imgsz)
    finalize_onnx(det_onnx, {"dealer_assist.classes": ",".join(ds.DETECTOR_CLASSES)})
    det_run = det_onnx
    if cfg.quantize:
        from dealer_assist.synth.quantize import INT8_WEIGHT_MAX, calibration_frames, quantize_detector

        log(f"detector: int8 copy calibrated on {cfg.calibration_frames} training-design frames")
        det_run = quantize_detector(det_onnx, cfg.out / "cards-detector-int8.onnx",
                                    calibration_frames(cfg.calibration_frames, VAL_SEED0), imgsz)
        finalize_onnx(det_run, {"dealer_assist.classes": ",".join(ds.DETECTOR_CLASSES),
                                "dealer_assist.quantized": "int8 QDQ (reduce_range), from " + det_onnx.name})
    if reuse_cls:
        log(f"classifier: reusing {cls_onnx}")
        cls_fig: dict[str, float] = {}
    else:
        cls_onnx, cls_fig = train_classifier(cfg, crops, cls_onnx, log)
    finalize_onnx(cls_onnx, {"dealer_assist.output": CLASSIFIER_OUTPUT})
    cls_run = cls_onnx
    if cfg.quantize:
        cls_run = quantize_classifier_run(cfg, cls_onnx, log)
    t_cls = time.time() - t0 - t_data - t_det
    manifest: dict[str, Any] = {
        "detector": det_run.name, "detector_float": det_onnx.name,
        "detector_classes": list(ds.DETECTOR_CLASSES), "imgsz": list(imgsz),
        "work_scale": 1.0, "classifier": cls_run.name, "classifier_float": cls_onnx.name,
        "classifier_size": cfg.classifier_size,
        **({"classifier_large_size": cfg.classifier_large_size, "classifier_large_from": ds.LARGE_READ_FROM_PX,
            "classifier_large_threshold": cfg.large_card_threshold} if cfg.classifier_large_size else {}),
        # the detector's index boxes are grown corners: crop around the corner it stands for
        "crop_scale": round(cfg.crop_scale / ds.INDEX_GROW, 6), "index_grow": ds.INDEX_GROW,
        "checkpoint": ckpt_out.name, "card_threshold": cfg.card_threshold,
        **({"int8_weight_max": INT8_WEIGHT_MAX} if cfg.quantize else {}),
        "config": {k: (str(v) if isinstance(v, Path) else v) for k, v in asdict(cfg).items()
                   if k not in ("out", "runs", "data")},
        "trained": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
    }
    write_manifest(cfg.out / "cards.json", manifest)
    log("evaluate: held-out designs")
    figures = evaluate_models(cfg.out, cfg.heldout_images, log, threads=cfg.threads)
    t_eval = time.time() - t0 - t_data - t_det - t_cls
    manifest["heldout"] = {k: (round(v, 5) if v == v else None) for k, v in figures.items()}  # NaN -> null
    manifest["classifier_val"] = {k: round(v, 5) for k, v in cls_fig.items()}
    manifest["timings_s"] = {"data": round(t_data), "detector": round(t_det), "classifier": round(t_cls),
                             "evaluate": round(t_eval), "total": round(time.time() - t0)}
    write_manifest(cfg.out / "cards.json", manifest)
    return manifest
