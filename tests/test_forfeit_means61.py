"""A round ended by a forfeit measures no play (its scores are the zeros of a round cut
short), so no mean counts it: the tournament summary's mean and the report's mean when losing
are over the rows not ended by a forfeit, for every seat at the table, as the report's means
table is. They counted those zeros (stack 8.60 where its rounds played give 10.75)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import reports
from tests.helpers import forfeiting_run
from tournaments import TournamentResult


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> Path:
    return forfeiting_run(tmp_path_factory.mktemp("forfeits") / "run")


def _by_hand(out: Path, losing: bool) -> dict[str, float]:
    """Each strategy's mean score over the rounds no forfeit ended (where it did not win)."""
    rows = TournamentResult(out).games()
    valid = rows["forfeit_seat"].to_numpy() < 0
    assert 0 < (~valid).sum() < len(rows)  # the run holds both
    means = {}
    for label in ("Sometimes", "stack"):
        scores = []
        for s in range(2):
            at = valid & (rows[f"seat_{s}"] == label).to_numpy()
            if losing:
                at &= rows[f"won_{s}"].to_numpy() == 0
            scores.append(rows[f"score_{s}"].to_numpy()[at])
        means[label] = float(np.concatenate(scores).mean())
    return means


def test_the_tournament_summary_mean_leaves_forfeited_rounds_out(run):
    summary = TournamentResult(run).summary().set_index("strategy")
    truth = _by_hand(run, losing=False)
    assert summary.loc["stack", "score_mean"] == pytest.approx(truth["stack"])
    assert summary.loc["Sometimes", "score_mean"] == pytest.approx(truth["Sometimes"])


def test_the_report_mean_when_losing_leaves_forfeited_rounds_out(run):
    table = reports.summary(TournamentResult(run)).set_index("strategy")
    truth = _by_hand(run, losing=True)
    assert np.isfinite(truth["Sometimes"])  # stack loses no round played: its mean is none
    for label in truth:
        assert table.loc[label, "mean_score_when_losing"] == pytest.approx(
            truth[label], nan_ok=True
        )


def test_a_run_without_the_valid_counts_keeps_its_old_mean(run, tmp_path, capsys):
    """Aggregates of an earlier version hold no valid_* counts: the mean is over every game."""
    from tournaments.result import _rank_mean

    agg = dict(TournamentResult(run).aggregates())
    old = {k: v for k, v in agg.items() if not k.startswith("valid_")}
    assert np.allclose(_rank_mean(old), agg["rank_sum"] / agg["games"])
    assert not np.allclose(_rank_mean(agg), _rank_mean(old))


@pytest.mark.slow
def test_the_means_do_not_move_with_jobs_or_chunk_size(run, tmp_path):
    """The valid counts are integer sums per chunk: two workers and chunks of 4 rounds give the
    run's means to the last bit."""
    other = forfeiting_run(tmp_path / "other", "--jobs", "2", "--chunk-size", "4")
    a, b = (TournamentResult(x).summary().set_index("strategy") for x in (run, other))
    assert a["score_mean"].to_dict() == b["score_mean"].to_dict()
    chunks = [len(list((x / "chunks").glob("chunk-*.npz"))) for x in (run, other)]
    assert chunks[0] < chunks[1]  # the two runs were summed from other parts
