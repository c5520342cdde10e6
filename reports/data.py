"""Loading a tournament run into compact numpy arrays that every table is computed from.

Why arrays and not a DataFrame: a run can hold 10 million games; strategy labels become small
integer codes shared by all seats (one int8 per seat), card counts int16, so a whole run fits in a
few hundred MB and every table is a handful of vectorized passes. Only the pinned columns are read
(the column names are the contract with the tournament runner; nothing here knows 13 Leaves).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

MAX_SEATS = 6
BLOCK = 1 << 20  # rows per block in the table computations (bounds temporary memory)
ARRAY_FIELDS = ("seats", "cards", "n_players", "first", "winner", "turns", "rounds", "unfinished",
                "forfeited", "forfeit_seat", "deal", "match", "scores")  # fmt: skip
REQUIRED = ("n_players", "first_player", "winner_seat", "turns", "rounds")
OPTIONAL = ("unfinished", "forfeit", "deal", "match")


class ReportError(ValueError):
    """Bad input for a report (missing or corrupt run directory, no games): one clear line."""


@dataclass
class Games:
    """Per-game arrays of a run (N games, S seat columns). Empty seats have code -1.

    ``forfeit_seat`` is -1 where nobody forfeited or the seat is unknown (a bool ``forfeit``
    column); ``forfeited`` says whether the game ended by a forfeit at all.
    """

    labels: tuple[str, ...]
    seats: np.ndarray  # int8/int16 (N, S) strategy codes into labels, -1 empty
    cards: np.ndarray  # int16 (N, S) cards left, -1 for empty seats / nulls
    n_players: np.ndarray  # int8 (N,)
    first: np.ndarray  # int8 (N,)
    winner: np.ndarray  # int8 (N,), -1 none
    turns: np.ndarray  # int32 (N,)
    rounds: np.ndarray  # int32 (N,)
    unfinished: np.ndarray  # bool (N,)
    forfeited: np.ndarray  # bool (N,)
    forfeit_seat: np.ndarray  # int8 (N,), -1 none/unknown
    deal: np.ndarray | None = None  # int64 (N,) deal index (duplicate deals), if the run has it
    match: np.ndarray | None = None  # int64 (N,) expert match id
    scores: np.ndarray | None = None  # int16 (N, S) expert points per game
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
            )

    def ranks_key(self) -> np.ndarray:
        """Finishing key per seat (lower is better): cards left, the winner first, a forfeiting
        seat last, empty seats a large sentinel. int32 (N, S)."""
        key = self.cards.astype(np.int16)
        seat_idx = np.arange(self.seats.shape[1])
        key[seat_idx[None, :] == self.winner[:, None]] = -1
        key[seat_idx[None, :] == self.forfeit_seat[:, None]] = 32_000
        key[self.seats < 0] = 32_767
        return key

    def to_frame(self) -> pd.DataFrame:
        """The games as a DataFrame in the pinned column layout (labels as categoricals)."""
        cats = pd.CategoricalDtype(list(self.labels))
        cols: dict[str, Any] = {}
        for s in range(self.seats.shape[1]):
            cols[f"seat_{s}"] = pd.Categorical.from_codes(self.seats[:, s], dtype=cats)
        for s in range(self.seats.shape[1]):
            cols[f"cards_left_{s}"] = self.cards[:, s]
        cols.update(
            n_players=self.n_players,
            first_player=self.first,
            winner_seat=self.winner,
            turns=self.turns,
            rounds=self.rounds,
            unfinished=self.unfinished,
            forfeit=self.forfeit_seat,
        )
        if self.deal is not None:
            cols["deal"] = self.deal
        if self.match is not None:
            cols["match"] = self.match
        if self.scores is not None:
            for s in range(self.scores.shape[1]):
                cols[f"score_{s}"] = self.scores[:, s]
        return pd.DataFrame(cols)


@dataclass
class Run:
    """A loaded run: games arrays, the expert matches table (or None) and the manifest."""

    games: Games
    matches: pd.DataFrame | None = None
    manifest: dict = field(default_factory=dict)
    path: Path | None = None

    @property
    def expert(self) -> bool:
        return self.games.match is not None or self.matches is not None


def _seat_columns(names: list[str], prefix: str) -> list[str]:
    return [f"{prefix}{s}" for s in range(MAX_SEATS) if f"{prefix}{s}" in names]


def _int_column(table: pa.Table, name: str, dtype: Any, fill: int = -1) -> np.ndarray:
    col = table.column(name)
    if pa.types.is_null(col.type):
        return np.full(len(col), fill, dtype=dtype)
    if pa.types.is_boolean(col.type):
        col = pc.cast(col, pa.int8())
    return pc.fill_null(col, fill).to_numpy().astype(dtype, copy=False)


class _Labels:
    """Strategy label -> code, shared across seat columns and Parquet parts."""

    def __init__(self) -> None:
        self.codes: dict[str, int] = {}

    def encode(self, col: pa.ChunkedArray) -> np.ndarray:
        if pa.types.is_null(col.type):
            return np.full(len(col), -1, dtype=np.int16)
        if not pa.types.is_dictionary(col.type):
            col = pc.dictionary_encode(col)
        arr = col.unify_dictionaries().combine_chunks() if col.num_chunks else None
        if arr is None:
            return np.zeros(0, dtype=np.int16)
        values = arr.dictionary.to_pylist()
        lut = np.array([self.codes.setdefault(str(v), len(self.codes)) for v in values] + [-1])
        idx = pc.fill_null(arr.indices, -1).to_numpy().astype(np.int64)
        return lut[idx].astype(np.int16)  # -1 indexes the trailing -1 (null seat)


def _games_parts(table: pa.Table, labels: _Labels) -> dict[str, np.ndarray]:
    names = table.column_names
    missing = [c for c in REQUIRED if c not in names]
    seat_cols = _seat_columns(names, "seat_")
    card_cols = _seat_columns(names, "cards_left_")
    if missing or not seat_cols or len(card_cols) != len(seat_cols):
        what = ", ".join(missing) or "seat_i / cards_left_i"
        raise ReportError(f"games table lacks the pinned column(s): {what}")
    n = table.num_rows
    out: dict[str, np.ndarray] = {
        "seats": np.stack([labels.encode(table.column(c)) for c in seat_cols], axis=1),
        "cards": np.stack([_int_column(table, c, np.int16) for c in card_cols], axis=1),
        "n_players": _int_column(table, "n_players", np.int8),
        "first": _int_column(table, "first_player", np.int8),
        "winner": _int_column(table, "winner_seat", np.int8),
        "turns": _int_column(table, "turns", np.int32, 0),
        "rounds": _int_column(table, "rounds", np.int32, 0),
    }
    if "forfeit" in names and not pa.types.is_boolean(table.column("forfeit").type):
        out["forfeit_seat"] = _int_column(table, "forfeit", np.int8)
        out["forfeited"] = out["forfeit_seat"] >= 0
    else:
        out["forfeit_seat"] = np.full(n, -1, dtype=np.int8)
        out["forfeited"] = (
            _int_column(table, "forfeit", np.int8, 0).astype(bool)
            if "forfeit" in names
            else np.zeros(n, dtype=bool)
        )
    if "unfinished" in names:
        out["unfinished"] = _int_column(table, "unfinished", np.int8, 0).astype(bool)
    else:
        out["unfinished"] = (out["winner"] < 0) & ~out["forfeited"]
    for opt in ("deal", "match"):
        if opt in names:
            out[opt] = _int_column(table, opt, np.int64)
    score_cols = _seat_columns(names, "score_")
    if score_cols:
        out["scores"] = np.stack([_int_column(table, c, np.int16) for c in score_cols], axis=1)
    return out


def _assemble(parts: list[dict[str, np.ndarray]], labels: _Labels) -> Games:
    """Concatenate per-part arrays (parts may have fewer seat columns; optional columns are
    kept only if every part has them)."""
    return _Filler([len(p["turns"]) for p in parts]).fill_all(parts, labels)


class _Filler:
    """Preallocated Games arrays filled part by part: peak memory = result + one part."""

    def __init__(self, rows: list[int]) -> None:
        self.total = sum(rows)
        self.arrays: dict[str, np.ndarray] = {}
        self.offset = 0

    def add(self, part: dict[str, np.ndarray], width: int) -> None:
        n = len(part["turns"])
        if not self.arrays:
            for key, a in part.items():
                shape = (self.total, width) if a.ndim == 2 else (self.total,)
                fill = -1 if a.ndim == 2 else 0
                self.arrays[key] = np.full(shape, fill, dtype=a.dtype)
        for key in list(self.arrays):
            a = part.get(key)
            if a is None:  # optional column missing in this part: drop it everywhere
                del self.arrays[key]
                continue
            dest = self.arrays[key]
            if a.ndim == 2:
                dest[self.offset : self.offset + n, : a.shape[1]] = a
            else:
                dest[self.offset : self.offset + n] = a
        self.offset += n

    def fill_all(self, parts: list[dict[str, np.ndarray]], labels: _Labels) -> Games:
        width = max((p["seats"].shape[1] for p in parts), default=0)
        for p in parts:
            self.add(p, width)
        return self.result(labels)

    def result(self, labels: _Labels) -> Games:
        if self.total == 0:
            raise ReportError("the run has no games")
        a = self.arrays
        code_dtype = np.int8 if len(labels.codes) < 127 else np.int16
        names = tuple(sorted(labels.codes, key=labels.codes.get))
        return Games(
            labels=names,
            seats=a["seats"].astype(code_dtype, copy=False),
            **{f: a.get(f) for f in ARRAY_FIELDS if f != "seats"},
        )


def games_from_frame(df: pd.DataFrame) -> Games:
    """Convert a games DataFrame in the pinned layout (seat labels as str or categorical)."""
    if not isinstance(df, pd.DataFrame):
        raise ReportError(f"expected a games DataFrame, got {type(df).__name__}")
    wanted = [c for c in df.columns if _wanted(str(c))]
    try:
        table = pa.Table.from_pandas(df[wanted], preserve_index=False)
    except (pa.ArrowException, ValueError, TypeError) as exc:
        raise ReportError(f"games DataFrame cannot be read: {exc}") from exc
    labels = _Labels()
    return _assemble([_games_parts(table, labels)], labels)


def _wanted(name: str) -> bool:
    if name in REQUIRED or name in OPTIONAL:
        return True
    return any(name == f"{p}{s}" for p in ("seat_", "cards_left_", "score_") for s in range(6))


def _part_files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*.parquet") if p.is_file())


def load_games(folder: str | Path) -> Games:
    """Read every Parquet part under ``folder`` (only the needed columns), part by part."""
    folder = Path(folder)
    files = _part_files(folder) if folder.is_dir() else [folder]
    labels = _Labels()
    metas = []
    for f in files:
        try:
            meta = pq.ParquetFile(f)
            metas.append((f, meta.schema_arrow.names, meta.metadata.num_rows))
        except (OSError, pa.ArrowException) as exc:
            raise ReportError(f"cannot read games part {f}: {exc}") from exc
    width = max((len(_seat_columns(names, "seat_")) for _, names, _ in metas), default=0)
    filler = _Filler([rows for _, _, rows in metas])
    for f, names, rows in metas:
        if not rows:
            continue
        cols = [c for c in names if _wanted(c)]
        seat_cols = [c for c in cols if c.startswith("seat_")]
        try:
            table = pq.read_table(f, columns=cols, read_dictionary=seat_cols)
        except (OSError, pa.ArrowException) as exc:
            raise ReportError(f"cannot read games part {f}: {exc}") from exc
        filler.add(_games_parts(table, labels), width)
        del table
    return filler.result(labels)


def load_run(run_dir: str | Path) -> Run:
    """Load a run directory written by the tournament runner: games/, matches/, manifest.json."""
    path = Path(run_dir)
    if not path.exists():
        raise ReportError(f"run directory not found: {path}")
    if not path.is_dir():
        raise ReportError(f"not a run directory: {path}")
    games_dir = path / "games"
    if not games_dir.is_dir() or not _part_files(games_dir):
        raise ReportError(f"no games in {path} (expected Parquet parts under {games_dir})")
    manifest: dict = {}
    mpath = path / "manifest.json"
    if mpath.exists():
        try:
            manifest = json.loads(mpath.read_text())
        except (OSError, ValueError) as exc:
            raise ReportError(f"corrupt manifest {mpath}: {exc}") from exc
        if not isinstance(manifest, dict):
            raise ReportError(f"corrupt manifest {mpath}: not a JSON object")
    games = load_games(games_dir)
    matches = None
    mdir = path / "matches"
    if mdir.is_dir() and _part_files(mdir):
        try:
            matches = pd.concat([pd.read_parquet(f) for f in _part_files(mdir)], ignore_index=True)
        except (OSError, pa.ArrowException) as exc:
            raise ReportError(f"cannot read matches under {mdir}: {exc}") from exc
    return Run(games=games, matches=matches, manifest=manifest, path=path)


def as_run(source: Any) -> Run:
    """Accept a run directory, a results object (``.out`` path or ``.games`` DataFrame), a
    :class:`Run`, :class:`Games` or a games DataFrame."""
    if isinstance(source, Run):
        return source
    if isinstance(source, Games):
        return Run(games=source)
    if isinstance(source, pd.DataFrame):
        return Run(games=games_from_frame(source))
    if isinstance(source, (str, Path)):
        return load_run(source)
    games = getattr(source, "games", None)
    if isinstance(games, pd.DataFrame):
        matches = getattr(source, "matches", None)
        manifest = getattr(source, "manifest", None)
        return Run(
            games=games_from_frame(games),
            matches=matches if isinstance(matches, pd.DataFrame) else None,
            manifest=manifest if isinstance(manifest, dict) else {},
        )
    out = getattr(source, "out", None)
    if out is not None:
        return load_run(out)
    raise ReportError(f"cannot make a report from {type(source).__name__}")


def as_games(source: Any) -> Games:
    """The :class:`Games` of anything :func:`as_run` accepts."""
    if isinstance(source, Games):
        return source
    return as_run(source).games
