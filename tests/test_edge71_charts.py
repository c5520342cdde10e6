"""The summary chart's axis holds every mark its lead names: a run whose strategies all win
less than the fair share (most games cut at the turn limit) still shows the orange tick."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st

from reports import charts


def summary(rates: list[float], fair: float) -> pd.DataFrame:
    r = np.array(rates)
    return pd.DataFrame({"strategy": [f"s{i}" for i in range(len(r))], "win_rate": r,
                         "ci_low": r * 0.8, "ci_high": r * 1.2, "fair_share": fair})  # fmt: skip


def test_the_fair_share_tick_is_inside_the_axis_when_every_strategy_is_below_it():
    """taker 18.2% [15.1, 21.7], counter 9.0%, greedy 2.2% against a fair share of 33.3%."""
    fig = charts.win_rates(summary([0.182, 0.09, 0.022], 1 / 3))
    try:
        assert fig.axes[0].get_xlim()[1] > 1 / 3
    finally:
        plt.close(fig)


@settings(max_examples=15, deadline=None)
@given(rates=st.lists(st.floats(0.0, 0.8), min_size=1, max_size=4),
       players=st.integers(2, 8))  # fmt: skip
def test_every_bar_interval_and_tick_is_inside_the_axis(rates, players):
    df = summary(rates, 1 / players)
    fig = charts.win_rates(df)
    try:
        end = fig.axes[0].get_xlim()[1]
        drawn = df[["win_rate", "ci_high", "fair_share"]].to_numpy()
        assert (drawn <= end).all() and end <= 1.0
    finally:
        plt.close(fig)
