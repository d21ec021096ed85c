"""Review mode: browse the hand log with filters, step through a hand, verify the log, export a hand."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QPixmap
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QSpinBox,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from dealer_assist.app import theme
from dealer_assist.app.models.review import EXPORT_FORMATS, Filters, ReviewModel, TimelineLine, summary_line
from dealer_assist.app.models.table import SeatState, draws_text
from dealer_assist.audit.records import FlagKind

KIND_COLOURS = {
    "header": theme.MUTED, "event": theme.TEXT, "action": theme.BLUE, "flag": theme.RED,
    "correction": theme.GOLD, "award": theme.GOLD, "end": theme.ACCENT, "snapshot": theme.MUTED,
}


def seat_line(state: SeatState) -> str:
    """One seat at one step, for the review's side panel."""
    cards = " ".join(str(c) if c is not None else "▮" for c in state.cards) or "no cards"
    bet = f" · in pot {state.committed}" if state.committed else ""
    draws = draws_text(state.draws, state.status)
    return f"Seat {state.seat}: {state.status} · stack {state.stack}{bet} · {cards} · {draws}"


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
        self.unawarded = QCheckBox("no award yet")
        self.unawarded.setToolTip("only hands that ended with no award, neither the referee's nor the floor's, and "
                                  "were not voided: the ones the floor still has to settle")
        for edit in (self.table, self.date, self.dealer):
            edit.setMinimumWidth(110)      # legible however many buttons share the bar
            edit.setMaximumWidth(200)
            edit.returnPressed.connect(self.search)
        self.search_button = QPushButton("Search")
        self.search_button.clicked.connect(self.search)
        self.verify_button = QPushButton("Verify log")
        self.verify_button.setToolTip("check the hash chain: any row edited, inserted or deleted is reported")
        self.verify_button.clicked.connect(self.verify)
        self.recheck_button = QPushButton("Recheck hand")
        self.recheck_button.setToolTip("referee the hand again from its recorded events and actions, under its "
                                       "recorded house rules, and compare the flags and award with the record")
        self.recheck_button.clicked.connect(self.recheck)
        self.export_format = QComboBox()
        self.export_format.addItems(list(EXPORT_FORMATS))
        self.export_format.setToolTip("json: every record; csv: one row per record; phh: the hand-history standard")
        self.export_button = QPushButton("Export hand…")
        self.export_button.clicked.connect(self.export_dialog)
        self.floor_button = QPushButton("Floor read…")
        self.floor_button.setToolTip("key in the hands shown and the mucks the camera did not read, after the hand: "
                                     "it is refereed again and awarded as the floor's")
        self.floor_button.clicked.connect(self.floor_dialog)
        for widget in (QLabel("Filter"), self.table, self.date, self.dealer, self.seat, self.flag, self.unawarded,
                       self.search_button):
            bar.addWidget(widget)
        bar.addStretch(1)
        root.addLayout(bar)
        actions = QHBoxLayout()          # a row of its own: the window fits a 1280-pixel-wide screen
        actions.addStretch(1)
        for widget in (self.floor_button, self.verify_button, self.recheck_button, self.export_format,
                       self.export_button):
            actions.addWidget(widget)
        root.addLayout(actions)
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
        self.timeline.currentRowChanged.connect(self._show_step)
        step = QWidget()
        step_layout = QVBoxLayout(step)
        step_layout.setContentsMargins(0, 0, 0, 0)
        nav = QHBoxLayout()
        self.prev_button = QPushButton("◀ Previous")
        self.prev_button.clicked.connect(lambda: self.step(-1))
        self.next_button = QPushButton("Next ▶")
        self.next_button.clicked.connect(lambda: self.step(1))
        self.step_label = QLabel("")
        self.step_label.setObjectName("muted")
        nav.addWidget(self.prev_button)
        nav.addWidget(self.next_button)
        nav.addWidget(self.step_label, 1)
        step_layout.addLayout(nav)
        self.key_frame = QLabel("No key frame yet")
        self.key_frame.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.key_frame.setMinimumSize(320, 180)
        self.key_frame.setStyleSheet("background: #0a0f0c; border-radius: 8px;")
        step_layout.addWidget(self.key_frame, 3)
        self.seat_states = QLabel("")
        self.seat_states.setWordWrap(True)
        self.seat_states.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.seat_states.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        step_layout.addWidget(self.seat_states, 2)
        split.addWidget(self.hands)
        split.addWidget(self.timeline)
        split.addWidget(step)
        split.setSizes([340, 700, 560])
        root.addWidget(split, 1)
        self._hand_ids: list[int] = []
        self._lines: list[TimelineLine] = []
        self._frame_sha: str | None = None

    def filters(self) -> Filters:
        return Filters(self.table.text().strip(), self.date.text().strip(), self.dealer.text().strip(),
                       self.seat.value() or None, str(self.flag.currentData() or ""), self.unawarded.isChecked())

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
        self._lines = []
        if hand_id is None:
            return
        self._lines = self.model.timeline(hand_id)
        self.timeline.blockSignals(True)
        for line in self._lines:
            item = QListWidgetItem(line.text)
            item.setForeground(QColor(KIND_COLOURS.get(line.kind, theme.TEXT)))
            item.setData(Qt.ItemDataRole.UserRole, line.kind)
            self.timeline.addItem(item)
        self.timeline.blockSignals(False)
        self.timeline.setCurrentRow(0)
        self._show_step(0)

    def step(self, delta: int) -> None:
        """Move through the hand one record at a time (also the list's arrow keys)."""
        if not self._lines:
            return
        row = max(0, min(len(self._lines) - 1, self.timeline.currentRow() + delta))
        self.timeline.setCurrentRow(row)

    def _show_step(self, row: int) -> None:
        if not 0 <= row < len(self._lines):
            return
        line = self._lines[row]
        when = f" · t = {line.t:.2f} s" if line.t is not None else ""
        self.step_label.setText(f"Step {row + 1} of {len(self._lines)}{when}")
        self.seat_states.setText("\n".join(seat_line(s) for s in line.seats) or "Seats: not known at this step")
        self._show_frame(line.snapshot)

    def _show_frame(self, sha: str | None) -> None:
        if sha == self._frame_sha:
            return
        self._frame_sha = sha
        data = self.model.snapshot_bytes(sha) if sha else None
        pixmap = QPixmap()
        if data is None or not pixmap.loadFromData(data, "JPG"):
            self.key_frame.setPixmap(QPixmap())
            self.key_frame.setText("No key frame yet" if sha is None else f"Key frame {sha[:12]}… is missing")
            return
        self.key_frame.setPixmap(pixmap.scaled(self.key_frame.size(), Qt.AspectRatioMode.KeepAspectRatio,
                                               Qt.TransformationMode.SmoothTransformation))

    def shown_key_frame(self) -> str | None:
        """The SHA-256 of the key frame on screen (None when none is)."""
        return self._frame_sha if self.key_frame.pixmap() is not None and not self.key_frame.pixmap().isNull() else None

    def timeline_texts(self) -> list[str]:
        return [self.timeline.item(i).text() for i in range(self.timeline.count())]

    def verify(self) -> bool:
        ok, text = self.model.verify()
        self._say(text, theme.ACCENT if ok else theme.RED)
        return ok

    def recheck(self) -> bool:
        hand_id = self.current_hand()
        if hand_id is None:
            self._say("Choose a hand to recheck first.", theme.GOLD)
            return False
        ok, text = self.model.recheck(hand_id)
        self._say(text, theme.ACCENT if ok else theme.RED)
        return ok

    def export_to(self, path: Path, fmt: str | None = None) -> Path | None:
        hand_id = self.current_hand()
        if hand_id is None:
            self._say("Choose a hand to export first.", theme.GOLD)
            return None
        fmt = fmt or self.export_format.currentText()
        try:
            text = self.model.export(hand_id, fmt)
            path.write_text(text, encoding="utf-8")
        except (OSError, ValueError) as exc:
            self._say(f"Could not export hand {hand_id} as {fmt}: {exc}", theme.RED)
            return None
        self._say(f"Hand {hand_id} exported to {path} ({fmt})", theme.ACCENT)
        return path

    def export_dialog(self) -> None:
        hand_id = self.current_hand()
        if hand_id is None:
            self._say("Choose a hand to export first.", theme.GOLD)
            return
        fmt = self.export_format.currentText()
        name, _ = QFileDialog.getSaveFileName(self, "Export hand", f"hand-{hand_id}.{fmt}", f"{fmt.upper()} (*.{fmt})")
        if name:
            self.export_to(Path(name), fmt)

    def floor_read(self, shown: str, mucked: str, by: str, reason: str, missed: str = "") -> bool:
        """Record the floor's reads of the chosen hand (`ReviewModel.floor_reads`); say the award, show the hand."""
        hand_id = self.current_hand()
        if hand_id is None:
            self._say("Choose a hand first.", theme.GOLD)
            return False
        ok, text = self.model.floor_reads(hand_id, shown, mucked, missed, by=by, reason=reason)
        if ok:
            self.search()
            if hand_id in self._hand_ids:
                self.hands.setCurrentRow(self._hand_ids.index(hand_id))
        self._say(text, theme.ACCENT if ok else theme.RED)
        return ok

    def floor_dialog(self) -> None:
        hand_id = self.current_hand()
        if hand_id is None:
            self._say("Choose a hand first.", theme.GOLD)
            return
        dialog = FloorReadDialog(hand_id, self)
        if dialog.exec() == QDialog.DialogCode.Accepted:
            self.floor_read(*dialog.values())

    def _say(self, text: str, colour: str) -> None:
        self.status.setText(text)
        self.status.setStyleSheet(f"color: {colour}; font-weight: 600;")


class FloorReadDialog(QDialog):
    """The floor's reads of an ended hand: each hand shown (one "SEAT: CARDS" a line), the seats that mucked, the
    events the camera missed (one "KIND:SEAT:SECONDS" a line), who rules and why."""

    def __init__(self, hand_id: int, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(f"Floor read of hand {hand_id}")
        form = QFormLayout(self)
        self.shown = QPlainTextEdit()
        self.shown.setPlaceholderText("one hand a line, e.g.\n3: Ah 2c 3d 4s\n5: Kc 6d 9s 4h")
        self.shown.setMinimumHeight(90)
        self.mucked = QLineEdit()
        self.mucked.setPlaceholderText("seats that mucked at the showdown, e.g. 4 6")
        self.missed = QPlainTextEdit()
        self.missed.setPlaceholderText("events the camera missed, one a line, e.g.\nreplaced:3:27.9\n"
                                       "discarded:5:16.2:2")
        self.missed.setMinimumHeight(60)
        self.by = QLineEdit()
        self.by.setPlaceholderText("floor person's name or badge")
        self.reason = QLineEdit()
        self.reason.setPlaceholderText("e.g. read from the surveillance video")
        form.addRow(QLabel("The camera did not read these; the hand is refereed again with them and awarded as "
                           "the floor's. What was recorded stays."))
        form.addRow("Hands shown", self.shown)
        form.addRow("Mucked", self.mucked)
        form.addRow("Missed events", self.missed)
        form.addRow("By", self.by)
        form.addRow("Reason", self.reason)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)

    def values(self) -> tuple[str, str, str, str, str]:
        return (self.shown.toPlainText(), self.mucked.text(), self.by.text(), self.reason.text(),
                self.missed.toPlainText())
