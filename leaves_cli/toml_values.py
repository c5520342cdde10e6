"""A config file's value as TOML writes it, for the lines that show one back.

Text in double quotes, a list in brackets with commas, true and false, an inline table's keys
``=`` their values, a date or time as written: never Python's form (``['x.py']``, ``True``,
``{'a': 1}``), which no config file holds. One source for a refusal that shows a file's value
and for advice that tells what to write in the file.
"""

from __future__ import annotations

import json
import re
from typing import Any

from gamekit.errors import shown

__all__ = ["in_toml", "shown_toml"]

_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")
"""A key TOML writes without quotes."""


def in_toml(value: Any) -> str:
    """``value`` (one ``tomllib`` reads: text, a number, true or false, a date or time, a list,
    a table; a tuple as a list) as a config file writes it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return _quoted(value)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(map(in_toml, value)) + "]"
    if isinstance(value, dict):
        pairs = (f"{_key(k)} = {in_toml(v)}" for k, v in value.items())
        return "{" + ", ".join(pairs) + "}"
    if hasattr(value, "isoformat"):  # a date, a time, a date and time: 1979-05-27T07:32:00
        return value.isoformat()
    return str(value)  # a number: 3, 0.5, 1e+300, inf, nan, as TOML writes them too


def _quoted(text: str) -> str:
    """``text`` as a TOML basic string: in double quotes, each character no line shows (a
    control, a line break) by its escape, every other one as typed (not ``\\u00e9``)."""
    body = json.dumps(text, ensure_ascii=False)  # JSON's escapes (\\n, \\") are TOML's too
    return "".join(c if c.isprintable() else _escape(c) for c in body)


def _escape(char: str) -> str:
    """A character as TOML escapes it by its code point."""
    code = ord(char)
    return f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"


def _key(key: str) -> str:
    """An inline table's key: bare where TOML allows it, else quoted."""
    return key if _BARE_KEY.fullmatch(key) else _quoted(key)


class _Written(str):
    """TOML text that ``shown`` writes as it stands (its repr is itself), cut as ``shown``
    cuts every value an error line shows."""

    __slots__ = ()

    def __repr__(self) -> str:
        return str(self)


def shown_toml(value: Any) -> str:
    """``value`` as a config file writes it (``in_toml``), the way an error line shows every
    bad value (``shown``): on one line, cut to its width, a whole number too long for it by
    its digits, one Python cannot write out in words."""
    if isinstance(value, int) and not isinstance(value, bool):
        return shown(value, typed=False)  # its digits, as TOML's, or their count
    try:
        text = in_toml(value)
    except (ValueError, RecursionError):  # a number past Python's digits, lists past its depth
        return shown(value, typed=False)  # in words, as every error line says it
    return shown(_Written(text), typed=False)
