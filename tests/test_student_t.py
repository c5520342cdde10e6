"""The reports' Student t (``reports.student_t``) against scipy's, over the design's degrees of
freedom (5 and more, integers or not) and every tail a report prints."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import special

from reports.student_t import t_ppf, t_sf

DFS = np.concatenate([np.geomspace(5, 1e6, 45), [5.5, 7.25, 99.5, 100.5, 210.0]])


def test_the_tail_matches_scipy_to_a_relative_1e_9():
    ts = np.concatenate([np.linspace(0, 4, 41), np.geomspace(4, 60, 30)])
    d, t = np.meshgrid(DFS, ts)
    ours, theirs = t_sf(d, t), 2 * special.stdtr(d, -t)
    shown = theirs > 1e-300
    assert np.max(np.abs(ours - theirs)[shown] / theirs[shown]) < 1e-9
    assert np.array_equal(t_sf(d, -t), ours)  # two-sided: the sign of t does not matter


@pytest.mark.parametrize("level", [0.5, 0.8, 0.9, 0.95, 0.99, 0.999])
def test_the_quantile_matches_scipy(level):
    p = 0.5 + level / 2
    assert np.max(np.abs(t_ppf(DFS, p) / special.stdtrit(DFS, p) - 1)) < 1e-10


def test_very_large_and_infinite_df_are_the_normal():
    assert abs(t_sf(np.inf, 1.959963984540054) - 0.05) < 1e-15
    assert abs(t_ppf(np.array([np.inf]), 0.975)[0] - 1.959963984540054) < 1e-12
    huge = t_sf(1e9, np.array([1.0, 3.0, 10.0]))
    assert np.max(np.abs(huge / (2 * special.stdtr(1e9, -np.array([1.0, 3.0, 10.0]))) - 1)) < 1e-6


def test_what_has_no_tail_says_so():
    out = t_sf(np.array([10.0, 10.0, 0.0, 10.0]), np.array([np.nan, np.inf, 1.0, 0.0]))
    assert np.isnan(out[0]) and out[1] == 0.0 and np.isnan(out[2]) and out[3] == 1.0
