"""The probe that decides whether the int8 graphs may run on this CPU (`vision.backends.int8_check`)."""

from __future__ import annotations

import onnxruntime as ort
import pytest

from dealer_assist.vision.backends import int8_check


def test_the_shipped_probe_is_the_graph_the_recipe_builds() -> None:
    """The app ships the probe as a file (it does not depend on `onnx`); it must be the graph `synth.quantize`
    describes, with the weight groups the check reads."""
    pytest.importorskip("onnx")
    from dealer_assist.synth.quantize import PROBE_CHANNELS, PROBE_WEIGHTS, int8_probe_model

    assert int8_check.PROBE.read_bytes() == int8_probe_model().SerializeToString()
    assert int8_check.PROBE_WEIGHTS == PROBE_WEIGHTS and int8_check.PROBE_CHANNELS == PROBE_CHANNELS


def test_the_probe_runs_its_int8_convolution_fused_and_its_reference_in_float() -> None:
    """ONNX Runtime must fuse the probe's QDQ convolution into an int8 one (else the probe would test float
    arithmetic and pass anywhere): the optimized graph holds a QLinearConv, and a plain Conv for the reference."""
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as tmp:
        opts = ort.SessionOptions()
        opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        opts.optimized_model_filepath = str(Path(tmp) / "opt.onnx")
        ort.InferenceSession(str(int8_check.PROBE), sess_options=opts, providers=["CPUExecutionProvider"])
        onnx = pytest.importorskip("onnx")
        ops = [n.op_type for n in onnx.load(opts.optimized_model_filepath).graph.node]
    assert "QLinearConv" in ops and "Conv" in ops


def test_the_verdict_follows_the_weight_range_and_the_override(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.delenv("DEALER_ASSIST_INT8", raising=False)
    int8_check.int8_saturation.cache_clear()
    monkeypatch.setattr(int8_check, "int8_saturation", lambda: (9.0, 0.0))       # an AVX2 CPU without VNNI
    assert not int8_check.int8_exact(127) and int8_check.int8_exact(64) and int8_check.int8_exact(50)
    monkeypatch.setattr(int8_check, "int8_saturation", lambda: (0.0, 0.0))       # VNNI
    assert int8_check.int8_exact(127) and int8_check.int8_exact(64)
    monkeypatch.setenv("DEALER_ASSIST_INT8", "0")
    assert not int8_check.int8_exact(64)
    monkeypatch.setattr(int8_check, "int8_saturation", lambda: (9.0, 9.0))
    monkeypatch.setenv("DEALER_ASSIST_INT8", "1")
    assert int8_check.int8_exact(127)
    monkeypatch.delenv("DEALER_ASSIST_INT8")
    assert not int8_check.int8_exact(64)


def test_the_probe_measures_this_cpu() -> None:
    """Each group's error is 0 (exact) or large (saturated pairs halve the sums): nothing in between."""
    int8_check.int8_saturation.cache_clear()
    off = int8_check.int8_saturation()
    assert len(off) == 2 and all(o == 0.0 or o >= 2.0 for o in off)
    assert off[1] <= off[0]          # weights of +-64 saturate no more than +-127
