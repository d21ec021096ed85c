"""Calibration mode: 4 clicked rail marks give the homography, the overlay is drawn, the file is saved."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QApplication

from dealer_assist.app import theme
from dealer_assist.app.models.calibration import CalibrationWizard, fitted_calibration, rail_marks
from dealer_assist.app.models.capture import LatestFrame, SyntheticSource
from dealer_assist.app.views.calibration import CalibrationView
from dealer_assist.vision.calibration import CameraCalibration
from dealer_assist.vision.table_profile import load_profile

TILT = np.array([[4.1, 0.35, 40.0], [0.05, 3.7, 30.0], [0.0, 0.0006, 1.0]])  # table cm -> image px, a tilted camera


def _frame() -> np.ndarray:
    return np.full((540, 960, 3), (40, 90, 30), np.uint8)


def _marks_in_image(profile_name: str) -> np.ndarray:
    profile = load_profile(profile_name)
    cal = CameraCalibration.from_table_to_image(TILT, (960, 540), profile.name)
    return cal.to_image(rail_marks(profile).table_points)


def test_wizard_four_clicks_fit_and_save(tmp_path: Path) -> None:
    wizard = CalibrationWizard("oval-6")
    assert "Grab a frame" in wizard.message
    wizard.set_frame(_frame())
    assert "rail mark" in wizard.message and "1 of 4" in wizard.message
    points = _marks_in_image("oval-6")
    for x, y in points[:3]:
        wizard.click(x, y)
    assert wizard.calibration is None and "4 of 4" in wizard.message
    wizard.undo()
    wizard.click(*points[2])
    wizard.click(*points[3])
    assert wizard.calibration is not None and wizard.calibration.error_cm < 0.01
    overlay = wizard.overlay()
    assert overlay is not None and not np.array_equal(overlay, wizard.frame)
    path = wizard.save(tmp_path / "oval-6.camera.toml")
    assert path is not None and "Saved" in wizard.message
    loaded = CameraCalibration.load(path)
    assert np.allclose(loaded.to_image([[111.0, 55.5]]), wizard.calibration.to_image([[111.0, 55.5]]), atol=0.01)


def test_wizard_refuses_collinear_clicks_and_unknown_profile() -> None:
    wizard = CalibrationWizard("oval-9")
    wizard.set_frame(_frame())
    for x in (100, 200, 300, 400):
        wizard.click(x, 100)
    assert wizard.calibration is None and len(wizard.clicks) == 3 and "line" in wizard.message
    assert not wizard.detect_aruco() and wizard.message.startswith("ArUco:")  # a plain frame has no markers
    assert not wizard.set_profile("no-such-table") and "Cannot load" in wizard.message


def test_wizard_says_when_the_light_is_coloured(tmp_path: Path) -> None:
    """Markers found under warm light: the wizard says each frame will be corrected, and the file keeps the gains."""
    from dealer_assist.synth.hand_video import SimulatedTable
    from dealer_assist.synth.lighting import cast_light

    frame = SimulatedTable("badugi-limit", 2, size=(1280, 720)).render_frame(0)
    for light, said in (("neutral", False), ("warm", True)):
        wizard = CalibrationWizard("oval-9")
        wizard.set_frame(cast_light(frame, light))
        assert wizard.detect_aruco() and wizard.calibration is not None
        assert ("The light is warm" in wizard.message) is said, wizard.message
        path = wizard.save(tmp_path / f"{light}.camera.toml")
        assert path is not None
        assert CameraCalibration.load(path).white_balance.neutral is not said


def test_a_seat_zone_is_not_moved_over_another_seats_cards() -> None:
    """The saved profile must load again, and the loader refuses zones that overlap where cards are dealt."""
    wizard = CalibrationWizard("oval-6")
    one, two = wizard.profile.seat(1), wizard.profile.seat(2)   # type: ignore[union-attr]
    dx, dy = two.card_spot[0] - one.card_spot[0], two.card_spot[1] - one.card_spot[1]
    assert not wizard.move_seat(1, dx, dy)                      # seat 1's cards onto seat 2's
    assert wizard.profile.seat(1) == one                        # type: ignore[union-attr]
    assert wizard.move_seat(1, 1.0, 0.5)                        # a small nudge is fine


def test_fitted_calibration_centres_the_table() -> None:
    profile = load_profile("oval-6")
    cal = fitted_calibration(profile, (960, 540))
    centre = cal.to_image([[profile.width_cm / 2, profile.height_cm / 2]])[0]
    assert centre == pytest.approx((480, 270), abs=0.5)


def test_view_clicks_and_saves(qtbot, qapp: QApplication, tmp_path: Path) -> None:
    theme.apply_theme(qapp)
    slot = LatestFrame()
    saved: list[tuple[str, Path]] = []
    view = CalibrationView(slot, "oval-6", on_saved=lambda name, path: saved.append((name, path)), save_dir=tmp_path)
    qtbot.addWidget(view)
    view.resize(1500, 900)
    view.show()
    assert not view.grab_frame() and "No frame" in view.message.text()
    frame = SyntheticSource(960, 540).read()
    assert frame is not None
    slot.put(frame)
    assert view.grab_frame()
    assert not view.save_button.isEnabled()
    for x, y in _marks_in_image("oval-6"):
        pos = view.canvas.to_widget(x, y)
        qtbot.mouseClick(view.canvas, Qt.MouseButton.LeftButton, pos=QPoint(round(pos.x()), round(pos.y())))
    assert view.wizard.calibration is not None and view.wizard.calibration.error_cm < 2.0  # 1 px of rounding
    assert view.save_button.isEnabled() and "Calibrated" in view.message.text()
    qtbot.mouseClick(view.save_button, Qt.MouseButton.LeftButton)
    assert saved and saved[0][0] == "oval-6" and saved[0][1].exists()
    assert view.grab().save(str(Path(__file__).resolve().parent / "_screenshots" / "calibration_overlay.png"))


def test_view_drag_a_seat_zone_to_fit_then_save_the_profile(qtbot, qapp: QApplication, tmp_path: Path) -> None:
    """Once calibrated, a seat zone dragged with the mouse moves in table cm; Save writes the adjusted profile."""
    theme.apply_theme(qapp)
    slot = LatestFrame()
    view = CalibrationView(slot, "oval-6", save_dir=tmp_path)
    qtbot.addWidget(view)
    view.resize(1500, 900)
    view.show()
    frame = SyntheticSource(960, 540).read()
    assert frame is not None
    slot.put(frame)
    assert view.grab_frame()
    wizard = view.wizard
    wizard.calibration = CameraCalibration.from_table_to_image(TILT, (960, 540), "oval-6")
    before = load_profile("oval-6")
    seat = before.seat(2)
    start = wizard.calibration.to_image([seat.card_spot])[0]
    end = wizard.calibration.to_image([(seat.card_spot[0] + 6.0, seat.card_spot[1] - 4.0)])[0]
    a, b = view.canvas.to_widget(*start), view.canvas.to_widget(*end)
    qtbot.mousePress(view.canvas, Qt.MouseButton.LeftButton, pos=QPoint(round(a.x()), round(a.y())))
    assert wizard.dragging == 2 and "Dragging seat 2" in view.message.text()
    mid = QPoint(round((a.x() + b.x()) / 2), round((a.y() + b.y()) / 2))
    qtbot.mouseMove(view.canvas, mid)
    qtbot.mouseMove(view.canvas, QPoint(round(b.x()), round(b.y())))
    qtbot.mouseRelease(view.canvas, Qt.MouseButton.LeftButton, pos=QPoint(round(b.x()), round(b.y())))
    assert wizard.dragging is None and wizard.moved == {2}
    moved = wizard.profile.seat(2)
    assert moved.card_spot == pytest.approx((seat.card_spot[0] + 6.0, seat.card_spot[1] - 4.0), abs=0.6)
    assert wizard.profile.seat(1) == before.seat(1)
    assert view.grab().save(str(Path(__file__).resolve().parent / "_screenshots" / "calibration_drag.png"))
    assert view.save() is not None
    saved = load_profile(tmp_path / "oval-6.toml")
    assert saved.seat(2).card_spot == pytest.approx(moved.card_spot, abs=0.01)  # saved to 0.01 cm
    assert (tmp_path / "oval-6.camera.toml").is_file()
    assert load_profile("oval-6").seat(2) == seat  # the shipped profile is untouched


def test_view_reports_a_coloured_light_as_a_success(qtbot, qapp: QApplication, tmp_path: Path) -> None:
    """The words on a warm light are news, not an error: the calibration's message keeps the success colour."""
    from dealer_assist.synth.hand_video import SimulatedTable
    from dealer_assist.synth.lighting import cast_light
    from dealer_assist.vision.frames import Frame

    theme.apply_theme(qapp)
    slot = LatestFrame()
    view = CalibrationView(slot, "oval-9", save_dir=tmp_path)
    qtbot.addWidget(view)
    slot.put(Frame(cast_light(SimulatedTable("badugi-limit", 2, size=(1280, 720)).render_frame(0), "warm"), 0.0, 0))
    assert view.grab_frame()
    view.detect_aruco()
    assert "The light is warm" in view.message.text()
    assert theme.RED not in view.message.styleSheet()
