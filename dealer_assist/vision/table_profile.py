"""Table profiles: where each seat's cards, the muck, the stub, the pot and the button spots lie, in table cm.

Coordinates are centimetres on the table plane, seen from above: the origin is the top-left corner of
the table's bounding rectangle, x runs right along the long side, y runs down toward the dealer, who
sits at the middle of the bottom long side. Seats are numbered 1..N clockwise from the dealer's left
(as in a casino). A seat's `facing_deg` is the direction its player looks across the table,
`atan2(dy, dx)` in degrees in these coordinates (a player at the bottom rail faces -90).

The TOML format (see calibration/oval-9.toml):

    name = "oval-9"        width_cm = 260.0     height_cm = 130.0     seats = 9
    outline = [[x, y], ...]                     # the table's outer edge, rail included
    [areas]  muck = [[x, y], ...]  stub = [...]  pot = [...]  dealer = [x, y]
    [[seat]] number = 1  zone = [[x, y], ...]  card_spot = [x, y]  facing_deg = -60.0  button_spot = [x, y]
    [aruco]  dictionary = "DICT_4X4_50"
    [[aruco.marker]] id = 0  center = [x, y]  size_cm = 8.0  rotation_deg = 0.0
"""

from __future__ import annotations

import math
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import tomli_w

from dealer_assist.errors import DealerAssistError

Point = tuple[float, float]
Polygon = tuple[Point, ...]

MIN_SEATS = 2
MAX_SEATS = 10
ARUCO_DICTIONARIES: tuple[str, ...] = (
    *(f"DICT_{bits}X{bits}_{n}" for bits in (4, 5, 6, 7) for n in (50, 100, 250, 1000)), "DICT_ARUCO_ORIGINAL",
)
PROFILE_DIR = Path(__file__).resolve().parents[2] / "calibration"


class ProfileError(DealerAssistError):
    """A table profile that is missing, unreadable or has a bad value."""


@dataclass(frozen=True, slots=True)
class Seat:
    """One seat: the zone its cards lie in, where they are placed, which way the player faces, its button spot."""

    number: int
    zone: Polygon
    card_spot: Point
    facing_deg: float
    button_spot: Point


@dataclass(frozen=True, slots=True)
class ArucoMarker:
    """An ArUco marker stuck on the rail: its id, centre, side length and rotation, in table cm / degrees."""

    id: int
    center: Point
    size_cm: float
    rotation_deg: float = 0.0

    def corners(self) -> npt.NDArray[np.float64]:
        """The 4 corners (4, 2) in cv2.aruco's order: the marker's top-left, top-right, bottom-right, bottom-left."""
        h = self.size_cm / 2
        local = np.array([[-h, -h], [h, -h], [h, h], [-h, h]], dtype=np.float64)
        a = math.radians(self.rotation_deg)
        rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
        out: npt.NDArray[np.float64] = local @ rot.T + np.array(self.center)
        return out


@dataclass(frozen=True, slots=True)
class TableProfile:
    """A table: its size, outline, seats and dealer areas in table cm, and its ArUco markers."""

    name: str
    width_cm: float
    height_cm: float
    outline: Polygon
    seats: tuple[Seat, ...]
    muck: Polygon
    stub: Polygon
    pot: Polygon
    dealer: Point
    aruco_dictionary: str = "DICT_4X4_50"
    markers: tuple[ArucoMarker, ...] = ()
    source: str = field(default="", compare=False)

    @property
    def seat_count(self) -> int:
        return len(self.seats)

    def seat(self, number: int) -> Seat:
        """The seat numbered `number` (1..N)."""
        if not 1 <= number <= len(self.seats):
            raise ProfileError(f"{self.name}: no seat {number}; accepted: 1 to {len(self.seats)}")
        return self.seats[number - 1]

    def marker(self, marker_id: int) -> ArucoMarker | None:
        """The marker with this id, if the profile has one."""
        return next((m for m in self.markers if m.id == marker_id), None)

    # -- files ----------------------------------------------------------------------------------

    @classmethod
    def load(cls, path: str | Path) -> TableProfile:
        """Read a profile TOML; a missing or broken file or a bad value gets a one-line ProfileError."""
        p = Path(path)
        if not p.is_file():
            hint = f" (shipped profiles: {', '.join(shipped_profiles())})" if shipped_profiles() else ""
            raise ProfileError(f"table profile {str(p)!r} not found{hint}")
        try:
            text = p.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise ProfileError(f"table profile {str(p)!r} cannot be read: {exc}") from None
        return cls.loads(text, source=str(p))

    @classmethod
    def loads(cls, text: str, source: str = "<profile>") -> TableProfile:
        """Parse profile TOML text."""
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise ProfileError(f"{source}: not valid TOML: {exc}") from None
        return cls.from_dict(data, source=source)

    @classmethod
    def from_dict(cls, data: dict[str, Any], source: str = "<profile>") -> TableProfile:
        """Build and validate a profile from parsed TOML."""
        return _parse(data, source)

    def to_dict(self) -> dict[str, Any]:
        """The profile as plain TOML-ready data."""
        def pts(poly: Polygon) -> list[list[float]]:
            return [[round(x, 2), round(y, 2)] for x, y in poly]

        def pt(p: Point) -> list[float]:
            return [round(p[0], 2), round(p[1], 2)]

        return {
            "name": self.name,
            "width_cm": self.width_cm,
            "height_cm": self.height_cm,
            "seats": len(self.seats),
            "outline": pts(self.outline),
            "areas": {"muck": pts(self.muck), "stub": pts(self.stub), "pot": pts(self.pot), "dealer": pt(self.dealer)},
            "seat": [
                {"number": s.number, "zone": pts(s.zone), "card_spot": pt(s.card_spot),
                 "facing_deg": round(s.facing_deg, 2), "button_spot": pt(s.button_spot)}
                for s in self.seats
            ],
            "aruco": {
                "dictionary": self.aruco_dictionary,
                "marker": [{"id": m.id, "center": pt(m.center), "size_cm": m.size_cm, "rotation_deg": m.rotation_deg}
                           for m in self.markers],
            },
        }

    def to_toml(self) -> str:
        """The profile as TOML text, one polygon a line (round-trips through `loads`)."""
        d = self.to_dict()
        v = tomli_w.dumps
        lines = [
            f"# Table profile {self.name}: table centimetres, origin at the top-left corner, x along the long",
            "# side, y toward the dealer; seats clockwise from the dealer's left.",
            v({"name": d["name"], "width_cm": d["width_cm"], "height_cm": d["height_cm"], "seats": d["seats"]}),
            f"outline = {toml_value(d['outline'])}",
            "", "[areas]",
            *(f"{k} = {toml_value(d['areas'][k])}" for k in ("muck", "stub", "pot", "dealer")),
        ]
        for seat in d["seat"]:
            lines += ["", "[[seat]]", *(f"{k} = {toml_value(val)}" for k, val in seat.items())]
        lines += ["", "[aruco]", f"dictionary = {toml_value(d['aruco']['dictionary'])}"]
        for marker in d["aruco"]["marker"]:
            lines += ["", "[[aruco.marker]]", *(f"{k} = {toml_value(val)}" for k, val in marker.items())]
        return "\n".join(lines) + "\n"

    def save(self, path: str | Path) -> Path:
        """Write the profile as TOML."""
        p = Path(path)
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(self.to_toml(), encoding="utf-8")
        return p


def toml_value(value: Any) -> str:
    """A TOML value on one line, for files people read and edit (numbers, strings, nested lists)."""
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, str):
        return tomli_w.dumps({"v": value})[4:].strip()
    return repr(float(value)) if isinstance(value, float) else str(value)


def shipped_profiles() -> list[str]:
    """Names of the profiles in calibration/ (e.g. oval-9)."""
    if not PROFILE_DIR.is_dir():
        return []
    return sorted(p.stem for p in PROFILE_DIR.glob("*.toml") if not p.stem.endswith(".camera"))


def load_profile(spec: str | Path) -> TableProfile:
    """A profile by path, or by the name of a shipped one ("oval-9")."""
    p = Path(spec)
    if not p.exists() and p.suffix == "" and (PROFILE_DIR / f"{spec}.toml").is_file():
        p = PROFILE_DIR / f"{spec}.toml"
    return TableProfile.load(p)


# -- validation -----------------------------------------------------------------------------------


def _number(value: Any, where: str, key: str, *, positive: bool = False) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise ProfileError(f"{where}: key {key!r} must be a number, got {value!r}")
    if positive and value <= 0:
        raise ProfileError(f"{where}: key {key!r} must be a positive number, got {value!r}")
    return float(value)


def _point(value: Any, where: str, key: str) -> Point:
    if (not isinstance(value, list) or len(value) != 2
            or not all(isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v) for v in value)):
        raise ProfileError(f"{where}: key {key!r} must be a point [x, y] in cm, got {value!r}")
    return (float(value[0]), float(value[1]))


def _polygon(value: Any, where: str, key: str) -> Polygon:
    if not isinstance(value, list) or len(value) < 3:
        raise ProfileError(f"{where}: key {key!r} must be a list of at least 3 points [[x, y], ...] in cm")
    poly = tuple(_point(v, where, key) for v in value)
    if abs(polygon_area(poly)) < 1e-6:
        raise ProfileError(f"{where}: key {key!r} is a degenerate polygon (zero area)")
    crossing = _self_crossing(poly)
    if crossing is not None:
        raise ProfileError(f"{where}: key {key!r} crosses itself (its edges {crossing[0]} and {crossing[1]} cross); "
                           "list its corners in order around it")
    return poly


def _self_crossing(poly: Polygon) -> tuple[int, int] | None:
    """The first two edges (numbered from 1) of `poly` that cross, if any: a bow-tie zone's inside is not what the
    room drew, and point-in-polygon tests then put cards in the wrong seat."""
    n = len(poly)

    def cross(o: Point, a: Point, b: Point) -> float:
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    for i in range(n):
        a, b = poly[i], poly[(i + 1) % n]
        for j in range(i + 2, n):
            if i == 0 and j == n - 1:
                continue                      # neighbours through the closing corner
            c, d = poly[j], poly[(j + 1) % n]
            if (cross(a, b, c) * cross(a, b, d) < 0) and (cross(c, d, a) * cross(c, d, b) < 0):
                return i + 1, j + 1
    return None


def _known_keys(data: dict[str, Any], accepted: tuple[str, ...], where: str) -> None:
    """A misspelt key (`card_spt`) would otherwise be ignored and its setting silently left at nothing."""
    unknown = sorted(k for k in data if k not in accepted)
    if unknown:
        raise ProfileError(f"{where}: unknown key {unknown[0]!r}; accepted: {', '.join(accepted)}")


def _require(data: dict[str, Any], key: str, where: str) -> Any:
    if key not in data:
        raise ProfileError(f"{where}: missing key {key!r}")
    return data[key]


def _table(value: Any, where: str, key: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ProfileError(f"{where}: key {key!r} must be a table")
    return value


def _check_inside(poly: Sequence[Point], width: float, height: float, where: str, key: str) -> None:
    margin = 1.0
    for x, y in poly:
        if not (-margin <= x <= width + margin and -margin <= y <= height + margin):
            raise ProfileError(
                f"{where}: key {key!r} has point [{x:g}, {y:g}] outside the table (0..{width:g} x 0..{height:g} cm)"
            )


def _parse(data: dict[str, Any], src: str) -> TableProfile:
    _known_keys(data, ("name", "width_cm", "height_cm", "seats", "outline", "areas", "seat", "aruco"), src)
    name = _require(data, "name", src)
    if not isinstance(name, str) or not name.strip():
        raise ProfileError(f"{src}: key 'name' must be a non-empty string")
    width = _number(_require(data, "width_cm", src), src, "width_cm", positive=True)
    height = _number(_require(data, "height_cm", src), src, "height_cm", positive=True)
    count = _require(data, "seats", src)
    if isinstance(count, bool) or not isinstance(count, int) or not MIN_SEATS <= count <= MAX_SEATS:
        raise ProfileError(f"{src}: key 'seats' must be a whole number from {MIN_SEATS} to {MAX_SEATS}, got {count!r}")
    outline = _polygon(_require(data, "outline", src), src, "outline")
    _check_inside(outline, width, height, src, "outline")
    areas = _table(_require(data, "areas", src), src, "areas")
    where = f"{src}: [areas]"
    _known_keys(areas, ("muck", "stub", "pot", "dealer"), where)
    muck, stub, pot = (_polygon(_require(areas, k, where), where, k) for k in ("muck", "stub", "pot"))
    for key, poly in (("muck", muck), ("stub", stub), ("pot", pot)):
        _check_inside(poly, width, height, where, key)
    dealer = _point(_require(areas, "dealer", where), where, "dealer")

    raw_seats = _require(data, "seat", src)
    if not isinstance(raw_seats, list) or not all(isinstance(s, dict) for s in raw_seats):
        raise ProfileError(f"{src}: key 'seat' must be an array of tables ([[seat]] sections)")
    if len(raw_seats) != count:
        raise ProfileError(f"{src}: 'seats' says {count} but there are {len(raw_seats)} [[seat]] sections")
    seats: list[Seat] = []
    for i, raw in enumerate(raw_seats, 1):
        number = raw.get("number")
        where = f"{src}: [[seat]] {i}"
        if number != i:
            raise ProfileError(f"{where}: key 'number' must be {i} (seats are numbered 1..{count} in order), "
                               f"got {number!r}")
        _known_keys(raw, ("number", "zone", "card_spot", "facing_deg", "button_spot"), where)
        zone = _polygon(_require(raw, "zone", where), where, "zone")
        _check_inside(zone, width, height, where, "zone")
        spot = _point(_require(raw, "card_spot", where), where, "card_spot")
        facing = _number(_require(raw, "facing_deg", where), where, "facing_deg")
        button = _point(_require(raw, "button_spot", where), where, "button_spot")
        _check_inside((spot, button), width, height, where, "card_spot/button_spot")
        if not points_in_polygon([spot], zone)[0]:
            raise ProfileError(f"{where}: card_spot [{spot[0]:g}, {spot[1]:g}] lies outside the seat's own zone; "
                               "the cards in front of a seat must fall in its zone")
        seats.append(Seat(i, zone, spot, facing, button))
    for seat in seats:
        for other in seats:
            if other is not seat and points_in_polygon([seat.card_spot], other.zone)[0]:
                raise ProfileError(f"{src}: [[seat]] {seat.number}'s card_spot lies in seat {other.number}'s zone "
                                   "too; seat zones must not overlap where cards are dealt")

    aruco = _table(data.get("aruco", {}), src, "aruco")
    _known_keys(aruco, ("dictionary", "marker"), f"{src}: [aruco]")
    dictionary = aruco.get("dictionary", "DICT_4X4_50")
    if dictionary not in ARUCO_DICTIONARIES:
        raise ProfileError(
            f"{src}: [aruco] key 'dictionary' is {dictionary!r}; accepted: {', '.join(ARUCO_DICTIONARIES)}"
        )
    markers: list[ArucoMarker] = []
    raw_markers = aruco.get("marker", [])
    if not isinstance(raw_markers, list):
        raise ProfileError(f"{src}: [aruco] key 'marker' must be an array of tables ([[aruco.marker]] sections)")
    for i, raw in enumerate(raw_markers, 1):
        where = f"{src}: [[aruco.marker]] {i}"
        if not isinstance(raw, dict):
            raise ProfileError(f"{where}: must be a table")
        _known_keys(raw, ("id", "center", "size_cm", "rotation_deg"), where)
        mid = _require(raw, "id", where)
        if isinstance(mid, bool) or not isinstance(mid, int) or mid < 0:
            raise ProfileError(f"{where}: key 'id' must be a whole number >= 0, got {mid!r}")
        if any(m.id == mid for m in markers):
            raise ProfileError(f"{where}: marker id {mid} appears twice; each marker id must be unique")
        markers.append(ArucoMarker(
            mid, _point(_require(raw, "center", where), where, "center"),
            _number(_require(raw, "size_cm", where), where, "size_cm", positive=True),
            _number(raw.get("rotation_deg", 0.0), where, "rotation_deg"),
        ))
    return TableProfile(name.strip(), width, height, outline, tuple(seats), muck, stub, pot, dealer,
                        str(dictionary), tuple(markers), source=src)


# -- geometry -------------------------------------------------------------------------------------


def polygon_area(poly: Sequence[Point]) -> float:
    """Signed area (shoelace)."""
    arr = np.asarray(poly, dtype=np.float64)
    x, y = arr[:, 0], arr[:, 1]
    return float(0.5 * (np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1))))


def points_in_polygon(points: npt.ArrayLike, poly: Sequence[Point]) -> npt.NDArray[np.bool_]:
    """Which of `points` (N, 2) lie inside `poly` (even-odd rule, vectorised)."""
    pts = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    verts = np.asarray(poly, dtype=np.float64)
    x, y = pts[:, 0:1], pts[:, 1:2]
    x1, y1 = verts[:, 0], verts[:, 1]
    x2, y2 = np.roll(x1, -1), np.roll(y1, -1)
    crosses = (y1 > y) != (y2 > y)
    with np.errstate(divide="ignore", invalid="ignore"):
        x_at = x1 + (y - y1) * (x2 - x1) / (y2 - y1)
    inside: npt.NDArray[np.bool_] = (np.sum(crosses & (x < x_at), axis=1) % 2) == 1
    return inside


# -- the oval generator ---------------------------------------------------------------------------

_RAIL_CM = 10.0       # padded rail width; markers sit on it
_ZONE_NEAR = 12.0     # a seat's card zone starts this far in from the outer edge ...
_ZONE_FAR = 33.0      # ... and ends here
_SPOT_IN = 23.0       # where the dealer pitches a seat's cards
_BUTTON_IN = 38.0     # the dealer button sits just inside the card zone
_ZONE_WIDTH = 40.0    # along the rail, shrunk on crowded tables


def _stadium_point(s: float, width: float, height: float) -> tuple[Point, Point]:
    """Point and inward unit normal at arc length `s` along a stadium outline, from the dealer clockwise."""
    r = height / 2
    half = (width - height) / 2
    cx = width / 2
    perimeter = 4 * half + 2 * math.pi * r
    s %= perimeter
    if s <= half:                                  # bottom straight, dealer to the left end
        return (cx - s, height), (0.0, -1.0)
    s -= half
    if s <= math.pi * r:                           # left semicircle, bottom to top
        a = math.pi / 2 + s / r
        ox, oy = cx - half, r
        return (ox + r * math.cos(a), oy + r * math.sin(a)), (-math.cos(a), -math.sin(a))
    s -= math.pi * r
    if s <= 2 * half:                              # top straight, left to right
        return (cx - half + s, 0.0), (0.0, 1.0)
    s -= 2 * half
    if s <= math.pi * r:                           # right semicircle, top to bottom
        a = -math.pi / 2 + s / r
        ox, oy = cx + half, r
        return (ox + r * math.cos(a), oy + r * math.sin(a)), (-math.cos(a), -math.sin(a))
    s -= math.pi * r
    return (cx + half - s, height), (0.0, -1.0)    # bottom straight, right end back to the dealer


def _zone(s: float, half_arc: float, width: float, height: float) -> Polygon:
    """A seat's card zone: the rail from s - half_arc to s + half_arc, pushed in from _ZONE_NEAR to _ZONE_FAR."""
    (ax, ay), (anx, any_) = _stadium_point(s - half_arc, width, height)
    (bx, by), (bnx, bny) = _stadium_point(s + half_arc, width, height)
    return ((ax + anx * _ZONE_NEAR, ay + any_ * _ZONE_NEAR), (bx + bnx * _ZONE_NEAR, by + bny * _ZONE_NEAR),
            (bx + bnx * _ZONE_FAR, by + bny * _ZONE_FAR), (ax + anx * _ZONE_FAR, ay + any_ * _ZONE_FAR))


def oval_profile(seats: int, width_cm: float | None = None, height_cm: float | None = None,
                 name: str | None = None) -> TableProfile:
    """A racetrack ("oval") poker table for 2..10 seats with the dealer at the middle of the bottom side."""
    if isinstance(seats, bool) or not isinstance(seats, int) or not MIN_SEATS <= seats <= MAX_SEATS:
        raise ProfileError(f"oval table: seats must be a whole number from {MIN_SEATS} to {MAX_SEATS}, got {seats!r}")
    width = float(width_cm) if width_cm is not None else 150.0 + 12.0 * seats
    height = float(height_cm) if height_cm is not None else round(width / 2, 1)
    if not (height >= 80.0 and width >= height):
        raise ProfileError(f"oval table: need height_cm >= 80 and width_cm >= height_cm, got {width:g} x {height:g}")
    r = height / 2
    perimeter = 2 * (width - height) + 2 * math.pi * r
    spacing = perimeter / (seats + 1.3)            # the dealer's place takes 1.3 seats' worth of rail
    half_w = min(_ZONE_WIDTH, 0.8 * spacing) / 2
    seat_list: list[Seat] = []
    for i in range(1, seats + 1):
        s = 1.3 * spacing / 2 + (i - 0.5) * spacing
        base, normal = _stadium_point(s, width, height)
        nx, ny = normal
        zone = _zone(s, half_w, width, height)
        spot = (base[0] + nx * _SPOT_IN, base[1] + ny * _SPOT_IN)
        # The button goes inside the zone's inner edge, a little toward the next seat clockwise.
        tx, ty = -ny, nx
        button = (base[0] + nx * _BUTTON_IN - tx * half_w * 0.5, base[1] + ny * _BUTTON_IN - ty * half_w * 0.5)
        facing = math.degrees(math.atan2(ny, nx))
        seat_list.append(Seat(i, zone, spot, facing, button))
    cx, cy = width / 2, height / 2

    def box(x: float, y: float, hw: float, hh: float) -> Polygon:
        return ((x - hw, y - hh), (x + hw, y - hh), (x + hw, y + hh), (x - hw, y + hh))

    stub = box(cx, height - 24.0, 11.0, 8.0)
    muck = box(cx + 27.0, height - 24.0, 11.0, 8.0)
    rx, ry = 0.17 * width, 0.10 * height
    pot = tuple((cx + rx * math.cos(a), cy + 2.0 + ry * math.sin(a))
                for a in np.linspace(0, 2 * math.pi, 12, endpoint=False))
    outline = tuple(_stadium_point(s, width, height)[0]
                    for s in np.linspace(0, perimeter, 48, endpoint=False))
    half = (width - height) / 2
    m_in = _RAIL_CM / 2
    marker_centres = [(cx - half, m_in), (cx + half, m_in), (m_in, cy), (width - m_in, cy),
                      (cx - half, height - m_in), (cx + half, height - m_in)]
    markers = tuple(ArucoMarker(i, (round(x, 2), round(y, 2)), 7.0) for i, (x, y) in enumerate(marker_centres))
    exact = TableProfile(name or f"oval-{seats}", width, height, outline, tuple(seat_list), muck, stub, pot,
                         (cx, height), "DICT_4X4_50", markers)
    return TableProfile.from_dict(exact.to_dict(), source="")   # rounded to 0.01 cm, as saved
