"""Main and side pots by contribution level, uncalled chips returned."""

from __future__ import annotations

from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dealer_assist.errors import DealerAssistError
from dealer_assist.rules.pots import Pot, build_pots, uncalled


def test_everyone_called_one_pot() -> None:
    pots, returned = build_pots({1: 20, 2: 20, 3: 20}, live=[1, 2, 3])
    assert pots == (Pot(60, (1, 2, 3), (1, 2, 3)),)
    assert returned == {}


def test_folded_chips_stay_in_the_pot_without_eligibility() -> None:
    pots, returned = build_pots({1: 40, 2: 40, 3: 10}, live=[1, 2])
    assert pots == (Pot(90, (1, 2), (1, 2, 3)),)
    assert returned == {}


def test_three_way_all_in_two_side_pots() -> None:
    # Seat 1 all-in for 50, seat 2 all-in for 120, seats 3 and 4 go on to 300; seat 5 folded after 20.
    pots, returned = build_pots({1: 50, 2: 120, 3: 300, 4: 300, 5: 20}, live=[1, 2, 3, 4])
    assert pots == (
        Pot(50 * 4 + 20, (1, 2, 3, 4), (1, 2, 3, 4, 5)),
        Pot(70 * 3, (2, 3, 4), (2, 3, 4)),
        Pot(180 * 2, (3, 4), (3, 4)),
    )
    assert returned == {}


def test_uncalled_excess_is_returned() -> None:
    pots, returned = build_pots({1: 100, 2: 30, 3: 30}, live=[1, 2, 3])
    assert returned == {1: 70}
    assert pots == (Pot(90, (1, 2, 3), (1, 2, 3)),)


def test_uncalled_bet_after_folds() -> None:
    pots, returned = build_pots({1: 60, 2: 20, 3: 20}, live=[1])
    assert returned == {1: 40}
    assert pots == (Pot(60, (1,), (1, 2, 3)),)


def test_short_all_in_caller_makes_side_pot() -> None:
    pots, returned = build_pots({1: 100, 2: 100, 3: 35}, live=[1, 2, 3])
    assert returned == {}
    assert pots == (Pot(105, (1, 2, 3), (1, 2, 3)), Pot(130, (1, 2), (1, 2)))


def test_folded_seat_above_every_live_seat_goes_to_top_pot() -> None:
    # Not reachable by legal play, but the chips must land somewhere: the highest contested pot.
    pots, returned = build_pots({1: 10, 2: 50, 3: 50}, live=[1])
    assert returned == {}
    assert pots == (Pot(110, (1,), (1, 2, 3)),)


def test_uncalled_helper() -> None:
    assert uncalled({}) == {}
    assert uncalled({1: 5}) == {1: 5}
    assert uncalled({1: 5, 2: 5}) == {}


def test_negative_contribution_is_an_error() -> None:
    with pytest.raises(DealerAssistError, match="negative"):
        build_pots({1: -5, 2: 10}, live=[1, 2])


def test_no_live_seat_is_an_error() -> None:
    with pytest.raises(DealerAssistError, match="no live seat"):
        build_pots({1: 10, 2: 10}, live=[])


contribs = st.dictionaries(st.integers(1, 9), st.integers(0, 500), min_size=1, max_size=9)


@settings(deadline=None)
@given(contribs, st.data())
def test_chips_are_conserved_and_pots_well_formed(contributions: dict[int, int], data: st.DataObject) -> None:
    paying = [s for s, a in contributions.items() if a > 0]
    live = data.draw(st.sets(st.sampled_from(sorted(contributions))))
    if paying and not live & set(paying):
        live.add(paying[0])
    pots, returned = build_pots(contributions, live)
    assert sum(p.amount for p in pots) + sum(returned.values()) == sum(contributions.values())
    assert all(p.amount > 0 and p.eligible for p in pots)
    assert all(set(p.eligible) <= live for p in pots)
    assert all(set(p.eligible) <= set(p.contributors) for p in pots)
    # Each later pot's eligible seats are a strict subset of the earlier pot's.
    for lower, upper in pairwise(pots):
        assert set(upper.eligible) < set(lower.eligible)
    assert len(returned) <= 1
