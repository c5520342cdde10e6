"""Tests written where mutation testing found a formula of ``reports/stats.py`` no test
would notice going wrong (``python benchmarks/bench_mutation.py reports/stats.py``).

Each truth is worked out apart from the module: the Wilson bounds at 0 and n successes in
closed form, quantiles and moments of histograms from the values they count (numpy), and
Holm's adjustment from its definition."""

from __future__ import annotations

import math

import numpy as np
import pytest

from reports.stats import Z95, hist_moments, hist_quantiles, holm, wilson, within


def test_a_difference_interval_is_cut_to_minus_one_and_one_on_both_sides():
    lo, hi = within(np.array([-3.0, -0.5]), np.array([0.5, 3.0]))
    assert list(lo) == [-1.0, -0.5] and list(hi) == [0.5, 1.0]


@pytest.mark.parametrize("n", [1, 2, 7, 1000])
def test_wilson_at_no_successes_and_at_all_is_the_closed_form(n):
    """At k = 0 the interval is [0, z^2 / (n + z^2)]; at k = n, [n / (n + z^2), 1]: exactly
    0 and 1 at the closed ends (not a rounding's 1e-18), from a single game on."""
    z2 = Z95 * Z95
    lo0, hi0 = wilson(0, n)
    lon, hin = wilson(n, n)
    assert lo0 == 0.0 and hin == 1.0
    assert hi0 == pytest.approx(z2 / (n + z2), rel=1e-12)
    assert lon == pytest.approx(n / (n + z2), rel=1e-12)


def test_wilson_of_no_games_is_unknown_on_both_sides():
    lo, hi = wilson(np.array([0, 0, 3]), np.array([0, 0, 5]))
    assert np.isnan(lo[:2]).all() and np.isnan(hi[:2]).all()
    assert np.isfinite(lo[2]) and np.isfinite(hi[2])


def test_an_empty_histogram_row_has_no_quantiles_beside_a_full_one():
    counts = np.array([[0, 0, 0], [1, 2, 1]])
    out = hist_quantiles(counts, [0.0, 0.5, 1.0])
    assert np.isnan(out[0]).all()
    assert list(out[1]) == list(np.percentile([0, 1, 1, 2], [0, 50, 100]))


@pytest.mark.parametrize("values", [[1, 1, 2], [3, 3, 3, 4], [5, 5], [0, 1]])
def test_histogram_moments_equal_numpys_of_the_values_small_spreads_included(values):
    """A standard deviation under 1 (a variance under 1) is kept as it is."""
    counts = np.bincount(values)
    n, mean, std = hist_moments(counts)
    assert n[0] == len(values)
    assert mean[0] == pytest.approx(np.mean(values))
    assert std[0] == pytest.approx(np.std(values, ddof=1), abs=1e-12)


def _holm_by_definition(p: list[float]) -> list[float]:
    """Holm's step-down adjustment as its definition reads: sort, multiply the i-th smallest
    (from 0) by m - i, carry the running maximum, cap at 1; NaN counts as p = 1 and stays NaN."""
    m = len(p)
    known = [1.0 if math.isnan(x) else x for x in p]
    order = sorted(range(m), key=lambda i: known[i])
    out = [0.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, (m - rank) * known[i])
        out[i] = min(running, 1.0)
    return [math.nan if math.isnan(x) else y for x, y in zip(p, out, strict=True)]


@pytest.mark.parametrize(
    "p",
    [[0.01, math.nan, 0.04], [0.6, 0.7], [0.3, 0.01, 0.2, math.nan, 0.9], [0.02]],
)
def test_holm_equals_its_definition_a_missing_test_counting_as_one_that_found_nothing(p):
    got = holm(p)
    want = _holm_by_definition(p)
    assert np.allclose(got, want, equal_nan=True), (list(got), want)
    assert np.nanmax(got) <= 1.0
