"""`HandLog`: the append-only, hash-chained SQLite record of every hand, written as it happens.

Durability: WAL journal with `synchronous=NORMAL` (the default, `durability="process"`). Each
record is its own transaction; COMMIT returns once the transaction is in the WAL file, i.e. in the
operating system's page cache, which outlives the process: a crash or `kill -9` of the recorder
loses nothing committed and never corrupts the file. Only a power cut or kernel crash can drop the
last commits before the next checkpoint (the database stays consistent). `durability="power"`
selects `synchronous=FULL` (an fsync of the WAL per commit) and fsyncs the anchor and snapshot
files too, at the cost of a disk flush per record.

One writer at a time: the writer holds an exclusive lock (flock) on the anchor file for its
lifetime, which the kernel releases when the process dies. So when a writer opens the log, any
hand without an end was interrupted by a crash; it is then ended with status `incomplete` by a new
row (never an edit), listed in `HandLog.recovered`. Readers (`HandLog.open_readonly`) take no lock
and change nothing.
"""

from __future__ import annotations

import fcntl
import functools
import hashlib
import json
import math
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import Any, Literal, TypeVar

import tomli_w

from dealer_assist.audit.ordering import InputOrderer
from dealer_assist.audit.records import DealerAction, Flag
from dealer_assist.cards import parse_card, parse_cards
from dealer_assist.errors import DealerAssistError
from dealer_assist.store import queries
from dealer_assist.store.chain import (
    EMPTY_HEAD,
    PYTHON_TYPES,
    Anchor,
    AnchorWriter,
    ChainHead,
    anchor_path,
    canonical_json,
    normalise,
    read_anchor,
)
from dealer_assist.store.held import held_line, held_path, still_held
from dealer_assist.store.jsonable import award_sentences, to_jsonable
from dealer_assist.store.log_key import KEY_ENV, load_key
from dealer_assist.store.paths import path_problem, snapshot_dir
from dealer_assist.store.records import (
    CORRECTION_TARGETS,
    FLAG_COLUMNS,
    HAND_STATUSES,
    MISSED_EVENT_KINDS,
    CorrectionKind,
    HandStatus,
    HandStory,
    HandSummary,
    RecordRef,
    missed_event,
)
from dealer_assist.store.schema import CHAINED_TABLES, MIGRATION_SET, MIGRATIONS_TABLE, blocking_migrations
from dealer_assist.store.text import check_name
from dealer_assist.store.verify import VerifyReport, verify_log
from dealer_assist.vision.events import TableEvent

Durability = Literal["process", "power"]
_F = TypeVar("_F", bound=Callable[..., Any])
_AUTO = ("id", "seq", "prev", "recorded_at", "hash")
WAL_CHECKPOINT_BYTES = 40_000_000
LOG_PAGE_SIZE = 2048
"""Page size of a new log: a commit per event writes each page it touches (the table's and the index's last leaf) to
the WAL whole, so pages half SQLite's default size make that commit cheaper (with the lone INSERT of `_write`, 1.15x
the events a second; `benchmarks/log.py`); hands and awards still fit a page."""
_JPEG_MAGIC = b"\xff\xd8\xff"
INCOMPLETE_REASON = "the recorder stopped before the hand ended (crash or kill); found when the log was reopened"


def _locked(method: _F) -> _F:
    """Run the method holding the log's lock (the referee thread writes while the app reads)."""

    @functools.wraps(method)
    def wrapper(self: HandLog, *args: Any, **kwargs: Any) -> Any:
        with self._lock:
            return method(self, *args, **kwargs)

    return wrapper  # type: ignore[return-value]


_second_text: tuple[int, str] = (-1, "")


def now_text() -> str:
    """UTC wall-clock time to the millisecond: when a row was written. The same text as
    `datetime.now(UTC).isoformat(timespec="milliseconds")`; the date and time up to the second are formatted once a
    second, since every event pays for this."""
    global _second_text
    second, nanos = divmod(time.time_ns(), 1_000_000_000)
    if second != _second_text[0]:
        _second_text = (second, datetime.fromtimestamp(second, UTC).strftime("%Y-%m-%dT%H:%M:%S"))
    return f"{_second_text[1]}.{nanos // 1_000_000:03d}+00:00"


def local_text(when: datetime | None) -> str:
    """Local time with its UTC offset, so the date part is the room's date (what `log list --date` matches)."""
    return (when or datetime.now()).astimezone().isoformat(timespec="milliseconds")


def _rules_text(house_rules: str | Mapping[str, Any]) -> str:
    """House rules as TOML text (a mapping is serialised, a string kept as given)."""
    return house_rules if isinstance(house_rules, str) else tomli_w.dumps(to_jsonable(house_rules))


def connect(path: Path, *, readonly: bool) -> sqlite3.Connection:
    """A connection in autocommit mode (transactions are explicit BEGIN ... COMMIT)."""
    if readonly:
        if not path.exists():
            raise DealerAssistError(f"no hand log at {path}; record a hand first, or pass --log PATH")
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, isolation_level=None,
                               check_same_thread=False)
    else:
        conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    conn.execute("PRAGMA busy_timeout = 5000")
    return conn


def _check_recordable(db_path: Path) -> None:
    """Before anything is written: the log's folder can be made, its key-frame folder is a folder, and an existing
    file is a hand log (recording would add the log's tables to another program's database)."""
    if db_path.is_dir():
        raise DealerAssistError(f"cannot record to {db_path}: it is a folder; give a file name such as "
                                f"{db_path / 'hand-log.sqlite'}")
    try:
        db_path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise DealerAssistError(f"cannot record to {db_path}: its folder {db_path.parent} cannot be made "
                                f"({path_problem(db_path, exc)})") from None
    folder = snapshot_dir(db_path)
    if (folder.exists() or folder.is_symlink()) and not folder.is_dir():
        raise DealerAssistError(f"cannot record to {db_path}: its key-frame folder {folder} is not a folder (a file "
                                "is in its place); move that file away, or record into a new log file")
    if not db_path.is_file() or db_path.stat().st_size == 0:
        return  # a new log
    try:
        conn = sqlite3.connect(db_path)
        try:
            tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            ours = MIGRATIONS_TABLE in tables and conn.execute(
                f"SELECT 1 FROM {MIGRATIONS_TABLE} WHERE migration_set = ? LIMIT 1", (MIGRATION_SET,)).fetchone()
        finally:
            conn.close()
    except sqlite3.Error as exc:
        raise DealerAssistError(f"cannot open {db_path} as a hand log: {exc}") from None
    if tables and not ours:
        shown = ", ".join(sorted(tables)[:5]) + (", ..." if len(tables) > 5 else "")
        raise DealerAssistError(f"{db_path} is not a Dealer Assist hand log (a SQLite database with other tables: "
                                f"{shown}); record into a new file or an existing hand log")


class HandLog:
    """The hand log. Open with `HandLog.open(path)` to record, `HandLog.open_readonly(path)` to review."""

    def __init__(self, path: Path, conn: sqlite3.Connection, anchor: AnchorWriter | None,
                 durability: Durability) -> None:
        self.path = path
        self.conn = conn
        self.readonly = anchor is None
        self._anchor = anchor
        self._durability = durability
        self._in_txn = False
        self._data_columns: dict[str, list[tuple[str, str, type]]] = {}
        self._column_set: dict[str, frozenset[str]] = {}
        self._insert_sql: dict[str, str] = {}
        self._next_id: dict[str, int] = {}
        self._head = EMPTY_HEAD
        self._open_hands: set[int] = set()
        self.recovered: tuple[int, ...] = ()
        self.unrecorded_held: Path | None = None
        # One connection shared by the threads that use this log (check_same_thread=False): every
        # public method holds this lock, a batch holds it from start to commit.
        self._lock = threading.RLock()

    @property
    def durability(self) -> Durability:
        return self._durability

    # ----- opening and closing

    @classmethod
    def open(cls, path: str | os.PathLike[str], *, durability: Durability = "process", key: bytes | None = None,
             adopt_key: bool = False) -> HandLog:
        """Open (or create) a log to record into; migrates the schema and ends crashed hands as incomplete.

        The chain head is signed with `key`, else with the key $DEALER_ASSIST_LOG_KEY_FILE names (`log_key`).
        A signed log is only recorded into with its key; an unsigned one with records takes a key only with
        `adopt_key`, after its chain verifies (`log sign`)."""
        db_path = Path(path)
        _check_recordable(db_path)
        anchor_file = anchor_path(db_path)
        had_anchor = anchor_file.exists()
        key = key if key is not None else load_key()
        try:
            anchor = AnchorWriter(anchor_file, key)
        except OSError as exc:
            raise DealerAssistError(f"cannot record to {db_path}: its chain anchor {anchor_file} cannot be opened "
                                    f"({path_problem(anchor_file, exc)})") from None
        try:
            fcntl.flock(anchor.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            anchor.close()
            raise DealerAssistError(f"the hand log {db_path} is being recorded by another process") from None
        try:
            conn = connect(db_path, readonly=False)
        except sqlite3.Error as exc:
            anchor.close()
            raise DealerAssistError(f"cannot record to {db_path}: {exc}") from None
        log = cls(db_path, conn, anchor, durability)
        try:
            log._setup_writer(had_anchor, adopt_key)
        except BaseException:
            log.close()
            raise
        return log

    @classmethod
    def open_readonly(cls, path: str | os.PathLike[str]) -> HandLog:
        """Open an existing log to read and verify; nothing is written, no lock is taken."""
        db_path = Path(path)
        conn = connect(db_path, readonly=True)
        log = cls(db_path, conn, None, "process")
        try:
            pending = blocking_migrations(conn)
            if pending is None:
                raise DealerAssistError(f"{db_path} is not a Dealer Assist hand log (no migrations table)")
            if pending:
                raise DealerAssistError(f"{db_path} was written by an older version; open it for recording once to "
                                        "upgrade its schema")
            log._load_schema()
            log._head = queries.chain_head(conn)
        except sqlite3.DatabaseError as exc:
            log.close()
            raise DealerAssistError(f"cannot read {db_path} as a hand log: {exc}") from None
        except BaseException:
            log.close()
            raise
        return log

    def _setup_writer(self, had_anchor: bool, adopt_key: bool = False) -> None:
        """Pragmas, migrations, caches, the anchor check, then crash recovery."""
        sync = "FULL" if self._durability == "power" else "NORMAL"
        try:
            self.conn.execute(f"PRAGMA page_size = {LOG_PAGE_SIZE}")  # takes effect only on a new, empty log
            mode = self.conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
            if mode != "wal":
                raise DealerAssistError(f"cannot put {self.path} in WAL mode (got {mode}); use a local disk")
            self.conn.execute(f"PRAGMA synchronous = {sync}")
            # Checkpoints (the only fsyncs under NORMAL) every ~40 MB of WAL instead of ~4 MB: a
            # commit per event stays cheap; `close` checkpoints what is left.
            page = self.conn.execute("PRAGMA page_size").fetchone()[0]
            self.conn.execute(f"PRAGMA wal_autocheckpoint = {WAL_CHECKPOINT_BYTES // page}")
            self.conn.execute("PRAGMA foreign_keys = ON")
            from dealer_assist.store.migrations import apply_migrations  # sqlite-utils: only when recording

            apply_migrations(self.conn)
        except sqlite3.DatabaseError as exc:
            raise DealerAssistError(f"cannot open {self.path} as a hand log: {exc}") from None
        self._load_schema()
        self._head = queries.chain_head(self.conn)
        for table in CHAINED_TABLES:
            self._next_id[table] = self.conn.execute(f'SELECT coalesce(max(id), 0) + 1 FROM "{table}"').fetchone()[0]
        self._check_anchor(had_anchor, adopt_key)
        self._open_hands = set(queries.open_hand_ids(self.conn))
        unrefereed = self._record_held()
        self.recovered = tuple(self.end_open_hands(INCOMPLETE_REASON, unrefereed=unrefereed))

    def _record_held(self) -> dict[int, int]:
        """The inputs a live referee still held when the recorder stopped (`store.held`), recorded unrefereed into
        the newest open hand (one recorder, one table: the hand that referee had open) in its order; returns how many
        that hand got. With no hand open (the held inputs began a hand the referee had not started yet), they are kept
        in a file of their own, `unrecorded_held`."""
        path = held_path(self.path)
        if not path.exists():
            return {}
        held = still_held(path)
        hand_id = max(self._open_hands, default=None)
        if hand_id is not None:
            order = InputOrderer()                 # as the referee would have had them
            order.push(h.item for h in held)
            for item in order.flush():
                if isinstance(item, DealerAction):
                    self.record_action(hand_id, item)
                else:
                    self.record_event(hand_id, item)
        elif held:
            self.unrecorded_held = path.with_name(f"{path.name}-unrecorded-{time.strftime('%Y%m%dT%H%M%S')}.jsonl")
            self.unrecorded_held.write_text("".join(held_line(h, n) for n, h in enumerate(held, 1)), encoding="utf-8")
        path.unlink()
        return {hand_id: len(held)} if hand_id is not None and held else {}

    def _load_schema(self) -> None:
        """Column names and types of each record table, read from the database itself."""
        for table in CHAINED_TABLES:
            info = self.conn.execute(f'PRAGMA table_info("{table}")').fetchall()
            if not info:
                raise DealerAssistError(f"the hand log {self.path} has no {table} table; run `log verify`")
            self._data_columns[table] = [(row[1], row[2].upper(), PYTHON_TYPES.get(row[2].upper(), object))
                                         for row in info if row[1] not in _AUTO]
            names = ["id", "seq", "prev", "recorded_at", *(c[0] for c in self._data_columns[table]), "hash"]
            self._column_set[table] = frozenset(row[1] for row in info)
            marks = ", ".join("?" for _ in names)
            cols = ", ".join(f'"{n}"' for n in names)
            self._insert_sql[table] = f'INSERT INTO "{table}" ({cols}) VALUES ({marks})'

    def _check_anchor(self, had_anchor: bool, adopt_key: bool = False) -> None:
        """Refuse to record onto a log whose end no longer matches its anchor, or whose signature this recorder
        cannot keep (either would hide the evidence)."""
        anchor = read_anchor(self._anchor.path) if self._anchor and had_anchor else None
        if anchor is None:
            if self._head.seq:
                raise DealerAssistError(
                    f"the chain anchor {anchor_path(self.path)} is missing, so removed records could go unnoticed; "
                    "run `dealer-assist log verify` and record into a new log file")
            if self._anchor:
                self._anchor.write(Anchor(EMPTY_HEAD, EMPTY_HEAD))
            return
        if self._head not in (anchor.before, anchor.after):
            raise DealerAssistError(
                f"the end of the hand log {self.path} does not match its anchor (records were removed or added "
                "outside Dealer Assist); run `dealer-assist log verify` and record into a new log file")
        self._check_signature(anchor, adopt_key)

    def _check_signature(self, anchor: Anchor, adopt_key: bool) -> None:
        """A signed log takes records only with its key; an unsigned one with records takes a key only when adopted
        after its chain verifies, so that a rewritten history is never signed by the next recording."""
        assert self._anchor is not None
        key = self._anchor.key
        if anchor.mac is not None:
            if key is None:
                raise DealerAssistError(f"the hand log {self.path} is signed; set {KEY_ENV} to its key file to "
                                        "record into it")
            if not anchor.signed_by(key):
                raise DealerAssistError(
                    f"the chain anchor of {self.path} is not signed with this key (rewritten, or another key): run "
                    "`dealer-assist log verify --key-file KEY` and record into a new log file")
            return
        if key is None or not self._head.seq:
            return
        if not adopt_key:
            raise DealerAssistError(
                f"the hand log {self.path} is not signed, but a signing key is set: check it and adopt the key "
                "with `dealer-assist log sign --key-file KEY`, or record into a new log file")
        report = self.verify()
        if not report.ok:
            raise DealerAssistError(f"the hand log {self.path} fails `log verify` ({report.problems[0]}); a key "
                                    "would sign a damaged history: record into a new log file")
        self._anchor.write(Anchor(anchor.before, anchor.after), sync=True)

    @_locked
    def close(self) -> None:
        """Checkpoint the WAL (writer), close the database and release the writer lock."""
        if self._anchor is not None and not self.conn.in_transaction:
            with suppress(sqlite3.Error):  # a reader may hold the WAL; the next writer checkpoints it
                self.conn.execute("PRAGMA wal_checkpoint(PASSIVE)")
        self.conn.close()
        if self._anchor is not None:
            self._anchor.close()

    def __enter__(self) -> HandLog:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    # ----- the append path

    @property
    def head(self) -> ChainHead:
        """The last record's place in the chain."""
        return self._head

    def _begin(self) -> tuple[ChainHead, dict[str, int], set[int]]:
        """BEGIN IMMEDIATE (takes the write lock now, not at the first insert); returns what to restore."""
        if self._anchor is None:
            raise DealerAssistError(f"the hand log {self.path} is open read-only")
        saved = self._head, dict(self._next_id), set(self._open_hands)
        self.conn.execute("BEGIN IMMEDIATE")
        self._in_txn = True
        return saved

    def _commit(self, start: ChainHead) -> None:
        """Anchor the new head, then COMMIT (see `AnchorWriter` for why in this order)."""
        assert self._anchor is not None
        if self._head != start:
            self._anchor.write(Anchor(start, self._head), sync=self._durability == "power")
        self.conn.execute("COMMIT")
        self._in_txn = False

    def _rollback(self, saved: tuple[ChainHead, dict[str, int], set[int]]) -> None:
        """Undo the transaction and the caches it moved."""
        self._in_txn = False
        if self.conn.in_transaction:
            self.conn.execute("ROLLBACK")
        self._head, self._next_id, self._open_hands = saved

    @contextmanager
    def _transaction(self) -> Iterator[None]:
        """One write transaction; nested use joins the outer one."""
        if self._in_txn:
            yield
            return
        saved = self._begin()
        try:
            yield
            self._commit(saved[0])
        except BaseException:
            self._rollback(saved)
            raise

    @contextmanager
    def batch(self) -> Iterator[HandLog]:
        """Write many records in one transaction (bulk import, benchmarks): all or nothing."""
        with self._lock, self._transaction():
            yield self

    def _row(self, table: str, values: Mapping[str, Any]) -> tuple[list[Any], RecordRef]:
        """The next chained row of `table` as INSERT parameters (in `_insert_sql` order), and where it will stand in the
        chain. Its hash is `chain.row_hash` of the row, computed from the non-NULL columns as they are gathered."""
        head = self._head
        ident, seq, recorded = self._next_id[table], head.seq + 1, now_text()
        params: list[Any] = [ident, seq, head.hash, recorded]
        content: dict[str, Any] = {"@table": table, "id": ident, "seq": seq, "prev": head.hash, "recorded_at": recorded}
        for name, sql_type, python_type in self._data_columns[table]:
            value = values.get(name)
            if value is not None:
                if type(value) is not python_type:
                    value = normalise(value, sql_type)
                content[name] = value
            params.append(value)
        if not values.keys() <= self._column_set[table]:
            raise DealerAssistError(f"the {table} table has no column {sorted(set(values) - self._column_set[table])}")
        digest = hashlib.sha256((head.hash + canonical_json(content)).encode()).hexdigest()
        params.append(digest)
        return params, RecordRef(table, ident, seq, digest)

    def _insert(self, ref: RecordRef, params: list[Any], after: ChainHead | None = None) -> RecordRef:
        """Execute the row's INSERT and move the caches past it (`after`: the new head, when made already)."""
        try:
            self.conn.execute(self._insert_sql[ref.table], params)
        except sqlite3.IntegrityError as exc:
            raise DealerAssistError(f"could not append to {ref.table}: {exc} (was the log changed by another "
                                    "program while recording? run `dealer-assist log verify`)") from None
        self._next_id[ref.table] += 1
        self._head = after or ChainHead(ref.seq, ref.hash)
        return ref

    def _append(self, table: str, values: Mapping[str, Any]) -> RecordRef:
        """Insert one chained row; call inside a transaction."""
        params, ref = self._row(table, values)
        return self._insert(ref, params)

    def _write(self, table: str, values: Mapping[str, Any]) -> RecordRef:
        """Append one row in its own transaction (or the open batch): the hot path.

        Outside a batch the row is one INSERT in autocommit mode, which SQLite runs as its own transaction: two
        statements fewer per event than BEGIN IMMEDIATE ... COMMIT, the same durability. The anchor is written first,
        as `_commit` does; a failed INSERT leaves the database at the anchor's `before`, which `verify` accepts."""
        if self._in_txn:
            return self._append(table, values)
        if self._anchor is None:
            raise DealerAssistError(f"the hand log {self.path} is open read-only")
        params, ref = self._row(table, values)
        after = ChainHead(ref.seq, ref.hash)
        self._anchor.write(Anchor(self._head, after), sync=self._durability == "power")
        return self._insert(ref, params, after)

    def _require_hand(self, hand_id: int, *, open_: bool) -> None:
        """A clear error for a read-only log, a hand that does not exist or (when `open_`) has already ended."""
        if self._anchor is None:
            raise DealerAssistError(f"the hand log {self.path} is open read-only")
        if open_ and hand_id in self._open_hands:
            return
        exists = self.conn.execute("SELECT 1 FROM hands WHERE id = ?", (hand_id,)).fetchone()
        if not exists:
            raise DealerAssistError(f"no hand {hand_id} in the log")
        if open_:
            raise DealerAssistError(f"hand {hand_id} has already ended; record a correction instead")

    # ----- tables, dealers, sessions, hands

    @_locked
    def register_table(self, name: str, *, profile: str = "", house_rules: str | Mapping[str, Any] = "") -> int:
        """The id of this table configuration; a changed profile or house rules gets a new row (a new version)."""
        if not name.strip():
            raise DealerAssistError("a table needs a name")
        check_name("table", name)
        rules = _rules_text(house_rules)
        row = self.conn.execute('SELECT id, profile, house_rules FROM "tables" WHERE name = ? ORDER BY id DESC LIMIT 1',
                                (name,)).fetchone()
        if row and row[1] == profile and row[2] == rules:
            return int(row[0])
        return self._write("tables", {"name": name, "profile": profile, "house_rules": rules}).id

    @_locked
    def register_dealer(self, name: str) -> int:
        """The id of the dealer with this name (badge or name as the room writes it), added if new."""
        if not name.strip():
            raise DealerAssistError("a dealer needs a name")
        check_name("dealer", name)
        row = self.conn.execute("SELECT id FROM dealers WHERE name = ? ORDER BY id LIMIT 1", (name,)).fetchone()
        if row:
            return int(row[0])
        return self._write("dealers", {"name": name}).id

    @_locked
    def open_session(self, table: str, dealer: str, *, profile: str = "",
                     house_rules: str | Mapping[str, Any] = "", started_at: datetime | None = None,
                     calibration: str | None = None) -> int:
        """Start a dealer's down at a table; returns the session id that hands are recorded under. `calibration`: the
        camera calibration's TOML text when a camera watches the table (kept with the session's row)."""
        with self._transaction():
            table_id = self.register_table(table, profile=profile, house_rules=house_rules)
            dealer_id = self.register_dealer(dealer)
            when = local_text(started_at)
            values: dict[str, Any] = {"table_id": table_id, "dealer_id": dealer_id, "started_at": when}
            if calibration is not None and "calibration" in self._column_set["sessions"]:
                values["calibration"] = calibration
            return self._append("sessions", values).id

    @_locked
    def start_hand(self, session_id: int, *, button: int, stacks: Mapping[int, int], game: str = "badugi",
                   number: int | None = None, house_rules: str | Mapping[str, Any] | None = None,
                   t: float | None = None, started_at: datetime | None = None, camera: bool | None = None) -> int:
        """Record a new hand (seats and their starting stacks); returns its id. House rules default to the table's;
        `camera`: refereed as a camera's table or strictly (None: not said, as in hands entered by hand)."""
        session = self.conn.execute(
            'SELECT s.table_id, s.dealer_id, t.house_rules FROM sessions s JOIN "tables" t ON t.id = s.table_id '
            "WHERE s.id = ?", (session_id,)).fetchone()
        if session is None:
            raise DealerAssistError(f"no session {session_id} in the log; open one with open_session")
        if not stacks:
            raise DealerAssistError("a hand needs at least one seat with a stack")
        table_id, dealer_id, table_rules = session
        if number is None:
            last = self.conn.execute("SELECT max(number) FROM hands WHERE table_id = ?", (table_id,)).fetchone()[0]
            number = (last or 0) + 1
        seats = {str(int(seat)): int(stack) for seat, stack in sorted(stacks.items())}
        when = local_text(started_at)
        values = {
            "table_id": table_id, "session_id": session_id, "dealer_id": dealer_id, "number": number,
            "game": game, "button": button, "house_rules": table_rules if house_rules is None else
            _rules_text(house_rules), "seats": canonical_json(seats), "started_at": when, "t": t,
            "camera": None if camera is None else int(bool(camera)),
        }
        if "first_event" in self._column_set["hands"]:  # a log left before migration m003 is written as it was
            values["first_event"] = self._next_id["events"]
        hand_id = self._write("hands", values).id
        self._open_hands.add(hand_id)
        return hand_id

    @_locked
    def end_hand(self, hand_id: int, status: HandStatus = "complete", *, reason: str | None = None,
                 t: float | None = None) -> RecordRef:
        """Record how the hand ended (complete, misdeal, void, incomplete); a hand ends once."""
        if status not in HAND_STATUSES:
            raise DealerAssistError(f"unknown hand status {status!r}; accepted: {', '.join(HAND_STATUSES)}")
        self._require_hand(hand_id, open_=True)
        with self._transaction():
            return self._end(hand_id, status, reason, t)

    @_locked
    def end_open_hands(self, reason: str, *, t: float | None = None,
                       unrefereed: Mapping[int, int] | None = None) -> list[int]:
        """End every hand this recorder started and has not ended (at opening: every hand left open), as incomplete
        with `reason` (a crash found on reopening, or the recorder stopping on a fault); returns their ids.
        `unrefereed`: per hand, how many of its last inputs were recorded without being refereed (`_record_held`)."""
        ended = sorted(self._open_hands)
        if ended:
            with self._transaction():
                for hand_id in ended:
                    n = (unrefereed or {}).get(hand_id)
                    why = reason if not n else (f"{reason}; its last {n} input{'s' if n > 1 else ''} were held by the "
                                                "live referee then and are recorded unrefereed")
                    self._end(hand_id, "incomplete", why, t, unrefereed=n)
        return ended

    def _end(self, hand_id: int, status: str, reason: str | None, t: float | None,
             unrefereed: int | None = None) -> RecordRef:
        """Append the hand's end row (inside a transaction) and forget it as open."""
        values: dict[str, Any] = {"hand_id": hand_id, "status": status, "reason": reason, "ended_at": now_text(),
                                  "t": t}
        if unrefereed:
            values["unrefereed"] = unrefereed
        if "last_event" in self._column_set["hand_ends"]:
            values["last_event"] = self._next_id["events"] - 1
        ref = self._append("hand_ends", values)
        self._open_hands.discard(hand_id)
        return ref

    # ----- what happens in a hand

    @_locked
    def record_event(self, hand_id: int, event: TableEvent) -> RecordRef:
        """Record a table event seen by vision (committed before this returns)."""
        self._require_hand(hand_id, open_=True)
        return self._write("events", {
            "hand_id": hand_id, "kind": event.kind, "seat": getattr(event, "seat", None), "t": event.t,
            "frame": event.frame, "payload": canonical_json(event.to_dict()),
        })

    @_locked
    def record_action(self, hand_id: int, action: DealerAction, *, frame: int | None = None,
                      phase: str | None = None) -> RecordRef:
        """Record a betting action (entered by the dealer, or a fold seen by vision)."""
        self._require_hand(hand_id, open_=True)
        return self._write("actions", {
            "hand_id": hand_id, "seat": action.seat, "action": action.action, "amount": action.amount,
            "t": action.t, "frame": frame, "source": action.source, "phase": phase,
        })

    @_locked
    def record_flag(self, hand_id: int, flag: Flag, *, snapshot: str | None = None) -> RecordRef:
        """Record a flag; `snapshot` is the SHA-256 returned by `save_snapshot` for its key frame."""
        self._require_hand(hand_id, open_=True)
        if snapshot is not None and not self.conn.execute(
                "SELECT 1 FROM snapshots WHERE sha256 = ?", (snapshot,)).fetchone():
            raise DealerAssistError(f"no snapshot {snapshot} in the log; save it with save_snapshot first")
        data = flag.to_dict()
        return self._write("flags", {"hand_id": hand_id, **{k: data[k] for k in FLAG_COLUMNS}, "snapshot": snapshot})

    @_locked
    def record_award(self, hand_id: int, award: Any, *, t: float | None = None,
                     explanation: Sequence[str] | None = None) -> RecordRef:
        """Record a showdown award (the referee's Award or its dict: pots, shares with reasons, totals)."""
        self._require_hand(hand_id, open_=True)
        payload = to_jsonable(award)
        if not isinstance(payload, dict):
            raise DealerAssistError(f"an award must be a mapping or a dataclass, got {type(award).__name__}")
        lines = list(explanation) if explanation is not None else award_sentences(payload)
        return self._write("awards", {"hand_id": hand_id, "t": t, "payload": canonical_json(payload),
                                      "explanation": "\n".join(lines)})

    @_locked
    def record_correction(self, hand_id: int, kind: CorrectionKind, *, reason: str, by: str,
                          target_id: int | None = None, data: Mapping[str, Any] | None = None,
                          t: float | None = None) -> RecordRef:
        """Record a floor correction as a new row pointing at what it corrects (nothing is overwritten).

        misread_card: target an event id, data {"card": "Kd"} (the card it really was, or "seat": N).
        void_hand / note: the hand itself. accept_flag / dismiss_flag: target a flag id.
        shown_hand: the hand itself, data {"seat": N, "cards": "Ah 2c 3d 4s"} (read by the floor after the hand).
        mucked_hand: the hand itself, data {"seat": N} (the floor saw the seat muck at the showdown).
        false_event: target an event id (the floor found it did not happen).
        missed_event: the hand itself, data {"event": {"kind": "replaced", "t": 27.9, "seat": 3, ...}} (an event the
        camera did not report: one of `MISSED_EVENT_KINDS`, at a seat of the hand, at a time in seconds).
        award: the hand itself, data {"award": {...}, "after": [correction ids]} (`store.floor_award`).
        """
        target_table = CORRECTION_TARGETS.get(kind)
        if target_table is None:
            raise DealerAssistError(f"unknown correction {kind!r}; accepted: {', '.join(CORRECTION_TARGETS)}")
        if not reason.strip() or not by.strip():
            raise DealerAssistError("a correction needs a reason and who made it")
        check_name("floor person's", by)
        self._require_hand(hand_id, open_=False)
        if target_table == "hands":
            target_id = hand_id if target_id is None else target_id
            if target_id != hand_id:
                raise DealerAssistError(f"a {kind} correction applies to its own hand {hand_id}, not {target_id}")
        else:
            if target_id is None:
                raise DealerAssistError(f"a {kind} correction needs the id of the {target_table[:-1]} it corrects")
            row = self.conn.execute(f'SELECT hand_id FROM "{target_table}" WHERE id = ?', (target_id,)).fetchone()
            if row is None or row[0] != hand_id:
                raise DealerAssistError(f"hand {hand_id} has no {target_table[:-1]} {target_id}")
        payload = to_jsonable(dict(data or {}))
        if kind == "misread_card":
            if "card" not in payload:
                raise DealerAssistError('a misread_card correction needs data {"card": "Kd"} (the card it was)')
            payload["card"] = str(parse_card(str(payload["card"])))
        elif kind in ("shown_hand", "mucked_hand"):
            payload = self._shown_hand_data(hand_id, payload, cards=kind == "shown_hand")
        elif kind == "missed_event":
            payload = {"event": self._missed_event_data(hand_id, payload.get("event")).to_dict()}
        elif kind == "award" and not isinstance(payload.get("award"), dict):
            raise DealerAssistError('an award correction needs data {"award": {...}} (the award as the log keeps it)')
        return self._write("corrections", {
            "hand_id": hand_id, "kind": kind, "target_table": target_table, "target_id": target_id,
            "data": canonical_json(payload), "reason": reason, "by": by, "t": t,
        })

    def _missed_event_data(self, hand_id: int, data: Any) -> TableEvent:
        """A missed_event correction's event, checked: a seat event the floor can add, at a seat of the hand, at a
        time in seconds (a discard of at least one card)."""
        accepted = ", ".join(MISSED_EVENT_KINDS)
        if not isinstance(data, dict) or data.get("kind") not in MISSED_EVENT_KINDS:
            kind = data.get("kind") if isinstance(data, dict) else data
            raise DealerAssistError(f"a missed event is one of {accepted}; got {kind!r}")
        event = missed_event(data)
        seat = getattr(event, "seat", None)
        seats = json.loads(self.conn.execute("SELECT seats FROM hands WHERE id = ?", (hand_id,)).fetchone()[0])
        if not isinstance(seat, int) or isinstance(seat, bool) or str(seat) not in seats:
            raise DealerAssistError(f"hand {hand_id} has no seat {seat!r}; a missed event names one of its seats")
        t = event.t
        if isinstance(t, bool) or not isinstance(t, int | float) or not math.isfinite(t) or t < 0:
            raise DealerAssistError(f"a missed event's time is seconds into the recording, e.g. 27.9; got {t!r}")
        count = getattr(event, "count", 1)
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            raise DealerAssistError(f"a missed discard is of 1 card or more; got {count!r}")
        return event

    def _shown_hand_data(self, hand_id: int, data: Mapping[str, Any], *, cards: bool) -> dict[str, Any]:
        """A shown_hand (`cards`) or mucked_hand correction's data, checked: a seat of the hand and, shown, its cards
        as the log writes cards."""
        seats = self.conn.execute("SELECT seats FROM hands WHERE id = ?", (hand_id,)).fetchone()
        seat = data.get("seat")
        if not isinstance(seat, int) or isinstance(seat, bool) or str(seat) not in json.loads(seats[0]):
            raise DealerAssistError(f"hand {hand_id} has no seat {seat!r}; the floor's read names one of its seats")
        if not cards:
            return {"seat": seat}
        shown = parse_cards(str(data.get("cards", "")))
        if not shown or len(set(shown)) != len(shown):
            raise DealerAssistError(f"a shown hand needs its cards, each once, e.g. \"Ah 2c 3d 4s\"; got "
                                    f"{data.get('cards')!r}")
        return {"seat": seat, "cards": " ".join(map(str, shown))}

    @_locked
    def save_snapshot(self, hand_id: int, label: str, jpeg: bytes, *, t: float | None = None,
                      frame: int | None = None) -> str:
        """Save a key frame (JPEG bytes) beside the database and record it; returns its SHA-256 (hex)."""
        if not jpeg.startswith(_JPEG_MAGIC):
            raise DealerAssistError("a snapshot must be JPEG bytes (they start with FF D8 FF)")
        self._require_hand(hand_id, open_=False)
        digest = hashlib.sha256(jpeg).hexdigest()
        target = snapshot_file(self.path, digest)
        try:
            if not (target.is_file() and hashlib.sha256(target.read_bytes()).hexdigest() == digest):
                target.parent.mkdir(parents=True, exist_ok=True)
                tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
                with open(tmp, "wb") as fh:
                    fh.write(jpeg)
                    if self._durability == "power":
                        fh.flush()
                        os.fsync(fh.fileno())
                os.replace(tmp, target)
        except OSError as exc:
            raise DealerAssistError(f"cannot save the key frame {target} ({path_problem(target, exc)})") from None
        self._write("snapshots", {"hand_id": hand_id, "label": label, "sha256": digest, "size": len(jpeg),
                                  "t": t, "frame": frame})
        return digest

    # ----- reading

    @_locked
    def list_hands(self, *, table: str | None = None, date: str | None = None, dealer: str | None = None,
                   seat: int | None = None, flag: str | None = None, limit: int | None = None,
                   unawarded: bool = False) -> list[HandSummary]:
        """Hands matching every given filter, oldest first (`date` is YYYY-MM-DD, local date of the start;
        `unawarded`: ended, not voided, with no award yet, the referee's or the floor's)."""
        return queries.list_hands(self.conn, table=table, date=date, dealer=dealer, seat=seat, flag=flag,
                                  limit=limit, unawarded=unawarded)

    @_locked
    def story(self, hand_id: int) -> HandStory:
        """Everything recorded about one hand, in chain order."""
        return queries.hand_story(self.conn, hand_id)

    @_locked
    def verify(self, *, expected_head: ChainHead | None = None, key: bytes | None = None) -> VerifyReport:
        """Check the chain, the anchor (its signature too, given the key), references and snapshot files (see
        `store.verify`)."""
        return verify_log(self.conn, self.path, expected_head=expected_head, key=key)

    @_locked
    def hand_ids(self) -> list[int]:
        """Every hand id, oldest first."""
        return [int(r[0]) for r in self.conn.execute("SELECT id FROM hands ORDER BY id")]

    @_locked
    def incomplete_hands(self) -> list[int]:
        """Hands ended as incomplete (the recorder stopped mid-hand)."""
        return [int(r[0]) for r in self.conn.execute(
            "SELECT hand_id FROM hand_ends WHERE status = 'incomplete' ORDER BY hand_id")]


def snapshot_file(db_path: Path, sha256: str) -> Path:
    """Where the snapshot with this SHA-256 is kept: `<db stem>.snapshots/ab/abcdef....jpg`."""
    return snapshot_dir(db_path) / sha256[:2] / f"{sha256}.jpg"
