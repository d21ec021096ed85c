"""Calibration: a container that the calibration wizard slots into."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFrame, QLabel, QVBoxLayout, QWidget


class ModeContainer(QWidget):
    """A titled view with a body; `set_body(widget)` replaces the body when the real content lands."""

    def __init__(self, title: str, lines: list[str], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.layout_ = QVBoxLayout(self)
        self.layout_.setContentsMargins(24, 20, 24, 20)
        heading = QLabel(title)
        heading.setObjectName("title")
        self.layout_.addWidget(heading)
        self.body: QWidget = QFrame()
        self.body.setObjectName("panel")
        inner = QVBoxLayout(self.body)
        inner.setContentsMargins(20, 16, 20, 16)
        for line in lines:
            label = QLabel(line)
            label.setWordWrap(True)
            label.setObjectName("muted")
            inner.addWidget(label)
        inner.addStretch(1)
        self.layout_.addWidget(self.body, 1)
        self.layout_.setAlignment(Qt.AlignmentFlag.AlignTop)

    def set_body(self, widget: QWidget) -> None:
        self.layout_.replaceWidget(self.body, widget)
        self.body.setParent(None)
        self.body.deleteLater()
        self.body = widget


def calibration_view() -> ModeContainer:
    return ModeContainer(
        "Calibration",
        [
            "1. Show the table to the camera.  2. Click the 4 table corners or detect the ArUco markers.",
            "3. Pick the table profile.  4. Drag the seat zones to fit.  5. Check the overlay and save.",
            "The calibration wizard is not connected yet in this build.",
        ],
    )
