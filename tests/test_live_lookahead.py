"""Live refereeing follows the camera 3 s behind, as `dealer-assist audit` does, while the pad looks ahead.

- The record (the hand log's rows, the flags, the award) is exactly what the audit's loop makes of the same items
  arriving the same way: the look-ahead the pad reads never changes it.
- The pad's prompt and seats answer at once (`Referee.look_ahead` fed what the loop still holds).
- What the loop holds is journaled beside the hand log (`store.held`): the log opened after a crash records it into
  the hand it belongs to, marked unrefereed (`log show`), and `log check` referees the hand again without it.
"""

from __future__ import annotations

import copy
import queue
from pathlib import Path

import pytest
from test_referee_sim import simulated

from dealer_assist.app.models.capture import FrameRing
from dealer_assist.app.models.flags import FlagListModel
from dealer_assist.app.models.live_session import LiveSession
from dealer_assist.app.models.review import ReviewModel
from dealer_assist.app.models.table import TableModel
from dealer_assist.app.models.worker_feed import PhaseMailbox, Reached
from dealer_assist.audit.loop import RefereeLoop
from dealer_assist.audit.ordering import DEFAULT_HORIZON_S, InputOrderer
from dealer_assist.audit.records import DealerAction
from dealer_assist.audit.referee import Referee
from dealer_assist.audit.sink import RecordingSink
from dealer_assist.audit.table import TableConfig
from dealer_assist.store import HandLog
from dealer_assist.store.held import HeldJournal, held_path, still_held
from dealer_assist.store.recheck import recheck
from dealer_assist.store.render import render_story
from dealer_assist.store.sink import HandLogSink
from dealer_assist.vision.events import CardDealt, SeatFolded, TableEvent

Item = TableEvent | DealerAction
FPS = 15.0


class QueuedWorker:
    """A worker whose queue is filled by the test, as a camera's worker fills it (`EventWorker`)."""

    def __init__(self) -> None:
        self.events: queue.Queue[object] = queue.Queue()
        self.hints = PhaseMailbox()
        self.horizon_s = DEFAULT_HORIZON_S
        self.last_t = 0.0
        self.last_seen = (0.0, 0)
        self.ring = FrameRing()

    def start(self) -> None:
        pass

    def stop(self) -> None:
        pass

    def join(self, timeout: float | None = None) -> None:
        pass

    def is_alive(self) -> bool:
        return False


def camera_arrivals(items: list[Item]) -> list[tuple[float, Item]]:
    """When each item reaches the session: a card's landing 0.2 s after it (the detector must see it rest), a fold
    1.5 s after (the zone must stay empty), other events 0.5 s after; the dealer's entries at once."""
    def lag(item: Item) -> float:
        if isinstance(item, DealerAction):
            return 0.0
        return 0.2 if isinstance(item, CardDealt) else 1.5 if isinstance(item, SeatFolded) else 0.5
    return sorted(((item.t + lag(item), item) for item in items), key=lambda p: p[0])


def play(items: list[Item], take: object) -> float:
    """Each frame (1/FPS s), what arrived by then, then the frame's time: `take(item_or_time)`."""
    arrivals = camera_arrivals(items)
    end = arrivals[-1][0] + 1.0
    k, f = 0, 0
    while f / FPS <= end:
        now = f / FPS
        while k < len(arrivals) and arrivals[k][0] <= now:
            take(arrivals[k][1])          # type: ignore[operator]
            k += 1
        take(now)                         # type: ignore[operator]
        f += 1
    return end


def live(config: TableConfig, items: list[Item], sink: RecordingSink | HandLogSink,
         journal: HeldJournal | None = None, stop: bool = True,
         watch: object = None) -> LiveSession:
    worker = QueuedWorker()
    session = LiveSession(Referee(config, sink), TableModel(), FlagListModel(), worker, journal=journal)

    def take(x: Item | float) -> None:
        if isinstance(x, float):
            worker.events.put(Reached(x))
            worker.last_t, worker.last_seen = x, (x, round(x * FPS))
            session.poll(limit=None)
            if watch is not None:
                watch(session)            # type: ignore[operator]
        else:
            worker.events.put(x)

    end = play(items, take)
    if stop:
        worker.events.put(Reached(end, end=True))
        session.poll(limit=None)
        session.stop()
    return session


def audit(config: TableConfig, items: list[Item]) -> RecordingSink:
    sink = RecordingSink()
    referee = Referee(config, sink)
    loop = RefereeLoop(referee, DEFAULT_HORIZON_S)
    end = play(items, lambda x: loop.advance(x) if isinstance(x, float) else loop.push([x]))
    loop.finish(end)
    return sink


@pytest.mark.parametrize(("game", "seed", "errors"), [("badugi-limit", 1, []), ("badacey-limit-triple", 2, []),
                                                      ("badugi-limit", 3, ["skipped_seat"])])
def test_the_live_record_is_the_audits_and_the_pad_looks_ahead(game: str, seed: int, errors: list[str]) -> None:
    config, items, _ = simulated(game, seed, errors)
    seen: list[tuple[str, str]] = []

    def watch(session: LiveSession) -> None:
        seen.append((session.referee.prompt.phase, session.table.prompt.phase))

    sink = RecordingSink()
    session = live(config, items, sink, watch=watch)
    assert sink.records == audit(config, items).records     # the look-ahead never touched the record
    assert session.referee.hands and session.referee.hands[-1].end is not None
    # the pad was ahead of the record: betting shown while the referee, 3 s behind, still saw the deal
    assert any(rec == "dealing" and pad.startswith("betting") for rec, pad in seen), seen[:60]
    assert session.view is session.referee and session.table.prompt == session.referee.prompt   # all fed in the end


def test_a_look_ahead_records_nothing_and_leaves_the_referee_as_it_was() -> None:
    config, items, _ = simulated("badugi-limit", 1, [])
    sink = RecordingSink()
    referee = Referee(config, sink)
    half = len(items) // 2
    referee.feed_all(items[:half])
    before, records = copy.deepcopy(referee.hands), list(sink.records)
    prompt = referee.prompt
    ahead = referee.look_ahead(items[half:])
    assert sink.records == records and referee.hands == before and referee.prompt == prompt
    assert ahead.hands[-1].end is not None and ahead.award is not None and referee.award is None
    # the same as feeding the referee itself
    referee.feed_all(items[half:])
    assert ahead.hands[-1].inputs == referee.hands[-1].inputs and ahead.award == referee.award


def test_the_orderer_lists_what_it_holds_in_release_order() -> None:
    orderer = InputOrderer(3.0)
    a, b, c = CardDealt(1.0, 15, 1), DealerAction(3, "call", t=1.0), CardDealt(0.5, 8, 3)
    orderer.push([a, b, c])
    assert orderer.held() == [c, a, b]                       # by time; an event before an entry at the same time
    assert orderer.release(10.0) == [c, a, b] and not orderer.held()


def test_the_journal_keeps_what_is_held_until_taken(tmp_path: Path) -> None:
    db = tmp_path / "log.sqlite"
    journal = HeldJournal(db, 7)
    a, b, c = CardDealt(1.0, 15, 1), DealerAction(3, "raise", 4, t=1.1), CardDealt(1.2, 18, 5)
    for item in (a, b, c):
        journal.hold(item)
    journal.taken(a)
    assert [(h.session_id, h.item) for h in still_held(held_path(db))] == [(7, b), (7, c)]
    journal.taken(c)
    journal.taken(b)
    assert held_path(db).stat().st_size == 0                 # nothing held: the file starts afresh
    journal.hold(a)
    with open(held_path(db), "a", encoding="utf-8") as f:
        f.write('{"held": 9, "session": 7, "event": {"kind": "dea')   # torn by a kill mid-write
    assert [h.item for h in still_held(held_path(db))] == [a]
    journal.close()


def test_a_crash_loses_nothing_the_live_referee_held(tmp_path: Path) -> None:
    """The app dies mid-hand with the last 3 s of items held: the log opened again records them into the hand, marked
    unrefereed, ends it incomplete saying so, and refereed again (`log check`) the hand matches its record."""
    config, items, _ = simulated("badugi-limit", 1, [])
    db = tmp_path / "log.sqlite"
    log = HandLog.open(db)
    session_id = log.open_session("oval-9", "Ann")
    cut = next(i for i, item in enumerate(items) if isinstance(item, DealerAction)) + 4
    kept = items[:cut]                                       # the camera and the pad until the crash
    session = live(config, kept, HandLogSink(log, session_id), journal=HeldJournal(db, session_id), stop=False)
    held = len(session.loop.orderer)
    assert held >= 2 and len(still_held(held_path(db))) == held
    recorded = len(session.referee.hands[-1].inputs)
    log.close()                                              # the process dies: nothing more is written

    with HandLog.open(db) as reopened:
        [hand_id] = reopened.recovered
        story = reopened.story(hand_id)
        assert reopened.unrecorded_held is None and not held_path(db).exists()
    assert story.end is not None and story.end.status == "incomplete" and story.end.unrefereed == held
    assert f"its last {held} inputs were held by the live referee" in (story.end.reason or "")
    inputs = [r for r in story.records if type(r).__name__ in ("StoredEvent", "StoredAction")]
    assert len(inputs) == recorded + held == len(kept) - sum(isinstance(i, DealerAction) and i.t < 0 for i in kept)
    text = render_story(story)
    assert text.count("[not refereed: held by the live referee when the recorder stopped]") == held
    assert recheck(story).differences == ()
    marks = ["[not refereed" in line.text for line in ReviewModel(db).timeline(hand_id)
             if line.kind in ("event", "action")]
    assert marks[-held:] == [True] * held and sum(marks) == held     # Review marks the last inputs, only they


def test_held_items_with_no_hand_open_are_kept_in_a_file_of_their_own(tmp_path: Path) -> None:
    db = tmp_path / "log.sqlite"
    HandLog.open(db).close()
    journal = HeldJournal(db, 1)
    first = CardDealt(0.4, 6, 1)
    journal.hold(first)                                      # a hand's first card, before the referee started it
    journal.close()
    with HandLog.open(db) as reopened:
        assert reopened.recovered == () and reopened.unrecorded_held is not None
        kept = reopened.unrecorded_held
    assert [h.item for h in still_held(kept)] == [first] and not held_path(db).exists()


def test_the_app_says_in_one_line_what_opening_the_log_recovered(tmp_path: Path) -> None:
    from dealer_assist.app.main_window import recovery_notice

    config, items, _ = simulated("badugi-limit", 1, [])
    db = tmp_path / "log.sqlite"
    log = HandLog.open(db)
    assert recovery_notice(log) is None                     # a new log: nothing to say
    session_id = log.open_session("oval-9", "Ann")
    cut = next(i for i, item in enumerate(items) if isinstance(item, DealerAction)) + 4
    session = live(config, items[:cut], HandLogSink(log, session_id), journal=HeldJournal(db, session_id),
                   stop=False)
    held = len(session.loop.orderer)
    log.close()
    with HandLog.open(db) as reopened:
        line = recovery_notice(reopened)
    assert line is not None and "\n" not in line
    assert f"hand {reopened.recovered[0]} ended incomplete" in line
    assert f"the {held} inputs the referee still held recorded unrefereed" in line


def test_the_floor_awards_a_hand_cut_off_at_its_showdown_on_the_shows_the_referee_still_held(tmp_path: Path) -> None:
    """The app dies a second after the last hand was shown, before the gather: the referee, 3 s behind, never saw the
    shows, so the hand has no award. The shows are recorded unrefereed; the floor's award (`log correct --award`)
    is made on them, the award the whole hand makes; `log check` still matches the record without them."""
    from dealer_assist.store.floor_award import floor_award_payload
    from dealer_assist.vision.events import CardsGathered, CardsShown

    config, items, _ = simulated("badugi-limit", 1, [])
    last_show = max(i for i, item in enumerate(items) if isinstance(item, CardsShown))
    gathered = next(i for i, item in enumerate(items) if isinstance(item, CardsGathered))
    assert last_show < gathered
    kept = items[:last_show + 1]
    db = tmp_path / "log.sqlite"
    log = HandLog.open(db)
    session_id = log.open_session("oval-9", "Ann")
    session = live(config, kept, HandLogSink(log, session_id), journal=HeldJournal(db, session_id), stop=False)
    assert session.award is None and any(isinstance(i, CardsShown) for i in session.loop.orderer.held())
    log.close()
    with HandLog.open(db) as reopened:
        story = reopened.story(reopened.recovered[0])
    whole = Referee(config)
    whole.feed_all(items)
    assert whole.award is not None
    payload, lines = floor_award_payload(story)
    assert payload is not None and {int(k): v for k, v in payload["totals"].items()} == dict(whole.award.totals), lines
    assert recheck(story).differences == ()


def test_a_journal_that_never_empties_is_written_afresh_with_what_it_holds(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """Items keep coming and never all go out (a busy table): past `COMPACT_BYTES` the file is rewritten (beside it,
    then renamed over it) with only what is still held, so it stays small and still says all that is held."""
    from dealer_assist.store import held as held_module

    monkeypatch.setattr(held_module, "COMPACT_BYTES", 2_000)
    db = tmp_path / "log.sqlite"
    journal = HeldJournal(db, 1)
    items = [CardDealt(0.1 * k, k, 1 + k % 3) for k in range(400)]
    for k, item in enumerate(items):
        journal.hold(item)
        if k >= 5:
            journal.taken(items[k - 5])                      # always five held
        assert held_path(db).stat().st_size < 4_000
    assert [h.item for h in still_held(held_path(db))] == items[-5:]
    assert not held_path(db).with_name(held_path(db).name + ".new").exists()
    journal.close()


def test_a_journal_that_cannot_be_written_says_so_once_and_refereeing_goes_on(tmp_path: Path,
                                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    said: list[str] = []
    db = tmp_path / "log.sqlite"
    journal = HeldJournal(db, 1, on_failure=said.append)
    a, b = CardDealt(1.0, 15, 1), CardDealt(1.2, 18, 2)
    journal.hold(a)

    class Full:
        def write(self, _: str) -> int:
            raise OSError(28, "No space left on device")

        def flush(self) -> None:
            pass

    real, journal._file = journal._file, Full()             # type: ignore[assignment]
    journal.hold(b)
    journal.taken(a)
    journal.taken(b)
    assert len(said) == 1 and "no longer journaled" in said[0] and "No space left on device" in said[0]
    assert "\n" not in said[0] and journal.error == said[0]
    real.close()


def test_the_live_flag_list_shows_the_referees_own_dismissal() -> None:
    """A draw the camera saw leave seat 2 short, then seat 2 shows a whole hand: the referee dismisses its flag, and
    the Live list shows the flag as dismissed by the referee, with why (the floor's PIN is not asked for, and the
    ruling is not passed back to the referee as the floor's)."""
    from test_referee import camera_table, short_last_draw

    from dealer_assist.audit.referee import award_waits_on

    items = list(short_last_draw("Kc Qd 9h 8s").items)
    session = live(camera_table(), items, RecordingSink())
    [entry] = session.flags.entries
    assert entry.flag.kind.value == "replacements_mismatch" and entry.resolution == "dismissed"
    assert entry.reason.startswith("by the referee: seat 2 showed a whole hand at the showdown")
    record = session.referee.hands[-1]
    assert record.awards and not award_waits_on(record) and session.award_note is None
    assert [c.by for c in record.corrections] == ["the referee"]      # one ruling, the referee's
