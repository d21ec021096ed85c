"""Scores over time, drawn with QPainter (no chart library)."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPainterPath, QPaintEvent, QPen
from PySide6.QtWidgets import QSizePolicy, QWidget

from dealer_assist.app import theme


class ScoreChart(QWidget):
    """Percent correct per drill, oldest left; a dashed line for the running average of the last 10."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.values: list[float] = []
        self.title = "Scores over time"
        self.setMinimumSize(320, 200)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)

    def set_values(self, values: Sequence[float], title: str | None = None) -> None:
        self.values = [max(0.0, min(100.0, float(v))) for v in values]
        if title is not None:
            self.title = title
        self.update()

    def rolling(self, window: int = 10) -> list[float]:
        out = []
        for i in range(len(self.values)):
            chunk = self.values[max(0, i - window + 1) : i + 1]
            out.append(sum(chunk) / len(chunk))
        return out

    def paintEvent(self, event: QPaintEvent) -> None:
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        p.fillRect(self.rect(), QColor(theme.PANEL))
        fm = p.fontMetrics()
        left, top, right, bottom = fm.horizontalAdvance("100%") + 16, 2 * fm.height() + 18, 14, fm.height() // 2 + 8
        plot = QRectF(left, top, self.width() - left - right, self.height() - top - bottom)
        p.setPen(QColor(theme.MUTED))
        p.drawText(QRectF(left, 4, plot.width(), fm.height() + 4), Qt.AlignmentFlag.AlignLeft, self.title)
        for pct in (0, 50, 100):
            y = plot.bottom() - plot.height() * pct / 100
            p.setPen(QPen(QColor(theme.BORDER), 1))
            p.drawLine(QPointF(plot.left(), y), QPointF(plot.right(), y))
            p.setPen(QColor(theme.MUTED))
            p.drawText(QRectF(0, y - fm.height() / 2, left - 8, fm.height()),
                       Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter, f"{pct}%")
        if not self.values:
            p.setPen(QColor(theme.MUTED))
            p.drawText(plot, Qt.AlignmentFlag.AlignCenter, "No drills yet")
            p.end()
            return
        n = len(self.values)

        def point(i: int, v: float) -> QPointF:
            x = plot.left() + (plot.width() * (i / (n - 1)) if n > 1 else plot.width() / 2)
            return QPointF(x, plot.bottom() - plot.height() * v / 100)

        avg = QPainterPath()
        for i, v in enumerate(self.rolling()):
            avg.lineTo(point(i, v)) if i else avg.moveTo(point(i, v))
        p.setPen(QPen(QColor(theme.GOLD), 2, Qt.PenStyle.DashLine))
        p.drawPath(avg)
        line = QPainterPath()
        for i, v in enumerate(self.values):
            line.lineTo(point(i, v)) if i else line.moveTo(point(i, v))
        p.setPen(QPen(QColor(theme.ACCENT), 3))
        p.drawPath(line)
        p.setBrush(QColor(theme.ACCENT))
        for i, v in enumerate(self.values):
            p.drawEllipse(point(i, v), 4, 4)
        p.setPen(QColor(theme.MUTED))
        caption = f"{n} drill{'s' if n != 1 else ''} · last {self.values[-1]:.0f}% · avg(10) {self.rolling()[-1]:.0f}%"
        p.drawText(QRectF(left, fm.height() + 6, plot.width(), fm.height() + 4), Qt.AlignmentFlag.AlignLeft, caption)
        p.end()
