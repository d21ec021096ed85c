"""Plain JSON values from the referee's records (dataclasses, enums, cards, mappings), by duck typing.

The store keeps no copy of the award types: whatever the referee hands over is turned into
dicts, lists, strings and numbers, so a later change to those types never breaks old logs.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from enum import Enum
from typing import Any

from dealer_assist.cards import Card


def to_jsonable(value: Any) -> Any:
    """A JSON-ready copy: dataclass -> dict of fields, Enum -> value, Card -> "Ah", tuple -> list."""
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, Enum):
        return to_jsonable(value.value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_jsonable(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Mapping):
        return {str(k): to_jsonable(v) for k, v in value.items()}
    if isinstance(value, Sequence | set | frozenset):
        return [to_jsonable(v) for v in value]
    raise TypeError(f"cannot store a {type(value).__name__} in the hand log: {value!r}")


def award_sentences(award: Mapping[str, Any]) -> list[str]:
    """The sentences a dealer reads out, from an award's JSON form (returned chips, then each pot)."""
    lines: list[str] = []
    returned = award.get("returned") or {}
    if isinstance(returned, Mapping):
        for seat, amount in sorted(returned.items(), key=lambda kv: int(kv[0])):
            if amount:
                lines.append(f"Seat {seat} takes back {amount} chip{'s' if amount != 1 else ''} uncalled.")
    for pot in award.get("pots") or ():
        if isinstance(pot, Mapping):
            lines.extend(str(s) for s in pot.get("explanation") or ())
    return lines
