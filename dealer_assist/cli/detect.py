"""`dealer-assist detect`: cards, backs and the dealer button in photos or frames."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from dealer_assist.cli.sources import FiniteRange, output_file, thread_count
from dealer_assist.errors import DealerAssistError
from dealer_assist.vision.detector import (
    BACKENDS,
    DEFAULT_BACKEND,
    MANIFEST_NAME,
    draw_detections,
    make_detector,
    read_image,
    write_image,
)

DRAW_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp")
MANIFEST_KEYS = {"detector": "the detector .onnx file", "detector_classes": "the detector's class names",
                 "imgsz": "the detector's input size"}


def _draw_path(out: Path, image: Path, many: bool) -> Path:
    """--draw OUT.png for one image; for several, OUT-<image stem>.png beside OUT."""
    return out if not many else out.with_name(f"{out.stem}-{image.stem}{out.suffix or '.png'}")


def _check_draw(out: Path, images: tuple[Path, ...]) -> None:
    """--draw checked before the model loads: an image suffix, a file that can be written, none of the images."""
    if out.is_dir():
        raise DealerAssistError(f"--draw {out} is a folder; accepted: an image file name ending "
                                f"{', '.join(DRAW_SUFFIXES)}")
    if out.suffix.lower() not in DRAW_SUFFIXES:
        raise DealerAssistError(f"--draw {out} is not an image file name; accepted suffixes: "
                                f"{', '.join(DRAW_SUFFIXES)}")
    named = {f"the image {path} it reads": path for path in images}
    for path in images:
        output_file(_draw_path(out, path, len(images) > 1), "--draw", named)


def _check_manifest(model: Path | None) -> None:
    """A cards.json lacking a key the loader needs is named in words (the loader says only "'detector'")."""
    path = model / MANIFEST_NAME if model is not None and model.is_dir() else model
    if path is None or path.suffix != ".json" or not path.is_file():
        return
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return                                  # unreadable or not JSON: the loader says so
    missing = [key for key in MANIFEST_KEYS if key not in data] if isinstance(data, dict) else []
    if missing:
        raise DealerAssistError(f"bad model manifest {path}: the key {missing[0]!r} ({MANIFEST_KEYS[missing[0]]}) "
                                f"is missing; a cards.json as `dealer-assist train` writes it has "
                                f"{', '.join(MANIFEST_KEYS)}")


@click.command()
@click.argument("images", nargs=-1, type=click.Path(path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print one JSON line per image: {image, width, height, "
              'objects: [{"card": "Ah"|"back", "confidence", "polygon"} or {"button": true, ...}]}.')
@click.option("--draw", "draw", type=click.Path(path_type=Path), default=None,
              help="Write the image with labelled boxes to this PNG/JPEG (with several images: OUT-<name>.png).")
@click.option("--model", "model", type=click.Path(path_type=Path), default=None,
              help="Model manifest (cards.json), its folder, or a detector .onnx; default: the shipped models/.")
@click.option("--backend", type=click.Choice(BACKENDS[:2]), default=DEFAULT_BACKEND, show_default=True,
              help="onnx (ONNX Runtime, no torch) or ultralytics (needs the train extra).")
@click.option("--min-confidence", type=FiniteRange(0.0, 1.0), default=0.0, show_default=True,
              help="Drop objects below this.")
@click.option("--threads", type=click.IntRange(min=0), default=0, callback=thread_count,
              help="CPU threads for inference (0: the runtime decides; at most 256).")
@click.option("--device", default=None, metavar="DEVICE",
              help="ultralytics backend: cpu, or a CUDA device index such as 0 (default: the first GPU when there "
                   "is one); the onnx backend runs on the CPU.")
def detect(images: tuple[Path, ...], as_json: bool, draw: Path | None, model: Path | None, backend: str,
           min_confidence: float, threads: int, device: str | None) -> None:
    """Find face-up cards (which), face-down cards (backs) and the dealer button in IMAGES.

    Any photo or frame: a 1280x720 camera frame or a 6000x4000 phone photo (large images are also
    read in overlapping tiles so small index corners survive).
    """
    if not images:
        raise DealerAssistError("no images given; pass them like: dealer-assist detect table.jpg --json")
    for path in images:  # fail before loading the model
        if path.is_dir():
            raise DealerAssistError(f"{path} is a folder; accepted: image files (PNG, JPEG, BMP, TIFF, WebP)")
        if not path.is_file():
            raise DealerAssistError(f"no such image: {path}")
    if draw is not None:
        _check_draw(draw, images)
    _check_manifest(model)
    detector = make_detector(backend, model, threads=threads or None, device=device)
    for path in images:
        image = read_image(path)
        dets = detector.detect(image).with_min_confidence(min_confidence)
        if draw is not None:
            drawn = _draw_path(draw, path, len(images) > 1)
            try:
                write_image(drawn, draw_detections(image, dets))
            except OSError as exc:
                raise DealerAssistError(f"cannot write --draw {drawn}: {exc.strerror or exc}") from None
        if as_json:
            record: dict[str, Any] = {"image": str(path), "width": int(image.shape[1]),
                                      "height": int(image.shape[0]), "objects": dets.to_list()}
            click.echo(json.dumps(record))
        else:
            faces = [lbl for lbl, up in zip(dets.labels, dets.is_face_up.tolist(), strict=True) if up]
            backs = int(dets.is_back.sum())
            button = "button found" if bool(dets.is_button.any()) else "no button"
            click.echo(f"{path}: {len(faces)} face up ({' '.join(faces) or '-'}), {backs} backs, {button}")
