"""Finishing the exported models: check each ONNX file, stamp its metadata, write the manifest (models/cards.json)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import onnx

from dealer_assist.errors import DealerAssistError


def finalize_onnx(path: Path, metadata: dict[str, str]) -> Path:
    """Check an ONNX model and add `metadata` to its metadata_props (in place)."""
    try:
        model = onnx.load(str(path))
        onnx.checker.check_model(model)
    except Exception as exc:  # onnx raises several unrelated types
        raise DealerAssistError(f"exported model {path} is not valid ONNX: {exc}") from None
    props = {p.key: p for p in model.metadata_props}
    for key, value in metadata.items():
        if key in props:
            props[key].value = value
        else:
            entry = model.metadata_props.add()
            entry.key, entry.value = key, value
    onnx.save(model, str(path))
    return path


def write_manifest(path: Path, manifest: dict[str, Any]) -> Path:
    """models/cards.json: what the ONNX backend loads (file names, classes, input size, crop settings)."""
    path.write_text(json.dumps(manifest, indent=2, sort_keys=False) + "\n")
    return path
