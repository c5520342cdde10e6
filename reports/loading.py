"""Reading a run's Parquet parts (or a games DataFrame) into :class:`reports.data.Games`.

Only the columns the run's game declaration names are read, part by part into preallocated
arrays (peak memory: the result plus one part); strategy labels become small integer codes
shared by all seats. ``as_run`` and ``as_games`` accept anything a report takes.
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from gamekit.errors import shown
from tournaments.aggregates import limit_tests, unfinished_games
from tournaments.checks import path as checked_path
from tournaments.declaration import Declaration
from tournaments.manifest_fields import check_manifest
from tournaments.storage import lost_manifest, read_manifest, written_by_runner
from tournaments.verify import ROW_FOLDERS, DamagedFile, recorded_parts

from .data import (
    ARRAY_FIELDS,
    DICT_FIELDS,
    MISSING,
    Games,
    ReportError,
    Run,
    default_declaration,
    run_declaration,
)
from .numbers import counted

SEATING = ("table", "deal", "rotation")  # a runner's game in rows without its number
_WON = ("seats", "values", "n_players", "first", "winner", "forfeited", "forfeit_seat")  # wins()

__all__ = ["as_games", "as_run", "deal_streams", "games_from_frame", "load_games", "load_run",
           "part_files"]  # fmt: skip


def _seat_columns(names: list[str] | set[str], prefix: str, width: int) -> list[str]:
    return [f"{prefix}{s}" for s in range(width) if f"{prefix}{s}" in names]


def _int_column(table: pa.Table, name: str, dtype: Any, fill: int = -1) -> np.ndarray:
    col = table.column(name)
    if pa.types.is_null(col.type):
        return np.full(len(col), fill, dtype=dtype)
    if pa.types.is_boolean(col.type):
        col = pc.cast(col, pa.int8())
    if pa.types.is_integer(col.type):  # the fill must fit the column's type
        col = pc.cast(col, pa.from_numpy_dtype(np.dtype(dtype)))
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


def _required(d: Declaration) -> tuple[str, ...]:
    return ("n_players", "winner_seat", *d.length_columns)


def _wanted_names(d: Declaration) -> tuple[set[str], tuple[str, ...]]:
    """(scalar columns, per-seat prefixes) a report reads under declaration ``d``."""
    scalars = {*_required(d), *d.share_columns, "unfinished", "forfeit", "forfeit_seat",
               "deal", "table", "match", *(c for c, _ in _limit_tests(d))}  # fmt: skip
    if d.has_first_player:
        scalars.add("first_player")
    prefixes = ("seat_", f"{d.rank_value}_", "score_", *(f"{m}_" for m in d.mean_columns))
    return scalars, prefixes


def _limit_tests(d: Declaration) -> list[tuple[str, int]]:
    """(game column, least value) of each declared limit the rows show, as the aggregates
    count them (``tournaments.aggregates.limit_tests``); none where the game declares none."""
    return limit_tests(d.limit_columns)


def _limits_reached(table: pa.Table, d: Declaration) -> np.ndarray | None:
    """Per row, the index of the first declared limit its game column reaches (the last
    limit where none does); None where the game declares none or the rows lack a column."""
    tests = _limit_tests(d)
    if not d.limit_columns or not all(c in table.column_names for c, _ in tests):
        return None
    reached = np.full(table.num_rows, len(d.limit_columns) - 1, np.int8)
    for i, (column, least) in reversed(list(enumerate(tests))):  # the first that holds wins
        reached[_int_column(table, column, np.int64, np.iinfo(np.int64).min) >= least] = i
    return reached


def _wanted(name: str, d: Declaration) -> bool:
    scalars, prefixes = _wanted_names(d)
    if name in scalars:
        return True
    return any(name == f"{p}{s}" for p in prefixes for s in range(d.max_players))


def _games_parts(table: pa.Table, labels: _Labels, d: Declaration) -> dict[str, np.ndarray]:
    names = table.column_names
    width = d.max_players
    missing = [c for c in _required(d) if c not in names]
    seat_cols = _seat_columns(names, "seat_", width)
    value_cols = _seat_columns(names, f"{d.rank_value}_", width)
    if missing or not seat_cols or len(value_cols) != len(seat_cols):
        what = ", ".join(missing) or f"seat_i / {d.rank_value}_i"
        raise ReportError(f"games table lacks the pinned column(s) of {d.title}: {what}")
    n = table.num_rows
    out: dict[str, np.ndarray] = {
        "seats": np.stack([labels.encode(table.column(c)) for c in seat_cols], axis=1),
        "values": np.stack([_int_column(table, c, np.int16, MISSING) for c in value_cols], 1),
        "n_players": _int_column(table, "n_players", np.int8),
        "first": (
            _int_column(table, "first_player", np.int8)
            if d.has_first_player and "first_player" in names
            else np.zeros(n, np.int8)
        ),
        "winner": _int_column(table, "winner_seat", np.int8),
    }
    for c in d.length_columns:
        out[f"lengths:{c}"] = _int_column(table, c, np.int32, 0)
    for c in d.share_columns:
        if c in names:
            out[f"flags:{c}"] = _int_column(table, c, np.int8, 0).astype(bool)
    for c in d.mean_columns:
        cols = _seat_columns(names, f"{c}_", width)
        if len(cols) == len(seat_cols):
            out[f"means:{c}"] = np.stack(
                [_int_column(table, x, np.int16, MISSING) for x in cols], 1
            )
    key = "forfeit_seat" if "forfeit_seat" in names else "forfeit"  # the runner's: the seat
    if key in names and (key == "forfeit_seat" or not pa.types.is_boolean(table.column(key).type)):
        out["forfeit_seat"] = _int_column(table, key, np.int8)
        out["forfeited"] = out["forfeit_seat"] >= 0
    else:  # another tool's rows: a yes/no forfeit column, or none
        out["forfeit_seat"] = np.full(n, -1, dtype=np.int8)
        flag = _int_column(table, key, np.int8, 0) if key in names else np.zeros(n, np.int8)
        out["forfeited"] = flag.astype(bool)
    own = _int_column(table, "unfinished", np.int8, 0) if "unfinished" in names else None
    # else where no seat won as the reports count wins (a shared win's winner_seat is -1)
    part = Games(labels=(), unfinished=out["forfeited"], declaration=d, **{k: out[k] for k in _WON})
    won = None if own is not None else part.wins().any(axis=1)
    out["unfinished"] = unfinished_games(own, won, out["forfeited"])
    for opt in ("deal", "table", "match"):
        if opt in names:
            out[opt] = _int_column(table, opt, np.int64)
    reached = _limits_reached(table, d)
    if reached is not None:
        out["limit"] = reached
    score_cols = _seat_columns(names, "score_", width)
    if score_cols and "match" in names:
        out["scores"] = np.stack([_int_column(table, c, np.int16) for c in score_cols], axis=1)
    return out


def _assemble(parts: list[dict[str, np.ndarray]], labels: _Labels, d: Declaration) -> Games:
    """Concatenate per-part arrays (parts may have fewer seat columns; optional columns are
    kept only if every part has them)."""
    return _Filler([len(p["n_players"]) for p in parts]).fill_all(parts, labels, d)


class _Filler:
    """Preallocated Games arrays filled part by part: peak memory = result + one part."""

    def __init__(self, rows: list[int]) -> None:
        self.total = sum(rows)
        self.arrays: dict[str, np.ndarray] = {}
        self.offset = 0

    def add(self, part: dict[str, np.ndarray], width: int) -> None:
        n = len(part["n_players"])
        if not self.arrays:
            for key, a in part.items():
                shape = (self.total, width) if a.ndim == 2 else (self.total,)
                per_value = key == "values" or key.startswith("means:")
                fill = 0 if a.ndim == 1 else (MISSING if per_value else -1)
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

    def fill_all(self, parts: list[dict[str, np.ndarray]], labels: _Labels,
                 d: Declaration) -> Games:  # fmt: skip
        width = max((p["seats"].shape[1] for p in parts), default=0)
        for p in parts:
            self.add(p, width)
        return self.result(labels, d)

    def result(self, labels: _Labels, d: Declaration) -> Games:
        if self.total == 0:
            raise ReportError("the run has no games")
        a = self.arrays
        code_dtype = np.int8 if len(labels.codes) < 127 else np.int16
        names = tuple(sorted(labels.codes, key=labels.codes.get))
        groups = {
            f: {k.split(":", 1)[1]: v for k, v in a.items() if k.startswith(f"{f}:")}
            for f in DICT_FIELDS
        }
        return Games(
            labels=names,
            seats=a["seats"].astype(code_dtype, copy=False),
            **{f: a.get(f) for f in ARRAY_FIELDS if f != "seats"},
            **groups,
            declaration=d,
        )


def games_from_frame(df: pd.DataFrame, declaration: Declaration | None = None) -> Games:
    """Convert a games DataFrame in a run's column layout (seat labels as str or categorical),
    read under ``declaration`` (default: the default game's)."""
    if not isinstance(df, pd.DataFrame):
        raise ReportError(f"expected a games DataFrame, got {type(df).__name__}")
    d = declaration or default_declaration()
    _once_each(df)
    wanted = [c for c in df.columns if _wanted(str(c), d)]
    try:
        table = pa.Table.from_pandas(df[wanted], preserve_index=False)
    except (pa.ArrowException, ValueError, TypeError) as exc:
        raise ReportError(f"games DataFrame cannot be read: {exc}") from exc
    labels = _Labels()
    return _assemble([_games_parts(table, labels, d)], labels, d)


def _once_each(df: pd.DataFrame) -> None:
    """Refuse a games DataFrame that holds a game twice (its ``game`` numbers repeat, as
    ``pd.concat([df, df])``'s do; a runner's rows without them: their ``SEATING``, and
    ``game_in_match`` in a run of matches): every table would count it again. Rows that lack
    both may hold two games alike in every column (one deal replayed alike): no repeat shows."""
    key = ["game"] if "game" in df else [*SEATING, *(["game_in_match"] if "match" in df else [])]
    if not set(key) <= set(df.columns):
        return
    repeated = df.loc[df.duplicated(key, keep=False), key]
    if len(repeated):
        first = ", ".join(f"{c} {shown(v, typed=False)}" for c, v in
                          zip(key, repeated.iloc[0].tolist(), strict=True))  # fmt: skip
        n = counted(len(repeated.drop_duplicates()), "game number" if key == ["game"] else "game")
        raise ReportError(f"games DataFrame gives {n} more than once (the first: {first}): "
                          "give each game once, or every table counts it again")  # fmt: skip


def part_files(folder: Path, manifest: dict | None = None) -> list[Path]:
    """The Parquet parts under ``folder``. In a run's ``games/`` or ``matches/``, only those
    its manifest (``manifest``, else read from the run) records (``tournaments.verify``): what
    the run holds. A killed run leaves parts finished after the manifest's last write, which
    nothing vouches for and ``--resume`` plays again; a manifest without checksums (an older
    runner's, another tool's) records none, and every part is read."""
    if manifest is None and folder.name in ROW_FOLDERS:
        try:
            manifest = read_manifest(folder.parent)
        except ValueError:
            manifest = None  # none, or corrupt: load_run says so
    if folder.name not in ROW_FOLDERS:
        return sorted(p for p in folder.rglob("*.parquet") if p.is_file())
    try:
        return recorded_parts(folder, manifest)
    except DamagedFile as exc:  # a part that does not match the manifest: never read as rows
        raise ReportError(str(exc)) from None


READ_ROWS = 1 << 20
"""Consecutive parts with the same columns are read together, up to this many rows at once
(memory stays the result plus one batch)."""


def _metas(files: list[Path]) -> list[tuple[Path, list[str], int]]:
    """(file, column names, rows) of every part, read by a few threads."""

    def meta(f: Path) -> tuple[Path, list[str], int]:
        try:
            m = pq.read_metadata(f)
            return f, m.schema.to_arrow_schema().names, m.num_rows
        except (OSError, pa.ArrowException) as exc:
            raise ReportError(f"cannot read games part {f}: {exc}") from exc

    if len(files) < 2:
        return [meta(f) for f in files]
    with ThreadPoolExecutor(min(READ_THREADS, len(files))) as pool:
        return list(pool.map(meta, files))


def _batches(metas: list[tuple[Path, list[str], int]], d: Declaration):
    """(files, wanted columns) of consecutive non-empty parts that share their columns."""
    batch: list[Path] = []
    cols: list[str] | None = None
    rows = 0
    chosen: dict[tuple[str, ...], list[str]] = {}  # parts share their columns: choose once
    for f, names, n in metas:
        if not n:
            continue
        key = tuple(names)
        if key not in chosen:
            chosen[key] = [c for c in names if _wanted(c, d)]
        wanted = chosen[key]
        if batch and (wanted != cols or rows + n > READ_ROWS):
            yield batch, cols
            batch, rows = [], 0
        batch.append(f)
        cols, rows = wanted, rows + n
    if batch:
        yield batch, cols


READ_THREADS = 4
"""Parts read at once: a part of a thousand rows costs more to open than to decode, and one
thread per part (not per column of one part, pyarrow's default) keeps the cores busy."""


def _read_parts(files: list[Path], cols: list[str], seat_cols: list[str]) -> pa.Table:
    """The parts' rows, one table (a chunk per part), read by a few threads part by part."""

    def one(f: Path) -> pa.Table:
        return pq.ParquetFile(f, read_dictionary=seat_cols).read(columns=cols, use_threads=False)

    if len(files) == 1:
        return one(files[0])
    with ThreadPoolExecutor(min(READ_THREADS, len(files))) as pool:
        return pa.concat_tables(list(pool.map(one, files)))


def load_games(folder: str | Path | list[Path], declaration: Declaration | None = None) -> Games:
    """Read the Parquet parts under ``folder`` (a run's: those its manifest records; or a
    file, or a list of parts), only the columns ``declaration`` names (by default the default
    game's), a batch of parts at a time."""
    d = declaration or default_declaration()
    if isinstance(folder, list):
        files = folder
    else:
        folder = Path(folder)
        files = part_files(folder) if folder.is_dir() else [folder]
    labels = _Labels()
    metas = _metas(files)
    width = max((len(_seat_columns(names, "seat_", d.max_players)) for _, names, _ in metas),
                default=0)  # fmt: skip
    filler = _Filler([rows for _, _, rows in metas])
    for batch, cols in _batches(metas, d):
        seat_cols = [c for c in cols if c.startswith("seat_")]
        try:
            table = _read_parts(batch, cols, seat_cols)
        except (OSError, pa.ArrowException) as exc:
            where = batch[0] if len(batch) == 1 else f"{batch[0]} .. {batch[-1].name}"
            raise ReportError(f"cannot read games part {where}: {exc}") from exc
        filler.add(_games_parts(table, labels, d), width)
        del table
    return filler.result(labels, d)


def deal_streams(manifest: dict, games: Games) -> np.ndarray | None:
    """Per game, the deal stream of its table as the run's manifest describes the design: the
    table itself (each table dealt its own cards), the stream it shares with another table (a
    gauntlet's baseline copy), or, for runs whose tables of one size shared their deals (deal
    seed key 0), the table size: those games are one duplicate set per deal."""
    spec = manifest.get("spec", {}) if isinstance(manifest, dict) else {}
    keys = spec.get("seed_keys", {}) if isinstance(spec, dict) else {}
    if isinstance(keys, dict) and keys.get("deal") == 0:
        return games.n_players.astype(np.int64)
    if games.table is None:
        return None
    streams = spec.get("deal_streams") if isinstance(spec, dict) else None
    if isinstance(streams, list) and streams and int(games.table.max(initial=0)) < len(streams):
        return np.asarray(streams, dtype=np.int64)[games.table]
    return games.table.astype(np.int64)


def totals_readers(declared: Any) -> str:
    """The methods of ``tournaments.load`` that read a run kept without rows: its seat offsets
    only for a game with a first player (else always empty). The one list every hint names."""
    offsets = ", .seat_offsets()" if declared.has_first_player else ""
    return f".summary(), .head_to_head(){offsets}"


def _no_rows(path: Path, manifest: dict) -> str:
    """Why a run has no rows to read: it kept none (--no-rows: its totals are elsewhere, seat
    offsets only for a game with a first player), or none was played (or recorded) yet."""
    spec = manifest.get("spec")
    if not (isinstance(spec, dict) and spec.get("rows") is False):
        return f"no games in {path} (expected Parquet parts under {path / 'games'})"
    declared = run_declaration(manifest)
    reads = totals_readers(declared)
    return (f"{path} kept no per-{declared.unit} rows (--no-rows), which a report is made from; "
            f"its totals are read by tournaments.load({str(path)!r}) ({reads})")  # fmt: skip


def load_run(run_dir: str | os.PathLike[str] | Any) -> Run:
    """Load a run directory written by the tournament runner: games/, matches/, manifest.json;
    or a results object's (its ``out``), since that is what a run in Python hands over.
    Rows without a manifest are read as another tool's, but not in a runner's folder that lost
    its manifest (``storage.lost_manifest``: nothing vouches for them, nor names their game)."""
    out = run_dir if isinstance(run_dir, str | os.PathLike) else getattr(run_dir, "out", None)
    if not isinstance(out, str | os.PathLike):
        raise TypeError(
            f"load_run takes a run directory (a path) or a run's results, "
            f"got {type(run_dir).__name__}"
        )
    path = checked_path(out, "run_dir", "directory")  # '' is no run, not the current folder
    if not path.exists():
        raise ReportError(f"run directory not found: {path}")
    if not path.is_dir():
        raise ReportError(f"not a run directory: {path}")
    lost = lost_manifest(path)  # the runner's files, not another tool's rows: none vouches
    if lost is not None:
        raise ReportError(str(lost))
    games_dir = path / "games"
    manifest: dict = {}
    mpath = path / "manifest.json"
    if mpath.exists():
        try:
            manifest = read_manifest(path)
        except ValueError as exc:  # not JSON, past what Python reads: it names the file
            raise ReportError(f"corrupt manifest: {exc}") from None
        try:
            # other tools' runs have no spec; the runner's have, damaged or not
            check_manifest(manifest, spec=written_by_runner(path, manifest))
        except ValueError as exc:
            raise ReportError(f"corrupt manifest {mpath}: {exc}") from None
    parts = part_files(games_dir, manifest) if games_dir.is_dir() else []
    if not parts:
        raise ReportError(_no_rows(path, manifest))
    games = load_games(parts, run_declaration(manifest))
    games.table = deal_streams(manifest, games)
    matches = None
    mdir = path / "matches"
    match_parts = part_files(mdir, manifest) if mdir.is_dir() else []
    if match_parts:
        try:
            matches = pd.concat([pd.read_parquet(f) for f in match_parts], ignore_index=True)
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
        d = run_declaration(manifest) if isinstance(manifest, dict) else None
        loaded = games_from_frame(games, d)
        if isinstance(manifest, dict):
            loaded.table = deal_streams(manifest, loaded)
        return Run(
            games=loaded,
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
