"""Review's "Floor read…": the floor keys in the hands the camera did not read after the hand, in the app, through
the window's writer when it holds the log or one opened for it; the hand is awarded as the floor's and the list and
timeline show it; bad input records nothing."""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
from vision_events import _actions, _referee

from dealer_assist.app.models.review import Filters, ReviewModel
from dealer_assist.app.views.review import FloorReadDialog, ReviewView
from dealer_assist.audit.records import DealerAction
from dealer_assist.audit.referee import Referee
from dealer_assist.errors import DealerAssistError
from dealer_assist.store import HandLog, StoredCorrection
from dealer_assist.store.sink import HandLogSink
from dealer_assist.synth.hand_video import SimulatedTable
from dealer_assist.vision.events import CardReplaced, CardsShown, TableEvent

SIM = SimulatedTable("badugi-limit", 2, size=(320, 180), fps=15.0, effects=0)
SHOWN = [e for e in SIM.truth.events if isinstance(e, CardsShown)]
LINES = "\n".join(f"{e.seat}: {' '.join(map(str, e.cards))}" for e in SHOWN)


@pytest.fixture
def log_path(tmp_path: Path) -> Path:
    """One hand with every shown hand turned up but unread: no award."""
    path = tmp_path / "hand-log.sqlite"
    with HandLog.open(path) as log:
        referee = Referee(_referee(SIM).table, HandLogSink(log, log.open_session("T1", "Dana")))
        events = [replace(e, cards=()) if isinstance(e, CardsShown) else e for e in SIM.truth.events]
        items: list[TableEvent | DealerAction] = [*events, *_actions(SIM)]
        referee.feed_all(sorted(items, key=lambda i: (i.t, isinstance(i, DealerAction))))
        referee.close(SIM.frame_count / SIM.fps)
    return path


def _true_totals() -> dict[str, int]:
    referee = _referee(SIM)
    items: list[TableEvent | DealerAction] = [*SIM.truth.events, *_actions(SIM)]
    referee.feed_all(sorted(items, key=lambda i: (i.t, isinstance(i, DealerAction))))
    referee.close(SIM.frame_count / SIM.fps)
    return {str(s): c for s, c in referee.hands[-1].awards[-1].award.totals.items()}


def _awards(path: Path) -> list[StoredCorrection]:
    with HandLog.open_readonly(path) as log:
        return [r for r in log.story(1).records if isinstance(r, StoredCorrection) and r.kind == "award"]


def test_the_model_records_the_reads_and_the_floors_award(log_path: Path) -> None:
    model = ReviewModel(log_path)
    assert [h.id for h in model.hands(Filters(unawarded=True))] == [1]
    ok, text = model.floor_reads(1, LINES, by="floor sue", reason="read from the surveillance video")
    assert ok and f"{len(SHOWN)} floor reads recorded" in text and "The floor's award (correction #" in text, text
    assert _awards(log_path)[-1].data["award"]["totals"] == _true_totals()
    assert model.hands(Filters(unawarded=True)) == []
    [hand] = model.hands()
    assert hand.floor_award and hand.pot
    texts = [line.text for line in model.timeline(1)]
    assert any("FLOOR correction" in t and "awards the pots" in t for t in texts)
    assert any("wins the main pot" in t for t in texts)
    again, text = model.floor_reads(1, LINES, by="floor sue", reason="again")
    assert again and "The award stands as recorded" in text and len(_awards(log_path)) == 1
    model.close()


def test_through_the_window_writer_when_it_holds_the_log(log_path: Path) -> None:
    """The app's table (or demo) holds the log's one writer: the reads go through it instead of a second writer,
    which the log would refuse."""
    model = ReviewModel(log_path)
    with HandLog.open(log_path) as writer:
        with pytest.raises(DealerAssistError, match="being recorded by another process"):
            HandLog.open(log_path)
        model.writer = lambda: writer
        ok, text = model.floor_reads(1, LINES, by="floor sue", reason="read from the video")
        assert ok, text
    assert _awards(log_path)
    model.close()


@pytest.mark.parametrize(("shown", "mucked", "by", "message"), [
    ("3 Ah 2c 3d 4s", "", "sue", "expected SEAT:CARDS"),
    ("9: Ah 2c 3d 4s", "", "sue", "has no seat 9"),
    ("", "x", "sue", "bad seat 'x'"),
    ("", "", "sue", "key in a hand shown"),
    (LINES, "", " ", "give who makes the ruling"),
    (f"{SHOWN[0].seat}: Ah 2c 3d 4s\n{SHOWN[0].seat}: Kd 5c 6h 7s", "", "sue", "given twice"),
])
def test_bad_reads_record_nothing(log_path: Path, shown: str, mucked: str, by: str, message: str) -> None:
    model = ReviewModel(log_path)
    ok, text = model.floor_reads(1, shown, mucked, by=by, reason="why")
    assert not ok and text.startswith("Nothing recorded: ") and message in text, text
    with HandLog.open_readonly(log_path) as log:
        assert not [r for r in log.story(1).records if isinstance(r, StoredCorrection)]
    model.close()


def test_the_shows_and_a_replacement_the_camera_missed_keyed_in_together(tmp_path: Path) -> None:
    """Shows unread and a replacement never seen (pitched under the dealer's hand): the floor keys both in the one
    dialog; the hand refereed again with them gives the true award on no open flag. A bad missed-event line records
    nothing."""
    lost = next(e for e in SIM.truth.events if isinstance(e, CardReplaced))
    path = tmp_path / "hand-log.sqlite"
    with HandLog.open(path) as log:
        referee = Referee(_referee(SIM).table, HandLogSink(log, log.open_session("T1", "Dana")))
        events = [replace(e, cards=()) if isinstance(e, CardsShown) else e for e in SIM.truth.events if e is not lost]
        items: list[TableEvent | DealerAction] = [*events, *_actions(SIM)]
        referee.feed_all(sorted(items, key=lambda i: (i.t, isinstance(i, DealerAction))))
        referee.close(SIM.frame_count / SIM.fps)
    model = ReviewModel(path)
    bad, text = model.floor_reads(1, LINES, "", f"replaced:{lost.seat}", by="floor sue", reason="why")
    assert not bad and "expected KIND:SEAT:SECONDS" in text, text
    assert _awards(path) == []
    ok, text = model.floor_reads(1, LINES, "", f"replaced:{lost.seat}:{lost.t}\n", by="floor sue", reason="video")
    assert ok and "The floor's award" in text, text
    award = _awards(path)[-1].data["award"]
    assert award["totals"] == _true_totals() and "pending_flag_ids" not in award
    model.close()


def test_the_view_button_path(qapp: QApplication, log_path: Path) -> None:
    model = ReviewModel(log_path)
    view = ReviewView(model)
    view.unawarded.setChecked(True)
    view.search()
    assert view.current_hand() == 1
    assert view.floor_read(LINES, "", "floor sue", "read from the video")
    assert "The floor's award" in view.status.text()
    assert view.hands.count() == 0                             # settled: no longer among those with no award
    view.unawarded.setChecked(False)
    view.search()
    assert "(floor)" in view.hands.item(0).text()
    dialog = FloorReadDialog(1, view)
    dialog.shown.setPlainText(LINES)
    dialog.by.setText("sue")
    dialog.missed.setPlainText("replaced:3:27.9")
    assert dialog.values()[0] == LINES and dialog.values()[2] == "sue" and dialog.values()[4] == "replaced:3:27.9"
    view.close()
    model.close()


def test_in_the_window_the_reads_go_through_the_demos_writer(qtbot, qapp: QApplication,  # type: ignore[no-untyped-def]
                                                              app_dirs: Path) -> None:
    """The demo records into the log (its writer holds the log's lock): Review's floor read of an ended demo hand goes
    through that writer, not a second one the log would refuse."""
    from test_app_window import _demo_window

    window = _demo_window(qtbot, qapp, app_dirs, auto_bet=True, seed=9)
    assert window.recorder is not None and window.review_model.writer is not None
    assert window.review_model.writer() is window.recorder.log
    driver = window.driver
    assert driver is not None
    qtbot.waitUntil(lambda: driver.award is not None, timeout=10_000)
    window.pause_ms = 1
    window._next_demo_hand()
    window.recorder.flush()
    model = window.review_model
    qtbot.waitUntil(lambda: any(h.status == "complete" for h in model.hands()), timeout=10_000)
    hand = next(h for h in model.hands() if h.status == "complete")
    story = model.story(hand.id)
    assert story is not None
    shows = [r.event for r in story.records if isinstance(getattr(r, "event", None), CardsShown)]
    lines = "\n".join(f"{e.seat}: {' '.join(map(str, e.cards))}" for e in shows if e.cards)
    ok, text = model.floor_reads(hand.id, lines, by="floor sue", reason="checked on the video")
    assert ok and "being recorded" not in text, text
    window.close()
