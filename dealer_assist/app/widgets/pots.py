"""Main and side pots as they build, from the seats' contributions."""

from __future__ import annotations

from PySide6.QtWidgets import QFrame, QLabel, QVBoxLayout, QWidget

from dealer_assist.app.models.table import PotRow, TableModel


class PotsDisplay(QFrame):
    """A big total and one line per pot with its eligible seats; follows a TableModel if given."""

    def __init__(self, model: TableModel | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("panel")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(14, 10, 14, 12)
        head = QLabel("Pots")
        head.setObjectName("muted")
        layout.addWidget(head)
        self.total = QLabel("0")
        self.total.setObjectName("huge")
        layout.addWidget(self.total)
        self.lines_box = QVBoxLayout()
        layout.addLayout(self.lines_box)
        layout.addStretch(1)
        self.lines: list[QLabel] = []
        self._labels: list[QLabel] = []
        self.model = model
        if model is not None:
            model.pots_changed.connect(self.refresh_from_model)
            self.refresh_from_model()

    def refresh_from_model(self) -> None:
        assert self.model is not None
        rows, returned = self.model.pots()
        self.set_pots(rows, returned)

    def set_pots(self, rows: tuple[PotRow, ...], returned: dict[int, int] | None = None) -> None:
        self.total.setText(f"{sum(r.amount for r in rows) + sum((returned or {}).values()):,}")
        texts = []
        for row in rows:
            seats = ", ".join(str(s) for s in row.eligible) or "—"
            texts.append(f"{row.name}: {row.amount:,}   (seats {seats})")
        for seat, amount in sorted((returned or {}).items()):
            texts.append(f"Not called: {amount:,} from seat {seat} (returned if no one calls)")
        if not texts:
            texts.append("No chips in yet")
        while len(self._labels) < len(texts):
            label = QLabel()
            label.setWordWrap(True)
            self.lines_box.addWidget(label)
            self._labels.append(label)
        for i, label in enumerate(self._labels):
            if i < len(texts):
                if label.text() != texts[i]:
                    label.setText(texts[i])
                label.setVisible(True)
            else:
                label.setVisible(False)  # kept for reuse
        self.lines = self._labels[: len(texts)]
