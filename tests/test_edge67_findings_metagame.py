"""The meta-game's finding (``reports.findings_metagame``) at its thresholds, on hand-made
tables: a weight of exactly ``SUPPORT`` (1%) is played, not entering; a share of exactly
``SURE`` (90%) of the replicates with the same strategies is sure; α-Rank masses exactly 0.5
points apart share the first place; α-Rank run on every replicate drawn names no first few.
Each expected sentence is written out from the figures the tables give."""

from __future__ import annotations

import pandas as pd

from reports.findings_metagame import metagame_finding
from reports.metagame import SUPPORT
from reports.metagame_text import SURE

PAYOFFS = pd.DataFrame({"deal_sets": [9, 7]})
REST = ("(the replicator dynamics from the uniform mix come to rest there; no strategy gains by "
        "deviating from it; 95% intervals from 200 bootstrap replicates of the deals)")  # fmt: skip


def _mix(weight: list[float], in_support: list[float], same: float) -> pd.DataFrame:
    """A hand-made ``metagame_mix`` of a, b and c, come to rest with no regret."""
    return pd.DataFrame({"strategy": ["a", "b", "c"], "weight": weight,
                         "ci_low": [0.5, 0.0, 0.0], "ci_high": [1.0, 0.1, 0.05],
                         "in_support": in_support, "regret": 0.0, "replicates": 200,
                         "same_support": same, "at_rest": True})  # fmt: skip


def _said(mix: pd.DataFrame, **tables: pd.DataFrame) -> str:
    (found,) = metagame_finding({"metagame_payoffs": PAYOFFS, "metagame_mix": mix, **tables})
    return found.text


def test_a_weight_of_exactly_the_support_is_played_and_not_entering():
    """b weighs 1.0%, the threshold: in the mix; c, out of it, enters 30.0% of the replicates."""
    assert SUPPORT == 0.01 and SURE == 0.9
    text = _said(_mix([0.99, 0.01, 0.0], [1.0, 0.6, 0.3], 0.95))
    assert text == (
        f"Meta-game: the stable mix of strategies is a 99.0% [50.0, 100.0] and b 1.0% [0.0, "
        f"10.0] {REST}. In 95.0% of the replicates the equilibrium plays the same strategies; "
        "c enters it in 30.0%."
    )


def test_exactly_the_sure_share_of_replicates_is_sure():
    text = _said(_mix([1.0, 0.0, 0.0], [1.0, 0.0, 0.0], 0.9))
    assert text == (
        f"Meta-game: the stable mix of strategies is a alone, 100.0% [50.0, 100.0] {REST}. In "
        "90.0% of the replicates the equilibrium plays the same strategies."
    )


def _rank(mass: list[float], run: int, drawn: int) -> pd.DataFrame:
    """A hand-made ``metagame_alpharank``, b first; run on ``run`` of ``drawn`` replicates,
    each of which found a ranking."""
    return pd.DataFrame({"strategy": ["b", "a", "c"], "mass": mass, "ci_low": [0.5, 0.1, 0.0],
                         "ci_high": [0.9, 0.3, 0.2], "replicates": run, "replicates_run": run,
                         "replicates_drawn": drawn})  # fmt: skip


def test_alpha_rank_masses_exactly_half_a_point_apart_share_the_first_place():
    assert 0.5 - 0.005 == 0.495  # the tie's edge, exact in floating point
    mix = _mix([1.0, 0.0, 0.0], [1.0, 0.0, 0.0], 0.95)
    text = _said(mix, metagame_alpharank=_rank([0.5, 0.495, 0.005], 200, 200))
    assert text.endswith(" α-Rank puts no strategy first on its own: b and a share the mass.")


def test_alpha_rank_run_on_every_replicate_drawn_gives_its_interval_alone():
    mix = _mix([1.0, 0.0, 0.0], [1.0, 0.0, 0.0], 0.95)
    text = _said(mix, metagame_alpharank=_rank([0.7, 0.2, 0.1], 200, 200))
    assert text.endswith(" α-Rank puts b first with 70.0% of the mass [50.0, 90.0].")
    text = _said(mix, metagame_alpharank=_rank([0.7, 0.2, 0.1], 74, 200))
    assert text.endswith(
        " α-Rank puts b first with 70.0% of the mass [50.0, 90.0], its interval over the 74 "
        "bootstrap replicates it was run on (the first 74 of the 200 drawn: each α-Rank is a "
        "Python loop)."
    )
