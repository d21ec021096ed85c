"""The dealer's action pad: legal actions with amounts, keyboard-first (F C B R, digits, Enter); and the
"Shown hand" entry (H): a hand turned up at showdown that the camera could not read, keyed in by the dealer."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QFrame,
    QGridLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from dealer_assist.app import theme
from dealer_assist.app.models.action_pad import SHOW_KEY, ActionPadModel, ShowEntry
from dealer_assist.audit.records import ACTION_KINDS, ActionKind

_KEYS = {
    Qt.Key.Key_Return: "Enter",
    Qt.Key.Key_Enter: "Enter",
    Qt.Key.Key_Backspace: "Backspace",
    Qt.Key.Key_Escape: "Escape",
}


def key_name(event: QKeyEvent) -> str | None:
    """The pad's name for a key event, or None for a key the pad does not use."""
    named = _KEYS.get(Qt.Key(event.key()))
    if named:
        return named
    text = event.text()
    if len(text) == 1 and (text.isdigit() or text.upper() in "FCBRS" + SHOW_KEY):
        return text.upper()
    return None


MAX_SEAT = 10


class ShownHandDialog(QDialog):
    """The seat and the cards of a hand shown at the showdown that the camera could not read. OK sends them through
    the pad model (`submit_show`); the dialog closes when they are taken, else it says why in one line."""

    def __init__(self, model: ActionPadModel, entry: ShowEntry, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = model
        self.setWindowTitle("Shown hand")
        form = QFormLayout()
        self.seat = QSpinBox()
        self.seat.setRange(1, MAX_SEAT)
        self.seat.setPrefix("Seat ")
        if entry.seat is not None:
            self.seat.setValue(entry.seat)
        self.cards = QLineEdit()
        self.cards.setPlaceholderText(f"e.g. {entry.example}")
        self.cards.setToolTip(f"the {entry.hand_size} cards as they lie face up: a rank (A 2-9 T J Q K) then a suit "
                              "(c d h s), separated by spaces")
        form.addRow("Seat", self.seat)
        form.addRow("Cards", self.cards)
        layout = QVBoxLayout(self)
        self.setMinimumWidth(520)
        note = QLabel("The hand as it lies face up on the table, where the camera could not read it.")
        note.setWordWrap(True)
        layout.addWidget(note)
        layout.addLayout(form)
        self.error = QLabel("")
        self.error.setWordWrap(True)
        self.error.setStyleSheet(f"color: {theme.RED};")
        layout.addWidget(self.error)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.try_accept)
        self.buttons.rejected.connect(self.reject)
        layout.addWidget(self.buttons)
        self.cards.setFocus()

    def try_accept(self) -> None:
        reason = self.model.submit_show(self.seat.value(), self.cards.text())
        if reason is not None:
            self.error.setText(f"Not entered: {reason}")
            self.adjustSize()                 # a long reason wraps: the dialog grows to show all of it
            return
        self.error.setText("")
        self.accept()


class ActionPad(QFrame):
    """Buttons for fold / check / call / bet / raise; takes keyboard focus so the mouse is never needed."""

    def __init__(self, model: ActionPadModel | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("panel")
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.model = model or ActionPadModel()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(12, 10, 12, 12)
        self.prompt_label = QLabel()
        self.prompt_label.setObjectName("title")
        self.prompt_label.setWordWrap(False)
        layout.addWidget(self.prompt_label)
        grid = QGridLayout()
        grid.setSpacing(8)
        self.buttons: dict[ActionKind, QPushButton] = {}
        for i, action in enumerate(ACTION_KINDS):
            button = QPushButton()
            button.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # keys always reach the pad
            button.setMinimumHeight(54)
            button.clicked.connect(lambda _c=False, a=action: self._clicked(a))
            self.buttons[action] = button
            grid.addWidget(button, i // 3, i % 3)
        self.confirm_button = QPushButton("Confirm  [Enter]")
        self.confirm_button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.confirm_button.setMinimumHeight(54)
        self.confirm_button.clicked.connect(self.model.confirm)
        grid.addWidget(self.confirm_button, 1, 2)
        self.show_button = QPushButton()
        self.show_button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.show_button.setMinimumHeight(40)
        self.show_button.clicked.connect(self._show_clicked)
        grid.addWidget(self.show_button, 2, 0, 1, 3)
        layout.addLayout(grid)
        self.show_dialog: ShownHandDialog | None = None  # the shown-hand entry while open
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.status.setMinimumHeight(56)
        layout.addWidget(self.status)
        self.model.changed.connect(self.refresh)
        self.model.show_requested.connect(self.open_show_dialog)
        self.refresh()

    def _show_clicked(self) -> None:
        self.model.request_show()
        if self.show_dialog is None:
            self.setFocus()

    def open_show_dialog(self, entry: ShowEntry) -> ShownHandDialog:
        """Open the shown-hand entry (not blocking: the video and the referee carry on while the dealer types);
        one at a time."""
        if self.show_dialog is not None:
            self.show_dialog.raise_()
            self.show_dialog.activateWindow()
            return self.show_dialog
        dialog = ShownHandDialog(self.model, entry, self)
        dialog.finished.connect(self._show_dialog_closed)
        self.show_dialog = dialog
        dialog.open()
        dialog.cards.setFocus()
        return dialog

    def _show_dialog_closed(self, _result: int) -> None:
        dialog, self.show_dialog = self.show_dialog, None
        if dialog is not None:
            dialog.deleteLater()
        self.setFocus()

    def _clicked(self, action: ActionKind) -> None:
        self.model.choose(action)
        self.setFocus()

    def refresh(self) -> None:
        prompt = self.model.prompt
        if prompt.actor is not None:
            self.prompt_label.setText(f"Seat {prompt.actor} to act · {prompt.phase}")
        else:
            self.prompt_label.setText(prompt.phase.capitalize() if prompt.phase else "Waiting")
        for state in self.model.buttons():
            button = self.buttons[state.action]
            button.setText(state.text)
            button.setEnabled(state.enabled)
            button.setToolTip(state.tooltip)
            button.setCheckable(True)
            button.setChecked(state.action == self.model.pending)
        self.confirm_button.setEnabled(self.model.pending is not None)
        enabled, text, tip = self.model.show_button()
        self.show_button.setText(text)
        self.show_button.setEnabled(enabled)
        self.show_button.setToolTip(tip)
        text = self.model.status_text()
        self.status.setText(text)
        colour = theme.RED if text.startswith("Refused") else theme.MUTED
        sheet = f"color: {colour}; font-weight: 600;"
        if self.status.styleSheet() != sheet:
            self.status.setStyleSheet(sheet)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        name = key_name(event)
        if name is None:
            super().keyPressEvent(event)
            return
        self.model.key(name)
        event.accept()
