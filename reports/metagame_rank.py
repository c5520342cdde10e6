"""α-Rank of the meta-game (Omidshafiei et al. 2019) by OpenSpiel's ``egt.alpharank``, which
needs the research extra (``pip install ".[research]"``): imported here, and only when a run
has a meta-game, so that ``import reports`` and other reports never load it; where it cannot
be, ``egt_failure`` says why in one line (not installed, or installed and broken).

α-Rank ranks strategies by the stationary distribution of a Markov chain over monomorphic
populations in which one mutant at a time takes over with the Fermi fixation probability of a
finite population (``POPULATION``) at selection intensity ``alpha``. The table is OpenSpiel's
heuristic payoff table. At two seats it is OpenSpiel's single-population α-Rank; at more, whose
single-population fitness OpenSpiel computes for two players only (it looks up two-strategy
profiles), each seat is a population of its own with the same table, and a strategy's mass is
its share of the profiles' mass, averaged over the seats (by symmetry they agree). ``alpha`` is
chosen by OpenSpiel's sweep (doubled until the distribution stops changing, or just before the
chain becomes numerically reducible), then kept for every bootstrap replicate.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import ModuleType

import numpy as np

__all__ = ["MAX_PROFILES", "POPULATION", "Ranking", "alpha_rank", "egt", "egt_failure", "masses"]

POPULATION = 50
"""α-Rank's finite population size m (OpenSpiel's default)."""
MAX_PROFILES = 256
"""Most states of α-Rank's chain (strategies ** seats past two seats): its transition matrix is
built in Python, about 17 microseconds a transition, and its eigenvectors cost the cube."""
ALPHA_START = 1.0
"""Where the sweep of ``alpha`` starts: with payoffs that are win rates, weak selection."""


@dataclass(frozen=True)
class Ranking:
    """α-Rank's answer: each strategy's stationary mass (K,), the alpha used and the number of
    populations (1 at two seats, else one per seat)."""

    mass: np.ndarray
    alpha: float
    populations: int


def egt() -> tuple[ModuleType, ModuleType] | None:
    """OpenSpiel's ``alpharank`` and ``heuristic_payoff_table`` modules, or None where they
    cannot be imported (``egt_failure`` says why)."""
    try:
        return _egt()
    except ImportError:
        return None


def egt_failure() -> str | None:
    """Why OpenSpiel's ``egt`` cannot be imported, in the one line ``import_failure`` gives
    every research package: "not installed" only where OpenSpiel (or a package it needs) is
    missing, else the release found and the import's own words (a broken install, for which
    installing the extra again changes nothing). None where it can be imported."""
    try:
        _egt()
    except ImportError as exc:
        # start-up: read only where the import fails (a report that ranks needs none of it)
        from gamekit.requirement import import_failure

        return import_failure(exc, "open_spiel", "OpenSpiel")
    return None


def _egt() -> tuple[ModuleType, ModuleType]:
    # start-up: OpenSpiel loads for alpha-rank only
    from open_spiel.python.egt import alpharank, heuristic_payoff_table

    return alpharank, heuristic_payoff_table


def profiles(k: int, players: int) -> int:
    """States of α-Rank's chain: the strategies (two seats) or the profiles (more seats)."""
    return k if players == 2 else k**players


def transitions(k: int, players: int) -> int:
    """Mutations α-Rank evaluates: per state, each other strategy in each population."""
    return profiles(k, players) * (k - 1) * (1 if players == 2 else players)


def _tables(counts: np.ndarray, payoffs: np.ndarray, players: int, hpt: ModuleType) -> list:
    table = hpt.from_heuristic_payoff_table(np.hstack([counts, payoffs]).astype(float))
    return [table] if players == 2 else [table] * players


def _marginal(pi: np.ndarray, k: int, players: int) -> np.ndarray:
    if players == 2:
        return np.clip(pi, 0.0, None)
    joint = np.clip(pi, 0.0, None).reshape((k,) * players)
    seats = [joint.sum(axis=tuple(a for a in range(players) if a != s)) for s in range(players)]
    return np.mean(seats, axis=0)


def alpha_rank(counts: np.ndarray, payoffs: np.ndarray, players: int) -> Ranking | None:
    """α-Rank of the heuristic payoff table (``counts`` (M, K), ``payoffs`` (M, K)), with alpha
    from OpenSpiel's sweep; None without OpenSpiel, with more than ``MAX_PROFILES`` states, or
    when no alpha gives a single stationary distribution."""
    mods = egt()
    k = counts.shape[1]
    if mods is None or profiles(k, players) > MAX_PROFILES:
        return None
    alpharank, hpt = mods
    tables = _tables(counts, payoffs, players, hpt)
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        try:
            pi, alpha = alpharank.sweep_pi_vs_alpha(
                tables, return_alpha=True, m=POPULATION, warm_start_alpha=ALPHA_START
            )
        except (ValueError, IndexError):  # its refinement fails when the second step does
            alpha = ALPHA_START
            pi = _compute(alpharank, tables, alpha)
            if pi is None:
                return None
    return Ranking(_marginal(np.asarray(pi), k, players), float(alpha), len(tables))


def _compute(alpharank: ModuleType, tables: list, alpha: float) -> np.ndarray | None:
    try:
        return alpharank.compute(tables, m=POPULATION, alpha=alpha)[2]
    except ValueError:  # the chain is numerically reducible at this alpha
        return None


def masses(counts: np.ndarray, payoffs: np.ndarray, players: int, alpha: float) -> np.ndarray:
    """Each strategy's α-Rank mass (K,) at a given ``alpha`` (halved up to five times where the
    chain is numerically reducible; NaN if it stays so). Needs OpenSpiel (``egt``): else an
    ImportError in ``egt_failure``'s words."""
    mods = egt()
    if mods is None:
        raise ImportError(egt_failure() or "OpenSpiel's egt cannot be imported")
    alpharank, hpt = mods
    tables = _tables(counts, payoffs, players, hpt)
    k = counts.shape[1]
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        for _ in range(6):
            pi = _compute(alpharank, tables, alpha)
            if pi is not None:
                return _marginal(np.asarray(pi), k, players)
            alpha /= 2
    return np.full(k, np.nan)
