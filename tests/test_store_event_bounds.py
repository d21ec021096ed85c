"""A hand's events are found by its bounds (migration m003): a new log keeps no index on `events.hand_id`, so each
event writes one b-tree; reading a hand reads one range of ids. Older logs keep the index for their older hands."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from dealer_assist.cards import FULL_DECK
from dealer_assist.store import HandLog
from dealer_assist.store import migrations as migrations_module
from dealer_assist.store.export import chain_links
from dealer_assist.store.queries import hand_events_where
from dealer_assist.store.records import StoredEvent
from dealer_assist.vision.events import CardBurned, CardDealt

EVENTS_BY_HAND = "ix_events_4"


def events_indexes(conn: sqlite3.Connection) -> set[str]:
    return {row[1] for row in conn.execute("PRAGMA index_list(events)")}


def dealt(i: int, seat: int = 1) -> CardDealt:
    return CardDealt(t=float(i), frame=i, seat=seat, card=FULL_DECK[i % 52])


def story_frames(log: HandLog, hand: int) -> list[int]:
    return [r.event.frame for r in log.story(hand).records if isinstance(r, StoredEvent)]


def interleaved(log: HandLog) -> tuple[int, int, int]:
    """Three hands at two tables, their events interleaved; hand `a` ended, `b` and `c` still open."""
    s1, s2 = log.open_session("T1", "alice"), log.open_session("T2", "bob")
    a = log.start_hand(s1, button=1, stacks={1: 100, 2: 100})
    b = log.start_hand(s2, button=1, stacks={1: 100, 2: 100})
    for i in range(0, 20, 2):
        log.record_event(a, dealt(i))
        log.record_event(b, dealt(i + 1))
    log.end_hand(a)
    c = log.start_hand(s1, button=2, stacks={1: 100, 2: 100})
    for i in range(100, 106):
        log.record_event(c, dealt(i))
        log.record_event(b, dealt(i + 1000))
    return a, b, c


def test_a_new_log_has_no_index_on_events_hand_and_reads_each_hand_by_its_bounds(tmp_path: Path) -> None:
    with HandLog.open(tmp_path / "log.sqlite") as log:
        assert EVENTS_BY_HAND not in events_indexes(log.conn)
        assert "ix_actions_5" in {row[1] for row in log.conn.execute("PRAGMA index_list(actions)")}
        a, b, c = interleaved(log)
        assert story_frames(log, a) == list(range(0, 20, 2))
        assert story_frames(log, b) == [*range(1, 20, 2), *range(1100, 1106)]
        assert story_frames(log, c) == list(range(100, 106))
        first, last = log.conn.execute(
            "SELECT h.first_event, e.last_event FROM hands h JOIN hand_ends e ON e.hand_id = h.id WHERE h.id = ?",
            (a,)).fetchone()
        assert (first, last) == (1, 20)    # a's events are ids 1, 3, ..., 19; b's 2, 4, ..., 20 lie between them
        where, params = hand_events_where(log.conn, a)
        plan = " ".join(row[3] for row in log.conn.execute(f"EXPLAIN QUERY PLAN SELECT * FROM events WHERE {where}",
                                                           params))
        assert "INTEGER PRIMARY KEY" in plan and "SCAN" not in plan, plan
        links = chain_links(log.conn, b)
        assert sum(1 for r in log.story(b).records if r.seq in links) == 16
        assert log.verify().ok


def test_the_hand_events_view_reads_one_range(tmp_path: Path) -> None:
    """What a reviewer browsing the log in Datasette uses: `hand_events` filtered by hand."""
    with HandLog.open(tmp_path / "log.sqlite") as log:
        a, b, _ = interleaved(log)
        frames = [r[0] for r in log.conn.execute("SELECT frame FROM hand_events WHERE hand_id = ? ORDER BY id", (b,))]
        assert frames == story_frames(log, b)
        plan = " ".join(row[3] for row in log.conn.execute(
            "EXPLAIN QUERY PLAN SELECT * FROM hand_events WHERE hand_id = ?", (a,)))
        assert "SCAN" not in plan, plan


def test_a_hand_cut_by_a_crash_is_read_whole_after_recovery(tmp_path: Path) -> None:
    path = tmp_path / "log.sqlite"
    log = HandLog.open(path)
    _, b, c = interleaved(log)
    log.close()             # as if the process died: no end rows for b and c
    with HandLog.open(path) as log:
        assert sorted(log.recovered) == [b, c]
        assert story_frames(log, b) == [*range(1, 20, 2), *range(1100, 1106)]
        assert story_frames(log, c) == list(range(100, 106))
        log.record_event(log.start_hand(log.open_session("T1", "alice"), button=1, stacks={1: 5, 2: 5}), dealt(7))
        assert story_frames(log, c) == list(range(100, 106))
        assert log.verify().ok


def test_a_log_from_before_m003_keeps_its_index_and_its_hands_read_as_before(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Its rows and hashes stay as they were; hands recorded after the upgrade carry bounds."""
    path = tmp_path / "old.sqlite"
    apply = migrations_module.apply_migrations
    monkeypatch.setattr(migrations_module, "apply_migrations",
                        lambda conn: apply(conn, stop_before="m003_hand_event_bounds"))
    with HandLog.open(path) as log:
        assert EVENTS_BY_HAND in events_indexes(log.conn)
        a, b, c = interleaved(log)
        log.end_hand(b)
    monkeypatch.undo()
    with HandLog.open_readonly(path) as log:               # read-only: not upgraded, read by hand_id
        assert story_frames(log, b) == [*range(1, 20, 2), *range(1100, 1106)]
    with HandLog.open(path) as log:                        # recording upgrades it
        assert EVENTS_BY_HAND in events_indexes(log.conn)
        assert log.conn.execute("SELECT count(*) FROM hands WHERE first_event IS NULL").fetchone()[0] == 3
        d = log.start_hand(log.open_session("T1", "alice"), button=1, stacks={1: 5, 2: 5})
        log.record_event(d, CardBurned(t=1.0, frame=1))
        log.end_hand(d)
        assert story_frames(log, a) == list(range(0, 20, 2))
        assert story_frames(log, c) == list(range(100, 106))
        assert story_frames(log, d) == [1]
        assert hand_events_where(log.conn, a)[0] == "hand_id = ?"
        assert hand_events_where(log.conn, d)[0].startswith("id BETWEEN")
        assert log.verify().ok


def test_bounds_are_part_of_the_hash(tmp_path: Path) -> None:
    """Moving a hand's bounds to hide an event from its story is an edit `verify` names."""
    path = tmp_path / "log.sqlite"
    with HandLog.open(path) as log:
        a, _, _ = interleaved(log)
    conn = sqlite3.connect(path)
    conn.execute("DROP TRIGGER hands_no_update")
    conn.execute("UPDATE hands SET first_event = 3 WHERE id = ?", (a,))
    conn.commit()
    conn.close()
    with HandLog.open_readonly(path) as log:
        assert story_frames(log, a) == list(range(2, 20, 2))
        report = log.verify()
        assert not report.ok
        assert any(p.kind == "edited" and p.table == "hands" for p in report.problems)
