"""``Request``: what a command was asked, merged once into a frozen record.

The command line comes first, then the config file (``--config``) for what the command line
did not give, then a resumed run's manifest, which fills in the rest and refuses what
disagrees. That merge happens on a draft (``draft``) where the command starts; the record it
freezes is what every later step reads (``request.games``), so no step can change what
another sees.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

import click

from .origins import typed

__all__ = ["Request", "draft"]


@dataclass(frozen=True)
class Request:
    """A command's options after the merge: ``request.name`` (or ``request["name"]``) is an
    option's value, ``manifest`` the resumed run's (None for a new run). What the user gave
    matters only to the merge (``draft``), so the record does not keep it."""

    values: Mapping[str, Any]
    manifest: Mapping[str, Any] | None = field(default=None, repr=False)

    @classmethod
    def of(cls, values: Mapping[str, Any], manifest: Any = None) -> Request:
        """The frozen record of a merged draft (a copy: the draft may go on changing)."""
        return cls(MappingProxyType(dict(values)), manifest)

    def __getattr__(self, name: str) -> Any:
        try:
            return self.values[name]
        except KeyError:
            raise AttributeError(f"no option {name!r} in this request") from None

    def __getitem__(self, name: str) -> Any:
        return self.values[name]

    def get(self, name: str, default: Any = None) -> Any:
        return self.values.get(name, default)


def draft(ctx: click.Context, opts: dict[str, Any], config: Mapping[str, Any] | None = None,
          stacked: Any = ()) -> tuple[dict[str, Any], set[str]]:  # fmt: skip
    """The command line over ``config`` (a config file's options, keyed like the command's):
    the draft values and the names given in either. A ``stacked`` setting given in both (a
    game's repeatable one, such as rules whose later keys win) takes the file's values first,
    then the command line's. What the command line gave is what it typed (``origins``)."""
    values = dict(opts)
    given = typed(ctx, opts)
    for name, value in (config or {}).items():
        if name not in given or (name == "specs" and not opts.get("specs")):
            values[name] = value
        elif name in stacked:
            values[name] = (*value, *values[name])
    given |= set(config or {})
    if not values.get("specs"):
        given.discard("specs")
    return values, given
