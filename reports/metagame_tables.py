"""The meta-game tables of a run, assembled: the payoffs (``metagame``'s model), the
equilibrium reached from the uniform mix with its bootstrap intervals (``metagame_bootstrap``)
and alpha-rank (``metagame_rank``). Apart from the model, so the bootstrap can build on it.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from . import metagame_bootstrap, metagame_rank
from .loading import as_run
from .metagame import (
    MIN_SETS,
    Fitness,
    design,
    equilibria,
    equilibria_table,
    payoff_table,
    trajectory_table,
    unwon,
)

__all__ = ["metagame"]


def metagame(run: Any) -> dict[str, pd.DataFrame]:
    """The meta-game tables of ``run`` (anything ``reports.loading.as_run`` takes: a run
    folder, a results object, a games DataFrame; keys: CSV stems), none where its tables do
    not cover every multiset of its strategies. ``metagame_payoffs`` always; where a game at
    its tables was won (``unwon``: else every payoff is 0, every mix an equilibrium, and
    nothing is computed) and with at least ``MIN_SETS`` deals at every table also
    ``metagame_mix`` (the Nash equilibrium reached from the uniform mix, with bootstrap
    intervals), ``metagame_equilibria``,
    ``metagame_trajectory`` and, where OpenSpiel is installed and the profiles few enough,
    ``metagame_alpharank``."""
    d = design(as_run(run))
    if d is None:
        return {}
    out = {"metagame_payoffs": payoff_table(d)}
    if unwon(out["metagame_payoffs"]) or d.sets.min() < MIN_SETS:
        return out
    pay = d.payoffs()
    fit = Fitness.of(d.counts)
    eq = equilibria(fit, fit.gather(pay))
    rank = metagame_rank.alpha_rank(d.counts, pay, d.players)
    boot = metagame_bootstrap.bootstrap(d, fit, None if rank is None else rank.alpha)
    out["metagame_mix"] = metagame_bootstrap.mix_table(d, fit, eq, boot)
    out["metagame_equilibria"] = equilibria_table(d.labels, eq)
    out["metagame_trajectory"] = trajectory_table(d.labels, eq.trajectory)
    if rank is not None:
        out["metagame_alpharank"] = _counted(metagame_bootstrap.rank_table(d, rank, boot), boot)
    return out


def _counted(table: pd.DataFrame, boot: metagame_bootstrap.Bootstrap) -> pd.DataFrame:
    """α-Rank's table with the replicates it rests on counted whole: ``replicates`` (those
    whose α-Rank found a ranking, the intervals' and ``first``'s), ``replicates_run`` (the
    first replicates α-Rank was run on: each is a Python loop, so fewer than were drawn) and
    ``replicates_drawn`` (every bootstrap replicate, the mix's)."""
    run = 0 if boot.mass is None else len(boot.mass)
    return table.assign(replicates_run=run, replicates_drawn=len(boot.weights))
