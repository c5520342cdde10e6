"""Meta-game analysis: which mixtures of strategies are stable, from a run whose tables cover
every multiset of its strategies (``leaves tournament ... --repeats``).

The run is read as a symmetric N-player game whose pure strategies are the entrants (empirical
game theory: Walsh et al. 2002, Tuyls et al. 2018). Its *heuristic payoff table* has one row per
multiset of N strategies (how many seats each holds) and, per strategy present, its payoff
there: its share of the table's wins per seat it occupies, a shared win split among the tied
seats (``win_share``), so a table's payoffs sum to 1 over its seats (less the share of its games
nobody won). A win rate rather than a rank or a points total, because a win is what every game
declares and what a player is after; the fair share is 1/N at every table.

From that table:

* the expected payoff ``u_i(x)`` of a player who picks strategy ``i`` while the other N-1 seats
  are drawn from the mixture ``x`` (each (N-1)-multiset with its multinomial chance).
  OpenSpiel's ``PayoffTable.expected_payoff`` instead averages the rows that hold an ``i``,
  weighted by the chance of the whole table: at 2 players and ``x = (1/2, 1/2)`` it gives
  ``(u(ii) + 2 u(ij)) / 3`` where a player choosing ``i`` gets ``(u(ii) + u(ij)) / 2``; its rest
  points are not the game's equilibria, hence this formula (``tests/test_metagame.py`` checks
  it against OpenSpiel's two-player ``SinglePopulationDynamics``);
* the replicator dynamics ``x_i' = x_i (u_i(x) - x.u(x))``, integrated by scipy in log-shares
  (time in units where a strategy one win-rate point above the mix grows 1% per unit) from
  the uniform mix and from perturbed starts;
* a Nash equilibrium: a mixture whose regret ``max_i u_i(x) - x.u(x)`` is at most ``EPS``; the
  rest point the dynamics reach from the uniform mix (a strategy still losing at the horizon
  dropped and the others run on: ``rest``), polished by scipy's SLSQP (minimising the squared
  gains) when they have not settled there, as in a cyclic game;
* α-Rank (``reports.metagame_rank``, OpenSpiel's ``egt.alpharank``).

Sampling error: the deals are resampled (``reports.metagame_bootstrap``). The tables are
assembled in ``reports.metagame_tables``; the words around them are ``reports.metagame_text``'s.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from .clusters import clusters
from .data import BLOCK, Run
from .tables import summary

__all__ = [
    "EPS",
    "MIN_SETS",
    "Fitness",
    "PayoffDesign",
    "design",
    "equilibria",
    "regrets",
    "replicator",
    "unwon",
]

MIN_SETS = 5
"""Fewest duplicate sets (deals) at every table for the analysis: below it a table's payoff
rests on too few independent deals for a resampling to say anything."""
EPS = 1e-3
"""Regret a Nash equilibrium may have (0.1 win-rate points: well below a run's sampling error)."""
SUPPORT = 0.01
"""Weight from which a strategy counts as played in a mixture."""
HORIZON = 2000.0
"""How long the replicator dynamics run: long enough for a 0.5-point disadvantage to fall from
a fair share to under 1e-4 (about e^-10)."""
TIMES = np.concatenate([[0.0], np.geomspace(0.1, HORIZON, 99)])
"""When the trajectory is recorded (log-spaced: the fast start and the slow end both show)."""
STARTS_RANDOM = 4
"""Random starts (seeded) besides the uniform mix and its perturbations."""
SEED = 20_26
"""Fixed seed of the random starts and of the bootstrap: the same run gives the same page."""
TINY = 1e-9
"""Weights and masses below this are written as 0 (a dying strategy's share after the horizon,
or a stationary distribution's rounding noise, is not a number anyone should read)."""
REST = 1e-5
"""The most a strategy in a mixture may gain or lose (0.001 win-rate points) where the dynamics
are said to come to rest: one losing more is still leaving it, however small its share or
however flat its fall looks at the horizon (at this rate a share moves 2% in another
``HORIZON``)."""
GONE = 1e-300
"""The share a strategy dropped from a mixture keeps (``rest``), and the least share the
dynamics start from (one rounded to 0): 0 in every sum, but its log-share stays finite."""


def shown(v: np.ndarray) -> np.ndarray:
    """``v`` with entries below ``TINY`` in size set to 0."""
    return np.where(np.abs(v) < TINY, 0.0, v)


@dataclass(frozen=True)
class PayoffDesign:
    """A run's games as a heuristic payoff table and its independent units. ``counts`` (M, K):
    the multisets (seats per strategy) at ``players`` seats; per duplicate set used, ``row``
    (C,) its multiset, ``wins`` (C, K) its win shares per strategy and ``seats`` (C, K) the seats
    (games x seats) each strategy took."""

    labels: tuple[str, ...]
    players: int
    counts: np.ndarray
    row: np.ndarray
    wins: np.ndarray
    seats: np.ndarray
    games: np.ndarray  # (M,) games per multiset
    sizes: int = 1
    """How many table sizes the run played (the design reads one of them: ``players``)."""
    most_games: bool = True
    """Whether ``players`` is the size with the most games of the run (not where a size with
    more does not hold every multiset)."""

    @property
    def sets(self) -> np.ndarray:
        """Duplicate sets (deals) per multiset."""
        return np.bincount(self.row, minlength=len(self.counts))

    def payoffs(self) -> np.ndarray:
        """(M, K) mean payoff per seat of each strategy at each multiset (0 where absent)."""
        m, k = self.counts.shape
        w = np.zeros((m, k))
        n = np.zeros((m, k))
        np.add.at(w, self.row, self.wins)
        np.add.at(n, self.row, self.seats)
        return np.divide(w, n, out=np.zeros_like(w), where=n > 0)


def _covered(run: Run) -> bool:
    """False when the manifest already says that the tables cannot hold every multiset (no
    ``--repeats``, as many strategies as seats, or one focused entrant): then nothing is read."""
    spec = run.manifest.get("spec") if isinstance(run.manifest, dict) else None
    if not isinstance(spec, dict):
        return True
    if spec.get("focus") is not None:
        return False
    sizes = spec.get("players") or []
    k = len(run.games.labels)
    return bool(spec.get("repeats", True)) or any(k < int(n) for n in sizes)


def design(run: Run) -> PayoffDesign | None:
    """The heuristic payoff table of ``run``, or None where its tables do not cover every
    multiset of its strategies at some table size (the size with the most games is taken), it
    has one strategy, it is a run of matches, or a strategy has no valid game (every game it
    sat in ended by a forfeit: its payoffs would count forfeits, not play)."""
    g = run.games
    k = g.n_strategies
    if run.expert or k < 2 or len(g) == 0 or not _covered(run):
        return None
    if (summary(g)["valid_games"] == 0).any():
        return None
    cl = clusters(g)
    seats = g.seats[cl.first].astype(np.int64)
    occ = seats >= 0
    set_of = np.broadcast_to(np.arange(cl.n)[:, None], seats.shape)[occ]
    counts = np.bincount(set_of * k + seats[occ], minlength=cl.n * k).reshape(cl.n, k)
    size = counts.sum(axis=1)
    per_set_games = np.bincount(cl.of_game, minlength=cl.n)
    per_size = {int(n): int(per_set_games[size == n].sum()) for n in np.unique(size)}
    best: tuple[int, int] | None = None
    for n in np.unique(size):
        sel = size == n
        if len(np.unique(counts[sel], axis=0)) == math.comb(k + int(n) - 1, int(n)):
            games = int(per_set_games[sel].sum())
            if best is None or games > best[1]:
                best = (int(n), games)
    if best is None:
        return None
    keep = np.flatnonzero(size == best[0])
    rows, row = np.unique(counts[keep], axis=0, return_inverse=True)
    order = np.lexsort(rows.T)[::-1]  # the first strategy's most seats first
    rank = np.empty_like(order)
    rank[order] = np.arange(len(order))
    wins, seats_taken = _set_sums(run, k)
    row = rank[row.ravel()]
    return PayoffDesign(
        labels=tuple(g.labels),
        players=best[0],
        counts=rows[order],
        row=row,
        wins=wins[keep],
        seats=seats_taken[keep],
        games=np.bincount(row, weights=per_set_games[keep], minlength=len(rows)).astype(np.int64),
        sizes=len(per_size),
        most_games=best[1] == max(per_size.values()),
    )


def _set_sums(run: Run, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Per duplicate set and strategy: win shares and seats, block by block."""
    g = run.games
    cl = clusters(g)
    w = np.zeros(cl.n * k)
    n = np.zeros(cl.n * k)
    for i, b in enumerate(g.blocks(BLOCK)):
        win = b.wins()
        share = win / np.maximum(win.sum(axis=1, keepdims=True), 1)
        of = cl.of_game[i * BLOCK : i * BLOCK + len(b)]
        codes = b.seats.astype(np.int64)
        occ = codes >= 0
        key = np.broadcast_to(of[:, None], codes.shape)[occ] * k + codes[occ]
        w += np.bincount(key, weights=share[occ], minlength=cl.n * k)
        n += np.bincount(key, minlength=cl.n * k)
    return w.reshape(cl.n, k), n.reshape(cl.n, k)


@dataclass(frozen=True)
class Fitness:
    """Expected payoffs of the pure strategies against a mixture in a symmetric N-player game
    given by its heuristic payoff table: ``others`` (R, K) are the multisets of the N-1 other
    seats, ``coef`` their multinomial coefficients, ``index[r, j]`` the table's row of
    ``others[r]`` plus one seat of ``j``."""

    others: np.ndarray
    coef: np.ndarray
    index: np.ndarray

    @classmethod
    def of(cls, counts: np.ndarray) -> Fitness:
        k = counts.shape[1]
        n = int(counts[0].sum())
        where = {tuple(int(c) for c in r): i for i, r in enumerate(counts)}
        others = np.array(
            [np.bincount(c, minlength=k) for c in itertools.combinations_with_replacement(
                range(k), n - 1)],
            dtype=np.int64,
        ).reshape(-1, k)  # fmt: skip
        fact = np.array([math.factorial(i) for i in range(n)], dtype=float)
        coef = math.factorial(n - 1) / fact[others].prod(axis=1)
        index = np.array(
            [[where[tuple(int(c) for c in o + np.eye(k, dtype=np.int64)[j])] for j in range(k)]
             for o in others]
        )  # fmt: skip
        return cls(others, coef, index)

    def gather(self, payoffs: np.ndarray) -> np.ndarray:
        """(..., R, K): the payoff of ``j`` at the table of ``others[r]`` plus a ``j``, from
        payoffs (..., M, K)."""
        return payoffs[..., self.index, np.arange(self.index.shape[1])]

    def __call__(self, x: np.ndarray, gathered: np.ndarray) -> np.ndarray:
        """u (..., K): each pure strategy's expected payoff against mixtures ``x`` (..., K).
        The chance of each multiset of the others is a product of powers of the shares, taken
        as a matrix product of log-shares (an absent strategy's 0 becomes ``GONE``: 0 in effect)."""
        logx = np.log(np.maximum(x, GONE))
        chance = self.coef * np.exp(logx @ self.others.T.astype(float))
        return np.einsum("...r,...rk->...k", chance, gathered)


def regrets(fit: Fitness, gathered: np.ndarray, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(gains, regret): per strategy ``u_i(x) - x.u(x)`` (..., K) and their maximum (...,)."""
    u = fit(x, gathered)
    gains = u - (x * u).sum(axis=-1, keepdims=True)
    return gains, gains.max(axis=-1)


def _softmax(y: np.ndarray) -> np.ndarray:
    e = np.exp(y - y.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def replicator(fit: Fitness, gathered: np.ndarray, starts: np.ndarray,
               times: np.ndarray = TIMES) -> np.ndarray:  # fmt: skip
    """Shares (T, B, K) at ``times`` of the replicator dynamics from each of ``starts`` (B, K)
    (interior mixtures), all integrated at once in log-shares (where a dying strategy falls
    at a steady rate instead of vanishing into rounding); a share that has rounded to 0 (a
    strategy an earlier pass took out) starts at ``GONE``, whose log is finite; ``gathered`` is
    (R, K) or (B, R, K)."""
    from scipy.integrate import solve_ivp  # start-up: scipy loads for the dynamics only

    b, k = starts.shape

    def rhs(_t: float, y: np.ndarray) -> np.ndarray:
        x = _softmax(y.reshape(b, k))
        u = fit(x, gathered)
        return (u - (x * u).sum(axis=1, keepdims=True)).ravel()

    y0 = np.log(np.maximum(starts, GONE)).ravel()
    sol = solve_ivp(rhs, (0.0, float(times[-1])), y0, method="RK45",
                    t_eval=times, rtol=1e-7, atol=1e-9)  # fmt: skip
    if not sol.success:  # pragma: no cover - RK45 on a bounded right-hand side
        raise RuntimeError(f"replicator dynamics: {sol.message}")
    return _softmax(sol.y.T.reshape(len(times), b, k))


def polish(fit: Fitness, gathered: np.ndarray, x0: np.ndarray) -> np.ndarray:
    """A mixture near ``x0`` with the least regret: SLSQP on the simplex minimising the
    squared positive gains (zero exactly at a Nash equilibrium)."""
    from scipy.optimize import minimize  # start-up: scipy loads for the dynamics only

    def loss(x: np.ndarray) -> float:
        x = np.clip(x, 0.0, None)
        gains, _ = regrets(fit, gathered, x / max(x.sum(), 1e-300))
        return float(1e6 * np.square(np.clip(gains, 0.0, None)).sum())

    k = len(x0)
    res = minimize(loss, x0, method="SLSQP", bounds=[(0.0, 1.0)] * k,
                   constraints=[{"type": "eq", "fun": lambda x: x.sum() - 1.0}],
                   options={"ftol": 1e-16, "maxiter": 300})  # fmt: skip
    x = np.clip(res.x, 0.0, None)
    x = x / x.sum()
    return x if regrets(fit, gathered, x)[1] <= regrets(fit, gathered, x0)[1] else x0


def rest(fit: Fitness, gathered: np.ndarray, ends: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Equilibria from the dynamics' endpoints (B, K), and whether the dynamics come to rest at
    each (B,). Where a strategy is still leaving the mix at the end (``REST``), it is dropped
    and the others run on (``_reduced``): where no strategy moves any more and none dropped
    would come back, that is where the dynamics head, at rest. Elsewhere the endpoint is kept
    where its regret is at most ``EPS``, else polished (``polish``); neither is at rest.
    ``gathered``: (R, K) or (B, R, K)."""
    x = _reduced(fit, gathered, ends)
    gains, regret = regrets(fit, gathered, x)
    still = (np.where(x >= TINY, np.abs(gains), gains) <= REST).all(axis=-1) & (regret <= EPS)
    out = np.where(still[:, None], x, ends)
    for i in np.flatnonzero(~still & (regrets(fit, gathered, ends)[1] > EPS)):
        out[i] = polish(fit, gathered if gathered.ndim == 2 else gathered[i], ends[i])
    return out, still


def _reduced(fit: Fitness, gathered: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """``ends`` (B, K) with every strategy that still loses more than ``REST`` (and holds
    ``TINY`` or more of the mix) dropped and the others' dynamics run on for another
    ``HORIZON``, until none loses (support reduction; only where the regret is at most
    ``EPS``: a mix a strategy could still invade is no rest point to head for). A dropped
    strategy keeps a share of ``GONE``: 0 in effect, kept positive for the log-shares."""
    x = ends.copy()
    for _ in range(x.shape[-1]):
        gains, regret = regrets(fit, gathered, x)
        losing = (x >= TINY) & (gains < -REST) & (regret <= EPS)[:, None]
        rows = np.flatnonzero(losing.any(axis=-1))
        if not len(rows):
            break
        kept = np.where(losing[rows], GONE, x[rows])
        kept /= kept.sum(axis=-1, keepdims=True)
        sub = gathered if gathered.ndim == 2 else gathered[rows]
        x[rows] = replicator(fit, sub, kept, times=np.array([0.0, HORIZON]))[-1]
    return x


def starts(k: int) -> np.ndarray:
    """The uniform mix first, then each strategy at half the population (the rest shared),
    then ``STARTS_RANDOM`` seeded draws from the uniform distribution on the simplex."""
    rng = np.random.default_rng(SEED)
    tilt = np.full((k, k), 0.5 / (k - 1))
    np.fill_diagonal(tilt, 0.5)
    rand = rng.dirichlet(np.ones(k), STARTS_RANDOM)
    return np.clip(np.vstack([np.full((1, k), 1.0 / k), tilt, rand]), 1e-6, None)


@dataclass(frozen=True)
class Equilibria:
    """What the dynamics from several starts find: the trajectory from the uniform mix
    (T, K), and the distinct equilibria (E, K), how many starts reach each and their regrets,
    the uniform mix's first; ``settled``: whether the dynamics from the uniform mix come to
    rest at it (``rest``; else it is where they end, or polished from there)."""

    trajectory: np.ndarray
    points: np.ndarray
    reached: np.ndarray
    regret: np.ndarray
    settled: bool


def equilibria(fit: Fitness, gathered: np.ndarray) -> Equilibria:
    """Run the dynamics from every start of ``starts``, settle their endpoints into Nash
    equilibria, and group those within 0.02 (L1) of each other, the uniform mix's first."""
    k = gathered.shape[-1]
    path = replicator(fit, gathered, starts(k))
    ends, still = rest(fit, gathered, path[-1])
    points: list[np.ndarray] = []
    reached: list[int] = []
    for x in ends:
        near = [i for i, p in enumerate(points) if np.abs(p - x).sum() < 0.02]
        if near:
            reached[near[0]] += 1
        else:
            points.append(x)
            reached.append(1)
    pts = np.array(points)
    return Equilibria(path[:, 0], pts, np.array(reached), regrets(fit, gathered, pts)[1],
                      bool(still[0]))  # fmt: skip


def table_names(labels: tuple[str, ...], counts: np.ndarray) -> list[str]:
    """Each multiset in words: "2 weighted + taker"."""
    return [
        " + ".join(f"{c} {s}" if c > 1 else s for s, c in zip(labels, row, strict=True) if c)
        for row in counts
    ]


def payoff_table(d: PayoffDesign) -> pd.DataFrame:
    """The heuristic payoff table: per multiset each present strategy's payoff (``<strategy>``;
    empty if absent), the seats, its deals and games, the seats of each strategy
    (``n_<strategy>``), and how many table sizes the run played and whether this one had the
    most games (``sizes``, ``most_games``: the words name the size where there are several)."""
    pay = np.where(d.counts > 0, d.payoffs(), np.nan)
    cols: dict[str, object] = {"table": table_names(d.labels, d.counts)}
    cols.update({s: pay[:, i] for i, s in enumerate(d.labels)})
    cols.update(players=d.players, deal_sets=d.sets, games=d.games)
    cols.update({f"n_{s}": d.counts[:, i] for i, s in enumerate(d.labels)})
    cols.update(sizes=d.sizes, most_games=d.most_games)
    return pd.DataFrame(cols)


def unwon(payoffs: pd.DataFrame) -> bool:
    """Whether no game at the payoff table's tables was won (a ``payoff_table``: every payoff
    0): then every mix is an equilibrium and no dynamics move, so there is nothing to find,
    only zeros to compare (the one test the tables, the lead and the key finding share)."""
    names = [c[2:] for c in payoffs.columns if c.startswith("n_") and c[2:] in payoffs.columns]
    return bool(names) and len(payoffs) > 0 and not payoffs[names].fillna(0.0).to_numpy().any()


def equilibria_table(labels: tuple[str, ...], eq: Equilibria) -> pd.DataFrame:
    """One row per distinct equilibrium found: its weights, how many of the starts lead there,
    whether the uniform mix does, and its regret."""
    df = pd.DataFrame({"equilibrium": np.arange(1, len(eq.points) + 1)})
    for i, s in enumerate(labels):
        df[s] = shown(eq.points[:, i])
    df["starts"] = eq.reached
    df["from_uniform"] = np.arange(len(eq.points)) == 0
    df["regret"] = shown(eq.regret)
    return df


def trajectory_table(labels: tuple[str, ...], path: np.ndarray) -> pd.DataFrame:
    """The replicator dynamics from the uniform mix: time, then each strategy's share."""
    df = pd.DataFrame({"time": TIMES})
    for i, s in enumerate(labels):
        df[s] = path[:, i]
    return df
