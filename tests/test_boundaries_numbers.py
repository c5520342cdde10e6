"""The edges of ``reports.numbers``, the one source of how sentences write numbers: each format
on both sides of its thresholds, worked out by hand (a rounding slip here would put a wrong
figure into every sentence)."""

from __future__ import annotations

import math

import pytest

from reports.numbers import (
    NO_SPREAD,
    TOO_FEW,
    beside_digits,
    counted,
    interval,
    p_text,
    pct,
    points,
    signed_points,
)


def test_counted_agrees_in_number():
    assert counted(1, "deal") == "1 deal"
    assert counted(0, "deal") == "0 deals"
    assert counted(2, "match") == "2 matches"
    assert counted(1200, "strategy") == "1,200 strategies"
    assert counted(-1, "pair") == "-1 pairs"


def test_pct_and_its_digits():
    assert pct(0.51034) == "51.0%"
    assert pct(0.51056) == "51.1%"
    assert pct(0.5, 0) == "50%" and pct(1 / 6, 2) == "16.67%"


@pytest.mark.parametrize(("lo", "hi", "beside", "want"), [
    (0.2, 0.3, 0.25, 1),            # apart at one decimal
    (0.1669, 0.1848, 1 / 6, 2),     # 16.7 against 16.7: one more
    (0.16664, 0.19, 1 / 6, 2),      # 16.7 against 16.7, then 16.66 against 16.67
    (0.166664, 0.19, 1 / 6, 3),     # 16.67 against 16.67, then 16.666 against 16.667
    (1 / 6, 0.19, 1 / 6, 4),        # a bound on the value itself: at most four
    (0.19, 1 / 6, 1 / 6, 4),        # the upper bound likewise
    (math.nan, 0.3, 0.25, 1),
    (0.2, math.inf, 0.25, 1),
    (0.2, 0.3, math.nan, 1),
    (math.nan, math.nan, math.nan, 1),  # no figures: no decimals added
    (math.nan, 0.3, math.nan, 1),  # 'nan' beside 'nan' is no bound rounding onto a value
])  # fmt: skip
def test_beside_digits_adds_decimals_until_the_bounds_read_apart(lo, hi, beside, want):
    assert beside_digits(lo, hi, beside) == want


def test_beside_digits_starts_from_the_digits_asked_and_the_scale():
    assert beside_digits(0.2, 0.3, 0.25, digits=2) == 2
    assert beside_digits(0.2, 0.3, 0.25, digits=4) == 4
    assert beside_digits(0.201, 0.3, 0.2, digits=0) == 1  # 20 against 20, then 20.1 against 20.0
    assert beside_digits(1.5, 2.0, 1.54, scale=1.0) == 2  # 1.5 against 1.5 at one decimal


def test_interval_formats_and_says_when_there_is_none():
    assert interval(0.506, 0.513) == "[50.6, 51.3]"
    assert interval(0.506, 0.513, digits=2) == "[50.60, 51.30]"
    assert interval(-0.012, 0.034, scale=100) == "[-1.2, 3.4]"
    assert interval(1.25, 2.5, scale=1.0) == "[1.2, 2.5]"
    assert interval(0.1669, 0.1848, beside=1 / 6) == "[16.69, 18.48]"
    assert interval(0.2, 0.3, beside=0.25) == "[20.0, 30.0]"
    for lo, hi in ((math.nan, 0.5), (0.5, math.nan), (-math.inf, 0.5)):
        assert interval(lo, hi) == f"({TOO_FEW})"
    assert "no spread" in NO_SPREAD


def test_points_are_unsigned_and_singular_at_one():
    assert points(0.031) == "3.1 percentage points" and points(-0.031) == "3.1 percentage points"
    assert points(0.01) == "1.0 percentage point" and points(-0.0099) == "1.0 percentage point"
    assert points(0.0) == "0.0 percentage points" and points(0.011) == "1.1 percentage points"
    assert points(0.5) == "50.0 percentage points" and points(-0.25) == "25.0 percentage points"


def test_signed_points_keep_their_sign():
    assert (
        signed_points(-0.057) == "-5.7 percentage points"
        and signed_points(0.057) == "+5.7 percentage points"
    )
    assert (
        signed_points(0.01) == "+1.0 percentage point"
        and signed_points(-0.01) == "-1.0 percentage point"
    )
    assert signed_points(0.0) == "+0.0 percentage points"


@pytest.mark.parametrize(("p", "said"), [
    (0.21, "p = 0.21"), (0.01, "p = 0.01"), (0.0099, "p = 0.010"), (0.003, "p = 0.003"),
    (0.001, "p = 0.001"), (0.00099, "p = 1e-03"), (4e-6, "p = 4e-06"), (1e-16, "p = 1e-16"),
    (9e-17, "p < 1e-16"), (0.0, "p < 1e-16"), (math.nan, "p unknown"), (math.inf, "p unknown"),
])  # fmt: skip
def test_p_text_steps(p, said):
    assert p_text(p) == said
