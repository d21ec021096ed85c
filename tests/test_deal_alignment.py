"""The fewest-mistakes account of a deal (`audit.deal_alignment`)."""

from __future__ import annotations

from dealer_assist.audit.deal_alignment import Step, align_deal, lap_distance

ORDER = (6, 7, 3)


def steps(landed: list[int], order: tuple[int, ...] = ORDER, size: int = 4) -> list[tuple[str, int | None]]:
    expected = list(order) * size
    return [(a.step.value, expected[a.slot] if a.slot is not None else landed[a.landing or 0])
            for a in align_deal(order, expected, landed)]


def test_a_clean_deal_is_every_card_a_match() -> None:
    assert steps(list(ORDER) * 4) == [("match", s) for s in list(ORDER) * 4]


def test_a_skip_and_a_card_pitched_one_place_on_beats_a_card_two_places_on_and_a_skip() -> None:
    """Round 3: seat 6 gets nothing and seat 7's card lands in seat 3, which then gets its own. Two mistakes either
    way; the stray card one place on along the dealer's lap stands."""
    got = steps([6, 7, 3, 6, 7, 3, 3, 3, 6, 7, 3])
    assert got[6:9] == [("skip", 6), ("wrong", 7), ("match", 3)]
    assert sum(1 for k, _ in got if k != "match") == 2


def test_the_fewest_mistakes_win_over_any_lap_distance() -> None:
    """A card at a seat not dealt in is a whole lap away, yet one wrong card beats a skip and a card too many."""
    got = steps([6, 7, 3, 6, 9, 3], size=2)
    assert got == [("match", 6), ("match", 7), ("match", 3), ("match", 6), ("wrong", 7), ("match", 3)]
    assert lap_distance(ORDER, 7, 9) == 3 and lap_distance(ORDER, 7, 3) == 1 and lap_distance(ORDER, 3, 6) == 1


def test_cards_past_the_deal_and_a_deal_cut_short_are_extras_and_skips_at_the_end() -> None:
    assert steps([6, 7, 3, 6, 7, 3, 7], size=2)[-1] == ("extra", 7)
    assert steps([6, 7, 3, 6], size=2)[-2:] == [("skip", 7), ("skip", 3)]
    assert [a.step for a in align_deal(ORDER, [], [6])] == [Step.EXTRA]
