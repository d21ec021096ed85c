"""The card detector interface: one small protocol, backends chosen by name (the frigate pattern).

    detector = make_detector("onnx")                  # the shipped models in models/
    detections = detector.detect(image)               # BGR uint8 image -> Detections

Backends: "onnx" (ONNX Runtime, the default; no torch), "ultralytics" (optional, for GPU machines
with the training extra installed) and "fake" (returns given detections; tests the pipeline with no
model). Image reading and drawing live here too so that the CLI needs no cv2.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import cv2
import numpy as np
import numpy.typing as npt

from dealer_assist.errors import DealerAssistError
from dealer_assist.vision.backends.common import LargeRead
from dealer_assist.vision.detections import BACK_ID, BUTTON_ID, Detections
from dealer_assist.vision.image_file import ImageFileError, read_image_file

Image = npt.NDArray[np.uint8]

BACKENDS: tuple[str, ...] = ("onnx", "ultralytics", "fake")
DEFAULT_BACKEND = "onnx"
MODELS_DIR = Path(__file__).resolve().parents[2] / "models"
MANIFEST_NAME = "cards.json"


class DetectorError(DealerAssistError):
    """A detector that cannot be built (unknown backend, missing or bad model) or an image it cannot read."""


@runtime_checkable
class Detector(Protocol):
    """Finds cards (face up: which; face down: "back") and the dealer button in one BGR image. One whose detections
    are given rather than read from the pixels says so with a class attribute `reads_image = False` (the pipeline then
    takes frames of any size)."""

    @property
    def name(self) -> str: ...

    def detect(self, image: Image) -> Detections: ...


@runtime_checkable
class ScaleAware(Protocol):
    """A detector that can skip work once a camera's calibration says how large its cards look."""

    def expect_card_length(self, image_px: float, image_size: tuple[int, int]) -> None: ...


@runtime_checkable
class CameraBar(Protocol):
    """A detector whose model names a face-up bar of its own for a table camera's frames (cards.json
    `camera_card_threshold`), where a read counts only once it repeats over frames (TrackerConfig.show_votes)."""

    def use_camera_bar(self) -> None: ...


# --------------------------------------------------------------------------------------------
# The model manifest: what the training recipe wrote beside the ONNX files.


@dataclass(frozen=True)
class ModelManifest:
    """models/cards.json: the detector (few classes) and the index-corner classifier, with their settings.

    `detector_classes` names what the YOLO model finds: "index" (a face-up card's index corner, to be
    read by the classifier), "back", "button", or directly a card label ("Ah") for a one-stage model.
    """

    root: Path
    detector: str
    detector_classes: tuple[str, ...]
    imgsz: tuple[int, int]  # model input (height, width)
    work_scale: float  # image px per model px: the long side of a frame is resized to imgsz long side * this
    classifier: str | None = None
    classifier_size: int = 32
    crop_scale: float = 1.5
    # Where the classifier also reads large corners at a second input side (cards.json `classifier_large_*`);
    # None: one side.
    large_read: LargeRead | None = None
    checkpoint: str | None = None
    # The classifier probability a face-up read needs: the model's operating point, chosen with it (a misread
    # goes into an award, an unread card leaves a show incomplete), so it ships in cards.json beside the model.
    card_threshold: float = 0.5
    # The bar on a table camera's frames (None: `card_threshold`). A read there joins a show, or makes an exposure,
    # only once it repeats over several frames, so it can take a lower bar than a still, where one read stands alone.
    camera_card_threshold: float | None = None
    # The float graphs an int8 detector and classifier were quantized from (cards.json `detector_float`,
    # `classifier_float`): what the ONNX backend runs on a CPU whose int8 arithmetic saturates (`int8_check`).
    detector_float: str | None = None
    classifier_float: str | None = None
    # The largest int8 weight the quantized graphs hold (cards.json `int8_weight_max`; 127 where absent): 64 for
    # graphs quantized with reduce_range, which a CPU without VNNI also sums exactly (`int8_check`).
    int8_weight_max: int = 127
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def detector_path(self) -> Path:
        return self.root / self.detector

    @property
    def classifier_path(self) -> Path | None:
        return self.root / self.classifier if self.classifier else None

    def graph_paths(self, int8: bool) -> tuple[Path, Path | None]:
        """The detector and classifier files to run: the manifest's own, or (`int8` False) the float graphs they were
        quantized from, where the manifest names them."""
        det = self.detector if int8 or not self.detector_float else self.detector_float
        cls = self.classifier if int8 or not self.classifier_float else self.classifier_float
        return self.root / det, (self.root / cls if cls else None)

    @property
    def quantized(self) -> bool:
        """The detector or classifier the manifest names is an int8 copy of a float graph it also names."""
        return bool((self.detector_float and self.detector_float != self.detector)
                    or (self.classifier_float and self.classifier_float != self.classifier))

    @property
    def checkpoint_path(self) -> Path | None:
        return self.root / self.checkpoint if self.checkpoint else None

    def to_json(self) -> dict[str, Any]:
        return {
            "detector": self.detector, "detector_classes": list(self.detector_classes),
            "imgsz": list(self.imgsz), "work_scale": self.work_scale, "classifier": self.classifier,
            "classifier_size": self.classifier_size, "crop_scale": self.crop_scale,
            **({"classifier_large_size": self.large_read.size, "classifier_large_from": self.large_read.from_px,
                "classifier_large_threshold": self.large_read.card_threshold} if self.large_read else {}),
            "checkpoint": self.checkpoint, "card_threshold": self.card_threshold,
            **({"camera_card_threshold": self.camera_card_threshold} if self.camera_card_threshold is not None else {}),
            **({"detector_float": self.detector_float} if self.detector_float else {}),
            **({"classifier_float": self.classifier_float} if self.classifier_float else {}),
            **({"int8_weight_max": self.int8_weight_max} if self.quantized else {}),
            **self.extra,
        }


def _probability(data: dict[str, Any], key: str) -> float:
    """A classifier bar from cards.json (0.5 where absent: manifests from before the bar was the model's)."""
    value = float(data.get(key, 0.5))
    if not 0.0 < value <= 1.0:
        raise ValueError(f"{key} {value} is not in (0, 1]")
    return value


def load_manifest(model_path: str | Path | None = None) -> ModelManifest:
    """The manifest at `model_path` (a cards.json, a folder holding one, or a bare detector .onnx)."""
    path = Path(model_path) if model_path is not None else MODELS_DIR
    if path.is_dir():
        path = path / MANIFEST_NAME
    if not path.exists():
        raise DetectorError(f"no model at {path}; train one with `dealer-assist train` or pass --model PATH "
                            "(a cards.json manifest, its folder, or a detector .onnx)")
    if path.suffix == ".onnx":
        sibling = path.with_name(MANIFEST_NAME)
        if sibling.is_file() and json.loads(sibling.read_text()).get("detector") == path.name:
            path = sibling
        else:
            return ModelManifest(root=path.parent, detector=path.name, detector_classes=("index", "back", "button"),
                                 imgsz=(384, 640), work_scale=2.0)
    try:
        data = json.loads(path.read_text())
        known = {"detector", "detector_classes", "imgsz", "work_scale", "classifier", "classifier_size",
                 "crop_scale", "checkpoint", "card_threshold", "classifier_large_size", "classifier_large_from",
                 "classifier_large_threshold", "camera_card_threshold", "detector_float", "classifier_float",
                 "int8_weight_max"}
        card_threshold = _probability(data, "card_threshold")
        camera = _probability(data, "camera_card_threshold") if "camera_card_threshold" in data else None
        large_size = int(data.get("classifier_large_size", 0))
        if large_size < 0:
            raise ValueError(f"classifier_large_size {large_size} is negative (0: no large read)")
        large_threshold = _probability(data, "classifier_large_threshold")
        large_read = (LargeRead(large_size, float(data.get("classifier_large_from", 40.0)), large_threshold)
                      if large_size else None)
        return ModelManifest(
            root=path.parent, detector=str(data["detector"]),
            detector_classes=tuple(str(c) for c in data["detector_classes"]),
            imgsz=(int(data["imgsz"][0]), int(data["imgsz"][1])), work_scale=float(data.get("work_scale", 2.0)),
            classifier=data.get("classifier"), classifier_size=int(data.get("classifier_size", 32)),
            crop_scale=float(data.get("crop_scale", 1.5)), checkpoint=data.get("checkpoint"),
            large_read=large_read, card_threshold=card_threshold, camera_card_threshold=camera,
            detector_float=data.get("detector_float"), classifier_float=data.get("classifier_float"),
            int8_weight_max=int(data.get("int8_weight_max", 127)),
            extra={k: v for k, v in data.items() if k not in known},
        )
    except (ValueError, KeyError, TypeError, IndexError) as exc:
        raise DetectorError(f"bad model manifest {path}: {exc}") from None


# --------------------------------------------------------------------------------------------
# Choosing a backend.


def make_detector(backend: str = DEFAULT_BACKEND, model_path: str | Path | None = None, **options: Any) -> Detector:
    """A detector by backend name ("onnx", "ultralytics", "fake"); `model_path` defaults to models/. `device`
    (ultralytics): "cpu" or a CUDA index; by default the first GPU when torch sees one."""
    key = backend.strip().lower()
    factories: dict[str, Callable[..., Detector]] = {}
    device = options.get("device")
    if device is None:
        options.pop("device", None)  # a backend's own default (the fake backend takes no device)
    if key == "onnx" and device is not None and str(device).strip().lower() != "cpu":
        raise DetectorError(f"the onnx backend runs on the CPU (ONNX Runtime, no torch); device {device!r} needs "
                            "the ultralytics backend")
    if key == "onnx":
        from dealer_assist.vision.backends.onnx_backend import OnnxDetector

        factories[key] = OnnxDetector
    elif key == "ultralytics":
        from dealer_assist.vision.backends.ultralytics_backend import UltralyticsDetector

        factories[key] = UltralyticsDetector
    elif key == "fake":
        from dealer_assist.vision.backends.fake_backend import FakeDetector

        return FakeDetector(**options)
    else:
        raise DetectorError(f"unknown detector backend {backend!r}; accepted: {', '.join(BACKENDS)}")
    return factories[key](load_manifest(model_path), **options)


# --------------------------------------------------------------------------------------------
# Images in and out (so the CLI needs no cv2).


def read_image(path: str | Path) -> Image:
    """A BGR image from a file (what OpenCV reads, and HEIC/HEIF: `image_file`); a missing or unreadable file is a
    one-line DetectorError."""
    try:
        return read_image_file(path)
    except ImageFileError as exc:
        raise DetectorError(str(exc)) from None


def write_image(path: str | Path, image: Image) -> None:
    """Write an image; the format follows the suffix (.png, .jpg)."""
    p = Path(path)
    if p.parent and not p.parent.exists():
        raise DetectorError(f"cannot write {p}: folder {p.parent} does not exist")
    ok, buf = cv2.imencode(p.suffix or ".png", image)
    if not ok:
        raise DetectorError(f"cannot write {p}: unsupported image format {p.suffix!r}; use .png or .jpg")
    buf.tofile(str(p))


def encode_jpeg(image: Image, quality: int = 85) -> bytes:
    """JPEG bytes of a BGR image (key frames for the hand log, so callers need no cv2)."""
    ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, int(quality)])
    if not ok:
        raise DetectorError("cannot encode the frame as JPEG")
    return bytes(buf.tobytes())


_COLOURS = {"face": (40, 200, 40), "back": (230, 120, 20), "button": (0, 215, 255)}


def draw_detections(image: Image, detections: Detections) -> Image:
    """A copy of `image` with each object's polygon and its label ("Ah 0.98", "back", "button")."""
    out = image.copy()
    scale = max(image.shape[:2]) / 1280.0
    thick = max(1, round(2 * scale))
    font = 0.5 * max(scale, 0.6)
    for i in range(len(detections)):
        cid = int(detections.class_id[i])
        kind = "back" if cid == BACK_ID else "button" if cid == BUTTON_ID else "face"
        colour = _COLOURS[kind]
        poly = np.round(detections.polygons[i]).astype(np.int32)
        cv2.polylines(out, [poly], True, colour, thick, cv2.LINE_AA)
        label = detections.labels[i] if kind == "face" else kind
        text = f"{label} {float(detections.confidence[i]):.2f}"
        x, y = int(poly[:, 0].min()), int(poly[:, 1].min())
        (tw, th), base = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, font, max(1, thick - 1))
        y_text = y - 3 if y - th - base - 3 > 0 else int(poly[:, 1].max()) + th + 3
        cv2.rectangle(out, (x, y_text - th - 2), (x + tw + 2, y_text + base - 1), colour, -1)
        cv2.putText(out, text, (x + 1, y_text - 1), cv2.FONT_HERSHEY_SIMPLEX, font, (0, 0, 0),
                    max(1, thick - 1), cv2.LINE_AA)
    return out


def detect_files(detector: Detector, paths: Sequence[str | Path]) -> list[tuple[Path, Image, Detections]]:
    """Read and detect each image in turn (errors name the file)."""
    out = []
    for path in paths:
        image = read_image(path)
        out.append((Path(path), image, detector.detect(image)))
    return out
