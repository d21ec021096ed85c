"""`dealer-assist log`: help on every command, list filters, show's story, exports, one-line errors."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import click
import pytest
from click.testing import CliRunner, Result
from hand_log_story import record_story

from dealer_assist.cards import parse_cards
from dealer_assist.cli import cli
from dealer_assist.cli.log import log as log_group
from dealer_assist.store import LOG_ENV, HandLog
from dealer_assist.vision.events import CardsShown


@pytest.fixture(scope="module")
def path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two hands at T1 (alice) with a full story, one at T2 (bob) left unfinished."""
    p = tmp_path_factory.mktemp("cli") / "log.sqlite"
    with HandLog.open(p) as log:
        s = log.open_session("T1", "alice", house_rules={"stakes": {"small_blind": 1, "big_blind": 2}})
        h = record_story(log, s)
        log.record_event(h, CardsShown(t=9.5, frame=310, seat=1, cards=parse_cards("Ac 4s 7h Kh")))
        log.record_award(h, {"pots": [{"name": "main pot", "amount": 10, "shares": [
            {"seat": 1, "amount": 10, "portion": "whole", "reason": "best Badugi hand: K-7-4-A"}],
            "explanation": ["Seat 1 wins the main pot, 10 chips, with K-7-4-A."]}], "totals": {"1": 10}})
        log.end_hand(h)
        h2 = log.start_hand(s, button=1, stacks={1: 510, 3: 290})
        log.end_hand(h2, "misdeal", reason="two exposed")
        s2 = log.open_session("T2", "bob")
        log.start_hand(s2, button=1, stacks={4: 100, 5: 100})
    return p


def run(*args: str, env: dict[str, str] | None = None) -> Result:
    return CliRunner().invoke(cli, list(args), env=env)


def test_every_log_command_has_help() -> None:
    assert log_group.help
    for name, command in log_group.commands.items():
        assert command.help and command.help.strip(), name
        result = run("log", name, "--help")
        assert result.exit_code == 0, name
        assert "--log" in result.output or name == "key", name     # `key` makes a key file, it reads no log
        assert isinstance(command, click.Command)
        for param in command.params:
            if isinstance(param, click.Option):
                assert param.help, f"{name} {param.name}"
    assert "log" in run("--help").output


def test_list_and_filters(path: Path) -> None:
    out = run("log", "list", "--log", str(path))
    assert out.exit_code == 0
    lines = out.output.splitlines()
    assert len(lines) == 3 and "T1  #1  dealer alice  seats 1,2,3  complete  flags 1" in lines[0]
    assert lines[0].endswith("flags 1  pot 10: seat 1 10")          # the award, so a disputed pot is found by eye
    assert lines[1].endswith("misdeal  flags 0")                      # no award, no pot
    assert "not ended (recorder stopped)" in lines[2]
    assert "the recorder stopped before ending it" in run("log", "show", "3", "--log", str(path)).output

    def ids(*args: str) -> list[int]:
        result = run("log", "list", "--log", str(path), "--json", *args)
        assert result.exit_code == 0, result.output
        return [json.loads(line)["id"] for line in result.output.splitlines()]

    today = json.loads(run("log", "list", "--log", str(path), "--json").output.splitlines()[0])["started_at"][:10]
    assert ids("--table", "T2") == [3]
    assert ids("--dealer", "alice") == [1, 2]
    assert ids("--seat", "2") == [1] and ids("--seat", "3") == [1, 2]
    assert ids("--flag", "card_exposed") == [1]
    typo = run("log", "list", "--log", str(path), "--flag", "card_exposd")
    assert typo.exit_code == 2 and "card_exposd" in typo.output and "'card_exposed'" in typo.output  # not "no hands"
    assert ids("--date", today) == [1, 2, 3] and ids("--date", "2001-01-01") == []
    assert ids("--limit", "2") == [1, 2]
    listed = [json.loads(line) for line in run("log", "list", "--log", str(path), "--json").output.splitlines()]
    assert [(h["pot"], h["won"]) for h in listed] == [(10, {"1": 10}), (None, {}), (None, {})]


def test_a_split_pot_lists_each_winner_and_leaves_out_returned_chips() -> None:
    from dealer_assist.store.queries import _pot_and_winners

    payload = {"pots": [{"amount": 45, "shares": [{"seat": 1, "amount": 23}, {"seat": 2, "amount": 22}]},
                        {"amount": 70, "shares": [{"seat": 2, "amount": 35}, {"seat": 3, "amount": 35}]}],
               "returned": {"3": 15}, "totals": {"1": 23, "2": 57, "3": 50}}
    assert _pot_and_winners(json.dumps(payload)) == (115, {1: 23, 2: 57, 3: 35})
    assert _pot_and_winners(None) == (None, {})
    assert _pot_and_winners('{"pots": [{"amount": "x"}]}') == (None, {})   # a payload this version cannot read


def test_log_location_from_environment_and_flag(path: Path, tmp_path: Path) -> None:
    assert run("log", "list", env={LOG_ENV: str(path)}).exit_code == 0
    other = run("log", "list", "--log", str(tmp_path / "none.sqlite"), env={LOG_ENV: str(path)})
    assert other.exit_code == 2 and "no hand log" in other.output


def test_show_tells_the_whole_story(path: Path) -> None:
    result = run("log", "show", "1", "--log", str(path))
    assert result.exit_code == 0
    text = result.output
    for expected in [
        "Hand 1: table T1, hand #1, badugi, dealer alice",
        "Seats and starting stacks: seat 1 (500), seat 2 (400), seat 3 (300)",
        "seat 1 is dealt Ac",
        "corrected by floor (#1, floor bob): event #2 was misread; the card was Kd: glare",
        "seat 1 raises to 4 (entered by the dealer)",
        "seat 2 folds (seen by the camera)",
        "FLAG #1 warning card_exposed, seat 2: 5c flashed (rule: deal: exposed card; house option "
        "exposed_card_policy",
        "dismisses flag #1: player flashed it",
        "seat 1 discards 1 card (Td)",
        "seat 1 receives Kh as a replacement",
        "seat 3 shows 3h 6d 9c Qs",
        "Seat 1 wins the main pot, 10 chips, with K-7-4-A.",
        "main pot: seat 1 gets 10 because best Badugi hand: K-7-4-A",
        "Ended complete",
    ]:
        assert expected in text, expected
    assert text.index("seat 1 is dealt Ac") < text.index("raises to 4") < text.index("shows 3h")
    misdeal = run("log", "show", "2", "--log", str(path)).output
    assert "Ended misdeal: two exposed" in misdeal


def test_export_json_csv_phh(path: Path, tmp_path: Path) -> None:
    one = json.loads(run("log", "export", "1", "--format", "json", "--log", str(path)).output)
    assert one["hand"]["id"] == 1 and one["end"]["status"] == "complete"
    kinds = [r["record"] for r in one["records"]]
    assert kinds.count("event") == 16 and kinds.count("action") == 3 and "award" in kinds
    assert one["records"][0]["event"] == {"kind": "dealt", "t": 0.0, "frame": 0, "seat": 1, "card": "Ac"}
    every = json.loads(run("log", "export", "--all", "--format", "json", "--log", str(path)).output)
    assert [h["hand"]["id"] for h in every] == [1, 2, 3]
    rows = list(csv.DictReader(io.StringIO(run("log", "export", "1", "--format", "csv", "--log", str(path)).output)))
    assert rows[0]["record"] == "hand" and rows[-1]["record"] == "end"
    hand_data = json.loads(rows[0]["data"])
    assert set(hand_data) == {"seats", "house_rules", "camera"} and "big_blind = 2" in hand_data["house_rules"]
    assert sum(r["record"] == "event" for r in rows) == 16
    assert [int(r["seq"]) for r in rows] == sorted(int(r["seq"]) for r in rows)
    phh = run("log", "export", "1", "--format", "phh", "--log", str(path)).output
    assert 'variant = "FB"' in phh and "blinds_or_straddles = [1, 2, 0]" in phh
    assert '"d dh p1 Ac"' in phh and '"p1 cbr 4"' in phh and '"p2 f"' in phh and '"p3 sm 3h6d9cQs"' in phh
    out = tmp_path / "all.phhs"
    assert run("log", "export", "--all", "--format", "phh", "-o", str(out), "--log", str(path)).exit_code == 0
    assert out.read_text().startswith("[1]\n")


@pytest.mark.parametrize(("args", "message"), [
    (["show", "abc"], "bad hand 'abc'"),
    (["show", "99"], "no hand 99"),
    (["list", "--date", "2026/1/1"], "bad date"),
    (["list", "--seat", "two"], "bad --seat"),
    (["export", "--format", "json"], "either a HAND id or --all"),
    (["export", "1", "--all"], "either a HAND id or --all"),
    (["export", "1", "--format", "xml"], "Invalid value for '--format'"),
    (["verify", "--head", "12"], "bad chain head"),
    (["show"], "Missing argument"),
])
def test_bad_input_is_one_line_with_status_2(path: Path, args: list[str], message: str) -> None:
    result = run("log", *args, "--log", str(path))
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and message in lines[0], result.output


def test_not_a_hand_log(tmp_path: Path) -> None:
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"this is not a database at all" * 100)
    result = run("log", "list", "--log", str(junk))
    assert result.exit_code == 2 and result.output.startswith("error: ")


def test_verify_with_head(path: Path) -> None:
    ok = run("log", "verify", "--log", str(path))
    assert ok.exit_code == 0
    head = ok.output.strip().split("chain head ")[1]
    assert run("log", "verify", "--head", head, "--log", str(path)).exit_code == 0
    forged = head.split(":")[0] + ":" + "e" * 64
    assert run("log", "verify", "--head", forged, "--log", str(path)).exit_code == 1
