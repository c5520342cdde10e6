"""``variants_differences.csv`` states ``se`` and ``df`` only beside the interval they make
(diff +- t * se), as compare.csv does: a share whose either side shows no spread gets Newcombe's
interval, and no ``se`` or ``df``. ``no_spread`` says where every duplicate set gave the same
difference, and the findings read it where they read a standard error of 0 before, saying
what they said then. Checked on small real runs against their own rows and metrics."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from reports.clusters import t_quantile
from tests.helpers import cli_output
from tests.test_edge72_claims import rows

FIELD = ["greedy", "weighted", "random", "--players", "3", "--games", "48", "--seed", "1",
         "--jobs", "1", "--trace-games", "0", "--restricted-games", "0", "--format", "md"]  # fmt: skip
SHARES = {"unfinished", "best_vs_random"}


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """One comparison whose games differ (hand_size=9), one whose games are the same as the
    default rules' (a turn limit no game reaches)."""
    base = tmp_path_factory.mktemp("variants_spread")
    for rules in ("hand_size=9", "turn_limit=900"):
        code, _, err = cli_output("variants", *FIELD, "--rules", rules, "--out",
                                  str(base / rules))  # fmt: skip
        assert code == 0, err
    return base


def _diffs(out) -> pd.DataFrame:
    return pd.read_csv(out / "variants_differences.csv")


@pytest.mark.parametrize("rules", ["hand_size=9", "turn_limit=900"])
def test_se_and_df_are_stated_beside_the_t_interval_they_make_only(runs, rules):
    d = _diffs(runs / rules)
    m = pd.read_csv(runs / rules / "variants_metrics.csv")
    flat = m.groupby("metric")["se"].apply(lambda se: bool((se == 0).any()))
    for r in d.itertuples():
        newcombe = r.metric in SHARES and flat[r.metric]  # a side without spread
        assert np.isnan(r.se) == np.isnan(r.df) == newcombe, r
        if newcombe:
            assert np.isfinite(r.ci_low) and np.isfinite(r.ci_high) and r.ci_low <= r.diff
        elif np.isfinite(r.ci_low):
            half = float(t_quantile(r.df)) * r.se
            assert (r.ci_low, r.ci_high) == pytest.approx((r.diff - half, r.diff + half)), r


def test_no_spread_says_where_every_duplicate_set_gave_one_difference(runs):
    d = _diffs(runs / "hand_size=9").set_index("metric")
    games = [rows(runs / "hand_size=9" / side) for side in ("default", "hand_size=9")]
    assert not any(g["unfinished"].any() for g in games)  # 0 in every set of both runs
    assert bool(d.loc["unfinished", "no_spread"]) and np.isnan(d.loc["unfinished", "se"])
    assert (games[0]["turns"].sum() != games[1]["turns"].sum()) and not d.loc["turns", "no_spread"]
    assert not d.loc["best_vs_random", "no_spread"]  # the variant's sets differ
    same = _diffs(runs / "turn_limit=900")
    assert same["no_spread"].all() and (same["diff"] == 0).all()


def test_runs_that_played_out_alike_are_still_said_to(runs):
    """The findings read ``no_spread``, not a standard error of 0: the shares' rows, with
    Newcombe's interval, have none, and the sentence stays."""
    same = _diffs(runs / "turn_limit=900")
    assert same.loc[same["metric"].isin(SHARES), "se"].isna().all()
    said = (runs / "turn_limit=900" / "findings.txt").read_text(encoding="utf-8")
    assert ("With turn_limit=900, every measure is the same as under the default rules: the "
            "games played out alike.") in said  # fmt: skip
    other = (runs / "hand_size=9" / "findings.txt").read_text(encoding="utf-8")
    assert "played out alike" not in other
