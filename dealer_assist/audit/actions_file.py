"""The dealer's betting input for `dealer-assist audit`: JSON lines, CSV, or a sim-video truth file.

One action a line/row: `t` (seconds into the video), `seat`, `action` (fold, check, call, bet,
raise) and `amount` (the total bet to, for bet and raise; empty otherwise). JSON lines look like
`{"t": 12.4, "seat": 3, "action": "raise", "amount": 8}`; CSV has the header `t,seat,action,amount`.
Blank lines and lines starting with `#` are skipped. A JSON object with an "actions" list (the
truth file `dealer-assist sim-video` writes) is read as well.
"""

from __future__ import annotations

import csv
import io
import json
import math
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from dealer_assist.audit.records import ACTION_KINDS, DealerAction
from dealer_assist.errors import DealerAssistError

FIELDS = ("t", "seat", "action", "amount")


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


def action_from_mapping(row: Mapping[str, Any], where: str) -> DealerAction:
    """One action from a mapping with t, seat, action, amount; a bad row is a one-line error naming `where`."""
    try:
        t = float(row["t"])
        seat = _whole(row["seat"], "seat")
        action = str(row["action"]).strip().lower()
        raw = row.get("amount")
        amount = None if raw in (None, "") else _whole(raw, "amount")
    except (KeyError, TypeError, ValueError) as exc:
        raise DealerAssistError(f"{where}: bad action {dict(row)!r} ({exc}); accepted fields: "
                                f"{', '.join(FIELDS)}") from None
    if not math.isfinite(t) or t < 0:
        raise DealerAssistError(f"{where}: bad time t={row['t']!r}; accepted: seconds into the video, 0 or more")
    if amount is not None and abs(amount) > MAX_AMOUNT:
        raise DealerAssistError(f"{where}: amount {amount} is too large; accepted: a whole number of chips up to "
                                f"{MAX_AMOUNT:,}")
    if action not in ACTION_KINDS:
        raise DealerAssistError(f"{where}: unknown action {action!r}; accepted: {', '.join(ACTION_KINDS)}")
    try:
        return DealerAction(seat, action, amount, t=t)
    except DealerAssistError as exc:
        raise DealerAssistError(f"{where}: {exc}") from None


def parse_actions(text: str, name: str = "<actions>") -> list[DealerAction]:
    """Actions from the text of an actions file, in time order (ties keep the file's order)."""
    stripped = text.lstrip()
    out: list[DealerAction] = []
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


def read_actions(path: str | Path) -> list[DealerAction]:
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


def actions_to_jsonl(actions: Iterable[DealerAction]) -> str:
    """Actions as JSON lines (what `read_actions` reads back)."""
    return "".join(json.dumps({"t": a.t, "seat": a.seat, "action": a.action, "amount": a.amount}) + "\n"
                   for a in actions)
