"""Table profiles: the shipped ovals, the generator for 2..10 seats, round trips and one-line errors."""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import cv2
import numpy as np
import pytest
import tomli_w

from dealer_assist.vision.table_profile import (
    PROFILE_DIR,
    ProfileError,
    TableProfile,
    load_profile,
    oval_profile,
    points_in_polygon,
    shipped_profiles,
)


def _overlap(a: object, b: object) -> float:
    area, _ = cv2.intersectConvexConvex(np.array(a, np.float32), np.array(b, np.float32))
    return float(area)


def test_shipped_profiles_load() -> None:
    assert {"oval-6", "oval-9"} <= set(shipped_profiles())
    nine = load_profile("oval-9")
    six = TableProfile.load(PROFILE_DIR / "oval-6.toml")
    assert nine.seat_count == 9 and six.seat_count == 6
    assert nine == oval_profile(9) and six == oval_profile(6)
    assert [s.number for s in nine.seats] == list(range(1, 10))
    assert len(nine.markers) >= 4 and nine.aruco_dictionary == "DICT_4X4_50"


@pytest.mark.parametrize("seats", range(2, 11))
def test_oval_generator_zones_are_separate(seats: int) -> None:
    p = oval_profile(seats)
    areas = {f"seat {s.number}": s.zone for s in p.seats} | {"muck": p.muck, "stub": p.stub, "pot": p.pot}
    overlaps = [(a, b) for a, b in itertools.combinations(areas, 2) if _overlap(areas[a], areas[b]) > 0]
    assert not overlaps
    for seat in p.seats:
        assert points_in_polygon([seat.card_spot], seat.zone)[0], "the card spot lies in its zone"
        assert not any(points_in_polygon([seat.button_spot], poly)[0] for poly in areas.values())
        # each button spot is nearer its own seat's card spot than any other seat's
        d = [np.hypot(seat.button_spot[0] - o.card_spot[0], seat.button_spot[1] - o.card_spot[1]) for o in p.seats]
        assert int(np.argmin(d)) == seat.number - 1
        assert points_in_polygon([seat.card_spot], p.outline)[0]
    assert TableProfile.loads(p.to_toml()) == p


def test_seats_run_clockwise_from_dealers_left() -> None:
    p = oval_profile(9)
    first, last = p.seat(1), p.seat(9)
    assert first.card_spot[0] < p.dealer[0] < last.card_spot[0]
    assert first.facing_deg < 0 and last.facing_deg < 0   # both look up the table, away from the dealer
    assert p.seat(5).card_spot[1] < p.height_cm / 3       # the middle seat is across from the dealer


def test_marker_corners_in_aruco_order() -> None:
    m = oval_profile(6).markers[0]
    c = m.corners()
    assert c.shape == (4, 2)
    assert c[0][0] < c[1][0] and c[1][1] < c[2][1]        # top-left, top-right, bottom-right, ...
    assert np.allclose(c.mean(axis=0), m.center)


def test_save_and_load(tmp_path: Path) -> None:
    p = oval_profile(4, name="home-game")
    path = p.save(tmp_path / "home.toml")
    assert TableProfile.load(path) == p


def _one_line(exc: pytest.ExceptionInfo[ProfileError]) -> str:
    msg = str(exc.value)
    assert "\n" not in msg
    return msg


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(ProfileError) as exc:
        TableProfile.load(tmp_path / "nope.toml")
    assert "not found" in _one_line(exc) and "oval-9" in str(exc.value)


def test_broken_toml(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text("name = 'x\nseats = [\n")
    with pytest.raises(ProfileError) as exc:
        TableProfile.load(path)
    assert "not valid TOML" in _one_line(exc)


BASE = oval_profile(6).to_toml()


@pytest.mark.parametrize(("find", "replace", "expect"), [
    ("seats = 6", "seats = 11", "key 'seats' must be a whole number from 2 to 10"),
    ("seats = 6", "seats = 5", "'seats' says 5 but there are 6"),
    ("width_cm = 222.0", "width_cm = -1", "key 'width_cm' must be a positive number"),
    ("width_cm = 222.0", "width_cm = \"wide\"", "key 'width_cm' must be a number"),
    ("name = \"oval-6\"\n", "", "missing key 'name'"),
    ("number = 3", "number = 4", "key 'number' must be 3"),
    ("facing_deg = ", "facing_deg = \"north\" #", "key 'facing_deg' must be a number"),
    ("card_spot = [", "card_spot = [1, ", "key 'card_spot' must be a point [x, y]"),
    ("muck = [[", "muck = [[1.0, 1.0], [2.0, 2.0]] #", "key 'muck' must be a list of at least 3 points"),
    ("stub = [[", "stub = [[0.0, 0.0], [1.0, 1.0], [2.0, 2.0]] #", "key 'stub' is a degenerate polygon"),
    ("pot = [[", "pot = [[900.0, 0.0], [901.0, 1.0], [900.0, 2.0]] #", "key 'pot' has point [900, 0] outside"),
    ("DICT_4X4_50", "DICT_9X9_1", "key 'dictionary' is 'DICT_9X9_1'; accepted: DICT_4X4_50"),
    ("id = 1\n", "id = 0\n", "marker id 0 appears twice"),
    ("id = 1\n", "id = -1\n", "key 'id' must be a whole number >= 0"),
])
def test_bad_values_name_the_key(find: str, replace: str, expect: str) -> None:
    assert find in BASE
    text = BASE.replace(find, replace, 1) if "number = 3" not in find else re.sub(r"number = 3\b", replace, BASE)
    with pytest.raises(ProfileError) as exc:
        TableProfile.loads(text, source="t.toml")
    msg = _one_line(exc)
    assert msg.startswith("t.toml")
    assert expect in msg


def _with_seat(number: int, **changes: object) -> str:
    """BASE with seat `number`'s keys changed (each a TOML value)."""
    data = oval_profile(6).to_dict()
    data["seat"][number - 1].update(changes)
    return tomli_w.dumps(data)


def test_a_zone_that_crosses_itself_is_refused() -> None:
    zone = oval_profile(6).seats[0].zone
    bowtie = [list(zone[0]), list(zone[2]), list(zone[1]), list(zone[3])]   # two corners swapped
    with pytest.raises(ProfileError, match=r"\[\[seat\]\] 1: key 'zone' crosses itself"):
        TableProfile.loads(_with_seat(1, zone=bowtie), source="t.toml")


def test_a_card_spot_outside_its_own_zone_or_inside_anothers_is_refused() -> None:
    profile = oval_profile(6)
    with pytest.raises(ProfileError, match=r"card_spot .* lies outside the seat's own zone"):
        TableProfile.loads(_with_seat(2, card_spot=list(profile.seats[0].card_spot)), source="t.toml")
    shared = [list(p) for p in profile.seats[0].zone]                  # seat 2 given seat 1's zone and spot
    with pytest.raises(ProfileError, match=r"\[\[seat\]\] 1's card_spot lies in seat 2's zone"):
        TableProfile.loads(_with_seat(2, zone=shared, card_spot=list(profile.seats[0].card_spot)), source="t.toml")


@pytest.mark.parametrize(("find", "replace", "expect"), [
    ("seats = 6", "seats = 6\ncolour = \"green\"", "unknown key 'colour'"),
    ("card_spot = [", "card_spt = [", "unknown key 'card_spt'; accepted: number, zone, card_spot"),
    ("muck = [", "muk = [", "unknown key 'muk'"),
])
def test_a_misspelt_key_is_refused_not_ignored(find: str, replace: str, expect: str) -> None:
    with pytest.raises(ProfileError) as exc:
        TableProfile.loads(BASE.replace(find, replace, 1), source="t.toml")
    assert expect in _one_line(exc)


def test_generator_rejects_bad_seat_counts() -> None:
    for bad in (1, 11, 0):
        with pytest.raises(ProfileError, match="from 2 to 10"):
            oval_profile(bad)


def test_points_in_polygon() -> None:
    square = ((0.0, 0.0), (10.0, 0.0), (10.0, 10.0), (0.0, 10.0))
    got = points_in_polygon([[5, 5], [15, 5], [-1, -1], [9.9, 0.1]], square)
    assert got.tolist() == [True, False, False, True]
