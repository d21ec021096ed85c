"""Live mode end to end with no model: scripted frames -> fake detector -> pipeline (its own thread) ->
referee -> the seat, prompt and flag models; the dealer's actions go in between."""

from __future__ import annotations

import time

import numpy as np
from table_camera import oblique_camera, three_seats_dealt

from dealer_assist.app.models.capture import LatestFrame
from dealer_assist.app.models.flags import FlagListModel
from dealer_assist.app.models.live_session import LiveSession, VisionWorker
from dealer_assist.app.models.table import TableModel
from dealer_assist.audit.records import DealerAction
from dealer_assist.audit.referee import Referee
from dealer_assist.audit.table import TableConfig
from dealer_assist.rules.house_rules import HouseRules
from dealer_assist.vision.backends.fake_backend import FakeDetector
from dealer_assist.vision.pipeline import Pipeline, ScriptedTable
from dealer_assist.vision.sources import FramesSource
from dealer_assist.vision.table_profile import oval_profile

FPS = 30.0


def _session(script: ScriptedTable) -> tuple[LiveSession, TableModel, FlagListModel, LatestFrame]:
    profile = oval_profile(6)
    cal = oblique_camera(profile)
    pipeline = Pipeline.build(profile, cal, FakeDetector(script.detections(profile, cal)))
    blank = np.zeros((720, 1280, 3), np.uint8)
    slot = LatestFrame()
    worker = VisionWorker(FramesSource([blank] * len(script.observations), fps=FPS), pipeline, slot)
    table, flags = TableModel(), FlagListModel()
    referee = Referee(TableConfig.make(HouseRules.preset("badugi-limit"), {1: 200, 3: 200, 5: 200}, button=5))
    return LiveSession(referee, table, flags, worker), table, flags, slot


def _drain(session: LiveSession) -> None:
    assert session.worker is not None
    deadline = time.monotonic() + 20
    while session.worker.is_alive() and time.monotonic() < deadline:
        session.poll()
        time.sleep(0.01)
    session.poll()


def test_camera_events_reach_the_seats_and_the_prompt() -> None:
    script = three_seats_dealt(FPS)
    session, table, flags, slot = _session(script)
    session.start()
    _drain(session)
    assert slot.peek() is not None  # the video saw the frames
    seats = {s.seat: s for s in table.seats}
    assert sorted(seats) == [1, 3, 5]
    assert all(len(s.cards) == 4 and all(c is None for c in s.cards) for s in seats.values())
    prompt = table.prompt
    assert prompt.actor == 5 and {la.action for la in prompt.legal} >= {"fold", "call"}  # first left of the BB
    session.dealer_action(DealerAction(5, "call"))
    assert table.prompt.actor == 1
    session.dealer_action(DealerAction(5, "fold"))  # seat 5 again: out of turn, flagged by the referee
    assert flags.entries and flags.entries[0].flag.kind.value == "fold_out_of_order"
    session.stop()
    assert session.worker is not None and session.worker.status == "ended"


def test_floor_decision_on_a_flag_becomes_a_referee_correction() -> None:
    script = three_seats_dealt(FPS)
    session, _table, flags, _ = _session(script)
    flags.set_pin("2468")
    session.start()
    _drain(session)
    session.dealer_action(DealerAction(3, "fold"))  # seat 5 is to act
    entry = flags.entries[0]
    flags.resolve(entry.id, "dismissed", "seat 3 only touched its cards", "2468")
    record = session.referee.hands[-1]
    assert record.resolutions and record.resolutions[0].kind == "dismiss_flag"
    assert record.corrections[-1].reason == "seat 3 only touched its cards"
    session.stop()


def test_clicking_a_flag_shows_its_frame(qtbot) -> None:
    from dealer_assist.app.widgets.flag_list import FlagList
    from dealer_assist.audit.records import Flag, FlagKind, Severity

    script = ScriptedTable(6, FPS).button(5).hold(0.5)
    for seat in (1, 3, 5):
        script.deal(seat).hold(0.3)
    session, _table, flags, _ = _session(script)
    session.start()
    _drain(session)
    assert session.worker is not None
    ring = session.worker.ring
    assert ring.get(5) is not None and ring.get(5).shape[1] <= 640 and ring.get(10_000) is None
    widget = FlagList(flags)
    qtbot.addWidget(widget)
    widget.frame_for = ring.get
    flags.add(Flag(FlagKind.CARD_EXPOSED, Severity.WARNING, 3, "exposed-card", None, "card exposed", 0.5, 12))
    widget.show()
    widget.list.setCurrentRow(0)
    assert widget.picture.isVisible() and widget.picture.toolTip() == "frame 12"
    session.stop()


def test_an_award_past_an_open_misdeal_flag_is_shown_provisional_until_the_floor_resolves_it() -> None:
    from referee_script import Script

    table, flags = TableModel(), FlagListModel()
    flags.set_pin("2468")
    referee = Referee(TableConfig.make(HouseRules.preset("badugi-limit"), {1: 100, 2: 100, 3: 100}, button=3))
    session = LiveSession(referee, table, flags)
    shown: list[tuple[object, str | None]] = []
    session.award_ready.connect(lambda award: shown.append((award, session.award_note)))
    s = Script().deal(1, 3, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3).act(3, "call").act(1, "fold").act(2, "check")
    for _ in range(3):
        s.act(2, "check").act(3, "check")
    for item in s.show(2, "Ac 2d 3h").show(3, "Kc Qd Jh 9s 8c").items:
        session.feed(item)
    assert len(shown) == 1 and shown[0][0] is session.award
    assert shown[0][1] == ("provisional: a flag is open (misdeal card_to_wrong_seat, seat 3); "
                           "the floor decides whether the hand stands")
    flags.resolve(flags.entries[0].id, "accepted", "misdeal seen; the players agreed to play on", "2468")
    assert len(shown) == 2 and shown[1][1] is None and session.award_note is None


def test_an_error_flag_after_the_award_turns_the_board_provisional() -> None:
    """Seat 2's cards go, at its turn the fold ends the hand and the pot is awarded; then its bet is keyed (chips the
    pots do not hold): the award is made again, provisional on that flag, and the board says so."""
    from referee_script import Script

    table, flags = TableModel(), FlagListModel()
    referee = Referee(TableConfig.make(HouseRules.preset("badugi-limit"), {1: 100, 2: 100, 3: 100}, button=3,
                                       camera=True))
    session = LiveSession(referee, table, flags)
    shown: list[tuple[object, str | None]] = []
    session.award_ready.connect(lambda award: shown.append((award, session.award_note)))
    s = Script().deal_all((1, 2, 3)).act(3, "fold").act(1, "call").act(2, "check").draw(1, 1).draw(2, 1).fold(2)
    s.wait(1.5).act(1, "check").act(2, "bet", 2)
    for item in s.items:
        session.feed(item)
    session.referee.close(s.items[-1].t + 2.0)
    session.sync()
    assert [note is None for _, note in shown][:1] == [True] and shown[-1][1] is not None
    assert shown[-1][1].startswith("provisional: a flag is open (error illegal_action, seat 2)")
