"""`dealer-assist train --continue-from`: which weights it starts from, and a clear error without any."""

from __future__ import annotations

from pathlib import Path

import click
import pytest

from dealer_assist.cli.train import continue_settings


def test_continue_from_a_folder_with_both_models(tmp_path: Path) -> None:
    (tmp_path / "cards-detector.pt").write_bytes(b"x")
    (tmp_path / "cards-classifier.pt").write_bytes(b"x")
    extra = continue_settings(tmp_path)
    assert extra["detector_init"] == str(tmp_path / "cards-detector.pt")
    assert extra["classifier_init"] == str(tmp_path / "cards-classifier.pt")
    assert extra["detector_args"]["warmup_epochs"] == 0.0 and extra["detector_args"]["lr0"] < 0.003


def test_continue_from_only_a_detector(tmp_path: Path) -> None:
    (tmp_path / "cards-detector.pt").write_bytes(b"x")
    assert set(continue_settings(tmp_path)) == {"detector_init", "detector_args"}


def test_continue_from_an_empty_folder_is_one_clear_error(tmp_path: Path) -> None:
    with pytest.raises(click.BadParameter, match=r"neither cards-detector\.pt nor cards-classifier\.pt"):
        continue_settings(tmp_path)
