"""Entrant labels: one per entrant, distinct for entrants that differ.

A strategy's label is its name (with the parameters that differ from the defaults), so two
different classes of one name, say two versions of ``MyBot`` in two files, resolve to the
same label. They are still two entrants: each is then labelled with where it comes from,
``ok.py:MyBot`` and ``ok2.py:MyBot`` (as few trailing path parts as tell the files apart;
a class from a module by the module, ``mine.bots:MyBot``). The same entrant listed twice keeps
one label, so a caller can still refuse it. Labels depend only on the set of entrants, never
on their order, so a resumed run finds the labels it recorded.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .game import GamePlugin

__all__ = ["Labeled", "entrant_labels", "resolve_entrants", "unqualified"]


@dataclass(frozen=True)
class Labeled:
    """An entrant ``spec`` entered under its own ``label``: the same strategy twice in one run
    (a gauntlet of a strategy against itself as its baseline) needs two labels."""

    spec: Any
    label: str


def identity(game: GamePlugin, payload: Any) -> tuple[str, str | None]:
    """(identity, where) of an entrant: equal identities are the same entrant (its class,
    file and every parameter, as the game describes it); ``where`` is its file, or its
    class's module (None when the game tells neither)."""
    describe = getattr(game, "describe", None)
    if describe is not None:
        described = dict(describe(payload))
        described.pop("label", None)
        file = described.get("file")
        module = str(described.get("class") or "").partition(":")[0]
        where = str(file) if file else (module or None)
        return json.dumps(described, sort_keys=True, default=str), where
    if isinstance(payload, str):
        path, sep, _ = payload.partition(":")
        return payload, (path if sep and path.endswith(".py") else None)
    cls = type(payload)
    return f"{cls.__module__}:{cls.__qualname__}:{payload!r}", cls.__module__


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
    the same entrant listed twice keeps its label twice. A ``Labeled`` spec keeps the label
    it was given."""
    resolved: list[tuple[str, Any, str]] = []
    for spec in specs:
        if isinstance(spec, Labeled):
            resolved.append((spec.label, game.resolve(spec.spec)[1], ""))
        else:
            resolved.append((*game.resolve(spec), ""))
    groups: dict[str, list[int]] = {}
    for i, (label, _, _) in enumerate(resolved):
        if not isinstance(specs[i], Labeled):
            groups.setdefault(label, []).append(i)
    for label, members in groups.items():
        if len(members) < 2:
            continue
        found = {i: identity(game, resolved[i][1]) for i in members}
        kinds = sorted({ident for ident, _ in found.values()})
        if len(kinds) < 2:
            continue  # the same entrant listed twice: the caller's to refuse
        where = {ident: w for ident, w in found.values()}
        names = _qualifiers([where[k] for k in kinds])
        if names is None:  # nothing tells them apart but their order
            names = [f"#{n}" for n in range(1, len(kinds) + 1)]
        by_kind = dict(zip(kinds, names, strict=True))
        for i in members:
            where = by_kind[found[i][0]]
            resolved[i] = (f"{where}:{label}", resolved[i][1], where)
    return resolved


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
