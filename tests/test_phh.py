"""PHH export and import: standard FB hands replay in PokerKit; every hand replays in our engine."""

from __future__ import annotations

import random
import warnings
from pathlib import Path

import pytest
import tomli_w

from dealer_assist.cards import parse_cards
from dealer_assist.rules import phh
from dealer_assist.rules.hand import Hand, Phase
from dealer_assist.rules.house_rules import PRESETS, HouseRules
from dealer_assist.rules.simulate import simulate_hand
from dealer_assist.rules.steps import IllegalStep
from dealer_assist.rules.story import hand_story


def _same_steps(a: Hand, b: Hand) -> None:
    assert b.stacks == a.stacks
    assert [s.kind for s in b.history] == [s.kind for s in a.history]


def test_fixed_limit_badugi_is_standard_and_pokerkit_replays_it() -> None:
    pokerkit = pytest.importorskip("pokerkit")
    rules = HouseRules.preset("badugi-limit")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for seed in range(300):
            hand = simulate_hand(rules, random.Random(seed).randint(2, 8), seed)
            text = phh.dumps(hand)
            assert 'variant = "FB"' in text and "finishing_stacks" in text
            history = pokerkit.HandHistory.loads(text)
            final = list(history)[-1]
            assert list(final.stacks) == hand.stacks, f"seed {seed}"
            assert history.finishing_stacks == hand.stacks


@pytest.mark.parametrize("preset", PRESETS)
def test_every_preset_round_trips(preset: str) -> None:
    rules = HouseRules.preset(preset)
    for seed in range(40):
        hand = simulate_hand(rules, 2 + seed % 7, seed)
        text = phh.dumps(hand)
        assert ('variant = "FB"' in text) == (preset == "badugi-limit")
        _same_steps(hand, phh.loads(text))


def test_custom_variant_fields() -> None:
    hand = simulate_hand(HouseRules.preset("badacey-no-limit-single"), 3, 1)
    data = phh.hand_to_phh(hand, hand=7)
    assert data["variant"] == "_DA" and data["_game"] == "badacey" and data["_betting"] == "no_limit"
    assert data["min_bet"] == 2 and data["_button"] == hand.button and data["seats"] == list(hand.seats)
    assert data["_house_rules"]["draw_procedure"] == "discard_then_replace"
    assert data["hand"] == 7


def test_file_round_trip_and_tampered_stacks(tmp_path: Path) -> None:
    hand = simulate_hand(HouseRules(), 4, 9)
    path = phh.dump(hand, tmp_path / "h.phh")
    _same_steps(hand, phh.load(path))
    text = path.read_text()
    start = text.index("finishing_stacks")
    line = text[start : text.index("]", start) + 1]
    bad = text.replace(line, "finishing_stacks = [" + ", ".join(["1"] * len(hand.seats)) + "]")
    with pytest.raises(phh.PHHError, match="differ from the replayed stacks"):
        phh.loads(bad)


def test_unknown_cards_export_as_question_marks() -> None:
    hand = Hand(HouseRules(), {1: 50, 2: 50}, button=2)
    hand.post_all()
    hand.deal_all()
    hand.fold()
    hand.award()
    text = phh.dumps(hand)
    assert "d dh p1 ????????" in text
    _same_steps(hand, phh.loads(text))


def test_illegal_action_in_file_is_refused() -> None:
    hand = simulate_hand(HouseRules(), 3, 2)
    data = phh.hand_to_phh(hand)
    k = next(i for i, a in enumerate(data["actions"]) if a.endswith(" cc") or a.endswith(" f"))
    data["actions"][k] = data["actions"][k].split()[0] + " cbr 999"
    with pytest.raises(IllegalStep, match=r"fixed limit: the (raise|bet) is to exactly"):
        phh.loads(tomli_w.dumps(data))


def _to_showdown_checked_and_pat(hand: Hand) -> None:
    """Post, deal, and play to the showdown with every seat checking or calling and standing pat."""
    hand.post_all()
    hand.deal_all()
    while hand.phase is not Phase.SHOWDOWN:
        if hand.options() is not None:
            hand.check() if hand.can_check() else hand.call()
        else:
            hand.discard(None, 0)


def test_a_hand_shown_with_unread_cards_exports_them_as_question_marks_and_replays() -> None:
    """A camera's showdown: seat 1's hand read whole, seat 2's with one card unread (it loses whatever that card
    is). The story says how many were unread, the PHH shows the card as ??, and it replays to the same award."""
    hand = Hand(HouseRules(), {1: 50, 2: 50}, button=2)
    _to_showdown_checked_and_pat(hand)
    shower = hand.next_shower
    other = 2 if shower == 1 else 1
    hand.show(shower, parse_cards("Ac 2d 3h 4s"))
    hand.show(other, parse_cards("Kc Kd Kh"), unread=1)
    step = hand.award()
    assert step.award.totals[shower] > 0 and step.award.totals[other] == 0
    assert f"Seat {other} shows Kc Kd Kh (1 more face up, unread)." in hand_story(hand)
    text = phh.dumps(hand)
    assert "KcKdKh??" in text
    again = phh.loads(text)
    _same_steps(hand, again)


def test_a_muck_before_the_first_show_exports_in_the_order_it_happened_and_replays() -> None:
    """Three seats check down; seat 1 gives up its hand before seat 3 (due to show first) has shown, then seat 2: the
    PHH lists the mucks as they happened, and loading it replays them (out of the show order) to the same award."""
    hand = Hand(HouseRules(), {1: 100, 2: 100, 3: 100}, button=2)
    _to_showdown_checked_and_pat(hand)
    assert hand.next_shower == 3
    hand.muck(1, out_of_turn=True)
    hand.muck(2, out_of_turn=True)
    step = hand.award()
    assert step.uncontested and step.award.totals[3] > 0
    text = phh.dumps(hand)
    actions = phh.hand_to_phh(hand)["actions"]
    # PHH players count from the button's left: seat 3 is p1 (its cards unknown here, so it has no line), seat 1 p2
    assert actions[-2:] == ["p2 sm", "p3 sm"] and not any(a.startswith("p1 sm") for a in actions)
    _same_steps(hand, phh.loads(text))
