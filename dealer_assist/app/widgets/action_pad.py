"""The dealer's action pad: legal actions with amounts, keyboard-first (F C B R, digits, Enter)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QFrame, QGridLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from dealer_assist.app import theme
from dealer_assist.app.models.action_pad import ActionPadModel
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
    if len(text) == 1 and (text.isdigit() or text.upper() in "FCBRS"):
        return text.upper()
    return None


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
        layout.addLayout(grid)
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.status.setMinimumHeight(56)
        layout.addWidget(self.status)
        self.model.changed.connect(self.refresh)
        self.refresh()

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
