"""The layering of ARCHITECTURE.md: data flows one way, nothing below `app` imports Qt, `rules` no cv2."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "dealer_assist"

# Internal packages each layer may import (besides itself and `dealer_assist.errors`).
INTERNAL: dict[str, set[str]] = {
    "cards": set(),
    "rules": {"cards"},
    "vision": {"cards"},
    "synth": {"cards", "rules", "vision"},
    "audit": {"cards", "rules", "vision"},
    "store": {"cards", "rules", "audit", "vision"},
    "app": {"cards", "rules", "vision", "synth", "audit", "store"},
    "cli": {"cards", "rules", "vision", "synth", "audit", "store", "app"},
}
# Third-party top-level modules each layer may import.
EXTERNAL: dict[str, set[str]] = {
    "cards": set(),
    "rules": {"numpy"},
    "vision": {"numpy", "cv2", "onnxruntime"},
    "synth": {"numpy", "cv2", "onnxruntime"},  # onnxruntime: quantizing the exported detector
    "audit": {"numpy"},
    "store": {"numpy", "sqlite_utils", "platformdirs"},
    "app": {"numpy", "cv2", "PySide6", "platformdirs"},
    "cli": {"click", "numpy", "tqdm", "platformdirs", "tomli_w"},
}
# Heavy optional imports allowed only inside the named modules, and only inside functions there.
CONFINED: dict[str, set[str]] = {
    "ultralytics": {"vision/backends/ultralytics_backend.py", "synth/train.py"},
    "torch": {"vision/backends/ultralytics_backend.py", "synth/train.py", "synth/classifier_round.py"},
    "onnx": {"synth/train.py", "synth/export.py", "synth/quantize.py"},
}
TOP_LEVEL_OK = {"tomli_w", "tomllib"}


def _imports(path: Path) -> list[tuple[str, int]]:
    tree = ast.parse(path.read_text(), filename=str(path))
    found: list[tuple[str, int]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(alias.name, node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append((node.module, node.lineno))
    return found


def _layer_files() -> list[tuple[str, Path]]:
    return [
        (layer, path)
        for layer in INTERNAL
        for path in sorted((PACKAGE / layer).rglob("*.py"))
    ]


@pytest.mark.parametrize(("layer", "path"), _layer_files(), ids=lambda v: str(v))
def test_layer_imports(layer: str, path: Path) -> None:
    rel = path.relative_to(PACKAGE).as_posix()
    problems = []
    for module, line in _imports(path):
        top = module.split(".")[0]
        if top == "dealer_assist":
            parts = module.split(".")
            target = parts[1] if len(parts) > 1 else ""
            if target in {layer, "errors", ""} or target in INTERNAL[layer]:
                continue
            problems.append(f"{rel}:{line} imports {module} (layer {layer} may use {sorted(INTERNAL[layer])})")
        elif top in sys.stdlib_module_names or top == "__future__" or top in TOP_LEVEL_OK:
            continue
        elif top in CONFINED:
            if rel not in CONFINED[top]:
                problems.append(f"{rel}:{line} imports {top}, allowed only in {sorted(CONFINED[top])}")
        elif top not in EXTERNAL[layer]:
            problems.append(f"{rel}:{line} imports {top} (layer {layer} may use {sorted(EXTERNAL[layer])})")
    assert not problems, "\n".join(problems)


def test_no_qt_below_app() -> None:
    offenders = [
        f"{path.relative_to(PACKAGE)}:{line}"
        for layer, path in _layer_files()
        if layer not in {"app", "cli"}
        for module, line in _imports(path)
        if module.split(".")[0] in {"PySide6", "PyQt5", "PyQt6", "shiboken6"}
    ]
    assert not offenders


def test_rules_has_no_cv2() -> None:
    offenders = [
        f"{path.relative_to(PACKAGE)}:{line}"
        for path in (PACKAGE / "rules").rglob("*.py")
        for module, line in _imports(path)
        if module.split(".")[0] == "cv2"
    ]
    assert not offenders


def test_layer_checker_catches_violation(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("import cv2\nfrom PySide6 import QtCore\n")
    assert [m for m, _ in _imports(bad)] == ["cv2", "PySide6"]
