"""Shown hands keyed in by the dealer (`CardsShown.entered`), fuzzed on simulated hands: whatever the camera made of the
shows (nothing read, a card or two, another hand, a muck), and whenever the entries come (after the camera's show, in
another order than the seats showed, before the camera's show), the referee awards the pots as it does on the video's
true events, as final or provisional as those, and raises no flag they do not.

A fixed list of cases found passing by a wider fuzz (several hundred hands a variant, every preset, 2 to 6 players,
the injected dealer errors), kept as a regression guard. `_fed` and `keyed_shows` are as in
tests/test_bench_vision_events.py and benchmarks/vision_events.py."""

from __future__ import annotations

import sys
from collections import Counter
from dataclasses import replace
from functools import cache
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
from vision_events import _actions, _referee, keyed_shows

from dealer_assist.audit.outputs import AwardMade
from dealer_assist.audit.records import DealerAction
from dealer_assist.audit.referee import Referee
from dealer_assist.cards import FULL_DECK, Card
from dealer_assist.synth.hand_video import ERROR_KINDS, SimulatedTable
from dealer_assist.vision.events import CardsShown, SeatFolded, TableEvent


@cache
def _sim(game: str, seed: int, players: int, errors: bool) -> SimulatedTable:
    return SimulatedTable(game, seed, size=(320, 180), fps=15.0, errors=ERROR_KINDS if errors else (),
                          players=players, effects=0)


def _fed(sim: SimulatedTable, events: list[TableEvent]) -> Referee:
    """The video's referee fed `events` and the video's dealer actions in time order (actions after events at a tie)."""
    referee: Referee = _referee(sim)
    items = [*events, *_actions(sim)]
    referee.feed_all(sorted(items, key=lambda i: (i.t, isinstance(i, DealerAction))))
    referee.close(sim.frame_count / sim.fps)
    return referee


def _shows(sim: SimulatedTable) -> list[CardsShown]:
    return sorted((e for e in sim.truth.events if isinstance(e, CardsShown)), key=lambda e: e.t)


def _gather(sim: SimulatedTable) -> float:
    return min((e.t for e in sim.truth.events if e.kind == "gathered"), default=sim.frame_count / sim.fps)


def _free_hand(sim: SimulatedTable, n: int) -> tuple[Card, ...]:
    """`n` cards of one suit that no event of the video names: a hand the camera might misread a seat's for."""
    taken = {c for e in sim.truth.events for c in (getattr(e, "cards", None) or ())}
    taken |= {c for e in sim.truth.events if (c := getattr(e, "card", None)) is not None}
    for suit in "cdhs":
        free = [c for c in FULL_DECK if str(c)[-1] == suit and c not in taken]
        if len(free) >= n:
            return tuple(free[:n])
    raise AssertionError("no free suit")


def _before(sim: SimulatedTable, show: CardsShown) -> float:
    """A moment before the camera's show of a seat, after every other table event before it: the dealer keys the hand
    in as it is turned up, before the camera has read it."""
    prev = max((e.t for e in sim.truth.events if e.t < show.t and not isinstance(e, CardsShown)), default=0.0)
    return max(prev + 0.05, show.t - 0.5) if prev + 0.05 < show.t else show.t - 0.01


def _keyed(sim: SimulatedTable, delay_s: float) -> list[TableEvent]:
    """Each shown hand keyed in `delay_s` after it was turned up, before the gather (`keyed_shows`)."""
    keyed: list[TableEvent] = keyed_shows(sim, delay_s)
    return keyed


def _entry(sim: SimulatedTable, t: float, show: CardsShown) -> CardsShown:
    return CardsShown(t, round(t * sim.fps), show.seat, show.cards, entered=True)


def _events(sim: SimulatedTable, variant: str) -> list[TableEvent]:
    """The video's events as the camera saw them in `variant`, with the dealer's entries of the shown hands."""
    out: list[TableEvent]
    events = list(sim.truth.events)
    shows = _shows(sim)
    if variant in ("unread@1", "unread@3"):
        unread = [replace(e, cards=()) if isinstance(e, CardsShown) else e for e in events]
        return unread + _keyed(sim, float(variant[-1]))
    if variant in ("one_read", "two_read"):
        n = 1 if variant == "one_read" else 2
        out = [replace(e, cards=e.cards[:n]) if isinstance(e, CardsShown) else e for e in events]
        return out + _keyed(sim, 1.0)
    if variant in ("misread_first", "misread_last", "misread_all"):
        wrong = shows if variant == "misread_all" else [shows[0] if variant == "misread_first" else shows[-1]]
        out = [replace(e, cards=_free_hand(sim, len(e.cards)))
               if isinstance(e, CardsShown) and any(e is w for w in wrong) else e for e in events]
        return out + _keyed(sim, 1.0)
    if variant in ("muck_first", "muck_last", "muck_all"):
        gone = shows if variant == "muck_all" else [shows[0] if variant == "muck_first" else shows[-1]]
        out = [SeatFolded(e.t, e.frame, e.seat) if isinstance(e, CardsShown) and any(e is g for g in gone) else e
               for e in events]
        return out + _keyed(sim, 1.0)
    if variant in ("reversed_unread", "reversed_read"):
        seen: list[TableEvent] = events if variant == "reversed_read" else [
            replace(e, cards=()) if isinstance(e, CardsShown) else e for e in events]
        last, gather = shows[-1].t, _gather(sim)
        span = max(0.05, min(gather - 0.1, last + 3) - last)
        return seen + [_entry(sim, last + span * (k + 1) / (len(shows) + 1), e) for k, e in enumerate(reversed(shows))]
    if variant.startswith("early_"):
        out = []
        for e in events:
            if not isinstance(e, CardsShown):
                out.append(e)
                continue
            out.append(_entry(sim, _before(sim, e), e))
            if variant == "early_read":
                out.append(e)
            elif variant == "early_misread":
                out.append(replace(e, cards=_free_hand(sim, len(e.cards))))
            elif variant == "early_muck":
                out.append(SeatFolded(e.t, e.frame, e.seat))
            else:
                out.append(replace(e, cards=()))
        return out
    if variant == "read_and_keyed":
        return events + _keyed(sim, 1.0)
    raise ValueError(variant)


def _last_award(referee: Referee) -> AwardMade | None:
    return next((h.awards[-1] for h in reversed(referee.hands) if h.awards), None)


def _flags(referee: Referee) -> Counter[tuple[str, int | None, str]]:
    return Counter((f.kind.value, f.seat, f.severity.value) for h in referee.hands for f in h.flags)


VARIANTS = ("unread@1", "unread@3", "one_read", "two_read", "misread_first", "misread_last", "misread_all",
            "muck_first", "muck_last", "muck_all", "reversed_unread", "reversed_read", "early_unread", "early_read",
            "early_misread", "early_muck", "read_and_keyed")

HANDS: list[tuple[str, int, int, bool]] = [
    # (game, seed, players, injected errors)
    ("badugi-limit", 0, 2, False),
    ("badugi-no-limit", 1, 4, False),
    ("badugi-pot-limit", 4, 3, False),
    ("badacey-limit-triple", 1, 6, False),
    ("badacey-no-limit-single", 10, 6, False),        # six hands shown
    ("badacey-pot-limit-double", 4, 6, False),
    ("badugi-no-limit", 21, 4, False),                # all-in before the last draw: no betting after it
    ("badugi-pot-limit", 22, 6, False),               # all-in too
    ("badugi-no-limit", 8, 6, True),                  # all-in, with the injected dealer errors (a provisional award)
    ("badugi-pot-limit", 17, 6, True),
    ("badugi-limit", 2, 4, True),
    ("badacey-limit-triple", 5, 5, True),
    ("badacey-pot-limit-double", 8, 5, True),
    ("badugi-pot-limit", 2, 6, True),
    ("badugi-pot-limit", 1, 5, False),                # all-in: the first muck ends the last draw (its entry stood out)
]

CASES = [(*hand, variant) for hand in HANDS for variant in VARIANTS]


@pytest.mark.parametrize(("game", "seed", "players", "errors", "variant"), CASES)
def test_keyed_shows_award_as_the_true_events(game: str, seed: int, players: int, errors: bool, variant: str) -> None:
    sim = _sim(game, seed, players, errors)
    assert len(_shows(sim)) >= 2, "the hand must reach a showdown"
    truth = _fed(sim, list(sim.truth.events))
    want = _last_award(truth)
    assert want is not None
    keyed = _fed(sim, _events(sim, variant))
    made = _last_award(keyed)
    assert made is not None, [f.message for h in keyed.hands for f in h.flags]
    assert dict(made.award.totals) == dict(want.award.totals)
    assert made.provisional == want.provisional
    assert not _flags(keyed) - _flags(truth), [f.message for h in keyed.hands for f in h.flags]


@pytest.mark.parametrize("camera", ["none", "unread"])
def test_a_hand_keyed_in_again_replaces_the_first_entry(camera: str) -> None:
    """The dealer mistyped a hand and keyed it in again: the second entry is the hand, whether or not the camera saw
    the seat show (before, with no camera show of the seat, the second entry waited forever and the typo stood)."""
    sim = _sim("badugi-limit", 0, 2, False)
    truth = _fed(sim, list(sim.truth.events))
    shows = _shows(sim)
    last = shows[-1]
    events: list[TableEvent] = [e for e in sim.truth.events if e is not last]
    if camera == "unread":
        events.append(replace(last, cards=()))
    typo = CardsShown(last.t + 0.5, last.frame + 7, last.seat, _free_hand(sim, len(last.cards)), entered=True)
    right = CardsShown(last.t + 1.0, last.frame + 15, last.seat, last.cards, entered=True)
    keyed = _fed(sim, [*events, typo, right])
    made, want = _last_award(keyed), _last_award(truth)
    assert made is not None and want is not None
    assert dict(made.award.totals) == dict(want.award.totals)


def test_the_referee_takes_a_discard_of_a_card_seen_elsewhere_without_crashing() -> None:
    """badugi-pot-limit seed 23 heads-up with every injected error: a discard names a card the seat's hand does not
    hold, which the rules engine looked up with a bare next() (StopIteration escaped the referee); now it is an
    illegal step, and the hand raises exactly the injected errors' flags."""
    from dealer_assist.synth.hand_video import FLAG_OF_ERROR

    sim = _sim("badugi-pot-limit", 23, 2, True)
    referee = _fed(sim, list(sim.truth.events))
    want = Counter((FLAG_OF_ERROR[e.kind], e.seat) for e in sim.truth.errors)
    assert Counter((f.kind.value, f.seat) for h in referee.hands for f in h.flags) == want


def test_a_flag_the_camera_raised_and_a_keyed_show_settled_is_dismissed_by_the_referee(tmp_path: Path) -> None:
    """All-in before the last draw: the camera read the first seat's show as a discard of its whole hand (an error flag,
    which holds the award); the dealer keys in the hands shown. Refereed again on them, the hand does not raise that
    flag, so the referee dismisses it with its reason, and the log tells it from a floor ruling."""
    from dealer_assist.audit.outputs import REFEREE_BY
    from dealer_assist.store.handlog import HandLog
    from dealer_assist.store.render import render_story
    from dealer_assist.store.sink import HandLogSink
    from dealer_assist.vision.events import CardsDiscarded

    sim = _sim("badugi-no-limit", 18, 6, False)
    first = _shows(sim)[0]
    events = [CardsDiscarded(e.t, e.frame, e.seat, len(e.cards)) if e is first else e for e in sim.truth.events]
    with HandLog.open(tmp_path / "log.sqlite") as log:
        referee = Referee(_referee(sim).table, HandLogSink(log, log.open_session("sim", "dealer")))
        items = [*events, *_keyed(sim, 1.0), *_actions(sim)]
        referee.feed_all(sorted(items, key=lambda i: (i.t, isinstance(i, DealerAction))))
        referee.close(sim.frame_count / sim.fps)
        (summary,) = log.list_hands()
        text = render_story(log.story(summary.id))
    made, want = _last_award(referee), _last_award(_fed(sim, list(sim.truth.events)))
    assert made is not None and want is not None
    assert dict(made.award.totals) == dict(want.award.totals) and not made.provisional
    (hand,) = referee.hands
    assert [c.kind for c in hand.corrections if c.by == REFEREE_BY] == ["dismiss_flag"]
    assert "REFEREE correction" in text and "keyed in by the dealer" in text
