"""`dealer-assist showdown`: pots and awards from the command line, JSON and sentences, bad input."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from dealer_assist.cli import cli


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["showdown", *args])
    return result.exit_code, result.stdout, result.stderr


def test_badugi_side_pot_json() -> None:
    code, out, _ = run(
        "--game", "badugi", "--button", "4", "--json",
        "--seat", "1:50:Ac 2d 3h 4s", "--seat", "2:200:8c 7d 2h 5s", "--seat", "3:200:9d 6c 3s 5h",
        "--seat", "4:10:folded",
    )
    assert code == 0
    doc = json.loads(out)
    assert [(p["name"], p["amount"], p["eligible"]) for p in doc["pots"]] == [
        ("main pot", 160, [1, 2, 3]), ("side pot 1", 300, [2, 3]),
    ]
    main = doc["pots"][0]["awards"]
    assert main == [{
        "seat": 1, "amount": 160, "portion": "whole", "hand": "4-3-2-A badugi",
        "cards": ["4s", "3h", "2d", "Ac"], "odd_chips": 0, "reason": "best Badugi hand: 4-3-2-A badugi",
    }]
    assert doc["pots"][1]["awards"][0]["seat"] == 2
    assert doc["pots"][1]["awards"][0]["hand"] == "8-7-5-2 badugi"
    assert doc["totals"] == {"1": 160, "2": 300, "3": 0, "4": 0}
    assert doc["returned"] == {}


def test_badacey_split_with_odd_chip_sentences() -> None:
    code, out, _ = run(
        "--game", "badacey", "--button", "3", "--chip-unit", "5",
        "--seat", "1:25:Ac 2c 3c 4c 5c", "--seat", "2:25:Ad 2d 3d 4d 5d", "--seat", "3:5:folded",
    )
    assert code == 0
    lines = out.splitlines()
    # 55 chips = 11 units: 30 to the low half (odd unit of halving), 25 to the Badugi half.
    halves = "Halves: 30 chips to the A-5 low, 25 chips to the Badugi (the odd chip of halving goes to the A-5 half)."
    assert halves in lines
    assert "Seats 1 and 2 tie for the A-5 low half of the main pot with 5-4-3-2-A low and split 30 chips." in lines
    assert "Seats 1 and 2 tie for the Badugi half of the main pot with one-card A and split 25 chips." in lines
    assert any(line.startswith("Seat 1 gets the odd chip (a unit of 5 chips)") for line in lines)
    assert lines[-1] == "Totals: seat 1 30, seat 2 25, seat 3 0."


def test_uncalled_bet_is_returned_and_said() -> None:
    code, out, _ = run("--game", "badugi", "--button", "1", "--seat", "1:60:Kc Kd Kh Ks", "--seat", "2:20:folded")
    assert code == 0
    assert out.splitlines()[0] == "Seat 1 takes back 40 chips uncalled."
    assert "uncontested" in out
    code, out, _ = run(
        "--game", "badugi", "--button", "1", "--json", "--seat", "1:60:Kc Kd Kh Ks", "--seat", "2:20:folded",
    )
    assert json.loads(out)["returned"] == {"1": 40}
    assert json.loads(out)["totals"] == {"1": 80, "2": 0}


def test_high_card_by_suit_option() -> None:
    code, out, _ = run(
        "--game", "badugi", "--button", "1", "--odd-chip-rule", "high_card_by_suit", "--json",
        "--seat", "1:1:Ac 2d 3h 4c", "--seat", "2:1:As 2h 3d 4s", "--seat", "3:1:folded",
    )
    assert code == 0
    awards = json.loads(out)["pots"][0]["awards"]
    # Both play a three-card 3-2-A (seat 1's Ac and 4c share a suit; seat 2's As and 4s too). The
    # highest playing cards are the 3h and the 3d: the 3h wins the odd chip, though seat 2 holds a spade.
    assert {a["seat"]: a["amount"] for a in awards} == {1: 2, 2: 1}
    reason = next(a["reason"] for a in awards if a["seat"] == 1)
    assert "high_card_by_suit" in reason and "3h" in reason


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--seat", "1:10:Ac 2d 3h", "--seat", "2:10:folded"], "a badugi hand has 4"),
        (["--seat", "1:10:Ac 2d 3h 4s", "--seat", "2:10:Ac 5d 6h 7s"], "seat 1's hand too"),
        (["--seat", "1:10:Ac Ac 3h 4s", "--seat", "2:10:folded"], "appears twice"),
        (["--seat", "1:10:Zz 2d 3h 4s", "--seat", "2:10:folded"], "not a card"),
        (["--seat", "1:ten:Ac 2d 3h 4s", "--seat", "2:10:folded"], "bad contribution"),
        (["--seat", "1-10-Ac", "--seat", "2:10:folded"], "expected SEAT:CONTRIBUTION:CARDS"),
        (["--seat", "1:10:Ac 2d 3h 4s", "--seat", "1:10:folded"], "given twice"),
        (["--chip-unit", "3", "--seat", "1:10:Ac 2d 3h 4s", "--seat", "2:10:Kc Kd Kh Ks"], "chip unit"),
        (["--seat", "1:10:folded", "--seat", "2:10:folded"], "no live seat"),
    ],
)
def test_bad_input_is_one_line_error_exit_2(args: list[str], message: str) -> None:
    code, out, err = run("--game", "badugi", "--button", "1", *args)
    assert code == 2
    assert out == ""
    assert err.startswith("error: ") and message in err
    assert err.count("\n") == 1


def test_unknown_odd_chip_rule_is_refused() -> None:
    code, _, err = run("--game", "badugi", "--button", "1", "--odd-chip-rule", "coin_flip", "--seat", "1:1:folded")
    assert code == 2
    assert "coin_flip" in err


def test_help_lists_showdown() -> None:
    result = CliRunner().invoke(cli, ["--help"])
    assert "showdown" in result.output
    result = CliRunner().invoke(cli, ["showdown", "--help"])
    assert result.exit_code == 0 and "SEAT:CONTRIBUTION:CARDS" in result.output


def test_cards_shown_but_not_read_are_question_marks() -> None:
    """A floor supervisor asks whether an unread card matters: Kc Kd and two unknowns lose to 4-3-2-A whatever they
    are (awarded, with the reason); 5c and three unknowns could make 5-3-2-A and beat 3-2-A (one line, no award)."""
    code, out, _ = run("--game", "badugi", "--button", "2", "--seat", "1:20:Ac 2d 3h 4s", "--seat", "2:20:Kc Kd ?? ??")
    assert code == 0
    assert "Seat 2's hand, read as Kc Kd with 2 cards unread: no card it could hold wins it a chip" in out
    assert out.rstrip().endswith("Totals: seat 1 40, seat 2 0.")
    code, out, err = run("--game", "badugi", "--button", "2", "--seat", "1:20:Ac 2d 3h Ks",
                         "--seat", "2:20:5c ?? ?? ??")
    assert code != 0 and out == ""
    assert err == ("error: seat 2's hand, read as 5c with 3 cards unread, could win the main pot (with 5-3-2-A "
                   "badugi): the award needs its cards read\n")
