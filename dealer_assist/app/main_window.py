"""The main window: a mode switcher (Live, Review, Training, Calibration), settings, and the run() entry."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QCloseEvent, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QApplication,
    QButtonGroup,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMainWindow,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QSpinBox,
    QStackedWidget,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from dealer_assist.app import theme
from dealer_assist.app.models.action_pad import NO_SHOW_ENTRY, ShowEntry
from dealer_assist.app.models.capture import CaptureThread, FrameRing, LatestFrame, SourceProbe, SyntheticSource
from dealer_assist.app.models.demo_driver import DemoDriver, DemoRecorder, rules_for
from dealer_assist.app.models.flags import FlagListModel
from dealer_assist.app.models.log_sink import WRITE_ERRORS, GuardedSink
from dealer_assist.app.models.refereed import RefereedDemo
from dealer_assist.app.models.review import ReviewModel
from dealer_assist.app.models.settings import (
    MODES,
    PRESETS,
    SOURCE_KINDS,
    Settings,
    data_dir,
    default_settings_path,
    load_settings,
    save_settings,
)
from dealer_assist.app.models.table import TableModel
from dealer_assist.app.views.calibration import CalibrationView
from dealer_assist.app.views.live import LiveView
from dealer_assist.app.views.procedure import ProcedureView
from dealer_assist.app.views.review import ReviewView
from dealer_assist.app.views.training import TrainingView
from dealer_assist.app.widgets.elided_label import ElidedLabel
from dealer_assist.app.widgets.table_overlay import TableOverlay
from dealer_assist.audit.records import DealerAction, Flag, Prompt
from dealer_assist.cards import Card
from dealer_assist.errors import DealerAssistError, fault_line, fault_report
from dealer_assist.rules.awards import Award
from dealer_assist.rules.house_rules import HouseRules
from dealer_assist.store.handlog import HandLog
from dealer_assist.store.text import check_name
from dealer_assist.vision.frames import Frame, FrameSource, SourceError
from dealer_assist.vision.pipeline import Pipeline
from dealer_assist.vision.table_profile import load_profile
from dealer_assist.vision.tracker import TrackerConfig


class _RetrySource:
    """Stands in for a source that would not open: its first read fails so the capture thread reconnects."""

    def __init__(self, spec: str) -> None:
        self.spec = spec

    @property
    def name(self) -> str:
        return self.spec

    @property
    def fps(self) -> float:
        return 30.0

    def read(self) -> Frame | None:
        raise SourceError(f"{self.spec} is not open")

    def close(self) -> None:
        pass


def open_source(spec: str) -> FrameSource:
    """vision's open_source, imported on first use so a simulated table never pays for cv2 at start."""
    from dealer_assist.vision.sources import open_source as _open

    return _open(spec)


def recovery_notice(log: HandLog) -> str | None:
    """One line when opening the log found it was not closed (a crash or kill): the hands it ended incomplete, the
    inputs the referee held then that it recorded unrefereed, and a file of held inputs no hand took; else None."""
    if not log.recovered and log.unrecorded_held is None:
        return None
    parts = []
    if log.recovered:
        ids = ", ".join(str(h) for h in log.recovered)
        parts.append(f"hand{'s' if len(log.recovered) > 1 else ''} {ids} ended incomplete")
        ends = [log.story(h).end for h in log.recovered]
        held = sum(end.unrefereed or 0 for end in ends if end is not None)
        if held:
            parts.append(f"the {held} input{'s' if held > 1 else ''} the referee still held recorded unrefereed")
    if log.unrecorded_held is not None:
        parts.append(f"inputs held before a hand began kept in {log.unrecorded_held}")
    return f"The hand log was not closed cleanly last time (a crash?): {'; '.join(parts)}. See `log show`."


def _reopener(spec: str) -> Callable[[], FrameSource]:
    return lambda: open_source(spec)


if TYPE_CHECKING:
    from dealer_assist.app.models.live_session import LiveSession
    from dealer_assist.app.models.sim_demo import SimVideoWorker
    from dealer_assist.audit.sink import RefereeSink
    from dealer_assist.store.held import HeldJournal
    from dealer_assist.store.sink import HandLogSink

MODE_TITLES = {"live": "Live", "review": "Review", "training": "Training", "calibration": "Calibration"}
NO_TABLE_ENTRY = ("No hand in progress: no table is being refereed (a camera's table needs its profile and "
                  "calibration in Settings; Play demo for the simulated one)")
"""Why a pad entry is refused when neither a camera's table nor a demo is running."""
RETRY_KINDS = ("camera", "stream")
"""Sources a refereed table keeps trying to open: a camera unplugged or a stream dropped may come back (a video file
that failed is corrupt: opened again, it would replay hands already recorded)."""
READY_MESSAGE_MS = 10_000
"""How long the status bar says "<Mode> mode · ready in N s" after start-up (it is not live status)."""


class SettingsDialog(QDialog):
    """Table profile, source, house rules preset, stakes, supervisor PIN, trainee."""

    def __init__(self, settings: Settings, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Settings")
        self.settings = settings
        form = QFormLayout()
        self.table_profile = QLineEdit(settings.table_profile)
        self.source_kind = QComboBox()
        self.source_kind.addItems(list(SOURCE_KINDS))
        self.source_kind.setCurrentText(settings.source_kind)
        self.source = QLineEdit(settings.source)
        self.source.setPlaceholderText("camera index, stream URL or video file")
        self.preset = QComboBox()
        self.preset.addItems(list(PRESETS))
        self.preset.setCurrentText(settings.house_preset)
        self.small_blind = QSpinBox()
        self.small_blind.setRange(1, 1_000_000)
        self.small_blind.setValue(settings.small_blind)
        self.big_blind = QSpinBox()
        self.big_blind.setRange(1, 1_000_000)
        self.big_blind.setValue(settings.big_blind)
        self.pin = QLineEdit(settings.supervisor_pin)
        self.pin.setEchoMode(QLineEdit.EchoMode.Password)
        self.trainee = QLineEdit(settings.trainee)
        self.dealer = QLineEdit(settings.dealer)
        self.dealer.setPlaceholderText("the dealer's name, for the hand log")
        self.seats = QLineEdit(settings.seats)
        self.seats.setPlaceholderText("every seat; or 1,2,5 or 1:400,2:250,5:300")
        self.seats.setToolTip("The seats in play at the camera's table, with their chips where known (else 100 big "
                              "bets); a seat not listed gets no cards.")
        self.font_scale = QComboBox()
        for pct in (80, 100, 125, 150, 175):
            self.font_scale.addItem(f"{pct}%", pct / 100)
        nearest = min(range(self.font_scale.count()),
                      key=lambda i: abs(float(self.font_scale.itemData(i)) - settings.font_scale))
        self.font_scale.setCurrentIndex(nearest)
        form.addRow("Table profile", self.table_profile)
        form.addRow("Source", self.source_kind)
        form.addRow("Camera / URL / file", self.source)
        form.addRow("House rules", self.preset)
        form.addRow("Small blind", self.small_blind)
        form.addRow("Big blind", self.big_blind)
        form.addRow("Seats in play", self.seats)
        form.addRow("Dealer on the table", self.dealer)
        form.addRow("Supervisor PIN", self.pin)
        form.addRow("Trainee", self.trainee)
        form.addRow("Text size", self.font_scale)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        self.error = QLabel("")
        self.error.setStyleSheet(f"color: {theme.RED};")
        layout.addWidget(self.error)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.try_accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)

    def value(self) -> Settings:
        return replace(
            self.settings,
            table_profile=self.table_profile.text().strip() or self.settings.table_profile,
            source_kind=self.source_kind.currentText(),
            source=self.source.text().strip(),
            house_preset=self.preset.currentText(),
            small_blind=self.small_blind.value(),
            big_blind=self.big_blind.value(),
            supervisor_pin=self.pin.text().strip(),
            trainee=self.trainee.text().strip() or "trainee",
            font_scale=float(self.font_scale.currentData()),
            seats=self.seats.text().strip(),
            dealer=self.dealer.text().strip(),
        )

    def try_accept(self) -> None:
        value = self.value()
        if value.small_blind > value.big_blind:
            self.error.setText("The small blind cannot be larger than the big blind.")
            return
        if not (value.supervisor_pin.isdigit() and 4 <= len(value.supervisor_pin) <= 8):
            self.error.setText("The supervisor PIN must be 4 to 8 digits.")
            return
        try:
            value.seats_in_play(1)
            check_name("dealer", value.dealer)
        except DealerAssistError as exc:
            self.error.setText(f"{str(exc)[0].upper()}{str(exc)[1:]}.")
            return
        self.settings = value
        self.accept()


class MainWindow(QMainWindow):
    """Mode buttons across the top (Ctrl+1..4), the mode's view below, a status line at the bottom."""

    RECONNECT_S = 3.0
    """Every how many seconds the source of a refereed table that was lost (or would not open) is tried again."""

    def __init__(
        self,
        settings: Settings | None = None,
        settings_path: Path | None = None,
        data_path: Path | None = None,
        notice: str | None = None,
        start_capture: bool = True,
        demo: bool = False,
        auto_bet: bool = True,
        seed: int = 1,
        step_ms: int = 250,
        log_path: Path | None = None,
        record: bool = True,
        video: bool = False,
    ) -> None:
        super().__init__()
        self.settings_path = settings_path or default_settings_path()
        self.settings = settings or Settings()
        self.data_path = data_path or data_dir()
        self.setWindowTitle("Dealer Assist")
        self.resize(1600, 1000)

        central = QWidget()
        root = QVBoxLayout(central)
        root.setContentsMargins(12, 10, 12, 6)
        root.setSpacing(8)
        bar = QHBoxLayout()
        brand = QLabel("Dealer Assist")
        brand.setObjectName("title")
        bar.addWidget(brand)
        bar.addSpacing(24)
        self.mode_group = QButtonGroup(self)
        self.mode_group.setExclusive(True)
        self.mode_buttons: dict[str, QPushButton] = {}
        for i, mode in enumerate(MODES):
            button = QPushButton(f"{MODE_TITLES[mode]}")
            button.setObjectName("mode")
            button.setCheckable(True)
            button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
            button.setToolTip(f"{MODE_TITLES[mode]} mode (Ctrl+{i + 1})")
            button.clicked.connect(lambda _c=False, m=mode: self.set_mode(m))
            self.mode_group.addButton(button)
            self.mode_buttons[mode] = button
            bar.addWidget(button)
            QShortcut(QKeySequence(f"Ctrl+{i + 1}"), self, lambda m=mode: self.set_mode(m))
        self.table_label = ElidedLabel()
        self.table_label.setObjectName("muted")
        bar.addWidget(self.table_label, 1)
        self.demo_button = QPushButton("Play demo")
        self.demo_button.setCheckable(True)
        self.demo_button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.demo_button.setToolTip("play simulated hands on the Live view (no camera needed)")
        self.demo_button.clicked.connect(self.toggle_demo)
        bar.addWidget(self.demo_button)
        settings_button = QPushButton("Settings")
        settings_button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        settings_button.clicked.connect(self.edit_settings)
        bar.addWidget(settings_button)
        root.addLayout(bar)

        self.notice = QLabel("")
        self.notice.setObjectName("notice")
        self.notice.setWordWrap(True)
        self.notice.hide()
        root.addWidget(self.notice)

        self.stack = QStackedWidget()
        # A view larger than the screen (1366x768 is common where dealers train) scrolls instead of pushing the
        # window past the screen's edge: the views lay out at their full size from 1600x1000 up.
        self.view_area = QScrollArea()
        self.view_area.setWidget(self.stack)
        self.view_area.setWidgetResizable(True)
        self.view_area.setFrameShape(QFrame.Shape.NoFrame)
        root.addWidget(self.view_area, 1)
        self.setCentralWidget(central)

        self.slot = LatestFrame()
        self.capture: CaptureThread | None = None
        self.table = TableModel("badacey" if self.settings.house_preset.startswith("badacey") else "badugi")
        self.flags = FlagListModel(self.settings.supervisor_pin)
        self.live = LiveView(self.table, self.flags, self.slot)
        self.review_model = ReviewModel(log_path)
        self.review_model.writer = self._open_writer
        self.review = ReviewView(self.review_model)
        self.training = TrainingView(self.data_path, self.settings.trainee)
        self.procedure = ProcedureView(self.data_path, self.settings.trainee, self.settings.house_preset,
                                       last_hand=self._last_table_hand)
        self.training_tabs = QTabWidget()
        self.training_tabs.addTab(self.training, "Showdown drills")
        self.training_tabs.addTab(self.procedure, "Procedure drills")
        self.training_tabs.setTabToolTip(1, "catch the dealer's errors on a simulated hand, or score your own "
                                            "hand at the table")
        self.calibration = CalibrationView(self.slot, self.settings.table_profile, on_saved=self._calibration_saved)
        self.views: dict[str, QWidget] = {
            "live": self.live, "review": self.review, "training": self.training_tabs,
            "calibration": self.calibration,
        }
        for mode in MODES:
            self.stack.addWidget(self.views[mode])
        self.install_overlay()
        self.driver: DemoDriver | None = None
        self.recorder: DemoRecorder | None = None
        self._recorder_error_said: DemoRecorder | None = None  # the recorder whose failure was said
        self.refereed: RefereedDemo | None = None
        self.demo_timer = QTimer(self)
        self.demo_timer.setInterval(step_ms)
        self.demo_timer.timeout.connect(self.demo_step)
        self.pause_ms = 4000
        self.live.pad_model.submitted.connect(self._on_dealer_action)
        self.live.pad_model.show_submitted.connect(self._on_entered_show)
        self.session: LiveSession | None = None
        self.session_timer = QTimer(self)
        self.session_timer.setInterval(30)
        self.session_timer.timeout.connect(lambda: self.session.poll() if self.session is not None else 0)
        self.source_timer = QTimer(self)
        self.source_timer.setInterval(500)
        self.source_timer.timeout.connect(self._check_source)
        # A refereed table's camera or stream that was lost, or would not open, is tried again every `reconnect_s`,
        # each attempt on its own thread (`SourceProbe`); this timer polls it (`_reconnect_tick`).
        self.reconnect_s = self.RECONNECT_S
        self.reconnect_timer = QTimer(self)
        self.reconnect_timer.timeout.connect(self._reconnect_tick)
        self.reconnect_probe: SourceProbe | None = None
        self.reconnect_attempts = 0
        self._reconnect_next = 0.0
        self._reconnect_lost = False  # the source was lost mid-session (else: it would not open)
        self._reconnect_text = ("", "")  # the banner's line while retrying, split where the latest error goes
        self._reconnect_error_shown: str | None = None  # the latest attempt's error the banner names
        # A demo started while the table was running (refereed, retrying its camera, or showing its video) stops the
        # table first; `table_paused` says so, and stopping the demo (the demo button) starts the table again.
        self.table_paused = False
        self.source_error: str | None = None  # why start_live's source would not open (the rest of the table was ready)
        self.table_warning: str | None = None  # the refereed table's standing warning (a camera too coarse to read)
        self.back_note: str | None = None  # "Camera back at ...", said until the next hand starts
        self.sim_worker: SimVideoWorker | None = None
        self.log_writer: HandLog | None = None  # the hand log's one writer: the video demo's and the table's hands
        self.table_sink: GuardedSink | None = None
        self.table_log_sink: HandLogSink | None = None  # the guarded sink's writer: its session is the dealer's down
        self.table_profile_text = ("", "", "")  # table name, profile and camera calibration (TOML) of its sessions
        self.sim_award: Award | None = None
        self.sim_errors: tuple[str, ...] = ()
        self.sim_seed = seed
        self.sim_realtime = True
        self.sim_timer = QTimer(self)
        self.sim_timer.setInterval(30)
        self.sim_timer.timeout.connect(self._sim_poll)
        if demo and video:
            self.start_video_demo(seed=seed)   # the table (start_capture below) waits until the demo is stopped
        elif demo:
            self.start_demo(auto_bet=auto_bet, seed=seed, record=record)
        self._refresh_summary()
        self.set_mode(self.settings.mode if self.settings.mode in MODES else "live")
        if notice:
            self.show_notice(notice)
        # The pad's "Shown hand" entry follows the refereed hand: every referee step (and every stop or loss of the
        # table) sets a prompt, after which the entry is opened or closed with the reason.
        self.table.prompt_changed.connect(lambda _prompt: self._refresh_show_entry())
        self._refresh_show_entry()
        if start_capture:
            self.start_capture()

    # --- modes -------------------------------------------------------------------------------
    @property
    def mode(self) -> str:
        return next(m for m, v in self.views.items() if v is self.stack.currentWidget())

    def set_mode(self, mode: str) -> None:
        if mode not in self.views:
            raise ValueError(f"unknown mode {mode!r}; one of {', '.join(MODES)}")
        self.stack.setCurrentWidget(self.views[mode])
        for view in self.views.values():   # the stack sizes to the view shown (it skips Ignored pages), not the largest
            shown = view is self.views[mode]
            policy = QSizePolicy.Policy.Preferred if shown else QSizePolicy.Policy.Ignored
            view.setSizePolicy(policy, policy)
        self.stack.updateGeometry()
        self.mode_buttons[mode].setChecked(True)
        self.settings = replace(self.settings, mode=mode)
        if mode == "live":
            self.live.pad.setFocus()
        elif mode == "review":
            if self.recorder is not None:
                self.recorder.flush()  # the demo's writer thread may still hold the last records
            self.review.search()
        elif mode == "calibration" and self.calibration.wizard.frame is None:
            self.calibration.grab_frame()
        self.statusBar().showMessage(f"{MODE_TITLES[mode]} mode")

    # --- content -----------------------------------------------------------------------------
    def start_demo(self, auto_bet: bool = True, seed: int = 1, players: int = 6, record: bool = True) -> DemoDriver:
        """Play simulated hands into the live view: dealer steps on a timer, betting auto or from the pad.

        A camera's table being refereed (or retrying its lost camera) is stopped first (`_pause_table`): the pad's
        entries go to the demo, never to the table's referee; the table starts again when the demo is stopped."""
        self.stop_video_demo()
        self._pause_table(capture_too=False)   # the scripted demo draws no video: a plain video feed may stay
        rules = rules_for(self.settings.house_preset, self.settings.small_blind, self.settings.big_blind)
        self.flags.clear()
        self.driver = DemoDriver(rules, self.table, self.flags, players=players, seed=seed, auto_bet=auto_bet)
        self.refereed = RefereedDemo(self.driver, self.flags)  # the live view shows the referee's prompt and flags
        self.driver.sync()
        self.driver.award_ready.connect(self._on_award)
        if self.recorder is not None:
            self.recorder.close()
            self.recorder = None
        if record and self.log_writer is not None:  # the table's writer: the log takes one, the recorder opens its own
            self.log_writer.close()
            self.log_writer = None
        if record:
            try:
                self.recorder = DemoRecorder(HandLog.open(self.review_model.path), self.driver)
            except WRITE_ERRORS as exc:
                self.show_notice(f"Demo hands are not being recorded: {exc}")
        self.live.show_award(None)
        self.demo_timer.start()
        self.demo_button.setChecked(True)
        how = "betting plays itself" if auto_bet else "enter each betting action on the pad"
        self.statusBar().showMessage(f"Demo: simulated {rules.game} hands ({self.settings.house_preset}); {how}")
        return self.driver

    def toggle_demo(self) -> None:
        if self.driver is None and self.sim_worker is None:
            self.start_video_demo(seed=self.sim_seed)
            self.set_mode("live")
        else:
            self.stop_demo()

    def stop_demo(self, resume_table: bool = True) -> None:
        """Stop the demo (either kind); the table it stopped starts again (`resume_table`; False when another demo
        follows at once)."""
        self.demo_timer.stop()
        self.stop_video_demo()
        if self.recorder is not None:
            self.recorder.close()
            self.recorder = None
        self.driver = None
        self.refereed = None
        self.demo_button.setChecked(False)
        self.table.set_seats(())
        self.table.set_prompt(Prompt(phase="idle", message="waiting for a hand"))
        self.live.show_award(None)
        self.install_overlay()               # the table's zones again, not the demo's detections and flags
        self.statusBar().showMessage("Demo stopped")
        if resume_table and self.table_paused:
            self._resume_table()

    def _pause_table(self, capture_too: bool) -> None:
        """A demo takes the live view: the camera's table is stopped as saving Settings stops it (`_stop_table`: its
        hand in progress ends as incomplete in the log, once; the retrying of a lost camera stops), so that the demo
        gets its own session and the pad's entries never reach the table's referee. `capture_too`: a plain video feed
        (a table that is not refereed) is stopped as well."""
        if (self._camera_session is not None or self.reconnecting or self.reconnect_probe is not None
                or (capture_too and self.capture is not None)):
            self._stop_table()
            self.table_paused = True

    def _resume_table(self) -> None:
        """The demo that stopped the table was stopped: the table starts again on the settings' source.

        Chosen over waiting for someone to save Settings: a supervisor who shows the demo at a live table and stops
        it expects the table to be refereed (and its hands recorded) again, not a Live view that silently referees
        nothing until Settings are saved; a camera that will not open is retried as at start-up, said in the banner."""
        self.table_paused = False
        self.flags.clear()
        self.install_overlay()
        self.start_capture()
        if self.session is not None:
            self.statusBar().showMessage("Demo stopped; refereeing the table again")

    def demo_step(self) -> None:
        if self.driver is None:
            return
        result = self.driver.step()
        self._say_recorder_error()
        if result.waiting:
            self.demo_timer.stop()  # resumes when the dealer's action is applied
            self.live.pad.setFocus()
        elif result.done:
            self.demo_timer.stop()
            QTimer.singleShot(self.pause_ms, self._next_demo_hand)

    def _say_recorder_error(self) -> None:
        """The demo's recorder writes on its own thread: its first failure (a full disk, a locked file) is said once,
        in one line, here on the UI thread; the demo plays on."""
        recorder = self.recorder
        if recorder is None or not recorder.errors or self._recorder_error_said is recorder:
            return
        self._recorder_error_said = recorder
        self.show_notice(f"Demo hands are no longer being recorded in the hand log {self.review_model.path} "
                         f"({recorder.errors[0]}); everything recorded before is kept.")

    # --- the demo on the simulated table's video ------------------------------------------------
    def start_video_demo(self, seed: int = 1, errors: tuple[str, ...] = (), realtime: bool = True,
                         players: int | None = None, render: bool = True, fps: float = 15.0) -> SimVideoWorker:
        """Play a simulated hand's real video (synth.SimulatedTable) through tracker and referee.

        Rendering and tracking run on the worker thread; the view polls the newest frame; the referee
        runs here on a timer (`_sim_poll`), like Live at a real table, and its phase hint goes back to the
        tracker. Detections are the simulator's ground truth (said on the video)."""
        from dealer_assist.app.models.sim_demo import SimVideoWorker

        if self.driver is not None:
            self.stop_demo(resume_table=False)
        self.stop_video_demo()
        self._pause_table(capture_too=True)    # the camera's table stops first: the demo gets its own session
        self.stop_capture()
        self.flags.clear()
        self.sim_seed, self.sim_errors, self.sim_realtime = seed, tuple(errors), realtime
        self.sim_award = None
        self.live.show_award(None)
        self.live.video.message = "Building the simulated table…"
        worker = SimVideoWorker(self.settings.house_preset, seed, errors=errors, players=players, slot=self.slot,
                                realtime=realtime, render=render, fps=fps, lockstep=not realtime)
        self.sim_worker = worker
        worker.start()
        self.sim_timer.start()
        self.demo_button.setChecked(True)
        self.statusBar().showMessage(f"Demo: a simulated {self.settings.house_preset} hand on video (seed {seed}); "
                                     "simulated detections")
        return worker

    def stop_video_demo(self) -> None:
        self.sim_timer.stop()
        worker = self.sim_worker
        if worker is not None:
            if self.session is not None and self.session.worker is worker:
                self.session.stop()
                self.session = None
            else:
                worker.stop()
                worker.join(timeout=5)  # building cannot be interrupted (a second or two)
        self.sim_worker = None
        self._refresh_summary()

    @property
    def _camera_session(self) -> LiveSession | None:
        """The session refereeing the camera's table (None: none, or the session is the video demo's)."""
        session = self.session
        if session is None or (self.sim_worker is not None and session.worker is self.sim_worker):
            return None
        return session

    def _sim_poll(self) -> None:
        """Feed the referee what the worker queued; start the session once the video is built."""
        from dealer_assist.app.models.live_session import LiveSession
        from dealer_assist.app.models.sim_demo import SIMULATED_DETECTIONS
        from dealer_assist.app.widgets.detections_overlay import DetectionsOverlay
        from dealer_assist.audit.referee import Referee

        worker = self.sim_worker
        if worker is None:
            return
        if self.session is not None and self.session.worker is not worker:
            self._stop_table()       # never the table's session: the demo referees on its own (start_video_demo)
        if self.session is None:
            if not worker.ready.is_set():
                return
            if worker.status == "failed" or worker.config is None or worker.profile is None:
                self.sim_timer.stop()
                self.live.show_banner(f"The simulated table could not be built: {worker.error}")
                return
            self.live.video.overlays = [
                TableOverlay(worker.profile, self.table, worker.calibration),
                DetectionsOverlay(self.flags, worker.profile, worker.calibration, caption=SIMULATED_DETECTIONS),
            ]
            sink = self._demo_sink(worker)
            session = LiveSession(Referee(worker.config, sink), self.table, self.flags, worker,
                                  journal=self._held_journal(sink))
            session.award_ready.connect(self._on_sim_award)
            self.live.flag_list.frame_for = worker.ring.get
            self.session = session
            self.table_label.setText(f"simulated {worker.profile.name} · {self.settings.house_preset} · "
                                     f"seed {worker.seed}")
        # Not in real time, the worker waits on each frame's phase hint (lockstep): keep answering it for a while.
        self.session.poll(wait_s=0.0 if self.sim_realtime else 0.02)
        if worker.status in ("ended", "stopped", "failed") and worker.events.empty():
            self.sim_timer.stop()
            if worker.status == "ended" and self.sim_realtime:
                QTimer.singleShot(self.pause_ms, self._next_video_hand)

    def _last_table_hand(self) -> tuple[list[Flag], bool] | None:
        """The last hand the referee saw at the table (Live with a camera): its flags, and whether it was awarded."""
        if self.session is None or self.sim_worker is not None or not self.session.referee.hands:
            return None
        record = self.session.referee.hands[-1]
        return list(record.flags), bool(record.awards)

    def _demo_sink(self, worker: SimVideoWorker) -> RefereeSink | None:
        """Record the video demo's hands in the hand log, with key frames, through the store's adapter."""
        from dealer_assist.store.sink import HandLogSink

        try:
            rules = worker.config.rules.to_dict() if worker.config else ""
            session = self._log_writer().open_session("demo (simulated video)", "simulator", house_rules=rules)
            return GuardedSink(HandLogSink(self._log_writer(), session, frames=worker.ring, encode=_jpeg),
                               self.review_model.path, self.show_notice)
        except WRITE_ERRORS as exc:
            self.show_notice(f"Demo hands are not being recorded: {exc}")
            return None

    def _on_live_award(self, award: Award) -> None:
        self.live.show_award(award, self.session.award_note if self.session is not None else None)

    def _on_sim_award(self, award: Award) -> None:
        self.sim_award = award
        self._on_live_award(award)
        truth = self.sim_worker.award if self.sim_worker is not None else None
        if truth is not None and dict(truth.totals) != dict(award.totals):
            self.show_notice(f"The referee's award {dict(award.totals)} differs from the rules engine's "
                             f"{dict(truth.totals)} on the cards shown")

    def _next_video_hand(self) -> None:
        if self.sim_worker is None or self.sim_worker.status != "ended":
            return
        self.start_video_demo(seed=self.sim_seed + 1, errors=self.sim_errors, realtime=self.sim_realtime)

    def _next_demo_hand(self) -> None:
        if self.driver is None or self.driver.award is None:
            return
        self.driver.next_hand()
        self.live.show_award(None)
        self.demo_timer.start()

    def _on_award(self, award: Award) -> None:
        refereed = self.refereed.award if self.refereed is not None else None
        self.live.show_award(refereed or award)

    def _on_dealer_action(self, action: DealerAction) -> None:
        if self.driver is None and self.sim_worker is None and (self.reconnecting or (
                self.session is not None and self.session.closed)):
            self._refuse_entry()           # the camera was lost: no hand takes the entry, nothing is recorded
            return
        if self.session is not None:
            if not self.session.dealer_action(action):
                self._refuse_entry()
            return
        if self.driver is None:        # nothing referees the table: the entry goes nowhere, and is said so
            self._refuse_entry(NO_TABLE_ENTRY)
            return
        reason = self.driver.apply(action)
        if reason is not None:
            self.live.pad_model.refuse(reason)
            return
        if not self.demo_timer.isActive():
            self.demo_timer.start()

    def _show_entry_refusal(self, of_hand: bool = True) -> str | None:
        """Why a shown hand cannot be keyed in now (None: it can): only a camera's table being refereed takes one
        (`of_hand`: and only at the showdown of its hand in progress, `LiveSession.verify_show`)."""
        if self.driver is not None or self.sim_worker is not None:
            return "the demo reads its own shows: a shown hand is keyed in at a camera's table"
        session = self._camera_session
        if self.reconnecting or (session is not None and session.closed):
            return self._no_hand_line()
        if session is None:
            return NO_SHOW_ENTRY
        return session.show_refusal() if of_hand else None

    def _refresh_show_entry(self) -> None:
        session = self._camera_session
        reason = self._show_entry_refusal()
        seat = session.show_seat if session is not None and reason is None else None
        size = session.referee.table.rules.hand_size if session is not None else self.rules.hand_size
        self.live.pad_model.set_show_entry(ShowEntry(reason, seat, size))

    def _on_entered_show(self, seat: int, cards: tuple[Card, ...]) -> None:
        """A shown hand the camera could not read, keyed in on the pad: to the camera's referee (`enter_show`), or
        refused in one line (pad and status bar), recording nothing."""
        session = self._camera_session
        reason = self._show_entry_refusal(of_hand=False)
        if reason is None and session is not None:
            reason = session.enter_show(seat, cards)   # checks the hand once what the camera queued is refereed
        if reason is not None:
            self.live.pad_model.refuse(reason)
            self.statusBar().showMessage(f"Shown hand not entered: {reason}.")
        else:
            self.statusBar().showMessage(f"Shown hand entered for seat {seat}: {' '.join(map(str, cards))}")
        self._refresh_show_entry()

    def _no_hand_line(self) -> str:
        """Why the pad takes no entry while the table's source is away (or refereeing stopped), in one line."""
        what = {"camera": "camera", "stream": "stream"}.get(self.settings.source_kind, "video")
        if self.reconnecting:
            if self._reconnect_lost:
                return f"No hand in progress: the {what} is lost; entries resume when it is back"
            return f"No hand in progress: the {what} is not open; entries start when it opens"
        return f"No hand in progress: refereeing has stopped (the {what} was lost); save Settings to reconnect"

    def _refuse_entry(self, line: str | None = None) -> None:
        """A pad entry no hand takes, refused in one line on the pad and the status bar (default: the table's source
        is away or refereeing stopped, `_no_hand_line`)."""
        line = line or self._no_hand_line()
        self.live.pad_model.refuse(line)
        self.statusBar().showMessage(f"Entry not recorded. {line}.")

    def _show_no_hand(self) -> None:
        """The pad shows no seat to act (its keys refuse, saying why) while no hand can take an entry."""
        self.table.set_prompt(Prompt(phase="idle", message=self._no_hand_line()))

    def start_live(self, detector: str = "onnx", source: FrameSource | None = None) -> LiveSession | None:
        """Referee the real table: source -> vision pipeline (own thread) -> referee -> the live view.

        Needs the table profile, its camera calibration and a card detector; whatever is missing is
        said in the banner and the video still shows (start_capture). `source`: one already opened (a
        camera that came back), used instead of opening the settings' source; left open if refereeing
        cannot start. A source that would not open (the rest being ready) is kept in `source_error`."""
        # Imported here: the vision chain and the referee cost start-up time a demo or review never needs.
        from dealer_assist.app.models.live_session import LiveSession, VisionWorker
        from dealer_assist.audit.referee import Referee
        from dealer_assist.audit.table import TableConfig
        from dealer_assist.vision.calibration import CameraCalibration, calibration_text, default_camera_path
        from dealer_assist.vision.camera_reach import camera_reach
        from dealer_assist.vision.detector import make_detector

        s = self.settings
        self.source_error = None
        try:
            profile = load_profile(s.table_profile)
            camera_file = default_camera_path(profile)
            calibration = CameraCalibration.load(camera_file, profile)
            pipeline = Pipeline.build(profile, calibration, make_detector(detector),
                                      TrackerConfig(hand_size=self.rules.hand_size,
                                                    draw_procedure=self.rules.draw_procedure))
            # The camera cannot tell an empty seat from a player's: the seats in play come from Settings.
            stacks = s.seats_in_play(100 * max(self.rules.big_bet, self.rules.big_blind)) or None
            config = TableConfig.for_profile(profile, self.rules, stacks, button=min(stacks or [1]))
        except (DealerAssistError, OSError) as exc:
            self.live.show_banner(f"Refereeing is off: {exc}. The video is shown without it.")
            return None
        if source is None:
            try:
                source = open_source(s.source or "0")
            except (DealerAssistError, OSError) as exc:
                self.source_error = str(exc)
                self.live.show_banner(f"Refereeing is off: {exc}. The video is shown without it.")
                return None
        ring = FrameRing()
        # every record committed as it happens; the session keeps the calibration the cards are mapped by
        sink = self._table_sink(profile.name, profile.to_toml(), calibration_text(calibration, camera_file), ring)
        referee = Referee(config, sink)
        worker = VisionWorker(source, pipeline, self.slot, ring=ring)  # 3 s behind, as the audit; the pad looks ahead
        self.session = LiveSession(referee, self.table, self.flags, worker, journal=self._held_journal(sink))
        self.live.flag_list.frame_for = worker.ring.get  # click a flag: see the frame it refers to
        self.session.award_ready.connect(self._on_live_award)
        self.session.hand_started.connect(lambda: self.live.show_award(None))
        self.session.start()
        self.session_timer.start()
        self.source_timer.start()      # a camera that fails mid-session is said (`_check_source`)
        self.table_warning = camera_reach(profile, calibration).warning()
        self.live.show_banner(self.table_warning)   # a camera too coarse to read shows
        return self.session

    def _table_sink(self, table: str, profile: str, calibration: str, ring: FrameRing) -> RefereeSink | None:
        """The hand log for the camera's table: a session in it, written through a guarded sink (a log that cannot
        be opened, or stops being writable, is said in one line; the referee carries on)."""
        from dealer_assist.store.sink import HandLogSink

        path = self.review_model.path
        try:
            session = self._log_writer().open_session(table, self.settings.dealer_name, profile=profile,
                                                      house_rules=self.rules.to_dict(), calibration=calibration)
        except WRITE_ERRORS as exc:
            self.show_notice(f"Hands at this table are not being recorded: {exc}")
            return None
        self.table_log_sink = HandLogSink(self._log_writer(), session, frames=ring, encode=_jpeg)
        self.table_sink = GuardedSink(self.table_log_sink, path, self.show_notice)
        self.table_profile_text = (table, profile, calibration)
        return self.table_sink

    def _held_journal(self, sink: RefereeSink | None) -> HeldJournal | None:
        """The journal of the items a session's referee holds before it referees them (`store.held`), beside the log
        its sink writes; None where nothing is recorded (the log could not be opened)."""
        from dealer_assist.store.held import HeldJournal
        from dealer_assist.store.sink import HandLogSink

        inner = sink.inner if isinstance(sink, GuardedSink) else sink
        if not isinstance(inner, HandLogSink):
            return None
        try:
            return HeldJournal(inner.log.path, inner.session_id, sync=inner.log.durability == "power",
                               on_failure=self.show_notice)
        except DealerAssistError as exc:
            self.show_notice(f"Items the referee holds are not journaled (a crash could lose the last seconds): {exc}")
            return None

    def _change_dealer(self) -> None:
        """A new dealer on the table (a push): the log opens the new dealer's down, and the hands from the next one on
        are recorded under it; the camera and the hand in progress carry on."""
        sink, log = self.table_log_sink, self.log_writer
        if sink is None or log is None or self.table_sink is None or self.table_sink.error is not None:
            return
        table, profile, calibration = self.table_profile_text
        try:
            sink.session_id = log.open_session(table, self.settings.dealer_name, profile=profile,
                                               house_rules=self.rules.to_dict(), calibration=calibration)
        except WRITE_ERRORS as exc:
            self.show_notice(f"The new dealer could not be recorded ({exc}); hands stay under the previous one")

    def _open_writer(self) -> HandLog | None:
        """The writer of the hand log this window holds now, if any (the demo's recorder or the table's): the floor's
        reads in Review go through it, as the log takes one writer at a time."""
        if self.recorder is not None:
            return self.recorder.log
        return self.log_writer

    def _log_writer(self) -> HandLog:
        """The window's writer of the hand log, opened once: the log takes one writer at a time (a lock on its anchor
        file, which a second open in this process would also be refused), so the video demo and the table share it."""
        if self.log_writer is None:
            self.log_writer = HandLog.open(self.review_model.path)
            self.show_notice(recovery_notice(self.log_writer))
        return self.log_writer

    @property
    def rules(self) -> HouseRules:
        return rules_for(self.settings.house_preset, self.settings.small_blind, self.settings.big_blind)

    def start_capture(self, opened: FrameSource | None = None) -> None:
        """Open the settings' source: refereed where the table is ready (`start_live`), a camera or stream that
        will not open then tried again until it does (`_start_reconnect`); else shown on the capture thread, a
        failing source reconnecting with a banner. `opened`: the source already opened (a camera that came back)."""
        kind, spec = self.settings.source_kind, self.settings.source
        demo = self.sim_worker is not None or (self.driver is not None and kind != "simulated")
        if demo:           # a demo has the live view: the table starts when the demo is stopped (`_resume_table`)
            self.table_paused = True
        if demo or self.capture is not None or self.session is not None:
            if opened is not None:
                opened.close()
            return
        if kind != "simulated":
            if self.start_live(source=opened) is not None:
                return
            if opened is None and self.source_error is not None and kind in RETRY_KINDS:
                self._start_reconnect(self.source_error, lost=False)
                return
        source: FrameSource
        if kind == "simulated":
            if opened is not None:
                opened.close()
            source = SyntheticSource(960, 540, 30.0)
            reopen = None
        else:
            spec = spec or "0"
            if opened is not None:
                source = opened
            else:
                try:
                    source = open_source(spec)
                except (SourceError, OSError) as exc:
                    self.live.video.message = f"Cannot open {kind} {spec!r}: {exc}"
                    self.live.show_banner(f"Video source unavailable: {exc}. Check Settings; retrying.")
                    source = _RetrySource(spec)
            reopen = _reopener(spec)
        self.capture = CaptureThread(source, self.slot, reopen=reopen, retry_s=2.0)
        self.capture.start()
        self.source_timer.start()
        self.live.video.message = f"Connecting to {source.name}…"

    def _check_source(self) -> None:
        self._check_table_camera()
        capture = self.capture
        if capture is None:
            return
        if capture.status == "reconnecting":
            self.live.show_banner(f"Video lost ({capture.error}); reconnecting… the hand in progress stays recorded.")
        elif capture.status == "failed":
            self.live.show_banner(f"Video source failed: {capture.error}")
        elif capture.status == "ended":
            self.live.show_banner("The video has ended.")
        else:
            self.live.show_banner(None)

    def _check_table_camera(self) -> None:
        """The camera of a refereed table failed (it vanished, or sent frames that cannot be read): say so in one
        line, and end the hand in progress in the log as incomplete; the video no longer freezes without a word."""
        session = self.session
        if session is None or self.sim_worker is not None or session.worker is None or session.ended:
            return
        worker = session.worker
        if getattr(worker, "status", None) != "failed":
            return
        session.end_on_failure()
        error = getattr(worker, "error", None) or "the source failed"
        if self.settings.source_kind in RETRY_KINDS:      # a camera plugged back, a stream back up: it comes back
            self._start_reconnect(error)
            return
        self._show_no_hand()
        self.live.show_banner(f"Video lost: {error}. Refereeing has stopped; the hands so far are in the hand log "
                              "(the one in progress as incomplete). Check the source, then save Settings to reconnect.")

    # --- a refereed table's source that was lost, or would not open, tried again ------------------
    def _start_reconnect(self, error: str, lost: bool = True) -> None:
        """Try the settings' source again every `reconnect_s` until it opens (then refereeing restarts on a new
        session, `_reconnected`), Settings are saved (`restart_table`), a demo starts or the window closes.

        Each attempt opens the source on its own thread (`SourceProbe`: a stream's open can block for many seconds,
        a camera's for a second or two), polled here on the UI thread; never two attempts at once."""
        self._stop_reconnect()
        self.back_note = None
        every = f"{self.reconnect_s:g} s"
        error = _one_line(error)
        if lost:       # the failed session's hands are in the log already: its hand in progress ended as incomplete
            head = f"Video lost: {error}. Retrying every {every} (another source: Settings)"
            tail = "; the hands so far are in the hand log (the one in progress as incomplete)."
        else:
            head = f"Refereeing waits for the video source: {error}. Retrying every {every} (another source: Settings)"
            tail = "."
        self._reconnect_lost = lost
        self._reconnect_text = (head, tail)
        self._reconnect_error_shown = None if lost else error   # the same error again is not said twice
        self.live.show_banner(head + tail)
        self.live.video.message = f"Retrying the video source every {every}…"
        self._reconnect_next = time.monotonic() + self.reconnect_s
        self.reconnect_timer.setInterval(max(10, min(250, int(self.reconnect_s * 250))))
        self.reconnect_timer.start()
        self._show_no_hand()

    def _say_last_try(self, error: str | None) -> None:
        """A retry failed: the banner names its error after the retrying line, still one line; redrawn only when the
        error differs from the one it names (a camera that stays away is not redrawn every few seconds)."""
        error = _one_line(error or "the source did not open")
        if error == self._reconnect_error_shown:
            return
        self._reconnect_error_shown = error
        head, tail = self._reconnect_text
        self.live.show_banner(f"{head}; last try: {error}{tail}")

    @property
    def reconnecting(self) -> bool:
        """Whether the table's source is being tried again (see `_start_reconnect`)."""
        return self.reconnect_timer.isActive()

    def _reconnect_tick(self) -> None:
        if self.sim_worker is not None or self.driver is not None:   # a demo has the live view now
            self._stop_reconnect()
            return
        probe = self.reconnect_probe
        if probe is not None:
            if not probe.done.is_set():
                return               # still opening (a slow stream): waited for, never a second attempt beside it
            self.reconnect_probe = None
            source = probe.take()
            if source is not None:
                self._reconnected(source)
                return
            self._say_last_try(probe.error)
        now = time.monotonic()
        if now >= self._reconnect_next:
            self._reconnect_next = now + self.reconnect_s
            self.reconnect_attempts += 1
            self.reconnect_probe = SourceProbe(self.settings.source or "0", open_source)
            self.reconnect_probe.start()

    def _reconnected(self, source: FrameSource) -> None:
        """The source opened again: refereeing restarts as saving Settings restarts it (`restart_table`: the failed
        session stopped, a new one on the window's one hand-log writer, under the same dealer), on this source."""
        self.restart_table(source)
        session = self.session
        if session is None or session.ended:
            return                   # the table could not be refereed after all: start_live said why
        self.back_note = f"Camera back at {time.strftime('%H:%M:%S')}; refereeing resumes with the next hand."
        self.live.show_banner(" ".join(t for t in (self.back_note, self.table_warning) if t))
        session.hand_started.connect(self._first_hand_back)

    def _first_hand_back(self) -> None:
        """The first hand after the camera came back: "Camera back at ..." has been said; the table's warning stays."""
        if self.back_note is not None:
            self.back_note = None
            self.live.show_banner(self.table_warning)

    def _stop_reconnect(self) -> None:
        """Stop trying the source again; an attempt still opening closes what it opens (it is not waited for)."""
        self.reconnect_timer.stop()
        if self.reconnect_probe is not None:
            self.reconnect_probe.cancel()
            self.reconnect_probe = None

    def stop_capture(self) -> None:
        self._stop_reconnect()
        self.source_timer.stop()
        if self.capture is not None:
            self.capture.stop()
            self.capture.join(timeout=2)
            self.capture = None

    def install_overlay(self) -> None:
        """Draw the table profile's zones over the video (saved calibration, else fitted to the frame)."""
        self.live.video.overlays = []
        try:
            profile = load_profile(self.settings.table_profile)
        except DealerAssistError as exc:
            self.statusBar().showMessage(f"No overlay: {exc}")
            return
        self.live.video.overlays.append(TableOverlay.for_profile(profile, self.table))

    def _calibration_saved(self, profile: str, path: Path) -> None:
        self.apply_settings(replace(self.settings, table_profile=profile))
        self.statusBar().showMessage(f"Calibration for {profile} saved to {path}")

    # --- settings ----------------------------------------------------------------------------
    def _refresh_summary(self) -> None:
        s = self.settings
        seats = f" · seats {s.seats.replace(' ', '')}" if s.seats.strip() else ""
        self.table_label.setText(f"{s.table_profile} · {s.house_preset} · {s.stakes}{seats}")

    def show_notice(self, text: str | None) -> None:
        if text:
            self.notice.setText(text)
            self.notice.show()
        else:
            self.notice.hide()

    def edit_settings(self) -> None:
        dialog = SettingsDialog(self.settings, self)
        if dialog.exec() == QDialog.DialogCode.Accepted:
            self.apply_settings(dialog.settings)

    def apply_settings(self, settings: Settings) -> None:
        if settings.font_scale != self.settings.font_scale:
            app = QApplication.instance()
            if isinstance(app, QApplication):
                theme.apply_theme(app, settings.font_scale)
        before = self.settings
        self.settings = replace(settings, mode=self.mode)
        self.flags.set_pin(settings.supervisor_pin)
        self._refresh_summary()
        self.install_overlay()
        if self.driver is not None:  # new house rules or stakes: deal the demo again under them
            auto_bet = self.driver.auto_bet
            self.stop_demo(resume_table=False)
            self.start_demo(auto_bet=auto_bet)
        elif self.sim_worker is not None:
            self.start_video_demo(seed=self.sim_seed, errors=self.sim_errors, realtime=self.sim_realtime)
        elif self._table_needs_restart(before):
            self.restart_table()
        elif self.settings.dealer_name != before.dealer_name:
            self._change_dealer()
        self.save()

    def _table_needs_restart(self, before: Settings) -> bool:
        """New source, table or rules, or a camera or hand log that failed: saving Settings reconnects."""
        s = self.settings
        changed = (s.source_kind, s.source, s.table_profile, s.house_preset, s.small_blind, s.big_blind, s.seats) != (
            before.source_kind, before.source, before.table_profile, before.house_preset, before.small_blind,
            before.big_blind, before.seats)
        session = self.session
        failed = session is not None and (session.ended or (self.table_sink is not None
                                                            and self.table_sink.error is not None))
        return changed or failed or self.reconnecting or (self.capture is not None and self.capture.status != "running")

    def restart_table(self, opened: FrameSource | None = None) -> None:
        """Stop the camera's table (`_stop_table`), then open the settings' source again (`opened`: already open); a
        hand log that failed is opened afresh."""
        self._stop_table()
        self.start_capture(opened)

    def _stop_table(self) -> None:
        """Stop the camera's session (its hand in progress ends as incomplete, once), the capture and any retrying of
        the source; the pad shows no seat to act. A hand log that failed is closed (opened afresh when needed)."""
        self._stop_reconnect()
        self.back_note = None
        self.table_warning = None
        self.session_timer.stop()
        session = self._camera_session
        if session is not None:
            session.stop()
            self.session = None
        self.stop_capture()
        if self.log_writer is not None and self.table_sink is not None and self.table_sink.error:
            self.log_writer.close()
            self.log_writer = None
        self.table_sink = self.table_log_sink = None
        self.live.show_banner(None)
        self.table.set_prompt(Prompt(phase="idle", message="waiting for a hand"))

    def save(self) -> None:
        try:
            save_settings(self.settings, self.settings_path)
        except OSError as exc:
            self.show_notice(f"Could not save settings to {self.settings_path}: {exc}")

    def report_fault(self, exc: BaseException) -> str:
        """A fault inside the tool during a session (a bug, not bad input): the traceback to a report file, one line
        on the status bar (kept until the next message) and on stderr; the window and the hand log carry on."""
        line = fault_line(exc, fault_report(exc, sys.argv[1:]))
        self.statusBar().showMessage(line)
        print(f"error: {line}", file=sys.stderr, flush=True)
        return line

    def closeEvent(self, event: QCloseEvent) -> None:
        """Stop the demo and the capture, end a recorded hand in progress as incomplete, save settings."""
        self._stop_reconnect()
        self.demo_timer.stop()
        self.stop_video_demo()
        self.procedure.stop()
        self.session_timer.stop()
        if self.session is not None:
            self.session.stop()
            self.session = None
        self.stop_capture()
        if self.recorder is not None:
            self.recorder.close()
            self.recorder = None
        self.review_model.close()
        if self.log_writer is not None:
            self.log_writer.close()
            self.log_writer = None
        self.settings = replace(self.settings, trainee=self.training.trainee.text().strip() or self.settings.trainee)
        self.save()
        super().closeEvent(event)


def _one_line(text: str, limit: int = 200) -> str:
    """An error as one line for the banner: whitespace (a library's multi-line message) collapsed, a long one cut."""
    line = " ".join(text.split())
    return line if len(line) <= limit else line[: limit - 1] + "…"


def _jpeg(image: object) -> bytes:
    """A key frame as JPEG (cv2 is loaded by then: the vision chain uses it)."""
    import cv2

    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 80])  # type: ignore[call-overload]
    if not ok:
        raise OSError("JPEG encoding failed")
    return bytes(data.tobytes())


def has_display() -> bool:
    """Whether a window can be shown: a display server, or a Qt platform chosen by hand (Windows, macOS: yes)."""
    if sys.platform in ("win32", "darwin"):
        return True
    return any(os.environ.get(k) for k in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"))


def run(
    demo: bool = False,
    mode: str | None = None,
    settings_path: Path | None = None,
    screenshot: Path | None = None,
    quit_after_ms: int | None = None,
    argv: list[str] | None = None,
    auto_bet: bool = True,
    seed: int = 1,
) -> int:
    """Open the main window (`demo`: on the simulated table's video); with `screenshot`, save a grab of it
    once shown (then quit after `quit_after_ms` if given).

    With no display (no DISPLAY / WAYLAND_DISPLAY and no QT_QPA_PLATFORM), nothing can be shown: the
    app plays one simulated hand to showdown offscreen, saves screenshots, prints the hand's story
    and award, and returns 0 (`headless_demo`). The demo never fails: any error there falls back to
    the rules engine's story of a simulated hand."""
    if not has_display() and QApplication.instance() is None:
        print("No display found (DISPLAY / WAYLAND_DISPLAY unset): playing one simulated hand offscreen "
              "instead of opening the window. Run under `xvfb-run -a` or set QT_QPA_PLATFORM to choose.",
              flush=True)
        return headless_demo(seed=seed, settings_path=settings_path, out=screenshot)
    try:
        return _run_window(demo, mode, settings_path, screenshot, quit_after_ms, argv, auto_bet, seed)
    except Exception as exc:  # the window could not start (no usable Qt platform, ...)
        if not demo:
            raise
        print(f"The window could not open ({type(exc).__name__}: {exc}); the demo's hand as text instead:",
              file=sys.stderr)
        return _text_demo(seed)


def _run_window(demo: bool, mode: str | None, settings_path: Path | None, screenshot: Path | None,
                quit_after_ms: int | None, argv: list[str] | None, auto_bet: bool, seed: int) -> int:
    started = time.perf_counter()
    app = QApplication.instance() or QApplication(argv if argv is not None else sys.argv[:1])
    assert isinstance(app, QApplication)
    settings_path = settings_path or default_settings_path()
    settings, notice = load_settings(settings_path)
    if mode is not None or demo:
        settings = replace(settings, mode=mode or "live")
    theme.apply_theme(app, settings.font_scale)
    window = MainWindow(settings, settings_path, notice=notice, demo=demo, auto_bet=auto_bet, seed=seed,
                       video=auto_bet)
    window.show()

    def on_fault(kind: type[BaseException], exc: BaseException, tb: TracebackType | None) -> None:
        if issubclass(kind, KeyboardInterrupt):
            sys.__excepthook__(kind, exc, tb)
        else:
            window.report_fault(exc)

    sys.excepthook = on_fault  # an exception escaping a Qt slot comes here instead of a traceback on the terminal
    shown_s = time.perf_counter() - started
    window.statusBar().showMessage(f"{MODE_TITLES[window.mode]} mode · ready in {shown_s:.2f} s", READY_MESSAGE_MS)

    def grab() -> None:
        if screenshot is not None:
            screenshot.parent.mkdir(parents=True, exist_ok=True)
            if not window.grab().save(str(screenshot)):
                raise OSError(f"could not save the screenshot {screenshot}")

    def grab_and_close() -> None:
        try:
            grab()
        finally:              # a failed grab must not leave a window that was asked to close running
            window.close()

    if quit_after_ms is not None:  # grab just before closing, so the picture shows the state at the end
        QTimer.singleShot(quit_after_ms, grab_and_close)
    elif screenshot is not None:
        QTimer.singleShot(1000, grab)
    return int(app.exec())


def _text_demo(seed: int) -> int:
    """The last resort of the demo: the rules engine plays a hand and tells it."""
    import random

    from dealer_assist.rules.simulate import simulate_hand
    from dealer_assist.rules.story import hand_story

    print(hand_story(simulate_hand(HouseRules(), 6, random.Random(seed))))
    return 0


def headless_demo(seed: int = 1, settings_path: Path | None = None, out: Path | None = None,
                  timeout_s: float = 120.0) -> int:
    """One simulated hand played offscreen through the vision chain and the referee, to showdown.

    Saves two screenshots (the table at showdown with its overlays, and the showdown board), prints
    their paths, the hand's story and the award, and returns 0. Never raises: on any failure it tells
    a simulated hand as text instead."""
    try:
        return _headless_demo(seed, settings_path, out, timeout_s)
    except Exception as exc:  # the demo must never fail
        print(f"(the offscreen demo failed: {type(exc).__name__}: {exc}; the hand as text instead)", file=sys.stderr)
        return _text_demo(seed)


def _headless_demo(seed: int, settings_path: Path | None, out: Path | None, timeout_s: float) -> int:
    import tempfile

    from dealer_assist.app.models.sim_demo import SimFrame, truth_detections
    from dealer_assist.audit.report import report_text
    from dealer_assist.rules.awards import award_sentences
    from dealer_assist.vision.events import CardsShown

    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    app = QApplication.instance() or QApplication(sys.argv[:1])
    assert isinstance(app, QApplication)
    settings, _ = load_settings(settings_path or default_settings_path())
    theme.apply_theme(app, settings.font_scale)
    window = MainWindow(replace(settings, mode="live"), settings_path or Path(tempfile.mkdtemp()) / "settings.json",
                        start_capture=False)
    window.resize(1600, 1000)
    window.show()
    worker = window.start_video_demo(seed=seed, realtime=False, render=False)
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        app.processEvents()
        if worker.status in ("ended", "failed") and worker.events.empty() and not window.sim_timer.isActive():
            break
        time.sleep(0.01)
    if worker.status == "failed":
        raise DealerAssistError(worker.error or "the simulated table failed")
    sim = worker.sim
    shows = [e.frame for e in sim.truth.events if isinstance(e, CardsShown)]
    f = min(sim.frame_count - 1, (max(shows) + int(sim.fps)) if shows else sim.frame_count // 2)
    window.slot.put(SimFrame(sim.render_frame(f), f / sim.fps, f, truth_detections(sim, f)))
    window.live.video.poll()
    award = window.sim_award
    target = out or Path(tempfile.gettempdir()) / f"dealer-assist-demo-{seed}.png"
    target.parent.mkdir(parents=True, exist_ok=True)
    board = target.with_name(target.stem + "-showdown" + target.suffix)
    window.live.center.setCurrentWidget(window.live.video)
    app.processEvents()
    window.grab().save(str(target))
    window.live.show_award(award)
    app.processEvents()
    window.grab().save(str(board))
    referee = window.session.referee if window.session is not None else None
    window.close()
    print(f"Screenshots: {target} (the table at showdown) and {board} (the showdown board)")
    if referee is not None:
        print(report_text(referee.hands, f"simulated table, seed {seed} (simulated detections)"))
    if award is not None:
        print("\nAward:")
        for sentence in award_sentences(award):
            print(f"  {sentence}")
        truth = worker.award
        if truth is not None:
            same = dict(truth.totals) == dict(award.totals)
            print("The rules engine's award on the cards shown is the " + ("same." if same else
                  f"different: {dict(truth.totals)}"))
    return 0
