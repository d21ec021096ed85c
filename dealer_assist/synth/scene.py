"""Random table scenes with exact ground truth, deterministic from a seed.

    scene = render_scene(1234, split="train")            # 1280x720 or 1920x1080, BGR uint8
    scene.image, scene.truth.objects, scene.truth.homography

A scene is a moment of a Badugi / Badacey deal: face-down hands squared or fanned in front of
seats, showdown spreads where often only the index corner of a card shows, a muck pile, the stub,
the dealer button, chip stacks, cards in flight, and hands or arms reaching over the table; seen by
a camera tilted up to 30 degrees at any rotation, under uneven light with glare, blur, noise and
JPEG artefacts.
"""

from __future__ import annotations

import functools
import hashlib
import math
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
import numpy.typing as npt

from dealer_assist.cards import FULL_DECK, Card
from dealer_assist.synth.card_art import (
    CardArtError,
    Split,
    designs_for,
    load_back_design,
    load_face_design,
)
from dealer_assist.synth.table_render import (
    CHIP_STYLES,
    PRINT_STYLES,
    Camera,
    Effects,
    Felt,
    Placement,
    TableRenderer,
    make_camera,
    random_effects,
    random_felt,
)
from dealer_assist.synth.truth import SceneTruth
from dealer_assist.vision.table_profile import TableProfile, oval_profile, points_in_polygon

Image = npt.NDArray[np.uint8]
FACE_DOWN_LAYOUTS = (0.4, 0.3, 0.3)
"""The usual shares of a seat's face-down cards lying as a squared pile, a loose fan and a dealt row."""
SIZES: tuple[tuple[int, int], ...] = ((1280, 720), (1920, 1080))


@dataclass(frozen=True)
class SceneOptions:
    """Knobs for `render_scene`; None means "draw it at random from the seed"."""

    size: tuple[int, int] | None = None
    seats: int | None = None
    face_design: str | None = None
    back_design: str | None = None
    phase: str | None = None  # "deal", "draw" or "showdown"
    tilt_max_deg: float = 30.0
    full_table: bool | None = None
    effects: float = 1.0  # 0 = a clean image
    hands: bool = True
    profile: TableProfile | None = None
    view_half_cm: tuple[float, float] = (30.0, 75.0)  # a close view's half width, table cm (a photo of a spot)
    # How a seat's face-down cards lie: shares of a squared pile, a loose fan and a dealt row (they sum to 1).
    face_down_layouts: tuple[float, float, float] = FACE_DOWN_LAYOUTS
    extra_backs: tuple[str, ...] = ()  # training scenes only: more back designs to draw from (`card_art.RANDOM_BACKS`)
    felt_print: int = 0  # pieces of print on the felt under everything (`random_print`); 0 leaves the scene as it was


@dataclass(frozen=True)
class RenderedScene:
    image: Image
    truth: SceneTruth


@functools.lru_cache(maxsize=1)
def renderer_key() -> str:
    """A hash of the renderer's source: data and scenes cached from another renderer version are not reused."""
    h = hashlib.sha256()
    for name in ("scene", "table_render", "card_art", "procedural", "truth"):
        h.update((Path(__file__).parent / f"{name}.py").read_bytes())
    return h.hexdigest()[:10]


def designs_key(split: Split) -> str:
    """A hash of the face and back designs a split draws from here: which depends on the art packages installed,
    so scenes cached without them (procedural decks only) are not reused once they are."""
    names = (*designs_for(split, "face"), "|", *designs_for(split, "back"))
    return hashlib.sha256("\n".join(names).encode()).hexdigest()[:8]


def render_scene(seed: int, split: Split = "train", options: SceneOptions | None = None) -> RenderedScene:
    """Render one random scene; the same seed, split and options always give the same bytes."""
    opts = options or SceneOptions()
    rng = np.random.default_rng([seed, 0x5CE4E])
    faces = designs_for(split, "face")
    backs = designs_for(split, "back") + (opts.extra_backs if split == "train" else ())
    if not faces or not backs:
        raise CardArtError(f"no {split} designs are available here")
    face_name = opts.face_design or str(faces[int(rng.integers(len(faces)))])
    back_name = opts.back_design or str(backs[int(rng.integers(len(backs)))])
    size = opts.size or SIZES[int(rng.random() < 0.35)]
    profile = opts.profile or random_table(rng, opts.seats, np.random.default_rng([seed, 0x7AB1E]))
    felt = random_felt(rng)
    camera = random_camera(rng, profile, size, opts)
    renderer = TableRenderer(profile, camera, load_face_design(face_name), load_back_design(back_name), felt)
    placements = random_placements(rng, profile, opts, renderer.card_w_cm)
    if opts.felt_print:
        placements = random_print(seed, profile, opts.felt_print) + placements
    effects = random_effects(rng, opts.effects) if opts.effects > 0 else Effects()
    image, objects = renderer.render(placements, effects, noise_seed=int(rng.integers(2**31)))
    h = camera.homography
    truth = SceneTruth(
        seed=seed, split=split, width=size[0], height=size[1],
        homography=tuple(tuple(float(v) for v in row) for row in h),  # type: ignore[arg-type]
        table=profile.name, seats=profile.seat_count, face_design=face_name, back_design=back_name,
        objects=tuple(objects), tilt_deg=camera.tilt_deg,
    )
    return RenderedScene(image, truth)


def random_table(rng: np.random.Generator, seats: int | None = None,
                 size_rng: np.random.Generator | None = None) -> TableProfile:
    """An oval table for 2 to 10 seats, its size varied around the profile generator's default."""
    n = seats or int(rng.integers(2, 11))
    sr = size_rng or rng
    # two sizes per seat count (the table layers are cached per table, so keep the set small)
    width = (150.0 + 12.0 * n) * (0.94 if sr.random() < 0.5 else 1.06)
    return oval_profile(n, round(width, 1), round(max(80.0, width / 2), 1))


def random_camera(rng: np.random.Generator, profile: TableProfile, size: tuple[int, int],
                  opts: SceneOptions) -> Camera:
    full = opts.full_table if opts.full_table is not None else bool(rng.random() < 0.45)
    if full:
        view = list(profile.outline)
    else:
        spots = [s.card_spot for s in profile.seats]
        spots += [_centre(profile.muck), _centre(profile.stub), _centre(profile.pot)]
        cx, cy = spots[int(rng.integers(len(spots)))]
        half = float(rng.uniform(*opts.view_half_cm))
        view = [(cx - half, cy - half * 0.6), (cx + half, cy + half * 0.6)]
    tilt = float(rng.uniform(0, opts.tilt_max_deg)) if rng.random() < 0.8 else 0.0
    roll = float(rng.uniform(0, 360)) if rng.random() < 0.6 else float(rng.choice([0.0, 90.0, 180.0, 270.0]))
    return make_camera(view, size, tilt_deg=tilt, tilt_dir_deg=float(rng.uniform(0, 360)), roll_deg=roll,
                       fov_deg=float(rng.uniform(45, 80)), fill=float(rng.uniform(0.8, 1.1)),
                       offset=(float(rng.uniform(-0.05, 0.05)), float(rng.uniform(-0.05, 0.05))))


def _centre(poly: tuple[tuple[float, float], ...]) -> tuple[float, float]:
    a = np.asarray(poly)
    c = a.mean(axis=0)
    return float(c[0]), float(c[1])


def _dir(deg: float) -> npt.NDArray[np.float64]:
    a = math.radians(deg)
    return np.array([math.cos(a), math.sin(a)])


def seat_card_angle(facing_deg: float) -> float:
    """Artwork angle for a card lying in front of a seat, its top toward the table's middle."""
    return facing_deg + 90.0


def spread_placements(cards: list[Card], spot: tuple[float, float], facing_deg: float, zone: str,
                      rng: np.random.Generator, card_w: float, *, face_up: bool, squared: bool = False,
                      reverse: bool | None = None, dealt_row: bool = False) -> list[Placement]:
    """A seat's cards: a showdown spread (face up, overlapping so the index corners show), a loose fan,
    a squared pile, or (face down, `dealt_row`) the row a dealer pitches, each card about half on the last."""
    fwd = _dir(facing_deg)
    right = _dir(facing_deg + 90)
    base = seat_card_angle(facing_deg)
    n = len(cards)
    out: list[Placement] = []
    if squared:
        for c in cards:
            j = rng.normal(0, 0.35, 2)
            xy = np.asarray(spot) + j
            out.append(Placement("card_face" if face_up else "card_back", (float(xy[0]), float(xy[1])),
                                 base + float(rng.normal(0, 2.5)), c, zone))
        return out
    # A dealt row is what a hand looks like before its player squares it (and what the hand videos deal): each
    # back shows a strip of 40 to 60% of its width, so every card must be counted, not the pile as one.
    step = float(rng.uniform(1.5, 3.4)) if face_up else float(rng.uniform(2.4, 3.8) if dealt_row else
                                                                 rng.uniform(0.6, 2.0))
    fan = float(rng.uniform(0, 9)) if rng.random() < 0.6 else 0.0
    rev = bool(rng.random() < 0.25) if reverse is None else reverse
    arc = float(rng.uniform(0, 0.6))
    for i, c in enumerate(cards):
        k = i - (n - 1) / 2
        sign = -1.0 if rev else 1.0
        off = right * (sign * k * step) + fwd * (arc * k * k * 0.3) + rng.normal(0, 0.25, 2)
        xy = np.asarray(spot) + off
        ang = base + sign * k * fan + float(rng.normal(0, 1.5))
        out.append(Placement("card_face" if face_up else "card_back", (float(xy[0]), float(xy[1])), ang, c, zone))
    return out


def random_placements(rng: np.random.Generator, profile: TableProfile, opts: SceneOptions,
                      card_w: float) -> list[Placement]:
    deck = list(FULL_DECK)
    order = rng.permutation(len(deck))
    pile = [deck[i] for i in order]

    def take(k: int) -> list[Card]:
        got = pile[:k]
        del pile[:k]
        return got

    phase = opts.phase or str(rng.choice(["deal", "draw", "showdown", "showdown"]))
    n_cards = 4 if rng.random() < 0.6 else 5
    flat: list[Placement] = []  # on the felt
    high: list[Placement] = []  # drawn after: chips, stub, button, hands
    button_seat = int(rng.integers(1, profile.seat_count + 1))
    # stub (a few layers with thickness) and muck
    stub_xy = np.asarray(_centre(profile.stub)) + rng.normal(0, 2, 2)
    stub_angle = float(rng.uniform(-20, 20)) + (90 if rng.random() < 0.3 else 0)
    layers = int(rng.integers(2, 5))
    stub_cards = take(layers)
    for i in range(layers):
        xy = stub_xy + rng.normal(0, 0.12, 2)
        flat.append(Placement("card_back", (float(xy[0]), float(xy[1])), stub_angle + float(rng.normal(0, 0.8)),
                              stub_cards[i], "stub", height_cm=0.25 * i, gt=(i == layers - 1)))
    muck_n = {"deal": int(rng.integers(0, 3)), "draw": int(rng.integers(2, 14)),
              "showdown": int(rng.integers(4, 22))}[phase]
    mc = np.asarray(_centre(profile.muck))
    for c in take(min(muck_n, len(pile) - 20)):
        xy = mc + rng.normal(0, 3.0, 2)
        up = rng.random() < 0.07
        flat.append(Placement("card_face" if up else "card_back", (float(xy[0]), float(xy[1])),
                              float(rng.uniform(0, 360)), c, "muck"))
    for seat in profile.seats:
        zone = f"seat:{seat.number}"
        spot = np.asarray(seat.card_spot) + rng.normal(0, 2.0, 2)
        facing = seat.facing_deg + float(rng.normal(0, 6))
        r = rng.random()
        if len(pile) < n_cards + 2 or r < 0.18:
            state = "empty"
        elif phase == "showdown":
            state = "shown" if r < 0.75 else "down"
        elif phase == "draw":
            state = "down" if r < 0.85 else "exposed"
        else:
            state = "down" if r < 0.9 else "exposed"
        if state == "empty":
            continue
        k = n_cards if phase != "deal" else int(rng.integers(1, n_cards + 1))
        cards = take(k)
        if state == "shown":
            flat += spread_placements(cards, (float(spot[0]), float(spot[1])), facing, zone, rng, card_w, face_up=True)
        else:
            layout = rng.random()  # squared pile, loose fan or dealt row
            pile_share, fan_share, _ = opts.face_down_layouts
            flat += spread_placements(cards, (float(spot[0]), float(spot[1])), facing, zone, rng, card_w,
                                      face_up=False, squared=layout < pile_share,
                                      dealt_row=layout >= pile_share + fan_share)
            if state == "exposed" and pile:
                c = take(1)[0]
                xy = spot + _dir(facing) * float(rng.uniform(6, 12)) + rng.normal(0, 1.5, 2)
                flat.append(Placement("card_face", (float(xy[0]), float(xy[1])),
                                      seat_card_angle(facing) + float(rng.normal(0, 15)), c, zone))
        # chips in front of the player
        if rng.random() < 0.75:
            for _ in range(int(rng.integers(1, 4))):
                xy = (np.asarray(seat.card_spot) - _dir(seat.facing_deg) * float(rng.uniform(8, 13))
                      + _dir(seat.facing_deg + 90) * float(rng.uniform(-14, 14)))
                high.append(Placement("chip", (float(xy[0]), float(xy[1])), zone=zone,
                                      style=int(rng.integers(0, CHIP_STYLES)), count=int(rng.integers(1, 12))))
        if seat.number == button_seat:
            bx = np.asarray(seat.button_spot) + rng.normal(0, 1.5, 2)
            high.append(Placement("button", (float(bx[0]), float(bx[1])), float(rng.uniform(0, 360)), zone="button",
                                  style=int(rng.integers(0, 3))))
    # pot
    pc = np.asarray(_centre(profile.pot))
    for _ in range(int(rng.integers(0, 7))):
        xy = pc + rng.normal(0, 6, 2)
        high.append(Placement("chip", (float(xy[0]), float(xy[1])), zone="pot",
                              style=int(rng.integers(0, CHIP_STYLES)),
                              count=int(rng.integers(1, 9))))
    # cards in flight
    if pile and rng.random() < 0.3:
        for c in take(int(rng.integers(1, 3))):
            target = profile.seats[int(rng.integers(profile.seat_count))].card_spot
            t = float(rng.uniform(0.2, 0.8))
            xy = stub_xy * (1 - t) + np.asarray(target) * t
            flat.append(Placement("card_back", (float(xy[0]), float(xy[1])), float(rng.uniform(0, 360)), c, "transit"))
    # hands and arms
    hands: list[Placement] = []
    n_hands = 0 if not opts.hands else int(rng.choice([0, 0, 1, 1, 1, 2, 3]))
    for _ in range(n_hands):
        hands.append(random_hand(rng, profile, flat))
    return flat + high + hands


def random_print(seed: int, profile: TableProfile, n: int) -> list[Placement]:
    """`n` pieces of print (`table_render.print_sprite`) anywhere on the table inside its outline, at any angle:
    lettering on the felt and lone printed chips, which are not cards (no ground truth). Drawn from the seed's own
    random stream, so that a scene or video is the same with or without them but for the print."""
    rng = np.random.default_rng([seed, 0x9817])
    out: list[Placement] = []
    for _ in range(50 * n):
        if len(out) == n:
            break
        xy = (float(rng.uniform(0, profile.width_cm)), float(rng.uniform(0, profile.height_cm)))
        if points_in_polygon([xy], profile.outline)[0]:
            out.append(Placement("print", xy, float(rng.uniform(0, 360)), zone="table",
                                 style=int(rng.integers(0, PRINT_STYLES)), gt=False))
    return out


def random_hand(rng: np.random.Generator, profile: TableProfile, flat: list[Placement]) -> Placement:
    """A hand reaching in from a seat or the dealer, often over cards."""
    who = rng.integers(profile.seat_count + 1)
    if who == profile.seat_count:
        anchor = np.asarray(profile.dealer, float) + np.array([float(rng.normal(0, 10)), 25.0])
    else:
        s = profile.seats[int(who)]
        anchor = np.asarray(s.card_spot) - _dir(s.facing_deg) * 60.0
    if flat and rng.random() < 0.6:
        target = np.asarray(flat[int(rng.integers(len(flat)))].xy) + rng.normal(0, 4, 2)
    else:
        target = np.asarray((rng.uniform(0, profile.width_cm), rng.uniform(0, profile.height_cm)))
    d = target - anchor
    length = float(np.linalg.norm(d))
    angle = math.degrees(math.atan2(d[1], d[0])) + 90.0
    return Placement("hand", (float(target[0]), float(target[1])), angle, zone="table",
                     height_cm=float(rng.uniform(4, 14)), style=int(rng.integers(0, 10_000)),
                     length_cm=min(90.0, max(25.0, length + 10)), anchor=(float(anchor[0]), float(anchor[1])))


def scene_with(scene_options: SceneOptions, **changes: object) -> SceneOptions:
    """A copy of options with some fields changed (typed helper for callers)."""
    return replace(scene_options, **changes)  # type: ignore[arg-type]


__all__ = [
    "SIZES", "Felt", "RenderedScene", "SceneOptions", "random_camera", "random_placements", "random_print",
    "render_scene",
    "spread_placements",
]
