"""Property: whatever was recorded, changing any one stored value of any row is caught and that row named."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dealer_assist.audit.records import DealerAction, Flag, FlagKind, Severity
from dealer_assist.cards import card_from_index
from dealer_assist.store import HandLog
from dealer_assist.store.schema import CHAINED_TABLES
from dealer_assist.vision.events import CardDealt, CardsDiscarded, CardsShown, SeatFolded

# One operation: (kind, seat, number) drawn by hypothesis.
OPS = st.lists(st.tuples(st.sampled_from(["dealt", "discard", "fold", "show", "action", "flag", "end"]),
                         st.integers(1, 6), st.integers(0, 51)), min_size=1, max_size=25)


def record(path: Path, ops: list[tuple[str, int, int]]) -> None:
    with HandLog.open(path) as log:
        session = log.open_session("T1", "alice")
        hand = log.start_hand(session, button=1, stacks={s: 100 for s in range(1, 7)})
        for i, (kind, seat, n) in enumerate(ops):
            t = i * 0.25
            if kind == "dealt":
                log.record_event(hand, CardDealt(t=t, frame=i, seat=seat, card=card_from_index(n) if n % 2 else None))
            elif kind == "discard":
                log.record_event(hand, CardsDiscarded(t=t, frame=i, seat=seat, count=1 + n % 3))
            elif kind == "fold":
                log.record_event(hand, SeatFolded(t=t, frame=i, seat=seat))
            elif kind == "show":
                cards = tuple(card_from_index((n + k * 13) % 52) for k in range(4))
                log.record_event(hand, CardsShown(t=t, frame=i, seat=seat, cards=cards))
            elif kind == "action":
                log.record_action(hand, DealerAction(seat=seat, action="bet", amount=n + 1, t=t))
            elif kind == "flag":
                log.record_flag(hand, Flag(FlagKind.ACTION_OUT_OF_TURN, Severity.WARNING, seat, "turn order", None,
                                           f"seat {seat} acted out of turn", t, i))
            else:
                log.end_hand(hand)
                hand = log.start_hand(session, button=seat, stacks={s: 100 for s in range(1, 7)})


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ops=OPS, pick=st.integers(0, 10**6), column_pick=st.integers(0, 100))
def test_any_single_edit_is_caught_and_named(tmp_path_factory: object, ops: list[tuple[str, int, int]], pick: int,
                                             column_pick: int) -> None:
    base = Path(str(tmp_path_factory.mktemp("prop")))  # type: ignore[attr-defined]
    path = base / "log.sqlite"
    record(path, ops)
    with HandLog.open_readonly(path) as log:
        assert log.verify().ok
    conn = sqlite3.connect(path)
    rows = [(t, r[0]) for t in CHAINED_TABLES for r in conn.execute(f'SELECT id FROM "{t}"')]
    table, row_id = rows[pick % len(rows)]
    columns = [r[1] for r in conn.execute(f'PRAGMA table_info("{table}")') if r[1] not in ("id", "hash")]
    column = columns[column_pick % len(columns)]
    value = conn.execute(f'SELECT "{column}", typeof("{column}") FROM "{table}" WHERE id = ?', (row_id,)).fetchone()
    old, sql_type = value
    # an integer goes past the column's largest, so a unique column (hand_ends.hand_id) takes the edit too
    top = conn.execute(f'SELECT MAX("{column}") FROM "{table}"').fetchone()[0]
    new = top + 1 if sql_type == "integer" else old + 0.5 if sql_type == "real" else f"{old}x" if sql_type == "text" \
        else 1
    conn.executescript(f'DROP TRIGGER "{table}_no_update";')
    conn.execute(f'UPDATE "{table}" SET "{column}" = ? WHERE id = ?', (new, row_id))
    conn.commit()
    conn.close()
    with HandLog.open_readonly(path) as log:
        problems = log.verify().problems
    assert any(p.kind == "edited" and p.table == table and p.row_id == row_id for p in problems), (
        table, row_id, column, [str(p) for p in problems])
    shutil.rmtree(base)
