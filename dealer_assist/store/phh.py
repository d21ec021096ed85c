"""PHH (Poker Hand History, phh.readthedocs.io) text of stored hands, built from the recorded events.

Best effort from what the log holds: players are listed from the seat left of the button (the
button last), blinds, antes and bet sizes are read from the hand's house rules when they name
`small_blind`, `big_blind`, `ante`, `small_bet`, `big_bet`; one `d dh` line per card dealt or
replaced (`??` for a face-down card), `sd` for a discard, `sm` for a show, and the betting actions
from the dealer's entries. PHH has no Badacey variant: those hands are written with
`variant = "badacey"` and a comment saying so. Burned cards are not written.
"""

from __future__ import annotations

import contextlib
import tomllib
from collections.abc import Iterable, Iterator, Mapping
from itertools import chain
from typing import Any

from dealer_assist.store.records import HandStory, StoredAction, StoredEvent

_KEYS = ("small_blind", "big_blind", "ante", "small_bet", "big_bet")


def _find_numbers(data: Any, found: dict[str, int]) -> None:
    """The first numeric value of each key in `_KEYS`, anywhere in the nested house rules."""
    if isinstance(data, Mapping):
        for key, value in data.items():
            if key in _KEYS and isinstance(value, int | float) and key not in found:
                found[key] = int(value)
            else:
                _find_numbers(value, found)


def _stakes(house_rules: str) -> dict[str, int]:
    found: dict[str, int] = {}
    with contextlib.suppress(tomllib.TOMLDecodeError):
        _find_numbers(tomllib.loads(house_rules), found)
    return found


def _players(seats: Iterable[int], button: int) -> list[int]:
    """Seats in PHH order: clockwise from the first seat left of the button, the button last."""
    order = sorted(seats)
    at = next((i for i, s in enumerate(order) if s > button), 0)
    return order[at:] + order[:at]


def _cards(values: Iterable[Any]) -> str:
    return "".join("??" if v is None else str(v) for v in values)


def hand_phh(story: HandStory) -> str:
    """One hand as PHH (TOML) text."""
    hand = story.hand
    players = _players(hand.seats, hand.button)
    p = {seat: f"p{i + 1}" for i, seat in enumerate(players)}
    stakes = _stakes(story.house_rules)
    n = len(players)
    blinds = [0] * n
    if n >= 2:
        blinds[0 if n > 2 else 1] = stakes.get("small_blind", 0)
        blinds[1 if n > 2 else 0] = stakes.get("big_blind", 0)
    lines = [f"# Dealer Assist hand {hand.id}: table {hand.table}, hand #{hand.number}, dealer {hand.dealer}"]
    if hand.game == "badugi":
        lines.append('variant = "FB"')
    else:
        lines.append("# PHH has no variant for this game; the actions below follow PHH notation")
        lines.append(f'variant = "{hand.game}"')
    missing = [k for k in _KEYS if k not in stakes]
    if missing:
        lines.append(f"# not in the house rules, written as 0: {', '.join(missing)}")
    lines += [
        "ante_trimming_status = false",
        f"antes = {[stakes.get('ante', 0)] * n}",
        f"blinds_or_straddles = {blinds}",
        f"small_bet = {stakes.get('small_bet', stakes.get('big_blind', 0))}",
        f"big_bet = {stakes.get('big_bet', 2 * stakes.get('big_blind', 0))}",
        f"starting_stacks = {[hand.seats[s] for s in players]}",
        f"seats = {players}",
        "actions = [",
    ]
    actions: list[str] = []
    for record in story.records:
        if isinstance(record, StoredEvent):
            data = record.event.to_dict()
            who = p.get(data.get("seat", -1))
            kind = record.event.kind
            if who is None:
                continue
            if kind in ("dealt", "replaced"):
                actions.append(f"d dh {who} {_cards([data.get('card')])}")
            elif kind == "discarded":
                faces = data.get("cards") or [None] * int(data.get("count", 0))
                actions.append(f"{who} sd {_cards(faces)}".rstrip())
            elif kind == "shown":
                actions.append(f"{who} sm {_cards(data.get('cards', ()))}")
        elif isinstance(record, StoredAction) and record.seat in p:
            who = p[record.seat]
            if record.action == "fold":
                actions.append(f"{who} f")
            elif record.action in ("check", "call"):
                actions.append(f"{who} cc")
            else:
                actions.append(f"{who} cbr {record.amount}")
    lines += [f'  "{a}",' for a in actions]
    lines.append("]")
    return "\n".join(lines) + "\n"


def export_phh(stories: Iterable[HandStory]) -> Iterator[str]:
    """PHH text per hand; several hands are written as a .phhs file with a `[N]` section each."""
    items = iter(stories)
    first = next(items, None)
    if first is None:
        return
    second = next(items, None)
    if second is None:
        yield hand_phh(first)
        return
    for i, story in enumerate(chain((first, second), items), 1):
        yield f"[{i}]\n" + hand_phh(story) + "\n"
