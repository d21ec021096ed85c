"""The detector under coloured light, with and without the white reference that calibration measures on the markers.

A camera whose white balance is fixed sees a table under tungsten lamps cream and under cold light blue, past the
tints of the training scenes. `calibrate --aruco` measures that cast on the rail markers' white and the pipeline
corrects each frame (`vision.white_balance`). On the held-out table scenes whose markers are found, each light of
`synth.lighting` is measured as the camera sees it ("raw") and corrected from the markers ("markers"):

    .venv/bin/python benchmarks/vision_lighting.py [--scenes 300] [--lights neutral,warm,cool]

Prints `lighting_<light>_<raw|markers>_<figure>: value` lines (face-up precision and recall, backs recall and
precision, button found) and the gains measured. `--looks dim,bright,blur,jpeg,shadow` also measures the first
`--scenes` held-out scenes (markers or not) under other looks of a real camera, which nothing corrects:
`look_<name>_<figure>` lines, `look_none_*` being the scenes as rendered.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "benchmarks"))

from vision import heldout  # noqa: E402

from dealer_assist.synth.evaluate import Tally  # noqa: E402
from dealer_assist.synth.lighting import LIGHT_CASTS, cast_light  # noqa: E402
from dealer_assist.vision.calibration import detect_aruco  # noqa: E402
from dealer_assist.vision.detector import make_detector  # noqa: E402
from dealer_assist.vision.white_balance import measure_white  # noqa: E402

Image = npt.NDArray[np.uint8]

def _gamma(image: Image, power: float, gain: float) -> Image:
    return np.asarray(np.clip(255 * gain * (image / 255.0) ** power, 0, 255), dtype=np.uint8)


def _shadow(image: Image, depth: float) -> Image:
    """The left half of the frame in a soft shadow (a lamp to one side)."""
    h, w = image.shape[:2]
    light = np.ones((h, w), np.float32)
    light[:, : w // 2] = 1 - depth
    light = np.asarray(cv2.GaussianBlur(light, (0, 0), w / 30), dtype=np.float32)
    return np.asarray(np.clip(image * light[..., None], 0, 255), dtype=np.uint8)


LOOKS: dict[str, Callable[[Image], Image]] = {
    "none": lambda im: im,
    "dim": lambda im: _gamma(im, 1.4, 0.55),                      # under-exposed
    "bright": lambda im: _gamma(im, 0.7, 1.25),                   # over-exposed, highlights clipped
    "blur": lambda im: np.asarray(cv2.GaussianBlur(im, (0, 0), 1.2 * max(im.shape[:2]) / 1000), dtype=np.uint8),
    "jpeg": lambda im: np.asarray(cv2.imdecode(cv2.imencode(".jpg", im, [cv2.IMWRITE_JPEG_QUALITY, 30])[1],
                                               cv2.IMREAD_COLOR), dtype=np.uint8),      # a stream's heavy JPEG
    "shadow": lambda im: _shadow(im, 0.6),
}

FIGURES = ("face_up_precision", "face_up_recall", "backs_recall", "backs_precision", "button_found")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--scenes", type=int, default=300, help="held-out table scenes (those with markers found count)")
    ap.add_argument("--lights", default="neutral,warm,cool", help=f"comma list of {', '.join(LIGHT_CASTS)}")
    ap.add_argument("--looks", default="", help=f"comma list of {', '.join(LOOKS)} (nothing corrects them)")
    ap.add_argument("--model", default=None, help="models/ folder or cards.json (default: the shipped one)")
    args = ap.parse_args()
    lights = [v for v in args.lights.split(",") if v]
    det = make_detector("onnx", args.model)
    scenes = heldout(args.scenes)
    marked = []
    for image, truth in scenes:
        quads = list(detect_aruco(image, "DICT_4X4_50").values())
        if quads:
            marked.append((image, truth, quads))
    print(f"lighting_scenes: {len(marked)} of {len(scenes)} held-out scenes with rail markers found")
    for light in lights:
        raw, fixed = Tally(), Tally()
        balances = []
        for image, truth, quads in marked:
            lit = cast_light(image, light)
            wb = measure_white(lit, quads)
            balances.append(wb)
            raw.add(truth, det.detect(lit))
            fixed.add(truth, det.detect(wb.apply(lit)))
        g = np.asarray([wb.gains for wb in balances])
        corrected = sum(not wb.neutral for wb in balances)
        print(f"lighting_{light}_gains_median: blue {np.median(g[:, 0]):.2f} green {np.median(g[:, 1]):.2f} "
              f"red {np.median(g[:, 2]):.2f} ({corrected} of {len(balances)} scenes corrected)")
        for name, tally in (("raw", raw), ("markers", fixed)):
            f = tally.figures()
            for key in FIGURES:
                print(f"lighting_{light}_{name}_{key}: {f[key]:.4f}")
    looks = [v for v in args.looks.split(",") if v]
    if looks:
        print(f"look_scenes: {len(scenes)}")
    for look in ["none", *looks] if looks else []:
        tally = Tally()
        for image, truth in scenes:
            tally.add(truth, det.detect(LOOKS[look](image)))
        f = tally.figures()
        for key in FIGURES:
            print(f"look_{look}_{key}: {f[key]:.4f}")


if __name__ == "__main__":
    main()
