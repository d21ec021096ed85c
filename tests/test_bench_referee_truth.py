"""`benchmarks/referee_truth.py`: the referee on simulated hands' true events raises exactly the injected flags."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

from referee_truth import measure


def test_true_events_with_entries_keyed_a_second_late_raise_exactly_the_injected_flags() -> None:
    """Every preset, seeds 0 to 5 (errors of all four kinds injected on the odd ones), the camera perfect, every dealer
    entry keyed 1 s late: each injected error flagged, no other flag, every award right (provisional where an error
    was injected). The referee of the morning of 2026-12-07 left 4 of these clean hands' awards (and one with errors)
    to the floor and raised 4 flags on the clean ones."""
    tally = measure(range(6), "1.0")
    assert (tally.hands, tally.clean_hands) == (36, 18)
    assert tally.flagged == tally.injected == 72
    assert tally.other_with_errors == tally.flags_on_clean == 0
    assert tally.awards == {"right (clean)": 18, "right provisional (errors)": 18}
