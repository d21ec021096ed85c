"""`benchmarks/vision_lighting.py`'s camera looks: each a frame of the same size and type, each a change."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

from vision_lighting import LOOKS


def test_each_look_changes_the_frame_and_keeps_its_shape() -> None:
    rng = np.random.default_rng(3)
    frame = rng.integers(0, 256, (360, 640, 3), dtype=np.uint8)   # blur's sigma is 1.2 px per 1000 px
    assert LOOKS["none"](frame) is frame
    for name, look in LOOKS.items():
        out = look(frame)
        assert out.shape == frame.shape and out.dtype == np.uint8, name
        assert name == "none" or not np.array_equal(out, frame), name
    dim, bright = LOOKS["dim"](frame), LOOKS["bright"](frame)
    assert dim.mean() < frame.mean() < bright.mean()
    shadow = LOOKS["shadow"](frame).astype(float)
    left, right = slice(0, 200), slice(520, 640)
    assert shadow[:, left].mean() < 0.6 * frame[:, left].mean()
    assert abs(shadow[:, right].mean() - frame[:, right].mean()) < 2
