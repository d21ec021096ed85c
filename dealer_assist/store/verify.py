"""`verify`: walk the hash chain and report every row that was edited, inserted or deleted.

Checks, in one pass over all record tables in sequence order:

- each row's own hash (an edited row fails it: "edited");
- each row's link to the row before (`prev`): a gap in the sequence is "deleted", and a link to a
  hash that is not the previous row's means that row was rewritten with a fresh hash ("edited");
- each table's ids run 1, 2, 3... (the store assigns them), so a deleted row is named by table and id;
- a row reusing a sequence number, or without one, is "inserted";
- the end of the chain against the anchor file, so removing the last records (a whole last hand)
  or appending forged ones is caught; and optionally against a head recorded elsewhere;
- given the signing key, the anchor's signature, so a history rewritten with its anchor is caught too;
- references: a hand's events whose hand row is gone, a flag whose snapshot row is gone;
- snapshot files against their SHA-256; the append-only triggers are still in place.
"""

from __future__ import annotations

import dataclasses
import fcntl
import hashlib
import heapq
import os
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import groupby
from pathlib import Path
from typing import Any, Literal

from dealer_assist.errors import DealerAssistError
from dealer_assist.store.chain import EMPTY_HEAD, GENESIS, Anchor, ChainHead, anchor_path, read_anchor, row_hash
from dealer_assist.store.paths import snapshot_dir
from dealer_assist.store.schema import HAND_TABLES, guard_triggers

ProblemKind = Literal["edited", "inserted", "deleted", "anchor", "snapshot", "schema", "export"]
"""What a problem is; `export`: an exported file that does not match the log (`store.export_check`)."""

# Child tables and the parent their reference points at.
_REFERENCES: tuple[tuple[str, str, str], ...] = (
    ("sessions", "table_id", "tables"), ("sessions", "dealer_id", "dealers"),
    ("hands", "table_id", "tables"), ("hands", "session_id", "sessions"), ("hands", "dealer_id", "dealers"),
    *((child, "hand_id", "hands") for child in HAND_TABLES),
)


@dataclass(frozen=True, slots=True)
class Problem:
    """One finding: what kind, the row it names (table, id, seq) where known, and a sentence."""

    kind: ProblemKind
    message: str
    table: str | None = None
    row_id: int | None = None
    seq: int | None = None

    def __str__(self) -> str:
        return f"{self.kind}: {self.message}"


Signature = Literal["verified", "not checked", "unsigned", "bad"]
"""The anchor's signature: checked with the key and good, signed but no key given, not signed, or failed."""


@dataclass(frozen=True, slots=True)
class VerifyReport:
    """The result of `verify`: records checked, the chain head, problems, hands left incomplete, and what became of
    the anchor's signature."""

    records: int
    head: ChainHead
    problems: tuple[Problem, ...]
    incomplete_hands: tuple[int, ...]
    snapshots: int
    signature: Signature = "unsigned"

    @property
    def ok(self) -> bool:
        """True when no problem was found (incomplete hands are not problems)."""
        return not self.problems


def _span(first: int, last: int) -> str:
    """"3" or "3..7": a run of ids or sequence numbers."""
    return f"{first}" if first == last else f"{first}..{last}"


def _table_rows(conn: sqlite3.Connection, table: str, walker: _Walker) -> Iterator[tuple[int, str, dict[str, Any]]]:
    """A table's rows in id order, which for rows the store wrote is also sequence order.

    A row whose sequence number does not rise with its id cannot have been written by the store:
    it is reported (edited if its own hash fails, else inserted) and left out of the chain walk.
    """
    cur = conn.execute(f'SELECT * FROM "{table}" WHERE typeof(seq) = \'integer\' ORDER BY id')
    names = [d[0] for d in cur.description]
    last_seq = 0
    for values in cur:
        row = dict(zip(names, values, strict=True))
        seq = row["seq"]
        if seq <= last_seq:
            walker.out_of_order(table, row, last_seq)
            continue
        last_seq = seq
        yield seq, table, row


class _Walker:
    """State of the walk along the chain."""

    def __init__(self, expected: ChainHead | None) -> None:
        self.problems: list[Problem] = []
        self.records = 0
        self.last = EMPTY_HEAD
        self.last_name = "the start of the log"
        self.expected = expected
        self.expected_seen = expected is None or expected.seq == 0
        self.last_id: dict[str, int] = {}
        self.watch: set[int] = set()
        self.seen: dict[int, str] = {}

    def add(self, kind: ProblemKind, message: str, table: str | None = None, row_id: int | None = None,
            seq: int | None = None) -> None:
        """Record one problem."""
        self.problems.append(Problem(kind, message, table, row_id, seq))

    def out_of_order(self, table: str, row: dict[str, Any], after: int) -> None:
        """A row whose sequence number is not above its table's previous row's."""
        self.records += 1
        name = f"{table} #{row.get('id')} (seq {row.get('seq')})"
        if row_hash(str(row.get("prev")), table, row) != row.get("hash"):
            self.add("edited", f"{name} was changed: its content no longer matches its hash (its sequence number "
                     f"is not above the previous {table} row's, {after})", table, row.get("id"), row.get("seq"))
        else:
            self.add("inserted", f"{name} is out of sequence order in {table} (the previous row has seq {after})",
                     table, row.get("id"), row.get("seq"))

    def group(self, seq: int, rows: list[tuple[str, dict[str, Any]]]) -> None:
        """All rows claiming one sequence number: the one that fits the chain is kept, the others are inserted."""
        def fits(item: tuple[str, dict[str, Any]]) -> tuple[bool, bool]:
            """(its own hash holds, it links to the previous row): the chain member sorts first."""
            table, row = item
            return (row_hash(str(row.get("prev")), table, row) == row.get("hash"), row.get("prev") == self.last.hash)

        ranked = sorted(rows, key=lambda item: fits(item), reverse=True)  # stable: table order breaks ties
        table, row = ranked[0]
        name = f"{table} #{row.get('id')} (seq {seq})"
        for item in ranked[1:]:
            other_table, other = item
            self.records += 1
            other_name = f"{other_table} #{other.get('id')} (seq {seq})"
            other_id = other.get("id")
            # A row the store wrote (its id is next in line for its table) whose own hash now fails: changed.
            if (not fits(item)[0] and isinstance(other_id, int)
                    and other_id == self.last_id.get(other_table, 0) + 1):
                self.add("edited", f"{other_name} was changed: its content no longer matches its hash (and its "
                         f"sequence number is also {name}'s)", other_table, other_id, seq)
                self.last_id[other_table] = other_id
            else:
                self.add("inserted", f"{other_name} reuses sequence number {seq}, already taken by {name}",
                         other_table, other_id, seq)
        self.step(seq, table, row)

    def step(self, seq: int, table: str, row: dict[str, Any]) -> None:
        """Check one row: its own hash, its table's id sequence, its link to the row before."""
        self.records += 1
        row_id = row.get("id")
        name = f"{table} #{row_id} (seq {seq})"
        intact = row_hash(str(row.get("prev")), table, row) == row.get("hash")
        if not intact:
            self.add("edited", f"{name} was changed: its content no longer matches its hash", table, row_id, seq)
        previous_id = self.last_id.get(table, 0)
        if intact and isinstance(row_id, int) and row_id > previous_id + 1:
            self.add("deleted", f"{table} #{_span(previous_id + 1, row_id - 1)} missing (ids jump from "
                     f"{previous_id} to {row_id})", table, previous_id + 1)
        if isinstance(row_id, int):
            self.last_id[table] = max(previous_id, row_id)
        if seq > self.last.seq + 1:
            self.add("deleted", f"records at seq {_span(self.last.seq + 1, seq - 1)} are missing (between "
                     f"{self.last_name} and {name})", table, row_id, self.last.seq + 1)
        elif row.get("prev") != self.last.hash:
            self.add("edited", f"{self.last_name} was rewritten: {name} was chained to a different hash "
                     f"(or {name} was put in its place)", table, row_id, seq)
        if self.expected is not None and seq == self.expected.seq:
            self.expected_seen = True
            if row.get("hash") != self.expected.hash:
                self.add("edited", f"{name} does not have the hash recorded for the head you gave: the history "
                         "up to it was rewritten", table, row_id, seq)
        self.last = ChainHead(seq, str(row.get("hash")))
        self.last_name = name
        if seq in self.watch:
            self.seen[seq] = self.last.hash


def _check_schema(conn: sqlite3.Connection, walker: _Walker) -> list[str]:
    """Missing record tables or append-only triggers; returns the tables that exist."""
    names = {r[0]: r[1] for r in conn.execute("SELECT name, type FROM sqlite_master")}
    present = []
    dropped: list[str] = []
    for table, triggers in guard_triggers().items():
        if names.get(table) != "table":
            walker.add("schema", f"the {table} table is missing (all its records were deleted)", table)
            continue
        present.append(table)
        dropped += [trigger for trigger in triggers if names.get(trigger) != "trigger"]
        bad = conn.execute(f'SELECT id FROM "{table}" WHERE typeof(seq) != \'integer\'').fetchall()
        for (row_id,) in bad:
            walker.add("inserted", f"{table} #{row_id} has no place in the chain (no sequence number)", table, row_id)
    if dropped:
        walker.add("schema", f"append-only guard trigger(s) removed: {', '.join(dropped)}")
    return present


def writer_active(db_path: Path) -> bool:
    """Whether a recorder holds the log open (its exclusive lock on the anchor file)."""
    try:
        fd = os.open(anchor_path(db_path), os.O_RDONLY)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except OSError:
        return True
    finally:
        os.close(fd)
    return False


def _load_anchor(db_path: Path, walker: _Walker) -> Anchor | None:
    """The anchor file, or None (a damaged one is reported as a problem)."""
    try:
        return read_anchor(anchor_path(db_path))
    except DealerAssistError as exc:
        walker.add("anchor", str(exc))
        return None


def _check_signature(anchor: Anchor | None, key: bytes | None, walker: _Walker) -> Signature:
    """With a key, the anchor must carry its signature of the chain head: without the key, a rewritten history
    and anchor cannot."""
    if anchor is None:
        return "unsigned"
    if key is None:
        return "unsigned" if anchor.mac is None else "not checked"
    if anchor.mac is None:
        walker.add("anchor", "the anchor is not signed, though a key was given: it was written without the key (by "
                   "a rewrite, or before the key was adopted with `log sign`)")
        return "unsigned"
    if not anchor.signed_by(key):
        walker.add("anchor", "the anchor's signature does not match the key: the chain head was rewritten without "
                   "the key, or signed with another key")
        return "bad"
    return "verified"


def _check_anchor(db_path: Path, anchor: Anchor | None, live: bool, walker: _Walker) -> None:
    """The chain's end must be one end of the last transaction the writer anchored.

    The anchor is read before the database snapshot, so while a recorder is writing, the chain may
    run past it: then it is enough that the anchored point is in the chain with its hash.
    """
    head = walker.last
    if anchor is None:
        if head.seq and not any(p.kind == "anchor" for p in walker.problems):
            walker.add("anchor", f"the anchor file {anchor_path(db_path)} is missing, so records removed from "
                       "the end of the log cannot be ruled out")
        return
    if head in (anchor.before, anchor.after):
        return
    if live and (walker.seen.get(anchor.after.seq) == anchor.after.hash
                 or walker.seen.get(anchor.before.seq) == anchor.before.hash):
        return
    top = anchor.after
    if head.seq < top.seq:
        walker.add("deleted", f"records at seq {_span(head.seq + 1, top.seq)} at the end of the log are missing: "
                   f"the anchor says the log reached seq {top.seq} (for example a whole last hand was deleted)",
                   seq=head.seq + 1)
    elif head.seq > top.seq:
        walker.add("inserted", f"records at seq {_span(top.seq + 1, head.seq)} were added after the last write "
                   f"by Dealer Assist (the anchor says the log ended at seq {top.seq})", seq=top.seq + 1)
    else:
        walker.add("edited", f"the last record (seq {head.seq}) does not have the anchored hash: it was rewritten",
                   seq=head.seq)


def _check_references(conn: sqlite3.Connection, present: list[str], walker: _Walker) -> None:
    """Rows whose parent row is gone name the deleted parent."""
    for child, column, parent in _REFERENCES:
        if child not in present or parent not in present:
            continue
        orphans = conn.execute(
            f'SELECT {column}, count(*) FROM "{child}" WHERE {column} NOT IN (SELECT id FROM "{parent}") '
            f"GROUP BY {column}").fetchall()
        for parent_id, count in orphans:
            walker.add("deleted", f"{parent} #{parent_id} is missing but {count} {child} row(s) still refer to it",
                       parent, parent_id)


def _check_snapshots(conn: sqlite3.Connection, db_path: Path, present: list[str], walker: _Walker) -> int:
    """Every snapshot file exists and hashes to its recorded SHA-256; every flag's snapshot is recorded."""
    if "snapshots" not in present:
        return 0
    folder = snapshot_dir(db_path)
    checked: dict[str, str | None] = {}
    count = 0
    for row_id, digest in conn.execute("SELECT id, sha256 FROM snapshots ORDER BY id"):
        count += 1
        if digest not in checked:
            path = folder / str(digest)[:2] / f"{digest}.jpg"
            if not path.exists():
                checked[digest] = f"its file {path} is missing"
            elif hashlib.sha256(path.read_bytes()).hexdigest() != digest:
                checked[digest] = f"its file {path} was altered (its bytes no longer hash to {digest})"
            else:
                checked[digest] = None
        if checked[digest]:
            walker.add("snapshot", f"snapshots #{row_id}: {checked[digest]}", "snapshots", row_id)
    if "flags" in present:
        for row_id, digest in conn.execute(
                "SELECT id, snapshot FROM flags WHERE snapshot IS NOT NULL "
                "AND snapshot NOT IN (SELECT sha256 FROM snapshots)"):
            walker.add("deleted", f"flags #{row_id} refers to snapshot {digest}, which is not in the log",
                       "flags", row_id)
    return count


def verify_log(conn: sqlite3.Connection, db_path: Path, *, expected_head: ChainHead | None = None,
               key: bytes | None = None) -> VerifyReport:
    """Check the whole log; see the module docstring for what is checked."""
    walker = _Walker(expected_head)
    live = writer_active(db_path)
    anchor = _load_anchor(db_path, walker)
    signature = _check_signature(anchor, key, walker)
    if anchor is not None:
        walker.watch = {anchor.before.seq, anchor.after.seq}
    # One read transaction: every query sees the same snapshot while a recorder keeps writing.
    began = not conn.in_transaction
    if began:
        conn.execute("BEGIN")
    try:
        return dataclasses.replace(_verify_snapshot(conn, db_path, walker, anchor, live, expected_head),
                                   signature=signature)
    finally:
        if began and conn.in_transaction:
            conn.execute("ROLLBACK")


def _verify_snapshot(conn: sqlite3.Connection, db_path: Path, walker: _Walker, anchor: Anchor | None, live: bool,
                     expected_head: ChainHead | None) -> VerifyReport:
    """The checks themselves, inside the read transaction `verify_log` opened."""
    present = _check_schema(conn, walker)
    streams = [_table_rows(conn, table, walker) for table in present]
    merged = heapq.merge(*streams, key=lambda item: item[0])
    for seq, group in groupby(merged, key=lambda item: item[0]):
        rows = [(table, row) for _, table, row in group]
        if len(rows) == 1:
            walker.step(seq, *rows[0])
        else:
            walker.group(seq, rows)
    _check_anchor(db_path, anchor, live, walker)
    if expected_head is not None and not walker.expected_seen:
        walker.add("deleted", f"the head you gave (seq {expected_head.seq}) is beyond the end of the log "
                   f"(seq {walker.last.seq})", seq=expected_head.seq)
    _check_references(conn, present, walker)
    snapshots = _check_snapshots(conn, db_path, present, walker)
    incomplete: tuple[int, ...] = ()
    if "hand_ends" in present:
        incomplete = tuple(int(r[0]) for r in conn.execute(
            "SELECT hand_id FROM hand_ends WHERE status = 'incomplete' ORDER BY hand_id"))
    head = walker.last if walker.records else ChainHead(0, GENESIS)
    return VerifyReport(walker.records, head, tuple(walker.problems), incomplete, snapshots)
