"""Review mode: browse the hand log with filters, step through a hand, verify the log, export a hand."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QComboBox,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSpinBox,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from dealer_assist.app import theme
from dealer_assist.app.models.review import Filters, ReviewModel, summary_line
from dealer_assist.audit.records import FlagKind

KIND_COLOURS = {
    "header": theme.MUTED, "event": theme.TEXT, "action": theme.BLUE, "flag": theme.RED,
    "correction": theme.GOLD, "award": theme.GOLD, "end": theme.ACCENT,
}


class ReviewView(QWidget):
    """Filters across the top; hands on the left; the chosen hand's timeline on the right."""

    def __init__(self, model: ReviewModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = model
        root = QVBoxLayout(self)
        root.setContentsMargins(12, 12, 12, 12)
        bar = QHBoxLayout()
        self.table = QLineEdit()
        self.table.setPlaceholderText("table")
        self.date = QLineEdit()
        self.date.setPlaceholderText("YYYY-MM-DD")
        self.dealer = QLineEdit()
        self.dealer.setPlaceholderText("dealer")
        self.seat = QSpinBox()
        self.seat.setRange(0, 10)
        self.seat.setSpecialValueText("any seat")
        self.flag = QComboBox()
        self.flag.addItem("any flag", "")
        for kind in FlagKind:
            self.flag.addItem(kind.value.replace("_", " "), kind.value)
        for edit in (self.table, self.date, self.dealer):
            edit.setMaximumWidth(200)
            edit.returnPressed.connect(self.search)
        self.search_button = QPushButton("Search")
        self.search_button.clicked.connect(self.search)
        self.verify_button = QPushButton("Verify log")
        self.verify_button.setToolTip("check the hash chain: any row edited, inserted or deleted is reported")
        self.verify_button.clicked.connect(self.verify)
        self.export_button = QPushButton("Export hand…")
        self.export_button.clicked.connect(self.export_dialog)
        for widget in (QLabel("Filter"), self.table, self.date, self.dealer, self.seat, self.flag,
                       self.search_button):
            bar.addWidget(widget)
        bar.addStretch(1)
        bar.addWidget(self.verify_button)
        bar.addWidget(self.export_button)
        root.addLayout(bar)
        self.status = QLabel("")
        self.status.setWordWrap(True)
        root.addWidget(self.status)
        split = QSplitter()
        self.hands = QListWidget()
        self.hands.setWordWrap(True)
        self.hands.setSpacing(3)
        self.hands.currentRowChanged.connect(self._open_current)
        self.timeline = QListWidget()
        self.timeline.setWordWrap(True)
        split.addWidget(self.hands)
        split.addWidget(self.timeline)
        split.setSizes([480, 1100])
        root.addWidget(split, 1)
        self._hand_ids: list[int] = []

    def filters(self) -> Filters:
        return Filters(self.table.text().strip(), self.date.text().strip(), self.dealer.text().strip(),
                       self.seat.value() or None, str(self.flag.currentData() or ""))

    def search(self) -> None:
        self.model.reload()  # see hands recorded since the last search
        found = self.model.hands(self.filters())
        self.hands.blockSignals(True)
        self.hands.clear()
        self._hand_ids = []
        for hand in reversed(found):  # newest first
            item = QListWidgetItem(summary_line(hand))
            if hand.flags:
                item.setForeground(QColor(theme.GOLD))
            self.hands.addItem(item)
            self._hand_ids.append(hand.id)
        self.hands.blockSignals(False)
        self.timeline.clear()
        if self.model.problem:
            self._say(self.model.problem, theme.GOLD)
        else:
            self._say(f"{len(found)} hand{'s' if len(found) != 1 else ''} found", theme.MUTED)
        if self._hand_ids:
            self.hands.setCurrentRow(0)

    def current_hand(self) -> int | None:
        row = self.hands.currentRow()
        return self._hand_ids[row] if 0 <= row < len(self._hand_ids) else None

    def _open_current(self, _row: int) -> None:
        hand_id = self.current_hand()
        self.timeline.clear()
        if hand_id is None:
            return
        for line in self.model.timeline(hand_id):
            item = QListWidgetItem(line.text)
            item.setForeground(QColor(KIND_COLOURS.get(line.kind, theme.TEXT)))
            item.setData(Qt.ItemDataRole.UserRole, line.kind)
            self.timeline.addItem(item)

    def timeline_texts(self) -> list[str]:
        return [self.timeline.item(i).text() for i in range(self.timeline.count())]

    def verify(self) -> bool:
        ok, text = self.model.verify()
        self._say(text, theme.ACCENT if ok else theme.RED)
        return ok

    def export_to(self, path: Path) -> Path | None:
        hand_id = self.current_hand()
        if hand_id is None:
            self._say("Choose a hand to export first.", theme.GOLD)
            return None
        path.write_text(self.model.export_json(hand_id), encoding="utf-8")
        self._say(f"Hand {hand_id} exported to {path}", theme.ACCENT)
        return path

    def export_dialog(self) -> None:
        hand_id = self.current_hand()
        if hand_id is None:
            self._say("Choose a hand to export first.", theme.GOLD)
            return
        name, _ = QFileDialog.getSaveFileName(self, "Export hand", f"hand-{hand_id}.json", "JSON (*.json)")
        if name:
            self.export_to(Path(name))

    def _say(self, text: str, colour: str) -> None:
        self.status.setText(text)
        self.status.setStyleSheet(f"color: {colour}; font-weight: 600;")
