"""Camera calibration: 4 points and ArUco recover a known homography; bad files get one-line errors."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt
import pytest
from click.testing import CliRunner

from dealer_assist.cli import cli
from dealer_assist.synth.lighting import LIGHT_CASTS, cast_light
from dealer_assist.vision.calibration import (
    CalibrationError,
    CameraCalibration,
    apply_homography,
    calibrate_from_aruco,
    calibrate_from_points,
    check_homography,
    default_camera_path,
    parse_points,
)
from dealer_assist.vision.table_profile import TableProfile, oval_profile

PX_PER_CM = 5.0
CAMERA_QUAD = np.float32([[150, 90], [1150, 60], [1240, 690], [40, 650]])   # where the table's box lands


def _table_to_image(profile: TableProfile) -> npt.NDArray[np.float64]:
    w, h = profile.width_cm * PX_PER_CM, profile.height_cm * PX_PER_CM
    plane_to_image = cv2.getPerspectiveTransform(np.float32([[0, 0], [w, 0], [w, h], [0, h]]), CAMERA_QUAD)
    return np.asarray(plane_to_image @ np.diag([PX_PER_CM, PX_PER_CM, 1.0]), dtype=np.float64)


def _render_markers(profile: TableProfile, skip: set[int] = frozenset()) -> npt.NDArray[np.uint8]:  # type: ignore[assignment]
    """A green table with the profile's ArUco markers, seen by a tilted camera (a known homography)."""
    k = PX_PER_CM
    w, h = int(profile.width_cm * k), int(profile.height_cm * k)
    plane = np.full((h, w, 3), (40, 110, 40), np.uint8)
    dictionary = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, profile.aruco_dictionary))
    for m in profile.markers:
        if m.id in skip:
            continue
        side = int(m.size_cm * k)
        marker = cv2.cvtColor(cv2.aruco.generateImageMarker(dictionary, m.id, side), cv2.COLOR_GRAY2BGR)
        corners = (m.corners() * k).astype(np.float32)
        quiet = (corners - corners.mean(0)) * 1.4 + corners.mean(0)
        cv2.fillConvexPoly(plane, quiet.astype(np.int32), (255, 255, 255))
        to_plane = cv2.getPerspectiveTransform(np.float32([[0, 0], [side, 0], [side, side], [0, side]]), corners)
        warped = cv2.warpPerspective(marker, to_plane, (w, h), flags=cv2.INTER_NEAREST)
        mask = cv2.warpPerspective(np.full((side, side), 255, np.uint8), to_plane, (w, h),
                                   flags=cv2.INTER_NEAREST) > 0
        plane[mask] = warped[mask]
    plane_to_image = cv2.getPerspectiveTransform(np.float32([[0, 0], [w, 0], [w, h], [0, h]]), CAMERA_QUAD)
    return np.asarray(cv2.warpPerspective(plane, plane_to_image, (1280, 720)), dtype=np.uint8)


def _max_error_cm(cal: CameraCalibration, profile: TableProfile) -> float:
    truth = _table_to_image(profile)
    table_pts = np.array([s.card_spot for s in profile.seats] + [profile.dealer, (profile.width_cm / 2, 20.0)])
    image_pts = apply_homography(truth, table_pts)
    return float(np.abs(cal.to_table(image_pts) - table_pts).max())


def test_four_points_recover_homography() -> None:
    p = oval_profile(9)
    truth = _table_to_image(p)
    table_pts = np.array([m.center for m in p.markers[:4]])
    cal = calibrate_from_points(apply_homography(truth, table_pts), table_pts, (1280, 720), p.name)
    assert cal.error_cm < 1e-3
    assert _max_error_cm(cal, p) < 0.01
    assert np.allclose(cal.to_image(cal.to_table([[640, 360]])), [[640, 360]], atol=1e-6)


@pytest.mark.parametrize("seats", [9, 6])
def test_aruco_recovers_homography(seats: int) -> None:
    p = oval_profile(seats)
    cal = calibrate_from_aruco(_render_markers(p), p)
    assert cal.method.startswith("aruco:")
    assert cal.error_cm < 0.5
    assert _max_error_cm(cal, p) < 1.0          # within 1 cm anywhere a card lies


def test_aruco_with_some_markers_hidden() -> None:
    p = oval_profile(9)
    cal = calibrate_from_aruco(_render_markers(p, skip={1, 3, 4}), p)
    assert cal.method == "aruco:0,2,5"
    assert _max_error_cm(cal, p) < 1.5


def test_aruco_markers_bunched_on_one_side() -> None:
    p = oval_profile(9)
    with pytest.raises(CalibrationError, match="bunched on one part of the table"):
        calibrate_from_aruco(_render_markers(p, skip={0, 2, 4}), p)


def test_aruco_too_few_markers() -> None:
    p = oval_profile(9)
    with pytest.raises(CalibrationError, match="found 1 of the table's ArUco markers") as exc:
        calibrate_from_aruco(_render_markers(p, skip={0, 1, 2, 3, 4}), p)
    with pytest.raises(CalibrationError, match="found 2 of"):
        calibrate_from_aruco(_render_markers(p, skip={0, 2, 4, 5}), p)
    assert "\n" not in str(exc.value)


def test_save_and_load_round_trip(tmp_path: Path) -> None:
    p = oval_profile(6)
    cal = calibrate_from_aruco(_render_markers(p), p)
    path = cal.save(tmp_path / "oval-6.camera.toml")
    back = CameraCalibration.load(path, profile=p)
    assert np.allclose(back.image_to_table, cal.image_to_table)
    assert back.image_size == (1280, 720) and back.table == "oval-6"
    with pytest.raises(CalibrationError, match="made for table 'oval-6', not 'oval-9'"):
        CameraCalibration.load(path, profile=oval_profile(9))


def test_aruco_measures_the_lights_colour_on_the_markers_white(tmp_path: Path) -> None:
    """Warm light on a camera balanced for daylight: the markers' white is cream; calibration measures the cast,
    keeps it through the file, and the pipeline's correction brings that white back to neutral."""
    p = oval_profile(9)
    neutral = calibrate_from_aruco(_render_markers(p), p)
    assert neutral.white_gains == (1.0, 1.0, 1.0) and neutral.white_balance.neutral
    warm_image = cast_light(_render_markers(p), "warm")
    warm = calibrate_from_aruco(warm_image, p)
    b, g, r = warm.white_gains
    seen = np.minimum(255.0, 255.0 * np.array(LIGHT_CASTS["warm"]))       # the red of pure white clips at 255
    assert b == pytest.approx(seen[2] / seen[0], rel=0.03) and g == pytest.approx(seen[2] / seen[1], rel=0.03)
    assert r == 1.0
    assert not warm.white_balance.neutral
    back = CameraCalibration.load(warm.save(tmp_path / "warm.camera.toml"), p)
    assert back.white_gains == pytest.approx(warm.white_gains, abs=1e-4)
    fixed = back.white_balance.apply(warm_image)
    centre = np.round(back.to_image([p.markers[0].center])[0]).astype(int)
    patch = fixed[centre[1] - 30:centre[1] + 30, centre[0] - 30:centre[0] + 30].reshape(-1, 3).astype(float)
    white = patch[patch.sum(axis=1) > 600].mean(axis=0)
    assert white.max() - white.min() < 8           # the marker's white is white again


@pytest.mark.parametrize(("gains", "words"), [
    ((1.0, 1.1, 1.2), ""),
    ((2.0, 1.3, 1.0), "The light is warm (the gains that correct the markers' white: blue 2.00, green 1.30, red "
                      "1.00): each frame is corrected before detection."),
    ((1.0, 1.1, 1.5), "The light is cool ("),
    ((1.8, 1.8, 1.7), "The frame is dark ("),
    ((3.0, 2.0, 1.6), "The light is warm and the frame is dark ("),
])
def test_the_calibration_says_what_it_corrects(gains: tuple[float, float, float], words: str) -> None:
    cal = replace(CameraCalibration.from_table_to_image(_table_to_image(oval_profile(6)), (1280, 720), "oval-6"),
                  white_gains=gains)
    assert cal.light_words().startswith(words) and (words != "" or cal.light_words() == "")


def test_cli_reports_a_coloured_light(tmp_path: Path) -> None:
    p = oval_profile(9)
    image = tmp_path / "warm.png"
    cv2.imwrite(str(image), cast_light(_render_markers(p), "warm"))
    out = tmp_path / "cam.toml"
    args = ["calibrate", "--table", "oval-9", "--image", str(image), "--aruco", "--out", str(out)]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    assert "The light is warm" in result.output and "each frame is corrected before detection" in result.output
    assert "white_gains = [" in out.read_text()
    result = CliRunner().invoke(cli, [*args, "--json"])
    assert '"white_corrected": true' in result.output


def test_from_table_to_image() -> None:
    p = oval_profile(9)
    cal = CameraCalibration.from_table_to_image(_table_to_image(p), (1280, 720), p.name)
    assert _max_error_cm(cal, p) < 1e-6


def test_default_path_beside_profile(tmp_path: Path) -> None:
    path = oval_profile(4, name="home").save(tmp_path / "home.toml")
    assert default_camera_path(TableProfile.load(path)) == tmp_path / "home.camera.toml"


GOOD = """table = "oval-9"
image_width = 1280
image_height = 720
image_to_table = [[0.2, 0.0, 0.0], [0.0, 0.2, 0.0], [0.0, 0.0, 1.0]]
"""


@pytest.mark.parametrize(("text", "expect"), [
    ("table = [", "not valid TOML"),
    ('{"game": "badugi-limit", "homography": [[1, 0, 0]]}', "a sim-video's truth file goes to --truth, not --camera"),
    (GOOD.replace('table = "oval-9"\n', ""), "missing key 'table'"),
    (GOOD.replace("1280", "-5"), "key 'image_width' must be a whole number of pixels > 0"),
    (GOOD.replace("[0.0, 0.0, 1.0]]", "[0.0, 0.0]]"), "key 'image_to_table' must be a 3x3 list of numbers"),
    (GOOD.replace("0.2, 0.0, 0.0], [0.0, 0.2", "0.2, 0.1, 0.0], [0.4, 0.2"), "degenerate (singular)"),
    (GOOD.replace("[0.0, 0.0, 1.0]]", "[-0.002, 0.0, 1.0]]"), "horizon crosses the image"),
    (GOOD.replace("0.2, 0.0, 0.0]", "nan, 0.0, 0.0]"), "non-finite"),
    (GOOD + "error_cm = nan\n", "key 'error_cm' must be a number >= 0"),
    (GOOD + 'method = "magic"\n', "key 'method' is 'magic'; accepted: points, known, fitted or aruco"),
    (GOOD + "[points]\nimage = [[1, 2], [3]]\n", "[points] must hold 'image' and 'table'"),
    (GOOD + "white_gains = [1.0, 1.2]\n", "key 'white_gains' is [1.0, 1.2]; accepted: 3 numbers from 1 to 4"),
    (GOOD + "white_gains = [0.5, 1.0, 1.0]\n", "key 'white_gains' is [0.5, 1.0, 1.0]; accepted"),
    (GOOD + "white_gains = [1.0, 1.0, 9.0]\n", "key 'white_gains' is [1.0, 1.0, 9.0]; accepted"),
    (GOOD + 'white_gains = "warm"\n', "key 'white_gains' is 'warm'; accepted"),
])
def test_bad_calibration_files(tmp_path: Path, text: str, expect: str) -> None:
    path = tmp_path / "bad.camera.toml"
    path.write_text(text)
    with pytest.raises(CalibrationError) as exc:
        CameraCalibration.load(path)
    assert expect in str(exc.value) and "\n" not in str(exc.value)


def test_good_file_loads(tmp_path: Path) -> None:
    path = tmp_path / "ok.camera.toml"
    path.write_text(GOOD)
    assert np.allclose(CameraCalibration.load(path).to_table([[100, 50]]), [[20, 10]])
    for method in ("points", "known", "fitted", "aruco:0,3,7"):
        path.write_text(GOOD + f'method = "{method}"\n')
        assert CameraCalibration.load(path).method == method


def test_missing_calibration_file(tmp_path: Path) -> None:
    with pytest.raises(CalibrationError, match="not found; make one with"):
        CameraCalibration.load(tmp_path / "none.toml")


def test_collinear_points_rejected() -> None:
    with pytest.raises(CalibrationError, match="lie on one line"):
        calibrate_from_points([[0, 0], [10, 10], [20, 20], [0, 50]], [[0, 0], [1, 0], [1, 1], [0, 1]], (100, 100), "t")
    with pytest.raises(CalibrationError, match="at least 4 point pairs"):
        calibrate_from_points([[0, 0], [1, 0], [1, 1]], [[0, 0], [1, 0], [1, 1]], (100, 100), "t")
    with pytest.raises(CalibrationError):
        check_homography(np.zeros((3, 3)), (10, 10), "x")


def test_parse_points() -> None:
    assert parse_points("1,2 3.5,4") == [(1.0, 2.0), (3.5, 4.0)]
    with pytest.raises(CalibrationError, match="bad point 'a,b'"):
        parse_points("1,2 a,b")


def test_cli_aruco_and_points(tmp_path: Path) -> None:
    p = oval_profile(9)
    image = tmp_path / "frame.png"
    cv2.imwrite(str(image), _render_markers(p))
    runner = CliRunner()
    out = tmp_path / "cam.toml"
    result = runner.invoke(cli, ["calibrate", "--table", "oval-9", "--image", str(image), "--aruco", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "calibrated by aruco" in result.output
    assert _max_error_cm(CameraCalibration.load(out, p), p) < 1.0

    truth = _table_to_image(p)
    pts = apply_homography(truth, [m.center for m in p.markers[:4]])
    spec = " ".join(f"{x:.3f},{y:.3f}" for x, y in pts)
    result = runner.invoke(cli, ["calibrate", "--table", "oval-9", "--image", str(image), "--points", spec,
                                 "--out", str(out), "--json"])
    assert result.exit_code == 0, result.output
    assert '"method": "points"' in result.output
    assert _max_error_cm(CameraCalibration.load(out, p), p) < 0.05


def test_cli_errors_are_one_line(tmp_path: Path) -> None:
    runner = CliRunner()
    result = runner.invoke(cli, ["calibrate", "--table", "oval-9", "--image", str(tmp_path / "x.png"), "--aruco"])
    assert result.exit_code == 2 and "error: no such image" in result.output and "Traceback" not in result.output
    result = runner.invoke(cli, ["calibrate", "--table", str(tmp_path / "t.toml"), "--image", "x", "--aruco"])
    assert result.exit_code == 2 and "not found" in result.output
    image = tmp_path / "plain.png"
    cv2.imwrite(str(image), np.zeros((50, 50, 3), np.uint8))
    result = runner.invoke(cli, ["calibrate", "--table", "oval-9", "--image", str(image)])
    assert result.exit_code == 2 and "exactly one of --points" in result.output


def test_draw_overlay_marks_the_zones() -> None:
    from dealer_assist.vision.calibration import draw_overlay

    p = oval_profile(9)
    image = _render_markers(p)
    cal = CameraCalibration.from_table_to_image(_table_to_image(p), (1280, 720), p.name)
    out = draw_overlay(image, p, cal)
    assert out.shape == image.shape and not np.array_equal(out, image)
    x, y = np.round(cal.to_image([p.seat(5).zone[0]])[0]).astype(int)
    assert tuple(out[y, x]) != tuple(image[y, x])


def test_resolve_calibration(tmp_path: Path) -> None:
    from dealer_assist.vision.calibration import resolve_calibration

    p = TableProfile.load(oval_profile(9).save(tmp_path / "oval-9.toml"))
    image = _render_markers(p)
    auto = resolve_calibration(p, image=image)                   # no file: the markers in the frame
    assert auto.method.startswith("aruco") and _max_error_cm(auto, p) < 1.0
    with pytest.raises(CalibrationError, match="is missing; make one with"):
        resolve_calibration(p)
    with pytest.raises(CalibrationError, match="cannot calibrate itself: found 0"):
        resolve_calibration(p, image=np.zeros((720, 1280, 3), np.uint8))
    auto.save(default_camera_path(p))
    assert resolve_calibration(p).method == auto.method          # the file beside the profile
    other = tmp_path / "other.camera.toml"
    calibrate_from_points([[0, 0], [100, 0], [100, 100], [0, 100]], [[0, 0], [10, 0], [10, 10], [0, 10]],
                          (1280, 720), p.name).save(other)
    assert resolve_calibration(p, other).method == "points"
