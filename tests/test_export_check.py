"""Exports carry the hash chain, and `log verify --export FILE` checks an export against the log: an edited,
forged, shortened or re-hashed export fails naming the row, and so does an export of a log tampered with later."""

from __future__ import annotations

import csv
import io
import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from hand_log_story import record_story
from test_store_tamper import tamper

from dealer_assist.audit.records import DealerAction
from dealer_assist.cli import cli
from dealer_assist.store import HandLog
from dealer_assist.store.export import CSV_COLUMNS
from dealer_assist.store.schema import CHAINED_TABLES

AWARD = {"pots": [{"name": "main pot", "amount": 10, "shares": [
    {"seat": 1, "amount": 10, "portion": "whole", "reason": "best Badugi hand: K-7-4-A"}],
    "explanation": ["Seat 1 wins the main pot, 10 chips, with K-7-4-A."]}], "totals": {"1": 10}}


def build(path: Path) -> None:
    """Hand 1: a full story (deal, misread correction, actions, a key frame, a flag and its dismissal, draw,
    showdown, award, end); hand 2: a misdeal; hand 3 at another table, ended."""
    with HandLog.open(path) as log:
        s = log.open_session("T1", "alice", house_rules={"stakes": {"small_blind": 1, "big_blind": 2}})
        h = record_story(log, s)
        log.record_award(h, AWARD)
        log.end_hand(h)
        h2 = log.start_hand(s, button=1, stacks={1: 510, 3: 290})
        log.end_hand(h2, "misdeal", reason="two exposed")
        s2 = log.open_session("T2", "bob")
        h3 = log.start_hand(s2, button=1, stacks={4: 100, 5: 100})
        log.record_action(h3, DealerAction(seat=4, action="bet", amount=2, t=1.0))
        log.end_hand(h3)


@pytest.fixture
def path(tmp_path: Path) -> Path:
    p = tmp_path / "log.sqlite"
    build(p)
    return p


def run(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args))


def export(path: Path, out: Path, fmt: str, hand: str = "1") -> Path:
    """`log export HAND|--all --format FMT -o OUT`."""
    which = ["--all"] if hand == "all" else [hand]
    result = run("log", "export", *which, "--format", fmt, "-o", str(out), "--log", str(path))
    assert result.exit_code == 0, result.output
    return out


def check(path: Path, exported: Path) -> Result:
    return run("log", "verify", "--log", str(path), "--export", str(exported))


def failed_lines(result: Result) -> list[str]:
    """The `export:` problem lines of a failed check (exit status 1, a FAILED summary)."""
    assert result.exit_code == 1, result.output
    assert "FAILED: " in result.output
    return [line for line in result.output.splitlines() if line.startswith("export: ")]


def stored_rows(path: Path) -> dict[int, tuple[str, dict[str, Any]]]:
    """Every row of the log by seq: (table, row)."""
    conn = sqlite3.connect(path)
    conn.row_factory = sqlite3.Row
    rows = {}
    for table in CHAINED_TABLES:
        for row in conn.execute(f'SELECT * FROM "{table}"'):
            rows[row["seq"]] = (table, dict(row))
    conn.close()
    return rows


def csv_rows(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


def write_csv(out: Path, rows: list[list[str]]) -> None:
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerows(rows)
    out.write_text(buf.getvalue())


def award_seq(story: dict[str, Any]) -> int:
    return next(r["seq"] for r in story["records"] if r["record"] == "award")


# ----- exports carry the chain


def test_json_export_carries_each_rows_stored_hash_and_prev(path: Path, tmp_path: Path) -> None:
    stored = stored_rows(path)
    story = json.loads(export(path, tmp_path / "h1.json", "json").read_text())
    items = [story["hand"], *story["records"], story["end"]]
    assert len(items) == 25
    tables = set()
    for item in items:
        table, row = stored[item["seq"]]
        tables.add(table)
        assert (item["hash"], item["prev"]) == (row["hash"], row["prev"]), item
    assert tables == {"hands", "events", "corrections", "actions", "snapshots", "flags", "awards", "hand_ends"}
    assert "hash" not in export(path, tmp_path / "h1.phh", "phh").read_text()     # PHH stays the standard's
    every = json.loads(export(path, tmp_path / "all.json", "json", "all").read_text())
    assert [h["hand"]["hash"] for h in every] == [stored[h["hand"]["seq"]][1]["hash"] for h in every]


def test_csv_export_carries_each_rows_stored_hash_in_a_last_column(path: Path, tmp_path: Path) -> None:
    stored = stored_rows(path)
    rows = csv_rows(export(path, tmp_path / "all.csv", "csv", "all").read_text())
    header = rows[0]
    assert header[-1] == "hash" and header[:11] == ["hand_id", "seq", "record", "id", "recorded_at", "t", "frame",
                                                    "seat", "kind", "text", "data"]
    assert tuple(header) == CSV_COLUMNS
    assert {r[2] for r in rows[1:]} == {"hand", "event", "correction", "action", "snapshot", "flag", "award", "end"}
    for row in rows[1:]:
        assert row[-1] == stored[int(row[1])][1]["hash"], row


# ----- an untouched export matches


@pytest.mark.parametrize("fmt", ["json", "csv"])
@pytest.mark.parametrize("hand", ["1", "2", "all"])
def test_untouched_export_matches_the_log(path: Path, tmp_path: Path, fmt: str, hand: str) -> None:
    out = export(path, tmp_path / f"export.{fmt}", fmt, hand)
    result = check(path, out)
    assert result.exit_code == 0, result.output
    hands = 3 if hand == "all" else 1
    assert result.output.startswith(f"ok: the export {out} matches the log: {hands} hand(s)"), result.output
    assert "chain head " in result.output and "export:" not in result.output


# ----- an edited export fails, naming the row


def test_edited_award_amount_in_json_fails(path: Path, tmp_path: Path) -> None:
    out = export(path, tmp_path / "h1.json", "json")
    story = json.loads(out.read_text())
    seq = award_seq(story)
    for record in story["records"]:
        if record["record"] == "award":
            record["award"]["totals"]["1"] = 100
            record["award"]["pots"][0]["shares"][0]["amount"] = 100
    out.write_text(json.dumps(story))
    lines = failed_lines(check(path, out))
    assert len(lines) == 1
    assert f"hand 1, award #1 (seq {seq}): differs from the log" in lines[0]
    assert "award.pots.0.shares.0.amount (export 100, log 10)" in lines[0]
    assert "award.totals.1 (export 100, log 10)" in lines[0]


def test_edited_award_amount_in_all_hands_json_fails(path: Path, tmp_path: Path) -> None:
    out = export(path, tmp_path / "all.json", "json", "all")
    every = json.loads(out.read_text())
    every[0]["records"][[r["record"] for r in every[0]["records"]].index("award")]["award"]["totals"]["1"] = 9
    out.write_text(json.dumps(every))
    lines = failed_lines(check(path, out))
    assert len(lines) == 1 and "hand 1, award #1" in lines[0] and "award.totals.1 (export 9, log 10)" in lines[0]


def test_edited_card_in_csv_fails(path: Path, tmp_path: Path) -> None:
    out = export(path, tmp_path / "h1.csv", "csv")
    rows = csv_rows(out.read_text())
    line = next(i for i, r in enumerate(rows) if r[2] == "event" and r[9] == "seat 1 is dealt Ac")
    rows[line][10] = rows[line][10].replace('"Ac"', '"As"')
    assert '"As"' in rows[line][10]
    write_csv(out, rows)
    lines = failed_lines(check(path, out))
    assert len(lines) == 1
    assert f"hand 1, event #1 (seq {rows[line][1]}), CSV line {line + 1}: differs from the log" in lines[0]
    assert "data.card (export 'As', log 'Ac')" in lines[0]


def test_edited_sentence_in_csv_fails(path: Path, tmp_path: Path) -> None:
    out = export(path, tmp_path / "all.csv", "csv", "all")
    rows = csv_rows(out.read_text())
    line = next(i for i, r in enumerate(rows) if r[2] == "action" and r[0] == "3")
    rows[line][9] = rows[line][9].replace("2", "20")
    write_csv(out, rows)
    lines = failed_lines(check(path, out))
    assert lines == [f"export: hand 3, action #4 (seq {rows[line][1]}), CSV line {line + 1}: differs from the log: "
                     "text (export 'seat 4 bets 20 (entered by the dealer)', log 'seat 4 bets 2 (entered by the "
                     "dealer)')"]


@pytest.mark.parametrize("fmt", ["json", "csv"])
def test_deleted_record_fails(path: Path, tmp_path: Path, fmt: str) -> None:
    out = export(path, tmp_path / f"h1.{fmt}", fmt)
    if fmt == "json":
        story = json.loads(out.read_text())
        gone = story["records"].pop([r["record"] for r in story["records"]].index("flag"))
        out.write_text(json.dumps(story, indent=2))
        seq = gone["seq"]
    else:
        rows = csv_rows(out.read_text())
        gone_row = rows.pop(next(i for i, r in enumerate(rows) if r[2] == "flag"))
        write_csv(out, rows)
        seq = int(gone_row[1])
    lines = failed_lines(check(path, out))
    assert lines == [f"export: hand 1, flag #1 (seq {seq}): in the log but not in the export (left out of it, or "
                     "recorded after it was made: export the hand again)"]


def test_deleted_end_line_fails(path: Path, tmp_path: Path) -> None:
    out = export(path, tmp_path / "h1.csv", "csv")
    rows = csv_rows(out.read_text())
    assert rows[-1][2] == "end"
    write_csv(out, rows[:-1])    # an export cut at a line's end
    lines = failed_lines(check(path, out))
    assert len(lines) == 1 and "hand 1, end #1" in lines[0] and "not in the export" in lines[0]


@pytest.mark.parametrize("fmt", ["json", "csv"])
def test_forged_record_fails(path: Path, tmp_path: Path, fmt: str) -> None:
    out = export(path, tmp_path / f"all.{fmt}", fmt, "all")
    head = max(stored_rows(path))
    if fmt == "json":
        every = json.loads(out.read_text())
        forged = dict(every[2]["records"][0], id=99, seq=head + 1, amount=50)
        every[2]["records"].append(forged)
        out.write_text(json.dumps(every))
    else:
        rows = csv_rows(out.read_text())
        forged_row = list(next(r for r in rows if r[2] == "action" and r[0] == "3"))
        forged_row[1], forged_row[3] = str(head + 1), "99"
        rows.insert(-1, forged_row)
        write_csv(out, rows)
    lines = failed_lines(check(path, out))
    assert len(lines) == 1
    assert f"hand 3, action #99 (seq {head + 1})" in lines[0]
    assert f"not in the log (the log has no row at seq {head + 1})" in lines[0]


def test_record_moved_from_another_hand_fails(path: Path, tmp_path: Path) -> None:
    every = json.loads(export(path, tmp_path / "all.json", "json", "all").read_text())
    one = every[1]
    moved = every[0]["records"][0]    # hand 1's first card, claimed for hand 2
    one["records"].append(moved)
    out = tmp_path / "h2.json"
    out.write_text(json.dumps(one))
    lines = failed_lines(check(path, out))
    assert lines == [f"export: hand 2, event #1 (seq {moved['seq']}): not a row of hand 2 in the log (its row at "
                     f"seq {moved['seq']} is event #1 of hand 1)"]


def test_hand_not_in_the_log_fails(path: Path, tmp_path: Path) -> None:
    story = json.loads(export(path, tmp_path / "h2.json", "json", "2").read_text())
    story["hand"]["id"] = 7
    out = tmp_path / "h7.json"
    out.write_text(json.dumps(story))
    lines = failed_lines(check(path, out))
    assert lines == ["export: hand 7: not in the log (2 exported row(s) of a hand the log does not have)"]


@pytest.mark.parametrize("fmt", ["json", "csv"])
def test_changed_hash_fails(path: Path, tmp_path: Path, fmt: str) -> None:
    out = export(path, tmp_path / f"h1.{fmt}", fmt)
    fake = "ab" * 32
    if fmt == "json":
        story = json.loads(out.read_text())
        target = story["records"][3]
        target["hash"] = fake
        out.write_text(json.dumps(story))
        name = f"hand 1, {target['record']} #{target['id']} (seq {target['seq']}): "
    else:
        rows = csv_rows(out.read_text())
        rows[4][-1] = fake
        write_csv(out, rows)
        name = f"hand 1, {rows[4][2]} #{rows[4][3]} (seq {rows[4][1]}), CSV line 5: "
    lines = failed_lines(check(path, out))
    assert len(lines) == 1 and lines[0].startswith(f"export: {name}differs from the log: hash (export 'abab"), lines


def test_json_prev_is_checked_too(path: Path, tmp_path: Path) -> None:
    out = export(path, tmp_path / "h1.json", "json")
    story = json.loads(out.read_text())
    story["end"]["prev"] = "0" * 64
    out.write_text(json.dumps(story))
    lines = failed_lines(check(path, out))
    assert len(lines) == 1 and "hand 1, end #1" in lines[0] and "prev (export '0000" in lines[0]


def test_repeated_record_fails(path: Path, tmp_path: Path) -> None:
    out = export(path, tmp_path / "h2.csv", "csv", "2")
    rows = csv_rows(out.read_text())
    write_csv(out, [*rows, rows[1]])
    lines = failed_lines(check(path, out))
    assert len(lines) == 1 and "hand 2, hand row #2" in lines[0] and "appears more than once" in lines[0]


# ----- the log changed after the export


def test_export_of_a_log_tampered_later_fails(path: Path, tmp_path: Path) -> None:
    out = export(path, tmp_path / "h1.json", "json")
    assert check(path, out).exit_code == 0
    story = json.loads(out.read_text())
    payload = json.dumps({**AWARD, "totals": {"2": 10}}, sort_keys=True, separators=(",", ":"))
    tamper(path, f"UPDATE awards SET payload = '{payload}' WHERE id = 1")
    result = check(path, out)
    lines = failed_lines(result)
    assert f"edited: awards #1 (seq {award_seq(story)}) was changed" in result.output
    assert len(lines) == 1 and "hand 1, award #1" in lines[0]
    assert "award.totals.1 (export 10; not in the log)" in lines[0]
    assert "FAILED: 1 problem(s) in the export" in result.output and "problem(s) in the log" in result.output


def test_export_checks_against_a_tampered_log_even_when_the_export_still_matches(path: Path, tmp_path: Path) -> None:
    out = export(path, tmp_path / "h2.csv", "csv", "2")
    tamper(path, "UPDATE actions SET amount = 20 WHERE id = 4")   # hand 3's bet, not in this export
    result = check(path, out)
    assert result.exit_code == 1
    assert "edited: actions #4" in result.output and not failed_lines(result)
    assert f"FAILED: the export {out} matches the log (1 hand(s), 2 row(s)); " in result.output
    assert "problem(s) in the log" in result.output


def test_a_correction_recorded_after_the_export_makes_it_stale(path: Path, tmp_path: Path) -> None:
    out = export(path, tmp_path / "h2.json", "json", "2")
    with HandLog.open(path) as log:
        ref = log.record_correction(2, "void_hand", reason="second deck", by="floor sue")
    lines = failed_lines(check(path, out))
    assert f"export: hand 2, correction #{ref.id} (seq {ref.seq}): in the log but not in the export" in lines[-1]
    assert any("hand 2, hand row #2" in line and "status (export 'misdeal', log 'voided')" in line for line in lines)


# ----- bad input


@pytest.mark.parametrize(("make", "message"), [
    (lambda d: d, "is a folder, not a file"),
    (lambda d: d / "missing.json", "cannot read the export"),
    (lambda d: d / "empty.json", "is empty"),
    (lambda d: d / "cut.json", "is not valid JSON"),
    (lambda d: d / "cut.csv", "the file was cut short"),
    (lambda d: d / "short-line.csv", "has 3 column(s), not 12: the file was cut short or edited"),
    (lambda d: d / "other.json", "is not a JSON export of `dealer-assist log export`"),
    (lambda d: d / "old.csv", "has no hash column"),
    (lambda d: d / "h1.phh", "PHH hand history, which carries no hashes"),
    (lambda d: d / "notes.txt", "neither a JSON nor a CSV export"),
    (lambda d: d / "bad-seq.json", "not a whole number"),
])
def test_bad_export_file_is_one_line_with_status_2(path: Path, tmp_path: Path, make: Any, message: str) -> None:
    d = tmp_path / "files"
    d.mkdir()
    (d / "empty.json").write_text("  \n")
    (d / "cut.json").write_text(export(path, tmp_path / "h1.json", "json").read_text()[:700])
    (d / "cut.csv").write_text(export(path, tmp_path / "h1.csv", "csv").read_text()[:700])
    (d / "short-line.csv").write_text(",".join(CSV_COLUMNS) + "\n1,4,hand\n")
    (d / "other.json").write_text('{"hands": []}')
    (d / "old.csv").write_text(",".join(CSV_COLUMNS[:-1]) + "\n")
    export(path, d / "h1.phh", "phh")
    (d / "notes.txt").write_text("hand 1 was fine\n")
    story = json.loads((tmp_path / "h1.json").read_text())
    story["records"][0]["seq"] = "five"
    (d / "bad-seq.json").write_text(json.dumps(story))
    result = check(path, make(d))
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and message in lines[0], result.output
