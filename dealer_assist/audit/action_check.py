"""A dealer action checked against the rules Hand for the seat whose turn it is, then applied as the table did it.

A bet or raise of the wrong size is flagged and applied at the nearest legal size (the house corrects
the chips); "bet" and "raise" both mean "to a total of", so the word the dealer pressed does not
matter; a call with nothing to call is a check. A check facing a bet, or a raise the rules forbid,
is flagged and not applied: the seat still has to act. A bet or raise to every chip a seat has, when that is no
more than the call, is the all-in call it was (a larger amount too, flagged as the wrong size).
"""

from __future__ import annotations

from dataclasses import dataclass

from dealer_assist.audit.flags import make_flag
from dealer_assist.audit.records import DealerAction, Flag, FlagKind
from dealer_assist.rules.betting import Options
from dealer_assist.rules.hand import Hand
from dealer_assist.rules.steps import IllegalStep


@dataclass(frozen=True, slots=True)
class ActionResult:
    """Whether the action changed the hand, and the flag it raised (if any)."""

    applied: bool
    flag: Flag | None = None


def apply_action(hand: Hand, action: DealerAction, frame: int | None) -> ActionResult:
    """Apply `action` for the seat to act (the caller checked the turn)."""
    opts = hand.options()
    assert opts is not None and opts.seat == action.seat
    seat, t = action.seat, action.t
    kind = action.action
    if kind == "fold":
        hand.fold(seat)
        return ActionResult(True)
    if kind == "call" and opts.call is None:
        kind = "check"
    if kind == "check":
        if not opts.can_check:
            return ActionResult(False, make_flag(
                FlagKind.ILLEGAL_ACTION, seat, f"seat {seat} checked facing a bet ({opts.call} to call); "
                "not applied: the seat still has to act", t, frame, option=None))
        hand.check(seat)
        return ActionResult(True)
    if kind == "call":
        hand.call(seat)
        return ActionResult(True)
    amount = action.amount or 0
    all_in = _all_in_call_to(hand, opts)
    if all_in is not None and opts.raise_kind is None and amount >= all_in:
        # The seat pushed every chip it has, no more than the call: an all-in call, whatever key was pressed.
        hand.call(seat)
        return ActionResult(True, None if amount == all_in else make_flag(
            FlagKind.WRONG_BET_SIZE, seat, f"seat {seat} {kind} to {amount}, but it has only {all_in} in all, no "
            f"more than the call: taken as its all-in call to {all_in}", t, frame))
    if opts.raise_kind is None or opts.min_to is None or opts.max_to is None:
        why = opts.why_no_raise or "no bet or raise is allowed now"
        option = "bets_per_round_cap" if "capped" in why else "short_all_in_rule" if "short" in why else None
        return ActionResult(False, make_flag(
            FlagKind.ILLEGAL_ACTION, seat, f"seat {seat} {kind} to {amount}: {why}; not applied", t, frame,
            option=option))
    low, high = opts.min_to, opts.max_to
    flag = None
    if not low <= amount <= high:
        fixed = min(max(amount, low), high)
        word = opts.raise_kind
        size = f"exactly {low}" if low == high else f"{low} to {high}"
        flag = make_flag(FlagKind.WRONG_BET_SIZE, seat,
                         f"seat {seat} {word} to {amount}; {hand.rules.betting.replace('_', ' ')} allows a {word} "
                         f"to {size} now; taken as a {word} to {fixed}", t, frame)
        amount = fixed
    try:
        if opts.raise_kind == "bet":
            hand.bet(amount, seat)
        else:
            hand.raise_to(amount, seat)
    except IllegalStep as exc:  # chip-unit leftovers: the nearest legal amount the rules accept
        if flag is None:
            flag = make_flag(FlagKind.WRONG_BET_SIZE, seat, f"seat {seat} to {amount}: {exc.rule}; taken as {low}",
                             t, frame, option=exc.option)
        if opts.raise_kind == "bet":
            hand.bet(low, seat)
        else:
            hand.raise_to(low, seat)
    return ActionResult(True, flag)


def _all_in_call_to(hand: Hand, opts: Options) -> int | None:
    """The total a seat whose call takes every chip it has reaches by calling (its bet this round and its chips);
    None when a call leaves it chips."""
    i = hand.index_of[opts.seat]
    if opts.call is None or opts.call < hand.stacks[i]:
        return None
    return hand.bets[i] + hand.stacks[i]
