"""`benchmarks/referee_entries.py --keyed-late`: clean simulated hands at a camera's table, every entry keyed late."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

from referee_entries import keyed_late


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
