"""Side pots through the simulated video: hands made with `SimulatedTable(short_stacks=True)` (some seats start short,
so all-ins make a main pot and side pots) refereed from the video's true events and dealer actions.

The reference award: the rules engine's own `award_pots` (`dealer-assist showdown`'s path) on the hand's contributions
(the simulator's `Hand`) and the hands the video shows (its `CardsShown` events). The video's cards are not the
simulator's: the video picks which cards of a row a seat discards at random, so its shown hands (and the winners) may
differ from the simulator's `Awarded` step; the pots (amounts, eligible seats) and the uncalled chips come from the
betting alone, and those must equal the simulator's too.

The cases were found by a search over seeds with the option on (every hand found with two or more pots and a
showdown was awarded right, read by the camera and keyed in by the dealer), and are kept as a guard. Without the
option a video's truth is byte for byte what it was before the option (the detections cached per seed stay valid).
"""

from __future__ import annotations

import hashlib
import json
import sys
from dataclasses import replace
from functools import cache
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
from test_keyed_show_fuzz import _fed  # the video's referee (the truth's stacks) fed events and dealer actions
from vision_events import _referee, keyed_shows

from dealer_assist.audit.outputs import AwardMade
from dealer_assist.audit.records import DealerAction
from dealer_assist.audit.referee import Referee
from dealer_assist.audit.table import TableConfig
from dealer_assist.rules.awards import Award, award_pots
from dealer_assist.rules.house_rules import HouseRules
from dealer_assist.rules.steps import Awarded
from dealer_assist.synth.hand_video import ERROR_KINDS, SimulatedTable, default_stack
from dealer_assist.vision.events import CardBurned, CardReplaced, CardsDiscarded, CardsShown, SeatFolded, TableEvent

CASES: list[tuple[str, int, int, tuple[int, ...]]] = [
    # (game, seed, players, the pots' chips: main pot first)
    ("badugi-no-limit", 2, 6, (30, 10, 52, 3, 10)),
    ("badugi-no-limit", 9, 4, (28, 78, 94)),
    ("badugi-no-limit", 1, 5, (44, 21, 6)),
    ("badugi-pot-limit", 6, 6, (42, 40, 3, 128)),      # six hands shown
    ("badugi-pot-limit", 5, 6, (60, 8, 21, 12)),
    ("badugi-pot-limit", 3, 4, (20, 25)),
    ("badacey-no-limit-single", 1, 6, (55, 28, 30, 58)),
    ("badacey-no-limit-single", 10, 6, (60, 40, 186)),  # six hands shown
    ("badacey-no-limit-single", 4, 5, (115, 14)),
    ("badacey-pot-limit-double", 1, 6, (101, 12, 21, 104)),
    ("badacey-pot-limit-double", 10, 5, (50, 32, 132)),
    ("badacey-pot-limit-double", 7, 4, (16, 66, 2)),
    ("badugi-limit", 11, 5, (40, 24, 8)),              # fixed limit: short stacks go all-in there too
    ("badacey-limit-triple", 3, 6, (47, 44)),
]


@cache
def _sim(game: str, seed: int, players: int) -> SimulatedTable:
    return SimulatedTable(game, seed, size=(320, 180), fps=15.0, players=players, effects=0, short_stacks=True)


def _last_award(referee: Referee) -> AwardMade | None:
    return next((h.awards[-1] for h in reversed(referee.hands) if h.awards), None)


def _reference(sim: SimulatedTable) -> Award:
    """The rules' award of the video's showdown: the simulated hand's contributions, the hands the video shows."""
    rules = HouseRules.preset(sim.truth.game)
    hand = sim.hand
    shown = {e.seat: e.cards for e in sim.truth.events if isinstance(e, CardsShown)}
    return award_pots(game=rules.game, contributions=hand.contributions(), hands={s: shown.get(s) for s in hand.seats},
                      button=hand.button, seat_order=sorted(hand.seats), chip_unit=rules.chip_unit,
                      odd_chip_rule=rules.odd_chip_rule)


def _pots(award: Award) -> list[tuple[int, tuple[int, ...]]]:
    return [(p.amount, tuple(sorted(p.eligible))) for p in award.pots]


def _shares(award: Award) -> list[tuple[int, list[tuple[int, int, str]]]]:
    return [(p.amount, sorted((s.seat, s.amount, s.portion) for s in p.shares)) for p in award.pots]


def _nonzero(totals: dict[int, int]) -> dict[int, int]:
    return {s: c for s, c in totals.items() if c}


def _check(sim: SimulatedTable, referee: Referee) -> None:
    made = _last_award(referee)
    assert made is not None, [f.message for h in referee.hands for f in h.flags]
    assert not made.provisional
    assert not [f for h in referee.hands for f in h.flags], [f.message for h in referee.hands for f in h.flags]
    want = _reference(sim)
    assert len(made.award.pots) == len(want.pots) >= 2
    assert _pots(made.award) == _pots(want)
    assert _shares(made.award) == _shares(want)
    assert dict(made.award.returned) == dict(want.returned)
    assert _nonzero(dict(made.award.totals)) == _nonzero(dict(want.totals))


@pytest.mark.parametrize(("game", "seed", "players", "pots"), CASES)
def test_the_video_has_side_pots_and_records_its_stacks(game: str, seed: int, players: int,
                                                        pots: tuple[int, ...]) -> None:
    sim = _sim(game, seed, players)
    last = sim.hand.history[-1]
    assert isinstance(last, Awarded) and not last.uncontested
    assert tuple(p.amount for p in last.award.pots) == pots
    stacks = sim.truth.stacks_by_seat()
    assert sorted(stacks) == list(sim.truth.players)
    assert len(set(stacks.values())) >= 2
    assert min(stacks.values()) < default_stack(HouseRules.preset(game))
    # the truth file names the stacks as `dealer-assist audit` reads them ({seat: chips}, the seats as strings)
    data = json.loads(json.dumps(sim.truth.to_dict()))
    assert {int(s): int(c) for s, c in data["stacks"].items()} == stacks
    # and the referee is given them
    assert dict(_referee(sim).table.stacks) == stacks


@pytest.mark.parametrize(("game", "seed", "players", "pots"), CASES)
def test_the_true_events_award_every_side_pot_as_the_rules_do(game: str, seed: int, players: int,
                                                             pots: tuple[int, ...]) -> None:
    sim = _sim(game, seed, players)
    referee = _fed(sim, list(sim.truth.events))
    _check(sim, referee)
    made = _last_award(referee)
    assert made is not None
    last = sim.hand.history[-1]
    assert isinstance(last, Awarded)
    # the pots and the uncalled chips come from the betting alone: the simulator's own award has them too
    assert _pots(made.award) == _pots(last.award)
    assert dict(made.award.returned) == dict(last.award.returned)


@pytest.mark.parametrize(("game", "seed", "players", "pots"), CASES)
def test_unread_shows_keyed_in_by_the_dealer_award_the_same(game: str, seed: int, players: int,
                                                           pots: tuple[int, ...]) -> None:
    sim = _sim(game, seed, players)
    unread = [replace(e, cards=()) if isinstance(e, CardsShown) else e for e in sim.truth.events]
    keyed: list[TableEvent] = list(keyed_shows(sim, 1.0))
    _check(sim, _fed(sim, unread + keyed))


def test_every_seat_all_in_two_draws_before_the_end_and_a_pat_draw() -> None:
    """badugi-pot-limit seed 15, 6 players, short stacks: every seat still in is all-in in the betting after the first
    draw; all stand pat in the second draw (no event, no betting), draw in the third, seat 3 mucks at the showdown."""
    sim = _sim("badugi-pot-limit", 15, 6)
    _check(sim, _fed(sim, list(sim.truth.events)))


def _last_draw(sim: SimulatedTable) -> list[TableEvent]:
    """The third draw's events (from seat 3's second discard to the last replacement) of badugi-pot-limit seed 15."""
    events = sim.truth.events
    start = [i for i, e in enumerate(events) if isinstance(e, CardsDiscarded) and e.seat == 3][1]
    end = max(i for i, e in enumerate(events) if isinstance(e, CardReplaced))
    return events[start:end + 1]


def test_the_muck_read_as_a_whole_discard_after_the_pat_draw_is_the_showdown_too() -> None:
    """The same hand as the tracker reads the muck (told the draw is on): a discard of seat 3's whole hand."""
    sim = _sim("badugi-pot-limit", 15, 6)
    muck = next(e for e in sim.truth.events if isinstance(e, SeatFolded) and e.seat == 3 and e.t > 20)
    events = [CardsDiscarded(e.t, e.frame, 3, 4) if e is muck else e for e in sim.truth.events]
    _check(sim, _fed(sim, events))


def _draws_four(sim: SimulatedTable) -> list[TableEvent]:
    """Seat 3, first to draw after the pat draw, discards its whole hand (four cards) and gets four back."""
    first = _last_draw(sim)[0]
    assert isinstance(first, CardsDiscarded) and first.count == 2
    events: list[TableEvent] = []
    for e in sim.truth.events:
        events.append(replace(e, count=4) if e is first else e)
        if isinstance(e, CardReplaced) and e.seat == 3 and events[-2] is not first and e.t > first.t \
                and sum(isinstance(x, CardReplaced) and x.seat == 3 and x.t > first.t for x in events) == 2:
            events += [replace(e, t=e.t + 0.05 * k, frame=e.frame + k) for k in (1, 2)]
    return events


def test_a_four_card_discard_after_an_all_in_pat_draw_is_a_discard_not_a_muck() -> None:
    """A whole hand going in a draw no seat has drawn in yet may be a muck ending the draws (everyone stood pat) or a
    discard of four: the cards coming back to the seat say it was the discard, and the hand is refereed clean."""
    sim = _sim("badugi-pot-limit", 15, 6)
    events = _draws_four(sim)
    assert sum(isinstance(e, CardReplaced) and e.seat == 3 for e in events) == 2 + 4
    referee = _fed(sim, events)
    assert not [f for h in referee.hands for f in h.flags], [f.message for h in referee.hands for f in h.flags]
    made = _last_award(referee)
    assert made is not None and not made.provisional


def test_with_all_discards_first_a_four_card_discard_is_one_when_the_next_seat_discards() -> None:
    """House option `draw_procedure = discard_then_replace`: every seat discards before any card is dealt, so after a
    whole hand going in the draw no seat has drawn in, the next input is another seat's discard, not the card back:
    that says the draw is on, and the whole hand was a discard of four."""
    sim = _sim("badugi-pot-limit", 15, 6)
    events = _draws_four(sim)
    second = _last_draw(sim)[0].t
    for lo, hi in ((0.0, second - 0.01), (second, float("inf"))):      # the first draw, then the third
        draw = [e for e in events if isinstance(e, CardsDiscarded | CardBurned | CardReplaced) and lo <= e.t < hi]
        order = [*(e for e in draw if isinstance(e, CardsDiscarded)), *(e for e in draw
                                                                         if not isinstance(e, CardsDiscarded))]
        moved = {id(e): replace(e, t=d.t, frame=d.frame) for e, d in zip(order, draw, strict=True)}
        events = sorted((moved.get(id(e), e) for e in events), key=lambda e: e.t)
    rules = HouseRules.preset(sim.truth.game).with_options(draw_procedure="discard_then_replace")
    referee = Referee(TableConfig.for_profile(sim.profile, rules, sim.truth.stacks_by_seat(), button=sim.truth.button))
    actions = [DealerAction(int(a["seat"]), a["action"], a.get("amount"), t=float(a["t"])) for a in sim.truth.actions]
    referee.feed_all(sorted([*events, *actions], key=lambda i: (i.t, isinstance(i, DealerAction))))
    referee.close(sim.frame_count / sim.fps)
    assert not [f for h in referee.hands for f in h.flags], [f.message for h in referee.hands for f in h.flags]
    made = _last_award(referee)
    assert made is not None and not made.provisional


_Key = tuple[str, int, int | None, bool, tuple[int, int]]
OFF_TRUTH_SHA256: dict[_Key, str] = {
    # (game, seed, players, injected errors, frame size): sha256 of json.dumps(truth.to_dict(), indent=1) with the
    # procedural decks alone (no card-art package: which decks a machine has, and how its librsvg draws them, change
    # the truth), as the commit before short stacks (61cee97) gives them too
    ("badugi-limit", 0, None, False, (1280, 720)): "64e318361b4afa6153aa48255c160cdf0ee0afcae306e1279f2172fa916fb885",
    ("badacey-limit-triple", 3, None, True, (1280, 720)):
        "f3ca676795ac788b24d2de6d45a462f53cfe7a9942b96c0bdc484f51ad3c9774",
    ("badugi-no-limit", 192, 4, False, (640, 360)): "a3bf8f4d236687ca49e9ea22e874406bedd0d2bd819d0add8d0a1ab924ebf9a0",
    ("badacey-pot-limit-double", 5, None, False, (640, 360)):
        "faed4b2cc73702574fb7739858e93335b6ded6a28e492efde03931285520dc93",
    ("badugi-pot-limit", 1, 5, True, (320, 180)): "756dcb31ad12d4846be7ac1b5b519020b90d8cba07de8502ed56d841f6ba5fbf",
}


@pytest.mark.usefixtures("procedural_decks")   # as where no card-art package is installed (see OFF_TRUTH_SHA256)
@pytest.mark.parametrize("key", list(OFF_TRUTH_SHA256), ids=lambda k: f"{k[0]}-{k[1]}")
def test_without_the_option_the_truth_is_byte_identical(key: _Key) -> None:
    game, seed, players, errors, size = key
    sim = SimulatedTable(game, seed, players=players, errors=ERROR_KINDS if errors else (), size=size, fps=15.0)
    text = json.dumps(sim.truth.to_dict(), indent=1)
    assert "stacks" not in sim.truth.to_dict()
    assert hashlib.sha256(text.encode()).hexdigest() == OFF_TRUTH_SHA256[key]
    chips = default_stack(HouseRules.preset(game))
    assert sim.truth.stacks_by_seat() == dict.fromkeys(sim.truth.players, chips)
