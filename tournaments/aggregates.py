"""Per-chunk aggregates: small fixed-size arrays that merge by addition.

They let a run of any length report per-strategy results with flat memory and no per-game
rows. Shapes depend only on the tournament spec: S entrants, T tables, table sizes up to the
game's ``max_players``, a length histogram up to the plug-in's
``max_length``. The rank value's direction comes from the game (``higher_is_better``); games
with shared wins count a win for each tied winner in ``wins`` and split it in
``win_share_units`` (``SHARE_UNITS`` per game won: exact integers). Per-match counts are
added by ``match_aggregates``; the counts by declared limit are named in ``limit_counts``.
"""

from __future__ import annotations

import io
import math
import struct
import zipfile
import zlib
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from .declaration import MAX_SEATS
from .limit_counts import limit_key, limit_keys, limit_of_key, limit_tests, unfinished_by_limit
from .match_aggregates import SHARE_DENOMINATOR, add_matches, stopped_at_cap

if TYPE_CHECKING:
    from .game import SeatedBatch

__all__ = ["SHARE_UNITS", "empty", "limit_tests", "unfinished_by_limit", "add_batch",
           "add_games", "add_sets", "add_matches", "merge", "save", "npy_bytes", "zip_bytes",
           "load", "stopped_at_cap", "unfinished_games"]  # fmt: skip

# 27,720: a win shared by m seats is SHARE_UNITS // m
SHARE_UNITS = math.lcm(*range(1, MAX_SEATS + 1))


def empty(
    n_entrants: int,
    n_tables: int,
    max_length: int,
    game_values: Sequence[str] = (),
    *,
    max_seats: int,
    shared_wins: bool = False,
    limits: Sequence[tuple[str, int]] = (),
) -> dict[str, np.ndarray]:
    """Zero aggregates. Counts are int64; ``match_win_share`` (ties split) is float64.
    ``limits``: the game's declared limit tests (``limit_tests``), each counted per table size
    under a name that says it (``unfinished_by_limit`` reads them)."""
    s, t = n_entrants, n_tables
    sizes = max_seats + 1  # arrays indexed by table size 0..max_seats
    agg = {
        # per entrant (one count per seat taken: an entrant seated twice counts twice)
        "games": np.zeros(s, np.int64),
        "wins": np.zeros(s, np.int64),
        "rank_sum": np.zeros(s, np.int64),  # e.g. cards left, summed
        "forfeits": np.zeros(s, np.int64),
        # the same over the games not ended by a forfeit (whose values measure no play)
        "valid_games": np.zeros(s, np.int64),
        "valid_rank_sum": np.zeros(s, np.int64),
        # head to head: ahead[i, j] games where i finished strictly ahead of j at one table
        "ahead": np.zeros((s, s), np.int64),
        "met": np.zeros((s, s), np.int64),
        # the same over the games not ended by a forfeit (a forfeiting seat is last by rule,
        # not by play): what head to head counts; runs of an earlier version have neither
        "valid_ahead": np.zeros((s, s), np.int64),
        "valid_met": np.zeros((s, s), np.int64),
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
        # games stopped unfinished at one of the game's limits (not by a forfeit), and of
        # them those that still have a winner (a stopped game scored as it stood); runs
        # written before these counts have neither (``merge`` keeps no count some parts lack)
        "size_unfinished": np.zeros(sizes, np.int64),
        "size_unfinished_won": np.zeros(sizes, np.int64),
        "length_sum": np.zeros(sizes, np.int64),
        "length_sq_sum": np.zeros(sizes, np.int64),
        "length_hist": np.zeros((sizes, max_length + 1), np.int64),
        # expert matches (``add_matches`` adds, per table size, "size_forfeited_matches":
        # those that held a forfeited game; to a target, "size_capped": those stopped at the
        # cap on games before anyone reached the target)
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
    for i, (column, least) in enumerate(limits):
        agg[limit_key(i, column, least)] = np.zeros(sizes, np.int64)
    return agg


def add_batch(agg: dict[str, np.ndarray], table: int, rotation: int | Sequence[int],
              entrants: Sequence[int], batch: SeatedBatch, rank_value: str, length_value: str,
              higher_is_better: bool = False) -> None:  # fmt: skip
    """Add games played at one seating (``entrants[s]`` in seat ``s``) into ``agg``.

    ``rotation`` gives each seat's position in the base table: a sequence (seat ``s`` holds
    base position ``rotation[s]``) or an int ``r`` (seat ``s`` holds ``(s + r) % k``).
    """
    k = len(entrants)
    if isinstance(rotation, int | np.integer):
        positions = [(s + int(rotation)) % k for s in range(k)]
    else:
        positions = [int(p) for p in rotation]
    add_sets(agg, table, [list(entrants)], [positions], batch, rank_value, length_value,
             higher_is_better)  # fmt: skip


def add_games(agg: dict[str, np.ndarray], table: int, seat_ent: np.ndarray, seat_pos: np.ndarray,
              batch: SeatedBatch, rank_value: str, length_value: str,
              higher_is_better: bool = False) -> None:  # fmt: skip
    """Add G games of one table of the schedule, each under its own seating, into ``agg``.

    ``seat_ent[i, s]`` is the entrant in seat ``s`` of game ``i`` and ``seat_pos[i, s]`` its
    position in the base table (``add_sets`` is the fast way for whole duplicate sets).
    """
    add_sets(agg, table, seat_ent, seat_pos, batch, rank_value, length_value, higher_is_better)


def _count(agg: dict[str, np.ndarray], key: str, index: np.ndarray, weights: Any = None) -> None:
    """``agg[key].flat[index] += weights`` (1 each without weights; ``weights`` broadcasts
    to ``index``), as exact integers."""
    target = agg[key]
    idx = np.asarray(index).reshape(-1)
    if weights is None:
        counts = np.bincount(idx, minlength=target.size)
    else:
        w = np.broadcast_to(np.asarray(weights, dtype=np.int64), np.shape(index)).reshape(-1)
        if int(np.abs(w).sum()) < 2**53:  # float sums of such integers are exact
            counts = np.rint(np.bincount(idx, weights=w, minlength=target.size)).astype(np.int64)
        else:
            counts = np.zeros(target.size, np.int64)
            np.add.at(counts, idx, w)
    target += counts.reshape(target.shape)


class _Sets:
    """A chunk's G games of one table as ``deals`` duplicate sets of ``n`` seatings (game ``i``
    under seating ``i % n``), and the two ways its per-game values are summed per seating."""

    def __init__(self, g: int, n: int):
        if g % n:
            raise ValueError(f"{g} games are not whole sets of {n} seatings")
        self.n, self.deals = n, g // n
        self.set_of_game = np.tile(np.arange(n, dtype=np.int64), self.deals)

    def per_set(self, rows: list[np.ndarray] | np.ndarray) -> np.ndarray:
        """Rows of G per-game values summed over the games of each seating: (n, rows)."""
        a = np.asarray(rows)
        a = a.view(np.uint8) if a.dtype == np.bool_ else a  # einsum sums no bools
        return np.einsum("rdn->nr", a.reshape(len(a), self.deals, self.n), dtype=np.int64)

    def per_seat(self, code: np.ndarray, width: int) -> np.ndarray:
        """Games counted by (seating, ``code`` in 0..width-1): (n, width), one pass."""
        key = self.set_of_game * width + code
        return np.bincount(key, minlength=self.n * width).reshape(self.n, width)


def add_sets(
    agg: dict[str, np.ndarray],
    table: int,
    seat_table: Sequence[Sequence[int]] | np.ndarray,
    pos_table: Sequence[Sequence[int]] | np.ndarray,
    batch: SeatedBatch,
    rank_value: str,
    length_value: str,
    higher_is_better: bool = False,
) -> None:
    """Add G games of one table of the schedule into ``agg``: game ``i`` is played under
    seating ``i % n`` of the ``n`` rows of ``seat_table`` (a chunk's duplicate sets, deal by
    deal; ``n = G`` gives every game its own seating).

    ``seat_table[r, s]`` is the entrant in seat ``s`` under seating ``r`` and
    ``pos_table[r, s]`` its position in the base table. Outcomes are first summed per seating
    (a reshape and a sum, or one ``bincount`` of (seating, seat) codes), then credited to
    entrants: every count is an integer sum over games, so adding a chunk at once or seating
    by seating gives the same aggregates. Per-game values are kept seat by seat, one
    contiguous row of G games each: numpy's elementwise work on (G, k) arrays with k <= 6 is
    several times slower.
    """
    g = len(batch)
    if g == 0:
        return
    ent = np.asarray(seat_table, dtype=np.int64)
    pos = np.asarray(pos_table, dtype=np.int64)
    sets = _Sets(g, ent.shape[0])
    won, wins, has_winner = _wins(agg, ent, batch, sets)
    rank = np.ascontiguousarray(batch.seat_values[rank_value].T)  # its own dtype: compared
    lost = batch.forfeit_seat >= 0
    _count(agg, "games", ent, sets.deals)
    _count(agg, "wins", ent, wins)
    rank_sums = sets.per_set(rank)
    _count(agg, "rank_sum", ent, rank_sums)
    valid_games, valid_sums = np.full_like(rank_sums, sets.deals), rank_sums
    if lost.any():
        forfeit = batch.forfeit_seat.astype(np.int64)
        _count(agg, "forfeits", ent, sets.per_seat(forfeit + 1, ent.shape[1] + 1)[:, 1:])
        kept = np.broadcast_to(~lost, rank.shape)
        valid_games, valid_sums = sets.per_set(kept), sets.per_set(np.where(kept, rank, 0))
    if "valid_games" in agg:  # aggregates of an earlier version's chunks have none
        _count(agg, "valid_games", ent, valid_games)
        _count(agg, "valid_rank_sum", ent, valid_sums)
    _add_ahead(agg, ent, rank, sets, higher_is_better, lost)
    if batch.first_player is not None:
        _add_offsets(agg, ent, batch, won, sets)
    s_count = agg["games"].shape[0]
    after = ent * s_count + np.roll(ent, 1, axis=1)  # j sat directly before i
    _count(agg, "after_games", after, sets.deals)
    _count(agg, "after_wins", after, wins)
    agg["table_games"][table] += g
    _count(agg, "table_wins", table * agg["table_wins"].shape[1] + pos, wins)
    _add_size_totals(agg, ent.shape[1], batch, has_winner, lost, length_value)


def _wins(
    agg: dict[str, np.ndarray], ent: np.ndarray, batch: SeatedBatch, sets: _Sets
) -> tuple[np.ndarray | None, np.ndarray, np.ndarray]:
    """(won (k, G) for shared wins else None, wins per (seating, seat), has_winner (G,)); a
    game's shared win also adds its exact integer share units."""
    if batch.winners is None:  # one winner or none (-1, counted in column 0 and dropped)
        winner = batch.winner_seat.astype(np.int64)
        return None, sets.per_seat(winner + 1, ent.shape[1] + 1)[:, 1:], winner >= 0
    won = np.ascontiguousarray(batch.winners.T, dtype=bool)  # every tied winner counts
    if "win_share_units" in agg:
        # a win shared by m players is SHARE_UNITS // m units each: exact integers, so the
        # sum never depends on the order chunks are merged in
        share = SHARE_UNITS // np.maximum(won.sum(axis=0), 1)
        _count(agg, "win_share_units", ent, sets.per_set(won * share))
    return won, sets.per_set(won), won.any(axis=0)


def _add_ahead(agg: dict[str, np.ndarray], ent: np.ndarray, rank: np.ndarray, sets: _Sets,
               higher: bool, lost: np.ndarray) -> None:  # fmt: skip
    """Head to head: every ordered pair of seats (s, t), s finishing strictly ahead of t, over
    every game (``ahead``, ``met``) and over the games not ``lost`` to a forfeit
    (``valid_ahead``, ``valid_met``)."""
    k, g = rank.shape
    ahead_of = np.greater if higher else np.less  # s finishes ahead of t
    s_of, t_of = np.nonzero(~np.eye(k, dtype=bool))
    pair = ent[:, s_of] * agg["games"].shape[0] + ent[:, t_of]  # (n, pairs)
    cmp = ahead_of(rank[:, None], rank[None, :]).reshape(k * k, g)
    ahead = sets.per_set(cmp)[:, s_of * k + t_of]
    _count(agg, "ahead", pair, ahead)
    _count(agg, "met", pair, sets.deals)
    if "valid_met" not in agg:  # aggregates of an earlier version's chunks have none
        return
    met: Any = sets.deals
    if lost.any():
        kept = ~lost
        ahead = sets.per_set(cmp & kept)[:, s_of * k + t_of]
        met = sets.per_set(kept[None, :])  # (n, 1): each seating's games kept
    _count(agg, "valid_ahead", pair, ahead)
    _count(agg, "valid_met", pair, met)


def _add_offsets(
    agg: dict[str, np.ndarray],
    ent: np.ndarray,
    batch: SeatedBatch,
    won: np.ndarray | None,
    sets: _Sets,
) -> None:
    """Games and wins by seat offset from the first player, per seat."""
    n, k = ent.shape
    first = batch.first_player.astype(np.int64)
    sizes, width = agg["offset_games"].shape[1:]
    seats = np.arange(k)
    off = (seats[None, :] - seats[:, None]) % k  # [first seat, seat]
    cell = (ent[:, None, :] * sizes + k) * width + off  # (n, first seat, seat)
    _count(agg, "offset_games", cell, sets.per_seat(first, k)[:, :, None])
    if won is None:  # by (first seat, winner seat + 1) in one pass
        winner = batch.winner_seat.astype(np.int64)
        both = sets.per_seat(first * (k + 1) + winner + 1, k * (k + 1))
        both = both.reshape(n, k, k + 1)[:, :, 1:]
    else:
        starts = [first == f for f in range(k)]  # (first seat, G)
        both = sets.per_set([starts[f] & won[s] for f in range(k) for s in range(k)])
    _count(agg, "offset_wins", cell, both.reshape(n, k, k))


def _add_size_totals(
    agg: dict[str, np.ndarray],
    k: int,
    batch: SeatedBatch,
    has_winner: np.ndarray,
    lost: np.ndarray,
    length_value: str,
) -> None:
    """Per table size: games, games without a winner, forfeits, games stopped unfinished
    (and of them those won), lengths, declared sums."""
    agg["size_games"][k] += len(batch)
    agg["size_no_winner"][k] += int(np.count_nonzero(~has_winner))
    agg["size_forfeits"][k] += int(np.count_nonzero(lost))
    stopped = unfinished_games(batch.game_values.get("unfinished"), has_winner, lost)
    agg["size_unfinished"][k] += int(np.count_nonzero(stopped))
    agg["size_unfinished_won"][k] += int(np.count_nonzero(stopped & has_winner))
    for key in limit_keys(agg):  # a game counts at the first limit its column reached
        _, column, least = limit_of_key(key)
        hit = stopped & (np.asarray(batch.game_values[column]) >= least)
        agg[key][k] += int(np.count_nonzero(hit))
        stopped = stopped & ~hit
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


def unfinished_games(own: Any, won: np.ndarray, lost: np.ndarray) -> np.ndarray:
    """The games stopped unfinished at one of the game's limits, not by a forfeit: where the
    game says so (its own ``unfinished`` column, ``own``, where it has one), else where no seat
    won (``won``: some seat won each game; in a game with shared wins a tied win is a win,
    though its ``winner_seat`` is -1). The one rule of the runner's counts and the reports'."""
    stopped = ~np.asarray(won, bool) if own is None else np.asarray(own, bool)
    return stopped & ~np.asarray(lost, bool)


def merge(aggs: Iterable[Mapping[str, np.ndarray]]) -> dict[str, np.ndarray] | None:
    """Elementwise sum of aggregates (None for none); the split match wins exact
    (``SHARE_DENOMINATOR``), whatever the order and grouping of the parts. An array some
    parts lack (a count added after a run's first chunks were written) is left out: a sum over
    some parts is no count of the run."""
    total: dict[str, np.ndarray] | None = None
    for agg in aggs:
        if total is None:
            total = {k: np.array(v, copy=True) for k, v in agg.items()}
        else:
            total = {key: value for key, value in total.items() if key in agg}
            for key in total:
                total[key] += agg[key]
    if total is not None and "match_win_share" in total:
        share = total["match_win_share"]
        total["match_win_share"] = np.round(share * SHARE_DENOMINATOR) / SHARE_DENOMINATOR
    return total


def save(path, agg: Mapping[str, np.ndarray], **extra: np.ndarray) -> None:
    """Write aggregates (and extra arrays) to an open binary file or path as ``.npz``.

    The file is what ``np.savez_compressed`` writes (a ZIP of deflated ``.npy`` members, read
    back by ``np.load`` or any ZIP reader), made in a tenth of the time: every chunk of a run
    writes one, and numpy's and ``zipfile``'s writers spend most of their time on each
    member's headers.
    """
    arrays = {**agg, **{f"extra:{k}": v for k, v in extra.items()}}
    data = zip_bytes({f"{name}.npy": npy_bytes(value) for name, value in arrays.items()})
    if hasattr(path, "write"):
        path.write(data)
    else:
        with open(path, "wb") as f:
            f.write(data)


_ZIP_LOCAL = struct.Struct("<4s5H3L2H")
_ZIP_CENTRAL = struct.Struct("<4s6H3L5H2L")
_ZIP_END = struct.Struct("<4s4H2LH")
_ZIP_DATE = (0 << 9) | (1 << 5) | 1  # 1980-01-01 (MS-DOS date), time 00:00: no clock in files
_ZIP_LIMIT = 0xFFFFFFFF  # beyond this (or 65,535 members) a ZIP needs ZIP64 records


def zip_bytes(members: Mapping[str, bytes], level: int = 1) -> bytes:
    """A ZIP archive of ``members`` (name -> content), each deflated at ``level``, without
    ZIP64 records (``zipfile`` writes those for a larger archive)."""
    if len(members) >= 0xFFFF or sum(len(m) for m in members.values()) >= _ZIP_LIMIT:
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED, compresslevel=level) as z:
            for name, content in members.items():
                info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
                z.writestr(info, content, zipfile.ZIP_DEFLATED, level)
        return buf.getvalue()
    parts: list[bytes] = []
    central: list[bytes] = []
    offset = 0
    for name, content in members.items():
        encoded = name.encode()
        packed = zlib.compress(content, level, -15)  # raw deflate, as ZIP holds it
        flags = 0 if name.isascii() else 0x800  # bit 11: the name is UTF-8
        # version 2.0 needed, flags, deflated, time and date, checksum, sizes, name length
        common = (20, flags, 8, 0, _ZIP_DATE, zlib.crc32(content), len(packed), len(content))
        common += (len(encoded),)
        parts += [_ZIP_LOCAL.pack(b"PK\x03\x04", *common, 0), encoded, packed]
        # made by version 2.0; no extra field, comment, disk or attributes; rw-------; offset
        entry = _ZIP_CENTRAL.pack(b"PK\x01\x02", 20, *common, 0, 0, 0, 0, 0o600 << 16, offset)
        central.append(entry + encoded)
        offset += _ZIP_LOCAL.size + len(encoded) + len(packed)
    directory = b"".join(central)
    n = len(central)
    end = _ZIP_END.pack(b"PK\x05\x06", 0, 0, n, n, len(directory), offset, 0)
    return b"".join([*parts, directory, end])


def npy_bytes(value: np.ndarray) -> bytes:
    """``value`` in the ``.npy`` format, version 1.0: the bytes ``np.save`` writes."""
    arr = np.asarray(value)
    if arr.dtype.hasobject:
        raise ValueError("aggregates hold no Python objects")
    descr = np.lib.format.dtype_to_descr(arr.dtype)
    header = f"{{'descr': {descr!r}, 'fortran_order': False, 'shape': {arr.shape!r}, }}"
    header += " " * (-(len(header) + 11) % 64) + "\n"  # the whole preamble: 64-byte aligned
    preamble = b"\x93NUMPY\x01\x00" + len(header).to_bytes(2, "little")
    return preamble + header.encode("latin1") + arr.tobytes()


def load(path) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray]]:
    """(aggregates, extras) from a ``.npz`` written by ``save``."""
    with np.load(path, allow_pickle=False) as data:
        agg = {k: data[k] for k in data.files if not k.startswith("extra:")}
        extra = {k[6:]: data[k] for k in data.files if k.startswith("extra:")}
    return agg, extra
