"""Restricted play under a rule set whose replayed games nobody won (``turn_limit=5``: every
game stops unfinished) is not measured, and the report says the true reason: no replayed game
was won by the restricted strategy, restricted or not, so there was no win to lose. It used
to measure a cost of 0 with no spread and say "too few deals to tell a difference in the cost
of restricted play", and the table of costs grew a column of its own for that rule set."""

from __future__ import annotations

import csv

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from leaves_cli.main import cli
from reports.designer_measures import restricted_measures


def _replays(base: np.ndarray, restricted: np.ndarray) -> pd.DataFrame:
    at = np.arange(len(base))
    return pd.DataFrame({"game": at, "table": at % 3, "deal": at // 3, "n_players": 4,
                         "restriction": "single", "meaning": "plays one card", "strategy": "w",
                         "base_win": base, "restricted_win": restricted})  # fmt: skip


def test_no_replayed_game_won_is_no_measure_of_a_cost():
    none = np.zeros(60)
    assert restricted_measures(_replays(none, none)) == []
    some = (np.arange(60) % 4 == 0).astype(float)  # won a quarter, restricted or not alike
    (kept,) = restricted_measures(_replays(some, some))
    assert kept.metric == "restricted_single" and kept.value == 0  # a measure: no cost
    (lost,) = restricted_measures(_replays(some, none))
    assert lost.value == pytest.approx(0.25)


@pytest.fixture(scope="module")
def short(tmp_path_factory):
    out = tmp_path_factory.mktemp("short") / "out"
    res = CliRunner().invoke(cli, ["variants", "random", "low", "greedy", "weighted", "--rules",
                                   "turn_limit=5", "--games", "300", "--seed", "1", "--jobs", "1",
                                   "--trace-games", "100", "--restricted-games", "100",
                                   "--no-progress", "--out", str(out)],
                             catch_exceptions=False)  # fmt: skip
    assert res.exit_code == 0, res.output
    return out, res.output


@pytest.mark.slow
def test_the_findings_say_no_replayed_game_was_won(short):
    out, output = short
    findings = (out / "findings.txt").read_text()
    for text in (output, findings):
        assert "too few deals to tell a difference in the cost of restricted play" not in text
        assert ("the cost of restricted play cannot be measured: no replayed game was won by "
                "weighted, restricted or not, so there was no win to lose (every game stopped "
                "unfinished)") in text  # fmt: skip
    assert "no game won by the strategy under turn_limit=5" in findings  # not 'no game'


def test_the_table_and_the_page_say_it_too(short):
    out, _ = short
    with open(out / "variants_restricted.csv", newline="", encoding="utf-8") as fh:
        rows = {r["rules"]: r for r in csv.DictReader(fh)}
    assert set(rows) == {"default", "turn_limit=5"}
    columns = [c for c in rows["default"] if c != "rules"]
    assert columns and all(c.startswith("cost: ") for c in columns)  # one column a restriction
    assert all(rows["turn_limit=5"][c] == "" for c in columns)  # no '0.0 points (too few deals)'
    page = (out / "report.html").read_text()
    assert ("Not measured under turn_limit=5: no replayed game was won by weighted, restricted "
            "or not, so there was no win to lose.") in page  # fmt: skip
