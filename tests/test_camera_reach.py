"""Whether a calibrated camera shows the cards large enough to read a shown hand, and where the floor hears it."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest
from audit_videos import make_sim_video
from click.testing import CliRunner

from dealer_assist.cli import cli
from dealer_assist.vision.calibration import CameraCalibration
from dealer_assist.vision.camera_reach import INDEX_SHARE, READ_WELL_PX, camera_reach
from dealer_assist.vision.pipeline import CARD_H_CM
from dealer_assist.vision.table_profile import oval_profile


def _straight_down(px_per_cm: float, size: tuple[int, int]) -> CameraCalibration:
    """A camera straight over the 9-seat table at `px_per_cm`."""
    return CameraCalibration.from_table_to_image(np.diag([px_per_cm, px_per_cm, 1.0]), size, "oval-9")


@pytest.mark.parametrize(("px_per_cm", "expect", "camera"), [
    (5.0, "most shows unread", "2560x1440"),            # 10 px corners: few are read
    (8.0, "some shown cards unread", "1920x1080"),      # 16 px
    (10.0, None, None),                                 # 20 px: read most of the time
])
def test_the_index_corner_height_decides_the_warning(px_per_cm: float, expect: str | None, camera: str | None) -> None:
    reach = camera_reach(oval_profile(9), _straight_down(px_per_cm, (1280, 720)))
    assert reach.corner_px == pytest.approx([INDEX_SHARE * CARD_H_CM * px_per_cm] * 9)
    warning = reach.warning()
    assert reach.reads_shows == (expect is None)
    if expect is None:
        assert warning is None and reach.smallest[1] >= READ_WELL_PX
    else:
        assert warning is not None and expect in warning and "\n" not in warning
        assert "1280x720 frame" in warning and f"a {camera} camera" in warning


def test_a_tilted_camera_names_the_seat_farthest_from_it() -> None:
    profile = oval_profile(9)
    far_side = np.array([[6.0, 0.0, 0.0], [0.0, 6.0, 0.0], [0.0, 0.004, 1.0]])   # rows farther up shrink
    reach = camera_reach(profile, CameraCalibration.from_table_to_image(far_side, (1920, 1080), "oval-9"))
    seat, px = reach.smallest
    assert px == min(reach.corner_px) and max(reach.corner_px) > px * 1.1
    assert profile.seat(seat).card_spot[1] == max(s.card_spot[1] for s in profile.seats)


def test_calibrate_and_audit_tell_the_floor(tmp_path: Path) -> None:
    profile = oval_profile(9)
    image = tmp_path / "frame.png"
    cv2.imwrite(str(image), np.zeros((720, 1280, 3), np.uint8))
    marks = [m.center for m in profile.markers[:4]]
    spec = " ".join(f"{5.0 * x:.2f},{5.0 * y:.2f}" for x, y in marks)        # 5 px/cm, straight down
    cal = CliRunner().invoke(cli, ["calibrate", "--table", "oval-9", "--image", str(image), "--points", spec,
                                   "--out", str(tmp_path / "cam.toml"), "--json"])
    assert cal.exit_code == 0, cal.output
    out = json.loads(cal.stdout)
    assert out["index_corner_px"] == pytest.approx([10.1, 10.1], abs=0.15) and out["reads_shows"] is False
    assert "most shows unread" in cal.stderr

    video, truth, _ = make_sim_video(tmp_path, "badugi-limit", 3, [], size=(640, 360))
    log = tmp_path / "log.sqlite"
    coarse = CliRunner().invoke(cli, ["audit", str(video), "--table", "oval-9", "--truth", str(truth),
                                      "--detector", "fake", "--log", str(log), "--json", "--no-progress"])
    assert coarse.exit_code == 0, coarse.output
    assert "camera: a card's index corner" in coarse.stderr and "most shows unread" in coarse.stderr
    assert "hands" in json.loads(coarse.stdout)
    truth_run = CliRunner().invoke(cli, ["audit", str(video), "--table", "oval-9", "--detector", f"fake:{truth}",
                                         "--log", str(log), "--json", "--no-progress"])
    assert truth_run.exit_code == 0 and "camera:" not in truth_run.stderr    # ground truth reads every card


def test_the_live_view_warns_of_a_camera_too_coarse(qtbot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Refereeing a real table with a camera whose corners are 10 px: the live view's banner says so."""
    from dealer_assist.app.main_window import MainWindow
    from dealer_assist.app.models.settings import Settings
    from dealer_assist.vision.table_profile import PROFILE_DIR

    for var, sub in (("DEALER_ASSIST_CONFIG_DIR", "config"), ("DEALER_ASSIST_DATA_DIR", "data")):
        monkeypatch.setenv(var, str(tmp_path / sub))
    monkeypatch.setenv("DEALER_ASSIST_LOG", str(tmp_path / "log.sqlite"))
    profile_path = tmp_path / "oval-9.toml"
    profile_path.write_text((PROFILE_DIR / "oval-9.toml").read_text())
    _straight_down(5.0, (1280, 720)).save(tmp_path / "oval-9.camera.toml")
    video, _, _ = make_sim_video(tmp_path, "badugi-limit", 3, [])
    w = MainWindow(Settings(table_profile=str(profile_path), source_kind="file", source=str(video)),
                   tmp_path / "config" / "settings.json", tmp_path / "data", start_capture=False)
    qtbot.addWidget(w)
    session = w.start_live(detector="fake")
    try:
        assert session is not None
        assert w.live.banner.isVisibleTo(w) and "most shows unread" in w.live.banner.text()
    finally:
        if session is not None:
            session.stop()
