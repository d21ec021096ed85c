"""kill -9 a real recording process mid-stream: nothing acknowledged is lost, the hand ends incomplete."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from dealer_assist.cli import cli
from dealer_assist.store import HandLog

# The child records one hand's events forever, printing each committed sequence number after the commit.
CHILD = textwrap.dedent("""
    import sys
    from dealer_assist.cards import card_from_index
    from dealer_assist.store import HandLog
    from dealer_assist.vision.events import CardDealt, CardsDiscarded
    from dealer_assist.audit.records import DealerAction

    log = HandLog.open(sys.argv[1])
    session = log.open_session("T1", "alice")
    done = log.start_hand(session, button=1, stacks={1: 100, 2: 100})
    log.end_hand(done)
    hand = log.start_hand(session, button=2, stacks={1: 100, 2: 100, 3: 100})
    print("hand", hand, flush=True)
    i = 0
    while True:
        if i % 7 == 6:
            ref = log.record_action(hand, DealerAction(seat=1 + i % 3, action="call", t=i / 30))
        elif i % 5 == 4:
            ref = log.record_event(hand, CardsDiscarded(t=i / 30, frame=i, seat=1 + i % 3, count=2))
        else:
            ref = log.record_event(hand, CardDealt(t=i / 30, frame=i, seat=1 + i % 3, card=card_from_index(i % 52)))
        print(ref.table, ref.id, ref.seq, flush=True)
        i += 1
""")


def run_and_kill(path: Path, after: int) -> tuple[int, list[tuple[str, int, int]]]:
    """Start the child, read `after` acknowledged records, SIGKILL it; return its hand and the acknowledgements."""
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(path)], stdout=subprocess.PIPE, text=True,
                             env={**os.environ, "PYTHONUNBUFFERED": "1"})
    assert child.stdout is not None
    first = child.stdout.readline().split()
    assert first[0] == "hand", first
    acked: list[tuple[str, int, int]] = []
    try:
        while len(acked) < after:
            line = child.stdout.readline()
            assert line, "the child stopped early"
            table, row_id, seq = line.split()
            acked.append((table, int(row_id), int(seq)))
    finally:
        os.kill(child.pid, signal.SIGKILL)
        child.wait()
        # Lines the child printed between our last read and the kill were acknowledged too.
        for line in child.stdout.read().splitlines():
            parts = line.split()
            if len(parts) == 3:
                acked.append((parts[0], int(parts[1]), int(parts[2])))
        child.stdout.close()
    assert child.returncode == -signal.SIGKILL
    return int(first[1]), acked


@pytest.mark.parametrize("after", [1, 150, 800])
def test_kill_9_mid_stream(tmp_path: Path, after: int) -> None:
    path = tmp_path / "log.sqlite"
    hand, acked = run_and_kill(path, after)
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    stored = {(t, i, s) for t in ("events", "actions") for i, s in conn.execute(f"SELECT id, seq FROM {t}")}
    conn.close()
    missing = [a for a in acked if a not in stored]
    assert not missing, f"{len(missing)} acknowledged records lost, first {missing[:3]}"
    with HandLog.open(path) as log:
        assert log.recovered == (hand,)
        story = log.story(hand)
        assert story.end is not None and story.end.status == "incomplete"
        assert len(story.records) >= len(acked)
        report = log.verify()
        assert report.ok, [str(p) for p in report.problems]
        assert report.incomplete_hands == (hand,)
        assert log.list_hands()[0].status == "complete"
    result = CliRunner().invoke(cli, ["log", "verify", "--log", str(path)])
    assert result.exit_code == 0, result.output
    assert f"incomplete when the recorder stopped: {hand}" in result.output


def test_recording_resumes_after_a_kill(tmp_path: Path) -> None:
    path = tmp_path / "log.sqlite"
    run_and_kill(path, 50)
    run_and_kill(path, 50)  # the second child reopens the log (recovering the first hand) and is killed too
    with HandLog.open(path) as log:
        assert len(log.incomplete_hands()) == 2
        assert log.verify().ok
