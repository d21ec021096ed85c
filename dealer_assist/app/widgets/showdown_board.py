"""The showdown board: each pot, its winners, split amounts, the odd chip and its rule, in words."""

from __future__ import annotations

from PySide6.QtWidgets import QFrame, QLabel, QScrollArea, QVBoxLayout, QWidget

from dealer_assist.app.models.showdown import board
from dealer_assist.rules.awards import Award, chips


class ShowdownBoard(QScrollArea):
    """Shows an Award; `set_award(None)` clears it. `text()` is what the board reads out."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.award: Award | None = None
        self.setWidgetResizable(True)
        self.inner = QWidget()
        self.layout_ = QVBoxLayout(self.inner)
        self.layout_.setContentsMargins(4, 4, 4, 4)
        self.layout_.setSpacing(10)
        self.setWidget(self.inner)
        self._labels: list[QLabel] = []
        self.set_award(None)

    def _clear(self) -> None:
        while self.layout_.count():
            item = self.layout_.takeAt(0)
            widget = item.widget() if item is not None else None
            if widget is not None:
                widget.setParent(None)
                widget.deleteLater()
        self._labels = []

    def _label(self, text: str, kind: str = "", parent_layout: QVBoxLayout | None = None) -> QLabel:
        label = QLabel(text)
        label.setWordWrap(True)
        if kind:
            label.setObjectName(kind)  # styled by the theme's rules: no per-label style sheet to parse
        (parent_layout or self.layout_).addWidget(label)
        self._labels.append(label)
        return label

    def set_award(self, award: Award | None, provisional: str | None = None) -> None:
        """Show `award`; `provisional` (why the award waits on the floor) heads the board in red."""
        self.award = award  # what the board shows
        self._clear()
        if award is None:
            self._label("Showdown: no award yet", "boardNote")
            self.layout_.addStretch(1)
            return
        if provisional:
            self._label(provisional[0].upper() + provisional[1:], "boardProvisional")
        pots, closing = board(award)
        for pot in pots:
            frame = QFrame()
            frame.setObjectName("panel")
            box = QVBoxLayout(frame)
            box.setContentsMargins(14, 10, 14, 12)
            self._label(pot.title, "boardTitle", box)
            for line in pot.lines:
                part = f" · {line.portion}" if line.portion else ""
                text = f"Seat {line.seat}{part}: {chips(line.amount)} — {line.hand}"
                self._label(text, "boardLine", box)
                if line.odd_chip:
                    self._label(f"   {line.odd_chip}", "boardOdd", box)
            for sentence in pot.sentences:
                self._label(sentence, "boardNote", box)
            self.layout_.addWidget(frame)
        for closing_line in closing:
            self._label(closing_line, "boardTotal")
        self.layout_.addStretch(1)

    def text(self) -> str:
        return "\n".join(label.text() for label in self._labels)
