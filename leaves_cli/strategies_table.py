"""The table ``leaves strategies`` prints: a strategy a row, its name, classifiers, and its
description with its parameters' defaults under it, fitted to the terminal (no name, word or
parameter cut)."""

from __future__ import annotations

from typing import Any

from rich import box
from rich.text import Text

from .fitted import FittedTable, wrap

__all__ = ["HEADS", "StrategiesTable"]

HEADS = ("name", "classifiers", "description, parameters (defaults)")


class StrategiesTable(FittedTable):
    """A strategy a row, as wide as the console: the name bold, it and the classifiers whole on
    a line where the table fits so, the parameters' defaults dim under the description."""

    BOX, PAD_EDGE, EXPAND = box.SIMPLE_HEAD, True, True
    WHOLE = ("name", "classifiers")

    def __init__(self, title: str, rows: list[tuple[str, str, str, dict[str, Any]]]):
        """``rows``: (name, classifiers, description, default parameters) a strategy."""
        cells = [[name, classifiers, desc + "".join(_pars(params))]
                 for name, classifiers, desc, params in rows]  # fmt: skip
        super().__init__(HEADS, cells, title)
        self.descriptions = [desc for _, _, desc, _ in rows]

    def styles(self, row: list[str]) -> list[str]:
        return ["bold", "", ""]

    def cell(self, row: list[str], i: int, width: int) -> Text:
        if i < 2:
            return super().cell(row, i, width)
        desc = self.descriptions[self.rows.index(row)]
        text = Text(wrap(desc, width))
        if len(row[i]) > len(desc):
            text.append(wrap(row[i][len(desc) :], width), style="dim")
        return text


def _pars(params: dict[str, Any]) -> list[str]:
    """The parameters' defaults on a line of their own: ['\\nkey=value, ...'] (none: [])."""
    return ["\n" + ", ".join(f"{k}={v}" for k, v in params.items())] if params else []
