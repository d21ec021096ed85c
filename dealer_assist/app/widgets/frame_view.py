"""The video view: polls the latest frame on a QTimer (pymmcore-widgets pattern); never waits on capture."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from PySide6.QtCore import QRectF, Qt, QTimer
from PySide6.QtGui import QColor, QImage, QPainter, QPaintEvent
from PySide6.QtWidgets import QSizePolicy, QWidget

from dealer_assist.app import theme
from dealer_assist.app.models.capture import LatestFrame, colour_image
from dealer_assist.vision.frames import Frame

Overlay = Callable[[QPainter, QRectF, Frame], None]


class FrameView(QWidget):
    """Draws the newest frame from a LatestFrame, scaled to fit, then any overlays (table, seats, cards)."""

    def __init__(self, slot: LatestFrame | None = None, interval_ms: int = 15, parent: QWidget | None = None):
        super().__init__(parent)
        self.slot = slot
        self.image: QImage | None = None
        self.frame: Frame | None = None
        self.overlays: list[Overlay] = []
        self.message = "No video source"
        self.shown = 0
        self.setMinimumSize(320, 180)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.timer = QTimer(self)
        self.timer.setInterval(interval_ms)
        self.timer.timeout.connect(self.poll)
        if slot is not None:
            self.timer.start()

    def set_slot(self, slot: LatestFrame | None) -> None:
        self.slot = slot
        if slot is None:
            self.timer.stop()
        else:
            self.timer.start()

    def poll(self) -> None:
        if self.slot is None:
            return
        frame = self.slot.take_new()
        if frame is None:
            return
        img = frame.image
        if not colour_image(img):  # QImage would read past a grey or truncated buffer: keep the last good frame
            return
        if not img.flags.c_contiguous:
            img = np.ascontiguousarray(img)
            frame = Frame(img, frame.t, frame.index)
        h, w = img.shape[:2]
        # The QImage borrows the numpy buffer; keep the frame referenced while it is drawn.
        self.frame = frame
        self.image = QImage(img.data, w, h, img.strides[0], QImage.Format.Format_BGR888)
        self.shown += 1
        self.update()

    def target_rect(self) -> QRectF:
        if self.image is None:
            return QRectF(self.rect())
        iw, ih = self.image.width(), self.image.height()
        scale = min(self.width() / iw, self.height() / ih)
        w, h = iw * scale, ih * scale
        return QRectF((self.width() - w) / 2, (self.height() - h) / 2, w, h)

    def paintEvent(self, event: QPaintEvent) -> None:
        p = QPainter(self)
        p.fillRect(self.rect(), QColor("#0a0f0c"))
        if self.image is None or self.frame is None:
            p.setPen(QColor(theme.MUTED))
            p.drawText(self.rect(), Qt.AlignmentFlag.AlignCenter, self.message)
            p.end()
            return
        target = self.target_rect()
        p.drawImage(target, self.image)
        for overlay in self.overlays:
            overlay(p, target, self.frame)
        p.end()
