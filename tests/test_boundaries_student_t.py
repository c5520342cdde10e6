"""The edges of ``reports.student_t`` against scipy (an independent implementation): both sides
of each switch of method (the direct and the complementary fraction at t^2 = 3, the
asymptotic log-gamma ratio at df = 200, the normal beyond df 1e12), t = 0, infinite t and df,
NaN and non-positive df, and the quantile across the degrees of freedom reports use."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from reports.student_t import t_ppf, t_sf

# df on both sides of a = df / 2 = 100 (the log-gamma ratio switches there) and across the
# range the reports meet (5 and up), with the tolerance the module's docstring promises
DFS = [(2, 1e-11), (3, 1e-11), (5, 1e-11), (7.5, 1e-11), (10, 1e-11), (30, 1e-11),
       (99, 1e-11), (199.5, 1e-11), (200, 1e-11), (200.5, 1e-11), (201, 1e-11),
       (250, 1e-11), (1e3, 1e-11), (1e5, 1e-11), (1e6, 1e-9), (1e9, 1e-6)]  # fmt: skip
TS = [1e-8, 0.5, 1.0, 1.7, math.sqrt(3) - 1e-9, math.sqrt(3), math.sqrt(3) + 1e-9, 1.75, 2.0,
      3.0, 5.0, 10.0, 40.0, 1e3]  # fmt: skip


def scipy_tail(df: float, t: float) -> float:
    return 2.0 * stats.t.sf(abs(t), df) if t else 1.0


@pytest.mark.parametrize("df, rtol", DFS)
def test_the_two_sided_tail_agrees_with_scipy(df, rtol):
    got = t_sf(df, np.array(TS))
    want = np.array([scipy_tail(df, t) for t in TS])
    np.testing.assert_allclose(got, want, rtol=rtol, atol=0)


def test_the_tail_over_mixed_arrays_and_signs():
    df = np.array([5.0, 200.0, 201.0, 3.0, 1e5])
    t = np.array([-2.5, 0.3, -1.9, 1.0, -4.0])
    want = [scipy_tail(d, x) for d, x in zip(df, t, strict=True)]
    np.testing.assert_allclose(t_sf(df, t), want, rtol=1e-11)
    # broadcasting one df over many t
    np.testing.assert_allclose(t_sf(12.0, [1.0, -1.0]), [scipy_tail(12.0, 1.0)] * 2, rtol=1e-11)


def test_tiny_tails_keep_their_digits():
    for df, t in ((5.0, 1e3), (10.0, 1e3), (30.0, 200.0), (1e3, 40.0)):
        want = scipy_tail(df, t)
        assert want < 1e-12
        assert float(t_sf(df, t)) == pytest.approx(want, rel=1e-10)


def test_edges_of_the_inputs():
    assert float(t_sf(5.0, 0.0)) == 1.0 and float(t_sf(1e3, 0.0)) == 1.0
    assert float(t_sf(5.0, math.inf)) == 0.0 and float(t_sf(math.inf, -math.inf)) == 0.0
    assert float(t_sf(1.0, math.inf)) == 0.0 and float(t_sf(0.5, -math.inf)) == 0.0
    assert math.isnan(float(t_sf(5.0, math.nan)))
    assert math.isnan(float(t_sf(0.0, 1.0))) and math.isnan(float(t_sf(-1.0, 1.0)))
    assert math.isnan(float(t_sf(0.0, math.inf)))
    assert float(t_sf(1e-300, 1.0)) == pytest.approx(scipy_tail(1e-300, 1.0), abs=1e-12)


def test_beyond_df_1e12_the_tail_is_the_normals():
    for t in (0.5, 1.96, 3.0):
        normal = math.erfc(t / math.sqrt(2.0))
        assert float(t_sf(math.inf, t)) == pytest.approx(normal, rel=1e-15)
        assert float(t_sf(1.0000001e12, t)) == pytest.approx(normal, rel=1e-15)
        assert float(t_sf(2e12, t)) == pytest.approx(scipy_tail(2e12, t), rel=1e-8)
    assert float(t_sf(math.inf, 1.96)) == pytest.approx(0.04999579029644087, rel=1e-13)


@pytest.mark.parametrize("p", [0.6, 0.9, 0.95, 0.975, 0.995, 0.9995])
def test_the_quantile_agrees_with_scipy(p):
    dfs = np.array([2.0, 3.0, 5.0, 6.0, 9.5, 30.0, 199.0, 201.0, 1e3, 1e5, 1e6])
    np.testing.assert_allclose(t_ppf(dfs, p), stats.t.ppf(p, dfs), rtol=1e-10)
    assert float(t_ppf(np.array([1e9]), p)[0]) == pytest.approx(stats.t.ppf(p, 1e9), rel=1e-7)


def test_the_quantile_beyond_df_1e12_is_the_normals():
    got = t_ppf(np.array([math.inf, 2e12, math.inf]), 0.975)
    np.testing.assert_allclose(got, [1.959963984540054] * 3, rtol=1e-12)
    mixed = t_ppf(np.array([math.inf, 5.0]), 0.975)
    np.testing.assert_allclose(mixed, [1.959963984540054, 2.570581835636314], rtol=1e-11)


def test_known_quantiles_by_table():
    """Printed t tables: t_{0.975} at 5, 10 and 30 degrees of freedom."""
    np.testing.assert_allclose(t_ppf(np.array([5.0, 10.0, 30.0]), 0.975),
                               [2.5706, 2.2281, 2.0423], atol=5e-5)  # fmt: skip


@pytest.mark.parametrize("p", [0.9999, 1 - 1e-6, 1 - 1e-8, 1 - 1e-10])
def test_the_quantile_far_in_the_tail_from_the_smallest_stated_df(p):
    """Intervals of any level (``half_width(level)``) from MIN_DF = 5 up: Newton must start
    close enough to find the root in its 20 steps (a Cornish-Fisher start with z^6 for z^5,
    z^8 for z^7 or d^2 for d^3 overshoots to a NaN there)."""
    dfs = np.array([5.0, 5.5, 6.0, 7.0, 10.0, 30.0, 1e3])
    np.testing.assert_allclose(t_ppf(dfs, p), stats.t.ppf(p, dfs), rtol=1e-11)


@pytest.mark.parametrize("p", [0.6, 0.975, 0.9999, 1 - 1e-10])
def test_on_both_sides_of_df_3000_the_quantile_agrees_with_scipy(p):
    """From df 3,000 on the quantile is the Cornish-Fisher expansion alone (no Newton step):
    its five terms must hold it within 1e-12 there, where the last term matters most."""
    dfs = np.array([2999.0, 2999.99, 3000.0, 3000.5, 4000.0, 1e4, 3e4])
    np.testing.assert_allclose(t_ppf(dfs, p), stats.t.ppf(p, dfs), rtol=1e-12)


def test_a_single_df_gives_a_single_quantile():
    for df in (7.0, 2999.0, 5000.0, math.inf):
        one = t_ppf(df, 0.975)
        assert one.shape == () and float(one) == float(t_ppf(np.array([df]), 0.975)[0])


def test_just_past_df_1e12_the_tail_is_the_normals():
    """The switch is at df > 1e12 exactly: the next double above already takes the normal's
    tail (the fraction is a relative 1e-3 off there, and would be up to 1e12 + 1)."""
    df = np.nextafter(1e12, math.inf)
    for t in (0.5, 1.8, 3.0):
        assert float(t_sf(df, t)) == pytest.approx(math.erfc(t / math.sqrt(2.0)), rel=1e-15)
