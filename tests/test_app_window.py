"""The main window: modes, settings remembered and the broken-settings path, the CLI, screenshots of each mode."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from dealer_assist.app import theme
from dealer_assist.app.main_window import MainWindow, SettingsDialog
from dealer_assist.app.models.settings import MODES, Settings, load_settings
from dealer_assist.cli import cli

SCREENSHOTS = Path(__file__).resolve().parent / "_screenshots"


def _window(qtbot, qapp: QApplication, app_dirs: Path, settings: Settings | None = None,
            notice: str | None = None) -> MainWindow:
    theme.apply_theme(qapp)
    window = MainWindow(settings, app_dirs / "config" / "settings.json", app_dirs / "data", notice=notice)
    qtbot.addWidget(window)
    window.resize(1600, 1000)
    window.show()
    return window


def test_mode_switcher_buttons_and_keys(qtbot, qapp, app_dirs: Path) -> None:
    window = _window(qtbot, qapp, app_dirs)
    assert window.mode == "live" and window.mode_buttons["live"].isChecked()
    qtbot.mouseClick(window.mode_buttons["training"], Qt.MouseButton.LeftButton)
    assert window.mode == "training" and window.stack.currentWidget() is window.training_tabs
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window, timeout=2000)
    qtbot.keyClick(window, Qt.Key.Key_4, Qt.KeyboardModifier.ControlModifier)
    assert window.mode == "calibration"
    window.set_mode("review")
    assert window.mode_buttons["review"].isChecked()
    with pytest.raises(ValueError, match="unknown mode"):
        window.set_mode("poker")


def test_live_mode_idle_without_a_hand(qtbot, qapp, app_dirs: Path) -> None:
    window = _window(qtbot, qapp, app_dirs)
    live = window.live
    assert live.pad_model.prompt.actor is None and not live.seats.panels
    assert not any(b.isEnabled() for b in live.pad.buttons.values())
    assert "no seat is to act" in live.pad.buttons["fold"].toolTip()
    assert live.pots.total.text() == "0" and "no award yet" in live.showdown.text()
    qtbot.waitUntil(lambda: live.video.shown > 0, timeout=3000)  # simulated source feeding the view
    window.close()
    assert window.capture is None


def test_a_pad_entry_with_no_table_refereed_is_refused_not_said_recorded(qtbot, qapp, app_dirs: Path) -> None:
    """With neither a camera's table nor a demo running, an entry reaching the window went nowhere while the status
    bar said "Dealer action recorded"; it is refused in one line."""
    from dealer_assist.audit.records import DealerAction

    window = _window(qtbot, qapp, app_dirs)
    assert window.session is None and window.driver is None
    window.live.pad_model.submitted.emit(DealerAction(3, "call"))
    status = window.statusBar().currentMessage()
    assert status.startswith("Entry not recorded. No hand in progress: no table is being refereed"), status
    assert "recorded:" not in status and "\n" not in status
    assert window.live.pad_model.status_text().startswith("Refused: No hand in progress: no table is being refereed")
    window.close()


def test_unopenable_source_gives_banner_not_crash(qtbot, qapp, app_dirs: Path) -> None:
    settings = Settings(source_kind="file", source=str(app_dirs / "missing.mp4"))
    window = _window(qtbot, qapp, app_dirs, settings)
    qtbot.waitUntil(lambda: window.live.banner.isVisible(), timeout=3000)
    assert "reconnecting" in window.live.banner.text() or "unavailable" in window.live.banner.text()
    window.close()


def test_settings_remembered_between_runs(qtbot, qapp, app_dirs: Path) -> None:
    path = app_dirs / "config" / "settings.json"
    window = _window(qtbot, qapp, app_dirs)
    changed = Settings(table_profile="oval-9", source_kind="file", source="/videos/t1.mp4",
                       house_preset="badacey-pot-limit-double", small_blind=25, big_blind=50, supervisor_pin="9876")
    window.apply_settings(changed)
    window.set_mode("training")
    window.close()
    saved, message = load_settings(path)
    assert message is None
    assert (saved.table_profile, saved.source_kind, saved.source) == ("oval-9", "file", "/videos/t1.mp4")
    assert (saved.house_preset, saved.stakes, saved.mode) == ("badacey-pot-limit-double", "25/50", "training")
    again = _window(qtbot, qapp, app_dirs, saved)
    assert again.mode == "training" and "oval-9 · badacey-pot-limit-double · 25/50" in again.table_label.text()
    assert again.flags.check_pin("9876")


def test_broken_settings_shows_message_and_starts(qtbot, qapp, app_dirs: Path) -> None:
    path = app_dirs / "config" / "settings.json"
    path.parent.mkdir(parents=True)
    path.write_text('{"table_profile": "oval-9", ')
    settings, notice = load_settings(path)
    window = _window(qtbot, qapp, app_dirs, settings, notice)
    assert window.notice.isVisible() and "broken" in window.notice.text()
    assert window.settings == Settings()
    window.close()
    assert json.loads(path.read_text())["table_profile"] == Settings().table_profile  # rewritten, valid
    assert (path.parent / "settings.json.broken").exists()


def test_settings_dialog_validates(qtbot) -> None:
    dialog = SettingsDialog(Settings())
    qtbot.addWidget(dialog)
    dialog.small_blind.setValue(100)
    dialog.big_blind.setValue(50)
    dialog.try_accept()
    assert "small blind" in dialog.error.text()
    dialog.big_blind.setValue(200)
    dialog.pin.setText("12")
    dialog.try_accept()
    assert "PIN" in dialog.error.text()
    dialog.pin.setText("2468")
    dialog.preset.setCurrentText("badugi-no-limit")
    dialog.font_scale.setCurrentText("125%")
    dialog.try_accept()
    assert dialog.result() == dialog.DialogCode.Accepted
    assert dialog.settings.stakes == "100/200" and dialog.settings.house_preset == "badugi-no-limit"
    assert dialog.settings.font_scale == 1.25


def test_app_command_registered_with_help() -> None:
    result = CliRunner().invoke(cli, ["app", "--help"])
    assert result.exit_code == 0 and "--mode" in result.output and "remembered" in result.output


def _play_until(qtbot, window: MainWindow, stop) -> None:
    """Enter check/call on the pad with the keyboard until `stop()` or the award."""
    driver = window.driver
    assert driver is not None
    for _ in range(300):
        qtbot.waitUntil(lambda: driver.award is not None or window.live.pad_model.prompt.actor is not None,
                        timeout=5000)
        if driver.award is not None or stop():
            return
        qtbot.keyClick(window.live.pad, Qt.Key.Key_C)
        qtbot.keyClick(window.live.pad, Qt.Key.Key_Return)


def test_screenshot_of_each_mode(qtbot, qapp, app_dirs: Path) -> None:
    theme.apply_theme(qapp)
    window = MainWindow(Settings(), app_dirs / "config" / "settings.json", app_dirs / "data", demo=True,
                        auto_bet=False, seed=5, step_ms=1)
    qtbot.addWidget(window)
    window.pause_ms = 60_000
    window.resize(1600, 1000)
    window.show()
    qtbot.waitUntil(lambda: window.live.video.shown > 0, timeout=3000)
    driver = window.driver
    assert driver is not None
    _play_until(qtbot, window, lambda: driver.hand.draw >= 2)
    SCREENSHOTS.mkdir(exist_ok=True)
    for mode in MODES:
        window.set_mode(mode)
        qtbot.wait(50)
        image = window.grab()
        target = SCREENSHOTS / f"mode_{mode}.png"
        assert image.save(str(target)) and target.stat().st_size > 10_000
    window.set_mode("live")
    _play_until(qtbot, window, lambda: False)
    qtbot.wait(50)
    assert window.grab().save(str(SCREENSHOTS / "mode_live_showdown.png"))
    window.set_mode("review")  # the demo hand was recorded in the hand log as it was played
    assert window.review.hands.count() == 1 and "complete" in window.review.hands.item(0).text()
    texts = window.review.timeline_texts()
    assert any("Award" in t for t in texts) and texts[-1].startswith("Ended complete")
    assert window.review.verify()
    qtbot.wait(50)
    assert window.grab().save(str(SCREENSHOTS / "mode_review.png"))
    window.training.set_answer({})
    window.training.check()
    window.set_mode("training")
    qtbot.wait(50)
    assert window.grab().save(str(SCREENSHOTS / "mode_training_scored.png"))


def _demo_window(qtbot, qapp, app_dirs: Path, auto_bet: bool, seed: int = 5) -> MainWindow:
    theme.apply_theme(qapp)
    window = MainWindow(Settings(), app_dirs / "config" / "settings.json", app_dirs / "data", demo=True,
                        auto_bet=auto_bet, seed=seed, step_ms=1, start_capture=False)
    qtbot.addWidget(window)
    window.pause_ms = 60_000  # keep the award on screen for the checks
    window.resize(1600, 1000)
    window.show()
    return window


def test_demo_plays_a_hand_to_showdown_through_the_pad(qtbot, qapp, app_dirs: Path) -> None:
    """Betting entered with the keyboard (C = check or call, Enter) until the award is on the board."""
    window = _demo_window(qtbot, qapp, app_dirs, auto_bet=False)
    driver = window.driver
    assert driver is not None
    pad = window.live.pad
    window.activateWindow()
    actions = 0
    while driver.award is None:
        qtbot.waitUntil(lambda: driver.award is not None or window.live.pad_model.prompt.actor is not None,
                        timeout=5000)
        if driver.award is not None:
            break
        prompt = window.live.pad_model.prompt
        assert window.live.seats.panels[prompt.actor].status.text() == "TO ACT"
        qtbot.keyClick(pad, Qt.Key.Key_C)
        qtbot.keyClick(pad, Qt.Key.Key_Return)
        actions += 1
        assert actions < 200
    award = driver.award
    assert actions >= 2
    assert window.live.center.currentWidget() is window.live.showdown
    assert window.live.showdown.award is not None  # the referee's award shown is the rules Hand's
    assert window.live.showdown.award.totals == award.totals and window.live.showdown.award.pots == award.pots
    text = window.live.showdown.text()
    for pot in award.pots:
        assert f"{pot.name.capitalize()} — {pot.amount} chips" in text
        for share in pot.shares:
            assert f"Seat {share.seat}" in text and f"{share.amount} chip" in text
    assert all(p.status.text() != "TO ACT" for p in window.live.seats.panels.values())
    window.live.show_award(award)
    SCREENSHOTS.mkdir(exist_ok=True)
    window.grab().save(str(SCREENSHOTS / "demo_showdown.png"))


def test_demo_refuses_out_of_turn_and_illegal_through_rules(qtbot, qapp, app_dirs: Path) -> None:
    window = _demo_window(qtbot, qapp, app_dirs, auto_bet=False)
    qtbot.waitUntil(lambda: window.live.pad_model.prompt.actor is not None, timeout=5000)
    pad, model = window.live.pad, window.live.pad_model
    actor = model.prompt.actor
    other = next(s for s in window.live.seats.panels if s != actor)
    qtbot.keyClicks(pad, f"s{other}")
    qtbot.keyClick(pad, Qt.Key.Key_Return)
    qtbot.keyClick(pad, Qt.Key.Key_F)
    qtbot.keyClick(pad, Qt.Key.Key_Return)
    assert f"seat {other} is acting out of turn: seat {actor} is to act" in pad.status.text()
    assert model.prompt.actor == actor


def test_demo_auto_plays_hands(qtbot, qapp, app_dirs: Path) -> None:
    window = _demo_window(qtbot, qapp, app_dirs, auto_bet=True, seed=9)
    driver = window.driver
    assert driver is not None
    qtbot.waitUntil(lambda: driver.award is not None, timeout=10_000)
    assert "chips" in window.live.showdown.text()
    assert sum(driver.hand.stacks_by_seat().values()) == sum(driver.stacks.values())  # chips conserved
    window.pause_ms = 1
    window._next_demo_hand()
    assert driver.hand_number == 2 and driver.award is None


def test_screenshot_badacey_showdown(qtbot, qapp, app_dirs: Path) -> None:
    theme.apply_theme(qapp)
    settings = Settings(house_preset="badacey-pot-limit-double", small_blind=5, big_blind=10)
    window = MainWindow(settings, app_dirs / "config" / "settings.json", app_dirs / "data", demo=True,
                        auto_bet=False, seed=3, step_ms=1, start_capture=False)
    qtbot.addWidget(window)
    window.pause_ms = 60_000
    window.resize(1600, 1000)
    window.show()
    _play_until(qtbot, window, lambda: False)
    driver = window.driver
    assert driver is not None and driver.award is not None
    assert window.table.game == "badacey"
    shown = [p for p in window.live.seats.panels.values() if "low:" in p.hand.text()]
    assert shown and all("\nbadugi:" in p.hand.text() for p in shown)
    SCREENSHOTS.mkdir(exist_ok=True)
    assert window.grab().save(str(SCREENSHOTS / "badacey_showdown.png"))


def test_demo_button_and_new_rules_restart_the_demo(qtbot, qapp, app_dirs: Path) -> None:
    """The button plays the simulated table's video; new house rules deal it again under them."""
    window = _window(qtbot, qapp, app_dirs)
    window.set_mode("training")
    qtbot.mouseClick(window.demo_button, Qt.MouseButton.LeftButton)
    assert window.sim_worker is not None and window.mode == "live" and window.demo_button.isChecked()
    qtbot.waitUntil(lambda: window.session is not None, timeout=15_000)
    window.apply_settings(replace(window.settings, house_preset="badacey-no-limit-single"))
    worker = window.sim_worker
    assert worker is not None and worker.preset == "badacey-no-limit-single"
    qtbot.waitUntil(lambda: window.session is not None and window.table.game == "badacey", timeout=15_000)
    qtbot.mouseClick(window.demo_button, Qt.MouseButton.LeftButton)
    assert window.sim_worker is None and window.session is None and not window.demo_button.isChecked()
    window.close()


def test_closing_mid_hand_marks_the_recorded_hand_incomplete(qtbot, qapp, app_dirs: Path) -> None:
    from dealer_assist.store.handlog import HandLog

    window = _demo_window(qtbot, qapp, app_dirs, auto_bet=True, seed=4)
    qtbot.waitUntil(lambda: window.driver is not None and len(window.driver.hand.history) > 10, timeout=5000)
    window.close()
    assert window.recorder is None
    log = HandLog.open_readonly(app_dirs / "log" / "hand-log.sqlite")
    try:
        statuses = [h.status for h in log.list_hands()]
        assert statuses and statuses[-1] == "incomplete" and log.verify().ok
    finally:
        log.close()


def test_referee_flag_reaches_the_flag_list(qtbot, qapp, app_dirs: Path) -> None:
    """A fold the camera saw out of turn: the referee flags it, the list shows it newest first, coloured."""
    from dealer_assist.audit.records import DealerAction, Severity

    window = _demo_window(qtbot, qapp, app_dirs, auto_bet=False)
    qtbot.waitUntil(lambda: window.live.pad_model.prompt.actor is not None, timeout=5000)
    refereed = window.refereed
    assert refereed is not None
    actor = window.live.pad_model.prompt.actor
    other = next(s for s in sorted(window.live.seats.panels) if s != actor)
    assert refereed.report(DealerAction(other, "fold", t=99.0, source="vision"))
    entries = window.flags.entries
    assert entries and entries[0].flag.seat == other
    item = window.live.flag_list.list.item(0)
    assert f"seat {other}" in item.text()
    assert item.foreground().color().name() != "#000000"
    assert entries[0].flag.severity in (Severity.WARNING, Severity.ERROR, Severity.INFO, Severity.MISDEAL)
    SCREENSHOTS.mkdir(exist_ok=True)
    qtbot.wait(50)
    window.grab().save(str(SCREENSHOTS / "live_with_flag.png"))


def test_a_fault_inside_the_app_is_one_status_line_and_a_report(qtbot, qapp, app_dirs: Path,  # type: ignore[no-untyped-def]
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """A bug during a session (an exception escaping a slot reaches `report_fault` through sys.excepthook): the
    window stays up, the status bar names the fault and the report file, which holds the traceback."""
    monkeypatch.setenv("DEALER_ASSIST_CRASH_DIR", str(app_dirs / "crash"))
    window = _window(qtbot, qapp, app_dirs)
    try:
        {}[7]
    except KeyError as exc:
        line = window.report_fault(exc)
    assert line.startswith("internal error (KeyError: 7") and "everything recorded before it is kept" in line
    assert window.statusBar().currentMessage() == line and window.isVisible()
    reports = list((app_dirs / "crash").glob("crash-*.txt"))
    assert len(reports) == 1 and str(reports[0]) in line
    assert "KeyError: 7" in reports[0].read_text()
