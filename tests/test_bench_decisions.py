"""benchmarks/bench_decisions.py: a move's value is its win rate over the posterior deals, the
correlation it reports is of moves' outcomes on the same deal, a gain is measured against the
policy's move, and the figures do not depend on how the work is split."""

from __future__ import annotations

import numpy as np
import pytest

from .helpers import BENCHMARKS, load_benchmark


@pytest.fixture(scope="module")
def bench():
    with pytest.MonkeyPatch.context() as mp:
        mp.syspath_prepend(str(BENCHMARKS))  # it reads bench_ceiling's posterior, as a script
        yield load_benchmark("bench_decisions")


@pytest.fixture(scope="module")
def found(bench):
    a = bench.Args("weighted", "weighted", "ismcts:preset=fast", 40, 60, 10, 601)
    return [p for g in (0, 1) for p in bench.positions(g, a)]


def test_mean_correlation_of_moves_on_the_same_deal(bench):
    rng = np.random.default_rng(0)
    a = rng.integers(0, 2, 4000)
    assert bench._mean_correlation(np.stack([a, a, a], axis=1)) == pytest.approx(1.0)
    indep = rng.integers(0, 2, (4000, 3))
    assert abs(bench._mean_correlation(indep)) < 0.05
    flipped = np.stack([a, 1 - a], axis=1)
    assert bench._mean_correlation(flipped) == pytest.approx(-1.0)
    # a move that always wins (or never) has no correlation to take part in
    assert bench._mean_correlation(np.stack([a, np.ones_like(a), a], axis=1)) == pytest.approx(1)
    assert np.isnan(bench._mean_correlation(np.stack([a, np.zeros_like(a)], axis=1)))


def test_positions_value_every_legal_move(found):
    assert len(found) >= 5
    for pos in found:
        assert pos.ids == pos.state.legal_action_ids() and len(pos.ids) > 1
        assert pos.state.current_player == pos.seat and pos.own in pos.ids
        assert ((pos.values >= 0) & (pos.values <= 1)).all()


def test_a_gain_is_the_value_of_the_move_made_over_the_policys(bench, found):
    # weighted's move is the --own policy's move, compiled or not: it gains nothing
    assert not bench.gains(found, 0, "weighted", 2, 7).any()
    search = bench.gains(found, 0, "ismcts:preset=fast,iterations=60", 2, 7)
    lo = np.array([p.values.min() - p.values[p.ids.index(p.own)] for p in found])
    hi = np.array([p.values.max() - p.values[p.ids.index(p.own)] for p in found])
    assert (search >= lo[:, None]).all() and (search <= hi[:, None]).all() and search.any()
    # a position's decisions depend on its place in the run, not on the chunk it is in
    split = np.concatenate([
        bench.gains(found[:3], 0, "ismcts:preset=fast,iterations=60", 2, 7),
        bench.gains(found[3:], 3, "ismcts:preset=fast,iterations=60", 2, 7),
    ])  # fmt: skip
    assert np.array_equal(split, search)


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["--specs", "no_such"], "unknown strategy 'no_such'"),
        (["--own", "ismcts"], "has no compiled form"),
        (["--games", "2"], "--games must be at least 4"),
    ],
)
def test_bad_arguments_are_one_line_errors_before_any_game(bench, monkeypatch, capsys, argv, says):
    monkeypatch.setattr(bench, "positions", None)  # nothing may be played
    monkeypatch.setattr("sys.argv", ["bench_decisions.py", *argv])
    with pytest.raises(SystemExit) as exit_:
        bench.main()
    err = capsys.readouterr().err.strip().splitlines()
    assert exit_.value.code == 2 and says in err[-1] and "Traceback" not in "\n".join(err)
