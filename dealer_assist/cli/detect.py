"""`dealer-assist detect`: cards, backs and the dealer button in photos or frames."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from dealer_assist.errors import DealerAssistError
from dealer_assist.vision.detector import (
    BACKENDS,
    DEFAULT_BACKEND,
    draw_detections,
    make_detector,
    read_image,
    write_image,
)


def _draw_path(out: Path, image: Path, many: bool) -> Path:
    """--draw OUT.png for one image; for several, OUT-<image stem>.png beside OUT."""
    return out if not many else out.with_name(f"{out.stem}-{image.stem}{out.suffix or '.png'}")


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
@click.option("--min-confidence", type=click.FloatRange(0.0, 1.0), default=0.0, show_default=True,
              help="Drop objects below this.")
@click.option("--threads", type=click.IntRange(min=0), default=0,
              help="CPU threads for inference (0: the runtime decides).")
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
        if not path.is_file():
            raise DealerAssistError(f"no such image: {path}")
    detector = make_detector(backend, model, threads=threads or None, device=device)
    for path in images:
        image = read_image(path)
        dets = detector.detect(image).with_min_confidence(min_confidence)
        if draw is not None:
            write_image(_draw_path(draw, path, len(images) > 1), draw_detections(image, dets))
        if as_json:
            record: dict[str, Any] = {"image": str(path), "width": int(image.shape[1]),
                                      "height": int(image.shape[0]), "objects": dets.to_list()}
            click.echo(json.dumps(record))
        else:
            faces = [lbl for lbl, up in zip(dets.labels, dets.is_face_up.tolist(), strict=True) if up]
            backs = int(dets.is_back.sum())
            button = "button found" if bool(dets.is_button.any()) else "no button"
            click.echo(f"{path}: {len(faces)} face up ({' '.join(faces) or '-'}), {backs} backs, {button}")
