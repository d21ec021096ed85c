"""`dealer-assist rank`: sentences, JSON, one JSON object per stdin line, one-line errors."""

from __future__ import annotations

import json

from click.testing import CliRunner

from dealer_assist.cli import cli


def run(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["rank", *args], input=stdin)
    return result.exit_code, result.stdout, result.stderr


def test_badugi_sentence() -> None:
    code, out, _ = run("Ac", "2d", "4h", "Kh")
    assert code == 0
    assert out == "Ac 2d 4h Kh: three-card 4-2-A (rank 717)\n"


def test_badugi_json_and_quoted_string() -> None:
    code, out, _ = run("--json", "8c 7d 2h As")
    assert code == 0
    doc = json.loads(out)
    assert doc["name"] == "8-7-2-A badugi"
    assert doc["cards"] == ["8c", "7d", "2h", "As"]
    assert sorted(doc["used"]) == sorted(["8c", "7d", "2h", "As"])


def test_badugi_five_cards_best_four() -> None:
    code, out, _ = run("--json", "Ac 2d 3h 4s 5c")
    assert code == 0
    assert json.loads(out)["rank"] == 1


def test_a5_json() -> None:
    code, out, _ = run("--game", "a5", "--json", "2c", "2d", "7h", "6s", "5c")
    assert code == 0
    doc = json.loads(out)
    assert doc["name"] == "pair of deuces, 7-6-5"
    code, out, _ = run("--game", "a5", "6c 4d 3h 2s Ac")
    assert out == "6c 4d 3h 2s Ac: 6-4-3-2-A low (rank 2)\n"


def test_stdin_one_object_per_line_and_errors_flagged() -> None:
    code, out, _ = run("--stdin", stdin="Ac 2d 3h 4s\n\nKc Kd Kh Ks\nAc Ac 3h 4s\n")
    lines = [json.loads(line) for line in out.splitlines()]
    assert code == 1
    assert [doc.get("rank") for doc in lines[:2]] == [1, 1092]
    assert "line 4" in lines[2]["error"] and "twice" in lines[2]["error"]


def test_bad_input_is_a_one_line_error_with_status_2() -> None:
    for args in (["Zz", "2d", "3h", "4s"], ["--game", "a5", "Ac 2d 3h 4s"], [], ["Ac", "Ac", "3h", "4s"]):
        code, out, err = run(*args)
        assert code == 2, args
        assert out == ""
        assert err.startswith("error: ") and err.count("\n") == 1


def test_a_fault_inside_the_tool_is_one_line_and_a_report_file(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """A bug (not bad input) ends the command with one line naming the fault, its place and the report file, exit
    status 3; the file holds the command line and the whole traceback."""
    import dealer_assist.cli.rank as rank_cmd

    def broken(game: str, text: str) -> None:
        raise KeyError(5)

    monkeypatch.setattr(rank_cmd, "_evaluate", broken)
    monkeypatch.setenv("DEALER_ASSIST_CRASH_DIR", str(tmp_path))
    result = CliRunner().invoke(cli, ["rank", "Ac", "2d", "4h", "Kh"])
    assert result.exit_code == 3
    line = result.stderr.strip()
    assert "\n" not in line and "Traceback" not in result.output
    assert line.startswith("error: internal error (KeyError: 5 at cli/rank.py:")
    reports = list(tmp_path.glob("crash-*.txt"))
    assert len(reports) == 1 and str(reports[0]) in line
    text = reports[0].read_text()
    assert "Traceback (most recent call last)" in text and "KeyError: 5" in text
