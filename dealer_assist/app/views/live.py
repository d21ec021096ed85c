"""Live mode: the video with overlays, a panel per seat, pots, the action pad, flags, the showdown board."""

from __future__ import annotations

from PySide6.QtWidgets import QHBoxLayout, QLabel, QSplitter, QTabWidget, QVBoxLayout, QWidget

from dealer_assist.app.models.action_pad import ActionPadModel
from dealer_assist.app.models.capture import LatestFrame
from dealer_assist.app.models.flags import FlagListModel
from dealer_assist.app.models.table import TableModel
from dealer_assist.app.widgets.action_pad import ActionPad
from dealer_assist.app.widgets.flag_list import FlagList
from dealer_assist.app.widgets.frame_view import FrameView
from dealer_assist.app.widgets.pots import PotsDisplay
from dealer_assist.app.widgets.seat_panel import SeatsGrid
from dealer_assist.app.widgets.showdown_board import ShowdownBoard
from dealer_assist.audit.records import Prompt
from dealer_assist.rules.awards import Award


class LiveView(QWidget):
    """Left: video (or the showdown board, a tab beside it) over the seat panels. Right: pots, pad, flags.

    The models are public so the referee (or the demo driver) feeds them: `table.set_prompt(...)`
    also updates the pad; `pad_model.submitted` carries the dealer's DealerAction out.
    """

    def __init__(
        self,
        table: TableModel | None = None,
        flags: FlagListModel | None = None,
        slot: LatestFrame | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.table = table or TableModel()
        self.flags = flags or FlagListModel()
        self.pad_model = ActionPadModel()
        self.table.prompt_changed.connect(self._on_prompt)

        root = QHBoxLayout(self)
        root.setContentsMargins(10, 10, 10, 10)
        split = QSplitter()
        root.addWidget(split)

        left = QWidget()
        left_layout = QVBoxLayout(left)
        left_layout.setContentsMargins(0, 0, 0, 0)
        self.banner = QLabel("")
        self.banner.setObjectName("banner")
        self.banner.setWordWrap(True)
        self.banner.hide()
        left_layout.addWidget(self.banner)
        self.video = FrameView(slot)
        self.showdown = ShowdownBoard()
        self.center = QTabWidget()
        self.center.addTab(self.video, "Table")
        self.center.addTab(self.showdown, "Showdown")
        self.center.setTabToolTip(1, "who wins each pot, the split and the odd chip, to read out")
        left_layout.addWidget(self.center, 3)
        self.seats = SeatsGrid(self.table, columns=3)
        left_layout.addWidget(self.seats, 2)
        split.addWidget(left)

        right = QWidget()
        right_layout = QVBoxLayout(right)
        right_layout.setContentsMargins(0, 0, 0, 0)
        self.pots = PotsDisplay(self.table)
        right_layout.addWidget(self.pots)
        self.pad = ActionPad(self.pad_model)
        right_layout.addWidget(self.pad)
        self.flag_list = FlagList(self.flags)
        right_layout.addWidget(self.flag_list, 2)
        split.addWidget(right)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)
        split.setSizes([960, 640])
        self._on_prompt(self.table.prompt)

    def _on_prompt(self, prompt: Prompt) -> None:
        self.pad_model.set_prompt(prompt)

    def show_award(self, award: Award | None, provisional: str | None = None) -> None:
        """Put the award on the board (with why it is provisional, if it is) and bring the board to the front."""
        self.showdown.set_award(award, provisional)
        self.center.setCurrentWidget(self.showdown if award is not None else self.video)

    def show_banner(self, text: str | None) -> None:
        if text:
            self.banner.setText(text)
            self.banner.show()
        else:
            self.banner.hide()
