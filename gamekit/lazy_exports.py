"""A package's public names imported on first use (PEP 562), written once for every package.

Importing a game's package should not load its ``State`` machinery for a command that plays
only the compiled loop, nor ``import tournaments`` pandas for a run that writes no report; so those
packages declare which submodule defines each exported name and let this module's
``__getattr__`` import it when the name is first read.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["by_module", "lazy_exports"]


def by_module(groups: Mapping[str, tuple[str, ...]]) -> dict[str, str]:
    """``lazy_exports``' map (name -> module) from the names each module gives, written as
    a package's import block reads."""
    return {name: module for module, names in groups.items() for name in names}


def lazy_exports(
    package: str, exports: Mapping[str, str], namespace: dict[str, Any], names: list[str]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The ``__getattr__`` and ``__dir__`` of ``package``, whose global ``namespace`` it
    fills: an exported name from its module (``exports``: name -> module, relative to the
    package as ``.state`` or absolute as importlib reads it), kept in the
    namespace so later lookups skip the function; any other public name as a submodule
    (e.g. ``package.state``); else AttributeError. ``names`` is the package's ``__all__``."""

    def __getattr__(name: str) -> Any:
        module = exports.get(name)
        if module is not None:
            value = getattr(importlib.import_module(module, package), name)
            namespace[name] = value
            return value
        if not name.startswith("_"):
            try:
                return importlib.import_module(f".{name}", package)
            except ModuleNotFoundError as exc:
                if exc.name != f"{package}.{name}":  # the submodule exists but failed
                    raise
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    def __dir__() -> list[str]:
        return sorted(set(namespace) | set(names))

    return __getattr__, __dir__
