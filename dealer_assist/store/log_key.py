"""The hand log's signing key: a secret that signs the chain head in the anchor file.

The hash chain alone has no secret, so someone who rewrites the whole database and its anchor can forge a
consistent history. With a key, every anchor write carries HMAC-SHA256(key, head), and `log verify
--key-file` refuses a head the key did not sign. The key must then live where the forger cannot read it (a
supervisor's copy, a file only the recording account can read), or it proves nothing.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import os
import secrets
from pathlib import Path

from dealer_assist.errors import DealerAssistError
from dealer_assist.store.paths import path_problem

KEY_ENV = "DEALER_ASSIST_LOG_KEY_FILE"
KEY_BYTES = 32


def resolve_key_file(explicit: str | os.PathLike[str] | None = None) -> Path | None:
    """The key file to use: the explicit path, else $DEALER_ASSIST_LOG_KEY_FILE, else none (unsigned)."""
    if explicit:
        return Path(explicit).expanduser()
    env = os.environ.get(KEY_ENV)
    return Path(env).expanduser() if env else None


def read_key(path: Path) -> bytes:
    """The key in `path` (hex, as `log key` writes it); a one-line error for a missing or malformed file."""
    try:
        text = path.read_text().strip()
    except FileNotFoundError:
        raise DealerAssistError(f"log key file {path} does not exist; make one with `dealer-assist log key "
                                f"{path}`") from None
    except OSError as exc:
        raise DealerAssistError(f"cannot read log key file {path}: {exc.strerror}") from None
    try:
        key = bytes.fromhex(text)
    except ValueError:
        key = b""
    if len(key) < KEY_BYTES:
        raise DealerAssistError(f"log key file {path} is not a key: expected {KEY_BYTES * 2} or more hex digits "
                                "on one line, as `dealer-assist log key` writes")
    return key


def load_key(explicit: str | os.PathLike[str] | None = None) -> bytes | None:
    """The signing key named explicitly or by the environment, or None when neither names one."""
    path = resolve_key_file(explicit)
    return None if path is None else read_key(path)


def write_new_key(path: Path) -> None:
    """Create a fresh random key readable by its owner alone; an existing file is never overwritten."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError as exc:
        if not path.exists() and not path.is_symlink():  # a file where one of its folders goes
            raise DealerAssistError(f"cannot write the key file {path}: {path_problem(path, exc)}") from None
        raise DealerAssistError(f"{path} already exists; a key is never overwritten (logs it signed would no "
                                "longer verify)") from None
    except OSError as exc:
        raise DealerAssistError(f"cannot write the key file {path}: {path_problem(path, exc)}") from None
    with os.fdopen(fd, "w") as out:
        out.write(secrets.token_hex(KEY_BYTES) + "\n")


@functools.lru_cache(maxsize=4)
def _keyed(key: bytes) -> hmac.HMAC:
    """The HMAC with the key taken in, copied for each head signed: half the cost of taking the key in again for
    every event a signed log records."""
    return hmac.new(key, digestmod=hashlib.sha256)


def sign_head(key: bytes, text: str) -> str:
    """HMAC-SHA256 of the anchor's chain points, in hex."""
    mac = _keyed(key).copy()
    mac.update(text.encode())
    return mac.hexdigest()


def signature_matches(key: bytes, text: str, mac: str) -> bool:
    """Whether `mac` is the key's signature of `text` (compared in constant time)."""
    return hmac.compare_digest(sign_head(key, text), mac)
