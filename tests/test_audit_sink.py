"""The referee's records in the hand log through `HandLogSink`: inputs, flags with key frames, awards,
corrections pointing at the rows they correct, hand ends; the chain verifies."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from referee_script import Script

from dealer_assist.audit.referee import Referee
from dealer_assist.audit.table import TableConfig
from dealer_assist.cards import parse_card
from dealer_assist.rules.house_rules import HouseRules
from dealer_assist.store import HandLog, StoredAction, StoredAward, StoredCorrection, StoredEvent, StoredFlag
from dealer_assist.store.render import render_story
from dealer_assist.store.sink import HandLogSink, RecentFrames
from dealer_assist.vision.detector import encode_jpeg

ORDER = (1, 2, 3)


def test_records_reach_the_log_with_key_frames(tmp_path: Path) -> None:
    path = tmp_path / "log.sqlite"
    with HandLog.open(path) as log:
        session = log.open_session("T1", "alice")
        frames = RecentFrames(size=10)
        for i in range(0, 2000, 15):
            frames.add(i, np.full((32, 48, 3), i % 255, np.uint8))
        referee = Referee(TableConfig.make(HouseRules(), {1: 100, 2: 100, 3: 100}, button=3),
                          HandLogSink(log, session, frames=frames, encode=encode_jpeg))
        s = Script().deal(1, 3, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3).act(3, "call").act(1, "call").act(2, "check")
        s.discard(1, 1, ("Kh",)).replace(1, 1, "Kh")
        referee.feed_all(s.items)
        index = len(referee.hands[0].inputs) - 1
        referee.correct_card(index, parse_card("Qs"), reason="it was the Qs", by="floor")
        referee.dismiss_flag(1, reason="misread", by="floor")
        referee.accept_flag(0, reason="misdeal seen; play on", by="floor")
        referee.void_hand(reason="player dispute", by="floor", status="misdeal")
        hand_id = log.hand_ids()[0]
        story = log.story(hand_id)
        assert story.end is not None and story.end.status == "misdeal"
        kinds = [type(r).__name__ for r in story.records]
        assert kinds.count("StoredEvent") == len([i for i in s.items if not hasattr(i, "action")])
        assert any(isinstance(r, StoredAction) for r in story.records)
        flags = [r for r in story.records if isinstance(r, StoredFlag)]
        assert [f.kind for f in flags] == ["card_to_wrong_seat", "discard_returned"]
        assert all(f.snapshot for f in flags)
        corrections = [r for r in story.records if isinstance(r, StoredCorrection)]
        assert [c.kind for c in corrections] == ["misread_card", "dismiss_flag", "accept_flag", "void_hand"]
        events = [r for r in story.records if isinstance(r, StoredEvent)]
        assert corrections[0].target_table == "events" and corrections[0].target_id == events[-1].id
        assert corrections[1].target_id == flags[1].id and corrections[2].target_id == flags[0].id
        assert not any(isinstance(r, StoredAward) for r in story.records)
        assert log.verify().ok
        rows = list(log.conn.execute("SELECT label, frame FROM snapshots ORDER BY id"))
        assert [label.split(" (")[0] for label, _ in rows] == ["flag: card_to_wrong_seat", "deal complete",
                                                               "flag: discard_returned"]
        # 2,000 frames were held at most 10 at full rate and 120 older ones: frame 30 was gone, and the key frame
        # says which frame it shows instead
        assert rows[0] == ("flag: card_to_wrong_seat (frame 60, the nearest held: frame 30 was no longer held)", 60)


def test_recent_frames_keep_older_frames_sparsely_and_name_the_frame_they_give() -> None:
    frames = RecentFrames(size=10, fps=15.0, older=20, older_every=5)
    for i in range(200):
        frames.add(i, np.full((4, 4, 3), i % 251, np.uint8))
    exact = frames.nearest(195)
    assert exact is not None and exact.index == 195 and exact.t == 13.0 and int(exact.image[0, 0, 0]) == 195
    older = frames.nearest(122)                  # out of the last 10: the sparse tier's frame 120 stands in
    assert older is not None and older.index == 120 and int(older.image[0, 0, 0]) == 120
    assert frames.nearest(3) is not None and frames.nearest(3).index == 90    # type: ignore[union-attr]
    by_time = frames.nearest(None, 10.0)         # a record with a time and no frame (a dealer's entry)
    assert by_time is not None and by_time.index == 150
    newest = frames.nearest(None)
    assert newest is not None and newest.index == 199
    assert RecentFrames().nearest(5) is None


def test_a_provisional_award_names_its_open_misdeal_flag_in_the_log(tmp_path: Path) -> None:
    """An award made past an open flag for the floor is stored with the flag's row and says so in `log show`."""
    with HandLog.open(tmp_path / "log.sqlite") as log:
        session = log.open_session("T1", "alice")
        referee = Referee(TableConfig.make(HouseRules(), {1: 100, 2: 100, 3: 100}, button=3), HandLogSink(log, session))
        s = Script().deal(1, 3, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3).act(3, "call").act(1, "fold").act(2, "check")
        for _ in range(3):
            s.act(2, "check").act(3, "check")
        referee.feed_all(s.show(2, "Ac 2d 3h").show(3, "Kc Qd Jh 9s 8c").gather().items)
        story = log.story(log.hand_ids()[0])
        flag = next(r for r in story.records if isinstance(r, StoredFlag))
        award = next(r for r in story.records if isinstance(r, StoredAward))
        assert award.award["pending_flag_ids"] == [flag.id]
        assert award.explanation[-1] == (f"Provisional: flag #{flag.id} open; "
                                         "the floor decides whether the hand stands.")
        assert story.end is not None and story.end.status == "complete" and "provisional" in (story.end.reason or "")
        assert f"Provisional: flag #{flag.id} open" in render_story(story)
        assert log.verify().ok


def test_a_show_with_no_card_read_reads_as_such_in_the_story() -> None:
    from dealer_assist.store.render import event_sentence
    from dealer_assist.vision.events import CardsShown

    assert event_sentence(CardsShown(1.0, 30, 3, ())) == "seat 3 turns its hand up (no card read yet)"
    assert event_sentence(CardsShown(1.0, 30, 3, (parse_card("Ah"),))) == "seat 3 shows Ah"
