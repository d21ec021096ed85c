"""The audit report: every hand refereed, with its flags and its award, as plain JSON values and as text."""

from __future__ import annotations

from typing import Any

from dealer_assist.audit.outputs import FLAG_RULINGS
from dealer_assist.audit.referee import HandRecord, award_waits_on, pending_reason
from dealer_assist.rules.awards import Award


def award_to_dict(award: Award, uncontested: bool, pending: tuple[int, ...] = ()) -> dict[str, Any]:
    """An award as JSON values: totals and returned chips by seat, and each pot's shares with reasons.

    provisional / pending_flags: error and misdeal flags (their numbers in the hand) still open for the floor."""
    return {
        "uncontested": uncontested,
        "provisional": bool(pending),
        "pending_flags": list(pending),
        "totals": {str(s): c for s, c in sorted(award.totals.items())},
        "returned": {str(s): c for s, c in sorted(award.returned.items())},
        "pots": [{
            "name": p.name, "amount": p.amount, "eligible": list(p.eligible),
            "awards": [{"seat": sh.seat, "amount": sh.amount, "portion": sh.portion,
                        "hand": None if sh.hand is None else sh.hand.name, "odd_chips": sh.odd_chips,
                        "reason": sh.reason} for sh in p.shares],
            "explanation": list(p.explanation),
        } for p in award.pots],
    }


def hand_to_dict(record: HandRecord) -> dict[str, Any]:
    """One hand: number, button, stacks, how it ended, flags (with floor resolutions) and the award."""
    award = record.awards[-1] if record.awards else None
    return {
        "number": record.start.number,
        "button": record.start.button,
        "game": record.start.rules.game,
        "t": record.start.t,
        "stacks": {str(s): c for s, c in record.start.stacks},
        "status": None if record.end is None else record.end.status,
        "reason": None if record.end is None else record.end.reason,
        "flags": [{**f.to_dict(), **_resolution(record, n)} for n, f in enumerate(record.flags)],
        "awards": {} if award is None else award_to_dict(award.award, award.uncontested, award_waits_on(record)),
    }


def _resolution(record: HandRecord, n: int) -> dict[str, Any]:
    """How flag `n` was resolved (`accept_flag` / `dismiss_flag`), by whom and why; all None while it is open."""
    fix = record.resolutions.get(n)
    return {"resolution": fix.kind if fix else None, "resolved_by": fix.by if fix else None,
            "resolution_reason": fix.reason if fix else None}


def report_to_dict(hands: list[HandRecord], source: str = "") -> dict[str, Any]:
    return {"source": source, "hands": [hand_to_dict(h) for h in hands]}


def report_text(hands: list[HandRecord], source: str = "") -> str:
    """A readable report: per hand, how it ended, each flag, and who won what and why."""
    lines = [f"Audit of {source}: {len(hands)} hand{'s' if len(hands) != 1 else ''}, "
             f"{sum(len(h.flags) for h in hands)} flag{'s' if sum(len(h.flags) for h in hands) != 1 else ''}."]
    for h in hands:
        status = h.end.status if h.end else "open"
        lines.append("")
        lines.append(f"Hand {h.start.number} ({h.start.rules.describe()}), button seat {h.start.button}, "
                     f"from {h.start.t:.2f}s: {status}" + (f" ({h.end.reason})" if h.end and h.end.reason else ""))
        if not h.flags:
            lines.append("  No flags.")
        for n, f in enumerate(h.flags):
            seat = f"seat {f.seat}: " if f.seat is not None else ""
            frame = f", frame {f.frame}" if f.frame is not None else ""
            option = f" [house option {f.option}]" if f.option else ""
            lines.append(f"  FLAG {f.kind.value} ({f.severity.value}) at {f.t:.2f}s{frame}: {seat}{f.message}{option}")
            if (fix := h.resolutions.get(n)) is not None:
                lines.append(f"    {FLAG_RULINGS[fix.kind]} by {fix.by}: {fix.reason}")
        if h.awards:
            for pot in h.awards[-1].award.pots:
                lines += [f"  {sentence}" for sentence in pot.explanation]
            totals = ", ".join(f"seat {s} {c}" for s, c in sorted(h.awards[-1].award.totals.items()))
            lines.append(f"  Totals: {totals}.")
            if pending := award_waits_on(h):
                lines.append("  " + pending_reason([h.flags[n] for n in pending]).capitalize() + ".")
        else:
            lines.append("  No award.")
    return "\n".join(lines)
