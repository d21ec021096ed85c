"""`dealer-assist app`: open the desktop window (Live, Review, Training, Calibration)."""

from __future__ import annotations

from pathlib import Path

import click

from dealer_assist.cli.sources import output_file

SCREENSHOT_TYPES = (".png", ".jpg", ".jpeg", ".bmp")


def screenshot_path(_ctx: click.Context, _param: click.Parameter, value: Path | None) -> Path | None:
    """`--screenshot`: checked before the window opens, so a path it cannot be saved to is one error line rather
    than a fault inside the running window."""
    if value is None:
        return None
    if value.suffix.lower() not in SCREENSHOT_TYPES:
        raise click.BadParameter(f"{value}: accepted image types: {', '.join(SCREENSHOT_TYPES)}")
    return output_file(value, "--screenshot")


@click.command("app")
@click.option("--mode", type=click.Choice(["live", "review", "training", "calibration"]), default=None,
              help="Mode to open in (default: the one used last).")
@click.option("--settings", "settings_path", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Settings file (default: settings.json in the user config dir).")
@click.option("--screenshot", type=click.Path(path_type=Path), default=None, callback=screenshot_path,
              help="Save a PNG of the window once it is shown.")
@click.option("--quit-after", "quit_after_ms", type=click.IntRange(min=1), default=None,
              help="Close the window after this many milliseconds (for screenshots and checks).")
@click.option("--demo", is_flag=True, help="Play simulated hands on the live view (no camera needed).")
@click.option("--manual-betting", is_flag=True,
              help="With --demo: wait for each betting action on the action pad (F, C, B, R, digits, Enter).")
@click.option("--seed", type=click.IntRange(min=0), default=1, show_default=True,
              help="With --demo: seed of the simulated hands.")
def app(mode: str | None, settings_path: Path | None, screenshot: Path | None, quit_after_ms: int | None,
        demo: bool, manual_betting: bool, seed: int) -> None:
    """Open the Dealer Assist window; settings (table, source, house rules, stakes) are remembered."""
    from dealer_assist.app.main_window import run
    from dealer_assist.cli.sources import register_sources

    register_sources()             # sim:GAME:SEED sources in the source field

    raise SystemExit(run(mode=mode, settings_path=settings_path, screenshot=screenshot, quit_after_ms=quit_after_ms,
                         demo=demo, auto_bet=not manual_betting, seed=seed))
