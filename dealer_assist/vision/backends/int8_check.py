"""Whether this CPU runs ONNX Runtime's int8 convolutions exactly, so the shipped int8 graphs read as their float ones.

The int8 models hold uint8 activations and int8 weights (`synth.quantize`). On a CPU with VNNI (AVX-512 VNNI,
AVX-VNNI) ONNX Runtime sums their products in 32 bits. On a CPU with AVX2 only it sums each pair of products in 16
bits first, and a pair of large products saturates unless the weights keep within +-64 (reduce_range): seen on an AMD
EPYC with AVX2, the int8 classifier of 2026-11-27 (weights to +-127) moved card probabilities by up to 0.77 from the
float graph's, and close-up cards went unread. So before loading int8 graphs the backend runs a probe
(`int8_probe.onnx`, built by `synth.quantize.int8_probe_model`), whose pairs of products reach 255 x 127 on some
kernels and 255 x 64 on others, against the same convolution in float. Where the kernels of the models' weight range
(cards.json `int8_weight_max`) are not exact, the backend loads the float graphs beside the int8 ones (slower, the
same figures). A check of the arithmetic itself, not of the CPU's name: it holds on any CPU and any future kernel.
`DEALER_ASSIST_INT8` = "1" or "0" forces int8 or float (benchmarks, a CPU known either way).
"""

from __future__ import annotations

import functools
import os
from pathlib import Path

import numpy as np
import onnxruntime as ort

PROBE = Path(__file__).with_name("int8_probe.onnx")
PROBE_WEIGHTS = (127, 64)       # as synth.quantize.PROBE_WEIGHTS: the weight range of each group of kernels
PROBE_CHANNELS = 64


@functools.cache
def int8_saturation() -> tuple[float, ...]:
    """How far the probe's int8 convolution lands from the exact one on this CPU, for each weight range in
    `PROBE_WEIGHTS` (0: exact; each output is a sum of 64 terms of +-1, and a saturating CPU about halves it)."""
    opts = ort.SessionOptions()
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    session = ort.InferenceSession(str(PROBE), sess_options=opts, providers=["CPUExecutionProvider"])
    y, ref = session.run(None, {"x": np.ones((1, PROBE_CHANNELS, 4, 4), np.float32)})
    off = np.abs(np.asarray(y, np.float32) - np.asarray(ref, np.float32))[0, :, 0, 0]
    return tuple(float(group.max()) for group in np.split(off, len(PROBE_WEIGHTS)))


def int8_exact(weight_max: int = 127) -> bool:
    """True where int8 graphs whose weights reach +-`weight_max` may run: the probe's kernels of that range (or the
    next larger) are exact within the output's half step, or int8 is forced."""
    forced = os.environ.get("DEALER_ASSIST_INT8", "").strip()
    if forced in ("0", "1"):
        return forced == "1"
    groups = [k for k, w in enumerate(PROBE_WEIGHTS) if w >= weight_max]
    group = groups[-1] if groups else 0
    return int8_saturation()[group] <= 0.5
