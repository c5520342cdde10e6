"""Per-chunk aggregates: small fixed-size arrays that merge by addition.

They let a run of any length report per-strategy results with flat memory and no per-game
rows. Shapes depend only on the tournament spec: S entrants, T tables, table sizes up to the
game's ``max_players`` (``MAX_SEATS`` for 13 Leaves), a length histogram up to the plug-in's
``max_length``. The rank value's direction comes from the game (``higher_is_better``); games
with shared wins count a win for each tied winner in ``wins`` and split it in
``win_share_units`` (``SHARE_UNITS`` per game won: exact integers).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

import numpy as np

from leaves.board import MAX_SEATS

from .game import SeatedBatch, SeatedMatches

__all__ = [
    "MAX_SEATS",
    "SHARE_UNITS",
    "empty",
    "add_batch",
    "add_games",
    "add_matches",
    "merge",
    "save",
    "load",
]

SHARE_UNITS = 27_720  # lcm(1..12): a win shared by m <= 12 players is SHARE_UNITS // m units


def empty(
    n_entrants: int,
    n_tables: int,
    max_length: int,
    game_values: Sequence[str] = (),
    max_seats: int = MAX_SEATS,
    shared_wins: bool = False,
) -> dict[str, np.ndarray]:
    """Zero aggregates. Counts are int64; ``match_win_share`` (ties split) is float64."""
    s, t = n_entrants, n_tables
    sizes = max_seats + 1  # arrays indexed by table size 0..max_seats
    agg = {
        # per entrant (one count per seat taken: an entrant seated twice counts twice)
        "games": np.zeros(s, np.int64),
        "wins": np.zeros(s, np.int64),
        "rank_sum": np.zeros(s, np.int64),  # e.g. cards left, summed
        "forfeits": np.zeros(s, np.int64),
        # head to head: ahead[i, j] games where i finished strictly ahead of j at one table
        "ahead": np.zeros((s, s), np.int64),
        "met": np.zeros((s, s), np.int64),
        # seat offset from the first player: [entrant, table size, offset]
        "offset_games": np.zeros((s, sizes, max_seats), np.int64),
        "offset_wins": np.zeros((s, sizes, max_seats), np.int64),
        # neighbours: [i, j] games where j sat directly before i (i acts right after j)
        "after_games": np.zeros((s, s), np.int64),
        "after_wins": np.zeros((s, s), np.int64),
        # per table of the schedule, wins by position in the base table
        "table_games": np.zeros(t, np.int64),
        "table_wins": np.zeros((t, max_seats), np.int64),
        # per table size
        "size_games": np.zeros(sizes, np.int64),
        "size_no_winner": np.zeros(sizes, np.int64),
        "size_forfeits": np.zeros(sizes, np.int64),
        "length_sum": np.zeros(sizes, np.int64),
        "length_sq_sum": np.zeros(sizes, np.int64),
        "length_hist": np.zeros((sizes, max_length + 1), np.int64),
        # expert matches
        "matches": np.zeros(s, np.int64),
        "match_wins": np.zeros(s, np.int64),
        "match_win_share": np.zeros(s, np.float64),
        "match_points": np.zeros(s, np.int64),
        "match_games_sum": np.zeros(sizes, np.int64),
        "size_matches": np.zeros(sizes, np.int64),
    }
    if shared_wins:
        agg["win_share_units"] = np.zeros(s, np.int64)
    for name in game_values:
        agg[f"value_sum:{name}"] = np.zeros(sizes, np.int64)
    return agg


def add_batch(
    agg: dict[str, np.ndarray],
    table: int,
    rotation: int | Sequence[int],
    entrants: Sequence[int],
    batch: SeatedBatch,
    rank_value: str,
    length_value: str,
    higher_is_better: bool = False,
) -> None:
    """Add games played at one seating (``entrants[s]`` in seat ``s``) into ``agg``.

    ``rotation`` gives each seat's position in the base table: a sequence (seat ``s`` holds
    base position ``rotation[s]``) or an int ``r`` (seat ``s`` holds ``(s + r) % k``).
    """
    g, k = len(batch), len(entrants)
    if isinstance(rotation, int | np.integer):
        positions = [(s + int(rotation)) % k for s in range(k)]
    else:
        positions = [int(p) for p in rotation]
    seat_ent = np.broadcast_to(np.asarray(entrants, dtype=np.int64), (g, k))
    seat_pos = np.broadcast_to(np.asarray(positions, dtype=np.int64), (g, k))
    add_games(agg, table, seat_ent, seat_pos, batch, rank_value, length_value, higher_is_better)


def _count(agg: dict[str, np.ndarray], key: str, index: np.ndarray, weights=None) -> None:
    """``agg[key].flat[index] += weights`` (1 each without weights), as exact integers."""
    target = agg[key]
    idx = np.asarray(index).reshape(-1)
    if weights is None:
        counts = np.bincount(idx, minlength=target.size)
    else:
        w = np.asarray(weights, dtype=np.int64).reshape(-1)
        if int(np.abs(w).sum()) < 2**53:  # float sums of such integers are exact
            counts = np.rint(np.bincount(idx, weights=w, minlength=target.size)).astype(np.int64)
        else:
            counts = np.zeros(target.size, np.int64)
            np.add.at(counts, idx, w)
    target += counts.reshape(target.shape)


def add_games(
    agg: dict[str, np.ndarray],
    table: int,
    seat_ent: np.ndarray,
    seat_pos: np.ndarray,
    batch: SeatedBatch,
    rank_value: str,
    length_value: str,
    higher_is_better: bool = False,
) -> None:
    """Add G games of one table of the schedule, each under its own seating, into ``agg``.

    ``seat_ent[i, s]`` is the entrant in seat ``s`` of game ``i`` and ``seat_pos[i, s]`` its
    position in the base table. Every count is an integer sum over games, so adding a chunk
    at once or seating by seating gives the same aggregates.
    """
    g = len(batch)
    if g == 0:
        return
    k = seat_ent.shape[1]
    s_count = agg["games"].shape[0]
    ent = np.asarray(seat_ent, dtype=np.int64)
    winner = batch.winner_seat.astype(np.int64)
    rank = batch.seat_values[rank_value].astype(np.int64)
    ahead_key = -rank if higher_is_better else rank  # smaller key finishes ahead
    rows = np.arange(g)

    _count(agg, "games", ent)
    if batch.winners is not None:  # shared wins: every tied winner counts
        won = batch.winners.astype(bool)
        has_winner = won.any(axis=1)
        # a win shared by m players is SHARE_UNITS // m units each: exact integers, so the
        # sum never depends on the order chunks are merged in
        units = won * (SHARE_UNITS // np.maximum(won.sum(axis=1), 1))[:, None]
        if "win_share_units" in agg:
            _count(agg, "win_share_units", ent, units)
    else:
        has_winner = winner >= 0
        won = np.zeros((g, k), bool)
        won[rows[has_winner], winner[has_winner]] = True
    _count(agg, "wins", ent[won])
    _count(agg, "rank_sum", ent, rank)
    forfeit = batch.forfeit_seat.astype(np.int64)
    lost = forfeit >= 0
    _count(agg, "forfeits", ent[rows[lost], forfeit[lost]])

    i, j = np.nonzero(~np.eye(k, dtype=bool))  # every ordered pair of seats
    pair = ent[:, i] * s_count + ent[:, j]
    _count(agg, "ahead", pair[ahead_key[:, i] < ahead_key[:, j]])
    _count(agg, "met", pair)

    # seat offset from the first player, per seat (games that have one)
    if batch.first_player is not None:
        first = batch.first_player.astype(np.int64)
        sizes, width = agg["offset_games"].shape[1:]
        off = (np.arange(k)[None, :] - first[:, None]) % k
        cell = (ent * sizes + k) * width + off
        _count(agg, "offset_games", cell)
        _count(agg, "offset_wins", cell[won])

    before = np.roll(ent, 1, axis=1)  # the entrant in the seat before each seat
    _count(agg, "after_games", ent * s_count + before)
    _count(agg, "after_wins", (ent * s_count + before)[won])

    agg["table_games"][table] += g
    width = agg["table_wins"].shape[1]
    _count(agg, "table_wins", table * width + np.asarray(seat_pos, dtype=np.int64)[won])

    agg["size_games"][k] += g
    agg["size_no_winner"][k] += int(np.count_nonzero(~has_winner))
    agg["size_forfeits"][k] += int(np.count_nonzero(lost))
    length = batch.game_values[length_value].astype(np.int64)
    agg["length_sum"][k] += int(length.sum())
    agg["length_sq_sum"][k] += int((length * length).sum())
    hist = agg["length_hist"]
    agg["length_hist"][k] += np.bincount(
        np.minimum(length, hist.shape[1] - 1), minlength=hist.shape[1]
    )
    for name, values in batch.game_values.items():
        key = f"value_sum:{name}"
        if key in agg:
            agg[key][k] += int(values.astype(np.int64).sum())


def add_matches(
    agg: dict[str, np.ndarray], entrants: Sequence[int], matches: SeatedMatches
) -> None:
    """Add per-match outcomes at one seating into ``agg`` (games are added by ``add_batch``)."""
    m = int(matches.match_games.shape[0])
    if m == 0:
        return
    k = len(entrants)
    ent = np.asarray(entrants, dtype=np.int64)
    winners = matches.match_winners.astype(bool)
    n_winners = winners.sum(axis=1)
    np.add.at(agg["matches"], ent, m)
    np.add.at(agg["match_wins"], ent, winners.sum(axis=0))
    share = (winners / np.maximum(n_winners, 1)[:, None]).sum(axis=0)
    np.add.at(agg["match_win_share"], ent, share)
    np.add.at(agg["match_points"], ent, matches.match_totals.astype(np.int64).sum(axis=0))
    agg["match_games_sum"][k] += int(matches.match_games.astype(np.int64).sum())
    agg["size_matches"][k] += m


def merge(aggs: Iterable[Mapping[str, np.ndarray]]) -> dict[str, np.ndarray] | None:
    """Elementwise sum of aggregates (None for none)."""
    total: dict[str, np.ndarray] | None = None
    for agg in aggs:
        if total is None:
            total = {k: np.array(v, copy=True) for k, v in agg.items()}
        else:
            for key, value in agg.items():
                total[key] += value
    return total


def save(path, agg: Mapping[str, np.ndarray], **extra: np.ndarray) -> None:
    """Write aggregates (and extra arrays) to an open binary file or path as ``.npz``."""
    np.savez_compressed(path, **agg, **{f"extra:{k}": v for k, v in extra.items()})


def load(path) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray]]:
    """(aggregates, extras) from a ``.npz`` written by ``save``."""
    with np.load(path, allow_pickle=False) as data:
        agg = {k: data[k] for k in data.files if not k.startswith("extra:")}
        extra = {k[6:]: data[k] for k in data.files if k.startswith("extra:")}
    return agg, extra
