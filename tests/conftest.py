"""Shared test setup. Qt runs offscreen (no display needed); the app's fixtures live in tests/test_app_*.py, but for
the folders every window test points the app at (`app_dirs`)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

# The app tests save a screenshot of each mode here for a person to look at; it is git-ignored, so a
# fresh clone has to make it.
(Path(__file__).resolve().parent / "_screenshots").mkdir(exist_ok=True)


@pytest.fixture
def app_dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The app's settings, data, hand log and crash reports under `tmp_path`, never the user's."""
    monkeypatch.setenv("DEALER_ASSIST_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("DEALER_ASSIST_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("DEALER_ASSIST_LOG", str(tmp_path / "log" / "hand-log.sqlite"))
    monkeypatch.setenv("DEALER_ASSIST_CRASH_DIR", str(tmp_path / "crash"))
    return tmp_path


@pytest.fixture
def procedural_decks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Behave as on a machine without the Debian card-art packages: only the procedural decks can be drawn. The
    designs a scene or video draws from change its bytes, so a test that pins them gives the same on every machine."""
    from dealer_assist.synth import card_art

    monkeypatch.setattr(card_art, "design_available", lambda name: name.removeprefix("back:").startswith("proc-"))
