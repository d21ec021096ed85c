"""A ground-truth detector for simulated videos: what a perfect detector would see in each frame.

`dealer-assist audit VIDEO --detector fake:TRUTH.json` (before a trained model exists, and in tests)
rebuilds the simulated hand of a `sim-video` truth file (the same seed gives the same motion) and,
for frame f, returns every card (face up: which; face down: "back") and the button where the
simulation put them, through the truth's camera homography. Pixels are not looked at, so any video
with the right number of frames will do. The rebuilt hand must reproduce the truth's events exactly.
"""

from __future__ import annotations

import itertools
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from dealer_assist.errors import DealerAssistError
from dealer_assist.rules.house_rules import HouseRules
from dealer_assist.synth.hand_video import SimulatedTable, _Builder, build_script
from dealer_assist.synth.truth_detections import placement_detections
from dealer_assist.vision.calibration import CameraCalibration
from dealer_assist.vision.detections import Detections
from dealer_assist.vision.table_profile import TableProfile


@dataclass(frozen=True)
class SimTruth:
    """What the audit needs from a sim-video truth file."""

    data: dict[str, Any]
    profile: TableProfile

    @classmethod
    def load(cls, path: str | Path) -> SimTruth:
        p = Path(path)
        try:
            data = json.loads(p.read_text("utf-8"))
            profile = TableProfile.from_dict(data["table_profile"], str(p))
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise DealerAssistError(f"cannot read sim-video truth {p}: {exc}") from None
        return cls(data, profile)

    @property
    def homography(self) -> npt.NDArray[np.float64]:
        return np.asarray(self.data["homography"], dtype=np.float64)

    def calibration(self) -> CameraCalibration:
        size = (int(self.data["width"]), int(self.data["height"]))
        return CameraCalibration.from_table_to_image(self.homography, size, self.profile.name)


def rebuild_script(truth: SimTruth) -> _Builder:
    """The simulated motion behind a truth file (tries the error orders and player counts it may have used)."""
    data = truth.data
    rules = HouseRules.preset(str(data["game"]))
    kinds = [str(e["kind"]) for e in data.get("errors", [])]
    want = data["events"]
    tried = 0
    for players in (None, len(data["players"])):
        for order in dict.fromkeys(itertools.permutations(kinds)):
            tried += 1
            try:
                builder, _ = build_script(rules, truth.profile, int(data["seed"]), fps=float(data["fps"]),
                                          players=players, errors=list(order), short_stacks="stacks" in data)
            except DealerAssistError:
                continue
            if [e.to_dict() for e in builder.events] == want:
                return builder
    raise DealerAssistError(f"cannot rebuild the simulated hand of this truth file ({tried} tries); was it made "
                            "by another version of sim-video?")


class TruthDetector:
    """Detections of frame `calls` (one call per frame, in order) from the rebuilt simulation."""

    name = "fake-truth"
    reads_image = False  # the simulation's own detections: the video's frames may be placeholders of any size

    def __init__(self, truth: SimTruth) -> None:
        self.truth = truth
        self._table = SimulatedTable.__new__(SimulatedTable)
        self._table._script = rebuild_script(truth)
        self.calls = 0

    def detections_at(self, frame: int) -> Detections:
        return placement_detections(SimulatedTable.placements(self._table, frame), self.truth.homography)

    def detect(self, image: npt.NDArray[np.uint8]) -> Detections:
        frame = self.calls
        self.calls += 1
        return self.detections_at(frame)
