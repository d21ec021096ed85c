"""The detector's per-frame bookkeeping made fast stays exact: `common.nms` (pairwise tests as matrices) keeps the
same boxes in the same order as `greedy_nms` (box by box, as it did before), and `common.to_blob` gives the same
floats as converting the BGR frame's strided view."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import pytest

from dealer_assist.vision.backends import common

FloatArray = npt.NDArray[np.float32]


def greedy_nms(xyxy: FloatArray, scores: FloatArray, classes: npt.NDArray[np.int64], iou: float | FloatArray,
               ios: float | None = None, gap: FloatArray | None = None) -> npt.NDArray[np.int64]:
    """NMS box by box against the boxes kept so far: what `common.nms` did before its pairwise tests became matrices,
    and the reference it must match."""
    iou_of = (np.asarray(iou, dtype=np.float32)[classes] if np.ndim(iou)
              else np.full(len(classes), iou, dtype=np.float32))
    gap_of = (np.asarray(gap, dtype=np.float32)[classes] if gap is not None
              else np.full(len(classes), np.inf, dtype=np.float32))
    order = np.argsort(-scores, kind="stable")
    keep: list[int] = []
    area = np.maximum(0, xyxy[:, 2] - xyxy[:, 0]) * np.maximum(0, xyxy[:, 3] - xyxy[:, 1])
    short = np.minimum(xyxy[:, 2] - xyxy[:, 0], xyxy[:, 3] - xyxy[:, 1])
    centres = (xyxy[:, :2] + xyxy[:, 2:]) / 2
    for i in order:
        if keep:
            k = np.array(keep)
            k = k[classes[k] == classes[i]]
            if len(k):
                ix0 = np.maximum(xyxy[i, 0], xyxy[k, 0])
                iy0 = np.maximum(xyxy[i, 1], xyxy[k, 1])
                ix1 = np.minimum(xyxy[i, 2], xyxy[k, 2])
                iy1 = np.minimum(xyxy[i, 3], xyxy[k, 3])
                inter = np.maximum(0, ix1 - ix0) * np.maximum(0, iy1 - iy0)
                union = area[i] + area[k] - inter
                same = inter / np.maximum(union, 1e-6) > iou_of[i]
                if np.isfinite(gap_of[i]):
                    apart = np.hypot(*(centres[k] - centres[i]).T)
                    same &= apart < gap_of[i] * np.minimum(short[i], short[k])
                if np.any(same):
                    continue
                if ios is not None and np.any(inter / np.maximum(np.minimum(area[i], area[k]), 1e-6) > ios):
                    continue
        keep.append(int(i))
    return np.array(keep, dtype=np.int64)


def _candidates(rng: np.random.Generator, n: int, classes: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Clustered boxes (a detector's candidates crowd round each object), some with tied scores."""
    centres = rng.uniform(0, 600, (max(1, n // 6), 2))
    pick = centres[rng.integers(0, len(centres), n)] + rng.normal(0, 6, (n, 2))
    wh = rng.uniform(5, 60, (n, 2))
    xyxy = np.concatenate([pick - wh / 2, pick + wh / 2], axis=1).astype(np.float32)
    scores = np.round(rng.uniform(0.1, 1.0, n), 2).astype(np.float32)       # rounded: ties happen
    return xyxy, scores, rng.integers(0, classes, n).astype(np.int64)


@pytest.mark.parametrize("seed", range(40))
def test_matrix_nms_keeps_what_greedy_nms_keeps(seed: int) -> None:
    rng = np.random.default_rng(seed)
    xyxy, scores, cls = _candidates(rng, int(rng.integers(0, 400)), 3)
    th = common.Thresholds()
    names = ("index", "back", "button")
    _, iou = th.per_class(names)
    for ios in (None, 0.7):
        for gap in (None, th.centre_gaps(names)):
            want = greedy_nms(xyxy, scores, cls, iou, ios=ios, gap=gap)
            got = common.nms(xyxy, scores, cls, iou, ios=ios, gap=gap)
            assert got.dtype == np.int64 and got.tolist() == want.tolist()
    assert common.nms(xyxy, scores, cls, 0.5).tolist() == greedy_nms(xyxy, scores, cls, 0.5).tolist()


def test_nms_of_nothing_is_nothing() -> None:
    empty = np.zeros((0, 4), np.float32)
    kept = common.nms(empty, np.zeros(0, np.float32), np.zeros(0, np.int64), 0.5)
    assert kept.dtype == np.int64 and kept.size == 0


def test_to_blob_gives_the_strided_conversions_floats() -> None:
    rng = np.random.default_rng(1)
    frames = [rng.integers(0, 256, (36, 64, 3), dtype=np.uint8) for _ in range(2)]
    want = np.ascontiguousarray(np.stack(frames)[..., ::-1].transpose(0, 3, 1, 2), dtype=np.float32) / np.float32(255)
    got = common.to_blob(frames)
    assert got.dtype == np.float32 and got.flags.c_contiguous and np.array_equal(got, want)
