"""Awards at showdown: pots, Badacey halves, ties, odd chips by both rules, reasons, bad input."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dealer_assist.cards import FULL_DECK, SUITS, Card, parse_cards
from dealer_assist.errors import DealerAssistError
from dealer_assist.rules import evaluate_a5, evaluate_badugi
from dealer_assist.rules.awards import (
    Award,
    AwardError,
    AwardUndetermined,
    award_pots,
    award_sentences,
    clockwise_from_button,
)


def h(text: str) -> tuple[Card, ...]:
    return parse_cards(text)


def shares(award: Award) -> list[tuple[str, int, str, int, int]]:
    """(pot name, seat, portion, amount, odd chips) for every share."""
    return [(p.name, s.seat, s.portion, s.amount, s.odd_chips) for p in award.pots for s in p.shares]


def test_badugi_single_winner_takes_the_pot() -> None:
    award = award_pots(
        game="badugi", contributions={1: 20, 2: 20, 3: 20},
        hands={1: h("8c 7d 2h As"), 2: h("Kc Qd Jh Ts"), 3: None}, button=3, seat_order=[1, 2, 3],
    )
    assert shares(award) == [("main pot", 1, "whole", 60, 0)]
    assert award.totals == {1: 60, 2: 0, 3: 0}
    share = award.pots[0].shares[0]
    assert share.hand is not None and share.hand.name == "8-7-2-A badugi"
    assert "8-7-2-A badugi" in share.reason
    assert any("Seat 1 wins the main pot, 60 chips, with 8-7-2-A badugi" in s for s in award.pots[0].explanation)


def test_four_card_badugi_beats_three_card_hand() -> None:
    # 002 K(iii)(a): T-J-Q-K of four suits beats A-2-3 with the fourth card pairing.
    award = award_pots(
        game="badugi", contributions={1: 10, 2: 10},
        hands={1: h("Tc Jd Qh Ks"), 2: h("Ac 2d 3h 3s")}, button=2, seat_order=[1, 2],
    )
    assert award.totals == {1: 20, 2: 0}


def test_uncontested_pot_has_no_showdown() -> None:
    award = award_pots(
        game="badugi", contributions={1: 60, 2: 20, 3: 20},
        hands={1: h("Kc Kd Kh Ks"), 2: None, 3: None}, button=1, seat_order=[1, 2, 3],
    )
    assert award.returned == {1: 40}
    assert award.totals == {1: 100, 2: 0, 3: 0}
    share = award.pots[0].shares[0]
    assert share.hand is None and "without a showdown" in share.reason
    assert award_sentences(award)[0] == "Seat 1 takes back 40 chips uncalled."


def test_side_pots_awarded_only_among_eligible() -> None:
    # Seat 1 (best hand) is all-in for 50; seats 2 and 3 play on to 200; seat 4 folded after 10.
    award = award_pots(
        game="badugi", contributions={1: 50, 2: 200, 3: 200, 4: 10},
        hands={1: h("Ac 2d 3h 4s"), 2: h("8c 7d 2h 5s"), 3: h("9d 6c 3s 5h"), 4: None},
        button=4, seat_order=[1, 2, 3, 4],
    )
    assert [(p.name, p.amount, p.eligible) for p in award.pots] == [
        ("main pot", 160, (1, 2, 3)), ("side pot 1", 300, (2, 3)),
    ]
    assert award.totals == {1: 160, 2: 300, 3: 0, 4: 0}


def test_badugi_tie_odd_chip_clockwise_from_button() -> None:
    # 25 chips, two tied badugis: 12 each, the odd chip to the first tied winner left of the button.
    hands = {2: h("Ac 2d 3h 4s"), 5: h("As 2h 3d 4c"), 7: h("Kc Kd Kh Ks")}
    award = award_pots(
        game="badugi", contributions={2: 5, 5: 10, 7: 10}, hands=hands, button=4, seat_order=[2, 5, 7],
    )
    # Main pot 15 (seats 2, 5, 7): 7 + 1 odd to seat 5 (first clockwise from button 4), 7 to seat 2.
    # Side pot 10 (seats 5, 7): seat 5 wins.
    assert shares(award) == [
        ("main pot", 5, "whole", 8, 1), ("main pot", 2, "whole", 7, 0), ("side pot 1", 5, "whole", 10, 0),
    ]
    odd_share = award.pots[0].shares[0]
    assert "tie" in odd_share.reason and "clockwise_from_button" in odd_share.reason


def test_clockwise_wraps_past_the_highest_seat() -> None:
    assert clockwise_from_button(7, [2, 5, 7]) == (2, 5, 7)
    assert clockwise_from_button(5, [2, 5, 7]) == (7, 2, 5)
    assert clockwise_from_button(6, [2, 5, 7]) == (7, 2, 5)  # a dead button on an empty seat
    assert clockwise_from_button(9, [2, 5, 7]) == (2, 5, 7)


def test_badugi_tie_odd_chip_high_card_by_suit() -> None:
    hands = {1: h("Ac 2d 3h 4s"), 2: h("As 2h 3d 4c"), 3: h("Ah 2c 3s 4d")}
    award = award_pots(
        game="badugi", contributions={1: 10, 2: 10, 3: 10}, hands=hands, button=1, seat_order=[1, 2, 3],
        chip_unit=1, odd_chip_rule="high_card_by_suit",
    )
    # 30 / 3 = 10 each, no odd chip.
    assert award.totals == {1: 10, 2: 10, 3: 10}
    award = award_pots(
        game="badugi", contributions={1: 11, 2: 10, 3: 11}, hands=hands, button=1, seat_order=[1, 2, 3],
        odd_chip_rule="high_card_by_suit",
    )
    # Main pot 30 split evenly; side pot 2 between seats 1 (4s) and 3 (4d): one each.
    assert award.totals == {1: 11, 2: 10, 3: 11}
    award = award_pots(
        game="badugi", contributions={1: 11, 2: 11, 3: 10}, hands=hands, button=1, seat_order=[1, 2, 3],
        odd_chip_rule="high_card_by_suit",
    )
    # Main pot 30 even; side pot 2 between seats 1 (4s) and 2 (4c): 1 each.
    assert award.totals == {1: 11, 2: 11, 3: 10}


def test_high_card_by_suit_multi_unit_remainder_is_ordered() -> None:
    # Four tied badugis and a folded seat: 15 units of 7, so 3 each and 3 odd units, one each to the
    # holders of the 4s, 4h and 4d in that order (not the 4c).
    hands = {1: h("Ac 2d 3h 4s"), 2: h("As 2h 3d 4c"), 3: h("Ah 2c 3s 4d"), 4: h("Ad 2s 3c 4h"), 5: None}
    contributions = {1: 21, 2: 21, 3: 21, 4: 21, 5: 21}
    award = award_pots(
        game="badugi", contributions=contributions, hands=hands, button=2, seat_order=[1, 2, 3, 4, 5],
        chip_unit=7, odd_chip_rule="high_card_by_suit",
    )
    got = {s.seat: (s.amount, s.odd_chips) for s in award.pots[0].shares}
    assert got == {1: (28, 7), 4: (28, 7), 3: (28, 7), 2: (21, 0)}
    top = next(s for s in award.pots[0].shares if s.seat == 1)
    assert "high_card_by_suit" in top.reason and "4s" in top.reason
    # Clockwise from button 2 instead: seats 3, 4, 1 get the odd units, seat 2 does not.
    award = award_pots(
        game="badugi", contributions=contributions, hands=hands, button=2, seat_order=[1, 2, 3, 4, 5],
        chip_unit=7,
    )
    assert {s.seat: s.odd_chips for s in award.pots[0].shares} == {3: 7, 4: 7, 1: 7, 2: 0}


def test_high_card_by_suit_ranks_king_above_queen() -> None:
    # Two tied K-Q-J-T-9 lows: the Kh outranks the Kc by suit.
    hands = {1: h("Kc Qd Jh Ts 9c"), 2: h("Kh Qc Js Td 9s")}
    award = award_pots(
        game="badacey", contributions={1: 3, 2: 3}, hands=hands, button=2, seat_order=[1, 2],
        odd_chip_rule="high_card_by_suit",
    )
    low = [s for s in award.pots[0].shares if s.portion == "low"]
    # 6 chips halve to 3 low + 3 Badugi; the low half ties: 1 each + 1 odd to the Kh holder (seat 2).
    assert {s.seat: (s.amount, s.odd_chips) for s in low} == {1: (1, 0), 2: (2, 1)}


def test_badacey_halves_and_scoop() -> None:
    award = award_pots(
        game="badacey", contributions={1: 50, 2: 50},
        hands={1: h("Ac 2d 3h 4s 5c"), 2: h("Kc Kd Qh Js 9s")}, button=2, seat_order=[1, 2],
    )
    assert shares(award) == [("main pot", 1, "low", 50, 0), ("main pot", 1, "badugi", 50, 0)]
    assert award.totals == {1: 100, 2: 0}
    assert any("scoops" in s for s in award.pots[0].explanation)


def test_badacey_odd_chip_of_halving_goes_to_low_half() -> None:
    award = award_pots(
        game="badacey", contributions={1: 25, 2: 25, 3: 5}, chip_unit=5,
        hands={1: h("7c 6d 5h 4s 2c"), 2: h("Ah 2h 3h 4h Kd"), 3: None}, button=3, seat_order=[1, 2, 3],
    )
    # 55 chips = 11 units: 6 units (30) to the A-5 half, 5 units (25) to the Badugi half.
    assert shares(award) == [("main pot", 1, "low", 30, 5), ("main pot", 1, "badugi", 25, 0)]
    # Seat 1's 7-6-5-4-2 low beats K-4-3-2-A; its 6-5-4-2 badugi beats a two-card K-A: seat 1 scoops.
    low = award.pots[0].shares[0]
    assert "A-5 half" in low.reason


def test_badacey_split_halves_between_different_players() -> None:
    # Seat 1: wheel low, but only a two-card Badugi. Seat 2: worse low, four-card badugi.
    award = award_pots(
        game="badacey", contributions={1: 101, 2: 101},
        hands={1: h("Ac 2c 3c 4c 5d"), 2: h("Ad 2h 3s 4d 6c")}, button=1, seat_order=[1, 2],
    )
    assert shares(award) == [("main pot", 1, "low", 101, 0), ("main pot", 2, "badugi", 101, 0)]
    award = award_pots(
        game="badacey", contributions={1: 101, 2: 100},
        hands={1: h("Ac 2c 3c 4c 5d"), 2: h("Ad 2h 3s 4d 6c")}, button=1, seat_order=[1, 2],
    )
    # 1 uncalled chip returned; 200 in the pot.
    assert award.returned == {1: 1}
    assert award.totals == {1: 101, 2: 100}


def test_badacey_odd_chip_when_halving_then_splitting_the_low_half() -> None:
    # 7 chips: 4 low, 3 Badugi. Seats 1 and 2 tie the low (wheels); seat 3 wins the Badugi.
    hands = {1: h("Ac 2c 3c 4c 5c"), 2: h("Ad 2d 3d 4d 5d"), 3: h("As 2h 3s 4h Kh")}
    award = award_pots(
        game="badacey", contributions={1: 3, 2: 2, 3: 2}, hands=hands, button=1, seat_order=[1, 2, 3],
    )
    # Uncalled: seat 1's 1 extra chip. Pot 6: 3 low (seats 1 and 2 tie: 2 to seat 2, first left of
    # button, 1 to seat 1), 3 Badugi. Seat 3's best Badugi is three-card (3s 4h and A? As 2h 4h...).
    assert award.returned == {1: 1}
    low = {s.seat: (s.amount, s.odd_chips) for s in award.pots[0].shares if s.portion == "low"}
    assert low == {2: (2, 1), 1: (1, 0)}
    assert sum(s.amount for s in award.pots[0].shares) == 6


def test_badacey_single_eligible_side_pot_has_no_halves() -> None:
    award = award_pots(
        game="badacey", contributions={1: 10, 2: 30, 3: 30},
        hands={1: h("Ac 2d 3h 4s 5c"), 2: h("Kc Kd Qh Js 9s"), 3: None}, button=3, seat_order=[1, 2, 3],
    )
    # Main pot 30 (seats 1, 2): seat 1 scoops. Side pot 40 (seat 2 only; seat 3 folded): to seat 2 whole.
    assert shares(award) == [
        ("main pot", 1, "low", 15, 0), ("main pot", 1, "badugi", 15, 0), ("side pot 1", 2, "whole", 40, 0),
    ]


def test_award_conserves_chips_and_lists_every_seat() -> None:
    award = award_pots(
        game="badacey", contributions={1: 7, 2: 13, 3: 13, 4: 0},
        hands={1: h("Ac 2d 3h 4s 5c"), 2: h("Ad 2c 3s 4h 5d"), 3: h("Kc Kd Qh Js 9s"), 4: None},
        button=1, seat_order=[1, 2, 3, 4],
    )
    assert set(award.totals) == {1, 2, 3, 4}
    assert sum(award.totals.values()) == 33


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"chip_unit": 5}, "not a multiple of the chip unit"),
        ({"odd_chip_rule": "random"}, "unknown odd-chip rule"),
        ({"hands": {1: h("Ac 2d 3h 4s"), 2: h("Kc Qd Jh Ts")}}, "a badacey hand has 5"),
        ({"hands": {1: h("Ac 2d 3h 4s 5c"), 2: h("Ac Qd Jh Ts 9s")}}, "seat 1's hand too"),
        ({"hands": {1: ["Ac", "Ac", "3h", "4s", "5c"], 2: h("Kc Qd Jh Ts 9s")}}, "twice in its hand"),
        ({"hands": {1: h("Ac 2d 3h 4s 5c")}}, "seat 2 put 11 chips in but has no hand"),
        ({"seat_order": [1, 3]}, "not in the seat order"),
        ({"chip_unit": 0}, "chip unit must be a positive"),
    ],
)
def test_bad_input_is_one_line_error(kwargs: dict[str, object], message: str) -> None:
    args: dict[str, object] = {
        "game": "badacey", "contributions": {1: 11, 2: 11},
        "hands": {1: h("Ac 2d 3h 4s 5c"), 2: h("Kc Qd Jh Ts 9s")}, "button": 1, "seat_order": [1, 2],
    }
    args.update(kwargs)
    hands = args["hands"]
    assert isinstance(hands, dict)
    args["hands"] = {k: v if isinstance(v, tuple) else _loose(v) for k, v in hands.items()}
    with pytest.raises(DealerAssistError, match=message) as info:
        award_pots(**args)  # type: ignore[arg-type]
    assert "\n" not in str(info.value)


def _loose(cards: Sequence[str]) -> tuple[Card, ...]:
    """Parse without the duplicate check, to reach the award's own check."""
    return parse_cards(cards, unique=False)


def test_badugi_hand_needs_four_cards() -> None:
    with pytest.raises(DealerAssistError, match="a badugi hand has 4"):
        award_pots(game="badugi", contributions={1: 1, 2: 1}, hands={1: h("Ac 2d 3h"), 2: h("Kc Qd Jh Ts")},
                   button=1, seat_order=[1, 2])


@settings(max_examples=150, deadline=None)
@given(
    st.sampled_from(["badugi", "badacey"]),
    st.lists(st.tuples(st.integers(0, 40), st.booleans()), min_size=2, max_size=6),
    st.integers(1, 3),
    st.sampled_from(["clockwise_from_button", "high_card_by_suit"]),
    st.randoms(use_true_random=False),
)
def test_awards_sum_to_pots(
    game: str, seats: list[tuple[int, bool]], chip_unit: int, rule: str, rnd: object
) -> None:
    import random

    assert isinstance(rnd, random.Random)
    size = 4 if game == "badugi" else 5
    deck = list(FULL_DECK)
    rnd.shuffle(deck)
    contributions = {i + 1: units * chip_unit for i, (units, _) in enumerate(seats)}
    contributions[1] = max(contributions[1], chip_unit)  # seat 1 never folds: someone live is in the pot
    hands: dict[int, tuple[Card, ...] | None] = {}
    for i, (_, folded) in enumerate(seats):
        hands[i + 1] = None if folded and i > 0 else tuple(deck[i * size : (i + 1) * size])
    award = award_pots(
        game=game, contributions=contributions, hands=hands, button=rnd.randint(1, len(seats)),  # type: ignore[arg-type]
        seat_order=list(range(1, len(seats) + 1)), chip_unit=chip_unit, odd_chip_rule=rule,
    )
    assert sum(award.totals.values()) == sum(contributions.values())
    for pot in award.pots:
        assert sum(s.amount for s in pot.shares) == pot.amount
        assert all(s.amount % chip_unit == 0 for s in pot.shares)
        assert {s.seat for s in pot.shares} <= set(pot.eligible)
        assert all(hands[s] is not None for s in pot.eligible)


def test_high_card_by_suit_counts_any_card_that_can_play() -> None:
    # Seat 1 plays 3-2-A with the 3d or the 3s; seat 2 plays 3-2-A with the 3h. Seat 1's 3s is the
    # highest card that can play, so seat 1 gets the odd chip whichever three the table lists.
    hands = {1: h("Ac 2h 3d 3s"), 2: h("As 2d 3h Kh"), 3: None}
    award = award_pots(
        game="badugi", contributions={1: 1, 2: 1, 3: 1}, hands=hands, button=1, seat_order=[1, 2, 3],
        odd_chip_rule="high_card_by_suit",
    )
    assert {s.seat: (s.amount, s.odd_chips) for s in award.pots[0].shares} == {1: (2, 1), 2: (1, 0)}
    assert "3s" in next(s.reason for s in award.pots[0].shares if s.seat == 1)


def reference_totals(
    game: str, contributions: dict[int, int], hands: dict[int, tuple[Card, ...] | None],
    clockwise: tuple[int, ...], unit: int,
) -> dict[int, int]:
    """An independent model of the award (odd chips clockwise): pot boundaries at live seats' levels."""
    c = dict(contributions)
    totals = dict.fromkeys(c, 0)
    levels = [*sorted(c.values(), reverse=True), 0]
    top_seats = [s for s, v in c.items() if v == levels[0]]
    if len(top_seats) == 1 and levels[0] > levels[1]:
        totals[top_seats[0]] += levels[0] - levels[1]
        c[top_seats[0]] = levels[1]
    live = [s for s in c if hands[s] is not None]
    caps = sorted({c[s] for s in live if c[s] > 0})
    previous = 0
    for i, cap in enumerate(caps):
        upper = cap if i < len(caps) - 1 else max(c.values())
        amount = sum(min(v, upper) - min(v, previous) for v in c.values())
        previous = upper
        eligible = [s for s in clockwise if s in live and c[s] >= cap]
        if len(eligible) == 1:
            totals[eligible[0]] += amount
            continue
        units = amount // unit
        halves = [("badugi", units)] if game == "badugi" else [("a5", units - units // 2), ("badugi", units // 2)]
        for kind, half_units in halves:
            score = {
                s: (evaluate_a5 if kind == "a5" else evaluate_badugi)(hands[s] or ()).rank for s in eligible
            }
            winners = [s for s in eligible if score[s] == min(score.values())]
            for k, s in enumerate(winners):
                totals[s] += unit * (half_units // len(winners) + (1 if k < half_units % len(winners) else 0))
    return totals


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from(["badugi", "badacey"]),
    st.lists(st.tuples(st.integers(0, 12), st.booleans()), min_size=2, max_size=7),
    st.integers(1, 5),
    st.randoms(use_true_random=False),
)
def test_awards_match_an_independent_model(
    game: str, seats: list[tuple[int, bool]], unit: int, rnd: object
) -> None:
    import random

    assert isinstance(rnd, random.Random)
    size = 4 if game == "badugi" else 5
    deck = list(FULL_DECK)
    rnd.shuffle(deck)
    # Ties must be common: up to three seats get the first seat's hand with its suits rotated (the
    # same value), the others deal on from what is left.
    first = tuple({c.rank: c for c in reversed(deck)}.values())[:size]  # distinct ranks: copies never collide
    copies = [tuple(Card(c.rank, SUITS[(c.suit.order + k) % 4]) for c in first) for k in (1, 2, 3)]
    rest = [c for c in deck if all(c not in h for h in (first, *copies))]
    numbers = rnd.sample(range(1, 10), len(seats))
    contributions = {n: units * unit for n, (units, _) in zip(numbers, seats, strict=True)}
    contributions[numbers[0]] = max(contributions[numbers[0]], unit)
    hands: dict[int, tuple[Card, ...] | None] = {}
    for i, (n, (_, folded)) in enumerate(zip(numbers, seats, strict=True)):
        if folded and i > 0:
            hands[n] = None
        elif i == 0:
            hands[n] = first
        elif copies and rnd.random() < 0.6:
            hands[n] = copies.pop()
        else:
            hands[n], rest = tuple(rest[:size]), rest[size:]
    order = sorted(numbers)
    button = rnd.randint(1, 9)
    award = award_pots(
        game=game, contributions=contributions, hands=hands, button=button,  # type: ignore[arg-type]
        seat_order=order, chip_unit=unit,
    )
    expected = reference_totals(game, contributions, hands, clockwise_from_button(button, order), unit)
    assert dict(award.totals) == expected


def _totals_and_shares(award: Award) -> tuple[dict[int, int], list[tuple[int, int, str, int]]]:
    return dict(award.totals), [(s.seat, s.amount, s.portion, s.odd_chips) for p in award.pots for s in p.shares]


@settings(max_examples=150, deadline=None)
@given(
    game=st.sampled_from(["badugi", "badacey"]),
    seats=st.integers(min_value=2, max_value=5),
    stakes=st.lists(st.integers(min_value=1, max_value=9), min_size=5, max_size=5),
    order=st.permutations(range(52)),
    hidden=st.lists(st.tuples(st.integers(0, 4), st.integers(1, 3)), min_size=1, max_size=2),
    rule=st.sampled_from(["clockwise_from_button", "high_card_by_suit"]),
)
def test_an_award_made_around_unread_cards_is_the_award_of_every_card_they_could_be(
    game: str, seats: int, stakes: list[int], order: list[int], hidden: list[tuple[int, int]], rule: str
) -> None:
    """Some seats' hands read in part: when award_pots decides, its chips are those of the hands as dealt and of
    other cards the unread ones could be (undealt ones). Side pots (unequal stakes), ties and both odd-chip rules
    included."""
    size = 4 if game == "badugi" else 5
    deck = [FULL_DECK[i] for i in order]
    hands = {s + 1: tuple(deck[s * size:(s + 1) * size]) for s in range(seats)}
    contributions = {s + 1: stakes[s] * 2 for s in range(seats)}
    unread = {}
    for pick, n in hidden:
        unread[pick % seats + 1] = n
    partial = {s: cards[: size - unread.get(s, 0)] for s, cards in hands.items()}
    kwargs = dict(game=game, contributions=contributions, button=1, seat_order=sorted(hands), odd_chip_rule=rule)
    truth = award_pots(hands=hands, **kwargs)  # type: ignore[arg-type]
    rest = deck[seats * size:]
    try:
        award = award_pots(hands=partial, unread=unread, **kwargs)  # type: ignore[arg-type]
    except AwardUndetermined as exc:
        # held: only ever for a seat with unread cards (its bound is loose where another unread hand holds the card)
        assert unread.get(exc.seat) and "the award needs its cards read" in str(exc)
        return
    assert _totals_and_shares(award) == _totals_and_shares(truth)
    for more_by_seat in _some_completions(partial, unread, rest, size):
        filled = {s: partial[s] + more_by_seat.get(s, ()) for s in hands}
        assert _totals_and_shares(award_pots(hands=filled, **kwargs)) == _totals_and_shares(award)  # type: ignore[arg-type]


def _some_completions(partial: dict[int, tuple[Card, ...]], unread: dict[int, int], rest: list[Card],
                      size: int) -> list[dict[int, tuple[Card, ...]]]:
    """A few ways to fill the unread cards from the undealt ones (each seat's from its own slice)."""
    out = []
    for k in range(4):
        pool = rest[k * 3:] + rest[:k * 3]
        fill: dict[int, tuple[Card, ...]] = {}
        at = 0
        for s, n in sorted(unread.items()):
            fill[s] = tuple(pool[at:at + n])
            at += n
        out.append(fill)
    return out


def test_unread_cards_are_checked() -> None:
    """More unread cards than a hand has, or unread cards at a seat with no hand, are refused with a clear message."""
    kwargs = dict(game="badugi", contributions={1: 10, 2: 10}, button=1, seat_order=[1, 2])
    with pytest.raises(AwardError, match=r"seat 2 shows 3 cards .* and 2 unread; a badugi hand has 4"):
        award_pots(hands={1: h("Ac 2d 3h 4s"), 2: h("Kc Kd Kh")}, unread={2: 2}, **kwargs)  # type: ignore[arg-type]
    with pytest.raises(AwardError, match="seat 3 has 1 unread cards but no hand shown"):
        award_pots(hands={1: h("Ac 2d 3h 4s"), 2: h("Kc Kd Kh Ks")}, unread={3: 1}, **kwargs)  # type: ignore[arg-type]
    with pytest.raises(AwardUndetermined, match=r"4 cards unread \(at most 3 can be bounded"):
        award_pots(hands={1: h("Ac 2d 3h 4s"), 2: ()}, unread={2: 4}, **kwargs)  # type: ignore[arg-type]
