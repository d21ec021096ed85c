"""A hand's whole story in plain text, rendered from its stored records (what `log show` prints)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from dealer_assist.audit.outputs import FLAG_RULINGS, REFEREE_BY
from dealer_assist.errors import DealerAssistError
from dealer_assist.store.camera_text import calibration_line
from dealer_assist.store.records import (
    HandStory,
    StoredAction,
    StoredAward,
    StoredCorrection,
    StoredEvent,
    StoredFlag,
    StoredRecord,
    StoredSnapshot,
    missed_event,
)
from dealer_assist.store.text import printable
from dealer_assist.vision.events import TableEvent


def _when(t: float | None, frame: int | None = None) -> str:
    """Fixed-width time and frame column."""
    stamp = f"{t:9.2f}s" if t is not None else " " * 10
    return f"{stamp}  {f'frame {frame}' if frame is not None else '':<12}"


def _card(value: Any) -> str:
    """A card as text, or "a face-down card" for one not seen."""
    return "a face-down card" if value is None else str(value)


def _cards(values: Any) -> str:
    """Cards as "Ah 2c 3d"."""
    return " ".join(str(v) for v in values)


def event_sentence(event: TableEvent) -> str:
    """What happened, as a dealer would say it."""
    data = event.to_dict()
    seat = data.get("seat")
    kind = event.kind
    if kind == "dealt":
        return f"seat {seat} is dealt {_card(data.get('card'))}"
    if kind == "exposed":
        where = f" at seat {seat}" if seat is not None else ""
        return f"card exposed{where}: {_card(data.get('card'))}"
    if kind == "burned":
        return "a card is burned"
    if kind == "discarded":
        count = data.get("count", 0)
        faces = f" ({_cards(data['cards'])})" if data.get("cards") else ""
        return f"seat {seat} discards {count} card{'s' if count != 1 else ''}{faces}"
    if kind == "replaced":
        return f"seat {seat} receives {_card(data.get('card'))} as a replacement"
    if kind == "folded":
        return f"seat {seat} folds (cards into the muck)"
    if kind == "shown":
        cards = data.get("cards") or ()
        if data.get("entered"):
            return f"seat {seat} shows {_cards(cards)} (entered by the dealer: the camera could not read it)"
        return f"seat {seat} shows {_cards(cards)}" if cards else f"seat {seat} turns its hand up (no card read yet)"
    if kind == "button_moved":
        return f"the button moves to seat {seat}"
    if kind == "gathered":
        return "the cards are gathered"
    return f"{kind}: {data}"


def action_sentence(action: StoredAction) -> str:
    """ "seat 2 raises to 20 (dealer)"."""
    verb = {"fold": "folds", "check": "checks", "call": "calls", "bet": "bets", "raise": "raises to"}.get(
        action.action, action.action)
    amount = f" {action.amount}" if action.amount is not None and action.action in ("bet", "raise", "call") else ""
    phase = f" [{action.phase}]" if action.phase else ""
    source = "seen by the camera" if action.source == "vision" else "entered by the dealer"
    return f"seat {action.seat} {verb}{amount}{phase} ({source})"


def flag_sentence(flag: StoredFlag) -> str:
    """ "FLAG misdeal card_exposed, seat 2: message (rule ...; house option ...)"."""
    seat = f", seat {flag.seat}" if flag.seat is not None else ""
    option = f"; house option {flag.option}" if flag.option else ""
    snap = f"; key frame {flag.snapshot[:12]}" if flag.snapshot else ""
    return f"FLAG #{flag.id} {flag.severity} {flag.kind}{seat}: {flag.message} (rule: {flag.rule}{option}{snap})"


def correction_sentence(corr: StoredCorrection) -> str:
    """ "FLOOR correction #1 by bob: dismisses flag #3 — reason"."""
    what = {
        "misread_card": f"event #{corr.target_id} was misread; the card was {corr.data.get('card')}",
        "void_hand": "voids the hand",
        "accept_flag": f"accepts flag #{corr.target_id}",
        "dismiss_flag": f"dismisses flag #{corr.target_id}",
        "note": "notes",
        "shown_hand": f"seat {corr.data.get('seat')} showed {corr.data.get('cards')} (read by the floor after the "
                      "hand)",
        "mucked_hand": f"seat {corr.data.get('seat')} mucked at the showdown (seen by the floor after the hand)",
        "false_event": f"event #{corr.target_id} did not happen (found by the floor after the hand)",
        "missed_event": _missed_sentence(corr.data.get("event")),
        "award": "awards the pots",
    }.get(corr.kind, f"{corr.kind} {corr.target_table} #{corr.target_id}")
    if corr.by == REFEREE_BY:          # the referee's own (a keyed-in show settled the flag), not the floor's ruling
        return f"REFEREE correction #{corr.id}: {what}: {corr.reason}"
    return f"FLOOR correction #{corr.id} by {corr.by}: {what}: {corr.reason}"


def _missed_sentence(data: Any) -> str:
    """ "at 27.90 s seat 3 receives a face-down card as a replacement (missed by the camera, found by ...)"."""
    try:
        event = missed_event(data)
    except (DealerAssistError, TypeError):
        return f"an event the camera missed: {data!r}"
    return f"at {event.t:.2f} s {event_sentence(event)} (missed by the camera, found by the floor after the hand)"


def flag_rulings(records: Iterable[StoredRecord]) -> dict[int, StoredCorrection]:
    """The floor's latest ruling (accept or dismiss) on each flag, by flag id: a later ruling supersedes an earlier
    one, as both stay in the log."""
    rulings: dict[int, StoredCorrection] = {}
    for rec in sorted((r for r in records if isinstance(r, StoredCorrection) and r.kind in FLAG_RULINGS),
                      key=lambda r: r.seq):
        rulings[rec.target_id] = rec
    return rulings


def provisional_line(pending: Sequence[int], rulings: Mapping[int, StoredCorrection]) -> str:
    """Why the award is (or was) provisional: the flags it waited on that are still open, and how the floor ruled
    on the others (the stored explanation names every flag open when the award was made)."""
    still = [i for i in pending if i not in rulings]
    ruled = "; ".join(f"flag #{i} {FLAG_RULINGS[rulings[i].kind]} by {rulings[i].by}" for i in pending if i in rulings)
    if not still:
        return f"No longer provisional: the floor ruled on every flag it waited on ({ruled})."
    named = ", ".join(f"#{i}" for i in still)
    ruled = f" Floor rulings: {ruled}." if ruled else ""
    return (f"Provisional: flag{'s' if len(still) > 1 else ''} {named} open; the floor decides whether the hand "
            f"stands.{ruled}")


def _award_lines(award: StoredAward | StoredCorrection, rulings: Mapping[int, StoredCorrection]) -> list[str]:
    """The award's sentences (a provisional note brought up to date with the floor's rulings), each share with its
    reason, and the totals; of the referee's award, or of the floor's (an `award` correction)."""
    if isinstance(award, StoredCorrection):
        data = award.data.get("award")
        payload: Mapping[str, Any] = data if isinstance(data, Mapping) else {}
        explanation = [str(line) for line in award.data.get("explanation") or ()]
    else:
        payload, explanation = award.award, list(award.explanation)
    pending = payload.get("pending_flag_ids")
    if isinstance(pending, list) and pending and all(isinstance(i, int) for i in pending):
        explanation = [line for line in explanation if not line.startswith("Provisional:")]
        explanation.append(provisional_line(pending, rulings))
    lines = [f"  {line}" for line in explanation]
    for pot in payload.get("pots") or ():
        if not isinstance(pot, Mapping):
            continue
        for share in pot.get("shares") or ():
            if isinstance(share, Mapping):
                portion = share.get("portion")
                part = "" if portion in (None, "whole") else f", {portion} half"
                lines.append(f"    {pot.get('name', 'pot')}{part}: seat {share.get('seat')} gets "
                             f"{share.get('amount')} because {share.get('reason')}")
    totals = payload.get("totals")
    if isinstance(totals, Mapping) and totals:
        each = ", ".join(f"seat {s} {a}" for s, a in sorted(totals.items(), key=lambda kv: int(kv[0])))
        lines.append(f"  Totals: {each}")
    return lines


def _record_lines(record: StoredRecord, notes: Mapping[tuple[str, int], list[str]],
                  rulings: Mapping[int, StoredCorrection]) -> list[str]:
    """One record as text, with the floor's corrections of it underneath."""
    if isinstance(record, StoredEvent):
        ev = record.event
        lines = [f"{_when(ev.t, ev.frame)}{event_sentence(ev)} (event #{record.id})"]  # the id `log correct` takes
        lines += [f"{'':24}  ^ {n}" for n in notes.get(("events", record.id), ())]
        return lines
    if isinstance(record, StoredAction):
        return [f"{_when(record.t, record.frame)}{action_sentence(record)}"]
    if isinstance(record, StoredFlag):
        lines = [f"{_when(record.t, record.frame)}{flag_sentence(record)}"]
        lines += [f"{'':24}  ^ {n}" for n in notes.get(("flags", record.id), ())]
        return lines
    if isinstance(record, StoredAward):
        return [f"{_when(record.t)}AWARD", *_award_lines(record, rulings)]
    if isinstance(record, StoredCorrection):
        lines = [f"{_when(record.t)}{correction_sentence(record)} (recorded {record.recorded_at})"]
        return [*lines, *_award_lines(record, rulings)] if record.kind == "award" else lines
    if isinstance(record, StoredSnapshot):
        return [f"{_when(record.t, record.frame)}key frame '{record.label}' saved: {record.sha256}"]
    return [repr(record)]


UNREFEREED_NOTE = " [not refereed: held by the live referee when the recorder stopped]"
"""After an input recorded unrefereed when the log was reopened after a crash (`HandStory.unrefereed`)."""

NOT_ENDED = {
    True: "Not ended yet: still being recorded.",
    False: "Not ended: the recorder stopped before ending it (a crash?); it is marked incomplete the next time "
           "the log is opened for recording.",
}


def render_story(story: HandStory, *, recorder_active: bool = True) -> str:
    """The whole hand as text: header, then every record in the order it was written (control characters in stored
    text escaped)."""
    hand = story.hand
    seats = ", ".join(f"seat {s} ({stack})" for s, stack in hand.seats.items())
    lines = [
        f"Hand {hand.id}: table {hand.table}, hand #{hand.number}, {hand.game}, dealer {hand.dealer} "
        f"(session {hand.session_id})",
        f"Started {hand.started_at}; button at seat {hand.button}",
        f"Seats and starting stacks: {seats}",
    ]
    rules = [r.strip() for r in story.house_rules.splitlines() if r.strip() and not r.startswith("#")]
    if rules:
        lines.append("House rules: " + "; ".join(rules))
    if story.calibration is not None:
        lines.append(calibration_line(story.calibration))
    if story.camera is not None:
        lines.append("Refereed as a camera's table (a card's landing seen a frame or a pitch early or late is allowed)"
                     if story.camera else "Refereed strictly (every event in its exact order)")
    notes: dict[tuple[str, int], list[str]] = {}
    for rec in story.records:
        if isinstance(rec, StoredCorrection) and rec.target_table != "hands":
            who = (f"ruled by the referee (#{rec.id})" if rec.by == REFEREE_BY
                   else f"corrected by floor (#{rec.id}, {rec.by})")
            notes.setdefault((rec.target_table, rec.target_id), []).append(
                f"{who}: {correction_sentence(rec).split(': ', 1)[1]}")
    rulings = flag_rulings(story.records)
    lines.append("")
    held = story.unrefereed
    for rec in story.records:
        rec_lines = _record_lines(rec, notes, rulings)
        if rec.seq in held:
            rec_lines[0] += UNREFEREED_NOTE
        lines += rec_lines
    lines.append("")
    if story.end is None:
        lines.append(NOT_ENDED[recorder_active])
    elif story.end.status == "incomplete":
        lines.append(f"INCOMPLETE: {story.end.reason} (marked {story.end.ended_at})")
    else:
        reason = f": {story.end.reason}" if story.end.reason else ""
        lines.append(f"Ended {story.end.status}{reason} at {story.end.ended_at}")
    void = next((r for r in story.records if isinstance(r, StoredCorrection) and r.kind == "void_hand"), None)
    if void is not None:
        lines.append(f"VOIDED by the floor (correction #{void.id}, {void.by}: {void.reason}).")
    floor = [r for r in story.records if isinstance(r, StoredCorrection) and r.kind == "award"]
    if floor and void is None:
        totals = floor[-1].data.get("award", {}).get("totals") or {}
        won = ", ".join(f"seat {s} {c}" for s, c in sorted(totals.items(), key=lambda kv: int(kv[0])) if c)
        lines.append(f"AWARDED by the floor after the hand (correction #{floor[-1].id}, {floor[-1].by}): "
                     f"{won or 'no chips won'}.")
    return "\n".join(printable(line) for line in lines)  # a stored newline must not forge a line
