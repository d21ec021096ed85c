"""The main window: modes, settings remembered and the broken-settings path, the CLI, screenshots of each mode."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from dealer_assist.app import theme
from dealer_assist.app.main_window import MainWindow, SettingsDialog
from dealer_assist.app.models.demo import sample_award
from dealer_assist.app.models.settings import MODES, Settings, load_settings
from dealer_assist.cli import cli

SCREENSHOTS = Path(__file__).resolve().parent / "_screenshots"


@pytest.fixture
def app_dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("DEALER_ASSIST_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("DEALER_ASSIST_DATA_DIR", str(tmp_path / "data"))
    return tmp_path


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
    assert window.mode == "training" and window.stack.currentWidget() is window.training
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window, timeout=2000)
    qtbot.keyClick(window, Qt.Key.Key_4, Qt.KeyboardModifier.ControlModifier)
    assert window.mode == "calibration"
    window.set_mode("review")
    assert window.mode_buttons["review"].isChecked()
    with pytest.raises(ValueError, match="unknown mode"):
        window.set_mode("poker")


def test_live_mode_wired(qtbot, qapp, app_dirs: Path) -> None:
    window = _window(qtbot, qapp, app_dirs)
    live = window.live
    assert live.pad_model.prompt.actor == 5 and len(live.seats.panels) == 6
    assert "Main pot" in live.pots.lines[0].text()
    assert live.flag_list.list.count() == 3
    assert "Main pot — 155 chips" in live.showdown.text()
    qtbot.waitUntil(lambda: live.video.shown > 0, timeout=3000)  # simulated source feeding the view
    window.close()
    assert window.capture is None


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
    dialog.try_accept()
    assert dialog.result() == dialog.DialogCode.Accepted
    assert dialog.settings.stakes == "100/200" and dialog.settings.house_preset == "badugi-no-limit"


def test_app_command_registered_with_help() -> None:
    result = CliRunner().invoke(cli, ["app", "--help"])
    assert result.exit_code == 0 and "--mode" in result.output and "remembered" in result.output


def test_screenshot_of_each_mode(qtbot, qapp, app_dirs: Path) -> None:
    window = _window(qtbot, qapp, app_dirs)
    qtbot.waitUntil(lambda: window.live.video.shown > 0, timeout=3000)
    SCREENSHOTS.mkdir(exist_ok=True)
    for mode in MODES:
        window.set_mode(mode)
        qtbot.wait(50)
        image = window.grab()
        target = SCREENSHOTS / f"mode_{mode}.png"
        assert image.save(str(target)) and target.stat().st_size > 10_000
    window.set_mode("live")
    window.live.show_award(sample_award())
    qtbot.wait(50)
    assert window.grab().save(str(SCREENSHOTS / "mode_live_showdown.png"))
    window.training.set_answer({})
    window.training.check()
    window.set_mode("training")
    qtbot.wait(50)
    assert window.grab().save(str(SCREENSHOTS / "mode_training_scored.png"))
