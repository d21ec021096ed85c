"""Calibration mode: the wizard on a live frame (click 4 rail marks or detect ArUco, check, save)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from dealer_assist.app import theme
from dealer_assist.app.models.calibration import STEPS, CalibrationWizard, profiles
from dealer_assist.app.models.capture import LatestFrame
from dealer_assist.app.widgets.image_canvas import ImageCanvas


class CalibrationView(QWidget):
    """Steps on the left, the frame (with clicks, then the overlay) on the right."""

    def __init__(self, slot: LatestFrame | None, profile: str = "", on_saved: Callable[[str, Path], None] | None = None,
                 save_dir: Path | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.slot = slot
        self.save_dir = save_dir  # None: beside the profile, where `dealer-assist calibrate` writes
        self.on_saved = on_saved
        names = profiles()
        self.wizard = CalibrationWizard(profile if profile in names else (names[0] if names else None))
        root = QHBoxLayout(self)
        root.setContentsMargins(12, 12, 12, 12)
        side = QVBoxLayout()
        title = QLabel("Calibration")
        title.setObjectName("title")
        side.addWidget(title)
        for step in STEPS:
            label = QLabel(step)
            label.setObjectName("muted")
            label.setWordWrap(True)
            side.addWidget(label)
        self.grab_button = QPushButton("Grab frame")
        self.grab_button.clicked.connect(self.grab_frame)
        self.profile = QComboBox()
        self.profile.addItems(names)
        if self.wizard.profile is not None:
            self.profile.setCurrentText(self.wizard.profile.name)
        self.profile.currentTextChanged.connect(self._profile_changed)
        self.aruco_button = QPushButton("Detect ArUco")
        self.aruco_button.clicked.connect(self.detect_aruco)
        self.undo_button = QPushButton("Undo point")
        self.undo_button.clicked.connect(self.undo)
        self.save_button = QPushButton("Save calibration")
        self.save_button.clicked.connect(self.save)
        for widget in (self.grab_button, self.profile, self.aruco_button, self.undo_button, self.save_button):
            widget.setMinimumHeight(48)
            side.addWidget(widget)
        self.message = QLabel("")
        self.message.setWordWrap(True)
        self.message.setMinimumHeight(90)
        side.addWidget(self.message)
        side.addStretch(1)
        holder = QWidget()
        holder.setLayout(side)
        holder.setMaximumWidth(420)
        root.addWidget(holder)
        self.canvas = ImageCanvas()
        self.canvas.message = "Grab a frame from the camera to start"
        self.canvas.on_click = self.click
        self.canvas.on_press = self.press
        self.canvas.on_drag = self.drag
        self.canvas.on_release = self.release
        root.addWidget(self.canvas, 1)
        self.refresh()

    def grab_frame(self) -> bool:
        frame = self.slot.peek() if self.slot is not None else None
        if frame is None:
            self.wizard.message = "No frame from the camera yet: check the source in Settings."
            self.refresh()
            return False
        self.wizard.set_frame(frame.image.copy())
        self.refresh()
        return True

    def _profile_changed(self, name: str) -> None:
        self.wizard.set_profile(name)
        self.refresh()

    def click(self, x: float, y: float) -> None:
        self.wizard.click(x, y)
        self.refresh()

    def press(self, x: float, y: float) -> bool:
        """Once calibrated, pressing on a seat zone starts dragging it."""
        started = self.wizard.begin_drag(x, y) is not None
        if started:
            self.refresh()
        return started

    def drag(self, x: float, y: float) -> None:
        self.wizard.drag_to(x, y)
        self.refresh()

    def release(self) -> None:
        self.wizard.end_drag()
        self.refresh()

    def undo(self) -> None:
        self.wizard.undo()
        self.refresh()

    def detect_aruco(self) -> None:
        self.wizard.detect_aruco()
        self.refresh()

    def save(self) -> Path | None:
        target = None
        if self.save_dir is not None and self.wizard.profile is not None:
            target = self.save_dir / f"{self.wizard.profile.name}.camera.toml"
        path = self.wizard.save(target)
        if path is not None and self.on_saved is not None and self.wizard.profile is not None:
            self.on_saved(self.wizard.profile.name, path)
        self.refresh()
        return path

    def refresh(self) -> None:
        w = self.wizard
        self.canvas.set_image(w.overlay())
        self.canvas.points = [] if w.calibration is not None else list(w.clicks)
        self.canvas.update()
        self.undo_button.setEnabled(bool(w.clicks) or w.calibration is not None)
        self.save_button.setEnabled(w.calibration is not None)
        self.save_button.setToolTip("" if w.calibration is not None else "calibrate first (4 marks or ArUco)")
        self.aruco_button.setEnabled(w.frame is not None and w.profile is not None)
        colour = theme.RED if any(k in w.message for k in ("Cannot", "Could not", "ArUco:", "need", "line")) \
            else (theme.ACCENT if w.saved_to or w.calibration else theme.TEXT)
        self.message.setText(w.message)
        self.message.setStyleSheet(f"color: {colour}; font-weight: 600;")
