"""`dealer-assist detect`: JSON shape, --draw output, one-line errors (fake detector; the shipped model if present)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from click.testing import CliRunner

from dealer_assist.cli import cli
from dealer_assist.vision.backends.fake_backend import FakeDetector
from dealer_assist.vision.detections import Detections
from dealer_assist.vision.detector import MODELS_DIR, read_image, write_image


@pytest.fixture
def frame(tmp_path: Path) -> Path:
    path = tmp_path / "frame.png"
    write_image(path, np.full((72, 128, 3), 40, np.uint8))
    return path


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> None:
    dets = Detections.from_labels(["Ah", "back", "button"], [[10, 10, 20, 24], [40, 30, 60, 60], [90, 50, 100, 60]],
                                  [0.97, 0.9, 0.8])

    def make(backend: str, model: Any = None, **_: Any) -> FakeDetector:
        return FakeDetector(dets)

    monkeypatch.setattr("dealer_assist.cli.detect.make_detector", make)


def test_json_shape(frame: Path, fake: None) -> None:
    result = CliRunner().invoke(cli, ["detect", str(frame), "--json"])
    assert result.exit_code == 0, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1
    record = json.loads(lines[0])
    assert record["image"] == str(frame) and (record["width"], record["height"]) == (128, 72)
    objs = record["objects"]
    assert objs[0] == {"card": "Ah", "confidence": 0.97,
                       "polygon": [[10.0, 10.0], [20.0, 10.0], [20.0, 24.0], [10.0, 24.0]]}
    assert objs[1]["card"] == "back"
    assert objs[2]["button"] is True and "card" not in objs[2]


def test_json_one_line_per_image(frame: Path, fake: None, tmp_path: Path) -> None:
    second = tmp_path / "second.png"
    write_image(second, np.zeros((30, 40, 3), np.uint8))
    result = CliRunner().invoke(cli, ["detect", str(frame), str(second), "--json"])
    assert result.exit_code == 0
    assert [json.loads(line)["image"] for line in result.output.strip().splitlines()] == [str(frame), str(second)]


def test_draw_writes_a_labelled_image(frame: Path, fake: None, tmp_path: Path) -> None:
    out = tmp_path / "drawn.png"
    result = CliRunner().invoke(cli, ["detect", str(frame), "--draw", str(out)])
    assert result.exit_code == 0, result.output
    assert "1 face up (Ah), 1 backs, button found" in result.output
    drawn = read_image(out)
    assert drawn.shape == (72, 128, 3) and not np.array_equal(drawn, read_image(frame))


def test_bad_paths_are_one_line_errors(tmp_path: Path, fake: None) -> None:
    runner = CliRunner()
    result = runner.invoke(cli, ["detect", str(tmp_path / "missing.jpg")])
    assert result.exit_code == 2
    assert result.output.strip().count("\n") == 0 and "no such image" in result.output
    junk = tmp_path / "junk.jpg"
    junk.write_text("not a picture")
    result = runner.invoke(cli, ["detect", str(junk), "--json"])
    assert result.exit_code == 2 and "cannot read" in result.output and "Traceback" not in result.output
    result = runner.invoke(cli, ["detect"])
    assert result.exit_code == 2 and "no images given" in result.output


def test_bad_model_is_a_one_line_error(frame: Path, tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["detect", str(frame), "--model", str(tmp_path / "none.json")])
    assert result.exit_code == 2 and "no model at" in result.output


@pytest.mark.skipif(not (MODELS_DIR / "cards.json").is_file(), reason="no shipped model")
def test_shipped_model_on_a_plain_frame(frame: Path) -> None:
    result = CliRunner().invoke(cli, ["detect", str(frame), "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["objects"] == []
