"""Over the video: each detected card outlined and labelled (face up: its name; face down: "back"), the
button, each flag marked on the seat where it happened, and a caption saying where detections come from."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPen, QPolygonF

from dealer_assist.app import theme
from dealer_assist.app.models.flags import FlagListModel
from dealer_assist.vision.calibration import CameraCalibration
from dealer_assist.vision.detections import BACK_ID, BUTTON_ID, Detections, class_id_to_label
from dealer_assist.vision.frames import Frame
from dealer_assist.vision.table_profile import TableProfile

SEVERITY_COLOURS = {"error": theme.RED, "warning": theme.GOLD, "info": theme.BLUE}


class DetectionsOverlay:
    """Callable overlay for FrameView: draws `frame.detections` (a SimFrame's) and the flags' seats."""

    def __init__(self, flags: FlagListModel | None = None, profile: TableProfile | None = None,
                 calibration: CameraCalibration | None = None, caption: str = "") -> None:
        self.flags = flags
        self.profile = profile
        self.calibration = calibration
        self.caption = caption

    def __call__(self, p: QPainter, target: QRectF, frame: Frame) -> None:
        h, w = frame.image.shape[:2]
        sx, sy = target.width() / w, target.height() / h

        def pt(x: float, y: float) -> QPointF:
            return QPointF(target.left() + x * sx, target.top() + y * sy)

        p.save()
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        detections: Detections | None = getattr(frame, "detections", None)
        font = QFont(p.font())
        font.setPointSize(10)
        font.setBold(True)
        p.setFont(font)
        if detections is not None and len(detections):
            for poly, cid in zip(detections.polygons, detections.class_id, strict=True):
                cid = int(cid)
                if cid == BUTTON_ID:
                    colour = QColor("#fafafa")
                elif cid == BACK_ID:
                    colour = QColor(theme.BLUE)
                else:
                    colour = QColor(theme.GOLD)
                p.setPen(QPen(colour, 1.5))
                p.setBrush(Qt.BrushStyle.NoBrush)
                p.drawPolygon(QPolygonF([pt(float(x), float(y)) for x, y in poly]))
                if cid in (BACK_ID, BUTTON_ID):  # backs are counted on the seat; the button is drawn as D
                    continue
                label = class_id_to_label(cid)
                x0, y0 = float(np.min(poly[:, 0])), float(np.min(poly[:, 1]))
                anchor = pt(x0, y0)
                box = QRectF(anchor.x(), anchor.y() - 18, 8 + 9 * len(label), 17)
                p.fillRect(box, QColor(0, 0, 0, 190))
                p.setPen(colour)
                p.drawText(box, Qt.AlignmentFlag.AlignCenter, label)
        self._draw_flags(p, pt)
        if self.caption:
            font.setPointSize(11)
            font.setBold(False)
            p.setFont(font)
            box = QRectF(target.left() + 8, target.bottom() - 30, min(target.width() - 16, 8.5 * len(self.caption)),
                         24)
            p.fillRect(box, QColor(0, 0, 0, 170))
            p.setPen(QColor(theme.TEXT))
            p.drawText(box, Qt.AlignmentFlag.AlignCenter, self.caption)
        p.restore()

    def _draw_flags(self, p: QPainter, pt: object) -> None:
        if self.flags is None or self.profile is None or self.calibration is None:
            return
        seats = {s.number: s for s in self.profile.seats}
        marked: dict[int, int] = {}
        for entry in self.flags.entries:
            flag = entry.flag
            if flag.seat is None or flag.seat not in seats:
                continue
            k = marked.get(flag.seat, 0)
            marked[flag.seat] = k + 1
            (x, y), = self.calibration.to_image([seats[flag.seat].card_spot])
            centre = pt(float(x), float(y))  # type: ignore[operator]
            colour = QColor(SEVERITY_COLOURS.get(str(flag.severity.value), theme.RED))
            p.setPen(QPen(colour, 4))
            p.setBrush(Qt.BrushStyle.NoBrush)
            p.drawEllipse(centre, 46 + 8 * k, 46 + 8 * k)
            text = f"⚑ {flag.kind.value.replace('_', ' ')}"
            box = QRectF(centre.x() - 110, centre.y() + 50 + 22 * k, 220, 20)
            p.fillRect(box, QColor(0, 0, 0, 200))
            p.setPen(colour)
            p.drawText(box, Qt.AlignmentFlag.AlignCenter, text)
