"""The command line's names for the library's parameters: the one table that turns a
``ParameterError`` (``games must be at least 1``) into the flag a user typed (``--games``)."""

from __future__ import annotations

from gamekit.errors import ParameterError

__all__ = ["FLAGS", "flag", "message"]

FLAGS: dict[str, str] = {
    "n_jobs": "--jobs",
    "field": "--against",
    "pairs": "--pair",
}
"""Parameters whose flag is not ``--`` and the name with ``-`` for ``_``."""


def flag(param: str) -> str:
    """The flag that gives ``param`` on the command line."""
    return FLAGS.get(param, "--" + param.replace("_", "-"))


def message(exc: BaseException) -> str:
    """An error's one line as the command line says it: parameters named by their flags; an
    operating system's error in words, after the file it names (``runs/a/x: No space left on
    device``), not as Python writes it (``[Errno 28] ...: 'runs/a/x'``)."""
    if isinstance(exc, ParameterError):
        return exc.worded({p: flag(p) for p in exc.params})
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror if exc.filename is None else f"{exc.filename}: {exc.strerror}"
    return str(exc)
