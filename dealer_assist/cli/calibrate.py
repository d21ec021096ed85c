"""`dealer-assist calibrate`: find the camera's homography to the table from 4 points or ArUco markers."""

from __future__ import annotations

import json

import click

from dealer_assist.cli.sources import output_file, profile_file
from dealer_assist.errors import DealerAssistError
from dealer_assist.vision.calibration import (
    CalibrationError,
    calibrate_from_aruco,
    calibrate_from_points,
    default_camera_path,
    parse_points,
    read_image,
)
from dealer_assist.vision.camera_reach import camera_reach
from dealer_assist.vision.table_profile import load_profile


@click.command()
@click.option("--table", "table", required=True,
              help="Table profile: a TOML path or a shipped name (oval-9, oval-6).")
@click.option("--image", "image_path", required=True, type=click.Path(dir_okay=False),
              help="A still from the camera (any format OpenCV reads).")
@click.option("--points", "points", default=None,
              help="Image pixels of 4 table marks, \"x,y x,y x,y x,y\"; by default the marks are the centres "
                   "of the profile's first 4 rail markers (see --table-points).")
@click.option("--table-points", "table_points", default=None,
              help="Table centimetres of the 4 marks, \"x,y x,y x,y x,y\", in the same order as --points.")
@click.option("--aruco", "use_aruco", is_flag=True, help="Find the profile's ArUco markers on the rail instead.")
@click.option("--out", "out", default=None, type=click.Path(dir_okay=False),
              help="Where to write the calibration TOML [default: beside the profile, NAME.camera.toml].")
@click.option("--json", "as_json", is_flag=True, help="Print the result as a JSON object.")
def calibrate(table: str, image_path: str, points: str | None, table_points: str | None, use_aruco: bool,
              out: str | None, as_json: bool) -> None:
    """Calibrate a camera: the homography from image pixels to table centimetres, saved as TOML."""
    profile = load_profile(table)
    if use_aruco == (points is not None):
        raise DealerAssistError("give exactly one of --points \"x,y x,y x,y x,y\" or --aruco")
    out_path = output_file(out or default_camera_path(profile), "--out",
                           {"the table profile (--table)": profile_file(profile),
                            "the image (--image)": image_path})
    image = read_image(image_path)
    size = (int(image.shape[1]), int(image.shape[0]))
    if use_aruco:
        cal = calibrate_from_aruco(image, profile)
    else:
        img_pts = parse_points(points or "", "--points")
        if table_points is not None:
            tab_pts = parse_points(table_points, "--table-points")
        elif len(profile.markers) >= 4:
            tab_pts = [m.center for m in profile.markers[:4]]
        else:
            raise CalibrationError(f"profile {profile.name!r} has fewer than 4 rail marks; give --table-points")
        if len(img_pts) != 4 or len(tab_pts) != 4:
            raise CalibrationError(f"give exactly 4 points (got {len(img_pts)} image, {len(tab_pts)} table)")
        for i, (x, y) in enumerate(tab_pts, 1):
            if not (0 <= x <= profile.width_cm and 0 <= y <= profile.height_cm):
                raise CalibrationError(f"--table-points: point {i} ({x:g},{y:g}) lies off table {profile.name}; "
                                       f"accepted: centimetres from 0,0 to {profile.width_cm:g},"
                                       f"{profile.height_cm:g}")
        cal = calibrate_from_points(img_pts, tab_pts, size, profile.name)
    path = cal.save(out_path)
    reach = camera_reach(profile, cal)
    corners = [round(min(reach.corner_px), 1), round(max(reach.corner_px), 1)]
    if as_json:
        click.echo(json.dumps({"table": profile.name, "method": cal.method, "error_cm": round(cal.error_cm, 3),
                               "image_to_table": cal.image_to_table.tolist(), "out": str(path),
                               "index_corner_px": corners, "reads_shows": reach.reads_shows,
                               "white_gains": list(cal.white_gains),
                               "white_corrected": not cal.white_balance.neutral}))
    else:
        click.echo(f"{profile.name}: calibrated by {cal.method}, error {cal.error_cm:.2f} cm, written to {path}; "
                   f"index corners {corners[0]:.0f} to {corners[1]:.0f} px tall")
        light = cal.light_words()
        if light:
            click.echo(light)
    warning = reach.warning()
    if warning:
        click.echo(warning, err=True)
