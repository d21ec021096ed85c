"""`dealer-assist audit` must raise exactly the injected dealer errors' flags (issue #4, section 3): cases found by
driving many simulated hands (every preset, 2 to 9 players, each error alone and in pairs) through the tracker and
the referee with ground-truth detections, reduced here to the events the referee gets."""

from __future__ import annotations

import pytest

from dealer_assist.audit.deal import DealChecker
from dealer_assist.audit.records import DealerAction, FlagKind
from dealer_assist.audit.referee import Referee
from dealer_assist.audit.table import TableConfig
from dealer_assist.rules.house_rules import HouseRules
from dealer_assist.synth.hand_video import FLAG_OF_ERROR, build_script
from dealer_assist.vision.table_profile import oval_profile


def test_heads_up_a_seat_skipped_in_the_deal_is_one_skip_flag_at_a_camera_table() -> None:
    """Heads-up, button 3: the deal goes 8, 3, 8, 3, ... Seat 3 is skipped in the first round, so seat 8 gets two
    cards in a row and seat 3 ends one short. Card by card, seat 8's second card looks like one out of turn (seat 3,
    due, got the next card) and is held for a later turn of seat 8; seat 8's own next card then finds it one too many.
    That held card had made the deal's end skip the whole-deal account (`deal_alignment`), as if it had been taken for
    the camera's timing, so the referee said "card to seat 8 out of turn" and "seat 3 got 3 cards": two flags, neither
    the skip. The fewest-mistakes account of the deal is the one skip."""
    deal = DealChecker((8, 3), 4, camera=True)
    for k, (seat, t) in enumerate([(8, 1.67), (8, 2.13), (3, 2.4), (8, 2.67), (3, 2.93), (8, 3.2), (3, 3.47)]):
        deal.card(seat, None, t, k)
    notes = deal.finish()[1]
    assert [(n.kind, n.seat) for n in notes] == [(FlagKind.SEAT_SKIPPED, 3)], [n.message for n in notes]


def test_a_card_out_of_turn_found_too_many_is_still_flagged_as_such() -> None:
    """The other side: three seats, seat 1 gets a card out of turn in the first round and the deal goes on in order
    (seat 1 ends with five). Still one flag, the card to the wrong seat, at seat 1."""
    deal = DealChecker((1, 2, 9), 4, camera=True)
    seq = [1, 2, 1, 9] + [1, 2, 9] * 3
    for k, seat in enumerate(seq):
        deal.card(seat, None, 1.0 + 0.4 * k, k)
    notes = deal.finish()[1]
    assert [(n.kind, n.seat) for n in notes] == [(FlagKind.CARD_TO_WRONG_SEAT, 1)], [n.message for n in notes]


def test_a_skipped_seat_given_its_card_after_the_last_round_is_the_skip_not_a_count_that_matches_the_hand() -> None:
    """Five seats; seat 9 gets nothing in round 3, seat 5 nothing in round 4, and seat 9 gets a card after the last
    round (badugi-limit seed 5 as the camera saw it). Seat 9 ends with its 4 cards, so the card past the deal is its
    skipped card dealt late: the skip says so, and no "seat 9 got 4 cards in the deal, not 4" follows it."""
    deal = DealChecker((5, 8, 9, 1, 2), 4, camera=True)
    for k, seat in enumerate([5, 8, 9, 1, 2, 5, 8, 9, 1, 2, 5, 8, 1, 2, 8, 9, 1, 2, 9]):
        deal.card(seat, None, 1.0 + 0.27 * k, k)
    notes = deal.finish()[1]
    assert [(n.kind, n.seat) for n in notes] == [(FlagKind.SEAT_SKIPPED, 9), (FlagKind.SEAT_SKIPPED, 5)], \
        [n.message for n in notes]
    assert notes[0].message.endswith("it got its card after the deal's last round")
    assert "after the deal" not in notes[1].message


def test_a_card_past_the_deal_at_a_seat_already_full_is_still_a_wrong_count() -> None:
    """The other side: the card after the last round goes to a seat that had all its cards, so it ends one over."""
    deal = DealChecker((5, 8, 9), 2, camera=True)
    for k, seat in enumerate([5, 8, 9, 5, 8, 9, 8]):
        deal.card(seat, None, 1.0 + 0.27 * k, k)
    notes = deal.finish()[1]
    assert [(n.kind, n.seat, n.message) for n in notes] == [
        (FlagKind.WRONG_CARD_COUNT, 8, "seat 8 got 3 cards in the deal, not 2")]
    cut_short = DealChecker((5, 8, 9), 2, camera=True)          # the deal stops after seat 5's second card
    for k, seat in enumerate([5, 8, 9, 5]):
        cut_short.card(seat, None, 1.0 + 0.27 * k, k)
    assert [n.message for n in cut_short.finish()[1]] == [
        "seat 8 got 1 card in the deal, not 2", "seat 9 got 1 card in the deal, not 2"]


@pytest.mark.parametrize(("game", "seed", "errors"), [
    ("badugi-limit", 101, ["skipped_seat"]),
    ("badugi-limit", 109, ["skipped_seat"]),
    ("badugi-limit", 102, ["skipped_seat", "extra_replacement"]),
    ("badugi-limit", 107, ["skipped_seat", "exposed_card"]),
])
def test_heads_up_simulated_hands_with_a_skipped_seat_raise_exactly_the_injected_flags(
        game: str, seed: int, errors: list[str]) -> None:
    """Simulated heads-up hands (sim-video's true events and dealer actions) refereed as at a camera's table, as
    `dealer-assist audit` does: exactly the injected flags, at their seats."""
    rules = HouseRules.preset(game)
    profile = oval_profile(9)
    builder, hand = build_script(rules, profile, seed, fps=15, players=2, errors=errors)
    stacks = {s: hand.starting[i] for i, s in enumerate(hand.seats)}
    referee = Referee(TableConfig.for_profile(profile, rules, stacks, button=hand.button))
    actions = [DealerAction(a["seat"], a["action"], a["amount"], t=a["t"]) for a in builder.actions]
    referee.feed_all(sorted([*builder.events, *actions], key=lambda x: (x.t, isinstance(x, DealerAction))))
    referee.close(builder.f / 15)
    got = sorted((f.kind.value, f.seat) for h in referee.hands for f in h.flags)
    want = sorted((FLAG_OF_ERROR[e.kind], e.seat) for e in builder.errors)
    assert "skipped_seat" in [e.kind for e in builder.errors]
    assert got == want, [f.message for h in referee.hands for f in h.flags]
