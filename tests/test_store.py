"""HandLog: every record kind round-trips, queries filter, crashed hands end incomplete, writes are guarded."""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from dealer_assist.audit.records import DealerAction, Flag, FlagKind, Severity
from dealer_assist.cards import parse_card, parse_cards
from dealer_assist.errors import DealerAssistError
from dealer_assist.rules.awards import award_pots
from dealer_assist.store import (
    LOG_ENV,
    HandLog,
    StoredAction,
    StoredAward,
    StoredCorrection,
    StoredEvent,
    StoredFlag,
    StoredSnapshot,
    default_log_path,
    resolve_log_path,
    snapshot_file,
)
from dealer_assist.store import handlog as handlog_module
from dealer_assist.store import verify as store_verify
from dealer_assist.store.chain import anchor_path, read_anchor
from dealer_assist.store.handlog import LOG_PAGE_SIZE, WAL_CHECKPOINT_BYTES
from dealer_assist.store.schema import CHAINED_TABLES, MIGRATION_SET
from dealer_assist.vision.events import (
    ButtonMoved,
    CardBurned,
    CardDealt,
    CardExposed,
    CardReplaced,
    CardsDiscarded,
    CardsGathered,
    CardsShown,
    SeatFolded,
    TableEvent,
)

JPEG = b"\xff\xd8\xff\xe0" + b"key frame bytes"
EVENTS: list[TableEvent] = [
    ButtonMoved(t=0.0, frame=0, seat=3),
    CardDealt(t=0.5, frame=15, seat=1, card=parse_card("Ah")),
    CardDealt(t=1.0, frame=30, seat=2, card=None),
    CardExposed(t=1.2, frame=36, seat=2, card=parse_card("5c")),
    CardExposed(t=1.3, frame=39, seat=None, card=None),
    CardBurned(t=2.0, frame=60),
    CardsDiscarded(t=2.5, frame=75, seat=1, count=2, cards=parse_cards("Kd Kh")),
    CardsDiscarded(t=2.6, frame=78, seat=2, count=1),
    CardReplaced(t=3.0, frame=90, seat=1, card=parse_card("2c")),
    SeatFolded(t=3.5, frame=105, seat=2),
    CardsShown(t=4.0, frame=120, seat=1, cards=parse_cards("Ah 2c 3d 4s")),
    CardsGathered(t=5.0, frame=150),
]


def flag(seat: int | None = 2, kind: FlagKind = FlagKind.CARD_EXPOSED) -> Flag:
    rule = "deal: a card exposed is a misdeal"
    return Flag(kind, Severity.MISDEAL, seat, rule, "exposed_card", "5c face up", 1.2, 36)


@pytest.fixture
def log(tmp_path: Path) -> Iterator[HandLog]:
    hand_log = HandLog.open(tmp_path / "log.sqlite")
    yield hand_log
    hand_log.close()


def new_hand(log: HandLog, table: str = "T1", dealer: str = "alice", seats: dict[int, int] | None = None) -> int:
    session = log.open_session(table, dealer, house_rules={"game": "badugi", "big_blind": 2})
    return log.start_hand(session, button=3, stacks=seats or {1: 500, 2: 400, 3: 300})


def test_open_uses_wal_and_records_migrations(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "log.sqlite"
    with HandLog.open(path) as log:
        assert log.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert log.conn.execute("PRAGMA synchronous").fetchone()[0] == 1  # NORMAL
    with HandLog.open(path) as log:  # reopening applies nothing twice
        rows = log.conn.execute("SELECT migration_set, name FROM _sqlite_migrations").fetchall()
    assert rows == [(MIGRATION_SET, "m001_initial_schema"), (MIGRATION_SET, "m002_hand_camera"),
                    (MIGRATION_SET, "m003_hand_event_bounds"), (MIGRATION_SET, "m004_hand_unrefereed"),
                    (MIGRATION_SET, "m005_session_calibration")]
    with HandLog.open(path, durability="power") as log:
        assert log.conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_tables_dealers_sessions_are_reused_or_versioned(log: HandLog) -> None:
    s1 = log.open_session("T1", "alice", profile="main-room", house_rules="game = 'badugi'\n")
    s2 = log.open_session("T1", "alice", profile="main-room", house_rules="game = 'badugi'\n")
    s3 = log.open_session("T1", "bob", profile="main-room", house_rules="game = 'badacey'\n")
    assert s1 != s2 != s3
    tables = log.conn.execute('SELECT id, name, house_rules FROM "tables"').fetchall()
    assert [t[0] for t in tables] == [1, 2]  # a changed configuration is a new version, not an edit
    assert [r[0] for r in log.conn.execute("SELECT name FROM dealers")] == ["alice", "bob"]
    with pytest.raises(DealerAssistError, match="no session"):
        log.start_hand(99, button=1, stacks={1: 10})


def test_hands_are_numbered_per_table_and_keep_rules_and_stacks(log: HandLog) -> None:
    h1 = new_hand(log)
    h2 = new_hand(log, seats={1: 10, 4: 20})
    h3 = new_hand(log, table="T2")
    summaries = {h.id: h for h in log.list_hands()}
    assert (summaries[h1].number, summaries[h2].number, summaries[h3].number) == (1, 2, 1)
    assert summaries[h2].seats == {1: 10, 4: 20}
    story = log.story(h1)
    assert story.house_rules == 'game = "badugi"\nbig_blind = 2\n'
    assert story.hand.dealer == "alice" and story.hand.button == 3
    assert story.end is None


@pytest.mark.parametrize("event", EVENTS, ids=lambda e: f"{e.kind}-{e.frame}")
def test_every_event_kind_round_trips(log: HandLog, event: TableEvent) -> None:
    hand = new_hand(log)
    ref = log.record_event(hand, event)
    (stored,) = log.story(hand).records
    assert isinstance(stored, StoredEvent)
    assert stored.event == event and stored.seq == ref.seq and ref.table == "events"
    row = log.conn.execute("SELECT kind, seat, t, frame FROM events WHERE id = ?", (ref.id,)).fetchone()
    assert row == (event.kind, getattr(event, "seat", None), event.t, event.frame)


def test_actions_flags_snapshots_round_trip(log: HandLog) -> None:
    hand = new_hand(log)
    log.record_action(hand, DealerAction(seat=1, action="bet", amount=2, t=6.0), frame=180, phase="pre-draw")
    log.record_action(hand, DealerAction(seat=2, action="fold", t=6.5, source="vision"))
    sha = log.save_snapshot(hand, "flag: card exposed", JPEG, t=1.2, frame=36)
    log.record_flag(hand, flag(), snapshot=sha)
    bet, fold, snap, stored_flag = log.story(hand).records
    assert bet == StoredAction(bet.id, bet.seq, bet.recorded_at, 1, "bet", 2, 6.0, 180, "dealer", "pre-draw")
    assert isinstance(fold, StoredAction) and fold.source == "vision" and fold.amount is None
    assert isinstance(snap, StoredSnapshot) and snap.sha256 == sha and snap.size == len(JPEG)
    assert isinstance(stored_flag, StoredFlag)
    assert (stored_flag.kind, stored_flag.severity, stored_flag.seat, stored_flag.option, stored_flag.frame) == (
        "card_exposed", "misdeal", 2, "exposed_card", 36)
    assert stored_flag.snapshot == sha and stored_flag.rule.startswith("deal:")
    with pytest.raises(DealerAssistError, match="no snapshot"):
        log.record_flag(hand, flag(), snapshot="0" * 64)


def test_snapshots_are_files_named_by_sha256(log: HandLog) -> None:
    hand = new_hand(log)
    sha = log.save_snapshot(hand, "deal complete", JPEG)
    path = snapshot_file(log.path, sha)
    assert path.read_bytes() == JPEG and path.parent.parent.name == "log.snapshots"
    assert log.save_snapshot(hand, "again", JPEG) == sha  # same bytes, same file, a second reference
    assert log.conn.execute("SELECT count(*) FROM snapshots").fetchone()[0] == 2
    with pytest.raises(DealerAssistError, match="JPEG"):
        log.save_snapshot(hand, "png", b"\x89PNG....")


def test_award_from_the_rules_engine_is_stored_with_reasons(log: HandLog) -> None:
    hand = new_hand(log)
    award = award_pots(game="badugi", contributions={1: 10, 2: 10, 3: 10},
                       hands={1: parse_cards("Ah 2c 3d 4s"), 2: parse_cards("Kh Kd 3c 4h"), 3: None},
                       button=3, seat_order=[1, 2, 3])
    log.record_award(hand, award, t=9.0)
    (stored,) = log.story(hand).records
    assert isinstance(stored, StoredAward)
    assert stored.award["totals"] == {"1": 30, "2": 0, "3": 0}
    share = stored.award["pots"][0]["shares"][0]
    assert share["seat"] == 1 and share["amount"] == 30 and "best Badugi" in share["reason"]
    assert sorted(share["hand"]["used"]) == ["2c", "3d", "4s", "Ah"]
    assert any("Seat 1 wins the main pot" in line for line in stored.explanation)


def test_award_dict_with_given_explanation(log: HandLog) -> None:
    hand = new_hand(log)
    log.record_award(hand, {"pots": [], "totals": {"1": 5}}, explanation=["Seat 1 takes it."])
    (stored,) = log.story(hand).records
    assert isinstance(stored, StoredAward) and stored.explanation == ("Seat 1 takes it.",)
    with pytest.raises(DealerAssistError, match="mapping"):
        log.record_award(hand, [1, 2])


def test_corrections_reference_what_they_correct_and_never_overwrite(log: HandLog) -> None:
    hand = new_hand(log)
    other = new_hand(log)
    dealt = log.record_event(hand, CardDealt(t=0.5, frame=15, seat=1, card=parse_card("Ah")))
    raised = log.record_flag(hand, flag())
    log.record_correction(hand, "misread_card", target_id=dealt.id, data={"card": "ah"}, reason="glare",
                          by="floor bob")
    log.record_correction(hand, "dismiss_flag", target_id=raised.id, reason="player flashed it", by="floor bob")
    log.record_correction(hand, "accept_flag", target_id=raised.id, reason="second look", by="floor sue")
    log.end_hand(hand)
    log.record_correction(hand, "void_hand", reason="misdeal accepted", by="floor sue")  # after the end is fine
    corrections = [r for r in log.story(hand).records if isinstance(r, StoredCorrection)]
    assert [(c.kind, c.target_table, c.target_id) for c in corrections] == [
        ("misread_card", "events", dealt.id), ("dismiss_flag", "flags", raised.id),
        ("accept_flag", "flags", raised.id), ("void_hand", "hands", hand)]
    assert corrections[0].data == {"card": "Ah"}
    original = log.story(hand).records[0]
    assert isinstance(original, StoredEvent) and original.event == CardDealt(t=0.5, frame=15, seat=1,
                                                                            card=parse_card("Ah"))
    bad = [
        ({"kind": "misread_card", "target_id": dealt.id}, "card"),
        ({"kind": "misread_card", "target_id": dealt.id, "data": {"card": "Zz"}}, "card"),
        ({"kind": "dismiss_flag"}, "needs the id"),
        ({"kind": "dismiss_flag", "target_id": 999}, "no flag 999"),
        ({"kind": "void_hand", "target_id": other}, "its own hand"),
        ({"kind": "rewrite"}, "unknown correction"),
    ]
    for kwargs, message in bad:
        with pytest.raises(DealerAssistError, match=message):
            log.record_correction(hand, reason="r", by="b", **kwargs)  # type: ignore[arg-type]
    with pytest.raises(DealerAssistError, match="reason"):
        log.record_correction(hand, "note", reason=" ", by="b")
    with pytest.raises(DealerAssistError, match="no flag"):
        log.record_correction(other, "dismiss_flag", target_id=raised.id, reason="r", by="b")


def test_a_hand_ends_once_and_takes_no_more_play(log: HandLog) -> None:
    hand = new_hand(log)
    log.end_hand(hand, "misdeal", reason="two cards exposed", t=3.0)
    story = log.story(hand)
    assert story.end is not None and (story.end.status, story.end.reason, story.end.t) == (
        "misdeal", "two cards exposed", 3.0)
    with pytest.raises(DealerAssistError, match="already ended"):
        log.end_hand(hand)
    with pytest.raises(DealerAssistError, match="already ended"):
        log.record_event(hand, CardBurned(t=4.0, frame=1))
    with pytest.raises(DealerAssistError, match="no hand 77"):
        log.record_event(77, CardBurned(t=4.0, frame=1))
    with pytest.raises(DealerAssistError, match="unknown hand status"):
        log.end_hand(new_hand(log), "won")  # type: ignore[arg-type]


def test_bad_values_are_refused_before_anything_is_written(log: HandLog) -> None:
    hand = new_hand(log)
    head = log.head
    with pytest.raises(DealerAssistError, match="finite"):
        log.record_event(hand, CardBurned(t=float("nan"), frame=1))
    assert log.head == head and log.verify().ok


def test_list_filters(log: HandLog) -> None:
    a = new_hand(log, table="T1", dealer="alice", seats={1: 5, 2: 5})
    b = new_hand(log, table="T2", dealer="bob", seats={2: 5, 7: 5})
    log.record_flag(b, flag(kind=FlagKind.SEAT_SKIPPED))
    log.end_hand(a)
    ids = lambda **kw: [h.id for h in log.list_hands(**kw)]  # noqa: E731
    today = log.list_hands()[0].started_at[:10]
    assert ids() == [a, b]
    assert ids(table="T2") == [b] and ids(dealer="alice") == [a]
    assert ids(seat=7) == [b] and ids(seat=2) == [a, b] and ids(seat=3) == []
    assert ids(flag="seat_skipped") == [b] and ids(flag="card_exposed") == []
    assert ids(date=today) == [a, b] and ids(date="1999-01-01") == []
    assert ids(limit=1) == [a]
    assert ids(table="T1", seat=7) == []
    summary = log.list_hands(table="T2")[0]
    assert (summary.status, summary.flags, summary.dealer) == (None, 1, "bob")
    assert log.list_hands(table="T1")[0].status == "complete"
    with pytest.raises(DealerAssistError, match="YYYY-MM-DD"):
        log.list_hands(date="21/11/2026")


def test_rows_are_append_only(log: HandLog) -> None:
    hand = new_hand(log)
    log.record_event(hand, CardBurned(t=1.0, frame=1))
    for statement in ("UPDATE events SET t = 2.0", "DELETE FROM events", "DELETE FROM hands"):
        with pytest.raises(sqlite3.DatabaseError, match="append-only"):
            log.conn.execute(statement)


def test_one_writer_at_a_time_readers_any_time(tmp_path: Path) -> None:
    path = tmp_path / "log.sqlite"
    with HandLog.open(path) as writer:
        hand = new_hand(writer)
        with pytest.raises(DealerAssistError, match="another process"):
            HandLog.open(path)
        with HandLog.open_readonly(path) as reader:
            writer.record_event(hand, CardBurned(t=1.0, frame=1))
            assert len(reader.story(hand).records) == 1
            with pytest.raises(DealerAssistError, match="read-only"):
                reader.end_hand(hand)
            assert reader.recovered == ()
    with pytest.raises(DealerAssistError, match="no hand log"):
        HandLog.open_readonly(tmp_path / "missing.sqlite")


def test_reopening_ends_interrupted_hands_as_incomplete(tmp_path: Path) -> None:
    path = tmp_path / "log.sqlite"
    with HandLog.open(path) as log:
        done = new_hand(log)
        log.end_hand(done)
        cut = new_hand(log)
        log.record_event(cut, CardDealt(t=0.5, frame=15, seat=1))
        rows_before = log.conn.execute("SELECT * FROM hands ORDER BY id").fetchall()
    with HandLog.open_readonly(path) as reader:  # a reader changes nothing
        assert reader.story(cut).end is None
    with HandLog.open(path) as log:
        assert log.recovered == (cut,)
        end = log.story(cut).end
        assert end is not None and end.status == "incomplete" and "crash" in (end.reason or "")
        assert log.conn.execute("SELECT * FROM hands ORDER BY id").fetchall() == rows_before  # nothing edited
        assert log.incomplete_hands() == [cut]
        report = log.verify()
        assert report.ok and report.incomplete_hands == (cut,)
    with HandLog.open(path) as log:
        assert log.recovered == ()


def test_batch_is_all_or_nothing(log: HandLog) -> None:
    hand = new_hand(log)
    head = log.head
    with pytest.raises(RuntimeError), log.batch():
        log.record_event(hand, CardBurned(t=1.0, frame=1))
        log.end_hand(hand)
        raise RuntimeError("boom")
    assert log.head == head and log.story(hand).records == () and log.story(hand).end is None
    with log.batch():
        for i in range(5):
            log.record_event(hand, CardBurned(t=float(i), frame=i))
    assert len(log.story(hand).records) == 5
    assert log.verify().ok


def test_anchor_tracks_the_head(log: HandLog) -> None:
    hand = new_hand(log)
    before = log.head
    log.record_event(hand, CardBurned(t=1.0, frame=1))
    anchor = read_anchor(anchor_path(log.path))
    assert anchor is not None and anchor.before == before and anchor.after == log.head


def test_a_failed_single_write_leaves_the_log_and_its_caches_as_they_were(log: HandLog) -> None:
    """A row written alone is one autocommit INSERT after its anchor: when the INSERT fails, nothing is recorded, the
    head and ids stay put, the anchor's `before` is the database's head, and the next write goes on the chain."""
    hand = new_hand(log)
    log.record_event(hand, CardBurned(t=1.0, frame=1))
    head, next_id = log.head, dict(log._next_id)
    log.conn.execute("CREATE TEMP TRIGGER refuse BEFORE INSERT ON events BEGIN SELECT RAISE(ABORT, 'disk gone'); END")
    with pytest.raises(DealerAssistError, match="could not append to events: disk gone"):
        log.record_event(hand, CardBurned(t=2.0, frame=2))
    assert log.head == head and log._next_id == next_id and not log.conn.in_transaction
    anchor = read_anchor(anchor_path(log.path))
    assert anchor is not None and anchor.before == head and anchor.after.seq == head.seq + 1
    assert log.verify().ok
    log.conn.execute("DROP TRIGGER refuse")
    log.record_event(hand, CardBurned(t=3.0, frame=3))
    assert [r.event.t for r in log.story(hand).records if isinstance(r, StoredEvent)] == [1.0, 3.0]
    assert log.verify().ok


def test_new_logs_use_small_pages_and_older_logs_keep_theirs(tmp_path: Path) -> None:
    with HandLog.open(tmp_path / "new.sqlite") as log:
        assert log.conn.execute("PRAGMA page_size").fetchone()[0] == LOG_PAGE_SIZE
        wal_pages = log.conn.execute("PRAGMA wal_autocheckpoint").fetchone()[0]
        assert wal_pages == WAL_CHECKPOINT_BYTES // LOG_PAGE_SIZE
    old = tmp_path / "old.sqlite"
    conn = sqlite3.connect(old)
    conn.execute("PRAGMA page_size = 4096")
    conn.execute("VACUUM")
    conn.close()
    with HandLog.open(old) as log:
        assert log.conn.execute("PRAGMA page_size").fetchone()[0] == 4096
        assert log.conn.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == WAL_CHECKPOINT_BYTES // 4096
        hand = new_hand(log)
        for i in range(50):
            log.record_event(hand, CardBurned(t=float(i), frame=i))
    with HandLog.open(old) as log:
        assert len(log.story(hand).records) == 50 and log.verify().ok


def test_writer_refuses_a_log_whose_anchor_is_gone_or_does_not_match(tmp_path: Path) -> None:
    path = tmp_path / "log.sqlite"
    with HandLog.open(path) as log:
        new_hand(log)
    anchor_path(path).unlink()
    with pytest.raises(DealerAssistError, match=r"anchor .* is missing"):
        HandLog.open(path)
    path2 = tmp_path / "log2.sqlite"
    with HandLog.open(path2) as log:
        hand = new_hand(log)
        log.record_event(hand, CardBurned(t=1.0, frame=1))
        log.record_event(hand, CardBurned(t=2.0, frame=2))
    conn = sqlite3.connect(path2)
    conn.executescript("DROP TRIGGER events_no_delete; DELETE FROM events;")
    conn.close()
    with pytest.raises(DealerAssistError, match="does not match its anchor"):
        HandLog.open(path2)


def test_log_path_resolution(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv(LOG_ENV, raising=False)
    assert default_log_path().name == "hand-log.sqlite" and "dealer-assist" in default_log_path().parts
    assert resolve_log_path() == default_log_path()
    monkeypatch.setenv(LOG_ENV, str(tmp_path / "env.sqlite"))
    assert resolve_log_path() == tmp_path / "env.sqlite"
    assert resolve_log_path(tmp_path / "flag.sqlite") == tmp_path / "flag.sqlite"


def test_every_record_table_is_chained(log: HandLog) -> None:
    hand = new_hand(log)
    for event in EVENTS:
        log.record_event(hand, event)
    log.record_action(hand, DealerAction(seat=1, action="check"))
    sha = log.save_snapshot(hand, "showdown", JPEG)
    raised = log.record_flag(hand, flag(), snapshot=sha)
    log.record_correction(hand, "accept_flag", target_id=raised.id, reason="r", by="b")
    log.record_award(hand, {"pots": [], "totals": {}})
    log.end_hand(hand)
    seqs = []
    for table in CHAINED_TABLES:
        rows = log.conn.execute(f'SELECT seq, prev, hash FROM "{table}"').fetchall()
        assert rows, table
        seqs += [r[0] for r in rows]
    assert sorted(seqs) == list(range(1, len(seqs) + 1))
    report = log.verify()
    assert report.ok and report.records == len(seqs) and report.snapshots == 1
    payload = log.conn.execute("SELECT payload FROM events WHERE kind = 'shown'").fetchone()[0]
    assert json.loads(payload)["cards"] == ["Ah", "2c", "3d", "4s"]


def test_threads_share_one_log(log: HandLog) -> None:
    hand = new_hand(log)
    errors: list[BaseException] = []

    def writer(seat: int) -> None:
        try:
            for i in range(200):
                log.record_event(hand, CardDealt(t=float(i), frame=i, seat=seat))
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    def reader() -> None:
        try:
            for _ in range(50):
                log.story(hand)
                log.list_hands()
        except BaseException as exc:  # pragma: no cover
            errors.append(exc)

    threads = [threading.Thread(target=writer, args=(s,)) for s in (1, 2, 3)] + [threading.Thread(target=reader)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert not errors
    assert len(log.story(hand).records) == 600 and log.verify().ok


def test_verify_while_a_recorder_is_writing(tmp_path: Path) -> None:
    path = tmp_path / "log.sqlite"
    stop, wrote = threading.Event(), threading.Event()
    with HandLog.open(path) as writer:
        hand = new_hand(writer)

        def keep_writing() -> None:
            i = 0
            while not stop.is_set():
                writer.record_event(hand, CardDealt(t=float(i), frame=i, seat=1))
                wrote.set()
                i += 1

        thread = threading.Thread(target=keep_writing)
        thread.start()
        try:
            with HandLog.open_readonly(path) as reader:
                reports = []
                for _ in range(20):
                    reports.append(reader.verify())
                    # the writer goes on meanwhile; on a busy machine the GIL could otherwise keep it waiting
                    # through all 20 verifies
                    wrote.clear()
                    wrote.wait(1.0)
        finally:
            stop.set()
            thread.join()
    assert all(r.ok for r in reports), [str(p) for r in reports for p in r.problems]
    assert reports[-1].records > reports[0].records


def test_verify_accepts_records_written_after_it_read_the_anchor(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "log.sqlite"
    with HandLog.open(path) as writer:
        hand = new_hand(writer)
        original = store_verify._load_anchor

        def load_then_write(db_path: Path, walker: store_verify._Walker) -> store_verify.Anchor | None:
            anchor = original(db_path, walker)
            writer.record_event(hand, CardBurned(t=1.0, frame=1))  # the recorder moves on meanwhile
            return anchor

        monkeypatch.setattr(store_verify, "_load_anchor", load_then_write)
        with HandLog.open_readonly(path) as reader:
            assert reader.verify().ok
        monkeypatch.setattr(store_verify, "writer_active", lambda db_path: False)
        with HandLog.open_readonly(path) as reader:  # with no recorder running the same tail is suspect
            assert [p.kind for p in reader.verify().problems] == ["inserted"]


def test_an_empty_anchor_file_on_an_empty_log_is_no_anchor(tmp_path: Path) -> None:
    path = tmp_path / "log.sqlite"
    anchor_path(path).write_bytes(b"")  # a writer that died between creating the file and writing it
    with HandLog.open(path) as log:
        new_hand(log)
        assert log.verify().ok


@pytest.mark.parametrize("nanos", [0, 1_764_374_400_000_000_000, 1_764_374_400_999_999_999, 1_764_374_401_000_999_999,
                                   1_893_455_999_123_456_789])
def test_recorded_at_is_utc_iso_time_to_the_millisecond(monkeypatch: pytest.MonkeyPatch, nanos: int) -> None:
    """`now_text` formats the second once and adds the milliseconds: the same text as datetime's own isoformat, at a
    second's edges too, and a new second is formatted anew."""
    monkeypatch.setattr(handlog_module.time, "time_ns", lambda: nanos)
    expected = (datetime(1970, 1, 1, tzinfo=UTC) + timedelta(microseconds=nanos // 1000)).isoformat(
        timespec="milliseconds")
    assert handlog_module.now_text() == expected
    monkeypatch.setattr(handlog_module.time, "time_ns", lambda: nanos + 1_000_000_000)
    assert handlog_module.now_text()[:19] == (datetime.fromisoformat(expected) + timedelta(seconds=1)).isoformat()[:19]
