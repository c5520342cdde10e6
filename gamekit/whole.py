"""A whole number as typed, however long: ``int`` reads none past 4,300 digits (Python's
guard against slow conversions), yet a 5,000-digit table size or count is a number all the
same, to be refused as too large in the caller's words, never as text that is no number.
The digits are 0-9 alone: text Python reads as a number in another spelling (``١٢``,
``1_000``) is none here, and ``other_spelling`` says why, in the one wording of the number
flags and the rules; a number flag and a rule alike read a whole number in its own form alone
(one text for each number), and ``other_form`` says why ``09``, ``+9`` or ``-0`` is not it."""

from __future__ import annotations

import re
from collections.abc import Callable
from decimal import Decimal
from typing import Any

__all__ = ["other_form", "other_spelling", "read_whole"]

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


_SHOWN_DIGITS = 40
"""Digits up to which ``other_form`` writes the number's own form out (past them the line
would be the number)."""


def other_form(value: Any, within: tuple[int | None, int | None] | None = None) -> str:
    """Why the typed ``value``, a whole number of the digits 0-9, is not written in its own
    form, with that form ('' where it is, or where it is no such number): a leading zero
    (``09``: write 9) or a sign it needs none of (``+9``, ``-0``). The rules and the number
    flags read a number in its own form alone (one text for each number). The form to write
    is given only where it is in the range ``within`` (least, most; either open when None)
    that the caller takes, if one is given: ``00`` for 1..52 is how it was written, and 0 no
    answer."""
    text = value.strip() if isinstance(value, str) else ""
    if not _WHOLE.fullmatch(text):
        return ""
    digits = text.lstrip("+-")
    plain = digits.lstrip("0") or "0"  # by the text: int() writes no more than 4,300 digits
    own = ("-" if text[0] == "-" and plain != "0" else "") + plain
    forms = ("a sign" if text[0] == "+" or (text[0] == "-" and plain == "0") else "",
             "a leading zero" if len(digits) > len(plain) else "")  # fmt: skip
    if not any(forms):
        return ""
    said = len(plain) <= _SHOWN_DIGITS  # and then ``int`` reads it
    if said and within is not None:
        least, most = within
        said = (least is None or least <= int(own)) and (most is None or int(own) <= most)
    write = f": write {own}" if said else ""
    return f"written with {' and '.join(filter(None, forms))}{write}"
