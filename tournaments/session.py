"""One session of a run in its output directory: chunk files written as chunks arrive, running
totals, and the manifest that records only what is durably written.

A chunk's files go down first (rows part, records, then its aggregates, each under a temporary
name and renamed); their folders are synced before the manifest names the chunk; the manifest's
progress is rewritten at most every ``MANIFEST_EVERY_S``. So an interrupted or killed session
leaves a manifest that names exactly the chunks whose files are whole, and ``resume`` plays
only the rest (``Tournament.run``).
"""

from __future__ import annotations

import contextlib
import glob
import io
import json
import platform
import shutil
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

from gamekit.errors import ParameterError

from . import aggregates, storage, verify
from .arguments import not_a_file
from .declaration import plural
from .game import declaration
from .games import load_spec
from .record_check import unrecorded_chunks
from .result import chunk_mend, chunk_totals, run_command
from .rows import to_parquet
from .schedule import Schedule
from .work import ChunkOutput

__all__ = [
    "FORFEIT_DETAILS_MAX", "RUN_KEYS", "Merged", "Recorder", "RunLog", "Writer", "checked_keep",
    "finish", "keep_entries", "new_manifest", "spec_difference", "verified", "versions",
    "write_chunk",
]  # fmt: skip

FORFEIT_DETAILS_MAX = 10_000
"""Every forfeit is counted; OUT/forfeits.json details the first this many (by game index)."""

WRITES_QUEUED = 4
"""Finished chunks that may wait for the driver's writing thread."""

MANIFEST_EVERY_S = 2.0
"""The manifest's progress fields are rewritten at most this often (and at the end)."""

RECORD_POLL_S = 0.1
"""How often ``Recorder`` looks for recorded chunks the manifest does not name yet."""

RUN_KEYS = frozenset({
    "format", "spec", "seed", "labels", "tables", "seating_design", "rank_value", "length_value",
    "game_declaration", "game_spec", "game_settings", "versions", "created", "wall_time_s",
    "sessions", "status", "finished", "chunks_done", "n_chunks_done", "units_done",
    verify.INTEGRITY, verify.RECORD_FILE,
})  # fmt: skip
"""The manifest's entries the runner writes (``new_manifest``, ``RunLog.save``, ``finish``):
a caller's ``keep`` (``Tournament.run``) names none of them, so it never overwrites, nor
drops, what the run's resume and results read."""

Files = dict[str, list[Any]]
"""A chunk's files as the manifest records them: relative path -> [size, checksum]."""


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def new_manifest(tournament: Any, spec: dict[str, Any]) -> dict[str, Any]:
    """The manifest a new run starts with: its spec, design and game declaration, how its
    game loads again (``game_spec``: a resume needs no ``--game``), the game's settings in
    words (``settings_words``), the versions its results depend on, and no session yet."""
    t = tournament
    return {
        "format": storage.FORMAT,
        "spec": spec,
        "seed": t.seed,
        "labels": list(t.labels),
        "tables": [list(table) for table in t.tables],
        "seating_design": t.design(),
        "rank_value": t.game.rank_value,
        "length_value": t.game.length_value,
        "game_declaration": declaration(t.game),
        "game_spec": load_spec(t.game),
        "game_settings": dict(getattr(t.game, "settings_words", dict)()),
        "versions": versions(t.game),
        "created": now(),
        "wall_time_s": 0.0,
        "sessions": [],
    }


def checked_keep(keep: Mapping[str, Any] | None) -> dict[str, Any]:
    """``Tournament.run``'s ``keep`` as a dict, refused (``ParameterError``) before anything is
    made where it is no mapping, names an entry of the run's own (``RUN_KEYS``) or a key that
    is no string, or holds a value the manifest, a JSON file, cannot: the first save would fail
    half made."""
    if keep is not None and not isinstance(keep, Mapping):
        raise ParameterError(f"{{keep}} must map names to values, got {keep!r}", "keep")
    kept = dict(keep or {})
    for key, value in kept.items():
        if not isinstance(key, str):
            raise ParameterError(f"{{keep}}'s keys are names, got {key!r}", "keep")
        if key in RUN_KEYS:
            raise ParameterError(
                f"{{keep}} names {key!r}, an entry the run writes itself: keep only your own",
                "keep",
            )
        try:
            json.dumps(value, allow_nan=False)
        except (TypeError, ValueError):
            raise ParameterError(
                f"{{keep}}'s {key!r} is no value a JSON file holds: {value!r}", "keep"
            ) from None
    return kept


def keep_entries(manifest: dict[str, Any], kept: Mapping[str, Any]) -> None:
    """A caller's ``kept`` entries (``checked_keep``) into ``manifest``; one mapped to None
    dropped (what an earlier command kept)."""
    for key, value in kept.items():
        if value is None:
            manifest.pop(key, None)
        else:
            manifest[key] = value


def spec_difference(key: str, stored: Any, asked: Any) -> str:
    """A spec field that differs, with both values when they are short enough to read; the
    game's settings (``game_config``) setting by setting, a table of them (a run's rules) as
    its ``key=value`` pairs ("none": not set)."""
    if key == "game_config" and isinstance(stored, dict) and isinstance(asked, dict):
        subs = [k for k in {**stored, **asked} if stored.get(k) != asked.get(k)]
        words = [f"{k}: {_setting(asked.get(k))} here, {_setting(stored.get(k))} in the run"
                 for k in subs]  # fmt: skip
        return "; ".join(words) or key
    short = all(isinstance(v, int | float | str | bool) and len(str(v)) <= 40
                for v in (stored, asked))  # fmt: skip
    return f"{key}: {asked} here, {stored} in the run" if short else key


def _setting(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, dict):
        return ", ".join(f"{k}={_setting(v)}" for k, v in value.items()) or "none"
    if isinstance(value, list | tuple):
        return "/".join(_setting(v) for v in value)
    return str(value)


def versions(game: Any) -> dict[str, str]:
    """Python's, numpy's, numba's and this project's versions, and the game's own."""
    import importlib.metadata  # start-up: read when a run records versions

    found = {
        "python": platform.python_version(),
        "numpy": np.__version__,
        # from the metadata: importing numba costs a run that does not need it 0.5 s
        "numba": importlib.metadata.version("numba"),
    }
    # this tool's own version (its distribution), whichever game the run plays
    with contextlib.suppress(importlib.metadata.PackageNotFoundError):
        found["leaves"] = importlib.metadata.version("leaves")
    found.update(game.versions())
    return found


class Writer:
    """Writes finished chunks in a thread of the driver, one at a time, in the order given.

    Encoding a chunk's rows and ``fsync`` are most of a chunk's cost in the driver, and
    both let go of the GIL: in a thread they overlap the chunks the driver plays, and the
    waits for the disk cost no core anything. At most ``WRITES_QUEUED`` chunks wait (memory
    stays flat when the disk is slow).
    """

    def __init__(self, write: Callable[[ChunkOutput], Files]):
        self._write = write
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="leaves-write")
        self._pending: deque[tuple[ChunkOutput, Future]] = deque()

    def put(self, output: ChunkOutput) -> None:
        self._pending.append((output, self._pool.submit(self._write, output)))

    def written(self, wait: bool = False) -> Iterator[tuple[ChunkOutput, Files]]:
        """(output, files) of the chunks written so far, in order; waits for the oldest while
        too many are queued, and for all with ``wait``. Raises what a write raised."""
        while self._pending and (
            wait or self._pending[0][1].done() or len(self._pending) > WRITES_QUEUED
        ):
            output, future = self._pending[0]
            files = future.result()  # a Ctrl-C in this wait leaves the chunk to ``settle``
            self._pending.popleft()
            yield output, files

    def settle(self) -> Iterator[tuple[ChunkOutput, Files]]:
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


class Merged:
    """Aggregates and forfeit details of finished chunks, summed as they arrive (flat memory).
    A done chunk whose checksum matches the manifest yet cannot be read raises
    ``DamagedFile`` naming it (the resume by ``leaves COMMAND`` replays it once removed)."""

    def __init__(self, out: Path, done: set[int], command: str = "tournament"):
        self.total: dict[str, np.ndarray] | None = None
        self._forfeits: list[dict[str, Any]] = []
        mend = chunk_mend(command, out, vouched=True)
        for cid in sorted(done):
            self.add(*chunk_totals(storage.chunk_path(out, cid), mend))

    def add(self, agg: dict[str, np.ndarray], forfeits: list[dict[str, Any]]) -> None:
        self.total = aggregates.merge([agg] if self.total is None else [self.total, agg])
        self._forfeits.extend(forfeits)
        if len(self._forfeits) > 2 * FORFEIT_DETAILS_MAX:
            self._forfeits = self.forfeits()

    def forfeits(self) -> list[dict[str, Any]]:
        """The forfeits of the lowest game indices, at most ``FORFEIT_DETAILS_MAX``."""
        return sorted(self._forfeits, key=lambda f: f["game"])[:FORFEIT_DETAILS_MAX]


def _int_key(item: tuple[str, Any]) -> int:
    return int(item[0])


class RunLog:
    """The manifest of one session: the chunks done, their files and the running totals.

    ``record`` takes a chunk whose files are all written; ``save`` rewrites the manifest (at
    most every ``MANIFEST_EVERY_S`` unless forced), syncing first the folders of the chunks it
    names. ``advance`` is the progress bar's, while one is open. The session's time counts
    from ``since`` (a ``time.perf_counter()`` value; default: now), so the time a caller spent
    before it (reading, verifying, deciding on the next stage) is in the run's wall time too.
    The session's entry keeps the chunks it played (``chunks``, ranges): with its
    ``versions``, which part of the run each release played (``reports.run_overview``).
    """

    def __init__(self, out: Path, manifest: dict[str, Any], done: set[int], schedule: Schedule,
                 session: dict[str, Any], since: float | None = None):  # fmt: skip
        _check_record(manifest)  # before anything is played or saved
        self.out, self.manifest, self.done, self.schedule = out, manifest, done, schedule
        self.session = session
        session.setdefault("units_played", 0)  # this session's, kept apart from the run's
        self.played: set[int] = set()  # the chunks this session recorded
        self.merged = Merged(out, done, run_command(manifest["spec"]))  # done chunks read once
        self.units_done = sum(schedule.chunk(c).n_games for c in done)
        self.advance: Callable[[int], None] = lambda n: None
        self._t0 = time.perf_counter() if since is None else since  # the session's start
        self._base_wall = float(manifest.get("wall_time_s", 0.0))
        self._last = 0.0
        self._unsynced: set[Path] = set()  # folders with renames not yet made durable

    def save(self, status: str | None = None, force: bool = False) -> None:
        t = time.perf_counter()
        if not force and t - self._last < MANIFEST_EVERY_S:
            return
        self._last = t
        m = self.manifest
        self.session["wall_s"] = round(t - self._t0, 3)
        self.session["chunks"] = storage.to_ranges(self.played)
        m["wall_time_s"] = round(self._base_wall + t - self._t0, 3)
        m["chunks_done"] = storage.to_ranges(self.done)
        m["n_chunks_done"] = len(self.done)
        m["units_done"] = self.units_done
        chunks = verify.integrity(m)["chunks"]
        verify.integrity(m)["chunks"] = dict(sorted(chunks.items(), key=_int_key))
        if status:
            m["status"] = status
        for folder in sorted(self._unsynced):  # the renames of the chunks it records first
            storage.fsync_dir(folder)
        self._unsynced.clear()
        storage.write_manifest(self.out, m)

    def record(self, output: ChunkOutput, files: Files) -> None:
        """A chunk whose files are all written: into the totals and the manifest."""
        self._unsynced.update((self.out / rel).parent for rel in files)
        verify.integrity(self.manifest)["chunks"][str(output.chunk_id)] = files
        self.merged.add(output.aggregates, output.forfeits)
        self.done.add(output.chunk_id)
        self.played.add(output.chunk_id)
        n = self.schedule.chunk(output.chunk_id).n_games
        self.units_done += n
        self.session["units_played"] += n
        self.advance(n)
        self.save()

    def settle(self, writer: Writer) -> None:
        """After an interruption: record every chunk the writer still finishes, then save."""
        self.advance = lambda n: None  # the bar is closed
        try:
            for written in writer.settle():  # nothing already played is lost
                self.record(*written)
        finally:  # a second Ctrl-C in the wait still saves the chunks recorded so far
            self.save("interrupted", force=True)


class Recorder:
    """Records each chunk once its files are written, in the writing thread (``writer``): the
    driver may play a chunk for minutes meanwhile. A thread saves what ``RunLog.save`` put off
    (``MANIFEST_EVERY_S``): the manifest names a chunk within about that. ``stop`` first."""

    def __init__(self, runlog: RunLog, write: Callable[[ChunkOutput], Files]):
        self._runlog, self._write = runlog, write
        self._lock, self._live, self._stopped = threading.Lock(), True, threading.Event()
        self.writer = Writer(self.write)
        self._saver = threading.Thread(target=self._saving, name="leaves-record", daemon=True)
        self._saver.start()

    def write(self, output: ChunkOutput) -> Files:
        """Write ``output``'s files and record its chunk (the writer's task)."""
        files = self._write(output)
        with self._lock:
            if self._live and output.chunk_id not in self._runlog.done:
                self._runlog.record(output, files)
        return files

    def save_late(self) -> None:
        """Save the manifest where it lacks a recorded chunk (once ``RunLog.save`` may)."""
        with self._lock:
            log = self._runlog
            if self._live and log.manifest.get("n_chunks_done") != len(log.done):
                log.save()

    def _saving(self) -> None:
        while not self._stopped.wait(RECORD_POLL_S):
            self.save_late()

    def stop(self) -> None:
        with self._lock:
            self._live = False
        self._stopped.set()
        self._saver.join()

    def settle(self) -> Iterator[tuple[ChunkOutput, Files]]:
        """The writer's ``settle`` for ``RunLog.settle``: what it writes unrecorded here."""
        return ((o, f) for o, f in self.writer.settle() if o.chunk_id not in self._runlog.done)


def _check_record(manifest: dict[str, Any]) -> None:
    """Refuse the run's ``record`` file (``record_file``) where it exists and is neither a
    regular file nor a directory: ``finish`` writes the records whole and renames them into
    place, which would replace a device such as /dev/null (as root), a named pipe or a socket.
    Asked without opening it (``storage.special_file``), before any game is played, as
    ``leaves tournament --record`` refuses it. A directory, which no rename replaces, is
    refused as the tournament is made (``arguments.record_rule``), or where one appears later,
    as the records are written, the run's chunks kept (``storage.atomic_file``)."""
    named = manifest.get("record_file")
    kind = storage.special_file(Path(named)) if named else None
    if kind is not None:  # the run's record, maybe read from its manifest: no flag named
        raise not_a_file("record", named, kind)


def verified(out: Path, manifest: dict[str, Any], n: int) -> tuple[set[int], str]:
    """Chunks done and verified, after forgetting bad ones; the one line saying so.

    Files named like this run's but of chunks it does not have are removed (a folder read
    whole would take them for the run's rows).
    """
    done, bad, _ = verify.check_chunks(out, manifest, n)
    blocked = verify.folders_blocked(out, manifest)  # a file in a folder's place: said first
    if blocked:
        raise storage.InTheWay.file(out / blocked[0])
    unrecorded_chunks(manifest, done, bad)
    merged = verify.integrity(manifest)["files"]
    checked = {rel: storage.check_entry(out / rel, entry) for rel, entry in merged.items()}
    stale = {rel: problem for rel, problem in checked.items() if problem}  # each file's own
    in_the_way = [p.path for cid in sorted(bad) for p in bad[cid] if p.resume == verify.LEAVE]
    for rel in [*in_the_way, *stale]:  # never written over: said before anything is played
        if (out / rel).is_dir():
            raise storage.InTheWay.directory(out / rel)
    chunks = verify.integrity(manifest)["chunks"]
    for cid in bad:
        chunks.pop(str(cid), None)
    removed = verify.remove_foreign(out, n)
    replayed = {cid: bad[cid] for cid in bad if 0 <= cid < n}
    dropped = {cid: bad[cid] for cid in bad if cid not in replayed}  # no chunk: none to play
    note = f"resume: {len(done)} of {n} chunks verified, {len(replayed)} replayed"
    if replayed:
        note += f" (missing, truncated, corrupt or another run's files: {_shown(replayed)})"
    if dropped:
        entries = _of_chunks(len(dropped), "entry")
        note += (f", {entries} this run does not have dropped from the manifest (nothing to "
                 f"replay: {_shown(dropped)})")  # fmt: skip
    if removed:
        note += f", {_of_chunks(removed, 'file')} this run does not have removed"
    if stale:  # a finished run's merged files: written again at its end
        each = [f"{rel}: {problem}" for rel, problem in stale.items()]
        why = "; ".join(each) if len(stale) > 1 else next(iter(stale.values()))
        note += f", {' and '.join(stale)} rewritten from the chunks at the end ({why})"
    note += _records_note(out, manifest)
    rest = n - len(done) - len(replayed)
    return done, note + (f", {rest} still to play" if rest else "")


def _of_chunks(n: int, thing: str) -> str:
    """``1 file of a chunk``, ``2 files of chunks``."""
    return f"1 {thing} of a chunk" if n == 1 else f"{n} {plural(thing)} of chunks"


def _shown(bad: dict[int, list[Any]]) -> str:
    """The first three problems of ``bad`` chunks (by chunk), and how many more."""
    shown = [str(p) for cid in sorted(bad) for p in bad[cid]]
    more = f"; and {len(shown) - 3} more" if len(shown) > 3 else ""
    return "; ".join(shown[:3]) + more


def _records_note(out: Path, manifest: dict[str, Any]) -> str:
    """What a resume says of a finished run's ``--record`` file that no longer matches its
    checksum (``verify.check_record_file``): gathered again from the chunks' records at the
    end, where the manifest places it (``verify.record_location``) and a resume without
    ``--record`` writes it."""
    if manifest.get("status") != "complete":
        return ""  # the records are gathered once the run completes: none to rewrite yet
    found = verify.Verification(out, complete=True)
    verify.check_record_file(out, manifest, found)
    if found.record is None or found.record[1] is None:
        return ""
    path, problem = found.record
    if not path.parent.is_dir():  # nothing writes there: a resume is given --record elsewhere
        return ""
    return f", the records {path} rewritten from the chunks at the end ({problem.reason})"


def write_chunk(out: Path, output: ChunkOutput, labels: Sequence[str], records: bool) -> Files:
    """Encode and write a chunk's files (its aggregates last); their manifest entries by
    path. Their folders are synced before the manifest records the chunk (``RunLog``)."""
    cid = output.chunk_id
    files: Files = {}

    def write(path: Path, data: bytes | memoryview) -> None:
        storage.atomic_write_bytes(path, data, sync_dir=False)
        files[path.relative_to(out).as_posix()] = storage.file_entry(data)

    if output.games_rows is not None:
        write(storage.part_path(out, "games", cid), to_parquet(output.games_rows, labels))
    if output.matches_rows is not None:
        write(storage.part_path(out, "matches", cid), to_parquet(output.matches_rows, labels))
    if records:
        # a game with no record (a forfeit: the pinned format holds finished games only) has
        # no line, never a blank one
        text = "".join(line + "\n" for line in output.records if line)
        write(storage.record_path(out, cid), text.encode())
    write(storage.chunk_path(out, cid), output.chunk_file)
    return files


def finish(out: Path, log: RunLog, record: Path | None) -> Files:
    """Save the merged aggregates and forfeits (returns their manifest entries); gather the
    chunks' records into the record file, whose entry goes into the manifest
    (``verify.RECORD_FILE``)."""
    n_chunks = log.schedule.n_chunks
    if log.merged.total is None or len(log.done) != n_chunks:
        raise RuntimeError(f"{out}: the run ended with chunks missing")
    buf = io.BytesIO()
    aggregates.save(buf, log.merged.total)
    files = {"aggregates.npz": buf.getvalue()}
    files["forfeits.json"] = (json.dumps(log.merged.forfeits(), indent=1) + "\n").encode()
    for name, data in files.items():
        storage.atomic_write_bytes(out / name, data)
    if record is not None:
        for left in record.parent.glob(f".{glob.escape(record.name)}.*tmp"):  # a killed gather's
            left.unlink(missing_ok=True)
        with storage.atomic_file(record) as dst:
            for cid in range(n_chunks):
                with open(storage.record_path(out, cid), "rb") as src:
                    shutil.copyfileobj(src, dst)
        entry = [record.stat().st_size, storage.file_digest(record)]
        verify.integrity(log.manifest)[verify.RECORD_FILE] = verify.record_file_entry(
            out, record, entry
        )
    else:
        verify.integrity(log.manifest).pop(verify.RECORD_FILE, None)
    return {name: storage.file_entry(data) for name, data in files.items()}
