"""A difference's interval across 0 never reads as if it were clear of 0: each bound other
than 0 is written on its own side of 0 ('[-0.04, +0.20]' of [-0.04, +0.2] percentage points,
never '[+0.0, +0.2]'), with the decimals of ``reports.numbers.apart_digits``, and a bound that
even four decimals write as 0 keeps its sign (``signed_bound``: '[-0.0, +2.0]'). Every expected
string is worked out by hand; the properties state the rule for any interval."""

from __future__ import annotations

from types import SimpleNamespace

import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from reports.numbers import apart_digits, difference_interval, fixed, signed_bound

ZERO4 = fixed(0.0, 4)


def _written(lo: float, hi: float, scale: float = 100.0, digits: int = 1) -> tuple[str, str, int]:
    """The two bounds as a sentence writes them, with the decimals it writes them with."""
    k = apart_digits(lo, hi, digits, scale)
    low, high = difference_interval(lo, hi, scale, k).strip("[]").split(", ")
    return low, high, k


@pytest.mark.parametrize(("lo", "hi", "scale", "want"), [
    (-0.0004, 0.002, 100.0, "[-0.04, +0.20]"),     # read '[+0.0, +0.2]': clear of 0 from above
    (-0.003, 0.0003, 100.0, "[-0.30, +0.03]"),     # read '[-0.3, +0.0]': clear of 0 from below
    (-0.0001, 0.2, 100.0, "[-0.01, +20.00]"),
    (-0.00001, 0.02, 100.0, "[-0.001, +2.000]"),
    (-0.000001, 0.02, 100.0, "[-0.0001, +2.0000]"),  # four decimals, the most
    (-0.04, 0.1, 1.0, "[-0.04, +0.10]"),           # a rating, a count of turns
])  # fmt: skip
def test_an_interval_across_zero_shows_each_bound_on_its_side(lo, hi, scale, want):
    assert difference_interval(lo, hi, scale, apart_digits(lo, hi, 1, scale)) == want


@pytest.mark.parametrize(("lo", "hi", "want"), [
    (-0.044, 0.078, "[-4.4, +7.8]"),
    (0.0123, 0.0456, "[+1.2, +4.6]"),
    (-0.0006, 0.002, "[-0.1, +0.2]"),      # -0.06 reads -0.1: its side shown already
    (0.0001, 0.2, "[+0.01, +20.00]"),      # clear of 0: as before
    (-0.0004, 0.0006, "[-0.04, +0.06]"),   # within a tenth: as before
    (0.0, 0.02, "[+0.0, +2.0]"),           # a bound at 0 reads 0
    (-0.02, 0.0, "[-2.0, +0.0]"),
    (4e-7, 0.02, "[+0.0, +2.0]"),          # clear of 0 by less than four decimals show
])  # fmt: skip
def test_an_interval_already_truthful_is_written_as_before(lo, hi, want):
    assert difference_interval(lo, hi, digits=apart_digits(lo, hi)) == want


def test_a_bound_four_decimals_write_as_zero_keeps_its_own_sign():
    assert apart_digits(-4e-7, 0.02) == 1  # no count of decimals shows it: none added
    assert difference_interval(-4e-7, 0.02) == "[-0.0, +2.0]"  # across 0, never '[+0.0, ...'
    assert difference_interval(-0.02, -4e-7) == "[-2.0, -0.0]"  # clear of 0 from below
    assert difference_interval(-0.02, 4e-7) == "[-2.0, +0.0]"
    assert signed_bound(-0.00004, 1) == "-0.0" and signed_bound(0.00004, 1) == "+0.0"
    assert signed_bound(0.0, 2) == "+0.00" and signed_bound(-0.0, 2) == "+0.00"  # 0: no side
    assert signed_bound(-1.25, 1) == "-1.2" and signed_bound(1.26, 1) == "+1.3"
    assert fixed(-0.00004, 1, "+") == "+0.0"  # a figure alone still never reads '-0.0'


def test_difference_interval_never_writes_fewer_decimals_than_its_bounds_need():
    assert difference_interval(-0.0004, 0.002) == "[-0.04, +0.20]"  # one decimal asked
    assert difference_interval(-0.0004, 0.002, digits=3) == "[-0.040, +0.200]"  # more kept
    assert difference_interval(-0.044, 0.078, scale=1.0, digits=2) == "[-0.04, +0.08]"


SCALE = st.sampled_from([1.0, 100.0])
DIGITS = st.sampled_from([1, 2])
NEG = st.floats(-0.5, 0.0, exclude_max=True, allow_subnormal=False)
POS = st.floats(0.0, 0.5, exclude_min=True, allow_subnormal=False)


def _zero4(x: float) -> bool:
    """Whether four decimals, the most, write ``x`` as 0."""
    return fixed(x, 4) == ZERO4


@given(NEG, POS, SCALE, DIGITS)
def test_any_interval_across_zero_reads_across_zero(lo, hi, scale, digits):
    low, high, _ = _written(lo, hi, scale, digits)
    assert low.startswith("-") and high.startswith("+"), (low, high)
    assert float(low) < 0 or _zero4(scale * lo), low  # '-0.0' only where 4 decimals write 0
    assert float(high) > 0 or _zero4(scale * hi), high


@given(POS, POS, SCALE, DIGITS)
def test_any_interval_clear_of_zero_reads_clear_of_zero(a, b, scale, digits):
    for lo, hi in ((min(a, b), max(a, b)), (-max(a, b), -min(a, b))):  # above 0, below it
        low, high, _ = _written(lo, hi, scale, digits)
        assert low[0] == high[0] == ("+" if lo > 0 else "-"), (low, high)
        assert float(low) != 0 or _zero4(scale * lo), low  # 0 only where 4 decimals write 0
        assert float(high) != 0 or _zero4(scale * hi), high


@given(st.floats(-0.5, 0.5), st.floats(-0.5, 0.5), st.floats(0.0, 1.0), SCALE, DIGITS)
def test_written_bounds_read_back_within_half_a_unit(a, b, at, scale, digits):
    lo, hi = min(a, b), max(a, b)
    low, high, k = _written(lo, hi, scale, digits)
    half = 0.5 * 10.0**-k * (1 + 1e-9)
    assert abs(float(low) - scale * lo) <= half and abs(float(high) - scale * hi) <= half
    estimate = fixed(scale * (lo + at * (hi - lo)), k, "+")  # as a caller writes it beside
    assert float(low) <= float(estimate) <= float(high)
    for d in range(digits, k):  # each fewer decimals would read untruthfully
        few = (fixed(scale * lo, d), fixed(scale * hi, d))
        alike = few[0] == few[1] and lo != hi
        pairs = zip(few, (lo, hi), strict=True)
        hidden = any(float(t) == 0 and not _zero4(scale * x) for t, x in pairs)
        assert alike or hidden, (lo, hi, d)


# --- the sentences and cells that write a difference with its interval ----------------------

LO, HI, DIFF = -0.0004, 0.002, 0.0008  # +0.08 [-0.04, +0.20] percentage points


def test_the_gauntlet_verdict_writes_the_interval_across_zero():
    from reports.gauntlet import fixed_verdict

    row = {"strategy": "a", "baseline": "b", "deals": 500, "diff": DIFF, "diff_ci_low": LO,
           "diff_ci_high": HI, "p_value": 0.4}  # fmt: skip
    assert "+0.08 percentage points [-0.04, +0.20] (paired" in fixed_verdict(row)


def test_the_comparisons_write_the_interval_across_zero():
    from leaves_cli.compare_cmd import _change as cell
    from reports.compare import _change
    from reports.variants_text import _signed

    r = SimpleNamespace(diff=DIFF, ci_low=LO, ci_high=HI, no_spread=False)
    assert _change(r, True) == ("+0.08 percentage points", "[-0.04, +0.20]")
    assert cell(r) == "+0.08 [-0.04, +0.20]"
    said = _signed(pd.Series({"diff": DIFF, "ci_low": LO, "ci_high": HI}))
    assert said == "+0.08 percentage points [-0.04, +0.20]"


def test_the_tables_write_the_interval_across_zero():
    from reports.page import readable
    from reports.variants_display import diff_text

    row = {"metric": "unfinished", "diff": DIFF, "ci_low": LO, "ci_high": HI,
           "significant": False}  # fmt: skip
    assert diff_text(pd.Series(row)) == "+0.08 [-0.04, +0.20] pp"
    df = pd.DataFrame({"strategy": ["a"], "diff": [DIFF], "ci_low": [LO], "ci_high": [HI],
                       "p_value": [0.4]})  # fmt: skip
    assert list(readable("significance", df).iloc[0])[1:4] == ["+0.08 pp", "-0.04 pp", "+0.20 pp"]


def test_the_tuning_and_sequential_lines_write_the_interval_across_zero():
    from leaves_cli.sequential import batch_line
    from tournaments.sequential import Sequential
    from tuning.verify import Arm, Verification

    arm = Arm("taker", "taker", 400, 128, 0.32, 0.275, 0.365)
    v = Verification(seed=1, tuned=arm, start=arm, diff=DIFF, diff_low=LO, diff_high=HI,
                     p_value=0.4, units=100, games_differing=9)  # fmt: skip
    assert v.difference() == "+0.08 percentage points [-0.04, +0.20]"
    test = Sequential(0.01)
    r = {"diff": 0.001, "se": 0.003, "ci_low": -0.00004, "ci_high": 0.002}  # two decimals
    test.update(r["diff"], r["se"])  # hide -0.004: '[+0.00, +0.20]' read clear of 0
    assert "difference +0.100 percentage points [-0.004, +0.200]" in batch_line(test, 400, r)


def test_a_rating_table_shows_each_bound_on_its_side():
    from reports.rating import rating_digits

    ratings = pd.DataFrame({"rating": [0.2, 1.0], "ci_low": [-0.004, 0.5],
                            "ci_high": [0.5, 1.5]})  # fmt: skip
    assert rating_digits(ratings) == 3  # '-0.004', never '+0.00' beside '+0.50'
