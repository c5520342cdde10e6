"""``TournamentResult``: read a run directory back (rows, summaries, forfeits, manifest)."""

from __future__ import annotations

import html
import warnings
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from gamekit.errors import shown

from . import aggregates, storage
from .checked_files import DamagedFile, check_file, recorded_parts
from .checks import path
from .checksums import recorded_chunks, recorded_entries
from .declaration import plural
from .manifest_fields import NotThisVersion, check_manifest

if TYPE_CHECKING:  # pandas is imported when rows or tables are asked for, not by workers
    import pandas as pd

__all__ = ["TournamentResult", "chunk_mend", "chunk_totals", "register_accessor",
           "run_command"]  # fmt: skip

_ACCESSORS: dict[str, Callable[[Any], Any]] = {}


def register_accessor(name: str, factory: Callable[[Any], Any]) -> None:
    """Let a higher layer add ``result.<name>`` (``reports`` adds ``plot``): results stay free
    of plotting imports, and ``import reports`` makes ``res.plot.win_rates()`` work."""
    _ACCESSORS[name] = factory


def _known_columns(columns: Any, part: Path, kind: str) -> list[str] | None:
    """``columns`` as a list of the names the rows have (those of their first ``part``): one
    line naming an unknown one beside the known ones, or saying what ``columns`` takes, where
    pyarrow would print its schema or pandas ask for "a list or a dict"."""
    if columns is None:
        return None
    if not isinstance(columns, list | tuple) or not all(isinstance(c, str) for c in columns):
        raise TypeError(f"columns takes a list of column names or None, got "
                        f"{shown(columns, typed=False)}")  # fmt: skip
    import pyarrow.parquet as pq  # start-up: pyarrow loads for rows only, as pandas does

    known = pq.read_schema(part).names
    unknown = [c for c in columns if c not in known]
    if unknown:
        named = " and ".join(repr(c) for c in unknown)
        many = "s" if len(unknown) > 1 else ""
        raise ValueError(f"the {kind} rows have no column{many} {named}: they have "
                         f"{', '.join(known)}")  # fmt: skip
    return list(columns)


class TournamentResult:
    """The results of a tournament run stored in ``out``.

    Summaries come from merged per-chunk aggregates, so they are cheap whatever the number of
    games and need no per-game rows; ``games()`` reads the rows (when the run kept them).
    """

    def __init__(self, out: str | Path):
        self.out = path(out, "out")  # '' is no run, not the current folder
        self.manifest: dict[str, Any] = checked_manifest(self.out)
        self._agg: dict[str, np.ndarray] | None = None
        self._forfeits: list[dict[str, Any]] | None = None

    def __repr__(self) -> str:
        return f"{type(self).__name__}({str(self.out)!r}, status={self.status!r})"

    @property
    def plot(self) -> Any:
        """One-call charts of this run (``res.plot.win_rates()`` returns the Figure); they come
        from the ``reports`` package, which registers them when imported."""
        if "plot" not in _ACCESSORS:
            raise AttributeError("plots come from the reports package: run 'import reports' first")
        return _ACCESSORS["plot"](self)

    def _repr_html_(self) -> str:
        """A notebook's view: where, how far, and the summary table."""
        esc = html.escape
        spec = self.manifest.get("spec", {})
        head = (
            f"<p><b>{esc(type(self).__name__)}</b> <code>{esc(str(self.out))}</code>: "
            f"{esc(self.status)}, {int(self.manifest.get('units_done', 0)):,} of "
            f"{int(spec.get('n_games', 0)):,} {self._units()}, "
            f"seed {esc(str(self.manifest.get('seed')))}</p>"
        )
        try:
            table = self.summary().to_html(index=False, float_format=lambda x: f"{x:.4f}")
        except (ValueError, RuntimeError):
            table = "<p>no finished chunks yet</p>"
        except OSError as exc:  # a damaged file (``DamagedFile``): named, never 'no chunks'
            table = f"<p>{esc(str(exc))}</p>"
        return head + table

    def _units(self) -> str:
        """What the run counts, in its game's declared words ("games", "rounds", "matches")."""
        d = self.manifest.get("game_declaration", {})
        unit = d.get("match_unit", "match") if self.spec.get("expert") else d.get("unit", "game")
        return plural(unit)

    @property
    def spec(self) -> dict[str, Any]:
        return self.manifest["spec"]

    @property
    def status(self) -> str:
        return self.manifest.get("status", "unknown")

    @property
    def complete(self) -> bool:
        return self.status == "complete"

    @property
    def labels(self) -> list[str]:
        """The strategies in listing order: the manifest's labels, which are the spec's
        strategies (``manifest_fields`` checks it), so a manifest without them still reads."""
        return list(self.manifest.get("labels", self.spec["strategies"]))

    # ------------------------------------------------------------------ rows

    def games(self, columns: list[str] | None = None) -> pd.DataFrame:
        """One row per game, sorted by game index (docs/tournaments.md lists the columns)."""
        return self._read("games", "game", columns)

    def matches(self, columns: list[str] | None = None) -> pd.DataFrame:
        """One row per match of an expert run, sorted by match index."""
        if not self.spec["expert"]:
            raise ValueError("this run has no matches (it was played as single games)")
        return self._read("matches", "match", columns)

    def _read(self, kind: str, key: str, columns: list[str] | None) -> pd.DataFrame:
        import pandas as pd  # start-up: pandas loads for tables only

        if not self.spec["rows"]:
            raise ValueError(f"{self.out} kept no per-game rows (played with rows=False)")
        parts = recorded_parts(self.out / kind, self.manifest)  # its folder gone: parts missing
        if not parts:
            raise ValueError(f"{self.out} has no {kind} rows yet")
        columns = _known_columns(columns, parts[0], kind)
        df = pd.concat([pd.read_parquet(p, columns=columns) for p in parts], ignore_index=True)
        if key in df.columns:
            df = df.sort_values(key, kind="stable")
        return df.reset_index(drop=True)

    # ------------------------------------------------------------------ aggregates

    @staticmethod
    def merge_chunks(
        out: Path,
        n_chunks: int | None = None,
        chunks: list[int] | None = None,
        entries: dict[str, Any] | None = None,
        *,
        command: str = "tournament",
    ) -> tuple[dict[str, np.ndarray], list[dict[str, Any]]]:
        """Merge the aggregates and forfeit details of the finished chunks in ``out``:
        ``chunks`` (those a manifest records, say), else every one on disk; each file checked
        against its entry in ``entries`` where that has one (``check_file``), and one
        that cannot be read raises ``DamagedFile`` (a resume by ``leaves COMMAND`` plays its
        chunk again)."""
        done = sorted(storage.done_chunks(out) if chunks is None else chunks)
        if n_chunks is not None and len(done) != n_chunks:
            raise RuntimeError(f"{out}: {len(done)} of {n_chunks} chunks are done")
        total: dict[str, np.ndarray] | None = None
        forfeits: list[dict[str, Any]] = []
        for cid in done:
            path = storage.chunk_path(out, cid)
            entry = (entries or {}).get(path.relative_to(out).as_posix())
            if entry is not None:
                check_file(out, path, entry)
            agg, found = chunk_totals(path, chunk_mend(command, out, vouched=entry is not None))
            total = aggregates.merge([agg] if total is None else [total, agg])
            forfeits.extend(found)
        if total is None:
            raise ValueError(f"{out} has no finished chunks yet")
        forfeits.sort(key=lambda f: f.get("game", 0))
        return total, forfeits

    def merged(self) -> tuple[dict[str, np.ndarray], list[dict[str, Any]]]:
        """The aggregates and forfeits of the chunks the manifest records: what the run holds
        (a killed run's later chunks are on disk, vouched for by nothing; a manifest that
        records no chunk, an older runner's, lets every finished one count)."""
        entries = recorded_entries(self.manifest)
        return self.merge_chunks(self.out, chunks=recorded_chunks(self.manifest),
                                 entries=entries, command=self._command)  # fmt: skip

    @property
    def _command(self) -> str:
        """The command that plays this run (and resumes it)."""
        return run_command(self.spec)

    def _rewrites(self) -> str:
        """What mends a complete run's damaged merged file."""
        return f"{_resume(self._command, self.out)} writes it again from the run's chunks"

    def _merged_file(self, name: str) -> Path | None:
        """A complete run's merged file ``name``, where it matches the manifest (or the
        manifest keeps no entry of it, as an older runner's); None where it is damaged or
        missing: the chunks tell the same, merged again."""
        path = self.out / name
        if not (self.complete and path.exists()):
            return None
        entry = recorded_entries(self.manifest).get(name)
        return path if entry is None or storage.check_entry(path, entry) is None else None

    def aggregates(self) -> dict[str, np.ndarray]:
        """Merged aggregates (see ``tournaments.aggregates.empty`` for their meaning)."""
        if self._agg is None:
            path = self._merged_file("aggregates.npz")
            if path is not None:
                self._agg, _ = _load(path, self._rewrites())
            else:
                self._agg, self._forfeits = self.merged()
        return self._agg

    def forfeit_details(self) -> list[dict[str, Any]]:
        """The details of the forfeited games (``forfeits`` as the run keeps them): a
        complete run's forfeits.json where it matches the manifest, else the chunks'. One
        that no checksum vouches for (an older version's) and that is not a list of forfeits
        raises ``DamagedFile`` naming it."""
        if self._forfeits is None:
            path = self._merged_file("forfeits.json")
            if path is not None:
                try:
                    text = path.read_bytes()
                except OSError as exc:  # a directory, unreadable
                    raise _damaged(path, exc, "a list of forfeits", self._rewrites()) from None
                self._forfeits = _forfeit_list(path, text, self._rewrites())
            else:
                self._agg, self._forfeits = self.merged()
        return self._forfeits

    @property
    def forfeits(self) -> pd.DataFrame:
        """Forfeited games: game, seat, strategy, error, and the seeds that reproduce it."""
        import pandas as pd  # start-up: pandas loads for tables only

        found = self.forfeit_details()
        cols = ["game", "deal", "table", "seat", "strategy", "error", "seed", "deal_seed", "seats"]
        return pd.DataFrame(found, columns=cols if not found else None)

    def summary_columns(self) -> dict[str, np.ndarray]:
        """``summary()`` as numpy columns (rows in the same order), without importing pandas."""
        agg = self.aggregates()
        rank = self.manifest.get("rank_value", "rank")
        seats = agg["games"]  # the aggregates count a game once per seat taken
        with np.errstate(invalid="ignore", divide="ignore"):
            cols = {
                "strategy": np.array(self.labels, dtype=object),
                "games": _games_sat(agg, self.manifest.get("tables"), len(seats)),
                "seats": seats,
                "wins": agg["wins"],
                "win_rate": agg["wins"] / seats,
                f"{rank}_mean": _rank_mean(agg),
                "forfeits": agg["forfeits"],
            }
            key = "win_rate"
            if self.spec["expert"]:
                matches = agg["matches"]
                cols["matches"] = matches
                cols["match_wins"] = agg["match_wins"]
                cols["match_win_share"] = agg["match_win_share"]
                cols["match_win_rate"] = agg["match_wins"] / matches
                cols["match_points_mean"] = agg["match_points"] / matches
                key = "match_win_rate"
        # highest first, ties in listing order, undefined rates (no games) last
        order = np.argsort(-cols[key], kind="stable")
        return {name: values[order] for name, values in cols.items()}

    def summary(self) -> pd.DataFrame:
        """Per strategy: games (the games it sat in, once each), seats (the seats it took: its
        games, unless it held two seats at a table), wins, win_rate (per seat: wins over
        seats), mean rank value, forfeits.

        Expert runs add matches (one per seat taken), match_wins (a shared win counts for
        each tied player, X1), match_win_rate (= match_wins / matches, as in the report) and
        match_win_share (ties split evenly). Sorted by win rate (match win rate when expert).
        """
        import pandas as pd  # start-up: pandas loads for tables only

        return pd.DataFrame(self.summary_columns())

    def head_to_head(self) -> pd.DataFrame:
        """P(row strategy finishes strictly ahead of column strategy | both at one table), over
        the games not ended by a forfeit (a forfeiting seat is last by rule, not by play), as
        the report's head to head counts them; NaN where two never met in one. A run of an
        earlier version counted those games in its aggregates: its rows are counted instead
        where it kept them; where it kept none, its rates count every game, and a warning
        says so."""
        import pandas as pd  # start-up: pandas loads for tables only

        ahead, met = self._ahead_counts()
        with np.errstate(invalid="ignore", divide="ignore"):
            rate = ahead / met
        return pd.DataFrame(rate, index=self.labels, columns=self.labels)

    def _ahead_counts(self) -> tuple[np.ndarray, np.ndarray]:
        """Per ordered pair of entrants, the games the first finished strictly ahead of the
        second, and the games they met in, leaving out those ended by a forfeit where the run
        tells them apart (``head_to_head``)."""
        agg = self.aggregates()
        if "valid_met" in agg:
            return agg["valid_ahead"], agg["valid_met"]
        forfeited = int(agg["size_forfeits"].sum())
        if not forfeited:  # every game counts either way
            return agg["ahead"], agg["met"]
        if self.spec["rows"]:
            rank = self.manifest.get("rank_value", "rank")
            higher = bool((self.manifest.get("game_declaration") or {}).get("higher_is_better"))
            seats = [f"seat_{s}" for s in range(max(self.spec["players"]))]
            values = [f"{rank}_{s[5:]}" for s in seats]
            rows = self.games(columns=[*seats, *values, "forfeit_seat"])
            return _ahead_in_rows(rows[rows["forfeit_seat"] < 0], self.labels, values, higher)
        units = plural((self.manifest.get("game_declaration") or {}).get("unit", "game"))
        warnings.warn(f"{self.out}: head_to_head counts the {forfeited:,} {units} ended by a "
                      "forfeit too: an earlier version wrote this run's totals, and the run "
                      "kept no rows to leave them out", stacklevel=3)  # fmt: skip
        return agg["ahead"], agg["met"]

    def seat_offsets(self) -> pd.DataFrame:
        """Win rate by table size and seat offset from the first player (0 = first to act)."""
        import pandas as pd  # start-up: pandas loads for tables only

        agg = self.aggregates()
        games = agg["offset_games"].sum(axis=0)
        wins = agg["offset_wins"].sum(axis=0)
        rows = []
        for k in range(agg["offset_games"].shape[1]):
            for off in range(k):
                if games[k, off]:
                    rows.append((k, off, int(games[k, off]), int(wins[k, off])))
        df = pd.DataFrame(rows, columns=["n_players", "offset", "games", "wins"])
        df["win_rate"] = df["wins"] / df["games"]
        return df


def checked_manifest(out: Path, lead: str = "") -> dict[str, Any]:
    """The manifest of the run in ``out``, each field as the runner writes it (never a Python
    error from deep inside); else one ValueError: none (``storage.read_manifest``), or a
    corrupt one, named with why (after ``lead``)."""
    manifest = storage.read_manifest(out)
    try:
        check_manifest(manifest)
    except ValueError as exc:
        raise corrupt_manifest(out, exc, lead) from None
    return manifest


def corrupt_manifest(out: Path, why: Exception, lead: str = "") -> ValueError:
    """The one line refusing the run in ``out`` whose manifest holds ``why`` (a field's fault,
    in ``check_manifest``'s words), after ``lead``; a run another version played
    (``NotThisVersion``) is not called corrupt: nothing in it is damaged."""
    if isinstance(why, NotThisVersion):
        return NotThisVersion(f"{lead or f'{out}: '}{why}")
    return ValueError(f"{lead}corrupt manifest {Path(out) / storage.MANIFEST}: {why}")


def _resume(command: str, out: Path) -> str:
    return f"'leaves {command} --resume --out {out}'"


def _load(path: Path, mend: str) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray]]:
    """The aggregates file at ``path`` (``aggregates.load``); one that cannot be read raises
    ``DamagedFile`` naming it, and what mends it (``mend``)."""
    try:
        return aggregates.load(path)
    except (OSError, ValueError, EOFError, zipfile.BadZipFile) as exc:  # truncated, not a zip
        raise _damaged(path, exc, "aggregates", mend) from None


def run_command(spec: dict[str, Any]) -> str:
    """The command that plays the run of ``spec`` (and resumes it): ``leaves gauntlet`` for a
    gauntlet, whose resume ``leaves tournament`` refuses."""
    return "gauntlet" if "gauntlet" in spec else "tournament"


def chunk_mend(command: str, out: Path, vouched: bool) -> str:
    """What mends a damaged chunk of the run in ``out``: a resume by ``leaves COMMAND`` plays
    it again, once it is removed where its checksum matches the manifest (``vouched``: the
    resume takes such a file for whole)."""
    again = f"{_resume(command, out)} plays its chunk again"
    return f"remove it, then {again}" if vouched else again


def chunk_totals(path: Path, mend: str) -> tuple[dict[str, np.ndarray], list[dict[str, Any]]]:
    """The aggregates and forfeit details of the chunk file at ``path``; one that cannot be
    read raises ``DamagedFile`` naming it, and what mends it (``mend``)."""
    agg, extra = _load(path, mend)
    return agg, _forfeit_list(path, str(extra.get("forfeits")), mend)


def _forfeit_list(path: Path, text: str | bytes, mend: str) -> list[dict[str, Any]]:
    """The forfeit details kept in ``path`` as JSON ``text``: a list of tables, else
    ``DamagedFile`` naming the file, and what mends it (``mend``)."""
    try:
        found = storage.load_json(text)
    except storage.JSONPastLimits as exc:  # valid JSON Python will not read: said why
        raise DamagedFile(f"{path} is bad: {exc}; {mend}") from None
    except ValueError as exc:  # not JSON, not text
        raise _damaged(path, exc, "a list of forfeits", mend) from None
    if not (isinstance(found, list) and all(isinstance(f, dict) for f in found)):
        raise _damaged(path, None, "a list of forfeits", mend)
    return found


def _damaged(path: Path, exc: BaseException | None, what: str, mend: str) -> DamagedFile:
    """The one line of a run's file at ``path`` that cannot be read as ``what``: a
    directory in its place (to be removed before ``mend`` can write it), a file the system
    will not read, or one that is not what a run writes there."""
    if path.is_dir():
        return DamagedFile(f"{path} is bad: {storage.IN_THE_WAY}; remove it, then {mend}")
    if isinstance(exc, OSError) and exc.strerror:
        return DamagedFile(f"{path} is bad: unreadable ({exc.strerror}); {mend}")
    return DamagedFile(f"{path} is bad: not {what} as a run writes them; {mend}")


def _games_sat(agg: dict[str, np.ndarray], tables: Any, n: int) -> np.ndarray:
    """Per entrant, the games it sat in, once each however many seats it held there: each
    table of the schedule (the manifest's ``tables``) seats the same entrants in all its
    games (``table_games``). NaN where the manifest's tables are not those the aggregates
    count: how many of the seats were games is then unknown."""
    per_table = np.asarray(agg["table_games"])
    if not isinstance(tables, list) or len(tables) != len(per_table):
        return np.full(n, np.nan)
    seated = np.zeros((len(tables), n), np.int64)
    for t, table in enumerate(tables):
        seated[t, [e for e in set(table) if 0 <= e < n]] = 1
    return per_table @ seated


def _ahead_in_rows(rows: pd.DataFrame, labels: list[str], values: list[str],
                   higher: bool) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    """``_ahead_counts`` from a run's ``rows``: per ordered pair of seats (s, t) of a game, its
    entrants (``labels``' indices) met, and s finished ahead of t where its rank value
    (``values``, a column per seat) is strictly better (``higher``: the larger)."""
    n = len(labels)
    index = {label: i for i, label in enumerate(labels)}
    seats = [f"seat_{s}" for s in range(len(values))]
    ent = np.column_stack([rows[c].astype(object).map(index).fillna(-1).to_numpy(np.int64)
                           for c in seats])  # fmt: skip
    rank = rows[values].to_numpy(float)
    ahead, met = np.zeros(n * n, np.int64), np.zeros(n * n, np.int64)
    for s in range(len(seats)):
        for t in range(len(seats)):
            at = (ent[:, s] >= 0) & (ent[:, t] >= 0) & (s != t)
            cell = ent[at, s] * n + ent[at, t]
            better = rank[at, s] > rank[at, t] if higher else rank[at, s] < rank[at, t]
            met += np.bincount(cell, minlength=n * n)
            ahead += np.bincount(cell[better], minlength=n * n)
    return ahead.reshape(n, n), met.reshape(n, n)


def _rank_mean(agg: dict[str, np.ndarray]) -> np.ndarray:
    """Each strategy's mean rank value over its games not ended by a forfeit (a forfeited
    game's values measure no play: the zeros of a round cut short); over every game for a run
    of an earlier version, whose aggregates do not count them apart."""
    if "valid_rank_sum" in agg:
        return agg["valid_rank_sum"] / agg["valid_games"]
    return agg["rank_sum"] / agg["games"]
