"""A standard error that is zero but for rounding is no spread: every duplicate set gave the
same rate, and the sums leave ~1e-17 of the zero. The rate's interval then counts each set
as one trial, as it does for an exact zero, never [p, p]; no t is stated, and the design
effect is the one the interval used."""

from __future__ import annotations

import numpy as np

from reports.clusters import Estimates, wilson_t


def _est(se: float) -> Estimates:
    return Estimates(np.array([0.5]), np.array([se]), np.array([72.0]), np.array([75]))


def test_rounding_leftover_is_no_spread_like_an_exact_zero():
    exact = wilson_t(_est(0.0))
    leftover = wilson_t(_est(4e-17))
    assert leftover[0][0] == exact[0][0] and leftover[1][0] == exact[1][0]
    lo, hi = float(leftover[0][0]), float(leftover[1][0])
    assert 0.38 < lo < 0.39 and 0.61 < hi < 0.62  # 75 sets as 75 trials: [38.8, 61.2]


def test_design_effect_with_no_spread_is_games_over_sets():
    # 450 seats over 75 sets, one trial a set: the variance is 6 times the binomial one
    assert float(_est(4e-17).design_effect(np.array([450.0]))[0]) == 6.0
    assert abs(float(_est(0.05).design_effect(np.array([450.0]))[0]) - 4.5) < 1e-9


def test_the_command_line_run_with_every_set_alike(tmp_path):
    """``weighted random`` at 3 players, seed 63: weighted won every game at its two-seat
    tables and every one at its one-seat table but random's few (a review's case: the
    summary said 50.0% [50.0, 50.0]), and the significance table said t = 1.5e17."""
    import pandas as pd  # heavy: this test only

    from leaves_cli.main import main

    out = tmp_path / "run"
    args = ["tournament", "weighted", "random", "--players", "3", "--games", "300", "--seed",
            "63", "--jobs", "1", "--out", str(out)]  # fmt: skip
    main(args)
    main(["report", str(out)])
    s = pd.read_csv(out / "report" / "summary.csv").set_index("strategy")
    assert s.loc["weighted", "ci_high"] - s.loc["weighted", "ci_low"] > 0.2
    assert s.loc["weighted", "design_effect"] == 6.0
    sig = pd.read_csv(out / "report" / "significance.csv")
    assert sig["t"].isna().all() or (sig["t"].abs() < 1e6).all()
