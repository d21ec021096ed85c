"""A camera's table and the demos, and the pad and the banner while the camera is away: a demo started at a refereed
table (or one retrying its lost camera) stops the table first and referees on its own session, the table coming back
when the demo is stopped; pad entries while the camera is lost are refused in one line, recording nothing; the
banner names the latest retry's error. Driven through the real `MainWindow.start_live` with a fake detector and
scripted cameras in place of the real one."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication
from table_camera import GatedCamera
from test_app_reconnect import FPS, FRAMES, RETRY_S, Plug, _lost
from test_app_reconnect import _window as camera_window

from dealer_assist.app.main_window import MainWindow
from dealer_assist.app.models.live_session import LiveSession, VisionWorker
from dealer_assist.audit.records import DealerAction
from dealer_assist.store.handlog import HandLog
from dealer_assist.vision.frames import Frame

LOST = "No hand in progress: the camera is lost; entries resume when it is back"


class PacedCamera(GatedCamera):
    """A scripted camera giving its frames at their rate, as a real one does (a hand in progress for a few seconds)."""

    def read(self) -> Frame | None:
        time.sleep(1 / self.frame_rate)
        return super().read()


def _window(qtbot, qapp: QApplication, app_dirs: Path, monkeypatch: pytest.MonkeyPatch,  # type: ignore[no-untyped-def]
            plug: Plug) -> MainWindow:
    """A window refereeing a camera's table, seats 1, 3 and 5 in play (`test_app_reconnect`), that holds each
    prompt a minute."""
    window = camera_window(qtbot, qapp, app_dirs, monkeypatch, plug, seats="1,3,5")
    window.pause_ms = 60_000
    assert window.session is not None or window.reconnecting, window.live.banner.text()
    return window


def _lost_window(qtbot, qapp: QApplication, app_dirs: Path,  # type: ignore[no-untyped-def]
                 monkeypatch: pytest.MonkeyPatch, fail_after: int) -> tuple[MainWindow, Plug, LiveSession]:
    """A camera's table whose camera vanished after `fail_after` frames and stays unplugged, the window retrying it:
    the window, its opener and the session that ended. A camera plugged back later plays the whole deal, holding its
    last frames until its `gate` is set."""
    plug = Plug(lambda n: GatedCamera(FRAMES, fail_after=fail_after, fps=FPS) if n == 0
                else GatedCamera(FRAMES, gate_at=FRAMES - 5, fps=FPS))
    window = _window(qtbot, qapp, app_dirs, monkeypatch, plug)
    old = window.session
    assert old is not None
    plug.plugged = False
    _lost(qtbot, window)
    return window, plug, old


def _hands(app_dirs: Path) -> list[tuple[str, str | None, int]]:
    """Each hand in the log: its table, its status, and how many ends it has."""
    path = app_dirs / "log" / "hand-log.sqlite"
    log = HandLog.open_readonly(path)
    try:
        assert log.verify().ok
    finally:
        log.close()
    db = sqlite3.connect(path)
    try:
        return [(str(r[0]), r[1], int(r[2])) for r in db.execute(
            'SELECT t.name, (SELECT e.status FROM hand_ends e WHERE e.hand_id = h.id), '
            '(SELECT count(*) FROM hand_ends e WHERE e.hand_id = h.id) '
            'FROM hands h JOIN "tables" t ON t.id = h.table_id ORDER BY h.id')]
    finally:
        db.close()


def _actions(app_dirs: Path) -> int:
    db = sqlite3.connect(app_dirs / "log" / "hand-log.sqlite")
    try:
        return int(db.execute("SELECT count(*) FROM actions").fetchone()[0])
    finally:
        db.close()


def _table_session(window: MainWindow):  # type: ignore[no-untyped-def]
    """The camera's session now running (its worker reads the camera), or None."""
    session = window.session
    return session if session is not None and isinstance(session.worker, VisionWorker) else None


def test_the_video_demo_stops_the_camera_table_and_gets_its_own_session(  # type: ignore[no-untyped-def]
        qtbot, qapp, app_dirs: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The demo started mid-hand at a refereed table: the camera's session stops first (its hand ends incomplete, once,
    in the log), the demo referees on a session of its own (it went to the camera's referee, the demo's frames to
    none), and stopping the demo starts the table again on its camera."""
    plug = Plug(lambda n: PacedCamera(FRAMES, fps=FPS))
    window = _window(qtbot, qapp, app_dirs, monkeypatch, plug)
    old = window.session
    assert old is not None and old.worker is not None
    qtbot.waitUntil(lambda: bool(old.referee.hands), timeout=20_000)   # a hand in progress

    worker = window.start_video_demo(seed=3, realtime=False, render=False)
    assert window.session is None and old.closed and not old.worker.is_alive() and plug.opened[0].closed
    assert not window.reconnecting and window.table_paused
    assert _hands(app_dirs) == [("oval-6", "incomplete", 1)]
    qtbot.waitUntil(lambda: worker.status in ("ended", "failed") and not window.sim_timer.isActive(),
                    timeout=60_000)
    assert worker.status == "ended", worker.error
    demo = window.session
    assert demo is not None and demo is not old and demo.worker is worker and window.sim_award is not None
    assert len(old.referee.hands) == 1 and demo.referee.hands
    hands = _hands(app_dirs)
    assert hands[0] == ("oval-6", "incomplete", 1) and len(hands) == 2, hands
    assert hands[1][0] == "demo (simulated video)", hands

    window.stop_demo()                                     # the demo button again: the table is refereed again
    table = _table_session(window)
    assert window.sim_worker is None and not window.table_paused and table is not None
    assert table is not old and not table.closed and len(plug.opened) == 2
    qtbot.waitUntil(lambda: bool(table.referee.hands), timeout=20_000)
    window.close()
    hands = _hands(app_dirs)
    assert [h[0] for h in hands] == ["oval-6", "demo (simulated video)", "oval-6"], hands
    assert all(h[2] == 1 for h in hands) and hands[0][1] == hands[2][1] == "incomplete", hands


def test_a_demo_started_while_the_camera_is_lost_stops_the_retries_and_takes_the_pad(  # type: ignore[no-untyped-def]
        qtbot, qapp, app_dirs: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The camera is lost (its session ended, the window retrying it) when the scripted demo starts: the retries stop,
    the ended session goes (the pad's entries went to it, not to the demo), the lost hand stays ended once; stopping
    the demo retries the camera again, and refereeing starts when it is back."""
    window, plug, old = _lost_window(qtbot, qapp, app_dirs, monkeypatch, FRAMES // 2)
    qtbot.waitUntil(lambda: plug.off_ui_calls >= 2, timeout=10_000)

    driver = window.start_demo(auto_bet=False, seed=3)
    window.demo_timer.setInterval(1)
    assert window.session is None and not window.reconnecting and window.reconnect_probe is None
    assert window.table_paused and not window.live.banner.isVisible()
    calls = plug.calls
    qtbot.wait(int(RETRY_S * 1000 * 5))
    assert plug.calls == calls                              # no retry while the demo runs
    window.apply_settings(window.settings)                  # Settings saved: the demo is dealt again, the table waits
    driver = window.driver
    assert driver is not None and window.session is None and not window.reconnecting and window.table_paused
    window.demo_timer.setInterval(1)
    assert plug.calls == calls
    qtbot.waitUntil(lambda: window.live.pad_model.prompt.actor is not None, timeout=10_000)
    before = len(driver.hand.history)
    window.activateWindow()
    qtbot.keyClick(window.live.pad, Qt.Key.Key_C)
    qtbot.keyClick(window.live.pad, Qt.Key.Key_Return)
    assert len(driver.hand.history) > before               # the demo took the entry
    assert not any(isinstance(i, DealerAction) for i in old.referee.inputs)
    assert _hands(app_dirs)[0] == ("oval-6", "incomplete", 1)

    window.stop_demo()                                      # the camera is still away: retried again
    assert window.driver is None and window.reconnecting and window.session is None
    assert "Retrying" in window.live.banner.text()
    plug.plugged = True
    qtbot.waitUntil(lambda: _table_session(window) is not None, timeout=10_000)
    assert not window.reconnecting and len(plug.opened) == 2
    table = window.session
    assert table is not None
    qtbot.waitUntil(lambda: bool(table.referee.hands), timeout=20_000)
    plug.opened[1].gate.set()
    window.close()
    hands = _hands(app_dirs)
    assert hands[0] == ("oval-6", "incomplete", 1) and hands[-1][0] == "oval-6" and all(h[2] == 1 for h in hands)


def test_the_video_demo_started_while_the_camera_is_lost_gets_its_own_session(  # type: ignore[no-untyped-def]
        qtbot, qapp, app_dirs: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The lost camera's ended session was left in place: the video demo's poll took it for its own, and fed the
    camera's referee."""
    window, _, old = _lost_window(qtbot, qapp, app_dirs, monkeypatch, FRAMES // 2)
    worker = window.start_video_demo(seed=3, realtime=False, render=False)
    assert window.session is None and not window.reconnecting and window.reconnect_probe is None
    qtbot.waitUntil(lambda: window.session is not None and bool(window.session.referee.hands), timeout=60_000)
    assert window.session is not old and window.session.worker is worker and len(old.referee.hands) == 1
    window.stop_demo(resume_table=False)
    assert window.session is None and not window.reconnecting
    window.close()
    hands = _hands(app_dirs)
    assert hands[0] == ("oval-6", "incomplete", 1) and all(h[0] != "oval-6" for h in hands[1:]), hands


def test_pad_entries_while_the_camera_is_lost_are_refused_and_work_again_once_it_is_back(  # type: ignore[no-untyped-def]
        qtbot, qapp, app_dirs: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The camera vanishes in the betting: the pad showed the seat to act still, and its entries went to the ended
    session without a word. Now the pad shows why no hand takes an entry and refuses it in one line, recording
    nothing; with the camera back, entries reach the new session's referee."""
    window, plug, old = _lost_window(qtbot, qapp, app_dirs, monkeypatch, FRAMES - 10)
    model, pad = window.live.pad_model, window.live.pad
    assert model.prompt.actor is None and model.status_text() == LOST, model.status_text()
    assert old.referee.hands and old.closed
    inputs = len(old.referee.inputs)
    window.activateWindow()
    qtbot.keyClick(pad, Qt.Key.Key_F)                        # refused by the pad itself: no seat is to act
    assert LOST in pad.status.text() and "\n" not in pad.status.text(), pad.status.text()
    qtbot.keyClick(pad, Qt.Key.Key_Return)
    model.submitted.emit(DealerAction(5, "fold"))           # an entry that reaches the window all the same
    assert model.message == f"Refused: {LOST}"
    assert window.statusBar().currentMessage() == f"Entry not recorded. {LOST}."
    assert len(old.referee.inputs) == inputs and _actions(app_dirs) == 0
    assert _hands(app_dirs) == [("oval-6", "incomplete", 1)]

    plug.plugged = True                                      # the camera is back: a new session takes entries
    qtbot.waitUntil(lambda: _table_session(window) not in (None, old), timeout=10_000)
    session = window.session
    assert session is not None and session is not old
    qtbot.waitUntil(lambda: model.prompt.actor == 5, timeout=20_000)
    qtbot.keyClick(pad, Qt.Key.Key_F)
    qtbot.keyClick(pad, Qt.Key.Key_Return)
    assert not model.message.startswith("Refused"), model.message
    # the pad's look-ahead has it at once; the referee 3 s of video later, as the audit would (the camera is held)
    assert any(isinstance(i, DealerAction) and i.seat == 5 and i.action == "fold"
               for i in session.view.hands[-1].inputs)
    assert model.prompt.actor != 5
    plug.opened[1].gate.set()
    window.close()                                           # stopping referees what the loop held: recorded
    assert _actions(app_dirs) == 1 and len(old.referee.inputs) == inputs


def test_the_banner_names_the_latest_retrys_error_without_redrawing_the_same(  # type: ignore[no-untyped-def]
        qtbot, qapp, app_dirs: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """While retrying, the banner kept the loss's message and never said why the retries fail: it now names the latest
    attempt's error, in one line, redrawn only when that error changes."""
    window, plug, _ = _lost_window(qtbot, qapp, app_dirs, monkeypatch, FRAMES // 2)
    shown: list[str] = []
    show = window.live.show_banner

    def record(text: str | None) -> None:
        shown.append(text or "")
        show(text)

    monkeypatch.setattr(window.live, "show_banner", record)
    qtbot.waitUntil(lambda: "last try" in window.live.banner.text(), timeout=10_000)
    text = window.live.banner.text()
    assert text.startswith("Video lost: camera 0: ") and "vanished" in text and "Retrying every 0.05 s" in text
    assert "last try: cannot open camera 'camera 0' (not connected?)" in text and "incomplete" in text
    assert "\n" not in text, text
    said = len(shown)                                        # 0 when said before `record` was put in
    calls = plug.off_ui_calls
    qtbot.waitUntil(lambda: plug.off_ui_calls >= calls + 4, timeout=10_000)
    assert len(shown) == said <= 1, shown                    # the same error: not redrawn

    def odd(n: int) -> GatedCamera:
        raise RuntimeError("cv2 error: (-215)\n  camera backend gave up")

    plug.make, plug.plugged = odd, True
    qtbot.waitUntil(lambda: "RuntimeError" in window.live.banner.text(), timeout=10_000)
    text = window.live.banner.text()
    assert "last try: RuntimeError: cv2 error: (-215) camera backend gave up;" in text and "\n" not in text, text
    calls = plug.off_ui_calls
    qtbot.waitUntil(lambda: plug.off_ui_calls >= calls + 4, timeout=10_000)
    assert len(shown) == said + 1, shown
    assert window.reconnecting
    window.close()
