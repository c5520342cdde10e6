"""Where an option's value came from (its flag typed on the command line, its key in the
config file, a resumed run's manifest, or none of them: a default), and how a line names a
value by it ("--games", "max_games in c.toml", "the resumed run's --games"): one rule, so
every one-line error names a value where it was given and never by a flag no one typed."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import click
from click.core import ParameterSource

__all__ = ["DEFAULT", "FILE", "FLAG", "RESUMED", "in_file", "origin", "typed", "whose"]

FLAG, FILE, RESUMED, DEFAULT = "flag", "file", "resumed", "default"
"""Where a value came from: its flag typed, its key in the config file, the resumed run's
manifest, none of them."""


def origin(values: Mapping[str, Any], option: str, ctx: click.Context | None = None) -> str:
    """Where ``option`` (a command's option name) got its value: ``FILE`` where the config
    file gave it and its flag was not typed (``values["from_config"]``, the command's merged
    options), ``FLAG`` where the command line typed it (``ctx``, else the command running),
    ``RESUMED`` where a resumed run's manifest filled it in (``values["from_run"]``), else
    ``DEFAULT``."""
    if option in values.get("from_config", ()):
        return FILE
    ctx = ctx or click.get_current_context(silent=True)
    if ctx is not None and ctx.get_parameter_source(option) == ParameterSource.COMMANDLINE:
        return FLAG
    if option in values.get("from_run", ()):
        return RESUMED
    return DEFAULT


def typed(ctx: click.Context, options: Iterable[str]) -> set[str]:
    """The ``options`` whose flags the command line of ``ctx`` typed (``origin``'s ``FLAG``)."""
    return {name for name in options if origin({}, name, ctx) == FLAG}


def whose(values: Mapping[str, Any], option: str, key: str | None = None) -> str:
    """How a line names ``option``'s value by where it came from (``origin``, in the command
    running): its flag where typed ("--games"), its ``key`` (else the option's name) in the
    config file ("games in c.toml"), else whose it is before the flag ("the resumed run's
    --games", "the default --games"): never the flag alone, as if it had been typed."""
    flag = "--" + option.replace("_", "-")
    where = origin(values, option)
    if where == FILE:
        return in_file(key or option, str(values["config"]))
    if where == FLAG:
        return flag
    return f"the resumed run's {flag}" if where == RESUMED else f"the default {flag}"


def in_file(key: str, config: str) -> str:
    """A config file's value named beside a typed flag: by its ``key`` in the file ``config``
    ("max_games in c.toml"), not by a flag, and not after the file (read as if the typed flag
    came from it)."""
    return f"{key} in {config}"
