"""Puts vision events and dealer actions back in time order before the referee sees them.

The tracker confirms an event some frames after it began (a card must rest 0.15 s, a zone must
empty for 0.8 s, a fold may wait 2 s), and stamps it with the frame where it began; actions from a
file carry their own times. Items are held until the video is `horizon_s` past them, then released
sorted by time, events before actions at the same time (the table moves, then the dealer enters).
A camera stamps a card's landing a frame or two after it lay there (the detector must see it rest), so an event
up to `CAMERA_LAG_S` after a dealer entry still goes before it: the entry answered the table as it stood.
An item older than what was already released goes out at once, in arrival order.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable

from dealer_assist.audit.records import DealerAction
from dealer_assist.vision.events import TableEvent

Item = TableEvent | DealerAction
DEFAULT_HORIZON_S = 3.0
CAMERA_LAG_S = 0.1


class InputOrderer:
    """`push(items)`, then `release(now)` each frame; `flush()` at the end."""

    def __init__(self, horizon_s: float = DEFAULT_HORIZON_S) -> None:
        self.horizon_s = horizon_s
        self._heap: list[tuple[float, int, int, Item]] = []
        self._seq = 0
        self._released_t = float("-inf")

    def push(self, items: Iterable[Item]) -> None:
        for item in items:
            action = isinstance(item, DealerAction)
            t = item.t if action else item.t - CAMERA_LAG_S
            heapq.heappush(self._heap, (max(t, self._released_t), int(action), self._seq, item))
            self._seq += 1

    def release(self, now: float) -> list[Item]:
        """Items at least `horizon_s` older than `now`, in order."""
        out: list[Item] = []
        while self._heap and self._heap[0][0] <= now - self.horizon_s:
            t, _, _, item = heapq.heappop(self._heap)
            self._released_t = max(self._released_t, t)
            out.append(item)
        return out

    def held(self) -> list[Item]:
        """What is held, in the order it will be released."""
        return [entry[3] for entry in sorted(self._heap)]

    def flush(self) -> list[Item]:
        out = [heapq.heappop(self._heap)[3] for _ in range(len(self._heap))]
        if out:
            self._released_t = max(self._released_t, max(i.t for i in out))
        return out

    def __len__(self) -> int:
        return len(self._heap)
