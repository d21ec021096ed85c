"""Bad input to calibrate, sim-video, detect, audit and train: one `error:` line naming what was wrong and what is
accepted, before any work and without writing over an input (each case was once data loss, an internal error, a
hang, or a screen of OpenCV/FFmpeg noise before the error)."""

from __future__ import annotations

import os
import subprocess
import sys
import warnings
from pathlib import Path

import cv2
import numpy as np
import pytest
from click.testing import CliRunner, Result

from dealer_assist.cli import cli
from dealer_assist.synth.hand_video import SimulatedTable, SimulationError, write_video
from dealer_assist.vision.calibration import CalibrationError, calibrate_from_points
from dealer_assist.vision.table_profile import oval_profile

POINTS = "10,10 300,12 10,170 300,160"   # a 320x180 frame's corners, near enough: a fine calibration


def run(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args))


def one_error_line(result: Result, *words: str) -> str:
    """The single `error:` line of a refused command (exit 2), which must hold each of `words`."""
    assert result.exit_code == 2, result.output
    assert result.output.startswith("error: ") and result.output.count("\n") == 1, result.output
    assert "internal error" not in result.output
    for word in words:
        assert word in result.output, result.output
    return result.output


@pytest.fixture
def frame(tmp_path: Path) -> Path:
    path = tmp_path / "frame.png"
    cv2.imwrite(str(path), np.full((180, 320, 3), 40, np.uint8))
    return path


@pytest.fixture
def afile(tmp_path: Path) -> Path:
    path = tmp_path / "afile"
    path.write_text("a plain file\n")
    return path


def _child_env() -> dict[str, str]:
    """This environment without the FFmpeg log level that importing dealer_assist.vision.sources set in it."""
    return {k: v for k, v in os.environ.items() if k != "OPENCV_FFMPEG_LOGLEVEL"}


# -- 1. an output over an input ------------------------------------------------------------------------------------


def test_calibrate_refuses_to_write_over_the_profile_or_the_image(tmp_path: Path, frame: Path) -> None:
    profile = oval_profile(9).save(tmp_path / "p9b.toml")
    before = profile.read_bytes(), frame.read_bytes()
    one_error_line(run("calibrate", "--table", str(profile), "--image", str(frame), "--points", POINTS,
                       "--out", str(profile)), "--out", "is also the table profile (--table)")
    one_error_line(run("calibrate", "--table", "oval-9", "--image", str(frame), "--points", POINTS,
                       "--out", str(tmp_path / "." / "frame.png")), "is also the image (--image)")
    assert (profile.read_bytes(), frame.read_bytes()) == before
    ok = run("calibrate", "--table", str(profile), "--image", str(frame), "--points", POINTS,
             "--out", str(tmp_path / "cam.toml"))
    assert ok.exit_code == 0, ok.output


def test_sim_video_refuses_the_truth_over_the_video_or_the_profile(tmp_path: Path) -> None:
    video = tmp_path / "x.mp4"
    one_error_line(run("sim-video", "--out", str(video), "--truth", str(video)),
                   f"--out {video} is also the truth file (--truth)")
    profile = oval_profile(6).save(tmp_path / "p6.toml")
    before = profile.read_bytes()
    one_error_line(run("sim-video", "--table", str(profile), "--out", str(video), "--truth", str(profile)),
                   "--truth", "is also the table profile (--table)")
    assert profile.read_bytes() == before and not video.exists()


# -- 2. nan and inf; 3. --threads ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("args", "message"), [
    (["audit", "v.mp4", "--table", "oval-9", "--horizon", "nan"], "'--horizon': 'nan' is not a finite number; "
                                                                   "accepted: x>=0.0"),
    (["audit", "v.mp4", "--table", "oval-9", "--horizon", "inf"], "'--horizon': 'inf' is not a finite number"),
    (["sim-video", "--fps", "nan", "--out", "x.mp4", "--truth", "x.json"], "'--fps': 'nan' is not a finite number; "
                                                                           "accepted: 1.0<=x<=240.0"),
    (["detect", "x.png", "--min-confidence", "nan"], "'--min-confidence': 'nan' is not a finite number; "
                                                     "accepted: 0.0<=x<=1.0"),
    (["detect", "x.png", "--threads", "100000"], "'--threads': 100000 is too many; accepted: 0 (the runtime "
                                                 "decides) to 256"),
], ids=lambda v: " ".join(v) if isinstance(v, list) else "")
def test_non_finite_numbers_and_too_many_threads_are_refused(args: list[str], message: str) -> None:
    one_error_line(run(*args), message)


@pytest.mark.parametrize(("args", "message"), [
    (["--face-down-layouts", "nan,nan,nan"], "--face-down-layouts: 'nan,nan,nan' is not three shares summing to 1"),
    (["--face-down-layouts", "inf,0,0"], "--face-down-layouts: 'inf,0,0' is not three shares"),
    (["--hours", "nan"], "'--hours': 'nan' is not a finite number; accepted: x>=0.0"),
    (["--detector-lr", "nan"], "'--detector-lr': 'nan' is not a finite number; accepted: x>0.0"),
    (["--detector-lr", "inf"], "'--detector-lr': 'inf' is not a finite number"),
    (["--threads", "100000"], "'--threads': 100000 is too many"),
], ids=lambda v: " ".join(v) if isinstance(v, list) else "")
def test_train_refuses_non_finite_numbers_before_any_work(tmp_path: Path, args: list[str], message: str) -> None:
    # --reuse with nothing to reuse stops train before it renders anything, should the value get through
    one_error_line(run("train", "--out", str(tmp_path), "--reuse", "detector", *args), message)


def test_a_sim_source_with_a_nan_frame_rate_is_refused() -> None:
    from dealer_assist.cli.sources import open_source

    with pytest.raises(SimulationError, match="frame rate nan is out of range; accepted: 1 to 240 fps"):
        open_source("sim::1:size=320x180:fps=nan")


# -- 4. no noise before the error ----------------------------------------------------------------------------------


def _damaged_video(path: Path) -> Path:
    """A readable mp4 whose frames are damaged all through (FFmpeg complains about every one of them)."""
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"mp4v"), 15.0, (160, 120))
    rng = np.random.default_rng(3)
    for _ in range(20):
        writer.write(rng.integers(0, 256, (120, 160, 3), dtype=np.uint8))
    writer.release()
    data = bytearray(path.read_bytes())
    for i in range(3000, len(data) - 2000, 499):
        data[i] ^= 0x5A
    path.write_bytes(bytes(data))
    return path


def test_reading_a_damaged_video_prints_nothing(tmp_path: Path) -> None:
    video = _damaged_video(tmp_path / "damaged.mp4")
    code = ("import sys\nfrom dealer_assist.vision.sources import open_source\nfrom dealer_assist.vision.frames "
            "import SourceError\nsource = open_source(sys.argv[1])\ntry:\n    while source.read() is not None:\n"
            "        pass\nexcept SourceError as exc:\n    print(exc)\n")
    child = subprocess.run([sys.executable, "-c", code, str(video)], capture_output=True, env=_child_env(),
                           timeout=120, check=False)
    assert child.returncode == 0 and child.stderr == b"", child.stderr[:500]


@pytest.mark.parametrize("content", [b"", bytes(200_000)], ids=["empty", "zeros"])
def test_audit_of_an_undecodable_video_is_one_line(tmp_path: Path, content: bytes) -> None:
    truth = SimulatedTable("badugi-limit", 1, size=(320, 180)).truth.save(tmp_path / "truth.json")
    video = tmp_path / "bad.mp4"
    video.write_bytes(content)
    child = subprocess.run([sys.executable, "-c", "from dealer_assist.cli import main; main()", "audit", str(video),
                            "--table", "oval-9", "--detector", f"fake:{truth}", "--no-progress",
                            "--log", str(tmp_path / "hands.db")],
                           capture_output=True, env=_child_env(), timeout=120, check=False)
    assert child.returncode == 2
    assert child.stderr.decode() == f"error: cannot open video file '{video}' (not a video OpenCV can decode)\n"


def test_sim_video_checks_the_suffix_before_rendering(tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    one_error_line(run("sim-video", "--out", str(tmp_path / "x.txt"), "--truth", str(tmp_path / "x.json")),
                   "'--out'", "is not a video file name; accepted suffixes: .mp4, .m4v, .mov, .avi, .mkv")
    source = SimulatedTable("badugi-limit", 1, size=(320, 180))
    with pytest.raises(SimulationError, match=r"not a video file name; accepted suffixes: \.mp4"):
        write_video(source, tmp_path / "x.txt")
    assert capfd.readouterr().err == ""
    assert not (tmp_path / "x.txt").exists()


def test_calibrate_with_a_huge_point_warns_nothing(frame: Path) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        one_error_line(run("calibrate", "--table", "oval-9", "--image", str(frame), "--points",
                           "1e308,1 2,3 4,5 6,7"), "image point 1 (1e+308,1) lies outside the 320x180 image")
        with pytest.raises(CalibrationError):
            calibrate_from_points([[10, 10], [300, 12], [10, 170], [300, 160]],
                                  [[1e308, 0], [1, 0], [1, 1], [0, 1]], (320, 180), "t")


# -- 5. a true reason for a calibration refused --------------------------------------------------------------------


@pytest.mark.parametrize(("points", "table_points", "message"), [
    ("-5000,-5000 229.2,20.7 11.6,86.1 307.9,82.2", None,
     "image point 1 (-5000,-5000) lies outside the 320x180 image; accepted: pixels from 0,0 to 320,180"),
    ("10,10 3079,12 310,170 5,160", None, "image point 2 (3079,12) lies outside the 320x180 image"),
    (POINTS, "-1000,0 1,0 1,1 0,1", "--table-points: point 1 (-1000,0) lies off table oval-9; accepted: "
                                    "centimetres from 0,0 to 258,129"),
])
def test_calibrate_says_what_is_wrong_with_the_points(frame: Path, points: str, table_points: str | None,
                                                      message: str) -> None:
    extra = ["--table-points", table_points] if table_points else []
    text = one_error_line(run("calibrate", "--table", "oval-9", "--image", str(frame), "--points", points, *extra),
                          message)
    assert "on one line" not in text


def test_three_close_points_and_a_far_one_are_not_on_one_line() -> None:
    """A far point once made three points near each other count as collinear, though they span a fair triangle."""
    table = np.array([[0, 0], [250, 125], [12, 15], [16, 12]], dtype=np.float64)
    cal = calibrate_from_points(table * 8, table, (2000, 1000), "t")
    assert cal.error_cm < 1e-3
    with pytest.raises(CalibrationError, match="lie on one line"):
        calibrate_from_points([[0, 0], [100, 100], [200, 200], [0, 500]], table, (2000, 1000), "t")


# -- 6. detect's and audit's paths ---------------------------------------------------------------------------------


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> None:
    from dealer_assist.vision.backends.fake_backend import FakeDetector
    from dealer_assist.vision.detections import Detections

    monkeypatch.setattr("dealer_assist.cli.detect.make_detector", lambda *_, **__: FakeDetector(Detections.empty()))


def test_detect_draw_to_a_place_it_cannot_write(tmp_path: Path, frame: Path, afile: Path, fake: None) -> None:
    one_error_line(run("detect", str(frame), "--draw", str(tmp_path)), f"--draw {tmp_path} is a folder",
                   ".png, .jpg")
    one_error_line(run("detect", str(frame), "--draw", str(afile / "out.png")),
                   f"cannot write --draw {afile / 'out.png'}: {afile} is a file, not a folder")
    one_error_line(run("detect", str(frame), "--draw", str(tmp_path / "out.txt")),
                   "out.txt is not an image file name; accepted suffixes: .png, .jpg, .jpeg, .bmp, .tif, .tiff, .webp")
    before = frame.read_bytes()
    one_error_line(run("detect", str(frame), "--draw", str(frame)), "is also the image")
    assert frame.read_bytes() == before
    assert run("detect", str(frame), "--draw", str(tmp_path / "out.jpg")).exit_code == 0


def test_a_folder_is_not_an_image_or_a_video(tmp_path: Path) -> None:
    one_error_line(run("detect", str(tmp_path)), f"{tmp_path} is a folder; accepted: image files")
    from dealer_assist.vision.frames import SourceError
    from dealer_assist.vision.sources import open_source

    with pytest.raises(SourceError, match="is a folder; accepted: a video file"):
        open_source(str(tmp_path))


def test_detect_names_the_missing_manifest_key(tmp_path: Path, frame: Path) -> None:
    manifest = tmp_path / "man2.json"
    manifest.write_text('{"detector_classes": ["index", "back", "button"], "imgsz": [384, 640]}')
    one_error_line(run("detect", str(frame), "--model", str(manifest)),
                   f"bad model manifest {manifest}: the key 'detector' (the detector .onnx file) is missing")


# -- 7. seats --------------------------------------------------------------------------------------------------------


def test_seats_the_table_does_not_have_or_given_twice() -> None:
    one_error_line(run("audit", "v.mp4", "--table", "oval-9", "--seats", "1:100,1:100"),
                   "'--seats': seat 1 is given twice")
    one_error_line(run("audit", "v.mp4", "--table", "oval-9", "--button", "12"),
                   "'--button': table oval-9 has no seat 12; accepted: 1 to 9")
    one_error_line(run("sim-video", "--players", "10", "--table", "oval-6", "--out", "x.mp4", "--truth", "x.json"),
                   "'--players': 10 players do not fit table oval-6; accepted: 2 to 6")
    with pytest.raises(SimulationError, match="7 players do not fit table oval-6"):
        SimulatedTable("badugi-limit", 1, profile=oval_profile(6), players=7, size=(320, 180))


def test_a_truth_file_of_another_table_is_refused(tmp_path: Path) -> None:
    """Its camera looked at another table: every card would land elsewhere, and the audit said 0 hands."""
    truth = SimulatedTable("badugi-limit", 1, profile=oval_profile(6), size=(320, 180)).truth.save(
        tmp_path / "six.json")
    video = tmp_path / "v.mp4"
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter.fourcc(*"mp4v"), 15.0, (64, 64))
    writer.write(np.zeros((64, 64, 3), np.uint8))
    writer.release()
    one_error_line(run("audit", str(video), "--table", "oval-9", "--truth", str(truth), "--log",
                       str(tmp_path / "log.sqlite")), "is of a video of table 'oval-6', not 'oval-9'")
    assert not (tmp_path / "log.sqlite").exists()


# -- 8. an output that cannot be written ---------------------------------------------------------------------------


def test_outputs_that_cannot_be_written(tmp_path: Path, frame: Path, afile: Path) -> None:
    one_error_line(run("calibrate", "--table", "oval-9", "--image", str(frame), "--points", POINTS,
                       "--out", str(afile / "c.toml")), f"cannot write --out {afile / 'c.toml'}: {afile} is a file")
    one_error_line(run("sim-video", "--out", str(afile / "x.mp4"), "--truth", str(tmp_path / "x.json")),
                   f"cannot write --out {afile / 'x.mp4'}")
    one_error_line(run("sim-video", "--out", str(tmp_path / "x.mp4"), "--truth", str(afile / "x.json")),
                   f"cannot write --truth {afile / 'x.json'}")
    assert not (tmp_path / "x.mp4").exists() and not (tmp_path / "x.json").exists()
    if Path("/proc/self").is_dir():     # Linux: a folder that takes no new files
        one_error_line(run("calibrate", "--table", "oval-9", "--image", str(frame), "--points", POINTS,
                           "--out", "/proc/c.toml"), "cannot write --out /proc/c.toml")
