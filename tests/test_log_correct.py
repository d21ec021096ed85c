"""`dealer-assist log correct`: each floor correction through the CLI, the chain still verifying after it, `log list`
and `log show` reflecting it, one-line errors, signed and older logs."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from dealer_assist.audit.records import Flag, FlagKind, Severity
from dealer_assist.cards import parse_card, parse_cards
from dealer_assist.cli import cli
from dealer_assist.store import LOG_ENV, HandLog, StoredCorrection
from dealer_assist.store.log_key import KEY_ENV
from dealer_assist.vision.events import CardDealt, CardsShown


def run(*args: str, env: dict[str, str] | None = None) -> Result:
    return CliRunner().invoke(cli, list(args), env={KEY_ENV: "", **(env or {})})


def build(path: Path, key: bytes | None = None) -> None:
    """Hand 1: four cards dealt (events 1-4), a showdown (event 5), two flags (1, 2) and an award provisional on
    both; hand 2: one card dealt (event 6) and a flag (3); both ended complete."""
    with HandLog.open(path, key=key) as log:
        s = log.open_session("T1", "alice")
        h = log.start_hand(s, button=1, stacks={1: 100, 2: 100})
        for i, card in enumerate(parse_cards("Ac 2d 3h 4s")):
            log.record_event(h, CardDealt(t=float(i), frame=i, seat=1 + i % 2, card=card))
        log.record_event(h, CardsShown(t=5.0, frame=5, seat=1, cards=parse_cards("Ac 3h")))
        f1 = log.record_flag(h, Flag(FlagKind.CARD_EXPOSED, Severity.MISDEAL, 2, "deal", None, "2d flashed", 3.0, 3))
        f2 = log.record_flag(h, Flag(FlagKind.CARD_EXPOSED, Severity.MISDEAL, 1, "deal", None, "Ac flashed", 4.0, 4))
        log.record_award(h, {"pots": [], "totals": {"1": 10}, "pending_flag_ids": [f1.id, f2.id]},
                         explanation=["Seat 1 wins.", f"Provisional: flags #{f1.id}, #{f2.id} open; the floor decides "
                                      "whether the hand stands."])
        log.end_hand(h)
        h2 = log.start_hand(s, button=2, stacks={1: 100, 2: 100})
        log.record_event(h2, CardDealt(t=0.0, frame=0, seat=1, card=parse_card("Kh")))
        log.record_flag(h2, Flag(FlagKind.CARD_EXPOSED, Severity.WARNING, 2, "deal", None, "Qs flashed", 1.0, 1))
        log.end_hand(h2)


@pytest.fixture
def path(tmp_path: Path) -> Path:
    p = tmp_path / "log.sqlite"
    build(p)
    return p


def correct(path: Path, hand: str, *args: str) -> Result:
    return run("log", "correct", hand, "--log", str(path), *args)


def verified(path: Path, *args: str) -> None:
    result = run("log", "verify", "--log", str(path), *args)
    assert result.exit_code == 0 and result.output.startswith("ok: "), result.output


def test_void_lists_the_hand_as_voided_and_still_verifies(path: Path) -> None:
    result = correct(path, "2", "--void", "--by", "floor sue", "--reason", "wrong deck in play")
    assert result.exit_code == 0, result.output
    assert result.output == "recorded correction #1 (void_hand) on hand 2: voids the hand, by floor sue\n"
    verified(path)
    lines = run("log", "list", "--log", str(path)).output.splitlines()
    assert "  complete  flags 2" in lines[0] and "  voided  flags 1" in lines[1]
    listed = [json.loads(line) for line in run("log", "list", "--json", "--log", str(path)).output.splitlines()]
    assert [h["status"] for h in listed] == ["complete", "voided"]
    shown = run("log", "show", "2", "--log", str(path)).output
    assert "Ended complete" in shown                              # what the referee recorded stays
    assert "VOIDED by the floor (correction #1, floor sue: wrong deck in play)." in shown
    with HandLog.open_readonly(path) as log:
        assert log.conn.execute("SELECT status FROM hand_ends WHERE hand_id = 2").fetchone() == ("complete",)
    again = correct(path, "2", "--void", "--by", "floor sue", "--reason", "twice")
    assert again.exit_code == 2 and again.output.startswith("error: hand 2 is already voided")


def test_accept_and_dismiss_flags_update_the_provisional_line(path: Path) -> None:
    before = run("log", "show", "1", "--log", str(path)).output
    assert "Provisional: flags #1, #2 open; the floor decides whether the hand stands." in before
    dismissed = correct(path, "1", "--dismiss-flag", "1", "--by", "floor bob", "--reason", "player flashed it")
    assert dismissed.exit_code == 0, dismissed.output
    assert dismissed.output.strip() == ("recorded correction #1 (dismiss_flag) on hand 1: dismisses flag #1, by "
                                        "floor bob")
    shown = run("log", "show", "1", "--log", str(path)).output
    assert ("Provisional: flag #2 open; the floor decides whether the hand stands. Floor rulings: flag #1 dismissed "
            "by floor bob.") in shown
    assert "corrected by floor (#1, floor bob): dismisses flag #1: player flashed it" in shown
    accepted = correct(path, "1", "--accept-flag", "2", "--by", "sue", "--reason", "it stands")
    assert accepted.exit_code == 0 and "(accept_flag) on hand 1: accepts flag #2, by sue" in accepted.output
    shown = run("log", "show", "1", "--log", str(path)).output
    assert "Provisional:" not in shown
    assert ("No longer provisional: the floor ruled on every flag it waited on (flag #1 dismissed by floor bob; "
            "flag #2 accepted by sue).") in shown
    assert "  complete  flags 2" in run("log", "list", "--log", str(path)).output.splitlines()[0]
    verified(path)


def test_a_later_ruling_on_a_flag_supersedes_an_earlier_one(path: Path) -> None:
    assert correct(path, "1", "--accept-flag", "1", "--by", "bob", "--reason", "first look").exit_code == 0
    assert correct(path, "1", "--dismiss-flag", "1", "--by", "sue", "--reason", "on the video").exit_code == 0
    shown = run("log", "show", "1", "--log", str(path)).output
    assert "Floor rulings: flag #1 dismissed by sue." in shown
    assert "accepts flag #1: first look" in shown                  # both rulings stay in the story
    verified(path)


def test_misread_card(path: Path) -> None:
    assert "seat 2 is dealt 2d (event #2)" in run("log", "show", "1", "--log", str(path)).output
    result = correct(path, "1", "--misread", "2:kd", "--by", "floor bob", "--reason", "glare")
    assert result.exit_code == 0, result.output
    assert result.output.strip().splitlines() == [
        "recorded correction #1 (misread_card) on hand 1: event #2 read 2d; the card was Kd, by floor bob",
        "no award: the hand cannot be refereed again: no house rules were recorded with it"]
    with HandLog.open_readonly(path) as log:
        story = log.story(1)
    [corr] = [r for r in story.records if isinstance(r, StoredCorrection)]
    assert (corr.kind, corr.target_table, corr.target_id) == ("misread_card", "events", 2)
    assert corr.data == {"card": "Kd", "was": "2d"}
    shown = run("log", "show", "1", "--log", str(path)).output
    assert "seat 2 is dealt 2d (event #2)" in shown                # what was seen is kept
    assert "corrected by floor (#1, floor bob): event #2 was misread; the card was Kd: glare" in shown
    verified(path)


def test_note(path: Path) -> None:
    result = correct(path, "2", "--note", "--by", "floor sue", "--reason", "deck changed at 21:00")
    assert result.exit_code == 0
    assert result.output.strip() == "recorded correction #1 (note) on hand 2: a note on the hand, by floor sue"
    assert "FLOOR correction #1 by floor sue: notes: deck changed at 21:00" in run(
        "log", "show", "2", "--log", str(path)).output
    assert "  complete  flags 1" in run("log", "list", "--log", str(path)).output.splitlines()[1]
    verified(path)


def test_log_from_the_environment(path: Path) -> None:
    result = run("log", "correct", "2", "--note", "--by", "sue", "--reason", "ok", env={LOG_ENV: str(path)})
    assert result.exit_code == 0, result.output
    verified(path)


@pytest.mark.parametrize(("args", "message"), [
    (["9", "--void"], "no hand 9 in the log"),
    (["abc", "--void"], "bad hand 'abc'"),
    (["1", "--accept-flag", "3"], "hand 1 has no flag 3"),          # flag 3 is hand 2's
    (["2", "--dismiss-flag", "1"], "hand 2 has no flag 1"),
    (["1", "--accept-flag", "x"], "bad --accept-flag id 'x'"),
    (["2", "--misread", "2:Kd"], "hand 2 has no event 2"),           # event 2 is hand 1's
    (["1", "--misread", "2:Zz"], "not a card: 'Zz'"),
    (["1", "--misread", "2"], "expected EVENT_ID:CARD"),
    (["1", "--misread", "x:Kd"], "bad --misread event id 'x'"),
    (["1", "--misread", "5:Kd"], "is a shown event, which reads no single card"),
    (["1", "--misread", "2:2d"], "already reads 2d"),
    (["1"], "give exactly one of --void"),
    (["1", "--void", "--note"], "(got --void and --note)"),
    (["1", "--void", "--accept-flag", "1"], "(got --void and --accept-flag)"),
])
def test_bad_input_is_one_line_with_status_2(path: Path, args: list[str], message: str) -> None:
    result = correct(path, *args, "--by", "sue", "--reason", "because")
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and message in lines[0], result.output
    for hand in ("1", "2"):
        assert "FLOOR correction" not in run("log", "show", hand, "--log", str(path)).output
    verified(path)


@pytest.mark.parametrize(("args", "message"), [
    (["--void", "--by", "sue", "--reason", "  "], "--reason is empty"),
    (["--void", "--by", " ", "--reason", "x"], "--by is empty"),
    (["--void", "--reason", "x"], "Missing option '--by'"),
    (["--void", "--by", "sue"], "Missing option '--reason'"),
    (["--void", "--by", "sue\nevil", "--reason", "x"], "bad floor person's name"),
])
def test_missing_or_empty_reason_and_name(path: Path, args: list[str], message: str) -> None:
    result = correct(path, "1", *args)
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and message in lines[0], result.output


def test_no_log_is_not_created(tmp_path: Path) -> None:
    missing = tmp_path / "none.sqlite"
    result = correct(missing, "1", "--void", "--by", "sue", "--reason", "x")
    assert result.exit_code == 2 and result.output.startswith("error: no hand log at")
    assert not missing.exists()


def test_a_signed_log_needs_its_key(tmp_path: Path) -> None:
    key_file = tmp_path / "log.key"
    assert run("log", "key", str(key_file)).exit_code == 0
    path = tmp_path / "signed.sqlite"
    build(path, key=bytes.fromhex(key_file.read_text().strip()))
    refused = correct(path, "1", "--void", "--by", "sue", "--reason", "x")
    assert refused.exit_code == 2 and "is signed" in refused.output and len(refused.output.splitlines()) == 1
    ok = correct(path, "1", "--void", "--by", "sue", "--reason", "x", "--key-file", str(key_file))
    assert ok.exit_code == 0, ok.output
    by_env = run("log", "correct", "2", "--note", "--by", "sue", "--reason", "y", "--log", str(path),
                 env={KEY_ENV: str(key_file)})
    assert by_env.exit_code == 0, by_env.output
    verified(path, "--key-file", str(key_file))
    assert "the key's signature of it checks" in run("log", "verify", "--log", str(path), "--key-file",
                                                     str(key_file)).output


def test_a_log_from_before_m002_lists_voided_read_only_and_is_upgraded_by_a_correction(tmp_path: Path) -> None:
    """A log written before migration m002: a void recorded then lists as voided read-only (the status is computed
    in the query, not the view); `log correct` opens it for recording, which upgrades it, and it still verifies."""
    path = tmp_path / "old.sqlite"
    build(path)
    with HandLog.open(path) as log:
        log.record_correction(2, "void_hand", reason="wrong deck", by="sue")
    conn = sqlite3.connect(path)
    conn.execute("ALTER TABLE hands DROP COLUMN camera")
    conn.execute("DELETE FROM _sqlite_migrations WHERE name = 'm002_hand_camera'")
    conn.commit()
    conn.close()
    listed = [json.loads(line) for line in run("log", "list", "--json", "--log", str(path)).output.splitlines()]
    assert [h["status"] for h in listed] == ["complete", "voided"]
    verified(path)
    result = correct(path, "1", "--dismiss-flag", "1", "--by", "sue", "--reason", "player flashed it")
    assert result.exit_code == 0, result.output
    with HandLog.open_readonly(path) as log:
        assert "camera" in {r[1] for r in log.conn.execute("PRAGMA table_info(hands)")}
        assert ("m002_hand_camera",) in log.conn.execute("SELECT name FROM _sqlite_migrations").fetchall()
    verified(path)
    assert "Floor rulings: flag #1 dismissed by sue." in run("log", "show", "1", "--log", str(path)).output
