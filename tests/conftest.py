"""Shared test setup. Qt runs offscreen (no display needed); the app's fixtures live in tests/test_app_*.py."""

from __future__ import annotations

import os
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

# The app tests save a screenshot of each mode here for a person to look at; it is git-ignored, so a
# fresh clone has to make it.
(Path(__file__).resolve().parent / "_screenshots").mkdir(exist_ok=True)
