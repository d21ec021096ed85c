"""The signing key: a history rewritten together with its anchor passes the keyless checks and fails with the key."""

from __future__ import annotations

import hashlib
import hmac
import sqlite3
import stat
from pathlib import Path

import pytest
from click.testing import CliRunner
from test_store_tamper import build, tamper

from dealer_assist.cli import cli
from dealer_assist.errors import DealerAssistError
from dealer_assist.store import HandLog, VerifyReport
from dealer_assist.store.chain import GENESIS, Anchor, ChainHead, anchor_path, encode_anchor, read_anchor, row_hash
from dealer_assist.store.log_key import KEY_ENV, read_key, sign_head, write_new_key
from dealer_assist.store.schema import CHAINED_TABLES


def verify(path: Path, key: bytes | None = None) -> VerifyReport:
    with HandLog.open_readonly(path) as log:
        return log.verify(key=key)


def rewrite_history(path: Path, sql: str, key: bytes | None = None) -> None:
    """What a forger who knows this code does: edit, recompute every row's link and hash in sequence order, and
    write a matching anchor (signed with `key`, if the forger has one)."""
    conn = sqlite3.connect(path)
    triggers = [r[0] for r in conn.execute("SELECT sql FROM sqlite_master WHERE type = 'trigger'")]
    conn.close()
    tamper(path, sql)
    conn = sqlite3.connect(path)
    conn.row_factory = sqlite3.Row
    rows = sorted(((r["seq"], table, dict(r)) for table in CHAINED_TABLES
                   for r in conn.execute(f'SELECT * FROM "{table}"')), key=lambda item: item[0])
    prev = GENESIS
    for _, table, row in rows:
        row["prev"] = prev
        row["hash"] = prev = row_hash(prev, table, row)
        conn.execute(f'UPDATE "{table}" SET prev = ?, hash = ? WHERE id = ?', (row["prev"], row["hash"], row["id"]))
    for trigger in triggers:                           # the append-only guards back in place
        conn.execute(trigger)
    conn.commit()
    conn.close()
    head = ChainHead(rows[-1][0], prev)
    anchor_path(path).write_bytes(encode_anchor(Anchor(head, head), key))


@pytest.fixture
def key_file(tmp_path: Path) -> Path:
    path = tmp_path / "keys" / "log.key"
    write_new_key(path)
    return path


@pytest.fixture
def signed_log(tmp_path: Path, key_file: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A log recorded with the key named by the environment, as the app and `audit` record."""
    monkeypatch.setenv(KEY_ENV, str(key_file))
    path = tmp_path / "log.sqlite"
    build(path)
    monkeypatch.delenv(KEY_ENV)
    return path


def test_a_log_recorded_with_a_key_carries_its_signature(signed_log: Path, key_file: Path) -> None:
    anchor = read_anchor(anchor_path(signed_log))
    assert anchor is not None and anchor.mac is not None
    assert verify(signed_log, read_key(key_file)).signature == "verified"
    assert verify(signed_log).signature == "not checked" and verify(signed_log).ok


def test_a_rewritten_history_passes_without_the_key_and_fails_with_it(signed_log: Path, key_file: Path,
                                                                       tmp_path: Path) -> None:
    rewrite_history(signed_log, "UPDATE actions SET amount = 200 WHERE id = 2")
    assert verify(signed_log).ok                                     # the keyless chain cannot tell
    report = verify(signed_log, read_key(key_file))
    assert not report.ok and report.signature == "unsigned"
    assert any("not signed, though a key was given" in p.message for p in report.problems)
    other = tmp_path / "other.key"
    write_new_key(other)
    rewrite_history(signed_log, "UPDATE actions SET amount = 300 WHERE id = 2", key=read_key(other))
    report = verify(signed_log, read_key(key_file))
    assert report.signature == "bad" and any("does not match the key" in p.message for p in report.problems)


def test_a_signed_log_is_recorded_into_only_with_its_key(signed_log: Path, key_file: Path, tmp_path: Path) -> None:
    with pytest.raises(DealerAssistError, match=f"is signed; set {KEY_ENV}"):
        HandLog.open(signed_log)
    other = tmp_path / "other.key"
    write_new_key(other)
    with pytest.raises(DealerAssistError, match="not signed with this key"):
        HandLog.open(signed_log, key=read_key(other))
    with HandLog.open(signed_log, key=read_key(key_file)) as log:
        log.open_session("T2", "bob")
    assert verify(signed_log, read_key(key_file)).signature == "verified"


def test_an_unsigned_log_adopts_a_key_only_through_sign_after_it_verifies(tmp_path: Path, key_file: Path) -> None:
    path = tmp_path / "log.sqlite"
    build(path, hands=2)
    key = read_key(key_file)
    with pytest.raises(DealerAssistError, match="not signed, but a signing key is set"):
        HandLog.open(path, key=key)
    runner = CliRunner()
    signed = runner.invoke(cli, ["log", "sign", "--log", str(path), "--key-file", str(key_file)])
    assert signed.exit_code == 0 and signed.output.startswith("signed: chain head ")
    assert verify(path, key).signature == "verified"
    ok = runner.invoke(cli, ["log", "verify", "--log", str(path), "--key-file", str(key_file)])
    assert ok.exit_code == 0 and "the key's signature of it checks" in ok.output
    note = runner.invoke(cli, ["log", "verify", "--log", str(path)])
    assert note.exit_code == 0 and "the chain head is signed; give --key-file" in note.output


def test_sign_refuses_a_log_that_fails_verify(tmp_path: Path, key_file: Path) -> None:
    path = tmp_path / "log.sqlite"
    build(path, hands=2)
    tamper(path, "UPDATE actions SET amount = 200 WHERE id = 1")
    result = CliRunner().invoke(cli, ["log", "sign", "--log", str(path), "--key-file", str(key_file)])
    assert result.exit_code == 2 and "would sign a damaged history" in result.output
    assert read_anchor(anchor_path(path)).mac is None  # type: ignore[union-attr]


def test_cli_verify_with_the_wrong_key_fails(signed_log: Path, tmp_path: Path) -> None:
    other = tmp_path / "other.key"
    write_new_key(other)
    result = CliRunner().invoke(cli, ["log", "verify", "--log", str(signed_log), "--key-file", str(other)])
    assert result.exit_code == 1 and "anchor: the anchor's signature does not match the key" in result.output


def test_key_files(tmp_path: Path) -> None:
    runner = CliRunner()
    path = tmp_path / "log.key"
    made = runner.invoke(cli, ["log", "key", str(path)])
    assert made.exit_code == 0 and stat.S_IMODE(path.stat().st_mode) == 0o600
    assert len(read_key(path)) == 32
    again = runner.invoke(cli, ["log", "key", str(path)])
    assert again.exit_code == 2 and "a key is never overwritten" in again.output
    (tmp_path / "bad.key").write_text("not hex\n")
    bad = runner.invoke(cli, ["log", "verify", "--log", str(tmp_path / "x.sqlite"), "--key-file",
                              str(tmp_path / "bad.key")])
    assert bad.exit_code == 2 and "is not a key: expected 64 or more hex digits" in bad.output
    missing = runner.invoke(cli, ["log", "sign", "--log", str(tmp_path / "x.sqlite"), "--key-file",
                                  str(tmp_path / "none.key")])
    assert missing.exit_code == 2 and "does not exist; make one with" in missing.output


def test_the_head_is_signed_with_hmac_sha256_of_its_key() -> None:
    """RFC 4231's test case 2, and a second key after it: the template kept per key signs as HMAC-SHA256 itself does,
    so heads signed by earlier versions still check."""
    assert sign_head(b"Jefe", "what do ya want for nothing?") == \
        "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
    other = bytes(range(32))
    assert sign_head(other, "1:ab 2:cd") == hmac.new(other, b"1:ab 2:cd", hashlib.sha256).hexdigest()
    assert sign_head(b"Jefe", "what do ya want for nothing?") != sign_head(other, "what do ya want for nothing?")
