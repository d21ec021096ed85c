"""A panel per seat: number and player, stack, cards (faces when shown, with the hand's name), status, draws."""

from __future__ import annotations

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetrics, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QVBoxLayout, QWidget

from dealer_assist.app import theme
from dealer_assist.app.models.table import Game, SeatState, draws_text, hand_names
from dealer_assist.cards import Card


def _restyle(widget: QWidget, sheet: str) -> None:
    """Set a style sheet only when it changes: re-polishing is the costly part of an update."""
    if widget.styleSheet() != sheet:
        widget.setStyleSheet(sheet)


STATUS_STYLE = {
    "in": (theme.ACCENT, "IN"),
    "folded": ("#6b7a70", "FOLDED"),
    "all-in": (theme.GOLD, "ALL-IN"),
    "out": ("#6b7a70", "OUT"),
}


class CardLabel(QWidget):
    """One card painted directly (no stylesheet, so updates are cheap): its face in a four-colour deck,
    or a back when face down."""

    def __init__(self, card: Card | None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setFixedSize(42, 60)
        self.card: Card | None = None
        self.set_card(card)

    def set_card(self, card: Card | None) -> None:
        if card == self.card and self.toolTip():
            return
        self.card = card
        self.setToolTip("face down" if card is None else str(card))
        self.update()

    def text(self) -> str:
        return "" if self.card is None else f"{self.card.rank.symbol}{self.card.suit.symbol}"

    def paintEvent(self, event: QPaintEvent) -> None:
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        rect = QRectF(self.rect()).adjusted(1, 1, -1, -1)
        if self.card is None:
            p.setPen(QPen(QColor("#e8e0d0"), 2))
            p.setBrush(QColor("#6a1a25"))
            p.drawRoundedRect(rect, 6, 6)
        else:
            p.setPen(QPen(QColor("#9a9a90"), 1))
            p.setBrush(QColor(theme.CARD_BG))
            p.drawRoundedRect(rect, 6, 6)
            font = QFont(self.font())
            font.setPointSize(16)
            font.setBold(True)
            p.setFont(font)
            p.setPen(QColor(theme.SUIT_COLOURS[self.card.suit.value]))
            p.drawText(rect, Qt.AlignmentFlag.AlignCenter, self.text())
        p.end()


class SeatPanel(QFrame):
    """Shows one SeatState; `to_act` highlights the seat whose turn it is."""

    def __init__(
        self, state: SeatState, game: Game = "badugi", parent: QWidget | None = None, show_names: bool = True
    ) -> None:
        super().__init__(parent)
        self.show_names = show_names
        self.setObjectName("panel")
        self.setMinimumWidth(250)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(12, 10, 12, 10)
        outer.setSpacing(6)
        head = QHBoxLayout()
        self.title = QLabel()
        self.title.setObjectName("title")
        self.status = QLabel()
        self.status.setAlignment(Qt.AlignmentFlag.AlignCenter)
        bold = QFont(self.font())
        bold.setBold(True)
        # Wide enough for the longest word, so a status change never waits on a relayout to show whole.
        self.status.setMinimumWidth(QFontMetrics(bold).horizontalAdvance("FOLDED") + 34)
        head.addWidget(self.title, 1)
        head.addWidget(self.status)
        outer.addLayout(head)
        self.player = QLabel()
        self.player.setStyleSheet("font-weight: 700;")
        outer.addWidget(self.player)
        self.stack = QLabel()
        outer.addWidget(self.stack)
        self.cards_row = QHBoxLayout()
        self.cards_row.setSpacing(4)
        self.cards_box = QWidget()
        self.cards_box.setObjectName("clear")
        self.cards_box.setLayout(self.cards_row)
        self.cards_row.setContentsMargins(0, 0, 0, 0)
        self.cards_row.addStretch(1)
        self.card_labels: list[CardLabel] = []
        outer.addWidget(self.cards_box)
        self.hand = QLabel()
        self.hand.setWordWrap(False)
        outer.addWidget(self.hand)
        self.draws = QLabel()
        self.draws.setObjectName("muted")
        outer.addWidget(self.draws)
        self.to_act = False
        self.game: Game = game
        self.state = state
        self.set_state(state, game)

    def set_state(self, state: SeatState, game: Game | None = None, to_act: bool | None = None) -> None:
        key = (state, game or self.game, self.to_act if to_act is None else to_act)
        if key == getattr(self, "_shown_key", None):
            return  # nothing changed: no relayout, no restyle
        self._shown_key = key
        self.state = state
        if game is not None:
            self.game = game
        if to_act is not None:
            self.to_act = to_act
        self.title.setText(f"Seat {state.seat}")
        self.player.setText(state.label)
        self.player.setVisible(bool(state.label))
        colour, word = STATUS_STYLE[state.status]
        if self.to_act and state.status == "in":
            colour, word = theme.ACCENT, "TO ACT"
        fg = "#06140c" if word in ("TO ACT", "ALL-IN") else theme.TEXT
        self.status.setText(word)
        _restyle(self.status, f"background: {colour}; color: {fg}; border-radius: 8px; padding: 3px 10px;"
                              " font-weight: 800;")
        committed = f"   ·   in pot {state.committed:,}" if state.committed else ""
        self.stack.setText(f"Stack {state.stack:,}{committed}")
        while len(self.card_labels) < len(state.cards):
            label = CardLabel(None)
            self.cards_row.insertWidget(len(self.card_labels), label)
            self.card_labels.append(label)
        for i, label in enumerate(self.card_labels):
            if i < len(state.cards):
                label.set_card(state.cards[i])
                label.show()
            else:
                label.hide()
        count = len(state.cards)
        names = hand_names(self.game, state.cards) if self.show_names else ()
        if names:
            self.hand.setText("\n".join(names))  # Badacey: the low and the Badugi name on their own lines
            _restyle(self.hand, f"color: {theme.GOLD}; font-weight: 700; font-size: 14pt;")
        else:
            self.hand.setText(f"{count} card{'s' if count != 1 else ''}" if count else "no cards")
            _restyle(self.hand, f"color: {theme.MUTED};")
        self.draws.setText(draws_text(state.draws, state.status))
        active = self.to_act and state.status == "in"
        if self.property("toAct") != active:
            # A dynamic property and a re-polish of this frame only: setting a style sheet on the
            # panel would re-polish every child and cost tens of milliseconds per update.
            self.setProperty("toAct", active)
            self.style().unpolish(self)
            self.style().polish(self)
            self.update()


class SeatsGrid(QWidget):
    """Every seat of a TableModel in a grid, kept current through the model's signals."""

    def __init__(self, model: object, columns: int = 3, parent: QWidget | None = None) -> None:
        from PySide6.QtWidgets import QGridLayout

        from dealer_assist.app.models.table import TableModel

        super().__init__(parent)
        assert isinstance(model, TableModel)
        self.model = model
        self.columns = columns
        self.grid = QGridLayout(self)
        self.grid.setSpacing(10)
        self.grid.setContentsMargins(0, 0, 0, 0)
        for column in range(columns):
            self.grid.setColumnStretch(column, 1)
        self.panels: dict[int, SeatPanel] = {}
        model.seats_changed.connect(self._on_seats)
        model.prompt_changed.connect(lambda _p: self._refresh_all())
        self._rebuild()

    def _rebuild(self) -> None:
        for panel in self.panels.values():
            panel.setParent(None)
            panel.deleteLater()
        self.panels = {}
        for i, state in enumerate(self.model.seats):
            panel = SeatPanel(state, self.model.game)
            self.panels[state.seat] = panel
            self.grid.addWidget(panel, i // self.columns, i % self.columns)
        self._refresh_all()

    def _refresh_all(self) -> None:
        actor = self.model.prompt.actor
        for number, panel in self.panels.items():
            panel.set_state(self.model.seat(number), self.model.game, to_act=number == actor)

    def _on_seats(self, numbers: tuple[int, ...]) -> None:
        if set(self.panels) != {s.seat for s in self.model.seats}:
            self._rebuild()
            return
        actor = self.model.prompt.actor
        for number in numbers:
            self.panels[number].set_state(self.model.seat(number), self.model.game, to_act=number == actor)
