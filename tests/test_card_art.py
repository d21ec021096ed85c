"""Card art: the fixed design split, the procedural decks, and the Debian decks' cache when present."""

from __future__ import annotations

import hashlib
import json

import numpy as np
import pytest

from dealer_assist.cards import FULL_DECK, parse_card
from dealer_assist.synth import card_art
from dealer_assist.synth.card_art import (
    BACK_DESIGNS,
    BACKS_HELD_OUT,
    DESIGNS_HELD_OUT,
    DESIGNS_TRAIN,
    FACE_DESIGNS,
    FACES_HELD_OUT,
    PROCEDURAL_BACKS,
    PROCEDURAL_FACES,
    designs_for,
    element_id,
    load_back_design,
    load_face_design,
)


def test_split_is_fixed_and_disjoint() -> None:
    assert not DESIGNS_TRAIN & DESIGNS_HELD_OUT
    assert set(FACE_DESIGNS) | set(BACK_DESIGNS) == DESIGNS_TRAIN | DESIGNS_HELD_OUT
    assert len(FACES_HELD_OUT) >= 5 and set(FACE_DESIGNS) >= FACES_HELD_OUT
    assert len(BACKS_HELD_OUT) >= 2 and set(BACK_DESIGNS) >= BACKS_HELD_OUT
    # the split also works without the Debian packages
    assert FACES_HELD_OUT & set(PROCEDURAL_FACES) and set(PROCEDURAL_FACES) - FACES_HELD_OUT
    assert BACKS_HELD_OUT & set(PROCEDURAL_BACKS) and set(PROCEDURAL_BACKS) - BACKS_HELD_OUT


@pytest.mark.parametrize("available_only", [True, False])
def test_training_designs_never_held_out(available_only: bool) -> None:
    for kind in ("face", "back"):
        train = designs_for("train", kind, available_only=available_only)
        held = designs_for("held_out", kind, available_only=available_only)
        assert train and held
        assert not set(train) & DESIGNS_HELD_OUT
        assert set(held) <= DESIGNS_HELD_OUT


def test_skipped_decks_are_not_designs() -> None:
    names = {d.name for d in card_art.SVG_DECKS}
    for skipped in card_art.SKIPPED_DECKS:
        if not skipped.startswith("kde:"):
            assert skipped not in names, skipped
    assert "kde-konqi-modern" not in names


def test_element_ids() -> None:
    qh = parse_card("Qh")
    assert element_id(qh, "aisleriot") == "heart_queen"
    assert element_id(qh, "kde") == "queen_heart"
    assert element_id(parse_card("Ac"), "aisleriot") == "club_1"
    assert element_id(parse_card("Td"), "kde") == "10_diamond"


def test_procedural_deck_draws_52_distinct_faces() -> None:
    design = load_face_design("proc-classic")
    assert set(design.faces) == set(FULL_DECK)
    digests = {hashlib.sha1(img.tobytes()).hexdigest() for img in design.faces.values()}
    assert len(digests) == 52
    for img in design.faces.values():
        assert img.shape[1] == card_art.ART_WIDTH and img.shape[2] == 4
        assert img[img.shape[0] // 2, img.shape[1] // 2, 3] == 255  # opaque card
        assert img[0, 0, 3] == 0  # rounded corner


@pytest.mark.parametrize("name", PROCEDURAL_FACES)
def test_procedural_index_boxes_hold_the_index(name: str) -> None:
    design = load_face_design(name)
    assert len(design.index_boxes) in (2, 4)
    for card in (parse_card("Ah"), parse_card("Ts"), parse_card("Kc")):
        img = design.faces[card]
        h, w = img.shape[:2]
        for box in design.index_boxes:
            assert 0 <= box.x0 < box.x1 <= 1 and 0 <= box.y0 < box.y1 <= 1
            assert box.x1 - box.x0 < 0.4 and box.y1 - box.y0 < 0.45
            crop = img[int(box.y0 * h) : int(box.y1 * h), int(box.x0 * w) : int(box.x1 * w), :3]
            ink = (crop.astype(int).min(axis=2) < 150).mean()
            assert ink > 0.05, (name, card, box)


def test_font_decks_are_installed_by_the_training_setup_and_never_held_out() -> None:
    import re
    from pathlib import Path

    from dealer_assist.synth import procedural

    script = (Path(__file__).resolve().parents[1] / "installer" / "install.sh").read_text()
    listed = set(re.findall(r"\bfonts-[a-z0-9-]+", script)) - {"fonts-dejavu-core"}
    assert listed == set(procedural.FONT_PACKAGES)
    assert not set(procedural.FONT_DECKS) & card_art.DESIGNS_HELD_OUT
    assert not any("dejavu" in f.lower() for f, _ in procedural._FONT_DECK_FONTS.values())  # proc-serif's font


def test_font_decks_draw_distinct_faces_with_their_index_where_the_boxes_say() -> None:
    from dealer_assist.synth import procedural
    from dealer_assist.synth.train import classifier_faces

    present = [d for d in procedural.FONT_DECKS if procedural.font_deck_available(d)]
    assert set(present) <= set(classifier_faces())
    assert set(classifier_faces()) - set(present) == set(card_art.designs_for("train", "face"))
    for name in procedural.FONT_DECKS[:3]:  # drawn in DejaVu Sans where the fonts are not installed
        design = load_face_design(name)
        digests = {hashlib.sha1(img.tobytes()).hexdigest() for img in design.faces.values()}
        assert len(digests) == 52
        for card in (parse_card("Qc"), parse_card("Td")):
            img = design.faces[card]
            h, w = img.shape[:2]
            for box in design.index_boxes:
                crop = img[int(box.y0 * h) : int(box.y1 * h), int(box.x0 * w) : int(box.x1 * w), :3]
                assert (crop.astype(int).min(axis=2) < 150).mean() > 0.05, (name, card, box)


@pytest.mark.parametrize("name", PROCEDURAL_BACKS)
def test_procedural_backs(name: str) -> None:
    back = load_back_design(name)
    assert back.image.shape[2] == 4 and back.image.shape[1] == card_art.ART_WIDTH
    # a back looks the same after a half turn (close enough: a player cannot tell which way it lies)
    img = back.image[:, :, :3].astype(float)
    assert np.abs(img - img[::-1, ::-1]).mean() < 40


def test_random_backs_are_seeded_varied_and_in_neither_split() -> None:
    """The seeded family of backs a training run may add (`train --random-backs`): each is drawn the same every
    time, they differ from each other, look the same after a half turn, and belong to neither split, so the
    shipped recipe's data and every held-out figure are untouched by them."""
    from dealer_assist.synth import procedural
    from dealer_assist.synth.card_art import RANDOM_BACKS

    assert len(RANDOM_BACKS) == 16 and not set(RANDOM_BACKS) & (DESIGNS_TRAIN | DESIGNS_HELD_OUT)
    images = [load_back_design(n).image for n in RANDOM_BACKS]
    assert np.array_equal(procedural.draw_random_back(3), images[3])
    colours = {tuple(np.round(img[..., :3].reshape(-1, 3).mean(axis=0) / 24).astype(int)) for img in images}
    assert len(colours) >= 12
    for img in images:
        rgb = img[:, :, :3].astype(float)
        assert np.abs(rgb - rgb[::-1, ::-1]).mean() < 40


def test_unknown_design_is_a_clear_error() -> None:
    with pytest.raises(card_art.CardArtError, match="unknown face design"):
        load_face_design("no-such-deck")
    with pytest.raises(card_art.CardArtError, match="unknown back design"):
        load_back_design("back:no-such-deck")


def test_rasterised_debian_decks_in_cache_are_whole() -> None:
    """Checks every Debian deck already in the cache (rasterising is minutes, so tests never do it)."""
    folders = [card_art.cache_dir() / d.name for d in card_art.SVG_DECKS]
    present = [f for f in folders if (f / "meta.json").is_file()]
    if not present:
        pytest.skip("no rasterised Debian deck in the cache")
    for folder in present[:3]:
        meta = json.loads((folder / "meta.json").read_text())
        assert len(meta["index_boxes"]) in (2, 4)
        for box in meta["index_boxes"]:
            assert 0 <= box[0] < box[2] <= 1 and 0 <= box[1] < box[3] <= 1
        assert len(list(folder.glob("*.png"))) == 53
