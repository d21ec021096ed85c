"""PHH (Poker Hand History) text of stored hands.

First choice: replay the hand's recorded cards, draws, shows and betting actions through the
rules engine (`rules.Hand`, under the hand's recorded house rules) and write it with
`dealer_assist.rules.phh.dumps`, so the file is exactly what the rules export (standard `FB` where
PokerKit can replay it, with `finishing_stacks`). A seat that did not declare a discard in its
turn is taken to stand pat, one that did not show in its turn to muck.

When the recorded hand cannot be replayed (an irregular deal or draw the referee flagged, a hand
cut short, no house rules recorded), it is written straight from the records instead, best effort,
with a comment giving the reason: players are listed from the seat left of the button (the
button last), blinds, antes and bet sizes are read from the hand's house rules when they name
`small_blind`, `big_blind`, `ante`, `small_bet`, `big_bet`; one `d dh` line per card dealt or
replaced (`??` for a face-down card), `sd` for a discard, `sm` for a show, and the betting actions
from the dealer's entries. PHH has no Badacey variant: those hands are written with
`variant = "badacey"` and a comment saying so. Burned cards are not written.

A show the camera read in part replays as one show of every card read, the rest unread (`Hand.show(unread=)`,
written `??`), when the award can be made around them; otherwise it is written from the records.
"""

from __future__ import annotations

import contextlib
import json
import re
import tomllib
from collections import deque
from collections.abc import Iterable, Iterator, Mapping
from itertools import chain
from typing import Any

from dealer_assist.cards import Card
from dealer_assist.errors import DealerAssistError
from dealer_assist.rules import phh as rules_phh
from dealer_assist.rules.hand import Hand, Phase
from dealer_assist.rules.house_rules import HouseRules
from dealer_assist.rules.replay import dealer_step
from dealer_assist.store.records import HandStory, StoredAction, StoredCorrection, StoredEvent
from dealer_assist.store.text import printable
from dealer_assist.vision.events import CardBurned, CardDealt, CardReplaced, CardsDiscarded, CardsShown

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
    """Blinds, ante and bet sizes named in the house rules TOML (unreadable TOML gives none)."""
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
    """Cards run together as PHH writes them, `??` for one not seen."""
    return "".join("??" if v is None else str(v) for v in values)


def recorded_phh(story: HandStory) -> str:
    """One hand as PHH (TOML) text written straight from the records (no rules replay)."""
    hand = story.hand
    players = _players(hand.seats, hand.button)
    p = {seat: f"p{i + 1}" for i, seat in enumerate(players)}
    stakes = _stakes(story.house_rules)
    n = len(players)
    blinds = [0] * n
    if n >= 2:
        blinds[0 if n > 2 else 1] = stakes.get("small_blind", 0)
        blinds[1 if n > 2 else 0] = stakes.get("big_blind", 0)
    lines = [printable(f"# Dealer Assist hand {hand.id}: table {hand.table}, hand #{hand.number}, "
                       f"dealer {hand.dealer}")]  # a stored newline would end the comment
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
    held: dict[str, int] = {}     # cards in front of each player, for the unread part of a show
    for record in story.records:
        if isinstance(record, StoredEvent):
            data = record.event.to_dict()
            who = p.get(data.get("seat", -1))
            kind = record.event.kind
            if who is None:
                continue
            if kind in ("dealt", "replaced"):
                held[who] = held.get(who, 0) + 1
                actions.append(f"d dh {who} {_cards([data.get('card')])}")
            elif kind == "discarded":
                faces = data.get("cards") or [None] * int(data.get("count", 0))
                held[who] = held.get(who, 0) - len(faces)
                actions.append(f"{who} sd {_cards(faces)}".rstrip())
            elif kind == "shown":
                # cards the camera did not read are `??` (a bare "sm" would say the hand was mucked)
                cards = list(data.get("cards", ()))
                cards += [None] * max(held.get(who, 0) - len(cards), 0 if cards else 1)
                actions.append(f"{who} sm {_cards(cards)}")
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
    """PHH text per hand; several hands are written as a .phhs file with a `[N]` table each (PokerKit's
    `HandHistory.dumps_all` convention), the hand's own tables nested under it as `[N.name]`."""
    items = iter(stories)
    first = next(items, None)
    if first is None:
        return
    second = next(items, None)
    if second is None:
        yield hand_phh(first)
        return
    for i, story in enumerate(chain((first, second), items), 1):
        yield f"[{i}]\n" + _nested(hand_phh(story), str(i)) + "\n"


def _nested(text: str, key: str) -> str:
    """One hand's PHH text with its table headers moved under `[key]` (`[_house_rules]` -> `[key._house_rules]`),
    so the hands of a .phhs file stay apart. Only headers start a line with `[`: values are written inline, and the
    lines of a multi-line array are indented."""
    return re.sub(r"^(\[\[?)", lambda m: f"{m.group(1)}{key}.", text, flags=re.MULTILINE)


def _queues(story: HandStory) -> tuple[dict[int, deque[Card | None]], deque[Card | None], deque[_Move]]:
    """Cards per seat (dealt and replaced, in order), burn cards, and the seats' moves in order."""
    cards: dict[int, deque[Card | None]] = {seat: deque() for seat in story.hand.seats}
    burns: deque[Card | None] = deque()
    moves: deque[_Move] = deque()
    for record in story.records:
        if isinstance(record, StoredEvent):
            ev = record.event
            if isinstance(ev, CardDealt | CardReplaced):
                cards.setdefault(ev.seat, deque()).append(ev.card)
            elif isinstance(ev, CardBurned):
                burns.append(None)
            elif isinstance(ev, CardsDiscarded):
                faces: list[Card | None] = list(ev.cards) if ev.cards else [None] * ev.count
                moves.append((ev.seat, "discard", faces))
            elif isinstance(ev, CardsShown):
                last = moves[-1] if moves else None
                if last is not None and last[:2] == (ev.seat, "show"):
                    # The camera read more of the same turned-up hand: one show of every card read.
                    last[2].extend(c for c in ev.cards if c not in last[2])
                else:
                    moves.append((ev.seat, "show", list(ev.cards)))
        elif isinstance(record, StoredAction):
            moves.append((record.seat, record.action, record.amount))
    return cards, burns, moves


_Move = tuple[int, str, Any]


def _step(hand: Hand, move: _Move) -> None:
    """Apply one recorded move to the rules engine's hand (an illegal one raises)."""
    seat, verb, arg = move
    if verb == "fold":
        hand.fold(seat)
    elif verb == "check":
        hand.check(seat)
    elif verb == "call":
        hand.call(seat)
    elif verb == "bet":
        hand.bet(int(arg), seat)
    elif verb == "raise":
        hand.raise_to(int(arg), seat)
    elif verb == "discard":
        hand.discard(seat, arg)
    elif verb == "show":
        # Fewer cards than a hand holds: the rest were face up but unread (the award bounds them, or refuses).
        hand.show(seat, arg, unread=max(0, hand.rules.hand_size - len(arg)))
    else:
        raise DealerAssistError(f"seat {seat}: {verb} has no place in the hand")


def replay(story: HandStory) -> Hand:
    """The hand rebuilt through the rules from its records; raises where the records break a rule."""
    if not story.house_rules.strip():
        raise DealerAssistError("no house rules were recorded for the hand")
    rules = HouseRules.from_toml(story.house_rules)
    hand = Hand(rules, story.hand.seats, story.hand.button)
    cards, burns, moves = _queues(story)
    while hand.phase is not Phase.DONE:
        if dealer_step(hand, cards, burns):
            continue
        phase = hand.phase
        if phase is Phase.DRAWING:
            seat = hand.next_discarder
            assert seat is not None
            if moves and moves[0][:2] == (seat, "discard"):
                _step(hand, moves.popleft())
            else:
                hand.discard(seat, [])  # no discard seen in its turn: it stood pat
        elif phase is Phase.SHOWDOWN:
            seat = hand.next_shower
            assert seat is not None
            if moves and moves[0][:2] == (seat, "show"):
                _step(hand, moves.popleft())
            else:
                hand.muck(seat)
        else:
            if not moves:
                raise DealerAssistError(f"the records end in the {phase} phase, before the hand does")
            _step(hand, moves.popleft())
    if moves:
        raise DealerAssistError(f"{len(moves)} recorded move(s) left after the hand ended, first {moves[0]}")
    return hand


def floor_corrections(story: HandStory) -> list[str]:
    """The floor's corrections of the hand, one line each, for the PHH's `_floor_corrections`: the actions stay as
    the camera and the dealer recorded them, and a reader of the file alone still learns the hand was voided or a
    card misread."""
    out = []
    for r in story.records:
        if isinstance(r, StoredCorrection):
            what = f"{r.kind} of {r.target_table[:-1]} {r.target_id}" if r.target_table != "hands" else r.kind
            data = f" {json.dumps(r.data, sort_keys=True)}" if r.data else ""
            out.append(printable(f"#{r.id} {what}{data} by {r.by}: {r.reason}"))
    return out


def hand_phh(story: HandStory) -> str:
    """One hand as PHH text: replayed through the rules if it can be, else straight from the records."""
    corrections = floor_corrections(story)
    try:
        hand = replay(story)
    except (DealerAssistError, ValueError, AssertionError) as exc:
        why = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        text = f"# not replayable through the rules engine ({why}); written from the records\n" + recorded_phh(story)
        if corrections:
            text += f"_floor_corrections = {json.dumps(corrections)}\n"   # JSON strings are TOML basic strings
        return text
    extra: dict[str, Any] = {"_floor_corrections": corrections} if corrections else {}
    return rules_phh.dumps(hand, _log_hand=story.hand.id, _table=story.hand.table, _hand_number=story.hand.number,
                           _dealer=story.hand.dealer, **extra)
