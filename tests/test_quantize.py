"""The int8 copies: quantized, the detector's head decoding and the classifier's head kept in float, outputs close
to the float models."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper

from dealer_assist.synth.quantize import (
    INT8_WEIGHT_MAX,
    classifier_calibration,
    classifier_head_nodes,
    head_decode_nodes,
    quantize_classifier,
    quantize_detector,
)


def _tiny_detector(path: Path) -> None:
    """A stand-in with Ultralytics' node naming: two conv modules, then a head that convolves and decodes."""
    rng = np.random.default_rng(0)
    w0 = numpy_helper.from_array(rng.normal(0, 0.3, (8, 3, 3, 3)).astype(np.float32), "w0")
    w1 = numpy_helper.from_array(rng.normal(0, 0.3, (8, 8, 3, 3)).astype(np.float32), "w1")
    w2 = numpy_helper.from_array(rng.normal(0, 0.3, (6, 8, 1, 1)).astype(np.float32), "w2")
    scale = numpy_helper.from_array(np.array([8.0], np.float32), "scale")
    nodes = [
        helper.make_node("Conv", ["images", "w0"], ["a"], name="/model.0/conv/Conv", strides=[2, 2], pads=[1] * 4),
        helper.make_node("Relu", ["a"], ["b"], name="/model.0/act/Relu"),
        helper.make_node("Conv", ["b", "w1"], ["c"], name="/model.1/conv/Conv", strides=[2, 2], pads=[1] * 4),
        helper.make_node("Relu", ["c"], ["d"], name="/model.1/act/Relu"),
        helper.make_node("Conv", ["d", "w2"], ["e"], name="/model.2/cv2/Conv"),
        helper.make_node("Sigmoid", ["e"], ["f"], name="/model.2/Sigmoid"),
        helper.make_node("Mul", ["f", "scale"], ["output0"], name="/model.2/Mul"),
    ]
    inputs = [helper.make_tensor_value_info("images", TensorProto.FLOAT, [1, 3, 64, 96])]
    outputs = [helper.make_tensor_value_info("output0", TensorProto.FLOAT, None)]
    _save(helper.make_graph(nodes, "tiny", inputs, outputs, [w0, w1, w2, scale]), path)


def _save(graph: onnx.GraphProto, path: Path) -> None:
    """An opset-17 model of `graph`, as the project's exports are, saved at `path`."""
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.save(model, str(path))


def test_int8_copy_keeps_head_decoding_in_float(tmp_path: Path) -> None:
    src, dst = tmp_path / "det.onnx", tmp_path / "det-int8.onnx"
    _tiny_detector(src)
    assert head_decode_nodes(onnx.load(str(src))) == ["/model.2/Sigmoid", "/model.2/Mul"]
    rng = np.random.default_rng(1)
    frames = [rng.integers(0, 256, (64, 96, 3), dtype=np.uint8) for _ in range(4)]
    quantize_detector(src, dst, frames, (64, 96))
    q = onnx.load(str(dst))
    ops = [n.op_type for n in q.graph.node]
    assert "QuantizeLinear" in ops and "DequantizeLinear" in ops
    # the decoding's inputs are float: no DequantizeLinear feeds the Mul directly from a quantized tensor
    producers = {o: n.op_type for n in q.graph.node for o in n.output}
    mul = next(n for n in q.graph.node if n.op_type == "Mul")
    assert producers[mul.input[0]] == "Sigmoid"
    x = frames[0][None].transpose(0, 3, 1, 2).astype(np.float32) / 255
    out_f = ort.InferenceSession(str(src), providers=["CPUExecutionProvider"]).run(None, {"images": x})[0]
    out_q = ort.InferenceSession(str(dst), providers=["CPUExecutionProvider"]).run(None, {"images": x})[0]
    assert out_f.shape == out_q.shape
    assert float(np.abs(out_f - out_q).max()) < 0.5  # 8-bit steps, not a different model
    assert float(np.abs(out_f - out_q).max()) > 0  # and really quantized


def _tiny_classifier(path: Path) -> None:
    """A stand-in for the index classifier: a conv trunk of any crop side, global pooling, a Gemm head, softmax."""
    rng = np.random.default_rng(0)
    w0 = numpy_helper.from_array(rng.normal(0, 0.3, (8, 3, 3, 3)).astype(np.float32), "w0")
    w1 = numpy_helper.from_array(rng.normal(0, 0.3, (53, 8)).astype(np.float32), "w1")
    b1 = numpy_helper.from_array(np.zeros(53, np.float32), "b1")
    nodes = [
        helper.make_node("Conv", ["crops", "w0"], ["a"], name="/net/features/Conv", pads=[1] * 4),
        helper.make_node("Relu", ["a"], ["b"], name="/net/features/Relu"),
        helper.make_node("GlobalAveragePool", ["b"], ["c"], name="/net/features/GlobalAveragePool"),
        helper.make_node("Flatten", ["c"], ["d"], name="/net/features/Flatten"),
        helper.make_node("Gemm", ["d", "w1", "b1"], ["e"], name="/net/head/Gemm", transB=1),
        helper.make_node("Softmax", ["e"], ["probs"], name="/Softmax", axis=1),
    ]
    inputs = [helper.make_tensor_value_info("crops", TensorProto.FLOAT, ["n", 3, "side", "side"])]
    outputs = [helper.make_tensor_value_info("probs", TensorProto.FLOAT, ["n", 53])]
    _save(helper.make_graph(nodes, "tiny_classifier", inputs, outputs, [w0, w1, b1]), path)


def test_int8_classifier_quantizes_its_trunk_only_and_reads_every_crop_side(tmp_path: Path) -> None:
    src, dst = tmp_path / "cls.onnx", tmp_path / "cls-int8.onnx"
    _tiny_classifier(src)
    assert classifier_head_nodes(onnx.load(str(src))) == ["/net/features/GlobalAveragePool", "/net/features/Flatten",
                                                          "/net/head/Gemm", "/Softmax"]
    rng = np.random.default_rng(1)
    blobs = [rng.random((8, 3, side, side), dtype=np.float32) for side in (32, 48, 32, 48)]
    quantize_classifier(src, dst, blobs)
    q = onnx.load(str(dst))
    quantized = {n.input[0] for n in q.graph.node if n.op_type == "DequantizeLinear"}
    conv = next(n for n in q.graph.node if n.op_type == "Conv")
    producers = {o: n.op_type for n in q.graph.node for o in n.output}
    assert producers[conv.input[0]] == "DequantizeLinear" and producers[conv.input[1]] == "DequantizeLinear"
    # reduce_range: weights within +-64, which a CPU without VNNI also sums exactly (vision.backends.int8_check)
    weights = [numpy_helper.to_array(i) for i in q.graph.initializer if i.data_type == TensorProto.INT8]
    assert weights and max(int(np.abs(w.astype(np.int16)).max()) for w in weights) <= INT8_WEIGHT_MAX == 64
    gemm = next(n for n in q.graph.node if n.op_type == "Gemm")
    assert producers[gemm.input[0]] != "DequantizeLinear" and gemm.input[1] not in quantized  # the head is float
    exact = ort.InferenceSession(str(src), providers=["CPUExecutionProvider"])
    int8 = ort.InferenceSession(str(dst), providers=["CPUExecutionProvider"])
    for side in (32, 48):
        x = rng.random((4, 3, side, side), dtype=np.float32)
        out_f, out_q = exact.run(None, {"crops": x})[0], int8.run(None, {"crops": x})[0]
        assert out_q.shape == (4, 53) and np.allclose(out_q.sum(axis=1), 1, atol=1e-5)  # float softmax
        assert 0 < float(np.abs(out_f - out_q).max()) < 0.05


def test_a_classifier_without_global_pooling_is_one_clear_error(tmp_path: Path) -> None:
    import pytest

    from dealer_assist.errors import DealerAssistError

    src = tmp_path / "det.onnx"
    _tiny_detector(src)
    with pytest.raises(DealerAssistError, match="no GlobalAveragePool"):
        quantize_classifier(src, tmp_path / "out.onnx", [])


def test_classifier_calibration_cuts_corners_and_other_things_at_every_side() -> None:
    from dealer_assist.synth.train import render

    scenes = [render(2_000_001, "train", close_up=True)]  # a close view with face-up cards
    blobs = classifier_calibration(scenes, [32, 48], 1.5, batch=16)
    sides = {b.shape[-1] for b in blobs}
    assert sides == {32, 48}
    assert all(b.dtype == np.float32 and b.shape[1] == 3 and len(b) <= 16 for b in blobs)
    assert all(float(b.min()) >= 0.0 and float(b.max()) <= 1.0 for b in blobs)
    corners = sum(c.visible >= 0.5 for o in scenes[0][1].objects if o.kind == "card_face" for c in o.corners)
    # each readable corner twice (jittered as detector boxes are), and as many crops of other things
    assert corners > 0 and sum(len(b) for b in blobs if b.shape[-1] == 32) >= 3 * corners
