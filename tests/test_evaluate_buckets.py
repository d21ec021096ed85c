"""Face-up recall split by index-corner height: the buckets and their counts."""

from __future__ import annotations

from dealer_assist.synth.evaluate import SIZE_NAMES, Tally, size_bucket
from dealer_assist.synth.scene import SceneOptions, render_scene
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
