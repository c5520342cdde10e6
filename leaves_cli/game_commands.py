"""The commands each installed game adds to ``leaves``, found without importing one.

A game declares them in a light module named by its entry point in the group
``leaves.commands`` (``game_id = "package.module"``): ``COMMANDS`` maps a command's name to
``(module, attribute, one-line help)``, modules relative to its package; ``TITLE`` names the
game in ``leaves --help``; ``EXAMPLES`` (optional) are its help's example lines. A name a shared
command, or a game listed before (by id), already has is left out: the shared commands and the
first game keep theirs.
"""

from __future__ import annotations

import functools
import importlib
import importlib.metadata
import importlib.util
from typing import NamedTuple

import click

GROUP = "leaves.commands"


class GameCommands(NamedTuple):
    """One game's own commands: name -> (absolute module, attribute, one-line help)."""

    game: str
    title: str
    commands: dict[str, tuple[str, str, str]]
    examples: tuple[str, ...] = ()


@functools.cache
def game_commands(taken: frozenset[str]) -> tuple[GameCommands, ...]:
    """Every installed game's commands, by game id; ``taken``: the shared commands' names.
    A game whose table cannot load is left out with a one-line warning: the other commands
    still run."""
    names = set(taken)
    found = []
    for entry in sorted(importlib.metadata.entry_points(group=GROUP), key=lambda e: e.name):
        try:
            found.append(_load(entry, names))
        except (ImportError, AttributeError, TypeError, ValueError) as exc:
            click.echo(f"leaves: warning: the commands of game {entry.name!r} cannot load: {exc}",
                       err=True)  # fmt: skip
    return tuple(found)


def _load(entry: importlib.metadata.EntryPoint, names: set[str]) -> GameCommands:
    module = importlib.import_module(entry.value)
    table: dict[str, tuple[str, str, str]] = {}
    for name, (where, attr, short) in module.COMMANDS.items():
        if name not in names:
            names.add(name)
            table[name] = (importlib.util.resolve_name(where, module.__package__), attr, short)
    examples = tuple(getattr(module, "EXAMPLES", ()))
    return GameCommands(entry.name, getattr(module, "TITLE", entry.name), table, examples)
