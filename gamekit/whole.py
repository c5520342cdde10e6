"""A whole number as typed, however long: ``int`` reads none past 4,300 digits (Python's
guard against slow conversions), yet a 5,000-digit table size or count is a number all the
same, to be refused as too large in the caller's words, never as text that is no number."""

from __future__ import annotations

import re
from decimal import Decimal

__all__ = ["read_whole"]

_WHOLE = re.compile(r"[+-]?[0-9]+")
"""Typed text that is a whole number: a sign, then ASCII digits only."""


def read_whole(text: str) -> int | None:
    """The whole number ``text`` spells (a sign, then digits), of any length; None where it
    spells none. ``Decimal`` reads every digit where ``int`` stops at 4,300."""
    if not _WHOLE.fullmatch(text):
        return None
    return int(Decimal(text))
