"""Where an option's value came from (its flag typed on the command line, its key in the
config file, or neither: a default or a resumed run's), and how a line names a file's value
set beside a typed flag ("max_games in c.toml"): one rule, so every one-line error names a
value where it was given and never by a flag no one typed."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import click
from click.core import ParameterSource

__all__ = ["DEFAULT", "FILE", "FLAG", "in_file", "origin"]

FLAG, FILE, DEFAULT = "flag", "file", "default"
"""Where a value came from: its flag typed, its key in the config file, neither."""


def origin(values: Mapping[str, Any], option: str, ctx: click.Context | None = None) -> str:
    """Where ``option`` (a command's option name) got its value: ``FILE`` where the config
    file gave it and its flag was not typed (``values["from_config"]``, the command's merged
    options), ``FLAG`` where the command line typed it (``ctx``, else the command running),
    else ``DEFAULT``."""
    if option in values.get("from_config", ()):
        return FILE
    ctx = ctx or click.get_current_context(silent=True)
    if ctx is not None and ctx.get_parameter_source(option) == ParameterSource.COMMANDLINE:
        return FLAG
    return DEFAULT


def in_file(key: str, config: str) -> str:
    """A config file's value named beside a typed flag: by its ``key`` in the file ``config``
    ("max_games in c.toml"), not by a flag, and not after the file (read as if the typed flag
    came from it)."""
    return f"{key} in {config}"
