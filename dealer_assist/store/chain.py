"""The hash chain: canonical row content, row hashes, and the chain-head anchor file.

Every appended row of every record table carries `seq` (one sequence across all tables), `prev`
(the hash of the row with `seq - 1`) and `hash = SHA-256(prev + canonical JSON of the row)`.
Storing `prev` lets `verify` check each row on its own (an edited row fails its own hash) and each
link on its own (a deleted or rewritten row breaks the link of the row after it), so a report
names the row that was touched instead of "everything after seq N".

The rows' hashes are keyless: anyone who can write the database, knows this code and also rewrites
the anchor file can forge a consistent history. The anchor (below) catches deleted or added rows at
the end of the log. Two things close the gap: a signing key (`log_key`), with which every anchor
write carries an HMAC of the chain head that a forger without the key cannot make; and recording
the printed head (`log verify` shows it) somewhere else, such as the shift report, so that a later
`log verify --head SEQ:HASH` proves that nothing up to it was rewritten.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dealer_assist.errors import DealerAssistError
from dealer_assist.store.log_key import sign_head, signature_matches
from dealer_assist.store.paths import path_problem

GENESIS = "0" * 64
# One encoder for every row (json.dumps with options builds a new one per call).
_ENCODER = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
PYTHON_TYPES: dict[str, type] = {"REAL": float, "INTEGER": int, "TEXT": str}
CHAIN_COLUMNS = ("seq", "prev", "hash")


def canonical_json(value: Any) -> str:
    """JSON with sorted keys and no spaces: the same content always gives the same text."""
    try:
        return _ENCODER.encode(value)
    except ValueError:
        raise DealerAssistError(f"times and amounts must be finite numbers, got {value!r}") from None


def row_content(table: str, row: dict[str, Any]) -> str:
    """The canonical text a row's hash covers: table name and every non-NULL column but `hash`.

    NULL columns are left out so that a later migration may add a nullable column without
    changing the hash of rows written before it.
    """
    content = {k: v for k, v in row.items() if v is not None and k != "hash"}
    content["@table"] = table
    return canonical_json(content)


def row_hash(prev: str, table: str, row: dict[str, Any]) -> str:
    """SHA-256 (hex) of the previous hash followed by the row's canonical content."""
    return hashlib.sha256((prev + row_content(table, row)).encode()).hexdigest()


def normalise(value: Any, sql_type: str) -> Any:
    """Coerce a value to what a STRICT column of `sql_type` gives back, so hashes match on re-read."""
    if value is None:
        return None
    if sql_type == "REAL":
        number = float(value)
        if not math.isfinite(number):
            raise DealerAssistError(f"a time or amount must be a finite number, got {value!r}")
        return number
    if sql_type == "INTEGER":
        if isinstance(value, float) and not value.is_integer():
            raise DealerAssistError(f"expected a whole number, got {value!r}")
        return int(value)
    if sql_type == "TEXT":
        return str(value)
    return value


@dataclass(frozen=True, slots=True)
class ChainHead:
    """A point in the chain: the last row's sequence number and hash (seq 0 is the empty log)."""

    seq: int
    hash: str

    def __str__(self) -> str:
        return f"{self.seq}:{self.hash}"

    @classmethod
    def parse(cls, text: str) -> ChainHead:
        """Read "SEQ:HASH" as printed by `log verify`."""
        seq, sep, digest = text.strip().partition(":")
        digits = seq.isascii() and seq.isdigit()
        if not sep or not digits or len(digest) != 64 or any(c not in "0123456789abcdef" for c in digest):
            raise DealerAssistError(f"bad chain head {text!r}; expected SEQ:HASH as printed by `log verify`")
        return cls(int(seq), digest)


EMPTY_HEAD = ChainHead(0, GENESIS)


@dataclass(frozen=True, slots=True)
class Anchor:
    """What the anchor file says: the last transaction moved the chain from `before` to `after`; `mac` is the
    signing key's HMAC of those two points (`log_key`), None when the log is not signed."""

    before: ChainHead
    after: ChainHead
    mac: str | None = None

    @property
    def signed_text(self) -> str:
        """What the key signs: both chain points."""
        return f"{self.before} {self.after}"

    def signed_by(self, key: bytes) -> bool:
        """Whether the anchor carries `key`'s signature of its chain points."""
        return self.mac is not None and signature_matches(key, self.signed_text, self.mac)


_MAGIC_V1 = "dealer-assist-chain-head v1"   # before signing keys: no signature field
_MAGIC = "dealer-assist-chain-head v2"
_UNSIGNED = "-" * 64
# Fixed width, so each rewrite is one pwrite of the same length over the old text:
# "MAGIC BEFORE_SEQ BEFORE_HASH AFTER_SEQ AFTER_HASH MAC", each seq as 20 digits.
_LINE_BYTES = len(_MAGIC) + 1 + 20 + 1 + 64 + 1 + 20 + 1 + 64 + 1 + 64 + 1


def anchor_path(db_path: Path) -> Path:
    """The anchor file lives beside the database: `hands.sqlite` -> `hands.sqlite.head`."""
    return db_path.with_name(db_path.name + ".head")


def encode_anchor(anchor: Anchor, key: bytes | None = None) -> bytes:
    """The fixed-width line written to the anchor file, signed with `key` when one is given."""
    mac = sign_head(key, anchor.signed_text) if key is not None else _UNSIGNED
    before, after = anchor.before, anchor.after
    data = f"{_MAGIC} {before.seq:020d} {before.hash} {after.seq:020d} {after.hash} {mac}\n".encode()
    assert len(data) == _LINE_BYTES
    return data


def read_anchor(path: Path) -> Anchor | None:
    """The anchor in `path`, or None if the file does not exist or is empty; a damaged file raises."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as exc:  # a folder in its place, no permission
        raise DealerAssistError(f"anchor file {path} is unreadable ({path_problem(path, exc)})") from None
    try:
        text = data.decode("ascii")
    except UnicodeDecodeError:
        raise DealerAssistError(f"anchor file {path} is damaged (expected '{_MAGIC} ...'), got {data[:80]!r}") from None
    if not text:  # created, then the writer stopped before its first write: no anchor yet
        return None
    parts = text.split()
    magic = " ".join(parts[:2])
    if (len(parts), magic) not in ((6, _MAGIC_V1), (7, _MAGIC)) or not parts[2].isdigit() or not parts[4].isdigit():
        raise DealerAssistError(f"anchor file {path} is damaged (expected '{_MAGIC} ...'), got {text[:80]!r}")
    mac = parts[6] if len(parts) == 7 and parts[6] != _UNSIGNED else None
    return Anchor(ChainHead(int(parts[2]), parts[3]), ChainHead(int(parts[4]), parts[5]), mac)


class AnchorWriter:
    """Keeps the anchor file open and rewrites it in place before each commit.

    Written before the commit, the anchor may be one transaction ahead of the database after a
    crash (the commit never happened), never behind: `verify` accepts a database head equal to
    either end of the anchored transaction. The price is that deleting exactly the last
    transaction written (usually one record) cannot be told from a crash in the middle of it.
    The file descriptor also carries the writer lock (see `HandLog`).
    """

    def __init__(self, path: Path, key: bytes | None = None) -> None:
        self.path = path
        self.key = key
        self.fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)

    def write(self, anchor: Anchor, *, sync: bool = False) -> None:
        """Overwrite the anchor with one write call (signed when the writer has a key); `sync` also flushes it to
        the disk."""
        data = encode_anchor(anchor, self.key)
        written = os.pwrite(self.fd, data, 0)
        if written != len(data):
            raise DealerAssistError(f"could not write the chain anchor {self.path} (short write)")
        if sync:
            os.fsync(self.fd)

    def close(self) -> None:
        """Release the descriptor (and with it the writer lock)."""
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1
