"""PHH export of logged hands: a hand recorded as events and actions exports exactly as the rules engine's PHH."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from dealer_assist.audit.records import DealerAction
from dealer_assist.cards import parse_card
from dealer_assist.rules import phh as rules_phh
from dealer_assist.rules.hand import Hand
from dealer_assist.rules.house_rules import PRESETS, HouseRules
from dealer_assist.rules.simulate import simulate_hand
from dealer_assist.rules.steps import (
    Awarded,
    BetTo,
    Burned,
    Called,
    Checked,
    Dealt,
    Discarded,
    Folded,
    RaisedTo,
    Replaced,
    Shown,
)
from dealer_assist.store import HandLog
from dealer_assist.store.phh import export_phh
from dealer_assist.vision.events import (
    CardBurned,
    CardDealt,
    CardReplaced,
    CardsDiscarded,
    CardsShown,
    TableEvent,
)


def record(log: HandLog, session: int, hand: Hand, reads: dict[int, list[str]] | None = None,
           face_down: bool = False) -> int:
    """Log a rules-engine hand the way the referee would: what the camera saw and what the dealer entered.
    `reads`: a seat's show as the camera read it in part, one event per entry ("Kh", then "Kh Kc Qs");
    `face_down`: the cards dealt and replaced seen only as backs, as a table camera sees them."""
    hand_id = log.start_hand(session, button=hand.button, stacks=dict(zip(hand.seats, hand.starting, strict=True)),
                             house_rules=hand.rules.to_toml())
    t = 0.0
    for step in hand.history:
        t += 0.5
        frame = int(t * 30)
        event: TableEvent | None = None
        action: DealerAction | None = None
        if isinstance(step, Dealt):
            event = CardDealt(t=t, frame=frame, seat=step.seat, card=None if face_down else step.card)
        elif isinstance(step, Burned):
            event = CardBurned(t=t, frame=frame)
        elif isinstance(step, Discarded) and step.count:  # standing pat shows nothing to the camera
            known = tuple(c for c in step.cards if c is not None)
            event = CardsDiscarded(t=t, frame=frame, seat=step.seat, count=step.count,
                                   cards=known if len(known) == step.count else ())
        elif isinstance(step, Replaced):
            event = CardReplaced(t=t, frame=frame, seat=step.seat, card=None if face_down else step.card)
        elif isinstance(step, Shown) and reads and step.seat in reads:
            for k, read in enumerate(reads[step.seat]):
                log.record_event(hand_id, CardsShown(t=t + 0.1 * k, frame=frame + k, seat=step.seat,
                                                     cards=tuple(parse_card(c) for c in read.split())))
        elif isinstance(step, Shown):
            event = CardsShown(t=t, frame=frame, seat=step.seat, cards=step.cards)
        elif isinstance(step, Folded):
            action = DealerAction(seat=step.seat, action="fold", t=t)
        elif isinstance(step, Checked):
            action = DealerAction(seat=step.seat, action="check", t=t)
        elif isinstance(step, Called):
            action = DealerAction(seat=step.seat, action="call", amount=step.amount, t=t)
        elif isinstance(step, BetTo | RaisedTo):
            action = DealerAction(seat=step.seat, action="bet" if isinstance(step, BetTo) else "raise",
                                  amount=step.amount, t=t)
        elif isinstance(step, Awarded):
            log.record_award(hand_id, step.award, t=t)
        if event is not None:
            log.record_event(hand_id, event)
        if action is not None:
            log.record_action(hand_id, action)
    log.end_hand(hand_id, t=t)
    return hand_id


@pytest.mark.parametrize("preset", PRESETS)
def test_logged_hands_export_the_rules_engines_phh(tmp_path: Path, preset: str) -> None:
    rules = HouseRules.preset(preset)
    with HandLog.open(tmp_path / "log.sqlite") as log:
        session = log.open_session("T1", "alice")
        for seed in range(12):
            hand = simulate_hand(rules, 2 + seed % 5, seed)
            hand_id = record(log, session, hand)
            story = log.story(hand_id)
            (text,) = export_phh([story])
            expected = rules_phh.dumps(hand, _log_hand=hand_id, _table="T1", _hand_number=story.hand.number,
                                       _dealer="alice")
            got, want = tomllib.loads(text), tomllib.loads(expected)
            # The camera's burn event carries no card face, so burns are written unseen.
            assert got.pop("_burn_cards") == ["??"] * len(want.pop("_burn_cards"))
            assert got == want, f"{preset} seed {seed}"
            assert rules_phh.loads(text).stacks == hand.stacks


def test_unreplayable_hand_is_written_from_the_records_with_the_reason(tmp_path: Path) -> None:
    with HandLog.open(tmp_path / "log.sqlite") as log:
        session = log.open_session("T1", "alice")
        hand_id = log.start_hand(session, button=1, stacks={1: 100, 2: 100},
                                 house_rules=HouseRules.preset("badugi-limit").to_toml())
        log.record_event(hand_id, CardDealt(t=0.1, frame=3, seat=1))  # seat 2 is first to be dealt: a misdeal
        log.end_hand(hand_id, "misdeal")
        (text,) = export_phh([log.story(hand_id)])
    assert text.startswith("# not replayable through the rules engine (")
    assert '"d dh p2 ??"' in text  # p1 is the seat left of the button: seat 2


def test_the_floors_corrections_travel_with_the_phh(tmp_path: Path) -> None:
    """A voided hand or a misread card must not read as a clean hand once exported: `_floor_corrections`."""
    rules = HouseRules.preset("badugi-limit")
    with HandLog.open(tmp_path / "log.sqlite") as log:
        session = log.open_session("T1", "alice")
        hand = simulate_hand(rules, 3, 5)
        hand_id = record(log, session, hand)
        clean = tomllib.loads(next(export_phh([log.story(hand_id)])))
        assert "_floor_corrections" not in clean
        log.record_correction(hand_id, "void_hand", reason="a second deck in play", by="floor sue")
        (text,) = export_phh([log.story(hand_id)])
        unreplayable = log.start_hand(session, button=1, stacks={1: 100, 2: 100}, house_rules=rules.to_toml())
        log.record_event(unreplayable, CardDealt(t=0.1, frame=3, seat=1))
        log.end_hand(unreplayable, "misdeal")
        log.record_correction(unreplayable, "note", reason='said "misdeal" at once', by="floor sue")
        (fallback,) = export_phh([log.story(unreplayable)])
    assert tomllib.loads(text)["_floor_corrections"] == ["#1 void_hand by floor sue: a second deck in play"]
    assert rules_phh.loads(text).stacks == hand.stacks           # the actions are still the hand as it was played
    assert fallback.startswith("# not replayable")
    assert tomllib.loads(fallback)["_floor_corrections"] == ['#2 note by floor sue: said "misdeal" at once']


def test_a_show_the_camera_could_not_read_is_unknown_cards_not_a_muck(tmp_path: Path) -> None:
    """PHH's bare `sm` is a muck: a show with unread cards is written with `??` for each card the seat held."""
    with HandLog.open(tmp_path / "log.sqlite") as log:
        session = log.open_session("T1", "alice")
        hand_id = log.start_hand(session, button=1, stacks={1: 100, 2: 100},
                                 house_rules=HouseRules.preset("badugi-limit").to_toml())
        for k in range(8):
            log.record_event(hand_id, CardDealt(t=0.1 * k, frame=k, seat=2 - k % 2))
        log.record_event(hand_id, CardsShown(t=2.0, frame=60, seat=1, cards=(parse_card("Ah"),)))
        log.record_event(hand_id, CardsShown(t=2.5, frame=75, seat=2, cards=()))
        log.end_hand(hand_id, "void")
        (text,) = export_phh([log.story(hand_id)])
    assert '"p2 sm Ah??????"' in text and '"p1 sm ????????"' in text


def test_a_show_read_in_part_replays_with_its_unread_cards_when_the_award_stands(tmp_path: Path) -> None:
    """Seat 2 showed Kh Ts Kc Qs and the camera read Kh, then Kh Kc Qs: one show of those three and a card unread,
    which no card could make a winner of (seat 3's Q-6-3 beats any K-Q-x), so the hand replays through the rules
    with the same award and the show is written `??` for the unread card. Read as Ks alone (three unread), seat 2
    could have held anything: the award is the camera's to refuse, and the hand is written from the records."""
    rules = HouseRules.preset("badugi-limit")
    hand = simulate_hand(rules, 3, 36)
    assert [(s.seat, "".join(map(str, s.cards))) for s in hand.history if isinstance(s, Shown)] == [
        (2, "KhTsKcQs"), (3, "6s6cQc3h")]
    with HandLog.open(tmp_path / "log.sqlite") as log:
        session = log.open_session("T1", "alice")
        partly = record(log, session, hand, reads={2: ["Kh", "Kh Kc Qs"]}, face_down=True)
        barely = record(log, session, hand, reads={2: ["Kh"]}, face_down=True)
        (text,) = export_phh([log.story(partly)])
        (fallback,) = export_phh([log.story(barely)])
    assert not text.startswith("#"), text.splitlines()[0]
    who = {seat: f"p{i + 1}" for i, seat in enumerate(tomllib.loads(text)["seats"])}
    assert f'"{who[2]} sm KhKcQs??"' in text and f'"{who[3]} sm 6s6cQc3h"' in text
    assert rules_phh.loads(text).stacks == hand.stacks
    assert fallback.startswith("# not replayable through the rules engine (") and "unread" in fallback.splitlines()[0]
