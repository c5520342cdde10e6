"""Head to head leaves the games ended by a forfeit out in the library as in the report: the
library counted them (high ahead of low 0.5083 where the report said 0.5118; an all-forfeited
run showed greedy ahead 43.8%), and the report's "how it is computed" text said "over all seat
pairs" beside a lead saying it left them out."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import reports
import tournaments
from reports.data import default_declaration
from reports.sections import sections
from reports.synthetic import synthetic_games
from tournaments import Tournament

FLAKY = '''
from strategies import Strategy


class Flaky(Strategy, register=False):
    """Plays its largest play; raises from turn 15 on, at the odds ``p`` (its own stream)."""

    classifier = {"stochastic": True}

    def __init__(self, p: float = 0.5):
        self.p = p

    def choose(self, view, legal, rng):
        if view.turn >= 15 and rng.random() < self.p:
            raise RuntimeError("boom")
        plays = [a for a in legal if not a.is_pass]
        return max(plays, key=lambda a: a.count) if plays else legal[0]
'''


def _run(tmp_path: Path, p: float = 0.5, rows: bool = True) -> Path:
    """A run of 120 games at 3 players, some ended by Flaky's forfeit (every one at ``p=1``)."""
    path = tmp_path / "flaky.py"
    path.write_text(FLAKY)
    out = tmp_path / f"run_{p}_{rows}"
    Tournament([f"{path}:Flaky(p={p})", "high", "low"], players=3, games=120, seed=2,
               rows=rows).run(out=out, n_jobs=1, progress=False)  # fmt: skip
    return out


def _report_rates(out: Path) -> pd.Series:
    return reports.head_to_head(out).set_index(["strategy", "opponent"])["ahead_rate"]


def _same_as_report(library: pd.DataFrame, out: Path) -> None:
    said = _report_rates(out)
    assert len(said) == 6
    for (a, b), rate in said.items():
        assert library.loc[a, b] == pytest.approx(rate, abs=1e-12), (a, b)


def test_the_librarys_head_to_head_is_the_reports_on_a_run_with_forfeits(tmp_path):
    out = _run(tmp_path)
    res = tournaments.load(out)
    assert 0 < res.summary()["forfeits"].sum() < 120  # some games forfeited, not all
    _same_as_report(res.head_to_head(), out)


def test_an_all_forfeited_run_has_no_head_to_head_rate(tmp_path):
    res = tournaments.load(_run(tmp_path, p=1.0))
    assert res.summary()["forfeits"].sum() == 120
    assert res.head_to_head().isna().all().all()  # it showed rates over forfeited games


def _earlier(res: tournaments.TournamentResult) -> tournaments.TournamentResult:
    """``res`` as an earlier version's run reads: aggregates without the counts of the games
    not ended by a forfeit."""
    agg = dict(res.aggregates())
    del agg["valid_ahead"], agg["valid_met"]
    res._agg = agg
    return res


def test_an_earlier_versions_run_is_counted_from_its_rows(tmp_path):
    out = _run(tmp_path)
    _same_as_report(_earlier(tournaments.load(out)).head_to_head(), out)


def test_an_earlier_versions_run_without_rows_says_it_counts_every_game(tmp_path):
    res = _earlier(tournaments.load(_run(tmp_path, rows=False)))
    agg = res.aggregates()
    forfeited = int(agg["size_forfeits"].sum())
    with pytest.warns(UserWarning, match=f"counts the {forfeited:,} games ended by a forfeit"):
        got = res.head_to_head()
    with np.errstate(invalid="ignore"):
        np.testing.assert_array_equal(got.to_numpy(), agg["ahead"] / agg["met"])


# --------------------------------------------------------------------- the report's words


def _how(games: pd.DataFrame) -> str:
    tables, method = reports.compute_tables(reports.as_run(games))
    found = sections(tables, method, default_declaration())
    (sec,) = (s for s in found if s.title == "Head to head")
    return sec.text


def test_the_head_to_head_text_says_it_counts_the_games_not_ended_by_a_forfeit():
    games = synthetic_games({"a": 0.3, "b": 0.0, "c": -0.2}, players=(3,), deals=20, seed=4,
                            unfinished_p=0.0, forfeit_p=0.3)  # fmt: skip
    assert "over the seat pairs of games not ended by a forfeit;" in _how(games)
    clean = _how(games.assign(forfeit=-1))
    assert "over all seat pairs where they shared a table;" in clean and "forfeit" not in clean
