"""Does a dealer entry show that the seat to act had its turn and its entry was never made?

The table goes on without waiting for the dealer's keypad. When the seat to act (X) was skipped by the dealer, the
entries that follow come from the seats after it, and the first entry that can only be explained by X having
checked or called is the evidence: X's own next entry after every other seat has entered its say, or, when no
card was seen drawn, the first entry of the next betting round (every seat stood pat). The other seats' entries
must all be there: one early entry is an action out of turn, not a missing one.
"""

from __future__ import annotations

import copy
from typing import Literal

from dealer_assist.audit.action_check import apply_action
from dealer_assist.audit.records import DealerAction
from dealer_assist.rules.hand import Hand, Phase

Fit = Literal["this round", "next round"]


def fits_after_missing(hand: Hand, entry: DealerAction, pending: list[DealerAction],
                       pat_draw_possible: bool) -> Fit | None:
    """Where `entry` fits if the seat to act now is taken to check or call: "this round" (the entry's seat acts
    again after the rest of the round, entered out of turn in `pending`, stood as entered), "next round" (the round
    then closes, every seat stands pat in the draw, and the entry is the first of the next round; only when
    `pat_draw_possible`, that is no discard was seen), or None (no such evidence: the entry is out of turn, or
    the seat's own action, as entered). Played out on a copy of the hand."""
    if hand.phase is not Phase.BETTING or hand.actor is None:
        return None
    seat, skipped = entry.seat, hand.actor
    waiting = {p.seat: p for p in reversed(pending)}   # the first entry of each seat is its next say
    if seat == skipped and not waiting:
        return None                                    # the seat's own action, as entered (a wrong one is flagged)
    trial = copy.deepcopy(hand)
    round_no = trial.round
    if trial.can_check(skipped):
        trial.check(skipped)
    elif trial.can_call(skipped):
        trial.call(skipped)
    else:
        return None
    said = seat == skipped                             # the seat has had a say since the skipped turn
    while trial.phase is Phase.BETTING and trial.round == round_no:
        actor = trial.actor
        if actor is None:
            return None
        earlier = waiting.pop(actor, None)
        if earlier is not None:
            if not (entry_is_legal(trial, earlier) and apply_action(trial, earlier, None).applied):
                return None
            said = said or actor == seat
            continue
        if actor == seat and said and not waiting:
            return "this round" if entry_is_legal(trial, entry) else None
        return None          # a seat still to have its say, or the entry's seat acting for the first time
    if waiting or not pat_draw_possible or trial.round >= trial.rules.draws:
        return None
    while trial.phase is Phase.DRAWING:
        pat = trial.next_discarder
        if pat is None:
            return None
        trial.discard(pat, 0)
    if trial.phase is Phase.BETTING and trial.actor == seat and entry_is_legal(trial, entry):
        return "next round"
    return None


def entry_is_legal(hand: Hand, entry: DealerAction) -> bool:
    """Would the entry stand as entered, were it the seat's turn now (a call with nothing to call is a check)?"""
    amount = entry.amount or 0
    return {
        "fold": hand.can_fold(entry.seat), "check": hand.can_check(entry.seat),
        "call": hand.can_call(entry.seat) or hand.can_check(entry.seat),
        "bet": hand.can_bet(amount, entry.seat), "raise": hand.can_raise_to(amount, entry.seat),
    }[entry.action]
