"""A tuning's verification whose deals all gave the same difference has no interval but the
sign test's p-value: it was "too few deals to tell", "+66.67 points (too few deals for an
interval)" and "the verification is too small to tell anything" over 20 deals where the tuned
parameters won two games of three in every deal and the start none."""

from __future__ import annotations

import math

from tuning.tune import _paired, _warnings
from tuning.verify import Arm, Verification


def _arm(name: str, wins: int) -> Arm:
    return Arm(spec=name, label=name, games=60, wins=wins, win_rate=wins / 60, ci_low=0.4,
               ci_high=0.8)  # fmt: skip


def _flat(diff: float, p: float) -> Verification:
    return Verification(seed=1, tuned=_arm("tuned", 40), start=_arm("start", 0), diff=diff,
                        diff_low=math.nan, diff_high=math.nan, p_value=p, units=20,
                        games_differing=40)  # fmt: skip


def test_a_verification_with_no_spread_is_decided_by_the_sign_test() -> None:
    better = _flat(2 / 3, 2 * 0.5**20)
    assert better.verdict == "improved"
    assert _flat(-2 / 3, 2 * 0.5**20).verdict == "worse"
    assert _flat(0.1, 1.0).verdict == "no significant difference"
    said = _paired(better)
    assert "too few" not in said and "no spread" in said and "p = 2e-06" in said, said
    assert not any("too small" in line for line in _warnings(better, False, ["w"]))


def test_a_verification_too_small_for_any_test_still_says_so() -> None:
    small = Verification(seed=1, tuned=_arm("tuned", 40), start=_arm("start", 0), diff=0.2,
                         diff_low=math.nan, diff_high=math.nan, p_value=math.nan, units=3,
                         games_differing=10)  # fmt: skip
    assert small.verdict == "too few deals to tell"
    assert "(too few deals for an interval)" in _paired(small)
