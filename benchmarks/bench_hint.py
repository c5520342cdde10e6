"""How long a hint takes in ``leaves play`` (``h``): one search decision and weighted's reasons.

Deals ``--games`` games of ``--players`` players played by ``weighted`` and, at every
``--every``-th decision of seat 0 with more than one legal move, times ``leaves.commands.hint.hint``
on that seat's view (what a player asking for a hint at that moment waits for). Prints the
first hint's time (which includes loading the search on a warm cache, or compiling it on an
empty one), then the median and the largest of the others, in milliseconds.

    python benchmarks/bench_hint.py                      # 10 positions
    python benchmarks/bench_hint.py --games 4 --every 2  # more positions
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np


def positions(games: int, players: int, every: int, seed: int) -> list:
    """Views of seat 0 with a choice to make, from games ``weighted`` plays in every seat."""
    import leaves
    import strategies

    bot = strategies.get("weighted")
    rng = np.random.default_rng(seed)
    views = []
    for g in range(games):
        state = leaves.new_game(players, seed=seed + g)
        turn = 0
        while not state.is_terminal:
            view = state.view(state.current_player)
            legal = state.legal_actions()
            if state.current_player == 0 and len(legal) > 1:
                if turn % every == 0:
                    views.append(view)
                turn += 1
            state = state.apply(bot.choose(view, legal, rng))
    return views


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--every", type=int, default=3, help="time every N-th choice of seat 0")
    parser.add_argument("--limit", type=int, default=10, help="at most this many positions")
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args()
    from leaves.commands.hint import hint

    views = positions(args.games, args.players, args.every, args.seed)[: args.limit]
    rng = np.random.default_rng(args.seed)
    times = []
    for view in views:
        t0 = time.perf_counter()
        hint(view, rng)
        times.append(1000 * (time.perf_counter() - t0))
    rest = times[1:] or times
    print(f"{len(times)} hints, {args.players} players, seed {args.seed}")
    print(f"first hint: {times[0]:.0f} ms (loads or compiles the search)")
    print(f"others: median {statistics.median(rest):.0f} ms, largest {max(rest):.0f} ms")


if __name__ == "__main__":
    main()
