"""Tampering with plain sqlite3 (the stdlib module and the sqlite3 binary): `verify` names each touched row."""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from dealer_assist.audit.records import DealerAction, Flag, FlagKind, Severity
from dealer_assist.cards import parse_card
from dealer_assist.cli import cli
from dealer_assist.store import ChainHead, HandLog, VerifyReport, snapshot_file
from dealer_assist.store.chain import anchor_path, row_hash
from dealer_assist.store.schema import CHAINED_TABLES
from dealer_assist.vision.events import CardDealt, CardsGathered

JPEG = b"\xff\xd8\xff\xe0" + b"frame"
SQLITE3 = shutil.which("sqlite3")


def build(path: Path, hands: int = 3) -> list[int]:
    """A log of `hands` ended hands with events, actions, a flag with a snapshot, an award."""
    ids = []
    with HandLog.open(path) as log:
        session = log.open_session("T1", "alice")
        for n in range(hands):
            hand = log.start_hand(session, button=1, stacks={1: 100, 2: 100})
            for i in range(4):
                log.record_event(hand, CardDealt(t=i * 0.5, frame=i, seat=1 + i % 2, card=parse_card("Ah")))
            log.record_action(hand, DealerAction(seat=2, action="bet", amount=2, t=3.0))
            sha = log.save_snapshot(hand, "flag", JPEG + bytes([n]))
            log.record_flag(hand, Flag(FlagKind.SEAT_SKIPPED, Severity.MISDEAL, 2, "deal order", None, "skipped",
                                       2.0, 4), snapshot=sha)
            log.record_award(hand, {"pots": [], "totals": {"2": 4}})
            log.record_event(hand, CardsGathered(t=5.0, frame=10))
            log.end_hand(hand)
            ids.append(hand)
    return ids


def tamper(path: Path, sql: str) -> None:
    """Run SQL through the stdlib sqlite3 module, dropping the append-only triggers first as a tamperer would."""
    conn = sqlite3.connect(path)
    drops = "".join(f'DROP TRIGGER IF EXISTS "{t}_no_update"; DROP TRIGGER IF EXISTS "{t}_no_delete";'
                    for t in CHAINED_TABLES)
    conn.executescript(drops + sql)
    conn.close()


def verify(path: Path) -> VerifyReport:
    with HandLog.open_readonly(path) as log:
        return log.verify()


def messages(report: VerifyReport, kind: str | None = None) -> list[str]:
    return [p.message for p in report.problems if kind is None or p.kind == kind]


@pytest.fixture
def path(tmp_path: Path) -> Path:
    p = tmp_path / "log.sqlite"
    build(p)
    assert verify(p).ok
    return p


def test_dropping_the_guards_alone_is_reported(path: Path) -> None:
    tamper(path, "")
    report = verify(path)
    assert {p.kind for p in report.problems} == {"schema"}
    assert any("events_no_update" in m for m in messages(report))


def test_edited_row_is_named(path: Path) -> None:
    tamper(path, """UPDATE events SET payload = replace(payload, '"Ah"', '"Kh"') WHERE id = 6""")
    report = verify(path)
    edited = [p for p in report.problems if p.kind == "edited"]
    assert [(p.table, p.row_id) for p in edited] == [("events", 6)]
    assert "events #6" in edited[0].message


def test_edited_row_with_a_recomputed_hash_is_caught_by_the_next_link(path: Path) -> None:
    conn = sqlite3.connect(path)
    conn.row_factory = sqlite3.Row
    row = dict(conn.execute("SELECT * FROM actions WHERE id = 2").fetchone())
    conn.close()
    row["amount"] = 200
    forged = row_hash(row["prev"], "actions", row)
    tamper(path, f"UPDATE actions SET amount = 200, hash = '{forged}' WHERE id = 2")
    report = verify(path)
    edited = messages(report, "edited")
    assert len(edited) == 1 and edited[0].startswith(f"actions #2 (seq {row['seq']}) was rewritten")


def test_inserted_rows_are_named(path: Path) -> None:
    # A row reusing a sequence number, and one appended after the end with a well-formed chain entry.
    conn = sqlite3.connect(path)
    conn.row_factory = sqlite3.Row
    last = dict(conn.execute("SELECT * FROM hand_ends ORDER BY seq DESC LIMIT 1").fetchone())
    taken = conn.execute("SELECT seq FROM hands WHERE id = 2").fetchone()[0]
    conn.close()
    fake = dict(last, id=last["id"] + 1, seq=last["seq"] + 1, prev=last["hash"], hand_id=1, status="void")
    fake["hash"] = row_hash(fake["prev"], "hand_ends", fake)
    extra = {"id": 100, "seq": taken, "prev": "0" * 64, "recorded_at": "x", "hand_id": 1, "kind": "dealt",
             "seat": 1, "t": 0.0, "frame": 0, "payload": "{}"}
    extra["hash"] = row_hash(extra["prev"], "events", extra)  # well-formed on its own, but out of place

    def insert(table: str, row: dict[str, object]) -> str:
        marks = ", ".join(repr(v) if isinstance(v, str) else ("NULL" if v is None else str(v)) for v in row.values())
        return f"INSERT INTO {table} ({', '.join(row)}) VALUES ({marks});"

    tamper(path, insert("events", extra) + "DELETE FROM hand_ends WHERE hand_id = 1;" + insert("hand_ends", fake))
    report = verify(path)
    inserted = [p for p in report.problems if p.kind == "inserted"]
    assert any(p.table == "events" and p.row_id == 100 and "out of sequence order" in p.message
               for p in inserted)
    assert any("added after the last write" in p.message for p in inserted)
    assert any(p.kind == "deleted" and p.table == "hand_ends" for p in report.problems)


def test_deleted_row_is_named(path: Path) -> None:
    seq = sqlite3.connect(path).execute("SELECT seq FROM events WHERE id = 3").fetchone()[0]
    tamper(path, "DELETE FROM events WHERE id = 3")
    report = verify(path)
    deleted = messages(report, "deleted")
    assert "events #3 missing (ids jump from 2 to 4)" in deleted
    assert any(f"records at seq {seq} are missing" in m for m in deleted)
    assert not messages(report, "edited")


def test_deleted_middle_hand_is_caught(path: Path) -> None:
    tamper(path, "".join(f'DELETE FROM "{t}" WHERE hand_id = 2;' for t in CHAINED_TABLES if t not in
                         ("tables", "dealers", "sessions", "hands")) + "DELETE FROM hands WHERE id = 2;")
    report = verify(path)
    deleted = messages(report, "deleted")
    assert "hands #2 missing (ids jump from 1 to 3)" in deleted
    assert any(m.startswith("events #") for m in deleted)


def test_deleted_last_hand_is_caught_by_the_anchor(path: Path) -> None:
    tamper(path, "".join(f'DELETE FROM "{t}" WHERE hand_id = 3;' for t in CHAINED_TABLES if t not in
                         ("tables", "dealers", "sessions", "hands")) + "DELETE FROM hands WHERE id = 3;")
    report = verify(path)
    assert [p.kind for p in report.problems if p.kind != "schema"] == ["deleted"]
    assert "at the end of the log are missing" in messages(report, "deleted")[0]


def test_missing_anchor_and_orphans(path: Path) -> None:
    anchor_path(path).unlink()
    tamper(path, "DELETE FROM sessions")
    report = verify(path)
    assert any(p.kind == "anchor" and "missing" in p.message for p in report.problems)
    assert any(p.kind == "deleted" and p.table == "sessions" and "3 hands row(s)" in p.message
               for p in report.problems)


def test_snapshot_files_are_checked(path: Path) -> None:
    first = snapshot_file(path, __import__("hashlib").sha256(JPEG + b"\x00").hexdigest())
    second = snapshot_file(path, __import__("hashlib").sha256(JPEG + b"\x01").hexdigest())
    first.write_bytes(JPEG + b"edited")
    second.unlink()
    report = verify(path)
    found = messages(report, "snapshot")
    assert len(found) == 2 and "altered" in found[0] and "missing" in found[1]


def test_a_head_recorded_elsewhere_proves_a_full_rewrite(path: Path) -> None:
    with HandLog.open_readonly(path) as log:
        head = log.verify().head
        assert log.verify(expected_head=head).ok
        wrong = ChainHead(head.seq, "f" * 64)
        assert any("rewritten" in p.message for p in log.verify(expected_head=wrong).problems)
        beyond = ChainHead(head.seq + 5, head.hash)
        assert any("beyond the end" in p.message for p in log.verify(expected_head=beyond).problems)


def test_cli_verify_exit_status(path: Path) -> None:
    runner = CliRunner()
    ok = runner.invoke(cli, ["log", "verify", "--log", str(path)])
    assert ok.exit_code == 0 and ok.output.startswith("ok: ")
    tamper(path, "UPDATE flags SET message = 'nothing happened' WHERE id = 1")
    bad = runner.invoke(cli, ["log", "verify", "--log", str(path)])
    assert bad.exit_code == 1
    assert "edited: flags #1" in bad.output


@pytest.mark.skipif(SQLITE3 is None, reason="sqlite3 command-line shell not installed")
@pytest.mark.parametrize(("sql", "expect"), [
    ("DROP TRIGGER events_no_update; UPDATE events SET t = 0.25 WHERE id = 5;", "edited: events #5"),
    ("DROP TRIGGER actions_no_delete; DELETE FROM actions WHERE id = 1;", "deleted: actions #1 missing"),
    ("INSERT INTO dealers (id, seq, prev, recorded_at, name, hash) VALUES (9, 3, 'x', 'y', 'mallory', 'z');",
     "inserted: dealers #9 (seq 3) reuses sequence number 3"),
])
def test_sqlite3_shell_tampering(path: Path, sql: str, expect: str) -> None:
    assert SQLITE3 is not None
    subprocess.run([SQLITE3, str(path), sql], check=True, capture_output=True)
    result = CliRunner().invoke(cli, ["log", "verify", "--log", str(path)])
    assert result.exit_code == 1
    assert expect in result.output
