"""Step records of a hand (what happened, frozen, PokerKit style) and the IllegalStep error."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import Any, ClassVar, Literal, TypeVar

from dealer_assist.cards import Card
from dealer_assist.errors import DealerAssistError
from dealer_assist.rules.awards import Award

Forced = Literal["ante", "small blind", "big blind"]
S = TypeVar("S", bound="Step")


class IllegalStep(DealerAssistError):
    """A step the rules do not allow now; the message names the rule and the house option behind it."""

    def __init__(self, what: str, rule: str, option: str | None = None) -> None:
        self.what = what
        self.rule = rule
        self.option = option
        text = f"{what}: {rule}"
        if option:
            text += f" (house option {option})"
        super().__init__(text)


@dataclass(frozen=True, slots=True)
class Step:
    """Base of every step record; `kind` names the step."""

    kind: ClassVar[str] = "step"


@dataclass(frozen=True, slots=True)
class Posted(Step):
    """A forced bet: ante or blind (amount may be short when the stack is)."""

    kind: ClassVar[str] = "post"
    seat: int
    blind: Forced
    amount: int


@dataclass(frozen=True, slots=True)
class Dealt(Step):
    """One card of the initial deal; `card` is None when it went face down unseen."""

    kind: ClassVar[str] = "deal"
    seat: int
    card: Card | None


@dataclass(frozen=True, slots=True)
class Burned(Step):
    """The burn card before a draw round's replacements."""

    kind: ClassVar[str] = "burn"
    draw: int
    card: Card | None


@dataclass(frozen=True, slots=True)
class Folded(Step):
    kind: ClassVar[str] = "fold"
    round: int
    seat: int


@dataclass(frozen=True, slots=True)
class Checked(Step):
    kind: ClassVar[str] = "check"
    round: int
    seat: int


@dataclass(frozen=True, slots=True)
class Called(Step):
    """A call of `amount` more chips (less than the bet when all-in)."""

    kind: ClassVar[str] = "call"
    round: int
    seat: int
    amount: int
    all_in: bool


@dataclass(frozen=True, slots=True)
class BetTo(Step):
    """The first bet of a round; `amount` is the seat's total bet in the round."""

    kind: ClassVar[str] = "bet"
    round: int
    seat: int
    amount: int
    all_in: bool


@dataclass(frozen=True, slots=True)
class RaisedTo(Step):
    """A raise; `amount` is the seat's total bet in the round; `full` is False for a short all-in."""

    kind: ClassVar[str] = "raise"
    round: int
    seat: int
    amount: int
    all_in: bool
    full: bool


@dataclass(frozen=True, slots=True)
class Discarded(Step):
    """A seat's declaration in a draw: `count` cards out (0 = stands pat); faces if seen."""

    kind: ClassVar[str] = "discard"
    draw: int
    seat: int
    count: int
    cards: tuple[Card | None, ...]


@dataclass(frozen=True, slots=True)
class Replaced(Step):
    """One replacement card given to a seat in a draw."""

    kind: ClassVar[str] = "replace"
    draw: int
    seat: int
    card: Card | None


@dataclass(frozen=True, slots=True)
class Reshuffled(Step):
    """Burns and earlier rounds' discards and folded hands shuffled into a new stub (seed 004)."""

    kind: ClassVar[str] = "reshuffle"
    draw: int
    count: int
    last_card_included: bool


@dataclass(frozen=True, slots=True)
class Shown(Step):
    """A hand turned face up; `unread` of its cards were face up but not read (a camera's show), `cards` the rest."""

    kind: ClassVar[str] = "show"
    seat: int
    cards: tuple[Card, ...]
    unread: int = 0


@dataclass(frozen=True, slots=True)
class Mucked(Step):
    kind: ClassVar[str] = "muck"
    seat: int


@dataclass(frozen=True, slots=True)
class Awarded(Step):
    """The pots were awarded; `uncontested` when every other seat folded or mucked."""

    kind: ClassVar[str] = "award"
    award: Award
    uncontested: bool


def fast_constructor(cls: type[S]) -> Callable[..., S]:
    """A positional constructor for a frozen step record that skips the dataclass __init__.

    A frozen dataclass sets each field through `object.__setattr__`, which costs about twice as
    much as writing the slots directly; the Hand records some hundred steps a hand, so it uses these.
    The objects are ordinary, equal to ones built by `cls(...)`, and as immutable.
    """
    names = [f.name for f in fields(cls)]
    namespace: dict[str, Any] = {"new": object.__new__, "cls": cls}
    for name in names:
        namespace[f"set_{name}"] = getattr(cls, name).__set__
    body = "".join(f"    set_{name}(o, {name})\n" for name in names)
    exec(f"def make({', '.join(names)}):\n    o = new(cls)\n{body}    return o\n", namespace)
    make: Callable[..., S] = namespace["make"]
    return make


make_posted = fast_constructor(Posted)
make_dealt = fast_constructor(Dealt)
make_burned = fast_constructor(Burned)
make_folded = fast_constructor(Folded)
make_checked = fast_constructor(Checked)
make_called = fast_constructor(Called)
make_bet = fast_constructor(BetTo)
make_raised = fast_constructor(RaisedTo)
make_discarded = fast_constructor(Discarded)
make_replaced = fast_constructor(Replaced)
make_shown = fast_constructor(Shown)


class RecordCache:
    """Shared immutable records for the most common steps (a flyweight): equal records are
    interchangeable, and a dictionary lookup by small integers costs less than building one.
    Bounded, so a long session cannot grow it without limit."""

    __slots__ = ("_build", "_cache", "_limit", "records")

    def __init__(self, build: Callable[..., Any], limit: int = 50_000) -> None:
        self._build = build
        self._cache: dict[int, Any] = {}
        self._limit = limit
        self.records = self._cache  # read-only use: `records.get(key)` before `get(key, *args)`

    def get(self, key: int, *args: Any) -> Any:
        """The record for `args`; `key` must be a one-to-one integer code of `args`."""
        record = self._cache.get(key)
        if record is None:
            record = self._build(*args)
            if len(self._cache) < self._limit:
                self._cache[key] = record
        return record


DEALT_CACHE = RecordCache(make_dealt)
REPLACED_CACHE = RecordCache(make_replaced)
CHECKED_CACHE = RecordCache(make_checked)
CALLED_CACHE = RecordCache(make_called)
