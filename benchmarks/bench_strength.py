"""Strength of each built-in heuristic against three ``random`` players, and loop speed.

4-player games on duplicate deals: every deal is played under the balanced seating design of
the table (``tournaments.seating.design``; with three identical ``random`` seats it puts the
heuristic once in every seat), so seat, neighbour and deal luck cancel.
Prints each heuristic's win rate with the reports' 95% interval (``reports.summary``: Wilson's
on the effective number of games, since the games of one deal are correlated; > 25% means
better than a random seat), then how many 4-player games per second the compiled loop plays
with four heuristics at the table (one core).

    python benchmarks/bench_strength.py                 # 5000 deals x 4 seats per heuristic
    python benchmarks/bench_strength.py --deals 500     # quick look
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import pandas as pd

import reports
import strategies
from leaves.players import compiled as C
from tournaments.seating import design


def vs_random(name: str, deals: int, seed: int, n_players: int = 4) -> pd.Series:
    """The summary row of ``name`` against ``n_players - 1`` random seats on duplicate deals:
    games, wins, win_rate and the deal-clustered 95% interval (ci_low, ci_high)."""
    ss = np.random.SeedSequence(seed)
    deal_seeds = ss.generate_state(deals, dtype=np.uint64)
    play_seeds = np.random.SeedSequence([seed, 1]).generate_state(deals, dtype=np.uint64)
    kind, vec = strategies.get(name).compiled()
    rk, rv = strategies.get("random").compiled()
    parts = []
    for seating in design((0,) + (1,) * (n_players - 1)):  # entrant 0: the heuristic
        seat = seating.index(0)
        kinds = np.full(n_players, rk, dtype=np.int64)
        params = np.tile(rv, (n_players, 1))
        kinds[seat] = kind
        params[seat] = vec
        codes = np.ones(n_players, dtype=np.int8)
        codes[seat] = 0
        res = C.play_batch_compiled(kinds, params, deal_seeds, play_seeds)
        parts.append((np.tile(codes, (deals, 1)), *res))
    codes, first, cards, winner, turns, rounds, unfinished = (
        np.concatenate([p[i] for p in parts]) for i in range(7)
    )
    labels = np.array([name, "random"], dtype=object)
    games = pd.DataFrame(  # the runner's row layout, which reports read
        {
            **{f"seat_{s}": labels[codes[:, s]] for s in range(n_players)},
            **{f"cards_left_{s}": cards[:, s] for s in range(n_players)},
            "n_players": n_players,
            "first_player": first,
            "winner_seat": winner,
            "turns": turns,
            "rounds": rounds,
            "unfinished": unfinished,
            "deal": np.tile(np.arange(deals, dtype=np.int64), len(parts)),
        }
    )
    return reports.summary(games).set_index("strategy").loc[name]


def speed(names: list[str], games: int, seed: int) -> float:
    """4-player games per second of the compiled loop with ``names`` at the table."""
    table = [strategies.get(n).compiled() for n in names]
    kinds = np.array([k for k, _ in table], dtype=np.int64)
    params = np.stack([v for _, v in table])
    d = np.random.SeedSequence(seed).generate_state(games, dtype=np.uint64)
    p = np.random.SeedSequence([seed, 2]).generate_state(games, dtype=np.uint64)
    C.play_batch_compiled(kinds, params, d[:10], p[:10])  # compile / load the cache
    t0 = time.perf_counter()
    C.play_batch_compiled(kinds, params, d, p)
    return games / (time.perf_counter() - t0)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=5000, help="deals per heuristic (x4 seats)")
    ap.add_argument("--seed", type=int, default=2025)
    ap.add_argument("--speed-games", type=int, default=200_000)
    args = ap.parse_args()

    names = [n for n in strategies.names() if n != "random" and _builtin(n)]
    rows = sorted(((vs_random(n, args.deals, args.seed), n) for n in names),
                  key=lambda r: (-r[0]["win_rate"], r[1]))  # fmt: skip
    print(f"4 players, heuristic vs 3 x random, {args.deals} duplicate deals x 4 seats")
    print(f"{'strategy':<10} {'games':>7} {'win rate':>9}   95% CI (deal-clustered)")
    for r, n in rows:
        print(
            f"{n:<10} {int(r['games']):>7} {r['win_rate']:>8.1%}   [{r['ci_low']:.1%}, {r['ci_high']:.1%}]"
        )
    table = ["counter", "taker", "weighted", "greedy"]
    gps = speed(table, args.speed_games, args.seed)
    print(f"\ncompiled loop, {'/'.join(table)}: {gps:,.0f} 4-player games/s (one core)")


def _builtin(name: str) -> bool:
    cls = type(strategies.get(name))
    return cls.__module__.startswith("leaves.players.builtin")


if __name__ == "__main__":
    main()
