"""The referee's records into the hand log, as they happen (the adapter between `audit` and `store`).

Each referee record is committed before the next input is refereed. Key frames (deal complete, each
draw, showdown, each flag) are saved as JPEG when a frame source is attached: the frame the record
refers to when it is still in the recent-frames buffer, else the newest frame.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from dealer_assist.audit.outputs import AwardMade, Correction, HandEnded, HandStart, KeyMoment, Output
from dealer_assist.audit.records import DealerAction, Flag
from dealer_assist.store import HandLog
from dealer_assist.store.jsonable import award_sentences, to_jsonable
from dealer_assist.vision.events import TableEvent

Image = npt.NDArray[np.uint8]
Encoder = Callable[[Image], bytes]


class RecentFrames:
    """The last `size` frames by index (half resolution, to keep memory small)."""

    def __init__(self, size: int = 120) -> None:
        self.size = size
        self._frames: OrderedDict[int, Image] = OrderedDict()

    def add(self, index: int, image: Image) -> None:
        self._frames[index] = np.ascontiguousarray(image[::2, ::2])
        while len(self._frames) > self.size:
            self._frames.popitem(last=False)

    def get(self, index: int | None) -> Image | None:
        """The frame `index` if still held, else the newest (None when there is none)."""
        if index is not None and index in self._frames:
            return self._frames[index]
        return next(reversed(self._frames.values())) if self._frames else None


class FrameLookup(Protocol):
    """Anything that hands back a recent frame by index (or the newest one)."""

    def get(self, index: int | None) -> Image | None: ...


def award_payload(out: AwardMade, flag_id: Callable[[int], int | None]) -> dict[str, Any]:
    """What the hand log records for an award: the award as JSON values and, for a provisional one, the log ids of the
    flags it waits on (`flag_id` maps a flag's number in the hand to its row id)."""
    payload: dict[str, Any] = to_jsonable(out.award)
    if out.pending:
        payload = {**payload, "pending_flag_ids": [flag_id(n) for n in out.pending]}
    return payload


class HandLogSink:
    """A `RefereeSink` writing to a `HandLog` session; maps referee numbers to log row ids."""

    def __init__(self, log: HandLog, session_id: int, *, frames: FrameLookup | None = None,
                 encode: Encoder | None = None) -> None:
        self.log = log
        self.session_id = session_id
        self.frames = frames
        self.encode = encode
        self.hand_ids: dict[int, int] = {}
        self._inputs: dict[tuple[int, int], tuple[str, int]] = {}
        self._flags: dict[tuple[int, int], int] = {}

    def _snapshot(self, hand: int, label: str, t: float, frame: int | None) -> str | None:
        if self.frames is None or self.encode is None:
            return None
        image = self.frames.get(frame)
        if image is None:
            return None
        return self.log.save_snapshot(self.hand_ids[hand], label, self.encode(image), t=t, frame=frame)

    def hand_started(self, start: HandStart) -> None:
        self.hand_ids[start.number] = self.log.start_hand(
            self.session_id, button=start.button, stacks=start.stacks_by_seat, game=start.rules.game,
            house_rules=start.rules.to_dict(), t=start.t, camera=start.camera)

    def recorded(self, hand: int, index: int, item: TableEvent | DealerAction, phase: str) -> None:
        hand_id = self.hand_ids[hand]
        if isinstance(item, DealerAction):
            ref = self.log.record_action(hand_id, item, phase=phase)
        else:
            ref = self.log.record_event(hand_id, item)
        self._inputs[(hand, index)] = (ref.table, ref.id)

    def output(self, hand: int, out: Output, number: int | None) -> None:
        hand_id = self.hand_ids[hand]
        if isinstance(out, Flag):
            sha = self._snapshot(hand, f"flag: {out.kind.value}", out.t, out.frame)
            ref = self.log.record_flag(hand_id, out, snapshot=sha)
            if number is not None:
                self._flags[(hand, number)] = ref.id
        elif isinstance(out, AwardMade):
            self._award(hand, hand_id, out)
        elif isinstance(out, KeyMoment):
            self._snapshot(hand, out.label, out.t, out.frame)

    def _award(self, hand: int, hand_id: int, out: AwardMade) -> None:
        """The award; a provisional one names the open flags' rows and says so in its explanation."""
        payload = award_payload(out, lambda n: self._flags.get((hand, n)))
        if not out.pending:
            self.log.record_award(hand_id, payload, t=out.t)
            return
        ids = payload["pending_flag_ids"]
        note = "Provisional: flag{} {} open; the floor decides whether the hand stands.".format(
            "s" if len(ids) > 1 else "", ", ".join(f"#{i}" for i in ids))
        self.log.record_award(hand_id, payload, t=out.t, explanation=[*award_sentences(payload), note])

    def corrected(self, hand: int, correction: Correction) -> None:
        hand_id = self.hand_ids[hand]
        target: int | None = None
        data: dict[str, object] = {}
        if correction.kind == "misread_card" and correction.target is not None:
            table, target = self._inputs[(hand, correction.target)]
            data = {"card": str(correction.card)}
            if correction.was is not None:
                data["was"] = str(correction.was)
            if table != "events":
                target = None
        elif correction.kind in ("accept_flag", "dismiss_flag") and correction.target is not None:
            target = self._flags.get((hand, correction.target))
        elif correction.kind == "void_hand":
            data = {"status": correction.status or "void"}
        self.log.record_correction(hand_id, correction.kind, reason=correction.reason, by=correction.by,
                                   target_id=target, data=data, t=correction.t)

    def hand_ended(self, end: HandEnded) -> None:
        self.log.end_hand(self.hand_ids[end.number], end.status, reason=end.reason, t=end.t)
