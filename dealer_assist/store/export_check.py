"""Checking an export against the hand log it came from (`log verify --export FILE`).

A JSON or CSV export (`store.export`) carries each row's stored hash (JSON also its `prev`). To check one, each
exported hand is exported again from the log, the same way, and the two are compared row by row, matched by
sequence number (one sequence across all tables, so it names the row):

- an exported row the log has no row of that hand at: added to the export (forged), or moved from another hand;
- an exported row whose content, hash or `prev` is not what the log gives: the export was edited after it was
  made (an award amount, a card), or the log was (its chain verification then says which row);
- a row of the hand in the log that the export lacks: left out of it, or recorded after it was made (a floor
  correction, the hand's end); a hand's export must hold all of the hand's rows to match.

Comparing the whole re-export, not only the hashes, also catches an edit of the derived columns (the CSV's `text`
sentence, the hand's status), and leaves nothing to trust in the export itself. The log's own chain is verified in
the same read transaction (`verify_export`), so "the log is intact" is part of the answer.
"""

from __future__ import annotations

import csv
import io
import json
import re
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal

from dealer_assist.errors import DealerAssistError
from dealer_assist.store.chain import ChainHead
from dealer_assist.store.export import CSV_COLUMNS, chain_links, export_csv, export_json
from dealer_assist.store.paths import path_problem
from dealer_assist.store.queries import MAX_ID, hand_story
from dealer_assist.store.schema import CHAINED_TABLES, HAND_TABLES
from dealer_assist.store.text import printable
from dealer_assist.store.verify import Problem, VerifyReport, verify_log

ExportFormat = Literal["json", "csv"]
_MISSING = object()
_SHOWN_DIFFERENCES = 3
_SHOWN_CHARS = 48
# The rows' names in messages, by table.
_ROW_NAMES = {"hands": "hand row", "hand_ends": "end", "events": "event", "actions": "action", "flags": "flag",
              "awards": "award", "corrections": "correction", "snapshots": "snapshot"}


@dataclass(frozen=True, slots=True)
class ExportRow:
    """One exported row: its hand, record type (`hand`, `end`, `event`...), id and seq as the export says, the
    content compared (every field, the hash too), and where it is in the file (CSV line) for messages."""

    hand: int
    record: str
    id: Any
    seq: int
    content: dict[str, Any]
    line: int | None = None

    @property
    def name(self) -> str:
        """"hand 3, award #1 (seq 42), CSV line 40"."""
        record = "hand row" if self.record == "hand" else self.record
        where = f", CSV line {self.line}" if self.line is not None else ""
        return printable(f"hand {self.hand}, {record} #{self.id} (seq {self.seq}){where}")


@dataclass(frozen=True, slots=True)
class ExportFile:
    """A read export: its format and its rows by hand, hands in the order they first appear."""

    path: Path
    format: ExportFormat
    hands: dict[int, list[ExportRow]] = field(default_factory=dict)

    @property
    def rows(self) -> int:
        """Exported rows: each hand's row, its records and its end."""
        return sum(len(rows) for rows in self.hands.values())


@dataclass(frozen=True, slots=True)
class ExportCheck:
    """The result of checking an export: how many hands and rows it holds, and each problem found (kind
    `export`)."""

    path: Path
    format: ExportFormat
    hands: int
    rows: int
    problems: tuple[Problem, ...]

    @property
    def ok(self) -> bool:
        """True when the export matches the log row for row."""
        return not self.problems


# ----- reading an export


def read_export(path: Path) -> ExportFile:
    """An export written by `log export --format json|csv`; a one-line DealerAssistError for anything else."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise DealerAssistError(f"cannot read the export {path}: {path_problem(path, exc)}") from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise DealerAssistError(f"{path} is not a JSON or CSV export of `dealer-assist log export` (it is not "
                                "UTF-8 text)") from None
    body = text.lstrip()
    if not body:
        raise DealerAssistError(f"{path} is empty; give a JSON or CSV file written by `dealer-assist log export`")
    if body.startswith(("{", "[")):
        return _read_json(path, text)
    if body.startswith(CSV_COLUMNS[0] + ","):
        return _read_csv(path, text)
    raise DealerAssistError(f"{path} is neither a JSON nor a CSV export of `dealer-assist log export` (it starts "
                            f"{printable(body[:30])!r}){_phh_hint(text)}")


def _phh_hint(text: str) -> str:
    """A reminder, for a PHH hand history, that only JSON and CSV exports carry the chain."""
    if re.search(r"^variant\s*=", text, re.MULTILINE):
        return "; it looks like a PHH hand history, which carries no hashes: check a JSON or CSV export"
    return ""


def _whole(value: Any, what: str, path: Path) -> int:
    """A whole-number field of the export (hand id, seq), or a one-line error."""
    if isinstance(value, str) and value.isascii() and value.isdigit():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_ID:
        raise DealerAssistError(f"{path} is not an export of `dealer-assist log export`: {what} is "
                                f"{printable(repr(value))[:40]}, not a whole number")
    return value


def _read_json(path: Path, text: str) -> ExportFile:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise DealerAssistError(f"{path} is not valid JSON ({exc.msg}: line {exc.lineno} column {exc.colno}; was "
                                f"it cut short?){_phh_hint(text)}") from None
    export = ExportFile(path, "json")
    for row in _json_rows(path, data):
        export.hands.setdefault(row.hand, []).append(row)
    return export


def _json_rows(path: Path, data: Any) -> Iterable[ExportRow]:
    """The rows of a JSON export: one hand's object (`log export HAND`) or an array of them (`--all`)."""
    stories = data if isinstance(data, list) else [data]
    for n, story in enumerate(stories, 1):
        where = "its hand" if not isinstance(data, list) else f"hand {n} of the array"
        if (not isinstance(story, dict) or not isinstance(story.get("hand"), dict)
                or not isinstance(story.get("records"), list) or "end" not in story):
            raise DealerAssistError(f"{path} is not a JSON export of `dealer-assist log export`: {where} is not an "
                                    'object with "hand", "records" and "end"')
        hand = story["hand"]
        hand_id = _whole(hand.get("id"), f"the id of {where}", path)
        yield ExportRow(hand_id, "hand", hand_id, _whole(hand.get("seq"), f"the seq of hand {hand_id}", path), hand)
        for i, record in enumerate(story["records"], 1):
            if not isinstance(record, dict):
                raise DealerAssistError(f"{path} is not a JSON export of `dealer-assist log export`: record {i} of "
                                        f"hand {hand_id} is not an object")
            seq = _whole(record.get("seq"), f"the seq of record {i} of hand {hand_id}", path)
            yield ExportRow(hand_id, str(record.get("record")), record.get("id"), seq, record)
        end = story["end"]
        if end is not None:
            if not isinstance(end, dict):
                raise DealerAssistError(f"{path} is not a JSON export of `dealer-assist log export`: the end of hand "
                                        f"{hand_id} is not an object")
            yield ExportRow(hand_id, "end", end.get("id"), _whole(end.get("seq"), f"the seq of hand {hand_id}'s end",
                                                                    path), end)


def _read_csv(path: Path, text: str) -> ExportFile:
    if not text.endswith(("\n", "\r")):   # every line the export writes ends with one
        raise DealerAssistError(f"{path} ends in the middle of a line: the file was cut short")
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    export = ExportFile(path, "csv")
    try:
        header = next(reader)
        if tuple(header) == CSV_COLUMNS[:-1]:
            raise DealerAssistError(f"{path} has no hash column: it was exported before exports carried the hash "
                                    "chain; export the hand again to check it against the log")
        if tuple(header) != CSV_COLUMNS:
            raise DealerAssistError(f"{path} is not a CSV export of `dealer-assist log export`: its header is not "
                                    f"{','.join(CSV_COLUMNS)}")
        start = reader.line_num + 1
        for values in reader:
            line, start = start, reader.line_num + 1
            if not values:
                continue
            if len(values) != len(CSV_COLUMNS):
                raise DealerAssistError(f"{path} line {line} has {len(values)} column(s), not {len(CSV_COLUMNS)}: "
                                        "the file was cut short or edited")
            content: dict[str, Any] = dict(zip(CSV_COLUMNS, values, strict=True))
            content["data"] = _json_or_text(content["data"])
            hand_id = _whole(values[0], f"the hand_id on line {line}", path)
            seq = _whole(values[1], f"the seq on line {line}", path)
            export.hands.setdefault(hand_id, []).append(ExportRow(hand_id, values[2], values[3], seq, content, line))
    except csv.Error as exc:
        raise DealerAssistError(f"{path} is not a readable CSV file (line {reader.line_num}: {exc}; was it cut "
                                "short?)") from None
    except StopIteration:
        raise DealerAssistError(f"{path} is empty") from None
    return export


def _json_or_text(text: str) -> Any:
    """The CSV's `data` column as JSON, so a difference is named by its key; left as text if it is not JSON."""
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


# ----- comparing with the log


def _logged_rows(conn: sqlite3.Connection, hand_id: int, fmt: ExportFormat, path: Path) -> list[ExportRow]:
    """The hand as the log exports it now, read back the way the export is read."""
    story = hand_story(conn, hand_id)
    links = chain_links(conn, hand_id)
    if fmt == "json":
        text = "".join(export_json([story], single=True, chain=lambda _: links))
        return list(_json_rows(path, json.loads(text)))
    rows = _read_csv(path, "".join(export_csv([story], chain=lambda _: links))).hands.get(hand_id, [])
    return [replace(row, line=None) for row in rows]


def _same(got: Any, want: Any) -> bool:
    """Equal as JSON values: 6 and 6.0 are, True and 1 are not."""
    if isinstance(got, bool) or isinstance(want, bool):
        return type(got) is type(want) and got == want
    return bool(got == want)


def _differences(got: Any, want: Any, path: str = "") -> list[tuple[str, Any, Any]]:
    """(field path, exported value, logged value) for every place the two differ."""
    if isinstance(got, dict) and isinstance(want, dict):
        found: list[tuple[str, Any, Any]] = []
        for key in [*want, *(k for k in got if k not in want)]:
            found += _differences(got.get(key, _MISSING), want.get(key, _MISSING), f"{path}{key}.")
        return found
    if isinstance(got, list) and isinstance(want, list):
        found = []
        for i in range(max(len(got), len(want))):
            found += _differences(got[i] if i < len(got) else _MISSING, want[i] if i < len(want) else _MISSING,
                                  f"{path}{i}.")
        return found
    return [] if _same(got, want) else [(path.rstrip("."), got, want)]


def _show(value: Any) -> str:
    """A value for a message, cut short (a hash shows its first characters)."""
    text = json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else repr(value)
    return text if len(text) <= _SHOWN_CHARS else text[:_SHOWN_CHARS] + "..."


def _describe(differences: list[tuple[str, Any, Any]]) -> str:
    """"award.totals.1 (export 12, log 10); hash (...)", the first few, and how many more."""
    parts = []
    for where, got, want in differences[:_SHOWN_DIFFERENCES]:
        if got is _MISSING:
            parts.append(f"{where} (missing from the export; log {_show(want)})")
        elif want is _MISSING:
            parts.append(f"{where} (export {_show(got)}; not in the log)")
        else:
            parts.append(f"{where} (export {_show(got)}, log {_show(want)})")
    more = len(differences) - _SHOWN_DIFFERENCES
    return "; ".join(parts) + (f"; and {more} more" if more > 0 else "")


def _rows_at(conn: sqlite3.Connection, seqs: list[int]) -> dict[int, str]:
    """What the log holds at each of these sequence numbers, in words ("flag #2 of hand 1")."""
    found: dict[int, str] = {}
    for table in CHAINED_TABLES:
        hand_column = "id" if table == "hands" else "hand_id" if table in HAND_TABLES else "NULL"
        for i in range(0, len(seqs), 500):
            chunk = seqs[i:i + 500]
            marks = ", ".join("?" for _ in chunk)
            try:
                rows = conn.execute(f'SELECT seq, id, {hand_column} FROM "{table}" WHERE seq IN ({marks})', chunk)
                for seq, row_id, hand_id in rows:
                    if table == "hands":
                        found.setdefault(seq, f"hand {row_id}'s hand row")
                    elif hand_id is not None:
                        found.setdefault(seq, f"{_ROW_NAMES[table]} #{row_id} of hand {hand_id}")
                    else:
                        found.setdefault(seq, f"{table} #{row_id}")
            except sqlite3.Error:  # a table a tamperer dropped: the chain verification names it
                break
    return found


def _check_hand(conn: sqlite3.Connection, export: ExportFile, hand_id: int, exported: list[ExportRow],
                problems: list[Problem]) -> None:
    """Compare one exported hand's rows with the log's, by sequence number."""
    def add(message: str, row: ExportRow | None = None) -> None:
        problems.append(Problem("export", message, "hands", hand_id, row.seq if row else None))

    if not conn.execute("SELECT 1 FROM hands WHERE id = ?", (hand_id,)).fetchone():
        add(f"hand {hand_id}: not in the log ({len(exported)} exported row(s) of a hand the log does not have)")
        return
    try:
        logged = {row.seq: row for row in _logged_rows(conn, hand_id, export.format, export.path)}
    except (DealerAssistError, ValueError, KeyError, TypeError, sqlite3.Error) as exc:
        add(printable(f"hand {hand_id}: cannot be read back from the log to compare ({exc})"))
        return
    seen: set[int] = set()
    strays: list[ExportRow] = []
    for row in exported:
        if row.seq in seen:
            add(f"{row.name}: appears more than once in the export", row)
            continue
        seen.add(row.seq)
        want = logged.get(row.seq)
        if want is None:
            strays.append(row)
            continue
        differences = _differences(row.content, want.content)
        if differences:
            add(printable(f"{row.name}: differs from the log: {_describe(differences)}"), row)
    if strays:
        held = _rows_at(conn, sorted({row.seq for row in strays}))
        for row in strays:
            there = held.get(row.seq)
            if there is None:
                add(f"{row.name}: not in the log (the log has no row at seq {row.seq})", row)
            else:
                add(f"{row.name}: not a row of hand {hand_id} in the log (its row at seq {row.seq} is {there})", row)
    for seq, want in logged.items():
        if seq not in seen:
            add(f"{want.name}: in the log but not in the export (left out of it, or recorded "
                "after it was made: export the hand again)", want)


def check_export(conn: sqlite3.Connection, export: ExportFile) -> ExportCheck:
    """Compare every exported hand with the log, row by row (see the module docstring)."""
    problems: list[Problem] = []
    for hand_id, rows in export.hands.items():
        _check_hand(conn, export, hand_id, rows, problems)
    return ExportCheck(export.path, export.format, len(export.hands), export.rows, tuple(problems))


def verify_export(conn: sqlite3.Connection, db_path: Path, export: ExportFile, *,
                  expected_head: ChainHead | None = None, key: bytes | None = None) -> tuple[VerifyReport, ExportCheck]:
    """The log's chain verification (`verify_log`) and the export's check, in one read transaction, so both see the
    same log while a recorder keeps writing."""
    began = not conn.in_transaction
    if began:
        conn.execute("BEGIN")
    try:
        report = verify_log(conn, db_path, expected_head=expected_head, key=key)
        return report, check_export(conn, export)
    finally:
        if began and conn.in_transaction:
            conn.execute("ROLLBACK")
