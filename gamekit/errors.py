"""``ParameterError``: a bad value of a named parameter, worded in the caller's own names.

The library names a value as its Python signature spells it (``games``, ``n_jobs``); the
command line names the same value by its flag (``--games``, ``--jobs``). An error written once,
with each parameter as a ``{name}`` marker, reads right in both: ``str(error)`` in the
library's names, ``error.worded(names)`` in another's (``leaves_cli.flags`` holds the command
line's one table).
"""

from __future__ import annotations

from collections.abc import Mapping

__all__ = ["ParameterError", "shown"]


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
