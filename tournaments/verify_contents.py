"""``leaves verify --deep``: read every done chunk of a run back, and check what it holds.

A checksum vouches that a file is the one the manifest recorded, not that it can be read: a
manifest edited to vouch for a damaged file, or a chunk a faulty game plug-in wrote (wrong
columns, a row count the schedule does not lay out, values that name no seat or strategy of
its table), passes it, and ``leaves report``, ``leaves compare`` or a resume meet it later.
Here each chunk's aggregates are read as the results and a resume read them
(``result.chunk_totals``), its rows as the reports read them, and what they hold is held
against the chunk the manifest's schedule lays out, and against each other (each strategy's
seats, wins, forfeits and rank values: ``COUNTED``). The rows' reader belongs to a higher
layer (``reports``): the caller hands it in (``RowsReader``). Nothing here names a game.
Reading every file costs what a report's reading costs, so plain ``leaves verify`` does not.
"""

from __future__ import annotations

import zipfile
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from . import aggregates, storage
from .checksums import chunk_entries
from .declaration import plural
from .manifest_fields import chunks_laid_out
from .problems import Problem, Verification
from .record_check import record_location
from .result import DamagedFile, chunk_mend, chunk_totals, run_command
from .schedule import Chunk, Schedule
from .work import chunk_seeds, recorded, spec_rule

__all__ = ["MERGED", "REMOVE_FIRST", "RESTORE", "RESTORE_ADVICE", "REWRITE", "Contents",
           "PartRows", "RowsReader", "read_contents", "run_schedule"]  # fmt: skip

REMOVE_FIRST, REWRITE, RESTORE = "remove first", "rewrite", "restore"
"""What a resume does about a file ``read_contents`` finds bad: nothing until it is removed
(its checksum matches, so the resume takes it for whole); then it plays its chunk again, or
writes the merged aggregates again from the chunks (``REMOVE_FIRST``); a ``--record`` file,
removed, it gathers again from the chunks' records (``REWRITE``: where, the command says); a
manifest whose seed dealt none of the run's games, nothing that helps: it would deal new games
from that seed beside them (``RESTORE``: the seed the run was played with is put back)."""

RESTORE_ADVICE = ("put back the seed the run was played with ('seed' and 'spec.seed' in "
                  "{manifest}), or play a new run: a resume would deal new games from seed {seed} "
                  "beside games dealt from another")  # fmt: skip
"""What mends a ``RESTORE`` problem (``{manifest}``: the manifest's path; ``{seed}``: its
seed)."""

SAID = ("n_games", "n_matches")
"""What a chunk file says it played, beside its aggregates (``work.run_chunk`` keeps them)."""

MERGED = "aggregates.npz"
"""A complete run's merged aggregates: what its reports read, the sum of its chunks'."""

COUNTS = ("games", "wins", "forfeits", "met", "size_games", "table_games", "matches")
"""Aggregates that count games: none is ever below zero."""


@dataclass(frozen=True)
class PartRows:
    """What a rows part holds, as the reports' reader read it."""

    rows: int
    players: tuple[int, ...] = ()  # the table sizes its rows name
    tables: tuple[int, ...] = ()  # the schedule's tables its rows name
    labels: tuple[str, ...] = ()  # the strategies its seats name
    winners_beyond: int = 0  # rows whose winner seat is no seat of their table
    counts: dict[str, tuple[int, ...]] = field(default_factory=dict)
    """Per strategy, as the reports count them from the rows: (seats taken, games won, games
    forfeited, rank values summed); none for a part the reader does not count (matches)."""


RowsReader = Callable[[Path, dict[str, Any]], PartRows]
"""Reads a rows part (``games/`` or ``matches/``) of the run whose manifest is given; raises
ValueError or OSError saying why it cannot be read."""


@dataclass
class Contents:
    """What ``read_contents`` found: the files that cannot be read, or hold what their chunk
    does not."""

    problems: list[Problem] = field(default_factory=list)


def run_schedule(manifest: dict[str, Any]) -> Schedule | None:
    """The schedule the manifest's run was played by (its tables, seatings per deal, deal
    streams, stages and chunk size), as ``Schedule`` lays it out; None where the manifest
    does not tell it (an older version's) or lays out other chunks than its ``n_chunks``."""
    spec, tables = manifest["spec"], manifest["tables"]
    if chunks_laid_out(manifest) != spec["n_chunks"]:  # counted in a few steps, before a
        return None  # schedule of other chunks (a count edited large) is laid out one by one
    per_deal = manifest["seating_design"]["seatings_per_deal"]  # as chunks_laid_out read it
    stages = spec["deal_stages"]
    try:
        sizes = [_seatings(per_deal, t) for t in tables]
        schedule = Schedule([tuple(t) for t in tables], stages[0] * sum(sizes),
                            spec["chunk_games"], sizes, spec.get("deal_streams"), stages)  # fmt: skip
    except (TypeError, ValueError):  # fields check_manifest passed, yet no schedule: untold
        return None
    return schedule if schedule.n_chunks == spec["n_chunks"] else None


def _seatings(per_deal: dict[str, Any], table: list[int]) -> int:
    """Seatings per deal of ``table``: the one count its size has, else its pattern's
    (``tournaments.manifest_fields.chunks_laid_out`` reads them so); 0 where none is told."""
    kinds = {n for key, n in per_deal.items() if key.count(",") == len(table) - 1}
    if len(kinds) == 1:
        return int(kinds.pop())
    distinct = sorted(set(table))
    return int(per_deal.get(",".join(str(distinct.index(e)) for e in table), 0))


def read_contents(out: Path, manifest: dict[str, Any], result: Verification,
                  read_rows: RowsReader) -> Contents:  # fmt: skip
    """Read every done chunk of ``result`` (the files its checksums vouch for), a complete
    run's merged aggregates and ``--record`` file too, and say which cannot be read or hold
    what their chunk does not."""
    reader = _Reader(out, manifest, read_rows)
    entries = chunk_entries(manifest) or {}
    for cid in sorted(result.done):  # each chunk's files as its entry lists them (all match)
        reader.chunk(cid, sorted(entries[str(cid)]))
    found, totals = reader.found, reader.totals
    _seeds_found(reader.seeded, manifest, found)
    _odd_aggregates(totals, found)
    merged_bad = any(p.path == MERGED for p in result.other)  # missing, or not its checksum
    if result.complete and len(totals) == result.n_chunks == len(result.done) and not merged_bad:
        _merged(out, totals, found)
        chunks_said = any(p.path.startswith("records/") for p in found.problems)  # said once
        if result.record is not None and result.record[1] is None and not chunks_said:
            _record_file(out, manifest, sum(reader.records.values()), found)
    return found


class _Reader:
    """Reads the chunks of one run, gathering what it finds (``found``) and the aggregates
    that read (``totals``, checked further by ``_odd_aggregates``)."""

    def __init__(self, out: Path, manifest: dict[str, Any], read_rows: RowsReader) -> None:
        self.out, self.manifest, self.read_rows = out, manifest, read_rows
        self.schedule = run_schedule(manifest)
        self.expert = bool(manifest["spec"].get("expert"))
        declared = manifest.get("game_declaration")
        self.declared = declared = declared if isinstance(declared, dict) else {}
        unit = declared.get("match_unit", "match") if self.expert else declared.get("unit", "game")
        self.unit = unit if isinstance(unit, str) else "match" if self.expert else "game"
        self.mend = chunk_mend(run_command(manifest["spec"]), out, vouched=True)
        self.found = Contents()
        self.totals: dict[int, dict[str, np.ndarray]] = {}
        self.records: dict[int, int] = {}  # records each chunk's records file holds
        self.seeded: dict[str, tuple[int, bool]] = {}  # rows part: (chunk, seeds as told)
        self.labels = manifest.get("labels") or manifest["spec"]["strategies"]

    def bad(self, rel: str, why: str | None, cid: int) -> None:
        if why:
            self.found.problems.append(Problem(rel, why, cid, REMOVE_FIRST))

    def chunk(self, cid: int, files: list[str]) -> None:
        """Read chunk ``cid``'s ``files`` (relative to the run): aggregates, rows, records."""
        chunk = self.schedule.chunk(cid) if self.schedule is not None else None
        said: dict[str, int] = {}  # the games and matches the chunk file says it played
        for rel in [r for r in files if r.startswith("chunks/")]:
            said = self.aggregates(rel, cid, chunk)
        for rel in [r for r in files if r.startswith(("games/", "matches/"))]:
            matches = rel.startswith("matches/")
            if chunk is not None and self.expert == matches:  # what the schedule lays out
                expected = chunk.n_games
            else:  # an expert chunk's games, or a chunk the schedule does not tell
                expected = said.get("n_matches" if matches else "n_games")
            rows, why = _rows_wrong(self.out / rel, self.manifest, chunk, expected,
                                    self.read_rows)  # fmt: skip
            self.bad(rel, why, cid)
            if not why and rows is not None:
                self.rows_agree(rows, rel, cid)
            if not why and chunk is not None and self.expert == matches:
                same = _seeds_as_told(self.out / rel, self.manifest["spec"], chunk, matches)
                if same is not None:
                    self.seeded[rel] = (cid, same)
        for rel in [r for r in files if r.startswith("records/")]:
            self.records[cid], why = _records_wrong(self.out / rel)
            self.bad(rel, why or self.records_count(self.records[cid], chunk, cid), cid)

    def rows_agree(self, rows: PartRows, rel: str, cid: int) -> None:
        """The chunk's aggregates held against its rows (``rel``), counted as the reports
        count them: a chunk file of another run (its checksum edited to match) may hold the
        run's games, sizes and shapes, and other wins. A disagreement is the chunk file's
        (its resume plays the whole chunk again), and its aggregates are not summed into the
        merged ones: the chunk is named, not the merged file."""
        agg, shared = self.totals.get(cid), bool(self.declared.get("shared_wins"))
        if agg is None or not rows.counts:  # aggregates bad (said), or rows not counted
            return
        why = _counts_differ(agg, rows.counts, self.labels, rel, shared)
        if why:
            self.bad(storage.chunk_path(Path(), cid).as_posix(), why, cid)
            del self.totals[cid]

    def records_count(self, n: int, chunk: Chunk | None, cid: int) -> str | None:
        """Why ``n`` records cannot be chunk ``cid``'s: more than the games the run's rule
        picks in it (``work.recorded``), or fewer than those a forfeit did not end (a game
        cut short keeps no record)."""
        spec = self.manifest["spec"]
        stride = spec.get("record_stride")
        if chunk is None or self.expert or type(stride) is not int or stride < 1:
            return None
        picked = int(recorded(spec["seed"], chunk.game_indices(), stride, spec_rule(spec)).sum())
        agg = self.totals.get(cid)  # its aggregates, where they read: the games forfeited
        least = picked - (int(agg["size_forfeits"].sum()) if agg and "size_forfeits" in agg
                          else 0)  # fmt: skip
        if least <= n <= picked:
            return None
        told = f"{picked:,}" if least == picked else f"{max(least, 0):,} to {picked:,}"
        return (f"holds {n:,} record{'s' * (n != 1)}, expected {told} (the games the run "
                "records in its chunk, less those a forfeit ended)")  # fmt: skip

    def aggregates(self, rel: str, cid: int, chunk: Chunk | None) -> dict[str, int]:
        """Read the chunk file ``rel`` as the results and a resume read it; the games and
        matches it says it played."""
        try:
            agg, _ = chunk_totals(self.out / rel, self.mend)
        except DamagedFile as exc:  # "PATH is bad: not aggregates as a run writes them; mend"
            self.bad(rel, str(exc).split(" is bad: ", 1)[-1].split("; ", 1)[0], cid)
            return {}
        with np.load(self.out / rel, allow_pickle=False) as data:  # read just now: 2 counts
            kept = {k: data[f"extra:{k}"] for k in SAID if f"extra:{k}" in data.files}
        said = {k: int(v) for k, v in kept.items()
                if v.shape == () and np.issubdtype(v.dtype, np.integer)}  # fmt: skip
        why = _units_wrong(agg, said, chunk, self.expert, self.unit)
        self.bad(rel, why, cid)
        if not why:
            self.totals[cid] = agg
        return said


def _units_wrong(agg: dict[str, np.ndarray], said: dict[str, int], chunk: Chunk | None,
                 expert: bool, unit: str) -> str | None:  # fmt: skip
    """Why a chunk's aggregates are not those of ``chunk`` (None where they may be): games
    (an expert run's matches; ``unit``, the game's word for one) other than it plays, or a
    count below zero."""
    below = [k for k in COUNTS if k in agg and np.issubdtype(agg[k].dtype, np.integer)
             and (agg[k] < 0).any()]  # fmt: skip
    if below:
        return f"its aggregates count below zero ({', '.join(below)})"
    if chunk is None:
        return None
    key = "size_matches" if expert else "size_games"
    counted = int(agg[key].sum()) if key in agg else None
    for n in (said.get("n_matches" if expert else "n_games"), counted):
        if n is not None and n != chunk.n_games:
            return (f"its aggregates hold {n:,} {unit if n == 1 else plural(unit)}, expected "
                    f"{chunk.n_games:,} (the manifest's schedule lays out that many in its "
                    "chunk)")  # fmt: skip
    return None


def _rows_wrong(path: Path, manifest: dict[str, Any], chunk: Chunk | None,
                expected: int | None, read_rows: RowsReader
                ) -> tuple[PartRows | None, str | None]:  # fmt: skip
    """(what the rows part holds, where it reads; why it cannot be the chunk's): it cannot
    be read (the reader's words), holds other than ``expected`` rows, or names tables, table
    sizes, strategies or winners that are not its chunk's."""
    try:
        rows = read_rows(path, manifest)
    except (OSError, ValueError) as exc:
        return None, str(exc).replace(f" {path}:", ":").replace(f" {path}", "")  # its line
    return rows, _rows_not_chunks(rows, manifest, chunk, expected)


def _rows_not_chunks(rows: PartRows, manifest: dict[str, Any], chunk: Chunk | None,
                     expected: int | None) -> str | None:  # fmt: skip
    """Why the rows read cannot be ``chunk``'s (``_rows_wrong``), or None."""
    if expected is not None and rows.rows != expected:
        return (f"holds {rows.rows:,} row{'s' * (rows.rows != 1)}, expected {expected:,} (the "
                "manifest's schedule lays out that many in its chunk)")  # fmt: skip
    if chunk is None:
        return None
    k, labels = chunk.n_players, manifest.get("labels") or manifest["spec"]["strategies"]
    seated = {labels[e] for e in manifest["tables"][chunk.table] if 0 <= e < len(labels)}
    if set(rows.players) - {k}:
        return f"its rows name tables of {_listed(rows.players)} players, expected {k}"
    if set(rows.tables) - {chunk.table}:
        return f"its rows name tables {_listed(rows.tables)}, expected {chunk.table} (its chunk's)"
    if set(rows.labels) - seated:
        return (f"its seats name {_listed(sorted(set(rows.labels) - seated))}, not a strategy "
                "of its chunk's table")  # fmt: skip
    if rows.winners_beyond:
        return f"{rows.winners_beyond:,} of its rows name a winner seat its table does not have"
    return None


COUNTED = {"games": ("seats taken", 0), "wins": ("wins", 1), "forfeits": ("forfeits", 2),
           "rank_sum": ("rank value sum", 3)}  # fmt: skip
"""The aggregates a chunk's rows tell again (per strategy), the words for each and its place in
``PartRows.counts``. A game with shared wins counts its winners as its plug-in says
(``SeatedBatch.winners``), its rows as the reports tell them (the seats tied for the best rank
value): the same for a plug-in that keeps its word, so its wins are not held against them."""


def _counts_differ(agg: dict[str, np.ndarray], counts: dict[str, tuple[int, ...]],
                   labels: list[str], rel: str, shared: bool) -> str | None:  # fmt: skip
    """Where the aggregates ``agg`` count a strategy's seats, wins, forfeits or rank values
    other than its rows part ``rel`` (``counts``, as the reports count them), the first such,
    in words; the wins not, where they are ``shared`` (``COUNTED``)."""
    for key, (what, i) in COUNTED.items():
        held = agg.get(key)
        if held is None or held.ndim != 1 or len(held) != len(labels) or (shared and i == 1):
            continue  # a count an earlier version's chunk lacks; another shape: said apart
        for label, n in zip(labels, held.tolist(), strict=True):
            told = counts.get(label, (0,) * len(COUNTED))[i]
            if n != told:
                return (f"its aggregates disagree with its rows in {rel} ({label}'s {what}: "
                        f"{n:,}, the rows {told:,})")  # fmt: skip
    return None


def _seeds_as_told(path: Path, spec: dict[str, Any], chunk: Chunk, matches: bool) -> bool | None:
    """Whether the rows part ``path`` of ``chunk`` holds the seeds the run's seed and seed
    keys (``spec``) derive for its games, as a worker derives them (``work.run_chunk``): each
    row's ``seed`` (its play) and ``deal_seed`` (its deal; a match's, of ``matches`` rows).
    None where it cannot tell: the spec or the part does not say."""
    import pyarrow as pa  # start-up: pyarrow loads to read rows only
    import pyarrow.parquet as pq

    keys, seed = spec.get("seed_keys"), spec.get("seed")
    play, deal = ("match_play", "match") if matches else ("play", "deal")
    if not isinstance(keys, dict) or type(seed) is not int or seed < 0 or not all(
            type(keys.get(k)) is int for k in (play, deal)):  # fmt: skip
        return None
    try:
        rows = pq.read_table(path, columns=["seed", "deal_seed"])
    except (OSError, ValueError, pa.ArrowException):  # no such column: not told
        return None
    deal_seeds, play_seeds = chunk_seeds(seed, chunk, matches, keys)
    told = {"seed": play_seeds, "deal_seed": np.repeat(deal_seeds, chunk.n_seatings)}
    return all(np.array_equal(rows.column(k).to_numpy().astype(np.uint64), v)
               for k, v in told.items())  # fmt: skip


def _seeds_found(seeded: dict[str, tuple[int, bool]], manifest: dict[str, Any],
                 found: Contents) -> None:  # fmt: skip
    """The rows parts holding other seeds than the manifest's seed derives for their games:
    where every part read so, the manifest's seed is not the one the run was played with
    (edited since: ``RESTORE``); else those parts are not the run's (``REMOVE_FIRST``)."""
    other = {rel: cid for rel, (cid, same) in seeded.items() if not same}
    if not other:
        return
    seed = manifest["spec"]["seed"]
    if len(other) == len(seeded):
        n = len({cid for cid in other.values()})
        reason = (f"its seed {seed} dealt none of the run's games: the rows of "
                  f"{'its one chunk' if n == 1 else f'each of its {n:,} chunks'} hold the seeds "
                  "of another (the seed was changed since they were played)")  # fmt: skip
        found.problems.append(Problem(storage.MANIFEST, reason, None, RESTORE))
        return
    for rel, cid in other.items():
        reason = (f"its rows hold other seeds than the run's seed ({seed}) derives for its "
                  "games (another run's games)")  # fmt: skip
        found.problems.append(Problem(rel, reason, cid, REMOVE_FIRST))


def _listed(values: Any) -> str:
    return ", ".join(map(str, values))


def _records_wrong(path: Path) -> tuple[int, str | None]:
    """(records, why not) of a JSON-lines file of game records: each line (a byte order mark
    and blank lines are no record) one JSON object, as ``leaves replay`` reads them."""
    n = 0
    try:
        with open(path, encoding="utf-8") as fh:
            for lineno, line in enumerate(fh, 1):
                line = line.removeprefix("\ufeff")
                if not line.strip():
                    continue
                n += 1
                try:
                    record = storage.load_json(line)
                except ValueError:
                    return n, f"line {lineno:,} is not a JSON game record"
                if not isinstance(record, dict):
                    return n, f"line {lineno:,} is not a JSON game record (not an object)"
    except UnicodeDecodeError:
        return n, "not UTF-8 text"
    except OSError as exc:
        return n, f"unreadable ({exc.strerror or exc})"
    return n, None


def _odd_aggregates(totals: dict[int, dict[str, np.ndarray]], found: Contents) -> None:
    """Chunks holding an array of other shape or type than most of the run's chunks hold
    under its name (another game's, another table's count): merged, it would fail or add
    up wrong; they are dropped from ``totals``. An array some chunks lack is not one: a
    count added after a run's first chunks were written, which merging leaves out."""
    kinds: dict[str, Counter] = {}
    for agg in totals.values():
        for key, value in agg.items():
            kinds.setdefault(key, Counter())[(value.shape, value.dtype.str)] += 1
    usual = {key: kind.most_common(1)[0][0] for key, kind in kinds.items()}
    for cid in sorted(totals):
        odd = [k for k, v in totals[cid].items() if (v.shape, v.dtype.str) != usual[k]]
        if odd:
            path = storage.chunk_path(Path(), cid).as_posix()
            reason = f"its aggregates are not shaped as the run's other chunks' ({', '.join(odd)})"
            found.problems.append(Problem(path, reason, cid, REMOVE_FIRST))
            del totals[cid]


def _merged(out: Path, totals: dict[int, dict[str, np.ndarray]], found: Contents) -> None:
    """A complete run's merged aggregates (what its reports read), held against its chunks'
    merged as a run merges them (chunk by chunk: ``session.Merged``)."""
    path = out / MERGED
    merged: dict[str, np.ndarray] | None = None
    for cid in sorted(totals):
        merged = aggregates.merge([totals[cid]] if merged is None else [merged, totals[cid]])
    try:
        agg, _ = aggregates.load(path)
    except (OSError, ValueError, EOFError, zipfile.BadZipFile):  # as the results catch it
        found.problems.append(Problem(path.name, "not aggregates as a run writes them", None,
                                      REMOVE_FIRST))  # fmt: skip
        return
    same = merged is not None and agg.keys() == merged.keys() and all(
        agg[k].shape == merged[k].shape and np.allclose(agg[k], merged[k], rtol=0, atol=1e-9)
        for k in agg)  # fmt: skip
    if not same:
        found.problems.append(Problem(path.name, "not the sum of the run's chunks", None,
                                      REMOVE_FIRST))  # fmt: skip


def _record_file(out: Path, manifest: dict[str, Any], chunks: int, found: Contents) -> None:
    """A complete run's ``--record`` file: its records, as many as its chunks hold
    (``chunks``), which it was gathered from."""
    path = record_location(out, manifest)
    if path is None:
        return
    n, why = _records_wrong(path)
    if why is None and n != chunks:
        why = f"holds {n:,} record{'s' * (n != 1)}, its chunks {chunks:,}"
    if why:
        inside = path.resolve().is_relative_to(out.resolve())
        rel = path.resolve().relative_to(out.resolve()).as_posix() if inside else str(path)
        found.problems.append(Problem(rel, why, None, REWRITE))
