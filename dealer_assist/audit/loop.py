"""The loop between the camera and the referee, with the referee's phase hint going back to the tracker.

    loop = RefereeLoop(referee, horizon_s=3.0, tracker=pipeline)
    loop.push(dealer_actions)                     # actions from a file: pushed up front
    for frame, events in pipeline.run(source):
        loop.push(events)
        outputs = loop.advance(frame.t)           # feeds the referee what is due, then tells the tracker
    loop.finish(last_t)

Table events and dealer actions are put back in time order `horizon_s` behind the video
(`InputOrderer`) and fed to the Referee. After each step the tracker is told the phase of the hand
as the referee sees it ("deal", "betting", "draw", "showdown": `Referee.vision_phase`), the seats it
knows have folded, and the video time it has followed the table up to (`as_of`: `horizon_s` behind
the frame). A tracker that sees a seat's cards all go waits for the referee to catch up with that
moment, then calls it a fold or a full discard (see `vision.tracker`); the phase of the hand now,
`horizon_s` behind, would be wrong around the end of each betting round and draw.

The desktop app's `LiveSession` runs the same loop on the UI thread (its tracker is on a worker thread: the hint
goes through a mailbox the worker reads before each frame), with its own `feed` (an item the referee cannot take
is flagged, not raised) and `drain()` at the end of the source (the session closes the referee when it stops).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Protocol

from dealer_assist.audit.ordering import DEFAULT_HORIZON_S, InputOrderer, Item
from dealer_assist.audit.outputs import Output
from dealer_assist.audit.referee import Referee
from dealer_assist.vision.tracker import PhaseHint


class PhaseListener(Protocol):
    """What hears the referee's phase hint: `vision.pipeline.Pipeline` or `vision.tracker.Tracker`."""

    def set_hint(self, hint: PhaseHint) -> None: ...


class RefereeLoop:
    """`push(items)` as they come, `advance(now)` each frame, `finish(t)` at the end (see the module notes)."""

    def __init__(self, referee: Referee, horizon_s: float = DEFAULT_HORIZON_S,
                 tracker: PhaseListener | None = None, feed: Callable[[Item], list[Output]] | None = None) -> None:
        self.referee = referee
        self.orderer = InputOrderer(horizon_s)
        self.tracker = tracker
        self.feed = feed if feed is not None else referee.feed
        """Gives the referee one item (the app's live session passes its own, which flags an item it cannot take)."""

    def push(self, items: Iterable[Item]) -> None:
        self.orderer.push(items)

    def advance(self, now: float) -> list[Output]:
        """Feed the referee what is `horizon_s` behind `now`, then give the tracker the referee's phase as of then."""
        outputs = self._feed_all(self.orderer.release(now))
        self.tell(now - self.orderer.horizon_s)
        return outputs

    def tell(self, as_of: float | None) -> None:
        """Give the tracker the referee's phase, folded seats, the seats whose draw may be under way, those done
        drawing in this draw, those still owed replacements and those dealt in, as of video time `as_of` (None:
        now)."""
        if self.tracker is not None:
            ref = self.referee
            self.tracker.set_hint(PhaseHint(ref.vision_phase, as_of, ref.folded_seats, ref.drawing_seats,
                                            ref.drawn_seats, ref.owed_seats, ref.seated_seats))

    def drain(self) -> list[Output]:
        """The source ended: feed everything still held (the referee stays open)."""
        return self._feed_all(self.orderer.flush())

    def finish(self, t: float) -> list[Output]:
        """The source ended at video time `t`: feed everything still held, then close the referee."""
        outputs = self.drain()
        self.referee.close(t)
        return outputs

    def _feed_all(self, items: Iterable[Item]) -> list[Output]:
        outputs: list[Output] = []
        for item in items:
            outputs += self.feed(item)
        return outputs
