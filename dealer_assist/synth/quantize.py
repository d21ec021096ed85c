"""Int8 models for the CPU: static quantization of the exported ONNX detector and classifier with ONNX Runtime's
tools.

On a CPU with AVX-512 VNNI the int8 graphs run about twice as fast as the float ones; their held-out
figures are measured on the int8 files themselves, since those are what the app runs. Weights are quantized with
reduce_range (7 bits, +-64: `INT8_WEIGHT_MAX`): a CPU with AVX2 alone sums pairs of uint8 x int8 products in 16 bits,
which +-127 weights overflow (`vision.backends.int8_check`); with +-64 it sums them exactly, and runs the int8 graphs
too. Calibration data come
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
from onnx import TensorProto, helper, numpy_helper
from onnxruntime.quantization import CalibrationDataReader, QuantFormat, QuantType, quantize_static
from onnxruntime.quantization.shape_inference import quant_pre_process

from dealer_assist.errors import DealerAssistError
from dealer_assist.vision.backends.common import FloatArray, Image, classifier_blob, letterbox, to_blob

INT8_WEIGHT_MAX = 64   # reduce_range: the largest weight magnitude of the int8 graphs (cards.json int8_weight_max)


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
                        per_channel=True, reduce_range=True, activation_type=QuantType.QUInt8,
                        weight_type=QuantType.QInt8,
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


PROBE_WEIGHTS = (127, 64)   # the int8 weight ranges the probe tries: ONNX Runtime's full range, and reduce_range's
PROBE_CHANNELS, PROBE_KERNELS = 64, 16


def int8_probe_model() -> onnx.ModelProto:
    """The graph `vision.backends.int8_check` runs to ask whether this CPU sums int8 products exactly (shipped as
    `int8_probe.onnx` beside it: the app does not depend on `onnx`). Input: (1, 64, 4, 4) ones, quantized to 255.
    Output `y`: a 1x1 convolution of it through QDQ (ONNX Runtime fuses it into an int8 convolution), `PROBE_KERNELS`
    kernels of weights +-127, then as many of +-64; a CPU summing pairs of products in 16 bits saturates on the first
    (255 x 127 x 2 > 32767), not on the second. Output `y_ref`: the same convolution in float, exact."""
    signs = np.random.default_rng(0).choice(np.array([-1, 1], dtype=np.int8),
                                            size=(PROBE_KERNELS * len(PROBE_WEIGHTS), PROBE_CHANNELS, 1, 1))
    top = np.repeat(np.array(PROBE_WEIGHTS, dtype=np.int16), PROBE_KERNELS)
    weights = (signs * top[:, None, None, None]).astype(np.int8)
    kernels = len(weights)
    nodes = [
        helper.make_node("QuantizeLinear", ["x", "x_scale", "x_zero"], ["x_q"]),
        helper.make_node("DequantizeLinear", ["x_q", "x_scale", "x_zero"], ["x_dq"]),
        helper.make_node("DequantizeLinear", ["w_q", "w_scale", "w_zero"], ["w_dq"], axis=0),
        helper.make_node("Conv", ["x_dq", "w_dq"], ["y_f"]),
        helper.make_node("QuantizeLinear", ["y_f", "y_scale", "y_zero"], ["y_q"]),
        helper.make_node("DequantizeLinear", ["y_q", "y_scale", "y_zero"], ["y"]),
        helper.make_node("Conv", ["x", "w_ref"], ["y_ref"]),
    ]
    inits = [
        numpy_helper.from_array(np.array(1 / 255, np.float32), "x_scale"),
        numpy_helper.from_array(np.array(0, np.uint8), "x_zero"),
        numpy_helper.from_array(weights, "w_q"),
        numpy_helper.from_array((1 / top).astype(np.float32), "w_scale"),
        numpy_helper.from_array(np.zeros(kernels, np.int8), "w_zero"),
        numpy_helper.from_array(np.array(0.5, np.float32), "y_scale"),
        numpy_helper.from_array(np.array(128, np.uint8), "y_zero"),
        numpy_helper.from_array(signs.astype(np.float32), "w_ref"),
    ]
    graph = helper.make_graph(
        nodes, "int8_probe", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, PROBE_CHANNELS, 4, 4])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None),
         helper.make_tensor_value_info("y_ref", TensorProto.FLOAT, None)], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], producer_name="dealer_assist")
    model.ir_version = 8
    return model
