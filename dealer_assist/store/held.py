"""Inputs a live referee holds back before it referees them, journaled beside the hand log as they arrive.

Live refereeing follows the camera `horizon_s` behind the video, as `audit` does (the tracker confirms a card or a
fold up to seconds after it began), so for those seconds an input is only in memory. Each one is appended to
`<log>.held` as it arrives (a JSON line written through to the OS, as the log's commits are; fsynced too where the
log's durability is "power") and marked taken just before the referee takes it, when the hand log records it. The file
is emptied whenever nothing is held. A log opened after a crash records the inputs still held into its newest open
hand (one recorder, one table), in the order the referee would have had them, before that hand is ended incomplete;
the end row counts them (`unrefereed`), so that
`log check` referees the hand again without them and `log show` marks them. Nothing the dealer keyed is lost.

Written by hand, not with a library: one append-only file of JSON lines is all it takes, and a line torn by a kill
mid-write is simply skipped (its input was the one in flight).
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from dealer_assist.audit.actions_file import action_from_mapping
from dealer_assist.audit.records import DealerAction
from dealer_assist.errors import DealerAssistError
from dealer_assist.vision.events import TableEvent, event_from_dict

HeldInput = TableEvent | DealerAction


def held_path(db_path: Path) -> Path:
    """The journal lives beside the database: `hands.sqlite` -> `hands.sqlite.held`."""
    return db_path.with_name(db_path.name + ".held")


def _line(data: dict[str, Any]) -> str:
    return json.dumps(data, separators=(",", ":")) + "\n"


def _item_data(item: HeldInput) -> dict[str, Any]:
    if isinstance(item, DealerAction):
        return {"action": item.to_dict()}
    return {"event": item.to_dict()}


def _item_from(data: dict[str, Any], where: str) -> HeldInput:
    if "action" in data:
        a = data["action"]
        action = action_from_mapping(a, where)     # checked as an actions file's rows are
        return replace(action, source=a["source"]) if a.get("source") == "vision" else action
    return event_from_dict(data["event"])


COMPACT_BYTES = 1_000_000
"""A journal past this size is written afresh with only what is still held (a table whose items never all go out for
hours: each line is ~150 bytes)."""


class HeldJournal:
    """`hold(item)` when the live referee's loop takes an input, `taken(item)` just before the referee gets it.

    A journal that cannot be written (a full disk) says so once through `on_failure` and stops; refereeing carries
    on (the log itself says its own failures)."""

    def __init__(self, db_path: Path, session_id: int, *, sync: bool = False,
                 on_failure: Callable[[str], None] | None = None) -> None:
        self.path = held_path(db_path)
        self.session_id = session_id
        self.sync = sync
        self.on_failure = on_failure
        self.error: str | None = None
        self._held: dict[int, tuple[int, str]] = {}  # id(item) -> its key and line; the loop holds the item meanwhile
        self._next = 1
        try:
            self._file = open(self.path, "a", encoding="utf-8")  # noqa: SIM115 - open for the session's life
        except OSError as exc:
            raise DealerAssistError(f"cannot journal held inputs in {self.path}: {exc.strerror or exc}") from None

    def hold(self, item: HeldInput) -> None:
        key, self._next = self._next, self._next + 1
        line = _line({"held": key, "session": self.session_id, **_item_data(item)})
        self._held[id(item)] = (key, line)
        self._write(line)

    def taken(self, item: HeldInput) -> None:
        entry = self._held.pop(id(item), None)
        if entry is None:
            return
        if not self._held or (self.error is None and self._file.tell() > COMPACT_BYTES):
            self._rewrite()
        else:
            self._write(_line({"taken": entry[0], "session": self.session_id}))

    def __len__(self) -> int:
        return len(self._held)

    def close(self) -> None:
        """Close the file; what is still held stays in it for the next opening of the log to record."""
        if not self._file.closed:
            self._file.close()

    def _write(self, line: str) -> None:
        if self.error is not None:
            return
        try:
            self._file.write(line)
            self._file.flush()
            if self.sync:
                os.fsync(self._file.fileno())
        except OSError as exc:
            self._fail(exc)

    def _rewrite(self) -> None:
        """The file afresh with only what is still held: emptied in place when nothing is (most often: between
        hands), else written beside it and renamed over it, so a crash meanwhile finds one whole file or the other."""
        if self.error is not None:
            return
        try:
            if not self._held:
                self._file.seek(0)
                self._file.truncate()
                self._file.flush()
            else:
                fresh = self.path.with_name(self.path.name + ".new")
                with open(fresh, "w", encoding="utf-8") as out:
                    out.write("".join(line for _, line in self._held.values()))
                    out.flush()
                    if self.sync:
                        os.fsync(out.fileno())
                os.replace(fresh, self.path)
                self._file.close()
                self._file = open(self.path, "a", encoding="utf-8")  # noqa: SIM115 - open for the session's life
            if self.sync:
                os.fsync(self._file.fileno())
        except OSError as exc:
            self._fail(exc)

    def _fail(self, exc: OSError) -> None:
        self.error = (f"the inputs the referee holds are no longer journaled in {self.path} "
                      f"({exc.strerror or exc}): a crash now could lose the last seconds")
        if self.on_failure is not None:
            self.on_failure(self.error)


@dataclass(frozen=True, slots=True)
class StillHeld:
    """An input the journal had not seen taken: its session and the input."""

    session_id: int
    item: HeldInput


def still_held(path: Path) -> list[StillHeld]:
    """The inputs a journal holds that were never taken, in arrival order (torn or unreadable lines skipped)."""
    held: dict[tuple[object, object], StillHeld] = {}
    for line in _lines(path):
        if "taken" in line:
            held.pop((line.get("session"), line["taken"]), None)
        elif "held" in line:
            try:
                held[(line.get("session"), line["held"])] = StillHeld(int(line["session"]), _item_from(line, str(path)))
            except (DealerAssistError, KeyError, TypeError, ValueError):
                continue
    return list(held.values())


def held_line(held: StillHeld, number: int) -> str:
    """One input still held as a line of JSON, the `number`-th of its file (what `still_held` reads back)."""
    return _line({"held": number, "session": held.session_id, **_item_data(held.item)})


def _lines(path: Path) -> Iterator[dict[str, Any]]:
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except FileNotFoundError:
        return
    for raw in text.splitlines():
        try:
            line = json.loads(raw)
        except json.JSONDecodeError:
            continue                  # torn by a kill mid-write: that input was the one in flight
        if isinstance(line, dict):
            yield line
