"""The skill ladder's count of levels (``reports.designer_measures.ladder_table``): 1 + the
levels (steps significant upward, kept by Holm over the one-sided tests) is a one-sided lower
bound, at least 95% sure, on the levels in the ladder's order, checked on simulated ladders
with known steps; a step of ``needs`` or more is always significant;
the sentence says both (``reports.designer_text.ladder_sentence``)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import reports
from reports.designer_measures import ladder_measures, ladder_table
from reports.designer_text import ladder_sentence
from reports.synthetic import synthetic_games
from reports.variants_metrics import estimate, interval
from reports.variants_sets import design

SE, DF = 0.03, 40.0


def _simulated(truth: list[float], reps: int, seed: int) -> pd.DataFrame:
    """``reps`` ladders (one rule set each) whose steps are estimated with a t error of
    ``SE`` on ``DF`` degrees of freedom around ``truth``."""
    rng = np.random.default_rng(seed)
    k = len(truth)
    value = np.asarray(truth) + SE * rng.standard_t(DF, (reps, k))
    return pd.DataFrame({
        "rules": np.repeat([f"r{i}" for i in range(reps)], k), "metric": "ladder_step",
        "position": np.tile(np.arange(k), reps), "value": value.ravel(), "se": SE, "df": DF,
        "deal_sets": 41, "ci_low": value.ravel() - 0.06, "ci_high": value.ravel() + 0.06,
        "detail": np.tile([f"s{i} - s{i + 1}" for i in range(k)], reps),
    })  # fmt: skip


@pytest.mark.parametrize(
    "truth", [[0.0, 0.0, 0.0, 0.0], [0.0, 0.1, 0.0, 0.1], [0.2, 0.0, 0.2, 0.2]]
)
def test_the_levels_are_a_95_percent_lower_bound(truth):
    reps = 1500
    t = ladder_table(_simulated(truth, reps, seed=len(truth) + int(10 * sum(truth))))
    per = t.groupby("rules", sort=False).first()
    real = 1 + sum(v > 0 for v in truth)  # the steps truly up
    over = float((per["levels"] > real).mean())
    assert over <= 0.05 + 3 * np.sqrt(0.05 * 0.95 / reps)  # Holm: family-wise 5% at most
    assert (per["rungs"] == len(truth) + 1).all() and (per["levels"] <= per["rungs"]).all()
    if real > 1:  # steps of 3.3 se and more are found most of the time: the bound is not idle
        assert float((per["levels"] == real).mean()) > 0.5


def test_a_step_of_what_it_needs_is_always_significant():
    t = ladder_table(_simulated([0.0, 0.05, 0.08, 0.1], 800, seed=3))
    big = t["diff"].abs() >= t["needs"]
    assert big.any() and t.loc[big, "significant"].all()
    # the Bonferroni size: t quantile at 1 - 0.05 / steps (two-sided) times the se
    want = SE * stats.t.ppf(1 - 0.05 / 8, DF)  # two-sided, over the 4 steps
    assert t["needs"].to_numpy() == pytest.approx(np.full(len(t), want), rel=1e-6)


def _ladder(games: pd.DataFrame, order: list[str]) -> pd.DataFrame:
    """The ladder of synthetic games, as ``leaves variants`` measures it."""
    rows = []
    for m in ladder_measures(design(reports.as_run(games).games), order):
        e = estimate(m)
        lo, hi = interval(m, e)
        rows.append({"rules": "default", "metric": m.metric, "position": m.position,
                     "value": m.value, "se": float(e.se[0]), "df": float(e.df[0]),
                     "deal_sets": float(e.units[0]), "ci_low": lo, "ci_high": hi,
                     "detail": m.detail})  # fmt: skip
    return ladder_table(pd.DataFrame(rows))


def test_known_levels_of_synthetic_games_and_their_sentence():
    strengths = {"a": 1.5, "b": 1.5, "c": 0.0}  # a and b one level, c below: 2 of 3
    games = synthetic_games(strengths, players=(3,), deals=150, seed=2, unfinished_p=0.0,
                            forfeit_p=0.0)  # fmt: skip
    t = _ladder(games, list(strengths))
    assert t["significant"].tolist() == [False, True]
    assert t["levels"].tolist() == [2, 2] and t["rungs"].tolist() == [3, 3]
    flat = t.iloc[0]
    text = ladder_sentence(t, ["default"])
    assert text == (
        "The skill ladder (the field in the default rules' order of strength, each step a "
        "strategy over the next, paired by deal, Holm over the 2 steps): the default rules "
        "tell at least 2 skill levels apart among its 3 strategies (a one-sided bound, at "
        "least 95% sure: a level is a step significant with its interval above 0, and Holm "
        "over the steps' one-sided tests keeps the chance that any step counted is in truth "
        "not upward under 5%); the "
        f"step not significant: a over b ({100 * flat['diff']:+.1f} percentage points; "
        f"{100 * flat['needs']:.1f} percentage points either way would be significant "
        "whatever the other steps)."
    )
    other = t.assign(rules="hand_size=9", levels=1, significant=False)
    both = ladder_sentence(pd.concat([t, other]), ["default", "hand_size=9"])
    assert both.endswith(
        "; hand_size=9: at least 1 of 3"
        " (no step is significant: the bound tells no neighbouring pair apart)."
    )


def test_the_page_table_shows_what_a_step_needs_and_the_bound():
    from reports.variants_tables import ladder_rows

    t = ladder_table(_simulated([0.0, 0.2], 1, seed=1))
    shown = ladder_rows(t)
    assert shown["levels (at least, of)"].tolist() == ["2 of 3", "2 of 3"]
    needs = [f"{100 * v:.1f}" for v in t["needs"]]
    assert shown["significant from (percentage points)"].tolist() == needs
