"""The live view's overlay: table outline, seat zones (the seat to act lit, folded seats dim), the pot area,
and the button, drawn through the table's camera calibration (pymmcore-style: painted on each frame)."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QPainter, QPen, QPolygonF

from dealer_assist.app import theme
from dealer_assist.app.models.calibration import fitted_calibration
from dealer_assist.app.models.table import TableModel
from dealer_assist.vision.calibration import CameraCalibration, default_camera_path
from dealer_assist.vision.frames import Frame
from dealer_assist.vision.table_profile import TableProfile


class TableOverlay:
    """Callable overlay for FrameView; uses the saved calibration if there is one, else fits the table."""

    def __init__(self, profile: TableProfile, table: TableModel, calibration: CameraCalibration | None = None) -> None:
        self.profile = profile
        self.table = table
        self.calibration = calibration
        self._fitted: dict[tuple[int, int], CameraCalibration] = {}
        self._polys: dict[tuple[int, int], dict[str, np.ndarray]] = {}

    @classmethod
    def for_profile(cls, profile: TableProfile, table: TableModel) -> TableOverlay:
        path = default_camera_path(profile)
        calibration = None
        if path.is_file():
            try:
                calibration = CameraCalibration.load(path, profile)
            except Exception:
                calibration = None
        return cls(profile, table, calibration)

    def _calibration(self, size: tuple[int, int]) -> CameraCalibration:
        if self.calibration is not None and tuple(self.calibration.image_size) == size:
            return self.calibration
        if size not in self._fitted:
            self._fitted[size] = fitted_calibration(self.profile, size)
        return self._fitted[size]

    def _image_polys(self, size: tuple[int, int]) -> dict[str, np.ndarray]:
        """Every polygon in image pixels, computed once per frame size."""
        if size not in self._polys:
            cal = self._calibration(size)
            polys = {"outline": cal.to_image(self.profile.outline), "pot": cal.to_image(self.profile.pot)}
            for seat in self.profile.seats:
                polys[f"seat{seat.number}"] = cal.to_image(seat.zone)
                polys[f"spot{seat.number}"] = cal.to_image([seat.card_spot])
                polys[f"button{seat.number}"] = cal.to_image([seat.button_spot])
            self._polys[size] = polys
        return self._polys[size]

    def __call__(self, p: QPainter, target: QRectF, frame: Frame) -> None:
        h, w = frame.image.shape[:2]
        polys = self._image_polys((w, h))
        sx, sy = target.width() / w, target.height() / h

        def poly(points: np.ndarray) -> QPolygonF:
            return QPolygonF([QPointF(target.left() + x * sx, target.top() + y * sy) for x, y in points])

        p.save()
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.setPen(QPen(QColor(255, 255, 255, 150), 2))
        p.drawPolygon(poly(polys["outline"]))
        p.setPen(QPen(QColor(theme.GOLD), 2, Qt.PenStyle.DashLine))
        p.drawPolygon(poly(polys["pot"]))
        actor = self.table.prompt.actor
        states = {s.seat: s for s in self.table.seats}
        font = p.font()
        font.setPointSize(16)
        font.setBold(True)
        p.setFont(font)
        for seat in self.profile.seats:
            state = states.get(seat.number)
            if state is None:
                colour, fill = QColor(120, 120, 120, 120), QColor(0, 0, 0, 0)
            elif seat.number == actor:
                colour, fill = QColor(theme.ACCENT), QColor(76, 195, 138, 70)
            elif state.status == "folded":
                colour, fill = QColor(110, 110, 110, 160), QColor(0, 0, 0, 90)
            elif state.status == "all-in":
                colour, fill = QColor(theme.GOLD), QColor(242, 193, 78, 50)
            else:
                colour, fill = QColor(theme.BLUE), QColor(0, 0, 0, 0)
            p.setPen(QPen(colour, 3 if seat.number == actor else 2))
            p.setBrush(QBrush(fill))
            p.drawPolygon(poly(polys[f"seat{seat.number}"]))
            (x, y), = polys[f"spot{seat.number}"]
            centre = QPointF(target.left() + x * sx, target.top() + y * sy)
            label = str(seat.number) if state is None or not state.cards else f"{seat.number}·{len(state.cards)}"
            p.setPen(QColor(theme.TEXT))
            p.drawText(QRectF(centre.x() - 40, centre.y() - 14, 80, 28), Qt.AlignmentFlag.AlignCenter, label)
        button = self.table.button
        if button is not None and 1 <= button <= len(self.profile.seats):
            (x, y), = polys[f"button{button}"]
            centre = QPointF(target.left() + x * sx, target.top() + y * sy)
            p.setPen(QPen(QColor("#111111"), 2))
            p.setBrush(QColor("#fafafa"))
            p.drawEllipse(centre, 12, 12)
            font.setPointSize(9)
            p.setFont(font)
            p.drawText(QRectF(centre.x() - 12, centre.y() - 12, 24, 24), Qt.AlignmentFlag.AlignCenter, "D")
        p.restore()
