"""Every seat still in is all-in before the last draw: no betting follows the later draws, and the last seat standing
pat in the last draw makes no table event (the camera sees nothing when a seat keeps its cards). The first seat to
act at the showdown then mucks: its cards going are the end of the draw (the seats not seen drawing stood pat) and a
muck at the showdown, not a fold during the draw (the true events) nor a second discard out of turn (the tracker,
told the draw is on, reads the muck as a discard of the whole hand). Cases found by driving simulated hands with
ground-truth detections through the tracker and the referee."""

from __future__ import annotations

from dataclasses import replace

import pytest

from dealer_assist.audit.loop import RefereeLoop
from dealer_assist.audit.records import DealerAction, FlagKind
from dealer_assist.audit.referee import Referee
from dealer_assist.audit.table import TableConfig
from dealer_assist.rules.house_rules import HouseRules
from dealer_assist.synth.hand_video import FLAG_OF_ERROR, SimulatedTable
from dealer_assist.synth.truth_detections import placement_detections
from dealer_assist.vision.backends.fake_backend import FakeDetector
from dealer_assist.vision.events import CardReplaced, CardsDiscarded, SeatFolded, TableEvent
from dealer_assist.vision.pipeline import Pipeline
from dealer_assist.vision.tracker import TrackerConfig

CASES = [
    ("badugi-no-limit", 192, 4, []),
    ("badugi-no-limit", 178, 8, ["wrong_seat", "extra_replacement"]),
    ("badugi-pot-limit", 206, 8, ["extra_replacement"]),
]


def _sim(game: str, seed: int, players: int, errors: list[str]) -> SimulatedTable:
    return SimulatedTable(game, seed, errors=errors, size=(640, 360), fps=15.0, players=players, effects=0)


def _referee(sim: SimulatedTable) -> Referee:
    """A Referee for the video's table, as `dealer-assist audit` makes it (the chips sim-video deals)."""
    rules = HouseRules.preset(sim.truth.game)
    return Referee(TableConfig.for_profile(sim.profile, rules, sim.truth.stacks_by_seat(), button=sim.truth.button))


def _actions(sim: SimulatedTable) -> list[DealerAction]:
    return [DealerAction(int(a["seat"]), a["action"], a.get("amount"), t=float(a["t"])) for a in sim.truth.actions]


def _referee_on(sim: SimulatedTable, events: list[TableEvent]) -> Referee:
    referee = _referee(sim)
    items = [*events, *_actions(sim)]
    referee.feed_all(sorted(items, key=lambda i: (i.t, isinstance(i, DealerAction))))
    referee.close(sim.frame_count / sim.fps)
    return referee


def _flags(referee: Referee) -> list[tuple[str, int | None]]:
    return sorted((f.kind.value, f.seat) for h in referee.hands for f in h.flags)


def _want(sim: SimulatedTable) -> list[tuple[str, int | None]]:
    return sorted((FLAG_OF_ERROR[e.kind], e.seat) for e in sim.truth.errors)


def _muck_after_pat(sim: SimulatedTable) -> SeatFolded:
    """The case's shape: a muck at the showdown comes after the last draw's last card (no betting between)."""
    last = max(e.t for e in sim.truth.events if isinstance(e, CardReplaced | CardsDiscarded))
    return next(e for e in sim.truth.events if isinstance(e, SeatFolded) and e.t > last)


@pytest.mark.parametrize(("game", "seed", "players", "errors"), CASES)
def test_a_muck_after_an_all_in_last_draw_is_the_showdown_on_the_true_events(
        game: str, seed: int, players: int, errors: list[str]) -> None:
    sim = _sim(game, seed, players, errors)
    _muck_after_pat(sim)
    referee = _referee_on(sim, list(sim.truth.events))
    assert _flags(referee) == _want(sim), [f.message for h in referee.hands for f in h.flags]


@pytest.mark.parametrize(("game", "seed", "players", "errors"), CASES)
def test_the_muck_read_as_a_whole_discard_is_the_showdown_too(
        game: str, seed: int, players: int, errors: list[str]) -> None:
    """The tracker's reading, reduced: the muck comes as a discard of the seat's whole hand (the referee had the draw
    on). Exactly the injected flags, and the pots are awarded."""
    sim = _sim(game, seed, players, errors)
    muck = _muck_after_pat(sim)
    size = HouseRules.preset(game).hand_size
    events = [CardsDiscarded(e.t, e.frame, e.seat, size) if e is muck else e for e in sim.truth.events]
    referee = _referee_on(sim, events)
    assert _flags(referee) == _want(sim), [f.message for h in referee.hands for f in h.flags]
    assert referee.hands[0].end is not None and referee.hands[0].end.status != "void"


@pytest.mark.parametrize(("game", "seed", "players", "errors"), CASES[:1])
def test_through_the_tracker_the_all_in_showdown_is_refereed_clean(
        game: str, seed: int, players: int, errors: list[str]) -> None:
    """The whole loop, as `dealer-assist audit` runs it: truth detections through the tracker, phase hints back."""
    sim = _sim(game, seed, players, errors)
    rules = HouseRules.preset(game)
    pipe = Pipeline.build(sim.profile, sim.calibration, FakeDetector(),
                          TrackerConfig(hand_size=rules.hand_size, draw_procedure=rules.draw_procedure))
    loop = RefereeLoop(_referee(sim), 3.0, tracker=pipe)
    loop.push(_actions(sim))
    homography = sim.camera.homography
    t = 0.0
    for f in range(sim.frame_count):
        t = f / sim.fps
        loop.push(pipe.update_detections(placement_detections(sim.placements(f), homography), t, f))
        loop.advance(t)
    loop.push(pipe.flush())
    loop.finish(t)
    referee = loop.referee
    assert _flags(referee) == _want(sim), [f.message for h in referee.hands for f in h.flags]
    assert not any(f.kind is FlagKind.DRAW_OUT_OF_ORDER for h in referee.hands for f in h.flags)
    assert referee.hands[0].end is not None and referee.hands[0].end.status != "void"


@pytest.mark.parametrize("seen_as", ["discarded", "folded"])
def test_a_seat_drawing_its_whole_hand_twice_in_the_all_in_last_draw_is_still_flagged(seen_as: str) -> None:
    """The other side: the seat's whole hand goes after its turn, and a burn and cards come back to it (it drew twice,
    no muck). Read as a discard, it waits for the next input, the card, which makes it a second draw; seen as a muck,
    it ended the draw, and the card coming back says otherwise. Either way a draw out of order at that seat, an error
    flag that holds any award."""
    sim = _sim(*CASES[0])
    muck = _muck_after_pat(sim)
    size = HouseRules.preset(sim.truth.game).hand_size
    again = [CardReplaced(muck.t + 0.4 * (k + 1), muck.frame + 6 * (k + 1), muck.seat, None) for k in range(size)]
    gone: TableEvent = CardsDiscarded(muck.t, muck.frame, muck.seat, size) if seen_as == "discarded" else muck
    late = 0.4 * (size + 1)
    events: list[TableEvent] = []
    for e in sim.truth.events:
        if e is muck:
            events += [gone, *again]
        elif e.t > muck.t:
            events.append(replace(e, t=e.t + late))     # the showdown after the second draw
        else:
            events.append(e)
    referee = _referee_on(sim, events)
    flags = [f for h in referee.hands for f in h.flags]
    assert (FlagKind.DRAW_OUT_OF_ORDER, muck.seat) in [(f.kind, f.seat) for f in flags], [f.message for f in flags]
    awards = referee.hands[0].awards
    assert not awards or awards[-1].provisional          # no award made as final
