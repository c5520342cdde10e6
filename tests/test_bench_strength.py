"""benchmarks/bench_strength.py reports the deal-clustered interval of the reports, not a plain
Wilson interval that treats the four seatings of one deal as independent games."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats as sps

import strategies
from reports.numbers import TOO_FEW
from reports.stats import wilson

from .helpers import load_benchmark


def _bench():
    return load_benchmark("bench_strength")


def test_vs_random_interval_is_clustered_by_deal():
    row = _bench().vs_random("low", deals=120, seed=5)
    assert row["games"] == 480
    assert 0.5 < row["win_rate"] < 1.0
    deff = row["design_effect"]
    assert deff != pytest.approx(1.0)  # the four seatings of a deal are not independent
    # Wilson's on the effective games, with the t quantile of the deals' degrees of freedom
    z = sps.t.ppf(0.975, row["df"])
    lo, hi = wilson(row["wins"] / deff, row["games"] / deff, z)
    assert (row["ci_low"], row["ci_high"]) == pytest.approx((float(lo), float(hi)))
    plain = wilson(row["wins"], row["games"])
    assert not np.allclose((row["ci_low"], row["ci_high"]), plain)


def test_search_table_prints_the_gauntlets_rates_and_says_when_too_few(monkeypatch, capsys):
    import reports
    from tournaments import gauntlet

    bench = _bench()
    monkeypatch.setattr(bench, "SEARCH", "ismcts:iterations=20,models=")
    monkeypatch.setattr(bench, "FAST", "ismcts:iterations=5,models=")
    bench.search_table(48, 3, 1, ["3x counter"])
    line = capsys.readouterr().out.splitlines()[-1]
    run = gauntlet(bench.SEARCH, bench.SEARCH_FIELDS["3x counter"], bench.FAST, games=48, seed=3)
    row = reports.gauntlet(run).iloc[0]
    mine = bench._rate(row["win_rate"], row["ci_low"], row["ci_high"])
    base = bench._rate(row["baseline_win_rate"], row["baseline_ci_low"], row["baseline_ci_high"])
    assert line.startswith("3x counter") and mine in line and base in line
    assert f"{100 * row['diff']:+.1f} [" in line
    assert bench._rate(0.5, float("nan"), float("nan")) == f"50.0% ({TOO_FEW})"


def test_our_search_at_equal_work_keeps_its_spec_and_takes_the_iterations():
    bench = _bench()
    assert bench.with_iterations("ismcts", 100) == "ismcts:iterations=100"
    flat = strategies.get(bench.with_iterations("ismcts:preset=flat", 100)).settings
    assert (flat["iterations"], flat["max_depth"], flat["widen"]) == (100, 1, 0.0)
