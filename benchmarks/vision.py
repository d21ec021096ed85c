"""Card detector figures: accuracy on held-out designs, and 1280x720 frames/s against Ultralytics' predictor.

    .venv/bin/python benchmarks/vision.py [--scenes 100] [--model models/] [--speed-frames 20] [--rounds 5]

Held-out scenes (face and back designs never used in training) are rendered from fixed seeds and
cached as PNG + truth JSON under datasets/heldout/<renderer hash>-<designs hash>/ (git-ignored), so a second run
only detects.
Prints `name: value` lines; speeds are medians over repeated passes over the same frames, and the
Ultralytics comparison runs in the same process on the same checkpoint and frames.
`print_*`: frames of felt and chips carrying print and no card (`synth.dataset.print_scene`, set in DejaVu,
which no training data's print uses): every card named there is a false read.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from dealer_assist.synth.dataset import print_scene  # noqa: E402
from dealer_assist.synth.evaluate import Tally  # noqa: E402
from dealer_assist.synth.scene import SceneOptions, designs_key, render_scene, renderer_key  # noqa: E402
from dealer_assist.synth.train import HELDOUT_SEED0, render  # noqa: E402
from dealer_assist.synth.truth import SceneTruth  # noqa: E402
from dealer_assist.vision.backends.common import Thresholds  # noqa: E402
from dealer_assist.vision.detector import load_manifest, make_detector  # noqa: E402
from dealer_assist.vision.pipeline import measure_landing_latency  # noqa: E402

CACHE = REPO / "datasets" / "heldout" / f"{renderer_key()}-{designs_key('held_out')}"
"""Scenes by renderer version and by the held-out designs installed (without the art packages: procedural only)."""
TARGETS = {"face_up_precision": 0.995, "face_up_recall": 0.995, "backs_recall": 0.99, "button_found": 0.99}


CLOSE_SEED0 = HELDOUT_SEED0 + 100_000
PRINT_SEED = HELDOUT_SEED0 + 200_000
PRINT_ITEMS = 30
PRINT_FONTS = tuple(f"/usr/share/fonts/truetype/dejavu/DejaVu{f}-Bold.ttf"
                    for f in ("Sans", "Serif", "SansMono", "SansCondensed", "SerifCondensed"))
"""The print checks' typefaces: DejaVu (fonts-dejavu-core, always installed), never used for training print."""
CLOSE_UP = SceneOptions(size=(1920, 1080), full_table=False, phase="showdown", view_half_cm=(9.0, 22.0))
"""Close-up views, as a phone photo of a player's spot: index corners 40 to 110 px at 1920 px."""


def heldout(n: int, seed0: int = HELDOUT_SEED0,
            options: SceneOptions | None = None) -> list[tuple[np.ndarray[Any, Any], SceneTruth]]:
    CACHE.mkdir(parents=True, exist_ok=True)
    out = []
    for i in range(n):
        seed = seed0 + i
        png, js = CACHE / f"{seed}.png", CACHE / f"{seed}.json"
        if png.is_file() and js.is_file():
            image = cv2.imread(str(png), cv2.IMREAD_COLOR)
            truth = SceneTruth.from_dict(json.loads(js.read_text()))
        else:
            if options is None:
                image, truth = render(seed, "held_out")
            else:
                scene = render_scene(seed, "held_out", options)
                image, truth = scene.image, scene.truth
            cv2.imwrite(str(png), image)
            js.write_text(json.dumps(truth.to_dict()))
        out.append((image, truth))
    return out


def timed(fn: Any, frames: list[np.ndarray[Any, Any]], rounds: int) -> float:
    """Median seconds per frame over `rounds` passes (after one warm-up pass)."""
    for f in frames[:2]:
        fn(f)
    per_round = []
    for _ in range(rounds):
        t0 = time.perf_counter()
        for f in frames:
            fn(f)
        per_round.append((time.perf_counter() - t0) / len(frames))
    return statistics.median(per_round)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scenes", type=int, default=100)
    ap.add_argument("--model", default=None, help="models/ folder or cards.json (default: the shipped one)")
    ap.add_argument("--speed-frames", type=int, default=20, help="1280x720 frames to time (0: no speed figures)")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--threads", type=int, default=0, help="inference threads (0: runtime default)")
    ap.add_argument("--close-scenes", type=int, default=30, help="close-up held-out views (a phone photo of a spot)")
    ap.add_argument("--print-scenes", type=int, default=20, help="frames of felt and chips with print and no card")
    ap.add_argument("--card-threshold", type=float, default=None,
                    help="classifier probability a face-up read needs (default: the model's cards.json card_threshold)")
    args = ap.parse_args()

    scenes = heldout(args.scenes)
    override = Thresholds(card=args.card_threshold) if args.card_threshold is not None else None
    det = make_detector("onnx", args.model, threads=args.threads or None, thresholds=override)
    print(f"card_threshold: {det.thresholds.card}")  # type: ignore[attr-defined]
    print(f"onnx_graphs: {det.graphs}")  # type: ignore[attr-defined]
    tally = Tally()
    by_view: dict[str, Tally] = {"720p": Tally(), "1080p": Tally()}
    by_design: dict[str, Tally] = {}  # which held-out faces lose reads: what art the training lacks
    for image, truth in scenes:
        dets = det.detect(image)
        tally.add(truth, dets)
        by_view["720p" if truth.height == 720 else "1080p"].add(truth, dets)
        by_design.setdefault(truth.face_design, Tally()).add(truth, dets)
    fig = tally.figures()
    print(f"heldout_scenes: {len(scenes)}")
    print(f"heldout_face_designs: {' '.join(sorted({t.face_design for _, t in scenes}))}")
    print(f"heldout_back_designs: {' '.join(sorted({t.back_design for _, t in scenes}))}")
    for key in ("face_up_precision", "face_up_recall", "backs_recall", "backs_precision", "button_found"):
        target = f" (target >= {TARGETS[key]:.3f})" if key in TARGETS else ""
        print(f"{key}: {fig[key]:.4f}{target}")
    print(f"face_up_cards_counted: {int(fig['face_up_cards'])}")
    print(f"backs_counted: {int(fig['backs'])}")
    for bucket, (recall, n) in tally.recall_by_size().items():
        print(f"face_up_recall_index_{bucket}: {recall:.4f} ({n} cards)")
    for name, t in by_view.items():
        f = t.figures()
        if t.scenes:
            print(f"face_up_precision_{name}: {f['face_up_precision']:.4f}")
            print(f"face_up_recall_{name}: {f['face_up_recall']:.4f}")
    for name, t in sorted(by_design.items()):
        f = t.figures()
        print(f"face_up_design_{name}: precision {f['face_up_precision']:.4f} recall {f['face_up_recall']:.4f} "
              f"({int(f['face_up_cards'])} cards)")

    if args.close_scenes:
        close = heldout(args.close_scenes, CLOSE_SEED0, CLOSE_UP)
        shrinks = det.shrinks  # type: ignore[attr-defined]
        for label, shr in (("", shrinks), ("_one_read", ())):
            det.shrinks = shr  # type: ignore[attr-defined]
            t = Tally()
            for image, truth in close:
                t.add(truth, det.detect(image))
            f = t.figures()
            print(f"close_up{label}_face_up_precision: {f['face_up_precision']:.4f} ({len(close)} scenes, "
                  f"{int(f['face_up_cards'])} cards{', no shrunk read' if label else ''})")
            print(f"close_up{label}_face_up_recall: {f['face_up_recall']:.4f}")
            print(f"close_up{label}_backs_recall: {f['backs_recall']:.4f}")
            print(f"close_up{label}_backs_precision: {f['backs_precision']:.4f}")
        det.shrinks = shrinks  # type: ignore[attr-defined]

    if args.print_scenes:
        rng = np.random.default_rng(PRINT_SEED)
        fonts = [f for f in PRINT_FONTS if Path(f).is_file()]
        found = [det.detect(print_scene(rng, fonts, items=PRINT_ITEMS)) for _ in range(args.print_scenes)]
        n = args.print_scenes
        print(f"print_false_cards_per_frame: {sum(int(d.is_face_up.sum()) for d in found) / n:.2f} ({n} frames of "
              f"felt and chips with {PRINT_ITEMS} pieces of print each, {len(fonts)} DejaVu faces, no card)")
        print(f"print_false_backs_per_frame: {sum(int(d.is_back.sum()) for d in found) / n:.2f}")
        print(f"print_false_buttons_per_frame: {sum(int(d.is_button.sum()) for d in found) / n:.2f}")

    if args.speed_frames <= 0:
        return
    # the first 720p held-out frames, whatever `--scenes` (0: speed only)
    pool = scenes if len(scenes) >= 3 * args.speed_frames else heldout(3 * args.speed_frames)
    frames = [img for img, t in pool if (t.width, t.height) == (1280, 720)][: args.speed_frames]
    if not frames:
        frames = [cv2.resize(img, (1280, 720), interpolation=cv2.INTER_AREA) for img, _ in pool[: args.speed_frames]]
    # A still (`detect`, a photo of unknown scale) also reads the image shrunk; a calibrated table camera, whose
    # cards are within the trained sizes, reads each frame once: that is the live figure.
    still = timed(det.detect, frames, args.rounds)
    det.shrinks = ()  # type: ignore[attr-defined]
    onnx_full = timed(det.detect, frames, args.rounds)
    onnx_raw = timed(det.raw, frames, args.rounds)  # type: ignore[attr-defined]
    print(f"onnx_fps_1280x720: {1 / onnx_full:.1f} (target >= 20; table camera: detector + classifier, "
          f"median of {args.rounds})")
    print(f"onnx_detector_only_fps_1280x720: {1 / onnx_raw:.1f}")
    print(f"onnx_still_fps_1280x720: {1 / still:.1f} (a still of unknown scale: one more, shrunk read)")
    for fps in (15.0, 30.0):
        # the tracker's wait (video time, the worst seat of a scripted landing) plus this CPU's time to read the frame
        wait = measure_landing_latency(fps)
        print(f"landing_latency_ms_{fps:.0f}fps: {1000 * (wait + onnx_full):.0f} (target <= 300; the tracker's "
              f"{1000 * wait:.0f} of video + one frame's detection; on the hand videos: vision_events.py "
              f"landing_latency_*)")
    manifest = load_manifest(args.model)
    float_name = manifest.detector_float
    if float_name and float_name != manifest.detector:
        from dealer_assist.vision.backends.onnx_backend import OnnxDetector

        fdet = OnnxDetector(replace(manifest, detector=float_name), threads=args.threads or None, shrinks=())
        onnx_float = timed(fdet.raw, frames, args.rounds)  # type: ignore[attr-defined]
        print(f"onnx_float_detector_only_fps_1280x720: {1 / onnx_float:.1f} (the float graph the int8 one comes from)")
    try:
        import ultralytics  # noqa: F401
    except ImportError:
        print("ultralytics_speed_ratio: skipped (ultralytics is not installed; bash installer/install.sh --train)")
        return
    ul = make_detector("ultralytics", args.model, threads=args.threads or None, shrinks=())  # one read, as onnx_raw
    ul_raw = timed(ul.raw, frames, args.rounds)  # type: ignore[attr-defined]
    ul_full = timed(ul.detect, frames, args.rounds)
    print(f"ultralytics_predict_fps_1280x720: {1 / ul_raw:.1f} (same checkpoint, imgsz, frames)")
    print(f"ultralytics_pipeline_fps_1280x720: {1 / ul_full:.1f}")
    print(f"speed_ratio_onnx_vs_ultralytics_predict: {ul_raw / onnx_raw:.2f} (target >= 1.5)")
    if float_name and float_name != manifest.detector:
        print(f"speed_ratio_onnx_float_vs_ultralytics_predict: {ul_raw / onnx_float:.2f}")
    print(f"speed_ratio_onnx_vs_ultralytics_pipeline: {ul_full / onnx_full:.2f}")
    if math.isnan(fig["face_up_recall"]):
        print("note: no face-up cards counted; render more scenes")


if __name__ == "__main__":
    main()
