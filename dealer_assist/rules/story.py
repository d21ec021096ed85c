"""A hand told as plain text from its history: every card dealt, action, draw, show and award with why."""

from __future__ import annotations

from dealer_assist.cards import Card
from dealer_assist.rules.awards import award_sentences
from dealer_assist.rules.hand import Hand
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
    Posted,
    RaisedTo,
    Replaced,
    Reshuffled,
    Shown,
    Step,
)

_ORDINAL = ("1st", "2nd", "3rd")


def _card(card: Card | None) -> str:
    return "a face-down card" if card is None else str(card)


def round_name(index: int) -> str:
    """ "pre-draw", "after the 1st draw", ..."""
    return "pre-draw" if index == 0 else f"after the {_ORDINAL[index - 1]} draw"


def _action(step: Step) -> str:
    if isinstance(step, Folded):
        return f"Seat {step.seat} folds."
    if isinstance(step, Checked):
        return f"Seat {step.seat} checks."
    if isinstance(step, Called):
        return f"Seat {step.seat} calls {step.amount}" + (", all-in." if step.all_in else ".")
    if isinstance(step, BetTo):
        return f"Seat {step.seat} bets {step.amount}" + (", all-in." if step.all_in else ".")
    if isinstance(step, RaisedTo):
        text = f"Seat {step.seat} raises to {step.amount}"
        if step.all_in:
            text += ", all-in" + ("" if step.full else " (short of a full raise: does not reopen the betting)")
        return text + "."
    raise AssertionError(step)


def hand_story(hand: Hand) -> str:
    """The whole story so far, one event per line, sections for the deal, each round, draw and showdown."""
    rules = hand.rules
    lines = [
        f"{rules.describe().capitalize()}; button at seat {hand.button}.",
        "Seats: " + ", ".join(f"seat {s} ({hand.starting[i]} chips)" for i, s in enumerate(hand.seats)) + ".",
    ]
    section = ""
    dealt: dict[int, int] = {}

    def head(name: str) -> None:
        nonlocal section
        if section != name:
            section = name
            lines.append(f"-- {name} --")

    for step in hand.history:
        if isinstance(step, Posted):
            head("blinds and antes")
            lines.append(f"Seat {step.seat} posts the {step.blind} of {step.amount}.")
        elif isinstance(step, Dealt):
            head("deal")
            dealt[step.seat] = dealt.get(step.seat, 0) + 1
            lines.append(f"Seat {step.seat} gets card {dealt[step.seat]}: {_card(step.card)}.")
        elif isinstance(step, Folded | Checked | Called | BetTo | RaisedTo):
            head(f"betting {round_name(step.round)}")
            lines.append(_action(step))
        elif isinstance(step, Burned):
            head(f"{_ORDINAL[step.draw - 1]} draw")
            lines.append(f"The dealer burns {_card(step.card)}.")
        elif isinstance(step, Discarded):
            head(f"{_ORDINAL[step.draw - 1]} draw")
            if not step.count:
                lines.append(f"Seat {step.seat} stands pat.")
            else:
                faces = [str(c) for c in step.cards if c is not None]
                shown = f" ({' '.join(faces)})" if faces else ""
                lines.append(f"Seat {step.seat} discards {step.count}{shown}.")
        elif isinstance(step, Replaced):
            head(f"{_ORDINAL[step.draw - 1]} draw")
            lines.append(f"Seat {step.seat} is given {_card(step.card)}.")
        elif isinstance(step, Reshuffled):
            head(f"{_ORDINAL[step.draw - 1]} draw")
            extra = " with the last stub card" if step.last_card_included else ""
            lines.append(
                f"The stub ran out: burns and earlier rounds' discards are reshuffled{extra} into a new stub of "
                f"{step.count} cards (004)."
            )
        elif isinstance(step, Shown):
            head("showdown")
            unread = f" ({step.unread} more face up, unread)" if step.unread else ""
            lines.append(f"Seat {step.seat} shows {' '.join(map(str, step.cards))}{unread}.")
        elif isinstance(step, Mucked):
            head("showdown")
            lines.append(f"Seat {step.seat} mucks.")
        elif isinstance(step, Awarded):
            head("award")
            lines.extend(award_sentences(step.award))
    if hand.done:
        lines.append("Final stacks: " + ", ".join(f"seat {s} {hand.stacks[i]}" for i, s in enumerate(hand.seats)) + ".")
    else:
        lines.append(f"(hand in progress: {hand.phase})")
    return "\n".join(lines)
