"""Detector backends: ONNX Runtime (default), Ultralytics (optional) and a fake one for tests."""
