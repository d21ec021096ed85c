"""Procedure drills as pure logic (Qt-free).

Two kinds:

- **At the table**: the trainee deals a real hand while the referee watches; the procedure is scored
  from what the referee raised, part by part: deal order, card counts, draws, action order, award
  (`score_refereed_hand`).
- **Catch the errors**: the simulator deals a hand on video with dealer errors injected (synth's
  `SimulatedTable`: skipped seat, card to the wrong seat, extra replacement, exposed card; some
  drills are clean); the trainee marks each error with its seat and says who wins the most chips
  (or that a misdeal leaves no award). `score_catch` scores it with the explanation.

Scores go into the trainee's record (`TraineeRecord(..., kind="procedure")`) for the chart.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from dealer_assist.audit.records import Flag, FlagKind
from dealer_assist.rules.awards import Award

PARTS: tuple[str, ...] = ("deal order", "card counts", "draws", "action order", "award")

FLAG_PART: dict[FlagKind, str] = {
    FlagKind.SEAT_SKIPPED: "deal order",
    FlagKind.CARD_TO_WRONG_SEAT: "deal order",
    FlagKind.WRONG_CARD_COUNT: "card counts",
    FlagKind.CARD_EXPOSED: "card counts",
    FlagKind.REPLACEMENTS_MISMATCH: "draws",
    FlagKind.DRAW_OUT_OF_ORDER: "draws",
    FlagKind.DISCARD_RETURNED: "draws",
    FlagKind.ACTION_OUT_OF_TURN: "action order",
    FlagKind.ACTION_MISSING: "action order",
    FlagKind.WRONG_BET_SIZE: "action order",
    FlagKind.ILLEGAL_ACTION: "action order",
    FlagKind.FOLD_OUT_OF_ORDER: "action order",
    FlagKind.SHOW_OUT_OF_ORDER: "award",
    FlagKind.UNEXPECTED_EVENT: "award",
}

# The errors the simulator can inject, how the drill asks about them, and the procedure part each breaks.
ERRORS: dict[str, tuple[str, str]] = {
    "skipped_seat": ("A seat was skipped in the deal", "deal order"),
    "wrong_seat": ("A card went to the wrong seat (the seat that got it)", "deal order"),
    "exposed_card": ("A card was exposed in the deal", "card counts"),
    "extra_replacement": ("A seat got more replacements than it discarded", "draws"),
}
NO_AWARD = 0  # the trainee's answer "misdeal: no award"


@dataclass(frozen=True, slots=True)
class ProcedureScore:
    """A scored procedure: one point per part (or per question), with a line for each."""

    score: int
    out_of: int
    lines: tuple[tuple[bool, str], ...]  # (right, explanation)

    @property
    def percent(self) -> float:
        return 100.0 * self.score / self.out_of if self.out_of else 0.0

    def summary(self) -> str:
        return f"{self.score} / {self.out_of} ({self.percent:.0f}%)"


def score_refereed_hand(flags: Iterable[Flag], awarded: bool) -> ProcedureScore:
    """A hand the trainee dealt at the table, as the referee saw it: a part scores when nothing in it was
    flagged; the award part also needs the hand to have reached an award."""
    by_part: dict[str, list[Flag]] = {p: [] for p in PARTS}
    for flag in flags:
        by_part[FLAG_PART.get(flag.kind, "award")].append(flag)
    lines: list[tuple[bool, str]] = []
    for part in PARTS:
        found = by_part[part]
        ok = not found and (awarded or part != "award")
        if ok:
            lines.append((True, f"{part.capitalize()}: clean"))
        elif found:
            what = "; ".join(f"{f.kind.value.replace('_', ' ')}" + (f" (seat {f.seat})" if f.seat else "")
                             + f" at {f.t:.1f}s" for f in found)
            lines.append((False, f"{part.capitalize()}: {what}"))
        else:
            lines.append((False, "Award: the hand did not reach an award"))
    return ProcedureScore(sum(ok for ok, _ in lines), len(PARTS), tuple(lines))


@dataclass(frozen=True, slots=True)
class CatchDrill:
    """A simulated hand to watch: which errors are injected (none, one or two)."""

    preset: str
    seed: int
    errors: tuple[str, ...]

    @classmethod
    def make(cls, seed: int, preset: str = "badugi-limit", clean_share: float = 0.2) -> CatchDrill:
        rng = random.Random(seed * 7919 + 17)
        if rng.random() < clean_share:
            return cls(preset, seed, ())
        kinds = sorted(ERRORS)
        n = 1 if rng.random() < 0.7 else 2
        chosen = rng.sample(kinds, n)
        if {"skipped_seat", "wrong_seat"} <= set(chosen):  # one deal error of the two at a time reads clearer
            chosen.remove("wrong_seat")
        return cls(preset, seed, tuple(sorted(chosen)))


@dataclass(frozen=True, slots=True)
class CatchTruth:
    """What happened in the drill's video: each injected error's seat and time, and the award (None: misdeal)."""

    errors: Mapping[str, tuple[int, float]]
    award: Award | None
    misdeal: bool = False
    notes: tuple[str, ...] = field(default=())

    def winners(self) -> set[int]:
        """The seats that win the most chips (NO_AWARD when the hand must not be awarded)."""
        if self.award is None or self.misdeal:
            return {NO_AWARD}
        totals = dict(self.award.totals)
        best = max(totals.values())
        return {s for s, v in totals.items() if v == best}


def score_catch(truth: CatchTruth, marked: Mapping[str, int | None], winner: int | None) -> ProcedureScore:
    """`marked[kind]` is the seat the trainee named for that error (None: not marked); `winner` the seat
    said to win the most chips (NO_AWARD: a misdeal, no award). One point per error kind, one for the award."""
    lines: list[tuple[bool, str]] = []
    for kind, (question, part) in ERRORS.items():
        said = marked.get(kind)
        happened = truth.errors.get(kind)
        if happened is None:
            ok = said is None
            text = (f"{question}: no — right" if ok else f"{question}: you said seat {said}, but this did not happen")
        else:
            seat, t = happened
            ok = said == seat
            if said is None:
                text = f"{question}: missed — seat {seat} at {t:.1f}s ({part})"
            elif ok:
                text = f"{question}: caught — seat {seat} at {t:.1f}s ({part})"
            else:
                text = f"{question}: yes, but at seat {seat} (you said seat {said}) at {t:.1f}s ({part})"
        lines.append((ok, text))
    right = truth.winners()
    ok = winner in right
    if NO_AWARD in right:
        why = ("a misdeal is called, the hand is not played out" if truth.misdeal else
               "a seat shows the wrong number of cards: the floor rules before any pot is paid")
        text = f"Award: none — {why}" + ("" if ok else f" (you said seat {winner})")
    else:
        seats = " and ".join(f"seat {s}" for s in sorted(right))
        named = "no award" if winner == NO_AWARD else f"seat {winner}"
        text = f"Award: {seats} win{'s' if len(right) == 1 else ''} the most chips" + ("" if ok else
                                                                                      f" (you said {named})")
    lines.append((ok, text))
    return ProcedureScore(sum(ok for ok, _ in lines), len(lines), tuple(lines))


def catch_truth(errors: Sequence[Any], award: Award | None) -> CatchTruth:
    """From synth's InjectedError records and the award of the cards shown on the video."""
    found: dict[str, tuple[int, float]] = {}
    for e in errors:
        found.setdefault(str(e.kind), (int(e.seat), float(e.t)))
    misdeal = bool({"skipped_seat", "wrong_seat"} & set(found))
    return CatchTruth(found, award, misdeal)
