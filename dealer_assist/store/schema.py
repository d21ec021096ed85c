"""What the hand log's schema promises to the rest of the store: record tables, guards, migrations.

The migrations themselves (the DDL) live in `store.migrations`, which needs sqlite-utils; this
module does not, so read-only commands start quickly.
"""

from __future__ import annotations

import sqlite3

MIGRATION_SET = "dealer_assist.hand_log"
MIGRATION_NAMES: tuple[str, ...] = ("m001_initial_schema", "m002_hand_camera", "m003_hand_event_bounds",
                                  "m004_hand_unrefereed", "m005_session_calibration")
ADDITIVE_MIGRATIONS = frozenset({"m002_hand_camera", "m003_hand_event_bounds", "m004_hand_unrefereed",
                                 "m005_session_calibration"})
"""Migrations a log can do without when read: they add nullable columns (which read as NULL) and views, so a
read-only copy kept as evidence need not be opened for recording to be shown or verified."""
MIGRATIONS_TABLE = "_sqlite_migrations"

HAND_TABLES: tuple[str, ...] = ("hand_ends", "events", "actions", "flags", "awards", "corrections", "snapshots")
"""The record tables whose rows belong to one hand (by `hand_id`); the hand's own row is in `hands`."""
# Every record table; all are append-only and hash-chained (`seq`, `prev`, `hash`).
CHAINED_TABLES: tuple[str, ...] = ("tables", "dealers", "sessions", "hands", *HAND_TABLES)


def guard_triggers() -> dict[str, tuple[str, str]]:
    """The append-only trigger names per chained table (`verify` reports a missing one)."""
    return {name: (f"{name}_no_update", f"{name}_no_delete") for name in CHAINED_TABLES}


def pending_migrations(conn: sqlite3.Connection) -> list[str] | None:
    """Migrations this version knows that the log lacks; None if it has no migrations table at all."""
    if not conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?",
                        (MIGRATIONS_TABLE,)).fetchone():
        return None
    applied = {r[0] for r in conn.execute(
        f"SELECT name FROM {MIGRATIONS_TABLE} WHERE migration_set = ?", (MIGRATION_SET,))}
    return [name for name in MIGRATION_NAMES if name not in applied]


def blocking_migrations(conn: sqlite3.Connection) -> list[str] | None:
    """The pending migrations a reader cannot do without (all but the additive ones); None as `pending_migrations`."""
    pending = pending_migrations(conn)
    return None if pending is None else [name for name in pending if name not in ADDITIVE_MIGRATIONS]
