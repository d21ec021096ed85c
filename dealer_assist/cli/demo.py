"""`dealer-assist demo`: until the desktop app exists, one seeded simulated hand told as its story."""

from __future__ import annotations

import random

import click

from dealer_assist.rules.house_rules import HouseRules
from dealer_assist.rules.simulate import simulate_hand
from dealer_assist.rules.story import hand_story


@click.command()
@click.option("--seed", type=int, default=7, show_default=True, help="Which simulated hand to tell.")
@click.option("--game", "preset", default="badugi-limit", show_default=True, help="House-rules preset.")
def demo(seed: int, preset: str) -> None:
    """Show what the referee knows: a simulated six-handed hand, card by card, with the award and why."""
    try:
        rules = HouseRules.preset(preset)
    except Exception:  # the demo never fails: fall back to the default table
        rules = HouseRules()
    hand = simulate_hand(rules, 6, random.Random(seed))
    click.echo(hand_story(hand))
