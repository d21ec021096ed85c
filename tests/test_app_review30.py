"""Review 30: the Live view at a camera's table under bad input (a camera that vanishes, a corrupt frame, a hand log
that stops being writable) and the hand log it must keep; driven through the real `MainWindow.start_live`, with a
fake detector and a scripted source in place of the camera."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtWidgets import QApplication
from table_camera import GatedCamera, oblique_camera, three_seats_dealt

from dealer_assist.app import theme
from dealer_assist.app.main_window import MainWindow
from dealer_assist.app.models.settings import MODES, Settings
from dealer_assist.store.handlog import HandLog
from dealer_assist.vision.backends.fake_backend import FakeDetector
from dealer_assist.vision.events import CardDealt
from dealer_assist.vision.frames import Frame
from dealer_assist.vision.pipeline import ScriptedTable
from dealer_assist.vision.table_profile import oval_profile

FPS = 30.0


def _live_window(qtbot, qapp: QApplication, app_dirs: Path, monkeypatch: pytest.MonkeyPatch,  # type: ignore[no-untyped-def]
                 camera: GatedCamera, script: ScriptedTable, seats: str = "", started: bool = True,
                 dealer: str = "") -> MainWindow:
    """A window refereeing a camera's table: a saved profile and calibration, a fake detector, `camera` as source."""
    profile = oval_profile(6)
    profile_path = profile.save(app_dirs / "tables" / f"{profile.name}.toml")
    cal = oblique_camera(profile)
    cal.save(profile_path.parent / f"{profile.name}.camera.toml")
    detections = script.detections(profile, cal)
    monkeypatch.setattr("dealer_assist.vision.detector.make_detector", lambda *a, **k: FakeDetector(detections))
    monkeypatch.setattr("dealer_assist.app.main_window.open_source", lambda spec: camera)
    theme.apply_theme(qapp)
    settings = Settings(table_profile=str(profile_path), source_kind="camera", source="0",
                        house_preset="badugi-limit", seats=seats, dealer=dealer)
    window = MainWindow(settings, app_dirs / "config" / "settings.json", app_dirs / "data")
    qtbot.addWidget(window)
    window.resize(1600, 1000)
    window.show()
    assert (window.session is not None) == started, window.live.banner.text()
    return window


def _dealt(window: MainWindow) -> list[int]:
    """The seats the referee took four dealt cards for."""
    assert window.session is not None and window.session.referee.hands
    seats = [i.seat for i in window.session.referee.hands[-1].inputs if isinstance(i, CardDealt)]
    return sorted(s for s in set(seats) if seats.count(s) == 4)


def _hands(app_dirs: Path) -> list[tuple[str, int]]:
    log = HandLog.open_readonly(app_dirs / "log" / "hand-log.sqlite")
    try:
        assert log.verify().ok
        return [(h.status, len(log.story(h.id).records)) for h in log.list_hands()]
    finally:
        log.close()


def test_hands_refereed_at_a_camera_are_recorded_in_the_hand_log(qtbot, qapp, app_dirs: Path,  # type: ignore[no-untyped-def]
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """Live at a real camera: every event the referee takes is committed to the hand log as it happens (the demo's
    hands were recorded; the camera's were not recorded at all)."""
    script = three_seats_dealt(FPS)
    camera = GatedCamera(len(script.observations), gate_at=len(script.observations) - 5)
    camera.gate.set()
    window = _live_window(qtbot, qapp, app_dirs, monkeypatch, camera, script)
    session = window.session
    assert session is not None
    qtbot.waitUntil(lambda: session.ended, timeout=20_000)
    assert _dealt(window) == [1, 3, 5]
    hands = _hands(app_dirs)       # while the window is still open: committed as it happened
    assert len(hands) == 1 and hands[0][1] >= 12, hands
    window.close()
    assert _hands(app_dirs)[0][0] == "incomplete"


def test_a_camera_that_vanishes_mid_hand_is_said_and_the_hand_kept(qtbot, qapp, app_dirs: Path,  # type: ignore[no-untyped-def]
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """The camera stops answering mid-deal: the banner says so in one line (it said nothing: the video froze on its
    last frame as if the table were idle), and the hand so far stays in the log, ended as incomplete."""
    script = three_seats_dealt(FPS)
    camera = GatedCamera(len(script.observations), fail_after=len(script.observations) // 2)
    window = _live_window(qtbot, qapp, app_dirs, monkeypatch, camera, script)
    qtbot.waitUntil(lambda: window.live.banner.isVisible() and "vanished" in window.live.banner.text(),
                    timeout=20_000)
    text = window.live.banner.text()
    assert "\n" not in text and "camera 0" in text and "Settings" in text
    hands = _hands(app_dirs)
    assert len(hands) == 1 and hands[0][0] == "incomplete" and hands[0][1] > 3, hands
    old = window.session
    monkeypatch.setattr("dealer_assist.app.main_window.open_source",
                        lambda spec: GatedCamera(len(script.observations)))
    window.apply_settings(window.settings)          # saving Settings reconnects
    assert window.session is not None and window.session is not old and not window.live.banner.text().startswith(
        "Video lost")
    window.close()


def test_a_corrupt_frame_is_skipped_not_the_end_of_refereeing(qtbot, qapp, app_dirs: Path,  # type: ignore[no-untyped-def]
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """One frame that is not a colour image (a broken decode) among good ones: the view and the referee carry on."""
    script = three_seats_dealt(FPS)
    camera = GatedCamera(len(script.observations), bad=frozenset({3}))
    window = _live_window(qtbot, qapp, app_dirs, monkeypatch, camera, script)
    session = window.session
    assert session is not None
    qtbot.waitUntil(lambda: session.ended or getattr(session.worker, "status", "") == "failed", timeout=20_000)
    qtbot.wait(100)
    assert session.ended and _dealt(window) == [1, 3, 5]
    assert getattr(session.worker, "skipped", None) == 1
    assert "internal error" not in window.statusBar().currentMessage()
    window.close()


def test_a_hand_log_that_becomes_unwritable_is_one_line_and_refereeing_carries_on(  # type: ignore[no-untyped-def]
        qtbot, qapp, app_dirs: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The disk fills mid-hand: one line says the hand log cannot be written and since when; the referee still takes
    every event (an exception out of the sink stopped the events released with it), and what was recorded is kept."""
    script = three_seats_dealt(FPS)
    # held near the end of the deal: the referee, 3 s behind the video, has recorded the deal's first seconds
    camera = GatedCamera(len(script.observations), gate_at=len(script.observations) - 5)
    window = _live_window(qtbot, qapp, app_dirs, monkeypatch, camera, script)
    session = window.session
    assert session is not None
    assert camera.waiting.wait(20)
    qtbot.waitUntil(lambda: session.worker is not None and session.worker.events.empty(), timeout=5000)
    qtbot.wait(100)
    recorded = _hands(app_dirs)
    assert recorded and recorded[0][1] > 3

    def full(*_: object) -> int:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "pwrite", full)
    camera.gate.set()
    qtbot.waitUntil(lambda: session.ended, timeout=20_000)
    monkeypatch.undo()
    assert _dealt(window) == [1, 3, 5]
    shown = window.live.banner.text() + " " + window.notice.text()
    assert "hand log" in shown and "No space left on device" in shown, shown
    assert "internal error" not in window.statusBar().currentMessage()
    after = _hands(app_dirs)
    assert after[0][1] >= recorded[0][1]
    window.close()


def test_the_video_view_never_draws_a_frame_that_is_not_a_colour_image(qtbot) -> None:  # type: ignore[no-untyped-def]
    """A grey or truncated frame handed to QImage as BGR made it read past the end of the buffer: the view keeps the
    last good frame instead."""
    from dealer_assist.app.models.capture import LatestFrame
    from dealer_assist.app.widgets.frame_view import FrameView

    slot = LatestFrame()
    view = FrameView(slot)
    qtbot.addWidget(view)
    good = np.full((90, 160, 3), 80, np.uint8)
    slot.put(Frame(good, 0.0, 0))
    view.poll()
    slot.put(Frame(np.zeros((90, 160), np.uint8), 0.1, 1))
    view.poll()
    assert view.shown == 1 and view.frame is not None and view.frame.index == 0
    slot.put(Frame(good[:, ::2], 0.2, 2))          # a strided view: copied before QImage borrows it
    view.poll()
    assert view.shown == 2 and view.frame is not None and view.frame.image.flags.c_contiguous


def test_the_video_demo_and_the_table_record_through_one_writer(qtbot, qapp, app_dirs: Path,  # type: ignore[no-untyped-def]
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """The hand log takes one writer (a lock on its anchor file, refused to a second open in the same process too):
    a table started after the video demo had opened the log was refused its own writer and recorded nothing."""
    from types import SimpleNamespace

    from dealer_assist.app.models.capture import FrameRing

    script = three_seats_dealt(FPS)
    camera = GatedCamera(len(script.observations))
    window = _live_window(qtbot, qapp, app_dirs, monkeypatch, camera, script)
    demo = window._demo_sink(SimpleNamespace(ring=FrameRing(), config=None))  # type: ignore[arg-type]
    assert demo is not None, window.statusBar().currentMessage()
    notices: list[str] = []
    monkeypatch.setattr(window, "show_notice", notices.append)
    profile = oval_profile(6)
    assert window._table_sink(profile.name, profile.to_toml(), "", FrameRing()) is not None, notices
    assert window.log_writer is not None and not notices
    window.close()
    assert window.log_writer is None


def test_the_seats_in_play_come_from_settings_and_an_empty_seat_is_not_waited_for(  # type: ignore[no-untyped-def]
        qtbot, qapp, app_dirs: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Three players at a six-seat table: with every seat taken as in play (the camera cannot see an empty seat), the
    referee waited for cards to seats 2, 4 and 6 and the hand never left the deal; the seats in play are a setting."""
    script = three_seats_dealt(FPS)
    camera = GatedCamera(len(script.observations), gate_at=len(script.observations) - 5)
    window = _live_window(qtbot, qapp, app_dirs, monkeypatch, camera, script, seats="1:400, 3, 5:250")
    session = window.session
    assert session is not None and "seats 1:400,3,5:250" in window.table_label.text()
    assert camera.waiting.wait(20)
    qtbot.waitUntil(lambda: session.worker is not None and session.worker.events.empty(), timeout=5000)
    qtbot.wait(300)
    session.poll(limit=None)
    referee = session.view                       # the table as it stands (the referee itself follows 3 s behind)
    assert referee.run is not None and sorted(referee.run.hand.seats) == [1, 3, 5]
    assert referee.table.stacks_by_seat == {1: 400, 3: 2000, 5: 250}      # 100 big bets (20) where none is given
    # the button seen at seat 5: seat 1 posts the small blind, seat 3 the big, seat 5 opens
    assert referee.prompt.phase.startswith("betting") and referee.prompt.actor == 5 and referee.flags == []
    assert window.live.pad_model.prompt.actor == 5 and session.referee.flags == []
    camera.gate.set()
    window.close()


def test_seats_in_play_that_are_not_at_the_table_turn_refereeing_off_with_one_line(  # type: ignore[no-untyped-def]
        qtbot, qapp, app_dirs: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    script = three_seats_dealt(FPS)
    window = _live_window(qtbot, qapp, app_dirs, monkeypatch, GatedCamera(len(script.observations)), script,
                          seats="1,3,7", started=False)
    text = window.live.banner.text()
    assert "seats [7] are not at table oval-6" in text and "\n" not in text, text
    window.close()


@pytest.mark.parametrize(("text", "why"), [
    ("1,x", "'x' is not SEAT or SEAT:CHIPS"), ("1,2:0", "chips above 0"), ("1,1", "seat 1 is given twice"),
    ("4", "give at least 2"), ("0,1", "a seat from 1"),
])
def test_bad_seats_in_play_are_refused_by_the_dialog_and_fall_back_in_a_saved_file(  # type: ignore[no-untyped-def]
        qtbot, tmp_path: Path, text: str, why: str) -> None:
    import json

    from dealer_assist.app.main_window import SettingsDialog
    from dealer_assist.app.models.settings import load_settings

    dialog = SettingsDialog(Settings())
    qtbot.addWidget(dialog)
    dialog.seats.setText(text)
    dialog.try_accept()
    assert dialog.result() != dialog.DialogCode.Accepted and why in dialog.error.text(), dialog.error.text()
    path = tmp_path / "settings.json"
    path.write_text(json.dumps({"seats": text, "small_blind": 2}))
    settings, note = load_settings(path)
    assert settings.seats == "" and settings.small_blind == 2 and note is not None and why in note
    dialog.seats.setText(" 2:300 , 4,6 ")
    dialog.try_accept()
    assert dialog.result() == dialog.DialogCode.Accepted and dialog.settings.seats_in_play(50) == {2: 300, 4: 50, 6: 50}


def test_a_long_table_summary_never_widens_the_window(qtbot, qapp, app_dirs: Path) -> None:  # type: ignore[no-untyped-def]
    """The top bar's table summary ("simulated oval-9 · badugi-limit · seed 7", seats in play) made the window
    1678 px wide when 1600 was asked: it now gives up width, elided, with the whole text in its tooltip."""
    from PySide6.QtWidgets import QLabel

    theme.apply_theme(qapp)
    window = MainWindow(Settings(), app_dirs / "config" / "settings.json", app_dirs / "data", start_capture=False)
    qtbot.addWidget(window)
    window.resize(1600, 1000)
    window.show()
    short = window.minimumSizeHint().width()
    text = "simulated oval-9 · badacey-pot-limit-double · seats 1:400,2:250,3:300,4:1000,5:1000,6:1000,7:1000"
    window.table_label.setText(text)
    qapp.processEvents()
    assert window.minimumSizeHint().width() == short <= 1600
    label = window.table_label
    label.resize(120, label.height())
    assert label.text() == text and label.toolTip() == text
    assert QLabel.text(label) != text and "…" in QLabel.text(label)
    window.close()


def test_a_new_dealer_on_the_table_opens_their_down_in_the_log_without_stopping_the_camera(  # type: ignore[no-untyped-def]
        qtbot, qapp, app_dirs: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Hands at a camera's table were all recorded under the dealer "dealer"; the dealer is a setting, and a push
    (a new dealer saved in Settings) opens the new dealer's down for the hands that follow, the hand in progress
    and the camera carrying on."""
    import sqlite3
    from dataclasses import replace

    script = three_seats_dealt(FPS)
    camera = GatedCamera(len(script.observations), gate_at=len(script.observations) - 5)
    window = _live_window(qtbot, qapp, app_dirs, monkeypatch, camera, script, seats="1,3,5", dealer="Ann Lee")
    session = window.session
    assert session is not None and camera.waiting.wait(20)
    qtbot.waitUntil(lambda: bool(session.referee.hands), timeout=20_000)
    window.apply_settings(replace(window.settings, dealer="Bea Cruz"))  # a push mid-hand
    assert window.session is session and not session.ended            # no restart: the camera carries on
    camera.gate.set()
    qtbot.waitUntil(lambda: session.ended, timeout=20_000)
    window.close()
    db = sqlite3.connect(app_dirs / "log" / "hand-log.sqlite")
    try:
        downs = db.execute("SELECT d.name, count(h.id) FROM sessions s JOIN dealers d ON d.id = s.dealer_id "
                           "LEFT JOIN hands h ON h.session_id = s.id GROUP BY s.id ORDER BY s.id").fetchall()
        calibrations = [r[0] for r in db.execute("SELECT calibration FROM sessions ORDER BY id")]
    finally:
        db.close()
    assert downs == [("Ann Lee", 1), ("Bea Cruz", 0)], downs   # Bea's down: from the next hand on
    camera_file = Path(window.settings.table_profile).with_suffix(".camera.toml")   # the same camera, both downs
    assert calibrations == [camera_file.read_text()] * 2
    assert _hands(app_dirs)[0][0] == "incomplete"


def test_a_dealer_name_on_two_lines_is_refused_by_the_dialog_and_dropped_from_a_saved_file(  # type: ignore[no-untyped-def]
        qtbot, tmp_path: Path) -> None:
    import json

    from dealer_assist.app.main_window import SettingsDialog
    from dealer_assist.app.models.settings import load_settings

    dialog = SettingsDialog(Settings())
    qtbot.addWidget(dialog)
    dialog.dealer.setText("Ann\nLee")     # a pasted name: a newline would forge a line of `log list`
    dialog.try_accept()
    assert dialog.result() != dialog.DialogCode.Accepted and "control character" in dialog.error.text()
    path = tmp_path / "settings.json"
    path.write_text(json.dumps({"dealer": "Ann\nLee", "seats": "1,2"}))
    settings, note = load_settings(path)
    assert settings.dealer == "" and settings.dealer_name == "dealer" and settings.seats == "1,2"
    assert note is not None and "control character" in note


def test_the_demo_recorder_says_a_failed_write_once_and_the_demo_plays_on(qtbot, qapp, app_dirs: Path,  # type: ignore[no-untyped-def]
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """The scripted demo writes on its own thread: an SQLite error there (a full disk) killed that thread without a
    word, and its other failures went into a list nothing showed. The first is now said once, in one line."""
    import sqlite3

    from dealer_assist.store.handlog import HandLog

    theme.apply_theme(qapp)
    window = MainWindow(Settings(), app_dirs / "config" / "settings.json", app_dirs / "data", demo=True,
                        auto_bet=True, seed=5, step_ms=1)
    qtbot.addWidget(window)
    window.pause_ms = 60_000
    window.show()
    recorder = window.recorder
    driver = window.driver
    assert recorder is not None and driver is not None

    def full(*_a: object, **_k: object) -> None:
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(HandLog, "record_event", full)
    monkeypatch.setattr(HandLog, "record_action", full)
    said: list[str] = []
    monkeypatch.setattr(window, "show_notice", said.append)
    qtbot.waitUntil(lambda: driver.hand.draw >= 1, timeout=20_000)
    recorder.flush()
    qtbot.waitUntil(lambda: bool(said), timeout=5000)
    assert recorder.errors and recorder._writer is not None and recorder._writer.is_alive()
    assert len(said) == 1 and "disk is full" in said[0] and "\n" not in said[0]
    qtbot.waitUntil(lambda: driver.hand.draw >= 2, timeout=20_000)   # the demo plays on
    assert len(said) == 1
    window.close()


def test_the_window_fits_a_1366_by_768_screen_and_lays_out_in_full_from_1600_by_1000(  # type: ignore[no-untyped-def]
        qtbot, qapp, app_dirs: Path) -> None:
    """The largest view (Review's filter row, 1,430 px; Training, 771 px high) made the whole window at least 1,454 x
    878 px, past a 1366x768 screen's edge: the views now scroll when the window is smaller than they need, and the
    stack sizes to the view shown."""
    theme.apply_theme(qapp)
    window = MainWindow(Settings(), app_dirs / "config" / "settings.json", app_dirs / "data", start_capture=False)
    qtbot.addWidget(window)
    hint = window.minimumSizeHint()
    assert hint.width() <= 1366 and hint.height() <= 768, hint
    window.resize(1600, 1000)
    window.show()
    for mode in MODES:
        window.set_mode(mode)
        qapp.processEvents()
        area = window.view_area
        assert not area.horizontalScrollBar().isVisible() and not area.verticalScrollBar().isVisible(), mode
    window.set_mode("live")
    assert window.stack.minimumSizeHint().width() < window.views["review"].minimumSizeHint().width()
    window.close()
