"""Every widget under pytest-qt (offscreen): seats, action pad and its keys, pots, flags and PIN, showdown, drills."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from dealer_assist.app import theme
from dealer_assist.app.models.action_pad import ActionPadModel
from dealer_assist.app.models.capture import LatestFrame, SyntheticSource
from dealer_assist.app.models.demo import sample_award, sample_flags, sample_prompt, sample_seats
from dealer_assist.app.models.flags import FlagListModel
from dealer_assist.app.models.table import SeatState, TableModel
from dealer_assist.app.models.training import expected_answer, make_drill
from dealer_assist.app.views.training import TrainingView
from dealer_assist.app.widgets.action_pad import ActionPad
from dealer_assist.app.widgets.flag_list import FlagList
from dealer_assist.app.widgets.frame_view import FrameView
from dealer_assist.app.widgets.pots import PotsDisplay
from dealer_assist.app.widgets.score_chart import ScoreChart
from dealer_assist.app.widgets.seat_panel import SeatPanel, SeatsGrid
from dealer_assist.app.widgets.showdown_board import ShowdownBoard
from dealer_assist.audit.records import DealerAction, LegalAction, Prompt
from dealer_assist.cards import parse_cards


@pytest.fixture(autouse=True)
def _themed(qapp: QApplication) -> None:
    theme.apply_theme(qapp)


def test_seat_panel_shows_everything(qtbot) -> None:
    state = SeatState(4, "Dee", 390, tuple(parse_cards("Ac 3d 5h 8s")), "in", (1, 0), 60)
    panel = SeatPanel(state)
    qtbot.addWidget(panel)
    assert panel.title.text() == "Seat 4" and panel.player.text() == "Dee"
    assert "390" in panel.stack.text() and "60" in panel.stack.text()
    assert panel.hand.text() == "8-5-3-A badugi"
    assert panel.status.text() == "IN" and panel.draws.text() == "drew 1, pat"
    panel.set_state(SeatState(4, "Dee", 390, (None,) * 4, "in"), to_act=True)
    assert panel.status.text() == "TO ACT" and panel.hand.text() == "4 cards"
    panel.set_state(SeatState(4, "Dee", 0, (None,) * 4, "all-in"))
    assert panel.status.text() == "ALL-IN"
    panel.set_state(SeatState(4, "Dee", 0, (), "folded"), to_act=False)
    assert panel.status.text() == "FOLDED" and panel.hand.text() == "no cards"


def test_badacey_seat_shows_both_names(qtbot) -> None:
    panel = SeatPanel(SeatState(1, cards=tuple(parse_cards("Ac 2d 3h 4s 5c"))), game="badacey")
    qtbot.addWidget(panel)
    assert panel.hand.text().splitlines() == ["low: 5-4-3-2-A low", "badugi: 4-3-2-A badugi"]


def test_seats_grid_follows_model(qtbot) -> None:
    table = TableModel(seats=sample_seats())
    table.set_prompt(sample_prompt())
    grid = SeatsGrid(table)
    qtbot.addWidget(grid)
    assert sorted(grid.panels) == [1, 2, 3, 4, 5, 6]
    assert grid.panels[5].status.text() == "TO ACT"
    table.update_seat(2, status="folded", cards=())
    assert grid.panels[2].status.text() == "FOLDED"
    table.set_prompt(Prompt("betting", actor=1, legal=(LegalAction("check"),)))
    assert grid.panels[1].status.text() == "TO ACT" and grid.panels[5].status.text() == "IN"


def _pad(qtbot, prompt: Prompt | None = None) -> tuple[ActionPad, list[DealerAction]]:
    model = ActionPadModel()
    pad = ActionPad(model)
    qtbot.addWidget(pad)
    model.set_prompt(prompt or sample_prompt())
    sent: list[DealerAction] = []
    model.submitted.connect(sent.append)
    pad.show()
    pad.setFocus()
    return pad, sent


def test_pad_buttons_reflect_prompt_with_reasons(qtbot) -> None:
    pad, _ = _pad(qtbot)
    assert pad.buttons["call"].isEnabled() and "60" in pad.buttons["call"].text()
    assert not pad.buttons["check"].isEnabled()
    assert "faces a bet" in pad.buttons["check"].toolTip()
    assert not pad.buttons["bet"].isEnabled() and "raise instead" in pad.buttons["bet"].toolTip()
    assert "Seat 5 to act" in pad.prompt_label.text()


def test_pad_keyboard_call(qtbot) -> None:
    pad, sent = _pad(qtbot)
    qtbot.keyClick(pad, Qt.Key.Key_C)
    assert pad.buttons["call"].isChecked()
    qtbot.keyClick(pad, Qt.Key.Key_Return)
    assert sent == [DealerAction(5, "call", 60)]


def test_pad_keyboard_fold_and_escape(qtbot) -> None:
    pad, sent = _pad(qtbot)
    qtbot.keyClick(pad, Qt.Key.Key_F)
    qtbot.keyClick(pad, Qt.Key.Key_Escape)
    qtbot.keyClick(pad, Qt.Key.Key_Enter)
    assert not sent and "choose an action first" in pad.status.text()
    qtbot.keyClick(pad, Qt.Key.Key_F)
    qtbot.keyClick(pad, Qt.Key.Key_Enter)
    assert sent == [DealerAction(5, "fold")]


def test_pad_keyboard_raise_with_digits(qtbot) -> None:
    prompt = Prompt("betting", actor=3, legal=(LegalAction("fold"), LegalAction("call", 20, 20),
                                               LegalAction("raise", 40, 300)))
    pad, sent = _pad(qtbot, prompt)
    qtbot.keyClicks(pad, "r150")
    assert "150" in pad.status.text()
    qtbot.keyClick(pad, Qt.Key.Key_Return)
    assert sent == [DealerAction(3, "raise", 150)]
    qtbot.keyClicks(pad, "r30")
    qtbot.keyClick(pad, Qt.Key.Key_Return)
    assert len(sent) == 1 and "below the minimum 40" in pad.status.text()


def test_pad_refuses_out_of_turn_with_reason(qtbot) -> None:
    pad, sent = _pad(qtbot)
    qtbot.keyClicks(pad, "s2")
    qtbot.keyClick(pad, Qt.Key.Key_Return)
    qtbot.keyClick(pad, Qt.Key.Key_C)
    qtbot.keyClick(pad, Qt.Key.Key_Return)
    assert not sent
    assert pad.status.text() == "Refused: seat 2 is acting out of turn: seat 5 is to act"


def test_pad_click_then_enter(qtbot) -> None:
    pad, sent = _pad(qtbot)
    qtbot.mouseClick(pad.buttons["raise"], Qt.MouseButton.LeftButton)
    qtbot.keyClick(pad, Qt.Key.Key_Return)
    assert sent == [DealerAction(5, "raise", 80)]


def test_pots_display_builds(qtbot) -> None:
    table = TableModel(seats=[SeatState(1, committed=10), SeatState(2, committed=10), SeatState(3, committed=0)])
    pots = PotsDisplay(table)
    qtbot.addWidget(pots)
    assert pots.total.text() == "20" and "Main pot: 20" in pots.lines[0].text()
    table.update_seat(3, committed=4, status="all-in")
    table.update_seat(1, committed=30)
    table.update_seat(2, committed=30)
    texts = [label.text() for label in pots.lines]
    assert pots.total.text() == "64"
    assert texts[0].startswith("Main pot: 12") and "seats 1, 2, 3" in texts[0]
    assert texts[1].startswith("Side pot 1: 52") and "seats 1, 2)" in texts[1]


def test_flag_list_colours_and_pin_dialog(qtbot) -> None:
    model = FlagListModel(pin="1357")
    for flag in sample_flags():
        model.add(flag)
    widget = FlagList(model)
    qtbot.addWidget(widget)
    assert widget.list.count() == 3
    assert "[WARNING]" in widget.list.item(0).text()  # newest first (t=41.2)
    colours = {widget.list.item(i).foreground().color().name() for i in range(3)}
    assert len(colours) == 3  # one colour per severity
    assert not widget.accept_button.isEnabled()
    widget.list.setCurrentRow(0)
    assert widget.accept_button.isEnabled()
    dialog = widget.open_dialog("dismissed", modal=False)
    assert dialog is not None
    qtbot.addWidget(dialog)
    dialog.pin.setText("0000")
    dialog.reason.setText("glare on the camera")
    dialog.try_accept()
    assert "wrong supervisor PIN" in dialog.error.text() and dialog.isVisible()
    dialog.pin.setText("1357")
    dialog.try_accept()
    assert not dialog.isVisible()
    assert model.entries[0].resolution == "dismissed"
    assert "dismissed (glare on the camera)" in widget.list.item(0).text()
    widget.list.setCurrentRow(0)
    assert not widget.dismiss_button.isEnabled()


def test_showdown_board_reads_out(qtbot) -> None:
    board = ShowdownBoard()
    qtbot.addWidget(board)
    assert "no award yet" in board.text()
    board.set_award(sample_award())
    text = board.text()
    assert "Main pot — 155 chips" in text
    assert "Seat 4: 78 chips — 9-7-4-2 badugi" in text and "Seat 1: 77 chips" in text
    assert "includes the odd chip: first tied winner clockwise from the button" in text
    assert "Side pot 1 — 78 chips" in text and "Totals:" in text
    assert "rovisional" not in text
    board.set_award(sample_award(), "provisional: a flag is open (misdeal card_exposed, seat 2); the floor decides")
    assert board.text().startswith("Provisional: a flag is open (misdeal card_exposed, seat 2)")
    assert board._labels[0].objectName() == "boardProvisional"


def test_score_chart_paints(qtbot) -> None:
    chart = ScoreChart()
    qtbot.addWidget(chart)
    chart.resize(400, 240)
    empty = chart.grab().toImage()
    chart.set_values([50, 100, 0, 75])
    drawn = chart.grab().toImage()
    assert drawn != empty and chart.rolling()[-1] == pytest.approx(56.25)


def test_frame_view_polls_latest(qtbot) -> None:
    slot = LatestFrame()
    view = FrameView(slot, interval_ms=5)
    qtbot.addWidget(view)
    view.show()
    source = SyntheticSource(160, 90)
    for _ in range(3):
        frame = source.read()
        assert frame is not None
        slot.put(frame)
    qtbot.waitUntil(lambda: view.shown == 1, timeout=2000)
    assert view.frame is not None and view.frame.index == 2 and slot.dropped == 2


def _training(qtbot, tmp_path: Path) -> TrainingView:
    view = TrainingView(tmp_path, "Sam", seed=7)
    qtbot.addWidget(view)
    view.resize(1500, 950)
    view.show()
    view.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is view, timeout=2000)
    return view


def test_training_drill_scored_right(qtbot, tmp_path: Path) -> None:
    view = _training(qtbot, tmp_path)
    assert view.drill is not None and view.drill.seed == 7
    view.set_answer(expected_answer(view.drill.award()))
    qtbot.mouseClick(view.check_button, Qt.MouseButton.LeftButton)
    assert view.result is not None and view.result.score == view.result.out_of
    assert "correct (100%)" in view.result_text() and "Why:" in view.result_text()
    assert view.chart.values == [100.0]
    assert (tmp_path / "training" / "Sam.json").exists()


def test_training_drill_scored_wrong_and_explained(qtbot, tmp_path: Path) -> None:
    view = _training(qtbot, tmp_path)
    assert view.drill is not None
    answer = expected_answer(view.drill.award())
    key = next(iter(answer))
    seats = list(view.inputs[key])
    answer[key] = {seats[0]: 1}  # one chip to the first eligible seat: wrong
    view.set_answer(answer)
    qtbot.keyClick(view, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    assert view.result is not None and view.result.score == view.result.out_of - 1
    assert "✘" in view.result_text() and "correct is" in view.result_text()
    view.check()  # checking again does not count twice
    assert len(view.record.attempts) == 1
    view.new_button.setFocus()
    qtbot.keyClick(view.new_button, Qt.Key.Key_N)
    assert view.drill.seed == 8 and view.result is None


def test_training_record_survives_restart(qtbot, tmp_path: Path) -> None:
    view = _training(qtbot, tmp_path)
    view.check()  # all zeros
    again = TrainingView(tmp_path, "Sam", seed=20)
    qtbot.addWidget(again)
    assert again.chart.values == view.chart.values and len(again.chart.values) == 1


def test_training_fixed_game_and_seats(qtbot, tmp_path: Path) -> None:
    view = _training(qtbot, tmp_path)
    view.game.setCurrentIndex(2)
    view.seats_choice.setCurrentIndex(4)
    drill = view.new_drill()
    assert drill.game == "badacey" and len(drill.seats) == 5
    assert make_drill(drill.seed, "badacey", 5) == drill


def test_qt_binding_keeps_none_alive(qapp) -> None:
    """PySide6 6.12.0 on Python 3.11 decrements None's refcount on every void call, so a long-running
    window aborts ("deallocating None"); pyproject pins below it. This catches a binding with that bug."""
    import sys

    from PySide6.QtGui import QColor, QImage, QPainter
    from PySide6.QtWidgets import QLabel

    image = QImage(8, 8, QImage.Format.Format_ARGB32)
    label = QLabel()
    painter = QPainter(image)
    before = sys.getrefcount(None)
    for _ in range(500):
        painter.fillRect(0, 0, 4, 4, QColor("#ffffff"))
        label.setText("x")
    after = sys.getrefcount(None)
    painter.end()
    if sys.version_info < (3, 12):  # from 3.12 None is immortal and its count means nothing
        assert after >= before - 10, f"None lost {before - after} references in 1,000 void calls"
