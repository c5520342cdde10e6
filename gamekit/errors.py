"""``ParameterError``: a bad value of a named parameter, worded in the caller's own names.

The library names a value as its Python signature spells it (``games``, ``n_jobs``); the
command line names the same value by its flag (``--games``, ``--jobs``). An error written once,
with each parameter as a ``{name}`` marker, reads right in both: ``str(error)`` in the
library's names, ``error.worded(names)`` in another's (``leaves_cli.flags`` holds the command
line's one table).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

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


def shown(value: object) -> str:
    """``value`` for a one-line error: its repr on one line, cut at 60 characters (a State's
    or a SeedSequence's runs long or over lines), and its type."""
    text = " ".join(repr(value).split())
    text = text if len(text) <= 60 else text[:57] + "..."
    return f"{text} ({type(value).__name__})"


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
