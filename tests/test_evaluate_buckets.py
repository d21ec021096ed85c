"""Face-up recall split by index-corner height: the buckets and their counts."""

from __future__ import annotations

from dealer_assist.synth.evaluate import SIZE_NAMES, Tally, max_matching, size_bucket
from dealer_assist.synth.scene import SceneOptions, render_scene
from dealer_assist.synth.truth import ObjectTruth, SceneTruth
from dealer_assist.vision.detections import Detections


def test_size_bucket_edges() -> None:
    assert [size_bucket(px) for px in (3, 7.99, 8, 11.9, 12, 19.9, 20, 300)] == [
        "<8px", "<8px", "8-12px", "8-12px", "12-20px", "12-20px", ">=20px", ">=20px"]


def test_recall_by_size_counts_every_must_find_card() -> None:
    scene = render_scene(5, "train", SceneOptions(size=(1280, 720), phase="showdown", full_table=False))
    t = Tally()
    t.add(scene.truth, Detections.empty())
    by = t.recall_by_size()
    assert set(by) <= set(SIZE_NAMES)
    assert sum(n for _, n in by.values()) == t.cards_must > 0
    assert all(r == 0.0 for r, _ in by.values())  # nothing detected, nothing found


def _back(oid: int, x0: float, visible: float) -> ObjectTruth:
    """A 40 x 60 px face-down card whose left edge is at `x0`."""
    return ObjectTruth(oid, "card_back", ((x0, 0.0), (x0 + 40, 0.0), (x0 + 40, 60.0), (x0, 60.0)), visible,
                       (0.0, 0.0), "seat:1")


def _scene(*objects: ObjectTruth) -> SceneTruth:
    eye = ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0))
    return SceneTruth(1, "held_out", 200, 100, eye, "oval-9", 9, "proc-serif", "back:tigullio", objects)


def test_backs_are_paired_with_boxes_one_to_one_as_many_as_can_be() -> None:
    # two overlapping backs of a dealt row (x 0-40 and 20-60); the first box's centre lies on both, the second's
    # on the first card alone. Pairing first come, first served gave the first box the more visible first card
    # and left the second box, and the second card, unpaired.
    truth = _scene(_back(1, 0.0, 1.0), _back(2, 20.0, 0.5))
    dets = Detections.from_labels(["back", "back"], [[20, 10, 50, 50], [0, 10, 20, 50]])
    t = Tally()
    t.add(truth, dets)
    assert (t.backs_must, t.backs_found) == (2, 2)
    assert (t.back_dets, t.back_dets_ok) == (2, 2)


def test_a_second_box_on_one_back_counts_it_once_and_a_box_on_bare_felt_is_false() -> None:
    truth = _scene(_back(1, 0.0, 1.0))
    dets = Detections.from_labels(["back", "back", "back"], [[0, 0, 40, 60], [2, 2, 38, 58], [150, 10, 190, 70]])
    t = Tally()
    t.add(truth, dets)
    assert (t.backs_must, t.backs_found) == (1, 1)
    assert (t.back_dets, t.back_dets_ok) == (2, 1)  # the second box on the card: no penalty; the one on felt: false


def test_max_matching_finds_the_largest_pairing() -> None:
    # left 0 may pair with right 0 or 1, left 1 with 0 only: left 0 must give up 0 for both to pair
    assert len(max_matching([[0, 1], [0], [1]], 2)) == 2
    assert sorted(max_matching([[0, 1], [0], [1, 2]], 3).items()) == [(0, 1), (1, 0), (2, 2)]
    assert max_matching([[], []], 0) == {}
