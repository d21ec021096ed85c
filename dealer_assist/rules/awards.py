"""Who wins how much of each pot at showdown, and why (HOUSE_RULES.md "Pots, splits and odd chips").

Badugi: each pot goes to the best Badugi among its eligible seats. Badacey: each pot halves; the
odd unit of halving goes to the A-5 half; the low half goes to the best A-5 hand (all 5 cards),
the Badugi half to the best Badugi from any 4 of the 5. A pot with one eligible seat goes to it
without a showdown. Ties split in units of `chip_unit`; the units left over go one at a time to
the tied winners in the order the odd-chip rule gives:

- ``clockwise_from_button`` (default, seed 004): tied winners in clockwise order starting with
  the first seat left of the button.
- ``high_card_by_suit``: tied winners by their highest playing card, highest first. A card's
  height is its rank with the ace low (K highest), then its suit, spades > hearts > diamonds >
  clubs. Tied hands play the same ranks, so in practice the suit of their top card decides; the
  cards that play are the Badugi subset for a Badugi pot or half (where several subsets make the
  same hand, any card one of them uses), all five for the A-5 half. No two seats hold the same
  card, so the order is total. Several odd units go one each down that order.

A hand shown with some cards unread (the camera saw it turned up and read only some corners) can still be
awarded around: it is given the best value any other cards of the deck could make (cards read in other hands
included, in case one of those was misread), and when even that neither wins nor ties for a pot or half, the award
stands for every card it could hold. When it might win or tie, the award needs its
cards (`AwardUndetermined`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Literal, NamedTuple

import numpy as np

from dealer_assist.cards import FULL_DECK, Card, card_from_index, format_cards
from dealer_assist.errors import DealerAssistError
from dealer_assist.rules.badugi import badugi_class, evaluate_badugi, evaluate_badugi_batch
from dealer_assist.rules.hand_value import HandValue
from dealer_assist.rules.lowball import evaluate_a5, evaluate_a5_batch
from dealer_assist.rules.pots import Pot, build_pots
from dealer_assist.rules.stub import card_key

Game = Literal["badugi", "badacey"]
Portion = Literal["whole", "low", "badugi"]
ODD_CHIP_RULES = ("clockwise_from_button", "high_card_by_suit")
_HAND_SIZE = {"badugi": 4, "badacey": 5}
MAX_UNREAD = 3
"""Unread cards a shown hand may have for the award to be bounded: at 3, up to about 19,600 ways to fill them a seat,
ranked in one batch; with more, an unread hand could be nearly anything, and the floor reads it."""


class AwardError(DealerAssistError, ValueError):
    """Showdown input that cannot be awarded (bad chip unit, wrong hand size, repeated card...)."""


class AwardUndetermined(AwardError):
    """A hand shown with unread cards might win or tie for a pot or half: the award needs those cards read."""

    def __init__(self, seat: int, message: str) -> None:
        super().__init__(message)
        self.seat = seat


@dataclass(frozen=True, slots=True)
class Share:
    """Chips one seat receives from one pot or half. `odd_chips` counts chips given by an odd-chip rule."""

    seat: int
    amount: int
    portion: Portion
    hand: HandValue | None
    odd_chips: int
    reason: str


@dataclass(frozen=True, slots=True)
class PotAward:
    """One pot's award: index 0 is the main pot; `explanation` are sentences a dealer can read out."""

    index: int
    name: str
    amount: int
    eligible: tuple[int, ...]
    shares: tuple[Share, ...]
    explanation: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Award:
    """Every pot's award, the uncalled chips returned, and the chips each seat receives in all."""

    pots: tuple[PotAward, ...]
    returned: Mapping[int, int]
    totals: Mapping[int, int]


def pot_name(index: int) -> str:
    """ "main pot", "side pot 1", "side pot 2", ..."""
    return "main pot" if index == 0 else f"side pot {index}"


def chips(amount: int) -> str:
    """ "1 chip", "250 chips"."""
    return f"{amount} chip" if amount == 1 else f"{amount} chips"


def odd_text(units: int, chip_unit: int) -> str:
    """ "the odd chip", "the odd chip (a unit of 5 chips)", "2 odd chip units (10 chips)"."""
    if units == 1:
        return "the odd chip" if chip_unit == 1 else f"the odd chip (a unit of {chip_unit} chips)"
    return f"{units} odd chips" if chip_unit == 1 else f"{units} odd chip units ({units * chip_unit} chips)"


def seats_text(seats: Sequence[int]) -> str:
    """ "seat 3", "seats 1 and 4", "seats 1, 2 and 5"."""
    if len(seats) == 1:
        return f"seat {seats[0]}"
    head = ", ".join(str(s) for s in seats[:-1])
    return f"seats {head} and {seats[-1]}"


def clockwise_from_button(button: int, seat_order: Sequence[int]) -> tuple[int, ...]:
    """Occupied seats clockwise starting with the first seat left of the button.

    A button on an empty seat (not in `seat_order`) is placed by seat number, assuming numbers
    rise clockwise as at a numbered table.
    """
    order = list(seat_order)
    if len(set(order)) != len(order):
        raise AwardError(f"seat order {order} repeats a seat; list each occupied seat once, clockwise")
    at = order.index(button) + 1 if button in order else next((i for i, s in enumerate(order) if s > button), 0)
    return tuple(order[at:] + order[:at])


def _card_height(card: Card) -> tuple[int, int]:
    """Rank (ace low, king high) then suit (clubs < diamonds < hearts < spades)."""
    return int(card.rank), card.suit.order


class _Context(NamedTuple):
    """What every pot of one showdown shares (a named tuple: built once per showdown, cheaply)."""

    game: Game
    chip_unit: int
    odd_chip_rule: str
    clockwise: tuple[int, ...]
    cards: Mapping[int, tuple[Card, ...]]
    values: tuple[dict[int, HandValue], dict[int, HandValue]]
    """Each seat's Badugi value and A-5 value once evaluated (a seat plays for several pots); for a hand with unread
    cards, the best value they could make."""
    unread: Mapping[int, int]


def best_possible(cards: Sequence[Card], unread: int, *, low: bool) -> HandValue:
    """The best value `cards` make with `unread` more cards from the rest of the deck: an upper bound on a hand read
    in part. Cards read in other hands count too: one misread there must not narrow what this hand could hold."""
    taken = {card_key(c) for c in cards}
    pool = np.array([c.index for c in FULL_DECK if card_key(c) not in taken], dtype=np.int64)
    if len(pool) < unread:
        raise AwardError(f"no {unread} cards are left in the deck to complete {format_cards(cards)}")
    fills = pool[np.array(list(combinations(range(len(pool)), unread)), dtype=np.int64).reshape(-1, unread)]
    known = np.array([c.index for c in cards], dtype=np.int64)
    rows = np.concatenate([np.broadcast_to(known, (len(fills), len(known))), fills], axis=1)
    ranks = (evaluate_a5_batch if low else evaluate_badugi_batch)(rows)  # no repeats: 0 (a repeat) cannot occur
    best = rows[int(np.argmin(ranks))]
    return (evaluate_a5 if low else evaluate_badugi)([card_from_index(int(i)) for i in best])


def _value(ctx: _Context, seat: int, low: bool) -> HandValue:
    """A seat's value for one half (cached): exact for a hand read whole, the best it could be for one read in part."""
    known = ctx.values[low]
    value = known.get(seat)
    if value is None:
        missing = ctx.unread.get(seat, 0)
        if missing:
            value = best_possible(ctx.cards[seat], missing, low=low)
        else:
            value = (evaluate_a5 if low else evaluate_badugi)(ctx.cards[seat])
        known[seat] = value
    return value


def _unread_text(ctx: _Context, seat: int) -> str:
    """ "seat 4's hand, read as 3h 6d 9s with 1 card unread"."""
    missing = ctx.unread[seat]
    return (f"seat {seat}'s hand, read as {format_cards(ctx.cards[seat]) or 'nothing'} with {missing} "
            f"card{'s' if missing > 1 else ''} unread")


def _check_inputs(
    game: str,
    contributions: Mapping[int, int],
    hands: Mapping[int, Sequence[Card] | None],
    chip_unit: int,
    odd_chip_rule: str,
    clockwise: tuple[int, ...],
    unread: Mapping[int, int],
) -> dict[int, tuple[Card, ...]]:
    """Validate everything up front, so a bad showdown raises before any chip moves."""
    if game not in _HAND_SIZE:
        raise AwardError(f"unknown game {game!r}; accepted: badugi, badacey")
    if chip_unit < 1:
        raise AwardError(f"chip unit must be a positive number of chips, got {chip_unit}")
    if odd_chip_rule not in ODD_CHIP_RULES:
        raise AwardError(f"unknown odd-chip rule {odd_chip_rule!r}; accepted: {', '.join(ODD_CHIP_RULES)}")
    for seat, amount in contributions.items():
        if amount > 0 and seat not in hands:
            raise AwardError(f"seat {seat} put {chips(amount)} in but has no hand; give its cards or None if folded")
    for seat in set(contributions) | set(hands):
        if seat not in clockwise:
            raise AwardError(f"seat {seat} is not in the seat order {list(clockwise)}")
    size = _HAND_SIZE[game]
    for seat, missing in unread.items():
        if missing and hands.get(seat) is None:
            raise AwardError(f"seat {seat} has {missing} unread cards but no hand shown")
        if not 0 <= missing <= size:
            raise AwardError(f"seat {seat} has {missing} unread cards; a {game} hand has {size}")
    shown: dict[int, tuple[Card, ...]] = {}
    holder: dict[object, int] = {}  # seat by card (a Card's index: equal cards have equal indices, cheaper to hash)
    for seat in sorted(hands):
        hand = hands[seat]
        if hand is None:
            continue
        cards = tuple(hand)
        if len(cards) + unread.get(seat, 0) != size:
            more = f" and {unread[seat]} unread" if unread.get(seat) else ""
            raise AwardError(f"seat {seat} shows {len(cards)} cards ({format_cards(cards)}){more}; a {game} hand has "
                             f"{size}")
        for card in cards:
            key = card_key(card) if isinstance(card, Card) else (None, card)
            if key in holder:
                where = "twice in its hand" if holder[key] == seat else f"in seat {holder[key]}'s hand too"
                raise AwardError(f"card {card} of seat {seat} appears {where}; each card exists once in a deck")
            holder[key] = seat
        shown[seat] = cards
    return shown


def _split(
    units: int, winners: Sequence[int], order_key: Mapping[int, tuple[int, ...]]
) -> tuple[dict[int, int], dict[int, int]]:
    """Equal units per winner, then leftover units one each in `order_key` order: (units, odd units)."""
    each, left = divmod(units, len(winners))
    ordered = sorted(winners, key=lambda s: order_key[s])
    odd = {seat: (1 if i < left else 0) for i, seat in enumerate(ordered)}
    return {seat: each + odd[seat] for seat in winners}, odd


def top_playing_card(cards: Sequence[Card], value: HandValue) -> Card:
    """The highest card (rank, then suit) that plays in `value`.

    All five cards play in an A-5 hand. A Badugi may be made by more than one subset (Ac 2d 3h 3s
    plays 3-2-A with either three): the card counts if any subset making the hand uses it.
    """
    if value.ranking == "a5":
        return max(cards, key=_card_height)
    want = badugi_class(value.rank)
    playing: set[Card] = set()
    for combo in combinations(cards, len(want)):
        ranks = tuple(sorted((int(c.rank) for c in combo), reverse=True))
        if ranks == want and len({c.suit for c in combo}) == len(combo):
            playing.update(combo)
    return max(playing, key=_card_height)


def _odd_order(ctx: _Context, winners: Sequence[int], values: Mapping[int, HandValue]) -> dict[int, tuple[int, ...]]:
    """Sort keys giving the odd-chip order of tied winners under the table's rule."""
    if ctx.odd_chip_rule == "clockwise_from_button":
        return {seat: (ctx.clockwise.index(seat),) for seat in winners}
    keys: dict[int, tuple[int, ...]] = {}
    for seat in winners:
        rank, suit = _card_height(top_playing_card(ctx.cards[seat], values[seat]))
        keys[seat] = (-rank, -suit)
    return keys


def _odd_rule_text(ctx: _Context, seat: int, values: Mapping[int, HandValue], left: int) -> str:
    """Why this seat got an odd chip, naming the rule; `left` is how many odd units there were."""
    if ctx.odd_chip_rule == "clockwise_from_button":
        if left == 1:
            return "the odd-chip rule clockwise_from_button gives it to the first tied winner clockwise from the button"
        return "the odd-chip rule clockwise_from_button gives odd chips one at a time clockwise from the button"
    top = top_playing_card(ctx.cards[seat], values[seat])
    rule = "the odd-chip rule high_card_by_suit gives"
    if left == 1:
        return f"{rule} it to the highest card by suit among the tied winners, the {top}"
    return f"{rule} odd chips one at a time by highest card, suit breaking ties; this seat's is the {top}"


_PORTION_TEXT = {"whole": "{pot}", "low": "the A-5 low half of {pot}", "badugi": "the Badugi half of {pot}"}


def the(name: str) -> str:
    """ "the main pot", but "side pot 1" as a dealer says it."""
    return f"the {name}" if name == "main pot" else name


def _award_portion(
    ctx: _Context, portion: Portion, units: int, pot: str, seats: Sequence[int], halving_odd: int
) -> tuple[list[Share], list[str]]:
    """Shares and sentences for one pot (portion "whole") or one half of a Badacey pot."""
    low = portion == "low"
    values: dict[int, HandValue] = {}
    best = 0
    tied = 0
    top = seats[0]
    for seat in seats:
        value = _value(ctx, seat, low)
        values[seat] = value
        rank = value.rank
        if not tied or rank < best:
            best, tied, top = rank, 1, seat
        elif rank == best:
            tied += 1
    what = _PORTION_TEXT[portion].format(pot=the(pot))
    if ctx.unread:
        for seat in seats:
            if ctx.unread.get(seat) and values[seat].rank == best:
                verb = "win" if tied == 1 else "tie for"
                raise AwardUndetermined(seat, f"{_unread_text(ctx, seat)}, could {verb} {what} (with "
                                        f"{values[seat].name}): the award needs its cards read")
    amount = units * ctx.chip_unit
    shares: list[Share] = []
    if tied == 1:
        hand_name = values[top].name
        reason = f"best {'A-5 low' if low else 'Badugi'} hand: {hand_name}"
        if halving_odd:
            reason += f", including {odd_text(halving_odd, ctx.chip_unit)} of halving (odd chip goes to the A-5 half)"
        shares.append(Share(top, amount, portion, values[top], halving_odd * ctx.chip_unit, reason))
        return shares, [f"Seat {top} wins {what}, {chips(amount)}, with {hand_name}."]
    winners = [seat for seat in ctx.clockwise if seat in values and values[seat].rank == best]
    hand_name = values[winners[0]].name
    got, odd = _split(units, winners, _odd_order(ctx, winners, values))
    left = sum(odd.values())
    sentences = [f"{seats_text(winners).capitalize()} tie for {what} with {hand_name} and split {chips(amount)}."]
    for seat in winners:
        reason = f"tie with {hand_name}, {len(winners)}-way split"
        if odd[seat]:
            why = _odd_rule_text(ctx, seat, values, left)
            reason += f"; gets {odd_text(odd[seat], ctx.chip_unit)} ({why})"
            sentences.append(f"Seat {seat} gets {odd_text(odd[seat], ctx.chip_unit)}: {why}.")
        shares.append(Share(seat, got[seat] * ctx.chip_unit, portion, values[seat], odd[seat] * ctx.chip_unit, reason))
    each = ", ".join(f"seat {s} {chips(sh.amount)}" for s, sh in zip(winners, shares, strict=True))
    sentences.append(f"Split: {each}.")
    return shares, sentences


def _award_pot(ctx: _Context, index: int, pot: Pot) -> PotAward:
    """Award one pot among its eligible seats."""
    name = pot_name(index)
    if pot.amount % ctx.chip_unit:
        raise AwardError(
            f"the {name} holds {chips(pot.amount)}, not a multiple of the chip unit {ctx.chip_unit}; check the bets"
        )
    if not pot.eligible:
        raise AwardError(f"the {name} ({chips(pot.amount)}) has no seat left to win it; every contributor folded")
    header = f"{name.capitalize()}: {chips(pot.amount)}, {seats_text(pot.eligible)} eligible."
    if len(pot.eligible) == 1:
        seat = pot.eligible[0]
        reason = "only seat still in for this pot; wins it without a showdown"
        sentence = f"Seat {seat} wins {the(name)}, {chips(pot.amount)}, uncontested: every other seat in it folded."
        share = Share(seat, pot.amount, "whole", None, 0, reason)
        return PotAward(index, name, pot.amount, pot.eligible, (share,), (header, sentence))
    units = pot.amount // ctx.chip_unit
    if ctx.unread:
        header += "".join(f" S{_unread_text(ctx, s)[1:]}: no card it could hold wins it a chip of {the(name)}."
                          for s in pot.eligible if ctx.unread.get(s))
    if ctx.game == "badugi":
        shares, sentences = _award_portion(ctx, "whole", units, name, pot.eligible, 0)
        return PotAward(index, name, pot.amount, pot.eligible, tuple(shares), (header, *sentences))
    badugi_units = units // 2
    low_units = units - badugi_units
    halving_odd = low_units - badugi_units
    unit = ctx.chip_unit
    halves = f"Halves: {chips(low_units * unit)} to the A-5 low, {chips(badugi_units * unit)} to the Badugi"
    halves += " (the odd chip of halving goes to the A-5 half)." if halving_odd else "."
    low_shares, low_sentences = _award_portion(ctx, "low", low_units, name, pot.eligible, halving_odd)
    bad_shares, bad_sentences = _award_portion(ctx, "badugi", badugi_units, name, pot.eligible, 0)
    sentences = [header, halves, *low_sentences, *bad_sentences]
    low_winners = {s.seat for s in low_shares}
    if len(low_winners) == 1 and low_winners == {s.seat for s in bad_shares}:
        sentences.append(f"Seat {next(iter(low_winners))} scoops {the(name)}: both halves.")
    return PotAward(index, name, pot.amount, pot.eligible, (*low_shares, *bad_shares), tuple(sentences))


def award_pots(
    *,
    game: Game,
    contributions: Mapping[int, int],
    hands: Mapping[int, Sequence[Card] | None],
    button: int,
    seat_order: Sequence[int],
    chip_unit: int = 1,
    odd_chip_rule: str = "clockwise_from_button",
    unread: Mapping[int, int] | None = None,
) -> Award:
    """Build the pots from the contributions and award each; `hands[seat]` is None for a folded seat.

    `unread[seat]` counts the cards of a shown hand that were not read (its `hands` entry holds the rest): raises
    AwardUndetermined when they could change who wins (or when more than MAX_UNREAD are missing)."""
    clockwise = clockwise_from_button(button, seat_order)
    missing = {seat: n for seat, n in (unread or {}).items() if n}
    shown = _check_inputs(game, contributions, hands, chip_unit, odd_chip_rule, clockwise, missing)
    live = [seat for seat in contributions if hands.get(seat) is not None]
    pots, returned = build_pots(contributions, live)
    for seat, amount in returned.items():
        if amount % chip_unit:
            raise AwardError(f"seat {seat}'s uncalled {chips(amount)} is not a multiple of the chip unit {chip_unit}")
    ctx = _Context(game, chip_unit, odd_chip_rule, clockwise, shown, ({}, {}), missing)
    for seat, n in missing.items():
        if n > MAX_UNREAD and any(seat in pot.eligible and len(pot.eligible) > 1 for pot in pots):
            raise AwardUndetermined(seat, f"{_unread_text(ctx, seat)} (at most {MAX_UNREAD} can be bounded): the "
                                    "award needs its cards read")
    awards = tuple(_award_pot(ctx, i, pot) for i, pot in enumerate(pots))
    totals = {seat: returned.get(seat, 0) for seat in contributions}
    for pot_award in awards:
        for share in pot_award.shares:
            totals[share.seat] = totals.get(share.seat, 0) + share.amount
    return Award(awards, dict(returned), totals)


def award_sentences(award: Award) -> tuple[str, ...]:
    """Everything a dealer reads out for a showdown: returned chips, then each pot."""
    lines = [f"Seat {seat} takes back {chips(amount)} uncalled." for seat, amount in sorted(award.returned.items())]
    for pot_award in award.pots:
        lines.extend(pot_award.explanation)
    return tuple(lines)
