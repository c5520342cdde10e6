"""A level (a count or a share: lead changes, turns, unfinished games) is never below 0, and
neither is a bound of its interval as written: a t-interval reaching a hair below 0 is cut at 0
('0.00 [0.00, 0.50] changes', never '-0.0001 [-0.0001, 0.5000] changes', which spends four
decimals showing a side of 0 the count has no values on). The cut interval holds the true
value whenever the uncut one does, so it is as truthful; a difference keeps its sign rule
(``reports.numbers.apart_digits``, ``signed_bound``). Every expected string is worked out by
hand."""

from __future__ import annotations

import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from reports.variants_display import (
    SHOWN,
    diff_text,
    floored,
    nonnegative,
    value_text,
    value_words,
)


def _row(metric: str, value: float, lo: float, hi: float) -> pd.Series:
    return pd.Series({"metric": metric, "value": value, "ci_low": lo, "ci_high": hi})


@pytest.mark.parametrize(("metric", "value", "lo", "hi", "want"), [
    ("lead_changes", -1e-4, -1e-4, 0.5, "0.00 [0.00, 0.50] changes"),  # was '-0.0001 [...'
    ("lead_changes", 0.25, -0.02, 0.52, "0.25 [0.00, 0.52] changes"),  # was '[-0.02, 0.52]'
    ("turns", 3.0, -0.4, 6.4, "3.0 [0.0, 6.4] turns"),
    ("unfinished", 0.003, -0.002, 0.008, "0.3% [0.0, 0.8]"),  # a share: was '[-0.2, 0.8]'
])  # fmt: skip
def test_a_level_s_interval_is_cut_at_zero(metric, value, lo, hi, want):
    assert value_text(_row(metric, value, lo, hi)) == want
    assert value_words(_row(metric, value, lo, hi)) == want  # a sentence writes the cell


@pytest.mark.parametrize(("metric", "value", "lo", "hi", "want"), [
    ("lead_changes", 0.25, 0.0004, 0.5, "0.2500 [0.0004, 0.5000] changes"),  # clear of 0
    ("lead_changes", 0.25, 0.0, 0.5, "0.25 [0.00, 0.50] changes"),  # at 0: reads 0
    ("turns", 42.1, 41.9, 42.4, "42.1 [41.9, 42.4] turns"),
    ("seat", 0.0, -4e-7, 0.02, "+0.0 [-0.0, +2.0] pp"),  # an edge: a difference, signed
    ("seat", 0.001, -0.0004, 0.002, "+0.10 [-0.04, +0.20] pp"),
])  # fmt: skip
def test_a_level_clear_of_zero_keeps_its_decimals_and_a_difference_its_signs(
    metric, value, lo, hi, want
):
    assert value_text(_row(metric, value, lo, hi)) == want


def test_which_measures_are_levels():
    assert nonnegative("lead_changes") and nonnegative("unfinished") and nonnegative("turns")
    assert not nonnegative("seat") and not nonnegative("restricted_a")  # differences of rates
    assert not nonnegative("ladder_step") and not nonnegative("something_new")  # no unit
    levels = {m for m in SHOWN if nonnegative(m)}
    assert levels == {"turns", "rounds", "best_vs_random", "runner_up", "unfinished",
                      "shared_wins", "match_games", "lead_changes", "drama", "comeback",
                      "decided_at"}  # fmt: skip
    nan = float("nan")
    assert floored(-1e-4, 0.5) == (0.0, 0.5)
    assert [str(x) for x in floored(nan, -0.0)] == ["nan", "0.0"]


def test_a_difference_of_a_level_keeps_its_sign_rule():
    r = pd.Series({"metric": "lead_changes", "diff": 0.3, "ci_low": -1e-4, "ci_high": 0.6,
                   "significant": False})  # fmt: skip
    assert diff_text(r) == "+0.3000 [-0.0001, +0.6000] changes"  # may be below 0: shown


LEVELS = sorted(m for m in SHOWN if nonnegative(m))


@given(st.sampled_from(LEVELS), st.floats(-0.5, 0.5), st.floats(-0.5, 0.5), st.floats(0, 1))
def test_no_level_is_written_below_zero(metric, a, b, at):
    lo, hi = min(a, b), max(a, b)
    text = value_text(_row(metric, lo + at * (hi - lo), lo, hi))
    assert "-" not in text, text
    low, high = text.split("[")[1].split("]")[0].split(", ")
    scale, k = SHOWN[metric].scale, len(low.split(".")[1])
    half = 0.5 * 10.0**-k * (1 + 1e-9)  # the most a written bound is off
    assert float(low) == 0.0 if lo <= 0 else abs(float(low) - scale * lo) <= half, text
    assert abs(float(high) - scale * max(hi, 0.0)) <= half, text


# --- the findings' words write a level as its cell does --------------------------------------


def _look(metric: str, value: float, lo: float, hi: float, fair: float = 0.0):
    from reports.variants_text import _Lookup

    row = {"rules": "default", "metric": metric, "n_players": "all", "position": -1,
           "value": value, "ci_low": lo, "ci_high": hi, "fair": fair}  # fmt: skip
    return _Lookup(pd.DataFrame([row]), pd.DataFrame(columns=list(row)))


@pytest.mark.parametrize(("metric", "value", "lo", "hi", "want"), [
    ("lead_changes", 0.25, -1e-4, 0.5, "0.25 times [0.00, 0.50]"),  # was '0.2500 [-0.0001, ...'
    ("turns", 3.0, -0.4, 6.4, "3.0 turns [0.0, 6.4]"),
    ("unfinished", 0.003, -0.002, 0.008, "0.3% [0.0, 0.8]"),  # was '[-0.2, 0.8]'
    ("lead_changes", 0.25, 0.0004, 0.5, "0.2500 times [0.0004, 0.5000]"),  # clear of 0
])  # fmt: skip
def test_the_findings_write_a_level_s_interval_cut_at_zero(metric, value, lo, hi, want):
    assert _look(metric, value, lo, hi).shown(("default", metric, "all", -1)) == want


def test_a_seat_s_win_rate_is_a_level():
    look = _look("seat", -0.25, -0.252, -0.24, fair=0.25)  # its edge over the fair share
    assert look.shown(("default", "seat", "all", -1)) == "0.0% [0.0, 1.0]"  # never '-0.2'
