"""PHH hand histories (the PokerKit project's TOML standard): export a Hand, import one back.

Fixed-limit Badugi played under rules PokerKit shares (one-chip unit, odd chip clockwise from the
button, button small blind heads-up) is written as standard PHH, variant "FB", which
`pokerkit.HandHistory` loads and replays to the same `finishing_stacks`. Everything else (Badacey,
pot- and no-limit Badugi, other house options) is written with variant "_DA" and the spec's
user-defined, underscore-prefixed fields; README "Hand histories (PHH)" lists them. Every file
carries `_house_rules` (all HouseRules fields), `_button`, `_burn_cards`, so `load_hand` can rebuild
the same Hand step by step.

PHH has no sequential draw: each draw is written as every seat's `sd` (in order), then each seat's
`d dh` replacements, which is how PokerKit deals; `_house_rules.draw_procedure` says what happened.
"""

from __future__ import annotations

import tomllib
from collections import deque
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import tomli_w

from dealer_assist.cards import Card, parse_card
from dealer_assist.errors import DealerAssistError
from dealer_assist.rules.hand import Hand, Phase
from dealer_assist.rules.house_rules import HouseRules
from dealer_assist.rules.replay import MissingCard, dealer_step
from dealer_assist.rules.steps import (
    Awarded,
    BetTo,
    Burned,
    Called,
    Checked,
    Dealt,
    Discarded,
    Folded,
    Mucked,
    RaisedTo,
    Replaced,
    Reshuffled,
    Shown,
)

STANDARD_VARIANT = "FB"
CUSTOM_VARIANT = "_DA"


class PHHError(DealerAssistError, ValueError):
    """A PHH file this tool cannot read or replay; the message says which line or field."""


def is_standard(rules: HouseRules) -> bool:
    """Whether PokerKit's "FB" variant plays these rules to the same chips."""
    return (
        rules.game == "badugi"
        and rules.betting == "fixed_limit"
        and rules.draws == 3
        and rules.chip_unit == 1
        and rules.odd_chip_rule == "clockwise_from_button"
        and rules.heads_up_button_small_blind
        and not rules.uncapped_heads_up
        and (rules.bets_per_round_cap == 4)
    )


def _cards(cards: Iterable[Card | None]) -> str:
    return "".join("??" if c is None else str(c) for c in cards)


def _parse_cards(text: str) -> list[Card | None]:
    if len(text) % 2:
        raise PHHError(f"cards {text!r} are not 2-character cards like 'Ah' or '??'")
    out: list[Card | None] = []
    for k in range(0, len(text), 2):
        chunk = text[k : k + 2]
        out.append(None if chunk == "??" else parse_card(chunk))
    return out


def hand_actions(hand: Hand) -> list[str]:
    """The PHH action lines of a hand (player p1 is the first seat left of the button)."""
    actions: list[str] = []
    p = {s: f"p{i + 1}" for i, s in enumerate(hand.seats)}
    deal: dict[int, list[Card | None]] = {}
    replacements: dict[int, list[Card | None]] = {}

    def flush_deal() -> None:
        for seat in hand.seats:
            if deal.get(seat):
                actions.append(f"d dh {p[seat]} {_cards(deal[seat])}")
        deal.clear()

    def flush_replacements() -> None:
        for seat in hand.seats:
            if replacements.get(seat):
                actions.append(f"d dh {p[seat]} {_cards(replacements[seat])}")
        replacements.clear()

    current_draw: int | None = None
    for step in hand.history:
        if isinstance(step, Dealt):
            deal.setdefault(step.seat, []).append(step.card)
            continue
        flush_deal()
        draw = step.draw if isinstance(step, Discarded | Burned | Reshuffled | Replaced) else None
        if draw != current_draw:
            flush_replacements()
            current_draw = draw
        if isinstance(step, Replaced):
            replacements.setdefault(step.seat, []).append(step.card)
            continue
        if isinstance(step, Discarded):
            actions.append(f"{p[step.seat]} sd {_cards(step.cards)}".rstrip())
        elif isinstance(step, Folded):
            actions.append(f"{p[step.seat]} f")
        elif isinstance(step, Checked | Called):
            actions.append(f"{p[step.seat]} cc")
        elif isinstance(step, BetTo | RaisedTo):
            actions.append(f"{p[step.seat]} cbr {step.amount}")
        elif isinstance(step, Shown):
            actions.append(f"{p[step.seat]} sm {_cards((*step.cards, *[None] * step.unread))}")
        elif isinstance(step, Mucked):
            actions.append(f"{p[step.seat]} sm")
    flush_deal()
    flush_replacements()
    last = hand.history[-1] if hand.history else None
    if isinstance(last, Awarded) and any(isinstance(s, Mucked) for s in hand.history):
        # Everyone else mucked: the last hand in wins unseen. PHH's showdown still needs its cards.
        shown = {s.seat for s in hand.history if isinstance(s, Shown)}
        for i, seat in enumerate(hand.seats):
            if hand.live[i] and seat not in shown and None not in hand.hands[i]:
                actions.append(f"{p[seat]} sm {_cards(hand.hands[i])} # wins without showing")
    return actions


def hand_to_phh(hand: Hand, /, **extra: Any) -> dict[str, Any]:
    """The PHH fields of a hand as a dict (standard FB when the rules allow, else variant "_DA")."""
    rules = hand.rules
    n = len(hand.seats)
    # PHH lists blinds by player (p1 first left of the button); PokerKit swaps them itself heads-up.
    blinds = [rules.small_blind, rules.big_blind] + [0] * (n - 2)
    data: dict[str, Any] = {
        "variant": STANDARD_VARIANT if is_standard(rules) else CUSTOM_VARIANT,
        "ante_trimming_status": True,
        "antes": [rules.ante] * n,
        "blinds_or_straddles": blinds,
    }
    if rules.betting == "fixed_limit":
        data["small_bet"] = rules.small_bet
        data["big_bet"] = rules.big_bet
    else:
        data["min_bet"] = rules.big_blind
    data["starting_stacks"] = list(hand.starting)
    data["actions"] = hand_actions(hand)
    data["seats"] = list(hand.seats)
    if hand.done:
        data["finishing_stacks"] = list(hand.stacks)
    data.update(extra)
    data["_button"] = hand.button
    data["_burn_cards"] = [str(s.card) if s.card else "??" for s in hand.history if isinstance(s, Burned)]
    data["_house_rules"] = rules.to_dict()
    if data["variant"] == CUSTOM_VARIANT:
        data["_game"] = rules.game
        data["_betting"] = rules.betting
        data["_draws"] = rules.draws
    return data


def dumps(hand: Hand, /, **extra: Any) -> str:
    """The hand as PHH text."""
    return tomli_w.dumps(hand_to_phh(hand, **extra))


def dump(hand: Hand, path: str | Path, /, **extra: Any) -> Path:
    out = Path(path)
    out.write_text(dumps(hand, **extra), "utf-8")
    return out


def _rules_of(data: dict[str, Any]) -> HouseRules:
    """House rules from `_house_rules`, or from the standard FB fields of a file made elsewhere."""
    if "_house_rules" in data:
        return HouseRules.from_dict(dict(data["_house_rules"]))
    if data.get("variant") != STANDARD_VARIANT:
        raise PHHError(f"variant {data.get('variant')!r} without _house_rules; accepted: FB, or a file this tool wrote")
    antes = data.get("antes") or [0]
    blinds = data.get("blinds_or_straddles") or [0, 0]
    return HouseRules(
        small_blind=int(blinds[0]), big_blind=int(blinds[1]), ante=int(max(antes)),
        small_bet=int(data["small_bet"]), big_bet=int(data["big_bet"]),
        blind_counts_as_bet=False, short_all_in_rule="pokerkit", draw_procedure="discard_then_replace",
    )


def loads(text: str) -> Hand:
    """Rebuild a Hand from PHH text by replaying every action through the rules (illegal ones raise)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise PHHError(f"not PHH (TOML): {exc}") from None
    rules = _rules_of(data)
    stacks_list = [int(v) for v in data["starting_stacks"]]
    seats = [int(s) for s in data.get("seats") or range(1, len(stacks_list) + 1)]
    button = int(data.get("_button", max(seats)))
    hand = Hand(rules, dict(zip(seats, stacks_list, strict=True)), button)
    index_seat = list(hand.seats)
    cards: dict[int, deque[Card | None]] = {s: deque() for s in index_seat}
    moves: deque[tuple[int, list[str]]] = deque()
    for line in data.get("actions", []):
        words = line.split("#")[0].split()
        if not words:
            continue
        if words[:2] == ["d", "dh"]:
            cards[index_seat[int(words[2][1:]) - 1]].extend(_parse_cards(words[3]))
        elif words[0] == "d":
            raise PHHError(f"action {line!r}: board cards have no place in a draw game")
        else:
            moves.append((index_seat[int(words[0][1:]) - 1], words[1:]))
    burns = deque(None if c == "??" else parse_card(c) for c in data.get("_burn_cards", []))
    try:
        _replay(hand, cards, moves, burns)
    except (IndexError, MissingCard):
        raise PHHError("the actions end before the hand does") from None
    finishing = data.get("finishing_stacks")
    if finishing is not None and hand.done and list(finishing) != hand.stacks:
        raise PHHError(f"finishing_stacks {list(finishing)} differ from the replayed stacks {hand.stacks}")
    return hand


def _replay(
    hand: Hand,
    cards: dict[int, deque[Card | None]],
    moves: deque[tuple[int, list[str]]],
    burns: deque[Card | None],
) -> None:
    while hand.phase is not Phase.DONE:
        if dealer_step(hand, cards, burns):
            continue
        if not moves:
            return
        seat, words = moves.popleft()
        _move(hand, seat, words)


def _move(hand: Hand, seat: int, words: list[str]) -> None:
    verb = words[0]
    if verb == "f":
        hand.fold(seat)
    elif verb == "cc":
        if hand.can_check(seat):
            hand.check(seat)
        else:
            hand.call(seat)
    elif verb == "cbr":
        amount = int(words[1])
        if hand.can_bet(amount, seat) or (hand.options() is not None and max(hand.bets) == 0):
            hand.bet(amount, seat)
        else:
            hand.raise_to(amount, seat)
    elif verb == "sd":
        hand.discard(seat, _parse_cards(words[1]) if len(words) > 1 else [])
    elif verb == "sm":
        if len(words) == 1:
            hand.muck(seat, out_of_turn=seat != hand.next_shower)   # a seat may give up its hand before its turn
        else:
            shown = _parse_cards(words[1])   # "??": a card turned up that the camera did not read
            hand.show(seat, [c for c in shown if c is not None], unread=sum(c is None for c in shown))
    else:
        raise PHHError(f"action {verb!r} of seat {seat} is not a draw-game action; accepted: f cc cbr sd sm")


def load(path: str | Path) -> Hand:
    return loads(Path(path).read_text("utf-8"))
