"""``ParameterError``: a bad value of a named parameter, worded in the caller's own names.

The library names a value as its Python signature spells it (``games``, ``n_jobs``); the
command line names the same value by its flag (``--games``, ``--jobs``). An error written once,
with each parameter as a ``{name}`` marker, reads right in both: ``str(error)`` in the
library's names, ``error.worded(names)`` in another's (``leaves_cli.flags`` holds the command
line's one table).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .text import printable

__all__ = ["ParameterError", "refuse_unknown_keys", "shown"]


class ParameterError(ValueError):
    """A ``ValueError`` whose message names ``params`` through ``{param}`` markers (plain text
    otherwise: an f-string writes a marker as ``{{games}}``)."""

    def __init__(self, template: str, *params: str) -> None:
        self.template, self.params = template, params
        super().__init__(self.worded({}))

    def worded(self, names: Mapping[str, str]) -> str:
        """The message with each parameter named as ``names`` says (its own name otherwise)."""
        text = self.template
        for param in self.params:
            text = text.replace("{" + param + "}", names.get(param, param))
        return text


_WIDTH = 60
"""The most characters ``shown`` writes of a value: an error stays one short line."""
_LOG10_2 = 0.30103  # digits per bit: a whole number's length without writing it out
_EXACT = 1_000_000
"""Digits up to which ``shown`` counts a whole number's exactly (10**1,000,000 takes a tenth
of a second to make); past them, by its bits, one too many at times ("about")."""


def shown(value: object, *, typed: bool = True, as_json: bool = False) -> str:
    """``value`` for a one-line error, the one way every error shows a bad value: as Python
    writes it (``as_json``: as a JSON file does, ``null``, ``true``: a value read from one),
    on one line (a State's or a SeedSequence's repr runs over lines; a control character is
    escaped), cut at 60 characters, with its type (``typed``). Said in words instead, naming
    their kind: a whole number too long for the line, by its digits (Python writes none past
    4,300), and a value Python cannot write at all: an error line must not fail itself."""
    if (words := _long_whole(value)) is not None:
        return words
    text = _spelled(value, as_json)
    if text is None:
        return f"a {type(value).__name__} that Python cannot write out"
    if not text.isprintable():
        text = " ".join(text.split())  # lines and tabs: one line
        text = printable(text)  # an escape sequence that would colour or move the cursor
    text = text if len(text) <= _WIDTH else text[: _WIDTH - 3] + "..."
    return f"{text} ({type(value).__name__})" if typed else text


def _long_whole(value: object) -> str | None:
    """A whole number wider than the line, by its number of digits (none: it fits, or
    ``value`` is no whole number; 190 bits are at most 58 digits)."""
    if not isinstance(value, int) or isinstance(value, bool) or value.bit_length() <= 190:
        return None
    try:
        digits = len(str(abs(value)))
    except ValueError:  # past the digits Python writes out (4,300 unless set otherwise)
        digits = int(value.bit_length() * _LOG10_2) + 1  # 2**bits' digits: one too many
        if digits <= _EXACT:  # for 9,999: 14 bits, as 16,384 has
            digits -= abs(value) < 10 ** (digits - 1)
    if digits + (value < 0) <= _WIDTH:
        return None
    sign = "negative " if value < 0 else ""
    return f"a {sign}whole number of about {digits:,} digits"


def _spelled(value: object, as_json: bool) -> str | None:
    """``value`` as Python (or JSON) writes it; None where neither can: a whole number inside
    it past the digits Python writes, lists nested past its recursion, a failing repr."""
    try:
        if as_json:
            try:
                return json.dumps(value)
            except TypeError:  # no JSON value (bytes, a set): as Python writes it
                pass
        return repr(value)
    except Exception:  # noqa: BLE001 - any failure: said as a value that cannot be written
        return None


def refuse_unknown_keys(
    given: Iterable[Any], known: Sequence[str], where: str = "", noun: str = "key"
) -> None:
    """Refuse plain data's keys ``given`` unless ``known`` holds each: a ValueError naming the
    first that it lacks, ``unknown NOUN 'k'WHERE; the NOUNs are KNOWN``. A later version's key
    may change what the data means, and a typo's ("turn_limt") would be dropped, the data
    read otherwise: neither is skipped quietly."""
    for key in given:
        if key not in known:
            raise ValueError(f"unknown {noun} {key!r}{where}; the {noun}s are {', '.join(known)}")
