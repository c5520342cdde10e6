"""The decimals ``reports.numbers`` chooses, at the edges where a slip would change a sentence:
a p-value exactly at its level and just either side, the bounds of a difference that would read
alike or read 0 on the wrong side, a figure against a level it must read apart from, the cap on
decimals, and the defaults each caller leans on. Every expected string is worked out by hand."""

from __future__ import annotations

import math

import pytest

from reports.numbers import (
    LEVEL_DIGITS,
    TOO_FEW,
    apart_digits,
    difference_interval,
    fixed,
    flat_sets,
    level_digits,
    p_figure,
    p_text,
    pp_cell,
)


def test_a_comparison_is_flat_only_without_an_interval_and_with_a_p_value():
    assert flat_sets(0.01, 0.02, 0.5, 7) == 0  # an interval: nothing to say of flat sets
    assert flat_sets(math.nan, math.nan, 0.03, 7) == 7  # a p-value, no interval: 7 flat sets
    assert flat_sets(0.01, math.nan, 0.03, 7) == 7  # one bound missing is no interval either
    assert flat_sets(math.nan, 0.02, 0.03, 7) == 7
    assert flat_sets(math.nan, math.nan, math.nan, 7) == 0  # neither: too few deals
    assert flat_sets(math.nan, math.nan, 0.03, math.nan) == 0


def test_fixed_and_pp_cell_write_one_decimal_unless_told():
    assert fixed(0.123) == "0.1" and fixed(2.0) == "2.0"
    assert fixed(-0.04) == "0.0" and fixed(-0.04, sign="+") == "+0.0"  # never '-0.0'
    assert pp_cell(0.012) == "+1.2 pp" and pp_cell(-0.0004) == "+0.0 pp"
    assert pp_cell(-0.0123) == "-1.2 pp"


@pytest.mark.parametrize(("lo", "hi", "want"), [
    (0.1, 0.2, 1),            # [10.0, 20.0]: apart, no bound near 0
    (0.5, 0.5, 1),            # one value: reading alike is the truth
    (0.1231, 0.1234, 2),      # 12.3 and 12.3, then 12.31 and 12.34
    (0.5, 0.5 + 1e-9, 4),     # alike at every count of decimals: at most four
    (0.0001, 0.2, 2),         # clear of 0 above: 0.01 would read 0.0
    (-0.2, -0.0001, 2),       # clear of 0 below: -0.01 would read 0.0
    (4e-7, 0.2, 1),           # 0.00004 reads 0 even at four decimals: no decimal shows it
    (-0.0001, 0.2, 2),        # across 0, wide: '+0.0' would read as clear of 0 from above
    (-0.2, 0.0001, 2),        # likewise above: '+0.01', never '+0.0' beside '-20.0'
    (-4e-7, 0.2, 1),          # across 0 by less than four decimals show: its sign shows it
    (-0.0004, 0.0006, 2),     # across 0 within a tenth: '[+0.0, +0.1]' would hide the side
    (0.000496, 0.2, 2),       # 0.0496 reads 0.0
    (0.000503, 0.2, 1),       # 0.0503 reads 0.1: apart from 0 already
    (0.0001, math.nan, 1),    # no interval: the decimals asked
    (-math.inf, -0.0001, 1),
])  # fmt: skip
def test_apart_digits_in_percentage_points(lo, hi, want):
    assert apart_digits(lo, hi) == want


def test_apart_digits_across_zero_shows_each_bound_on_its_side():
    assert apart_digits(-0.04, 0.095, scale=1.0) == 2  # both within 0.1 of 0
    assert apart_digits(-0.04, 0.1, scale=1.0) == 2  # '-0.04', never '+0.0' beside '+0.1'
    assert apart_digits(-0.04, 0.105, scale=1.0) == 2
    assert apart_digits(-0.06, 0.105, scale=1.0) == 1  # '-0.1': its side shown already
    assert apart_digits(0.1, 0.2, digits=3) == 3


def test_difference_interval_is_signed_percentage_points_with_one_decimal():
    assert difference_interval(-0.044, 0.078) == "[-4.4, +7.8]"
    assert difference_interval(0.0123, 0.0456) == "[+1.2, +4.6]"
    assert difference_interval(math.nan, 0.1) == f"({TOO_FEW})"


def test_level_digits_reads_each_figure_apart_from_its_level():
    assert level_digits((1.0,), 2.0) == 2  # apart at the two decimals asked
    assert level_digits((), 0.5) == 2
    assert level_digits((1.004,), 1.0) == 3  # 1.00 against 1.00, then 1.004 against 1.000
    assert level_digits((0.5, 0.7), 0.5) == 2  # a figure at the level reads as it, truly
    assert level_digits((0.05 + 1e-14,), 0.05) == LEVEL_DIGITS == 12  # the cap


@pytest.mark.parametrize(("p", "want"), [
    (0.05, "0.05"),                       # at the level: not below it, reads as it
    (0.0501, "0.05"),                     # above it may read as the level
    (0.0454, "0.045"),                    # below it never reads as the level
    (0.0496, "0.0496"),                   # 0.05, 0.050, then 0.0496
    (0.05 - 1e-15, "0.050000000000"),     # below it by less than the cap can show
])  # fmt: skip
def test_p_figure_reads_on_its_own_side_of_005(p, want):
    assert p_figure(p) == want
    assert p_text(p) == f"p = {want}"


def test_p_figure_least_decimals():
    assert p_figure(0.21, least=3) == "0.210" and p_figure(0.21, least=1) == "0.21"
    assert p_figure(0.0098, 0.01) == "0.0098" and p_figure(0.0098) == "0.010"
