"""Rates the findings write beside the summary's are judged on the figures as printed, not on
the raw gap: the best strategy's rates at the tables both sat at (``findings_best._shared``)
and a neighbour's rate where the other can also sit elsewhere. A clause whose figures read as
the summary's would only repeat them, and one that reads otherwise is said however small the
gap; two rates of which one is said to be ahead never print as one figure. Every number below
is hand-made, each printed figure worked out beside it."""

from __future__ import annotations

import pandas as pd

from reports.findings import _neighbours
from tests.test_mutation66_best import PAIRED, SUMM3, _best, _p, _s

A_30 = _s("a", 0.40, 0.35, 0.45)  # 40.0%, its sentence's rate (fair share 25.0%: one decimal)


def test_a_gap_of_exactly_5e_4_that_prints_as_the_summary_s_is_not_repeated():
    """b won 0.05% in all (printed 0.1%: 0.05 is stored just above it) and 0.1% where both
    sat: a gap of exactly 5e-4, and the same printed figure."""
    assert 0.001 - 0.0005 == 5e-4
    summ = [A_30, _s("b", 0.0005, 0.0, 0.003)]
    sig = [_p("a", "b", 0.40, 0.001, 0.35, 0.45, 0.001, p_holm=0.001)]
    text = _best(summ, sig)
    assert f"({PAIRED}, p = 0.001); it holds" in text and "there" not in text


def test_a_gap_wider_than_5e_4_that_prints_as_the_summary_s_is_not_repeated():
    """a: 50.96% in all, 51.049% where both sat (a gap of 0.089 points): both print 51.0%."""
    summ = [_s("a", 0.5096, 0.47, 0.55), _s("b", 0.30, 0.25, 0.35)]
    sig = [_p("a", "b", 0.51049, 0.30, 0.15, 0.27, 0.001)]
    text = _best(summ, sig)
    assert "a wins 51.0% [47.0, 55.0]" in text
    assert f"({PAIRED}, p = 0.001); it holds" in text and "there" not in text


def test_a_gap_under_5e_4_that_prints_otherwise_is_said():
    """a: 51.049% in all (51.0%), 51.051% where both sat (51.1%): a gap of 0.002 points."""
    summ = [_s("a", 0.51049, 0.47, 0.55), _s("b", 0.30, 0.25, 0.35)]
    sig = [_p("a", "b", 0.51051, 0.30, 0.15, 0.27, 0.001)]
    assert f"({PAIRED}, p = 0.001; there a won 51.1% and b 30.0%); it holds" in _best(summ, sig)


def test_the_runner_up_s_figure_alone_reading_otherwise_is_said_with_both():
    """a's rate where both sat prints as its summary's (40.0%), b's does not (29.0% against
    30.0%): the clause names both, the two the margin is the difference of."""
    sig = [_p("a", "b", 0.40, 0.29, 0.05, 0.17, 0.001)]
    assert f"({PAIRED}, p = 0.001; there a won 40.0% and b 29.0%); it holds" in _best(SUMM3, sig)


def test_the_leader_s_figure_alone_reading_otherwise_is_said():
    """b's rate where both sat prints as its summary's (30.0%), a's does not (41.0%)."""
    sig = [_p("a", "b", 0.41, 0.30, 0.05, 0.17, 0.001)]
    assert f"({PAIRED}, p = 0.001; there a won 41.0% and b 30.0%); it holds" in _best(SUMM3, sig)


def test_a_leader_ahead_where_both_sat_never_prints_the_same_figure_as_the_runner_up():
    """30.02% against 30.01% where both sat: one decimal writes both 30.0%, two set them
    apart."""
    sig = [_p("a", "b", 0.3002, 0.3001, 0.00004, 0.00016, 0.001)]
    assert "; there a won 30.02% and b 30.01%); it holds" in _best(SUMM3, sig)


def test_the_decimals_are_those_that_read_the_percentages_apart():
    """5.049% and 4.951%: one decimal writes both 5.0%, two read them apart (5.05% and
    4.95%); judged on the percentages written, not on the rates or another scale of them."""
    sig = [_p("a", "b", 0.05049, 0.04951, 0.0005, 0.0015, 0.001)]
    assert "; there a won 5.05% and b 4.95%); it holds" in _best(SUMM3, sig)


def test_rates_equal_where_both_sat_keep_one_decimal():
    """35.0% each where both sat (no margin, not significant): equal rates read alike at
    one decimal, and no more are sought."""
    sig = [_p("a", "b", 0.35, 0.35, -0.05, 0.05, 1.0)]
    assert f"({PAIRED}, p = 1.00; there a won 35.0% and b 35.0%): not significant." in _best(
        SUMM3, sig
    )


def test_a_runner_up_ahead_where_both_sat_never_prints_the_same_figure_as_the_leader():
    """b ahead of a where both sat by 0.02 points, significant: 28.03% against 28.01%, not
    28.0% against 28.0%."""
    sig = [_p("a", "b", 0.2801, 0.2803, -0.00035, -0.00005, 0.004)]
    text = _best(SUMM3, sig)
    assert "at the tables both sat at b wins 28.03% against its 28.01% and beats it by" in text


def _after(win_rate: float, shared_rate: float) -> str:
    """The neighbour finding of two hand-made strategies: b wins ``win_rate`` after a, and
    ``shared_rate`` at the tables where a can also sit elsewhere, 25.0% elsewhere; a after b
    shows no effect (0), so b's is the strongest."""
    nb = pd.DataFrame({"strategy": ["b", "a"], "before": ["a", "b"], "win_rate": [win_rate, 0.25],
                       "ci_low": [0.0] * 2, "ci_high": [0.6] * 2,
                       "shared_rate": [shared_rate, 0.25], "elsewhere_rate": [0.25] * 2,
                       "vs_elsewhere": [shared_rate - 0.25, 0.0], "vs_elsewhere_low": [-0.3] * 2,
                       "vs_elsewhere_high": [0.3] * 2, "vs_elsewhere_p": [0.5] * 2})  # fmt: skip
    (found,) = _neighbours(nb, None)
    return found.text


def test_a_neighbour_s_shared_rate_printing_as_its_rate_is_not_repeated():
    """0.05% and 0.1%, exactly 5e-4 apart: both print 0.1%."""
    text = _after(0.0005, 0.001)
    assert "b wins 0.1% [0.0, 60.0] when a sits before it, against 25.0%" in text
    assert "also sit elsewhere" not in text


def test_a_neighbour_s_shared_rate_printing_otherwise_is_said_however_close():
    """51.049% (51.0%) and 51.051% (51.1%): 0.002 points apart, printed apart."""
    assert ("b wins 51.0% [0.0, 60.0] when a sits before it; at the tables where a can also "
            "sit elsewhere it wins 51.1%, against 25.0%") in _after(0.51049, 0.51051)  # fmt: skip
