"""`dealer-assist simulate`: random legal hands played to the end, as stories, JSON or PHH files."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import click

from dealer_assist.errors import DealerAssistError
from dealer_assist.rules.hand import Hand
from dealer_assist.rules.house_rules import PRESETS, HouseRules
from dealer_assist.rules.phh import dump
from dealer_assist.rules.simulate import simulate_hand
from dealer_assist.rules.story import hand_story


def hand_json(hand: Hand, number: int) -> dict[str, Any]:
    """A finished hand as plain JSON: seats, stacks, steps and the award totals."""
    award = hand.history[-1]
    totals = getattr(award, "award", None)
    return {
        "hand": number,
        "rules": hand.rules.describe(),
        "button": hand.button,
        "seats": list(hand.seats),
        "starting_stacks": {str(s): hand.starting[i] for i, s in enumerate(hand.seats)},
        "finishing_stacks": {str(s): hand.stacks[i] for i, s in enumerate(hand.seats)},
        "steps": [_step_json(step) for step in hand.history],
        "totals": {str(k): v for k, v in totals.totals.items()} if totals is not None else {},
    }


def _step_json(step: object) -> dict[str, Any]:
    out: dict[str, Any] = {"kind": getattr(step, "kind", "step")}
    for name in getattr(step, "__slots__", ()):
        if name == "award":
            continue
        value = getattr(step, name)
        if isinstance(value, tuple):
            value = [None if v is None else str(v) for v in value]
        elif value is not None and not isinstance(value, int | str | bool):
            value = str(value)
        out[name] = value
    return out


@click.command()
@click.option("--game", "preset", type=click.Choice(PRESETS), default="badugi-limit", show_default=True,
              help="House-rules preset to play.")
@click.option("--rules", "rules_file", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="A house-rules TOML file (overrides --game).")
@click.option("--hands", type=click.IntRange(1, 1_000_000), default=1, show_default=True, help="Hands to play.")
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True,
              help="Random seed; the same seed plays the same hands.")
@click.option("--players", type=click.IntRange(2, 10), default=6, show_default=True, help="Seats dealt in.")
@click.option("--phh", "phh_dir", type=click.Path(file_okay=False, path_type=Path),
              help="Write one PHH hand-history file per hand into this folder.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object per hand instead of its story.")
def simulate(preset: str, rules_file: Path | None, hands: int, seed: int, players: int, phh_dir: Path | None,
             as_json: bool) -> None:
    """Play random legal hands (random actions, raises, all-ins and draws) and print each one."""
    rules = HouseRules.from_toml(rules_file) if rules_file else HouseRules.preset(preset)
    rng = random.Random(seed)
    if phh_dir is not None:
        try:
            phh_dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise DealerAssistError(f"cannot create the PHH folder {phh_dir}: {exc.strerror}") from None
    for number in range(1, hands + 1):
        hand = simulate_hand(rules, players, random.Random(rng.randrange(2**63)))
        if phh_dir is not None:
            dump(hand, phh_dir / f"hand-{number:06d}.phh", hand=number)
        if as_json:
            click.echo(json.dumps(hand_json(hand, number)))
        else:
            if number > 1:
                click.echo("")
            click.echo(f"== hand {number} ==")
            click.echo(hand_story(hand))
