"""Phase hints from the referee to the tracker: a seat whose cards all go is a fold in a betting round and a full
discard in a draw; a hint that lags the video (the referee follows it `horizon` behind) is waited for, not read as
the phase now; the audit's loop (`audit.loop.RefereeLoop`, `dealer-assist audit`) gives the hints."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import pytest
from audit_videos import make_sim_video
from click.testing import CliRunner
from phase_recorder import Recorder, spy_on_pipelines
from referee_script import Script

from dealer_assist.audit.loop import RefereeLoop
from dealer_assist.audit.records import ActionKind, DealerAction
from dealer_assist.audit.referee import Referee
from dealer_assist.audit.table import TableConfig
from dealer_assist.cli import cli
from dealer_assist.errors import DealerAssistError
from dealer_assist.rules.house_rules import HouseRules
from dealer_assist.vision.events import TableEvent
from dealer_assist.vision.pipeline import Pipeline, ScriptedTable
from dealer_assist.vision.tracker import PhaseHint, Tracker, TrackerConfig

FPS = 15.0
GAP = 0.4
LAG = 3.0          # the audit's default horizon: the referee is this far behind the video


def deal_round(table: ScriptedTable, seats: list[int], cards: int) -> ScriptedTable:
    for _ in range(cards):
        for seat in seats:
            table.deal(seat).hold(GAP)
    return table


def track(table: ScriptedTable, tracker: Tracker,
          hint: Callable[[float], PhaseHint | None] | None = None) -> list[tuple[int, TableEvent]]:
    """(frame the event came out at, event) for every frame; `hint(t)` is given to the tracker after each frame."""
    out: list[tuple[int, TableEvent]] = []
    for obs in table.observations:
        out += [(obs.frame, e) for e in tracker.update(obs)]
        h = hint(obs.t) if hint is not None else None
        if h is not None:
            tracker.set_hint(h)
    return out


def emptied(seat: int = 2) -> tuple[ScriptedTable, int]:
    """Seats 1-3 dealt 4 each, then all of `seat`'s cards go to the muck; and the frame they went."""
    t = ScriptedTable(6, FPS).hold(0.5)
    deal_round(t, [1, 2, 3], 4).hold(1.0)
    went = t.frame
    t.fold(seat).hold(5.0)
    return t, went


def lagging(phase: str, folded: Iterable[int] = ()) -> Callable[[float], PhaseHint]:
    return lambda now: PhaseHint(phase, now - LAG, frozenset(folded))


@pytest.mark.parametrize(("phase", "folded", "want"), [
    ("betting", (), ("folded", 2, None)),
    ("showdown", (), ("folded", 2, None)),
    ("draw", (), ("discarded", 2, 4)),
    ("draw", (2,), ("folded", 2, None)),        # the seat's fold closed the betting round: the draw is on
])
def test_lagging_hint_settles_an_emptied_seat_once_it_caught_up(phase: str, folded: tuple[int, ...],
                                                                want: tuple[Any, ...]) -> None:
    t, went = emptied()
    [(at, event)] = [(at, e) for at, e in track(t, Tracker(6), lagging(phase, folded)) if e.frame >= went - 1]
    assert (event.kind, event.to_dict()["seat"], event.to_dict().get("count")) == want
    assert event.frame == went                  # stamped when the cards went
    assert at >= went + LAG * FPS               # not before the referee had followed the table that far
    assert at <= went + (LAG + 0.2) * FPS       # ... and at once then


def test_lagging_hint_is_not_taken_for_the_phase_now() -> None:
    """The betting round closed and a seat discards all its cards: the referee, 3 s behind, still says "betting"."""
    t, went = emptied()
    closed = (went - 5) / FPS                   # the last call, just before the cards went

    def referee(now: float) -> PhaseHint:
        as_of = now - LAG
        return PhaseHint("betting" if as_of < closed else "draw", as_of)

    events = [e for _, e in track(t, Tracker(6), referee) if e.frame >= went - 1]
    assert [(e.kind, e.to_dict().get("count")) for e in events] == [("discarded", 4)]
    # read as the phase now, the same hint makes it a fold
    naive = [e for _, e in track(t, Tracker(6), lambda now: PhaseHint(referee(now).phase)) if e.frame >= went - 1]
    assert [e.kind for e in naive] == ["folded"]


def test_current_hint_settles_at_once() -> None:
    for phase, kind in (("betting", "folded"), ("draw", "discarded")):
        t, went = emptied()
        tracker = Tracker(6)
        tracker.set_hint(PhaseHint(phase))
        [(at, event)] = [(at, e) for at, e in track(t, tracker) if e.frame >= went - 1]
        assert event.kind == kind and (at - went) / FPS < 1.0


def test_silent_referee_is_not_waited_for() -> None:
    """A hint stuck more than `hint_lag_s` behind the video: the tracker's own rules decide (a fold, after a wait)."""
    t, went = emptied()
    tracker = Tracker(6, TrackerConfig(draw_procedure="discard_then_replace", hint_lag_s=1.0))
    tracker.set_hint(PhaseHint("draw", 0.0))        # then nothing more
    [event] = [e for _, e in track(t, tracker) if e.frame >= went - 1]
    assert event.kind == "folded" and event.frame == went
    with pytest.raises(DealerAssistError, match="unknown phase"):
        PhaseHint("flop", 1.0)


def test_cards_covered_then_gone_are_stamped_when_they_went() -> None:
    """A hand lies over seat 2's cards for a second, then they go to the muck: the fold is stamped when they went."""
    t = ScriptedTable(6, FPS).hold(0.5)
    deal_round(t, [1, 2, 3], 4).hold(1.0)
    t.occlude([2], 1.0)
    went = t.frame
    t.fold(2).hold(4.0)
    [(_, event)] = [(at, e) for at, e in track(t, Tracker(6), lagging("betting")) if e.to_dict().get("seat") == 2
                    and e.kind != "dealt"]
    assert event.kind == "folded" and abs(event.frame - went) <= 1


@pytest.mark.parametrize("drawing", [frozenset({2}), frozenset()])
def test_replacements_seen_together_at_the_seat_next_to_draw(drawing: frozenset[int]) -> None:
    """Seat 2 is seen discarding 2 and the camera finds both replacements in the same frames (it often finds a pitched
    card late, with the next one): with the referee's word that seat 2 is next to draw, they are its replacements;
    without it, 2 cards back at once are the seat's own cards uncovered (a hand had lain over them)."""
    t = ScriptedTable(6, FPS).hold(0.5)
    deal_round(t, [1, 2, 3], 4).hold(1.0)
    went = t.frame
    t.discard(2, 2).hold(0.8).deal(2).deal(2).hold(3.0 + LAG)
    hint = lambda now: PhaseHint("draw", now - LAG, frozenset(), drawing)  # noqa: E731
    events = [e for _, e in track(t, Tracker(6), hint) if e.frame >= went]
    kinds = [(e.kind, e.to_dict()["seat"], e.to_dict().get("count")) for e in events]
    if drawing:
        assert kinds == [("discarded", 2, 2), ("replaced", 2, None), ("replaced", 2, None)]
        assert events[0].frame == went
    else:
        assert kinds == []


@pytest.mark.parametrize("drawn", [frozenset({2}), frozenset()])
def test_a_count_lost_unseen_at_a_seat_done_drawing_is_no_second_discard(drawn: frozenset[int]) -> None:
    """Seat 2 has drawn in this draw (the referee has its discard and replacement); one of its boxes then vanishes
    for 3 s, nothing seen going (a hand over it, a card pitched past), and comes back. With the referee's word that
    the seat is done drawing that is no discard and no replacement; without it, a second discard and replacement."""
    t = ScriptedTable(6, FPS).hold(0.5)
    deal_round(t, [1, 2, 3], 4).hold(1.0)
    t.discard(2, 1).hold(1.0).deal(2).hold(2.0)
    lost = t.frame
    t.miscount(2, 3).hold(3.0).miscount(2, 4).hold(3.0 + LAG)
    hint = lambda now: PhaseHint("draw", now - LAG, frozenset(), frozenset({3}), drawn)  # noqa: E731
    events = [e for _, e in track(t, Tracker(6), hint) if e.frame >= lost]
    kinds = [(e.kind, e.to_dict()["seat"], e.to_dict().get("count")) for e in events]
    assert kinds == ([] if drawn else [("discarded", 2, 1), ("replaced", 2, None)])


def test_a_count_lost_unseen_in_a_betting_round_is_judged_by_that_rounds_phase() -> None:
    """Seat 2 seems to lose a card in the betting round (nothing seen going: a box gone) and its count stays down.
    The seat is judged seconds later (a loss nothing was seen taking must last `vanish_s`, then a partial discard waits
    `partial_hold_s`), when the referee, 3 s behind, has followed the table into the draw: what counts is the phase
    at the loss, so no discard. The same loss in the draw is one."""
    def events(phase_at_loss: str) -> list[tuple[str, int | None]]:
        t = ScriptedTable(6, FPS).hold(0.5)
        deal_round(t, [1, 2, 3], 4).hold(1.0)
        lost = t.frame
        t.miscount(2, 3).hold(8.0)
        switch = lost / FPS + 1.0                  # the draw began a second after the loss
        hint = lambda now: PhaseHint(phase_at_loss if now - LAG < switch else "draw", now - LAG)  # noqa: E731
        return [(e.kind, e.to_dict().get("seat")) for f, e in track(t, Tracker(6), hint) if f >= lost]

    assert events("betting") == []
    assert events("draw") == [("discarded", 2)]


def test_an_emptied_seat_is_judged_by_the_phase_when_its_cards_went() -> None:
    """The referee's word comes in steps (a hint now and then): as of a moment before seat 2's cards went it was in a
    betting round, and its next word, as of a moment after, is the draw (the round closed just after). The cards went
    in the betting round: a fold, not a full discard."""
    t, went = emptied()
    at = went / FPS

    def hint(now: float) -> PhaseHint | None:
        if abs(now - (at + 1.0)) < 0.5 / FPS:
            return PhaseHint("betting", at - 0.5)
        if abs(now - (at + 3.0)) < 0.5 / FPS:
            return PhaseHint("draw", at + 0.5)
        return None

    kinds = [(e.kind, e.to_dict().get("seat")) for f, e in track(t, Tracker(6), hint) if f >= went]
    assert kinds == [("folded", 2)]


# -- the audit's loop ------------------------------------------------------------------------------------------


def test_referee_loop_gives_the_tracker_the_referees_phase() -> None:
    config = TableConfig.make(HouseRules.preset("badugi-limit"), dict.fromkeys((1, 2, 3), 100), button=3)
    s = Script().deal_all((1, 2, 3)).act(3, "call").act(1, "call").act(2, "check").draw(1, 2).draw(2, 4)
    s.act(1, "check").act(2, "bet", 2).act(3, "fold")
    recorder = Recorder()
    loop = RefereeLoop(Referee(config), horizon_s=2.0, tracker=recorder)
    loop.push(s.items)
    end = s.items[-1].t + 3.0
    seen: list[tuple[float, PhaseHint]] = []
    for k in range(int(end * 10) + 1):
        now = k / 10
        loop.advance(now)
        seen.append((now, recorder.calls[-1]))
    assert len(recorder.calls) == len(seen)
    assert all(h.as_of == pytest.approx(now - 2.0) for now, h in seen)
    phases = [h.phase for _, h in seen]
    assert [p for k, p in enumerate(phases) if k == 0 or p != phases[k - 1]] == ["deal", "betting", "draw", "betting"]
    assert seen[-1][1].folded == {3}
    # in the draw the seat next to discard, in the draw's order (3 stands pat: it stays next until the round closes)
    drawing = [set(h.drawing) for _, h in seen if h.phase == "draw"]
    assert [d for k, d in enumerate(drawing) if k == 0 or d != drawing[k - 1]] == [{1}, {2}, {3}]
    assert all(not h.drawing for _, h in seen if h.phase != "draw")
    # ... and the seat that discarded and still waits for some of its replacements (no other seat's cards go then)
    owed = [set(h.owed) for _, h in seen if h.phase == "draw"]
    assert [d for k, d in enumerate(owed) if k == 0 or d != owed[k - 1]] == [set(), {1}, set(), {2}, set()]
    assert all(not h.owed for _, h in seen if h.phase != "draw")
    fold_t = s.items[-1].t
    assert all(h.folded == set() for now, h in seen if now - 2.0 < fold_t)
    # the seats dealt in, once past the deal (a card arriving at any other is a stray, `TrackerConfig.stray_hold_s`)
    assert all(h.seated == {1, 2, 3} for _, h in seen if h.phase != "deal")
    assert loop.finish(end) == [] and loop.referee.run is None


def test_scripted_hand_through_the_referee_loop() -> None:
    """Badacey (discard then replace), the referee following 3 s behind with the dealer's actions: a full discard with
    slow replacements is a discard, a fold that closes a betting round is a fold."""
    rules = HouseRules.preset("badacey-limit-triple")
    t = ScriptedTable(6, FPS).button(3).hold(0.5)
    deal_round(t, [1, 2, 3], 5).hold(1.0)
    actions: list[DealerAction] = []

    def act(seat: int, action: ActionKind, amount: int | None = None) -> None:
        actions.append(DealerAction(seat, action, amount, t=t.t))
        t.hold(0.6)

    act(3, "call")
    act(1, "call")
    act(2, "check")
    t.discard(1, 5).hold(1.0).discard(2, 2).hold(3.5)         # seat 3 stands pat; the dealer is slow
    for seat, n in ((1, 5), (2, 2)):
        for _ in range(n):
            t.deal(seat).hold(GAP)
    t.hold(1.0)
    act(1, "check")
    act(2, "bet", 2)
    act(3, "call")
    act(1, "fold")                                             # closes the betting round: the second draw is on
    t.fold(1).hold(1.0).discard(2, 1).hold(1.0).discard(3, 1).hold(1.0).deal(2).hold(GAP).deal(3).hold(4.0)

    tracker = Tracker(6, TrackerConfig(hand_size=rules.hand_size, draw_procedure=rules.draw_procedure))
    config = TableConfig.make(rules, dict.fromkeys((1, 2, 3), 100), button=3)
    loop = RefereeLoop(Referee(config), LAG, tracker=tracker)
    loop.push(actions)
    found: list[TableEvent] = []
    for obs in t.observations:
        events = tracker.update(obs)
        found += events
        loop.push(events)
        loop.advance(obs.t)
    found += tracker.flush()
    after_deal = [(e.kind, e.to_dict()["seat"], e.to_dict().get("count"))
                  for e in sorted(found, key=lambda e: e.frame) if e.kind not in ("dealt", "button_moved")]
    assert after_deal == [
        ("discarded", 1, 5), ("discarded", 2, 2), *[("replaced", 1, None)] * 5, *[("replaced", 2, None)] * 2,
        ("folded", 1, None), ("discarded", 2, 1), ("discarded", 3, 1), ("replaced", 2, None), ("replaced", 3, None),
    ]
    loop.finish(t.t)
    assert loop.referee.hands[0].flags == []


def test_audit_cli_gives_the_tracker_phase_hints(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    calls = spy_on_pipelines(monkeypatch)
    video, truth, table = make_sim_video(tmp_path, "badugi-limit", 1, [])
    result = CliRunner().invoke(cli, ["audit", str(video), "--table", "oval-9", "--detector", f"fake:{truth}",
                                      "--log", str(tmp_path / "hands.sqlite"), "--no-progress", "--horizon", "2.5"])
    assert result.exit_code == 0, result.output
    assert len(calls) == table.frame_count                     # once a frame
    assert calls[0].as_of == pytest.approx(-2.5)
    assert calls[-1].as_of == pytest.approx((table.frame_count - 1) / table.fps - 2.5)
    assert {"deal", "betting", "draw"} <= {c.phase for c in calls}


def test_track_video_feeds_its_follower(monkeypatch: pytest.MonkeyPatch) -> None:
    """The benchmark's hook (`synth.track_eval.track_video(follow=...)`): each frame's events, then `advance(t)`."""
    from dealer_assist.synth.hand_video import SimulatedTable
    from dealer_assist.synth.track_eval import track_video

    sim = SimulatedTable("badugi-limit", 0, size=(160, 90), fps=15.0)
    monkeypatch.setattr(sim, "render_frame_truth", lambda f: (None, []))     # nothing seen: no rendering
    steps: list[tuple[str, object]] = []

    class Follower:
        def push(self, items: Iterable[TableEvent]) -> None:
            steps.append(("push", list(items)))

        def advance(self, now: float) -> None:
            steps.append(("advance", now))

    made: list[Pipeline] = []

    def follow(s: SimulatedTable, pipe: Pipeline) -> Follower:
        assert s is sim
        made.append(pipe)
        return Follower()

    track_video(sim, follow=follow, frames=20)
    assert len(made) == 1
    assert [k for k, _ in steps] == ["push", "advance"] * 20
    assert [v for k, v in steps if k == "advance"] == [f / 15.0 for f in range(20)]
