"""The floor's award after a hand: `log correct --shown SEAT:CARDS` keys in the hands the camera did not read, the hand
is refereed again with them and the award it makes is recorded as the floor's (an `award` correction), shown by `log
list`, `log show`, and checked by `log recheck`. The awards are checked against the referee fed the true reads."""

from __future__ import annotations

import json
import shutil
import sys
from dataclasses import replace
from itertools import permutations
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
from vision_events import _actions, _referee

from dealer_assist.audit.outputs import AwardMade
from dealer_assist.audit.records import DealerAction
from dealer_assist.audit.referee import Referee
from dealer_assist.cards import parse_cards
from dealer_assist.cli import cli
from dealer_assist.rules.steps import Awarded
from dealer_assist.store import HandLog, StoredAward, StoredCorrection, StoredEvent
from dealer_assist.store.floor_award import floor_award_payload
from dealer_assist.store.jsonable import to_jsonable
from dealer_assist.store.log_key import KEY_ENV
from dealer_assist.store.sink import HandLogSink
from dealer_assist.synth.hand_video import SimulatedTable
from dealer_assist.vision.events import CardReplaced, CardsShown, SeatFolded, TableEvent

BY, WHY = "floor bob", "read from the surveillance video"


def _sim(game: str, seed: int, players: int | None = None, short: bool = False) -> SimulatedTable:
    return SimulatedTable(game, seed, size=(320, 180), fps=15.0, players=players, effects=0, short_stacks=short)


def _shows(sim: SimulatedTable) -> list[CardsShown]:
    return [e for e in sim.truth.events if isinstance(e, CardsShown)]


def _record(path: Path, sim: SimulatedTable, events: list[TableEvent]) -> Referee:
    """The hand refereed from `events` and the video's dealer entries, recorded into a new log at `path`."""
    with HandLog.open(path) as log:
        base = _referee(sim)
        referee = Referee(base.table, HandLogSink(log, log.open_session("T1", "dana")))
        items: list[TableEvent | DealerAction] = [*events, *_actions(sim)]
        referee.feed_all(sorted(items, key=lambda i: (i.t, isinstance(i, DealerAction))))
        referee.close(sim.frame_count / sim.fps)
    return referee


def _true_totals(sim: SimulatedTable) -> dict[str, int]:
    """What each seat wins when the camera reads every shown hand (the referee fed the true events)."""
    referee = _referee(sim)
    items: list[TableEvent | DealerAction] = [*sim.truth.events, *_actions(sim)]
    referee.feed_all(sorted(items, key=lambda i: (i.t, isinstance(i, DealerAction))))
    referee.close(sim.frame_count / sim.fps)
    made = [a for h in referee.hands for a in h.awards]
    assert made and isinstance(made[-1], AwardMade) and not made[-1].provisional
    return {str(s): c for s, c in to_jsonable(made[-1].award.totals).items()}


def run(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args), env={KEY_ENV: ""})


def shown(path: Path, *reads: CardsShown | str, hand: str = "1") -> Result:
    args = [r if isinstance(r, str) else f"{r.seat}:{' '.join(map(str, r.cards))}" for r in reads]
    return run("log", "correct", hand, "--log", str(path), "--by", BY, "--reason", WHY,
               *(a for r in args for a in ("--shown", r)))


def corrections(path: Path, kind: str | None = None) -> list[StoredCorrection]:
    with HandLog.open_readonly(path) as log:
        return [r for r in log.story(1).records if isinstance(r, StoredCorrection) and kind in (None, r.kind)]


def floor_totals(path: Path) -> dict[str, int]:
    awards = corrections(path, "award")
    assert awards
    totals: dict[str, Any] = awards[-1].data["award"]["totals"]
    return {s: c for s, c in totals.items()}


CASES = [("badugi-limit", 2, None, False), ("badacey-limit-triple", 3, None, False),
         ("badugi-no-limit", 9, 4, True)]      # the last with side pots (short stacks)


@pytest.fixture(scope="module")
def unread_logs(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, int], Path]:
    """One log per case: the hand refereed with every shown hand turned up but unread (no award)."""
    out = {}
    for game, seed, players, short in CASES:
        sim = _sim(game, seed, players, short)
        path = tmp_path_factory.mktemp("logs") / f"{game}-{seed}.sqlite"
        _record(path, sim, [replace(e, cards=()) if isinstance(e, CardsShown) else e for e in sim.truth.events])
        out[(game, seed)] = path
    return out


def _copy(src: Path, dst: Path) -> Path:
    for f in src.parent.glob(src.name + "*"):
        shutil.copy(f, dst / f.name)
    return dst / src.name


@pytest.mark.parametrize(("game", "seed", "players", "short"), CASES, ids=lambda v: str(v))
def test_the_hands_keyed_in_after_the_hand_award_what_the_camera_would_have(
        game: str, seed: int, players: int | None, short: bool, unread_logs: dict[tuple[str, int], Path],
        tmp_path: Path) -> None:
    sim = _sim(game, seed, players, short)
    path = _copy(unread_logs[(game, seed)], tmp_path)
    assert not corrections(path) and "pot" not in run("log", "list", "--log", str(path)).output
    result = shown(path, *_shows(sim))
    assert result.exit_code == 0, result.output
    assert "(award) on hand 1: the floor's award, by floor bob:" in result.output
    assert floor_totals(path) == _true_totals(sim)
    if short:
        assert len(corrections(path, "award")[-1].data["award"]["pots"]) >= 2
    listed = run("log", "list", "--log", str(path)).output
    won = {s: c for s, c in _true_totals(sim).items() if c}
    assert "(floor): " + ", ".join(f"seat {s} {c}" for s, c in sorted(won.items(), key=lambda kv: int(kv[0]))) \
        in listed, listed
    story = run("log", "show", "1", "--log", str(path)).output
    assert "read by the floor after the hand" in story and "AWARDED by the floor after the hand" in story
    rechecked = run("log", "recheck", "1", "--log", str(path))
    assert rechecked.exit_code == 0 and "the floor's award after the hand follows" in rechecked.output
    assert run("log", "verify", "--log", str(path)).exit_code == 0


def test_one_hand_short_makes_no_award_and_the_rest_make_it(unread_logs: dict[tuple[str, int], Path],
                                                           tmp_path: Path) -> None:
    sim = _sim("badugi-limit", 2)
    path = _copy(unread_logs[("badugi-limit", 2)], tmp_path)
    first, *rest = _shows(sim)
    result = shown(path, first)
    assert result.exit_code == 0 and "no award: " in result.output, result.output
    assert len(corrections(path, "shown_hand")) == 1 and not corrections(path, "award")
    result = shown(path, *rest)
    assert result.exit_code == 0 and "the floor's award" in result.output, result.output
    assert floor_totals(path) == _true_totals(sim)
    assert corrections(path, "award")[-1].data["after"] == [c.id for c in corrections(path, "shown_hand")]
    again = shown(path, first)          # keying the same hand again changes nothing
    assert "the award stands as recorded" in again.output and len(corrections(path, "award")) == 1


def test_a_hand_the_camera_misread_keyed_right_moves_the_pot(tmp_path: Path) -> None:
    """The camera read seat A's shown hand as a better one than it was (so A took the pot); the floor keys in what
    A really showed, and the floor's award is what the true reads give."""
    sim = _sim("badugi-limit", 2)
    truth = _shows(sim)
    winner = max(_true_totals(sim).items(), key=lambda kv: kv[1])[0]
    loser = next(e for e in truth if str(e.seat) != winner)
    used = {c for e in truth for c in e.cards}
    wheels = (parse_cards(f"A{a} 2{b} 3{c} 4{d}") for a, b, c, d in permutations("cdhs"))
    better = next(w for w in wheels if not set(w) & used)         # a Badugi wheel no shown hand holds
    path = tmp_path / "log.sqlite"
    _record(path, sim, [replace(e, cards=better) if e is loser else e for e in sim.truth.events])
    with HandLog.open_readonly(path) as log:
        recorded = log.story(1)
    camera = next(r.award for r in recorded.records if hasattr(r, "award"))
    assert camera["totals"][str(loser.seat)] > 0          # the misread hand took the pot
    result = shown(path, loser)
    assert result.exit_code == 0, result.output
    assert floor_totals(path) == _true_totals(sim)
    assert run("log", "recheck", "1", "--log", str(path)).exit_code == 0


def test_bad_input_is_one_line_and_writes_nothing(unread_logs: dict[tuple[str, int], Path], tmp_path: Path) -> None:
    sim = _sim("badugi-limit", 2)
    path = _copy(unread_logs[("badugi-limit", 2)], tmp_path)
    good, other = _shows(sim)[:2]
    head = run("log", "verify", "--log", str(path)).output
    cases = {
        "9:Ah 2c 3d 4s": "has no seat 9",
        f"{other.seat}:Ah Ah 3d 4s": "Ah",
        f"{other.seat}Ah 2c 3d 4s": "expected SEAT:CARDS",
        f"{other.seat}:Zz 2c 3d 4s": "Zz",
        f"x:{' '.join(map(str, other.cards))}": "bad --shown",
        f"{other.seat}:{good.cards[0]} 2c 3d 4s": f"{good.cards[0]} is in two hands",
    }
    for text, message in cases.items():
        result = shown(path, good, text)
        assert result.exit_code != 0 and message in result.output, (text, result.output)
        assert "Traceback" not in result.output and len(result.output.strip().splitlines()) == 1
    twice = shown(path, good, good)
    assert twice.exit_code != 0 and "twice" in twice.output
    both = run("log", "correct", "1", "--log", str(path), "--by", BY, "--reason", WHY, "--note", "--shown", "1:Ah")
    assert both.exit_code != 0 and "exactly one" in both.output
    assert not corrections(path) and run("log", "verify", "--log", str(path)).output == head


def test_a_voided_hand_takes_the_read_but_no_award(unread_logs: dict[tuple[str, int], Path], tmp_path: Path) -> None:
    sim = _sim("badugi-limit", 2)
    path = _copy(unread_logs[("badugi-limit", 2)], tmp_path)
    assert run("log", "correct", "1", "--log", str(path), "--by", BY, "--reason", "misdeal", "--void").exit_code == 0
    result = shown(path, *_shows(sim))
    assert result.exit_code == 0 and "no award: hand 1 is voided" in result.output, result.output
    assert len(corrections(path, "shown_hand")) == len(_shows(sim)) and not corrections(path, "award")


def test_recheck_catches_a_floor_award_that_does_not_follow(unread_logs: dict[tuple[str, int], Path],
                                                            tmp_path: Path) -> None:
    """An award correction written by something else than the floor's re-award (here straight through the store)."""
    sim = _sim("badugi-limit", 2)
    path = _copy(unread_logs[("badugi-limit", 2)], tmp_path)
    assert shown(path, *_shows(sim)).exit_code == 0
    with HandLog.open(path) as log:
        story = log.story(1)
        payload, _ = floor_award_payload(story)
        assert payload is not None and {k: v for k, v in payload["totals"].items() if v} == \
            {k: v for k, v in _true_totals(sim).items() if v}
        forged = json.loads(json.dumps(payload))
        seats = sorted(forged["totals"], key=lambda s: -forged["totals"][s])
        forged["totals"][seats[0]], forged["totals"][seats[1]] = forged["totals"][seats[1]], forged["totals"][seats[0]]
        log.record_correction(1, "award", reason="pushed by hand", by="someone", data={"award": forged})
    result = run("log", "recheck", "1", "--log", str(path))
    assert result.exit_code == 1 and "the floor's award (correction #" in result.output, result.output
    assert "(floor)" in run("log", "list", "--log", str(path)).output      # the list shows the latest award


def test_a_muck_the_camera_took_for_a_hand_turned_up_is_keyed_as_a_muck(tmp_path: Path) -> None:
    """badacey-limit-triple seed 0: seat 4 mucks at the showdown (seat 2 called its bet and wins without showing); the
    camera takes the cards vanishing in place for a hand turned up and not read, so no award. `--mucked 4` gives it."""
    sim = _sim("badacey-limit-triple", 0)
    last_bet = max(float(a["t"]) for a in sim.truth.actions)
    muck = next(e for e in sim.truth.events if isinstance(e, SeatFolded) and e.t > last_bet)
    assert not _shows(sim)
    path = tmp_path / "log.sqlite"
    _record(path, sim, [CardsShown(e.t, e.frame, e.seat, ()) if e is muck else e for e in sim.truth.events])
    assert not [c for c in corrections(path) if c.kind == "award"]
    assert "pot" not in run("log", "list", "--log", str(path)).output
    result = run("log", "correct", "1", "--log", str(path), "--by", BY, "--reason", WHY, "--mucked", str(muck.seat))
    assert result.exit_code == 0, result.output
    assert f"(mucked_hand) on hand 1: seat {muck.seat} mucked, by floor bob" in result.output
    assert floor_totals(path) == _true_totals(sim)
    assert "mucked at the showdown (seen by the floor after the hand)" in run(
        "log", "show", "1", "--log", str(path)).output
    assert run("log", "recheck", "1", "--log", str(path)).exit_code == 0
    both = run("log", "correct", "1", "--log", str(path), "--by", BY, "--reason", WHY, "--mucked", "2",
               "--shown", "2:Ah 2c 3d 4s 5h")
    assert both.exit_code != 0 and "a seat shows its hand or mucks it" in both.output
    nine = run("log", "correct", "1", "--log", str(path), "--by", BY, "--reason", WHY, "--mucked", "9")
    assert nine.exit_code != 0 and "has no seat 9" in nine.output
    assert len(corrections(path, "mucked_hand")) == 1


def test_an_event_that_did_not_happen_struck_by_the_floor_gives_the_award(tmp_path: Path) -> None:
    """The camera reports one replacement too many to a seat (a glare taken for a card): the referee flags the draw
    and its award waits on that flag. `--not-seen EVENT_ID` strikes the phantom card, and the floor's award stands
    on no open flag."""
    sim = _sim("badugi-limit", 2)
    first = next(e for e in sim.truth.events if isinstance(e, CardReplaced))
    phantom = replace(first, t=first.t + 0.1, frame=first.frame + 1)
    events = sorted([*sim.truth.events, phantom], key=lambda e: e.t)
    path = tmp_path / "log.sqlite"
    _record(path, sim, events)
    with HandLog.open_readonly(path) as log:
        story = log.story(1)
    [camera] = [r for r in story.records if isinstance(r, StoredAward)]
    assert camera.award["pending_flag_ids"]                  # provisional on the replacement flag
    event_id = next(r.id for r in story.records if isinstance(r, StoredEvent) and r.event == phantom)
    result = run("log", "correct", "1", "--log", str(path), "--by", BY, "--reason", WHY, "--not-seen", str(event_id))
    assert result.exit_code == 0, result.output
    assert floor_totals(path) == _true_totals(sim)
    assert "pending_flag_ids" not in corrections(path, "award")[-1].data["award"]
    shown_story = run("log", "show", "1", "--log", str(path)).output
    assert f"event #{event_id} did not happen (found by the floor after the hand)" in shown_story
    assert run("log", "recheck", "1", "--log", str(path)).exit_code == 0
    other_hand = run("log", "correct", "1", "--log", str(path), "--by", BY, "--reason", WHY, "--not-seen", "99999")
    assert other_hand.exit_code != 0 and "has no event 99999" in other_hand.output


def test_an_event_the_camera_missed_added_by_the_floor_gives_the_award(tmp_path: Path) -> None:
    """The camera misses a replacement (pitched under the dealer's hand): the referee flags the draw short and its
    award waits on that flag. `--missed replaced:SEAT:SECONDS` adds the card at its time; the hand refereed again
    with it raises no flag and the floor's award stands on none, the true one. `log show` says what the floor added;
    `log recheck` finds the floor's award follows; a missed event at a seat not in the hand, of a kind the floor
    cannot add, or a discard with no count is refused in one line and writes nothing."""
    sim = _sim("badugi-limit", 2)
    lost = next(e for e in sim.truth.events if isinstance(e, CardReplaced))
    path = tmp_path / "log.sqlite"
    _record(path, sim, [e for e in sim.truth.events if e is not lost])
    with HandLog.open_readonly(path) as log:
        story = log.story(1)
    [camera] = [r for r in story.records if isinstance(r, StoredAward)]
    assert camera.award["pending_flag_ids"]                  # provisional on the short draw
    missed = f"replaced:{lost.seat}:{lost.t}"
    for bad, words in ((f"replaced:99:{lost.t}", "has no seat 99"), (f"burned:{lost.seat}:1.0", "KIND one of"),
                       (f"discarded:{lost.seat}:1.0", "names how many cards"), (f"replaced:{lost.seat}:soon", "time")):
        refused = run("log", "correct", "1", "--log", str(path), "--by", BY, "--reason", WHY, "--missed", bad)
        assert refused.exit_code != 0 and words in refused.output and "Traceback" not in refused.output, refused.output
        assert len(refused.output.strip().splitlines()) == 1
    assert corrections(path) == []
    result = run("log", "correct", "1", "--log", str(path), "--by", BY, "--reason", WHY, "--missed", missed)
    assert result.exit_code == 0, result.output
    assert floor_totals(path) == _true_totals(sim)
    assert "pending_flag_ids" not in corrections(path, "award")[-1].data["award"]
    [added] = corrections(path, "missed_event")
    assert added.data["event"] == {**lost.to_dict(), "frame": None}
    story_text = run("log", "show", "1", "--log", str(path)).output
    assert (f"at {lost.t:.2f} s seat {lost.seat} receives a face-down card as a replacement (missed by the camera, "
            "found by the floor after the hand)") in story_text
    assert run("log", "recheck", "1", "--log", str(path)).exit_code == 0
    assert run("log", "verify", "--log", str(path)).exit_code == 0


def test_the_review_hand_list_marks_the_floors_award(unread_logs: dict[tuple[str, int], Path], tmp_path: Path) -> None:
    from dealer_assist.app.models.review import summary_line

    sim = _sim("badugi-limit", 2)
    path = _copy(unread_logs[("badugi-limit", 2)], tmp_path)
    with HandLog.open_readonly(path) as log:
        [before] = log.list_hands()
    assert before.pot is None and not before.floor_award and "pot" not in summary_line(before)
    assert shown(path, *_shows(sim)).exit_code == 0
    with HandLog.open_readonly(path) as log:
        [after] = log.list_hands()
    won = max(_true_totals(sim).items(), key=lambda kv: kv[1])[0]
    assert after.floor_award and f"· pot {after.pot} (floor) to seat {won}" in summary_line(after)


def test_log_list_unawarded_names_the_hands_the_floor_still_has_to_settle(tmp_path: Path) -> None:
    """Three hands: one the camera awarded, one with its shows unread (no award), one voided; `--unawarded` lists the
    second only, until the floor's award settles it. An uncontested hand (every seat but one folds) is awarded."""
    sim = _sim("badugi-limit", 2)
    path = tmp_path / "log.sqlite"
    unread = [replace(e, cards=()) if isinstance(e, CardsShown) else e for e in sim.truth.events]
    with HandLog.open(path) as log:
        for events in (list(sim.truth.events), unread, unread):
            referee = Referee(_referee(sim).table, HandLogSink(log, log.open_session("T1", "dana")))
            items: list[TableEvent | DealerAction] = [*events, *_actions(sim)]
            referee.feed_all(sorted(items, key=lambda i: (i.t, isinstance(i, DealerAction))))
            referee.close(sim.frame_count / sim.fps)
        log.record_correction(3, "void_hand", reason="a second deck", by=BY)
        misdeal = log.start_hand(log.open_session("T1", "dana"), button=1, stacks={1: 100, 2: 100})
        log.end_hand(misdeal, "misdeal", reason="a card exposed in the deal")     # the chips go back: nothing to award

    def unawarded() -> list[str]:
        result = run("log", "list", "--log", str(path), "--unawarded")
        assert result.exit_code == 0, result.output
        return [line.split()[0] for line in result.output.splitlines() if line.strip() and "no hands" not in line]

    assert unawarded() == ["2"]
    assert shown(path, *_shows(sim), hand="2").exit_code == 0
    assert unawarded() == []
    sim2 = _sim("badugi-limit", 11)
    last = sim2.hand.history[-1]
    assert isinstance(last, Awarded) and last.uncontested
    path2 = tmp_path / "log2.sqlite"
    _record(path2, sim2, list(sim2.truth.events))
    with HandLog.open_readonly(path2) as log:
        [hand] = log.list_hands()
    assert hand.pot is not None and not [r for r in run("log", "list", "--log", str(path2), "--unawarded").output
                                         .splitlines() if r.strip() and "no hands" not in r]


def test_a_signed_log_takes_the_floors_reads_with_its_key(unread_logs: dict[tuple[str, int], Path],
                                                          tmp_path: Path) -> None:
    """Copied and signed with a new key (`log sign`): the reads need the key, and the signature checks after them."""
    sim = _sim("badugi-limit", 2)
    path = _copy(unread_logs[("badugi-limit", 2)], tmp_path)
    key_file = tmp_path / "log.key"
    assert run("log", "key", str(key_file)).exit_code == 0
    assert run("log", "sign", "--log", str(path), "--key-file", str(key_file)).exit_code == 0
    refused = shown(path, *_shows(sim))
    assert refused.exit_code != 0 and "signed" in refused.output and not corrections(path)
    args = [a for e in _shows(sim) for a in ("--shown", f"{e.seat}:{' '.join(map(str, e.cards))}")]
    result = run("log", "correct", "1", "--log", str(path), "--by", BY, "--reason", WHY, "--key-file", str(key_file),
                 *args)
    assert result.exit_code == 0 and "the floor's award" in result.output, result.output
    assert floor_totals(path) == _true_totals(sim)
    checked = run("log", "verify", "--log", str(path), "--key-file", str(key_file))
    assert checked.exit_code == 0 and "signature of it checks" in checked.output, checked.output


def test_each_seats_latest_read_stands_and_a_bad_one_leaves_the_award_before(
        unread_logs: dict[tuple[str, int], Path], tmp_path: Path) -> None:
    """The floor corrects itself: a later read of a seat replaces its earlier one, shown or mucked. A read that is
    not a whole hand is refused and writes nothing; one the referee cannot award on (a card the floor read in
    another seat's hand before) makes no award, says so, and the floor's award before stands."""
    sim = _sim("badugi-limit", 2)
    path = _copy(unread_logs[("badugi-limit", 2)], tmp_path)
    assert shown(path, *_shows(sim)).exit_code == 0
    winner = max(_true_totals(sim).items(), key=lambda kv: kv[1])[0]
    won = floor_totals(path)
    count = len(corrections(path))
    for cards in ("As 8d 2c 3h 4h 5h", "As 8d 2c"):
        long = shown(path, f"{winner}:{cards}")
        assert long.exit_code != 0 and len(long.output.strip().splitlines()) == 1, long.output
        assert f"seat {winner}'s hand is given as {len(cards.split())} cards; a Badugi hand is 4 cards" in long.output
    assert len(corrections(path)) == count
    theirs = next(e for e in _shows(sim) if str(e.seat) != winner)
    used = {c for e in _shows(sim) for c in e.cards}
    spare = [c for c in parse_cards("Ac Ad Ah As 2c 2d 2h 2s 3c 3d 3h 3s Kc Kd Kh Ks") if c not in used][:3]
    clash = shown(path, f"{winner}:{' '.join(map(str, (theirs.cards[0], *spare)))}")
    assert clash.exit_code == 0 and "no award: " in clash.output, clash.output
    assert "the award recorded before still stands" in clash.output
    assert floor_totals(path) == won and len(corrections(path, "award")) == 1
    mine = next(e for e in _shows(sim) if str(e.seat) == winner)
    again = shown(path, mine)                        # read right again: the award the true reads give
    assert again.exit_code == 0 and "the award stands as recorded" in again.output, again.output
    mucked = run("log", "correct", "1", "--log", str(path), "--by", BY, "--reason", WHY, "--mucked", winner)
    assert mucked.exit_code == 0 and "the floor's award" in mucked.output, mucked.output
    assert floor_totals(path)[winner] == 0                # the winner's muck, its latest read, hands the pot on
    assert run("log", "recheck", "1", "--log", str(path)).exit_code == 0


def test_a_read_of_a_seat_that_folded_in_the_betting_is_recorded_and_said_to_change_nothing(
        unread_logs: dict[tuple[str, int], Path], tmp_path: Path) -> None:
    sim = _sim("badugi-limit", 2)
    path = _copy(unread_logs[("badugi-limit", 2)], tmp_path)
    assert shown(path, *_shows(sim)).exit_code == 0
    folded = next(a for a in sim.truth.actions if a["action"] == "fold")["seat"]
    used = {c for e in _shows(sim) for c in e.cards}
    wheels = (parse_cards(f"A{a} 2{b} 3{c} 4{d}") for a, b, c, d in permutations("cdhs"))
    cards = " ".join(map(str, next(w for w in wheels if not set(w) & used)))
    result = shown(path, f"{folded}:{cards}")
    assert result.exit_code == 0 and "the award stands as recorded" in result.output, result.output
    assert f"Note: the floor's read of seat {folded}" in result.output and "had folded before the showdown" in \
        result.output
    assert floor_totals(path) == _true_totals(sim)


def test_a_read_of_a_hand_won_uncontested_is_said_to_change_nothing(tmp_path: Path) -> None:
    sim = _sim("badugi-limit", 11)
    last = sim.hand.history[-1]
    assert isinstance(last, Awarded) and last.uncontested
    path = tmp_path / "log.sqlite"
    _record(path, sim, list(sim.truth.events))
    winner = next(s for s, c in _true_totals(sim).items() if c)
    result = run("log", "correct", "1", "--log", str(path), "--by", BY, "--reason", WHY, "--mucked", winner)
    assert result.exit_code == 0 and "the award stands as recorded" in result.output, result.output
    assert "changes nothing: the hand was won uncontested, with no showdown" in result.output
    assert not corrections(path, "award")
