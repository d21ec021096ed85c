"""The referee on whatever a camera may report: simulated hands with stray events inserted anywhere (cards at empty
seats, folds and shows out of place, bets of any size, gathers mid-hand). It never fails with anything but a one-line
DealerAssistError, and a replay of the same inputs gives the same flags and awards."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import example, given, settings
from hypothesis import strategies as st
from referee_script import Script
from test_referee_sim import simulated

from dealer_assist.audit.records import DealerAction
from dealer_assist.audit.referee import Referee
from dealer_assist.audit.table import TableConfig
from dealer_assist.cards import parse_card
from dealer_assist.errors import DealerAssistError
from dealer_assist.rules.house_rules import HouseRules
from dealer_assist.vision.events import (
    ButtonMoved,
    CardDealt,
    CardExposed,
    CardReplaced,
    CardsDiscarded,
    CardsGathered,
    CardsShown,
    SeatFolded,
    TableEvent,
)

CARDS = [parse_card(c) for c in ("As", "2d", "Kh", "7c", "4s")]
GAMES = ("badugi-limit", "badacey-limit-triple", "badugi-pot-limit")


def stray(kind: int, t: float, frame: int, seat: int, n: int) -> TableEvent | DealerAction:
    """One made-up input of kind `kind` at `seat` (`n` picks a card, a count or an amount)."""
    card = CARDS[n % len(CARDS)] if n % 3 else None
    return [
        CardDealt(t, frame, seat, card), CardReplaced(t, frame, seat, card),
        CardsDiscarded(t, frame, seat, 1 + n % 5, ()), CardExposed(t, frame, seat, card), SeatFolded(t, frame, seat),
        CardsShown(t, frame, seat, tuple(CARDS[: n % 6])), ButtonMoved(t, frame, seat), CardsGathered(t, frame),
        DealerAction(seat, ("fold", "check", "call")[n % 3], None, t=t),
        DealerAction(seat, ("bet", "raise")[n % 2], (1, 2, 4, 100)[n % 4], t=t),
    ][kind]


@settings(max_examples=150, deadline=None)
# a card dealt to a seat by a stray read and a gather mid-hand: the show's check stopped with StopIteration
@example(game="badacey-limit-triple", seed=5, camera=False, strays=[(0.5, 0, 1, 2), (0.25, 7, 1, 0)])
@given(game=st.sampled_from(GAMES), seed=st.integers(0, 5), camera=st.booleans(),
       strays=st.lists(st.tuples(st.floats(0, 1), st.integers(0, 9), st.integers(1, 9), st.integers(0, 11)),
                       min_size=1, max_size=5))
def test_stray_inputs_never_crash_the_referee(game: str, seed: int, camera: bool,
                                              strays: list[tuple[float, int, int, int]]) -> None:
    config, items, _ = simulated(game, seed, [])
    config = replace(config, camera=camera)
    stream: list[TableEvent | DealerAction] = list(items)
    for where, kind, seat, n in strays:
        k = min(int(where * len(stream)), len(stream) - 1)
        stream.insert(k, stray(kind, stream[k].t, getattr(stream[k], "frame", None) or 0, seat, n))
    referee = Referee(config)
    for item in stream:
        try:
            referee.feed(item)
        except DealerAssistError as exc:
            assert "\n" not in str(exc)
    referee.close(stream[-1].t + 1)
    again = Referee.replay(config, referee.inputs, close_at=stream[-1].t + 1)
    assert [h.flags for h in again.hands] == [h.flags for h in referee.hands]
    assert [h.awards for h in again.hands] == [h.awards for h in referee.hands]


def test_a_card_at_an_empty_seat_in_the_draw_is_a_warning() -> None:
    """`audit` on a rendered badacey hand (seed 24, a skipped seat) through the detector stopped with a KeyError: a
    card seen landing at a seat with no player, in the draw. It is a warning naming the seat, and the hand goes on."""
    s = Script().deal(1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3).act(3, "call").act(1, "call").act(2, "check")
    s.discard(1, 1).replace(1, 1)
    seats = TableConfig.make(HouseRules.preset("badugi-limit"), dict.fromkeys(range(1, 4), 100), button=3)
    referee = Referee(seats)
    referee.feed_all(s.items)
    referee.feed(CardDealt(s.items[-1].t + 0.5, s.frame + 15, 7))
    assert [(f.kind.value, f.seat, f.severity.value) for f in referee.flags] == [("unexpected_event", 7, "warning")]
    assert referee.flags[0].message == "a card arrived at seat 7, which has no player in this hand"
    assert referee.prompt.phase == "drawing"
