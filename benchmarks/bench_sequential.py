"""Error rates and cost of the sequential gauntlet (``leaves gauntlet --sequential``).

    python benchmarks/bench_sequential.py               # about 10 s on 2 cores
    python benchmarks/bench_sequential.py --reps 4000 --real 0

By simulation with known true differences, the GSPRT of ``tournaments.sequential`` (the very
decision code the command runs, on the same batches: a first batch of 4,000 games per side,
then x1.25 deals a batch, a cap of 200,000 games per side) is run many times on paired per-set
outcomes shaped like real ones. A duplicate set of a 4-seat gauntlet with one field strategy
is 4 seatings a side; each game is a win (probability ``p`` plus a deal effect shared by the
set's games, sd ``tau``) for the strategy and for the baseline, and the two sides' games
coincide with probability ``rho`` (close variants of a strategy mostly play the same moves:
a real counter vs counter(near_win_penalty=3) gauntlet gives a correlation of 0.95 per set,
counter vs weighted 0.02, deal effects about nil). One field strategy makes one table, so the
estimate is unstratified, as the command's is (``reports.significance.paired``).

Printed, one line per true difference (0, margin/2, margin, 2 margin) and correlation: how
often it declared "better" (should be at most alpha at 0 and at least 1 - beta at the margin),
how often what it said was false (``false``: "better" said at a difference of 0, "not better by
the margin" said at the margin or beyond; nothing it says is false halfway, where "better" and
"not better by the margin" are both true -- the claim "better by at least the margin" would be
false there about half the time), how often it stopped undecided, mean and 90th percentile
games per side, and the games per side of the fixed-size one-sided test with the same alpha
and power at the margin, ``n = ((z_{1-alpha} + z_{1-beta}) * sd / margin) ** 2`` duplicate sets
on the per-set sd. ``tests/test_sequential_claims.py`` checks the same by reading the sentences
the command prints.
``--real N`` adds N real-engine sequential gauntlets of counter against counter
(near_win_penalty=3) (true difference about nil) through the command line's driver.
"""

from __future__ import annotations

import argparse
import math
import sys
import tempfile
import time
from pathlib import Path
from statistics import NormalDist

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from reports.numbers import PERCENTAGE_POINTS, PP, PP_MEANS, in_percentage_points  # noqa: E402
from tournaments.schedule import deals_for  # noqa: E402
from tournaments.sequential import (  # noqa: E402
    BETTER,
    GROWTH,
    Sequential,
    bounds,
    decide,
    llr,
    next_stage,
)

SEATINGS = 4
"""Games per side of one duplicate set (4 seats, one field strategy: 4 balanced seatings)."""

FIRST_GAMES, MAX_GAMES = 4_000, 200_000
"""The command's defaults: the first batch and the cap, games per side."""


def set_distribution(p: float, delta: float, rho: float, tau: float) -> np.ndarray:
    """P(strategy wins - baseline wins = k) for k = -SEATINGS..SEATINGS in one duplicate set.

    Per game with deal effect ``e``: the baseline wins with ``p + e``, the strategy with
    ``p + e + delta``; with probability ``rho`` their games coincide (the strategy wins
    whenever the baseline does, plus ``delta`` more often), else they are independent. The
    deal effect (normal, sd ``tau``) is shared by the set; it is integrated by quadrature.
    """
    nodes, weights = np.polynomial.hermite_e.hermegauss(15)
    weights = weights / weights.sum()
    total = np.zeros(2 * SEATINGS + 1)
    for z, w in zip(nodes, weights, strict=True):
        pb = float(np.clip(p + tau * z, 0.01, 0.99 - max(delta, 0)))
        pa = pb + delta
        # one game's (a - b) in {-1, 0, 1}
        ind = np.array([(1 - pa) * pb, pa * pb + (1 - pa) * (1 - pb), pa * (1 - pb)])
        same = np.array([max(-delta, 0), 1 - abs(delta), max(delta, 0)])
        one = rho * same + (1 - rho) * ind
        dist = np.array([1.0])
        for _ in range(SEATINGS):
            dist = np.convolve(dist, one)
        total += w * dist
    return total / total.sum()


def simulate(q: np.ndarray, margin: float, alpha: float, beta: float, reps: int,
             rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, np.ndarray]:  # fmt: skip
    """(decision is BETTER, games per side at the stop, still undecided at the cap) of ``reps``
    sequential tests on sets
    whose difference is distributed as ``q`` (a mean of ``k / SEATINGS``)."""
    values = np.arange(-SEATINGS, SEATINGS + 1) / SEATINGS
    lower, upper = bounds(alpha, beta)
    max_deals = MAX_GAMES // SEATINGS
    n = np.zeros(reps, np.int64)
    s1, s2 = np.zeros(reps), np.zeros(reps)
    better = np.zeros(reps, bool)
    active = np.ones(reps, bool)
    deals: int | None = deals_for(FIRST_GAMES, SEATINGS)
    while deals is not None and active.any():
        idx = np.flatnonzero(active)
        counts = rng.multinomial(deals - n[idx], q)  # the new sets of every test still going
        n[idx] = deals
        s1[idx] += counts @ values
        s2[idx] += counts @ values**2
        for i in idx:
            mean = s1[i] / n[i]
            var = max(s2[i] - n[i] * mean * mean, 0.0) / (n[i] - 1) / n[i]  # se ** 2
            verdict = decide(llr(mean, var, 0.0, margin, n[i] - 1), lower, upper)
            if verdict is not None:
                active[i] = False
                better[i] = verdict == BETTER
        deals = next_stage(deals, max_deals)
    return better, n * SEATINGS, active


def false_claims(frac: float, better: np.ndarray, undecided: np.ndarray) -> float:
    """The share of tests whose sentence is false at a true difference of ``frac`` margins:
    "better" (a difference above 0) at 0 or below, "not better by the margin" at the margin
    or beyond; in between both are true."""
    if frac <= 0:
        return float(better.mean())
    if frac >= 1:
        return float((~better & ~undecided).mean())
    return 0.0


def real_rows(n: int, margin: float, alpha: float, beta: float) -> str:
    """N real-engine sequential gauntlets (seeds 0..N-1) of counter against a close variant."""
    from leaves_cli.sequential import run_sequential
    from tournaments.gauntlet import Gauntlet

    def play(t, out, grow):
        return t.run(n_jobs=-1, out=out, resume=grow)

    decisions, games = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for seed in range(n):
            g = Gauntlet("counter", ["taker"], "counter:near_win_penalty=3", games=FIRST_GAMES,
                         seed=seed)  # fmt: skip
            test = Sequential(margin, alpha, beta)
            _, rec, _ = run_sequential(g, Path(tmp) / str(seed), play, test, MAX_GAMES,
                                       lambda line: None)  # fmt: skip
            decisions.append(rec["decision"])
            games.append(rec["games_per_side"])
    return (f"real engine, counter vs counter(near_win_penalty=3), {n} seeds: "
            f"{decisions.count(BETTER)}/{n} declared better, mean {np.mean(games):,.0f} games "
            f"per side (max {max(games):,})")  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=4000, help="simulated tests per line")
    ap.add_argument("--margin", type=float, default=1.0, help=PERCENTAGE_POINTS)
    ap.add_argument("--alpha", type=float, default=0.05)
    ap.add_argument("--beta", type=float, default=0.05)
    ap.add_argument("--p", type=float, default=0.25, help="the baseline's win rate")
    ap.add_argument("--tau", type=float, default=0.02, help="sd of the shared deal effect")
    ap.add_argument("--real", type=int, default=4, help="real-engine gauntlets (0: none)")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    m = args.margin / 100
    rng = np.random.default_rng(args.seed)
    z = NormalDist().inv_cdf(1 - args.alpha) + NormalDist().inv_cdf(1 - args.beta)
    t0 = time.perf_counter()
    h1 = in_percentage_points(f"{args.margin:g}")
    print(f"GSPRT H0: 0 vs H1: {h1}, alpha {args.alpha:g}, beta {args.beta:g};"
          f" first batch {FIRST_GAMES:,}, x{GROWTH:g} per batch, cap {MAX_GAMES:,} games per side; "
          f"{args.reps:,} tests a line ({PP_MEANS})")  # fmt: skip
    head = (f"{'rho':>4} {'true diff':>10} {'P(better)':>9} {'false':>6} {'undecided':>9} "
            f"{'mean games':>10} {'p90 games':>9} {'fixed games':>11} {'saved':>6}")  # fmt: skip
    print(head)
    for rho in (0.0, 0.9):
        q_m = set_distribution(args.p, m, rho, args.tau)
        values = np.arange(-SEATINGS, SEATINGS + 1) / SEATINGS
        sd = math.sqrt(q_m @ values**2 - (q_m @ values) ** 2)
        fixed = math.ceil((z * sd / m) ** 2) * SEATINGS
        for frac in (0.0, 0.5, 1.0, 2.0):
            q = set_distribution(args.p, frac * m, rho, args.tau)
            better, games, undecided = simulate(q, m, args.alpha, args.beta, args.reps, rng)
            mean = games.mean()
            print(f"{rho:>4.1f} {frac * args.margin:>+7.2f} {PP} {better.mean():>9.3f} "
                  f"{false_claims(frac, better, undecided):>6.3f} {undecided.mean():>9.3f} "
                  f"{mean:>10,.0f} {np.percentile(games, 90):>9,.0f} {fixed:>11,} "
                  f"{1 - mean / fixed:>+6.0%}")  # fmt: skip
    if args.real:
        print(real_rows(args.real, m, args.alpha, args.beta))
    print(f"({time.perf_counter() - t0:.0f} s)")


if __name__ == "__main__":
    main()
