"""What a vision worker thread and the UI thread's referee hand each other.

Worker -> UI, through the worker's `events` queue: each frame's table events, then `Reached(t)` (everything the video
gave up to time `t` is queued; the last one has `end=True`). The UI's `LiveSession` pushes the events into the
audit's `RefereeLoop` and advances it at each `Reached`, as `dealer-assist audit` does once a frame.

UI -> worker, through a `PhaseMailbox`: the referee's phase hint (`RefereeLoop` tells it as it would tell a
pipeline), which the worker hands to its pipeline before each frame (`deliver`). With `lockstep`, a worker that
is not paced by a clock waits for the hint of its previous frame (`wait_for`), so the tracker hears exactly what
the audit's loop would have told it, whatever the speed of either thread.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

from dealer_assist.audit.loop import PhaseListener
from dealer_assist.vision.tracker import PhaseHint

_EPS = 1e-9


@dataclass(frozen=True, slots=True)
class Reached:
    """In a worker's queue, after a frame's events: the video has been followed up to time `t` (`end`: and ended)."""

    t: float
    end: bool = False


class PhaseMailbox:
    """The newest phase hint, set on the UI thread (`set_hint`: a `PhaseListener`), read on the vision thread.

    The hint is a frozen `PhaseHint` swapped in under a lock and applied to the pipeline by the vision thread itself,
    so the tracker is only ever touched by the thread that runs it.
    """

    def __init__(self) -> None:
        self._changed = threading.Condition()
        self._hint: PhaseHint | None = None
        self._delivered: PhaseHint | None = None

    def set_hint(self, hint: PhaseHint) -> None:
        """The referee's hint (UI thread; an unknown phase was refused there, when the hint was made)."""
        with self._changed:
            self._hint = hint
            self._changed.notify_all()

    @property
    def hint(self) -> PhaseHint | None:
        """The newest hint, or None before the first."""
        with self._changed:
            return self._hint

    def deliver(self, listener: PhaseListener) -> bool:
        """Vision thread, before a frame: give `listener` (the pipeline) the newest hint if it has not had it yet."""
        hint = self.hint
        if hint is None or hint is self._delivered:
            return False
        listener.set_hint(hint)
        self._delivered = hint
        return True

    def wait_for(self, as_of: float, halt: threading.Event, poll_s: float = 0.05) -> bool:
        """Vision thread: block until a hint as of `as_of` or later has come (one without `as_of` is up to date), or
        `halt` is set; True when the hint came."""
        with self._changed:
            while not halt.is_set():
                hint = self._hint
                if hint is not None and (hint.as_of is None or hint.as_of + _EPS >= as_of):
                    return True
                self._changed.wait(poll_s)
        return False
