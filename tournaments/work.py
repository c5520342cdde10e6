"""One chunk of work, run in a worker: seeds -> plug-in -> rows, aggregates, forfeits, records.

This is the only code that runs remotely. It is a pure function of its task (a chunk of the
schedule plus the spec), so any worker, process or cluster node (or the driver itself) gives
the same output. It imports only what playing needs: rows leave as numpy columns
(``rows.Columns``) and the driver encodes them, so a worker never loads pyarrow or pandas.
"""

from __future__ import annotations

import io
import json
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from gamekit.matches import MAX_GAMES

from . import aggregates
from .plugin import GamePlugin, SeatedBatch, SeatedMatches
from .plugin_results import check_batch, check_matches, checked_play, guarded, seat_error
from .rows import Columns
from .schedule import Chunk, seat_entrants
from .seating import base_positions
from .seeds import derive_seeds

__all__ = [
    "ChunkTask", "ChunkOutput", "chunk_seeds", "ready", "recorded", "run_chunk", "SEED_KEYS",
    "MAX_GAMES_PER_MATCH", "RECORD_RULE", "RECORD_RULES", "rule_field", "spec_rule",
]  # fmt: skip

SEED_KEYS = {"deal": 10, "play": 1, "match": 12, "match_play": 3}
"""SeedSequence spawn-key prefixes: deal seeds use (10, deal stream, deal index), play seeds
(1, game index); expert runs use (12, deal stream, deal index) for match seeds and
(3, seated-match index) for their play seeds. A table's deal stream is its own (the
baseline's copy of a gauntlet table shares the strategy's), and game indices are numbered
deal-major (``tournaments.schedule``), so no seed depends on the number of deals. (Keys 0
and 2 keyed deals by table size: every table of a size was dealt the same cards.) Key
``RECORD_KEY`` draws which games a sample of records keeps (``recorded``)."""


def chunk_seeds(seed: int, chunk: Chunk, matches: bool = False,
                keys: dict[str, int] = SEED_KEYS) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    """``chunk``'s seeds from the run's ``seed``: one a deal (a match's, where ``matches``)
    and one a game (a seated match's), derived under ``keys`` (a run's manifest keeps
    them): the one derivation a worker plays by and ``verify --deep`` checks the rows by."""
    deal, play = ("match", "match_play") if matches else ("deal", "play")
    deal_ids = np.arange(chunk.deal_start, chunk.deal_stop, dtype=np.int64)
    return (derive_seeds(seed, (keys[deal], chunk.deal_stream), deal_ids),
            derive_seeds(seed, (keys[play],), chunk.game_indices()))  # fmt: skip


RECORD_KEY = 13
"""SeedSequence spawn-key prefix of a record sample's draws: (13, block index)."""

RECORD_RULE = 2
"""The rule a new run samples its records by (``recorded``), kept in its spec as
``record_rule`` when it samples; a sampling run without one followed rule 1."""

RECORD_RULES = (1, 2)
"""Every rule ``recorded`` knows: a run is resumed under its own, never another."""

MAX_GAMES_PER_MATCH = MAX_GAMES
"""Expert rows number games ``match * 64 + game_in_match`` (``gamekit.matches.MAX_GAMES``)."""

PLAY_SLICE_GAMES = 8192
"""Where the play holds the GIL (a compiled loop built without releasing it), a chunk's games
are played this many at a time (``ChunkTask.slice_games``), since the driver plays chunks
too: between slices the threads that feed its worker processes (and write finished chunks)
get to run. A slice of heuristics is about 60 ms, less than the task a worker holds in
reserve; each call costs about 1-3 ms more, so play that releases the GIL is not sliced.
Games are independent, so the slicing changes no result."""

FORFEIT_DETAILS_PER_CHUNK = 100
"""Forfeits are all counted; the details (seed, error) of at most this many per chunk are kept
in the aggregates (per-game rows keep every error)."""


@dataclass(frozen=True)
class ChunkTask:
    """Everything a worker needs for one chunk."""

    chunk: Chunk
    game: GamePlugin
    seed: int
    table: tuple[int, ...]  # entrant indices of the chunk's table, base rotation
    labels: tuple[str, ...]  # every entrant's label
    payloads: tuple[Any, ...]  # every entrant's payload for the plug-in
    n_tables: int
    rows: bool = True
    expert: bool = False
    target: int = 20
    rounds: int | None = None  # matches of a fixed number of games (instead of a target)
    record_stride: int = 0  # record one game in each block of this many (0: none, 1: all)
    record_rule: int = RECORD_RULE  # which game of a block (``recorded``)
    seatings: tuple[tuple[int, ...], ...] = ()  # entrant per seat, per seating (default: rotations)
    slice_games: int = 0  # games per call of the plug-in's play_seatings (0: all at once)

    def seating(self, r: int) -> tuple[int, ...]:
        """Entrants seat by seat under seating ``r`` of each deal's duplicate set."""
        if self.seatings:
            return self.seatings[r]
        return seat_entrants(self.table, r)


@dataclass
class ChunkOutput:
    """What a worker sends back: small, and ready to be written."""

    chunk_id: int
    n_games: int
    n_matches: int
    aggregates: dict[str, np.ndarray]
    forfeits: list[dict[str, Any]] = field(default_factory=list)
    games_rows: Columns | None = None
    matches_rows: Columns | None = None
    records: list[str] = field(default_factory=list)
    chunk_file: bytes = b""  # the chunk's aggregates + forfeits as .npz, made by the worker


def _seat_columns(cols: Columns, name: str, values: np.ndarray, k: int, seats: int) -> None:
    for s in range(seats):
        if s < k:
            cols.plain(f"{name}_{s}", values[:, s])
        else:
            cols.null(f"{name}_{s}", values.dtype)


def _game_rows(
    task: ChunkTask,
    batch: SeatedBatch,
    seat_ent: np.ndarray,
    ids: dict[str, np.ndarray],
    extra: dict[str, np.ndarray],
) -> Columns:
    """Per-game columns: ids, seats, per-seat values, winner, game values, forfeit."""
    n = len(batch)
    k = task.chunk.n_players
    cols = Columns(n)
    cols.plain("game", ids["game"], np.int64)
    for name, values in extra.items():
        cols.plain(name, values)
    cols.plain("deal", ids["deal"], np.int64)
    cols.plain("rotation", ids["rotation"], np.int16)
    cols.plain("table", np.full(n, task.chunk.table, np.int32))
    cols.plain("seed", ids["seed"], np.uint64)
    cols.plain("deal_seed", ids["deal_seed"], np.uint64)
    cols.plain("n_players", np.full(n, k, np.int8))
    if batch.first_player is not None:
        cols.plain("first_player", batch.first_player, np.int8)
    seats = task.game.max_players
    seat_rows = np.ascontiguousarray(seat_ent.T, dtype=np.int16)  # one converted row a seat
    for s in range(seats):
        cols.label(f"seat_{s}", seat_rows[s] if s < k else None)
    for name, values in batch.seat_values.items():
        _seat_columns(cols, name, values, k, seats)
    winner = batch.winner_seat.astype(np.int8)
    cols.plain("winner_seat", winner)
    winner_ent = np.where(
        winner >= 0, seat_ent[np.arange(n), np.maximum(winner, 0).astype(np.int64)], -1
    )
    cols.label("winner", winner_ent)
    for name, values in batch.game_values.items():
        cols.plain(name, values)
    forfeit = batch.forfeit_seat.astype(np.int8)
    cols.plain("forfeit", forfeit >= 0)
    cols.plain("forfeit_seat", forfeit)
    errors = list(batch.errors)
    for i in np.flatnonzero(forfeit >= 0):  # each names its seat's strategy, in every game
        seat = int(forfeit[i])
        errors[i] = seat_error(errors[i], seat, task.labels[seat_ent[i, seat]])
    cols.text("error", errors)
    return cols


def _forfeit_details(
    task: ChunkTask, batch: SeatedBatch, seat_ent: np.ndarray, ids: dict[str, np.ndarray]
) -> list[dict[str, Any]]:
    details = []
    for i in np.flatnonzero(batch.forfeit_seat >= 0)[:FORFEIT_DETAILS_PER_CHUNK]:
        seat = int(batch.forfeit_seat[i])
        detail = {
            "game": int(ids["game"][i]),
            "deal": int(ids["deal"][i]),
            "table": task.chunk.table,
            "seat": seat,
            "strategy": task.labels[seat_ent[i, seat]],
            "error": seat_error(batch.errors[i], seat, task.labels[seat_ent[i, seat]]),
            "seed": int(ids["seed"][i]),
            "deal_seed": int(ids["deal_seed"][i]),
            "seats": [task.labels[e] for e in seat_ent[i, : task.chunk.n_players]],
        }
        if "match" in ids:
            detail["match"] = int(ids["match"][i])
        trace = getattr(batch.errors[i], "traceback", None)  # a game's forfeit error may carry one
        if trace:
            detail["traceback"] = str(trace)
        details.append(detail)
    return details


def _empty_aggregates(task: ChunkTask) -> dict[str, np.ndarray]:
    game = task.game
    return aggregates.empty(
        len(task.labels),
        task.n_tables,
        game.max_length,
        max_seats=game.max_players,
        shared_wins=game.shared_wins,
        limits=aggregates.limit_tests(getattr(game, "limit_columns", None)),
    )


def ready(game: GamePlugin, payloads: tuple[Any, ...], expert: bool) -> None:
    """Ready a worker to play: what unpickling the game imports, then the compiled code the
    plug-in's warm-up loads (a worker's first task then starts at once)."""
    warm_up = getattr(game, "warm_up", None)
    if warm_up is not None:
        warm_up(payloads, expert)[1]()


def run_chunk(task: ChunkTask) -> ChunkOutput:
    """Play one chunk and return its rows (numpy columns), aggregates, forfeits and records.

    The chunk's aggregate file (.npz) is made here, in the worker; the rows are encoded as
    Parquet by the driver's writing thread (a worker never loads pyarrow).
    """
    out = _run_match_chunk(task) if task.expert else _run_game_chunk(task)
    buf = io.BytesIO()
    aggregates.save(
        buf,
        out.aggregates,
        forfeits=np.array(json.dumps(out.forfeits)),
        n_games=np.array(out.n_games),
        n_matches=np.array(out.n_matches),
    )
    out.chunk_file = buf.getvalue()
    return out


def _run_game_chunk(task: ChunkTask) -> ChunkOutput:
    chunk, game = task.chunk, task.game
    n_games, n_set = chunk.n_games, chunk.n_seatings
    games = chunk.game_indices()
    deal_seeds, play_seeds = chunk_seeds(task.seed, chunk)
    agg = _empty_aggregates(task)

    seatings = [task.seating(r) for r in range(n_set)]
    rotations = chunk.rotations()
    seat_table = np.array(seatings, dtype=np.int64)
    seat_ent = seat_table[rotations]
    if getattr(game, "play_seatings", None) is not None:  # every seating at once, by slices
        tables = [[task.payloads[e] for e in entrants] for entrants in seatings]
        seating, deal_of_game = rotations.astype(np.int64), np.repeat(deal_seeds, n_set)
        step = task.slice_games or max(n_games, 1)
        cuts = [slice(a, a + step) for a in range(0, n_games, step)]

        def sliced(c: slice) -> SeatedBatch:
            b = guarded(game, "play_seatings", tables, seating[c], deal_of_game[c], play_seeds[c])
            return check_batch(game, b, len(play_seeds[c]), chunk.n_players)

        batch = SeatedBatch.concat([sliced(c) for c in cuts])
    else:
        batches = [
            checked_play(game, [task.payloads[e] for e in seatings[r]], deal_seeds,
                         play_seeds[r::n_set])
            for r in range(n_set)
        ]  # fmt: skip
        batch = SeatedBatch.scatter(batches, [np.arange(r, n_games, n_set) for r in range(n_set)])
    base = np.array([base_positions(task.table, st) for st in seatings], dtype=np.int64)
    aggregates.add_sets(  # games are deal-major: game i is played under seating i % n_set
        agg,
        chunk.table,
        seat_table,
        base,
        batch,
        game.rank_value,
        game.length_value,
        game.higher_is_better,
    )
    ids = {
        "game": games,
        "deal": chunk.deal_indices(),
        "rotation": chunk.rotations(),
        "seed": play_seeds,
        "deal_seed": np.repeat(deal_seeds, n_set),
    }
    out = ChunkOutput(
        chunk_id=chunk.id,
        n_games=n_games,
        n_matches=0,
        aggregates=agg,
        forfeits=_forfeit_details(task, batch, seat_ent, ids),
    )
    if task.rows:
        out.games_rows = _game_rows(task, batch, seat_ent, ids, {})
    if task.record_stride:
        out.records = _records(task, deal_seeds, play_seeds, games)
    return out


def recorded(seed: int, games: np.ndarray, stride: int, rule: int = RECORD_RULE) -> np.ndarray:
    """Which of ``games`` (tournament game indices) a run's record file keeps, as a mask:
    every game with ``stride`` 1, none with 0. A sample (``stride`` > 1) keeps one game in
    each block of ``stride`` consecutive indices (block ``b``: games ``b * stride`` on): under
    rule 2 the one at offset ``derive_seeds(seed, (RECORD_KEY,), b) % stride``, under rule 1
    the first. Game indices are deal-major, so rule 1 with a stride that is a multiple of a
    deal's games put every record at one table and seating; a drawn offset lands on any
    table, seating and deal alike. Only the seed and the index decide, never the chunking."""
    games = np.asarray(games, dtype=np.int64)
    if stride <= 1:
        return np.full(games.shape, stride == 1)
    if rule not in RECORD_RULES:
        raise ValueError(f"unknown record rule {rule!r}: this version knows {RECORD_RULES}")
    if rule == 1:
        return games % stride == 0
    blocks, of_game = np.unique(games // stride, return_inverse=True)  # a draw per block
    offsets = derive_seeds(seed, (RECORD_KEY,), blocks) % np.uint64(stride)
    return games % stride == offsets.astype(np.int64)[of_game.reshape(games.shape)]


def rule_field(stride: int, rule: int) -> dict[str, int]:
    """The spec's ``record_rule`` field: kept for a sample (``stride`` > 1) picked by a rule
    after the first; a spec without one is the first's (``spec_rule``)."""
    return {"record_rule": rule} if stride > 1 and rule != 1 else {}


def spec_rule(spec: dict[str, Any]) -> int:
    """The rule that picked the sample of a run with this spec (``rule_field``)."""
    return spec.get("record_rule", 1)


def _records(
    task: ChunkTask, deal_seeds: np.ndarray, play_seeds: np.ndarray, games: np.ndarray
) -> list[str]:
    """Replay the sampled games of the chunk with recording on, in game order."""
    n_set = task.chunk.n_seatings
    picked = np.flatnonzero(recorded(task.seed, games, task.record_stride, task.record_rule))
    parts, at = [], []
    for r in range(n_set):
        sel = picked[picked % n_set == r]
        if sel.size:
            seats = [task.payloads[e] for e in task.seating(r)]
            deals = deal_seeds[sel // n_set]
            parts.append(checked_play(task.game, seats, deals, play_seeds[sel], record=True))
            at.append(np.searchsorted(picked, sel))
    return (SeatedBatch.scatter(parts, at).records or []) if parts else []


@dataclass
class _Matches:
    """A chunk's matches, played seating by seating and joined: every game, match by match
    (each match's games in play order), and each match's outcome."""

    batch: SeatedBatch  # every game
    match_pos: np.ndarray  # (Gtot,): the chunk-local match of each game
    game_in_match: np.ndarray  # int8 (Gtot,)
    scores: np.ndarray  # (Gtot, k): each game's points
    game_seeds: tuple[np.ndarray, np.ndarray] | None  # (deal, play) that replay each game
    seatings: list[tuple[int, ...]]  # entrants seat by seat, per seating
    totals: np.ndarray  # int16 (M, k)
    games: np.ndarray  # int16 (M,)
    winners: np.ndarray  # bool (M, k)


def _play_matches(
    task: ChunkTask, match_seeds: np.ndarray, play_seeds: np.ndarray, agg: dict[str, np.ndarray]
) -> _Matches:
    """Every seating's matches of the chunk, added into ``agg`` and joined in chunk order."""
    chunk, game = task.chunk, task.game
    k, n_matches, n_set = chunk.n_players, chunk.n_games, chunk.n_seatings
    totals = np.zeros((n_matches, k), np.int16)
    games = np.zeros(n_matches, np.int16)
    winners = np.zeros((n_matches, k), bool)
    played: list[SeatedMatches] = []
    seatings: list[tuple[int, ...]] = []
    of_game: list[np.ndarray] = []
    for r in range(n_set):
        entrants = task.seating(r)
        pos = np.arange(r, n_matches, n_set)
        seats = [task.payloads[e] for e in entrants]
        res = guarded(game, "play_matches", seats, match_seeds, play_seeds[pos], task.target,
                      rounds=task.rounds)  # fmt: skip
        check_matches(game, res, len(pos), len(seats))
        if int(res.match_games.max(initial=0)) > MAX_GAMES_PER_MATCH:
            raise RuntimeError(f"a match lasted more than {MAX_GAMES_PER_MATCH} games")
        aggregates.add_batch(
            agg, chunk.table, base_positions(task.table, entrants), entrants, res.games,
            game.rank_value, game.length_value, game.higher_is_better,
        )  # fmt: skip
        aggregates.add_matches(agg, entrants, res, task.target if task.rounds is None else None)
        totals[pos], games[pos], winners[pos] = res.match_totals, res.match_games, res.match_winners
        played.append(res)
        seatings.append(entrants)
        of_game.append(pos[res.game_match])  # chunk-local match position of each game
    match_of_game = np.concatenate(of_game)
    order = np.argsort(match_of_game, kind="stable")  # by match, then by play order
    match_pos = match_of_game[order]
    starts = np.searchsorted(match_pos, match_pos, side="left")
    game_seeds = None
    if all(r.game_deal_seeds is not None and r.game_play_seeds is not None for r in played):
        game_seeds = (  # the plug-in says how to replay each game on its own
            np.concatenate([r.game_deal_seeds for r in played])[order],
            np.concatenate([r.game_play_seeds for r in played])[order],
        )
    return _Matches(
        batch=SeatedBatch.concat([res.games for res in played], order),
        match_pos=match_pos,
        game_in_match=(np.arange(order.size) - starts).astype(np.int8),
        scores=np.concatenate([res.game_scores for res in played])[order],
        game_seeds=game_seeds,
        seatings=seatings,
        totals=totals,
        games=games,
        winners=winners,
    )


def _run_match_chunk(task: ChunkTask) -> ChunkOutput:
    """Expert variant: one match per (deal, rotation); per-game and per-match rows."""
    chunk, game = task.chunk, task.game
    match_ids = chunk.game_indices()  # seated-match index, numbered like games
    match_seeds, play_seeds = chunk_seeds(task.seed, chunk, matches=True)
    agg = _empty_aggregates(task)
    m = _play_matches(task, match_seeds, play_seeds, agg)
    batch, match_pos = m.batch, m.match_pos
    rotations = chunk.rotations()
    seat_table = np.array(m.seatings, dtype=np.int64)
    seat_ent = seat_table[rotations[match_pos]]
    match_global = match_ids[match_pos]
    ids = {
        "game": match_global * MAX_GAMES_PER_MATCH + m.game_in_match,
        "deal": chunk.deal_indices()[match_pos],
        "rotation": rotations[match_pos],
        "seed": play_seeds[match_pos],
        "deal_seed": match_seeds[match_pos // chunk.n_seatings],
        "match": match_global,
    }
    extra = {
        "match": match_global,
        "game_in_match": m.game_in_match,
        "match_seed": ids["deal_seed"],
        "match_play_seed": ids["seed"],
    }
    if m.game_seeds is not None:
        ids["deal_seed"], ids["seed"] = m.game_seeds
    out = ChunkOutput(
        chunk_id=chunk.id,
        n_games=len(batch),
        n_matches=chunk.n_games,
        aggregates=agg,
        forfeits=_forfeit_details(task, batch, seat_ent, ids),
    )
    if task.rows:
        cols = _game_rows(task, batch, seat_ent, ids, extra)
        if "score" not in batch.seat_values:  # a game whose own column is "score" has them
            k = chunk.n_players
            _seat_columns(cols, "score", m.scores.astype(np.int16), k, game.max_players)
        out.games_rows = cols
        out.matches_rows = _match_rows(
            task, match_ids, match_seeds, play_seeds, seat_table[rotations], m.games, m.totals,
            m.winners,
        )  # fmt: skip
    return out


def _match_rows(task, match_ids, match_seeds, play_seeds, seat_ent, games, totals, winners):
    chunk = task.chunk
    k, n = chunk.n_players, chunk.n_games
    cols = Columns(n)
    cols.plain("match", match_ids, np.int64)
    cols.plain("deal", chunk.deal_indices(), np.int64)
    cols.plain("rotation", chunk.rotations(), np.int16)
    cols.plain("table", np.full(n, chunk.table, np.int32))
    cols.plain("seed", play_seeds, np.uint64)
    cols.plain("deal_seed", np.repeat(match_seeds, chunk.n_seatings), np.uint64)
    cols.plain("n_players", np.full(n, k, np.int8))
    seats = task.game.max_players
    for s in range(seats):
        cols.label(f"seat_{s}", seat_ent[:, s] if s < k else None)
    cols.plain("games", games, np.int16)
    _seat_columns(cols, "total", totals.astype(np.int16), k, seats)
    cols.int8_lists("match_winners", [np.flatnonzero(w) for w in winners])
    return cols
