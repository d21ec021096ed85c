"""The simulator and its commands: seeded, legal to the end, stories, JSON and PHH files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from dealer_assist.cli import cli
from dealer_assist.rules.hand import Phase
from dealer_assist.rules.house_rules import PRESETS, HouseRules
from dealer_assist.rules.simulate import simulate_hand
from dealer_assist.rules.story import hand_story


def test_same_seed_same_hand() -> None:
    a = simulate_hand(HouseRules(), 6, 42)
    b = simulate_hand(HouseRules(), 6, 42)
    assert a.history == b.history and a.stacks == b.stacks


def test_every_preset_plays_to_the_end() -> None:
    for preset in PRESETS:
        for seed in range(30):
            hand = simulate_hand(HouseRules.preset(preset), 2 + seed % 9, seed)
            assert hand.phase is Phase.DONE
            assert sum(hand.stacks) == sum(hand.starting)


def test_story_tells_cards_actions_and_award() -> None:
    text = hand_story(simulate_hand(HouseRules(), 4, 3))
    assert "posts the small blind" in text and "gets card 1:" in text
    assert "-- award --" in text and "Final stacks:" in text


def test_simulate_command_prints_stories_and_writes_phh(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["simulate", "--hands", "3", "--seed", "5", "--players", "3",
                                      "--phh", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert result.output.count("== hand ") == 3
    assert sorted(p.name for p in tmp_path.iterdir()) == ["hand-000001.phh", "hand-000002.phh", "hand-000003.phh"]


def test_simulate_json_is_one_object_per_hand() -> None:
    result = CliRunner().invoke(cli, ["simulate", "--game", "badacey-pot-limit-double", "--hands", "2", "--json"])
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in result.output.splitlines()]
    assert [r["hand"] for r in rows] == [1, 2]
    for row in rows:
        assert sum(row["finishing_stacks"].values()) == sum(row["starting_stacks"].values())
        assert row["steps"][0]["kind"] == "post"


def test_simulate_bad_rules_file_is_one_line_error(tmp_path: Path) -> None:
    bad = tmp_path / "t.toml"
    bad.write_text("colour = 1\n")
    result = CliRunner().invoke(cli, ["simulate", "--rules", str(bad)])
    assert result.exit_code == 2
    assert "unknown house rules key colour" in result.output


def test_demo_text_never_fails() -> None:
    result = CliRunner().invoke(cli, ["demo", "--text"])
    assert result.exit_code == 0 and "Final stacks:" in result.output
    result = CliRunner().invoke(cli, ["demo", "--text", "--game", "badacey-limit-triple", "--seed", "99"])
    assert result.exit_code == 0 and "Final stacks:" in result.output
    result = CliRunner().invoke(cli, ["demo", "--text", "--game", "nonsense"])   # a typo is said, not played as badugi
    assert result.exit_code == 2 and "'nonsense' is not one of" in result.output


def test_demo_opens_the_window_on_the_simulated_table(monkeypatch: pytest.MonkeyPatch) -> None:
    import dealer_assist.app.main_window as main_window

    calls: list[dict[str, object]] = []

    def fake_run(**kwargs: object) -> int:
        calls.append(kwargs)
        return 0

    monkeypatch.setattr(main_window, "run", fake_run)
    result = CliRunner().invoke(cli, ["demo", "--seed", "3"])
    assert result.exit_code == 0
    assert calls and calls[0]["demo"] is True and calls[0]["seed"] == 3


def test_no_command_opens_the_window(monkeypatch: pytest.MonkeyPatch) -> None:
    import dealer_assist.app.main_window as main_window

    calls: list[dict[str, object]] = []
    monkeypatch.setattr(main_window, "run", lambda **kw: calls.append(kw) or 0)
    result = CliRunner().invoke(cli, [])
    assert result.exit_code == 0 and calls == [{}]
