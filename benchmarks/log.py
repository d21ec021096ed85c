"""Hand-log speed: events ingested per second with a commit per event, and `log show` on 100,000 hands.

Prints `name: value` lines (medians of repeated runs). The peer is SQLite alone: the same rows into the same
schema, a commit per row, run in turn with the hand log (`hand_log_share_of_sqlite_alone` is the median ratio).
The 100,000-hand log is built once through `HandLog.batch()` (one transaction per 1,000 hands, the hash chain
computed row by row as in live recording) and kept under --workdir for later runs; pass --rebuild to make it again
(a log kept from before a schema change is measured as it was built).

    .venv/bin/python benchmarks/log.py [--hands 100000] [--workdir DIR] [--rebuild] [--ingest-only]
"""

from __future__ import annotations

import argparse
import random
import secrets
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from dealer_assist.audit.records import DealerAction, Flag, FlagKind, Severity
from dealer_assist.cards import FULL_DECK
from dealer_assist.store import HandLog
from dealer_assist.store.render import render_story
from dealer_assist.vision.events import (
    ButtonMoved,
    CardBurned,
    CardDealt,
    CardReplaced,
    CardsDiscarded,
    CardsGathered,
    CardsShown,
    TableEvent,
)


def simulated_hand(log: HandLog, session: int, rng: random.Random, t0: float) -> int:
    """One Badugi hand, 2 to 6 seats: deal, 3 draws, betting, showdown, award, end (about 30 to 90 records)."""
    players = rng.randint(2, 6)
    seats = list(range(1, players + 1))
    button = rng.choice(seats)
    hand = log.start_hand(session, button=button, stacks={s: rng.randint(100, 1000) for s in seats}, t=t0)
    deck = list(FULL_DECK)
    rng.shuffle(deck)
    frame = int(t0 * 30)
    t = t0

    def event(ev: TableEvent) -> None:
        """Record one table event in this hand."""
        log.record_event(hand, ev)

    event(ButtonMoved(t=t, frame=frame, seat=button))
    hands = {s: [] for s in seats}
    for _ in range(4):
        for s in seats:
            t += 0.3
            frame += 9
            card = deck.pop()
            hands[s].append(card)
            event(CardDealt(t=t, frame=frame, seat=s, card=None))
    live = list(seats)
    for draw in range(4):
        for s in list(live):
            t += 1.0
            action = rng.choice(("check", "call", "bet", "fold") if len(live) > 2 else ("check", "call", "bet"))
            amount = rng.randint(1, 20) if action == "bet" else None
            log.record_action(hand, DealerAction(seat=s, action=action, amount=amount, t=t), frame=frame)
            if action == "fold":
                live.remove(s)
        if draw == 3:
            break
        event(CardBurned(t=t, frame=frame))
        for s in live:
            n = rng.randint(0, 2)
            if n:
                t += 0.5
                frame += 15
                event(CardsDiscarded(t=t, frame=frame, seat=s, count=n))
                for _ in range(n):
                    t += 0.3
                    frame += 9
                    event(CardReplaced(t=t, frame=frame, seat=s, card=None))
    if rng.random() < 0.05:
        log.record_flag(hand, Flag(FlagKind.DRAW_OUT_OF_ORDER, Severity.WARNING, live[0], "draw order", None,
                                   "replacement dealt out of order", t, frame))
    for s in live:
        event(CardsShown(t=t, frame=frame, seat=s, cards=tuple(hands[s])))
    winner = rng.choice(live)
    log.record_award(hand, {"pots": [{"name": "main pot", "amount": 40, "eligible": live, "shares": [
        {"seat": winner, "amount": 40, "portion": "whole", "reason": "best Badugi hand"}],
        "explanation": [f"Seat {winner} wins the main pot, 40 chips."]}], "totals": {str(winner): 40}}, t=t)
    event(CardsGathered(t=t + 1, frame=frame + 30))
    log.end_hand(hand, t=t + 1)
    return hand


def build_log(path: Path, hands: int, seed: int = 7) -> float:
    """A log of `hands` simulated hands over 10 tables and 40 dealers; returns seconds taken."""
    for old in path.parent.glob(path.name + "*"):
        old.unlink()
    rng = random.Random(seed)
    start = time.perf_counter()
    with HandLog.open(path) as log:
        sessions = [log.open_session(f"T{i % 10 + 1}", f"dealer{i}") for i in range(40)]
        done = 0
        while done < hands:
            with log.batch():
                for _ in range(min(1000, hands - done)):
                    simulated_hand(log, sessions[done % 40], rng, done * 120.0)
                    done += 1
    return time.perf_counter() - start


def ingest_rate(workdir: Path, events: int, durability: str = "process", key: bytes | None = None) -> float:
    """Events per second, each its own committed transaction, into a fresh log (its head signed with `key`)."""
    path = workdir / f"ingest-{durability}{'-signed' if key else ''}.sqlite"
    for old in path.parent.glob(path.name + "*"):
        old.unlink()
    with HandLog.open(path, durability=durability, key=key) as log:  # type: ignore[arg-type]
        session = log.open_session("T1", "alice")
        hand = log.start_hand(session, button=1, stacks={1: 100, 2: 100, 3: 100})
        evs = [CardDealt(t=i / 30, frame=i, seat=1 + i % 3, card=FULL_DECK[i % 52]) for i in range(events)]
        start = time.perf_counter()
        for ev in evs:
            log.record_event(hand, ev)
        elapsed = time.perf_counter() - start
        assert log.verify().ok
    return events / elapsed


def sqlite_floor_rate(workdir: Path, events: int) -> float:
    """The peer: SQLite alone, a commit per row, inserting the rows `ingest_rate` writes into a database with the
    hand log's schema and settings (page size, WAL, synchronous, checkpoint size, foreign keys) and nothing else:
    no hashing, no anchor, no Python records. What this machine allows; the hand log's rate is a share of it."""
    source = workdir / "floor-source.sqlite"
    target = workdir / "floor.sqlite"
    for old in [*workdir.glob(source.name + "*"), *workdir.glob(target.name + "*")]:
        old.unlink()
    with HandLog.open(source) as log:
        session = log.open_session("T1", "alice")
        hand = log.start_hand(session, button=1, stacks={1: 100, 2: 100, 3: 100})
        with log.batch():
            for i in range(events):
                log.record_event(hand, CardDealt(t=i / 30, frame=i, seat=1 + i % 3, card=FULL_DECK[i % 52]))
        pragmas = {name: log.conn.execute(f"PRAGMA {name}").fetchone()[0]
                   for name in ("page_size", "synchronous", "wal_autocheckpoint", "foreign_keys")}
        schema = [sql for (sql,) in log.conn.execute(
            "SELECT sql FROM sqlite_master WHERE sql IS NOT NULL AND tbl_name IN ('hands', 'events') "
            "ORDER BY type = 'table' DESC")]
        hands = log.conn.execute("SELECT * FROM hands").fetchall()
        rows = log.conn.execute("SELECT * FROM events ORDER BY id").fetchall()
    conn = sqlite3.connect(target, isolation_level=None)
    conn.execute(f"PRAGMA page_size = {pragmas['page_size']}")
    conn.execute("PRAGMA journal_mode = WAL")
    for name in ("synchronous", "wal_autocheckpoint", "foreign_keys"):
        conn.execute(f"PRAGMA {name} = {pragmas[name]}")
    conn.execute("PRAGMA foreign_keys = OFF")   # the hands rows come without the tables they refer to
    for sql in schema:
        conn.execute(sql)
    conn.executemany(f"INSERT INTO hands VALUES ({','.join('?' * len(hands[0]))})", hands)
    conn.execute(f"PRAGMA foreign_keys = {pragmas['foreign_keys']}")
    insert = f"INSERT INTO events VALUES ({','.join('?' * len(rows[0]))})"
    start = time.perf_counter()
    for row in rows:
        conn.execute(insert, row)
    elapsed = time.perf_counter() - start
    conn.close()
    return events / elapsed


def show_times(path: Path, samples: int, seed: int = 11) -> list[float]:
    """Milliseconds for what `log show` does in-process: open read-only, read the hand, render it."""
    with HandLog.open_readonly(path) as log:
        count = log.conn.execute("SELECT count(*) FROM hands").fetchone()[0]
    rng = random.Random(seed)
    times = []
    for _ in range(samples):
        hand = rng.randint(1, count)
        start = time.perf_counter()
        with HandLog.open_readonly(path) as log:
            text = render_story(log.story(hand))
        times.append((time.perf_counter() - start) * 1000)
        assert f"Hand {hand}:" in text
    return times


def main() -> None:
    """Run every measurement and print `name: value` lines."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=100_000)
    parser.add_argument("--events", type=int, default=20_000)
    parser.add_argument("--workdir", type=Path, default=Path(tempfile.gettempdir()) / "dealer-assist-bench")
    parser.add_argument("--rebuild", action="store_true")
    parser.add_argument("--ingest-only", action="store_true", help="Only the ingest rates (no 100,000-hand log).")
    args = parser.parse_args()
    args.workdir.mkdir(parents=True, exist_ok=True)

    rates, signed, floor = [], [], []
    for _ in range(5):  # interleaved, so that the machine's load falls on all alike
        rates.append(ingest_rate(args.workdir, args.events))
        signed.append(ingest_rate(args.workdir, args.events, key=secrets.token_bytes(32)))
        floor.append(sqlite_floor_rate(args.workdir, args.events))
    print(f"events_per_s_commit_each: {statistics.median(rates):.0f}")
    print(f"events_per_s_commit_each_runs: {' '.join(f'{r:.0f}' for r in rates)}")
    print(f"sqlite_alone_rows_per_s_commit_each: {statistics.median(floor):.0f}")
    print(f"sqlite_alone_rows_per_s_commit_each_runs: {' '.join(f'{r:.0f}' for r in floor)}")
    print(f"hand_log_share_of_sqlite_alone: {statistics.median(r / f for r, f in zip(rates, floor, strict=True)):.2f}")
    print(f"events_per_s_commit_each_signed: {statistics.median(signed):.0f}")
    print(f"events_per_s_commit_each_signed_runs: {' '.join(f'{r:.0f}' for r in signed)}")
    print(f"events_per_s_commit_each_fsync: {ingest_rate(args.workdir, 2000, 'power'):.0f}")
    if args.ingest_only:
        return

    path = args.workdir / f"log-{args.hands}.sqlite"
    have = 0
    if path.exists() and not args.rebuild:
        with HandLog.open_readonly(path) as log:
            have = log.conn.execute("SELECT count(*) FROM hands").fetchone()[0]
    if have != args.hands:
        seconds = build_log(path, args.hands)
        print(f"build_log_s: {seconds:.1f}")
    with HandLog.open_readonly(path) as log:
        hands = log.conn.execute("SELECT count(*) FROM hands").fetchone()[0]
        records = log.head.seq
    print(f"log_hands: {hands}")
    print(f"log_records: {records}")
    print(f"log_size_mb: {path.stat().st_size / 1e6:.0f}")
    times = show_times(path, 300)
    print(f"log_show_ms_median: {statistics.median(times):.2f}")
    print(f"log_show_ms_p95: {sorted(times)[int(len(times) * 0.95)]:.2f}")
    cli = []
    for hand in random.Random(5).sample(range(1, hands + 1), 5):
        start = time.perf_counter()
        subprocess.run([str(Path(sys.executable).parent / "dealer-assist"), "log", "show", str(hand), "--log",
                        str(path)], check=True, capture_output=True)
        cli.append((time.perf_counter() - start) * 1000)
    print(f"log_show_cli_process_ms_median: {statistics.median(cli):.0f}")
    start = time.perf_counter()
    with HandLog.open_readonly(path) as log:
        ok = log.verify().ok
    print(f"verify_100k_s: {time.perf_counter() - start:.1f} ({'ok' if ok else 'FAILED'})")


if __name__ == "__main__":
    main()
