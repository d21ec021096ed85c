"""Does a dealer entry show that the seat to act had its turn and its entry was never made?

The table goes on without waiting for the dealer's keypad. When the dealer skipped the seat to act (X), the entries
that follow come from the seats after it, and an entry that fits only after X's turn is the evidence: X's own next
entry when it cannot stand now (a check facing a bet), or the next say of a seat whose say before it is spent,
in this betting round or, when no card was seen drawn, the next one (every seat stood pat). At least one other
entry must already fit between: one early entry, or an entry of X's own that stands as entered (perhaps late),
is taken as entered.
"""

from __future__ import annotations

import copy
from typing import Literal

from dealer_assist.audit.action_check import apply_action
from dealer_assist.audit.records import DealerAction
from dealer_assist.rules.hand import Hand, Phase

Fit = Literal["this round", "next round"]
OWN_LEGAL_BETWEEN = 2


def fits_after_missing(hand: Hand, entry: DealerAction, pending: list[DealerAction],
                       pat_draw_possible: bool) -> Fit | None:
    """Where `entry` fits if the seat to act now is taken to check or call, the entries made out of turn (`pending`)
    then stand in turn as entered, and, when `pat_draw_possible` (no discard was seen), every seat stands pat in the
    draw: "this round", "next round", or None when it needs no such story (see the module's docstring). Played
    out on a copy of the hand."""
    if hand.phase is not Phase.BETTING or hand.actor is None or not pending:
        return None
    seat, skipped = entry.seat, hand.actor
    own_legal = seat == skipped and entry_is_legal(hand, entry)
    waiting = {p.seat: p for p in reversed(pending)}   # the first entry of each seat is its next say
    trial = copy.deepcopy(hand)
    if trial.can_check(skipped):
        trial.check(skipped)
    elif trial.can_call(skipped):
        trial.call(skipped)
    else:
        return None
    round_no, said, between = trial.round, seat == skipped, 0
    while True:
        if trial.phase is Phase.DRAWING:
            if trial.round != round_no or not pat_draw_possible:
                return None
            while trial.phase is Phase.DRAWING and (pat := trial.next_discarder) is not None:
                trial.discard(pat, 0)
            continue
        actor = trial.actor
        if trial.phase is not Phase.BETTING or actor is None or trial.round > round_no + 1:
            return None
        earlier = waiting.pop(actor, None)
        if earlier is not None:
            if not (entry_is_legal(trial, earlier) and apply_action(trial, earlier, None).applied):
                return None
            said, between = said or actor == seat, between + 1
            continue
        crossed = trial.round > round_no
        if actor != seat or not (said or crossed) or between < (OWN_LEGAL_BETWEEN if own_legal else 1) or waiting:
            return None                                # a seat still to have its say, or too little evidence
        if not entry_is_legal(trial, entry):
            return None
        if crossed and entry.action in ("fold", "call") and trial.can_check(seat):
            # A fold or a call with nothing to call, after a draw nobody was seen drawing in, is a weaker story than
            # the entry keyed out of turn in this round (benchmarks/referee_entries.py: a call keyed for the wrong
            # seat, then that seat's fold, made 4 of 2,503 awards wrong and final; a bet keyed late, 1 of 4,212).
            return None
        return "next round" if crossed else "this round"


def entry_is_legal(hand: Hand, entry: DealerAction) -> bool:
    """Would the entry stand as entered, were it the seat's turn now (a call with nothing to call is a check)?"""
    amount = entry.amount or 0
    return {
        "fold": hand.can_fold(entry.seat), "check": hand.can_check(entry.seat),
        "call": hand.can_call(entry.seat) or hand.can_check(entry.seat),
        "bet": hand.can_bet(amount, entry.seat), "raise": hand.can_raise_to(amount, entry.seat),
    }[entry.action]
