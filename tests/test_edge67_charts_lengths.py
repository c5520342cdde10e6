"""A length histogram draws every game: the rare tail beyond the cut (every player count's
99.5th percentile) is one last bin, 'N+', whose games the axis's label counts; before, the
turns chart stopped near 75 while the table said the longest game took 95."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from reports import charts


def _dist(values: dict[int, int], measure: str = "turns") -> pd.DataFrame:
    """A ``lengths_hist`` table of one player count (4): value -> games."""
    return pd.DataFrame({"by": "n_players", "group": 4, "measure": measure,
                         "value": list(values), "games": list(values.values())})  # fmt: skip


# 1,000 games from 30 to 39 turns (100 each), then 3 of 95 and 2 of 120: the tail
TAILED = {**{v: 100 for v in range(30, 40)}, 95: 3, 120: 2}


def test_the_bins_hold_every_game_the_tail_in_the_last():
    edges, drawn, least, beyond = charts.length_bins(_dist(TAILED), "turns")
    ((_, share, mean),) = drawn
    assert share.sum() == pytest.approx(1.0)
    assert share[-1] == pytest.approx(5 / 1005)
    assert least == 95 and beyond == 5
    assert mean == pytest.approx(sum(v * n for v, n in TAILED.items()) / 1005)


def test_the_chart_draws_every_game_and_names_the_tail():
    ax = charts.length_distribution(_dist(TAILED), "turns").axes[0]
    (steps,) = ax.patches
    assert np.asarray(steps.get_data().values).sum() == pytest.approx(1.0)
    labels = [t.get_text() for t in ax.get_xticklabels()]
    assert labels[-1] == "95+"
    assert "95+: the 5 games of 95 turns or more" in ax.get_xlabel()


def test_without_a_tail_nothing_is_said_of_one():
    plain = {v: 100 for v in range(30, 40)}
    edges, _, least, beyond = charts.length_bins(_dist(plain), "turns")
    assert least is None and beyond == 0
    ax = charts.length_distribution(_dist(plain), "turns").axes[0]
    assert "or more" not in ax.get_xlabel()
    assert not any(t.get_text().endswith("+") for t in ax.get_xticklabels())


def test_one_game_beyond_is_counted_in_the_singular_with_the_tables_unit():
    one = {**{v: 300 for v in range(5, 10)}, 30: 1}
    ax = charts.length_distribution(_dist(one, "rounds"), "rounds", unit="round").axes[0]
    assert "30+: the 1 round of 30 rounds or more" in ax.get_xlabel()
