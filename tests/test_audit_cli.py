"""`dealer-assist audit` on simulated hand videos: exactly the injected flags, the log, the report, actions files."""

from __future__ import annotations

import itertools
import json
import sqlite3
from pathlib import Path

import pytest
from audit_videos import make_sim_video
from click.testing import CliRunner

from dealer_assist.audit.actions_file import actions_to_jsonl, parse_actions, read_actions
from dealer_assist.audit.ordering import InputOrderer
from dealer_assist.audit.records import DealerAction
from dealer_assist.cards import parse_cards
from dealer_assist.cli import cli
from dealer_assist.errors import DealerAssistError
from dealer_assist.store import HandLog, StoredAction, StoredFlag
from dealer_assist.synth.hand_video import FLAG_OF_ERROR as FLAG_OF
from dealer_assist.vision.events import CardDealt, CardsShown

CASES = [
    ("badugi-limit", 1, []),
    ("badacey-pot-limit-double", 2, []),
    ("badugi-limit", 3, ["skipped_seat"]),
    ("badugi-pot-limit", 4, ["wrong_seat"]),
    ("badacey-limit-triple", 5, ["extra_replacement"]),
    ("badugi-no-limit", 6, ["exposed_card"]),
]


def audit(tmp_path: Path, video: Path, truth: Path, *extra: str) -> tuple[dict, Path]:  # type: ignore[type-arg]
    log = tmp_path / "log" / "hands.sqlite"
    result = CliRunner().invoke(cli, ["audit", str(video), "--table", "oval-9", "--detector", f"fake:{truth}",
                                      "--log", str(log), "--json", "--no-progress", *extra])
    assert result.exit_code == 0, (result.output, result.exception)
    return json.loads(result.stdout), log


@pytest.mark.parametrize(("game", "seed", "errors"), CASES, ids=lambda v: str(v))
def test_audit_raises_exactly_the_injected_flags(tmp_path: Path, game: str, seed: int, errors: list[str]) -> None:
    video, truth, table = make_sim_video(tmp_path, game, seed, errors)
    report, log = audit(tmp_path, video, truth)
    assert len(report["hands"]) == 1
    hand = report["hands"][0]
    got = sorted((f["kind"], f["seat"]) for f in hand["flags"])
    want = sorted((FLAG_OF[e.kind], e.seat) for e in table.truth.errors)
    assert got == want, [f["message"] for f in hand["flags"]]
    if not errors:
        assert hand["status"] == "complete"
        assert hand["awards"]["totals"] and sum(hand["awards"]["totals"].values()) > 0
    with HandLog.open_readonly(log) as hl:
        assert hl.verify().ok
        story = hl.story(hl.hand_ids()[0])
        assert story.end is not None and story.end.status == hand["status"]
        stored = [r.kind for r in story.records if isinstance(r, StoredFlag)]
        assert stored == [f["kind"] for f in hand["flags"]]
        assert any(isinstance(r, StoredAction) for r in story.records)
    conn = sqlite3.connect(log)
    labels = [r[0] for r in conn.execute("SELECT label FROM snapshots ORDER BY id")]
    conn.close()
    # a flag's key frame may be the nearest frame still held, and then its label says which (test_audit_sink)
    kinds = {label.split(" (frame ")[0] for label in labels}
    assert "deal complete" in kinds and all(f"flag: {k}" in kinds for k, _ in want)
    assert CliRunner().invoke(cli, ["log", "verify", "--log", str(log)]).exit_code == 0


def test_audit_text_report_and_actions_file(tmp_path: Path) -> None:
    video, truth, _ = make_sim_video(tmp_path, "badugi-limit", 1, [])
    data = json.loads(truth.read_text())
    actions = tmp_path / "actions.csv"
    actions.write_text("t,seat,action,amount\n" + "".join(
        f"{a['t']},{a['seat']},{a['action']},{'' if a['amount'] is None else a['amount']}\n" for a in data["actions"]))
    result = CliRunner().invoke(cli, ["audit", str(video), "--table", "oval-9", "--detector", f"fake:{truth}",
                                      "--actions", str(actions), "--log", str(tmp_path / "l.sqlite"),
                                      "--no-progress"])
    assert result.exit_code == 0, result.output
    assert "1 hand, 0 flags" in result.output and "No flags." in result.output and "Totals:" in result.output


def test_actions_timed_by_another_clock_are_aligned_with_actions_offset(tmp_path: Path) -> None:
    """An actions file from a clock 2 s ahead of the video's: every entry lands after what it caused (flags, and
    the award can move); --actions-offset -2 puts them back and the hand is clean again."""
    video, truth, _ = make_sim_video(tmp_path, "badugi-limit", 1, [])
    data = json.loads(truth.read_text())
    ahead = tmp_path / "ahead.jsonl"
    ahead.write_text(actions_to_jsonl([DealerAction(a["seat"], a["action"], a["amount"], t=a["t"] + 2.0)
                                       for a in data["actions"]]))
    clean, _ = audit(tmp_path / "clean", video, truth)
    skewed, _ = audit(tmp_path / "skewed", video, truth, "--actions", str(ahead))
    aligned, _ = audit(tmp_path / "aligned", video, truth, "--actions", str(ahead), "--actions-offset", "-2")
    assert not clean["hands"][0]["flags"] and skewed["hands"][0]["flags"]
    assert not aligned["hands"][0]["flags"]
    assert aligned["hands"][0]["awards"]["totals"] == clean["hands"][0]["awards"]["totals"]
    bad = CliRunner().invoke(cli, ["audit", str(video), "--table", "oval-9", "--detector", f"fake:{truth}",
                                   "--actions-offset", "nan", "--no-progress"])
    assert bad.exit_code == 2 and "bad --actions-offset nan" in bad.output


def test_audit_help_and_bad_input() -> None:
    runner = CliRunner()
    help_text = runner.invoke(cli, ["audit", "--help"]).output
    for option in ("--table", "--camera", "--house", "--actions", "--log", "--json", "--detector"):
        assert option in help_text
    bad = runner.invoke(cli, ["audit", "nope.mp4", "--table", "oval-9", "--detector", "fake:/no/such.json"])
    assert bad.exit_code == 2 and bad.output.startswith("error:") and bad.output.count("\n") == 1
    uncalibrated = runner.invoke(cli, ["audit", "nope.mp4", "--table", "oval-9", "--no-progress"])
    assert uncalibrated.exit_code == 2 and uncalibrated.output.count("\n") == 1, uncalibrated.output
    assert "no camera calibration for table 'oval-9'" in uncalibrated.output
    assert "dealer-assist calibrate" in uncalibrated.output and "--camera" in uncalibrated.output
    assert "--truth" in uncalibrated.output


# -- actions files and ordering --------------------------------------------------------------------------


def test_actions_file_formats(tmp_path: Path) -> None:
    acts = [DealerAction(3, "raise", 8, t=2.5), DealerAction(1, "call", t=1.0), DealerAction(2, "fold", t=3.0)]
    jsonl = actions_to_jsonl(acts)
    assert [a.seat for a in parse_actions(jsonl)] == [1, 3, 2]
    csv_text = "# dealer input\nt,seat,action,amount\n1.0,1,call,\n2.5,3,raise,8\n\n3,2,fold,\n"
    assert parse_actions(csv_text) == parse_actions(jsonl)
    truth = json.dumps({"actions": [{"t": 1.0, "seat": 1, "action": "call", "amount": None}]})
    assert parse_actions(truth) == [DealerAction(1, "call", t=1.0)]
    path = tmp_path / "a.jsonl"
    path.write_text(jsonl)
    assert read_actions(path)[0].t == 1.0
    for text, why in [("t,seat,action\n1,2,shove\n", "unknown action"), ('{"t": 1, "seat": 2}\n', "bad action"),
                      ("t,seat,action,amount\n1,2,raise,\n", "positive amount"), ("a,b\n1,2\n", "header")]:
        with pytest.raises(DealerAssistError, match=why):
            parse_actions(text, "x")
    with pytest.raises(DealerAssistError, match="cannot read"):
        read_actions(tmp_path / "missing.csv")


@pytest.mark.parametrize(("line", "why"), [
    ('{"t": NaN, "seat": 2, "action": "call"}', "bad time"),
    ('{"t": -1, "seat": 2, "action": "call"}', "bad time"),
    ('{"t": 1, "seat": 2, "action": "raise", "amount": 2.5}', "not a whole number"),
    ('{"t": 1, "seat": 1.5, "action": "call"}', "not a whole number"),
    ('{"t": 1, "seat": 2, "action": "raise", "amount": 1000000000000000000000000000000}', "too large"),
])
def test_an_action_with_a_time_or_amount_no_table_has_is_refused(line: str, why: str) -> None:
    with pytest.raises(DealerAssistError, match=why):
        parse_actions(line + "\n", "a.jsonl")


def test_an_actions_file_that_is_not_text_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "a.csv"
    path.write_bytes(b"\xff\xfe\x00binary")
    with pytest.raises(DealerAssistError, match="not UTF-8 text"):
        read_actions(path)


def test_orderer_puts_items_back_in_time_order() -> None:
    o = InputOrderer(horizon_s=1.0)
    o.push([DealerAction(1, "call", t=2.0)])
    o.push([CardDealt(2.0, 60, 1), CardDealt(1.5, 45, 2)])
    assert o.release(2.0) == []
    out = o.release(3.0)
    assert [type(i).__name__ for i in out] == ["CardDealt", "CardDealt", "DealerAction"]
    assert [i.t for i in out] == [1.5, 2.0, 2.0]
    o.push([CardDealt(0.5, 15, 3)])                       # late: goes out at once, never before what went out
    assert len(o.release(3.0)) == 1 and o.flush() == []


def test_orderer_takes_a_landing_just_after_an_entry_as_before_it() -> None:
    """The camera stamps a card a frame or two late: a replacement stamped 0.07 s after the next seat's check
    landed before it (the check answered the table as it stood); 0.2 s after, it came after."""
    from dealer_assist.audit.ordering import CAMERA_LAG_S
    from dealer_assist.vision.events import CardReplaced

    assert 0.067 < CAMERA_LAG_S < 0.2
    o = InputOrderer(horizon_s=1.0)
    o.push([DealerAction(2, "check", t=20.0), CardReplaced(20.067, 602, 1), CardReplaced(20.2, 606, 3)])
    assert [getattr(i, "seat", None) for i in o.release(30.0)] == [1, 2, 3]


def test_audit_is_deterministic(tmp_path: Path) -> None:
    video, truth, _ = make_sim_video(tmp_path, "badugi-pot-limit", 4, ["wrong_seat"])
    first, _ = audit(tmp_path / "a", video, truth)
    second, _ = audit(tmp_path / "b", video, truth)
    first.pop("log"), second.pop("log")
    assert first == second


def test_a_fault_mid_video_ends_the_hand_incomplete_and_keeps_what_was_recorded(  # type: ignore[no-untyped-def]
        tmp_path: Path, monkeypatch) -> None:
    """A fault inside the tool partway through the video: one `internal error` line, exit status 3; the hand under way
    is ended incomplete at once, saying where and why; the events before it are in the log and it verifies."""
    from dealer_assist.audit.loop import RefereeLoop

    video, truth, _ = make_sim_video(tmp_path, "badugi-limit", 1, [])
    advance = RefereeLoop.advance

    def failing(self: RefereeLoop, now: float) -> object:
        if now > 12.0:
            raise KeyError(5)
        return advance(self, now)

    monkeypatch.setattr(RefereeLoop, "advance", failing)
    monkeypatch.setenv("DEALER_ASSIST_CRASH_DIR", str(tmp_path / "crash"))
    log = tmp_path / "log.sqlite"
    result = CliRunner().invoke(cli, ["audit", str(video), "--table", "oval-9", "--detector", f"fake:{truth}",
                                      "--log", str(log), "--no-progress"])
    assert result.exit_code == 3
    assert result.stderr.strip().splitlines()[-1].startswith("error: internal error (KeyError: 5")
    with HandLog.open_readonly(log) as hl:
        assert hl.verify().ok
        story = hl.story(hl.hand_ids()[0])
        assert story.end is not None and story.end.status == "incomplete"
        assert story.end.reason is not None and story.end.reason.startswith("the audit stopped at 12.0")
        assert story.end.reason.endswith(": an internal error (KeyError)")
        dealt = [r for r in story.records if getattr(r, "event", None) is not None]
        assert len(dealt) >= 5 and all(r.event.t <= 12.0 for r in dealt)


def test_actions_file_shows_keyed_in(tmp_path: Path) -> None:
    jsonl = '{"t": 41.5, "seat": 3, "action": "show", "cards": "Ah 2c 3d 4s"}\n{"t": 40, "seat": 1, "action": "call"}\n'
    call, show = parse_actions(jsonl)
    assert call == DealerAction(1, "call", t=40.0)
    assert show == CardsShown(41.5, 0, 3, parse_cards("Ah 2c 3d 4s"), entered=True)
    assert parse_actions(actions_to_jsonl([call, show])) == [call, show]
    csv_text = "t,seat,action,amount,cards\n40,1,call,,\n41.5,3,show,,Ah 2c 3d 4s\n"
    assert parse_actions(csv_text) == [call, show]
    assert parse_actions('{"t": 1, "seat": 3, "action": "show", "cards": ["Ah", "2c", "3d", "4s"]}\n')[0].cards
    for line, why in [('{"t": 1, "seat": 3, "action": "show"}', "a show needs its cards"),
                      ('{"t": 1, "seat": 3, "action": "show", "cards": "Ah Zz"}', "bad show"),
                      ('{"t": 1, "seat": 0, "action": "show", "cards": "Ah"}', "bad seat"),
                      ('{"t": -1, "seat": 3, "action": "show", "cards": "Ah"}', "bad time")]:
        with pytest.raises(DealerAssistError, match=why):
            parse_actions(line + "\n", "a.jsonl")


def test_audit_awards_a_show_the_dealer_keyed_in(tmp_path: Path) -> None:
    """The actions file names the hand a seat showed as read at the table; the camera (here the truth detector) read
    another: the hand keyed in is awarded, and the log says it was entered."""
    video, truth, table = make_sim_video(tmp_path, "badugi-limit", 0, [])
    shows = [e for e in table.truth.events if isinstance(e, CardsShown)]
    assert len(shows) >= 2
    loser = min(shows, key=lambda e: e.t)       # the first to show; a wheel-like badugi no other hand holds beats all
    taken = {c for e in shows if e.seat != loser.seat for c in e.cards}
    best = next(h for ranks in itertools.combinations("A23456", 4) for suits in itertools.permutations("cdhs")
                if not taken & set(h := parse_cards(" ".join(r + s for r, s in zip(ranks, suits, strict=True)))))
    gather = next(e.t for e in table.truth.events if e.kind == "gathered")
    data = json.loads(truth.read_text())
    entered = [DealerAction(a["seat"], a["action"], a["amount"], t=a["t"]) for a in data["actions"]]
    path = tmp_path / "actions.jsonl"
    path.write_text(actions_to_jsonl([*entered, CardsShown((max(e.t for e in shows) + gather) / 2, 0, loser.seat,
                                                           best, entered=True)]))
    clean, _ = audit(tmp_path / "clean", video, truth)
    keyed, log = audit(tmp_path / "keyed", video, truth, "--actions", str(path))
    def top(report: dict) -> str:  # type: ignore[type-arg]
        won = report["hands"][0]["awards"]["totals"]
        return str(max(won, key=lambda seat: won[seat]))

    assert top(keyed) == str(loser.seat) != top(clean)
    story = CliRunner().invoke(cli, ["log", "show", "1", "--log", str(log)]).output
    assert f"seat {loser.seat} shows {' '.join(map(str, best))} (entered by the dealer" in story


def test_audit_of_a_hand_with_side_pots(tmp_path: Path) -> None:
    """A simulated hand with unequal stacks (`sim-video --short-stacks`): the truth file carries the stacks, the audit
    referees with them (its fake detector rebuilds the hand from them) and awards the side pots as the rules engine
    does on the hand's true events."""
    video, truth, table = make_sim_video(tmp_path, "badugi-pot-limit", 6, [], players=6, short_stacks=True)
    assert "stacks" in json.loads(truth.read_text())
    report, _ = audit(tmp_path, video, truth)
    (hand,) = report["hands"]
    assert len(hand["awards"]["pots"]) >= 2 and not hand["flags"]
    from test_sim_side_pots import _reference

    want = {s: c for s, c in _reference(table).totals.items() if c}
    assert {int(s): c for s, c in hand["awards"]["totals"].items() if c} == want
