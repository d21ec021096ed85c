"""Hand-written cases for the Hand state machine: sizes, order, all-ins, draws, reshuffles, showdown."""

from __future__ import annotations

import pytest

from dealer_assist.cards import parse_card, parse_cards
from dealer_assist.rules.hand import Hand, Phase
from dealer_assist.rules.house_rules import HouseRules
from dealer_assist.rules.steps import Awarded, IllegalStep

LIMIT = HouseRules()
NO_LIMIT = HouseRules(betting="no_limit")
POT_LIMIT = HouseRules(betting="pot_limit")


def dealt(rules: HouseRules, stacks: dict[int, int], button: int, **kw: object) -> Hand:
    hand = Hand(rules, stacks, button, **kw)  # type: ignore[arg-type]
    hand.post_all()
    hand.deal_all()
    return hand


def stand_pat_all(hand: Hand) -> None:
    while hand.next_discarder is not None:
        hand.discard(hand.next_discarder, 0)


def check_around(hand: Hand) -> None:
    while hand.phase is Phase.BETTING:
        hand.check()


def to_final_round(hand: Hand) -> None:
    """Stand pat and check through every draw to the last betting round."""
    while hand.round < hand.rules.draws:
        if hand.phase is Phase.BETTING:
            check_around(hand)
        stand_pat_all(hand)


# -- blinds and order ----------------------------------------------------------------------------


def test_blinds_left_of_button_and_first_action_left_of_big_blind() -> None:
    hand = Hand(LIMIT, {1: 100, 2: 100, 3: 100, 4: 100}, button=2)
    assert hand.next_post == (3, "small blind", 1)
    hand.post()
    assert hand.next_post == (4, "big blind", 2)
    hand.post()
    assert hand.next_card_seat == 3
    hand.deal_all()
    assert hand.actor == 1
    assert [h.count(None) for h in hand.hands] == [4, 4, 4, 4]


def test_heads_up_button_posts_small_blind_acts_first_then_last() -> None:
    hand = Hand(LIMIT, {3: 100, 7: 100}, button=7)
    assert hand.next_post == (7, "small blind", 1)
    hand.post_all()
    assert hand.contributions() == {3: 2, 7: 1}
    hand.deal_all()
    assert hand.actor == 7
    hand.call()
    assert hand.actor == 3
    hand.check()
    stand_pat_all(hand)
    assert hand.actor == 3  # after the draw the button acts last


def test_heads_up_option_off_non_button_posts_small_blind() -> None:
    rules = LIMIT.with_options(heads_up_button_small_blind=False)
    hand = Hand(rules, {3: 100, 7: 100}, button=7)
    hand.post_all()
    assert hand.contributions() == {3: 1, 7: 2}
    hand.deal_all()
    assert hand.actor == 3


@pytest.mark.parametrize("betting", ["fixed_limit", "no_limit"])
def test_heads_up_blinds_of_one_size_the_button_still_acts_first_and_the_big_blind_has_the_option(
        betting: str) -> None:
    rules = LIMIT.with_options(betting=betting, small_blind=2, big_blind=2)
    hand = Hand(rules, {3: 100, 7: 100}, button=7)
    hand.post_all()
    assert hand.contributions() == {3: 2, 7: 2}
    hand.deal_all()
    assert hand.actor == 7               # the button posted the small blind: it acts first before the draw
    hand.check()
    assert hand.actor == 3               # the big blind's option closes the round
    hand.check()
    assert hand.phase is Phase.DRAWING


def test_three_handed_blinds_of_one_size_the_seat_after_the_big_blind_opens() -> None:
    hand = Hand(LIMIT.with_options(small_blind=2, big_blind=2), {1: 100, 2: 100, 3: 100}, button=3)
    hand.post_all()
    assert hand.contributions() == {1: 2, 2: 2, 3: 0}
    hand.deal_all()
    assert hand.actor == 3
    hand.call()
    assert hand.actor == 1
    hand.check()                         # the small blind owes nothing: its blind is as large as the big one
    assert hand.actor == 2               # the big blind's option


def test_antes_then_blinds() -> None:
    hand = Hand(LIMIT.with_options(ante=1), {1: 50, 2: 50, 3: 50}, button=3)
    kinds = []
    while hand.phase is Phase.POSTING:
        kinds.append(hand.post().blind)
    assert kinds == ["ante", "ante", "ante", "small blind", "big blind"]
    assert hand.contributions() == {1: 2, 2: 3, 3: 1}


def test_deal_to_wrong_seat_is_a_misdeal() -> None:
    hand = Hand(LIMIT, {1: 100, 2: 100, 3: 100}, button=1)
    hand.post_all()
    with pytest.raises(IllegalStep, match="next card goes to seat 2"):
        hand.deal_card(3)
    hand.deal_card(2, parse_card("Ah"))
    with pytest.raises(IllegalStep, match="one place only"):
        hand.deal_card(3, parse_card("Ah"))


# -- bet sizes -----------------------------------------------------------------------------------


def test_fixed_limit_sizes_and_cap_with_blind_counted() -> None:
    hand = dealt(LIMIT, {s: 500 for s in range(1, 7)}, button=6)
    opts = hand.options()
    assert opts is not None and (opts.call, opts.min_to, opts.max_to) == (2, 4, 4)
    with pytest.raises(IllegalStep, match="fixed limit"):
        hand.raise_to(5)
    hand.raise_to(4)
    hand.raise_to(6)
    hand.raise_to(8)  # big blind + three raises = four bets
    opts = hand.options()
    assert opts is not None and opts.raise_kind is None
    with pytest.raises(IllegalStep, match="bets_per_round_cap"):
        hand.raise_to(10)


def test_fixed_limit_cap_without_blind_counted_allows_a_fourth_raise() -> None:
    hand = dealt(LIMIT.with_options(blind_counts_as_bet=False), {s: 500 for s in range(1, 7)}, button=6)
    for amount in (4, 6, 8, 10):
        hand.raise_to(amount)
    assert not hand.can_raise_to(12)


def test_uncapped_heads_up() -> None:
    hand = dealt(LIMIT.with_options(uncapped_heads_up=True), {1: 500, 2: 500}, button=2)
    for amount in (4, 6, 8, 10, 12, 14):
        hand.raise_to(amount)
    assert hand.can_raise_to(16)


def test_fixed_limit_big_bet_after_second_draw() -> None:
    hand = dealt(LIMIT, {1: 500, 2: 500, 3: 500}, button=3)
    hand.call()
    hand.call()
    hand.check()
    stand_pat_all(hand)
    opts = hand.options()
    assert opts is not None and (opts.raise_kind, opts.min_to) == ("bet", 2)
    check_around(hand)
    stand_pat_all(hand)
    opts = hand.options()
    assert opts is not None and (opts.min_to, opts.max_to) == (4, 4)


def test_pot_limit_seed_example_pot_100_bet_100_max_raise_to_400() -> None:
    rules = POT_LIMIT.with_options(small_blind=25, big_blind=50)
    hand = dealt(rules, {1: 1000, 2: 1000}, button=2)
    hand.call()  # the button completes: pot 100
    hand.check()
    stand_pat_all(hand)
    assert hand.pot_total == 100
    opts = hand.options()
    assert opts is not None and (opts.raise_kind, opts.min_to, opts.max_to) == ("bet", 50, 100)
    hand.bet(100)
    opts = hand.options()
    assert opts is not None and (opts.raise_kind, opts.call, opts.min_to, opts.max_to) == ("raise", 100, 200, 400)
    with pytest.raises(IllegalStep, match="pot limit"):
        hand.raise_to(401)
    hand.raise_to(400)


def test_pot_limit_pre_draw_max_raise() -> None:
    hand = dealt(POT_LIMIT, {1: 500, 2: 500, 3: 500}, button=3)
    opts = hand.options()
    assert opts is not None and (opts.min_to, opts.max_to) == (4, 7)  # call 2 then the pot of 5


def test_no_limit_minimum_raise_is_the_previous_raise() -> None:
    hand = dealt(NO_LIMIT, {1: 500, 2: 500, 3: 500, 4: 500}, button=4)
    opts = hand.options()
    assert opts is not None and (opts.min_to, opts.max_to) == (4, 500)
    hand.raise_to(6)  # a raise of 4
    opts = hand.options()
    assert opts is not None and opts.min_to == 10
    with pytest.raises(IllegalStep, match="no limit: the raise is to 10 to 500"):
        hand.raise_to(9)
    hand.raise_to(25)  # a raise of 19
    opts = hand.options()
    assert opts is not None and opts.min_to == 44


def test_no_limit_bet_after_draw_at_least_big_blind() -> None:
    hand = dealt(NO_LIMIT, {1: 500, 2: 500, 3: 500}, button=3)
    hand.call()
    hand.call()
    hand.check()
    stand_pat_all(hand)
    assert not hand.can_bet(1)
    hand.bet(5)
    opts = hand.options()
    assert opts is not None and opts.min_to == 10


def test_short_all_in_does_not_reopen_betting_for_seats_that_acted() -> None:
    hand = dealt(NO_LIMIT, {1: 500, 2: 17, 3: 500}, button=3)
    hand.call(3)
    hand.call(1)  # the small blind completes
    hand.check(2)
    stand_pat_all(hand)
    hand.bet(10, 1)
    step = hand.raise_to(15, 2)  # all-in: a raise of 5, short of the 10 bet
    assert step.all_in and not step.full
    opts = hand.options()
    assert opts is not None and opts.seat == 3 and opts.min_to == 25  # seat 3 has not acted: may raise
    hand.call(3)
    opts = hand.options()
    assert opts is not None and opts.seat == 1 and opts.call == 5
    assert opts.raise_kind is None and opts.why_no_raise is not None and "does not reopen" in opts.why_no_raise
    with pytest.raises(IllegalStep, match="short_all_in_rule"):
        hand.raise_to(40, 1)


def test_full_raise_after_seat_acted_reopens() -> None:
    hand = dealt(NO_LIMIT, {1: 500, 2: 500, 3: 500, 4: 47}, button=4)
    for _ in range(4):
        hand.check() if hand.can_check() else hand.call()
    stand_pat_all(hand)
    hand.bet(10, 1)
    hand.call(2)
    hand.raise_to(30, 3)
    hand.raise_to(45, 4)  # short re-raise (15 < 20)
    opts = hand.options()
    assert opts is not None and opts.seat == 1 and opts.raise_kind == "raise"  # faces 35 more than it bet


def test_fixed_limit_short_all_in_raise() -> None:
    hand = dealt(LIMIT, {1: 100, 2: 100, 3: 3}, button=3)
    step = hand.raise_to(3, 3)  # the button raises all-in by 1
    assert step.all_in and not step.full
    opts = hand.options()
    assert opts is not None and opts.seat == 1 and opts.min_to == 5


HALF_BET = HouseRules(short_all_in_rule="half_bet")


def _after_draw_2(rules: HouseRules, stacks: dict[int, int]) -> Hand:
    """Three seats, button 3, all calling 2 before the draw and checking after draw 1: the big-bet round (4)."""
    hand = dealt(rules, stacks, button=3)
    hand.call(3)
    hand.call(1)
    hand.check(2)
    stand_pat_all(hand)
    check_around(hand)
    stand_pat_all(hand)
    assert hand.round == 2 and hand.phase is Phase.BETTING
    return hand


@pytest.mark.parametrize(("rule", "complete_to"), [("full_raise", 5), ("half_bet", 4)])
def test_an_all_in_bet_of_less_than_half_a_bet_may_be_completed_under_the_half_bet_rule(
        rule: str, complete_to: int) -> None:
    """Seat 1 bets its last chip in a 4 round. Full-bet rule: the next raise is a full bet above it (to 5); half-bet
    rule (Robert's): seat 2 may complete it to a full bet (4), and the next raise is to 8."""
    hand = _after_draw_2(HouseRules(short_all_in_rule=rule), {1: 3, 2: 100, 3: 100})  # type: ignore[arg-type]
    hand.bet(1, 1)
    opts = hand.options()
    assert opts is not None and opts.seat == 2 and (opts.call, opts.min_to, opts.max_to) == (1, complete_to,
                                                                                             complete_to)
    assert hand.raise_to(complete_to, 2).full
    opts = hand.options()
    assert opts is not None and opts.min_to == complete_to + 4


def test_an_all_in_of_half_a_bet_or_more_reopens_the_betting_under_the_half_bet_rule() -> None:
    """Seat 1 checks, seat 2 bets all-in 2 in a 4 round, seat 3 calls. Under the half-bet rule that is a full bet:
    seat 1, which acted, may raise, a full bet above it (to 6). Under the full-bet rule it may only call."""
    for rules, reopened in ((HALF_BET, True), (LIMIT, False)):
        hand = _after_draw_2(rules, {1: 100, 2: 4, 3: 100})
        hand.check(1)
        hand.bet(2, 2)
        hand.call(3)
        opts = hand.options()
        assert opts is not None and opts.seat == 1 and opts.call == 2
        if reopened:
            assert (opts.raise_kind, opts.min_to) == ("raise", 6)
        else:
            assert opts.raise_kind is None and opts.why_no_raise is not None


def test_an_all_in_of_less_than_half_a_bet_is_no_raise_of_the_cap_under_the_half_bet_rule() -> None:
    """Bet 4, raises to 8 and 12, then seat 1 all-in to 13 (one chip over). Under the half-bet rule that is no raise:
    seat 2, facing 5 more, may make the round's last raise, a full raise above 12 (to 16). Under the full-bet rule it
    counted as the fourth: the round is capped."""
    for rules, capped in ((HALF_BET, False), (LIMIT, True)):
        hand = _after_draw_2(rules, {1: 15, 2: 100, 3: 100})
        hand.bet(4, 1)
        hand.raise_to(8, 2)
        hand.raise_to(12, 3)
        assert not hand.raise_to(13, 1).full
        opts = hand.options()
        assert opts is not None and opts.seat == 2 and opts.call == 5
        if capped:
            assert opts.raise_kind is None and opts.why_no_raise is not None and "capped" in opts.why_no_raise
        else:
            assert (opts.raise_kind, opts.min_to) == ("raise", 16)
            hand.raise_to(16, 2)
            opts = hand.options()
            assert opts is not None and opts.raise_kind is None and "capped" in (opts.why_no_raise or "")


def test_the_half_bet_rule_is_for_fixed_limit_only() -> None:
    """Pot and no limit keep the full-bet rule under the house option (Robert's: the half-the-size rule is for limit
    poker only): a short all-in raise does not reopen the betting for a seat that acted."""
    hand = dealt(HouseRules(betting="no_limit", short_all_in_rule="half_bet"), {1: 500, 2: 17, 3: 500}, button=3)
    hand.call(3)
    hand.call(1)
    hand.check(2)
    stand_pat_all(hand)
    hand.bet(10, 1)
    hand.raise_to(15, 2)
    hand.call(3)
    opts = hand.options()
    assert opts is not None and opts.seat == 1 and opts.raise_kind is None


# -- all-ins and pots ----------------------------------------------------------------------------

DECK_ORDER = "As 2h 3d 4c  Ks Qh Jd Tc  9s 8h 7d 6c  5s 4h 3c 2d"


def test_three_way_all_ins_make_two_side_pots() -> None:
    # Seats 1..4, button 4: deal order 1 2 3 4. Seat 1 gets A-2-3-4 (best), 2 a 9 badugi, 3 a K badugi,
    # 4 a two-card hand.
    cards = parse_cards("As 9s Ks Kh 2h 8h Qh Kd 3d 7d Jd Kc 4c 6c Tc Qs")
    hand = Hand(NO_LIMIT, {1: 20, 2: 50, 3: 100, 4: 100}, button=4, deck=cards)
    hand.post_all()
    hand.deal_all()
    hand.raise_to(100, 3)
    hand.call(4)
    hand.call(1)
    hand.call(2)
    assert [p.amount for p in hand.pots()] == [80, 90, 100]
    while hand.phase is Phase.DRAWING:
        stand_pat_all(hand)
    assert hand.phase is Phase.SHOWDOWN
    while hand.phase is Phase.SHOWDOWN:
        hand.show()
    step = hand.award()
    assert isinstance(step, Awarded)
    assert [(p.name, p.amount, p.eligible) for p in step.award.pots] == [
        ("main pot", 80, (1, 2, 3, 4)), ("side pot 1", 90, (2, 3, 4)), ("side pot 2", 100, (3, 4))]
    assert hand.stacks_by_seat() == {1: 80, 2: 90, 3: 100, 4: 0}


def test_everyone_folds_big_blind_wins_without_showing() -> None:
    hand = dealt(LIMIT, {1: 100, 2: 100, 3: 100}, button=3)
    hand.fold(3)
    hand.fold(1)
    assert hand.phase is Phase.AWARDING
    step = hand.award()
    assert step.uncontested and "without showing" in step.award.pots[0].shares[0].reason
    assert hand.stacks_by_seat() == {1: 99, 2: 101, 3: 100}


def test_uncalled_bet_is_returned() -> None:
    hand = dealt(NO_LIMIT, {1: 100, 2: 100}, button=2)
    hand.raise_to(60, 2)
    hand.fold(1)
    hand.award()
    assert hand.stacks_by_seat() == {1: 98, 2: 102}


# -- draws ---------------------------------------------------------------------------------------


def _to_first_draw(rules: HouseRules, **kw: object) -> Hand:
    hand = dealt(rules, {1: 100, 2: 100, 3: 100}, button=3, **kw)
    hand.call()
    hand.call()
    hand.check()
    assert hand.phase is Phase.DRAWING
    return hand


def test_sequential_draw_replaces_before_next_seat_declares() -> None:
    hand = _to_first_draw(LIMIT)
    assert hand.next_discarder == 1
    hand.discard(1, 2)
    assert hand.next_discarder is None and hand.next_card_seat == 1 and hand.owed_to(1) == 2
    with pytest.raises(IllegalStep, match="draw_procedure"):
        hand.discard(2, 1)
    with pytest.raises(IllegalStep, match="burn_before_draw"):
        hand.replace(1)
    hand.burn()
    hand.replace(1)
    with pytest.raises(IllegalStep, match="replacements out of order"):
        hand.replace(2)
    hand.replace(1)
    assert hand.next_discarder == 2


def test_discard_then_replace_all_declare_first() -> None:
    hand = _to_first_draw(LIMIT.with_options(draw_procedure="discard_then_replace"))
    hand.discard(1, 1)
    assert hand.next_card_seat is None
    with pytest.raises(IllegalStep, match="every seat declares before the dealer replaces"):
        hand.replace(1)
    hand.discard(2, 0)
    hand.discard(3, 2)
    hand.burn()
    assert [hand.replace().seat for _ in range(3)] == [1, 3, 3]
    assert hand.phase is Phase.BETTING


def test_no_burn_when_option_off() -> None:
    hand = _to_first_draw(LIMIT.with_options(burn_before_draw=False))
    hand.discard(1, 1)
    with pytest.raises(IllegalStep, match="burn_before_draw"):
        hand.burn()
    hand.replace(1)
    assert hand.stub_count == 52 - 12 - 1


def test_discard_faces_must_be_in_hand_and_never_come_back_this_round() -> None:
    hand = _to_first_draw(LIMIT, seed=5)
    mine = [c for c in hand.cards(1) if c is not None]
    other = [c for c in hand.cards(2) if c is not None]
    with pytest.raises(IllegalStep, match="not in seat 1's hand"):
        hand.discard(1, [other[0]])
    hand.discard(1, mine[:1])
    hand.burn()
    with pytest.raises(IllegalStep, match="never comes back"):
        hand.replace(1, mine[0])


def _reshuffle_hand(last_card_dealable: bool) -> Hand:
    """8 seats, 4 fold pre-draw; the 1st draw takes 16 cards, leaving 3; the 2nd needs a reshuffle."""
    rules = LIMIT.with_options(last_card_dealable=last_card_dealable)
    hand = dealt(rules, {s: 100 for s in range(1, 9)}, button=8, seed=11)
    for _ in range(4):
        hand.fold()
    while hand.phase is Phase.BETTING:
        hand.call() if hand.can_call() else hand.check()
    for _ in range(4):
        seat = hand.next_discarder
        assert seat is not None
        hand.discard(seat, list(hand.cards(seat)))
        if hand.burn_due:
            hand.burn()
        while hand.owed_to(seat):
            hand.replace(seat)
    check_around(hand)
    assert hand.stub_count == 3
    return hand


@pytest.mark.parametrize("last_card_dealable", [True, False])
def test_reshuffle_takes_burns_and_earlier_discards_not_this_rounds(last_card_dealable: bool) -> None:
    hand = _reshuffle_hand(last_card_dealable)
    seat = hand.next_discarder
    assert seat is not None
    discards = list(hand.cards(seat))
    hand.discard(seat, discards)
    hand.burn()
    given = 0
    while not hand.needs_reshuffle:
        hand.replace(seat)
        given += 1
    assert given == (2 if last_card_dealable else 1)
    assert not hand.can_replace(seat)
    step = hand.reshuffle()
    # Pool: 2 burns + 16 folded cards + 16 first-draw discards (+ the last stub card when not dealable).
    assert step.count == 34 + (0 if last_card_dealable else 1)
    assert step.last_card_included == (not last_card_dealable)
    assert hand.stub.known is not None and not set(discards) & set(hand.stub.known)
    while hand.owed_to(seat):
        hand.replace(seat)
    assert not set(discards) & set(hand.cards(seat))


def test_draw_larger_than_stub_and_reshuffle_is_refused() -> None:
    rules = LIMIT.with_options(burn_before_draw=False)
    hand = dealt(rules, {s: 100 for s in range(1, 11)}, button=10)  # 40 dealt, 12 left, nothing to reshuffle
    while hand.phase is Phase.BETTING:
        hand.call() if hand.can_call() else hand.check()
    hand.discard(1, 4)
    for _ in range(4):
        hand.replace(1)
    hand.discard(2, 4)
    for _ in range(4):
        hand.replace(2)
    hand.discard(3, 4)
    for _ in range(4):
        hand.replace(3)
    with pytest.raises(IllegalStep, match="only 0 more cards"):
        hand.discard(4, 1)
    hand.discard(4, 0)


# -- showdown ------------------------------------------------------------------------------------


def test_show_order_after_a_bet_last_aggressor_first() -> None:
    hand = dealt(LIMIT, {1: 100, 2: 100, 3: 100}, button=3, seed=3)
    hand.call()
    hand.call()
    hand.check()
    to_final_round(hand)
    stand_pat_all(hand)
    hand.check(1)
    hand.bet(4, 2)
    hand.call(3)
    hand.call(1)
    assert hand.next_shower == 2
    with pytest.raises(IllegalStep, match="show out of order"):
        hand.show(1)
    assert [hand.show().seat for _ in range(3)] == [2, 3, 1]


def _checked_down_three_handed() -> Hand:
    """Three seats, button 2, checked and stood pat to the showdown: seat 3 (first left of the button) shows first."""
    hand = dealt(LIMIT, {1: 100, 2: 100, 3: 100}, button=2, seed=3)
    hand.call()
    hand.call()
    hand.check()
    to_final_round(hand)
    stand_pat_all(hand)
    check_around(hand)
    return hand


def test_show_order_after_checks_first_left_of_button() -> None:
    hand = _checked_down_three_handed()
    assert hand.next_shower == 3
    assert [hand.show().seat for _ in range(3)] == [3, 1, 2]


def test_show_must_match_dealt_cards() -> None:
    cards = parse_cards("As Ks 9s 5s 2h Qh 8h 4h 3d Jd 7d 3c 4c Tc 6c 2d")
    hand = Hand(LIMIT, {1: 100, 2: 100}, button=2, deck=cards)
    hand.post_all()
    hand.deal_all()
    hand.call()
    hand.check()
    to_final_round(hand)
    stand_pat_all(hand)
    check_around(hand)
    seat = hand.next_shower
    assert seat == 1
    with pytest.raises(IllegalStep, match="was dealt to this seat"):
        hand.show(1, parse_cards("Ac 2c 3c 4c"))


def test_others_muck_and_the_last_hand_in_wins_unseen() -> None:
    hand = dealt(LIMIT, {1: 100, 2: 100}, button=2)
    hand.call()
    hand.check()
    to_final_round(hand)
    stand_pat_all(hand)
    check_around(hand)
    hand.muck(1)
    assert hand.phase is Phase.AWARDING
    step = hand.award()
    assert step.uncontested and hand.stacks_by_seat() == {1: 98, 2: 102}


def test_a_seat_may_muck_before_its_turn_and_the_last_hand_in_wins_unseen() -> None:
    """A player may concede at the showdown before the seat due to show first has shown: that hand is dead. Only
    with `out_of_turn`, which the show order alone forbids; when one hand is left it wins without showing, and the
    last hand in cannot muck."""
    hand = _checked_down_three_handed()
    assert hand.next_shower == 3
    with pytest.raises(IllegalStep, match="show out of order"):
        hand.muck(1)
    hand.muck(1, out_of_turn=True)
    assert hand.phase is Phase.SHOWDOWN and hand.next_shower == 3
    with pytest.raises(IllegalStep, match="only a seat still to show"):
        hand.muck(1, out_of_turn=True)
    hand.muck(2, out_of_turn=True)
    assert hand.phase is Phase.AWARDING
    step = hand.award()
    assert step.uncontested and hand.stacks_by_seat() == {1: 98, 2: 98, 3: 104}


def test_a_seat_alone_in_a_side_pot_cannot_muck_it_away() -> None:
    hand = dealt(NO_LIMIT, {1: 20, 2: 200, 3: 200}, button=3, seed=2)
    hand.call(3)
    hand.raise_to(20, 1)
    hand.call(2)
    hand.call(3)
    stand_pat_all(hand)
    hand.bet(50, 2)
    hand.call(3)
    stand_pat_all(hand)
    hand.bet(50, 2)
    hand.fold(3)
    while hand.phase is Phase.DRAWING:
        stand_pat_all(hand)
    assert hand.next_shower == 1
    hand.show()
    with pytest.raises(IllegalStep, match="cannot be mucked"):
        hand.muck(2)
    hand.show()
    step = hand.award()
    side = step.award.pots[1]
    assert (side.amount, side.eligible, side.shares[0].seat) == (100, (2,), 2)


def test_unknown_cards_through_to_showdown() -> None:
    hand = dealt(LIMIT, {1: 100, 2: 100}, button=2)
    hand.call()
    hand.check()
    hand.discard(1, 2)
    hand.burn()
    hand.replace(1, None)
    hand.replace(1, parse_card("Kd"))
    hand.discard(2, parse_cards("7h 8h"))
    hand.replace(2)
    hand.replace(2)
    check_around(hand)
    to_final_round(hand)
    stand_pat_all(hand)
    check_around(hand)
    with pytest.raises(IllegalStep, match="card Kd was dealt to this seat"):
        hand.show(1, parse_cards("Ac 2d 3h 4s"))
    with pytest.raises(IllegalStep, match="one place only"):
        hand.show(1, parse_cards("7h 2d 3h Kd"))
    hand.show(1, parse_cards("Ac 2d 3h Kd"))
    hand.show(2, parse_cards("As 2c 3d 4h"))
    step = hand.award()
    assert step.award.totals == {1: 0, 2: 4}


def test_badacey_splits_halves() -> None:
    rules = HouseRules.preset("badacey-no-limit-single")
    hand = dealt(rules, {1: 100, 2: 100}, button=2)
    hand.call()
    hand.check()
    stand_pat_all(hand)
    check_around(hand)
    hand.show(1, parse_cards("As 2s 3s 4s 5s"))  # the wheel: best low, a one-card badugi
    hand.show(2, parse_cards("Kc Qd Jh Ts 9c"))  # no low to speak of, a K-Q-J-T badugi
    step = hand.award()
    portions = sorted((sh.portion, sh.seat) for pot in step.award.pots for sh in pot.shares)
    assert portions == [("badugi", 2), ("low", 1)]
    assert hand.stacks_by_seat() == {1: 100, 2: 100}


# -- illegal steps change nothing and say why ----------------------------------------------------


def test_out_of_turn_and_wrong_kind_name_the_rule() -> None:
    hand = dealt(LIMIT, {1: 100, 2: 100, 3: 100}, button=3)
    before = hand.snapshot()
    with pytest.raises(IllegalStep, match="out of turn: seat 3 is to act"):
        hand.call(1)
    with pytest.raises(IllegalStep, match="there is a bet to call"):
        hand.check()
    with pytest.raises(IllegalStep, match="raise instead"):
        hand.bet(4)
    with pytest.raises(IllegalStep, match="not dealt in"):
        hand.fold(9)
    with pytest.raises(IllegalStep, match="no draw is under way"):
        hand.discard(3, 1)
    with pytest.raises(IllegalStep, match="pots are awarded after the showdown"):
        hand.award()
    assert hand.snapshot() == before


def test_house_option_named_in_message() -> None:
    hand = _to_first_draw(LIMIT)
    hand.discard(1, 1)
    with pytest.raises(IllegalStep) as info:
        hand.replace(1)
    assert info.value.option == "burn_before_draw"
    assert str(info.value).endswith("(house option burn_before_draw)")
