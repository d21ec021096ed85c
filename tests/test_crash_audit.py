"""kill -9 a real `dealer-assist audit` process mid-video: the log is intact, nothing recorded before the kill
is lost (the killed log is a prefix of a full run's), the hand is marked incomplete and `log verify` passes."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from audit_videos import make_sim_video
from click.testing import CliRunner

from dealer_assist.cli import cli
from dealer_assist.store import HandLog

RUN = "import sys; from dealer_assist.cli import cli; sys.exit(cli.main(sys.argv[1:]))"


def audit_args(video: Path, truth: Path, log: Path) -> list[str]:
    return ["audit", str(video), "--table", "oval-9", "--detector", f"fake:{truth}", "--log", str(log),
            "--no-progress", "--json"]


def events_in(log: Path) -> list[tuple[str, int | None, float, int]]:
    conn = sqlite3.connect(f"{log.resolve().as_uri()}?mode=ro", uri=True)
    try:
        return [(k, s, t, f) for k, s, t, f in conn.execute("SELECT kind, seat, t, frame FROM events ORDER BY id")]
    except sqlite3.OperationalError:          # not created yet
        return []
    finally:
        conn.close()


def test_kill_9_mid_video(tmp_path: Path) -> None:
    video, truth, _ = make_sim_video(tmp_path / "video", "badugi-limit", 2, ["wrong_seat"])
    full_log = tmp_path / "full" / "log.sqlite"
    assert CliRunner().invoke(cli, audit_args(video, truth, full_log)).exit_code == 0
    full = events_in(full_log)
    assert len(full) > 30

    log = tmp_path / "killed" / "log.sqlite"
    child = subprocess.Popen([sys.executable, "-c", RUN, *audit_args(video, truth, log)],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env={**os.environ})
    seen: list[tuple[str, int | None, float, int]] = []
    deadline = time.monotonic() + 120
    try:
        while len(seen) < len(full) // 3 and time.monotonic() < deadline and child.poll() is None:
            time.sleep(0.005)
            if log.exists():
                seen = events_in(log)
    finally:
        os.kill(child.pid, signal.SIGKILL)
        child.wait()
    assert child.returncode == -signal.SIGKILL, "the audit ended before it could be killed"
    assert len(seen) >= len(full) // 3

    conn = sqlite3.connect(log)
    assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    conn.close()
    stored = events_in(log)
    assert len(stored) >= len(seen) and len(stored) < len(full)
    assert stored == full[: len(stored)]                      # every event before the kill, in order, as in a full run
    with HandLog.open(log) as hl:                             # a writer reopening ends the crashed hand
        assert len(hl.recovered) == 1
        story = hl.story(hl.recovered[0])
        assert story.end is not None and story.end.status == "incomplete"
        assert hl.verify().ok
    result = CliRunner().invoke(cli, ["log", "verify", "--log", str(log)])
    assert result.exit_code == 0, result.output
