"""The table as the app shows it: seats, the pots building, the current prompt (Qt-free).

The referee (or the demo, or a test) pushes state in; widgets subscribe to the signals.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Literal

from dealer_assist.app.models.signal import Signal
from dealer_assist.audit.records import Prompt
from dealer_assist.cards import Card
from dealer_assist.rules.badugi import evaluate_badugi
from dealer_assist.rules.lowball import evaluate_a5
from dealer_assist.rules.pots import build_pots

SeatStatus = Literal["in", "folded", "all-in", "out"]
Game = Literal["badugi", "badacey"]


@dataclass(frozen=True, slots=True)
class SeatState:
    """One seat as displayed. `cards` holds None for a face-down card, a Card once shown."""

    seat: int
    label: str = ""
    stack: int = 0
    cards: tuple[Card | None, ...] = ()
    status: SeatStatus = "in"
    draws: tuple[int, ...] = ()
    committed: int = 0


def hand_names(game: Game, cards: Sequence[Card | None]) -> tuple[str, ...]:
    """The spoken hand names when every card is face up, else ()."""
    if not cards or any(c is None for c in cards):
        return ()
    shown = [c for c in cards if c is not None]
    if game == "badacey":
        if len(shown) != 5:
            return (evaluate_badugi(shown).name,) if 1 <= len(shown) <= 5 else ()
        return (f"low: {evaluate_a5(shown).name}", f"badugi: {evaluate_badugi(shown).name}")
    if 1 <= len(shown) <= 5:
        return (evaluate_badugi(shown).name,)
    return ()


def draws_text(draws: Sequence[int], status: str = "in") -> str:
    """ "no draws yet", "drew 2", "drew 2, pat, 1"; a seat that folded before any draw "folded before the draw" (it
    will draw no more: "yet" would say otherwise)."""
    if not draws:
        return "folded before the draw" if status == "folded" else "no draws yet"
    return "drew " + ", ".join("pat" if n == 0 else str(n) for n in draws)


@dataclass(frozen=True, slots=True)
class PotRow:
    """A pot as the pots display shows it."""

    name: str
    amount: int
    eligible: tuple[int, ...]


def pot_rows(contributions: Mapping[int, int], live: Sequence[int]) -> tuple[tuple[PotRow, ...], dict[int, int]]:
    """Main then side pots from what each seat has put in so far, and any uncalled chips."""
    if not any(contributions.values()):
        return (), {}
    pots, returned = build_pots(contributions, live)
    rows = tuple(
        PotRow("Main pot" if i == 0 else f"Side pot {i}", p.amount, p.eligible) for i, p in enumerate(pots)
    )
    return rows, returned


class TableModel:
    """Seats, game, button, prompt. Emits `seats_changed(seat_numbers)`, `prompt_changed(prompt)`."""

    def __init__(self, game: Game = "badugi", seats: Sequence[SeatState] = (), button: int | None = None) -> None:
        self.game: Game = game
        self.button = button
        self._seats: dict[int, SeatState] = {s.seat: s for s in seats}
        self.prompt: Prompt = Prompt(phase="idle", message="waiting for a hand")
        self.seats_changed = Signal()
        self.prompt_changed = Signal()
        self.pots_changed = Signal()

    @property
    def seats(self) -> tuple[SeatState, ...]:
        return tuple(self._seats[k] for k in sorted(self._seats))

    def seat(self, number: int) -> SeatState:
        return self._seats[number]

    def set_seats(self, seats: Sequence[SeatState], game: Game | None = None, button: int | None = None) -> None:
        if game is not None:
            self.game = game
        if button is not None:
            self.button = button
        self._seats = {s.seat: s for s in seats}
        self.seats_changed.emit(tuple(self._seats))
        self.pots_changed.emit()

    def update_seat(self, number: int, **changes: object) -> None:
        self._seats[number] = replace(self._seats[number], **changes)  # type: ignore[arg-type]
        self.seats_changed.emit((number,))
        if "committed" in changes or "status" in changes:
            self.pots_changed.emit()

    def set_prompt(self, prompt: Prompt) -> None:
        betting_changed = (prompt.actor is None) != (self.prompt.actor is None)
        self.prompt = prompt
        self.prompt_changed.emit(prompt)
        if betting_changed:
            self.pots_changed.emit()

    def pots(self) -> tuple[tuple[PotRow, ...], dict[int, int]]:
        """The pots; while a betting round is open the top bet is not "uncalled" yet, so it counts in the
        last pot (dealers count the pot with the bets in it) instead of being listed to return."""
        contributions = {s.seat: s.committed for s in self._seats.values()}
        live = [s.seat for s in self._seats.values() if s.status in ("in", "all-in")]
        rows, returned = pot_rows(contributions, live)
        if self.prompt.actor is not None and returned and rows:
            last = rows[-1]
            rows = (*rows[:-1], PotRow(last.name, last.amount + sum(returned.values()), last.eligible))
            returned = {}
        return rows, returned
