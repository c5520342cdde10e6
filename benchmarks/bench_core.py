"""Random-play throughput of the rules core for 3..6 players (compiled kernels and State API),
or with ``--policies`` the cost per turn of compiled policies.

Usage: python benchmarks/bench_core.py [--games N] [--api-games N] [--repeats N] [--json]
       python benchmarks/bench_core.py --policies counter,weighted,greedy,low [--games N]

One core; the compiled figure is the best of the repeats (the machine may be shared), the
median is printed next to it. Deal included, compile time excluded.

``--policies``: each policy plays all four seats of the same ``--games`` deals through the
games loop a tournament runs (the C engine when built, else numba's JIT); ns per
turn of CPU time (min, median, max of the repeats) and a digest of the games played, so two
builds compared on the same seed can be checked to play the very same games. To compare two
versions of the code, run both alternately, several times, on the same seed.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import time

import numpy as np

from leaves.bench import run_bench


def policy_costs(names: list[str], games: int, seed: int, repeats: int) -> list[dict]:
    """ns per turn (CPU time) of each policy in ``names`` playing every seat of a 4-player
    table, over the same ``games`` deals."""
    import strategies

    deal = np.arange(games, dtype=np.uint64) * np.uint64(7919) + np.uint64(seed + 1)
    play = deal + np.uint64(104729)
    rows = []
    for name in names:
        table = [name] * 4
        strategies.play_batch(table, deal[:10], play[:10])  # compile or load
        ns = []
        for _ in range(repeats):
            t0 = time.process_time()
            res = strategies.play_batch(table, deal, play)
            turns = int(np.asarray(res.turns).sum())
            ns.append(1e9 * (time.process_time() - t0) / turns)
        digest = hashlib.sha256()
        for a in (res.turns, res.winner_seat, res.cards_left):
            digest.update(np.ascontiguousarray(a).tobytes())
        ns.sort()
        rows.append(
            {
                "policy": name,
                "games": games,
                "turns": turns,
                "ns_per_turn_min": round(ns[0], 1),
                "ns_per_turn_median": round(ns[len(ns) // 2], 1),
                "ns_per_turn_max": round(ns[-1], 1),
                "games_digest": digest.hexdigest()[:16],
            }
        )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200_000)
    parser.add_argument("--api-games", type=int, default=1_000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true", help="one JSON object per player count")
    parser.add_argument(
        "--policies", help="comma-separated built-ins: ns per turn of each instead (4 players)"
    )
    args = parser.parse_args()
    if args.policies:
        for r in policy_costs(args.policies.split(","), args.games, args.seed, args.repeats):
            if args.json:
                print(json.dumps(r), flush=True)
            else:
                print(
                    f"{r['policy']:>10} ns/turn min {r['ns_per_turn_min']:7.1f} median "
                    f"{r['ns_per_turn_median']:7.1f} max {r['ns_per_turn_max']:7.1f}  "
                    f"({r['turns']:,} turns, games {r['games_digest']})",
                    flush=True,
                )
        return
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
