"""Ligretto's key findings say what the run holds: a share of blockades that is not 0 never
reads as none, a round of milliseconds never as 0 seconds (nor a range from '-0'), and means
without intervals are never said to be told apart, or not, by intervals."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import reports
from ligretto.plugin import LigrettoGame
from reports.declared import outcomes
from reports.findings import _lengths, _outcomes, _spread, key_findings
from reports.findings_best import means_finding
from reports.loading import games_from_frame
from reports.numbers import share_digits
from reports.tables import lengths
from tests.helpers import cli, doc_says
from tournaments.declaration import Declaration

D = Declaration.of(LigrettoGame())
ZERO = "think_ms=0,look_ms=0,flip_ms=0,spread_ms=0"
FEW = "too few deals for an interval"


@pytest.fixture(autouse=True)
def _env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "1")  # the CLI sets it
    monkeypatch.setenv("COLUMNS", "250")


def _rounds(n: int, blockades: int = 0, time_ms: list[int] | None = None) -> pd.DataFrame:
    """Two-player Ligretto rows, ``blockades`` of them ended by one, the seconds rounded as
    the plug-in rounds them."""
    t = [30_000] * n if time_ms is None else time_ms
    return pd.DataFrame({
        "seat_0": ["a"] * n, "seat_1": ["b"] * n, "score_0": [5] * n, "score_1": [-3] * n,
        "n_players": [2] * n, "winner_seat": [0] * n, "seconds": [(x + 500) // 1000 for x in t],
        "plays": [10] * n, "time_ms": t, "unfinished": [False] * n,
        "blockade": [i < blockades for i in range(n)],
    })  # fmt: skip


def _said(frame: pd.DataFrame) -> str:
    (found,) = _outcomes(outcomes(games_from_frame(frame, D)), D)
    return found.text


# ------------------------------------------------------------------------------ blockades
def test_one_blockade_in_thousands_is_not_said_as_none():
    """1 of 3,000 is 0.03%: it printed '0.0% [0.0, 0.2]', as a run with none prints."""
    one, none = _said(_rounds(3000, 1)), _said(_rounds(3000, 0))
    assert one == "Rounds ended by blockade: 0.03% [0.01, 0.19] of 3,000 rounds."
    assert none == "Rounds ended by blockade: none of the 3,000 rounds (0% [0.0, 0.1])."
    assert _said(_rounds(40, 10)) == "Rounds ended by blockade: 25.0% [13.8, 40.9] of 40 rounds."


def test_a_share_below_all_is_not_said_as_all():
    assert share_digits(2999 / 3000) == 2  # '99.97%', never '100.0%'
    assert share_digits(29999 / 30000) == 3  # '99.997%'
    assert _said(_rounds(3000, 2999)) == (  # it read '100.0% [99.8, 100.0]', as all of them
        "Rounds ended by blockade: 99.97% [99.81, 99.99] of 3,000 rounds."
    )
    assert (
        _said(_rounds(3000, 3000))
        == "Rounds ended by blockade: 100% [99.9, 100.0] of 3,000 rounds."
    )
    assert share_digits(0.0, 1.0, 0.25) == 1  # 0 and 1 themselves are written as they are


def test_the_review_run_of_three_blockades_in_fifteen_thousand_rounds(capsys, tmp_path: Path):
    out = tmp_path / "lig5"
    code, _, err = cli(capsys, "tournament", "--game", "ligretto", "stack", "row", "cautious",
                       "--players", "3", "--rounds", "5", "--games", "3000", "--jobs", "1",
                       "--seed", "116953173575807765151482918557889744371",
                       "--out", str(out))  # fmt: skip
    assert code == 0, err
    run = reports.load_run(out)
    assert (int(run.games.flags["blockade"].sum()), len(run.games)) == (3, 15_000)  # the truth
    tables, method = reports.compute_tables(run)
    (said,) = [f.text for f in key_findings(tables, method, run.declaration)
               if f.topic == "outcomes"]  # fmt: skip
    assert said == "Rounds ended by blockade: 0.02% [0.01, 0.08] of 15,000 rounds."
    doc_says("ligretto.md", r'"0\.02% \[0\.01, 0\.08\] of 15,000 rounds" where 3 of 15,000')


# -------------------------------------------------------------------------------- lengths
def _length(frame: pd.DataFrame) -> str:
    (found,) = _lengths(lengths(games_from_frame(frame, D)), D)
    return found.text


def test_rounds_of_milliseconds_lasted_under_one_second():
    """19 to 48 ms each: 0 whole seconds, which said 'all 30 rounds lasted 0 seconds'."""
    assert _length(_rounds(30, time_ms=list(range(19, 49)))) == (
        "Round length: all 30 rounds lasted under one second, 10.0 plays on average."
    )
    two = _rounds(2, time_ms=[40, 1_200])
    assert (
        _length(two)
        == "Round length: the 2 rounds lasted under one second and 1 second, 10.0 plays on average."
    )
    three = _rounds(3, time_ms=[30_000, 36_000, 55_000])  # no 0: the words as they were
    assert (
        _length(three)
        == "Round length: the 3 rounds lasted 30, 36 and 55 seconds, 10.0 plays on average."
    )


def test_a_range_from_zero_never_reads_minus_zero():
    """The 10th percentile 0 took np.ceil(0.0 - 1e-9), -0.0, printed '-0'."""
    row = pd.Series({"games": 20, "min": 0, "max": 600, "median": 303.5, "p10": 0.0,
                     "p90": 600.0, "p10_p90_share": 1.0})  # fmt: skip
    assert _spread(row, "seconds", D) == (
        "a round lasts 303.5 seconds on median (100.0% of rounds between 0 and 600)"
    )
    tied = pd.Series({"games": 20, "min": 0, "max": 1, "median": 0.0, "p10": 0.0, "p90": 0.0,
                      "p10_p90_share": 0.95})  # fmt: skip
    assert _spread(tied, "seconds", D) == (
        "a round lasts under one second on median (95.0% of rounds lasted under one second)"
    )


# ---------------------------------------------------------------------------------- means
def _means(rows: list[tuple]) -> str:
    cols = ["strategy", "score_mean", "score_ci_low", "score_ci_high", "valid_seats", "seats"]
    (found,) = means_finding(pd.DataFrame([(*r, 20, 20) for r in rows], columns=cols), D)
    return found.text


NAN = np.nan


def test_means_without_intervals_are_not_said_to_be_told_by_intervals():
    """The review's run: every mean too few deals for an interval, said once."""
    rows = [("a", 11.0, NAN, NAN), ("b", 10.125, NAN, NAN), ("stack", -18.4375, NAN, NAN),
            ("c", -19.1875, NAN, NAN)]  # fmt: skip
    text = _means(rows)
    assert text == (
        f"No strategy has a clearly best mean score per round: 11.00 ({FEW}; a), which the run "
        "cannot tell from b's 10.12; nor can it tell c from stack's -18.44, so c's estimate is "
        "the worst: -19.19."
    )
    assert "95% intervals" not in text and text.count("too few deals") == 1
    assert _means(rows[:2]) == (
        f"No strategy has a clearly best mean score per round: 11.00 ({FEW}; a), which the run "
        "cannot tell from b, whose estimate is the worst: 10.12."
    )


def test_a_mean_without_an_interval_beside_one_with_says_which():
    with_one = ("a", 2.0, 1.5, 2.5)
    assert _means([with_one, ("b", 2.4, NAN, NAN)]) == (
        "No strategy has a clearly best mean score per round: 2.00 [1.50, 2.50] (a), which the "
        f"run cannot tell from b, whose estimate is the worst: 2.40 ({FEW})."
    )
    rows = [with_one, ("b", 2.2, 1.7, 2.7), ("c", 6.0, NAN, NAN)]
    assert _means(rows) == (
        "No strategy has a clearly best mean score per round: 2.00 [1.50, 2.50] (a), which the "
        "95% intervals cannot tell from b's 2.20 [1.70, 2.70]; the run has too few deals for an "
        "interval to tell c from b's 2.20, so c's estimate is the worst: 6.00."
    )


# ------------------------------------------------------------------------ a whole run
def test_a_run_of_one_deal_at_zero_timings(capsys, tmp_path: Path):
    out = tmp_path / "zero"
    code, _, err = cli(capsys, "tournament", "--game", "ligretto", f"stack:{ZERO}",
                       f"row:{ZERO}", f"cycler:{ZERO}", "--players", "3", "--games", "3",
                       "--seed", "1", "--jobs", "1", "--out", str(out))  # fmt: skip
    assert code == 0, err
    run = reports.load_run(out)
    rows = pd.concat(pd.read_parquet(p) for p in sorted((out / "games").rglob("*.parquet")))
    assert len(rows) == 3 and rows["time_ms"].between(1, 999).all()  # the truth
    assert not rows["blockade"].any()
    tables, method = reports.compute_tables(run)
    found = {f.topic: f.text for f in key_findings(tables, method, run.declaration)}
    assert found["lengths"].startswith("Round length: all 3 rounds lasted under one second, ")
    assert found["outcomes"] == f"Rounds ended by blockade: none of the 3 rounds ({FEW})."
    assert "95% intervals" not in found["means"] and found["means"].count("too few") == 1
    assert "the run cannot tell" in found["means"]
