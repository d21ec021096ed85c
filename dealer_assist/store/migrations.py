"""The hand log's schema, as numbered sqlite-utils migrations (each runs in one transaction).

Imported only when a log is opened for recording: sqlite-utils takes a while to import, and the
read-only commands (`log show`, `log list`) do without it (see `schema.pending_migrations`;
an additive migration, `schema.ADDITIVE_MIGRATIONS`, does not stop them reading an older log).

Migrations are frozen once released: change the schema by adding `m002_...`, never by editing
`m001`. A migration may add nullable columns to a record table (old rows keep their hashes, see
`chain.row_content`) but must never rewrite existing rows. The applied ones are listed in the
`_sqlite_migrations` table that sqlite-utils keeps.
"""

from __future__ import annotations

import sqlite3

from sqlite_utils import Database
from sqlite_utils.migrations import Migrations

from dealer_assist.store.schema import MIGRATION_NAMES, MIGRATION_SET

# `seq` has no index of its own: ids and sequence numbers rise together in each table, so the last
# row by id is the table's last in the chain, and one index fewer per row keeps a commit per event cheap.
_CHAIN = "id INTEGER PRIMARY KEY, seq INTEGER NOT NULL, prev TEXT NOT NULL, recorded_at TEXT NOT NULL"

_V1_TABLES = {
    "tables": "name TEXT NOT NULL, profile TEXT NOT NULL, house_rules TEXT NOT NULL",
    "dealers": "name TEXT NOT NULL",
    "sessions": """table_id INTEGER NOT NULL REFERENCES "tables"(id),
        dealer_id INTEGER NOT NULL REFERENCES dealers(id), started_at TEXT NOT NULL""",
    "hands": """table_id INTEGER NOT NULL REFERENCES "tables"(id), session_id INTEGER NOT NULL REFERENCES sessions(id),
        dealer_id INTEGER NOT NULL REFERENCES dealers(id), number INTEGER NOT NULL, game TEXT NOT NULL,
        button INTEGER NOT NULL, house_rules TEXT NOT NULL, seats TEXT NOT NULL, started_at TEXT NOT NULL, t REAL""",
    "hand_ends": """hand_id INTEGER NOT NULL UNIQUE REFERENCES hands(id), status TEXT NOT NULL, reason TEXT,
        ended_at TEXT NOT NULL, t REAL""",
    "events": """hand_id INTEGER NOT NULL REFERENCES hands(id), kind TEXT NOT NULL, seat INTEGER, t REAL NOT NULL,
        frame INTEGER NOT NULL, payload TEXT NOT NULL""",
    "actions": """hand_id INTEGER NOT NULL REFERENCES hands(id), seat INTEGER NOT NULL, action TEXT NOT NULL,
        amount INTEGER, t REAL NOT NULL, frame INTEGER, source TEXT NOT NULL, phase TEXT""",
    "flags": """hand_id INTEGER NOT NULL REFERENCES hands(id), kind TEXT NOT NULL, severity TEXT NOT NULL, seat INTEGER,
        rule TEXT NOT NULL, option TEXT, t REAL NOT NULL, frame INTEGER, message TEXT NOT NULL, snapshot TEXT""",
    "awards": """hand_id INTEGER NOT NULL REFERENCES hands(id), t REAL, payload TEXT NOT NULL,
        explanation TEXT NOT NULL""",
    "corrections": """hand_id INTEGER NOT NULL REFERENCES hands(id), kind TEXT NOT NULL, target_table TEXT NOT NULL,
        target_id INTEGER NOT NULL, data TEXT NOT NULL, reason TEXT NOT NULL, by TEXT NOT NULL, t REAL""",
    "snapshots": """hand_id INTEGER NOT NULL REFERENCES hands(id), label TEXT NOT NULL, sha256 TEXT NOT NULL,
        size INTEGER NOT NULL, t REAL, frame INTEGER""",
}

_V1_INDEXES = (
    "hands(table_id, number)", "hands(started_at)", "hands(dealer_id)", "hands(session_id)",
    "events(hand_id)", "actions(hand_id)", "flags(hand_id)", "flags(kind)", "awards(hand_id)",
    "corrections(hand_id)", "snapshots(hand_id)", "snapshots(sha256)",
)

_APPEND_ONLY = "hand log rows are append-only; record a correction instead"

_V1_VIEW = """
CREATE VIEW hands_view AS
SELECT h.id, h.number, t.name AS "table", d.name AS dealer, h.game, h.button, h.seats, h.started_at,
       e.status, e.ended_at, e.reason AS end_reason,
       (SELECT count(*) FROM flags f WHERE f.hand_id = h.id) AS flags
FROM hands h
JOIN "tables" t ON t.id = h.table_id
JOIN dealers d ON d.id = h.dealer_id
LEFT JOIN hand_ends e ON e.hand_id = h.id
"""

migrations = Migrations(MIGRATION_SET)


@migrations()
def m001_initial_schema(db: Database) -> None:
    """Record tables, their indexes, append-only triggers and a browsing view."""
    for name, columns in _V1_TABLES.items():
        db.execute(f'CREATE TABLE "{name}" ({_CHAIN}, {columns}, hash TEXT NOT NULL) STRICT')
        for verb in ("UPDATE", "DELETE"):
            db.execute(
                f'CREATE TRIGGER "{name}_no_{verb.lower()}" BEFORE {verb} ON "{name}" '
                f"BEGIN SELECT RAISE(ABORT, '{_APPEND_ONLY}'); END"
            )
    for i, index in enumerate(_V1_INDEXES):
        table, cols = index.split("(")
        db.execute(f'CREATE INDEX "ix_{table}_{i}" ON "{table}"({cols}')
    db.execute(_V1_VIEW)


@migrations()
def m002_hand_camera(db: Database) -> None:
    """`hands.camera`: 1 when the hand was refereed as a camera's table (early and late counts allowed), 0 when
    strictly; NULL for hands recorded before this column (their rows and hashes are unchanged)."""
    db.execute("ALTER TABLE hands ADD COLUMN camera INTEGER")


_EVENTS_BY_HAND = f'ix_events_{_V1_INDEXES.index("events(hand_id)")}'

# Each hand's events: by the hand's bounds where it has them (a range of event ids, SQLite's rowid), by `hand_id`
# alone for a hand recorded before them. SQLite carries `hand_id = ?` over to the hand's row, so
# `SELECT * FROM hand_events WHERE hand_id = ?` reads one range.
_HAND_EVENTS_VIEW = """
CREATE VIEW hand_events AS
SELECT ev.* FROM hands h
LEFT JOIN hand_ends e ON e.hand_id = h.id
JOIN events ev ON ev.hand_id = h.id
    AND ev.id BETWEEN coalesce(h.first_event, 0) AND coalesce(e.last_event, 9223372036854775807)
"""


@migrations()
def m003_hand_event_bounds(db: Database) -> None:
    """`hands.first_event` and `hand_ends.last_event`: the first event id the hand could have and the last one when it
    ended, so a hand's events are read as a range of ids and a new log keeps no index on `events.hand_id` (one b-tree
    fewer to write with every event). A log that already has hands keeps that index for them (their bounds are NULL;
    their rows and hashes are unchanged). The `hand_events` view reads either way."""
    db.execute("ALTER TABLE hands ADD COLUMN first_event INTEGER")
    db.execute("ALTER TABLE hand_ends ADD COLUMN last_event INTEGER")
    if db.execute("SELECT 1 FROM hands LIMIT 1").fetchone() is None:
        db.execute(f'DROP INDEX "{_EVENTS_BY_HAND}"')
    db.execute(_HAND_EVENTS_VIEW)


@migrations()
def m004_hand_unrefereed(db: Database) -> None:
    """`hand_ends.unrefereed`: how many of the hand's last inputs were recorded without being refereed (a live referee
    held them, `horizon_s` behind the camera, when the recorder stopped; `store.held`). NULL before this column."""
    db.execute("ALTER TABLE hand_ends ADD COLUMN unrefereed INTEGER")


@migrations()
def m005_session_calibration(db: Database) -> None:
    """`sessions.calibration`: the camera calibration the session's cards were mapped into seats by (the camera file's
    TOML: homography, how it was fitted and its error, the light's white gains), so a reviewer can tell what the
    camera saw from what it was calibrated to see. NULL for hands entered by hand and sessions before this column."""
    db.execute("ALTER TABLE sessions ADD COLUMN calibration TEXT")


def apply_migrations(conn: sqlite3.Connection, *, stop_before: str | None = None) -> None:
    """Apply the pending migrations, each in its own transaction, recorded in `_sqlite_migrations` (`stop_before`: the
    first one not to apply, to make a log as an older version left it)."""
    assert [m.name for m in migrations._migrations] == list(MIGRATION_NAMES), "keep schema.MIGRATION_NAMES in step"
    migrations.apply(Database(conn, execute_plugins=False), stop_before=stop_before)
