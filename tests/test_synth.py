"""The simulated table: deterministic scenes, ground truth that matches the pixels, hand videos.

Everything here runs on the procedural decks (the Debian card-art packages may be absent) at small
frame sizes, so the whole file takes seconds.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from dealer_assist.cards import parse_card
from dealer_assist.cli import cli
from dealer_assist.rules.house_rules import HouseRules
from dealer_assist.synth import card_art
from dealer_assist.synth.card_art import DESIGNS_HELD_OUT, DESIGNS_TRAIN, load_back_design, load_face_design
from dealer_assist.synth.hand_video import ERROR_KINDS, SimulatedTable, SimulationError
from dealer_assist.synth.scene import SceneOptions, designs_key, render_scene
from dealer_assist.synth.table_render import Effects, Placement, TableRenderer, apply_h, make_camera, random_felt
from dealer_assist.synth.truth import ObjectTruth, SceneTruth
from dealer_assist.vision.frames import FrameSource
from dealer_assist.vision.table_profile import oval_profile

SMALL = (640, 360)


pytestmark = pytest.mark.usefixtures("procedural_decks")   # as on a machine without the card-art packages


def test_same_seed_same_bytes() -> None:
    a = render_scene(11, "train", SceneOptions(size=SMALL))
    b = render_scene(11, "train", SceneOptions(size=SMALL))
    c = render_scene(12, "train", SceneOptions(size=SMALL))
    assert a.image.tobytes() == b.image.tobytes()
    assert a.truth == b.truth
    assert a.image.tobytes() != c.image.tobytes()
    assert SceneTruth.from_dict(json.loads(json.dumps(a.truth.to_dict()))).objects[0].kind == a.truth.objects[0].kind


def test_cached_scenes_are_keyed_by_the_designs_installed(monkeypatch: pytest.MonkeyPatch) -> None:
    """Scenes rendered on a machine without the art packages are procedural only: a held-out scene cache must not
    serve them once the packages are installed (the benchmark's figures would be on one procedural deck)."""
    procedural = designs_key("held_out")
    assert procedural == designs_key("held_out") and procedural != designs_key("train")
    monkeypatch.setattr(card_art, "design_available", lambda name: True)
    assert designs_key("held_out") != procedural


@pytest.mark.parametrize("seed", range(6))
def test_truth_polygons_match_the_image_and_homography(seed: int) -> None:
    scene = render_scene(seed, "train", SceneOptions(size=SMALL))
    t = scene.truth
    assert scene.image.shape == (SMALL[1], SMALL[0], 3)
    h = np.array(t.homography)
    for o in t.objects:
        assert 0.0 <= o.visible <= 1.0
        poly = np.array(o.polygon)
        x0, y0, x1, y1 = o.bbox()
        if o.visible > 0:  # something of it is in the image
            assert x1 > 0 and y1 > 0 and x0 < t.width and y0 < t.height
        if o.visible > 0.999 and o.kind in ("card_face", "card_back"):
            assert poly[:, 0].min() >= -1 and poly[:, 0].max() <= t.width + 1
            assert poly[:, 1].min() >= -1 and poly[:, 1].max() <= t.height + 1
        if o.kind in ("card_face", "card_back") and o.zone not in ("stub", "transit"):
            centre = apply_h(h, [o.table_xy])[0]
            assert np.allclose(poly.mean(axis=0), centre, atol=1.0), (o, centre)
        if o.kind == "card_face":
            assert o.card is not None and o.corners
            for c in o.corners:
                assert 0.0 <= c.visible <= 1.0
                cc = np.array(c.polygon).mean(axis=0)
                assert x0 - 1 <= cc[0] <= x1 + 1 and y0 - 1 <= cc[1] <= y1 + 1
        else:
            assert not o.corners


def test_scene_cards_are_one_deck() -> None:
    for seed in range(4):
        t = render_scene(seed, "train", SceneOptions(size=SMALL, phase="showdown")).truth
        faces = [o.card for o in t.objects if o.kind == "card_face"]
        assert len(faces) == len(set(faces))


def _renderer(face: str = "proc-classic") -> TableRenderer:
    profile = oval_profile(6)
    spot = profile.seat(3).card_spot
    cam = make_camera([(spot[0] - 20, spot[1] - 12), (spot[0] + 20, spot[1] + 12)], SMALL)
    return TableRenderer(profile, cam, load_face_design(face), load_back_design("back:proc-red-lattice"),
                         random_felt(np.random.default_rng(0)))


def test_occlusion_from_the_id_buffer() -> None:
    r = _renderer()
    spot = r.profile.seat(3).card_spot
    under, over = parse_card("As"), parse_card("Kd")
    _, objs = r.render([Placement("card_face", spot, 0.0, under), Placement("card_face", spot, 0.0, over)],
                       Effects(), 0)
    bottom, top = objs
    assert bottom.card == under and top.card == over
    assert bottom.visible < 0.02 and all(c.visible < 0.02 for c in bottom.corners)
    assert top.visible > 0.97 and all(c.visible > 0.97 for c in top.corners)


def test_spread_shows_index_corners() -> None:
    r = _renderer()
    x, y = r.profile.seat(3).card_spot
    cards = [parse_card(c) for c in ("Ah", "2c", "3d", "4s")]
    places = [Placement("card_face", (x + 2.2 * i, y), 0.0, c) for i, c in enumerate(cards)]
    _, objs = r.render(places, Effects(), 0)
    for o in objs[:-1]:
        top_left = o.corners[0]
        assert top_left.visible > 0.95, o.card
        assert 0.2 < o.visible < 0.6
    assert objs[-1].visible > 0.97
    hand = Placement("hand", (x + 3, y), 90.0, height_cm=8.0, style=3, length_cm=40.0)
    _, objs = r.render([*places, hand], Effects(), 0)
    assert objs[-1].kind == "hand" and objs[-1].visible > 0.97
    assert sum(o.visible for o in objs[:-1]) < sum(o.visible for o in objs[:4]) + 1e-6


def _row_gap_cm(backs: list[ObjectTruth]) -> float:
    """The median distance in table cm between a seat's face-down cards and their nearest neighbours."""
    xy = np.array([o.table_xy for o in backs])
    d = np.linalg.norm(xy[:, None] - xy[None], axis=2) + np.eye(len(xy)) * 1e9
    return float(np.median(d.min(axis=1)))


def test_face_down_cards_are_also_dealt_in_rows() -> None:
    """Training scenes must show the row a dealer pitches (each back half on the last, every one labelled), not only
    squared piles and tight fans: a detector that never saw one counts a dealt row of four as one or two cards."""
    rows = 0
    for seed in range(20):
        truth = render_scene(seed, "train", SceneOptions(size=SMALL, phase="deal")).truth
        seats: dict[str, list[ObjectTruth]] = {}
        for o in truth.objects:
            if o.kind == "card_back" and o.zone.startswith("seat:"):
                seats.setdefault(o.zone, []).append(o)
        for backs in seats.values():
            if len(backs) >= 3 and _row_gap_cm(backs) >= 2.4 and all(o.visible >= 0.3 for o in backs):
                rows += 1
    assert rows >= 4, rows


def _seat_backs(truth: SceneTruth) -> list[list[ObjectTruth]]:
    seats: dict[str, list[ObjectTruth]] = {}
    for o in truth.objects:
        if o.kind == "card_back" and o.zone.startswith("seat:"):
            seats.setdefault(o.zone, []).append(o)
    return [backs for backs in seats.values() if len(backs) >= 3]


def test_face_down_layout_shares_decide_how_backs_lie() -> None:
    """`face_down_layouts` (training data with more dealt rows): all rows, or all squared piles."""
    gaps: dict[tuple[float, float, float], list[float]] = {(0.0, 0.0, 1.0): [], (1.0, 0.0, 0.0): []}
    for shares, seen in gaps.items():
        for seed in range(8):
            truth = render_scene(seed, "train", SceneOptions(size=SMALL, phase="deal", face_down_layouts=shares)).truth
            seen += [_row_gap_cm(backs) for backs in _seat_backs(truth)]
    rows, piles = gaps[(0.0, 0.0, 1.0)], gaps[(1.0, 0.0, 0.0)]
    assert len(rows) >= 4 and len(piles) >= 4, (rows, piles)
    assert min(rows) >= 2.0 and max(piles) < 1.2, (rows, piles)  # rows step 2.4 to 3.8 cm, both jittered


def test_extra_backs_are_drawn_in_training_scenes_only() -> None:
    """`SceneOptions.extra_backs` (`train --random-backs`) widens the training scenes' backs; held-out scenes never
    draw from them."""
    from dealer_assist.synth.card_art import BACKS_HELD_OUT, RANDOM_BACKS

    extra = SceneOptions(size=SMALL, extra_backs=RANDOM_BACKS)
    train = {render_scene(seed, "train", extra).truth.back_design for seed in range(24)}
    held = {render_scene(seed, "held_out", extra).truth.back_design for seed in range(6)}
    assert train & set(RANDOM_BACKS) and held <= BACKS_HELD_OUT
    assert not {render_scene(seed, "train", SceneOptions(size=SMALL)).truth.back_design
                for seed in range(24)} & set(RANDOM_BACKS)


def test_felt_print_lies_under_the_scene_and_changes_nothing_else() -> None:
    """`SceneOptions.felt_print` (`train --felt-print`) draws lettering and lone printed chips on the felt from its
    own random stream: the same objects with the same truth, other pixels, and no truth for the print itself."""
    plain = render_scene(5, "train", SceneOptions(size=SMALL, full_table=True))
    printed = render_scene(5, "train", SceneOptions(size=SMALL, full_table=True, felt_print=30))
    key = [(o.kind, o.card, o.table_xy) for o in plain.truth.objects]
    assert key == [(o.kind, o.card, o.table_xy) for o in printed.truth.objects]
    assert all(o.kind != "print" for o in printed.truth.objects)
    changed = np.abs(plain.image.astype(int) - printed.image).max(axis=2) > 40
    assert changed.sum() > 200, changed.sum()


def test_random_print_stays_on_the_table_and_its_sprites_are_print_sized() -> None:
    from dealer_assist.synth.scene import random_print
    from dealer_assist.synth.table_render import print_sprite
    from dealer_assist.vision.table_profile import points_in_polygon

    profile = oval_profile(6)
    pieces = random_print(3, profile, 40)
    assert len(pieces) == 40 and all(p.kind == "print" and not p.gt for p in pieces)
    assert points_in_polygon([p.xy for p in pieces], profile.outline).all()
    discs = 0
    for p in pieces:
        img, w_cm, h_cm = print_sprite(p.style)
        assert img.shape[2] == 4 and img[..., 3].max() > 100
        if img.shape[0] == img.shape[1] and img[img.shape[0] // 2, 1, 3] == 255:  # a lone chip: an opaque disc
            discs += 1
            assert 3.5 <= w_cm <= 4.5
        else:
            assert 0.8 <= h_cm <= 3.6, h_cm  # letters 0.8 to 3 cm and a thin margin
    assert 5 <= discs <= 30
    again, _, _ = print_sprite(pieces[0].style)
    assert again is print_sprite(pieces[0].style)[0]


def test_tilted_camera_keeps_the_table_plane() -> None:
    profile = oval_profile(9)
    cam = make_camera(list(profile.outline), SMALL, tilt_deg=30, tilt_dir_deg=40, roll_deg=125)
    assert cam.tilt_deg == 30
    pts = np.array(profile.outline)
    img = cam.project(pts)
    # the table fills the frame and is not mirrored: seats run clockwise on screen too
    assert img[:, 0].min() >= -1 and img[:, 0].max() <= SMALL[0] + 1
    area = 0.5 * np.sum(img[:, 0] * np.roll(img[:, 1], -1) - np.roll(img[:, 0], -1) * img[:, 1])
    area_table = 0.5 * np.sum(pts[:, 0] * np.roll(pts[:, 1], -1) - np.roll(pts[:, 0], -1) * pts[:, 1])
    assert np.sign(area) == np.sign(area_table)
    # objects above the table move away from their footprint (parallax)
    assert not np.allclose(cam.project(pts[:1], 20.0), cam.project(pts[:1], 0.0))


@pytest.mark.parametrize("split", ["train", "held_out"])
def test_scenes_use_designs_of_their_split(split: str) -> None:
    pool = DESIGNS_TRAIN if split == "train" else DESIGNS_HELD_OUT
    for seed in range(5):
        t = render_scene(seed, split, SceneOptions(size=(320, 180), hands=False)).truth  # type: ignore[arg-type]
        assert t.face_design in pool and t.back_design in pool
        assert {o.design for o in t.objects if o.design} <= pool


# -- hand videos ----------------------------------------------------------------------------------


def _video(seed: int, errors: tuple[str, ...] = (), players: int = 3) -> SimulatedTable:
    return SimulatedTable("badugi-limit", seed, errors=errors, profile=oval_profile(6), size=(320, 180), fps=8,
                          players=players)


def test_video_truth_in_order_with_the_right_counts() -> None:
    src = _video(1)
    events = src.truth.events
    assert isinstance(src, FrameSource)
    assert [e.frame for e in events] == sorted(e.frame for e in events)
    for e in events:
        assert e.t == pytest.approx(e.frame / src.fps, abs=1e-3)
        assert 0 < e.frame < src.frame_count
    kinds = Counter(e.kind for e in events)
    size = HouseRules.preset("badugi-limit").hand_size
    assert kinds["dealt"] == len(src.truth.players) * size
    assert kinds["gathered"] == 1 and kinds["button_moved"] == 1
    assert events[-1].kind == "button_moved"
    # replacements match discards seat by seat when the dealer makes no error
    disc: Counter[int] = Counter()
    repl: Counter[int] = Counter()
    for e in events:
        if e.kind == "discarded":
            disc[e.seat] += e.count  # type: ignore[attr-defined]
        elif e.kind == "replaced":
            repl[e.seat] += 1  # type: ignore[attr-defined]
    assert disc == repl
    assert kinds["burned"] >= 1 if disc else True
    data = json.loads(json.dumps(src.truth.to_dict()))
    assert data["table_profile"]["seats"] and len(data["homography"]) == 3


@pytest.mark.parametrize("error", ERROR_KINDS)
def test_each_injected_error_is_in_the_truth(error: str) -> None:
    clean, bad = _video(2), _video(2, (error,))
    assert not clean.truth.errors
    (err,) = bad.truth.errors
    assert err.kind == error and err.seat in bad.truth.players and 0 < err.frame < bad.frame_count
    deal = Counter(e.seat for e in bad.truth.events if e.kind == "dealt")  # type: ignore[attr-defined]
    clean_deal = Counter(e.seat for e in clean.truth.events if e.kind == "dealt")  # type: ignore[attr-defined]
    if error == "skipped_seat":
        assert sum(deal.values()) == sum(clean_deal.values()) - 1
        assert deal[err.seat] == clean_deal[err.seat] - 1
    elif error == "wrong_seat":
        assert sum(deal.values()) == sum(clean_deal.values())
        assert deal[err.seat] == clean_deal[err.seat] + 1
    elif error == "exposed_card":
        exposed = [e for e in bad.truth.events if e.kind == "exposed"]
        assert len(exposed) == 1 and exposed[0].frame == err.frame and exposed[0].seat == err.seat  # type: ignore
    else:
        repl = [e for e in bad.truth.events if e.kind == "replaced" and e.seat == err.seat]  # type: ignore
        assert any(e.frame == err.frame for e in repl)
        assert "3 replacements for 2" in err.detail or "replacements for" in err.detail


def test_unknown_error_kind() -> None:
    with pytest.raises(SimulationError, match="unknown dealer error"):
        _video(1, ("dealt_twice",))


def test_video_frames_render_in_order() -> None:
    src = _video(3)
    first = src.read()
    second = src.read()
    assert first is not None and second is not None
    assert (first.index, second.index) == (0, 1) and second.t == pytest.approx(1 / src.fps)
    assert first.image.shape == (180, 320, 3)
    landed = src.truth.events[0].frame
    a = src.render_frame(landed)
    assert a.tobytes() == src.render_frame(landed).tobytes()
    src.close()
    assert src.read() is None


def test_a_video_with_print_on_the_felt_plays_the_same_hand() -> None:
    """`SimulatedTable(felt_print=N)`: the same hand, camera and truth, print lying under everything in every frame."""
    plain = SimulatedTable("badugi-limit", 3, size=SMALL)
    printed = SimulatedTable("badugi-limit", 3, size=SMALL, felt_print=20)
    assert printed.truth.to_dict() == plain.truth.to_dict()
    f = plain.frame_count // 2
    assert [p.kind for p in printed.felt_print] == ["print"] * 20 and not plain.felt_print
    assert printed.placements(f) == plain.placements(f)  # what a perfect detector sees: no print
    changed = np.abs(printed.render_frame(f).astype(int) - plain.render_frame(f)).max(axis=2) > 40
    assert changed.sum() > 50, changed.sum()


def test_sim_video_cli(tmp_path: Path) -> None:
    out, truth = tmp_path / "hand.mp4", tmp_path / "truth.json"
    result = CliRunner().invoke(cli, ["sim-video", "--game", "badugi-limit", "--seed", "4", "--errors",
                                      "exposed_card", "--table", "oval-6", "--players", "2", "--size", "160x96",
                                      "--fps", "4", "--out", str(out), "--truth", str(truth)])
    assert result.exit_code == 0, result.output
    data = json.loads(truth.read_text())
    assert out.stat().st_size > 1000
    assert [e["kind"] for e in data["errors"]] == ["exposed_card"]
    assert data["events"] and data["table_profile"]["name"] == "oval-6"
    printed, printed_truth = tmp_path / "printed.mp4", tmp_path / "printed.json"
    result = CliRunner().invoke(cli, ["sim-video", "--game", "badugi-limit", "--seed", "4", "--errors",
                                      "exposed_card", "--table", "oval-6", "--players", "2", "--size", "160x96",
                                      "--fps", "4", "--felt-print", "30", "--out", str(printed), "--truth",
                                      str(printed_truth)])
    assert result.exit_code == 0, result.output
    assert json.loads(printed_truth.read_text())["events"] == data["events"]
    assert printed.read_bytes() != out.read_bytes()
    bad = CliRunner().invoke(cli, ["sim-video", "--errors", "nope", "--out", str(out), "--truth", str(truth)])
    assert bad.exit_code != 0 and "unknown dealer error" in bad.output


def test_video_frame_truth_shows_the_dealt_card() -> None:
    src = _video(5)
    first = src.truth.events[0]
    assert first.kind == "dealt"
    _, objects = src.render_frame_truth(first.frame + 1)
    in_seat = [o for o in objects if o.kind == "card_back" and o.zone == f"seat:{first.seat}"]  # type: ignore
    assert in_seat
    _, before = src.render_frame_truth(max(0, first.frame - 6))
    assert not [o for o in before if o.zone == f"seat:{first.seat}" and o.kind == "card_back"]  # type: ignore


def test_chips_come_in_many_looks_some_printing_their_value() -> None:
    from dealer_assist.synth.table_render import CHIP_COLOURS, CHIP_EDGES, CHIP_STYLES, chip_sprite

    looks = {chip_sprite(s)[..., :3].tobytes() for s in range(CHIP_STYLES)}
    assert len(looks) == CHIP_STYLES  # every style is its own look
    # the same colour and edge with a plain inlay and with a printed value differ in the inlay's middle
    plain, printed = chip_sprite(0), chip_sprite(len(CHIP_COLOURS) * CHIP_EDGES)
    middle = np.s_[48:80, 48:80, :3]
    assert np.array_equal(plain[middle], np.full_like(plain[middle], plain[64, 64, :3]))
    assert not np.array_equal(printed[middle], plain[middle])


def test_scenes_place_chips_of_many_styles() -> None:
    styles = {p.style for seed in range(40) for p in _chip_placements(seed)}
    assert len(styles) > 20


def _chip_placements(seed: int) -> list[Placement]:
    from dealer_assist.synth import scene as scene_mod

    rng = np.random.default_rng(seed)
    profile = oval_profile(9)
    return [p for p in scene_mod.random_placements(rng, profile, SceneOptions(), 6.3) if p.kind == "chip"]


def test_print_frames_are_deterministic_and_carry_print() -> None:
    from dealer_assist.synth.dataset import print_scene

    fonts = ["/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"]
    a = print_scene(np.random.default_rng(3), fonts, size=(320, 180), items=8)
    b = print_scene(np.random.default_rng(3), fonts, size=(320, 180), items=8)
    bare = print_scene(np.random.default_rng(3), fonts, size=(320, 180), items=0)
    assert a.shape == (180, 320, 3) and np.array_equal(a, b)
    assert float(np.abs(a.astype(np.int16) - bare.astype(np.int16)).mean()) > 1.0
