"""The hand log keeps the camera calibration a session's cards were mapped by: `log show` says it, exports carry it."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import numpy as np
import pytest
from audit_videos import make_sim_video
from click.testing import CliRunner

from dealer_assist.cli import cli
from dealer_assist.cli.audit_truth import SimTruth
from dealer_assist.store import HandLog
from dealer_assist.store import migrations as migrations_module
from dealer_assist.store.camera_text import CORRECTED_FROM, calibration_line
from dealer_assist.store.export import export_csv, story_dict
from dealer_assist.store.render import render_story
from dealer_assist.vision.calibration import CameraCalibration, calibration_text
from dealer_assist.vision.white_balance import CAST_DEAD_ZONE

HOMOGRAPHY = np.array([[0.2, 0.0, -10.0], [0.0, 0.2, -5.0], [0.0, 0.0, 1.0]])


def camera(method: str = "aruco:0,1,2,3", gains: tuple[float, float, float] = (1.0, 1.0, 1.0),
           points: int = 0) -> CameraCalibration:
    image = tuple((float(i), float(2 * i)) for i in range(points))
    return CameraCalibration("oval-9", (1280, 720), HOMOGRAPHY, method, 0.314, image, image, gains)


def test_the_log_and_the_pipeline_correct_from_the_same_gain() -> None:
    assert CORRECTED_FROM == CAST_DEAD_ZONE


@pytest.mark.parametrize(("cal", "says"), [
    (camera(), "Camera: calibrated from the rail's ArUco markers 0, 1, 2, 3, for 1280x720 frames (error 0.31 cm, "
               "made "),
    (camera("points", points=5), "Camera: calibrated from 5 table points marked by hand, for 1280x720 frames"),
    (camera("known"), "Camera: the simulated table's own calibration (exact), for 1280x720 frames"),
    (camera("fitted"), "Camera: fitted to the frame by hand (no marks), for 1280x720 frames"),
])
def test_how_the_camera_was_calibrated_in_words(cal: CameraCalibration, says: str) -> None:
    line = calibration_line(cal.to_toml())
    assert line.startswith(says) and "gains" not in line


def test_the_light_at_calibration_and_whether_frames_were_corrected() -> None:
    warm = calibration_line(camera(gains=(2.16, 1.32, 1.0)).to_toml())
    assert warm.endswith("; the markers' white at calibration: gains blue 2.16, green 1.32, red 1.00 (frames "
                         "corrected before detection)")
    slight = calibration_line(camera(gains=(1.1, 1.05, 1.0)).to_toml())
    assert slight.endswith("gains blue 1.10, green 1.05, red 1.00 (a tint the detector is trained for: frames read "
                           "as they came)")


@pytest.mark.parametrize("text", ["not toml [", "method = 'points'\n", "image_width = 'wide'\nimage_height = 2\n",
                                  "image_width = 1\nimage_height = 2\nwhite_gains = 'warm'\n"])
def test_a_calibration_the_log_cannot_parse_is_said_not_raised(text: str) -> None:
    assert calibration_line(text).startswith("Camera: a calibration is recorded but cannot be read (")


def test_a_session_keeps_its_calibration_for_each_hand_its_story_and_exports(tmp_path: Path) -> None:
    text = camera(gains=(2.16, 1.32, 1.0)).to_toml()
    with HandLog.open(tmp_path / "log.sqlite") as log:
        filmed = log.start_hand(log.open_session("oval-9", "alice", calibration=text), button=1, stacks={1: 5, 2: 5})
        keyed = log.start_hand(log.open_session("oval-9", "alice"), button=2, stacks={1: 5, 2: 5})
        assert log.verify().ok
        story, plain = log.story(filmed), log.story(keyed)
    assert story.calibration == text and plain.calibration is None
    shown = render_story(story).splitlines()
    assert calibration_line(text) in shown and shown.index(calibration_line(text)) < shown.index("")
    assert not any(line.startswith("Camera:") for line in render_story(plain).splitlines())
    assert story_dict(story)["hand"]["calibration"] == text
    assert "calibration" not in story_dict(plain)["hand"]      # an export made before calibrations still matches
    hand_line = list(export_csv([story]))[1].splitlines()[0]
    assert "white_gains" in hand_line


def test_editing_a_sessions_calibration_is_caught(tmp_path: Path) -> None:
    path = tmp_path / "log.sqlite"
    with HandLog.open(path) as log:
        log.start_hand(log.open_session("oval-9", "alice", calibration=camera().to_toml()), button=1,
                       stacks={1: 5, 2: 5})
    conn = sqlite3.connect(path)
    conn.execute("DROP TRIGGER sessions_no_update")
    conn.execute("UPDATE sessions SET calibration = replace(calibration, 'aruco', 'points')")
    conn.commit()
    conn.close()
    result = CliRunner().invoke(cli, ["log", "verify", "--log", str(path)])
    assert result.exit_code == 1 and "sessions" in result.output


def test_a_log_from_before_calibrations_reads_and_upgrades(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "old.sqlite"
    apply = migrations_module.apply_migrations
    monkeypatch.setattr(migrations_module, "apply_migrations",
                        lambda conn: apply(conn, stop_before="m005_session_calibration"))
    with HandLog.open(path) as log:
        old = log.start_hand(log.open_session("oval-9", "alice", calibration=camera().to_toml()), button=1,
                             stacks={1: 5, 2: 5})
    monkeypatch.undo()
    with HandLog.open_readonly(path) as log:                 # read-only: not upgraded, still shown
        assert log.story(old).calibration is None and log.verify().ok
    with HandLog.open(path) as log:                          # recording upgrades it; the old rows keep their hashes
        new = log.start_hand(log.open_session("oval-9", "alice", calibration=camera().to_toml()), button=1,
                             stacks={1: 5, 2: 5})
        assert log.story(old).calibration is None and log.story(new).calibration == camera().to_toml()
        assert log.verify().ok


def test_audit_records_the_camera_file_it_was_given(tmp_path: Path) -> None:
    video, truth, _ = make_sim_video(tmp_path, "badugi-limit", 1, [])
    cal_file = SimTruth.load(truth).calibration().save(tmp_path / "oval-9.camera.toml")
    with cal_file.open("a") as f:
        f.write("# calibrated before the evening session\n")      # the file as it was, comments included
    log = tmp_path / "hands.sqlite"
    result = CliRunner().invoke(cli, ["audit", str(video), "--table", "oval-9", "--detector", f"fake:{truth}",
                                      "--camera", str(cal_file), "--log", str(log), "--json", "--no-progress"])
    assert result.exit_code == 0, result.output
    hand = json.loads(result.stdout)["hands"][0]
    with HandLog.open_readonly(log) as hl:
        story = hl.story(hl.hand_ids()[0])
    assert story.calibration == cal_file.read_text() and hand["awards"]["totals"]
    shown = CliRunner().invoke(cli, ["log", "show", str(story.hand.id), "--log", str(log)])
    assert "Camera: the simulated table's own calibration (exact), for " in shown.output


def test_a_calibration_without_its_file_is_written_from_what_is_in_use(tmp_path: Path) -> None:
    cal = camera(gains=(2.0, 1.3, 1.0))
    assert calibration_text(cal) == cal.to_toml()
    assert calibration_text(cal, tmp_path / "gone.camera.toml") == cal.to_toml()
    kept = cal.save(tmp_path / "kept.camera.toml")
    assert calibration_text(cal, kept) == kept.read_text()
