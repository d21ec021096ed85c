"""Procedure drills: the simulator deals with injected errors, the trainee marks them; scoring, the
per-trainee record and its chart; a hand dealt at the table scored from the referee's flags."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication

from dealer_assist.app import theme
from dealer_assist.app.main_window import MainWindow
from dealer_assist.app.models.procedure import (
    ERRORS,
    NO_AWARD,
    PARTS,
    CatchDrill,
    CatchTruth,
    score_catch,
    score_refereed_hand,
)
from dealer_assist.app.models.settings import Settings
from dealer_assist.app.models.training import TraineeRecord
from dealer_assist.audit.records import Flag, FlagKind, Severity
from dealer_assist.rules.awards import Award

SCREENSHOTS = Path(__file__).resolve().parent / "_screenshots"


def _award(totals: dict[int, int]) -> Award:
    return Award((), {}, totals)


def test_catch_scoring_each_error_and_the_award() -> None:
    truth = CatchTruth({"exposed_card": (3, 4.2)}, _award({1: 0, 3: 40, 5: 0}))
    perfect = score_catch(truth, {"exposed_card": 3}, 3)
    assert perfect.score == perfect.out_of == len(ERRORS) + 1
    wrong_seat = score_catch(truth, {"exposed_card": 5}, 3)
    assert wrong_seat.score == perfect.out_of - 1 and "you said seat 5" in wrong_seat.lines[
        list(ERRORS).index("exposed_card")][1]
    missed = score_catch(truth, {"skipped_seat": 2}, 1)
    assert missed.score == len(ERRORS) - 2  # invented skip, missed exposure, wrong winner
    misdeal = CatchTruth({"skipped_seat": (2, 3.0)}, None, misdeal=True)
    assert score_catch(misdeal, {"skipped_seat": 2}, NO_AWARD).percent == 100.0
    assert score_catch(misdeal, {"skipped_seat": 2}, 2).score == len(ERRORS)


def test_drills_are_deterministic_and_mix_clean_and_faulty_hands() -> None:
    drills = [CatchDrill.make(seed) for seed in range(40)]
    assert drills == [CatchDrill.make(seed) for seed in range(40)]
    assert any(not d.errors for d in drills) and any(len(d.errors) == 2 for d in drills)
    assert all(set(d.errors) <= set(ERRORS) for d in drills)


def test_table_hand_scored_by_part_from_the_referees_flags() -> None:
    clean = score_refereed_hand([], awarded=True)
    assert clean.score == clean.out_of == len(PARTS)
    flags = [Flag(FlagKind.SEAT_SKIPPED, Severity.MISDEAL, 4, "deal", None, "seat 4 skipped", 2.0),
             Flag(FlagKind.ACTION_OUT_OF_TURN, Severity.WARNING, 2, "action", None, "out of turn", 9.0)]
    scored = score_refereed_hand(flags, awarded=False)
    assert scored.score == 2  # card counts and draws clean; deal order, action order, award not
    assert [ok for ok, _ in scored.lines] == [False, True, True, False, False]


@pytest.fixture
def window(qtbot, qapp: QApplication, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> MainWindow:
    monkeypatch.setenv("DEALER_ASSIST_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("DEALER_ASSIST_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("DEALER_ASSIST_LOG", str(tmp_path / "log" / "hand-log.sqlite"))
    theme.apply_theme(qapp)
    w = MainWindow(Settings(trainee="Robin"), tmp_path / "config" / "settings.json", tmp_path / "data",
                   start_capture=False)
    qtbot.addWidget(w)
    w.resize(1600, 1000)
    w.show()
    return w


def test_catch_drill_played_scored_recorded_and_charted(qtbot, window: MainWindow, tmp_path: Path) -> None:
    window.set_mode("training")
    window.training_tabs.setCurrentWidget(window.procedure)
    view = window.procedure
    drill = view.new_drill(drill=CatchDrill("badugi-limit", 6, ("exposed_card",)), realtime=False, render=False)
    qtbot.waitUntil(lambda: view.finished, timeout=60_000)
    truth = view.truth
    assert truth is not None and set(truth.errors) == {"exposed_card"}
    seat = truth.errors["exposed_card"][0]
    (winner,) = truth.winners() if len(truth.winners()) == 1 else (min(truth.winners()),)
    view.set_marks({"exposed_card": seat}, winner)
    result = view.check()
    assert result is not None and result.percent == 100.0
    assert "caught — seat" in view.result_text()
    record = TraineeRecord(tmp_path / "data", "Robin", kind="procedure")
    assert [a.seed for a in record.attempts] == [drill.seed] and record.percents() == [100.0]
    view.new_drill(drill=CatchDrill("badugi-limit", 7, ("extra_replacement",)), realtime=False, render=False)
    qtbot.waitUntil(lambda: view.finished, timeout=60_000)
    view.set_marks({}, NO_AWARD)
    second = view.check()
    assert second is not None and second.score < second.out_of and "missed" in view.result_text()
    assert view.chart.values == [100.0, second.percent]
    sim = view.worker.sim
    f = min(sim.frame_count - 1, int(view.truth.errors["extra_replacement"][1] * sim.fps) + 5)
    from dealer_assist.app.models.sim_demo import SimFrame

    view.slot.put(SimFrame(sim.render_frame(f), f / sim.fps, f))
    view.video.poll()
    qtbot.wait(30)
    SCREENSHOTS.mkdir(exist_ok=True)
    assert window.grab().save(str(SCREENSHOTS / "mode_training_procedure.png"))


def test_table_hand_button_without_a_table_hand_says_so(qtbot, window: MainWindow) -> None:
    assert window.procedure.score_table_hand() is None
    assert "No hand dealt at the table yet" in window.procedure.result_text()
