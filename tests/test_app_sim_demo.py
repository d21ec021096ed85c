"""The demo on the simulated table's real video: played to showdown through the window, the award shown
equals the rules engine's; injected dealer errors reach the flag list; frames reach the view off the
GUI thread; with no display, run() plays a hand offscreen and never fails."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication

from dealer_assist.app import theme
from dealer_assist.app.main_window import MainWindow, headless_demo
from dealer_assist.app.models.settings import Settings
from dealer_assist.app.models.sim_demo import SimFrame
from dealer_assist.audit.records import FlagKind

SCREENSHOTS = Path(__file__).resolve().parent / "_screenshots"


@pytest.fixture
def window(qtbot, qapp: QApplication, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> MainWindow:
    monkeypatch.setenv("DEALER_ASSIST_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("DEALER_ASSIST_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("DEALER_ASSIST_LOG", str(tmp_path / "log" / "hand-log.sqlite"))
    theme.apply_theme(qapp)
    w = MainWindow(Settings(), tmp_path / "config" / "settings.json", tmp_path / "data", start_capture=False)
    qtbot.addWidget(w)
    w.pause_ms = 60_000
    w.resize(1600, 1000)
    w.show()
    return w


def _play_to_end(qtbot, window: MainWindow) -> None:
    worker = window.sim_worker
    assert worker is not None
    qtbot.waitUntil(lambda: worker.status in ("ended", "failed") and not window.sim_timer.isActive(), timeout=60_000)
    assert worker.status == "ended", worker.error


def test_video_demo_hand_to_showdown_award_shown_is_the_rules_engines(qtbot, window: MainWindow) -> None:
    worker = window.start_video_demo(seed=3, realtime=False, render=False)
    _play_to_end(qtbot, window)
    award = window.sim_award
    truth = worker.award  # the rules engine's award_pots on the simulated hand's pots and the cards shown
    assert award is not None and truth is not None
    assert dict(award.totals) == dict(truth.totals) and award.pots == truth.pots
    assert window.live.showdown.award == award
    assert window.live.center.currentWidget() is window.live.showdown
    text = window.live.showdown.text()
    for pot in truth.pots:
        assert f"{pot.name.capitalize()} — {pot.amount} chips" in text
        for share in pot.shares:
            assert f"Seat {share.seat}" in text and f"{share.amount} chip" in text
    assert not window.flags.entries  # a clean hand raises nothing
    assert not window.notice.isVisible()
    hint = worker.hints.hint  # the referee's phase went back to the tracker, frame by frame up to the last
    assert worker.lockstep and hint is not None and hint.phase == "showdown"
    assert hint.as_of == pytest.approx(worker.last_t - worker.horizon_s)


def test_video_demo_injected_error_is_flagged_on_its_seat(qtbot, window: MainWindow) -> None:
    worker = window.start_video_demo(seed=6, errors=("exposed_card",), realtime=False, render=False)
    _play_to_end(qtbot, window)
    injected = worker.sim.truth.errors[0]
    kinds = {(e.flag.kind, e.flag.seat) for e in window.flags.entries}
    assert (FlagKind.CARD_EXPOSED, injected.seat) in kinds
    f = injected.frame + 5  # the frame a little after the card landed face up, with its overlays
    from dealer_assist.app.models.sim_demo import truth_detections

    window.slot.put(SimFrame(worker.sim.render_frame(f), f / worker.sim.fps, f, truth_detections(worker.sim, f)))
    window.live.video.poll()
    window.live.center.setCurrentWidget(window.live.video)
    qtbot.wait(30)
    SCREENSHOTS.mkdir(exist_ok=True)
    assert window.grab().save(str(SCREENSHOTS / "demo_video_flag.png"))


def test_video_demo_frames_reach_the_view_in_real_time(qtbot, window: MainWindow) -> None:
    window.start_video_demo(seed=3)
    qtbot.waitUntil(lambda: window.live.video.shown >= 5, timeout=20_000)
    frame = window.live.video.frame
    assert isinstance(frame, SimFrame) and frame.detections is not None and len(frame.detections) > 0
    assert frame.image.shape == (720, 1280, 3)
    assert len(window.live.video.overlays) == 2  # zones, then detections + flags + caption
    qtbot.wait(30)
    SCREENSHOTS.mkdir(exist_ok=True)
    assert window.grab().save(str(SCREENSHOTS / "demo_video.png"))
    window.stop_demo()
    assert window.sim_worker is None and window.session is None
    from dealer_assist.app.widgets.detections_overlay import DetectionsOverlay
    from dealer_assist.app.widgets.table_overlay import TableOverlay

    overlays = window.live.video.overlays       # the demo's detections and flags no longer drawn on the view
    assert len(overlays) == 1 and isinstance(overlays[0], TableOverlay)
    assert not any(isinstance(o, DetectionsOverlay) for o in overlays)


def test_headless_run_plays_a_hand_and_never_fails(qtbot, qapp, tmp_path: Path, capsys) -> None:
    out = tmp_path / "shots" / "demo.png"
    assert headless_demo(seed=3, settings_path=tmp_path / "settings.json", out=out) == 0
    printed = capsys.readouterr().out
    assert out.is_file() and out.with_name("demo-showdown.png").is_file()
    assert "Award:" in printed and "wins the main pot" in printed and "is the same." in printed


def test_video_demo_hands_recorded_in_the_hand_log(qtbot, window: MainWindow) -> None:
    """The video demo's hands go to the hand log through the store's adapter, and verify."""
    window.start_video_demo(seed=3, realtime=False, render=False)
    _play_to_end(qtbot, window)
    window.set_mode("review")
    assert window.review.hands.count() == 1 and "demo (simulated video)" in window.review.hands.item(0).text()
    texts = window.review.timeline_texts()
    assert any("Award:" in t for t in texts) and any("dealt" in t for t in texts)
    assert window.review.verify()
