"""`dealer-assist app`: open the desktop window (Live, Review, Training, Calibration)."""

from __future__ import annotations

from pathlib import Path

import click


@click.command("app")
@click.option("--mode", type=click.Choice(["live", "review", "training", "calibration"]), default=None,
              help="Mode to open in (default: the one used last).")
@click.option("--settings", "settings_path", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Settings file (default: settings.json in the user config dir).")
@click.option("--screenshot", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Save a PNG of the window once it is shown.")
@click.option("--quit-after", "quit_after_ms", type=click.IntRange(min=1), default=None,
              help="Close the window after this many milliseconds (for screenshots and checks).")
def app(mode: str | None, settings_path: Path | None, screenshot: Path | None, quit_after_ms: int | None) -> None:
    """Open the Dealer Assist window; settings (table, source, house rules, stakes) are remembered."""
    from dealer_assist.app.main_window import run

    raise SystemExit(run(mode=mode, settings_path=settings_path, screenshot=screenshot, quit_after_ms=quit_after_ms))
