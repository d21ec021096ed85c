"""Review 30 of the referee: scripted streams that once made it say the wrong thing (see each test)."""

from __future__ import annotations

from referee_script import Script

from dealer_assist.audit.records import FlagKind
from dealer_assist.audit.referee import Referee
from dealer_assist.audit.sink import RecordingSink
from dealer_assist.audit.table import TableConfig
from dealer_assist.rules.house_rules import HouseRules


def table(rules: HouseRules, stacks: dict[int, int], button: int) -> TableConfig:
    return TableConfig.make(rules, stacks, button=button)


def run(script: Script, config: TableConfig) -> Referee:
    referee = Referee(config, RecordingSink())
    referee.feed_all(script.items)
    return referee


# -- a draw that opens on an empty stub -----------------------------------------------------------------


def empty_stub_at_draw_2() -> tuple[Script, TableConfig]:
    """Six-handed triple-draw Badacey: 30 cards dealt, the burn and 21 replacements in draw 1 empty the stub, so
    draw 2 opens with its burn due and no stub: the burns and draw 1's discards must be reshuffled first (004)."""
    rules = HouseRules.preset("badacey-limit-triple").with_options(draw_procedure="sequential")
    order = (1, 2, 3, 4, 5, 6)
    s = Script().deal_all(order, size=5)
    s.act(3, "call").act(4, "call").act(5, "call").act(6, "call").act(1, "call").act(2, "check")
    for seat, n in zip(order, (5, 5, 5, 5, 1, 0), strict=True):
        s.draw(seat, n)
    for seat in order:
        s.act(seat, "check")
    return s, table(rules, dict.fromkeys(order, 500), 6)


def test_a_draw_opening_on_an_empty_stub_prompts_the_reshuffle_before_the_burn() -> None:
    s, config = empty_stub_at_draw_2()
    referee = run(s.discard(1, 2), config)
    p = referee.prompt
    assert p.stub_count == 0 and p.reshuffle_needed and p.replacements_owed == {1: 2}
    # The stub is empty: no card can be burned before the reshuffle.
    assert p.message.index("reshuffle") < p.message.index("burn")


def test_a_draw_opening_on_an_empty_stub_is_refereed_through_the_reshuffle() -> None:
    s, config = empty_stub_at_draw_2()
    s.discard(1, 2).replace(1, 2)
    referee = run(s, config)            # raised IllegalStep (the burn from an empty stub) before the fix
    assert referee.flags == []
    p = referee.prompt
    assert p.phase == "drawing" and p.message.startswith("draw 2: seat 2")
    # 1 burn of draw 1 + 21 discards of draw 1 reshuffled, 1 burned, 2 dealt
    assert p.stub_count == 22 - 1 - 2


# -- discard then replace: the prompt follows the discards seen ----------------------------------------------


def test_discard_then_replace_prompt_follows_the_discards_before_the_first_replacement() -> None:
    rules = HouseRules.preset("badacey-limit-triple")
    assert rules.draw_procedure == "discard_then_replace"
    config = table(rules, dict.fromkeys((1, 2, 3, 4), 200), 4)
    s = Script().deal_all((1, 2, 3, 4), size=5)
    s.act(3, "call").act(4, "call").act(1, "call").act(2, "check")
    p = run(s, config).prompt
    assert p.message == "draw 1: seat 1 to discard (or stand pat)" and p.replacements_owed == {}
    s.discard(1, 2)
    p = run(s, config).prompt
    assert p.message == "draw 1: seat 2 to discard (or stand pat)"
    assert p.replacements_owed == {1: 2} and p.next_card_seat is None
    s.discard(2, 1).discard(3, 1).discard(4, 3)
    p = run(s, config).prompt
    assert p.replacements_owed == {1: 2, 2: 1, 3: 1, 4: 3}
    assert p.next_card_seat == 1 and "burn" in p.message and "seat 1 is owed 2" in p.message
    s.replace(1, 2).replace(2).replace(3).replace(4, 3)
    referee = run(s, config)
    assert referee.flags == [] and referee.prompt.actor == 1


# -- the house option an illegal action names -----------------------------------------------------------------


def test_a_check_facing_a_bet_names_no_house_option() -> None:
    config = table(HouseRules.preset("badugi-limit"), dict.fromkeys((1, 2, 3), 100), 3)
    referee = run(Script().deal_all((1, 2, 3)).act(3, "check"), config)
    [flag] = referee.flags
    assert flag.kind is FlagKind.ILLEGAL_ACTION and flag.seat == 3
    assert flag.option is None          # was bets_per_round_cap: no cap was involved


def test_a_raise_with_no_one_to_bet_against_does_not_name_the_short_all_in_rule() -> None:
    config = table(HouseRules.preset("badugi-no-limit"), {1: 100, 2: 100, 3: 20}, 3)
    s = Script().deal_all((1, 2, 3)).act(3, "raise", 20).act(1, "fold")
    referee = run(s, config)
    assert referee.prompt.actor == 2 and "no one to bet against" in referee.prompt.message
    referee = run(s.act(2, "raise", 40), config)
    [flag] = referee.flags
    assert flag.kind is FlagKind.ILLEGAL_ACTION and flag.seat == 2
    assert flag.option is None          # was short_all_in_rule: seat 3 is all-in for more than a full raise


def test_a_raise_past_the_cap_names_the_cap() -> None:
    config = table(HouseRules.preset("badugi-limit"), dict.fromkeys((1, 2, 3), 100), 3)
    s = Script().deal_all((1, 2, 3)).act(3, "raise", 4).act(1, "raise", 6).act(2, "raise", 8).act(3, "raise", 10)
    [flag] = run(s, config).flags
    assert flag.kind is FlagKind.ILLEGAL_ACTION and flag.option is not None and "bets_per_round_cap" in flag.option


# -- a fold entered in the middle of a draw -------------------------------------------------------------------


def test_a_fold_entered_mid_draw_stands_at_its_turn_and_does_not_end_the_draw() -> None:
    """Seat 3 folds (entered) while seat 1 still waits for its replacements: the draw went on. It used to close the
    draw there: seat 1 flagged short of 2 (an error that holds the award) and seat 2's draw read as draw 2."""
    config = table(HouseRules.preset("badugi-limit"), dict.fromkeys((1, 2, 3), 100), 3)
    s = Script().deal_all((1, 2, 3)).act(3, "call").act(1, "call").act(2, "check")
    s.discard(1, 2).act(3, "fold").replace(1, 2).draw(2, 1)
    referee = run(s, config)
    assert [(f.kind, f.seat) for f in referee.flags] == [(FlagKind.FOLD_OUT_OF_ORDER, 3)]
    assert referee.prompt.phase == "drawing" and referee.run is not None and referee.run.hand.draw == 1
    s.act(1, "check").act(2, "bet", 2).act(1, "call")
    referee = run(s, config)
    assert [(f.kind, f.seat) for f in referee.flags] == [(FlagKind.FOLD_OUT_OF_ORDER, 3)]
    assert referee.run is not None and referee.run.hand.in_hand() == (1, 2)
    assert referee.prompt.message == "draw 2: seat 1 to discard (or stand pat)"

