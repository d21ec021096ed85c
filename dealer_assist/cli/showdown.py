"""`dealer-assist showdown`: main and side pots from each seat's chips, awarded with reasons."""

from __future__ import annotations

import json

import click

from dealer_assist.cards import Card, parse_cards
from dealer_assist.errors import DealerAssistError
from dealer_assist.rules.awards import ODD_CHIP_RULES, Award, award_pots, award_sentences


def parse_seat(text: str) -> tuple[int, int, tuple[Card, ...] | None, int]:
    """Parse "SEAT:CONTRIBUTION:CARDS" where CARDS is "Ah 2d 3c 4s" or "folded"; a "??" is a card shown but not read
    (the last item counts them)."""
    parts = text.split(":", 2)
    if len(parts) != 3:
        example = "'3:200:Ah 2d 3c 4s' or 3:40:folded"
        raise DealerAssistError(f"bad --seat {text!r}; expected SEAT:CONTRIBUTION:CARDS, e.g. {example}")
    seat_text, amount_text, cards_text = (p.strip() for p in parts)
    if not seat_text.isdigit():
        raise DealerAssistError(f"bad seat number {seat_text!r} in --seat {text!r}; a seat is a whole number")
    if not amount_text.isdigit():
        raise DealerAssistError(f"bad contribution {amount_text!r} in --seat {text!r}; chips are a whole number >= 0")
    if cards_text.lower() in {"folded", "fold", "muck", "mucked"}:
        return int(seat_text), int(amount_text), None, 0
    if not cards_text:
        raise DealerAssistError(f"no cards in --seat {text!r}; give the cards shown, or 'folded'")
    words = cards_text.split()
    read = [w for w in words if w != "??"]
    return int(seat_text), int(amount_text), parse_cards(" ".join(read)) if read else (), len(words) - len(read)


def award_json(award: Award) -> dict[str, object]:
    """The award as the JSON document `--json` prints."""
    return {
        "pots": [
            {
                "name": pot.name,
                "amount": pot.amount,
                "eligible": list(pot.eligible),
                "awards": [
                    {
                        "seat": share.seat,
                        "amount": share.amount,
                        "portion": share.portion,
                        "hand": share.hand.name if share.hand else None,
                        "cards": [str(c) for c in share.hand.used] if share.hand else None,
                        "odd_chips": share.odd_chips,
                        "reason": share.reason,
                    }
                    for share in pot.shares
                ],
                "explanation": list(pot.explanation),
            }
            for pot in award.pots
        ],
        "totals": {str(seat): amount for seat, amount in sorted(award.totals.items())},
        "returned": {str(seat): amount for seat, amount in sorted(award.returned.items())},
    }


@click.command()
@click.option("--game", type=click.Choice(["badugi", "badacey"]), required=True,
              help="badugi (4 cards, one winner per pot) or badacey (5 cards, A-5 low and Badugi halves).")
@click.option("--button", type=click.IntRange(min=1), required=True, help="The seat with the dealer button.")
@click.option("--chip-unit", type=click.IntRange(min=1), default=1, show_default=True,
              help="The table's smallest chip: ties split in whole units of it.")
@click.option("--odd-chip-rule", type=click.Choice(list(ODD_CHIP_RULES)), default=ODD_CHIP_RULES[0],
              show_default=True, help="Who gets an odd chip when tied winners split a pot or half.")
@click.option("--seat", "seats", multiple=True, required=True, metavar="SEAT:CONTRIBUTION:CARDS",
              help="One per seat that put chips in: e.g. 3:200:'Ah 2d 3c 4s', or 5:40:folded; ?? for a card "
                   "shown but not read (3:200:'Kc Kd ?? ??': awarded if no card it could be wins it a chip).")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON document instead of sentences.")
def showdown(game: str, button: int, chip_unit: int, odd_chip_rule: str, seats: tuple[str, ...], as_json: bool) -> None:
    """Build main and side pots from each seat's total contribution and award them.

    Seats are numbered clockwise. Badacey halves every pot, the odd chip of halving to the A-5 half;
    by default an odd chip among tied winners goes to the first of them left of the button.
    """
    contributions: dict[int, int] = {}
    hands: dict[int, tuple[Card, ...] | None] = {}
    unread: dict[int, int] = {}
    for text in seats:
        seat, amount, cards, missing = parse_seat(text)
        if seat in contributions:
            raise DealerAssistError(f"seat {seat} is given twice; pass one --seat per seat")
        contributions[seat] = amount
        hands[seat] = cards
        unread[seat] = missing
    order = sorted(contributions)
    award = award_pots(
        game="badugi" if game == "badugi" else "badacey", contributions=contributions, hands=hands,
        button=button, seat_order=order, chip_unit=chip_unit, odd_chip_rule=odd_chip_rule, unread=unread,
    )
    if as_json:
        click.echo(json.dumps(award_json(award)))
        return
    for line in award_sentences(award):
        click.echo(line)
    click.echo("Totals: " + ", ".join(f"seat {s} {n}" for s, n in sorted(award.totals.items())) + ".")
