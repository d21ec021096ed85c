"""Properties of random legal hands (hypothesis): chips and cards are conserved, illegal steps change nothing."""

from __future__ import annotations

import random
from collections.abc import Callable

from hypothesis import given, settings
from hypothesis import strategies as st

from dealer_assist.cards import Card
from dealer_assist.rules.hand import Hand, Phase
from dealer_assist.rules.house_rules import PRESETS, HouseRules
from dealer_assist.rules.simulate import choose_action, default_stacks, step_dealer_or_draw
from dealer_assist.rules.steps import Awarded, Discarded, IllegalStep, Replaced

OPTION_SETS = [
    {},
    {"draw_procedure": "discard_then_replace"},
    {"burn_before_draw": False, "last_card_dealable": False},
    {"short_all_in_rule": "pokerkit", "blind_counts_as_bet": False},
    {"ante": 2, "uncapped_heads_up": True},
]


def check_cards(hand: Hand) -> None:
    """Every card is in exactly one place: a hand, the stub, the burns or the discards and mucks."""
    stub = hand.stub
    assert stub.known is not None
    places: list[Card | None] = [*stub.known, *stub.burns, *(c for c, _ in stub.used)]
    for cards in hand.hands:
        places.extend(cards)
    known = [c for c in places if c is not None]
    assert len(known) == len(set(known)) == 52
    assert stub.count == len(stub.known)


def check_chips(hand: Hand) -> None:
    assert all(s >= 0 for s in hand.stacks)
    assert sum(hand.stacks) + sum(hand.contributed) == sum(hand.starting) or hand.done


def try_illegal(hand: Hand, rng: random.Random) -> None:
    """Attempt a step that is probably illegal now; if it is refused, nothing may have changed."""
    before = hand.snapshot()
    seat = rng.choice((*hand.seats, 99))
    attempts: list[Callable[[], object]] = [
        lambda: hand.fold(seat),
        lambda: hand.check(seat),
        lambda: hand.call(seat),
        lambda: hand.bet(rng.randint(0, 50), seat),
        lambda: hand.raise_to(rng.randint(0, 500), seat),
        lambda: hand.discard(seat, rng.randint(0, 6)),
        lambda: hand.replace(seat),
        lambda: hand.burn(),
        lambda: hand.reshuffle(),
        lambda: hand.deal_card(seat),
        lambda: hand.post(seat),
        lambda: hand.muck(seat),
        lambda: hand.award(),
    ]
    attempt = rng.choice(attempts)
    hand.can_fold(seat), hand.can_check(seat), hand.can_call(seat), hand.can_replace(seat), hand.can_burn()
    assert hand.snapshot() == before, "a can_x query changed the hand"
    try:
        attempt()
    except IllegalStep:
        assert hand.snapshot() == before, "an illegal step changed the hand"
        return
    # The step was legal and applied; the hand must still be consistent.
    check_chips(hand)


@settings(max_examples=300, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    preset=st.sampled_from(PRESETS),
    options=st.sampled_from(OPTION_SETS),
    players=st.integers(2, 8),
)
def test_random_hands_keep_chips_and_cards(seed: int, preset: str, options: dict[str, object], players: int) -> None:
    rules = HouseRules.preset(preset).with_options(**options)
    rng = random.Random(seed)
    hand = Hand(rules, default_stacks(rules, players, rng), button=rng.randint(1, players), rng=rng, seed=seed)
    start = sum(hand.starting)
    discarded_this_draw: set[Card] = set()
    draw = 0
    while hand.phase is not Phase.DONE:
        if rng.random() < 0.3:
            try_illegal(hand, rng)
            continue
        if hand.phase is Phase.BETTING:
            choose_action(hand, rng)
        else:
            step_dealer_or_draw(hand, rng)
        step = hand.history[-1]
        if isinstance(step, Discarded | Replaced) and step.draw != draw:
            draw = step.draw
            discarded_this_draw.clear()
        if isinstance(step, Discarded):
            discarded_this_draw.update(c for c in step.cards if c is not None)
        elif isinstance(step, Replaced):
            assert step.card not in discarded_this_draw, "a discard came back in the same draw round"
        check_cards(hand)
        check_chips(hand)
    award = hand.history[-1]
    assert isinstance(award, Awarded)
    assert sum(award.award.totals.values()) == hand.pot_total
    assert sum(hand.stacks) == start
    for pot in award.award.pots:
        assert sum(share.amount for share in pot.shares) == pot.amount
