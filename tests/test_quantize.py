"""The int8 detector copy: quantized, head decoding kept in float, outputs close to the float model."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper

from dealer_assist.synth.quantize import head_decode_nodes, quantize_detector


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
    graph = helper.make_graph(nodes, "tiny", inputs, outputs, [w0, w1, w2, scale])
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
