"""Optional backend: the training checkpoint through Ultralytics' own predictor (GPU machines, comparisons).

Needs the `train` extra (ultralytics, torch); both are imported inside functions only. The index-corner
classifier still runs through ONNX Runtime, so the two backends differ only in the detector stage.
"""

from __future__ import annotations

import importlib
import os
from dataclasses import replace
from typing import Any

import numpy as np

from dealer_assist.vision.backends.common import (
    SHRINKS,
    FloatArray,
    Image,
    Thresholds,
    assemble,
    fit_ratio,
    nms,
    shrinks_for_card,
    with_shrunk_read,
)
from dealer_assist.vision.backends.onnx_backend import _session, choose_graphs, graphs_note
from dealer_assist.vision.detections import Detections
from dealer_assist.vision.detector import DetectorError, ModelManifest


def _load_yolo(path: str) -> Any:
    os.environ.setdefault("YOLO_OFFLINE", "1")
    try:
        yolo = importlib.import_module("ultralytics").YOLO
    except ImportError:
        raise DetectorError("the ultralytics backend needs the training extra: "
                            "bash installer/install.sh --train (or pip install ultralytics)") from None
    return yolo(path, task="detect")


def resolve_device(device: str | None) -> str:
    """The torch device to predict on: "cpu", or a CUDA index ("0"); None takes the first GPU when torch sees one."""
    import torch

    gpus = torch.cuda.device_count() if torch.cuda.is_available() else 0
    if device is None:
        return "0" if gpus else "cpu"
    text = device.strip().lower()
    if text == "cpu":
        return text
    if not text.isdigit():
        raise DetectorError(f"unknown device {device!r}; accepted: cpu, or a CUDA device index such as 0")
    if int(text) >= gpus:
        seen = f"torch sees {gpus} CUDA device{'s' if gpus != 1 else ''}" if gpus else "torch sees no CUDA device"
        raise DetectorError(f"no CUDA device {text} here ({seen}); use --device cpu")
    return text


class UltralyticsDetector:
    """Detector through `ultralytics.YOLO(...).predict` on the training checkpoint (or any model it loads)."""

    name = "ultralytics"

    def __init__(self, manifest: ModelManifest, *, device: str | None = None, threads: int | None = None,
                 thresholds: Thresholds | None = None, weights: str | None = None,
                 shrinks: tuple[int, ...] = SHRINKS, **_: Any) -> None:
        self.manifest = manifest
        self.thresholds = thresholds or Thresholds(card=manifest.card_threshold)
        self._bar_given = thresholds is not None   # a bar asked for stays, on a table camera's frames too
        self.shrinks = shrinks  # as the ONNX backend: the shrunk read for cards too large at full scale
        self.device = resolve_device(device)  # before the model loads: a bad device is one line, at once
        path = weights or (str(manifest.checkpoint_path) if manifest.checkpoint_path else str(manifest.detector_path))
        if not os.path.exists(path):
            raise DetectorError(f"model file {path} is missing; train with `dealer-assist train`")
        if threads:
            import torch

            torch.set_num_threads(threads)
        self.model = _load_yolo(path)
        self.int8, _detector, cpath = choose_graphs(manifest)   # its classifier runs through ONNX Runtime too
        self._cls = _session(cpath, threads) if cpath is not None else None
        self._cls_input = self._cls.get_inputs()[0].name if self._cls is not None else ""

    @property
    def graphs(self) -> str:
        """Which classifier graph runs, and why (`onnx_backend.graphs_note`)."""
        return graphs_note(self.manifest, self.int8)

    def _classify(self, blob: FloatArray) -> FloatArray:
        assert self._cls is not None
        return np.asarray(self._cls.run(None, {self._cls_input: blob})[0], dtype=np.float32)

    def raw(self, image: Image) -> tuple[FloatArray, FloatArray, np.ndarray[Any, np.dtype[np.int64]]]:
        conf, iou = self.thresholds.per_class(self.manifest.detector_classes)
        # Ultralytics takes one threshold each: ask with the loosest, then apply the per-class ones
        xyxy, scores, classes = self._predict(image, float(conf.min()), float(iou.max()))
        if self.shrinks:
            xyxy, scores, classes = with_shrunk_read(
                image, self.manifest.imgsz, self.shrinks, self.manifest.detector_classes, (xyxy, scores, classes),
                lambda canvas: self._predict(canvas, float(conf.min()), float(iou.max())))
        sure = scores >= conf[classes]
        xyxy, scores, classes = xyxy[sure], scores[sure], classes[sure]
        keep = nms(xyxy, scores, classes, iou, gap=self.thresholds.centre_gaps(self.manifest.detector_classes))
        return xyxy[keep], scores[keep], classes[keep]

    def _predict(self, image: Image, conf: float, iou: float) -> tuple[FloatArray, FloatArray,
                                                                       np.ndarray[Any, np.dtype[np.int64]]]:
        res = self.model.predict(image, imgsz=list(self.manifest.imgsz), conf=conf, iou=iou, device=self.device,
                                 verbose=False)[0]
        boxes = res.boxes
        return (np.asarray(boxes.xyxy.cpu().numpy(), dtype=np.float32).reshape(-1, 4),
                np.asarray(boxes.conf.cpu().numpy(), dtype=np.float32).reshape(-1),
                np.asarray(boxes.cls.cpu().numpy(), dtype=np.int64).reshape(-1))

    def expect_card_length(self, image_px: float, image_size: tuple[int, int]) -> None:
        """As the ONNX backend: keep only the shrunk reads a calibrated camera's card size needs."""
        self.shrinks = shrinks_for_card(image_px * fit_ratio((image_size[1], image_size[0]), self.manifest.imgsz))

    def use_camera_bar(self) -> None:
        """Read a table camera's frames at the model's camera bar (`camera_card_threshold`), unless one was asked."""
        if not self._bar_given and self.manifest.camera_card_threshold is not None:
            self.thresholds = replace(self.thresholds, card=self.manifest.camera_card_threshold)

    def detect(self, image: Image) -> Detections:
        xyxy, scores, classes = self.raw(image)
        return assemble(image, xyxy, scores, classes, self.manifest.detector_classes,
                        self._classify if self._cls is not None else None, self.manifest.classifier_size,
                        self.manifest.crop_scale, self.thresholds, self.manifest.large_read)
