"""``leaves compare`` / ``reports.compare``: B - A per shared strategy, paired on shared deals."""

from __future__ import annotations

import numpy as np
import pytest

import reports
from leaves_cli.main import main
from tournaments import Tournament

FOUR = ["greedy", "low", "high", "counter"]


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    d = tmp_path_factory.mktemp("cmp")
    Tournament(FOUR, players=3, games=300, seed=1).run(out=d / "a")
    Tournament(FOUR, players=3, games=600, seed=1).run(out=d / "a_more")  # same deals, more
    Tournament(["greedy", "low", "high", "counter:threat_weight=3"], players=3, games=300,
               seed=2).run(out=d / "b")  # fmt: skip
    Tournament(["taker", "weighted", "random"], players=3, games=6, seed=1).run(out=d / "z")
    return d


def test_unpaired_difference_adds_the_variances(runs):
    c = reports.compare(runs / "a", runs / "b")
    assert not c.paired and c.only_a == ["counter"] and c.only_b == ["counter(threat_weight=3.0)"]
    t = c.table.set_index("strategy")
    assert sorted(t.index) == ["greedy", "high", "low"]
    assert np.allclose(t["diff"], t["win_rate_b"] - t["win_rate_a"])
    sa = reports.summary(runs / "a").set_index("strategy")
    assert np.allclose(t["win_rate_a"], sa.loc[t.index, "win_rate"])
    assert np.allclose(t["ci_low_a"], sa.loc[t.index, "ci_low"])
    assert ((t["ci_low"] < t["diff"]) & (t["diff"] < t["ci_high"])).all()
    assert "unpaired" in c.findings[1]


def test_the_same_deals_are_paired_and_identical_games_differ_by_nothing(runs):
    c = reports.compare(runs / "a", runs / "a_more")
    assert c.paired and "paired per duplicate set" in c.findings[1]
    assert np.allclose(c.table["diff"], 0) and not c.table["significant"].any()
    assert c.findings[0].startswith("no strategy changed significantly")


def cli(capsys, *args):
    try:
        main(["compare", *map(str, args)])
        code = 0
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_prints_findings_then_the_table_and_writes_csv(runs, capsys, tmp_path):
    code, out, err = cli(capsys, runs / "a", runs / "b", "--out", tmp_path / "o")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == f"A: {runs / 'a'}" and lines[1] == f"B: {runs / 'b'}"
    assert "Holm p" in out and "high" in out
    assert (tmp_path / "o" / "compare.csv").read_text().startswith("strategy,win_rate_a")


def test_runs_sharing_no_strategy_are_refused_in_one_line(runs, capsys):
    code, _, err = cli(capsys, runs / "a", runs / "z")
    assert code == 2 and err.count("\n") == 1 and "they share no strategy" in err
    code, _, err = cli(capsys, runs / "a", runs / "nothere")
    assert code == 2 and err.count("\n") == 1 and "not found" in err
