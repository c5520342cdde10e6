"""The skill ladder counts a level only where a step goes up (``ladder_table``): on ladders whose
truth is set here, a step significant the other way is no level and the sentence names the pair
it reverses (``ladder_sentence``); the count is a one-sided 95% lower bound on the steps that
truly go up, also where some truly go down; and the page's table says which steps count."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from reports.designer_measures import ladder_table
from reports.designer_text import ladder_sentence
from reports.variants_tables import ladder_rows

SE, DF = 0.02, 40.0
HALF = float(stats.t.ppf(0.975, DF)) * SE  # the 95% interval's half-width, as a run's


def _steps(rules: str, values: list[float], se: float = SE) -> list[dict]:
    """One rule set's ladder of a, b, c, ... (a the strongest in the ladder's order): step i is
    the win rate of the i-th less the next's, with its t interval."""
    half = float(stats.t.ppf(0.975, DF)) * se
    return [{"rules": rules, "metric": "ladder_step", "position": i, "value": v, "se": se,
             "df": DF, "deal_sets": 41, "ci_low": v - half, "ci_high": v + half,
             "detail": f"{'abcdefghij'[i]} - {'abcdefghij'[i + 1]}"}
            for i, v in enumerate(values)]  # fmt: skip


def _table(*rule_sets: list[dict]) -> pd.DataFrame:
    return ladder_table(pd.DataFrame([r for steps in rule_sets for r in steps]))


def test_a_step_significant_the_other_way_is_no_level_and_is_named():
    # b over c is -0.20, ten errors below 0: c is clearly ahead of b, against the ladder
    t = _table(_steps("default", [0.2, 0.2, 0.2]), _steps("take=ends", [0.2, -0.2, 0.2]))
    ends = t[t["rules"] == "take=ends"]
    assert ends["significant"].tolist() == [True, True, True]
    assert ends["levels"].iloc[0] == 3 and ends["rungs"].iloc[0] == 4  # not 4 of 4
    assert ends["reversed"].tolist() == [False, True, False]
    assert ends["level"].tolist() == [True, False, True]
    text = ladder_sentence(t, ["default", "take=ends"])
    assert "the default rules tell at least 4 skill levels apart among its 4 strategies" in text
    lo, hi = f"{100 * (0.2 - HALF):.1f}", f"{100 * (0.2 + HALF):.1f}"
    assert text.endswith(
        "; take=ends: at least 3 of 4, its order differs from the ladder's (steps significant "
        f"the other way, no levels): c ahead of b by 20.0 percentage points [{lo}, {hi}]."
    )
    shown = ladder_rows(t)
    assert shown["a level"].tolist()[3:] == ["yes", "no: significant the other way", "yes"]
    assert shown["levels (at least, of)"].tolist()[3:] == ["3 of 4"] * 3


def test_every_step_up_counts_every_level():
    t = _table(_steps("default", [0.2, 0.15, 0.3]))
    assert t["level"].all() and not t["reversed"].any()
    assert t["levels"].tolist() == [4, 4, 4]
    text = ladder_sentence(t, ["default"])
    assert "at least 4 skill levels apart among its 4 strategies" in text
    assert "differs from the ladder's" not in text


def test_no_step_significant_tells_none_apart():
    t = _table(_steps("default", [0.01, -0.01, 0.0]), _steps("take=ends", [0.0, 0.01, -0.01]))
    assert not t["significant"].any() and (t["levels"] == 1).all()
    text = ladder_sentence(t, ["default", "take=ends"])
    assert (
        "no step of the default rules' 4 strategies is significant"
        " (at least 1 level: the bound tells no neighbouring pair apart)"
    ) in text
    assert text.endswith(
        "; take=ends: at least 1 of 4"
        " (no step is significant: the bound tells no neighbouring pair apart)."
    )


def test_a_ladder_significant_only_the_other_way_is_not_said_to_have_no_significant_step():
    t = _table(_steps("default", [-0.2, 0.0]), _steps("take=ends", [0.0, -0.2]))
    assert (t["levels"] == 1).all()
    text = ladder_sentence(t, ["default", "take=ends"])
    assert "no step is significant" not in text
    assert "no step of the default rules' 3 strategies goes up significantly; its order " in text
    assert ": b ahead of a by 20.0 percentage points [" in text
    assert (
        "; take=ends: no step up significantly among 3, its order differs from the ladder's "
        in text
    )
    assert text.endswith(f"c ahead of b by 20.0 percentage points [{100 * (0.2 - HALF):.1f}, "
                         f"{100 * (0.2 + HALF):.1f}].")  # fmt: skip
    assert t["reversed"].tolist() == [True, False, False, True]


def test_a_step_up_that_only_the_steps_the_other_way_made_significant_is_not_counted():
    # eight steps far below 0 pass Holm's first stages; the last, up with p = 0.04, then
    # passes the two-sided test at 5%, but one-sided (p = 0.02 over 9 steps) it does not
    t_up = float(stats.t.isf(0.02, DF))
    t = _table(_steps("default", [-0.3] * 8 + [t_up * SE]))
    last = t.iloc[-1]
    assert bool(last["significant"]) and last["ci_low"] > 0 and not bool(last["level"])
    assert (t["levels"] == 1).all()
    text = ladder_sentence(t, ["default"])
    assert "; i over j significant but not counted (Holm over the one-sided tests" in text
    assert ladder_rows(t)["a level"].iloc[-1] == "no: not kept by Holm over the one-sided tests"


def _simulated(truth: list[float], reps: int, seed: int) -> pd.DataFrame:
    """``reps`` ladders (one rule set each) whose steps are estimated with a t error of
    ``SE`` on ``DF`` degrees of freedom around ``truth``, each with its t interval."""
    rng = np.random.default_rng(seed)
    k = len(truth)
    value = (np.asarray(truth) + SE * rng.standard_t(DF, (reps, k))).ravel()
    return pd.DataFrame({
        "rules": np.repeat([f"r{i}" for i in range(reps)], k), "metric": "ladder_step",
        "position": np.tile(np.arange(k), reps), "value": value, "se": SE, "df": DF,
        "deal_sets": 41, "ci_low": value - HALF, "ci_high": value + HALF,
        "detail": np.tile([f"s{i} - s{i + 1}" for i in range(k)], reps),
    })  # fmt: skip


@pytest.mark.parametrize(
    "truth",
    [[0.0, -0.1, 0.0, 0.1], [-0.06, -0.06, -0.06, 0.0], [0.1, -0.1, 0.1, -0.1], [0.0] * 4],
)
def test_the_levels_bound_the_steps_truly_up_at_95_percent(truth):
    """Steps of -0.1 are five errors below 0: significant nearly always, and no level."""
    reps = 1500
    t = ladder_table(_simulated(truth, reps, seed=7 + len(set(truth))))
    per = t.groupby("rules", sort=False).first()
    real = 1 + sum(v > 0 for v in truth)  # the levels in the ladder's order
    over = float((per["levels"] > real).mean())
    assert over <= 0.05 + 3 * np.sqrt(0.05 * 0.95 / reps)
    if real > 1:  # steps of five errors are found most of the time: the bound is not idle
        assert float((per["levels"] == real).mean()) > 0.5


def test_where_no_step_goes_down_the_bound_is_nearer_97_5_percent_sure():
    """The page says so: a level's two-sided test spends half its 5% on each side, so with
    every step in truth 0 the levels exceed 1 about 2.5% of the time, not 5%."""
    reps = 4000
    t = ladder_table(_simulated([0.0] * 4, reps, seed=21))
    over = float((t.groupby("rules", sort=False).first()["levels"] > 1).mean())
    assert abs(over - 0.025) <= 3 * np.sqrt(0.025 * 0.975 / reps)
