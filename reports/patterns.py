"""Games aggregated into finishing patterns: (strategy per seat, finishing rank per seat) -> count.

A run of millions of games holds few distinct patterns (tables x orders), so head-to-head counts
and the Plackett-Luce fit run on this small weighted table instead of on every game. The rank of
a seat is the number of seats that finished strictly ahead of it (fewer cards left; the winner
ahead of all, a forfeiting seat behind all), so tied seats share a rank.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .data import Games, ReportError

RANK_BASE = 7  # ranks 0..5 (and 0 for empty seats) in base 7


def finishing_patterns(g: Games) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(tables (U, S) strategy codes with -1 for empty, ranks (U, S) int, weight (U,) counts).

    Cached on the Games object (computed once per run, shared by head_to_head and rating)."""
    cached = g.cache.get("patterns")
    if cached is not None:
        return cached
    k, width = g.n_strategies, g.seats.shape[1]
    if (k + 1) ** width * RANK_BASE**width >= 2**62:
        raise ReportError(f"too many strategies ({k}) for the finishing-pattern encoding")
    counts = []
    for b in g.blocks():
        key = b.ranks_key()
        code = np.zeros(len(b), dtype=np.int64)
        for s in range(width):  # table: strategy code + 1 per seat, base k + 1
            code = code * (k + 1) + (b.seats[:, width - 1 - s].astype(np.int64) + 1)
        for s in range(width):  # ranks, base RANK_BASE
            ahead = np.zeros(len(b), dtype=np.int64)
            for j in range(width):
                if j != s:
                    ahead += key[:, j] < key[:, s]
            ahead[b.seats[:, s] < 0] = 0
            code = code * RANK_BASE + ahead
        counts.append(pd.Series(code).value_counts())
    ev = pd.concat(counts).groupby(level=0).sum() if len(counts) > 1 else counts[0]
    keys = ev.index.to_numpy().astype(np.int64)
    ranks = np.zeros((len(keys), width), dtype=np.int64)
    for s in range(width - 1, -1, -1):
        ranks[:, s] = keys % RANK_BASE
        keys = keys // RANK_BASE
    tables = np.zeros((len(keys), width), dtype=np.int64)
    for s in range(width):
        tables[:, s] = keys % (k + 1) - 1
        keys = keys // (k + 1)
    out = (tables, ranks, ev.to_numpy().astype(np.int64))
    g.cache["patterns"] = out
    return out
