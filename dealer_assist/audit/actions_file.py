"""The dealer's betting input for `dealer-assist audit`: JSON lines, CSV, or a sim-video truth file.

One action a line/row: `t` (seconds into the video), `seat`, `action` (fold, check, call, bet,
raise) and `amount` (the total bet to, for bet and raise; empty otherwise). JSON lines look like
`{"t": 12.4, "seat": 3, "action": "raise", "amount": 8}`; CSV has the header `t,seat,action,amount`.
Blank lines and lines starting with `#` are skipped. A JSON object with an "actions" list (the
truth file `dealer-assist sim-video` writes) is read as well.

A shown hand the camera could not read, as the dealer or the floor read it at the table, is the action `show` with
the hand in `cards`: `{"t": 41.0, "seat": 3, "action": "show", "cards": "Ah 2c 3d 4s"}` (CSV: a `cards` column).
It reaches the referee as the seat's show, marked entered (`CardsShown.entered`), so the pots are awarded on it.
"""

from __future__ import annotations

import csv
import io
import json
import math
from collections.abc import Iterable, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from dealer_assist.audit.records import ACTION_KINDS, DealerAction
from dealer_assist.cards import parse_cards
from dealer_assist.errors import DealerAssistError
from dealer_assist.vision.events import CardsShown

FIELDS = ("t", "seat", "action", "amount")
SHOW = "show"
"""The action naming a shown hand keyed in (its `cards`), not a bet."""
DealerInput = DealerAction | CardsShown
"""What an actions file holds: the dealer's betting entries and the shown hands keyed in."""


MAX_AMOUNT = 10**15
"""The most chips an action may name: far above any table's, and exact in the log's 64-bit integers."""


def _whole(raw: Any, what: str) -> int:
    """A whole number from a JSON number or text; 2.5 chips or seat 1.5 is a typing error, not 2 or 1."""
    if isinstance(raw, bool):
        raise ValueError(f"{what} {raw!r} is not a whole number")
    if isinstance(raw, float):
        if not raw.is_integer():
            raise ValueError(f"{what} {raw!r} is not a whole number")
        return int(raw)
    return int(raw)


def _check_time(t: float, row: Mapping[str, Any], where: str) -> None:
    """An entry's time must be seconds into the video: finite, 0 or more."""
    if not math.isfinite(t) or t < 0:
        raise DealerAssistError(f"{where}: bad time t={row['t']!r}; accepted: seconds into the video, 0 or more")


def action_from_mapping(row: Mapping[str, Any], where: str) -> DealerInput:
    """One action from a mapping with t, seat, action, amount (a `show`: cards); a bad row is a one-line error naming
    `where`."""
    if str(row.get("action", "")).strip().lower() == SHOW:
        return _show_from_mapping(row, where)
    try:
        t = float(row["t"])
        seat = _whole(row["seat"], "seat")
        action = str(row["action"]).strip().lower()
        raw = row.get("amount")
        amount = None if raw in (None, "") else _whole(raw, "amount")
    except (KeyError, TypeError, ValueError) as exc:
        raise DealerAssistError(f"{where}: bad action {dict(row)!r} ({exc}); accepted fields: "
                                f"{', '.join(FIELDS)}") from None
    _check_time(t, row, where)
    if amount is not None and abs(amount) > MAX_AMOUNT:
        raise DealerAssistError(f"{where}: amount {amount} is too large; accepted: a whole number of chips up to "
                                f"{MAX_AMOUNT:,}")
    if action not in ACTION_KINDS:
        raise DealerAssistError(f"{where}: unknown action {action!r}; accepted: {', '.join(ACTION_KINDS)}")
    try:
        return DealerAction(seat, action, amount, t=t)
    except DealerAssistError as exc:
        raise DealerAssistError(f"{where}: {exc}") from None


def _show_from_mapping(row: Mapping[str, Any], where: str) -> CardsShown:
    """A shown hand keyed in: t, seat and cards ("Ah 2c 3d 4s" or a list); frame 0 until the video's is known
    (`with_frames`)."""
    try:
        t = float(row["t"])
        seat = _whole(row["seat"], "seat")
        raw = row.get("cards")
        if raw in (None, "", []):
            raise ValueError("a show needs its cards")
        cards = parse_cards(raw if isinstance(raw, str) else [str(c) for c in raw])
    except (KeyError, TypeError, ValueError, DealerAssistError) as exc:
        raise DealerAssistError(f"{where}: bad show {dict(row)!r} ({exc}); accepted: t, seat, action show and the "
                                "hand in cards, e.g. \"Ah 2c 3d 4s\"") from None
    _check_time(t, row, where)
    if seat < 1:
        raise DealerAssistError(f"{where}: bad seat {seat}; accepted: a seat number, 1 or more")
    return CardsShown(t, 0, seat, cards, entered=True)


def with_frames(items: Iterable[DealerInput], fps: float) -> list[DealerInput]:
    """The keyed-in shows given the video frame at their time (the key frame a flag about them shows)."""
    return [replace(i, frame=round(i.t * fps)) if isinstance(i, CardsShown) and fps > 0 else i for i in items]


def parse_actions(text: str, name: str = "<actions>") -> list[DealerInput]:
    """Actions from the text of an actions file, in time order (ties keep the file's order)."""
    stripped = text.lstrip()
    out: list[DealerInput] = []
    if stripped.startswith("{") and "\n{" not in stripped.strip():
        try:
            data = json.loads(stripped)
        except ValueError:
            data = None
        if isinstance(data, dict) and "actions" in data:
            out = [action_from_mapping(a, f"{name}: actions[{i}]") for i, a in enumerate(data["actions"])]
            return sorted(out, key=lambda a: a.t)
    lines = [(n, line) for n, line in enumerate(text.splitlines(), 1)
             if line.strip() and not line.lstrip().startswith("#")]
    if lines and lines[0][1].lstrip().startswith("{"):
        for n, line in lines:
            try:
                row = json.loads(line)
            except ValueError as exc:
                raise DealerAssistError(f"{name}:{n}: not JSON ({exc})") from None
            if not isinstance(row, dict):
                raise DealerAssistError(f"{name}:{n}: expected a JSON object with {', '.join(FIELDS)}")
            out.append(action_from_mapping(row, f"{name}:{n}"))
    elif lines:
        body = "\n".join(line for _, line in lines)
        reader = csv.DictReader(io.StringIO(body))
        if reader.fieldnames is None or not {"t", "seat", "action"} <= {f.strip() for f in reader.fieldnames}:
            raise DealerAssistError(f"{name}: a CSV actions file needs the header {','.join(FIELDS)}")
        for n, row in enumerate(reader, 2):
            out.append(action_from_mapping({k.strip(): (v or "").strip() for k, v in row.items() if k},
                                           f"{name}:{n}"))
    return sorted(out, key=lambda a: a.t)


def read_actions(path: str | Path) -> list[DealerInput]:
    """Actions from a file (see the module docstring); a missing file is a one-line error."""
    p = Path(path)
    try:
        text = p.read_text("utf-8")
    except OSError as exc:
        raise DealerAssistError(f"cannot read actions file {p}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise DealerAssistError(f"actions file {p} is not UTF-8 text; accepted: JSON lines, a JSON object with "
                                f"\"actions\", or CSV with the header {','.join(FIELDS)}") from None
    return parse_actions(text, str(p))


def actions_to_jsonl(actions: Iterable[DealerInput]) -> str:
    """Actions as JSON lines (what `read_actions` reads back)."""
    return "".join(json.dumps({"t": a.t, "seat": a.seat, "action": SHOW, "cards": " ".join(map(str, a.cards))}
                              if isinstance(a, CardsShown) else
                              {"t": a.t, "seat": a.seat, "action": a.action, "amount": a.amount}) + "\n"
                   for a in actions)
