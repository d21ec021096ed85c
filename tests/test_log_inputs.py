"""Bad paths, ids, dates and names given to the hand log: one `error:` line each, and nothing recorded is lost."""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import tomllib
from pathlib import Path

import pytest
from audit_videos import make_sim_video
from click.testing import CliRunner, Result

from dealer_assist.audit.records import DealerAction
from dealer_assist.cli import cli
from dealer_assist.errors import DealerAssistError
from dealer_assist.store import HandLog
from dealer_assist.store.chain import anchor_path
from dealer_assist.store.paths import snapshot_dir
from dealer_assist.vision.events import CardDealt

HUGE = "99999999999999999999999"


def run(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args))


def one_error(result: Result, *needles: str) -> str:
    """The single `error:` line of a refused command (exit status 2), holding every needle."""
    assert result.exit_code == 2, (result.output, result.exception)
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.output
    assert "internal error" not in lines[0]
    for needle in needles:
        assert needle in lines[0], (needle, lines[0])
    return lines[0]


def build(path: Path, dealer: str = "alice", table: str = "T1") -> None:
    """Two ended hands (the first with an event, an action and a key frame) and a session."""
    with HandLog.open(path) as log:
        s = log.open_session(table, dealer, house_rules={"small_blind": 1, "big_blind": 2})
        h = log.start_hand(s, button=1, stacks={1: 100, 2: 100})
        log.record_event(h, CardDealt(t=0.5, frame=1, seat=2, card=None))
        log.record_action(h, DealerAction(seat=2, action="fold", t=1.0))
        log.save_snapshot(h, "deal", b"\xff\xd8\xff\xe0frame")
        log.end_hand(h)
        log.end_hand(log.start_hand(s, button=2, stacks={1: 100, 2: 100}))


def fingerprint(path: Path) -> dict[str, str]:
    """SHA-256 of the log, its anchor and every key frame: what must survive a refused command."""
    files = [path, anchor_path(path), *sorted(p for p in snapshot_dir(path).rglob("*") if p.is_file())]
    return {str(f): hashlib.sha256(f.read_bytes()).hexdigest() for f in files}


@pytest.fixture
def log_path(tmp_path: Path) -> Path:
    path = tmp_path / "d.sqlite"
    build(path)
    return path


# ----- 1. an export never overwrites the log it reads


@pytest.mark.parametrize("target", ["d.sqlite", "d.sqlite-wal", "d.sqlite-shm", "d.sqlite-journal", "d.sqlite.head",
                                    "d.snapshots/x.json", "d.snapshots/ab/new.jpg", "sub/../d.sqlite", "link.json"])
def test_export_refuses_the_logs_own_files(log_path: Path, target: str) -> None:
    folder = log_path.parent
    (folder / "sub").mkdir()
    (folder / "link.json").symlink_to(log_path)
    before = fingerprint(log_path)
    out = str(folder / target)
    result = run("log", "export", "--all", "--log", str(log_path), "-o", out)
    one_error(result, "refusing to write the export", out)
    assert fingerprint(log_path) == before
    assert not (folder / "d.sqlite-journal").exists() and not (snapshot_dir(log_path) / "x.json").exists()
    assert run("log", "verify", "--log", str(log_path)).exit_code == 0


def test_export_refuses_a_hard_link_to_the_log(log_path: Path) -> None:
    os.link(log_path, log_path.parent / "hard.json")
    before = fingerprint(log_path)
    one_error(run("log", "export", "1", "--log", str(log_path), "-o", str(log_path.parent / "hard.json")),
              "hand log's own file")
    assert fingerprint(log_path) == before


def test_export_of_a_missing_hand_keeps_the_output_file(log_path: Path) -> None:
    out = log_path.parent / "keep.json"
    out.write_text("{}")
    one_error(run("log", "export", "77", "--log", str(log_path), "-o", str(out)), "no hand 77")
    assert out.read_text() == "{}"


# ----- 2. recording never adds the log's tables to another program's database


def test_recording_refuses_another_programs_database(tmp_path: Path) -> None:
    other = tmp_path / "other.sqlite"
    conn = sqlite3.connect(other)
    conn.execute("CREATE TABLE foo (x)")
    conn.execute("INSERT INTO foo VALUES (1)")
    conn.commit()
    conn.close()
    before = other.read_bytes()
    with pytest.raises(DealerAssistError, match=r"not a Dealer Assist hand log .*foo"):
        HandLog.open(other)
    assert other.read_bytes() == before and not anchor_path(other).exists()
    empty = tmp_path / "empty.sqlite"
    empty.touch()
    with HandLog.open(empty) as log:        # an empty file or a new one becomes a log; an existing log reopens
        log.open_session("T1", "alice")
    with HandLog.open(empty) as log:
        assert log.head.seq == 3


# ----- 3, 4. ids and dates out of range


@pytest.mark.parametrize("command", ["show", "export", "recheck"])
def test_a_hand_id_beyond_sqlite_integers_is_one_line(log_path: Path, command: str) -> None:
    one_error(run("log", command, HUGE, "--log", str(log_path)), f"bad hand '{HUGE}'", "9223372036854775807")


def test_numbers_beyond_sqlite_integers_and_unicode_digits(log_path: Path) -> None:
    one_error(run("log", "list", "--limit", HUGE, "--log", str(log_path)), "bad --limit", "9223372036854775807")
    one_error(run("log", "show", "\u00b2", "--log", str(log_path)), "bad hand")
    one_error(run("log", "verify", "--head", "\u00b2:" + "0" * 64, "--log", str(log_path)), "bad chain head")


@pytest.mark.parametrize("date", ["2026-13-45", "2026-02-30", "2026-00-10", "\u0662\u0660\u0662\u0666-01-01"])
def test_an_impossible_date_is_refused(log_path: Path, date: str) -> None:
    one_error(run("log", "list", "--date", date, "--log", str(log_path)), "bad date", "YYYY-MM-DD")


def test_a_real_date_is_accepted(log_path: Path) -> None:
    today = json.loads(run("log", "list", "--json", "--log", str(log_path)).output.splitlines()[0])["started_at"][:10]
    assert len(run("log", "list", "--date", today, "--log", str(log_path)).output.splitlines()) == 2
    assert run("log", "list", "--date", "2024-02-29", "--log", str(log_path)).exit_code == 0


# ----- 5. control characters in names


FORGED = "evil\n       9  2026-01-01 00:00:00  T1  #9  dealer x  seats 1  complete  flags 0"


@pytest.mark.parametrize("name", [FORGED, "a\rb", "bell\x07", "esc\x1b[2J", "rtl\u202eoverride", "line\u2028sep"])
def test_control_characters_in_names_are_refused(tmp_path: Path, name: str) -> None:
    path = tmp_path / "l.sqlite"
    with HandLog.open(path) as log:
        with pytest.raises(DealerAssistError, match="bad dealer name") as dealer:
            log.open_session("T1", name)
        assert "\n" not in str(dealer.value)
        with pytest.raises(DealerAssistError, match="bad table name"):
            log.open_session(name, "alice")
        s = log.open_session("T1", "Zoë 7 (O'Brien)")
        h = log.start_hand(s, button=1, stacks={1: 10, 2: 10})
        with pytest.raises(DealerAssistError, match="bad floor person's name"):
            log.record_correction(h, "note", reason="x", by=name)
        assert log.head.seq == 4                 # table, dealer, session, hand: nothing of the refused names


def test_control_characters_stored_before_are_printed_escaped(tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "old.sqlite"
    monkeypatch.setattr("dealer_assist.store.handlog.check_name", lambda what, name: None,  # a log from before
                        raising=False)
    build(path, dealer=FORGED, table="T1\x1b[2J")
    listed = run("log", "list", "--log", str(path))
    assert listed.exit_code == 0
    lines = listed.output.splitlines()
    assert len(lines) == 2 and all(line.startswith(("       1", "       2")) for line in lines), listed.output
    assert "dealer evil\\n       9  2026-01-01" in lines[0] and "T1\\x1b[2J" in lines[0] and "\x1b" not in listed.output
    shown = run("log", "show", "1", "--log", str(path)).output
    assert "dealer evil\\n" in shown and "\x1b" not in shown
    assert not any(line.lstrip().startswith("9  2026-01-01") for line in shown.splitlines())
    as_json = [json.loads(line) for line in run("log", "list", "--json", "--log", str(path)).output.splitlines()]
    assert as_json[0]["dealer"] == FORGED            # the JSON keeps the stored value exactly
    phh = run("log", "export", "--all", "--format", "phh", "--log", str(path)).output
    assert tomllib.loads(phh)["1"]                 # the PHH comment naming the dealer stays one line


# ----- 6. PHH of several hands is one valid TOML document


@pytest.fixture(scope="module")
def audited(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A simulated hand video and its truth file (blank frames: the fake detector reads the truth)."""
    video, truth, _ = make_sim_video(tmp_path_factory.mktemp("video"), "badugi-limit", 3, [])
    return video, truth


def audit(audited: tuple[Path, Path], log: Path, *extra: str) -> Result:
    video, truth = audited
    return run("audit", str(video), "--table", "oval-9", "--detector", f"fake:{truth}", "--log", str(log),
               "--no-progress", *extra)


def test_phh_of_all_hands_is_valid_toml_with_each_hand_apart(audited: tuple[Path, Path], tmp_path: Path) -> None:
    log = tmp_path / "l.sqlite"
    for _ in range(2):
        assert audit(audited, log).exit_code == 0
    with HandLog.open(log) as hand_log:                       # a third hand the rules cannot replay
        session = hand_log.open_session("T9", "bob")
        hand_log.end_hand(hand_log.start_hand(session, button=1, stacks={1: 50, 2: 50}), "misdeal")
    out = tmp_path / "all.phhs"
    assert run("log", "export", "--all", "--format", "phh", "--log", str(log), "-o", str(out)).exit_code == 0
    with out.open("rb") as fh:
        hands = tomllib.load(fh)
    assert list(hands) == ["1", "2", "3"]
    for key in ("1", "2"):
        hand = hands[key]
        assert hand["variant"] == "FB" and hand["_log_hand"] == int(key) and hand["_table"] == "oval-9"
        assert hand["_house_rules"]["game"] == "badugi" and hand["_house_rules"]["betting"] == "fixed_limit"
        assert len(hand["starting_stacks"]) == 3 and any(a.startswith("d dh p1 ") for a in hand["actions"])
    assert hands["1"]["actions"] == hands["2"]["actions"]
    assert hands["3"]["seats"] == [2, 1] and hands["3"]["actions"] == []
    single = tomllib.loads(run("log", "export", "2", "--format", "phh", "--log", str(log)).output)
    assert single == hands["2"]


# ----- 2, 5, 8, 9 through `audit`: refused before any record is written


def test_audit_refuses_bad_logs_before_recording(audited: tuple[Path, Path], tmp_path: Path) -> None:
    other = tmp_path / "other.sqlite"
    sqlite3.connect(other).execute("CREATE TABLE foo (x)").connection.close()
    one_error(audit(audited, other), "not a Dealer Assist hand log")
    with sqlite3.connect(other) as conn:
        assert [r[0] for r in conn.execute("SELECT name FROM sqlite_master")] == ["foo"]

    named = tmp_path / "named.sqlite"
    one_error(audit(audited, named, "--dealer", "evil\n 9 2026-01-01 fake line"), "bad dealer name", "\\n")
    with HandLog.open_readonly(named) as hand_log:
        assert hand_log.head.seq == 0

    snapped = tmp_path / "snapped.sqlite"
    snapshot_dir(snapped).write_text("not a folder")
    one_error(audit(audited, snapped), str(snapshot_dir(snapped)), "not a folder")
    assert not snapped.exists() or snapped.stat().st_size == 0

    (tmp_path / "afile").write_text("x")
    one_error(audit(audited, tmp_path / "afile" / "l.sqlite"), "afile/l.sqlite", "is a file, not a folder")


# ----- 7. a damaged or unreadable anchor file


@pytest.mark.parametrize("damage", ["bytes", "folder"])
def test_an_unreadable_anchor_is_a_finding_not_a_crash(log_path: Path, damage: str) -> None:
    head = anchor_path(log_path)
    head.unlink()
    if damage == "bytes":
        head.write_bytes(b"\xff\xfe\x00 not utf-8 \x80")
    else:
        head.mkdir()
    result = run("log", "verify", "--log", str(log_path))
    assert result.exit_code == 1, result.output
    assert "internal error" not in result.output
    findings = [line for line in result.output.splitlines() if line.startswith("anchor: ")]
    assert len(findings) == 1 and str(head) in findings[0]
    assert ("damaged" if damage == "bytes" else "is a folder, not a file") in findings[0]
    with pytest.raises(DealerAssistError, match="anchor") as refused:
        HandLog.open(log_path)
    assert "\n" not in str(refused.value)


# ----- 8. the key-frame folder replaced by a file


def test_recording_refuses_a_file_in_place_of_the_key_frame_folder(log_path: Path) -> None:
    folder = snapshot_dir(log_path)
    for item in sorted(folder.rglob("*"), reverse=True):
        item.unlink() if item.is_file() else item.rmdir()
    folder.rmdir()
    folder.write_text("in the way")
    before = fingerprint(log_path)
    with pytest.raises(DealerAssistError, match=r"key-frame folder .* is not a folder"):
        HandLog.open(log_path)
    assert fingerprint(log_path) == before


# ----- 9. paths that cannot be written


def test_unwritable_paths_are_one_line(log_path: Path, tmp_path: Path) -> None:
    afile = tmp_path / "afile"
    afile.write_text("x")
    with pytest.raises(DealerAssistError, match="afile is a file, not a folder"):
        HandLog.open(afile / "l.sqlite")
    if Path("/proc/self").exists():
        with pytest.raises(DealerAssistError, match=r"cannot record to /proc/l\.sqlite"):
            HandLog.open("/proc/l.sqlite")
    one_error(run("log", "key", str(afile / "k.key")), "cannot write the key file", "afile is a file, not a folder")
    one_error(run("log", "export", "--all", "--log", str(log_path), "-o", str(afile / "x.json")),
              str(afile / "x.json"), "afile is a file, not a folder")
    missing = tmp_path / "no-such-folder" / "x.json"       # (not a global path: another run may have made it)
    one_error(run("log", "export", "--all", "--log", str(log_path), "-o", str(missing)),
              f"cannot write the export to {missing}", "No such file or directory")
    assert afile.read_text() == "x"
