"""Type checks of the public API's arguments, each a one-line error naming the argument.

``int(x)`` would take ``1.5`` as 1 (a seed of 1.5 playing seed 1's games), ``"48"`` as 48 and
``True`` as 1, and word a wrong type in Python's terms ("invalid literal for int()"). A count
or a seed is an integer (a numpy one too), never a bool; anything else is a ``TypeError``
that says which argument takes what. A path is a ``str`` or ``os.PathLike``, never an empty
name ('' would be read as the current folder), refused in the command line's words. Values of
the right type are checked where they are used, with the messages those places have always
given.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import numpy as np

from gamekit.errors import ParameterError, shown

__all__ = ["empty_name", "flag", "integer", "is_empty_name", "make_out", "optional_integer",
           "optional_path", "path", "player_counts", "size_after_flag", "spec_list"]  # fmt: skip


NOUNS = {"out": "directory", "record": "file"}
"""What each path argument names, for the line refusing an empty one (another: a file or
directory)."""


def is_empty_name(value: Any) -> bool:
    """``value`` names no file or folder: an empty name, or one of spaces only, which a
    ``Path`` reads as the current folder (``Path('') == Path('.')``) or as a name nobody
    meant."""
    return isinstance(value, str) and not value.strip()


def empty_name(where: str, noun: str) -> str:
    """The one line that says ``where`` (an argument, a flag, a config file's key) was given
    an empty name for a ``noun`` ("file", "directory")."""
    return f"{where}: an empty name was given, not a {noun}"


def path(value: Any, name: str, noun: str | None = None) -> Path:
    """``value`` as a ``Path``: TypeError naming ``name`` unless it is a path (``str`` or
    ``os.PathLike``; pathlib's own error names no argument), and a ``ParameterError`` for an
    empty name (``is_empty_name``), which would be taken as the current folder: a run or a
    report written into it, or "." said to hold no run. ``noun``: what it names (default by
    ``name``, ``NOUNS``)."""
    if not isinstance(value, str | os.PathLike):
        raise TypeError(f"{name} takes a path (str or Path), got {shown(value, typed=False)}")
    if is_empty_name(value):
        said = empty_name("{" + name + "}", noun or NOUNS.get(name, "file or directory"))
        raise ParameterError(said, name)
    return Path(value)


def optional_path(value: Any, name: str, noun: str | None = None) -> Path | None:
    """As ``path``, None passing through."""
    if value is None:
        return None
    if not isinstance(value, str | os.PathLike):
        raise TypeError(
            f"{name} takes a path (str or Path) or None, got {shown(value, typed=False)}"
        )
    return path(value, name, noun)


def flag(value: Any, name: str) -> bool:
    """``value`` as a ``bool``; TypeError unless it is one (Python's or numpy's): a string such
    as "no" is true, and would turn the setting on, silently."""
    if not isinstance(value, bool | np.bool_):
        raise TypeError(f"{name} takes True or False, got {shown(value, typed=False)}")
    return bool(value)


def integer(value: Any, name: str, what: str) -> int:
    """``value`` as an ``int``; TypeError ("NAME takes WHAT, got VALUE") unless it is an
    integer (Python's or numpy's; a bool is not a count)."""
    if isinstance(value, bool) or not isinstance(value, int | np.integer):
        raise TypeError(f"{name} takes {what}, got {shown(value, typed=False)}")
    return int(value)


def optional_integer(value: Any, name: str, what: str) -> int | None:
    """As ``integer``, None passing through (an argument whose default is worked out)."""
    return None if value is None else integer(value, name, f"{what} or None")


def spec_list(value: Any, name: str) -> list[Any]:
    """The entrants ``value`` lists; TypeError for a bare string (which would be taken letter
    by letter: "unknown strategy 'g'") or anything that lists nothing."""
    if isinstance(value, str | bytes):
        raise TypeError(f"{name} must be a list of strategies or specs, got the string "
                        f"{shown(value, typed=False)}")  # fmt: skip
    if not isinstance(value, Iterable):
        raise TypeError(f"{name} must be a list of strategies or specs, got "
                        f"{shown(value, typed=False)}")  # fmt: skip
    return list(value)


def player_counts(game: Any, sizes: Iterable[int]) -> None:
    """Refuse a table size ``game`` is not played by (its ``check_players``, whose words know
    its rules, else its ``min_players``..``max_players``): a ``ParameterError`` naming the
    argument ("--players 7: ..." on the command line, where the game's own line would not say
    which flag it is about)."""
    check = getattr(game, "check_players", None)
    for k in sizes:
        try:
            if check is not None:
                check(k)
            elif not game.min_players <= k <= game.max_players:
                lo, hi = game.min_players, game.max_players
                raise ValueError(f"tables take {lo} to {hi} players, got {shown(k, typed=False)}")
        except ParameterError:
            raise
        except ValueError as exc:
            raise ParameterError(f"{{players}}{size_after_flag(k)}: {exc}", "players") from None


def size_after_flag(k: int) -> str:
    """A refused table size as it follows its flag ("--players 7: ..."): '' where it is too
    long for the line (``shown`` says it in words, which the refusal's own "got ..." says
    already; "--players a whole number of about 70 digits: ..." reads as no flag's value)."""
    said = shown(k, typed=False)
    return f" {said}" if said.lstrip("-").isdigit() else ""


def make_out(out: Path) -> None:
    """Create the output folder ``out`` (and its parents), or say in one ValueError why it
    cannot be: it or a parent is a file, or the system refuses (no raw OSError naming an
    internal path)."""
    here = next((f for f in (out, *out.parents) if f.exists()), Path("."))
    if not here.is_dir():
        if here == out:
            raise ValueError(f"{out} exists and is not a directory")
        raise ValueError(f"cannot make {out}: {here} exists and is not a directory")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ValueError(
            f"cannot make {out}: {here} takes no new folder ({exc.strerror or exc})"
        ) from None
