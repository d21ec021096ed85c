"""A seat's show held back while its read is still growing, so that the hand log gets one show, not a string of them.

A table camera reads a spread's small corners a few at a time: the tracker's show of a seat grows over a second or two
(2 cards, then 3, then 4), each growth the seat's whole show again. Told as it grows, the log holds a show per new
card. Held until the read is whole (every card the seat holds) or has not grown for `settle_s` (the first show no
later than `wait_s` after the hand was turned up), a seat's show comes once or twice. The show keeps the time the
hand was turned up; only its telling waits, within the seconds the referee follows the table behind the camera
(`audit --horizon`, 3 s).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from dealer_assist.vision.events import CardsShown, TableEvent

_EPS = 1e-6


@dataclass(frozen=True, slots=True)
class _Held:
    show: CardsShown
    grew: float       # video time it last grew


class ShowHold:
    """Holds the newest show of each seat until it is whole or quiet for `settle_s`; a seat's first show no later
    than `wait_s` after the hand was turned up (its time), so that the referee, `audit --horizon` behind the camera,
    gets it in time order. A show told already was taken in its place; its growth waits only to settle."""

    def __init__(self, settle_s: float, wait_s: float) -> None:
        self.settle_s = settle_s
        self.wait_s = wait_s
        self._held: dict[int, _Held] = {}
        self._told: set[int] = set()       # seats whose show was told in this hand

    def __bool__(self) -> bool:
        return bool(self._held)

    def take(self, events: Iterable[TableEvent], now: float, holds: Callable[[int], int]) -> list[TableEvent]:
        """The `events` to tell now: the camera's shows among them are held (the newest per seat), and the held shows
        now due come out instead. `holds(seat)`: how many cards the seat holds (a show of that many is whole)."""
        out: list[TableEvent] = []
        for e in events:
            if isinstance(e, CardsShown) and not e.entered and self.wait_s > 0:
                self._held[e.seat] = _Held(e, now)
            else:
                out.append(e)
        for seat, h in list(self._held.items()):
            if (len(h.show.cards) >= holds(seat) or now + _EPS >= h.grew + self.settle_s
                    or (seat not in self._told and now + _EPS >= h.show.t + self.wait_s)):
                out.append(self._held.pop(seat).show)
                self._told.add(seat)
        return out

    def release(self) -> list[TableEvent]:
        """Every show held (the hand is over, or the source ended)."""
        out: list[TableEvent] = [h.show for h in self._held.values()]
        self._held.clear()
        self._told.clear()
        return out
