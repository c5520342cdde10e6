"""Are the report's 95% win-rate intervals calibrated? Coverage over independent runs.

Plays ``--runs`` tournaments of one field (same strategies, same size, different seeds), takes
each strategy's 95% interval from ``reports.summary`` of every run, and counts how often it
covers the pooled win rate of all runs (the best estimate of the true rate). Calibrated
intervals cover it about 95% of the time; the issue's acceptance band is 90-99%. Not a test
(it takes a while and is a statistical check); the coverage is printed, per strategy and in
all, with its own binomial 95% interval.

    python benchmarks/bench_calibration.py                       # 40 runs x 24,000 games
    python benchmarks/bench_calibration.py --runs 40 --games 4800 --seating rotations
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import numpy as np

import reports
from reports.stats import wilson
from tournaments import Tournament

FIELD = ["weighted", "taker", "counter", "high", "low"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=40)
    ap.add_argument("--games", type=int, default=24_000, help="games per run")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seating", default="balanced")
    ap.add_argument("--seed", type=int, default=1000, help="run i uses seed + i")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("strategies", nargs="*", default=FIELD)
    args = ap.parse_args()

    t0 = time.perf_counter()
    rows = []
    with tempfile.TemporaryDirectory(prefix="leaves-calibration-") as tmp:
        for i in range(args.runs):
            t = Tournament(args.strategies, players=args.players, games=args.games,
                           seed=args.seed + i, seating=args.seating)  # fmt: skip
            res = t.run(n_jobs=args.jobs, out=Path(tmp) / f"run{i}")
            rows.append(reports.summary(res).set_index("strategy"))
    labels = sorted(rows[0].index)
    wins = np.array([[r.loc[s, "wins"] for s in labels] for r in rows], dtype=float)
    games = np.array([[r.loc[s, "games"] for s in labels] for r in rows], dtype=float)
    lo = np.array([[r.loc[s, "ci_low"] for s in labels] for r in rows])
    hi = np.array([[r.loc[s, "ci_high"] for s in labels] for r in rows])
    pooled = wins.sum(axis=0) / games.sum(axis=0)
    covered = (lo <= pooled) & (pooled <= hi)
    n_games = int(games[0].sum() / args.players)
    print(f"{args.runs} runs x {n_games:,} games, {args.players} players, {args.seating} seating,"
          f" seeds {args.seed}..{args.seed + args.runs - 1} ({time.perf_counter() - t0:.0f} s)")  # fmt: skip
    print(f"{'strategy':<12} {'pooled win rate':>16} {'covered':>8} {'sd of runs':>11} "
          f"{'mean half-width':>16}")  # fmt: skip
    for j, label in enumerate(labels):
        rate = wins[:, j] / games[:, j]
        half = np.mean((hi[:, j] - lo[:, j]) / 2)
        print(f"{label:<12} {pooled[j]:>16.4f} {int(covered[:, j].sum()):>5}/{args.runs} "
              f"{rate.std(ddof=1):>11.4f} {half:>16.4f}")  # fmt: skip
    k, n = int(covered.sum()), covered.size
    c_lo, c_hi = wilson(np.array([k]), np.array([n]))
    print(
        f"coverage {k}/{n} = {k / n:.1%} (95% interval {c_lo[0]:.1%} .. {c_hi[0]:.1%}); "
        "calibrated 95% intervals cover ~95%, acceptance band 90-99%"
    )


if __name__ == "__main__":
    main()
