"""Simulated hand videos for the audit tests: the sim-video truth and a blank video with its frame count.

The ground-truth detector (`--detector fake:TRUTH.json`) does not look at pixels, so a tiny black
video with the right number of frames stands in for the rendered one and keeps the tests fast.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from dealer_assist.synth.hand_video import SimulatedTable


def make_sim_video(folder: Path, game: str, seed: int, errors: list[str], *, rendered: bool = False,
                   size: tuple[int, int] = (640, 360), players: int | None = None,
                   short_stacks: bool = False) -> tuple[Path, Path, SimulatedTable]:
    """(video, truth, table) for one simulated hand; `rendered` draws the real frames (slow); `short_stacks`: unequal
    stacks, so all-ins make side pots."""
    folder.mkdir(parents=True, exist_ok=True)
    name = f"{game}-{seed}-{'-'.join(errors) or 'clean'}{'-r' if rendered else ''}{'-short' if short_stacks else ''}"
    table = SimulatedTable(game, seed, errors=errors, size=size, fps=15, players=players, short_stacks=short_stacks)
    truth = table.truth.save(folder / f"{name}.truth.json")
    video = folder / f"{name}.mp4"
    frame_size = size if rendered else (64, 64)
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter.fourcc(*"mp4v"), table.fps, frame_size)
    blank = np.zeros((64, 64, 3), np.uint8)
    for f in range(table.frame_count):
        writer.write(table.render_frame(f) if rendered else blank)
    writer.release()
    return video, truth, table
