"""A still image scaled to fit, with clicks reported in image pixels and the clicked points drawn."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import numpy.typing as npt
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QImage, QMouseEvent, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import QSizePolicy, QWidget

from dealer_assist.app import theme


class ImageCanvas(QWidget):
    """`on_click(x, y)` gets image coordinates; `points` are drawn numbered over the image."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.array: npt.NDArray[np.uint8] | None = None
        self.image: QImage | None = None
        self.points: list[tuple[float, float]] = []
        self.on_click: Callable[[float, float], None] | None = None
        # Dragging: `on_press` returns True when a drag starts there (then `on_drag`, `on_release` follow).
        self.on_press: Callable[[float, float], bool] | None = None
        self.on_drag: Callable[[float, float], None] | None = None
        self.on_release: Callable[[], None] | None = None
        self._dragging = False
        self.message = "No frame yet"
        self.setMinimumSize(480, 270)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setCursor(Qt.CursorShape.CrossCursor)

    def set_image(self, array: npt.NDArray[np.uint8] | None) -> None:
        if array is None:
            self.array, self.image = None, None
        else:
            self.array = np.ascontiguousarray(array)
            h, w = self.array.shape[:2]
            self.image = QImage(self.array.data, w, h, self.array.strides[0], QImage.Format.Format_BGR888)
        self.update()

    def target_rect(self) -> QRectF:
        if self.image is None:
            return QRectF(self.rect())
        iw, ih = self.image.width(), self.image.height()
        scale = min(self.width() / iw, self.height() / ih)
        return QRectF((self.width() - iw * scale) / 2, (self.height() - ih * scale) / 2, iw * scale, ih * scale)

    def to_image(self, pos: QPointF) -> tuple[float, float] | None:
        if self.image is None:
            return None
        r = self.target_rect()
        if not r.contains(pos):
            return None
        scale = r.width() / self.image.width()
        return (pos.x() - r.left()) / scale, (pos.y() - r.top()) / scale

    def to_widget(self, x: float, y: float) -> QPointF:
        r = self.target_rect()
        scale = r.width() / self.image.width() if self.image is not None else 1.0
        return QPointF(r.left() + x * scale, r.top() + y * scale)

    def mousePressEvent(self, event: QMouseEvent) -> None:
        point = self.to_image(event.position())
        if point is None:
            return
        if self.on_press is not None and self.on_press(*point):
            self._dragging = True
            self.setCursor(Qt.CursorShape.ClosedHandCursor)
            return
        if self.on_click is not None:
            self.on_click(*point)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        if not self._dragging or self.image is None:
            return
        r = self.target_rect()
        scale = r.width() / self.image.width()
        pos = event.position()
        if self.on_drag is not None:
            self.on_drag((pos.x() - r.left()) / scale, (pos.y() - r.top()) / scale)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        if self._dragging:
            self._dragging = False
            self.setCursor(Qt.CursorShape.CrossCursor)
            if self.on_release is not None:
                self.on_release()

    def paintEvent(self, event: QPaintEvent) -> None:
        p = QPainter(self)
        p.fillRect(self.rect(), QColor("#0a0f0c"))
        if self.image is None:
            p.setPen(QColor(theme.MUTED))
            p.drawText(self.rect(), Qt.AlignmentFlag.AlignCenter, self.message)
            p.end()
            return
        p.drawImage(self.target_rect(), self.image)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        for i, (x, y) in enumerate(self.points, start=1):
            c = self.to_widget(x, y)
            p.setPen(QPen(QColor(theme.GOLD), 3))
            p.drawEllipse(c, 9, 9)
            p.drawLine(QPointF(c.x() - 14, c.y()), QPointF(c.x() + 14, c.y()))
            p.drawLine(QPointF(c.x(), c.y() - 14), QPointF(c.x(), c.y() + 14))
            p.drawText(QPointF(c.x() + 12, c.y() - 12), str(i))
        p.end()
