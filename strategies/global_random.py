"""Whether a strategy drew from a process's global random state, which no seed of a run sets.

A decision that draws from Python's ``random`` module or from ``numpy.random``'s functions
plays differently each time its game is replayed from its seeds: only the ``rng`` a strategy
is given is seeded. Comparing both states before and after a stretch of play tells whether
anything in it drew (``snapshot``, ``drawn``); a stretch played in the decision timeout's
helper process (``strategies.deadline.run_bounded``) is compared there and its finding handed
to the calling thread (``note``, ``take_noted``). Built-in strategies draw only from the rng
they are given (``own_code``), so a run compares only stretches that others play.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable
from functools import cache
from typing import Any, TypeVar

import numpy as np

__all__ = [
    "SOURCES",
    "advice",
    "drawn",
    "drawn_during",
    "note",
    "own_code",
    "snapshot",
    "take_noted",
]

SOURCES = ("Python's random module", "numpy.random")
"""The global random states compared, in the words a warning names them by."""

Snapshot = tuple[Any, ...]
T = TypeVar("T")


def _frozen(value: Any) -> Any:
    """``value`` (numpy's state: dicts, arrays, numbers) in a form ``==`` compares whole."""
    if isinstance(value, dict):
        return tuple((k, _frozen(v)) for k, v in value.items())
    if isinstance(value, np.ndarray):
        return value.tobytes()
    return value


def snapshot() -> Snapshot:
    """Both global random states now, one a source (``SOURCES``); reading them draws nothing.
    About 0.1 ms: taken around a chunk of play, never around each decision."""
    return random.getstate(), _frozen(np.random.get_state(legacy=False))


def drawn(before: Snapshot) -> tuple[str, ...]:
    """The sources (``SOURCES``) whose state changed since ``before``: something drew."""
    after = snapshot()
    return tuple(name for name, a, b in zip(SOURCES, before, after, strict=True) if a != b)


def drawn_during(fn: Callable[[], T], compare: bool = True) -> tuple[T, tuple[str, ...]]:
    """``fn()`` and the sources (``SOURCES``) it drew from, here (``compare``: this process's
    states compared around it) or in the decision timeout's helper process (``take_noted``):
    a run warns of them, a replay that differs because of them says so."""
    take_noted()  # what an earlier call left in this thread is not this one's
    before = snapshot() if compare else None
    result = fn()
    drew = set(take_noted() + (drawn(before) if before is not None else ()))
    return result, tuple(name for name in SOURCES if name in drew)


_noted = threading.local()


def note(sources: tuple[str, ...]) -> None:
    """Keep, for this thread, the sources play in a helper process drew from."""
    if sources:
        _noted.sources = (*getattr(_noted, "sources", ()), *sources)


def take_noted() -> tuple[str, ...]:
    """The sources noted for this thread since the last call (``note``), each once."""
    sources = getattr(_noted, "sources", ())
    _noted.sources = ()
    return tuple(name for name in SOURCES if name in sources)


@cache
def _own_package(top: str) -> bool:
    from .provenance import _own_distribution  # start-up: importlib.metadata, when asked

    return _own_distribution(top) is not None


def own_code(strategy: Any) -> bool:
    """Whether ``strategy``'s class is this project's (a built-in, not a subclass of one that a
    user wrote) and so is the code it runs (``runs_code_of``: the module of an outside
    callable a built-in adapter plays by, such as a user's policy function): its decisions draw
    only from the rng they are given."""
    module = getattr(strategy, "runs_code_of", None) or type(strategy).__module__
    return _own_package(str(module).split(".")[0])


def advice(strategies: Any) -> str:
    """What to do about a strategy that drew, in one clause: a built-in adapter that plays a
    user's callable (``runs_code_of``, an ``observation:policy=`` function) hands it the rng
    only as a second positional parameter, which its fix is to take."""
    said = "draw all randomness from the rng a strategy is given"
    if any(getattr(s, "runs_code_of", None) is not None for s in strategies):
        said += " (a policy callable is given it as its second positional parameter)"
    return said
