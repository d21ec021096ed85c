"""Int8 models for the CPU: static quantization of the exported ONNX detector and classifier with ONNX Runtime's
tools.

On this CPU class (AVX-512 VNNI) the int8 graphs run about twice as fast as the float ones; their held-out
figures are measured on the int8 files themselves, since those are what the app runs. Calibration data come
from training-design scenes only. The detect head's box decoding stays in float: its coordinates span the
whole input and would lose pixels in 8 bits.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import onnx
from onnxruntime.quantization import CalibrationDataReader, QuantFormat, QuantType, quantize_static
from onnxruntime.quantization.shape_inference import quant_pre_process

from dealer_assist.errors import DealerAssistError
from dealer_assist.vision.backends.common import FloatArray, Image, classifier_blob, letterbox, to_blob


class _Blobs(CalibrationDataReader):  # type: ignore[misc]
    """Feeds model inputs to the calibrator, one at a time."""

    def __init__(self, input_name: str, blobs: Iterable[FloatArray]) -> None:
        self._blobs: Iterator[Any] = iter(blobs)
        self._name = input_name

    def get_next(self) -> dict[str, Any] | None:
        blob = next(self._blobs, None)
        return None if blob is None else {self._name: blob}


def head_decode_nodes(model: onnx.ModelProto) -> list[str]:
    """Nodes of the Detect head's decoding (everything in the last module but its convolutions)."""
    convs = [n.name for n in model.graph.node if n.op_type == "Conv" and n.name.startswith("/model.")]
    last = max((int(n.split("/")[1].split(".")[1]) for n in convs), default=-1)
    prefix = f"/model.{last}/"
    return [n.name for n in model.graph.node if n.name.startswith(prefix) and n.op_type != "Conv"]


def _quantize(src: Path, dst: Path, blobs: Iterable[FloatArray],
              keep_float: Callable[[onnx.ModelProto], list[str]]) -> Path:
    """Write an int8 (QDQ, per-channel weights) copy of `src` to `dst`, calibrated on the inputs `blobs`; the nodes
    `keep_float` names in the model stay float."""
    model = onnx.load(str(src))
    with tempfile.TemporaryDirectory() as tmp:
        pre = Path(tmp) / "pre.onnx"
        quant_pre_process(str(src), str(pre), skip_symbolic_shape=True)
        quantize_static(str(pre), str(dst), _Blobs(model.graph.input[0].name, blobs), quant_format=QuantFormat.QDQ,
                        per_channel=True, activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8,
                        nodes_to_exclude=keep_float(model))
    if not dst.is_file():
        raise DealerAssistError(f"quantization wrote no model at {dst}")
    return dst


def quantize_detector(src: Path, dst: Path, frames: Iterable[Image], imgsz: tuple[int, int]) -> Path:
    """Write an int8 copy of the detector `src` to `dst`, calibrated on `frames` (letterboxed as the backend does);
    the head's box decoding stays float."""
    blobs = (to_blob([letterbox(f, imgsz)[0]]) for f in frames)
    return _quantize(src, dst, blobs, head_decode_nodes)


def classifier_head_nodes(model: onnx.ModelProto) -> list[str]:
    """Nodes from the classifier's global pooling on: the head whose logits and probabilities stay float."""
    names = [n.name for n in model.graph.node]
    pools = [i for i, n in enumerate(model.graph.node) if n.op_type == "GlobalAveragePool"]
    if not pools:
        raise DealerAssistError("the classifier graph has no GlobalAveragePool: cannot tell its head from its trunk")
    return names[pools[-1]:]


def quantize_classifier(src: Path, dst: Path, blobs: Iterable[FloatArray]) -> Path:
    """Write an int8 copy of the index-corner classifier `src` to `dst`, calibrated on crop batches `blobs` (NCHW,
    any crop side the graph takes). A frame of a showdown sends it 100 to 200 crops, so in float it costs as much
    as a third of the detector's time. Only the convolutions go to 8 bits: the head's logits, rank x suit
    products and probabilities stay float (in 8 bits a probability moves by 1/255 and a logit by a tenth, enough
    to carry a read across the face-up bar)."""
    return _quantize(src, dst, blobs, classifier_head_nodes)


def classifier_calibration(scenes: Sequence[tuple[Image, Any]], sizes: Sequence[int], crop_scale: float,
                           seed: int = 0, batch: int = 64) -> list[FloatArray]:
    """Crop batches from rendered `scenes` ((image, SceneTruth) pairs) at each crop side in `sizes`: their index
    corners and as many crops of other things (backs, chips, hands, felt), cut as the classifier's training crops
    are (`synth.dataset.index_crops`), so the calibration sees the activations of both what it reads and what it
    rejects."""
    from dealer_assist.synth.dataset import index_crops

    rng = np.random.default_rng(seed)
    out: list[FloatArray] = []
    for size in sizes:
        crops = [c for image, truth in scenes for c, _ in index_crops(image, truth, rng, size=size,
                                                                         crop_scale=crop_scale, per_corner=2,
                                                                         negatives=1.0)]
        out += [classifier_blob(np.stack(crops[i : i + batch])) for i in range(0, len(crops), batch)]
    return out


def calibration_frames(n: int, seed0: int) -> list[Image]:
    """`n` training-design scenes (the validation seeds: never the held-out designs), as rendered; the
    calibrator letterboxes them into the model input as the backend does."""
    from dealer_assist.synth.scene import render_scene

    return [render_scene(seed0 + i, "train").image for i in range(n)]
