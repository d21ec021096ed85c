"""Camera calibration: the homography from image pixels to table centimetres, and its TOML file.

Found from 4 marked table points (image px <-> table cm) or from the ArUco markers the profile puts
on the rail, saved beside the profile as `calibration/<table>.camera.toml`, loaded with one-line
errors for a missing or broken file and for a degenerate homography. A calibration from the markers also measures
the light's colour cast on their white (`vision.white_balance`), which the pipeline corrects before detection.
"""

from __future__ import annotations

import math
import re
import tomllib
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt
import tomli_w

from dealer_assist.errors import DealerAssistError
from dealer_assist.vision.image_file import ImageFileError, read_image_file
from dealer_assist.vision.table_profile import PROFILE_DIR, TableProfile, toml_value
from dealer_assist.vision.white_balance import MAX_GAIN, WhiteBalance, measure_white

Matrix = npt.NDArray[np.float64]
MIN_ARUCO_MARKERS = 3
MIN_MARKER_SPREAD = 0.15   # the found markers' centres must span this share of the table's box


class CalibrationError(DealerAssistError):
    """A calibration that cannot be computed, or a calibration file that is missing, broken or degenerate."""


def apply_homography(matrix: npt.ArrayLike, points: npt.ArrayLike) -> Matrix:
    """Map points (N, 2) through a 3x3 homography."""
    h = np.asarray(matrix, dtype=np.float64).reshape(3, 3)
    pts = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    homog = np.concatenate([pts, np.ones((len(pts), 1))], axis=1) @ h.T
    w = homog[:, 2:3]
    out: Matrix = homog[:, :2] / np.where(np.abs(w) < 1e-12, 1e-12, w)
    return out


def check_homography(matrix: npt.ArrayLike, image_size: tuple[int, int], where: str) -> Matrix:
    """The matrix as a normalised 3x3 image->table homography, or a CalibrationError saying why it is unusable."""
    h = np.asarray(matrix, dtype=np.float64)
    if h.shape != (3, 3):
        raise CalibrationError(f"{where}: the homography must be 3x3, got shape {h.shape}")
    if not np.all(np.isfinite(h)):
        raise CalibrationError(f"{where}: the homography has non-finite values")
    if abs(h[2, 2]) > 1e-12:
        h = np.asarray(h / h[2, 2], dtype=np.float64)
    det = float(np.linalg.det(h))
    if not math.isfinite(det) or abs(det) < 1e-12 or np.linalg.cond(h) > 1e12:
        raise CalibrationError(f"{where}: the homography is degenerate (singular) or too ill-conditioned to use; "
                               "recalibrate with 4 points spread over the table, no 3 of them on one line")
    w, hgt = image_size
    corners = np.array([[0, 0, 1], [w, 0, 1], [w, hgt, 1], [0, hgt, 1]], dtype=np.float64) @ h.T
    scale = np.abs(h[2]).sum() * max(w, hgt, 1)
    if np.any(np.abs(corners[:, 2]) < 1e-9 * scale) or len({bool(v > 0) for v in corners[:, 2]}) > 1:
        raise CalibrationError(f"{where}: the homography is degenerate (the table's horizon crosses the image); "
                               "recalibrate")
    return h


@dataclass(frozen=True, slots=True)
class CameraCalibration:
    """How one camera sees one table: image size, the image->table homography, how it was found and its error, and
    the colour and exposure of its frames (`white_gains`, blue, green, red: measured on the rail markers' white)."""

    table: str
    image_size: tuple[int, int]
    image_to_table: Matrix
    method: str = "points"
    error_cm: float = 0.0
    image_points: tuple[tuple[float, float], ...] = ()
    table_points: tuple[tuple[float, float], ...] = ()
    white_gains: tuple[float, float, float] = (1.0, 1.0, 1.0)

    @property
    def white_balance(self) -> WhiteBalance:
        """What corrects this camera's frames before detection (`vision.white_balance`)."""
        return WhiteBalance(self.white_gains)

    def light_words(self) -> str:
        """One sentence on the light's colour and the exposure the markers' white showed, or "" when frames are read
        as they come."""
        wb = self.white_balance
        if wb.neutral:
            return ""
        what = [f"the light is {wb.cast}" if wb.cast else "", "the frame is dark" if wb.dark else ""]
        b, g, r = self.white_gains
        return (f"{' and '.join(w for w in what if w).capitalize()} (the gains that correct the markers' white: blue "
                f"{b:.2f}, green {g:.2f}, red {r:.2f}): each frame is corrected before detection.")

    @property
    def table_to_image(self) -> Matrix:
        """The inverse homography (table cm -> image px), e.g. to draw zones on the live view."""
        inv = np.linalg.inv(self.image_to_table)
        out: Matrix = np.asarray(inv / inv[2, 2], dtype=np.float64)
        return out

    def to_table(self, points: npt.ArrayLike) -> Matrix:
        """Image px (N, 2) -> table cm (N, 2)."""
        return apply_homography(self.image_to_table, points)

    def to_image(self, points: npt.ArrayLike) -> Matrix:
        """Table cm (N, 2) -> image px (N, 2)."""
        return apply_homography(self.table_to_image, points)

    def lengths_px(self, points: npt.ArrayLike, length_cm: float) -> Matrix:
        """How long `length_cm` centred on each table point (N, 2) looks, image px (N, 2): along the table's x axis,
        then its y axis (a card at a spot may lie either way)."""
        pts = np.asarray(points, dtype=np.float64).reshape(-1, 2)
        steps = np.array([[-1, 0], [1, 0], [0, -1], [0, 1]], dtype=np.float64) * (length_cm / 2)
        img = self.to_image((pts[:, None, :] + steps[None]).reshape(-1, 2)).reshape(-1, 4, 2)
        out: Matrix = np.stack([np.hypot(*(img[:, 1] - img[:, 0]).T), np.hypot(*(img[:, 3] - img[:, 2]).T)], axis=1)
        return out

    @classmethod
    def from_table_to_image(cls, matrix: npt.ArrayLike, image_size: tuple[int, int], table: str,
                            method: str = "known") -> CameraCalibration:
        """From a known table->image homography (the simulated table's ground truth)."""
        inv = np.linalg.inv(np.asarray(matrix, dtype=np.float64))
        return cls(table, image_size, check_homography(inv, image_size, table), method)

    # -- files ----------------------------------------------------------------------------------

    def to_toml(self) -> str:
        """The calibration as TOML text."""
        head = tomli_w.dumps({
            "table": self.table,
            "method": self.method,
            "image_width": int(self.image_size[0]),
            "image_height": int(self.image_size[1]),
            "error_cm": round(float(self.error_cm), 4),
            "created": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        })
        rows = ",\n".join("    " + toml_value([float(v) for v in row]) for row in self.image_to_table)
        lines = ["# Camera calibration: homography from image pixels to table centimetres.", head.rstrip(),
                 f"image_to_table = [\n{rows},\n]"]
        if self.white_gains != (1.0, 1.0, 1.0):
            lines += ["# blue, green, red gains that make the rail markers' white neutral (the light's colour cast)",
                      f"white_gains = {toml_value([round(float(v), 4) for v in self.white_gains])}"]
        if self.image_points:
            lines += ["", "[points]  # the pairs it was fitted to",
                      f"image = {toml_value([[round(x, 2), round(y, 2)] for x, y in self.image_points])}",
                      f"table = {toml_value([[round(x, 3), round(y, 3)] for x, y in self.table_points])}"]
        return "\n".join(lines) + "\n"

    def save(self, path: str | Path) -> Path:
        """Write the calibration TOML; a place it cannot be written is a one-line CalibrationError."""
        p = Path(path)
        try:
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_text(self.to_toml(), encoding="utf-8")
        except OSError as exc:
            raise CalibrationError(f"cannot write the camera calibration to {p}: {exc.strerror or exc}") from None
        return p

    @classmethod
    def load(cls, path: str | Path, profile: TableProfile | None = None) -> CameraCalibration:
        """Read a calibration TOML; with `profile`, also check it was made for that table."""
        p = Path(path)
        if not p.is_file():
            raise CalibrationError(f"camera calibration {str(p)!r} not found; make one with "
                                   "`dealer-assist calibrate --table PROFILE --image IMG --aruco --out FILE`")
        try:
            text = p.read_text(encoding="utf-8")
            data = tomllib.loads(text)
        except (OSError, UnicodeDecodeError) as exc:
            raise CalibrationError(f"camera calibration {str(p)!r} cannot be read: {exc}") from None
        except tomllib.TOMLDecodeError as exc:
            hint = ("; it holds JSON: a sim-video's truth file goes to --truth, not --camera"
                    if text.lstrip().startswith("{") else "")
            raise CalibrationError(f"{p}: not valid TOML: {exc} (a camera calibration is the TOML file "
                                   f"`dealer-assist calibrate` writes){hint}") from None
        cal = cls.from_dict(data, where=str(p))
        if profile is not None and cal.table != profile.name:
            raise CalibrationError(f"{p}: made for table {cal.table!r}, not {profile.name!r}; recalibrate")
        return cal

    @classmethod
    def from_dict(cls, data: dict[str, Any], where: str = "<calibration>") -> CameraCalibration:
        """Build and validate a calibration from parsed TOML."""
        for key in ("table", "image_width", "image_height", "image_to_table"):
            if key not in data:
                raise CalibrationError(f"{where}: missing key {key!r}")
        table = data["table"]
        if not isinstance(table, str) or not table:
            raise CalibrationError(f"{where}: key 'table' must be the profile's name")
        size = []
        for key in ("image_width", "image_height"):
            v = data[key]
            if isinstance(v, bool) or not isinstance(v, int) or v <= 0:
                raise CalibrationError(f"{where}: key {key!r} must be a whole number of pixels > 0, got {v!r}")
            size.append(v)
        raw = data["image_to_table"]
        ok = (isinstance(raw, list) and len(raw) == 3
              and all(isinstance(r, list) and len(r) == 3 for r in raw)
              and all(isinstance(v, int | float) and not isinstance(v, bool) for r in raw for v in r))
        if not ok:
            raise CalibrationError(f"{where}: key 'image_to_table' must be a 3x3 list of numbers")
        image_size = (size[0], size[1])
        h = check_homography(np.array(raw, dtype=np.float64), image_size, where)
        err = data.get("error_cm", 0.0)
        if isinstance(err, bool) or not isinstance(err, int | float) or not math.isfinite(err) or err < 0:
            raise CalibrationError(f"{where}: key 'error_cm' must be a number >= 0, got {err!r}")
        method = data.get("method", "points")
        if not isinstance(method, str) or not re.fullmatch(r"points|known|fitted|aruco(:\d+(,\d+)*)?", method):
            raise CalibrationError(f"{where}: key 'method' is {method!r}; accepted: points, known, fitted or "
                                   "aruco:ID,ID,...")
        pts = data.get("points", {})
        try:
            image_pts = tuple((float(a), float(b)) for a, b in pts.get("image", []))
            table_pts = tuple((float(a), float(b)) for a, b in pts.get("table", []))
        except (AttributeError, TypeError, ValueError):
            raise CalibrationError(f"{where}: [points] must hold 'image' and 'table', lists of [x, y] "
                                   "numbers") from None
        gains = data.get("white_gains", [1.0, 1.0, 1.0])
        if not (isinstance(gains, list) and len(gains) == 3
                and all(isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v)
                        and 1.0 <= v <= MAX_GAIN for v in gains)):
            raise CalibrationError(f"{where}: key 'white_gains' is {gains!r}; accepted: 3 numbers from 1 to "
                                   f"{MAX_GAIN:g} (blue, green, red), or no key for none")
        white = (float(gains[0]), float(gains[1]), float(gains[2]))
        return cls(table, image_size, h, method, float(err), image_pts, table_pts, white)


def default_camera_path(profile: TableProfile) -> Path:
    """Where a profile's camera calibration lives by default: beside it, `<name>.camera.toml`."""
    base = Path(profile.source).parent if profile.source else PROFILE_DIR
    return base / f"{profile.name}.camera.toml"


def calibration_text(calibration: CameraCalibration, path: Path | None = None) -> str:
    """What the hand log keeps of the calibration a session ran with: the camera file as it was read (its creation
    date and comments included), else the calibration's own TOML (the simulated table's, or one made in the app)."""
    if path is not None:
        try:
            return path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            pass                                   # gone since it was loaded: what is in use is written instead
    return calibration.to_toml()


# -- computing ------------------------------------------------------------------------------------


def parse_points(text: str, what: str = "points") -> list[tuple[float, float]]:
    """Parse "x,y x,y ..." into points; a bad entry gets a one-line error."""
    out: list[tuple[float, float]] = []
    for item in text.replace(";", " ").split():
        parts = item.split(",")
        try:
            if len(parts) != 2:
                raise ValueError
            x, y = float(parts[0]), float(parts[1])
            if not (math.isfinite(x) and math.isfinite(y)):
                raise ValueError
        except ValueError:
            raise CalibrationError(f"{what}: bad point {item!r}; accepted: x,y pairs separated by spaces, "
                                   "like \"102,88 1180,95 1210,650 80,640\"") from None
        out.append((x, y))
    return out


def _collinear(points: Matrix, tol: float) -> bool:
    """Whether 3 of the points lie on one line: a triangle of them whose area is under `tol` times the square of its
    own longest side (its own, not the whole set's: one far point must not make the other three look flat)."""
    n = len(points)
    for i in range(n):
        for j in range(i + 1, n):
            for k in range(j + 1, n):
                a, b, c = points[i], points[j], points[k]
                area = abs((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])) / 2
                side = max(np.hypot(*(b - a)), np.hypot(*(c - a)), np.hypot(*(c - b)), 1e-9)
                if area < tol * side * side:
                    return True
    return False


def _outside_image(points: Matrix, image_size: tuple[int, int]) -> int | None:
    """The index of the first point outside the image (a pixel of slack for a click on its edge), else None."""
    w, h = image_size
    for i, (x, y) in enumerate(points):
        if not (-1 <= x <= w + 1 and -1 <= y <= h + 1):
            return i
    return None


def calibrate_from_points(image_points: npt.ArrayLike, table_points: npt.ArrayLike,
                          image_size: tuple[int, int], table: str, method: str = "points") -> CameraCalibration:
    """The homography taking `image_points` (px) onto `table_points` (cm); 4 or more pairs, no 3 on one line."""
    img = np.asarray(image_points, dtype=np.float64).reshape(-1, 2)
    tab = np.asarray(table_points, dtype=np.float64).reshape(-1, 2)
    if len(img) != len(tab):
        raise CalibrationError(f"calibration: {len(img)} image points but {len(tab)} table points; give pairs")
    if len(img) < 4:
        raise CalibrationError(f"calibration: need at least 4 point pairs, got {len(img)}")
    if not (np.all(np.isfinite(img)) and np.all(np.isfinite(tab))):
        raise CalibrationError("calibration: the points must be finite numbers")
    outside = _outside_image(img, image_size)
    if outside is not None:
        x, y = img[outside]
        raise CalibrationError(f"calibration: image point {outside + 1} ({x:g},{y:g}) lies outside the "
                               f"{image_size[0]}x{image_size[1]} image; accepted: pixels from 0,0 to "
                               f"{image_size[0]},{image_size[1]}")
    with np.errstate(all="ignore"):   # table points far out overflow; the checks below say what is wrong
        if len(img) == 4 and (_collinear(img, 1e-3) or _collinear(tab, 1e-3)):
            raise CalibrationError("calibration: 3 of the 4 points lie on one line; mark 4 points spread over the "
                                   "table")
        h, _ = cv2.findHomography(img.astype(np.float32), tab.astype(np.float32), 0)
    if h is None:
        raise CalibrationError("calibration: no homography fits these points; check their order and values")
    h = check_homography(h, image_size, "calibration")
    err = float(np.sqrt(np.mean(np.sum((apply_homography(h, img) - tab) ** 2, axis=1))))
    return CameraCalibration(table, image_size, h, method, err,
                             tuple((float(x), float(y)) for x, y in img), tuple((float(x), float(y)) for x, y in tab))


def read_image(path: str | Path) -> npt.NDArray[np.uint8]:
    """A BGR image from a file (`image_file`: HEIC/HEIF phone photos too), or a one-line error for a missing or
    unreadable one."""
    try:
        return read_image_file(path)
    except ImageFileError as exc:
        raise CalibrationError(str(exc)) from None


def aruco_detector(dictionary: str, subpixel: bool = True) -> cv2.aruco.ArucoDetector:
    """A cv2.aruco detector for a dictionary named as in the profile (DICT_4X4_50, ...), corners refined to the
    subpixel or not; an unknown name is a one-line CalibrationError."""
    dict_id = getattr(cv2.aruco, dictionary, None)
    if dict_id is None:
        raise CalibrationError(f"unknown ArUco dictionary {dictionary!r}")
    params = cv2.aruco.DetectorParameters()
    if subpixel:
        params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    return cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(dict_id), params)


def detect_aruco(image: npt.NDArray[np.uint8], dictionary: str) -> dict[int, Matrix]:
    """ArUco markers in an image: id -> its 4 corners (4, 2) in px, in cv2.aruco's order."""
    detector = aruco_detector(dictionary)
    gray = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    corners, ids, _ = detector.detectMarkers(gray)
    if ids is None:
        return {}
    return {int(i): np.asarray(c, dtype=np.float64).reshape(4, 2) for i, c in zip(ids.ravel(), corners, strict=True)}


def calibrate_from_aruco(image: npt.NDArray[np.uint8], profile: TableProfile) -> CameraCalibration:
    """The homography from the profile's ArUco markers found in `image` (at least 2 of them)."""
    if not profile.markers:
        raise CalibrationError(f"table profile {profile.name!r} defines no ArUco markers ([[aruco.marker]])")
    found = detect_aruco(image, profile.aruco_dictionary)
    known = sorted(i for i in found if profile.marker(i) is not None)
    if len(known) < MIN_ARUCO_MARKERS:
        expected = ", ".join(str(m.id) for m in profile.markers)
        raise CalibrationError(
            f"found {len(known)} of the table's ArUco markers (ids {expected}, {profile.aruco_dictionary}); "
            f"need at least {MIN_ARUCO_MARKERS} in view"
        )
    centres = np.array([profile.marker(i).center for i in known], dtype=np.float32)  # type: ignore[union-attr]
    spread = float(cv2.contourArea(cv2.convexHull(centres))) / (profile.width_cm * profile.height_cm)
    if spread < MIN_MARKER_SPREAD:
        raise CalibrationError(
            f"the ArUco markers in view ({', '.join(map(str, known))}) are bunched on one part of the table; "
            "a calibration from them would be wrong far from them: bring more of the rail into view"
        )
    img_pts = np.concatenate([found[i] for i in known])
    tab_pts = np.concatenate([profile.marker(i).corners() for i in known])  # type: ignore[union-attr]
    size = (int(image.shape[1]), int(image.shape[0]))
    cal = calibrate_from_points(img_pts, tab_pts, size, profile.name, method=f"aruco:{','.join(map(str, known))}")
    return replace(cal, white_gains=measure_white(image, (found[i] for i in known)).gains)


def draw_overlay(image: npt.NDArray[np.uint8], profile: TableProfile,
                 calibration: CameraCalibration) -> npt.NDArray[np.uint8]:
    """A copy of `image` with the profile's zones drawn where the calibration puts them (to check it by eye)."""
    out = image.copy()

    def poly(points: object, colour: tuple[int, int, int], thickness: int = 2) -> None:
        px = calibration.to_image(np.asarray(points, dtype=np.float64))
        cv2.polylines(out, [np.round(px).astype(np.int32)], True, colour, thickness, cv2.LINE_AA)

    poly(profile.outline, (255, 255, 255))
    for seat in profile.seats:
        poly(seat.zone, (0, 255, 255))
        x, y = calibration.to_image([seat.card_spot])[0]
        cv2.putText(out, str(seat.number), (int(x) - 8, int(y) + 8), cv2.FONT_HERSHEY_SIMPLEX, 0.8, (0, 0, 255), 2)
        bx, by = calibration.to_image([seat.button_spot])[0]
        cv2.circle(out, (int(bx), int(by)), 6, (255, 255, 255), 1, cv2.LINE_AA)
    poly(profile.muck, (40, 40, 40))
    poly(profile.stub, (255, 0, 0))
    poly(profile.pot, (0, 140, 255))
    for marker in profile.markers:
        poly(marker.corners(), (255, 0, 255), 1)
    return out


def resolve_calibration(profile: TableProfile, path: str | Path | None = None,
                        image: npt.NDArray[np.uint8] | None = None) -> CameraCalibration:
    """The calibration to use: the file given, else the one beside the profile, else ArUco on `image`."""
    if path is not None:
        return CameraCalibration.load(path, profile)
    beside = default_camera_path(profile)
    if beside.is_file():
        return CameraCalibration.load(beside, profile)
    if image is not None:
        try:
            return calibrate_from_aruco(image, profile)
        except CalibrationError as exc:
            raise CalibrationError(f"no camera calibration for {profile.name!r} ({beside} is missing) and the "
                                   f"first frame cannot calibrate itself: {exc}") from None
    raise CalibrationError(f"no camera calibration for {profile.name!r}: {beside} is missing; make one with "
                           "`dealer-assist calibrate`")
