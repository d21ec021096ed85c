"""kill -9 the desktop app (a real process, the demo recording its simulated hands): the log is intact, every record
committed before the kill is still there, the hand in progress ends incomplete when the log is reopened, and
`log verify` passes."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from dealer_assist.cli import cli
from dealer_assist.store import HandLog
from dealer_assist.store.held import held_path, still_held
from dealer_assist.store.recheck import recheck

RUN = "import sys; from dealer_assist.cli import cli; sys.exit(cli.main(sys.argv[1:]))"
Row = tuple[int, int, str, str]


def records_in(log: Path) -> list[Row]:
    """Every chained record of the events, actions and flags tables: (seq, id, table, hash)."""
    conn = sqlite3.connect(f"{log.resolve().as_uri()}?mode=ro", uri=True)
    try:
        return sorted((s, i, table, h) for table in ("events", "actions", "flags")
                      for s, i, h in conn.execute(f"SELECT seq, id, hash FROM {table}"))
    except sqlite3.OperationalError:          # not created yet
        return []
    finally:
        conn.close()


@pytest.mark.parametrize("after", [12, 40])
def test_kill_9_the_app_mid_hand(tmp_path: Path, after: int) -> None:
    log = tmp_path / "log.sqlite"
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "DEALER_ASSIST_LOG": str(log)}
    child = subprocess.Popen([sys.executable, "-c", RUN, "app", "--demo", "--seed", "3",
                              "--settings", str(tmp_path / "settings.json")],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    seen: list[Row] = []
    deadline = time.monotonic() + 180
    try:
        while len(seen) < after and time.monotonic() < deadline and child.poll() is None:
            time.sleep(0.05)
            if log.exists():
                seen = records_in(log)
    finally:
        os.kill(child.pid, signal.SIGKILL)
        _, err = child.communicate()
    assert child.returncode == -signal.SIGKILL, f"the app ended before it could be killed: {err.decode()[-500:]}"
    assert len(seen) >= after, "the demo recorded too little to test"

    conn = sqlite3.connect(log)
    assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    hands_before_reopen = conn.execute("SELECT count(*) FROM hands").fetchone()[0]
    ended_before_reopen = conn.execute("SELECT count(*) FROM hand_ends").fetchone()[0]
    conn.close()
    stored = records_in(log)
    assert set(seen) <= set(stored)            # nothing committed before the kill was lost or changed
    assert hands_before_reopen == ended_before_reopen + 1   # the hand in progress was cut off
    held = still_held(held_path(log))           # what the referee, 3 s behind the video, had not reached yet
    assert held, "the demo's referee held nothing at the kill"

    with HandLog.open(log) as hl:               # a writer reopening ends the crashed hand as incomplete
        assert len(hl.recovered) == 1
        story = hl.story(hl.recovered[0])
        assert story.end is not None and story.end.status == "incomplete"
        assert len(story.records) >= 1
        assert story.end.unrefereed == len(held) and hl.unrecorded_held is None   # recorded, nothing lost
        assert recheck(story).differences == ()
        report = hl.verify()
        assert report.ok, report.problems
    result = CliRunner().invoke(cli, ["log", "verify", "--log", str(log)])
    assert result.exit_code == 0, result.output
