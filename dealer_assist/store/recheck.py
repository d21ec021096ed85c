"""Referee a recorded hand again from its recorded events and actions, and compare with what was recorded.

A surveillance reviewer settling a dispute asks whether the log's flags and award follow from what the
camera saw and the dealer entered, under the house rules the hand was played with. `recheck` answers it:
a fresh Referee is fed the hand's events, actions and the floor's in-hand corrections in the order they were
written, under the recorded house rules, seats, button and camera mode, and its flags, award and end are
compared with the recorded ones. The referee is deterministic, so any difference means the log and the
referee disagree: a flag or award written by something else, or a referee that changed since.
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from dealer_assist.audit.outputs import AwardMade, Correction, HandEnded
from dealer_assist.audit.records import DealerAction, Flag
from dealer_assist.audit.referee import Referee
from dealer_assist.audit.sink import RecordingSink
from dealer_assist.audit.table import TableConfig
from dealer_assist.cards import parse_card, parse_cards
from dealer_assist.errors import DealerAssistError
from dealer_assist.rules.house_rules import HouseRules
from dealer_assist.rules.steps import Awarded
from dealer_assist.store.chain import canonical_json
from dealer_assist.store.records import (
    FLAG_COLUMNS,
    HandStory,
    StoredAction,
    StoredAward,
    StoredCorrection,
    StoredEvent,
    StoredFlag,
    missed_event,
)
from dealer_assist.store.sink import award_payload
from dealer_assist.vision.events import CardsGathered, CardsShown, SeatFolded, TableEvent


def house_rules_data(text: str) -> dict[str, Any]:
    """A hand's house rules as stored: TOML (the store's form) or JSON; {} when none were recorded."""
    if not text.strip():
        return {}
    try:
        return dict(tomllib.loads(text))
    except tomllib.TOMLDecodeError:
        try:
            return dict(json.loads(text))
        except (json.JSONDecodeError, TypeError, ValueError):
            raise DealerAssistError("the hand's recorded house rules are neither TOML nor a JSON object") from None


def table_config(story: HandStory, default_rules: HouseRules | None = None) -> TableConfig:
    """The table as the hand was refereed: its house rules (`default_rules` when none were recorded; without them,
    an error), seats and stacks, button and camera mode (strict when the log does not say)."""
    data = house_rules_data(story.house_rules)
    if data:
        rules = HouseRules.from_dict(data)
    elif default_rules is not None:
        rules = default_rules
    else:
        raise DealerAssistError("no house rules were recorded with it")
    return TableConfig(rules, tuple(sorted(story.hand.seats.items())), story.hand.button, bool(story.camera))


@dataclass(frozen=True, slots=True)
class Recheck:
    """The outcome for one hand: how many inputs were refereed again, the recorded flag and award counts, and
    each difference as a sentence (none: the record follows from its inputs)."""

    hand_id: int
    inputs: int
    flags: int
    awards: int
    camera: bool | None
    differences: tuple[str, ...]
    floor_awards: int = 0

    @property
    def same(self) -> bool:
        return not self.differences

    def summary(self) -> str:
        mode = {True: "a camera's table", False: "strict", None: "strict (the log does not say)"}[self.camera]
        what = f"{self.inputs} events and actions, refereed as {mode}"
        if self.same:
            n = self.floor_awards
            awards = "award after the hand follows" if n == 1 else f"{n} awards after the hand follow"
            floor = f"; the floor's {awards} from its corrections" if n else ""
            return (f"hand {self.hand_id}: the same {_count(self.flags, 'flag')} and {_count(self.awards, 'award')} "
                    f"as recorded ({what}){floor}")
        return f"hand {self.hand_id}: DIFFERS from the record in {_count(len(self.differences), 'point')} ({what})"


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def flag_values(flag: StoredFlag | Flag) -> dict[str, Any]:
    """What a flag row holds (its hand and key frame aside), for comparing a recorded flag with a replayed one."""
    if isinstance(flag, Flag):
        data = flag.to_dict()
        return {k: data[k] for k in FLAG_COLUMNS}
    return {k: getattr(flag, k) for k in FLAG_COLUMNS}


def _flag_text(values: dict[str, Any]) -> str:
    seat = f" seat {values['seat']}" if values["seat"] is not None else ""
    return f"{values['severity']} {values['kind']}{seat} at {values['t']:.2f} s: {values['message']}"


def award_values(made: AwardMade, flag_ids: Sequence[int | None]) -> dict[str, Any]:
    """The payload the hand log writes for an award (`store.sink.award_payload`), normalised through JSON."""
    payload = award_payload(made, lambda n: flag_ids[n] if n < len(flag_ids) else None)
    return dict(json.loads(canonical_json(payload)))


def _correction(rec: StoredCorrection, input_of: dict[tuple[str, int], int],
                flag_number: dict[int, int]) -> Correction:
    """The referee's Correction for a recorded in-hand correction (its targets mapped back to the hand's numbering)."""
    target: int | None = None
    card = was = None
    status = None
    if rec.kind == "misread_card":
        target = input_of.get((rec.target_table, rec.target_id))
        card = parse_card(rec.data["card"]) if rec.data.get("card") else None
        was = parse_card(rec.data["was"]) if rec.data.get("was") else None
    elif rec.kind in ("accept_flag", "dismiss_flag"):
        target = flag_number.get(rec.target_id)
    elif rec.kind == "void_hand":
        status = rec.data.get("status", "void")
    return Correction(rec.kind, rec.reason, rec.by, target=target, card=card, was=was,  # type: ignore[arg-type]
                      status=status, t=rec.t or 0.0)


@dataclass(frozen=True, slots=True)
class Replay:
    """A hand refereed again from its records: what the fresh referee wrote, and what the log holds."""

    outputs: tuple[Any, ...]
    ends: tuple[HandEnded, ...]
    hands: int
    inputs: int
    recorded_flags: tuple[StoredFlag, ...]
    recorded_awards: tuple[StoredAward, ...]
    problems: tuple[str, ...]
    floor_at: int | None = None
    """How many outputs there were when the floor's corrections were fed (None: none were)."""

    @property
    def awards(self) -> list[AwardMade]:
        return [o for o in self.outputs if isinstance(o, AwardMade)]

    @property
    def flags(self) -> list[Flag]:
        return [o for o in self.outputs if isinstance(o, Flag)]


FLOOR_INPUTS = ("misread_card", "shown_hand", "mucked_hand", "false_event", "missed_event")
"""The floor's corrections after a hand ended that change what is refereed (`floor_award`): a card the camera
misread, a hand it did not read, a muck it took for something else, an event that did not happen, an event the camera
did not report. The others (rulings on flags, notes, a void) do not change the award."""
_FLOOR_ORDER = {"misread_card": 0, "shown_hand": 1, "mucked_hand": 2}


def referee_again(story: HandStory, *, floor_until: int | None = None, unrefereed: bool = False) -> Replay:
    """Feed a fresh Referee the hand's events and actions and the in-hand corrections, in the order written, under
    the recorded house rules, seats, button and camera mode.

    With `floor_until` (a sequence number), the floor's `FLOOR_INPUTS` corrections made after the hand ended and up
    to that record are fed too, where the table would have had them: the events the camera missed at their own time
    (before the first event or action recorded later than them), the rest before the cards were gathered (misreads
    first, then the hands the floor read, as keyed-in shows, then the mucks it saw); the events it found did not
    happen are left out.

    The inputs recorded unrefereed after a crash (`HandStory.unrefereed`) are left out, as the referee never had them,
    unless `unrefereed` (the floor deciding the hand afterwards goes on all the table did)."""
    replayed = RecordingSink()
    referee = Referee(table_config(story), replayed)
    input_of: dict[tuple[str, int], int] = {}
    flag_number: dict[int, int] = {}
    recorded_flags: list[StoredFlag] = []
    recorded_awards: list[StoredAward] = []
    problems: list[str] = []
    inputs = 0
    end_seq = story.end.seq if story.end is not None else None
    floor = [] if floor_until is None else floor_corrections(story, floor_until)
    struck = {r.target_id for r in floor if r.kind == "false_event"}
    missed = sorted((missed_event(r.data["event"]) for r in floor if r.kind == "missed_event"), key=lambda e: e.t)
    floor = _latest_reads(r for r in floor if r.kind not in ("false_event", "missed_event"))
    floor_at: int | None = None
    held = frozenset() if unrefereed else story.unrefereed
    for rec in story.records:
        if rec.seq in held:
            continue                                # recorded after a crash, never refereed (`store.held`)
        ended = end_seq is not None and rec.seq > end_seq
        item: TableEvent | DealerAction | Correction | None = None
        if isinstance(rec, StoredEvent) and rec.id in struck:
            continue                                # the floor found it did not happen
        if isinstance(rec, StoredEvent | StoredAction) and missed:
            t = rec.event.t if isinstance(rec, StoredEvent) else rec.t
            gathered = isinstance(rec, StoredEvent) and isinstance(rec.event, CardsGathered)
            while missed and (gathered or (t is not None and missed[0].t <= t)):
                problems += _feed_missed(referee, missed.pop(0))
                inputs += 1
        if isinstance(rec, StoredEvent):
            item = rec.event
            if floor and isinstance(item, CardsGathered):
                floor_at = sum(r[0] == "output" for r in replayed.records)
                problems += _feed_floor(referee, floor, input_of, item.t, item.frame)
                floor = []
            input_of[("events", rec.id)] = inputs
        elif isinstance(rec, StoredAction):
            item = DealerAction(rec.seat, rec.action, rec.amount, t=rec.t, source=rec.source)  # type: ignore[arg-type]
            input_of[("actions", rec.id)] = inputs
        elif isinstance(rec, StoredFlag):
            flag_number[rec.id] = len(recorded_flags)
            recorded_flags.append(rec)
        elif isinstance(rec, StoredAward):
            recorded_awards.append(rec)
        elif isinstance(rec, StoredCorrection) and not ended and referee.run is not None:
            item = _correction(rec, input_of, flag_number)  # after the end, a correction is the floor's, not refereed
        if item is None:
            continue
        if not isinstance(item, Correction):
            inputs += 1
        try:
            referee.feed(item)
        except DealerAssistError as exc:
            problems.append(f"record #{rec.seq} cannot be refereed again: {exc}")
            break
    for event in missed if referee.run is not None else ():     # after the last record (never gathered)
        problems += _feed_missed(referee, event)
        inputs += 1
    if floor and referee.run is not None:       # never gathered (the recording stopped): before the end
        floor_at = sum(r[0] == "output" for r in replayed.records)
        problems += _feed_floor(referee, floor, input_of, _last_t(story), None)
    if story.end is not None and referee.run is not None:
        referee.close(story.end.t if story.end.t is not None else _last_t(story))
    outputs = tuple(r[2] for r in replayed.records if r[0] == "output")
    ends = tuple(e for r in replayed.records if r[0] == "end" and isinstance(e := r[1], HandEnded))
    hands = sum(r[0] == "start" for r in replayed.records)
    return Replay(outputs, ends, hands, inputs, tuple(recorded_flags), tuple(recorded_awards), tuple(problems),
                  floor_at)


def _feed_missed(referee: Referee, event: TableEvent) -> list[str]:
    """Feed an event the floor found the camera missed; what could not be fed."""
    try:
        referee.feed(event)
    except DealerAssistError as exc:
        return [f"the missed {event.kind} at {event.t:.1f} s cannot be refereed: {exc}"]
    return []


def floor_corrections(story: HandStory, until: int | None = None) -> list[StoredCorrection]:
    """The floor's corrections after the hand ended that change what is refereed (`FLOOR_INPUTS`), up to sequence
    number `until` (all when None); none for a hand that has not ended."""
    if story.end is None:
        return []
    end = story.end.seq
    return [r for r in story.records if isinstance(r, StoredCorrection) and r.kind in FLOOR_INPUTS
            and r.seq > end and (until is None or r.seq <= until)]


def _latest_reads(floor: Iterable[StoredCorrection]) -> list[StoredCorrection]:
    """The floor's corrections to feed: every misread, and each seat's latest read of the showdown (a hand shown or a
    muck), which replaces what the floor said of that seat before."""
    latest: dict[int, StoredCorrection] = {}
    out = []
    for rec in sorted(floor, key=lambda r: r.seq):
        if rec.kind in ("shown_hand", "mucked_hand"):
            latest[int(rec.data["seat"])] = rec
        else:
            out.append(rec)
    return sorted([*out, *latest.values()], key=lambda r: r.seq)


def _feed_floor(referee: Referee, floor: list[StoredCorrection], input_of: dict[tuple[str, int], int], t: float,
                frame: int | None) -> list[str]:
    """The floor's corrections made after the hand, fed at time `t` (misreads first: a shown hand may hold the card
    corrected; then the hands shown, then the mucks, which concede to them); returns what could not be fed."""
    problems = []
    for rec in sorted(floor, key=lambda r: (_FLOOR_ORDER[r.kind], r.seq)):
        item: CardsShown | SeatFolded | Correction
        if rec.kind == "misread_card":
            item = _correction(rec, input_of, {})
            if item.target is None:
                problems.append(f"the floor's correction #{rec.id} names event #{rec.target_id}, which the hand "
                                "refereed again has not seen before the gather")
                continue
        else:
            dead = _dead_seat(referee, int(rec.data["seat"]))
            if dead is not None:
                problems.append(f"the floor's read of seat {rec.data['seat']} (correction #{rec.id}) changes nothing: "
                                f"{dead}")
            if rec.kind == "mucked_hand":
                item = SeatFolded(t, frame if frame is not None else 0, int(rec.data["seat"]))
            else:
                item = CardsShown(t, frame if frame is not None else 0, int(rec.data["seat"]),
                                  parse_cards(str(rec.data["cards"])), entered=True)
        try:
            referee.feed(item)
        except DealerAssistError as exc:
            problems.append(f"the floor's correction #{rec.id} cannot be refereed: {exc}")
    return problems


def _dead_seat(referee: Referee, seat: int) -> str | None:
    """Why a read of `seat` at the showdown cannot matter (the hand was over, the seat had folded), or None."""
    run = referee.run
    if run is None:
        return "the hand was over before the showdown"
    hand = run.hand
    last = hand.history[-1] if hand.history else None
    if isinstance(last, Awarded) and last.uncontested:
        return "the hand was won uncontested, with no showdown"
    if seat not in hand.index_of or hand.live[hand.index_of[seat]] or seat in run.mucked_at_showdown:
        return None
    return f"seat {seat} had folded before the showdown"


def recheck(story: HandStory) -> Recheck:
    """Referee the hand again from its records and list where the recorded flags, award and end differ."""
    replay = referee_again(story)
    recorded_flags, recorded_awards = list(replay.recorded_flags), list(replay.recorded_awards)
    differences = list(replay.problems)
    differences += _compare_flags(recorded_flags, replay.flags)
    differences += _compare_awards(recorded_awards, replay.awards, [f.id for f in recorded_flags])
    if replay.hands > 1:
        differences.append(f"the recorded inputs make {replay.hands} hands when refereed again, not one")
    if story.end is not None and replay.ends and replay.ends[0].status != story.end.status:
        differences.append(f"the hand ended {story.end.status} in the log; refereed again it ends "
                           f"{replay.ends[0].status}")
    differences += _check_floor_awards(story)
    floor_awards = sum(isinstance(r, StoredCorrection) and r.kind == "award" for r in story.records)
    return Recheck(story.hand.id, replay.inputs, len(recorded_flags), len(recorded_awards), story.camera,
                   tuple(differences), floor_awards)


def _check_floor_awards(story: HandStory) -> list[str]:
    """Each award the floor recorded after the hand (`floor_award`) must be what the hand refereed again with the
    floor's corrections up to it makes."""
    from dealer_assist.store.floor_award import floor_award_payload  # (it builds on this module)

    out = []
    for rec in story.records:
        if isinstance(rec, StoredCorrection) and rec.kind == "award":
            now, _ = floor_award_payload(story, until=rec.seq - 1)
            if now != rec.data.get("award"):
                was = rec.data.get("award") or {}
                out.append(f"the floor's award (correction #{rec.id}) is {_award_text(was)}; refereed again with the "
                           f"floor's corrections before it: {_award_text(now) if now else 'no award'}")
    return out


def _last_t(story: HandStory) -> float:
    times = [t for r in story.records if (t := getattr(r, "t", None)) is not None]
    return max(times, default=0.0)


def _compare_flags(recorded: list[StoredFlag], replayed: list[Flag]) -> list[str]:
    return _compare("flag", [(f.id, flag_values(f)) for f in recorded], [flag_values(f) for f in replayed],
                    _flag_text)


def _compare_awards(recorded: list[StoredAward], replayed: list[AwardMade], flag_ids: list[int]) -> list[str]:
    return _compare("award", [(a.id, a.award) for a in recorded], [award_values(a, flag_ids) for a in replayed],
                    _award_text)


def _compare(noun: str, recorded: list[tuple[int, dict[str, Any]]], replayed: list[dict[str, Any]],
             text: Callable[[dict[str, Any]], str]) -> list[str]:
    """One sentence per position where the recorded rows (id, values) and the replayed values differ."""
    out = []
    for n in range(max(len(recorded), len(replayed))):
        row_id, was = recorded[n] if n < len(recorded) else (None, None)
        now = replayed[n] if n < len(replayed) else None
        if was == now:
            continue
        if now is None:
            out.append(f"{noun} #{row_id} is in the log but not made when refereed again: {text(was or {})}")
        elif was is None:
            out.append(f"refereed again, {noun} {n + 1} is made but not in the log: {text(now)}")
        else:
            out.append(f"{noun} #{row_id} in the log: {text(was)}; refereed again: {text(now)}")
    return out


def _award_text(payload: dict[str, Any]) -> str:
    totals = payload.get("totals")
    return f"totals {canonical_json(totals)}" if totals is not None else canonical_json(payload)
