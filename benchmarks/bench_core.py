"""Random-play throughput of the rules core for 3..6 players (compiled kernels and State API).

Usage: python benchmarks/bench_core.py [--games N] [--api-games N] [--repeats N] [--json]

One core; the compiled figure is the best of the repeats (the machine may be shared), the
median is printed next to it. Deal included, compile time excluded.
"""

from __future__ import annotations

import argparse
import json

from leaves.bench import run_bench


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200_000)
    parser.add_argument("--api-games", type=int, default=1_000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true", help="one JSON object per player count")
    args = parser.parse_args()
    rows = []
    for players in range(3, 7):
        r = run_bench(players, args.games, args.seed, args.api_games, args.repeats)
        rows.append(r)
        if args.json:
            print(json.dumps(r), flush=True)
    if args.json:
        return
    print(
        f"{'players':>7} {'compiled games/s':>17} {'(median)':>10} {'turns/s':>12} "
        f"{'API games/s':>12} {'speedup':>8} {'mean turns':>11} {'mean rounds':>12}"
    )
    for r in rows:
        print(
            f"{r['players']:>7} {r['games_per_second']:>17,.0f} "
            f"{r['games_per_second_median']:>10,.0f} {r['turns_per_second']:>12,.0f} "
            f"{r['api_games_per_second']:>12,.0f} {r['speedup']:>7,.0f}x "
            f"{r['mean_turns']:>11.1f} {r['mean_rounds']:>12.2f}"
        )
    r = rows[0]
    print(
        f"numba {r['numba_version']}, numpy {r['numpy_version']}, Python {r['python_version']}, "
        f"{r['cpu'] or r['machine']}, {args.games:,} games x {args.repeats} per count"
    )


if __name__ == "__main__":
    main()
