"""The tracker on noisy zone views: counts that flicker, jump and drop, face-up reads that come and go, the button
anywhere, muck and stub counts at random, and phase hints of any kind at any time. It never fails."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from dealer_assist.cards import parse_card
from dealer_assist.vision.mapper import TableObservation, ZoneView
from dealer_assist.vision.tracker import PHASES, PhaseHint, Tracker, TrackerConfig

DECK = [parse_card(r + s) for r in "A23456789TJQK" for s in "cdhs"]


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), seats=st.integers(2, 10), hand_size=st.sampled_from([4, 5]),
       procedure=st.sampled_from(["sequential", "discard_then_replace"]))
def test_noisy_views_never_crash_the_tracker(seed: int, seats: int, hand_size: int, procedure: str) -> None:
    rng = random.Random(seed)
    tracker = Tracker(seats, TrackerConfig(hand_size=hand_size, draw_procedure=procedure))
    held = [rng.randint(0, hand_size + 1) for _ in range(seats)]
    t = 0.0
    for frame in range(150):
        t += 1 / 15
        if rng.random() < 0.15:
            i = rng.randrange(seats)
            held[i] = max(0, held[i] + rng.choice([-2, -1, 1, 1, 2]))
        views = tuple(
            ZoneView(held[i] if rng.random() > 0.2 else max(0, held[i] + rng.choice([-1, 1])),
                     frozenset(rng.sample(DECK, rng.randint(0, 3))) if rng.random() < 0.1 else frozenset())
            for i in range(seats))
        if rng.random() < 0.05:
            def some() -> frozenset[int]:
                return frozenset(rng.sample(range(1, seats + 1), rng.randint(0, min(3, seats))))
            tracker.set_hint(PhaseHint(rng.choice([None, *PHASES]), rng.choice([None, t - 3 * rng.random(), t + 1]),
                                       some(), some(), some(), some()))
        events = tracker.update(TableObservation(
            t, frame, views, ZoneView(rng.randint(0, 8)), ZoneView(rng.randint(0, 30)), ZoneView(),
            rng.choice([None, *range(1, seats + 1)]), rng.randint(0, 3),
            tuple(rng.randint(0, 2) for _ in range(seats))))
        assert all(e.t <= t + 1e-9 for e in events)
    tracker.flush()
