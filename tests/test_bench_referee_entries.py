"""`benchmarks/referee_entries.py --keyed-late`: clean simulated hands at a camera's table, every entry keyed late."""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

import pytest

from dealer_assist.audit.records import DealerAction, Severity

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

from referee_entries import award, for_seat, keyed_late, moved_late, refereed, simulated


def test_clean_hands_keyed_on_time_or_a_second_late_at_a_camera_table_are_unflagged_and_rightly_awarded() -> None:
    """Every preset's clean hands: entries on time (seeds 0 to 2), and keyed 1 s late (seeds 0 to 12: a dealer keying
    each say after making it, inside `ENTRY_LAG_S`), give no flag and the award the hand refereed away from a camera
    gets, final. At 1 s, 10 of these 78 hands were flagged before the referee's late-keying rules of 2026-12-07 (8 left
    to the floor: a seat's muck seen before the last calls were keyed; 2 "discarded 4 and got 0 replacements")."""
    for seeds, lag, want in ((range(3), 0.0, 18), (range(13), 1.0, 78)):
        hands, tallies = keyed_late(seeds, [lag])
        assert hands == want
        assert tallies[lag] == {"flagged": 0, "right": hands, "right_provisional": 0, "none": 0,
                                "wrong_provisional": 0, "wrong_final": 0}, (lag, tallies[lag])


# Each of these moves one entry of a clean simulated hand (no camera): keyed two or three entries late, or for the
# next seat, or leaves it out. Each made a wrong award final before the rules of 2026-12-07 (night): a call keyed
# with no bet to call while entries out of turn waited, none of them a bet; a fold or call with nothing to call read
# as the first say after a draw nobody was seen drawing in; a fold right after a doubted call with a camera event
# between. The later ones: see the comments in the list.
MOVED = [
    ("badugi-limit", 28, 62, "late", 3), ("badacey-pot-limit-double", 26, 23, "late", 2),
    ("badacey-pot-limit-double", 5, 52, "late", 3), ("badacey-pot-limit-double", 7, 43, "late", 3),
    ("badacey-pot-limit-double", 13, 34, "late", 3), ("badacey-limit-triple", 4, 56, "late", 3),
    ("badacey-limit-triple", 15, 55, "late", 3), ("badugi-limit", 70, 31, "late", 2),
    ("badugi-no-limit", 31, 51, "late", 2), ("badugi-no-limit", 71, 43, "late", 2),
    ("badacey-limit-triple", 70, 34, "late", 2),
    ("badugi-pot-limit", 9, 56, "seat", 1), ("badugi-no-limit", 16, 65, "seat", 2),
    ("badacey-limit-triple", 10, 34, "seat", 3), ("badacey-limit-triple", 21, 63, "seat", 1),
    # Before the rule of 2026-12-07 (late evening): a call keyed late, then the same seat's raise taken as the bet
    # after a draw nobody was seen drawing in, every seat standing pat (`HandRun._flag_answer_to_nothing`); or a call
    # keyed late taken as the call of a later round's bet, then the same seat's fold across an unseen draw.
    ("badugi-pot-limit", 212, 13, "late", 2), ("badugi-no-limit", 212, 13, "late", 2),
    ("badugi-pot-limit", 178, 31, "late", 3), ("badugi-no-limit", 178, 31, "late", 3),
    ("badugi-pot-limit", 163, 15, "late", 3), ("badugi-no-limit", 163, 15, "late", 3),
    # Before the rule after it: a call left out (or keyed for the wrong seat), the seats after it keyed, and the seat's
    # cards seen going to the muck at the showdown 1.9 s and more later, taken as its fold in turn with no flag
    # (`HandRun._flag_fold_after_later_entries`).
    ("badacey-no-limit-single", 99, 37, "missing", 0), ("badacey-no-limit-single", 99, 37, "seat", 8),
    ("badugi-limit", 313, 75, "missing", 0), ("badugi-limit", 313, 75, "seat", 3),
    # Before the rule after that: a raise keyed late, and the fold keyed after it by a seat whose turn then never came
    # in that round, standing a round later with no flag (`HandRun._flag_stale_entry`).
    ("badugi-limit", 93, 33, "late", 3), ("badacey-limit-triple", 93, 37, "late", 3),
    ("badacey-limit-triple", 75, 59, "late", 3),
]


@pytest.mark.parametrize(("game", "seed", "index", "how", "by"), MOVED)
def test_an_entry_keyed_late_for_the_wrong_seat_or_left_out_never_makes_a_wrong_award_final(
        game: str, seed: int, index: int, how: str, by: int) -> None:
    config, items = simulated(game, seed)
    want, provisional = award(config, items)
    assert want is not None and not provisional
    entries = [i for i, x in enumerate(items) if isinstance(x, DealerAction)]
    assert index in entries
    moved = (moved_late(items, index, entries[entries.index(index) + by]) if how == "late"
             else [*items[:index], *items[index + 1:]] if how == "missing" else for_seat(items, index, by))
    got, provisional = award(config, moved)
    assert got == want or provisional, (got, want)


def test_a_bet_keyed_after_a_hand_ended_by_a_fold_the_camera_saw_holds_its_award() -> None:
    """Every entry keyed 3 s late, twice `ENTRY_LAG_S`: the camera's last fold ended badacey-limit-triple seed 27
    before seat 9's bet was keyed. That bet is chips the pots never got: an error flag, and the award is made again
    as provisional (before: a warning, and a wrong award made final)."""
    config, items = simulated("badacey-limit-triple", 27)
    want, _ = award(config, items)
    late = sorted((dataclasses.replace(x, t=x.t + 3.0) if isinstance(x, DealerAction) else x for x in items),
                  key=lambda x: (x.t, isinstance(x, DealerAction)))
    referee = refereed(dataclasses.replace(config, camera=True), late)
    final = referee.hands[0].awards[-1]
    assert dict(final.award.totals) == want or final.provisional
    assert any("after the hand ended" in f.message and f.severity is Severity.ERROR for f in referee.hands[0].flags)


def test_a_raise_right_after_the_same_seats_call_across_an_unseen_draw_is_an_error() -> None:
    """badugi-no-limit seed 212, seat 4's completing call keyed two places late: it closed the betting, and seat 4's
    raise, keyed next, was taken as the bet after a draw where every seat stood pat (nothing was seen drawn). A round
    starts with nothing to raise: an error flag, and the award waits on the floor."""
    config, items = simulated("badugi-no-limit", 212)
    entries = [i for i, x in enumerate(items) if isinstance(x, DealerAction)]
    i = entries.index(13)
    referee = refereed(config, moved_late(items, 13, entries[i + 2]))
    said = [f for f in referee.hands[0].flags if "starts with no bet to raise" in f.message]
    assert [(f.seat, f.severity) for f in said] == [(4, Severity.ERROR)]
    assert referee.hands[0].awards[-1].provisional
    # on time, the same hand has no such flag
    assert not refereed(config, items).hands[0].flags
