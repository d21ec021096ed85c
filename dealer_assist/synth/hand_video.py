"""A simulated table playing one whole hand, as a frame source with ground-truth table events.

The rules engine's simulator (`rules.simulate.simulate_hand`) plays a random legal hand; this module
turns its steps into physical motion on the table: cards fly from the stub to the seats clockwise
from the button's left, discards and folds go to the muck, replacements come off the stub, showdown
hands are spread face up, then everything is gathered and the button moves on. Chips slide to the
bet line and the pot, and hands reach over the cards now and then (neither makes an event).

Dealer errors can be injected; the truth names each one, with the seat and the moment:

- ``skipped_seat``: in one round of the deal a seat gets no card (the rest of the round goes on).
- ``wrong_seat``: one card of the deal lands in the next seat instead of its own.
- ``extra_replacement``: a seat that discarded 2 (or the first seat that discarded any), never one the deal left
  short, gets one replacement too many (3 for 2).
- ``exposed_card``: one card of the deal lands face up.

Every seat starts with `DEFAULT_STACK_BIGS` big blinds (big bets in fixed limit), so an all-in never makes a side
pot. With ``short_stacks`` some seats start shorter (`short_stacks_for`: drawn from the seed, a few big blinds up to the
default), so all-ins make side pots; the truth then records the stacks (`VideoTruth.stacks`, "stacks" in its file,
which `dealer-assist audit` reads). Without it nothing is drawn for the stacks and every seed's video, truth and
actions are what they were before the option.

Events carry the frame where the card comes to rest, and `t = frame / fps`. The truth of the video
(events, injected errors, the table-to-image homography, the table profile) is known before any
frame is drawn: `SimulatedTable.truth`.
"""

from __future__ import annotations

import dataclasses
import json
import math
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from dealer_assist.cards import FULL_DECK, Card
from dealer_assist.errors import DealerAssistError
from dealer_assist.rules.hand import Hand
from dealer_assist.rules.house_rules import HouseRules
from dealer_assist.rules.simulate import simulate_hand
from dealer_assist.rules.steps import (
    BetTo,
    Burned,
    Called,
    Checked,
    Dealt,
    Discarded,
    Folded,
    Mucked,
    Posted,
    RaisedTo,
    Replaced,
    Reshuffled,
    Shown,
)
from dealer_assist.synth.card_art import Split, designs_for, load_back_design, load_face_design
from dealer_assist.synth.scene import random_print, spread_placements
from dealer_assist.synth.table_render import (
    CHIP_STYLES,
    Camera,
    Effects,
    Placement,
    TableRenderer,
    make_camera,
    random_effects,
    random_felt,
)
from dealer_assist.synth.truth import ObjectTruth
from dealer_assist.vision.calibration import CameraCalibration
from dealer_assist.vision.events import (
    ButtonMoved,
    CardBurned,
    CardDealt,
    CardExposed,
    CardReplaced,
    CardsDiscarded,
    CardsGathered,
    CardsShown,
    SeatFolded,
    TableEvent,
)
from dealer_assist.vision.frames import Frame
from dealer_assist.vision.sources import quiet_video_logs
from dealer_assist.vision.table_profile import TableProfile, oval_profile

ERROR_KINDS: tuple[str, ...] = ("skipped_seat", "wrong_seat", "extra_replacement", "exposed_card")
FLAG_OF_ERROR: dict[str, str] = {"skipped_seat": "seat_skipped", "wrong_seat": "card_to_wrong_seat",
                                 "extra_replacement": "replacements_mismatch", "exposed_card": "card_exposed"}
"""The referee flag kind each injected dealer error must raise, at the error's seat (and no other flag)."""
ROW_STEP_CM = 3.0
"""How far each card of a seat's row lies past the one under it (a card is 6.3 cm wide)."""
VIDEO_SUFFIXES = (".mp4", ".m4v", ".mov", ".avi", ".mkv")
"""The containers an mp4v video is written to (OpenCV's FFmpeg takes no other suffix for that codec)."""
MIN_FPS, MAX_FPS = 1.0, 240.0
DEFAULT_STACK_BIGS = 40
"""Each seat's stack, in big blinds (big bets in fixed limit), unless the video is made with short stacks."""
SHORT_STACK_SHARE = 0.6
"""With short stacks: the chance each seat is dealt a short stack (the others keep the default)."""
SHORT_STACK_BIGS = (2, 15)
"""With short stacks: the fewest and most big blinds (big bets in fixed limit) a short stack holds, plus 0 to 3 chip
units so that stacks are seldom equal."""


def _big(rules: HouseRules) -> int:
    """The unit simulated stacks are counted in: the big blind, the big bet in fixed limit."""
    return rules.big_bet if rules.betting == "fixed_limit" else rules.big_blind


def default_stack(rules: HouseRules) -> int:
    """The chips every seat of a simulated hand starts with (and `dealer-assist audit` gives a truth without
    "stacks"): `DEFAULT_STACK_BIGS` big blinds, big bets in fixed limit."""
    return DEFAULT_STACK_BIGS * _big(rules)


def short_stacks_for(rules: HouseRules, seats: Sequence[int], seed: int) -> dict[int, int]:
    """Unequal stacks for the seats of a simulated hand, drawn from the seed alone (a generator of their own, so the
    rest of the video draws what it draws without them): each seat, with chance `SHORT_STACK_SHARE`, a short stack of
    `SHORT_STACK_BIGS` big blinds (big bets in fixed limit) and 0 to 3 chip units more, else the default."""
    rng = np.random.default_rng([seed, 0x5_7AC5])
    big = _big(rules)
    unit = max(1, rules.chip_unit)
    low, high = SHORT_STACK_BIGS
    out: dict[int, int] = {}
    for seat in seats:
        if rng.random() < SHORT_STACK_SHARE:
            chips = big * int(rng.integers(low, high + 1)) + unit * int(rng.integers(0, 4))
            out[seat] = max(unit, chips - chips % unit)
        else:
            out[seat] = default_stack(rules)
    return out


class SimulationError(DealerAssistError):
    """A hand video that cannot be built as asked (unknown error kind, no room for the error)."""


@dataclass(frozen=True, slots=True)
class InjectedError:
    """A dealer error put into the video: what, which seat, when (the frame the offending card lands)."""

    kind: str
    seat: int
    t: float
    frame: int
    detail: str

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "seat": self.seat, "t": round(self.t, 4), "frame": self.frame,
                "detail": self.detail}


@dataclass(frozen=True, slots=True)
class Occluder:
    """Something that passes over the table and must make no event: a hand reaching over a seat's cards
    ("hand") or a chip stack sliding to a bet spot or into the pot ("chips"), from frame `start` to `end`."""

    kind: str
    seat: int | None
    start: int
    end: int


@dataclass(frozen=True)
class VideoTruth:
    """What happened in a simulated hand video."""

    game: str
    seed: int
    fps: float
    size: tuple[int, int]
    frames: int
    events: tuple[TableEvent, ...]
    errors: tuple[InjectedError, ...]
    homography: tuple[tuple[float, ...], ...]
    profile: TableProfile
    face_design: str
    back_design: str
    button: int
    players: tuple[int, ...]
    actions: tuple[dict[str, Any], ...] = ()
    """The dealer's betting input (t, seat, action, amount = total bet to), for `dealer-assist audit`."""
    stacks: tuple[tuple[int, int], ...] = ()
    """(seat, chips) each player started the hand with; empty: every player had `default_stack`."""

    def stacks_by_seat(self) -> dict[int, int]:
        """Seat -> chips at the start of the hand (the default stack for each player when none are recorded): the
        stacks a Referee for the video must be given."""
        if self.stacks:
            return dict(self.stacks)
        return dict.fromkeys(self.players, default_stack(HouseRules.preset(self.game)))

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "game": self.game, "seed": self.seed, "fps": self.fps, "width": self.size[0], "height": self.size[1],
            "frames": self.frames, "button": self.button, "players": list(self.players),
        }
        # "stacks" only where some differ from the default: the truth of a video with the default stacks stays
        # byte for byte what it was before stacks were recorded (and `dealer-assist audit` gives the default then)
        chips = default_stack(HouseRules.preset(self.game))
        if any(c != chips for _, c in self.stacks):
            out["stacks"] = {str(s): c for s, c in self.stacks}
        out.update({
            "face_design": self.face_design, "back_design": self.back_design,
            "homography": [list(r) for r in self.homography],
            "events": [e.to_dict() for e in self.events], "errors": [e.to_dict() for e in self.errors],
            "actions": list(self.actions),
            "table_profile": self.profile.to_dict(),
        })
        return out

    def save(self, path: str | Path) -> Path:
        p = Path(path)
        p.write_text(json.dumps(self.to_dict(), indent=1))
        return p


# --------------------------------------------------------------------------------------------
# Motion: every object's keyframes


@dataclass
class _Move:
    start: int
    end: int
    xy: tuple[float, float]
    angle: float
    face_up: bool
    zone: str
    lift: float = 1.2  # cm above the felt at mid-flight


@dataclass
class _Obj:
    kind: str  # "card", "chips", "button", "hand"
    card: Card | None = None
    style: int = 0
    count: int = 1
    appear: int = 0  # first frame drawn
    vanish: int = 1 << 30  # first frame no longer drawn
    moves: list[_Move] = field(default_factory=list)
    anchor: tuple[float, float] = (0.0, 0.0)
    length: float = 40.0
    height: float = 8.0
    slot: int = -1  # a card at a seat: its place in the seat's row

    def state(self, f: int) -> tuple[tuple[float, float], float, bool, str, float, int] | None:
        """(xy, angle, face_up, zone, height, last move start) at frame f, or None when not on the table."""
        if f < self.appear or f >= self.vanish or not self.moves:
            return None
        prev: _Move | None = None
        for m in self.moves:
            if m.start > f:
                break
            if f < m.end and prev is not None:
                u = (f - m.start) / max(1, m.end - m.start)
                u = u * u * (3 - 2 * u)
                xy = (prev.xy[0] + (m.xy[0] - prev.xy[0]) * u, prev.xy[1] + (m.xy[1] - prev.xy[1]) * u)
                da = (m.angle - prev.angle + 180) % 360 - 180
                lift = m.lift * math.sin(math.pi * u)
                return xy, prev.angle + da * u, m.face_up if u > 0.5 else prev.face_up, "transit", lift, m.start
            prev = m
        if prev is None:
            return None
        return prev.xy, prev.angle, prev.face_up, prev.zone, 0.0, prev.start


# --------------------------------------------------------------------------------------------
# The script: rules steps -> physical motion -> events


@dataclass
class _Builder:
    profile: TableProfile
    fps: float
    rng: np.random.Generator
    card_w: float
    f: int = 0
    objs: list[_Obj] = field(default_factory=list)
    events: list[TableEvent] = field(default_factory=list)
    errors: list[InjectedError] = field(default_factory=list)
    actions: list[dict[str, Any]] = field(default_factory=list)
    seat_cards: dict[int, list[_Obj]] = field(default_factory=dict)
    muck: list[_Obj] = field(default_factory=list)
    bets: list[_Obj] = field(default_factory=list)
    pot: list[_Obj] = field(default_factory=list)
    occluders: list[Occluder] = field(default_factory=list)
    last_land: int = 0

    def frames(self, seconds: float) -> int:
        return max(1, round(seconds * self.fps))

    def pause(self, seconds: float) -> None:
        self.f += self.frames(seconds * float(self.rng.uniform(0.7, 1.3)))

    @property
    def stub_xy(self) -> tuple[float, float]:
        c = np.asarray(self.profile.stub).mean(axis=0)
        return float(c[0]), float(c[1])

    @property
    def muck_xy(self) -> tuple[float, float]:
        c = np.asarray(self.profile.muck).mean(axis=0)
        return float(c[0]), float(c[1])

    def seat_slot(self, seat: int, k: int) -> tuple[tuple[float, float], float]:
        """Where the card in slot k of a seat's row lies, and its angle.

        The dealer pitches a seat's cards into a loose overlapping row along the rail, each card
        `ROW_STEP_CM` past the one before it and on top of it, so every back shows a strip of at least
        a third of its width (what a detector trained on `dataset.MIN_BACK_VISIBLE` labels can count).
        """
        s = self.profile.seat(seat)
        right = np.array([math.cos(math.radians(s.facing_deg + 90)), math.sin(math.radians(s.facing_deg + 90))])
        xy = np.asarray(s.card_spot) + right * (k - 1.5) * ROW_STEP_CM + self.rng.normal(0, 0.15, 2)
        return (float(xy[0]), float(xy[1])), s.facing_deg + 90 + float(self.rng.normal(0, 2.5))

    @staticmethod
    def free_slot(pile: Sequence[_Obj]) -> int:
        """The first slot of a seat's row that no card of the pile lies in."""
        taken = {o.slot for o in pile}
        return next(k for k in range(len(pile) + 1) if k not in taken)

    def close_row(self, seat: int, pile: Sequence[_Obj], seconds: float = 0.4) -> None:
        """The player squares up what is left after a discard: the cards keep their order and slide left to
        slots 0, 1, ... (so replacements go to the end of the row, on top, and hide no card)."""
        s = self.profile.seat(seat)
        right = np.array([math.cos(math.radians(s.facing_deg + 90)), math.sin(math.radians(s.facing_deg + 90))])
        for k, o in enumerate(sorted(pile, key=lambda c: c.slot)):
            if o.slot == k or not o.moves:
                continue
            last = o.moves[-1]
            xy = np.asarray(last.xy) + right * (k - o.slot) * ROW_STEP_CM
            o.moves.append(_Move(self.f, self.f + self.frames(seconds), (float(xy[0]), float(xy[1])), last.angle,
                                 last.face_up, last.zone, lift=0.0))
            o.slot = k

    def fly(self, obj: _Obj, to: tuple[float, float], angle: float, face_up: bool, zone: str, seconds: float,
            start: int | None = None) -> int:
        """Move `obj` to `to`; returns the frame it lands."""
        s = self.f if start is None else start
        end = s + self.frames(seconds)
        obj.moves.append(_Move(s, end, to, angle, face_up, zone))
        self.last_land = max(self.last_land, end)
        return end

    def settle(self, seconds: float = 0.2) -> None:
        """Wait until every card in the air has landed, and `seconds` more: a player discards or folds once the
        card before has come to rest (the draw goes seat by seat)."""
        self.f = max(self.f, self.last_land + self.frames(seconds))

    def new_card(self, card: Card) -> _Obj:
        o = _Obj("card", card=card, appear=self.f)
        o.moves.append(_Move(self.f, self.f, self.stub_xy, 0.0, False, "stub"))
        self.objs.append(o)
        return o

    def t(self, frame: int) -> float:
        return round(frame / self.fps, 4)

    def deal_to(self, seat: int, card: Card, *, face_up: bool = False) -> int:
        o = self.new_card(card)
        pile = self.seat_cards.setdefault(seat, [])
        o.slot = self.free_slot(pile)
        xy, ang = self.seat_slot(seat, o.slot)
        land = self.fly(o, xy, ang, face_up, f"seat:{seat}", 0.45)
        pile.append(o)
        self.f += self.frames(0.3)
        return land

    def chips(self, seat: int, amount_units: int) -> None:
        """A bet: a chip stack slides from the seat's stack to its bet spot (passing over its cards)."""
        s = self.profile.seat(seat)
        fwd = np.array([math.cos(math.radians(s.facing_deg)), math.sin(math.radians(s.facing_deg))])
        side = np.array([-fwd[1], fwd[0]]) * float(self.rng.uniform(-6, 6))
        src = np.asarray(s.card_spot) - fwd * 11 + side
        dst = np.asarray(s.card_spot) + fwd * 12 + side * 0.5
        o = _Obj("chips", style=int(self.rng.integers(0, CHIP_STYLES)), count=max(1, min(10, amount_units)),
                 appear=self.f)
        o.moves.append(_Move(self.f, self.f, (float(src[0]), float(src[1])), 0.0, False, f"seat:{seat}"))
        o.moves.append(_Move(self.f + 1, self.f + 1 + self.frames(0.6), (float(dst[0]), float(dst[1])), 0.0, False,
                             f"seat:{seat}", lift=3.0))
        self.objs.append(o)
        self.bets.append(o)
        self.occluders.append(Occluder("chips", seat, self.f, self.f + 1 + self.frames(0.6)))

    def gather_bets(self) -> None:
        pc = np.asarray(self.profile.pot).mean(axis=0)
        for o in self.bets:
            xy = pc + self.rng.normal(0, 5, 2)
            o.moves.append(_Move(self.f, self.f + self.frames(0.6), (float(xy[0]), float(xy[1])), 0.0, False, "pot"))
            self.pot.append(o)
            self.occluders.append(Occluder("chips", None, self.f, self.f + self.frames(0.6)))
        if self.bets:
            self.f += self.frames(0.7)
        self.bets = []

    def to_muck(self, objs: Sequence[_Obj], seconds: float = 0.5) -> int:
        land = self.f
        for o in objs:
            xy = np.asarray(self.muck_xy) + self.rng.normal(0, 2.5, 2)
            land = max(land, self.fly(o, (float(xy[0]), float(xy[1])), float(self.rng.uniform(0, 360)), False, "muck",
                                      seconds))
            self.muck.append(o)
        return land

    def dealer_hand(self, start: int, end: int) -> None:
        """The dealer's hand holding the stub while cards go out (it hides part of the stub)."""
        if end <= start:
            return
        sx, sy = self.stub_xy
        anchor = (float(self.profile.dealer[0]) + float(self.rng.normal(0, 4)), float(self.profile.dealer[1]) + 40.0)
        xy = (sx + float(self.rng.normal(0, 1.5)), sy + 3.0 + float(self.rng.normal(0, 1)))
        d = np.asarray(xy) - np.asarray(anchor)
        angle = math.degrees(math.atan2(d[1], d[0])) + 90
        o = _Obj("hand", style=int(self.rng.integers(0, 10_000)), appear=start, vanish=end, anchor=anchor,
                 length=min(90.0, float(np.linalg.norm(d)) + 10.0), height=4.0)
        o.moves.append(_Move(start, start, (float(xy[0]), float(xy[1])), angle, False, "table"))
        self.objs.append(o)

    def hand_pass(self, seat: int | None = None) -> None:
        """A hand reaching over some cards and back, without a table event."""
        piles = [s for s, p in self.seat_cards.items() if p]
        if not piles:
            return
        target_seat = int(self.rng.choice(piles)) if seat is None else seat
        s = self.profile.seat(target_seat)
        who = self.profile.seat(int(self.rng.integers(1, self.profile.seat_count + 1)))
        fwd = np.array([math.cos(math.radians(who.facing_deg)), math.sin(math.radians(who.facing_deg))])
        anchor = np.asarray(who.card_spot) - fwd * 60
        over = np.asarray(s.card_spot) + self.rng.normal(0, 3, 2)
        d = over - anchor
        angle = math.degrees(math.atan2(d[1], d[0])) + 90
        start_xy = anchor + d * 0.55
        o = _Obj("hand", style=int(self.rng.integers(0, 10_000)), appear=self.f,
                 anchor=(float(anchor[0]), float(anchor[1])), length=min(90.0, float(np.linalg.norm(d)) + 10.0),
                 height=float(self.rng.uniform(5, 12)))
        stay = self.frames(float(self.rng.uniform(0.4, 1.2)))
        o.moves.append(_Move(self.f, self.f, (float(start_xy[0]), float(start_xy[1])), angle, False, "table"))
        o.moves.append(_Move(self.f + 1, self.f + 1 + self.frames(0.4), (float(over[0]), float(over[1])), angle, False,
                             "table", lift=0.0))
        back = self.f + 1 + self.frames(0.4) + stay
        o.moves.append(_Move(back, back + self.frames(0.4), (float(start_xy[0]), float(start_xy[1])), angle, False,
                             "table", lift=0.0))
        o.vanish = back + self.frames(0.4)
        self.objs.append(o)
        self.occluders.append(Occluder("hand", target_seat, o.appear, o.vanish))


def _pick_hand(rules: HouseRules, players: dict[int, int], seed: int, errors: Sequence[str]) -> Hand:
    """A simulated hand with no reshuffle, and a discard to hang an extra replacement on if asked."""
    for attempt in range(60):
        hand = simulate_hand(rules, players, random.Random(seed * 1009 + attempt))
        steps = hand.history
        if any(isinstance(s, Reshuffled) for s in steps):
            continue
        if "extra_replacement" in errors and not any(isinstance(s, Discarded) and s.count > 0 for s in steps):
            continue
        if ({"skipped_seat", "wrong_seat", "exposed_card"} & set(errors)) and not any(
            isinstance(s, Dealt) for s in steps
        ):
            continue
        return hand
    raise SimulationError(f"no simulated hand for seed {seed} allows the errors {list(errors)}")


def build_script(
    rules: HouseRules,
    profile: TableProfile,
    seed: int,
    *,
    fps: float,
    players: int | None = None,
    errors: Sequence[str] = (),
    card_w: float = 6.3,
    short_stacks: bool = False,
) -> tuple[_Builder, Hand]:
    """Play a hand on the table: every object's motion plus the ground-truth events and errors. The players start
    with `default_stack` each, or with `short_stacks`, the unequal stacks `short_stacks_for` draws (the hand's
    `Hand.starting`)."""
    for e in errors:
        if e not in ERROR_KINDS:
            raise SimulationError(f"unknown dealer error {e!r}; accepted: {', '.join(ERROR_KINDS)}")
    if players is not None and not 2 <= players <= profile.seat_count:
        raise SimulationError(f"{players} players do not fit table {profile.name}; accepted: 2 to "
                              f"{profile.seat_count} (its seats)")
    rng = np.random.default_rng([seed, 0x71DE0])
    n_players = players or min(profile.seat_count, int(rng.integers(3, 7)))
    seats = sorted(int(s) for s in rng.choice(np.arange(1, profile.seat_count + 1), n_players, replace=False))
    stacks = short_stacks_for(rules, seats, seed) if short_stacks else dict.fromkeys(seats, default_stack(rules))
    hand = _pick_hand(rules, stacks, seed, errors)
    b = _Builder(profile, fps, rng, card_w)
    b.f = b.frames(0.8)
    # the button
    btn = _Obj("button", style=int(rng.integers(0, 3)), appear=0)
    bs = profile.seat(hand.button).button_spot
    btn.moves.append(_Move(0, 0, bs, float(rng.uniform(0, 360)), False, "button"))
    b.objs.append(btn)
    steps = hand.history
    deals = [s for s in steps if isinstance(s, Dealt)]
    # choose where each deal-time error goes (indices into the deal sequence, not on the first card)
    err_at: dict[str, int] = {}
    deal_errs = [e for e in errors if e in ("skipped_seat", "wrong_seat", "exposed_card")]
    if deal_errs:
        slots = list(rng.choice(np.arange(1, len(deals)), size=len(deal_errs), replace=False))
        err_at = {e: int(i) for e, i in zip(deal_errs, slots, strict=True)}
    extra_done = "extra_replacement" not in errors
    extra_seat: int | None = None
    if not extra_done:
        discards = [s for s in steps if isinstance(s, Discarded) and s.count > 0]
        # not at a seat the deal left short: a card more there makes its hand whole (the referee, like the rules'
        # simulator, takes it for the short deal made up), so it would be no error of the draw's
        short = {deals[i].seat for e, i in err_at.items() if e in ("skipped_seat", "wrong_seat")}
        discards = [s for s in discards if s.seat not in short] or discards
        two = [s for s in discards if s.count == 2]
        extra_seat_step = (two or discards)[0]
        extra_seat = extra_seat_step.seat
        extra_draw = extra_seat_step.draw
    physical = _stub_order(steps)  # cards in the order they leave the stub
    used = set(physical)
    spare = [c for c in reversed(hand.stub.known or []) if c not in used]
    spare += [c for c in FULL_DECK if c not in used and c not in set(spare)]
    pool = physical + spare
    deal_i = 0
    replaced_in_draw: dict[tuple[int, int], int] = {}
    discarded_in_draw: dict[tuple[int, int], int] = {}
    n_hand = len(hand.seats)
    next_hand_pass = b.f + b.frames(float(rng.uniform(4, 9)))

    def pop() -> Card:
        if not pool:
            raise SimulationError("the simulated stub ran out of cards")
        return pool.pop(0)

    holding: int | None = None  # frame the dealer picked up the stub for the current run of cards
    for step in steps:
        dealing = isinstance(step, Dealt | Burned | Replaced)
        if dealing and holding is None:
            holding = b.f
        elif not dealing and holding is not None and not isinstance(step, Discarded):
            b.dealer_hand(holding, b.f)
            holding = None
        if b.f >= next_hand_pass:
            b.hand_pass()
            next_hand_pass = b.f + b.frames(float(rng.uniform(4, 10)))
        if isinstance(step, BetTo | RaisedTo | Called | Checked | Folded):
            # The dealer enters the action once the table shows it: never before the last card landed.
            at = max([b.f, *(e.frame for e in b.events)])
            amount = step.amount if isinstance(step, BetTo | RaisedTo) else None
            b.actions.append({"t": b.t(at), "seat": step.seat, "action": step.kind, "amount": amount})
        if isinstance(step, Posted):
            b.chips(step.seat, max(1, step.amount // max(1, rules.chip_unit)))
            b.pause(0.25)
        elif isinstance(step, Dealt):
            seat = step.seat
            i = deal_i
            deal_i += 1
            if err_at.get("skipped_seat") == i:
                b.errors.append(InjectedError("skipped_seat", seat, b.t(b.f), b.f,
                                              f"seat {seat} got no card in deal round {i // n_hand + 1}"))
                b.pause(0.2)
                continue
            if err_at.get("wrong_seat") == i:
                k = hand.seats.index(seat)
                wrong = hand.seats[(k + 1) % n_hand]
                card = pop()
                land = b.deal_to(wrong, card)
                b.events.append(CardDealt(b.t(land), land, wrong, None))
                b.errors.append(InjectedError("wrong_seat", wrong, b.t(land), land,
                                              f"the card for seat {seat} landed in seat {wrong}"))
                continue
            card = pop()
            if err_at.get("exposed_card") == i:
                land = b.deal_to(seat, card, face_up=True)
                b.events.append(CardDealt(b.t(land), land, seat, card))
                b.events.append(CardExposed(b.t(land), land, seat, card))
                b.errors.append(InjectedError("exposed_card", seat, b.t(land), land, f"{card} was dealt face up"))
                continue
            land = b.deal_to(seat, card)
            b.events.append(CardDealt(b.t(land), land, seat, None))
        elif isinstance(step, Burned):
            b.gather_bets()
            o = b.new_card(pop())
            land = b.to_muck([o], 0.45)
            b.events.append(CardBurned(b.t(land), land))
            b.f = land + b.frames(0.3)
        elif isinstance(step, Discarded):
            if step.count == 0:
                b.pause(0.3)
                continue
            b.gather_bets()
            b.settle()
            pile = b.seat_cards.get(step.seat, [])
            out = [pile.pop(int(rng.integers(len(pile)))) for _ in range(min(step.count, len(pile)))]
            if not out:
                continue
            shown = tuple(o.card for o in out if o.card is not None and _face_up(o))
            land = b.to_muck(out, 0.5)
            b.close_row(step.seat, pile)
            b.events.append(CardsDiscarded(b.t(land), land, step.seat, len(out), shown))
            discarded_in_draw[(step.draw, step.seat)] = len(out)
            b.f = land + b.frames(0.3)
        elif isinstance(step, Replaced):
            card = pop()
            land = b.deal_to(step.seat, card)
            b.events.append(CardReplaced(b.t(land), land, step.seat, None))
            key = (step.draw, step.seat)
            replaced_in_draw[key] = replaced_in_draw.get(key, 0) + 1
            if (not extra_done and step.seat == extra_seat and step.draw == extra_draw
                    and replaced_in_draw[key] == discarded_in_draw.get(key, -1)):
                card = pop()
                land = b.deal_to(step.seat, card)
                b.events.append(CardReplaced(b.t(land), land, step.seat, None))
                n = replaced_in_draw[key] + 1
                b.errors.append(InjectedError("extra_replacement", step.seat, b.t(land), land,
                                              f"seat {step.seat} got {n} replacements for {n - 1} discards"))
                extra_done = True
        elif isinstance(step, Folded | Mucked):
            pile = b.seat_cards.pop(step.seat, [])
            if pile:
                b.settle()
                land = b.to_muck(pile, 0.55)
                b.events.append(SeatFolded(b.t(land), land, step.seat))
                b.f = land + b.frames(0.3)
        elif isinstance(step, BetTo | RaisedTo | Called):
            b.chips(step.seat, max(1, step.amount // max(1, rules.chip_unit)))
            b.pause(0.35)
        elif isinstance(step, Shown):
            b.gather_bets()
            pile = b.seat_cards.get(step.seat, [])
            if not pile:
                continue
            s = profile.seat(step.seat)
            places = spread_placements([o.card for o in pile if o.card is not None], s.card_spot, s.facing_deg,
                                       f"seat:{step.seat}", rng, card_w, face_up=True, reverse=False)
            land = b.f
            for o, p in zip(pile, places, strict=True):
                land = max(land, b.fly(o, p.xy, p.angle_deg, True, f"seat:{step.seat}", 0.5))
            b.events.append(CardsShown(b.t(land), land, step.seat, tuple(o.card for o in pile if o.card)))
            b.f = land + b.frames(0.8)
        else:
            b.pause(0.2)
    if not extra_done:
        raise SimulationError("could not place the extra replacement")
    if holding is not None:
        b.dealer_hand(holding, b.f)
    # award: the pot to the dealer's side, then gather every card, then move the button
    b.gather_bets()
    b.pause(1.2)
    leftover = [o for p in b.seat_cards.values() for o in p] + b.muck
    land = b.f
    for o in leftover:
        land = max(land, b.fly(o, b.stub_xy, 0.0, False, "stub", 0.6))
        o.vanish = b.f + b.frames(0.6) + 1
    for o in b.pot:
        o.vanish = b.f + b.frames(0.3)
    b.events.append(CardsGathered(b.t(land), land))
    b.f = land + b.frames(0.6)
    order = list(hand.seats)
    next_button = order[0]  # the seat after the button clockwise among the players
    dst = profile.seat(next_button).button_spot
    land = b.fly(btn, dst, float(rng.uniform(0, 360)), False, "button", 0.7)
    b.events.append(ButtonMoved(b.t(land), land, next_button))
    b.f = land + b.frames(1.0)
    b.events.sort(key=lambda e: (e.frame, _EVENT_ORDER.get(e.kind, 9)))
    return b, hand


_EVENT_ORDER = {"dealt": 0, "exposed": 1}


def _face_up(o: _Obj) -> bool:
    return bool(o.moves and o.moves[-1].face_up)


def _stub_order(steps: Iterable[object]) -> list[Card]:
    out: list[Card] = []
    for s in steps:
        if isinstance(s, Dealt | Burned | Replaced) and s.card is not None:
            out.append(s.card)
    return out


# --------------------------------------------------------------------------------------------
# The frame source


class SimulatedTable:
    """A FrameSource playing one simulated hand; `truth` holds its events and injected errors."""

    def __init__(
        self,
        game: str = "badugi-limit",
        seed: int = 0,
        *,
        errors: Sequence[str] = (),
        profile: TableProfile | None = None,
        size: tuple[int, int] = (1280, 720),
        fps: float = 15.0,
        players: int | None = None,
        split: Split = "held_out",
        face_design: str | None = None,
        back_design: str | None = None,
        tilt_max_deg: float = 20.0,
        effects: float = 0.5,
        markers: bool = True,
        felt_print: int = 0,
        short_stacks: bool = False,
    ) -> None:
        if not (math.isfinite(fps) and MIN_FPS <= fps <= MAX_FPS):
            raise SimulationError(f"frame rate {fps} is out of range; accepted: {MIN_FPS:g} to {MAX_FPS:g} fps")
        rules = HouseRules.preset(game)
        self._rng = np.random.default_rng([seed, 0xF12A3E])
        rng = self._rng
        self.profile = profile or oval_profile(9)
        faces = designs_for(split, "face")
        backs = designs_for(split, "back")
        face_name = face_design or str(faces[int(rng.integers(len(faces)))])
        back_name = back_design or str(backs[int(rng.integers(len(backs)))])
        face, back = load_face_design(face_name), load_back_design(back_name)
        self._fps = float(fps)
        self.size = size
        self.camera: Camera = make_camera(
            list(self.profile.outline), size, tilt_deg=float(rng.uniform(0, tilt_max_deg)),
            tilt_dir_deg=float(rng.uniform(0, 360)), roll_deg=float(rng.normal(0, 4)), fill=0.97,
        )
        # the rail's ArUco markers are always printed, so calibration can run on the video
        felt = dataclasses.replace(random_felt(rng), markers=markers)
        self.renderer = TableRenderer(self.profile, self.camera, face, back, felt)
        self.effects: Effects = random_effects(rng, effects) if effects > 0 else Effects()
        self.effects = Effects(self.effects.gain, self.effects.gradient, self.effects.spots, (),
                               min(self.effects.blur_sigma, 0.6), 0.0, self.effects.noise_sigma,
                               max(self.effects.jpeg_quality, 70) if self.effects.jpeg_quality else 0)
        script, hand = build_script(rules, self.profile, seed, fps=self._fps, players=players, errors=errors,
                                    card_w=self.renderer.card_w_cm, short_stacks=short_stacks)
        self._script = script
        self.hand = hand
        """The rules engine's hand the video plays out: its betting, contributions and pots are the video's (the
        dealer actions in the truth), but not all its cards: the video picks which cards of a seat's row go in a
        discard at random, so the hands shown in the video, and so the winners, may differ from its `Awarded` step."""
        self._stub_left = len(script.objs)
        self.frame_count = script.f
        h = self.camera.homography
        self.truth = VideoTruth(
            game=game, seed=seed, fps=self._fps, size=size, frames=script.f, events=tuple(script.events),
            errors=tuple(script.errors), homography=tuple(tuple(float(v) for v in r) for r in h),
            profile=self.profile, face_design=face_name, back_design=back_name, button=hand.button,
            players=tuple(sorted(hand.seats)), actions=tuple(script.actions),
            stacks=tuple(sorted(zip(hand.seats, hand.starting, strict=True))),
        )
        self._next = 0
        self._seed = seed
        self._game = game
        # Lettering and lone printed chips on the felt (`scene.random_print`), drawn under every frame: no event may
        # come of them.
        self.felt_print: list[Placement] = random_print(seed, self.profile, felt_print)

    @property
    def name(self) -> str:
        return f"sim:{self._game}:{self._seed}"

    @property
    def fps(self) -> float:
        return self._fps

    @property
    def calibration(self) -> CameraCalibration:
        """The camera's exact calibration (the renderer's homography), as a calibrated table camera would have it."""
        return CameraCalibration.from_table_to_image(self.camera.homography, self.size, self.profile.name)

    @property
    def occluders(self) -> tuple[Occluder, ...]:
        """Hands and chips passing over the table (no event may come of them), in the order they start."""
        return tuple(sorted(self._script.occluders, key=lambda o: o.start))

    def read(self) -> Frame | None:
        if self._next >= self.frame_count:
            return None
        f = self._next
        self._next += 1
        return Frame(self.render_frame(f), f / self._fps, f)

    def close(self) -> None:
        self._next = self.frame_count

    def placements(self, f: int) -> list[Placement]:
        """Everything on the table at frame f, bottom to top."""
        stub_xy = self._script.stub_xy
        cards_out = 0
        items: list[tuple[int, int, Placement]] = []
        for i, o in enumerate(self._script.objs):
            st = o.state(f)
            if o.kind == "card" and f >= o.appear and (o.moves and (len(o.moves) > 1 and o.moves[1].start <= f)):
                cards_out += 1
            if st is None:
                continue
            xy, ang, face_up, zone, lift, since = st
            if o.kind == "card":
                if zone == "stub" and len(o.moves) == 1:
                    continue  # still in the stub
                items.append((1 + (1 if lift > 0 else 0), since * 1000 + i, Placement(
                    "card_face" if face_up else "card_back", xy, ang, o.card, zone, height_cm=lift)))
            elif o.kind == "chips":
                items.append((2, since * 1000 + i, Placement("chip", xy, 0.0, zone=zone, style=o.style, count=o.count,
                                                             height_cm=lift)))
            elif o.kind == "button":
                items.append((2, i, Placement("button", xy, ang, zone="button", style=o.style)))
            else:
                items.append((3, i, Placement("hand", xy, ang, zone="table", height_cm=o.height, style=o.style,
                                              length_cm=o.length, anchor=o.anchor)))
        stub = [Placement("card_back", (stub_xy[0] + 0.1 * k, stub_xy[1] - 0.05 * k), 3.0, None, "stub",
                          height_cm=0.25 * k, gt=(k == 2)) for k in range(3)]
        items.sort(key=lambda t: (t[0], t[1]))
        return stub + [p for _, _, p in items]

    def render_frame(self, f: int) -> np.ndarray[Any, np.dtype[np.uint8]]:
        return self.render_frame_truth(f)[0]

    def render_frame_truth(self, f: int) -> tuple[np.ndarray[Any, np.dtype[np.uint8]], list[ObjectTruth]]:
        """Frame f and the ground truth of every object in it (as in `render_scene`)."""
        return self.renderer.render(self.felt_print + self.placements(f), self.effects,
                                    noise_seed=self._seed * 100_003 + f)


def write_video(source: SimulatedTable, out: str | Path, *, progress: bool = False) -> Path:
    """Write every frame of a simulated table to an mp4 (mp4v); another suffix than VIDEO_SUFFIXES is refused."""
    path = Path(out)
    if path.suffix.lower() not in VIDEO_SUFFIXES:
        raise SimulationError(f"cannot write video {path}: not a video file name; accepted suffixes: "
                              f"{', '.join(VIDEO_SUFFIXES)}")
    import cv2

    path.parent.mkdir(parents=True, exist_ok=True)
    with quiet_video_logs():   # a failed open is said once below, not by OpenCV's own lines first
        writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"mp4v"), source.fps, source.size)
    if not writer.isOpened():
        raise SimulationError(f"cannot write video {path} (mp4v codec unavailable?)")
    try:
        while (frame := source.read()) is not None:
            writer.write(frame.image)
            if progress and frame.index % 100 == 0:
                print(f"frame {frame.index}/{source.frame_count}", flush=True)
    finally:
        writer.release()
    return path
