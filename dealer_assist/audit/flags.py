"""Each flag kind's severity, the HOUSE_RULES.md wording behind it and its house option, in one table."""

from __future__ import annotations

from dataclasses import dataclass

from dealer_assist.audit.records import Flag, FlagKind, Severity


@dataclass(frozen=True, slots=True)
class FlagRule:
    """What a flag kind quotes: severity, the rule (HOUSE_RULES.md, shortened) and the house option."""

    severity: Severity
    rule: str
    option: str | None = None


_DEAL = ("Dealing: one card at a time, clockwise, starting with the first seat left of the button, until every "
         "seat has 4 (Badacey 5); a card to the wrong seat, a seat skipped, a wrong count or a card exposed during "
         "the deal is a misdeal flag; the floor decides")
_DRAW = ("Draws: first active seat left of the button, clockwise; each seat discards and is given its "
         "replacements before the next seat declares (sequential), or all discard then the dealer replaces in turn")
_TURN = ("Before the draw action starts left of the big blind; after each draw the first active seat left of the "
         "button acts first; then clockwise")
_SHOW = ("Showdown: if the last round had a bet the last aggressor shows first, otherwise the first active seat "
         "left of the button; then clockwise (001, 004)")

RULES: dict[FlagKind, FlagRule] = {
    FlagKind.WRONG_CARD_COUNT: FlagRule(Severity.MISDEAL, _DEAL),
    FlagKind.CARD_TO_WRONG_SEAT: FlagRule(Severity.MISDEAL, _DEAL),
    FlagKind.SEAT_SKIPPED: FlagRule(Severity.MISDEAL, _DEAL),
    FlagKind.CARD_EXPOSED: FlagRule(Severity.MISDEAL, _DEAL),
    FlagKind.REPLACEMENTS_MISMATCH: FlagRule(
        Severity.ERROR, "Draws: a seat discards 0 to 4 (Badacey 0 to 5) and gets as many replacements as it "
        "discarded", "draw_procedure"),
    FlagKind.DRAW_OUT_OF_ORDER: FlagRule(Severity.ERROR, _DRAW, "draw_procedure"),
    FlagKind.DISCARD_RETURNED: FlagRule(
        Severity.ERROR, "Reshuffle (004): burns and earlier rounds' discards and folded hands are shuffled into a "
        "new stub; discards of the current round are not", "last_card_dealable"),
    FlagKind.ACTION_OUT_OF_TURN: FlagRule(Severity.WARNING, _TURN),
    FlagKind.ACTION_MISSING: FlagRule(
        Severity.WARNING, "Every seat still in acts in turn before a betting round closes; " + _TURN),
    FlagKind.WRONG_BET_SIZE: FlagRule(
        Severity.ERROR, "Fixed limit: small bet pre-draw and after the 1st draw, big bet after; pot limit: at "
        "least the big blind or the previous bet or raise, at most the pot plus all bets plus the call; no limit: "
        "at least the big blind or the previous bet or raise", "betting"),
    FlagKind.ILLEGAL_ACTION: FlagRule(
        Severity.WARNING, "A seat may check only with nothing to call, call only a bet, and raise only below the "
        "cap of one bet and three raises (fixed limit) and when the betting is open to it"),
    FlagKind.FOLD_OUT_OF_ORDER: FlagRule(Severity.WARNING, _TURN + " (a fold out of turn stands)"),
    FlagKind.SHOW_OUT_OF_ORDER: FlagRule(Severity.WARNING, _SHOW),
    FlagKind.UNEXPECTED_EVENT: FlagRule(Severity.INFO, "The table did something the hand's rules do not expect now"),
}


def make_flag(kind: FlagKind, seat: int | None, message: str, t: float, frame: int | None, *,
              severity: Severity | None = None, option: str | None = None) -> Flag:
    """A flag of `kind` quoting its rule; `option` names the house option applied (default: the kind's)."""
    spec = RULES[kind]
    return Flag(kind, severity or spec.severity, seat, spec.rule, option or spec.option, message, t, frame)
