"""Review mode: the hand log browsed, filtered, stepped through, verified (and tampering caught), exported."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication

from dealer_assist.app import theme
from dealer_assist.app.models.demo import sample_award
from dealer_assist.app.models.review import Filters, ReviewModel
from dealer_assist.app.views.review import ReviewView
from dealer_assist.audit.records import DealerAction, Flag, FlagKind, Severity
from dealer_assist.store.handlog import HandLog
from dealer_assist.store.log_key import KEY_ENV, write_new_key

CALIBRATION = 'table = "T2"\nmethod = "aruco:0,1,2,3"\nimage_width = 1280\nimage_height = 720\nerror_cm = 0.4\n'


@pytest.fixture
def log_path(tmp_path: Path) -> Path:
    path = tmp_path / "log" / "hand-log.sqlite"
    log = HandLog.open(path)
    try:
        first = log.open_session("T1", "Dana", house_rules='preset = "badugi-limit"')
        second = log.open_session("T2", "Eve", calibration=CALIBRATION)
        for session, flagged in ((first, True), (first, False), (second, False)):
            hand = log.start_hand(session, button=3, stacks={1: 100, 2: 200, 3: 150, 4: 90, 5: 80, 6: 70})
            log.record_action(hand, DealerAction(4, "call", 10, t=1.0))
            if flagged:
                log.record_flag(hand, Flag(FlagKind.CARD_EXPOSED, Severity.WARNING, 2, "exposed-card", None,
                                           "card exposed on the deal", 2.0, 60))
            log.record_award(hand, sample_award(), t=3.0)
            log.end_hand(hand)
    finally:
        log.close()
    return path


def test_model_lists_filters_and_tells_the_story(log_path: Path) -> None:
    model = ReviewModel(log_path)
    assert [h.table for h in model.hands()] == ["T1", "T1", "T2"]
    assert [h.table for h in model.hands(Filters(table="T2"))] == ["T2"]
    assert [h.dealer for h in model.hands(Filters(dealer="Dana"))] == ["Dana", "Dana"]
    flagged = model.hands(Filters(flag="card_exposed"))
    assert len(flagged) == 1 and flagged[0].flags == 1
    lines = model.timeline(flagged[0].id)
    kinds = [line.kind for line in lines]
    assert kinds[0] == "header" and "action" in kinds and "flag" in kinds and "award" in kinds
    assert kinds[-1] == "end" and "complete" in lines[-1].text
    assert any("Seat 4 gets the odd chip" in line.text for line in lines)
    assert not any(line.text.startswith("Camera:") for line in lines)       # entered by hand: no camera
    (filmed,) = model.hands(Filters(table="T2"))
    header = [line for line in model.timeline(filmed.id) if line.kind == "header"]
    assert [line.text[:59] for line in header[1:]] == ["Camera: calibrated from the rail's ArUco markers 0, 1, 2, 3"]
    ok, text = model.verify()
    assert ok and "intact" in text
    exported = json.loads(model.export_json(flagged[0].id))
    assert exported
    model.close()


def test_verify_checks_the_signature_with_the_key_the_environment_names(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    key_file, other = tmp_path / "log.key", tmp_path / "other.key"
    write_new_key(key_file)
    write_new_key(other)
    monkeypatch.setenv(KEY_ENV, str(key_file))
    path = tmp_path / "signed.sqlite"
    with HandLog.open(path) as log:
        log.open_session("T1", "Dana")
    ok, text = ReviewModel(path).verify()
    assert ok and "carries the signing key's signature" in text
    monkeypatch.delenv(KEY_ENV)
    ok, text = ReviewModel(path).verify()
    assert ok and f"set {KEY_ENV} to check the signature" in text
    monkeypatch.setenv(KEY_ENV, str(other))
    ok, text = ReviewModel(path).verify()
    assert not ok and "TAMPERED" in text and "signature does not match the key" in text


def test_missing_log_is_a_message(tmp_path: Path) -> None:
    model = ReviewModel(tmp_path / "none.sqlite")
    assert model.hands() == [] and model.problem is not None and "No hand log" in model.problem
    assert model.verify()[0] is False


def test_view_browses_and_catches_tampering(qtbot, qapp: QApplication, log_path: Path, tmp_path: Path) -> None:
    theme.apply_theme(qapp)
    model = ReviewModel(log_path)
    view = ReviewView(model)
    qtbot.addWidget(view)
    view.resize(1500, 900)
    view.show()
    view.search()
    assert view.hands.count() == 3 and "3 hands found" in view.status.text()
    assert view.hands.item(0).text().startswith("#3")  # newest first
    view.table.setText("T1")
    view.search()
    assert view.hands.count() == 2
    view.hands.setCurrentRow(1)  # the older T1 hand has the flag
    texts = view.timeline_texts()
    assert any("card exposed on the deal" in t for t in texts)
    assert view.verify() and "intact" in view.status.text()
    target = view.export_to(tmp_path / "hand.json")
    assert target is not None and target.read_text().strip()
    model.close()
    conn = sqlite3.connect(log_path)  # someone edits an amount behind the app's back
    conn.executescript("DROP TRIGGER actions_no_update; UPDATE actions SET amount = 1000 WHERE id = 1;")
    conn.close()
    model.reload()
    assert not view.verify() and "TAMPERED" in view.status.text()
    model.close()


def test_recheck_button_referees_the_hand_again(qtbot, qapp: QApplication, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """A hand the referee recorded rechecks the same; one whose flag the referee never raised is shown as differing,
    naming the flag; a hand with no house rules recorded says it cannot be refereed again."""
    from test_referee_sim import simulated

    from dealer_assist.audit.referee import Referee
    from dealer_assist.store.sink import HandLogSink

    path = tmp_path / "log.sqlite"
    with HandLog.open(path) as log:
        config, items, _ = simulated("badugi-limit", 1, ["wrong_seat"])
        referee = Referee(config, HandLogSink(log, log.open_session("T1", "Dana")))
        referee.feed_all(items)
        referee.close(items[-1].t + 1)
        session = log.open_session("T1", "Mallory")
        forged = log.start_hand(session, button=config.button, stacks=config.stacks_by_seat,
                                house_rules=config.rules.to_dict(), camera=False)
        log.record_event(forged, items[0])
        log.record_flag(forged, Flag(FlagKind.SEAT_SKIPPED, Severity.MISDEAL, 2, "made up", None, "skipped", 1.0))
        log.end_hand(forged, "misdeal", t=2.0)
        bare = log.start_hand(session, button=3, stacks={1: 100, 2: 100})
        log.end_hand(bare, "void", t=1.0)
    theme.apply_theme(qapp)
    model = ReviewModel(path)
    view = ReviewView(model)
    qtbot.addWidget(view)
    view.show()
    view.search()
    view.hands.setCurrentRow(-1)
    assert not view.recheck() and "Choose a hand" in view.status.text()
    view.hands.setCurrentRow(2)                            # newest first: the refereed hand is last
    assert view.recheck(), view.status.text()
    assert view.status.text().startswith("Hand 1 rechecked: refereed again from its ") and "same 1 flag(s)" in \
        view.status.text()
    view.hands.setCurrentRow(1)
    assert not view.recheck()
    assert view.status.text().startswith(f"Hand {forged} DIFFERS from its record: flag #2 is in the log but not made")
    view.hands.setCurrentRow(0)
    assert not view.recheck()
    assert view.status.text() == "Hand 3 cannot be refereed again: no house rules were recorded with it."
    model.close()
