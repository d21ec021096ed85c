"""One betting round: who acts, what each may do and for how much (fixed, pot and no limit).

Works on the hand's per-seat lists (indices clockwise from the first seat left of the button), so
a step costs no copies. The two short all-in rules:

- ``full_raise`` (default, major rooms): a seat that already acted may raise again only when the
  total raised since it last acted is at least a full raise; the big blind is a full bet pre-draw.
- ``pokerkit``: PokerKit's engine rule (a raise resets who has acted only when it is at least the
  largest raise of the round; consecutive short all-ins that add up to it reopen; a seat whose
  call is smaller than that raise size cannot raise), for comparing with and replaying PokerKit.
- ``half_bet`` (fixed limit; Robert's Rules of Poker, the "half-bet rule"): an all-in of half a bet or
  more over the last full bet level is treated as a full bet or raise (it reopens the betting and the
  next raise is a full bet above it); one of less is not (a seat that has not acted may complete it to
  a full bet). Pot and no limit keep ``full_raise``, as Robert's does.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from dealer_assist.rules.house_rules import HouseRules


@cache
def _after(i: int, n: int) -> tuple[int, ...]:
    """Seat indices clockwise after index i (i itself excluded)."""
    return tuple((i + k) % n for k in range(1, n))


@dataclass(frozen=True, slots=True)
class Options:
    """What the seat to act may do: fold, check or call `call`, and bet/raise to `min_to`..`max_to`."""

    seat: int
    can_fold: bool
    can_check: bool
    call: int | None
    """Chips a call puts in (None when there is nothing to call); less than owed when all-in."""
    raise_kind: str | None
    """"bet" (nothing bet yet this round) or "raise"; None when neither is allowed."""
    min_to: int | None
    max_to: int | None
    why_no_raise: str | None
    """The rule that forbids a bet or raise now, when one is forbidden."""


class BettingRound:
    """State of one betting round; the hand owns the chips, this owns the order and raise history."""

    __slots__ = (
        "acted",
        "acted_level",
        "full_level",
        "increment",
        "last_aggressor",
        "raise_count",
        "round",
        "rules",
        "short_sum",
        "to_act",
        "unit",
    )

    def __init__(self, rules: HouseRules, round_index: int) -> None:
        self.rules = rules
        self.round = round_index
        self.unit = rules.bet_unit(round_index)
        self.to_act: list[int] = []
        self.raise_count = 0
        self.increment = 0
        self.acted: set[int] = set()
        self.acted_level: dict[int, int] = {}
        self.short_sum = 0
        self.full_level = 0
        """half_bet: the bet level of the last bet or raise treated as full (the big blind pre-draw)."""
        self.last_aggressor: int | None = None

    @property
    def half_bet(self) -> bool:
        """The half-bet rule applies (it is for fixed limit only)."""
        return self.rules.short_all_in_rule == "half_bet" and self.rules.betting == "fixed_limit"

    def snapshot(self) -> tuple[object, ...]:
        return (
            self.round, tuple(self.to_act), self.raise_count, self.increment, tuple(sorted(self.acted)),
            tuple(sorted(self.acted_level.items())), self.short_sum, self.last_aggressor, self.full_level,
        )

    def start(self, bets: list[int], stacks: list[int], live: list[bool], big_blind: int = 1) -> None:
        """Who acts this round, in order: pre-draw the seat after the one that posted the big blind (index
        `big_blind`; heads-up, the button), else the first seat left of the button."""
        n = len(bets)
        rules = self.rules
        if self.round == 0:
            # The seat that posted the big blind, not the biggest bet: with a small blind as large as the big one,
            # heads-up the biggest bet would be the button's, and the big blind would be asked to act first.
            opener = (big_blind + 1) % n
            if rules.betting == "fixed_limit" and rules.blind_counts_as_bet and max(bets) > 0:
                self.raise_count = 1
            if rules.short_all_in_rule != "pokerkit" and max(bets) > 0:
                self.increment = max(bets)
            self.full_level = max(bets)
        else:
            opener = 0
        first = second = 0  # the two largest amounts (bet + stack) among seats still in
        for i in range(n):
            if live[i]:
                total = bets[i] + stacks[i]
                if total > first:
                    first, second = total, first
                elif total > second:
                    second = total
        # A seat acts only if it is in, has chips, and someone else could still match more of them.
        self.to_act = [i for i in (opener, *_after(opener, n)) if live[i] and stacks[i] > 0 and second > bets[i]]
        if len(self.to_act) == 1 and bets[self.to_act[0]] >= max(bets):
            self.to_act = []

    # -- limits ------------------------------------------------------------------------------------

    def cap_reached(self, live_count: int) -> bool:
        rules = self.rules
        if rules.betting != "fixed_limit":
            return False
        if rules.uncapped_heads_up and live_count == 2:
            return False
        return self.raise_count >= rules.bets_per_round_cap

    def why_no_raise(self, i: int, bets: list[int], stacks: list[int], live: list[bool], pot: int) -> str | None:
        """The rule (and house option) forbidding seat `i` to bet or raise now, or None."""
        rules = self.rules
        top = max(bets)
        owed = top - bets[i]
        if self.cap_reached(sum(live)):
            option = "bets_per_round_cap"
            if self.round == 0 and rules.blind_counts_as_bet:
                option += ", blind_counts_as_bet"
            cap = rules.bets_per_round_cap
            return f"the round is capped at {cap} bets (one bet and three raises; 001, 004)|{option}"
        if rules.short_all_in_rule == "pokerkit":
            if min(stacks[i], owed) < self.increment:
                return "a short all-in cannot be raised by a seat facing less than a full raise|short_all_in_rule"
            if self.short_sum and self.short_sum < self.increment and i in self.acted:
                return ("an all-in short of a full raise does not reopen the betting for a seat that already acted"
                        "|short_all_in_rule")
        elif self.half_bet:
            if i in self.acted_level and 2 * (top - self.acted_level[i]) < self.unit:
                return ("an all-in of less than half a bet does not reopen the betting for a seat that already acted"
                        " (half-bet rule)|short_all_in_rule")
        elif i in self.acted_level and top - self.acted_level[i] < max(self.increment, self.unit):
            return ("an all-in short of a full raise does not reopen the betting for a seat that already acted"
                    "|short_all_in_rule")
        if stacks[i] <= owed:
            return "the seat has no chips beyond what it takes to call|"
        for j in range(len(bets)):
            if j != i and live[j] and stacks[j] + bets[j] > top:
                return None
        return "every other seat still in is all-in or folded; there is no one to bet against|"

    def raise_bounds(self, i: int, bets: list[int], stacks: list[int], pot: int) -> tuple[int, int]:
        """Smallest and largest total bet seat `i` may bet or raise to (all-in for less included)."""
        top = max(bets)
        all_in = stacks[i] + bets[i]
        low = min(all_in, top + max(self.increment, self.unit))
        betting = self.rules.betting
        if self.half_bet:
            # a short all-in of less than half a bet is completed: a full bet above the last full level
            low = min(all_in, max(self.full_level + self.unit, top + 1))
        if betting == "fixed_limit":
            return low, low
        if betting == "no_limit":
            return low, all_in
        owed = top - bets[i]
        # Pot limit (003, 004): the pot, all bets on the table, and the call, on top of the call.
        high = top + pot + sum(bets) + owed
        return low, max(low, min(all_in, high))

    # -- applying ----------------------------------------------------------------------------------

    def on_call(self, i: int, top: int) -> None:
        del self.to_act[0]
        self.acted.add(i)
        self.acted_level[i] = top

    def on_fold(self, i: int) -> None:
        del self.to_act[0]
        self.acted.add(i)

    def on_raise(self, i: int, amount: int, top: int, bets: list[int], stacks: list[int], live: list[bool]) -> bool:
        """Record a bet or raise to `amount` (chips already moved); returns whether it was a full raise."""
        n = len(bets)
        raised = amount - top
        rules = self.rules
        self.to_act = [j for j in _after(i, n) if live[j] and stacks[j] > 0]
        self.last_aggressor = i
        self.raise_count += 1
        self.acted.add(i)
        self.acted_level[i] = amount
        if rules.short_all_in_rule == "pokerkit":
            full = raised >= self.increment
            if full:
                self.acted = {i}
            self.increment = max(self.increment, raised)
            if stacks[i]:
                self.short_sum = 0
            else:
                self.short_sum += raised
            if self.short_sum >= self.increment:
                self.short_sum = 0
            return full
        if self.half_bet:
            full = 2 * (amount - self.full_level) >= self.unit
            if full:
                self.full_level = amount
            else:
                self.raise_count -= 1       # less than half a bet: no bet or raise of the cap's
            return full
        full = raised >= max(self.increment, self.unit)
        if full:
            self.increment = raised
        return full
