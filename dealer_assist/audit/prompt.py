"""The dealer's prompt from the refereed hand: who acts and for how much, where the next card goes."""

from __future__ import annotations

from dealer_assist.audit.hand_run import HandRun
from dealer_assist.audit.records import LegalAction, Prompt
from dealer_assist.rules.betting import Options
from dealer_assist.rules.hand import Phase


def legal_actions(opts: Options) -> tuple[LegalAction, ...]:
    """The betting actions open to the seat to act, bets and raises with their range of totals."""
    legal: list[LegalAction] = [LegalAction("fold")]
    if opts.can_check:
        legal.append(LegalAction("check"))
    if opts.call is not None:
        legal.append(LegalAction("call", opts.call, opts.call))
    if opts.raise_kind in ("bet", "raise") and opts.min_to is not None:
        legal.append(LegalAction("bet" if opts.raise_kind == "bet" else "raise", opts.min_to, opts.max_to))
    return tuple(legal)


def build_prompt(run: HandRun | None, next_button: int | None = None) -> Prompt:
    """What is due now; between hands (`run` None or done) the next deal starts left of `next_button`."""
    if run is None:
        return Prompt("between hands", message=f"next hand: button at seat {next_button}" if next_button else "")
    hand = run.hand
    opts = hand.options()
    if opts is not None:
        name = "before the draw" if hand.round == 0 else f"after draw {hand.round}"
        return Prompt(f"betting {name}", opts.seat, legal_actions(opts), stub_count=hand.stub_count,
                      message=opts.why_no_raise or f"seat {opts.seat} to act")
    phase = hand.phase
    next_card = None
    owed: dict[int, int] = {}
    reshuffle_said = False
    if phase is Phase.DEALING:
        next_card = run.deal.next_seat
        text = f"dealing: next card to seat {next_card}"
    elif phase is Phase.DRAWING and any(run.discards_seen.values()):
        # Discard then replace: the discards seen wait for the first replacement to be declared to the Hand.
        seen = run.discards_seen
        order = [hand.seats[i] for i in hand.draw_order]
        owed = {s: seen[s] for s in order if seen.get(s)}
        waiting = [s for s in order if s in run.drawing_seats]
        if waiting:
            text = f"draw {hand.draw}: seat {waiting[0]} to discard (or stand pat)"
        else:
            next_card = next(iter(owed), None)
            burn = "burn a card, then " if hand.burn_owed else ""
            text = f"draw {hand.draw}: {burn}seat {next_card} is owed {owed.get(next_card or 0, 0)}"
    elif phase is Phase.DRAWING:
        owed = {s: hand.owed_to(s) for s in hand.seats if hand.owed_to(s)}
        next_card = hand.next_card_seat
        if hand.next_discarder is not None and next_card is None:
            text = f"draw {hand.draw}: seat {hand.next_discarder} to discard (or stand pat)"
        elif hand.burn_due and hand.stub_count == 0 and hand.needs_reshuffle:
            text = (f"draw {hand.draw}: the stub is empty: reshuffle the burns and earlier discards (004), burn a "
                    f"card, then seat {next_card} is owed {owed.get(next_card or 0, 0)}")
            reshuffle_said = True
        elif hand.burn_due:
            text = f"draw {hand.draw}: burn a card, then seat {next_card} is owed {owed.get(next_card or 0, 0)}"
        else:
            text = f"draw {hand.draw}: seat {next_card} is owed {owed.get(next_card or 0, 0)}"
    elif phase is Phase.SHOWDOWN:
        text = f"showdown: seat {hand.next_shower} shows (or mucks)"
    else:
        text = "hand over: pots awarded" if run.award is not None else "hand over"
    if hand.needs_reshuffle and not reshuffle_said:
        text += "; the stub cannot give the next card: reshuffle the burns and earlier discards (004)"
    return Prompt(str(phase), None, (), next_card, owed, hand.stub_count, hand.needs_reshuffle, message=text)
