"""A share that has rounded to exactly 0 (a strategy the dynamics took out in an earlier pass)
starts the replicator dynamics at ``GONE`` instead of a log of 0: a run of three sizes and four
strategies (``--players 3,4,5 --games 3000 --seed 5``) failed its report with 'All components of
the initial state y0 must be finite' from such starts."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from reports import metagame as mg
from tests.helpers import cli
from tests.test_metagame import multisets, table_payoffs


def slight_edge(counts: np.ndarray) -> np.ndarray:
    """Three strategies at three seats: the first a tenth of a point better per seat of the
    second at its table, the third even with both."""
    a, b, _ = counts
    return np.array([1 / 3 + 1e-3 * b / 3, 1 / 3 - 1e-3 * a / 3, 1 / 3])


def setup() -> tuple[mg.Fitness, np.ndarray]:
    counts = multisets(3, 3)
    fit = mg.Fitness.of(counts)
    return fit, fit.gather(table_payoffs(counts, slight_edge))


def test_the_dynamics_start_from_shares_that_rounded_to_zero():
    fit, gathered = setup()
    starts = np.array([[1.0, 7.8e-176, 0.0]])  # the third: an exact 0
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no 'divide by zero encountered in log'
        out = mg.replicator(fit, gathered, starts, times=np.array([0.0, mg.HORIZON]))
    assert np.isfinite(out).all()
    np.testing.assert_allclose(out.sum(axis=-1), 1.0)
    assert out[-1, 0, 2] < mg.TINY  # what was out stays out


def test_a_strategy_dropped_beside_one_already_at_zero_leaves_a_rest_point():
    """The second strategy still loses and is dropped; the third, already at 0, is restarted
    with the first: the reduced dynamics run on and rest at the first alone."""
    fit, gathered = setup()
    ends = np.array([[0.6, 0.4, 0.0]])
    _, regret = mg.regrets(fit, gathered, ends)
    assert regret[0] <= mg.EPS  # the reduction applies here
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        x = mg._reduced(fit, gathered, ends)
    np.testing.assert_allclose(x[0], [1.0, 0.0, 0.0], atol=1e-9)


@pytest.mark.slow
def test_the_run_that_failed_its_report_gets_one(tmp_path, capsys):
    run = str(tmp_path / "mix")
    code, _, err = cli(capsys, "tournament", "greedy", "low", "high", "counter", "--players",
                       "3,4,5", "--games", "3000", "--seed", "5", "--jobs", "1", "--out", run)  # fmt: skip
    assert code == 0, err
    code, out, err = cli(capsys, "report", run)
    assert code == 0, err
    assert "Meta-game at 5 players" in out and "warning" not in err
