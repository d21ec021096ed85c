"""Random legal hands played to the end: for tests, benchmarks, the demo and synthetic tables."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from dealer_assist.rules.hand import Hand, Phase
from dealer_assist.rules.house_rules import HouseRules


def default_stacks(rules: HouseRules, players: int, rng: random.Random, *, deep: bool = False) -> dict[int, int]:
    """Seats 1..players with random stacks: mostly deep, some short enough to go all-in."""
    unit = rules.chip_unit
    big = rules.big_bet if rules.betting == "fixed_limit" else rules.big_blind
    stacks: dict[int, int] = {}
    for seat in range(1, players + 1):
        if deep or rng.random() < 0.6:
            chips = big * rng.randint(20, 60)
        else:
            chips = big * rng.randint(1, 12) + unit * rng.randint(0, 3)
        stacks[seat] = max(unit, chips - chips % unit)
    return stacks


def choose_action(hand: Hand, rng: random.Random) -> None:
    """Take one random legal betting action for the seat to act."""
    opts = hand.options()
    assert opts is not None
    r = rng.random()
    if opts.raise_kind is not None and r < 0.25:
        assert opts.min_to is not None and opts.max_to is not None
        low, high = opts.min_to, opts.max_to
        unit = hand.rules.chip_unit
        pick = rng.random()
        if pick < 0.15 or low == high:
            amount = high if pick < 0.15 else low
        else:
            amount = rng.randint(low // unit, high // unit) * unit
            amount = min(max(amount, low), high)
        if opts.raise_kind == "bet":
            hand.bet(amount)
        else:
            hand.raise_to(amount)
    elif opts.can_check:
        hand.check()
    elif r < 0.85:
        hand.call()
    else:
        hand.fold()


def step_dealer_or_draw(hand: Hand, rng: random.Random, *, muck_rate: float = 0.1) -> None:
    """Take the dealer's next step (post, deal, burn, reshuffle, replace), a random discard, show or muck."""
    phase = hand.phase
    if phase is Phase.POSTING:
        hand.post()
    elif phase is Phase.DEALING:
        hand.deal_card()
    elif phase is Phase.DRAWING:
        seat = hand.next_discarder
        if seat is not None:
            cards = [c for c in hand.cards(seat)]
            room = hand.supply() - sum(hand.owed) - (1 if hand.burn_owed and not hand.replaced_any else 0)
            count = min(rng.choice((0, 0, 1, 1, 2, 2, 3, 4, len(cards))), max(0, room))
            picked = rng.sample(cards, count)
            hand.discard(seat, picked)
        elif hand.needs_reshuffle:
            hand.reshuffle()
        elif hand.burn_due:
            hand.burn()
        else:
            hand.replace()
    elif phase is Phase.SHOWDOWN:
        if rng.random() < muck_rate and hand.can_muck():
            hand.muck()
        else:
            hand.show()
    elif phase is Phase.AWARDING:
        hand.award()
    else:  # pragma: no cover - betting is handled by choose_action
        raise AssertionError(phase)


def play_out(hand: Hand, rng: random.Random) -> Hand:
    """Play random legal steps until the hand is done."""
    while hand.phase is not Phase.DONE:
        if hand.phase is Phase.BETTING:
            choose_action(hand, rng)
        else:
            step_dealer_or_draw(hand, rng)
    return hand


def simulate_hand(
    rules: HouseRules,
    players: int | Mapping[int, int] = 6,
    seed: int | random.Random | None = None,
    *,
    button: int | None = None,
) -> Hand:
    """Play one random legal hand to the end; `players` is a count or seat -> stack map."""
    rng = seed if isinstance(seed, random.Random) else random.Random(seed)
    stacks = default_stacks(rules, players, rng) if isinstance(players, int) else dict(players)
    seats: Sequence[int] = sorted(stacks)
    if button is None:
        button = rng.choice(list(seats))
    hand = Hand(rules, stacks, button, rng=rng, deck=None, seed=rng.randrange(2**32))
    return play_out(hand, rng)
