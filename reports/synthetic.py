"""Synthetic tournament runs in the pinned run-directory layout, for tests, benchmarks and demos.

The model is deliberately simple but has the structure reports must handle: duplicate deals (each
deal played under every seat rotation, consecutive game indices, a shared ``deal`` index), hand
luck that belongs to the seat's cards (so it is the same for every rotation of a deal), a
first-player advantage, a per-strategy ``strength`` that drives winners, ties in cards left,
rare unfinished and forfeited games, and optionally expert matches (to 20 points).
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from tournaments.seating import design

HAND = {3: 12, 4: 11, 5: 10, 6: 9}
SEATS = 6


def _tables(k: int, n: int, rng: np.random.Generator, limit: int | None) -> np.ndarray:
    if k >= n:
        tabs = np.array(list(itertools.combinations(range(k), n)), dtype=np.int64)
    else:  # fewer strategies than seats: every strategy at least once, rest cycled
        tabs = np.array([[i % k for i in range(n)]], dtype=np.int64)
    if limit is not None and len(tabs) > limit:
        tabs = tabs[rng.choice(len(tabs), limit, replace=False)]
    return tabs


def _play(strength, table_codes, first, luck, rng, unfinished_p, forfeit_p):
    """Outcome of games: table_codes (G, n) strategy per seat, first (G,), luck (G, n)."""
    g, n = table_codes.shape
    pos = (np.arange(n)[None, :] - first[:, None]) % n
    score = strength[table_codes] + luck + 0.25 * (pos == 0) + rng.normal(0, 0.6, (g, n))
    best = score.max(axis=1, keepdims=True)
    cards = np.rint(HAND[n] * 0.3 + 2.0 * (best - score) + rng.normal(0, 1, (g, n)))
    cards = np.clip(cards, 1, HAND[n] + 8).astype(np.int16)
    winner = score.argmax(axis=1).astype(np.int8)
    unfinished = rng.random(g) < unfinished_p
    forfeit = np.where(rng.random(g) < forfeit_p, rng.integers(0, n, g), -1).astype(np.int8)
    forfeit[unfinished] = -1
    winner[unfinished | (forfeit >= 0)] = -1
    cards[np.arange(g)[winner >= 0], winner[winner >= 0]] = 0
    turns = rng.poisson(20 * n, g).astype(np.int32) + 5
    turns[unfinished] = 1000
    rounds = np.maximum(1, rng.poisson(turns / 7.0)).astype(np.int32)
    return cards, winner, turns, rounds, unfinished, forfeit


def _frame(labels, tabs_rows, first, outcome: tuple[np.ndarray, ...], extra) -> pd.DataFrame:
    """The rows of games at one table: ``outcome`` = (cards, winner, turns, rounds,
    unfinished, forfeit) as ``_play`` draws them."""
    cards, winner, turns, rounds, unfinished, forfeit = outcome
    g, n = tabs_rows.shape
    cols: dict[str, object] = {}
    lab = np.array(list(labels) + [None], dtype=object)
    full = np.full((g, SEATS), -1, dtype=np.int64)
    full[:, :n] = tabs_rows
    fullc = np.full((g, SEATS), -1, dtype=np.int16)
    fullc[:, :n] = cards
    for s in range(SEATS):
        cols[f"seat_{s}"] = pd.Categorical.from_codes(full[:, s], categories=list(labels))
    for s in range(SEATS):
        cols[f"cards_left_{s}"] = pd.array(np.where(full[:, s] >= 0, fullc[:, s], 0), "Int16")
        cols[f"cards_left_{s}"][full[:, s] < 0] = pd.NA
    wl = np.where(winner >= 0, full[np.arange(g), np.maximum(winner, 0)], len(labels))
    cols.update(
        n_players=np.full(g, n, np.int8),
        first_player=first.astype(np.int8),
        winner_seat=winner.astype(np.int8),
        winner=lab[wl],
        turns=turns,
        rounds=rounds,
        unfinished=unfinished,
        forfeit=forfeit,
    )
    cols.update(extra)
    return pd.DataFrame(cols)


def synthetic_games(
    strengths: Mapping[str, float],
    players: Sequence[int] = (4,),
    deals: int = 50,
    seed: int = 0,
    max_tables: int | None = None,
    unfinished_p: float = 0.002,
    forfeit_p: float = 0.001,
    luck: float = 1.0,
    *,
    seating: str = "rotations",
) -> pd.DataFrame:
    """Games of every table (strategy combination, or up to ``max_tables`` of them) per player
    count: ``deals`` duplicate deals of each table (each table its own cards) each played under
    the table's seatings (``seating``: n seat rotations by default, or any design of
    ``tournaments.seating``), with consecutive game indices, the table's number (``table``)
    and a ``deal`` and ``seed`` shared by the set. Higher strength wins more often."""
    rng = np.random.default_rng(seed)
    labels = list(strengths)
    strength = np.array([strengths[s] for s in labels], dtype=float)
    frames = []
    deal0 = table0 = 0
    for n in players:
        tabs = _tables(len(labels), n, rng, max_tables)
        orders = [np.array(design(t.tolist(), seating), dtype=np.int64) for t in tabs]
        per = np.array([len(o) for o in orders])
        t_idx = np.repeat(np.arange(len(tabs)), deals * per)  # table, deal, seating order
        d_idx = np.concatenate([np.repeat(np.arange(deals), m) for m in per])
        deal_id = deal0 + t_idx * deals + d_idx
        deal0 = int(deal_id.max()) + 1
        n_deals = len(tabs) * deals
        deal_first = rng.integers(0, n, n_deals)
        deal_luck = rng.normal(0, luck, (n_deals, n))
        rows = np.concatenate([np.tile(o, (deals, 1)) for o in orders])
        local = deal_id - deal_id.min()
        first = deal_first[local]
        out = _play(strength, rows, first, deal_luck[local], rng, unfinished_p, forfeit_p)
        extra = {
            "deal": deal_id.astype(np.int64),
            "table": (table0 + t_idx).astype(np.int32),
            "seed": (deal_id * 7919 + seed).astype(np.int64),
        }
        table0 += len(tabs)
        frames.append(_frame(labels, rows, first, out, extra))
    df = pd.concat(frames, ignore_index=True)
    df.insert(0, "game", np.arange(len(df), dtype=np.int64))
    return df


def synthetic_expert(
    strengths: Mapping[str, float],
    players: Sequence[int] = (4,),
    matches: int = 20,
    seed: int = 0,
    target: int = 20,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Expert matches (games until someone's total reaches ``target``; lowest total wins, ties
    shared): returns (games with ``match`` and score_i, matches with games, total_i, won_i)."""
    rng = np.random.default_rng(seed)
    labels = list(strengths)
    strength = np.array([strengths[s] for s in labels], dtype=float)
    gframes, mframes = [], []
    m0 = 0
    for n in players:
        tabs = _tables(len(labels), n, rng, None)
        m_tab = np.repeat(tabs, matches, axis=0)  # (M, n)
        m = len(m_tab)
        totals = np.zeros((m, n), dtype=np.int64)
        played = np.zeros(m, dtype=np.int64)
        alive = np.ones(m, dtype=bool)
        while alive.any():
            idx = np.flatnonzero(alive)
            first = rng.integers(0, n, len(idx))
            out = _play(strength, m_tab[idx], first, rng.normal(0, 1, (len(idx), n)), rng, 0, 0)
            cards = out[0]
            totals[idx] += cards
            played[idx] += 1
            extra = {"match": (m0 + idx).astype(np.int64)}
            for s in range(SEATS):
                extra[f"score_{s}"] = pd.array(
                    cards[:, s] if s < n else np.zeros(len(idx), np.int16), "Int16"
                )
                if s >= n:
                    extra[f"score_{s}"][:] = pd.NA
            gframes.append(_frame(labels, m_tab[idx], first, out, extra))
            alive[idx] = totals[idx].max(axis=1) < target
        mf = {"match": np.arange(m0, m0 + m), "games": played}
        low = totals.min(axis=1, keepdims=True)
        for s in range(SEATS):
            mf[f"total_{s}"] = pd.array(totals[:, s] if s < n else np.zeros(m, int), "Int64")
            mf[f"won_{s}"] = (totals[:, s] == low[:, 0]) if s < n else np.zeros(m, bool)
            if s >= n:
                mf[f"total_{s}"][:] = pd.NA
        mframes.append(pd.DataFrame(mf))
        m0 += m
    games = pd.concat(gframes, ignore_index=True).sort_values("match", kind="stable")
    games = games.reset_index(drop=True)
    games.insert(0, "game", np.arange(len(games), dtype=np.int64))
    return games, pd.concat(mframes, ignore_index=True)


def write_run(
    out: str | Path,
    games: pd.DataFrame,
    matches: pd.DataFrame | None = None,
    manifest: Mapping | None = None,
    part_rows: int = 1_000_000,
) -> Path:
    """Write games (and matches) as Parquet parts plus manifest.json in the run-dir layout."""
    out = Path(out)
    (out / "games").mkdir(parents=True, exist_ok=True)
    for i, start in enumerate(range(0, len(games), part_rows)):
        games.iloc[start : start + part_rows].to_parquet(
            out / "games" / f"part-{i:05d}.parquet", index=False
        )
    if matches is not None:
        (out / "matches").mkdir(exist_ok=True)
        matches.to_parquet(out / "matches" / "part-00000.parquet", index=False)
    labels = sorted({str(v) for s in range(SEATS) for v in games[f"seat_{s}"].dropna().unique()})
    spec = {
        "strategies": labels,
        "players": sorted(int(n) for n in games["n_players"].unique()),
        "games": len(games),
        "seed": 0,
        "expert": matches is not None,
        "versions": {"leaves": "synthetic"},
        "wall_time_s": 0.0,
        "chunks_done": -(-len(games) // part_rows),
    }
    spec.update(manifest or {})
    (out / "manifest.json").write_text(json.dumps(spec, indent=2))
    return out
