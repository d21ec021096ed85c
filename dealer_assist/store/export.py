"""Exports of stored hands: JSON (the records as stored), CSV (one line per record) and PHH."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Iterator
from dataclasses import asdict
from typing import Any

from dealer_assist.store.chain import canonical_json
from dealer_assist.store.records import (
    HandStory,
    StoredAction,
    StoredAward,
    StoredCorrection,
    StoredEvent,
    StoredFlag,
    StoredRecord,
    StoredSnapshot,
)
from dealer_assist.store.render import action_sentence, correction_sentence, event_sentence, flag_sentence

EXPORT_FORMATS = ("json", "csv", "phh")
CSV_COLUMNS = ("hand_id", "seq", "record", "id", "recorded_at", "t", "frame", "seat", "kind", "text", "data")

_RECORD_NAMES: dict[type, str] = {
    StoredEvent: "event", StoredAction: "action", StoredFlag: "flag", StoredAward: "award",
    StoredCorrection: "correction", StoredSnapshot: "snapshot",
}


def record_dict(record: StoredRecord) -> dict[str, Any]:
    """A stored record as plain JSON values, with its `record` type; events keep their `to_dict` form."""
    if isinstance(record, StoredEvent):
        return {"record": "event", "id": record.id, "seq": record.seq, "recorded_at": record.recorded_at,
                "event": record.event.to_dict()}
    return {"record": _RECORD_NAMES[type(record)], **asdict(record)}


def story_dict(story: HandStory) -> dict[str, Any]:
    """The whole hand as one JSON object: hand, house rules, records in chain order, end."""
    hand = asdict(story.hand)
    hand["seats"] = {str(k): v for k, v in story.hand.seats.items()}
    return {
        "hand": {**hand, "seq": story.seq, "t": story.t, "house_rules": story.house_rules, "camera": story.camera},
        "records": [record_dict(r) for r in story.records],
        "end": asdict(story.end) if story.end else None,
    }


def export_json(stories: Iterable[HandStory], *, single: bool) -> Iterator[str]:
    """One JSON object for a single hand, else a JSON array streamed hand by hand."""
    if single:
        for story in stories:
            yield json.dumps(story_dict(story), indent=2, ensure_ascii=False) + "\n"
        return
    yield "["
    for i, story in enumerate(stories):
        yield ("," if i else "") + "\n" + json.dumps(story_dict(story), ensure_ascii=False)
    yield "\n]\n"


def _csv_row(hand_id: int, record: StoredRecord) -> list[Any]:
    """One CSV line for a record: where it sits, what it says, and its JSON."""
    data = record_dict(record)
    if isinstance(record, StoredEvent):
        ev = record.event
        return [hand_id, record.seq, "event", record.id, record.recorded_at, ev.t, ev.frame,
                getattr(ev, "seat", None), ev.kind, event_sentence(ev), canonical_json(ev.to_dict())]
    if isinstance(record, StoredAction):
        return [hand_id, record.seq, "action", record.id, record.recorded_at, record.t, record.frame, record.seat,
                record.action, action_sentence(record), canonical_json(data)]
    if isinstance(record, StoredFlag):
        return [hand_id, record.seq, "flag", record.id, record.recorded_at, record.t, record.frame, record.seat,
                record.kind, flag_sentence(record), canonical_json(data)]
    if isinstance(record, StoredAward):
        return [hand_id, record.seq, "award", record.id, record.recorded_at, record.t, None, None, "award",
                " ".join(record.explanation), canonical_json(record.award)]
    if isinstance(record, StoredCorrection):
        return [hand_id, record.seq, "correction", record.id, record.recorded_at, record.t, None, None,
                record.kind, correction_sentence(record), canonical_json(data)]
    return [hand_id, record.seq, "snapshot", record.id, record.recorded_at, record.t, record.frame, None,
            record.label, record.sha256, canonical_json(data)]


def export_csv(stories: Iterable[HandStory]) -> Iterator[str]:
    """A header, then per hand a `hand` line (its data: the seats' stacks, the house rules and whether a camera's
    table was refereed, so the file alone says under which rules the hand was judged), one line per record, and an
    `end` line."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")

    def flush() -> str:
        """The text written since the last flush."""
        text = buf.getvalue()
        buf.seek(0)
        buf.truncate()
        return text

    writer.writerow(CSV_COLUMNS)
    yield flush()
    for story in stories:
        hand = story.hand
        writer.writerow([hand.id, story.seq, "hand", hand.id, hand.started_at, story.t, None, hand.button,
                         hand.game, f"table {hand.table} hand #{hand.number} dealer {hand.dealer}",
                         canonical_json({"seats": {str(k): v for k, v in hand.seats.items()},
                                         "house_rules": story.house_rules, "camera": story.camera})])
        for record in story.records:
            writer.writerow(_csv_row(hand.id, record))
        if story.end:
            end = story.end
            writer.writerow([hand.id, end.seq, "end", end.id, end.ended_at, end.t, None, None, end.status,
                             end.reason or "", canonical_json(asdict(end))])
        yield flush()
