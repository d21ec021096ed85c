"""TableMapper zone assignment through a tilted camera, and the Detections dataclass it reads."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from dealer_assist.cards import parse_card
from dealer_assist.errors import DealerAssistError
from dealer_assist.vision.calibration import CameraCalibration
from dealer_assist.vision.detections import CLASS_NAMES, Detections, class_id_to_label, label_to_class_id
from dealer_assist.vision.mapper import MapperConfig, TableMapper, TableObservation, ZoneView
from dealer_assist.vision.pipeline import observation_to_detections
from dealer_assist.vision.table_profile import TableProfile, oval_profile


def _camera(profile: TableProfile) -> CameraCalibration:
    """A camera tilted and rotated over the table (a known table -> image homography)."""
    w, h = profile.width_cm, profile.height_cm
    quad = np.float32([[180, 120], [1120, 40], [1250, 700], [60, 640]])
    t2i = cv2.getPerspectiveTransform(np.float32([[0, 0], [w, 0], [w, h], [0, h]]), quad)
    return CameraCalibration.from_table_to_image(t2i, (1280, 720), profile.name)


def _v(backs: int = 0, *up: str) -> ZoneView:
    return ZoneView(backs, frozenset(parse_card(c) for c in up))


@pytest.mark.parametrize("seats", [6, 9, 2, 10])
def test_round_trip_every_zone(seats: int) -> None:
    profile = oval_profile(seats)
    cal = _camera(profile)
    faces = iter([("Ah", "Kd"), ("2c", "3c"), ("4d", "5h"), ("6s", "8s")])
    views = tuple(_v(i % 4 + 1) if i % 3 else _v(1, *next(faces)) for i in range(seats))
    obs = TableObservation(1.5, 45, views, muck=_v(2), stub=_v(1, "7c"), button_seat=seats)
    got = TableMapper(profile, cal).update(observation_to_detections(obs, profile, cal), 1.5, 45)
    assert got.seats == views
    assert got.muck == _v(2) and got.stub == _v(1, "7c")
    assert got.button_seat == seats and got.stray == 0 and (got.t, got.frame) == (1.5, 45)


def test_zone_codes_and_margin() -> None:
    profile = oval_profile(9)
    mapper = TableMapper(profile, _camera(profile))
    seat5 = profile.seat(5)
    inside = seat5.card_spot
    just_out = (seat5.card_spot[0], max(y for _, y in seat5.zone) + 2.0)   # 2 cm past the zone's inner edge
    far_out = (seat5.card_spot[0], max(y for _, y in seat5.zone) + 8.0)
    muck = tuple(np.mean(profile.muck, axis=0))
    stub = tuple(np.mean(profile.stub, axis=0))
    pot = tuple(np.mean(profile.pot, axis=0))
    assert mapper.zone_of([inside, just_out, far_out, muck, stub, pot]).tolist() == [5, 5, 0, -1, -2, -3]
    strict = TableMapper(profile, _camera(profile), MapperConfig(zone_margin_cm=0))
    assert strict.zone_of([just_out]).tolist() == [0]


def _at(cal: CameraCalibration, table_pts: list[tuple[float, float]], labels: list[str],
        conf: list[float] | None = None) -> Detections:
    img = cal.to_image(np.array(table_pts))
    boxes = np.concatenate([img - 8, img + 8], axis=1)
    return Detections.from_labels(labels, boxes, conf)


def test_face_counted_once_and_best_zone_wins() -> None:
    profile = oval_profile(6)
    cal = _camera(profile)
    s1, s2 = profile.seat(1).card_spot, profile.seat(2).card_spot
    near = (s1[0] + 1.0, s1[1] + 1.0)
    dets = _at(cal, [s1, near, s2, s1], ["Ah", "Ah", "Ah", "back"], [0.9, 0.8, 0.6, 0.9])
    obs = TableMapper(profile, cal).update(dets, 0.0, 0)
    assert obs.seat(1) == _v(1, "Ah") and obs.seat(2) == _v(0)


def test_low_confidence_dropped_and_stray_counted() -> None:
    profile = oval_profile(6)
    cal = _camera(profile)
    mid_air = (profile.width_cm / 2, 12.0)                 # between seats, in nobody's zone
    dets = _at(cal, [profile.seat(3).card_spot, profile.seat(3).card_spot, mid_air], ["back", "back", "back"],
               [0.9, 0.2, 0.9])
    obs = TableMapper(profile, cal, MapperConfig(min_confidence=0.5)).update(dets, 0.0, 0)
    assert obs.seat(3) == _v(1) and obs.stray == 1


def test_the_detectors_own_thresholds_decide_by_default() -> None:
    """What the detector reports counts: the backs of a dealt row under the top card score 0.3 to 0.45."""
    profile = oval_profile(6)
    cal = _camera(profile)
    x, y = profile.seat(3).card_spot
    dets = _at(cal, [(x - 3, y), (x, y), (x + 3, y)], ["back", "back", "back"], [0.31, 0.42, 0.9])
    assert TableMapper(profile, cal).update(dets, 0.0, 0).seat(3) == _v(3)


def test_past_the_hand_size_a_second_box_on_one_card_is_not_a_card() -> None:
    """A dealt row of 4 where the detector boxes one card twice (its outline and its visible strip, 1 cm apart):
    4 cards, not 5. A real fifth card beside the row (a card dealt too many) still counts, and so do all the
    boxes when no hand size is set (the mapper alone, without a game)."""
    profile = oval_profile(6)
    cal = _camera(profile)
    x, y = profile.seat(3).card_spot
    row = [(x - 4.5, y), (x - 1.5, y), (x + 1.5, y), (x + 4.5, y)]
    second = [*row, (x + 5.5, y)]                              # 1 cm from the last card, scored lower
    fifth = [*row, (x + 7.5, y)]                               # 3 cm along the row: another card
    conf = [0.9, 0.8, 0.85, 0.9, 0.4]
    four = TableMapper(profile, cal, MapperConfig(hand_size=4))
    assert four.update(_at(cal, second, ["back"] * 5, conf), 0.0, 0).seat(3) == _v(4)
    assert four.update(_at(cal, fifth, ["back"] * 5, conf), 0.0, 0).seat(3) == _v(5)
    assert TableMapper(profile, cal).update(_at(cal, second, ["back"] * 5, conf), 0.0, 0).seat(3) == _v(5)
    # under the hand size every box counts, close or not (a squared pile's cards lie on one spot)
    pile = [(x, y), (x + 0.5, y), (x + 1.0, y)]
    assert four.update(_at(cal, pile, ["back"] * 3, [0.9, 0.8, 0.7]), 0.0, 0).seat(3) == _v(3)
    # face-up cards count toward the hand: 3 shown and 2 boxes 1 cm apart are 4 cards
    shown = [(x - 8, y), (x - 6, y), (x - 4, y), (x + 3, y), (x + 4, y)]
    got = four.update(_at(cal, shown, ["Ah", "2c", "3d", "back", "back"], [0.9, 0.9, 0.9, 0.9, 0.5]), 0.0, 0)
    assert got.seat(3) == _v(1, "Ah", "2c", "3d")


def test_button_nearest_spot_within_reach() -> None:
    profile = oval_profile(9)
    cal = _camera(profile)
    mapper = TableMapper(profile, cal)
    b4 = profile.seat(4).button_spot
    dets = _at(cal, [b4, (b4[0] + 60, b4[1])], ["button", "button"], [0.9, 0.5])
    assert mapper.update(dets, 0, 0).button_seat == 4
    centre = (profile.width_cm / 2, profile.height_cm / 2)
    far = TableMapper(profile, cal, MapperConfig(button_reach_cm=5.0))
    assert far.update(_at(cal, [centre], ["button"]), 0, 0).button_seat is None
    assert mapper.update(Detections.empty(), 0, 0).button_seat is None


# -- Detections ------------------------------------------------------------------------------------


def test_detections_labels_and_masks() -> None:
    d = Detections.from_labels(["Ah", "back", "button", "10c"], [[0, 0, 10, 10], [5, 5, 20, 20], [1, 1, 2, 2],
                                                                 [3, 3, 4, 4]], [0.9, 0.8, 0.7, 0.6])
    assert d.labels == ["Ah", "back", "button", "Tc"]
    assert d.is_face_up.tolist() == [True, False, False, True]
    assert d.is_back.tolist() == [False, True, False, False] and d.is_button.tolist() == [False, False, True, False]
    assert d.card(0) == parse_card("Ah") and d.card(1) is None
    assert len(d[d.is_face_up]) == 2 and len(d[1]) == 1 and len(d.with_min_confidence(0.75)) == 2
    assert d.centers[1].tolist() == [12.5, 12.5]
    assert d.to_list()[2] == {"button": True, "confidence": 0.7,
                              "polygon": [[1.0, 1.0], [2.0, 1.0], [2.0, 2.0], [1.0, 2.0]]}
    assert d.to_list()[0]["card"] == "Ah"
    assert len(Detections.merge([d, d])) == 8 and len(Detections.merge([])) == 0


def test_detections_polygons_and_transform() -> None:
    p = Detections.from_labels(["Kd"], [[[0, 0], [4, 1], [3, 5], [-1, 4]]])
    assert p.xyxy.tolist() == [[-1.0, 0.0, 4.0, 5.0]]
    doubled = p.transformed(np.diag([2.0, 2.0, 1.0]))
    assert doubled.polygons[0].tolist() == [[0, 0], [8, 2], [6, 10], [-2, 8]]
    with pytest.raises(ValueError):
        p.xyxy[0, 0] = 5.0                     # frozen arrays


def test_detections_errors() -> None:
    with pytest.raises(DealerAssistError, match="unknown detection label 'joker'"):
        Detections.from_labels(["joker"], [[0, 0, 1, 1]])
    with pytest.raises(DealerAssistError, match="arrays differ in length"):
        Detections.from_boxes([[0, 0, 1, 1]], [0.5, 0.6], [1])
    with pytest.raises(DealerAssistError, match="shape"):
        Detections.from_boxes([[0, 0, 1]], [0.5], [1])
    with pytest.raises(DealerAssistError, match="class ids must be 0 to 53"):
        Detections.from_boxes([[0, 0, 1, 1]], [0.5], [99])
    assert len(CLASS_NAMES) == 54 and class_id_to_label(label_to_class_id("As")) == "As"
    assert label_to_class_id("BACK") == 52 and label_to_class_id("button") == 53


def test_two_index_corners_of_one_card_place_it_by_its_middle() -> None:
    profile = oval_profile(9)
    cal = _camera(profile)
    seat = profile.seat(5)
    inner_edge = max(y for _, y in seat.zone)
    corner_in = (seat.card_spot[0], inner_edge - 2.0)       # one corner inside the zone ...
    corner_out = (seat.card_spot[0] + 3.0, inner_edge + 5.5)  # ... the other beyond it (and beyond the margin)
    dets = _at(cal, [corner_in, corner_out], ["9h", "9h"], [0.7, 0.9])
    assert TableMapper(profile, cal).update(dets, 0, 0).seat(5) == _v(0, "9h")


def test_loose_cards_beside_a_seat() -> None:
    profile = oval_profile(9)
    cal = _camera(profile)
    seat = profile.seat(5)
    beyond = (seat.card_spot[0], max(y for _, y in seat.zone) + 8.0)     # just past the zone, in no zone
    far = (profile.width_cm / 2 + 40.0, profile.height_cm / 2 - 5.0)     # out in the open felt
    obs = TableMapper(profile, cal).update(_at(cal, [beyond, far], ["back", "back"]), 0, 0)
    assert obs.stray == 2 and obs.loose[4] == 1 and sum(obs.loose) == 1
