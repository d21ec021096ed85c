"""Read queries over the hand log: the chain head, open hands, hand lists and a hand's whole story."""

from __future__ import annotations

import datetime
import json
import re
import sqlite3
from typing import Any

from dealer_assist.errors import DealerAssistError
from dealer_assist.store.chain import EMPTY_HEAD, ChainHead
from dealer_assist.store.records import (
    HandEnd,
    HandStory,
    HandSummary,
    StoredAction,
    StoredAward,
    StoredCorrection,
    StoredEvent,
    StoredFlag,
    StoredRecord,
    StoredSnapshot,
)
from dealer_assist.store.schema import CHAINED_TABLES
from dealer_assist.vision.events import event_from_dict

_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


MAX_ID = 2**63 - 1
"""The largest row id SQLite stores (a signed 64-bit integer)."""


def check_date(text: str) -> None:
    """A one-line error unless `text` is a real calendar date written YYYY-MM-DD."""
    try:
        valid = bool(_DATE.fullmatch(text)) and bool(datetime.date.fromisoformat(text))
    except ValueError:  # a month or day out of range
        valid = False
    if not valid:
        raise DealerAssistError(f"bad date {text!r}; expected a calendar date as YYYY-MM-DD, e.g. 2026-01-31")


def chain_head(conn: sqlite3.Connection) -> ChainHead:
    """The row with the highest sequence number over all record tables (seq 0 when the log is empty).

    Each table's last row by id is its last in the chain (ids and sequence numbers rise together).
    """
    best = EMPTY_HEAD
    for table in CHAINED_TABLES:
        row = conn.execute(f'SELECT seq, hash FROM "{table}" ORDER BY id DESC LIMIT 1').fetchone()
        if row and row[0] > best.seq:
            best = ChainHead(int(row[0]), str(row[1]))
    return best


def open_hand_ids(conn: sqlite3.Connection) -> list[int]:
    """Hands that were started and never ended."""
    return [int(r[0]) for r in conn.execute(
        "SELECT id FROM hands WHERE id NOT IN (SELECT hand_id FROM hand_ends) ORDER BY id")]


VOIDED = "voided"
"""A hand's listed status once it has ended and the floor has voided it (a `void_hand` correction): the end row
keeps what the referee saw, the correction row what the floor decided; the list shows the decision."""

# The status is computed here, not in `hands_view`: a read-only copy of an older log (whose view cannot be
# migrated) lists a voided hand as voided too.
_SUMMARY = f"""
SELECT h.id, h.number, t.name, d.name, h.session_id, h.game, h.button, h.seats, h.started_at,
       CASE WHEN e.status IS NOT NULL AND EXISTS (
                SELECT 1 FROM corrections c WHERE c.hand_id = h.id AND c.kind = 'void_hand')
            THEN '{VOIDED}' ELSE e.status END,
       e.ended_at, (SELECT count(*) FROM flags f WHERE f.hand_id = h.id),
       (SELECT a.payload FROM awards a WHERE a.hand_id = h.id ORDER BY a.id DESC LIMIT 1),
       (SELECT json_extract(c.data, '$.award') FROM corrections c WHERE c.hand_id = h.id AND c.kind = 'award'
        ORDER BY c.id DESC LIMIT 1)
FROM hands h
JOIN "tables" t ON t.id = h.table_id
JOIN dealers d ON d.id = h.dealer_id
LEFT JOIN hand_ends e ON e.hand_id = h.id
"""


def _pot_and_winners(payload: str | None) -> tuple[int | None, dict[int, int]]:
    """The chips in an award's pots and what each winning seat took from them (uncalled bets returned are not
    won); (None, {}) without an award, or for an award payload this version cannot read."""
    if payload is None:
        return None, {}
    try:
        pots = json.loads(payload)["pots"]
        won: dict[int, int] = {}
        for pot in pots:
            for share in pot["shares"]:
                won[int(share["seat"])] = won.get(int(share["seat"]), 0) + int(share["amount"])
        return sum(int(pot["amount"]) for pot in pots), {s: c for s, c in sorted(won.items()) if c}
    except (ValueError, KeyError, TypeError):
        return None, {}


def _summary(row: tuple[Any, ...]) -> HandSummary:
    """A HandSummary from one row of `_SUMMARY`."""
    seats = {int(k): int(v) for k, v in json.loads(row[7]).items()}
    floor = row[13] is not None        # the floor's award, made after the hand, stands over the referee's
    pot, won = _pot_and_winners(row[13] if floor else row[12])
    return HandSummary(id=row[0], number=row[1], table=row[2], dealer=row[3], session_id=row[4], game=row[5],
                       button=row[6], seats=dict(sorted(seats.items())), started_at=row[8], status=row[9],
                       ended_at=row[10], flags=row[11], pot=pot, won=won, floor_award=floor)


def list_hands(conn: sqlite3.Connection, *, table: str | None = None, date: str | None = None,
               dealer: str | None = None, seat: int | None = None, flag: str | None = None,
               limit: int | None = None, unawarded: bool = False) -> list[HandSummary]:
    """Hands matching every given filter, oldest first. `unawarded`: ended hands with no award, neither the referee's
    nor the floor's, neither a misdeal nor voided by the floor (the ones the floor still has to settle)."""
    where: list[str] = []
    params: list[Any] = []
    if table is not None:
        where.append("t.name = ?")
        params.append(table)
    if date is not None:
        check_date(date)
        where.append("substr(h.started_at, 1, 10) = ?")
        params.append(date)
    if dealer is not None:
        where.append("d.name = ?")
        params.append(dealer)
    if seat is not None:
        where.append("EXISTS (SELECT 1 FROM json_each(h.seats) j WHERE j.key = ?)")
        params.append(str(seat))
    if flag is not None:
        where.append("EXISTS (SELECT 1 FROM flags f WHERE f.hand_id = h.id AND f.kind = ?)")
        params.append(flag)
    if unawarded:   # (a misdeal has no pots to award: the chips go back)
        where.append("e.status IS NOT NULL AND e.status != 'misdeal' "
                     "AND NOT EXISTS (SELECT 1 FROM awards a WHERE a.hand_id = h.id) "
                     "AND NOT EXISTS (SELECT 1 FROM corrections c WHERE c.hand_id = h.id "
                     "AND c.kind IN ('award', 'void_hand'))")
    sql = _SUMMARY + (" WHERE " + " AND ".join(where) if where else "") + " ORDER BY h.id"
    if limit is not None:
        sql += " LIMIT ?"
        params.append(limit)
    return [_summary(row) for row in conn.execute(sql, params)]


def _rows(conn: sqlite3.Connection, table: str, hand_id: int) -> list[dict[str, Any]]:
    """A table's rows for one hand as dicts, in chain order."""
    return _rows_where(conn, table, "hand_id", hand_id)


def hand_events_where(conn: sqlite3.Connection, hand_id: int) -> tuple[str, tuple[int, ...]]:
    """The WHERE clause (and its parameters) that finds one hand's rows in `events`: the ids between the hand's
    bounds that are its own, since a new log has no index on `events.hand_id` (migration m003); by `hand_id` alone
    for a hand recorded before its bounds. A hand still open reads to the end of the table."""
    bounded = conn.execute("SELECT 1 FROM pragma_table_info('hands') WHERE name = 'first_event'").fetchone()
    row = conn.execute("SELECT first_event FROM hands WHERE id = ?", (hand_id,)).fetchone() if bounded else None
    first = row[0] if row else None
    if first is None:
        return "hand_id = ?", (hand_id,)
    end = conn.execute("SELECT last_event FROM hand_ends WHERE hand_id = ?", (hand_id,)).fetchone()
    last = MAX_ID if end is None or end[0] is None else end[0]
    return "id BETWEEN ? AND ? AND hand_id = ?", (first, last, hand_id)


def _rows_where(conn: sqlite3.Connection, table: str, column: str, value: int) -> list[dict[str, Any]]:
    cur = conn.execute(f'SELECT * FROM "{table}" WHERE {column} = ? ORDER BY seq', (value,))
    names = [d[0] for d in cur.description]
    return [dict(zip(names, r, strict=True)) for r in cur]


def hand_story(conn: sqlite3.Connection, hand_id: int) -> HandStory:
    """Everything recorded about one hand, sorted by chain sequence (the order it was written)."""
    head = conn.execute(_SUMMARY + " WHERE h.id = ?", (hand_id,)).fetchone() if 0 < hand_id <= MAX_ID else None
    if head is None:
        raise DealerAssistError(f"no hand {hand_id} in the log; `dealer-assist log list` shows the hands")
    row = _rows_where(conn, "hands", "id", hand_id)[0]  # SELECT *: an older log has no `camera` column
    seq, rules, t, camera = row["seq"], row["house_rules"], row["t"], row.get("camera")
    records: list[StoredRecord] = []
    where, params = hand_events_where(conn, hand_id)
    cur = conn.execute(f'SELECT * FROM "events" WHERE {where} ORDER BY id', params)
    names = [d[0] for d in cur.description]
    for r in (dict(zip(names, values, strict=True)) for values in cur):
        records.append(StoredEvent(r["id"], r["seq"], r["recorded_at"], event_from_dict(json.loads(r["payload"]))))
    for r in _rows(conn, "actions", hand_id):
        records.append(StoredAction(r["id"], r["seq"], r["recorded_at"], r["seat"], r["action"], r["amount"],
                                    r["t"], r["frame"], r["source"], r["phase"]))
    for r in _rows(conn, "flags", hand_id):
        records.append(StoredFlag(r["id"], r["seq"], r["recorded_at"], r["kind"], r["severity"], r["seat"],
                                  r["rule"], r["option"], r["t"], r["frame"], r["message"], r["snapshot"]))
    for r in _rows(conn, "awards", hand_id):
        lines = tuple(r["explanation"].split("\n")) if r["explanation"] else ()
        records.append(StoredAward(r["id"], r["seq"], r["recorded_at"], r["t"], json.loads(r["payload"]), lines))
    for r in _rows(conn, "corrections", hand_id):
        records.append(StoredCorrection(r["id"], r["seq"], r["recorded_at"], r["kind"], r["target_table"],
                                        r["target_id"], json.loads(r["data"]), r["reason"], r["by"], r["t"]))
    for r in _rows(conn, "snapshots", hand_id):
        records.append(StoredSnapshot(r["id"], r["seq"], r["recorded_at"], r["label"], r["sha256"], r["size"],
                                      r["t"], r["frame"]))
    records.sort(key=lambda rec: rec.seq)
    ends = _rows(conn, "hand_ends", hand_id)
    end = None
    if ends:
        e = ends[0]
        end = HandEnd(e["id"], e["seq"], e["status"], e["reason"], e["ended_at"], e["t"],
                      e.get("unrefereed"))
    session = _rows_where(conn, "sessions", "id", row["session_id"])  # SELECT *: an older log has no `calibration`
    calibration = session[0].get("calibration") if session else None
    return HandStory(hand=_summary(head), seq=seq, house_rules=rules, t=t, records=tuple(records), end=end,
                     camera=None if camera is None else bool(camera), calibration=calibration)
