"""The dealer's action pad as pure logic: legal actions from a Prompt, keyboard entry, refusals.

Keys (the widget maps Qt key events to these names): ``F`` fold, ``C`` check or call, ``B`` bet,
``R`` raise, digits type the amount (the total bet to), ``Backspace`` deletes a digit, ``Escape``
clears, ``Enter`` confirms. ``S`` then digits then ``Enter`` chooses the seat the action is for
(by default the seat to act); an action for any other seat is refused with the reason. ``H`` asks for the
"Shown hand" entry (a hand turned up at showdown that the camera could not read, keyed in by the dealer):
it is open only while the window says one can be taken (`set_show_entry`), else refused with the reason.
"""

from __future__ import annotations

from dataclasses import dataclass

from dealer_assist.app.models.signal import Signal
from dealer_assist.audit.records import ACTION_KINDS, ActionKind, DealerAction, LegalAction, Prompt
from dealer_assist.cards import Card, parse_cards
from dealer_assist.errors import DealerAssistError

LABELS: dict[ActionKind, str] = {"fold": "Fold", "check": "Check", "call": "Call", "bet": "Bet", "raise": "Raise"}
_KEY_ACTIONS: dict[str, ActionKind] = {"F": "fold", "C": "check", "B": "bet", "R": "raise"}
SHORTCUTS: dict[ActionKind, str] = {"fold": "F", "check": "C", "call": "C", "bet": "B", "raise": "R"}


SHOW_KEY = "H"
SHOW_LABEL = "Shown hand…"
NO_SHOW_ENTRY = "no camera's table is being refereed: a shown hand is keyed in at a camera's table's showdown"


@dataclass(frozen=True, slots=True)
class ShowEntry:
    """Whether a shown hand can be keyed in now: `reason` why not (None: it can), the seat to offer first (the one
    the referee waits on to show, else one whose show went unread) and the number of cards in a hand."""

    reason: str | None = NO_SHOW_ENTRY
    seat: int | None = None
    hand_size: int = 4

    @property
    def example(self) -> str:
        return " ".join(("Ah", "2c", "3d", "4s", "5h", "6c")[: self.hand_size])


def parse_shown_cards(text: str, hand_size: int = 4) -> tuple[Card, ...]:
    """The cards of a shown hand typed by the dealer ("Ah 2c 3d 4s", "ah,2c,3d,4s", "Ah2c3d4s"); raises
    DealerAssistError in one line naming what is accepted. How many make a hand is the referee's to check."""
    example = ShowEntry(hand_size=hand_size).example
    if not text.strip():
        raise DealerAssistError(f"type the seat's cards, e.g. {example}")
    try:
        return parse_cards(text)
    except DealerAssistError as exc:
        raise DealerAssistError(f"{exc}; type the hand as e.g. {example}") from None


@dataclass(frozen=True, slots=True)
class ButtonState:
    """How one action button looks: enabled or not, its text, and the tooltip (the reason when disabled)."""

    action: ActionKind
    enabled: bool
    text: str
    tooltip: str


def amount_text(legal: LegalAction) -> str:
    if legal.min_amount is None:
        return ""
    if legal.max_amount is None or legal.max_amount == legal.min_amount:
        return f"{legal.min_amount}"
    return f"{legal.min_amount}–{legal.max_amount}"


def disabled_reason(prompt: Prompt, action: ActionKind) -> str:
    """Why `action` is not legal now, in words a dealer understands."""
    legal = {la.action for la in prompt.legal}
    if prompt.actor is None:
        why = f"no seat is to act (phase: {prompt.phase})"
        return f"{why}; {prompt.message}" if prompt.message else why
    who = f"seat {prompt.actor}"
    if action == "check" and "call" in legal:
        return f"{who} faces a bet: call, raise or fold"
    if action == "call" and "check" in legal:
        return f"nothing to call: {who} may check"
    if action == "bet" and ("raise" in legal or "call" in legal):
        return "there is already a bet this round: raise instead"
    if action == "raise" and "bet" in legal:
        return "there is no bet to raise: bet instead"
    if action == "raise" and "call" in legal:
        return "betting is capped or reopening is not allowed: call or fold"
    if action == "fold" and "check" in legal:
        return f"{who} may check for free; folding is not offered"
    return f"{LABELS[action].lower()} is not legal for {who} now"


class ActionPadModel:
    """Holds the prompt, the pending action and typed amount; emits `changed()`, `submitted(action)`,
    `refused(reason)`."""

    def __init__(self) -> None:
        self.prompt = Prompt(phase="idle", message="waiting for a hand")
        self.pending: ActionKind | None = None
        self.typed = ""
        self.seat_entry: str | None = None  # digits typed after S, None when not choosing a seat
        self.seat: int | None = None  # the seat the next action is for; None means the seat to act
        self.message = ""
        self._fresh_amount = False  # the next digit replaces the default amount instead of appending
        self.show_entry = ShowEntry()
        self.changed = Signal()
        self.submitted = Signal()
        self.refused = Signal()
        self.show_requested = Signal()  # (ShowEntry): open the shown-hand entry
        self.show_submitted = Signal()  # (seat, cards): a shown hand keyed in; a handler refuses it with `refuse`
        self._refusals = 0
        self._last_refusal = ""

    # --- state -----------------------------------------------------------------------------
    def set_prompt(self, prompt: Prompt) -> None:
        self.prompt = prompt
        self.pending = None
        self.typed = ""
        self.seat = None
        self.seat_entry = None
        self.message = ""
        self.changed.emit()

    def set_show_entry(self, entry: ShowEntry) -> None:
        """Whether a shown hand can be keyed in now (the window says, from the referee's hand)."""
        if entry != self.show_entry:
            self.show_entry = entry
            self.changed.emit()

    def show_button(self) -> tuple[bool, str, str]:
        """The "Shown hand" button: enabled, its text, and its tooltip (the reason when disabled)."""
        entry = self.show_entry
        text = f"{SHOW_LABEL}  [{SHOW_KEY}]"
        if entry.reason is not None:
            return False, text, f"No shown hand can be entered now: {entry.reason}"
        seat = f" (seat {entry.seat} first)" if entry.seat is not None else ""
        return True, text, (f"Key in a hand shown at the showdown that the camera could not read{seat}: the seat and "
                            f"its cards, e.g. {entry.example}")

    def legal(self, action: ActionKind) -> LegalAction | None:
        return next((la for la in self.prompt.legal if la.action == action), None)

    @property
    def acting_seat(self) -> int | None:
        return self.seat if self.seat is not None else self.prompt.actor

    def buttons(self) -> tuple[ButtonState, ...]:
        out = []
        for action in ACTION_KINDS:
            legal = self.legal(action)
            key = SHORTCUTS[action]
            label = LABELS[action]
            if legal is None:
                reason = disabled_reason(self.prompt, action)
                out.append(ButtonState(action, False, f"{label}  [{key}]", reason))
                continue
            amount = amount_text(legal)
            text = f"{label} {amount}  [{key}]" if amount else f"{label}  [{key}]"
            tip = f"{label} for seat {self.prompt.actor}"
            if amount:
                tip += f": total bet to {amount}; type the amount, then Enter"
            out.append(ButtonState(action, True, text, tip))
        return tuple(out)

    def status_text(self) -> str:
        """The line under the pad: who is to act, what is pending, the last refusal."""
        if self.message:
            return self.message
        if self.seat_entry is not None:
            return f"Seat for the next action: {self.seat_entry or '_'}  (Enter to choose, Esc to cancel)"
        if self.prompt.actor is None:
            return self.prompt.message or f"No seat to act ({self.prompt.phase})"
        seat = self.acting_seat
        if self.pending is None:
            return f"Seat {seat} to act: F fold · C check/call · B bet · R raise"
        legal = self.legal(self.pending)
        if legal is not None and legal.min_amount is not None and self.pending in ("bet", "raise"):
            return f"Seat {seat}: {LABELS[self.pending]} to {self.typed or '_'} ({amount_text(legal)}) — Enter"
        return f"Seat {seat}: {LABELS[self.pending]} — Enter to confirm, Esc to cancel"

    # --- input -----------------------------------------------------------------------------
    def _refuse(self, reason: str) -> None:
        self._refusals += 1
        self._last_refusal = reason
        self.message = f"Refused: {reason}"
        self.refused.emit(reason)
        self.changed.emit()

    def refuse(self, reason: str) -> None:
        """Show a refusal that came from elsewhere (the rules Hand or the referee)."""
        self._refuse(reason)

    def request_show(self) -> None:
        """The "Shown hand" button or its key: open the entry (`show_requested`), or refuse with why it is closed."""
        self.message = ""
        if self.show_entry.reason is not None:
            self._refuse(f"no shown hand can be entered now: {self.show_entry.reason}")
            return
        self.show_requested.emit(self.show_entry)
        self.changed.emit()

    def submit_show(self, seat: int, text: str) -> str | None:
        """A shown hand keyed in (the seat and its cards as typed): parsed, then sent out (`show_submitted`). Returns
        why it was not taken (the text is not cards, or a handler refused it) in one line, or None."""
        try:
            cards = parse_shown_cards(text, self.show_entry.hand_size)
        except DealerAssistError as exc:
            return str(exc)
        before = self._refusals
        self.show_submitted.emit(seat, cards)
        return self._last_refusal if self._refusals != before else None

    def choose(self, action: ActionKind) -> None:
        """Select an action (a button click or its shortcut); the amount defaults to the minimum."""
        self.message = ""
        if action in ("check", "call"):
            action = "call" if self.legal("call") is not None else "check"
        legal = self.legal(action)
        if legal is None:
            self._refuse(disabled_reason(self.prompt, action))
            return
        self.pending = action
        self.typed = str(legal.min_amount) if action in ("bet", "raise") and legal.min_amount is not None else ""
        self._fresh_amount = True
        self.changed.emit()

    def key(self, name: str) -> None:
        """One key press by name: 'F', 'C', 'B', 'R', 'S', 'H', '0'..'9', 'Backspace', 'Escape', 'Enter'."""
        name = name.upper() if len(name) == 1 else name
        if self.seat_entry is not None:
            self._seat_key(name)
            return
        if name in ("F", "C", "B", "R"):
            self.choose(_KEY_ACTIONS[name])
        elif name == SHOW_KEY:
            self.request_show()
        elif name == "S":
            self.seat_entry = ""
            self.message = ""
            self.changed.emit()
        elif name.isdigit() and len(name) == 1:
            if self.pending not in ("bet", "raise"):
                self._refuse("choose Bet (B) or Raise (R) before typing an amount")
                return
            if self._fresh_amount:
                self.typed = ""
                self._fresh_amount = False
            if len(self.typed) < 9:
                self.typed += name
            self.changed.emit()
        elif name == "Backspace":
            self._fresh_amount = False
            self.typed = self.typed[:-1]
            self.changed.emit()
        elif name == "Escape":
            self.pending, self.typed, self.message, self.seat = None, "", "", None
            self.changed.emit()
        elif name == "Enter":
            self.confirm()

    def _seat_key(self, name: str) -> None:
        if name.isdigit() and len(name) == 1:
            self.seat_entry = (self.seat_entry or "") + name
        elif name == "Backspace":
            self.seat_entry = (self.seat_entry or "")[:-1]
        elif name == "Escape":
            self.seat_entry = None
        elif name == "Enter":
            entry, self.seat_entry = self.seat_entry, None
            self.seat = int(entry) if entry else None
        self.changed.emit()

    def confirm(self) -> DealerAction | None:
        """Validate the pending action and emit `submitted`, or refuse with the reason."""
        if self.pending is None:
            self._refuse("choose an action first (F, C, B or R)")
            return None
        seat = self.acting_seat
        actor = self.prompt.actor
        if actor is None:
            self._refuse(disabled_reason(self.prompt, self.pending))
            return None
        if seat != actor:
            self._refuse(f"seat {seat} is acting out of turn: seat {actor} is to act")
            return None
        legal = self.legal(self.pending)
        if legal is None:
            self._refuse(disabled_reason(self.prompt, self.pending))
            return None
        amount: int | None = None
        if self.pending in ("bet", "raise"):
            if not self.typed:
                self._refuse(f"type the amount to {self.pending} to ({amount_text(legal)})")
                return None
            amount = int(self.typed)
            low, high = legal.min_amount, legal.max_amount
            if low is not None and amount < low:
                self._refuse(f"{self.pending} to {amount} is below the minimum {low}")
                return None
            if high is not None and amount > high:
                self._refuse(f"{self.pending} to {amount} is above the maximum {high}")
                return None
        elif self.pending == "call":
            amount = legal.min_amount
        action = DealerAction(seat=actor, action=self.pending, amount=amount)
        self.pending, self.typed, self.message, self.seat = None, "", "", None
        self.submitted.emit(action)
        self.changed.emit()
        return action
