"""Entrant labels: one per entrant, distinct for entrants that differ.

A strategy's label is its name (with the parameters that differ from the defaults), so two
different classes of one name, say two versions of ``MyBot`` in two files, resolve to the
same label. They are still two entrants: each is then labelled with where it comes from,
``ok.py:MyBot`` and ``ok2.py:MyBot`` (as few trailing path parts as tell the files apart;
a class from a module by the module, ``mine.bots:MyBot``). The same entrant listed twice keeps
one label, so a caller can still refuse it: an instance's parameters are compared as the
registry reads them (``P(x=2)`` is ``P(x=2.0)`` where ``x`` defaults to a float, though the
labels they write differ). Two classes of one qualified name that the name
does not lead back to (made in a function) are two entrants, told apart by the objects they
are. Labels depend only on the set of entrants, never on their order (but for those last,
numbered ``#1``, ``#2`` in the order listed: nothing a run records ties a number to its class,
so such a run is never resumed, ``listed_in_order``), so a resumed run finds the labels it
recorded.
"""

from __future__ import annotations

import inspect
import json
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .game import GamePlugin

__all__ = [
    "Labeled",
    "entrant_key",
    "entrant_labels",
    "listed_in_order",
    "resolve_entrants",
    "unqualified",
]


@dataclass(frozen=True)
class Labeled:
    """An entrant ``spec`` entered under its own ``label``: the same strategy twice in one run
    (a gauntlet of a strategy against itself as its baseline) needs two labels."""

    spec: Any
    label: str


def identity(game: GamePlugin, payload: Any) -> tuple[str, str | None]:
    """(identity, where) of an entrant: equal identities are the same entrant (its class,
    file and every parameter, as the game describes it, each number as the registry reads
    it: ``_as_read``); ``where`` is its file, or its class's module (None when the game tells
    neither)."""
    describe = getattr(game, "describe", None)
    if describe is not None:
        described = dict(describe(payload))
        described.pop("label", None)
        if "params" in described and not isinstance(payload, str):
            described["params"] = _as_read(payload, described["params"])
        file = described.get("file")
        module = str(described.get("class") or "").partition(":")[0]
        where = str(file) if file else (module or None)
        return json.dumps(described, sort_keys=True, default=str), where
    if isinstance(payload, str):
        path, sep, _ = payload.partition(":")
        return payload, (path if sep and path.endswith(".py") else None)
    cls = type(payload)
    return f"{cls.__module__}:{cls.__qualname__}:{payload!r}", cls.__module__


def _as_read(payload: Any, described: Any) -> Any:
    """The parameters of an instance given as it is, as the registry reads a spec's: a numpy
    number as Python's and a whole number as a float where the default is one, so that
    ``P(x=1)`` is ``P(x=1.0)`` (the registry builds both from ``P:x=1``); ``described`` (the
    game's own table) where the instance has no parameters to read. An integral float
    where the default is an int reads as the int (``_read_as_default``)."""
    params = getattr(payload, "params", None)
    if not isinstance(params, dict) or not isinstance(described, dict):
        return described
    try:
        signature = inspect.signature(type(payload).__init__).parameters
    except (TypeError, ValueError):  # a constructor Python cannot describe: as described
        return described
    read = {}
    for key, value in params.items():
        if type(value).__module__ == "numpy" and getattr(value, "ndim", None) == 0:
            value = value.item()  # as ``strategies.building`` reads a numpy number
        value = _read_as_default(value, getattr(signature.get(key), "default", None))
        read[key] = (
            value if isinstance(value, bool | int | float | str | None) else described.get(key)
        )
    return read


def _read_as_default(value: Any, default: Any) -> Any:
    """``value`` in the type of its ``default``, where that reads the same number: a whole
    number as a float where the default is one (the registry builds ``P(x=1.0)`` from
    ``P:x=1``), an integral float as an int where the default is one (``P(n=2.0)`` plays as
    ``P(n=2)``; the registry refuses ``P:n=2.0`` rather than build a second entrant)."""
    if isinstance(value, bool) or isinstance(default, bool):
        return value
    if isinstance(default, float) and isinstance(value, int):
        return float(value)
    if isinstance(default, int) and isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def _named_class(cls: type) -> bool:
    """Does ``cls``'s name lead back to it (its module's attribute by its qualified name, or
    the file it was loaded from)? Two classes of one name where it does not (defined in a
    function, or a name defined again) are told apart by the objects they are."""
    if "_source_spec" in vars(cls):  # a user's file's class: its file and hash name it
        return True
    found: Any = sys.modules.get(cls.__module__)
    for part in cls.__qualname__.split("."):
        found = getattr(found, part, None)
    return found is cls


Key = tuple[str, type | None]
"""What makes an entrant itself (``entrant_key``): equal keys, the same entrant."""


def entrant_key(game: GamePlugin, payload: Any) -> tuple[Key, str | None]:
    """(key, where) of an entrant: its ``identity`` and, where its class's name does not lead
    back to the class (``_named_class``), the class object itself; ``where`` as ``identity``
    says it."""
    ident, where = identity(game, payload)
    cls = None if isinstance(payload, str) else type(payload)
    return (ident, None if cls is None or _named_class(cls) else cls), where


def _qualifiers(wheres: list[str | None]) -> list[str] | None:
    """The shortest distinct names of ``wheres`` (files by their trailing path parts, modules
    whole), or None when they cannot be told apart."""
    if any(w is None for w in wheres) or len(set(wheres)) < len(wheres):
        return None
    paths = [Path(w) for w in wheres if w is not None]
    for k in range(1, max(len(p.parts) for p in paths) + 1):
        names = [
            "/".join(Path(w).parts[-k:]) if w.endswith(".py") else w
            for w in wheres
            if w is not None
        ]
        if len(set(names)) == len(names):
            return names
    return None  # pragma: no cover - distinct paths differ in some trailing part


def entrant_labels(game: GamePlugin, specs: Sequence[Any]) -> list[tuple[str, Any, str]]:
    """(label, payload, qualifier) of each spec, in order: a label that two different entrants
    resolve to becomes ``where:label`` for each (``where`` its qualifier; "" for the rest);
    the same entrant listed twice keeps one label twice (the first in sorted order of those it
    was given: ``P(x=2)`` for ``P(x=2)`` and ``P(x=2.0)``), for the caller to refuse. A
    ``Labeled`` spec keeps the label it was given."""
    resolved: list[tuple[str, Any, str]] = []
    for spec in specs:
        if isinstance(spec, Labeled):
            resolved.append((spec.label, game.resolve(spec.spec)[1], ""))
        else:
            resolved.append((*game.resolve(spec), ""))
    own = [i for i, spec in enumerate(specs) if not isinstance(spec, Labeled)]
    found = {i: entrant_key(game, resolved[i][1]) for i in own}
    keys = {i: key for i, (key, _) in found.items()}
    where = {key: w for key, w in found.values()}
    listed = {key: min(i for i in own if keys[i] == key) for key in where}
    given: dict[Key, list[str]] = {}
    for i in own:
        given.setdefault(keys[i], []).append(resolved[i][0])
    groups: dict[str, list[int]] = {}
    for i in own:  # one entrant, one label, whatever the words of its parameters
        groups.setdefault(min(given[keys[i]]), []).append(i)
    for label, members in groups.items():
        kinds = sorted({keys[i] for i in members}, key=lambda k: (k[0], listed[k]))
        names = [""] if len(kinds) < 2 else _qualifiers([where[k] for k in kinds])
        if names is None:  # nothing tells them apart but their order
            names = [f"{_ORDER_MARK}{n}" for n in range(1, len(kinds) + 1)]
        by_kind = dict(zip(kinds, names, strict=True))  # one kind: the same entrant, or alone
        for i in members:
            q = by_kind[keys[i]]
            resolved[i] = (f"{q}:{label}" if q else label, resolved[i][1], q)
    return resolved


_ORDER_MARK = "#"
"""What starts the qualifier of an entrant numbered by listing order (``#1``): no file or
module name starts so (a file's qualifier ends in ``.py``)."""


def listed_in_order(labels: Sequence[str]) -> list[str]:
    """Those of ``labels`` told apart only by the order they were listed in (``#1:P``,
    ``#2:P``): two classes of one qualified name made in a function, which nothing in a run's
    record ties to their numbers (a resume listing them the other way round would add the
    games of one to the other's)."""
    return [x for x in labels if re.match(rf"{_ORDER_MARK}[0-9]+:", x)]


def unqualified(label: str, qualifier: str) -> str:
    """``label`` without the ``qualifier`` that told it apart (``ok (1).py:MyBot(k=2)`` with
    ``ok (1).py`` is ``MyBot(k=2)``): the label its spec resolves to on its own. A run
    records each entrant's qualifier (its manifest's ``entrants``), so this never parses a
    file name, which may hold colons and parentheses of its own."""
    if qualifier and label.startswith(f"{qualifier}:"):
        return label[len(qualifier) + 1 :]
    return label


def resolve_entrants(game: GamePlugin, specs: Sequence[Any]) -> list[tuple[str, Any]]:
    """(label, payload) of each spec (``entrant_labels`` without the flag)."""
    return [(label, payload) for label, payload, _ in entrant_labels(game, specs)]
