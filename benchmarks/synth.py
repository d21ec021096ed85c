"""Simulated-table speed: scenes per size and hand-video frames, as `name: value` lines.

CPU time of this process with OpenCV on one thread (on a shared machine wall time mostly measures
the neighbours); medians after a warm-up that loads the card art and the table layers.

    .venv/bin/python benchmarks/synth.py [--scenes 40] [--split train]
"""

from __future__ import annotations

import argparse
import statistics
import time

import cv2

from dealer_assist.synth.hand_video import SimulatedTable
from dealer_assist.synth.scene import SceneOptions, render_scene


def _cpu_ms(fn: object, runs: list[int]) -> tuple[float, float]:
    times = []
    for r in runs:
        t = time.process_time()
        fn(r)  # type: ignore[operator]
        times.append((time.process_time() - t) * 1000)
    times.sort()
    return statistics.median(times), times[int(0.9 * (len(times) - 1))]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--scenes", type=int, default=40)
    ap.add_argument("--split", default="train")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    for s in range(150):  # warm-up: card art, table layers, shrunk artwork
        render_scene(s, args.split, SceneOptions(size=(320, 180)))
    for w, h in ((1280, 720), (1920, 1080)):
        opts = SceneOptions(size=(w, h))
        for s in range(20):
            render_scene(500 + s, args.split, opts)
        med, p90 = _cpu_ms(lambda s, o=opts: render_scene(s, args.split, o), list(range(1000, 1000 + args.scenes)))
        print(f"scene_{h}p_cpu_ms_median: {med:.1f}")
        print(f"scene_{h}p_cpu_ms_p90: {p90:.1f}")
    table = SimulatedTable("badugi-limit", 3, size=(1280, 720), players=6)
    frames = list(range(0, table.frame_count, max(1, table.frame_count // 60)))
    med, _ = _cpu_ms(table.render_frame, frames)
    print(f"hand_video_720p_frame_cpu_ms_median: {med:.1f}")
    print(f"hand_video_frames: {table.frame_count}")


if __name__ == "__main__":
    main()
