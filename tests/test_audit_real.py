"""`dealer-assist audit` on a rendered simulated hand through the trained detector (skipped until models/ has one)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from audit_videos import make_sim_video
from click.testing import CliRunner

from dealer_assist.cli import cli
from dealer_assist.synth.hand_video import FLAG_OF_ERROR as FLAG_OF
from dealer_assist.vision.detector import MANIFEST_NAME, MODELS_DIR

pytestmark = pytest.mark.skipif(not (MODELS_DIR / MANIFEST_NAME).is_file(),
                                reason="no trained detector in models/ yet (dealer-assist train)")


# The shipped models were trained on a short budget (CPU rounds, then three rounds of 7 to 8 minutes on a GPU): on
# the 24 benchmark videos `audit` still raises flags the injected errors do not explain (models/README.md). This case
# failed until 2026-11-27 (a strict expected failure): the camera counted a card of seat 4 and one of seat 5 a frame to
# a pitch early, and the deal checker took each for a card out of turn and the seat's own turn for a skip; at a
# camera's table (`TableConfig.camera`) a card out of turn now fills its seat's turn when no card lands there then,
# and the deal's order findings stand only if it left a seat short or over. One case only, to keep CI short.
@pytest.mark.parametrize(("seed", "errors"), [(22, ["wrong_seat"])])
def test_rendered_video_through_the_detector(tmp_path: Path, seed: int, errors: list[str]) -> None:
    video, truth, table = make_sim_video(tmp_path, "badugi-limit", seed, errors, rendered=True, size=(1280, 720))
    result = CliRunner().invoke(cli, ["audit", str(video), "--table", "oval-9", "--truth", str(truth),
                                      "--log", str(tmp_path / "log.sqlite"), "--json", "--no-progress"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    got = sorted((f["kind"], f["seat"]) for h in report["hands"] for f in h["flags"])
    assert got == sorted((FLAG_OF[e.kind], e.seat) for e in table.truth.errors)
