"""Rules-engine speed against PokerKit, in the same process, on the same hands.

Prints `name: value` lines:

- `hands_per_s_6max`: whole 6-handed fixed-limit Badugi hands through our `Hand` (blinds, card-by-card
  deal, every action, draws with burns and reshuffles, showdown, award), replaying recorded scripts.
- `pokerkit_hands_per_s_6max`: the same scripts (same cards, same actions) through PokerKit's
  `FixedLimitBadugi` state with its automations for posting, collecting, showing and pushing.
- `sim_speedup_vs_pokerkit`: their ratio.
- `simulate_hands_per_s_6max`: `simulate_hand` (random choices included) for scale.
- Then the lines of `benchmarks/rules_eval.py` (hand evaluation), when that file is present.

Rates are hands per second of process CPU time, the best of several repeats (the machine may be
shared). Both engines replay the same precompiled calls. Run: `.venv/bin/python benchmarks/rules.py`.
"""

from __future__ import annotations

import importlib.util
import random
import sys
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

from dealer_assist.cards import FULL_DECK
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

SCRIPTS = 300
REPEATS = 7
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


Call = tuple[Callable[..., Any], tuple[Any, ...]]
Compiled = tuple[dict[int, int], int, list[Call]]


def compile_ours(script: Script) -> Compiled:
    """The script as (Hand method, arguments) pairs: the calls a referee would make, cards given."""
    stacks, button, steps = script
    calls: list[Call] = []
    for step in steps:
        if isinstance(step, Posted):
            calls.append((Hand.post, ()))
        elif isinstance(step, Dealt):
            calls.append((Hand.deal_card, (step.seat, step.card)))
        elif isinstance(step, Checked):
            calls.append((Hand.check, ()))
        elif isinstance(step, Called):
            calls.append((Hand.call, ()))
        elif isinstance(step, Folded):
            calls.append((Hand.fold, ()))
        elif isinstance(step, RaisedTo):
            calls.append((Hand.raise_to, (step.amount,)))
        elif isinstance(step, BetTo):
            calls.append((Hand.bet, (step.amount,)))
        elif isinstance(step, Discarded):
            calls.append((Hand.discard, (step.seat, step.cards)))
        elif isinstance(step, Burned):
            calls.append((Hand.burn, (step.card,)))
        elif isinstance(step, Reshuffled):
            calls.append((Hand.reshuffle, ()))
        elif isinstance(step, Replaced):
            calls.append((Hand.replace, (step.seat, step.card)))
        elif isinstance(step, Shown):
            calls.append((Hand.show, (step.seat, step.cards)))
        elif isinstance(step, Mucked):
            calls.append((Hand.muck, (step.seat,)))
        elif isinstance(step, Awarded):
            calls.append((Hand.award, ()))
    return stacks, button, calls


def replay_ours(compiled: Compiled) -> Hand:
    """Every step through our Hand, from the blinds to the award."""
    stacks, button, calls = compiled
    hand = Hand(RULES, stacks, button)
    for fn, args in calls:
        fn(hand, *args)
    return hand


def pokerkit_engine() -> tuple[Callable[[Script], Compiled], Callable[[Compiled], Any]]:
    """A compiler of scripts into PokerKit State calls, and a replayer of them."""
    import pokerkit

    state_cls = pokerkit.State
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

    def compile_pk(script: Script) -> Compiled:
        stacks, button, steps = script
        calls: list[Call] = []
        drew: dict[int, bool] = {}
        last_discard: dict[int, int] = {}
        for step in steps:
            if isinstance(step, Dealt | Replaced):
                assert step.card is not None
                calls.append((state_cls.deal_hole, ((pk_card[step.card],),)))
            elif isinstance(step, Checked | Called):
                calls.append((state_cls.check_or_call, ()))
            elif isinstance(step, RaisedTo | BetTo):
                calls.append((state_cls.complete_bet_or_raise_to, (step.amount,)))
            elif isinstance(step, Folded):
                calls.append((state_cls.fold, ()))
            elif isinstance(step, Burned):
                assert step.card is not None
                calls.append((state_cls.burn_card, ((pk_card[step.card],),)))
            elif isinstance(step, Discarded):
                drew[step.draw] = drew.get(step.draw, False) or step.count > 0
                calls.append((state_cls.stand_pat_or_discard, (tuple(pk_card[c] for c in step.cards if c),)))
                last_discard[step.draw] = len(calls)
        # PokerKit burns a card in every draw; ours burns none when nobody draws.
        for draw in sorted(last_discard, reverse=True):
            if not drew[draw]:
                calls.insert(last_discard[draw], (state_cls.burn_card, ("??",)))
        return stacks, button, calls

    def replay(compiled: Compiled) -> Any:
        stacks, button, calls = compiled
        seats = sorted(stacks)
        at = next((k for k, s in enumerate(seats) if s > button), 0)
        order = seats[at:] + seats[:at]
        state = game([stacks[s] for s in order], len(order))
        for fn, args in calls:
            fn(state, *args)
        return state

    return compile_pk, replay


def _rate(fn: Callable[[Compiled], Any], scripts: list[Compiled]) -> float:
    """Hands per second of process CPU time for one pass over the scripts."""
    start = time.process_time()
    for script in scripts:
        fn(script)
    return len(scripts) / (time.process_time() - start)


def measure() -> dict[str, float]:
    """The whole-hand figures (see the module docstring)."""
    warm_up()
    scripts = [record(seed) for seed in range(SCRIPTS)]
    ours_scripts = [compile_ours(s) for s in scripts]
    out: dict[str, float] = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        compile_pk, replay_pk = pokerkit_engine()
        pk_scripts = [compile_pk(s) for s in scripts]
        for mine, theirs in zip(ours_scripts[:50], pk_scripts[:50], strict=True):
            assert list(replay_pk(theirs).stacks) == replay_ours(mine).stacks, "the engines disagree"
        # Alternate the engines so both see the same load; keep each one's best pass.
        ours = pk = 0.0
        for _ in range(REPEATS):
            ours = max(ours, _rate(replay_ours, ours_scripts))
            pk = max(pk, _rate(replay_pk, pk_scripts))
    out["hands_per_s_6max"] = ours
    out["pokerkit_hands_per_s_6max"] = pk
    out["sim_speedup_vs_pokerkit"] = ours / pk
    rng = random.Random(1)
    count = 300
    start = time.process_time()
    for _ in range(count):
        simulate_hand(HouseRules(), 6, rng)
    out["simulate_hands_per_s_6max"] = count / (time.process_time() - start)
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
