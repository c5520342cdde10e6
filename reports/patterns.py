"""Games aggregated into finishing patterns: (strategy per seat, finishing rank per seat) -> count.

A run of millions of games holds few distinct patterns (tables x orders), so head-to-head counts
and the Plackett-Luce fit run on this small weighted table instead of on every game. The rank of
a seat is the number of seats that finished strictly ahead of it (a better rank value in the
game's declared direction, e.g. fewer cards left; the winner ahead of all, a forfeiting seat
behind all), so tied seats share a rank.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .data import Games


def _ranks(b: Games) -> np.ndarray:
    """int64 (N, S): how many seats finished strictly ahead of each seat (0 for empty seats)."""
    key = b.ranks_key()
    width = key.shape[1]
    ranks = np.zeros(key.shape, dtype=np.int64)
    for s in range(width):
        for j in range(width):
            if j != s:
                ranks[:, s] += key[:, j] < key[:, s]
    ranks[b.seats < 0] = 0
    return ranks


def finishing_patterns(g: Games) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(tables (U, S) strategy codes with -1 for empty, ranks (U, S) int, weight (U,) counts).

    Cached on the Games object (computed once per run, shared by head_to_head and rating).
    Patterns are packed into one int64 per game when they fit (tables base k + 1, ranks base
    S + 1), else counted as rows (large tables, e.g. 12 seats)."""
    cached = g.cache.get("patterns")
    if cached is not None:
        return cached
    k, width = g.n_strategies, g.seats.shape[1]
    rank_base = width + 1  # ranks 0 .. width - 1
    if (k + 1) ** width * rank_base**width >= 2**62:
        out = _row_patterns(g)
        g.cache["patterns"] = out
        return out
    counts = []
    for b in g.blocks():
        ranks = _ranks(b)
        code = np.zeros(len(b), dtype=np.int64)
        for s in range(width):  # table: strategy code + 1 per seat, base k + 1
            code = code * (k + 1) + (b.seats[:, width - 1 - s].astype(np.int64) + 1)
        for s in range(width):  # ranks, base rank_base
            code = code * rank_base + ranks[:, s]
        counts.append(pd.Series(code).value_counts())
    ev = pd.concat(counts).groupby(level=0).sum() if len(counts) > 1 else counts[0]
    keys = ev.index.to_numpy().astype(np.int64)
    ranks = np.zeros((len(keys), width), dtype=np.int64)
    for s in range(width - 1, -1, -1):
        ranks[:, s] = keys % rank_base
        keys = keys // rank_base
    tables = np.zeros((len(keys), width), dtype=np.int64)
    for s in range(width):
        tables[:, s] = keys % (k + 1) - 1
        keys = keys // (k + 1)
    out = (tables, ranks, ev.to_numpy().astype(np.int64))
    g.cache["patterns"] = out
    return out


def _row_patterns(g: Games) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The same patterns as ``finishing_patterns``, counted as distinct rows of (table, ranks)."""
    width = g.seats.shape[1]
    found: dict[bytes, int] = {}
    rows: dict[bytes, np.ndarray] = {}
    for b in g.blocks():
        both = np.concatenate([b.seats.astype(np.int64), _ranks(b)], axis=1)
        uniq, counts = np.unique(both, axis=0, return_counts=True)
        for row, c in zip(uniq, counts, strict=True):
            key = row.tobytes()
            found[key] = found.get(key, 0) + int(c)
            rows.setdefault(key, row)
    keys = sorted(found)
    table = np.array([rows[key] for key in keys], dtype=np.int64).reshape(-1, 2 * width)
    weight = np.array([found[key] for key in keys], dtype=np.int64)
    return table[:, :width], table[:, width:], weight
