"""A tournament run as compact numpy arrays that every table is computed from.

Why arrays and not a DataFrame: a run can hold 10 million games; strategy labels become small
integer codes shared by all seats (one int8 per seat), result values int16, so a whole run fits
in a few hundred MB and every table is a handful of vectorized passes. Which columns to read
comes from the game's declaration in the manifest (``tournaments.game.Declaration``: the rank
column and its direction, length, share and mean columns, the table size); nothing here knows a
game. A games DataFrame without a manifest is read under the default game's declaration.
Reading the Parquet parts is ``reports.loading``'s job.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from tournaments.declaration import DECLARED, Declaration, check_present
from tournaments.manifest_fields import filling_game

BLOCK = 1 << 20  # rows per block in the table computations (bounds temporary memory)
MISSING = np.iinfo(np.int16).min
"""A per-seat value that is not there (an empty seat, a null)."""
ARRAY_FIELDS = ("seats", "values", "n_players", "first", "winner", "unfinished", "forfeited",
                "forfeit_seat", "deal", "table", "match", "scores", "limit")  # fmt: skip
DICT_FIELDS = ("lengths", "flags", "means")
_AHEAD, _BEHIND = 1 << 20, 1 << 21  # finishing keys: a winner before all, a forfeit after all


class ReportError(ValueError):
    """Bad input for a report (missing or corrupt run directory, no games): one clear line."""


def default_declaration() -> Declaration:
    """The declaration of the default game (runs and DataFrames that carry none)."""
    from tournaments.games import DEFAULT_GAME, get_game  # start-up: loads the game registry

    return Declaration.of(get_game(DEFAULT_GAME))


def run_declaration(manifest: dict) -> Declaration:
    """The game declaration a run's manifest keeps (the default game's if it keeps none). A
    run written before a field was declared gets that field from the installed game of the
    same name (``tournaments.manifest_fields.filling_game``, whose check names the file where
    a command reads the manifest from one)."""
    d = manifest.get("game_declaration") if isinstance(manifest, dict) else None
    if d is None:
        return default_declaration()
    try:
        if isinstance(d, dict) and all(k in d for k in DECLARED):  # complete: no plug-in needed
            return Declaration.from_dict(d)
        check_present(d)
        spec = manifest.get("spec")
        config = spec.get("game_config") if isinstance(spec, dict) else None
        return Declaration.from_dict({**_installed(filling_game(d), config), **d})
    except (AttributeError, TypeError, ValueError) as exc:
        raise ReportError(f"corrupt manifest: {exc}") from None


def _installed(cls: type | None, config: Any = None) -> dict[str, Any]:
    """The current declaration of the installed game ``cls`` ({} if none is), built with the
    run's settings (``config``, its ``game_config``): what a game declares may follow them
    (its limits, those of the run's rules). Where they no longer build it, the defaults'
    declaration without the limits, which would be the defaults' and not the run's."""
    if cls is None:
        return {}
    try:
        return Declaration.of(cls(**dict(config or {}))).to_dict()
    except (TypeError, ValueError):
        return {**Declaration.of(cls()).to_dict(), "limits": None, "limit_columns": None}


@dataclass
class Games:
    """Per-game arrays of a run (N games, S seat columns). Empty seats have code -1.

    ``values`` holds the declared rank value per seat (``MISSING`` where there is none);
    ``lengths``, ``flags`` and ``means`` the declared length, share and mean columns.
    ``forfeit_seat`` is -1 where nobody forfeited or the seat is unknown (a bool ``forfeit``
    column); ``forfeited`` says whether the game ended by a forfeit at all. ``limit``: for a
    game that declares ``limit_columns``, the index of the first of them its row reaches (the
    last where none does), which tells the limit that stopped an unfinished game; None where
    the game declares none or the rows lack a column named.
    """

    labels: tuple[str, ...]
    seats: np.ndarray  # int8/int16 (N, S) strategy codes into labels, -1 empty
    values: np.ndarray  # int16 (N, S) the rank value, MISSING for empty seats / nulls
    n_players: np.ndarray  # int8 (N,)
    first: np.ndarray  # int8 (N,), 0 for games without a first player
    winner: np.ndarray  # int8 (N,), -1 none (or a shared win)
    unfinished: np.ndarray  # bool (N,)
    forfeited: np.ndarray  # bool (N,)
    forfeit_seat: np.ndarray  # int8 (N,), -1 none/unknown
    deal: np.ndarray | None = None  # int64 (N,) deal index (duplicate deals), if the run has it
    table: np.ndarray | None = (
        None  # int64 (N,) deal stream: games of one deal and stream share cards
    )
    match: np.ndarray | None = None  # int64 (N,) match id
    scores: np.ndarray | None = None  # int16 (N, S) match points per game
    limit: np.ndarray | None = None  # int8 (N,) the declared limit a game's row reached
    lengths: dict[str, np.ndarray] = field(default_factory=dict)  # int32 (N,) per length column
    flags: dict[str, np.ndarray] = field(default_factory=dict)  # bool (N,) per share column
    means: dict[str, np.ndarray] = field(default_factory=dict)  # int16 (N, S) per mean column
    declaration: Declaration = field(default_factory=default_declaration, repr=False)
    cache: dict = field(default_factory=dict, repr=False, compare=False)  # derived tables

    def __len__(self) -> int:
        return int(self.seats.shape[0])

    @property
    def n_strategies(self) -> int:
        return len(self.labels)

    def blocks(self, size: int = BLOCK) -> Iterator[Games]:
        """Consecutive row blocks (views, no copies): per-block temporaries stay small."""
        n = len(self)
        for start in range(0, max(n, 1), size):
            sl = slice(start, min(start + size, n))
            yield Games(
                labels=self.labels,
                **{
                    f: (None if getattr(self, f) is None else getattr(self, f)[sl])
                    for f in ARRAY_FIELDS
                },
                **{f: {k: v[sl] for k, v in getattr(self, f).items()} for f in DICT_FIELDS},
                declaration=self.declaration,
            )

    def select(self, mask: np.ndarray) -> Games:
        """The games where ``mask`` is True (copies; nothing cached carries over)."""
        return Games(
            labels=self.labels,
            **{f: (None if getattr(self, f) is None else getattr(self, f)[mask])
               for f in ARRAY_FIELDS},
            **{f: {k: v[mask] for k, v in getattr(self, f).items()} for f in DICT_FIELDS},
            declaration=self.declaration,
        )  # fmt: skip

    def finished(self) -> Games:
        """The games not ended by a forfeit (itself when there is none; no games when every
        game was): a game a strategy forfeited says nothing about seats or lengths. The one
        rule of every table that leaves forfeits out, called directly or from the page."""
        if not self.forfeited.any():
            return self
        return self.select(~self.forfeited)

    def ranks_key(self) -> np.ndarray:
        """Finishing key per seat (lower is better): the rank value in the declared direction,
        the winner first, a forfeiting seat last, empty seats after all. int32 (N, S)."""
        key = self.values.astype(np.int32)
        if self.declaration.higher_is_better:
            key = -key
        seat_idx = np.arange(self.seats.shape[1])
        key[seat_idx[None, :] == self.winner[:, None]] = -_AHEAD
        key[seat_idx[None, :] == self.forfeit_seat[:, None]] = _AHEAD
        key[(self.seats < 0) | (self.values == MISSING)] = _BEHIND
        return key

    def wins(self) -> np.ndarray:
        """bool (N, S): the seats that won each game. One winner (``winner``), or, for a game
        with shared wins, every seat tied for the best rank value (none in a forfeited game)."""
        seat_idx = np.arange(self.seats.shape[1])
        if not self.declaration.shared_wins:
            return seat_idx[None, :] == self.winner[:, None]
        key = self.ranks_key()
        best = key.min(axis=1, keepdims=True)
        return (key == best) & (key < _AHEAD) & ~self.forfeited[:, None]

    def to_frame(self) -> pd.DataFrame:
        """The games as a DataFrame in the run's column layout (labels as categoricals)."""
        d = self.declaration
        cats = pd.CategoricalDtype(list(self.labels))
        cols: dict[str, Any] = {}
        width = self.seats.shape[1]
        for s in range(width):
            cols[f"seat_{s}"] = pd.Categorical.from_codes(self.seats[:, s], dtype=cats)
        for s in range(width):
            cols[f"{d.rank_value}_{s}"] = self.values[:, s]
        for name, v in self.means.items():
            if name != d.rank_value:
                for s in range(width):
                    cols[f"{name}_{s}"] = v[:, s]
        cols["n_players"] = self.n_players
        if d.has_first_player:
            cols["first_player"] = self.first
        cols["winner_seat"] = self.winner
        cols.update(self.lengths)
        cols.update(self.flags)
        cols.update(unfinished=self.unfinished, forfeit=self.forfeit_seat)
        if self.deal is not None:
            cols["deal"] = self.deal
        if self.table is not None:
            cols["table"] = self.table
        if self.match is not None:
            cols["match"] = self.match
        if self.scores is not None:
            for s in range(self.scores.shape[1]):
                cols[f"score_{s}"] = self.scores[:, s]
        return pd.DataFrame(cols)


@dataclass
class Run:
    """A loaded run: games arrays, the matches table (or None) and the manifest."""

    games: Games
    matches: pd.DataFrame | None = None
    manifest: dict = field(default_factory=dict)
    path: Path | None = None

    @property
    def expert(self) -> bool:
        """A run of matches (asked for by ``--expert``, or games to a target)."""
        return self.games.match is not None or self.matches is not None

    @property
    def declaration(self) -> Declaration:
        return self.games.declaration


__all__ = [
    "ARRAY_FIELDS", "BLOCK", "DICT_FIELDS", "MISSING", "Games", "ReportError", "Run",
    "default_declaration", "run_declaration",
]  # fmt: skip
