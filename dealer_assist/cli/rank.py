"""`dealer-assist rank`: the value and spoken name of a hand, for the floor and for external checks."""

from __future__ import annotations

import json
import sys

import click

from dealer_assist.cards import parse_cards
from dealer_assist.errors import DealerAssistError
from dealer_assist.rules import HandValue, evaluate_a5, evaluate_badugi


def _evaluate(game: str, text: str) -> HandValue:
    cards = parse_cards(text)
    return evaluate_badugi(cards) if game == "badugi" else evaluate_a5(cards)


def _record(text: str, value: HandValue) -> dict[str, object]:
    return {
        "cards": [str(c) for c in parse_cards(text)],
        "rank": value.rank,
        "name": value.name,
        "used": [str(c) for c in value.used],
    }


@click.command()
@click.option("--game", type=click.Choice(["badugi", "a5"]), default="badugi", show_default=True,
              help="Ranking: badugi (1 to 5 cards, best subset) or a5 (ace-to-five low, 5 cards).")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON object instead of a sentence.")
@click.option("--stdin", "from_stdin", is_flag=True,
              help="Read one hand per line from standard input; print one JSON object per line.")
@click.argument("cards", nargs=-1)
def rank(game: str, as_json: bool, from_stdin: bool, cards: tuple[str, ...]) -> None:
    """Rank a hand: 1 is the best possible hand, equal ranks tie.

    CARDS are like "Ah 2d 3c 4s" (separate words or one quoted string).
    """
    if from_stdin and cards:
        raise click.UsageError(f"give the cards on the command line or with --stdin, not both (got {' '.join(cards)})")
    if from_stdin:
        failed = False
        for lineno, line in enumerate(sys.stdin, 1):
            if not line.strip():
                continue
            try:
                click.echo(json.dumps(_record(line, _evaluate(game, line))))
            except DealerAssistError as exc:
                failed = True
                click.echo(json.dumps({"cards": line.split(), "error": f"line {lineno}: {exc}"}))
        if failed:
            sys.exit(1)
        return
    if not cards:
        raise DealerAssistError("no cards given; pass them like: dealer-assist rank Ah 2d 3c 4s")
    text = " ".join(cards)
    value = _evaluate(game, text)
    if as_json:
        click.echo(json.dumps(_record(text, value)))
    else:
        click.echo(f"{text}: {value.name} (rank {value.rank})")
