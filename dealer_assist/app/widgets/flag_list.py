"""The flag list: newest first, coloured by severity; accept or dismiss with a reason behind a PIN."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QImage, QPixmap
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from dealer_assist.app import theme
from dealer_assist.app.models.flags import SEVERITY_COLOURS, FlagListModel, PinError, Resolution


class PinDialog(QDialog):
    """Supervisor PIN and a reason; stays open with the error shown until the PIN is right."""

    def __init__(self, model: FlagListModel, entry_id: int, resolution: Resolution, parent: QWidget | None = None):
        super().__init__(parent)
        self.model = model
        self.entry_id = entry_id
        self.resolution = resolution
        verb = "Accept" if resolution == "accepted" else "Dismiss"
        self.setWindowTitle(f"{verb} flag — supervisor")
        layout = QVBoxLayout(self)
        what = QLabel(model.entry(entry_id).summary())
        what.setWordWrap(True)
        layout.addWidget(what)
        form = QFormLayout()
        self.pin = QLineEdit()
        self.pin.setEchoMode(QLineEdit.EchoMode.Password)
        self.pin.setPlaceholderText("supervisor PIN")
        self.reason = QLineEdit()
        self.reason.setPlaceholderText("why (recorded with the flag)")
        form.addRow("PIN", self.pin)
        form.addRow("Reason", self.reason)
        layout.addLayout(form)
        self.error = QLabel("")
        self.error.setStyleSheet(f"color: {theme.RED}; font-weight: 600;")
        self.error.setWordWrap(True)
        layout.addWidget(self.error)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        ok = buttons.button(QDialogButtonBox.StandardButton.Ok)
        ok.setText(verb)
        buttons.accepted.connect(self.try_accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.setMinimumWidth(520)

    def try_accept(self) -> None:
        try:
            self.model.resolve(self.entry_id, self.resolution, self.reason.text(), self.pin.text())
        except PinError as exc:
            self.error.setText(str(exc))
            self.pin.clear()
            return
        self.accept()


class FlagList(QFrame):
    """The list and its two floor buttons; clicking a flag shows its rule, option and frame."""

    def __init__(self, model: FlagListModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("panel")
        self.model = model
        layout = QVBoxLayout(self)
        layout.setContentsMargins(12, 10, 12, 12)
        head = QLabel("Flags")
        head.setObjectName("muted")
        layout.addWidget(head)
        self.list = QListWidget()
        self.list.setWordWrap(True)
        self.list.currentRowChanged.connect(self._selected)
        layout.addWidget(self.list, 1)
        self.detail = QLabel("")
        self.detail.setObjectName("muted")
        self.detail.setWordWrap(True)
        layout.addWidget(self.detail)
        self.picture = QLabel()  # the frame the selected flag refers to, when it is still kept
        self.picture.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.picture.hide()
        layout.addWidget(self.picture)
        self.frame_for: Callable[[int | None], np.ndarray | None] | None = None
        row = QHBoxLayout()
        self.accept_button = QPushButton("Accept…")
        self.dismiss_button = QPushButton("Dismiss…")
        self.accept_button.clicked.connect(lambda: self.open_dialog("accepted"))
        self.dismiss_button.clicked.connect(lambda: self.open_dialog("dismissed"))
        row.addWidget(self.accept_button)
        row.addWidget(self.dismiss_button)
        layout.addLayout(row)
        self._ids: list[int] = []
        self.last_dialog: PinDialog | None = None
        model.changed.connect(self.refresh)
        self.refresh()

    def refresh(self) -> None:
        current = self.selected_id()
        self.list.blockSignals(True)
        self.list.clear()
        self._ids = []
        for entry in self.model.entries:
            item = QListWidgetItem(entry.summary())
            colour = QColor(SEVERITY_COLOURS[entry.flag.severity])
            if entry.resolution != "open":
                colour = QColor(theme.MUTED)
            item.setForeground(colour)
            item.setToolTip(entry.detail())
            item.setData(Qt.ItemDataRole.UserRole, entry.id)
            self.list.addItem(item)
            self._ids.append(entry.id)
        if not self._ids:
            item = QListWidgetItem("No flags — the hand is clean so far")
            item.setForeground(QColor(theme.MUTED))
            item.setFlags(Qt.ItemFlag.NoItemFlags)
            self.list.addItem(item)
        self.list.blockSignals(False)
        if current in self._ids:
            self.list.setCurrentRow(self._ids.index(current))
        self._selected(self.list.currentRow())

    def selected_id(self) -> int | None:
        row = self.list.currentRow()
        return self._ids[row] if 0 <= row < len(self._ids) else None

    def _selected(self, _row: int) -> None:
        entry_id = self.selected_id()
        open_flag = entry_id is not None and self.model.entry(entry_id).resolution == "open"
        self.accept_button.setEnabled(open_flag)
        self.dismiss_button.setEnabled(open_flag)
        tip = "" if open_flag else "select an open flag first"
        self.accept_button.setToolTip(tip or "accept the flag (supervisor PIN and a reason)")
        self.dismiss_button.setToolTip(tip or "dismiss the flag (supervisor PIN and a reason)")
        self.detail.setText(self.model.entry(entry_id).detail() if entry_id is not None else "")
        self._show_picture(self.model.entry(entry_id).flag.frame if entry_id is not None else None)

    def _show_picture(self, frame_index: int | None) -> None:
        image = self.frame_for(frame_index) if self.frame_for is not None and frame_index is not None else None
        if image is None:
            self.picture.hide()
            return
        h, w = image.shape[:2]
        self._picture_data = np.ascontiguousarray(image)
        qimage = QImage(self._picture_data.data, w, h, self._picture_data.strides[0], QImage.Format.Format_BGR888)
        self.picture.setPixmap(QPixmap.fromImage(qimage).scaledToWidth(min(420, w * 2)))
        self.picture.setToolTip(f"frame {frame_index}")
        self.picture.show()

    def open_dialog(self, resolution: Resolution, modal: bool = True) -> PinDialog | None:
        entry_id = self.selected_id()
        if entry_id is None:
            return None
        dialog = PinDialog(self.model, entry_id, resolution, self)
        self.last_dialog = dialog
        if modal:
            dialog.exec()
        else:
            dialog.show()
        return dialog
