"""One stage against two: a YOLO with a class per card on the index corners (plus back and button), trained the
recipe's way on the recipe's scenes, read on the same held-out scenes as `benchmarks/vision.py` reads the shipped
two-stage models (a three-class detector and a classifier on each index crop).

The issue offers both approaches and asks to choose by the held-out figures; this measures the one not shipped.

    .venv/bin/python benchmarks/one_stage.py data  [--images 1200]      # render the scenes, 54-class tiles
    .venv/bin/python benchmarks/one_stage.py train [--hours 1.1]        # Ultralytics, from the model yaml
    .venv/bin/python benchmarks/one_stage.py eval  [--scenes 100]       # held-out face-up, backs, button

Same scenes (training seeds and designs), same tiles (320 px at a 1280 px long side, index boxes grown 1.6x),
same network layout and training settings as `dealer-assist train`'s detector stage; only the classes differ:
52 cards, then back, then button (`vision.detections.CLASS_NAMES`). Prints `name: value` lines.
"""

from __future__ import annotations

import argparse
import importlib
import json
import multiprocessing
import os
import shutil
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import cv2
import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "benchmarks"))

from dealer_assist.synth import dataset as ds  # noqa: E402
from dealer_assist.synth.evaluate import Tally  # noqa: E402
from dealer_assist.synth.train import MODEL_YAML, TRAIN_SEED0, VAL_SEED0, TrainConfig, _offline_ultralytics, render  # noqa: E402
from dealer_assist.vision.backends.common import _one_deck as _backend_one_deck  # noqa: E402
from dealer_assist.vision.detections import BACK_ID, BUTTON_ID, CLASS_NAMES, Detections  # noqa: E402

ROOT = REPO / "datasets" / "one-stage"
RUNS = REPO / "runs" / "one-stage"
SHIPPED = TrainConfig()
CARD_BARS = (0.1, 0.25, 0.4, 0.55, 0.7)
"""Confidence bars at which the one-stage model's face-up reads are scored (its score is its only confidence)."""


def one_stage_class(box: ds.LabelBox) -> int:
    """A label's class in the one-stage model: the card's own class for an index corner, else back or button."""
    return box.card if box.cls == 0 else (BACK_ID if box.cls == 1 else BUTTON_ID)


def _scene_tiles(job: tuple[int, str, int]) -> tuple[int, list[tuple[bytes, str]]]:
    """Render one training scene (the recipe's options) and cut its labelled tiles, as the recipe keeps them."""
    seed, split, base_seed = job
    cv2.setNumThreads(1)
    rng = np.random.default_rng([base_seed, seed])
    image, truth = render(seed, split, False, SHIPPED.face_down_layouts, 0, 0)
    out = []
    for tile_img, lines in ds.yolo_tiles(image, truth, SHIPPED.imgsz, SHIPPED.work_long_side, classes=one_stage_class):
        if not lines and rng.random() > SHIPPED.empty_tile_keep:
            continue
        _, buf = cv2.imencode(".jpg", tile_img, [cv2.IMWRITE_JPEG_QUALITY, 92])
        out.append((buf.tobytes(), "".join(line + "\n" for line in lines)))
    return seed, out


def build(images: int, val_images: int, workers: int) -> Path:
    """Write ROOT/images|labels/train|val and ROOT/data.yaml (54 classes)."""
    shutil.rmtree(ROOT, ignore_errors=True)
    t0 = time.time()
    spawn = multiprocessing.get_context("spawn")   # as the recipe: a fork copies OpenCV's pool without its threads
    with ProcessPoolExecutor(max_workers=workers, mp_context=spawn) as pool:
        for split, n, seed0 in (("train", images, TRAIN_SEED0), ("val", val_images, VAL_SEED0)):
            img_dir, lbl_dir = ROOT / "images" / split, ROOT / "labels" / split
            img_dir.mkdir(parents=True)
            lbl_dir.mkdir(parents=True)
            tiles = 0
            jobs = [(seed0 + i, "train", SHIPPED.seed) for i in range(n)]
            for seed, out in pool.map(_scene_tiles, jobs, chunksize=4):
                for k, (jpg, text) in enumerate(out):
                    (img_dir / f"s{seed:07d}_{k:02d}.jpg").write_bytes(jpg)
                    (lbl_dir / f"s{seed:07d}_{k:02d}.txt").write_text(text)
                tiles += len(out)
            print(f"data_{split}_scenes: {n}")
            print(f"data_{split}_tiles: {tiles}")
    names = "\n".join(f"  {i}: {name}" for i, name in enumerate(CLASS_NAMES))
    yaml = ROOT / "data.yaml"
    yaml.write_text(f"path: {ROOT.resolve()}\ntrain: images/train\nval: images/val\nnames:\n{names}\n")
    print(f"data_seconds: {time.time() - t0:.0f}")
    return yaml


def train(hours: float, threads: int) -> Path:
    """The recipe's detector training (`synth.train.train_detector`'s settings) with 54 classes."""
    import torch

    RUNS.mkdir(parents=True, exist_ok=True)
    _offline_ultralytics(RUNS)
    torch.set_num_threads(threads)
    yaml_path = RUNS / "cards-one-stage.yaml"
    yaml_path.write_text(MODEL_YAML.replace("nc: 3", f"nc: {len(CLASS_NAMES)}"))
    model = importlib.import_module("ultralytics").YOLO(str(yaml_path), task="detect")
    t0 = time.time()
    model.train(data=str(ROOT / "data.yaml"), epochs=100, time=hours, imgsz=SHIPPED.imgsz, batch=SHIPPED.batch,
                device="cpu", workers=1, seed=SHIPPED.seed, deterministic=True, amp=False, plots=False,
                project=str(RUNS), name="detector", exist_ok=True, verbose=False, pretrained=False, cache="ram",
                patience=0, close_mosaic=2, fliplr=0.5, flipud=0.5, degrees=0.0, mosaic=1.0, scale=0.35,
                translate=0.1, hsv_h=0.02, hsv_s=0.5, hsv_v=0.4, val=True, optimizer="AdamW", lr0=0.003,
                cos_lr=True, warmup_epochs=1.0)
    weights = RUNS / "detector" / "weights"
    best = weights / "best.pt" if (weights / "best.pt").is_file() else weights / "last.pt"
    print(f"train_seconds: {time.time() - t0:.0f}")
    print(f"checkpoint: {best}")
    return best


def _one_deck(dets: Detections) -> Detections:
    """One deck and one button per table, the two-stage backend's rule (`vision.backends.common._one_deck`): of the
    reads naming one card only the most confident stands."""
    keep = _backend_one_deck(dets.class_id, dets.confidence)
    return Detections.from_boxes(dets.xyxy[keep], dets.confidence[keep], dets.class_id[keep])


def evaluate(checkpoint: Path, scenes: int) -> None:
    """Held-out face-up precision and recall at each bar in CARD_BARS; backs and button at the shipped 0.25."""
    from vision import heldout  # the held-out scenes benchmarks/vision.py reads (cached)

    _offline_ultralytics(RUNS)
    model = importlib.import_module("ultralytics").YOLO(str(checkpoint), task="detect")
    tallies = {bar: Tally() for bar in CARD_BARS}
    by_size: dict[float, Tally] = tallies
    t0 = time.time()
    for image, truth in heldout(scenes):
        scale = SHIPPED.work_long_side / max(image.shape[:2])
        small = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA) if scale < 1 else image
        result = model.predict(small, imgsz=SHIPPED.work_long_side, conf=min(CARD_BARS), iou=0.7, max_det=600,
                               device="cpu", verbose=False)[0]
        boxes = result.boxes
        xyxy = boxes.xyxy.numpy() / min(scale, 1.0)
        conf = boxes.conf.numpy()
        cls = boxes.cls.numpy().astype(np.int64)
        for bar, tally in tallies.items():
            keep = np.where(cls < BACK_ID, conf >= bar, conf >= 0.25)
            tally.add(truth, _one_deck(Detections.from_boxes(xyxy[keep], conf[keep], cls[keep])))
    print(f"heldout_scenes: {scenes}")
    print(f"eval_seconds: {time.time() - t0:.0f}")
    for bar, tally in by_size.items():
        fig = tally.figures()
        sizes = " ".join(f"{k} {r:.3f} ({n})" for k, (r, n) in tally.recall_by_size().items())
        print(f"one_stage_face_up@{bar}: precision {fig['face_up_precision']:.4f} recall {fig['face_up_recall']:.4f} "
              f"({int(fig['face_up_cards'])} cards; recall by corner height: {sizes})")
    fig = tallies[0.25].figures()
    print(f"one_stage_backs_recall: {fig['backs_recall']:.4f}")
    print(f"one_stage_backs_precision: {fig['backs_precision']:.4f}")
    print(f"one_stage_button_found: {fig['button_found']:.4f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("stage", choices=("data", "train", "eval"))
    ap.add_argument("--images", type=int, default=SHIPPED.images)
    ap.add_argument("--val-images", type=int, default=SHIPPED.val_images)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--hours", type=float, default=1.1)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--scenes", type=int, default=100)
    ap.add_argument("--checkpoint", type=Path, default=RUNS / "detector" / "weights" / "best.pt")
    args = ap.parse_args()
    os.environ.setdefault("YOLO_OFFLINE", "1")
    if args.stage == "data":
        build(args.images, args.val_images, args.workers)
    elif args.stage == "train":
        train(args.hours, args.threads)
    else:
        evaluate(args.checkpoint, args.scenes)
    print(json.dumps({"stage": args.stage}))


if __name__ == "__main__":
    main()
