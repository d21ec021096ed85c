"""The referee's records into the hand log, as they happen (the adapter between `audit` and `store`).

Each referee record is committed before the next input is refereed. Key frames (deal complete, each
draw, showdown, each flag) are saved as JPEG when a frame source is attached: the frame the record
refers to when it is still held, else the nearest frame held, and the snapshot row names the frame it shows.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
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


@dataclass(frozen=True, slots=True)
class HeldFrame:
    """A frame still held for key frames: its index in the source, its time when known, its (shrunk) image."""

    index: int
    t: float | None
    image: Image


class RecentFrames:
    """The last `size` frames by index, and every `older_every`-th frame before them back to `older` such frames
    (half resolution, to keep memory small): a flag raised seconds after the frame it names (a skipped seat is
    known only when the deal ends) still finds that frame or one a few frames from it."""

    def __init__(self, size: int = 120, *, fps: float | None = None, older: int = 120, older_every: int = 5) -> None:
        self.size = size
        self.fps = fps if fps is not None and fps > 0 else None
        self.older = older
        self.older_every = max(1, older_every)
        self._frames: OrderedDict[int, Image] = OrderedDict()
        self._older: OrderedDict[int, Image] = OrderedDict()

    def add(self, index: int, image: Image) -> None:
        self._frames[index] = np.ascontiguousarray(image[::2, ::2])
        while len(self._frames) > self.size:
            gone, old = self._frames.popitem(last=False)
            if gone % self.older_every == 0:
                self._older[gone] = old
                while len(self._older) > self.older:
                    self._older.popitem(last=False)

    def nearest(self, index: int | None, t: float | None = None) -> HeldFrame | None:
        """Frame `index` (or the frame at time `t`) if held, else the nearest one held; the newest when neither is
        given; None when nothing is held."""
        if index is None and t is not None and self.fps is not None:
            index = round(t * self.fps)
        held = [*self._older, *self._frames]
        if not held:
            return None
        at = held[-1] if index is None else min(held, key=lambda i: (abs(i - index), -i))
        image = self._frames[at] if at in self._frames else self._older[at]
        return HeldFrame(at, at / self.fps if self.fps is not None else (t if at == index else None), image)


class FrameLookup(Protocol):
    """Anything that hands back a held frame nearest an index or a time (see `RecentFrames.nearest`)."""

    def nearest(self, index: int | None, t: float | None = None) -> HeldFrame | None: ...


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
        """The key frame of a record at (`t`, `frame`); the row names the frame the picture really shows."""
        if self.frames is None or self.encode is None:
            return None
        held = self.frames.nearest(frame, t)
        if held is None:
            return None
        if frame is not None and held.index != frame:
            label = f"{label} (frame {held.index}, the nearest held: frame {frame} was no longer held)"
        return self.log.save_snapshot(self.hand_ids[hand], label, self.encode(held.image), t=held.t,
                                      frame=held.index)

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
