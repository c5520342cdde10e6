"""The meta-game's key finding: the stable mix of strategies (``reports.metagame``) in words,
each weight with its 95% bootstrap interval, how sure the resampling is of which strategies it
plays, other equilibria and α-Rank's first. Its own module: it alone reads the meta-game's
tables, and a command asks for it without the rest of the report (``metagame_answer``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from tournaments.declaration import Declaration

from .data import default_declaration
from .finding import Finding, and_words
from .loading import as_run
from .metagame import MIN_SETS, SUPPORT, unwon
from .metagame_tables import metagame
from .metagame_text import SURE as sure
from .metagame_text import at_size, gain_words, rank_replicates, unwon_words
from .numbers import interval, pct

__all__ = ["metagame_answer", "metagame_finding"]


def _mix_parts(mix: pd.DataFrame, support: float) -> list[tuple[str, str]]:
    """Each strategy the stable mix plays, and its weight in percent with its 95% interval."""
    rows = mix[mix["weight"] >= support]
    return [(r.strategy, f"{pct(r.weight)} {interval(r.ci_low, r.ci_high)}")
            for r in rows.itertuples()]  # fmt: skip


def _rank_words(rank: pd.DataFrame | None) -> str:
    """α-Rank's first place with its mass and interval, or that none is first alone."""
    if rank is None or not len(rank) or not np.isfinite(rank["mass"].iloc[0]):
        return ""
    top = rank.iloc[0]
    tied = rank[rank["mass"] >= top["mass"] - 0.005]
    if len(tied) > 1:
        names = and_words(list(tied["strategy"]))
        return f" α-Rank puts no strategy first on its own: {names} share the mass."
    over = (f", its interval over {rank_replicates(top)}"
            if {"replicates", "replicates_run", "replicates_drawn"} <= set(top.index)
            and int(top["replicates_run"]) < int(top["replicates_drawn"]) else "")  # fmt: skip
    return (
        f" α-Rank puts {top['strategy']} first with {pct(top['mass'])} of the mass "
        f"{interval(top['ci_low'], top['ci_high'])}{over}."
    )


def metagame_finding(tables: Mapping[str, pd.DataFrame], d: Declaration | None = None
                     ) -> list[Finding]:  # fmt: skip
    """The meta-game's answer (``reports.metagame``; runs whose tables hold every multiset of
    the strategies): the stable mix, each weight in percent with its 95% bootstrap interval,
    how sure the resampling is of which strategies it plays, other equilibria and α-Rank's
    first; or that no game at its tables was won, so there is nothing to compare; or that
    the run has too few deals for one, asking for more of the run's units (``d.units()``;
    default: the default game's). A run of several table sizes names the one read."""
    more = f"play more {(d or default_declaration()).units()}"
    pay = tables.get("metagame_payoffs")
    mix = tables.get("metagame_mix")
    if pay is None or not len(pay):
        return []
    head = f"Meta-game{at_size(pay)}:"
    if unwon(pay):
        return [Finding("metagame", f"{head} {unwon_words()}, and no stable mix to find.")]
    if mix is None or not len(mix):
        fewest = int(pay["deal_sets"].min())
        return [
            Finding(
                "metagame",
                f"{head} too few deals for an analysis: the fewest at "
                f"a table is {fewest} duplicate set{'s' if fewest != 1 else ''}, and "
                f"each table needs {MIN_SETS}; {more}.",
            )
        ]
    parts = _mix_parts(mix, SUPPORT)
    first = mix.iloc[0]
    how = (
        "the replicator dynamics from the uniform mix come to rest there"
        if bool(first["at_rest"])
        else "the Nash equilibrium nearest to where the "
        "replicator dynamics from the uniform mix end, as they do not come to rest"
    )
    gain = gain_words(first["regret"])
    said = (and_words([f"{name} {share}" for name, share in parts]) if len(parts) > 1
            else "{} alone, {}".format(*parts[0]))  # a label may hold spaces  # fmt: skip
    same = float(mix["same_support"].iloc[0])
    what = (
        f"{said} ({how}; {gain}; 95% intervals from {int(first['replicates'])} bootstrap "
        "replicates of the deals)"
    )
    if same >= sure:
        text = (
            f"{head} the stable mix of strategies is {what}. In {pct(same)} of the "
            f"replicates the equilibrium plays the same strategies{_entering(mix)}."
        )
    else:  # the caution first: the mix is not a finding the run can stand behind
        text = (
            f"{head} caution, the run cannot tell which mix is stable: the equilibrium "
            f"plays the same strategies in only {pct(same)} of the bootstrap replicates of the "
            f"deals{_entering(mix)} ({more}). Its estimate is {what}."
        )
    return [
        Finding("metagame", text + _others(tables) + _rank_words(tables.get("metagame_alpharank")))
    ]


def metagame_answer(run: Any) -> str:
    """The meta-game finding of a run (anything ``reports.loading.as_run`` takes: a run folder,
    a results object, a games DataFrame; '' where its tables do not hold every multiset of its
    strategies), for a command to print after a ``--repeats`` tournament without writing the
    report (a few seconds: the bootstrap and α-Rank)."""
    run = as_run(run)
    found = metagame_finding(metagame(run), run.declaration)
    return found[0].text if found else ""


def _entering(mix: pd.DataFrame) -> str:
    """Who else enters the replicates' equilibrium, and how often."""
    enter = mix[(mix["weight"] < SUPPORT) & (mix["in_support"] > 0)]
    if not len(enter):
        return ""
    return "; " + ", ".join(
        f"{r.strategy} enters it in {pct(r.in_support)}" for r in enter.itertuples()
    )


def _others(tables: Mapping[str, pd.DataFrame]) -> str:
    """Other stable mixes the dynamics reach from other starts."""
    eq = tables.get("metagame_equilibria")
    if eq is None or len(eq) < 2:
        return ""
    return (
        f" From other starts the dynamics reach {len(eq) - 1} other "
        f"equilibri{'um' if len(eq) == 2 else 'a'}: which mix a population ends in depends "
        "on where it starts."
    )
