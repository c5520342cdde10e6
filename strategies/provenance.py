"""What a strategy's behaviour depends on, recorded so that a resumed run can refuse a change.

A label shows only the parameters that differ from the defaults, so it does not change when a
default does, nor when the code behind a name changes. ``provenance`` records the class, every
parameter (defaults included), the version of the package that provides the class and, for a
class loaded from a ``file.py``, a hash of that file as it was loaded (the code the class
holds: a file edited since and not loaded again still plays as it was). A class defined in
the script Python ran (``__main__``) is recorded as that script's, which a resumed run or a
replay loads as a file: ``__main__:Class`` names nothing in another process.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import sys
from functools import cache
from pathlib import Path
from typing import Any

from .base import Player, format_value
from .user_code import loaded_sha256

__all__ = ["entrant_params", "entrant_target", "provenance", "provenance_change"]


def _jsonable(value: Any) -> Any:
    if isinstance(value, bool | int | float | str) or value is None:
        return value
    return format_value(value)


PROJECT_DIST = "leaves"
"""This project's distribution (``pyproject.toml`` ``name``): it provides the built-ins."""


def _own_distribution(top: str) -> str | None:
    """``PROJECT_DIST`` when it provides the top-level package ``top`` (one metadata read)."""
    try:
        provided = importlib.metadata.distribution(PROJECT_DIST).read_text("top_level.txt")
    except importlib.metadata.PackageNotFoundError:
        return None
    return PROJECT_DIST if provided and top in provided.split() else None


@cache
def _package_version(module: str) -> str | None:
    # packages_distributions() reads every installed distribution's metadata (about half a
    # second), so the built-ins' own distribution is looked up directly first.
    top = module.split(".")[0]
    try:
        name = _own_distribution(top)
        if name is None:
            dists = importlib.metadata.packages_distributions().get(top, [])
            name = dists[0] if dists else None
        if name is not None:
            return f"{name} {importlib.metadata.version(name)}"
    except Exception:  # noqa: BLE001 - broken metadata must not stop a run
        return None
    return None


def provenance(strategy: Player) -> dict[str, Any]:
    """{label, class, params (all), package (name and version), file_sha256} of a strategy,
    and the ``file`` of one whose class came from a file or from the script run."""
    cls = type(strategy)
    source = cls.__dict__.get("_source_spec")
    script = None if source else _script(cls)
    out: dict[str, Any] = {
        "label": strategy.label,
        "class": source.rpartition(":")[2] if source else f"{cls.__module__}:{cls.__qualname__}",
        "params": {k: _jsonable(v) for k, v in strategy.params.items()},
        "package": None if source or script else _package_version(cls.__module__),
        "file_sha256": None,
    }
    if source:
        out["file_sha256"] = loaded_sha256(cls)  # the bytes it runs, not the file's edit since
        out["file"] = source.rpartition(":")[0]
    elif script is not None:
        out["class"], out["file"], out["file_sha256"] = cls.__qualname__, *script
    return out


def _script(cls: type) -> tuple[str, str] | None:
    """(path, SHA-256) of the script that defines ``cls`` where Python ran it as ``__main__``
    (``python my_run.py``); None for any other class, or a ``__main__`` with no file (an
    interactive session, a notebook)."""
    main = sys.modules.get("__main__")
    file = getattr(main, "__file__", None)
    if cls.__module__ != "__main__" or not file:
        return None
    found: Any = main
    for part in cls.__qualname__.split("."):  # a class made in a function is found by none
        found = getattr(found, part, None)
    return _hashed(str(Path(file).resolve())) if found is cls else None


@cache
def _hashed(path: str) -> tuple[str, str] | None:
    """(path, SHA-256 of its bytes), read once per process: the script as it was first
    described, not an edit made while it runs; None where it cannot be read."""
    try:
        return path, hashlib.sha256(Path(path).read_bytes()).hexdigest()
    except OSError:
        return None


def entrant_target(entrant: dict[str, Any]) -> str:
    """The spec that loads an entrant's class as a run's manifest describes it (``provenance``):
    ``file.py:Class`` for a file's class, ``package.module:Class`` for a module's; ValueError
    where it names no class another process can load (``__main__:Class`` with no file)."""
    cls, file = entrant.get("class"), entrant.get("file")
    if not isinstance(cls, str) or not cls:
        raise ValueError("the run's manifest records no class for it (spec.entrants)")
    if file:
        return f"{file}:{cls}"
    if cls.partition(":")[0] == "__main__":
        raise ValueError(f"its class {cls} was defined in the script that started the run, "
                         "whose file the run did not record")  # fmt: skip
    return cls


def entrant_params(entrant: dict[str, Any]) -> dict[str, Any]:
    """The parameters of an entrant as a run's manifest describes it (``spec.entrants``, as
    ``provenance`` writes it): a table of names to values, none where it has none; else
    ValueError naming the field (Python would speak of a dictionary update sequence, or take
    a list of pairs for a table)."""
    params = entrant.get("params")
    if params is None:
        return {}
    if not isinstance(params, dict) or not all(isinstance(k, str) for k in params):
        text = repr(params) if len(repr(params)) <= 40 else repr(params)[:37] + "..."
        raise ValueError(
            f"its params in the manifest (spec.entrants) are {text}, expected a table of "
            "parameter names to values"
        )
    return dict(params)


def provenance_change(old: dict[str, Any], new: dict[str, Any]) -> str | None:
    """One phrase naming the first difference between two provenances (None: the same); the
    stored one's params that are no table are said so, not read as names changed."""
    label = new.get("label", "?")
    if old.get("class") != new.get("class"):
        return f"{label}: class {old.get('class')} is now {new.get('class')}"
    try:
        old_p = entrant_params(old)
    except ValueError as exc:
        return f"{label}: {exc}"
    new_p = new.get("params", {})
    for key in sorted(set(old_p) | set(new_p)):
        if key not in old_p:
            return f"{label}: new parameter {key}={new_p[key]!r}"
        if key not in new_p:
            return f"{label}: parameter {key} is gone"
        if old_p[key] != new_p[key]:
            return f"{label}: parameter {key} was {old_p[key]!r}, now {new_p[key]!r}"
    if old.get("package") != new.get("package"):
        return f"{label}: package {old.get('package')} is now {new.get('package')}"
    if old.get("file_sha256") != new.get("file_sha256"):
        return f"{label}: file {new.get('file', '?')} changed since the run started"
    return None
