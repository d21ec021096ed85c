"""`dealer-assist train`: render data from training designs, train, export ONNX to models/, evaluate held out."""

from __future__ import annotations

import json
import math
import time
from pathlib import Path
from typing import Any

import click

from dealer_assist.cli.sources import FiniteRange, thread_count
from dealer_assist.errors import DealerAssistError
from dealer_assist.synth.train import CLASSIFIER_ARCHS, MAX_HAND_VIDEOS, REUSABLE, TrainConfig

_D = TrainConfig()  # the recipe's defaults live in one place


def continue_settings(folder: Path) -> dict[str, Any]:
    """TrainConfig.extra for going on from the weights in `folder`; a one-line error when it has none."""
    det, cls = folder / "cards-detector.pt", folder / "cards-classifier.pt"
    if not det.is_file() and not cls.is_file():
        raise click.BadParameter(f"{folder} holds neither cards-detector.pt nor cards-classifier.pt",
                                 param_hint="--continue-from")
    extra: dict[str, Any] = {}
    if det.is_file():
        extra["detector_init"] = str(det)
        extra["detector_args"] = {"lr0": 0.0015, "warmup_epochs": 0.0}
    if cls.is_file():
        extra["classifier_init"] = str(cls)
        extra["classifier_lr"] = 1.5e-3
    return extra


def layout_shares(text: str) -> tuple[float, float, float]:
    """--face-down-layouts "0.2,0.2,0.6" -> (0.2, 0.2, 0.6); a one-line error unless three shares summing to 1."""
    try:
        shares = tuple(float(part) for part in text.split(","))
    except ValueError:
        shares = ()
    if (len(shares) != 3 or not all(math.isfinite(share) for share in shares) or min(shares) < 0
            or abs(sum(shares) - 1) > 1e-6):
        raise click.BadParameter(f"{text!r} is not three shares summing to 1 (pile, fan, dealt row), "
                                 "such as 0.4,0.3,0.3", param_hint="--face-down-layouts")
    return shares[0], shares[1], shares[2]


@click.command()
@click.option("--out", type=click.Path(path_type=Path), default=None,
              help="Where the models and cards.json go (default: the repository's models/).")
@click.option("--images", type=click.IntRange(min=1), default=_D.images, show_default=True,
              help="Training scenes to render.")
@click.option("--close-ups", "close_ups", type=click.IntRange(min=0), default=_D.close_ups, show_default=True,
              help="More training scenes, each a close view of one spot (as a phone photo).")
@click.option("--val-images", type=click.IntRange(min=1), default=_D.val_images, show_default=True,
              help="Validation scenes (training designs).")
@click.option("--heldout-images", type=click.IntRange(min=0), default=_D.heldout_images, show_default=True,
              help="Evaluation scenes (held-out designs only).")
@click.option("--epochs", type=click.IntRange(min=1), default=_D.epochs, show_default=True, help="Detector epochs.")
@click.option("--hours", type=FiniteRange(min=0.0), default=_D.hours, show_default=True,
              help="Cap on detector training time in hours (0: none); epochs shrink to fit.")
@click.option("--classifier-epochs", type=click.IntRange(min=1), default=_D.classifier_epochs, show_default=True)
@click.option("--classifier-arch", type=click.Choice(sorted(CLASSIFIER_ARCHS)), default=_D.classifier_arch,
              show_default=True, help="The index classifier's layout (channels per stage; see CLASSIFIER_ARCHS).")
@click.option("--art-crops", type=click.IntRange(min=0), default=_D.art_crops, show_default=True,
              help="Classifier crops drawn straight from card art (besides the training scenes' corners).")
@click.option("--classifier-large-size", "classifier_large_size", type=click.IntRange(0, 128),
              default=_D.classifier_large_size, show_default=True,
              help="A second classifier input side (px) for large index corners, such as 48 (0: none).")
@click.option("--large-art-crops", "large_art_crops", type=click.IntRange(min=0),
              default=_D.large_art_crops, show_default=True,
              help="Art crops drawn at --classifier-large-size.")
@click.option("--large-scenes", "large_scenes", type=click.IntRange(min=0), default=_D.large_scenes,
              show_default=True, help="Close views of a showdown whose large corners the classifier also trains on, "
              "at both sizes (with --classifier-large-size).")
@click.option("--batch", type=click.IntRange(min=1), default=_D.batch, show_default=True)
@click.option("--device", default="cpu", show_default=True, help="cpu, or a CUDA device index such as 0.")
@click.option("--threads", type=click.IntRange(min=0), default=_D.threads, show_default=True, callback=thread_count,
              help="CPU threads for training (at most 256).")
@click.option("--workers", type=click.IntRange(min=0), default=_D.workers, show_default=True,
              help="Processes rendering scenes (and, on a GPU, loading tiles).")
@click.option("--seed", type=click.IntRange(min=0), default=_D.seed, show_default=True)
@click.option("--reuse", default="", help="Comma list of stages to take from --out instead of training: "
              "detector (cards-detector.pt), classifier (cards-classifier.onnx); export and evaluation still run.")
@click.option("--continue-from", "continue_from", type=click.Path(path_type=Path, file_okay=False), default=None,
              help="Start from the weights in this folder (cards-detector.pt, cards-classifier.pt) instead of "
              "from scratch, at a lower learning rate and without warm-up: more training time for a shipped model.")
@click.option("--runs", type=click.Path(path_type=Path), default=None,
              help="Training runs folder (default runs/train).")
@click.option("--data", type=click.Path(path_type=Path), default=None,
              help="Rendered data folder (default datasets/cards); reused when the data settings match. "
              "A folder holding data.yaml is one rendered set, used as it is (as copied to a GPU machine).")
@click.option("--face-down-layouts", "face_down_layouts", default=",".join(map(str, _D.face_down_layouts)),
              show_default=True, help="Shares of a seat's face-down cards drawn as a squared pile, a loose fan and "
              "a dealt row (three numbers summing to 1).")
@click.option("--random-backs", "random_backs", type=click.IntRange(0, 16), default=_D.random_backs, show_default=True,
              help="How many of 16 seeded random back designs (plain fields, frames, logos; never held out) the "
              "training scenes also draw backs from. 0 for the shipped models; see models/README.md.")
@click.option("--felt-print", "felt_print", type=click.IntRange(0, 60), default=_D.felt_print, show_default=True,
              help="Pieces of print (the felt's lettering, lone printed chips; never a card) on each training "
              "scene's felt, as negatives. 0 until the detector of 2026-11-27; see models/README.md.")
@click.option("--hand-videos", "hand_videos", type=click.IntRange(0, MAX_HAND_VIDEOS), default=_D.hand_videos,
              show_default=True, help="Simulated hand videos (training designs) whose frames join the detector's "
              "tiles, 4 frames each: the table camera's own view. See models/README.md.")
@click.option("--detector-lr", "detector_lr", type=FiniteRange(min=0.0, min_open=True), default=None,
              help="The detector's starting learning rate (AdamW lr0; default 0.003 from the yaml, 0.0015 with "
              "--continue-from). A lower one keeps a fine-tune nearer the weights it starts from.")
@click.option("--stop-after", "stop_after", type=click.Choice(["data", "detector"]), default=None,
              help="Stop after rendering the data, or after training the detector checkpoint (copied to --out; "
              "then `--reuse detector` exports, quantizes and evaluates it): for training on a GPU machine.")
def train(out: Path | None, images: int, close_ups: int, val_images: int, heldout_images: int, epochs: int,
          hours: float, classifier_epochs: int, classifier_arch: str, art_crops: int, classifier_large_size: int,
          large_art_crops: int, large_scenes: int, batch: int, device: str,
          threads: int, workers: int, seed: int, reuse: str, continue_from: Path | None, runs: Path | None,
          data: Path | None, face_down_layouts: str, random_backs: int, felt_print: int, hand_videos: int,
          detector_lr: float | None, stop_after: str | None) -> None:
    """Train the card detector and index classifier; write ONNX models and cards.json; print held-out figures.

    Needs the train extra (bash installer/install.sh --train). Runs offline; deterministic for a seed.
    """
    from dealer_assist.synth.train import run

    cfg = TrainConfig(images=images, close_ups=close_ups, val_images=val_images, heldout_images=heldout_images,
                      epochs=epochs, hours=hours, classifier_epochs=classifier_epochs,
                      classifier_arch=classifier_arch, art_crops=art_crops,
                      classifier_large_size=classifier_large_size, large_art_crops=large_art_crops,
                      large_scenes=large_scenes,
                      batch=batch, device=device, threads=threads, workers=workers, seed=seed,
                      skip=tuple(s.strip() for s in reuse.split(",") if s.strip()),
                      face_down_layouts=layout_shares(face_down_layouts), random_backs=random_backs,
                      felt_print=felt_print, hand_videos=hand_videos, stop_after=stop_after or "")
    if continue_from is not None:
        cfg.extra.update(continue_settings(continue_from))
    if detector_lr is not None:
        cfg.extra.setdefault("detector_args", {})["lr0"] = detector_lr
    if out is not None:
        cfg.out = out
    if runs is not None:
        cfg.runs = runs
    if data is not None:
        cfg.data = data
    for stage in cfg.skip:
        if stage not in REUSABLE:
            raise DealerAssistError(f"unknown stage {stage!r} in --reuse; accepted: {', '.join(REUSABLE)}")
        if not (cfg.out / REUSABLE[stage]).is_file():   # training it anyway would take an hour nobody asked for
            raise DealerAssistError(f"--reuse {stage}: no {REUSABLE[stage]} in {cfg.out}; copy it there first, or "
                                    f"leave {stage} out of --reuse to train it")
    t0 = time.time()

    def log(msg: str) -> None:
        click.echo(f"[{time.time() - t0:6.0f}s] {msg}", err=True)

    manifest = run(cfg, log)
    click.echo(json.dumps({"out": str(cfg.out), "heldout": manifest.get("heldout", {}),
                           "timings_s": manifest.get("timings_s", {})}, indent=2))
