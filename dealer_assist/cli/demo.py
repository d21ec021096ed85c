"""`dealer-assist demo`: the app on the built-in simulated table (no camera needed); `--text` tells a hand."""

from __future__ import annotations

import random
from pathlib import Path

import click

from dealer_assist.cli.app_cmd import screenshot_path
from dealer_assist.rules.house_rules import PRESETS, HouseRules
from dealer_assist.rules.simulate import simulate_hand
from dealer_assist.rules.story import hand_story


def text_demo(seed: int, preset: str) -> None:
    """One seeded six-handed hand from the rules engine, card by card, with the award and why."""
    try:
        rules = HouseRules.preset(preset)
    except Exception:  # the demo never fails: fall back to the default table
        rules = HouseRules()
    click.echo(hand_story(simulate_hand(rules, 6, random.Random(seed))))


@click.command()
@click.option("--seed", type=click.IntRange(min=0), default=7, show_default=True, help="Which simulated hands to play.")
@click.option("--game", "preset", type=click.Choice(PRESETS), default="badugi-limit", show_default=True,
              help="House-rules preset for --text (the window uses the preset in its settings).")
@click.option("--text", "as_text", is_flag=True, help="Print one simulated hand's story instead of opening the window.")
@click.option("--screenshot", type=click.Path(path_type=Path), default=None, callback=screenshot_path,
              help="Save a PNG of the window once it is shown.")
@click.option("--quit-after", "quit_after_ms", type=click.IntRange(min=1), default=None,
              help="Close the window after this many milliseconds.")
def demo(seed: int, preset: str, as_text: bool, screenshot: Path | None, quit_after_ms: int | None) -> None:
    """Open Dealer Assist on the simulated table: hands dealt, drawn, bet and shown, refereed live.

    With no display it plays one hand offscreen to showdown, saves screenshots and prints the hand's
    story and award. It never fails: if the window cannot start it tells a simulated hand as text.
    """
    if as_text:
        text_demo(seed, preset)
        return
    try:
        from dealer_assist.app.main_window import run
    except Exception as exc:  # Qt missing or broken: the demo still shows the referee at work
        click.echo(f"(the window is unavailable: {type(exc).__name__}: {exc}; a simulated hand as text instead)",
                   err=True)
        text_demo(seed, preset)
        return
    raise SystemExit(run(demo=True, screenshot=screenshot, quit_after_ms=quit_after_ms, seed=seed))
