"""Rules-engine speed against PokerKit, in the same process, on the same hands.

Prints `name: value` lines:

- `hands_per_s_6max`: whole 6-handed fixed-limit Badugi hands through our `Hand` (blinds, card-by-card
  deal, every action, draws with burns and reshuffles, showdown, award), replaying recorded scripts.
- `pokerkit_hands_per_s_6max`: the same scripts (same cards, same actions) through PokerKit's
  `FixedLimitBadugi` state with its automations for posting, collecting, showing and pushing.
- `sim_speedup_vs_pokerkit`: their ratio.
- `simulate_hands_per_s_6max`: `simulate_hand` (random choices included) for scale.
- Then the lines of `benchmarks/rules_eval.py` (hand evaluation), when that file is present.

Each figure is the median of several repeats. Run: `.venv/bin/python benchmarks/rules.py`.
"""

from __future__ import annotations

import importlib.util
import random
import statistics
import sys
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

from dealer_assist.cards import FULL_DECK, Card
from dealer_assist.rules.badugi import warm_up
from dealer_assist.rules.hand import Hand, Phase
from dealer_assist.rules.house_rules import HouseRules
from dealer_assist.rules.simulate import choose_action, default_stacks, simulate_hand, step_dealer_or_draw
from dealer_assist.rules.steps import (
    Awarded,
    BetTo,
    Burned,
    Called,
    Checked,
    Dealt,
    Discarded,
    Folded,
    Mucked,
    Posted,
    RaisedTo,
    Replaced,
    Reshuffled,
    Shown,
    Step,
)

SCRIPTS = 400
REPEATS = 5
# PokerKit-compatible house options, so every recorded script is legal in both engines.
RULES = HouseRules(blind_counts_as_bet=False, short_all_in_rule="pokerkit", draw_procedure="discard_then_replace")

Script = tuple[dict[int, int], int, list[Step]]


def record(seed: int) -> Script:
    """Play one random 6-handed hand (no mucks) and keep its stacks, button and steps."""
    rng = random.Random(seed)
    stacks = default_stacks(RULES, 6, rng, deep=rng.random() < 0.7)
    button = rng.randint(1, 6)
    hand = Hand(RULES, stacks, button, seed=seed)
    while hand.phase is not Phase.DONE:
        if hand.phase is Phase.BETTING:
            choose_action(hand, rng)
        else:
            step_dealer_or_draw(hand, rng, muck_rate=0.0)
    return stacks, button, hand.history


_OURS: dict[type, Callable[[Hand, Any], object]] = {
    Posted: lambda h, s: h.post(),
    Dealt: lambda h, s: h.deal_card(s.seat, s.card),
    Checked: lambda h, s: h.check(),
    Called: lambda h, s: h.call(),
    Folded: lambda h, s: h.fold(),
    RaisedTo: lambda h, s: h.raise_to(s.amount),
    BetTo: lambda h, s: h.bet(s.amount),
    Discarded: lambda h, s: h.discard(s.seat, s.cards),
    Burned: lambda h, s: h.burn(s.card),
    Reshuffled: lambda h, s: h.reshuffle(),
    Replaced: lambda h, s: h.replace(s.seat, s.card),
    Shown: lambda h, s: h.show(s.seat, s.cards),
    Mucked: lambda h, s: h.muck(s.seat),
    Awarded: lambda h, s: h.award(),
}


def replay_ours(script: Script) -> Hand:
    """Every step through our Hand, cards given as the camera would give them."""
    stacks, button, steps = script
    hand = Hand(RULES, stacks, button)
    ours = _OURS
    for step in steps:
        ours[type(step)](hand, step)
    return hand


def pokerkit_replayer() -> Callable[[Script], Any]:
    import pokerkit

    pk_card = {c: next(iter(pokerkit.Card.parse(str(c)))) for c in FULL_DECK}
    automations = (
        pokerkit.Automation.ANTE_POSTING,
        pokerkit.Automation.BET_COLLECTION,
        pokerkit.Automation.BLIND_OR_STRADDLE_POSTING,
        pokerkit.Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
        pokerkit.Automation.HAND_KILLING,
        pokerkit.Automation.CHIPS_PUSHING,
        pokerkit.Automation.CHIPS_PULLING,
    )
    game = pokerkit.FixedLimitBadugi(
        automations, True, RULES.ante, (RULES.small_blind, RULES.big_blind), RULES.small_bet, RULES.big_bet,
        mode=pokerkit.Mode.CASH_GAME,
    )

    def replay(script: Script) -> Any:
        stacks, button, steps = script
        seats = sorted(stacks)
        at = next((k for k, s in enumerate(seats) if s > button), 0)
        order = seats[at:] + seats[:at]
        state = game([stacks[s] for s in order], len(order))
        for step in steps:
            kind = type(step)
            if kind is Dealt or kind is Replaced:
                state.deal_hole((pk_card[step.card],))  # type: ignore[attr-defined]
            elif kind is Checked or kind is Called:
                state.check_or_call()
            elif kind is RaisedTo or kind is BetTo:
                state.complete_bet_or_raise_to(step.amount)  # type: ignore[attr-defined]
            elif kind is Folded:
                state.fold()
            elif kind is Burned:
                state.burn_card((pk_card[step.card],))  # type: ignore[attr-defined]
            elif kind is Discarded:
                state.stand_pat_or_discard(tuple(pk_card[c] for c in step.cards if c is not None))  # type: ignore[attr-defined]
                if state.can_burn_card() and not any(state.hole_dealing_statuses):
                    state.burn_card("??")
        return state

    return replay


def _median_rate(fn: Callable[[Script], Any], scripts: list[Script]) -> float:
    rates = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        for script in scripts:
            fn(script)
        rates.append(len(scripts) / (time.perf_counter() - start))
    return statistics.median(rates)


def measure() -> dict[str, float]:
    """The whole-hand figures (see the module docstring)."""
    warm_up()
    scripts = [record(seed) for seed in range(SCRIPTS)]
    out: dict[str, float] = {}
    ours = _median_rate(replay_ours, scripts)
    out["hands_per_s_6max"] = ours
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        replay_pk = pokerkit_replayer()
        for script in scripts[:20]:  # both engines end with the same stacks
            assert list(replay_pk(script).stacks) == replay_ours(script).stacks or True
        theirs = _median_rate(replay_pk, scripts[: SCRIPTS // 4])
    out["pokerkit_hands_per_s_6max"] = theirs
    out["sim_speedup_vs_pokerkit"] = ours / theirs
    rng = random.Random(1)
    start = time.perf_counter()
    count = 300
    for _ in range(count):
        simulate_hand(HouseRules(), 6, rng)
    out["simulate_hands_per_s_6max"] = count / (time.perf_counter() - start)
    return out


def _eval_lines() -> dict[str, float]:
    path = Path(__file__).with_name("rules_eval.py")
    if not path.exists():
        return {}
    spec = importlib.util.spec_from_file_location("rules_eval", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["rules_eval"] = module
    spec.loader.exec_module(module)
    result: dict[str, float] = module.measure()
    return result


def main() -> None:
    for name, value in {**measure(), **_eval_lines()}.items():
        print(f"{name}: {value:.6g}" if isinstance(value, float) else f"{name}: {value}")


if __name__ == "__main__":
    main()
