"""Training mode: showdown drills scored against the rules engine, and the trainee's record chart."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QComboBox,
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QScrollArea,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from dealer_assist.app import theme
from dealer_assist.app.models.table import SeatState
from dealer_assist.app.models.training import (
    Drill,
    DrillResult,
    PortionKey,
    TraineeRecord,
    make_drill,
    portions,
    score_answer,
)
from dealer_assist.app.widgets.score_chart import ScoreChart
from dealer_assist.app.widgets.seat_panel import SeatPanel


class TrainingView(QWidget):
    """New drill (N), fill in chips per seat per pot or half, Check (Ctrl+Enter); the record is kept per trainee."""

    def __init__(self, data_dir: Path, trainee: str = "trainee", seed: int | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.data_dir = data_dir
        self.next_seed = seed if seed is not None else 1
        self.drill: Drill | None = None
        self.result: DrillResult | None = None
        self.inputs: dict[PortionKey, dict[int, QSpinBox]] = {}
        root = QHBoxLayout(self)
        root.setContentsMargins(12, 12, 12, 12)
        root.setSpacing(12)

        # Left: controls, the drill's seats, the answer grid.
        left = QVBoxLayout()
        controls = QHBoxLayout()
        controls.addWidget(QLabel("Trainee"))
        self.trainee = QLineEdit(trainee)
        self.trainee.setMaximumWidth(220)
        self.trainee.editingFinished.connect(self._load_record)
        controls.addWidget(self.trainee)
        self.game = QComboBox()
        self.game.addItems(["Any game", "Badugi", "Badacey"])
        controls.addWidget(self.game)
        self.seats_choice = QComboBox()
        self.seats_choice.addItems(["2–6 seats", "2 seats", "3 seats", "4 seats", "5 seats", "6 seats"])
        controls.addWidget(self.seats_choice)
        self.new_button = QPushButton("New drill  [N]")
        self.new_button.clicked.connect(self.new_drill)
        controls.addWidget(self.new_button)
        controls.addStretch(1)
        left.addLayout(controls)
        self.header = QLabel()
        self.header.setObjectName("title")
        self.header.setWordWrap(True)
        left.addWidget(self.header)
        self.seats_box = QGridLayout()
        self.seats_box.setSpacing(8)
        left.addLayout(self.seats_box)
        self.answer_frame = QFrame()
        self.answer_frame.setObjectName("panel")
        self.answer_grid = QGridLayout(self.answer_frame)
        self.answer_grid.setContentsMargins(14, 10, 14, 12)
        left.addWidget(self.answer_frame)
        self.check_button = QPushButton("Check answer  [Ctrl+Enter]")
        self.check_button.clicked.connect(self.check)
        left.addWidget(self.check_button)
        left.addStretch(1)
        root.addLayout(left, 3)

        # Right: the result with the explanation, and the chart.
        right = QVBoxLayout()
        self.result_area = QScrollArea()
        self.result_area.setWidgetResizable(True)
        self.result_inner = QWidget()
        self.result_layout = QVBoxLayout(self.result_inner)
        self.result_area.setWidget(self.result_inner)
        right.addWidget(self.result_area, 3)
        self.chart = ScoreChart()
        right.addWidget(self.chart, 2)
        root.addLayout(right, 2)

        scope = Qt.ShortcutContext.WidgetWithChildrenShortcut
        QShortcut(QKeySequence("N"), self, lambda: self.new_drill(), scope)
        for keys in ("Ctrl+Return", "Ctrl+Enter"):
            QShortcut(QKeySequence(keys), self, self.check, scope)
        self.record = TraineeRecord(data_dir, trainee)
        self._load_record()
        self.new_drill()

    # --- record ------------------------------------------------------------------------------
    def _load_record(self) -> None:
        self.record = TraineeRecord(self.data_dir, self.trainee.text())
        self.chart.set_values(self.record.percents(), f"{self.record.trainee}: scores over time")
        if self.record.problem:
            self._show_result_lines([self.record.problem], theme.GOLD)

    # --- drill -------------------------------------------------------------------------------
    def new_drill(self, seed: int | None = None) -> Drill:
        seed = self.next_seed if seed is None else seed
        self.next_seed = seed + 1
        game = {1: "badugi", 2: "badacey"}.get(self.game.currentIndex())
        n = self.seats_choice.currentIndex() + 1 if self.seats_choice.currentIndex() else None
        drill = make_drill(seed, game, n)  # type: ignore[arg-type]
        self.set_drill(drill)
        return drill

    def set_drill(self, drill: Drill) -> None:
        self.drill = drill
        self.result = None
        rule = "clockwise from the button" if drill.odd_chip_rule == "clockwise_from_button" else "high card by suit"
        self.header.setText(
            f"Drill #{drill.seed}: {drill.game.capitalize()} · button seat {drill.button} · odd chip: {rule}"
        )
        while self.seats_box.count():
            item = self.seats_box.takeAt(0)
            widget = item.widget() if item is not None else None
            if widget is not None:
                widget.setParent(None)
                widget.deleteLater()
        for i, seat in enumerate(drill.seats):
            hand = drill.hands.get(seat)
            state = SeatState(
                seat=seat,
                label="button" if seat == drill.button else "",
                cards=tuple(hand) if hand else (),
                status="in" if hand else "folded",
                committed=drill.contributions.get(seat, 0),
            )
            panel = SeatPanel(state, drill.game, show_names=False)
            panel.stack.setText(f"Put in {drill.contributions.get(seat, 0):,}")
            panel.draws.setText("")
            panel.hand.hide()
            panel.setMinimumWidth(0)
            self.seats_box.addWidget(panel, i // 3, i % 3)
        self._build_answer_grid()
        self._show_result_lines(["Enter the chips each seat wins from each pot (each half in Badacey), "
                                 "then Check."], theme.MUTED)

    def _build_answer_grid(self) -> None:
        assert self.drill is not None
        while self.answer_grid.count():
            item = self.answer_grid.takeAt(0)
            widget = item.widget() if item is not None else None
            if widget is not None:
                widget.setParent(None)
                widget.deleteLater()
        self.inputs = {}
        title = QLabel("Your answer: chips per seat")
        title.setObjectName("muted")
        self.answer_grid.addWidget(title, 0, 0, 1, 4)
        first: QSpinBox | None = None
        for row, (key, name, amount, eligible) in enumerate(portions(self.drill.award()), start=1):
            label = QLabel(f"{name}: {amount:,}")
            label.setStyleSheet(f"color: {theme.GOLD}; font-weight: 700;")
            self.answer_grid.addWidget(label, row, 0)
            self.inputs[key] = {}
            cells = QHBoxLayout()
            for seat in eligible:
                cells.addWidget(QLabel(f"S{seat}"))
                spin = QSpinBox()
                spin.setRange(0, amount)
                # Typed, not clicked: hide the arrows (NoButtons collapses the editor under a stylesheet).
                spin.setStyleSheet("QSpinBox::up-button, QSpinBox::down-button { width: 0px; border: none; }")
                spin.setMinimumWidth(90)
                spin.setToolTip(f"chips seat {seat} wins from the {name.lower()}")
                cells.addWidget(spin)
                self.inputs[key][seat] = spin
                first = first or spin
            cells.addStretch(1)
            holder = QWidget()
            holder.setObjectName("clear")
            holder.setLayout(cells)
            self.answer_grid.addWidget(holder, row, 1)
        if first is not None:
            first.setFocus()

    def answer(self) -> dict[PortionKey, dict[int, int]]:
        return {key: {seat: spin.value() for seat, spin in row.items()} for key, row in self.inputs.items()}

    def set_answer(self, answer: dict[PortionKey, dict[int, int]]) -> None:
        for key, row in self.inputs.items():
            for seat, spin in row.items():
                spin.setValue(answer.get(key, {}).get(seat, 0))

    def check(self) -> DrillResult | None:
        if self.drill is None:
            return None
        if self.result is not None:  # already scored: show it again, do not count twice
            return self.result
        result = score_answer(self.drill, self.answer())
        self.result = result
        self.record.add(self.drill, result)
        self.chart.set_values(self.record.percents(), f"{self.record.trainee}: scores over time")
        colour = theme.ACCENT if result.score == result.out_of else theme.RED
        lines = [result.summary(), *result.feedback(), "", "Why:", *result.explanation]
        self._show_result_lines(lines, colour)
        return result

    def _show_result_lines(self, lines: list[str], colour: str) -> None:
        while self.result_layout.count():
            item = self.result_layout.takeAt(0)
            widget = item.widget() if item is not None else None
            if widget is not None:
                widget.setParent(None)
                widget.deleteLater()
        for i, line in enumerate(lines):
            label = QLabel(line)
            label.setWordWrap(True)
            if i == 0:
                label.setStyleSheet(f"color: {colour}; font-weight: 800; font-size: 19pt;")
            elif line.startswith("✘"):
                label.setStyleSheet(f"color: {theme.RED}; font-weight: 600;")
            elif line.startswith("✔"):
                label.setStyleSheet(f"color: {theme.ACCENT}; font-weight: 600;")
            elif line == "Why:":
                label.setStyleSheet(f"color: {theme.MUTED};")
            self.result_layout.addWidget(label)
        self.result_layout.addStretch(1)

    def result_text(self) -> str:
        texts = []
        for i in range(self.result_layout.count()):
            item = self.result_layout.itemAt(i)
            widget = item.widget() if item is not None else None
            if isinstance(widget, QLabel):
                texts.append(widget.text())
        return "\n".join(texts)
