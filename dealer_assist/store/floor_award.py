"""The floor's award of an ended hand: the hand refereed again with the corrections the floor made after it.

At a 720p table the camera reads few of the hands turned up, so many hands end with no award and the dealer pushes
the pot by hand; a disputed pot is settled later from the surveillance video or the cards themselves. The floor keys
in each hand it read (`shown_hand`) and each card the camera misread (`misread_card`); the hand is refereed again with
them under its recorded house rules, and the award that makes is recorded as the floor's (`award`), beside the
referee's records, never over them. `log recheck` checks that each floor award follows from the corrections before it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from dealer_assist.audit.records import Flag, FlagKind, Severity
from dealer_assist.errors import DealerAssistError
from dealer_assist.store.handlog import HandLog
from dealer_assist.store.jsonable import award_sentences
from dealer_assist.store.recheck import FLOOR_INPUTS, award_values, flag_values, referee_again
from dealer_assist.store.records import HandStory, StoredAward, StoredCorrection, StoredFlag


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


def floor_corrections(story: HandStory, until: int | None = None) -> list[StoredCorrection]:
    """The floor's corrections after the hand ended that change what is refereed, up to sequence number `until`."""
    if story.end is None:
        return []
    end = story.end.seq
    return [r for r in story.records if isinstance(r, StoredCorrection) and r.kind in FLOOR_INPUTS
            and r.seq > end and (until is None or r.seq <= until)]


def floor_award_payload(story: HandStory, *, until: int | None = None) -> tuple[dict[str, Any] | None, list[str]]:
    """The award the hand makes refereed again with the floor's corrections up to sequence number `until` (all when
    None), as the log keeps awards, and its sentences; (None, why) when it makes none."""
    last = until if until is not None else max((r.seq for r in story.records), default=0)
    replay = referee_again(story, floor_until=last)
    flag_id = _flag_ids(list(replay.recorded_flags), replay.flags)
    if not replay.awards:
        why = [*replay.problems, *(f"seat {f.seat}: {f.message}" if f.seat is not None else f.message
                                   for f in replay.flags if f.severity is Severity.ERROR
                                   or f.kind is FlagKind.UNEXPECTED_EVENT)]
        return None, why[-3:] or ["the hand refereed again makes no award"]
    made = replay.awards[-1]
    payload = award_values(made, [flag_id.get(n) for n in range(len(replay.flags))])
    lines = award_sentences(payload)
    if made.pending:
        named = [f"#{flag_id[n]}" if flag_id.get(n) is not None else
                 f"{replay.flags[n].kind.value} at seat {replay.flags[n].seat} (not in the log)" for n in made.pending]
        lines.append(f"Provisional: flag{'s' if len(named) > 1 else ''} {', '.join(named)} open; the floor decides "
                     "whether the hand stands.")
    return payload, lines


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
    if payload is None or payload == current_award(story):
        return FloorAward(payload, tuple(lines))
    after = [r.id for r in floor_corrections(story)]
    reason = "refereed again with the floor's correction{} {}".format(
        "s" if len(after) > 1 else "", ", ".join(f"#{i}" for i in after))
    ref = log.record_correction(hand_id, "award", reason=reason, by=by,
                                data={"award": payload, "after": after, "explanation": lines})
    return FloorAward(payload, tuple(lines), ref.id)
