"""Showdown drills: seeded random showdowns, the trainee's answer scored against `award_pots`.

A drill is 2 to 6 seats with their hands (None for a folded seat) and what each put in; sometimes
a short all-in makes side pots, sometimes two seats hold the same ranks in other suits so a tie
and an odd chip come up. The trainee says, for each pot (each half in Badacey), how many chips
each seat gets; each pot or half answered exactly right scores a point.
"""

from __future__ import annotations

import contextlib
import json
import random
import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

from dealer_assist.cards import FULL_DECK, Card, Deck, Suit, format_cards
from dealer_assist.rules.awards import Award, award_pots, award_sentences, chips

Game = Literal["badugi", "badacey"]
PortionKey = tuple[int, str]  # (pot index, "whole" | "low" | "badugi")
PORTION_NAMES = {"whole": "whole pot", "low": "A-5 low half", "badugi": "Badugi half"}


@dataclass(frozen=True, slots=True)
class Drill:
    """One showdown to call. `hands[seat]` is None for a seat that folded."""

    seed: int
    game: Game
    seats: tuple[int, ...]
    button: int
    contributions: Mapping[int, int]
    hands: Mapping[int, tuple[Card, ...] | None]
    chip_unit: int = 1
    odd_chip_rule: str = "clockwise_from_button"

    def award(self) -> Award:
        return award_pots(
            game=self.game,
            contributions=self.contributions,
            hands=self.hands,
            button=self.button,
            seat_order=self.seats,
            chip_unit=self.chip_unit,
            odd_chip_rule=self.odd_chip_rule,
        )

    def describe(self) -> str:
        lines = [f"{self.game.capitalize()}, button seat {self.button}, odd chip rule {self.odd_chip_rule}"]
        for seat in self.seats:
            hand = self.hands.get(seat)
            shown = format_cards(hand) if hand else "folded"
            lines.append(f"seat {seat}: put in {self.contributions.get(seat, 0)}, {shown}")
        return "\n".join(lines)


def _suit_swap(cards: tuple[Card, ...], rng: random.Random) -> tuple[Card, ...]:
    """The same ranks under a suit permutation with no fixed suit: an equal hand in other suits."""
    suits = list(Suit)
    while True:
        image = suits[:]
        rng.shuffle(image)
        if all(a != b for a, b in zip(suits, image, strict=True)):
            break
    mapping = dict(zip(suits, image, strict=True))
    return tuple(Card(c.rank, mapping[c.suit]) for c in cards)


def make_drill(seed: int, game: Game | None = None, n_seats: int | None = None) -> Drill:
    """A reproducible random showdown for `seed` (game and seat count random unless given)."""
    rng = random.Random(seed)
    games: tuple[Game, Game] = ("badugi", "badacey")
    chosen_game: Game = rng.choice(games) if game is None else game
    n = n_seats or rng.randint(2, 6)
    if not 2 <= n <= 6:
        raise ValueError(f"a drill has 2 to 6 seats, got {n}")
    size = 4 if chosen_game == "badugi" else 5
    seats = tuple(sorted(rng.sample(range(1, 7), n)))
    button = rng.choice(seats)
    # Who folded: at least two seats reach showdown.
    n_live = rng.randint(2, n) if n > 2 else 2
    live = sorted(rng.sample(seats, n_live))
    folded = [s for s in seats if s not in live]
    # Hands: maybe a tie between two live seats (same ranks, other suits).
    hands: dict[int, tuple[Card, ...] | None] = {s: None for s in folded}
    for _attempt in range(50):
        deck = Deck.shuffled(rng.randrange(1 << 30))
        chosen: dict[int, tuple[Card, ...]] = {}
        if rng.random() < 0.35 and len(live) >= 2:
            a, b = rng.sample(live, 2)
            first = tuple(deck.deal() for _ in range(size))
            twin = _suit_swap(first, rng)
            if set(twin) & set(first):
                continue
            chosen[a], chosen[b] = first, twin
        used = {c for h in chosen.values() for c in h}
        rest = [c for c in deck.cards if c not in used]
        for seat in live:
            if seat not in chosen:
                chosen[seat] = tuple(rest[:size])
                rest = rest[size:]
        hands.update(chosen)
        break
    # Contributions: a full level for most live seats; sometimes short all-ins make side pots.
    base = rng.choice((20, 30, 40, 60, 80, 100, 120))
    contributions: dict[int, int] = {}
    for seat in folded:
        contributions[seat] = rng.choice((0, 5, 10, base // 2, base))
    full = list(live)
    if len(live) >= 3 and rng.random() < 0.5:
        for seat in rng.sample(live, rng.randint(1, len(live) - 2)):
            contributions[seat] = rng.randint(3, base - 1)
            full.remove(seat)
    for seat in full:
        contributions[seat] = base
    if rng.random() < 0.5:  # an odd amount from a blind makes odd chips more likely
        extra = rng.choice(seats)
        if extra in folded:
            contributions[extra] = min(contributions[extra] + rng.choice((1, 3, 5)), base)
    odd_rule = "high_card_by_suit" if rng.random() < 0.2 else "clockwise_from_button"
    return Drill(seed, chosen_game, seats, button, contributions, hands, 1, odd_rule)


def expected_answer(award: Award) -> dict[PortionKey, dict[int, int]]:
    """For every pot portion, the chips per winning seat."""
    out: dict[PortionKey, dict[int, int]] = {}
    for pot in award.pots:
        for share in pot.shares:
            out.setdefault((pot.index, share.portion), {})
            out[(pot.index, share.portion)][share.seat] = share.amount
    return out


def portions(award: Award) -> tuple[tuple[PortionKey, str, int, tuple[int, ...]], ...]:
    """What the trainee must answer: (key, title, chips in the portion, eligible seats)."""
    rows = []
    for pot in award.pots:
        amounts: dict[str, int] = {}
        for share in pot.shares:
            amounts[share.portion] = amounts.get(share.portion, 0) + share.amount
        for portion, amount in amounts.items():
            title = pot.name.capitalize()
            if portion != "whole":
                title += f" — {PORTION_NAMES[portion]}"
            rows.append(((pot.index, portion), title, amount, pot.eligible))
    return tuple(rows)


@dataclass(frozen=True, slots=True)
class PortionResult:
    key: PortionKey
    title: str
    correct: bool
    expected: dict[int, int]
    given: dict[int, int]


@dataclass(frozen=True, slots=True)
class DrillResult:
    score: int
    out_of: int
    portions: tuple[PortionResult, ...]
    explanation: tuple[str, ...]

    @property
    def percent(self) -> float:
        return 100.0 * self.score / self.out_of if self.out_of else 0.0

    def summary(self) -> str:
        return f"{self.score} of {self.out_of} correct ({self.percent:.0f}%)"

    def feedback(self) -> tuple[str, ...]:
        lines = []
        for r in self.portions:
            want = ", ".join(f"seat {s} {chips(a)}" for s, a in sorted(r.expected.items()))
            if r.correct:
                lines.append(f"✔ {r.title}: {want}.")
            else:
                got = ", ".join(f"seat {s} {chips(a)}" for s, a in sorted(r.given.items())) or "nothing"
                lines.append(f"✘ {r.title}: you gave {got}; correct is {want}.")
        return tuple(lines)


def score_answer(drill: Drill, answer: Mapping[PortionKey, Mapping[int, int]]) -> DrillResult:
    """Score the trainee's chips per seat per portion; zero amounts count as not winning."""
    award = drill.award()
    expected = expected_answer(award)
    results = []
    for key, title, _amount, _eligible in portions(award):
        given = {s: a for s, a in answer.get(key, {}).items() if a}
        want = expected[key]
        results.append(PortionResult(key, title, given == want, want, given))
    score = sum(r.correct for r in results)
    return DrillResult(score, len(results), tuple(results), award_sentences(award))


# --- per-trainee records -------------------------------------------------------------------------

_SAFE = re.compile(r"[^A-Za-z0-9_.-]+")


@dataclass(frozen=True, slots=True)
class Attempt:
    when: str
    game: str
    seed: int
    score: int
    out_of: int

    @property
    def percent(self) -> float:
        return 100.0 * self.score / self.out_of if self.out_of else 0.0


class TraineeRecord:
    """Scores of one trainee, one JSON file per trainee under `<data dir>/training/`."""

    def __init__(self, directory: Path, trainee: str, kind: str = "") -> None:
        """`kind`: "" for showdown drills, "procedure" for procedure drills (a file of its own)."""
        self.trainee = trainee.strip() or "trainee"
        suffix = f".{kind}" if kind else ""
        self.path = directory / "training" / f"{_SAFE.sub('_', self.trainee)}{suffix}.json"
        self.problem: str | None = None
        self.attempts: list[Attempt] = self._load()

    def _load(self) -> list[Attempt]:
        try:
            data: Any = json.loads(self.path.read_text(encoding="utf-8"))
            return [Attempt(**item) for item in data["attempts"]]
        except FileNotFoundError:
            return []
        except (OSError, ValueError, TypeError, KeyError) as exc:
            self.problem = f"record {self.path} unreadable ({exc}); starting a new record"
            backup = self.path.with_name(self.path.name + ".broken")
            with contextlib.suppress(OSError):
                self.path.replace(backup)
            return []

    def add(self, drill: Drill, result: DrillResult, when: datetime | None = None) -> Attempt:
        return self.add_score(drill.game, drill.seed, result.score, result.out_of, when)

    def add_score(self, game: str, seed: int, score: int, out_of: int, when: datetime | None = None) -> Attempt:
        """Record one scored attempt (any kind of drill) and save the record at once."""
        stamp = (when or datetime.now(UTC)).isoformat(timespec="seconds")
        attempt = Attempt(stamp, game, seed, score, out_of)
        self.attempts.append(attempt)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        payload = {"trainee": self.trainee, "attempts": [_attempt_dict(a) for a in self.attempts]}
        tmp = self.path.with_name(self.path.name + ".tmp")
        tmp.write_text(json.dumps(payload, indent=1) + "\n", encoding="utf-8")
        tmp.replace(self.path)
        return attempt

    def percents(self) -> list[float]:
        return [a.percent for a in self.attempts]


def _attempt_dict(a: Attempt) -> dict[str, Any]:
    return {"when": a.when, "game": a.game, "seed": a.seed, "score": a.score, "out_of": a.out_of}


def all_cards_distinct(drill: Drill) -> bool:
    cards = [c for h in drill.hands.values() if h for c in h]
    return len(cards) == len(set(cards)) and all(c in FULL_DECK for c in cards)
