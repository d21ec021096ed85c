"""A refereed table's camera that vanishes comes back by itself: the window tries the source again every few seconds
(off the UI thread) and restarts refereeing on a new session when it opens, without anyone saving Settings. Driven
through the real `MainWindow.start_live` with a fake detector and scripted cameras in place of the real one."""

from __future__ import annotations

import sqlite3
import sys
import threading
from collections.abc import Callable
from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication
from table_camera import GatedCamera, oblique_camera, three_seats_dealt

from dealer_assist.app import theme
from dealer_assist.app.main_window import MainWindow
from dealer_assist.app.models.settings import Settings
from dealer_assist.store.handlog import HandLog
from dealer_assist.vision.backends.fake_backend import FakeDetector
from dealer_assist.vision.events import CardDealt
from dealer_assist.vision.frames import SourceError

FPS = 30.0
RETRY_S = 0.05
FRAMES = len(three_seats_dealt(FPS).observations)


class Plug:
    """`open_source` for the test: the camera is plugged in (`plugged`) or not; each open makes a camera with
    `make`. Opens off the UI thread (the window's retries) wait for `gate` when it is given."""

    def __init__(self, make: Callable[[int], GatedCamera]) -> None:
        self.make = make
        self.plugged = True
        self.gate: threading.Event | None = None
        self.calls = 0
        self.off_ui_calls = 0
        self.opened: list[GatedCamera] = []
        self.errors: list[BaseException] = []

    def __call__(self, spec: str) -> GatedCamera:
        self.calls += 1
        if threading.current_thread() is not threading.main_thread():
            self.off_ui_calls += 1
            if self.gate is not None:
                self.gate.wait(10)
        if not self.plugged:
            raise SourceError(f"cannot open camera 'camera {spec}' (not connected?)")
        camera = self.make(len(self.opened))
        self.opened.append(camera)
        return camera


def _window(qtbot, qapp: QApplication, app_dirs: Path, monkeypatch: pytest.MonkeyPatch,  # type: ignore[no-untyped-def]
            plug: Plug, seats: str = "") -> MainWindow:
    """A window refereeing a camera's table (`seats` in play: all by default): a saved profile and calibration, a fake
    detector, `plug` as opener."""
    from dealer_assist.vision.table_profile import oval_profile

    profile = oval_profile(6)
    profile_path = profile.save(app_dirs / "tables" / f"{profile.name}.toml")
    cal = oblique_camera(profile)
    cal.save(profile_path.parent / f"{profile.name}.camera.toml")
    detections = three_seats_dealt(FPS).detections(profile, cal)
    monkeypatch.setattr("dealer_assist.vision.detector.make_detector", lambda *a, **k: FakeDetector(detections))
    monkeypatch.setattr("dealer_assist.app.main_window.open_source", plug)
    monkeypatch.setattr(MainWindow, "RECONNECT_S", RETRY_S)
    theme.apply_theme(qapp)
    settings = Settings(table_profile=str(profile_path), source_kind="camera", source="0",
                        house_preset="badugi-limit", dealer="Ann Lee", seats=seats)
    window = MainWindow(settings, app_dirs / "config" / "settings.json", app_dirs / "data")
    qtbot.addWidget(window)
    window.resize(1600, 1000)
    window.show()
    return window


def _vanishing_then_whole(n: int) -> GatedCamera:
    """The first camera vanishes mid-deal; the ones opened after it play the whole deal."""
    return GatedCamera(FRAMES, fail_after=FRAMES // 2, fps=FPS) if n == 0 else GatedCamera(FRAMES, fps=FPS)


def _lost(qtbot, window: MainWindow) -> None:  # type: ignore[no-untyped-def]
    """Wait until the camera was lost and the window is retrying it."""
    qtbot.waitUntil(lambda: window.reconnecting and "Retrying" in window.live.banner.text(), timeout=20_000)


def _log(app_dirs: Path) -> tuple[list[str | None], dict[int, int], int]:
    """The hand log: each hand's status, how many ends each hand has (by hand, in order), and how many sessions
    (downs) it has."""
    path = app_dirs / "log" / "hand-log.sqlite"
    log = HandLog.open_readonly(path)
    try:
        assert log.verify().ok
        hands = log.list_hands()
    finally:
        log.close()
    statuses = [h.status for h in hands]
    db = sqlite3.connect(path)
    try:
        counts = dict(db.execute("SELECT hand_id, count(*) FROM hand_ends GROUP BY hand_id").fetchall())
        sessions = int(db.execute("SELECT count(*) FROM sessions").fetchone()[0])
    finally:
        db.close()
    return statuses, {n: counts.get(h.id, 0) for n, h in enumerate(hands)}, sessions


def test_a_camera_plugged_back_restarts_refereeing_without_settings(qtbot, qapp, app_dirs: Path,  # type: ignore[no-untyped-def]
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """The camera vanishes mid-deal and is plugged back a few seconds later: refereeing restarts by itself on a new
    session (the hand log's one writer, the same dealer), the banner says when the camera came back, and the hands
    after it are recorded; the interrupted hand is in the log as incomplete, ended once."""
    plug = Plug(_vanishing_then_whole)
    window = _window(qtbot, qapp, app_dirs, monkeypatch, plug)
    old = window.session
    assert old is not None
    plug.plugged = False                                   # unplugged: the retries fail for a while
    _lost(qtbot, window)
    qtbot.waitUntil(lambda: plug.off_ui_calls >= 3, timeout=10_000)
    assert window.session is old and old.ended
    statuses, ends, _ = _log(app_dirs)
    assert statuses == ["incomplete"] and ends == {0: 1}
    writer = window.log_writer

    plug.plugged = True                                    # plugged back: no one touches Settings
    qtbot.waitUntil(lambda: window.session is not old and window.session is not None, timeout=10_000)
    session = window.session
    assert session is not None and not session.ended and not window.reconnecting
    assert window.reconnect_probe is None and window.log_writer is writer
    assert len(plug.opened) == 2
    text = window.live.banner.text()
    assert text.startswith("Camera back at ") and "\n" not in text, text
    qtbot.waitUntil(lambda: session.ended, timeout=20_000)  # the new camera plays a whole deal
    seats = [i.seat for i in session.referee.hands[-1].inputs if isinstance(i, CardDealt)]
    assert sorted(s for s in set(seats) if seats.count(s) == 4) == [1, 3, 5]
    assert "Camera back" not in window.live.banner.text()  # said until the next hand started
    statuses, ends, sessions = _log(app_dirs)
    assert statuses[0] == "incomplete" and len(statuses) == 2, statuses
    assert ends == {0: 1, 1: 0}, ends                       # the interrupted hand ended once; the new one goes on
    assert sessions == 2
    window.close()
    statuses, ends, _ = _log(app_dirs)
    assert statuses == ["incomplete", "incomplete"] and ends == {0: 1, 1: 1}


def test_a_camera_that_stays_away_is_retried_and_said_without_a_session(qtbot, qapp, app_dirs: Path,  # type: ignore[no-untyped-def]
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """While the camera stays away the banner says, in one line, what was lost and that it is retrying; no session
    runs, and the retries (a failed open, even an unexpected error from the capture library) crash nothing."""
    plug = Plug(_vanishing_then_whole)
    window = _window(qtbot, qapp, app_dirs, monkeypatch, plug)
    old = window.session
    assert old is not None
    plug.plugged = False
    real_make = plug.make

    def odd(n: int) -> GatedCamera:
        raise RuntimeError("cv2 error: (-215) camera backend gave up")

    _lost(qtbot, window)
    plug.make, plug.plugged = odd, True                     # one kind of failure, then another
    qtbot.waitUntil(lambda: plug.off_ui_calls >= 3, timeout=10_000)
    plug.make, plug.plugged = real_make, False
    qtbot.waitUntil(lambda: plug.off_ui_calls >= 6, timeout=10_000)
    text = window.live.banner.text()
    assert text.startswith("Video lost: camera 0: ") and "vanished" in text and "Retrying every 0.05 s" in text
    assert "\n" not in text and "incomplete" in text, text
    assert window.reconnecting and window.session is old and old.ended
    assert old.worker is not None and not old.worker.is_alive()
    assert len(plug.opened) == 1 and window.reconnect_attempts >= 6
    assert "internal error" not in window.statusBar().currentMessage()
    assert _log(app_dirs)[0] == ["incomplete"]
    window.close()


def test_saving_settings_while_retrying_starts_one_session(qtbot, qapp, app_dirs: Path,  # type: ignore[no-untyped-def]
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """Saving Settings while the window retries the camera: refereeing restarts once, the retry loop stops, and an
    attempt that was still opening closes the camera it opened instead of starting a second session."""
    plug = Plug(_vanishing_then_whole)
    window = _window(qtbot, qapp, app_dirs, monkeypatch, plug)
    old = window.session
    plug.plugged = False
    _lost(qtbot, window)
    plug.gate = threading.Event()                             # the next attempt hangs in its open (a slow stream)
    plug.plugged = True
    qtbot.waitUntil(lambda: window.reconnect_probe is not None, timeout=10_000)
    window.apply_settings(window.settings)                    # saved as they were: reconnects now
    session = window.session
    assert session is not None and session is not old and not session.ended and not window.reconnecting
    assert window.reconnect_probe is None
    plug.gate.set()                                           # the abandoned attempt opens its camera now
    qtbot.waitUntil(lambda: len(plug.opened) == 3, timeout=10_000)
    qtbot.waitUntil(lambda: plug.opened[2].closed, timeout=5000)
    qtbot.wait(int(RETRY_S * 1000 * 5))
    assert window.session is session and plug.opened[2].index == 0 and not window.reconnecting
    assert _log(app_dirs)[2] == 2                             # two downs in the log: the first and the restart
    window.close()


def test_saving_settings_while_the_camera_is_still_away_keeps_retrying(qtbot, qapp, app_dirs: Path,  # type: ignore[no-untyped-def]
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """Settings saved (a new dealer) while the camera is still away: the retries carry on, and when it is plugged
    back one session starts, under the new dealer."""
    from dataclasses import replace

    plug = Plug(_vanishing_then_whole)
    window = _window(qtbot, qapp, app_dirs, monkeypatch, plug)
    plug.plugged = False
    _lost(qtbot, window)
    window.apply_settings(replace(window.settings, dealer="Bea Cruz"))
    assert window.session is None and window.reconnecting
    assert "Retrying" in window.live.banner.text() and "\n" not in window.live.banner.text()
    plug.plugged = True
    qtbot.waitUntil(lambda: window.session is not None, timeout=10_000)
    qtbot.wait(int(RETRY_S * 1000 * 5))
    assert not window.reconnecting and len(plug.opened) == 2
    db = sqlite3.connect(app_dirs / "log" / "hand-log.sqlite")
    try:
        downs = [r[0] for r in db.execute("SELECT d.name FROM sessions s JOIN dealers d ON d.id = s.dealer_id "
                                          "ORDER BY s.id")]
    finally:
        db.close()
    assert downs == ["Ann Lee", "Bea Cruz"], downs
    window.close()


def test_a_camera_missing_at_start_is_refereed_once_plugged_in(qtbot, qapp, app_dirs: Path,  # type: ignore[no-untyped-def]
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """The table is ready but its camera is not plugged in when the window opens: it is retried, and refereed once it
    is (refereeing stayed off for good, the video alone reconnecting)."""
    plug = Plug(lambda n: GatedCamera(FRAMES, fps=FPS))
    plug.plugged = False
    window = _window(qtbot, qapp, app_dirs, monkeypatch, plug)
    assert window.session is None and window.capture is None and window.reconnecting
    text = window.live.banner.text()
    assert "not connected" in text and "Retrying" in text and "\n" not in text, text
    qtbot.waitUntil(lambda: plug.off_ui_calls >= 2, timeout=10_000)
    plug.plugged = True
    qtbot.waitUntil(lambda: window.session is not None, timeout=10_000)
    assert not window.reconnecting and window.live.banner.text().startswith("Camera back at ")
    window.close()


def test_closing_the_window_stops_the_retries(qtbot, qapp, app_dirs: Path,  # type: ignore[no-untyped-def]
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """Closing the window while it retries the camera: the timer stops, no attempt follows, and an attempt still
    opening closes what it opens."""
    plug = Plug(_vanishing_then_whole)
    window = _window(qtbot, qapp, app_dirs, monkeypatch, plug)
    plug.plugged = False
    _lost(qtbot, window)
    plug.gate = threading.Event()
    plug.plugged = True
    qtbot.waitUntil(lambda: window.reconnect_probe is not None, timeout=10_000)
    timer = window.reconnect_timer
    window.close()
    assert not timer.isActive() and window.reconnect_probe is None and window.session is None
    calls = plug.calls
    plug.gate.set()
    qtbot.waitUntil(lambda: len(plug.opened) == 2 and plug.opened[1].closed, timeout=5000)
    qtbot.wait(int(RETRY_S * 1000 * 5))
    assert plug.calls == calls and window.session is None and not timer.isActive()


def test_the_ready_message_goes_away(qtbot, qapp, app_dirs: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    """ "Review mode · ready in N s" on the status bar is said for a while at start-up, not kept as if live status."""
    from PySide6.QtCore import QTimer

    from dealer_assist.app import main_window

    monkeypatch.setattr(main_window, "READY_MESSAGE_MS", 150)
    monkeypatch.setattr(sys, "excepthook", sys.excepthook)     # run() installs its own: put back after the test
    seen: list[str] = []

    def look() -> None:
        for w in QApplication.topLevelWidgets():
            if isinstance(w, MainWindow) and w.isVisible():
                seen.append(w.statusBar().currentMessage())
        if len(seen) == 1:
            QTimer.singleShot(500, look)

    QTimer.singleShot(0, look)                                   # the first moment the window's event loop runs
    guard = QTimer()                                             # never hang on a window left open elsewhere
    guard.setSingleShot(True)
    guard.timeout.connect(qapp.quit)
    guard.start(5000)
    try:
        assert main_window.run(mode="review", settings_path=app_dirs / "config" / "settings.json",
                               quit_after_ms=900) == 0
    finally:
        guard.stop()
    assert len(seen) == 2 and "ready in" in seen[0] and seen[1] == "", seen
