"""Procedure drills: catch the dealer's errors on a simulated hand's video, or score the hand just dealt at
the table from what the referee raised; every score goes into the trainee's record and its chart."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from dealer_assist.app import theme
from dealer_assist.app.models.capture import LatestFrame
from dealer_assist.app.models.procedure import (
    ERRORS,
    NO_AWARD,
    CatchDrill,
    CatchTruth,
    ProcedureScore,
    catch_truth,
    score_catch,
    score_refereed_hand,
)
from dealer_assist.app.models.table import TableModel
from dealer_assist.app.models.training import TraineeRecord
from dealer_assist.app.widgets.frame_view import FrameView
from dealer_assist.app.widgets.score_chart import ScoreChart
from dealer_assist.app.widgets.table_overlay import TableOverlay
from dealer_assist.audit.records import Flag

if TYPE_CHECKING:
    from dealer_assist.app.models.sim_demo import SimVideoWorker

LastHand = Callable[[], tuple[list[Flag], bool] | None]


class ProcedureView(QWidget):
    """Left: the drill's video and the trainee's answers. Right: the scored result and the chart."""

    def __init__(self, data_dir: Path, trainee: str = "trainee", preset: str = "badugi-limit",
                 last_hand: LastHand | None = None, seed: int = 1, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.data_dir = data_dir
        self.preset = preset
        self.last_hand = last_hand
        self.next_seed = seed
        self.drill: CatchDrill | None = None
        self.worker: SimVideoWorker | None = None  # imported when a drill starts
        self.truth: CatchTruth | None = None
        self.result: ProcedureScore | None = None
        self.realtime = True
        self.slot = LatestFrame()
        root = QHBoxLayout(self)
        root.setContentsMargins(12, 12, 12, 12)
        left = QVBoxLayout()
        controls = QHBoxLayout()
        controls.addWidget(QLabel("Trainee"))
        self.trainee = QLineEdit(trainee)
        self.trainee.setMaximumWidth(200)
        self.trainee.editingFinished.connect(self._load_record)
        controls.addWidget(self.trainee)
        self.speed = QComboBox()
        self.speed.addItems(["1×", "2×"])
        self.speed.setToolTip("video speed")
        controls.addWidget(self.speed)
        self.new_button = QPushButton("New drill  [N]")
        self.new_button.clicked.connect(lambda: self.new_drill())
        controls.addWidget(self.new_button)
        self.table_button = QPushButton("Score my last hand at the table")
        self.table_button.setToolTip("the hand you just dealt in Live mode, scored from what the referee raised")
        self.table_button.clicked.connect(self.score_table_hand)
        controls.addWidget(self.table_button)
        controls.addStretch(1)
        left.addLayout(controls)
        self.header = QLabel("Watch the dealer; mark every error you see with its seat, then say who wins.")
        self.header.setWordWrap(True)
        left.addWidget(self.header)
        self.video = FrameView(self.slot)
        self.video.message = "Press New drill to deal a simulated hand"
        self.video.setMinimumHeight(300)
        left.addWidget(self.video, 3)
        box = QFrame()
        box.setObjectName("panel")
        box.setStyleSheet(
            f"QCheckBox {{ background: transparent; spacing: 10px; }}"
            f"QCheckBox::indicator {{ width: 20px; height: 20px; border: 2px solid {theme.MUTED}; "
            "border-radius: 4px; }"
            f"QCheckBox::indicator:checked {{ background: {theme.ACCENT}; border-color: {theme.ACCENT}; }}"
            "QLabel { background: transparent; }")
        grid = QGridLayout(box)
        grid.setContentsMargins(14, 10, 14, 10)
        self.marks: dict[str, tuple[QCheckBox, QSpinBox]] = {}
        for row, (kind, (question, part)) in enumerate(ERRORS.items()):
            check = QCheckBox(question)
            check.setToolTip(f"procedure part: {part}")
            seat = QSpinBox()
            seat.setRange(1, 10)
            seat.setPrefix("seat ")
            seat.setEnabled(False)
            check.toggled.connect(seat.setEnabled)
            grid.addWidget(check, row, 0)
            grid.addWidget(seat, row, 1)
            self.marks[kind] = (check, seat)
        grid.addWidget(QLabel("Who wins the most chips?"), len(ERRORS), 0)
        self.winner = QSpinBox()
        self.winner.setRange(NO_AWARD, 10)
        self.winner.setSpecialValueText("no award (misdeal / floor)")
        self.winner.setPrefix("seat ")
        grid.addWidget(self.winner, len(ERRORS), 1)
        left.addWidget(box)
        self.check_button = QPushButton("Check  [Ctrl+Enter]")
        self.check_button.clicked.connect(self.check)
        left.addWidget(self.check_button)
        root.addLayout(left, 3)
        right = QVBoxLayout()
        self.result_label = QLabel("")
        self.result_label.setWordWrap(True)
        self.result_label.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.result_label.setTextFormat(Qt.TextFormat.RichText)
        right.addWidget(self.result_label, 3)
        self.chart = ScoreChart()
        right.addWidget(self.chart, 2)
        root.addLayout(right, 2)
        scope = Qt.ShortcutContext.WidgetWithChildrenShortcut
        QShortcut(QKeySequence("N"), self, lambda: self.new_drill(), scope)
        for keys in ("Ctrl+Return", "Ctrl+Enter"):
            QShortcut(QKeySequence(keys), self, self.check, scope)
        self.poll_timer = QTimer(self)
        self.poll_timer.setInterval(100)
        self.poll_timer.timeout.connect(self._poll)
        self.record = TraineeRecord(data_dir, trainee, kind="procedure")
        self._load_record()

    # --- record ------------------------------------------------------------------------------
    def _load_record(self) -> None:
        self.record = TraineeRecord(self.data_dir, self.trainee.text(), kind="procedure")
        self.chart.set_values(self.record.percents(), f"{self.record.trainee}: procedure scores over time")

    # --- drills ------------------------------------------------------------------------------
    def new_drill(self, seed: int | None = None, drill: CatchDrill | None = None, realtime: bool = True,
                  render: bool = True) -> CatchDrill:
        """Deal a simulated hand with injected errors (or none) on the video."""
        from dealer_assist.app.models.sim_demo import SimVideoWorker

        self.stop()
        seed = self.next_seed if seed is None else seed
        self.next_seed = seed + 1
        drill = drill or CatchDrill.make(seed, self.preset)
        self.drill, self.truth, self.result, self.realtime = drill, None, None, realtime
        for check, _ in self.marks.values():
            check.setChecked(False)
        self.winner.setValue(NO_AWARD)
        self.video.overlays = []
        self.video.message = "Dealing…"
        speed = 2.0 if self.speed.currentIndex() == 1 else 1.0
        self.worker = SimVideoWorker(drill.preset, drill.seed, errors=drill.errors, slot=self.slot,
                                     realtime=realtime, render=render, speed=speed)
        self.worker.start()
        self.poll_timer.start()
        self.header.setText(f"Drill #{drill.seed} ({drill.preset}): watch the dealer; mark every error you see "
                            "with its seat, then say who wins the most chips.")
        self._say([], "The hand is being dealt…")
        return drill

    def _poll(self) -> None:
        worker = self.worker
        if worker is None:
            return
        while not worker.events.empty():  # the drill needs no referee: drop the tracked events
            worker.events.get_nowait()
        if worker.ready.is_set() and not self.video.overlays and worker.profile is not None:
            self.video.overlays = [TableOverlay(worker.profile, TableModel(), worker.calibration)]
            seats = ", ".join(str(s) for s in worker.sim.truth.players)
            self.header.setText(self.header.text() + f" Seats in play: {seats}.")
        if worker.status in ("ended", "failed", "stopped"):
            self.poll_timer.stop()
            if worker.status == "ended":
                self.truth = catch_truth(worker.sim.truth.errors, worker.award)
                self._say([], "The hand is over: mark what you saw and Check.")

    @property
    def finished(self) -> bool:
        return self.truth is not None

    def stop(self) -> None:
        self.poll_timer.stop()
        if self.worker is not None:
            self.worker.stop()
            self.worker.join(timeout=3)
            self.worker = None

    def marked(self) -> dict[str, int | None]:
        return {kind: (seat.value() if check.isChecked() else None) for kind, (check, seat) in self.marks.items()}

    def set_marks(self, marks: dict[str, int], winner: int) -> None:
        for kind, (check, seat) in self.marks.items():
            check.setChecked(kind in marks)
            if kind in marks:
                seat.setValue(marks[kind])
        self.winner.setValue(winner)

    def check(self) -> ProcedureScore | None:
        if self.drill is None or self.truth is None:
            self._say([], "Wait for the hand to end (or press New drill).")
            return None
        if self.result is not None:
            return self.result
        self.result = score_catch(self.truth, self.marked(), self.winner.value())
        self.record.add_score(f"procedure:{self.drill.preset}", self.drill.seed, self.result.score,
                              self.result.out_of)
        self.chart.set_values(self.record.percents(), f"{self.record.trainee}: procedure scores over time")
        self._say(list(self.result.lines), f"Score {self.result.summary()}")
        return self.result

    def score_table_hand(self) -> ProcedureScore | None:
        """The last hand refereed at the table (Live mode), scored part by part from the referee's flags."""
        found = self.last_hand() if self.last_hand is not None else None
        if found is None:
            self._say([], "No hand dealt at the table yet: deal one in Live mode with the camera on.")
            return None
        flags, awarded = found
        self.result = score_refereed_hand(flags, awarded)
        self.record.add_score("procedure:table", 0, self.result.score, self.result.out_of)
        self.chart.set_values(self.record.percents(), f"{self.record.trainee}: procedure scores over time")
        self._say(list(self.result.lines), f"Your hand at the table: {self.result.summary()}")
        return self.result

    def result_text(self) -> str:
        return self.result_label.text()

    def _say(self, lines: list[tuple[bool, str]], title: str) -> None:
        rows = "".join(
            f"<p style='color:{theme.ACCENT if ok else theme.RED}; margin:4px 0'>{'✔' if ok else '✘'} {text}</p>"
            for ok, text in lines)
        self.result_label.setText(f"<p style='font-size:140%; font-weight:700; color:{theme.GOLD}'>{title}</p>{rows}")
