"""HouseRules: defaults from HOUSE_RULES.md, presets, TOML round trips and one-line errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from dealer_assist.rules.house_rules import PRESETS, HouseRules, HouseRulesError


def test_defaults_are_the_house_rules_defaults() -> None:
    rules = HouseRules()
    assert (rules.game, rules.betting, rules.draws) == ("badugi", "fixed_limit", 3)
    assert rules.heads_up_button_small_blind and not rules.uncapped_heads_up
    assert rules.bets_per_round_cap == 4 and rules.blind_counts_as_bet
    assert rules.draw_procedure == "sequential" and rules.burn_before_draw and rules.last_card_dealable
    assert rules.odd_chip_rule == "clockwise_from_button" and rules.short_all_in_rule == "full_raise"
    assert HouseRules.preset("badugi-limit") == rules


@pytest.mark.parametrize("name", PRESETS)
def test_presets_load_and_round_trip(name: str) -> None:
    rules = HouseRules.preset(name)
    assert HouseRules.from_toml(rules.to_toml()) == rules
    assert name.split("-")[0] == rules.game


def test_preset_shapes() -> None:
    assert HouseRules.preset("badacey-no-limit-single").draws == 1
    assert HouseRules.preset("badacey-pot-limit-double").betting == "pot_limit"
    assert HouseRules.preset("badacey-limit-triple").hand_size == 5
    assert HouseRules.preset("badugi-no-limit").betting == "no_limit"


def test_bet_units() -> None:
    rules = HouseRules(small_bet=10, big_bet=20, small_blind=5, big_blind=10)
    assert [rules.bet_unit(r) for r in range(4)] == [10, 10, 20, 20]
    assert HouseRules(betting="no_limit").bet_unit(3) == 2


def test_from_file_with_preset_base(tmp_path: Path) -> None:
    path = tmp_path / "table.toml"
    path.write_text('preset = "badugi-pot-limit"\nsmall_blind = 5\nbig_blind = 10\nchip_unit = 5\n')
    rules = HouseRules.from_toml(path)
    assert (rules.betting, rules.big_blind, rules.chip_unit) == ("pot_limit", 10, 5)
    assert HouseRules.from_toml(str(path)) == rules


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("colour = 1", "unknown house rules key colour; accepted: game, betting, draws"),
        ('game = "holdem"', "game = 'holdem' is not accepted; accepted: badugi, badacey"),
        ("draws = 2", "accepted: 3"),
        ('game = "badacey"\ndraws = 4', "accepted: 1, 2 or 3"),
        ("burn_before_draw = 1", "accepted: true or false"),
        ("small_blind = 5", "accepted: 0 to the big blind (2)"),
        ("chip_unit = 0", "accepted: 1 or more"),
        ("chip_unit = 5", "accepted: a multiple of 5"),
        ('draw_procedure = "later"', "accepted: sequential, discard_then_replace"),
        ('odd_chip_rule = "random"', "accepted: clockwise_from_button, high_card_by_suit"),
        ("big_blind = 2.5", "a whole number"),
        ("= broken", "not valid TOML"),
        ('preset = "omaha"', "unknown preset 'omaha'"),
    ],
)
def test_bad_values_get_one_line_errors(text: str, message: str) -> None:
    with pytest.raises(HouseRulesError) as info:
        HouseRules.from_toml(text)
    assert message in str(info.value)
    assert "\n" not in str(info.value)


def test_with_options_checks_names() -> None:
    assert HouseRules().with_options(ante=1).ante == 1
    with pytest.raises(HouseRulesError, match="unknown house rules key burn"):
        HouseRules().with_options(burn=False)


def test_missing_file_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(HouseRulesError, match="cannot read house rules file"):
        HouseRules.from_toml(tmp_path / "none.toml")
    binary = tmp_path / "binary.toml"
    binary.write_bytes(b"game = \"badugi\"\n\xff\xfe")
    with pytest.raises(HouseRulesError, match="not UTF-8 text"):
        HouseRules.from_toml(binary)
