"""Names and stored text on a terminal: control characters are refused in names and shown escaped when printed,
so a stored value can never forge a line of `log list` or `log show`."""

from __future__ import annotations

import unicodedata

from dealer_assist.errors import DealerAssistError

# Control and format characters, surrogates, and the Unicode line and paragraph separators.
_UNPRINTABLE = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})


def _unprintable(char: str) -> bool:
    """Whether a character would move the cursor, end a line or hide text on a terminal."""
    return unicodedata.category(char) in _UNPRINTABLE


def printable(text: str) -> str:
    """The text with every control character written as its escape (`\\n`, `\\x1b`, `\\u202e`)."""
    if text.isprintable():
        return text
    return "".join(c.encode("unicode_escape").decode("ascii") if _unprintable(c) else c for c in text)


def check_name(what: str, name: str) -> None:
    """A one-line error for a name (table, dealer, floor person) holding a control character such as a newline."""
    bad = next((c for c in name if _unprintable(c)), None)
    if bad is not None:
        raise DealerAssistError(f"bad {what} name '{printable(name)}': it holds the control character "
                                f"{printable(bad)}; accepted: letters, digits, spaces and punctuation on one line")
