"""The default backend: the exported YOLO detector and the index-corner classifier through ONNX Runtime.

No torch: letterbox, tiling of large photos, NMS and the crops for the classifier are numpy/cv2.
"""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import onnxruntime as ort

from dealer_assist.vision.backends.common import (
    SHRINKS,
    FloatArray,
    Image,
    Thresholds,
    assemble,
    decode_yolo,
    fit_ratio,
    large_px,
    letterbox,
    long_sides,
    nms,
    regions,
    shrinks_for_card,
    to_blob,
    with_shrunk_read,
)
from dealer_assist.vision.backends.int8_check import int8_exact
from dealer_assist.vision.detections import Detections
from dealer_assist.vision.detector import DetectorError, ModelManifest


def choose_graphs(manifest: ModelManifest) -> tuple[bool, Path, Path | None]:
    """Whether the int8 copies run on this CPU (`int8_check`), and the detector and classifier files to load."""
    int8 = manifest.quantized and int8_exact(manifest.int8_weight_max)
    return (int8, *manifest.graph_paths(int8))


def graphs_note(manifest: ModelManifest, int8: bool) -> str:
    """What a backend says of the graphs it runs."""
    if not manifest.quantized:
        return "as named in the manifest"
    return "int8" if int8 else "float (this CPU's int8 arithmetic saturates, or DEALER_ASSIST_INT8=0)"


def _session(path: Path, threads: int | None) -> ort.InferenceSession:
    if not path.is_file():
        raise DetectorError(f"model file {path} is missing; train with `dealer-assist train` or pass --model")
    opts = ort.SessionOptions()
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    # No busy-waiting between ops: on a shared or small CPU spinning threads only steal time from each other.
    opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
    opts.add_session_config_entry("session.inter_op.allow_spinning", "0")
    n = threads if threads is not None else int(os.environ.get("DEALER_ASSIST_THREADS", "0"))
    if n > 0:
        opts.intra_op_num_threads = n
        opts.inter_op_num_threads = 1
    try:
        return ort.InferenceSession(str(path), sess_options=opts, providers=["CPUExecutionProvider"])
    except Exception as exc:  # onnxruntime raises its own exception types
        raise DetectorError(f"cannot load model {path}: {str(exc).splitlines()[0]}") from None


class OnnxDetector:
    """Detector through ONNX Runtime on the CPU."""

    name = "onnx"

    def __init__(self, manifest: ModelManifest, *, threads: int | None = None, thresholds: Thresholds | None = None,
                 tile_above: float = 2.0, shrinks: tuple[int, ...] = SHRINKS, **_: Any) -> None:
        self.manifest = manifest
        self.thresholds = thresholds or Thresholds(card=manifest.card_threshold)
        self._bar_given = thresholds is not None   # a bar asked for stays, on a table camera's frames too
        self.tile_above = tile_above
        self.shrinks = shrinks  # () = one full-scale read (a calibrated camera whose cards are in range)
        self.int8, det_path, cpath = choose_graphs(manifest)
        self._det = _session(det_path, threads)
        self._det_input = self._det.get_inputs()[0].name
        shape = self._det.get_inputs()[0].shape
        if isinstance(shape[2], int) and isinstance(shape[3], int):
            self.imgsz = (int(shape[2]), int(shape[3]))
        else:
            self.imgsz = manifest.imgsz
        self._cls = _session(cpath, threads) if cpath is not None else None
        self._cls_input = self._cls.get_inputs()[0].name if self._cls is not None else ""

    @property
    def graphs(self) -> str:
        """Which graphs run, and why ("int8", or "float" where the int8 copies would saturate on this CPU)."""
        return graphs_note(self.manifest, self.int8)

    def _classify(self, blob: FloatArray) -> FloatArray:
        assert self._cls is not None
        outs = [self._cls.run(None, {self._cls_input: blob[i : i + 64]})[0] for i in range(0, len(blob), 64)]
        return np.concatenate(outs).astype(np.float32)

    def _run(self, padded: Image) -> FloatArray:
        """The detector's raw output for one model-sized input."""
        return np.asarray(self._det.run(None, {self._det_input: to_blob([padded])})[0][0], dtype=np.float32)

    def raw(self, image: Image) -> tuple[FloatArray, FloatArray, np.ndarray[Any, np.dtype[np.int64]]]:
        """Detector boxes (image px), scores and detector class ids after NMS, over the whole image and tiles."""
        if image.ndim != 3 or image.shape[2] != 3 or image.dtype != np.uint8:
            raise DetectorError(f"detect needs a BGR uint8 image (H, W, 3), got {image.dtype} {image.shape}")
        boxes, scores, classes = [], [], []
        regs = regions(image.shape, self.imgsz, self.tile_above)
        conf, iou = self.thresholds.per_class(self.manifest.detector_classes)
        r0 = fit_ratio(image.shape, self.imgsz)
        large = large_px(self.manifest.detector_classes)
        for i, (x0, y0, x1, y1) in enumerate(regs):
            padded, lb = letterbox(image[y0:y1, x0:x1], self.imgsz, origin=(x0, y0))
            b, s, c = decode_yolo(self._run(padded), conf)
            b = lb.to_image(b)
            if i > 0:  # a tile is for small corners: what is large at the whole image's scale is the others' to find
                small = long_sides(b) * r0 <= large[c]
                b, s, c = b[small], s[small], c[small]
            boxes.append(b)
            scores.append(s)
            classes.append(c)
        xyxy, sc, cl = np.concatenate(boxes), np.concatenate(scores), np.concatenate(classes)
        if self.shrinks:
            xyxy, sc, cl = with_shrunk_read(image, self.imgsz, self.shrinks, self.manifest.detector_classes,
                                            (xyxy, sc, cl), lambda canvas: decode_yolo(self._run(canvas), conf))
        keep = nms(xyxy, sc, cl, iou, ios=0.7 if len(regs) > 1 else None,
                   gap=self.thresholds.centre_gaps(self.manifest.detector_classes))
        return xyxy[keep], sc[keep], cl[keep]

    def expect_card_length(self, image_px: float, image_size: tuple[int, int]) -> None:
        """A calibrated camera's largest card, `image_px` long in frames of `image_size` (width, height): keep
        only the shrunk reads that size needs (none for a table camera, which saves a model run per frame)."""
        self.shrinks = shrinks_for_card(image_px * fit_ratio((image_size[1], image_size[0]), self.imgsz))

    def use_camera_bar(self) -> None:
        """Read a table camera's frames at the model's camera bar (`camera_card_threshold`), unless one was asked."""
        if not self._bar_given and self.manifest.camera_card_threshold is not None:
            self.thresholds = replace(self.thresholds, card=self.manifest.camera_card_threshold)

    def detect(self, image: Image) -> Detections:
        xyxy, scores, classes = self.raw(image)
        return assemble(image, xyxy, scores, classes, self.manifest.detector_classes,
                        self._classify if self._cls is not None else None, self.manifest.classifier_size,
                        self.manifest.crop_scale, self.thresholds, self.manifest.large_read)
