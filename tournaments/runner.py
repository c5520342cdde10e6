"""``Tournament``: a round-robin spec, and the driver that runs it into an output directory.

The driver builds chunk tasks lazily and hands them to the players (``parallel``); a thread
of its own writes each finished chunk as it arrives, and the manifest records a chunk only
once its files are written (``session``); an interrupted run first records every chunk
already played. The manifest holds the spec and each done chunk's file sizes and checksums;
``resume`` verifies them, skips the chunks that check out and replays the others
(``verify``), so an interrupted or damaged run finishes with exactly the files an
uninterrupted one writes. The game is a plug-in (``game.GamePlugin``); the registry's
``DEFAULT_GAME`` unless one is given.
"""

from __future__ import annotations

import dataclasses
import functools
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from gamekit.errors import ParameterError, shown

from . import checksums, storage, verify, work
from .arguments import (
    default_game,
    enter,
    focus_label,
    match_rules,
    moment,
    record_refused,
    record_rule,
    seating_design,
)
from .checks import flag, integer, make_out, optional_integer, optional_path, player_counts
from .game import GamePlugin, plural
from .labels import Labeled
from .manifest_fields import RESUME_READS, NotThisVersion, check_manifest
from .parallel import imap_unordered
from .players import Players, Workload
from .result import TournamentResult, corrupt_manifest
from .same_run import Unusable, check_out
from .schedule import Schedule, make_tables, parse_players
from .seating import design
from .seating_record import design_record, patterns
from .session import (
    Recorder,
    RunLog,
    checked_keep,
    finish,
    keep_entries,
    new_manifest,
    now,
    verified,
    versions,
    write_chunk,
)
from .stages import asked_note, with_stages
from .work import SEED_KEYS, ChunkTask, ready, run_chunk

__all__ = ["Labeled", "Players", "Tournament", "parse_players", "record_refused"]

SEATING_WORDS = {"balanced": "balanced", "all": "all orders", "rotations": "rotations"}
"""Each seating design in the words of the rounded note."""


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
        self.game = default_game(game)
        self.labels, self.payloads, self._qualifiers = enter(self.game, strategies)
        self._entrants: list[dict[str, Any]] | None = None
        self.sizes = parse_players(players)
        player_counts(self.game, self.sizes)  # counts a game's rules allow
        games = integer(games, "games", "a whole number of games")
        if games < 1:
            raise ParameterError(
                f"{{games}} must be at least 1, got {shown(games, typed=False)}", "games"
            )
        if seed is None:
            seed = int(np.random.SeedSequence().entropy)
        seed = integer(seed, "seed", "a non-negative integer or None")
        if seed < 0:
            raise ParameterError(
                f"{{seed}} must be a non-negative integer, got {shown(seed, typed=False)}", "seed"
            )
        self.seed = seed
        self.expert, self.rounds, self.target = match_rules(self.game, expert, target, rounds)
        self.repeats, self.rows = flag(repeats, "repeats"), flag(rows, "rows")
        self.games_asked = games
        self.seating = seating_design(self.game, seating)
        self.focus = (
            None if focus is None else focus_label(self.game, focus, self.labels, self.payloads)
        )
        focus_index = None if self.focus is None else self.labels.index(self.focus)
        self.tables = make_tables(len(self.labels), self.sizes, self.repeats, focus_index)
        self.seatings = [design(t, self.seating) for t in self.tables]
        size = self._chunk_games(chunk_size)
        self.schedule = Schedule(
            self.tables, self.games_asked, size, [len(d) for d in self.seatings], units=self.units
        )
        by = "rounds" if self.rounds is not None else "expert" if self.expert else None
        self.record, self.record_stride = record_rule(
            self.game, record, record_sample, self.schedule.n_games, by
        )
        self.record_rule = work.RECORD_RULE  # which games of each stride (``work.recorded``)

    def _chunk_games(self, chunk_size: Any) -> int | None:
        """Games a chunk: ``chunk_size``, else the game's for these entrants (small where play
        is slow), else None (the schedule's, by games). One rule for every run (a gauntlet)."""
        chunk_size = optional_integer(chunk_size, "chunk_size", "a whole number of games")
        if chunk_size is None:
            hint = getattr(self.game, "chunk_games", None)
            chunk_size = hint(self.payloads) if hint is not None else None
        return chunk_size

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
        asked = asked_note(self.games_asked, len(s.stages) - 1, s.n_games, "stage")
        return (
            f"{s.n_games:,} {self.units} = {tables:,} {'table' if tables == 1 else 'tables'} x "
            f"{deals:,} {'deal' if deals == 1 else 'deals'} x {per} {seatings} "
            f"({SEATING_WORDS.get(self.seating, self.seating)}; {asked})"
        )

    def design(self) -> dict[str, Any]:
        """The seating design as the manifest records it (``seating_record``): for each
        pattern of repeats at a table, the seatings of one deal, or their digest."""
        return design_record(self.seating, patterns(self.tables, self.seatings))

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
            **work.rule_field(self.record_stride, self.record_rule),
            "chunk_games": self.schedule.chunk_games,
            "n_chunks": self.schedule.n_chunks,
            "seed_keys": SEED_KEYS,
            "entrants": self.entrants(),
        }

    def entrants(self) -> list[dict[str, Any]]:
        """Per entrant (canonical order), what its behaviour depends on, as the plug-in
        describes it (e.g. class, every parameter, package version, file hash)."""
        describe = getattr(self.game, "describe", None)
        if describe is None:
            return [{"label": label} for label in self.labels]
        if self._entrants is None:  # a label told apart by its file is recorded as it is
            self._entrants = [
                {**describe(p), "label": label, "qualifier": self._qualifiers[label]}
                if label in self._qualifiers
                else describe(p)
                for label, p in zip(self.labels, self.payloads, strict=True)
            ]
        return self._entrants

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
                record_rule=self.record_rule,
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
        """Refuse a non-empty ``out`` without ``resume``, or one holding another tournament
        (``same_run.check_out``): the manifest found there (None for a new run). Raises
        ValueError (one line), naming a run's folder that lost its manifest so
        (``storage.lost_manifest``), and one whose manifest cannot be used (``usable``)."""
        lost = storage.lost_manifest(out)
        if lost is not None:
            raise lost
        try:
            if (Path(out) / storage.MANIFEST).exists():  # a directory there too: said so
                usable(Path(out), resume)
            return check_out(self, out, resume)
        except NotThisVersion as exc:  # nothing damaged: the version that played it resumes it
            raise NotThisVersion(f"{exc}; {exc.advice}") from None

    def _prepare(self, out: Path, resume: bool) -> tuple[dict[str, Any], str]:
        """The manifest to play the run under, and what of the old one the resume drops
        (``checksums.dropped``: said with the chunks it verified)."""
        spec = self.spec()
        old = self.check_out(out, resume)
        if old is not None:
            manifest = old
            manifest["spec"] = spec  # a run grown by stages records its new extent
        else:
            make_out(out)
            manifest = new_manifest(self, spec)
        dropped = checksums.dropped(manifest)
        verify.integrity(manifest)
        return manifest, dropped

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
        since: float | None = None,
        keep: Mapping[str, Any] | None = None,
    ) -> TournamentResult:
        """Play every chunk not yet done into ``out`` and return the results.

        ``out=None`` writes into a new temporary directory. ``resume=True`` continues a run
        in ``out`` (refused if its spec differs, or while another process plays it:
        ``storage.run_lock``). ``backend``: "loky" (``n_jobs`` local
        processes) or "dask" (``scheduler`` address or Client; none starts a local cluster).
        Results never depend on ``n_jobs`` or the backend. ``log`` receives the one line a
        resume says about the chunks it verified and replays. ``since`` (a
        ``time.perf_counter()`` value, default: now) is when this session began: the manifest's
        wall time counts from there, so a caller's stages all add up to its whole time.
        ``keep``: entries the caller keeps in the manifest beside the run's own (a key mapped
        to None is dropped), written with its first save, so a run killed at any point holds
        them (the command line's advice on how to continue it); one that names an entry of
        the run's own (``session.RUN_KEYS``) is refused.
        """
        kept = checked_keep(keep)  # before anything is made
        since = time.perf_counter() if since is None else moment(since)
        players = Players(n_jobs, backend, scheduler)
        out = optional_path(out, "out") or Path(tempfile.mkdtemp(prefix="leaves-tournament-"))
        with storage.run_lock(out):  # a second process playing this run is refused
            resuming = out.is_dir() and (out / storage.MANIFEST).exists()
            manifest, dropped = self._prepare(out, resume)
            storage.clean_temporaries(out)
            self._forget_other_records(out, manifest)
            done, note = verified(out, manifest, self.schedule.n_chunks)
            note += dropped
            if resuming and log is not None:
                log(note)
            session = {"started": now(), "jobs": players.n_jobs, "backend": backend, "wall_s": 0.0,
                       "versions": versions(self.game)}  # fmt: skip
            if resuming:
                session["resume"] = note
            manifest["sessions"].append(session)
            manifest["status"] = "running"
            verify.note_record(manifest, out, self.record)
            keep_entries(manifest, kept)
            runlog = RunLog(out, manifest, done, self.schedule, session, since)
            runlog.save(force=True)
            pending = [c for c in range(self.schedule.n_chunks) if c not in done]
            self._play(pending, runlog, players, progress)
            try:
                verify.integrity(manifest)["files"] = finish(out, runlog, self.record)
                manifest["finished"] = now()
                runlog.save("complete", force=True)
            except BaseException:  # Ctrl-C while merging or syncing: every chunk stays recorded
                runlog.save("interrupted", force=True)
                raise
            return TournamentResult(out)

    def _forget_other_records(self, out: Path, manifest: dict[str, Any]) -> None:
        """A resume writing its records elsewhere than the run wrote them (another
        ``record``, or none): the old file's checksum vouches for nothing this run writes,
        so what the resume says (``verified``) names no such file as rewritten; the file it
        writes is named in the manifest next (``verify.note_record``)."""
        placed = verify.record_location(out, manifest)
        if placed is None or (self.record is not None
                              and self.record.resolve() == placed.resolve()):  # fmt: skip
            return
        verify.integrity(manifest).pop(verify.RECORD_FILE, None)

    def _warm_up(self, pending: Sequence[int], progress: bool) -> Callable[[], None] | None:
        """Compile what playing needs before any worker starts (each then loads the cache),
        or return the plug-in's loader for the workers to run (None: nothing to load)."""
        warm_up = getattr(self.game, "warm_up", None)
        if not pending or warm_up is None:
            return None
        cold, prepare = warm_up(self.payloads, self.expert)
        if not cold:
            return prepare
        from .progress import compiling  # start-up: rich loads to draw a bar

        with compiling(progress):
            prepare()
        return None

    def _play(self, pending: Sequence[int], runlog: RunLog, players: Players,
              progress: bool) -> None:  # fmt: skip
        """Play the pending chunks on ``players``, each written by the writing thread and
        recorded as it is; an interruption first records every chunk already played."""
        recorder = Recorder(
            runlog, lambda o: write_chunk(runlog.out, o, self.labels, bool(self.record_stride))
        )
        writer = recorder.writer
        results: Iterator[Any] | None = None
        try:
            prepare = self._warm_up(pending, progress)
            from .progress import RunProgress  # start-up: rich loads to draw a bar

            with RunProgress(self.schedule.n_games, runlog.units_done, progress, self.units) as bar:
                runlog.advance = bar.advance
                workload = Workload(
                    units=sum(self.schedule.chunk(c).n_games for c in pending),
                    size=lambda task: task.chunk.n_games,
                    min_unit_s=getattr(self.game, "min_unit_s", 0.0),
                )
                started: dict[str, int] = {}  # threads or workers started, chunks played where
                runlog.session["players"] = started
                threads = self._threads()
                how = dataclasses.replace(
                    players,
                    threads=threads,
                    workload=workload,
                    prepare=prepare,
                    ready=functools.partial(ready, self.game, self.payloads, self.expert),
                    stats=started,
                    salvage=writer.put,
                )
                tasks = self._tasks(pending, 0 if threads else work.PLAY_SLICE_GAMES)
                results = imap_unordered(run_chunk, tasks, how)
                for output in results:
                    writer.put(output)
                    for _ in writer.written():  # recorded as written; a failed write raises
                        pass
                for _ in writer.written(wait=True):
                    pass
        except BaseException:
            close = getattr(results, "close", None)
            if close is not None:  # players stop; what they finished goes to the writer
                close()
            recorder.stop()  # from here this thread records what the writer still finishes
            runlog.settle(recorder)
            raise
        finally:
            recorder.stop()
            writer.close()

    def _threads(self) -> bool:
        """True when the game plays these entrants without holding the GIL: the run's other
        players are then threads of this process (``local``), not worker processes."""
        says = getattr(self.game, "plays_without_gil", None)
        return bool(says is not None and says(self.payloads, self.expert))


def usable(out: Path, resume: bool) -> None:
    """Refuse the run in ``out`` whose manifest cannot be read, or one that a resume refuses
    as corrupt (``leaves verify``'s check; not resumed: not "pass resume", the resume would
    refuse it), with verify's advice (``storage.NO_MANIFEST``); resumed, one another version
    played (``NotThisVersion``, whose advice ``Tournament.check_out`` adds; not resumed, said
    so with that advice here: ``same_run.check_out`` would say "pass resume", refused)."""
    lead = f"cannot resume {out}: " if resume else f"the manifest of {out} cannot be used: "
    try:
        manifest = storage.read_manifest(out)
    except ValueError as exc:  # not JSON: nothing reads the run
        raise Unusable(f"{lead}{exc}; ", storage.NO_MANIFEST, "out") from None
    if not resume and not (isinstance(manifest, dict) and manifest.get("format") == storage.FORMAT):
        return  # no run's: ``check_out`` says what the folder holds
    try:
        check_manifest(manifest, required=RESUME_READS, resume=True)
    except NotThisVersion as exc:  # nothing damaged: with its advice (``check_out``)
        if resume:
            raise corrupt_manifest(out, exc, lead) from None
        raise Unusable(f"{out} holds a run this version cannot resume: {exc}; {exc.advice}, ",
                       "or pick a new {out}", "out") from None  # fmt: skip
    except ValueError as exc:
        said = corrupt_manifest(out, exc, lead)
        raise Unusable(f"{said}; ", storage.NO_MANIFEST, "out") from None
