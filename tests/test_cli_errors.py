"""Bad command lines on every command: one `error:` line naming the option and what it accepts, exit status 2, before
any work starts (a negative seed or epoch count once stopped with a traceback, or after minutes of rendering)."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from dealer_assist.cli import cli

CASES = [
    (["sim-video", "--seed", "-5", "--out", "x.mp4", "--truth", "x.json"], "'--seed': -5 is not in the range x>=0"),
    (["sim-video", "--players", "1", "--out", "x.mp4", "--truth", "x.json"], "'--players': 1 is not in the range"),
    (["train", "--epochs", "-1"], "'--epochs': -1 is not in the range x>=1"),
    (["train", "--hours", "-1"], "'--hours': -1.0 is not in the range x>=0"),
    (["simulate", "--game", "nope"], "'--game': 'nope' is not one of"),
    (["simulate", "--seed", "-1"], "'--seed': -1 is not in the range x>=0"),
    (["detect", "--threads", "-2", "x.png"], "'--threads': -2 is not in the range x>=0"),
    (["detect", "--min-confidence", "2", "x.png"], "'--min-confidence': 2.0 is not in the range 0.0<=x<=1.0"),
    (["showdown", "--game", "badugi", "--button", "0"], "'--button': 0 is not in the range x>=1"),
    (["audit", "v.mp4", "--table", "oval-9", "--horizon", "-1"], "'--horizon': -1.0 is not in the range x>=0.0"),
    (["audit", "v.mp4", "--table", "oval-9", "--button", "0"], "'--button': 0 is not in the range x>=1"),
    (["demo", "--text", "--game", "bogus"], "'--game': 'bogus' is not one of"),
    (["demo", "--screenshot", "shot.txt"], "accepted image types: .png"),
    (["app", "--screenshot", "shot"], "accepted image types: .png"),
    (["rank", "--stdin", "Ah"], "give the cards on the command line or with --stdin, not both"),
    (["bogus"], "No such command 'bogus'"),
    (["rank", "--bogus"], "No such option '--bogus'"),
]


@pytest.mark.parametrize(("args", "message"), CASES, ids=lambda v: " ".join(v) if isinstance(v, list) else "")
def test_a_bad_command_line_is_one_error_line(args: list[str], message: str) -> None:
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 2, result.output
    assert result.output.startswith("error: ") and result.output.count("\n") == 1, result.output
    assert message in result.output and result.output.rstrip().endswith("(see --help)")


def test_train_reuse_needs_the_stage_in_out(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """`--reuse classifier` with no classifier in --out once trained one for 40 minutes without saying so."""
    result = CliRunner().invoke(cli, ["train", "--out", str(tmp_path), "--reuse", "classifier"])
    assert result.exit_code == 2 and result.output.count("\n") == 1
    assert result.output == (f"error: --reuse classifier: no cards-classifier.onnx in {tmp_path}; copy it there first, "
                             "or leave classifier out of --reuse to train it\n")
    bad = CliRunner().invoke(cli, ["train", "--out", str(tmp_path), "--reuse", "everything"])
    assert bad.exit_code == 2 and "unknown stage 'everything' in --reuse; accepted: detector, classifier" in bad.output


def test_detect_on_a_gpu_needs_the_ultralytics_backend(tmp_path) -> None:  # type: ignore[no-untyped-def]
    image = tmp_path / "frame.png"
    image.write_bytes(b"\x89PNG\r\n\x1a\n")
    result = CliRunner().invoke(cli, ["detect", str(image), "--device", "0"])
    assert result.exit_code != 0 and result.output.count("\n") == 1, result.output
    assert result.output.startswith("error: the onnx backend runs on the CPU") and "ultralytics" in result.output


def test_a_reader_that_stops_early_ends_the_command_quietly(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """`dealer-assist ... | head -1`: the closed pipe stops the command with 141 (as SIGPIPE does), no error line
    and no crash report."""
    import os
    import subprocess
    import sys

    env = {**os.environ, "DEALER_ASSIST_CRASH_DIR": str(tmp_path)}
    hands = tmp_path / "hands.txt"
    hands.write_bytes(b"Ah 2d 3c 4s\n" * 50_000)
    with hands.open("rb") as lines:
        child = subprocess.Popen([sys.executable, "-c", "from dealer_assist.cli import main; main()", "rank",
                                  "--stdin"], stdin=lines, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    assert child.stdout is not None and child.stderr is not None
    assert b"4-3-2-A badugi" in child.stdout.readline()
    child.stdout.close()                                # the reader goes away with most of the output unread
    assert child.wait(timeout=120) == 141
    assert child.stderr.read() == b""
    assert [p.name for p in tmp_path.iterdir()] == ["hands.txt"]


@pytest.mark.parametrize("command", ["app", "demo"])
def test_a_screenshot_that_cannot_be_saved_is_refused_before_the_window_opens(tmp_path, command: str) -> None:  # type: ignore[no-untyped-def]
    """It once raised inside the running window, which then never closed."""
    (tmp_path / "afile").write_text("a file, not a folder")
    result = CliRunner().invoke(cli, [command, "--screenshot", str(tmp_path / "afile" / "shot.png"),
                                      "--quit-after", "10"])
    assert result.exit_code == 2, result.output
    assert "is a file, not a folder" in result.output and result.output.count("\n") == 1


def test_a_file_the_command_cannot_write_is_one_line_naming_it_and_why(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """An OSError about a path (here a folder where the hand's PHH file goes) is bad input, not an internal error."""
    (tmp_path / "hand-000001.phh").mkdir()
    result = CliRunner().invoke(cli, ["simulate", "--phh", str(tmp_path)])
    assert result.exit_code == 2, result.output
    assert result.output.splitlines()[-1] == f"error: cannot use {tmp_path / 'hand-000001.phh'}: Is a directory"
