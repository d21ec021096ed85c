"""Shared test setup. Qt runs offscreen (no display needed); the app's fixtures live in tests/test_app_*.py."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
