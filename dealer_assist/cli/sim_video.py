"""`dealer-assist sim-video`: a simulated hand as an mp4 plus its ground truth (events, errors, geometry)."""

from __future__ import annotations

from pathlib import Path

import click

from dealer_assist.cli.sources import FiniteRange, output_file, profile_file
from dealer_assist.errors import DealerAssistError
from dealer_assist.rules.house_rules import PRESETS


def _sizes(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise click.BadParameter(f"{text!r} is not WIDTHxHEIGHT, e.g. 1280x720") from None
    if not (64 <= w <= 4096 and 64 <= h <= 4096):
        raise click.BadParameter(f"{text!r}: width and height must be 64 to 4096")
    return w, h


@click.command("sim-video")
@click.option("--game", type=click.Choice(PRESETS), default="badugi-limit", show_default=True,
              help="House-rules preset of the simulated hand.")
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True,
              help="Seed: the same seed gives the same video.")
@click.option("--errors", default="", metavar="LIST",
              help="Comma-separated dealer errors to inject: skipped_seat, wrong_seat, extra_replacement, "
                   "exposed_card.")
@click.option("--table", "table", default="oval-9", show_default=True, metavar="PROFILE",
              help="Table profile: a shipped name (oval-9, oval-6) or a TOML path.")
@click.option("--players", type=click.IntRange(2, 10), default=None,
              help="Players dealt in (default: 3 to 6 at random).")
@click.option("--size", default="1280x720", show_default=True, help="Frame size WIDTHxHEIGHT.")
@click.option("--fps", type=FiniteRange(1.0, 240.0), default=15.0, show_default=True, help="Frames per second.")
@click.option("--split", type=click.Choice(["held_out", "train", "all"]), default="held_out", show_default=True,
              help="Which card designs to draw from.")
@click.option("--felt-print", "felt_print", type=click.IntRange(0, 60), default=0, show_default=True,
              help="Pieces of print on the felt (lettering, lone printed chips): none of it is a card or an event.")
@click.option("--short-stacks", "short_stacks", is_flag=True, default=False,
              help="Some seats start short (a few big blinds, drawn from the seed) so all-ins make side pots; the "
                   "truth records the stacks. Default: every seat 40 big blinds (big bets in fixed limit).")
@click.option("--out", "out", required=True, type=click.Path(dir_okay=False), help="Video file to write (.mp4).")
@click.option("--truth", "truth", required=True, type=click.Path(dir_okay=False), help="Truth JSON to write.")
def sim_video(game: str, seed: int, errors: str, table: str, players: int | None, size: str, fps: float, split: str,
              felt_print: int, short_stacks: bool, out: str, truth: str) -> None:
    """Render a simulated hand (deal, draws, folds, showdown) with exact ground-truth table events."""
    from dealer_assist.synth.hand_video import VIDEO_SUFFIXES, SimulatedTable, write_video
    from dealer_assist.vision.table_profile import load_profile

    wanted = [e.strip() for e in errors.split(",") if e.strip()]
    profile = load_profile(table)
    if players is not None and players > profile.seat_count:
        raise click.BadParameter(f"{players} players do not fit table {profile.name}; accepted: 2 to "
                                 f"{profile.seat_count} (its seats)", param_hint="'--players'")
    if Path(out).suffix.lower() not in VIDEO_SUFFIXES:    # before rendering, and before OpenCV says it its own way
        raise click.BadParameter(f"{out!r} is not a video file name; accepted suffixes: {', '.join(VIDEO_SUFFIXES)}",
                                 param_hint="'--out'")
    source_file = profile_file(profile)
    output_file(out, "--out", {"the truth file (--truth)": truth, "the table profile (--table)": source_file})
    output_file(truth, "--truth", {"the table profile (--table)": source_file})
    source = SimulatedTable(game, seed, errors=wanted, profile=profile, size=_sizes(size), fps=fps,
                            players=players, split=split, felt_print=felt_print,  # type: ignore[arg-type]
                            short_stacks=short_stacks)
    click.echo(f"{source.frame_count} frames at {fps:g} fps, {len(source.truth.events)} events, "
               f"{len(source.truth.errors)} injected errors; designs {source.truth.face_design} / "
               f"{source.truth.back_design}", err=True)
    write_video(source, out)
    try:
        source.truth.save(truth)
    except OSError as exc:
        why = exc.strerror or str(exc)
        raise DealerAssistError(f"cannot write --truth {truth}: {why} (the video is in {out})") from None
    click.echo(f"wrote {out} and {truth}")
