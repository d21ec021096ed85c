"""The showdown board's content from an Award: per pot, winners, split amounts, odd chips, sentences."""

from __future__ import annotations

from dataclasses import dataclass

from dealer_assist.rules.awards import Award, PotAward, Share, chips

PORTION_TEXT = {"whole": "", "low": "A-5 low half", "badugi": "Badugi half"}


@dataclass(frozen=True, slots=True)
class ShareLine:
    """One row of the board: seat, what it wins, with which hand, and any odd chip."""

    seat: int
    portion: str
    amount: int
    hand: str
    odd_chip: str


@dataclass(frozen=True, slots=True)
class PotBoard:
    title: str
    lines: tuple[ShareLine, ...]
    sentences: tuple[str, ...]


RULE_WORDS = {
    "clockwise_from_button": "first tied winner clockwise from the button",
    "high_card_by_suit": "highest card by suit among the tied winners",
}


def _odd_chip_text(share: Share) -> str:
    """Who got an odd chip and by which rule, in a few words."""
    if not share.odd_chips:
        return ""
    amount = "the odd chip" if share.odd_chips == 1 else f"{chips(share.odd_chips)} of odd chips"
    for rule, words in RULE_WORDS.items():
        if rule in share.reason:
            return f"includes {amount}: {words} ({rule})"
    if "halving" in share.reason:
        return f"includes {amount} of halving: it goes to the A-5 half"
    return f"includes {amount}"


def pot_board(pot: PotAward) -> PotBoard:
    title = f"{pot.name.capitalize()} — {chips(pot.amount)} · eligible: " + ", ".join(str(s) for s in pot.eligible)
    lines = tuple(
        ShareLine(
            seat=s.seat,
            portion=PORTION_TEXT[s.portion],
            amount=s.amount,
            hand=s.hand.name if s.hand is not None else "uncontested",
            odd_chip=_odd_chip_text(s),
        )
        for s in pot.shares
    )
    return PotBoard(title, lines, pot.explanation[1:] if len(pot.explanation) > 1 else pot.explanation)


def board(award: Award) -> tuple[tuple[PotBoard, ...], tuple[str, ...]]:
    """The pots' boards, and the closing lines: chips returned and each seat's total."""
    closing = [f"Seat {seat} takes back {chips(amount)} uncalled." for seat, amount in sorted(award.returned.items())]
    won = {seat: amount for seat, amount in award.totals.items() if amount}
    if won:
        closing.append("Totals: " + ", ".join(f"seat {s} {chips(a)}" for s, a in sorted(won.items())) + ".")
    return tuple(pot_board(p) for p in award.pots), tuple(closing)
