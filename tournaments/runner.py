"""``Tournament``: a round-robin spec, and the driver that runs it into an output directory.

The driver builds chunk tasks lazily, hands them to a backend (``parallel``), and a thread of
its own writes each finished chunk as it arrives: rows part, records, then the chunk's
aggregates (which mark it done); the manifest records a chunk only once its files are written,
and an interrupted run first records every chunk already played. The manifest holds the spec and each done chunk's file sizes and checksums; ``resume``
verifies them, skips the chunks that check out and replays the others (``verify``), so an
interrupted or damaged run finishes with exactly the files an uninterrupted one writes. The game is a plug-in
(``game.GamePlugin``); 13 Leaves is the default.
"""

from __future__ import annotations

import functools
import io
import json
import os
import platform
import shutil
import tempfile
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

from . import aggregates, storage, verify, work
from .game import GamePlugin, declaration, plural
from .local import Workload
from .parallel import BACKENDS, imap_unordered
from .result import TournamentResult
from .rows import to_parquet
from .schedule import Schedule, make_tables
from .seating import DEFAULT_SEATING, SEATINGS, design
from .stages import GROWN_KEYS, extends, with_stages
from .work import SEED_KEYS, ChunkOutput, ChunkTask, ready, run_chunk

__all__ = ["Labeled", "Tournament", "parse_players"]

FORFEIT_DETAILS_MAX = 10_000
"""Every forfeit is counted; OUT/forfeits.json details the first this many (by game index)."""

WRITES_QUEUED = 4
"""Finished chunks that may wait for the driver's writing thread."""

MANIFEST_EVERY_S = 2.0
"""The manifest's progress fields are rewritten at most this often (and at the end)."""

SEATING_WORDS = {"balanced": "balanced", "all": "all orders", "rotations": "rotations"}
"""Each seating design in the words of the rounded note."""


def parse_players(players: int | str | Sequence[int]) -> tuple[int, ...]:
    """Table sizes from 4, "3,4,5" or [3, 4]: sorted, without duplicates."""
    if isinstance(players, str):
        try:
            sizes = [int(p) for p in players.replace(" ", "").split(",") if p]
        except ValueError:
            raise ValueError(f"--players takes numbers like 4 or 3,4,5, got {players!r}") from None
    elif isinstance(players, int | np.integer):
        sizes = [int(players)]
    else:
        sizes = [int(p) for p in players]
    if not sizes:
        raise ValueError("--players needs at least one table size")
    return tuple(sorted(set(sizes)))


@dataclass(frozen=True)
class Labeled:
    """An entrant ``spec`` entered under its own ``label``: the same strategy twice in one run
    (a gauntlet of a strategy against itself as its baseline) needs two labels."""

    spec: Any
    label: str


def _resolve(game: GamePlugin, spec: Any) -> tuple[str, Any]:
    """(label, payload) of an entrant spec; a ``Labeled`` one keeps the label it was given."""
    if isinstance(spec, Labeled):
        return spec.label, game.resolve(spec.spec)[1]
    return game.resolve(spec)


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _default_game() -> GamePlugin:
    from .leaves_game import LeavesGame

    return LeavesGame()


class Tournament:
    """A round-robin among ``strategies`` on tables of ``players`` seats, duplicate deals.

    Entrants are put in a canonical order (by label) before anything is derived from them, so
    the listing order never changes a result. ``games`` is the total number of games (of
    matches with ``expert=True``), rounded up so that every table plays the same number of
    deals, each under every seating of the table's ``seating`` design (``n_games`` says how
    many): ``balanced`` (default) seats every entrant in every position and after every other
    entrant equally often (``tournaments.seating``), ``all`` uses every order, ``rotations``
    only the rotations of one order (for comparison with earlier runs). ``seed`` fixes every deal and decision (None: fresh entropy,
    kept in the manifest). ``rows=False`` keeps only the aggregates (flat storage for huge
    runs). ``record`` writes GameRecords as JSON lines to that file, for every game or a
    spread sample of ``record_sample`` games. ``chunk_size`` (games per unit of work and
    storage) is part of the spec; the default depends only on the number of games.
    ``focus`` (one of ``strategies``, or its label) seats that entrant at every table, the
    others filling the remaining seats: one strategy measured against a field (tuning).
    """

    def __init__(
        self,
        strategies: Sequence[Any],
        players: int | str | Sequence[int] = 4,
        games: int = 100_000,
        seed: int | None = None,
        expert: bool = False,
        *,
        target: int | None = None,
        repeats: bool = False,
        rows: bool = True,
        record: str | Path | None = None,
        record_sample: int | None = None,
        chunk_size: int | None = None,
        game: GamePlugin | None = None,
        seating: str | None = None,
        focus: Any = None,
        rounds: int | None = None,
    ):
        self.game = game if game is not None else _default_game()
        specs = list(strategies)
        if not specs:
            raise ValueError("a tournament needs at least one strategy")
        resolved = sorted((_resolve(self.game, s) for s in specs), key=lambda r: r[0])
        self.labels = tuple(label for label, _ in resolved)
        self._entrants: list[dict[str, Any]] | None = None
        self.payloads = tuple(payload for _, payload in resolved)
        dupes = sorted({x for x in self.labels if self.labels.count(x) > 1})
        if dupes:
            raise ValueError(f"strategy listed twice: {', '.join(dupes)}")
        self.sizes = parse_players(players)
        for k in self.sizes:
            if not self.game.min_players <= k <= self.game.max_players:
                raise ValueError(
                    f"tables take {self.game.min_players} to {self.game.max_players} players, "
                    f"got {k}"
                )
        if int(games) < 1:
            raise ValueError(f"--games must be at least 1, got {games}")
        if seed is None:
            seed = int(np.random.SeedSequence().entropy)
        if int(seed) < 0:
            raise ValueError(f"--seed must be a non-negative integer, got {seed}")
        self.seed = int(seed)
        self.expert = bool(expert)
        if rounds is not None:
            if int(rounds) < 1:
                raise ValueError(f"--rounds must be at least 1, got {rounds}")
            if target is not None:
                raise ValueError("a match runs to --target or for --rounds, not both")
            self.expert = True
        self.rounds = int(rounds) if rounds is not None else None
        if target is None:
            target = self.game.match_target
        if int(target) < 1:
            raise ValueError(f"the match target must be at least 1 point, got {target}")
        self.target = int(target)
        self.repeats = bool(repeats)
        self.rows = bool(rows)
        self.games_asked = int(games)
        if seating is None:
            seating = getattr(self.game, "default_seating", DEFAULT_SEATING)
        if seating not in SEATINGS:
            raise ValueError(f"unknown --seating {seating!r}: choose one of {', '.join(SEATINGS)}")
        self.seating = seating
        self.focus = None if focus is None else self._focus_label(focus)
        focus_index = None if self.focus is None else self.labels.index(self.focus)
        self.tables = make_tables(len(self.labels), self.sizes, self.repeats, focus_index)
        self.seatings = [design(t, seating) for t in self.tables]
        if chunk_size is None:
            hint = getattr(self.game, "chunk_games", None)
            chunk_size = hint(self.payloads) if hint is not None else None
        self.schedule = Schedule(
            self.tables, self.games_asked, chunk_size, [len(d) for d in self.seatings]
        )
        if self.schedule.n_games >= 2**32:
            raise ValueError("at most 2**32 - 1 games per tournament")
        self.record = Path(record) if record is not None else None
        if record_sample is not None and int(record_sample) < 1:
            raise ValueError(f"--record-sample must be at least 1, got {record_sample}")
        if self.record is None:
            self.record_stride = 0
        elif record_sample is None:
            self.record_stride = 1
        else:
            self.record_stride = max(1, self.schedule.n_games // int(record_sample))
        if self.record is not None and self.expert:
            raise ValueError("--record is not available with --expert (record plain games)")

    def _focus_label(self, focus: Any) -> str:
        """The label of ``focus``: one of the strategies (as given) or a label."""
        if isinstance(focus, str) and focus in self.labels:
            return focus
        try:
            label = self.game.resolve(focus)[0]
        except ValueError:
            label = None
        if label not in self.labels:
            raise ValueError(f"focus {focus!r} is not one of the tournament's strategies")
        return label

    # ------------------------------------------------------------------ spec

    @property
    def n_games(self) -> int:
        """Games (matches when expert) the run plays: ``games`` rounded up to whole sets."""
        return self.schedule.n_games

    @property
    def units(self) -> str:
        """What the run counts, in the game's declared words ("games", "rounds", "matches")."""
        return plural(self.game.match_unit if self.expert else self.game.unit)

    @property
    def rounded_note(self) -> str:
        """One line on how ``games`` was rounded to whole duplicate sets."""
        s = self.schedule
        per = "/".join(str(n) for n in sorted(set(s.set_sizes)))
        tables, deals = len(self.tables), s.deals
        seatings = "seating" if per == "1" else "seatings"
        asked, grown = f"asked {self.games_asked:,}", len(s.stages) - 1
        if grown:
            asked += f", grown by {grown} more {'stage' if grown == 1 else 'stages'} of deals"
        elif s.n_games != self.games_asked:
            asked += ", rounded up to whole duplicate sets"
        return (
            f"{s.n_games:,} {self.units} = {tables:,} {'table' if tables == 1 else 'tables'} x "
            f"{deals:,} {'deal' if deals == 1 else 'deals'} x {per} {seatings} "
            f"({SEATING_WORDS.get(self.seating, self.seating)}; {asked})"
        )

    def design(self) -> dict[str, Any]:
        """The seating design as the manifest records it: for each pattern of repeats at a
        table (its entrants numbered 0.. in canonical order), the seatings of one deal."""
        patterns: dict[str, list[list[int]]] = {}
        for table, seatings in zip(self.tables, self.seatings, strict=True):
            distinct = sorted(set(table))
            key = ",".join(str(distinct.index(e)) for e in table)
            if key not in patterns:
                patterns[key] = [[distinct.index(e) for e in st] for st in seatings]
        return {
            "kind": self.seating,
            "seatings_per_deal": {k: len(v) for k, v in patterns.items()},
            "seatings": patterns,
        }

    def spec(self) -> dict[str, Any]:
        """Everything that determines the results: compared on resume, kept in the manifest."""
        return {
            "game": self.game.name,
            "game_config": self.game.config(),
            "strategies": list(self.labels),
            "players": list(self.sizes),
            "games_asked": self.games_asked,
            "n_games": self.schedule.n_games,
            "deals_per_table": self.schedule.deals,
            "deal_stages": list(self.schedule.stages),
            "deal_streams": list(self.schedule.streams),
            "seed": self.seed,
            "expert": self.expert,
            "target": self.target if self.expert and self.rounds is None else None,
            "repeats": self.repeats,
            "seating": self.seating,
            "focus": self.focus,
            **({"rounds": self.rounds} if self.rounds is not None else {}),
            "rows": self.rows,
            "record_stride": self.record_stride,
            "chunk_games": self.schedule.chunk_games,
            "n_chunks": self.schedule.n_chunks,
            "seed_keys": SEED_KEYS,
            "entrants": self.entrants(),
        }

    def entrants(self) -> list[dict[str, Any]]:
        """Per entrant (canonical order), what its behaviour depends on, as the plug-in
        describes it (13 Leaves: class, every parameter, package version, file hash)."""
        describe = getattr(self.game, "describe", None)
        if describe is None:
            return [{"label": label} for label in self.labels]
        if self._entrants is None:
            self._entrants = [describe(p) for p in self.payloads]
        return self._entrants

    def _entrant_change(self, old: list[dict[str, Any]] | None) -> str | None:
        new = self.entrants()
        if not isinstance(old, list) or len(old) != len(new):
            return None
        explain = getattr(self.game, "describe_change", None)
        for before, now in zip(old, new, strict=True):
            if before != now:
                phrase = explain(before, now) if explain is not None else None
                return phrase or f"{now.get('label', '?')} changed"
        return None

    def _tasks(self, pending: Sequence[int], slice_games: int = 0) -> Iterator[ChunkTask]:
        for cid in pending:
            chunk = self.schedule.chunk(cid)
            yield ChunkTask(
                chunk=chunk,
                game=self.game,
                seed=self.seed,
                table=self.tables[chunk.table],
                labels=self.labels,
                payloads=self.payloads,
                n_tables=len(self.tables),
                rows=self.rows,
                expert=self.expert,
                target=self.target,
                rounds=self.rounds,
                record_stride=self.record_stride,
                seatings=self.seatings[chunk.table],
                slice_games=slice_games,
            )

    def with_stages(self, stages: Sequence[int]) -> Tournament:
        """This run grown to ``stages`` (cumulative deals per table, starting at its own
        first stage): ``run(out, resume=True)`` then keeps every chunk already in ``out``
        and plays only the new stages' (``tournaments.stages``)."""
        return with_stages(self, stages)

    # ------------------------------------------------------------------ run

    def check_out(self, out: str | Path, resume: bool = False) -> dict[str, Any] | None:
        """Refuse a non-empty ``out`` without ``resume``, or one holding another tournament.

        Returns the manifest found there (None for a new run). Raises ValueError (one line).
        """
        out = Path(out)
        if out.exists() and not out.is_dir():
            raise ValueError(f"{out} exists and is not a directory")
        if not (out.exists() and any(out.iterdir())):
            return None
        if not resume:
            raise ValueError(
                f"{out} is not empty: pass --resume to continue the run there, or pick a new --out"
            )
        old = storage.read_manifest(out)
        if old.get("format") != storage.FORMAT:
            raise ValueError(f"{out} does not hold a tournament run this version can resume")
        spec = self.spec()
        diff = [k for k in spec if old["spec"].get(k) != spec[k]]
        if extends(old["spec"], spec):  # grown by more stages: its chunks are kept
            diff = [k for k in diff if k not in GROWN_KEYS]
        if diff == ["entrants"]:
            change = self._entrant_change(old["spec"].get("entrants"))
            if change:
                raise ValueError(f"cannot resume {out}: an entrant changed ({change})")
        if diff:
            raise ValueError(
                f"cannot resume {out}: it holds a different tournament "
                f"(differs in {', '.join(diff)})"
            )
        return old

    def _prepare(self, out: Path, resume: bool) -> dict[str, Any]:
        spec = self.spec()
        old = self.check_out(out, resume)
        if old is not None:
            manifest = old
            manifest["spec"] = spec  # a run grown by stages records its new extent
        else:
            out.mkdir(parents=True, exist_ok=True)
            manifest = {
                "format": storage.FORMAT,
                "spec": spec,
                "seed": self.seed,
                "labels": list(self.labels),
                "tables": [list(t) for t in self.tables],
                "seating_design": self.design(),
                "rank_value": self.game.rank_value,
                "length_value": self.game.length_value,
                "game_declaration": declaration(self.game),
                "versions": self._versions(),
                "created": _now(),
                "wall_time_s": 0.0,
                "sessions": [],
            }
        verify.integrity(manifest)
        return manifest

    def _versions(self) -> dict[str, str]:
        import importlib.metadata

        versions = {
            "python": platform.python_version(),
            "numpy": np.__version__,
            # from the metadata: importing numba costs a run that does not need it 0.5 s
            "numba": importlib.metadata.version("numba"),
        }
        try:
            import leaves

            versions["leaves"] = leaves.__version__
        except ImportError:  # pragma: no cover - the leaves package is this project
            pass
        versions.update(self.game.versions())
        return versions

    def run(
        self,
        n_jobs: int = 1,
        out: str | Path | None = None,
        *,
        resume: bool = False,
        backend: str = "loky",
        scheduler: Any = None,
        progress: bool = False,
        log: Callable[[str], None] | None = None,
    ) -> TournamentResult:
        """Play every chunk not yet done into ``out`` and return the results.

        ``out=None`` writes into a new temporary directory. ``resume=True`` continues a run
        in ``out`` (refused if its spec differs). ``backend``: "loky" (``n_jobs`` local
        processes) or "dask" (``scheduler`` address or Client; none starts a local cluster).
        Results never depend on ``n_jobs`` or the backend. ``log`` receives the one line a
        resume says about the chunks it verified and replays.
        """
        if backend not in BACKENDS:
            raise ValueError(f"unknown backend {backend!r}: choose one of {', '.join(BACKENDS)}")
        if scheduler is not None and backend != "dask":
            raise ValueError("--scheduler needs --backend dask")
        if n_jobs == 0 or n_jobs < -1:
            raise ValueError(f"--jobs must be a positive number of workers (or -1), got {n_jobs}")
        if out is None:
            out = Path(tempfile.mkdtemp(prefix="leaves-tournament-"))
        out = Path(out)
        resuming = out.is_dir() and (out / storage.MANIFEST).exists()
        manifest = self._prepare(out, resume)
        storage.clean_temporaries(out)
        done, note = self._verified(out, manifest)
        if resuming and log is not None:
            log(note)
        pending = [c for c in range(self.schedule.n_chunks) if c not in done]
        units_done = sum(self.schedule.chunk(c).n_games for c in done)
        merged = _Merged(out, done)  # running totals; done chunks are read once
        session = {"started": _now(), "jobs": n_jobs, "backend": backend, "wall_s": 0.0}
        if resuming:
            session["resume"] = note
        manifest["sessions"].append(session)
        manifest["status"] = "running"
        manifest["record_file"] = str(self.record) if self.record else None
        t0 = time.perf_counter()
        base_wall = float(manifest.get("wall_time_s", 0.0))
        last_write = [0.0]
        unsynced: set[Path] = set()  # folders with renames not yet made durable

        def save(status: str | None = None, force: bool = False) -> None:
            now = time.perf_counter()
            if not force and now - last_write[0] < MANIFEST_EVERY_S:
                return
            last_write[0] = now
            session["wall_s"] = round(now - t0, 3)
            manifest["wall_time_s"] = round(base_wall + now - t0, 3)
            manifest["chunks_done"] = storage.to_ranges(done)
            manifest["n_chunks_done"] = len(done)
            manifest["units_done"] = units_done
            chunks = verify.integrity(manifest)["chunks"]
            verify.integrity(manifest)["chunks"] = dict(sorted(chunks.items(), key=_int_key))
            if status:
                manifest["status"] = status
            for folder in sorted(unsynced):  # the renames of the chunks it records first
                storage.fsync_dir(folder)
            unsynced.clear()
            storage.write_manifest(out, manifest)

        save(force=True)
        from .progress import RunProgress, compiling

        writer = _Writer(lambda output: self._write_chunk(out, output))
        advance: Callable[[int], None] = lambda n: None  # noqa: E731 - the bar's, while open

        def record(output: ChunkOutput, files: dict[str, list[Any]]) -> None:
            """A chunk whose files are all written: into the totals and the manifest."""
            nonlocal units_done
            unsynced.update((out / rel).parent for rel in files)
            verify.integrity(manifest)["chunks"][str(output.chunk_id)] = files
            merged.add(output.aggregates, output.forfeits)
            done.add(output.chunk_id)
            n = self.schedule.chunk(output.chunk_id).n_games
            units_done += n
            advance(n)
            save()

        unit = self.units
        results: Iterator[Any] | None = None
        try:
            prepare = None
            warm_up = getattr(self.game, "warm_up", None)
            if pending and warm_up is not None:
                cold, prepare = warm_up(self.payloads, self.expert)
                if cold:  # compile before any worker starts, so each one loads the cache
                    with compiling(progress):
                        prepare()
                    prepare = None
            with RunProgress(self.schedule.n_games, units_done, progress, unit) as bar:
                advance = bar.advance
                workload = Workload(
                    units=sum(self.schedule.chunk(c).n_games for c in pending),
                    size=lambda task: task.chunk.n_games,
                    min_unit_s=getattr(self.game, "min_unit_s", 0.0),
                )
                players: dict[str, int] = {}  # threads or workers started, chunks played where
                session["players"] = players
                threads = self._threads()
                results = imap_unordered(
                    run_chunk,
                    self._tasks(pending, 0 if threads else work.PLAY_SLICE_GAMES),
                    n_jobs,
                    backend,
                    scheduler,
                    workload,
                    prepare,
                    players,
                    functools.partial(ready, self.game, self.payloads, self.expert),
                    threads=threads,
                    salvage=writer.put,
                )
                for output in results:
                    writer.put(output)
                    for written in writer.written():
                        record(*written)
                for written in writer.written(wait=True):
                    record(*written)
        except BaseException:
            advance = lambda n: None  # noqa: E731 - the bar is closed
            close = getattr(results, "close", None)
            if close is not None:  # players stop; what they finished goes to the writer
                close()
            for written in writer.settle():  # nothing already played is lost
                record(*written)
            save("interrupted", force=True)
            raise
        finally:
            writer.close()
        verify.integrity(manifest)["files"] = self._finish(out, merged, done)
        manifest["finished"] = _now()
        save("complete", force=True)
        return TournamentResult(out)

    def _threads(self) -> bool:
        """True when the game plays these entrants without holding the GIL: the run's other
        players are then threads of this process (``local``), not worker processes."""
        says = getattr(self.game, "plays_without_gil", None)
        return bool(says is not None and says(self.payloads, self.expert))

    def _verified(self, out: Path, manifest: dict[str, Any]) -> tuple[set[int], str]:
        """Chunks done and verified, after forgetting bad ones; the one line saying so.

        Files named like this run's but of chunks it does not have are removed (they would
        otherwise be read with the run's rows).
        """
        n = self.schedule.n_chunks
        done, bad, _ = verify.check_chunks(out, manifest, n)
        chunks = verify.integrity(manifest)["chunks"]
        for cid in bad:
            chunks.pop(str(cid), None)
        removed = verify.remove_foreign(out, n)
        note = f"resume: {len(done)} of {n} chunks verified"
        if bad:
            shown = [str(p) for cid in sorted(bad) for p in bad[cid]]
            more = f"; and {len(shown) - 3} more" if len(shown) > 3 else ""
            note += (
                f", {len(bad)} replayed (missing, truncated, corrupt or another run's files: "
                f"{'; '.join(shown[:3])}{more})"
            )
        else:
            note += ", 0 replayed"
        if removed:
            note += f", {removed} file(s) of chunks this run does not have removed"
        rest = n - len(done) - len([c for c in bad if 0 <= c < n])
        return done, note + (f", {rest} still to play" if rest else "")

    def _write_chunk(self, out: Path, output: ChunkOutput) -> dict[str, list[Any]]:
        """Encode and write a chunk's files (its aggregates last); their manifest entries by
        path. Their folders are synced before the manifest records the chunk (``run``)."""
        cid = output.chunk_id
        files: dict[str, list[Any]] = {}

        def write(path: Path, data: bytes | memoryview) -> None:
            storage.atomic_write_bytes(path, data, sync_dir=False)
            files[path.relative_to(out).as_posix()] = storage.file_entry(data)

        if output.games_rows is not None:
            write(storage.part_path(out, "games", cid), to_parquet(output.games_rows, self.labels))
        if output.matches_rows is not None:
            data = to_parquet(output.matches_rows, self.labels)
            write(storage.part_path(out, "matches", cid), data)
        if self.record_stride:
            text = "".join(line + "\n" for line in output.records)
            write(storage.record_path(out, cid), text.encode())
        write(storage.chunk_path(out, cid), output.chunk_file)
        return files

    def _finish(self, out: Path, merged: _Merged, done: set[int]) -> dict[str, list[Any]]:
        """Save the merged aggregates and forfeits (returns their manifest entries); gather
        records into the record file."""
        if merged.total is None or len(done) != self.schedule.n_chunks:
            raise RuntimeError(f"{out}: the run ended with chunks missing")
        agg, forfeits = merged.total, merged.forfeits()
        buf = io.BytesIO()
        aggregates.save(buf, agg)
        files = {"aggregates.npz": buf.getvalue()}
        files["forfeits.json"] = (json.dumps(forfeits, indent=1) + "\n").encode()
        for name, data in files.items():
            storage.atomic_write_bytes(out / name, data)
        if self.record is not None:
            self.record.parent.mkdir(parents=True, exist_ok=True)
            tmp = self.record.with_name(f".{self.record.name}.tmp")
            with open(tmp, "wb") as dst:
                for cid in range(self.schedule.n_chunks):
                    with open(storage.record_path(out, cid), "rb") as src:
                        shutil.copyfileobj(src, dst)
                dst.flush()
                os.fsync(dst.fileno())
            tmp.replace(self.record)
            storage.fsync_dir(self.record.parent)
        return {name: storage.file_entry(data) for name, data in files.items()}


class _Writer:
    """Writes finished chunks in a thread of the driver, one at a time, in the order given.

    Encoding a chunk's rows and ``fsync`` are most of a chunk's cost in the driver, and
    both let go of the GIL: in a thread they overlap the chunks the driver plays, and the
    waits for the disk cost no core anything. At most ``WRITES_QUEUED`` chunks wait (memory
    stays flat when the disk is slow).
    """

    def __init__(self, write: Callable[[ChunkOutput], dict[str, list[Any]]]):
        from concurrent.futures import ThreadPoolExecutor

        self._write = write
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="leaves-write")
        self._pending: deque[tuple[ChunkOutput, Future]] = deque()

    def put(self, output: ChunkOutput) -> None:
        self._pending.append((output, self._pool.submit(self._write, output)))

    def written(self, wait: bool = False) -> Iterator[tuple[ChunkOutput, dict[str, list[Any]]]]:
        """(output, files) of the chunks written so far, in order; waits for the oldest while
        too many are queued, and for all with ``wait``. Raises what a write raised."""
        while self._pending and (
            wait or self._pending[0][1].done() or len(self._pending) > WRITES_QUEUED
        ):
            output, future = self._pending.popleft()
            yield output, future.result()

    def settle(self) -> Iterator[tuple[ChunkOutput, dict[str, list[Any]]]]:
        """After an interruption: every queued chunk whose write succeeds (waited for)."""
        while self._pending:
            output, future = self._pending.popleft()
            try:
                files = future.result()
            except Exception:  # noqa: BLE001 - a chunk not written is replayed on resume
                continue
            yield output, files

    def close(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)


def _int_key(item: tuple[str, Any]) -> int:
    return int(item[0])


class _Merged:
    """Aggregates and forfeit details of finished chunks, summed as they arrive (flat memory)."""

    def __init__(self, out: Path, done: set[int]):
        self.total: dict[str, np.ndarray] | None = None
        self._forfeits: list[dict[str, Any]] = []
        for cid in sorted(done):
            agg, extra = aggregates.load(storage.chunk_path(out, cid))
            self.add(agg, json.loads(str(extra["forfeits"])))

    def add(self, agg: dict[str, np.ndarray], forfeits: list[dict[str, Any]]) -> None:
        if self.total is None:
            self.total = {k: np.array(v, copy=True) for k, v in agg.items()}
        else:
            for key, value in agg.items():
                self.total[key] += value
        self._forfeits.extend(forfeits)
        if len(self._forfeits) > 2 * FORFEIT_DETAILS_MAX:
            self._forfeits = self.forfeits()

    def forfeits(self) -> list[dict[str, Any]]:
        """The forfeits of the lowest game indices, at most ``FORFEIT_DETAILS_MAX``."""
        return sorted(self._forfeits, key=lambda f: f["game"])[:FORFEIT_DETAILS_MAX]
