"""A tuning or a gauntlet whose interval is narrower than a tenth of a percentage point wrote
it '[+0.0, +0.0]' in its headline, as if it had no width, beside a detail line of '[-0.04,
+0.05]': every line writes the difference with the decimals that set its bounds apart from 0."""

from __future__ import annotations

import pytest

from leaves.commands.tune import verdict
from tests.test_audit_tune_verdict import _result
from tuning.tune import _paired


def test_a_narrow_interval_about_zero_is_not_written_zero_wide_in_the_headline():
    head = _result(0.00005, -0.0004, 0.0005, 0.8).headline()
    assert "(+0.01 percentage points [-0.04, +0.05], p = 0.80)" in head, head
    assert "[+0.0, +0.0]" not in head


def test_the_detail_line_keeps_its_two_decimals_and_more_where_a_bound_needs_them():
    assert _paired(_result(0.00005, -0.0004, 0.0005, 0.8).verification).startswith(
        "+0.01 percentage points [-0.04, +0.05]"
    )
    assert _paired(_result(0.00001, -0.00004, 0.00005, 0.8).verification).startswith(
        "+0.001 percentage points [-0.004, +0.005]"
    )


@pytest.mark.parametrize(
    ("diff", "low", "high", "said"),
    [(0.0003, 0.0001, 0.0005, "+0.03 percentage points of win rate [+0.01, +0.05]"),
     (0.0046, 0.004, 0.005, "+0.5 percentage points of win rate [+0.4, +0.5]")],
)  # fmt: skip
def test_a_better_verdict_never_writes_a_clear_bound_as_zero(diff, low, high, said):
    text = verdict(_result(diff, low, high, 0.01))
    assert said in text, text


@pytest.mark.parametrize(
    ("diff", "low", "high", "said"),
    [(0.0003, 0.0001, 0.0005, "a beats b by 0.03 percentage points [+0.01, +0.05] (paired"),
     (-0.0003, -0.0005, -0.0001,
      "a loses to b: the difference is -0.03 percentage points [-0.05, -0.01] (paired"),
     (0.00005, -0.0004, 0.0005, "b: +0.01 percentage points [-0.04, +0.05] (paired"),
     (0.012, 0.004, 0.02, "a beats b by 1.2 percentage points [+0.4, +2.0] (paired")],
)  # fmt: skip
def test_a_gauntlet_verdict_never_writes_a_bound_apart_from_zero_as_zero(diff, low, high, said):
    """A clear difference of a very large gauntlet read 'beats b by 0.0 percentage points
    [0.0, 0.0]': the verdict takes the decimals that set its bounds apart from 0."""
    from reports.gauntlet import fixed_verdict

    row = {"strategy": "a", "baseline": "b", "deals": 2_000_000, "diff": diff,
           "diff_ci_low": low, "diff_ci_high": high, "p_value": 0.001}  # fmt: skip
    assert said in fixed_verdict(row), fixed_verdict(row)


def test_a_bound_a_hair_across_zero_adds_no_decimals_to_an_ordinary_figure():
    """[-0.00004, 2.4] percentage points read '+1.2000 [0.0000, 2.4000]': a bound that four
    decimals still write as 0 never asks for more; the verdict signs it on its side of 0
    ('-0.0', ``reports.numbers.signed_bound``)."""
    from reports.gauntlet import fixed_verdict
    from reports.numbers import apart_digits

    row = {"strategy": "a", "baseline": "b", "deals": 500, "diff": 0.012,
           "diff_ci_low": -4e-7, "diff_ci_high": 0.024, "p_value": 0.06}  # fmt: skip
    assert "+1.2 percentage points [-0.0, +2.4] (paired" in fixed_verdict(row)  # its side
    head = _result(0.012, -4e-7, 0.024, 0.06).headline()
    assert "(+1.2 percentage points [-0.0, +2.4], p = 0.06)" in head, head  # the same rule
    assert apart_digits(-0.0001, 0.006) == 2  # across 0, wide: '-0.01', never '+0.0'
    assert apart_digits(-0.0004, 0.0005) == 2  # across 0 within a tenth: what shows it
    assert apart_digits(0.0001, 0.0005) == 2  # clear of 0: a bound never read 0
