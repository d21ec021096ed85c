"""The floor's award of an ended hand: the hand refereed again with the corrections the floor made after it.

At a 720p table the camera reads few of the hands turned up, so many hands end with no award and the dealer pushes
the pot by hand; a disputed pot is settled later from the surveillance video or the cards themselves. The floor keys
in each hand it read (`shown_hand`), each muck it saw (`mucked_hand`), each card the camera misread (`misread_card`),
each event that did not happen (`false_event`) and each one the camera missed (`missed_event`, refereed at its own
time); the hand is refereed again with them under its recorded house rules, and the award that makes is recorded as
the floor's (`award`), beside the referee's records, never over them. `log recheck` checks that each floor award
follows from the corrections before it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from dealer_assist.audit.hand_run import UNREAD_SHOW
from dealer_assist.audit.outputs import AwardMade
from dealer_assist.audit.records import Flag, FlagKind, Severity
from dealer_assist.cards import Card, parse_cards
from dealer_assist.errors import DealerAssistError
from dealer_assist.store.handlog import HandLog
from dealer_assist.store.jsonable import award_sentences
from dealer_assist.store.recheck import (
    Replay,
    award_values,
    flag_values,
    floor_corrections,
    referee_again,
    table_config,
)
from dealer_assist.store.records import (
    MISSED_EVENT_KINDS,
    CorrectionKind,
    HandStory,
    StoredAward,
    StoredCorrection,
    StoredFlag,
    missed_event,
)
from dealer_assist.store.render import event_sentence
from dealer_assist.vision.events import TableEvent


@dataclass(frozen=True, slots=True)
class FloorAward:
    """What refereeing the hand again made: the award's JSON and sentences (None and the reasons when it made none),
    and the `award` correction recorded for it (None when none was: no award, or the same as the hand's last)."""

    award: dict[str, Any] | None
    lines: tuple[str, ...]
    recorded: int | None = None


def current_award(story: HandStory) -> dict[str, Any] | None:
    """The hand's award as it stands: the last one recorded, the referee's or the floor's."""
    award: dict[str, Any] | None = None
    for rec in story.records:
        if isinstance(rec, StoredAward):
            award = rec.award
        elif isinstance(rec, StoredCorrection) and rec.kind == "award" and isinstance(rec.data.get("award"), dict):
            award = rec.data["award"]
    return award


def floor_award_payload(story: HandStory, *, until: int | None = None) -> tuple[dict[str, Any] | None, list[str]]:
    """The award the hand makes refereed again with the floor's corrections up to sequence number `until` (all when
    None), as the log keeps awards, and its sentences; (None, why) when it makes none. Inputs a crash left unrefereed
    count: they are what the table did."""
    last = until if until is not None else max((r.seq for r in story.records), default=0)
    replay = referee_again(story, floor_until=last, unrefereed=True)
    flag_id = _flag_ids(list(replay.recorded_flags), replay.flags)
    made = _final_award(replay)
    if made is None:
        why = [*replay.problems, *(f"seat {f.seat}: {f.message}" if f.seat is not None else f.message
                                   for f in replay.flags if f.severity is Severity.ERROR
                                   or f.kind is FlagKind.UNEXPECTED_EVENT)]
        return None, why[-3:] or ["the hand refereed again makes no award"]
    payload = award_values(made, [flag_id.get(n) for n in range(len(replay.flags))])
    lines = [*award_sentences(payload), *(f"Note: {p}" for p in replay.problems)]
    if made.pending:
        named = [f"#{flag_id[n]}" if flag_id.get(n) is not None else
                 f"{replay.flags[n].kind.value} at seat {replay.flags[n].seat} (not in the log)" for n in made.pending]
        lines.append(f"Provisional: flag{'s' if len(named) > 1 else ''} {', '.join(named)} open; the floor decides "
                     "whether the hand stands.")
    return payload, lines


def _final_award(replay: Replay) -> AwardMade | None:
    """The award the hand stands on once the floor's corrections are in: one made after them; else none, if after
    them the referee said the pots cannot be awarded (a read the floor gave leaves a hand unknown); else the last one
    made before them (the corrections changed nothing the referee acts on)."""
    awards = replay.awards
    if replay.floor_at is None:
        return awards[-1] if awards else None
    after = replay.outputs[replay.floor_at:]
    made = [o for o in after if isinstance(o, AwardMade)]
    if made:
        return made[-1]
    if any(isinstance(o, Flag) and o.message.endswith(UNREAD_SHOW) for o in after):
        return None
    return awards[-1] if awards else None


def _flag_ids(recorded: list[StoredFlag], replayed: list[Flag]) -> dict[int, int]:
    """Each replayed flag's number mapped to the recorded flag it repeats (same kind, seat, rule, time, message)."""
    free = {f.id: flag_values(f) for f in recorded}
    out: dict[int, int] = {}
    for n, flag in enumerate(replayed):
        values = flag_values(flag)
        match = next((i for i, v in free.items() if v == values), None)
        if match is not None:
            out[n] = match
            del free[match]
    return out


def record_floor_award(log: HandLog, hand_id: int, *, by: str) -> FloorAward:
    """Referee the hand again with the floor's corrections and record the award it makes as the floor's, unless it
    makes none or the same as the hand's award as it stands."""
    story = log.story(hand_id)
    if any(isinstance(r, StoredCorrection) and r.kind == "void_hand" for r in story.records):
        return FloorAward(None, (f"hand {hand_id} is voided: no award",))
    try:
        payload, lines = floor_award_payload(story)
    except DealerAssistError as exc:       # no house rules recorded, say: the floor's read stands, unawarded
        return FloorAward(None, (f"the hand cannot be refereed again: {exc}",))
    before = current_award(story)
    if payload is None and before is not None:
        lines = [*lines, "the award recorded before still stands until the floor's reads make one"]
    if payload is None or payload == before:
        return FloorAward(payload, tuple(lines))
    after = [r.id for r in floor_corrections(story)]
    reason = "refereed again with the floor's correction{} {}".format(
        "s" if len(after) > 1 else "", ", ".join(f"#{i}" for i in after))
    ref = log.record_correction(hand_id, "award", reason=reason, by=by,
                                data={"award": payload, "after": after, "explanation": lines})
    return FloorAward(payload, tuple(lines), ref.id)


@dataclass(frozen=True, slots=True)
class FloorReads:
    """What the floor read of an ended hand: hands shown (seat, cards), seats that mucked at the showdown, events
    that did not happen (their ids) and events the camera missed; `check` refuses a seat or card given twice."""

    shown: tuple[tuple[int, tuple[Card, ...]], ...] = ()
    mucked: tuple[int, ...] = ()
    not_seen: tuple[int, ...] = ()
    missed: tuple[TableEvent, ...] = ()

    def check(self) -> None:
        seats = [seat for seat, _ in self.shown]
        twice = next((s for i, s in enumerate(seats) if s in seats[:i]), None)
        if twice is not None:
            raise DealerAssistError(f"seat {twice}'s hand is given twice; give each seat's hand once")
        cards = [c for _, hand in self.shown for c in hand]
        again = next((c for i, c in enumerate(cards) if c in cards[:i]), None)
        if again is not None:
            raise DealerAssistError(f"{again} is in two hands; each card is in one hand only")
        both = next((s for i, s in enumerate(self.mucked) if s in self.mucked[:i] or s in seats), None)
        if both is not None:
            raise DealerAssistError(f"seat {both} is named twice, as mucking and as showing or mucking again; a seat "
                                    "shows its hand or mucks it")

    def __bool__(self) -> bool:
        return bool(self.shown or self.mucked or self.not_seen or self.missed)


def parse_shown(text: str, what: str = "shown hand") -> tuple[int, tuple[Card, ...]]:
    """"3: Ah 2c 3d 4s" (or "3:Ah 2c 3d 4s") as (seat, cards), or a one-line error naming what is accepted."""
    seat_text, sep, cards_text = text.partition(":")
    seat_text = seat_text.strip()
    if not sep or not cards_text.strip() or not (seat_text.isascii() and seat_text.isdigit()):
        raise DealerAssistError(f'bad {what} {text!r}; expected SEAT:CARDS, e.g. "3:Ah 2c 3d 4s"')
    return int(seat_text), parse_cards(cards_text)


def parse_missed(text: str, what: str = "missed event") -> TableEvent:
    """"replaced:3:27.9" (KIND:SEAT:SECONDS, then :COUNT for a discard or :CARD for a card dealt, replaced or
    exposed) as the event the camera missed, or a one-line error naming what is accepted."""
    parts = [p.strip() for p in text.split(":")]
    example = 'KIND:SEAT:SECONDS[:COUNT|CARD], e.g. "replaced:3:27.9", "discarded:5:16.2:2", "dealt:2:5.5:Kd"'
    kinds = ", ".join(MISSED_EVENT_KINDS)
    if len(parts) not in (3, 4) or parts[0] not in MISSED_EVENT_KINDS:
        raise DealerAssistError(f"bad {what} {text!r}; expected {example} (KIND one of {kinds})")
    kind, seat_text, t_text = parts[:3]
    extra = parts[3] if len(parts) == 4 else None
    if not (seat_text.isascii() and seat_text.isdigit()):
        raise DealerAssistError(f"bad {what} {text!r}: the seat is a number; expected {example}")
    try:
        t = float(t_text)
    except ValueError:
        raise DealerAssistError(f"bad {what} {text!r}: the time is seconds into the recording; expected "
                                f"{example}") from None
    data: dict[str, Any] = {"kind": kind, "t": t, "seat": int(seat_text)}
    if kind == "discarded":
        if extra is None or not (extra.isascii() and extra.isdigit()) or int(extra) < 1:
            raise DealerAssistError(f"bad {what} {text!r}: a discard names how many cards, e.g. "
                                    '"discarded:5:16.2:2"')
        data["count"] = int(extra)
    elif kind == "folded":
        if extra is not None:
            raise DealerAssistError(f'bad {what} {text!r}: a fold is KIND:SEAT:SECONDS, e.g. "folded:4:12.0"')
    elif kind == "exposed" and extra is None:
        raise DealerAssistError(f'bad {what} {text!r}: an exposure names the card, e.g. "exposed:2:3.1:Qs"')
    elif extra is not None:
        data["card"] = extra
    return missed_event(data)


def _check_hand_sizes(story: HandStory, reads: FloorReads) -> None:
    """Refuse a read that is not a whole hand (4 cards in Badugi, 5 in Badacey) before anything is written: a hand
    read short or long would be recorded only to be turned down by the referee."""
    try:
        rules = table_config(story).rules
    except DealerAssistError:  # no house rules recorded: awarding again says so
        return
    for seat, cards in reads.shown:
        if len(cards) != rules.hand_size:
            raise DealerAssistError(f"seat {seat}'s hand is given as {len(cards)} card{'s' * (len(cards) != 1)}; a "
                                    f"{rules.game.capitalize()} hand is {rules.hand_size} cards, give all of them")


def record_floor_reads(log: HandLog, hand_id: int, reads: FloorReads, *, by: str,
                       reason: str) -> tuple[list[str], FloorAward]:
    """Record the floor's reads of an ended hand in one batch (a bad seat, card or event writes none), then award the
    hand again (`record_floor_award`); returns one line per correction recorded and the award."""
    reads.check()
    story = log.story(hand_id)
    if story.end is None:
        raise DealerAssistError(f"hand {hand_id} has not ended; a hand still being played is keyed in at the table "
                                "(Live: Shown hand)")
    _check_hand_sizes(story, reads)
    # (kind, data, the event it targets, what it says)
    floor: list[tuple[CorrectionKind, dict[str, Any], int | None, str]] = [
        ("shown_hand", {"seat": seat, "cards": " ".join(map(str, cards))}, None,
         f"seat {seat} showed {' '.join(map(str, cards))}") for seat, cards in reads.shown]
    floor += [("mucked_hand", {"seat": seat}, None, f"seat {seat} mucked") for seat in reads.mucked]
    floor += [("false_event", {}, event, f"event #{event} did not happen") for event in dict.fromkeys(reads.not_seen)]
    floor += [("missed_event", {"event": event.to_dict()}, None,
               f"the camera missed: at {event.t:.2f} s {event_sentence(event)}") for event in reads.missed]
    with log.batch():
        refs = [log.record_correction(hand_id, kind, reason=reason, by=by, data=data, target_id=target)
                for kind, data, target, _ in floor]
    lines = [f"recorded correction #{ref.id} ({kind}) on hand {hand_id}: {what}, by {by}"
             for ref, (kind, _, _, what) in zip(refs, floor, strict=True)]
    return lines, record_floor_award(log, hand_id, by=by)
