"""`log recheck`: a recorded hand refereed again from its records gives the recorded flags, award and end, under
the recorded house rules, seats, button and camera mode; a flag or award the referee did not make is caught."""

from __future__ import annotations

import sqlite3
from dataclasses import replace
from pathlib import Path

from click.testing import CliRunner
from referee_script import Script
from test_referee_sim import simulated

from dealer_assist.audit.records import DealerAction, Flag, FlagKind, Severity
from dealer_assist.audit.referee import Referee
from dealer_assist.audit.table import TableConfig
from dealer_assist.cards import parse_card
from dealer_assist.cli import cli
from dealer_assist.rules.house_rules import HouseRules
from dealer_assist.store import HandLog
from dealer_assist.store.jsonable import to_jsonable
from dealer_assist.store.recheck import recheck
from dealer_assist.store.sink import HandLogSink
from dealer_assist.vision.events import CardDealt, TableEvent

LIMIT = HouseRules.preset("badugi-limit")


def record(log: HandLog, config: TableConfig, items: list[TableEvent | DealerAction], *, close: bool = True,
           dealer: str = "alice") -> Referee:
    referee = Referee(config, HandLogSink(log, log.open_session("T1", dealer)))
    referee.feed_all(items)
    if close:
        referee.close(items[-1].t + 1)
    return referee


def test_simulated_hands_with_each_error_recheck_the_same(tmp_path: Path) -> None:
    """Hands with injected dealer errors (flags, provisional awards) and clean ones, recorded as they are refereed."""
    flagged = 0
    with HandLog.open(tmp_path / "log.sqlite") as log:
        for game, seed, errors in (("badugi-limit", 0, []), ("badugi-limit", 1, ["wrong_seat"]),
                                   ("badacey-pot-limit-double", 2, ["skipped_seat"]),
                                   ("badugi-limit", 3, ["extra_replacement"]), ("badugi-limit", 4, ["exposed_card"])):
            config, items, want = simulated(game, seed, errors)
            record(log, config, items)
            flagged += bool(want)
        for hand_id in log.hand_ids():
            result = recheck(log.story(hand_id))
            assert result.same, result.differences
            assert result.inputs > 20
        assert sum(recheck(log.story(h)).flags > 0 for h in log.hand_ids()) == flagged
        assert sum(recheck(log.story(h)).awards for h in log.hand_ids()) >= 4


def test_floor_corrections_in_the_hand_recheck_the_same(tmp_path: Path) -> None:
    """A misread card corrected mid-hand (the hand refereed again, a new flag), a flag dismissed and one accepted,
    then the hand declared a misdeal: refereed again from the log, the same flags and the same end."""
    with HandLog.open(tmp_path / "log.sqlite") as log:
        s = Script().deal(1, 3, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3).act(3, "call").act(1, "call").act(2, "check")
        s.discard(1, 1, ("Kh",)).replace(1, 1, "Kh")
        referee = record(log, TableConfig.make(HouseRules(), {1: 100, 2: 100, 3: 100}, button=3), s.items,
                         close=False)
        referee.correct_card(len(referee.hands[0].inputs) - 1, parse_card("Qs"), reason="it was the Qs", by="floor")
        referee.dismiss_flag(1, reason="misread", by="floor")
        referee.accept_flag(0, reason="misdeal seen; play on", by="floor")
        referee.void_hand(reason="player dispute", by="floor", status="misdeal")
        story = log.story(log.hand_ids()[0])
        assert story.end is not None and story.end.status == "misdeal"
        result = recheck(story)
        assert result.same, result.differences
        assert result.flags == 2


def test_the_camera_mode_is_recorded_and_rechecked_under(tmp_path: Path) -> None:
    """Seat 2's last card seen a pitch early at a camera's table is no flag; the log says the hand was a camera's,
    so the recheck referees it the same way. Rechecked as a strict table, the same inputs raise a flag the log lacks."""
    script = Script().deal(1, 2, 3, 1, 2, 3, 1, 2, 3, 2, 1, 3).act(3, "call").act(1, "call").act(2, "check")
    with HandLog.open(tmp_path / "log.sqlite") as log:
        record(log, TableConfig.make(LIMIT, dict.fromkeys(range(1, 4), 100), button=3, camera=True), script.items)
        record(log, TableConfig.make(LIMIT, dict.fromkeys(range(1, 4), 100), button=3), script.items)
        camera, strict = (log.story(h) for h in log.hand_ids())
    assert (camera.camera, strict.camera) == (True, False)
    assert recheck(camera).same and recheck(camera).flags == 0
    assert recheck(strict).same and recheck(strict).flags >= 1
    wrong = recheck(replace(camera, camera=False))
    assert not wrong.same
    assert wrong.differences[0].startswith("refereed again, flag 1 is made but not in the log:")


def test_a_flag_or_award_the_referee_did_not_make_is_reported(tmp_path: Path) -> None:
    """Rows written into the chain by something other than the referee (the chain verifies: they were written
    through the log's own API) differ from the recheck: an extra flag, an award with other amounts."""
    script = Script().deal(1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3).act(3, "fold").act(1, "fold")
    config = TableConfig.make(LIMIT, dict.fromkeys(range(1, 4), 100), button=3)
    with HandLog.open(tmp_path / "log.sqlite") as log:
        referee = Referee(config)
        referee.feed_all(script.items)
        award = referee.award
        assert award is not None
        session = log.open_session("T1", "mallory")
        hand = log.start_hand(session, button=3, stacks=dict.fromkeys(range(1, 4), 100), house_rules=LIMIT.to_dict(),
                              t=script.items[0].t, camera=False)
        for item in script.items:
            if isinstance(item, DealerAction):
                log.record_action(hand, item)
            else:
                log.record_event(hand, item)
        log.record_flag(hand, Flag(FlagKind.ACTION_OUT_OF_TURN, Severity.ERROR, 1, "made up", None,
                                   "seat 1 acted out of turn", 1.0))
        payload = dict(to_jsonable(award))
        payload["totals"] = {str(k): v + (5 if str(k) == "2" else 0) for k, v in payload["totals"].items()}
        log.record_award(hand, payload, t=script.items[-1].t)
        log.end_hand(hand, "complete", t=script.items[-1].t + 1)
        assert log.verify().ok
        result = recheck(log.story(hand))
    assert not result.same
    assert result.differences[0].startswith(
        "flag #1 is in the log but not made when refereed again: error action_out_of_turn")
    assert result.differences[1].startswith("award #1 in the log: totals")


def test_the_recheck_command(tmp_path: Path) -> None:
    path = tmp_path / "log.sqlite"
    with HandLog.open(path) as log:
        config, items, _ = simulated("badugi-limit", 1, ["wrong_seat"])
        record(log, config, items)
        config, items, _ = simulated("badugi-limit", 0, [])
        record(log, config, items[:20], close=False)     # still being recorded: --all skips it
    runner = CliRunner()
    ok = runner.invoke(cli, ["log", "recheck", "--log", str(path), "--all"])
    assert ok.exit_code == 0, ok.output
    assert "hand 1: the same 1 flag and 1 award as recorded" in ok.output
    assert "hand 2: not ended yet; skipped" in ok.output
    assert ok.output.rstrip().endswith("ok: 1 hand(s) follow from their recorded events and actions")
    one = runner.invoke(cli, ["log", "recheck", "--log", str(path), "1"])
    assert one.exit_code == 0 and one.output.startswith("hand 1: the same")
    both = runner.invoke(cli, ["log", "recheck", "--log", str(path), "1", "--all"])
    assert both.exit_code == 2 and "give either a HAND id or --all" in both.output
    with HandLog.open(path) as log:   # reopened to record: hand 2 is marked incomplete; then a made-up flag on hand 3
        session = log.open_session("T1", "mallory")
        hand = log.start_hand(session, button=3, stacks=dict.fromkeys(range(1, 4), 100), house_rules=LIMIT.to_dict())
        log.record_event(hand, items[0])
        log.record_flag(hand, Flag(FlagKind.SEAT_SKIPPED, Severity.MISDEAL, 2, "made up", None, "skipped", 1.0))
        log.end_hand(hand, "misdeal", t=2.0)
        bare = log.start_hand(session, button=3, stacks={1: 100, 2: 100})   # no house rules: cannot be refereed
        log.end_hand(bare, "void", t=1.0)
    bad = runner.invoke(cli, ["log", "recheck", "--log", str(path), "--all"])
    assert bad.exit_code == 1
    assert f"hand {bare}: cannot be refereed again: no house rules were recorded with it" in bad.output
    assert f"hand {hand}: DIFFERS from the record in" in bad.output
    assert "hand 2: the same 0 flags and 0 awards as recorded" in bad.output
    assert "FAILED: 1 of 4 hand(s) differ from the record; 1 could not be refereed again" in bad.output


def test_a_log_from_before_the_camera_column_still_reads_and_verifies(tmp_path: Path) -> None:
    """A log written before migration m002 (no `hands.camera`): read-only commands read it (the mode is unknown,
    rechecked as strict), verify passes; opened for recording it gains the column and old rows keep their hashes."""
    path = tmp_path / "old.sqlite"
    config, items, _ = simulated("badugi-limit", 0, [])
    deal = [i for i in items if isinstance(i, CardDealt)][:6]
    with HandLog.open(path) as log:                       # the deal cut short, as the recorder wrote it then
        session = log.open_session("T1", "alice")
        hand = log.start_hand(session, button=config.button, stacks=config.stacks_by_seat,
                              house_rules=config.rules.to_dict(), t=deal[0].t)
        for event in deal:
            log.record_event(hand, event)
        log.end_hand(hand, "incomplete", reason="the recording ended before the hand did", t=deal[-1].t)
    conn = sqlite3.connect(path)
    conn.execute("ALTER TABLE hands DROP COLUMN camera")  # written before m002: its rows' camera were never set
    conn.execute("DELETE FROM _sqlite_migrations WHERE name = 'm002_hand_camera'")
    conn.commit()
    conn.close()
    with HandLog.open_readonly(path) as log:
        story = log.story(1)
        assert story.camera is None
        assert log.verify().ok
        assert recheck(story).same
    with HandLog.open(path) as log:
        assert log.story(1).camera is None
        assert "camera" in {r[1] for r in log.conn.execute("PRAGMA table_info(hands)")}
        assert log.verify().ok
