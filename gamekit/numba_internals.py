"""The only module that reaches past numba's public API: one option, behind a version check.

``NO_REFCOUNTS`` compiles a kernel without reference counting (numba's private ``_nrt``
option): every array view and call in a search's turn loop paid an atomic increment and
decrement, a third of its time. Only the numba kernels still compiled at run time use it (the
games loop and the policies run in the C engine). It was written for numba ``SUPPORTED``;
with another version, or ``LEAVES_NUMBA_INTERNALS=0``, it is empty (slower, never
different); ``tests/test_numba_internals.py`` checks both.
"""

from __future__ import annotations

import functools
import importlib.metadata
import os
import re
from typing import Any

__all__ = ["NO_REFCOUNTS", "SUPPORTED", "numba_version", "supported"]

SUPPORTED = ((0, 59), (0, 69))
"""numba versions ``[first, last)`` (major, minor) the internals below were written for."""


@functools.cache
def numba_version() -> str:
    """The installed numba's version, read without importing numba (a run through the C engine
    never imports it)."""
    try:
        return importlib.metadata.version("numba")
    except importlib.metadata.PackageNotFoundError:  # pragma: no cover - numba is required
        return "0"


def _release(version: str) -> tuple[int, int]:
    """(major, minor) of a version string such as ``0.68.1`` or ``0.70.0rc1``."""
    found = re.match(r"(\d+)\.(\d+)", version)
    return (int(found[1]), int(found[2])) if found else (0, 0)


def supported() -> bool:
    """True when numba's version is in ``SUPPORTED`` and ``LEAVES_NUMBA_INTERNALS`` is not 0."""
    if os.environ.get("LEAVES_NUMBA_INTERNALS", "1") == "0":
        return False
    first, last = SUPPORTED
    return first <= _release(numba_version()) < last


NO_REFCOUNTS: dict[str, Any] = {"_nrt": False} if supported() else {}
"""``njit`` options for code that allocates nothing: no reference counting (numba's private
``_nrt``: every array view and call in the turn loop paid an atomic increment and decrement,
a third of a heuristic table's time); none outside the supported versions."""
