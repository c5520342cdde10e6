"""Why a package of the research extra cannot be imported, in one line that is true.

An ImportError of ``from pettingzoo.utils import AgentSelector`` means PettingZoo is missing
only when the module itself is not found; a PettingZoo older than the one this code needs
fails the same import, and saying "not installed" of it sends the user to a command that
changes nothing.
"""

from __future__ import annotations

import importlib.metadata
import re
import sys

__all__ = ["FLOORS", "import_failure"]

INSTALL = "pip install '.[research]'"

FLOORS = {"pettingzoo": (1, 25)}
"""The oldest release of each package this code runs on (PettingZoo: its ``AgentSelector``,
added in 1.25); the research extra in pyproject.toml asks for the same (a test checks)."""


def import_failure(exc: ImportError, package: str, title: str, dist: str | None = None) -> str:
    """The line for ``exc``, raised while importing ``package`` (``title`` in words, installed
    by the distribution ``dist`` where its name differs: OpenSpiel's ``pyspiel`` comes with
    ``open_spiel``) and what it needs: "not installed" only for a top-level module that is
    not found; a release older than ``FLOORS`` says so, naming the one found and the one
    needed; anything else (a shared library missing), the release found and the import's own
    words."""
    missing = exc.name if isinstance(exc, ModuleNotFoundError) else None
    if missing and "." not in missing:
        return f"{title if missing == package else missing} is not installed: {INSTALL}"
    found = _version(dist or package)
    floor = FLOORS.get(package)
    release = _release(found) if found else None
    if floor and release is not None and release < floor:
        needed = ".".join(map(str, floor))
        return (
            f"{title} {found} is installed; {title} {needed} or later is needed: "
            f"pip install '{package}>={needed}'"
        )
    said = " ".join(str(exc).split())  # one line
    return f"{title} {found or '(release unknown)'} cannot be imported: {said}"


def _version(package: str) -> str | None:
    """The installed release of ``package``: its metadata's, else its module's
    ``__version__`` (a copy on the path without metadata), else None."""
    try:
        return importlib.metadata.version(package)
    except importlib.metadata.PackageNotFoundError:
        version = getattr(sys.modules.get(package), "__version__", None)
        return version if isinstance(version, str) else None


def _release(version: str) -> tuple[int, ...] | None:
    """The leading numbers of ``version`` ("1.24.3" -> (1, 24, 3), "1.25.0rc1" -> (1, 25, 0));
    None where it starts with none."""
    head = re.match(r"\d+(?:\.\d+)*", version)
    return tuple(int(part) for part in head[0].split(".")) if head else None
