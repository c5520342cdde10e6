"""Sampling error of the meta-game analysis: how much of the answer is the deals' luck.

The deals are resampled: within each table (each multiset, a stratum fixed by the design) its
duplicate sets are drawn with replacement as many times as it has them, ``REPLICATES`` times
from a fixed seed (the same run gives the same numbers), the payoff table rebuilt from the
drawn sets, and everything computed again on it: the equilibrium the replicator dynamics reach
from the uniform mix (all replicates integrated at once), settled into a Nash equilibrium like
the estimate's, and α-Rank at the estimate's alpha on the first ``rank_replicates`` of them
(each α-Rank is a Python loop in OpenSpiel, so their number is set by the size of its chain).
The tables give 95% percentile intervals and the share of replicates in which a strategy is in
the equilibrium's support or first by α-Rank.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from . import metagame_rank
from .metagame import (
    EPS,
    HORIZON,
    SEED,
    SUPPORT,
    Equilibria,
    Fitness,
    PayoffDesign,
    regrets,
    replicator,
    rest,
    shown,
)

__all__ = ["REPLICATES", "Bootstrap", "bootstrap", "mix_table", "rank_table", "resample"]

REPLICATES = 200
"""Bootstrap replicates of the equilibrium (vectorised: a few tens of milliseconds)."""
RANK_WORK = 12_000
"""α-Rank transitions evaluated over all replicates (about 0.2 s: OpenSpiel's chain is built in
Python, some 17 microseconds a transition); 20 replicates at 4 strategies and 3 seats."""
MIN_RANK_REPLICATES = 10
TIE = 1e-6
"""α-Rank masses this close count as a tie (a cyclic game's strategies share the mass)."""


@dataclass(frozen=True)
class Bootstrap:
    """Per replicate: the equilibrium reached from the uniform mix (B, K) and its regret (B,);
    the α-Rank masses of the first replicates (R, K), or None without α-Rank; whether the
    dynamics came to rest there (B,; ``metagame.rest``; None: taken as a regret of at most
    ``EPS``)."""

    weights: np.ndarray
    regret: np.ndarray
    mass: np.ndarray | None
    at_rest: np.ndarray | None = None


def resample(d: PayoffDesign, replicates: int, rng: np.random.Generator) -> np.ndarray:
    """Payoff tables (B, M, K) of ``replicates`` resamplings of the duplicate sets, within each
    multiset (a stratum of the design)."""
    m, k = d.counts.shape
    w = np.zeros((replicates, m, k))
    n = np.zeros((replicates, m, k))
    order = np.argsort(d.row, kind="stable")
    bounds = np.concatenate([[0], np.cumsum(d.sets)])
    for r in range(m):
        idx = order[bounds[r] : bounds[r + 1]]
        draws = rng.multinomial(len(idx), np.full(len(idx), 1.0 / len(idx)), size=replicates)
        w[:, r] = draws @ d.wins[idx]
        n[:, r] = draws @ d.seats[idx]
    return np.divide(w, n, out=np.zeros_like(w), where=n > 0)


def rank_replicates(k: int, players: int) -> int:
    """How many replicates get an α-Rank: ``RANK_WORK`` transitions in all, within
    [``MIN_RANK_REPLICATES``, ``REPLICATES``]."""
    per = metagame_rank.transitions(k, players)
    return int(np.clip(RANK_WORK // max(per, 1), MIN_RANK_REPLICATES, REPLICATES))


def bootstrap(d: PayoffDesign, fit: Fitness, alpha: float | None,
              replicates: int = REPLICATES) -> Bootstrap:  # fmt: skip
    """The replicates' equilibria and (with an ``alpha``) α-Rank masses."""
    rng = np.random.default_rng(SEED)
    pays = resample(d, replicates, rng)
    gathered = fit.gather(pays)
    k = d.counts.shape[1]
    uniform = np.full((replicates, k), 1.0 / k)
    ends = replicator(fit, gathered, uniform, times=np.array([0.0, HORIZON]))[-1]
    weights, still = rest(fit, gathered, ends)
    regret = regrets(fit, gathered, weights)[1]
    mass = None
    if alpha is not None:
        count = min(replicates, rank_replicates(k, d.players))
        mass = np.array(
            [metagame_rank.masses(d.counts, pays[i], d.players, alpha) for i in range(count)]
        )
    return Bootstrap(weights, regret, mass, still)


def mix_table(d: PayoffDesign, fit: Fitness, eq: Equilibria, boot: Bootstrap) -> pd.DataFrame:
    """Per strategy: its weight in the Nash equilibrium reached from the uniform mix with a 95%
    bootstrap interval, the share of replicates in which it is played (weight >= 1%), its
    expected payoff against the mix and its gain from deviating there (the regret is the
    largest); then the regret, the replicates, the share of them with the same support, whether
    the dynamics from the uniform mix came to rest there and the share of replicates whose
    dynamics came to rest (``Bootstrap.at_rest``)."""
    gathered = fit.gather(d.payoffs())
    x = eq.points[0]
    u = fit(x, gathered)
    gains, regret = regrets(fit, gathered, x)
    lo, hi = np.percentile(boot.weights, [2.5, 97.5], axis=0)
    support = x >= SUPPORT
    same = ((boot.weights >= SUPPORT) == support).all(axis=1).mean()
    df = pd.DataFrame({
        "strategy": list(d.labels),
        "weight": shown(x),
        "ci_low": shown(lo),
        "ci_high": shown(hi),
        "in_support": (boot.weights >= SUPPORT).mean(axis=0),
        "payoff": shown(u),
        "gain": shown(gains),
        "regret": float(shown(regret)),
        "replicates": len(boot.weights),
        "same_support": float(same),
        "at_rest": eq.settled,
        "replicates_at_rest": float(np.mean(boot.regret <= EPS if boot.at_rest is None
                                            else boot.at_rest)),
    })  # fmt: skip
    return df.sort_values(["weight", "payoff"], ascending=False).reset_index(drop=True)


def rank_table(d: PayoffDesign, rank: metagame_rank.Ranking, boot: Bootstrap) -> pd.DataFrame:
    """Per strategy, best first (ties by the replicates' mean mass): its α-Rank mass with a 95%
    bootstrap interval and the share of replicates in which it has the most mass (a tie
    shared); then alpha, the population size m, the number of populations and of replicates."""
    mass = boot.mass if boot.mass is not None else np.full((0, len(d.labels)), np.nan)
    ok = mass[np.isfinite(mass).all(axis=1)]
    if len(ok):
        lo, hi = np.percentile(ok, [2.5, 97.5], axis=0)
        top = ok >= ok.max(axis=1, keepdims=True) - TIE  # a tie for first shares the credit
        first = (top / top.sum(axis=1, keepdims=True)).mean(axis=0)
        mean = ok.mean(axis=0)
    else:
        lo = hi = first = mean = np.full(len(d.labels), np.nan)
    df = pd.DataFrame({
        "strategy": list(d.labels),
        "mass": shown(rank.mass),
        "ci_low": shown(lo),
        "ci_high": shown(hi),
        "first": first,
        "alpha": rank.alpha,
        "population": metagame_rank.POPULATION,
        "populations": rank.populations,
        "replicates": len(ok),
    })  # fmt: skip
    order = np.lexsort((np.nan_to_num(-mean), -df["mass"].to_numpy()))  # ties: replicates' mean
    df = df.iloc[order].reset_index(drop=True)
    df.insert(0, "rank", np.arange(1, len(df) + 1))
    return df
