"""A round ended by a forfeit measures no play (its scores are the zeros of a round cut
short), so no mean counts it: the tournament summary's mean and the report's mean when losing
are over the rows not ended by a forfeit, for every seat at the table, as the report's means
table is. They counted those zeros (stack 8.60 where its rounds played give 10.75)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import reports
from tournaments import TournamentResult

SOMETIMES = str(Path(__file__).with_name("sometimes_strategy.py")) + ":Sometimes"


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> Path:
    from tests.helpers import cli_output

    out = tmp_path_factory.mktemp("forfeits") / "run"
    code, _, err = cli_output("tournament", "--game", "ligretto", SOMETIMES, "stack",
                              "--players", "2", "--games", "40", "--seed", "1", "--jobs", "1",
                              "--out", str(out))  # fmt: skip
    assert code == 0, err
    return out


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
