"""The Ultralytics backend on the device it picks (a GPU when torch sees one) against the same machine's CPU.

    .venv/bin/python benchmarks/vision_device.py [--frames DIR] [--stills 12] [--rounds 3]

Whole stills, as `dealer-assist detect` reads them (no camera calibration: each is read at full scale and shrunk;
the classifier runs on the CPU through ONNX Runtime on both). Frames come from DIR (any images) or are rendered from
held-out table scenes (1280x720 only). Prints `name: value` lines: frames/s medians over --rounds passes for the
whole read (`*_detect_fps`) and the detector stage alone (`*_detector_fps`), their ratio, and how many stills read
the same labels on both devices. On a machine with no GPU both runs are on the CPU.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from dealer_assist.vision.detector import Detector, Image, make_detector, read_image  # noqa: E402


def _stills(frames: Path | None, count: int) -> list[Image]:
    if frames is not None:
        return [read_image(p) for p in sorted(frames.iterdir()) if p.is_file()][:count]
    from dealer_assist.synth.scene import render_scene  # the renderer: only where no frames are given

    out: list[Image] = []
    seed = 3_000_000
    while len(out) < count:
        image = render_scene(seed, "held_out").image
        seed += 1
        if image.shape[1] == 1280:
            out.append(image)
    return out


def _rates(det: Detector, stills: list[Image], rounds: int) -> tuple[float, float]:
    """Median frames/s of the whole read and of the detector stage (det.raw)."""
    whole, stage = [], []
    for _ in range(rounds):
        t = time.perf_counter()
        for image in stills:
            det.detect(image)
        whole.append(len(stills) / (time.perf_counter() - t))
        t = time.perf_counter()
        for image in stills:
            det.raw(image)  # type: ignore[attr-defined]
        stage.append(len(stills) / (time.perf_counter() - t))
    return statistics.median(whole), statistics.median(stage)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--frames", type=Path, default=None, help="a folder of images instead of rendered scenes")
    ap.add_argument("--stills", type=int, default=12)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--model", default=None)
    args = ap.parse_args()
    stills = _stills(args.frames, args.stills)
    reads: dict[str, list[list[str]]] = {}
    rates: dict[str, tuple[float, float]] = {}
    for name, device in (("picked", None), ("cpu", "cpu")):
        det = make_detector("ultralytics", args.model, device=device)
        reads[name] = [sorted(det.detect(image).labels) for image in stills]  # also the warm-up
        rates[name] = _rates(det, stills, args.rounds)
        if name == "picked":
            print(f"picked_device: {getattr(det, 'device', '?')}")
    print(f"stills: {len(stills)}")
    for name in rates:
        print(f"{name}_detect_fps: {rates[name][0]:.1f}")
        print(f"{name}_detector_fps: {rates[name][1]:.1f}")
    print(f"picked_vs_cpu_detect_ratio: {rates['picked'][0] / rates['cpu'][0]:.2f}")
    print(f"same_reads: {sum(a == b for a, b in zip(reads['picked'], reads['cpu'], strict=True))} of {len(stills)}")


if __name__ == "__main__":
    main()
