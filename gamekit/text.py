"""Words from a record or a command line shown on a terminal: data, never obeyed."""

from __future__ import annotations


def printable(text: str) -> str:
    """``text`` with its control characters (a terminal's escape sequences, a line break)
    written as escapes (``\\x1b``, ``\\n``); printable text, any script's, as it is."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode() for c in text)
