"""Plackett-Luce rating from finishing orders, fitted on every game with Hessian intervals.

Finishing order: a better rank value in the game's declared direction (e.g. fewer cards
left, or a higher score); the winner first, a forfeiting seat last. Ties (equal values)
are handled with Breslow's method from survival analysis: each tied player is
a choice out of everyone not strictly ahead of it (the tied rivals included), so a tie counts as
"neither ahead" instead of being broken at random. Without ties this is the exact Plackett-Luce
likelihood (checked against ``choix`` in the tests).

Scale: the likelihood only depends on (table of strategies, seat, set of seats not ahead of it),
so the games are first aggregated into counts of those patterns (a few hash passes), and the
fit runs on the patterns: all games are used, no subsampling, and Newton's method gives the
Hessian, whose inverse (on the sum-zero subspace) gives standard errors.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from .data import Games
from .loading import as_games
from .patterns import finishing_patterns
from .stats import Z95

RIDGE = 1e-2  # weak Gaussian prior (precision) on ratings: keeps never-winning strategies finite


def choice_patterns(g: Games) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Aggregate games into weighted Breslow choice events.

    Returns (chosen (U,), composition (U, K) counts of each strategy in the choice set,
    weight (U,)). Each seat of each game is one event: its strategy chosen among the seats
    that did not finish strictly ahead of it. The likelihood depends on an event only through
    (chosen strategy, composition), so equal events are merged: a run of 200,000 games with
    100,000 distinct finishing patterns holds a few thousand distinct choices."""
    k = g.n_strategies
    tables, ranks, weight = finishing_patterns(g)
    width = tables.shape[1]
    base = width + 1  # a strategy's count in a choice set: 0 .. width
    seated = tables >= 0
    codes, weights = [], []
    for s in range(width):  # seat s is chosen among the seats not strictly ahead of it
        occ = seated[:, s]
        inset = seated[occ] & (ranks[occ] >= ranks[occ, s][:, None])
        comp = np.zeros((int(occ.sum()), k), dtype=np.int64)
        rows = np.nonzero(inset)
        np.add.at(comp, (rows[0], tables[occ][rows]), 1)
        code = comp @ (base ** np.arange(k, dtype=np.int64))
        codes.append(code * k + tables[occ, s])
        weights.append(weight[occ])
    key, where = np.unique(np.concatenate(codes), return_inverse=True)
    w = np.bincount(where, weights=np.concatenate(weights).astype(float))
    chosen = key % k
    comp = (key // k)[:, None] // (base ** np.arange(k, dtype=np.int64))[None, :] % base
    keep = comp.sum(axis=1) > 1  # a choice out of one seat carries no information
    return chosen[keep], comp[keep].astype(float), w[keep]


def fit_plackett_luce(
    chosen: np.ndarray,
    comp: np.ndarray,
    weight: np.ndarray,
    ridge: float = RIDGE,
    tol: float = 1e-9,
    max_iter: int = 100,
) -> tuple[np.ndarray, np.ndarray]:
    """Maximize sum w * (theta[c] - log sum_k comp_k exp theta_k) - ridge/2 |theta|^2 by Newton.

    Returns (theta centred to mean zero, covariance of theta on the sum-zero subspace)."""
    k = comp.shape[1]
    theta = np.zeros(k)
    onehot_w = np.bincount(chosen, weights=weight, minlength=k)

    def loglik(th):
        e = comp * np.exp(th - th.max())[None, :]
        z = e.sum(axis=1)
        ll = onehot_w @ th - weight @ (np.log(z) + th.max()) - 0.5 * ridge * th @ th
        return ll, e, z

    def derivs(th, e, z):
        pi = e / z[:, None]
        grad = onehot_w - weight @ pi - ridge * th
        pw = pi * np.sqrt(weight)[:, None]
        hess = -(np.diag(weight @ pi) - pw.T @ pw) - ridge * np.eye(k)
        return grad, hess

    ll, e, z = loglik(theta)
    for _ in range(max_iter):
        grad, hess = derivs(theta, e, z)
        step = np.linalg.solve(hess, -grad)
        if np.max(np.abs(step)) < tol:
            break
        t = 1.0
        while True:  # the log-likelihood is concave: a halving line search suffices
            new = theta + t * step
            nll, ne, nz = loglik(new)
            if nll >= ll - 1e-12 * abs(ll) or t < 1e-6:
                break
            t *= 0.5
        theta, ll, e, z = new, nll, ne, nz
    _, hess = derivs(theta, e, z)
    centre = np.eye(k) - 1.0 / k
    cov = centre @ np.linalg.inv(-hess) @ centre
    return theta - theta.mean(), cov


def rating(data: Any, ridge: float = RIDGE) -> pd.DataFrame:
    """Plackett-Luce ratings (log-worth, mean zero) with Hessian standard errors and 95%
    intervals, strongest first. ``worth`` = exp(rating) normalized to sum 1: the chance each
    would finish first at a table holding one of each. Uses every game (aggregated)."""
    g = as_games(data)
    chosen, comp, weight = choice_patterns(g)
    present = np.bincount(g.seats[g.seats >= 0].astype(np.int64), minlength=g.n_strategies)
    theta, cov = fit_plackett_luce(chosen, comp, weight, ridge=ridge)
    se = np.sqrt(np.maximum(np.diag(cov), 0.0))
    worth = np.exp(theta - theta.max())
    df = pd.DataFrame(
        {
            "strategy": list(g.labels),
            "rating": theta,
            "se": se,
            "ci_low": theta - Z95 * se,
            "ci_high": theta + Z95 * se,
            "worth": worth / worth.sum(),
            "games": present,
        }
    )
    df = df[df["games"] > 0].sort_values(["rating", "strategy"], ascending=[False, True])
    df = df.reset_index(drop=True)
    df.insert(0, "rank", np.arange(1, len(df) + 1))
    return df
