"""Review: step through a refereed hand from the log — key frames read back by SHA-256, each seat's state at
each step, flags, the award — and export it as json, csv and phh."""

from __future__ import annotations

import json
import re
from pathlib import Path

import cv2
import numpy as np
import pytest
from PySide6.QtWidgets import QApplication

from dealer_assist.app import theme
from dealer_assist.app.main_window import MainWindow
from dealer_assist.app.models.flags import FlagListModel
from dealer_assist.app.models.live_session import LiveSession
from dealer_assist.app.models.review import ReviewModel, summary_line
from dealer_assist.app.models.settings import Settings
from dealer_assist.app.models.sim_demo import SimVideoWorker
from dealer_assist.app.models.table import TableModel
from dealer_assist.audit.referee import Referee
from dealer_assist.store.handlog import HandLog
from dealer_assist.store.sink import HandLogSink, HeldFrame

SCREENSHOTS = Path(__file__).resolve().parent / "_screenshots"


class _RenderOnDemand:
    """Key frames for the sink: the simulated frame, rendered when the referee asks for it (half size)."""

    def __init__(self, sim) -> None:
        self.sim = sim

    def nearest(self, index: int | None, t: float | None = None) -> HeldFrame:
        f = min(max(0, index or 0), self.sim.frame_count - 1)
        return HeldFrame(f, f / self.sim.fps, np.ascontiguousarray(self.sim.render_frame(f)[::2, ::2]))


def _jpeg(image: np.ndarray) -> bytes:
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 80])
    assert ok
    return data.tobytes()


@pytest.fixture(scope="module")
def recorded_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One simulated hand with an exposed card, refereed into a hand log with its key frames."""
    path = tmp_path_factory.mktemp("log") / "hand-log.sqlite"
    worker = SimVideoWorker("badugi-limit", 6, errors=("exposed_card",), realtime=False, render=False)
    worker.start()
    worker.join(timeout=60)
    assert worker.status == "ended" and worker.config is not None
    log = HandLog.open(path)
    session = log.open_session("sim table", "trainee dealer", house_rules=worker.config.rules.to_dict())
    referee = Referee(worker.config, HandLogSink(log, session, frames=_RenderOnDemand(worker.sim), encode=_jpeg))
    live = LiveSession(referee, TableModel(), FlagListModel(), worker)  # puts the queued items in time order
    live.poll(limit=None)
    assert live.ended
    live.stop()
    log.close()
    return path


def test_review_model_timeline_has_key_frames_and_seat_states(recorded_log: Path) -> None:
    model = ReviewModel(recorded_log)
    (hand,) = model.hands()
    assert hand.pot and hand.won and f"pot {hand.pot} to seat " in summary_line(hand)   # the hand list shows the award
    lines = model.timeline(hand.id)
    kinds = [line.kind for line in lines]
    assert "snapshot" in kinds and "flag" in kinds and "award" in kinds
    flag = next(line for line in lines if line.kind == "flag")
    assert flag.snapshot is not None and model.snapshot_bytes(flag.snapshot)[:3] == b"\xff\xd8\xff"
    dealt = [line for line in lines if line.kind == "event" and line.seats]
    assert dealt and all(len(line.seats) >= 2 for line in dealt)
    assert any(s.cards for s in lines[-1].seats)
    for fmt in ("json", "csv", "phh"):
        assert model.export(hand.id, fmt).strip()
    assert json.loads(model.export(hand.id, "json"))
    model.close()


@pytest.mark.parametrize("fmt", ["json", "csv"])
def test_review_exports_carry_the_chain_and_check_against_the_log(recorded_log: Path, tmp_path: Path,
                                                                   fmt: str) -> None:
    """An export saved from Review is checked against the log like `log export`'s: each row with its hash."""
    from click.testing import CliRunner

    from dealer_assist.cli import cli

    model = ReviewModel(recorded_log)
    (hand,) = model.hands()
    text = model.export(hand.id, fmt)
    model.close()
    path = tmp_path / f"hand.{fmt}"
    path.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(cli, ["log", "verify", "--log", str(recorded_log), "--export", str(path)])
    assert result.exit_code == 0, result.output
    assert "matches the log" in result.output
    edited = re.sub(r'"t": (\d)', r'"t": 9\1', text, count=1) if fmt == "json" else text.replace("dealt", "dealt!", 1)
    assert edited != text
    path.write_text(edited, encoding="utf-8")
    result = CliRunner().invoke(cli, ["log", "verify", "--log", str(recorded_log), "--export", str(path)])
    assert result.exit_code == 1, result.output


def test_review_view_steps_through_a_hand_with_key_frames(qtbot, qapp: QApplication, recorded_log: Path,
                                                         tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DEALER_ASSIST_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("DEALER_ASSIST_DATA_DIR", str(tmp_path / "data"))
    theme.apply_theme(qapp)
    window = MainWindow(Settings(mode="review"), tmp_path / "config" / "settings.json", tmp_path / "data",
                        start_capture=False, log_path=recorded_log)
    qtbot.addWidget(window)
    window.resize(1600, 1000)
    window.show()
    review = window.review
    assert review.hands.count() == 1
    rows = review.timeline.count()
    assert review.step_label.text().startswith(f"Step 1 of {rows}")
    flag_row = next(i for i, line in enumerate(review._lines) if line.kind == "flag")
    for _ in range(flag_row):
        review.step(1)
    assert review.timeline.currentRow() == flag_row
    assert review.shown_key_frame() == review._lines[flag_row].snapshot
    assert "Seat " in review.seat_states.text() and "stack" in review.seat_states.text()
    qtbot.wait(30)
    SCREENSHOTS.mkdir(exist_ok=True)
    assert window.grab().save(str(SCREENSHOTS / "mode_review_step_flag.png"))
    for fmt in ("json", "csv", "phh"):
        out = review.export_to(tmp_path / f"hand.{fmt}", fmt)
        assert out is not None and out.read_text().strip()
    window.close()
