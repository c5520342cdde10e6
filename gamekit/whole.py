"""A whole number as typed, however long: ``int`` reads none past 4,300 digits (Python's
guard against slow conversions), yet a 5,000-digit table size or count is a number all the
same, to be refused as too large in the caller's words, never as text that is no number.
The digits are 0-9 alone: text Python reads as a number in another spelling (``١٢``,
``1_000``) is none here, and ``other_spelling`` says why, in the one wording of the number
flags and the rules."""

from __future__ import annotations

import re
from collections.abc import Callable
from decimal import Decimal
from typing import Any

__all__ = ["other_spelling", "read_whole"]

_WHOLE = re.compile(r"[+-]?[0-9]+")
"""Typed text that is a whole number: a sign, then ASCII digits only."""


def read_whole(text: str) -> int | None:
    """The whole number ``text`` spells (a sign, then digits), of any length; None where it
    spells none. ``Decimal`` reads every digit where ``int`` stops at 4,300."""
    if not _WHOLE.fullmatch(text):
        return None
    return int(Decimal(text))


def other_spelling(value: Any, parse: Callable[[str], Any] = int) -> str:
    """Why the typed ``value``, which Python's ``parse`` (``int``, ``float``) reads as a number,
    is refused as one, in words ('' where it is not, or where Python reads no number either):
    digits other than 0-9 (``١٢``, ``１２``) or a '_' between digits (``1_000``). The one
    wording of that reason, for the number flags and the rules alike; spaces around it are
    let through, as by ``int``; a value that is no text was not typed, so it has no spelling."""
    if not isinstance(value, str):
        return ""
    text = value.strip()
    spellings = (("" if text.isascii() else "digits other than 0-9"),
                 ("'_' between its digits" if "_" in text else ""))  # fmt: skip
    if not any(spellings):
        return ""
    try:
        parse(text)
    except ValueError:  # no number even to Python: refused as any other text is
        return ""
    return "written with " + " and ".join(filter(None, spellings))
