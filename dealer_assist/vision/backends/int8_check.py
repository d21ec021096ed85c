"""Whether this CPU runs ONNX Runtime's int8 convolutions exactly, so the shipped int8 graphs read as their float ones.

The int8 models are quantized with uint8 activations and int8 weights (`synth.quantize`). On a CPU with VNNI (AVX-512
VNNI, AVX-VNNI) ONNX Runtime sums their products in 32 bits. On a CPU with AVX2 only it sums each pair of products in
16 bits first, and a pair of large products saturates: seen on an AMD EPYC with AVX2, the int8 classifier's card
probabilities moved by up to 0.77 from the float graph's, and close-up cards went unread. So before loading an int8
graph the backend asks: a one-convolution graph, built here in memory, whose every pair of products is 255 x 127 (it
saturates at 16 bits), is run and compared with the exact sum. Where they differ, the backend loads the float graphs
beside the int8 ones (slower, same figures). A check of the arithmetic itself, not of the CPU's name: it holds on any
CPU and any future kernel. `DEALER_ASSIST_INT8` = "1" or "0" forces int8 or float (benchmarks, a CPU known either way).
"""

from __future__ import annotations

import functools
import os

import numpy as np
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper

_CHANNELS = 64
_KERNELS = 16


def _probe() -> tuple[bytes, np.ndarray, np.ndarray]:
    """The probe graph (QDQ uint8 input, int8 weights of +-127, one 1x1 convolution, QDQ output), its input (every
    activation 255 once quantized) and the exact output."""
    signs = np.random.default_rng(0).choice(np.array([-1, 1], dtype=np.int8), size=(_KERNELS, _CHANNELS, 1, 1))
    weights = (signs * 127).astype(np.int8)
    nodes = [
        helper.make_node("QuantizeLinear", ["x", "x_scale", "x_zero"], ["x_q"]),
        helper.make_node("DequantizeLinear", ["x_q", "x_scale", "x_zero"], ["x_dq"]),
        helper.make_node("DequantizeLinear", ["w_q", "w_scale", "w_zero"], ["w_dq"], axis=0),
        helper.make_node("Conv", ["x_dq", "w_dq"], ["y_f"]),
        helper.make_node("QuantizeLinear", ["y_f", "y_scale", "y_zero"], ["y_q"]),
        helper.make_node("DequantizeLinear", ["y_q", "y_scale", "y_zero"], ["y"]),
    ]
    inits = [
        numpy_helper.from_array(np.array(1 / 255, np.float32), "x_scale"),
        numpy_helper.from_array(np.array(0, np.uint8), "x_zero"),
        numpy_helper.from_array(weights, "w_q"),
        numpy_helper.from_array(np.full(_KERNELS, 1 / 127, np.float32), "w_scale"),
        numpy_helper.from_array(np.zeros(_KERNELS, np.int8), "w_zero"),
        numpy_helper.from_array(np.array(0.5, np.float32), "y_scale"),
        numpy_helper.from_array(np.array(128, np.uint8), "y_zero"),
    ]
    graph = helper.make_graph(nodes, "int8_probe",
                              [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, _CHANNELS, 4, 4])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8
    x = np.ones((1, _CHANNELS, 4, 4), np.float32)
    exact = signs[:, :, 0, 0].astype(np.float32).sum(axis=1)
    return model.SerializeToString(), x, exact


@functools.cache
def int8_saturation() -> float:
    """How far the probe's int8 convolution lands from the exact sum on this CPU (0: exact; each output is an integer
    of size up to 64, and a saturating CPU halves it)."""
    graph, x, exact = _probe()
    opts = ort.SessionOptions()
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    session = ort.InferenceSession(graph, sess_options=opts, providers=["CPUExecutionProvider"])
    y = np.asarray(session.run(None, {"x": x})[0], dtype=np.float32)
    return float(np.abs(y[0, :, 0, 0] - exact).max())


def int8_exact() -> bool:
    """True where the int8 graphs may run: the probe is exact (within the output's half step), or int8 is forced."""
    forced = os.environ.get("DEALER_ASSIST_INT8", "").strip()
    if forced in ("0", "1"):
        return forced == "1"
    return int8_saturation() <= 0.5
