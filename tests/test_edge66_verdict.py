"""A sequential gauntlet's verdict never says less than its own 95% interval: a strategy that
is not better by the margin but whose interval lies below 0 is said to be worse, one whose
interval lies above 0 better (by less than the margin where it ends below it), as a gauntlet
of fixed size says it; an interval across 0 adds nothing."""

from __future__ import annotations

import math

import pytest

import reports
from reports.gauntlet import fixed_verdict, sequential_sentence
from tests.helpers import cli
from tournaments.sequential import NOT_BETTER, UNDECIDED

TAKES = '''
from strategies import Strategy


class Takes(Strategy):
    """Takes a card whenever it may: it sheds only when it must, so it never empties its hand
    first against players who shed."""

    name = "verdict_takes"
    description = "takes a card whenever it may"
    classifier = {"stochastic": False, "uses_card_counting": False}

    def choose(self, view, legal, rng):
        takes = [a for a in legal if a.is_pass]
        return takes[0] if takes else min(legal, key=lambda a: a.count)
'''


def _row(decision: str, diff: float, lo: float, hi: float, p: float = 0.5) -> dict:
    """A finished sequential gauntlet's row (margin 2 points, 100 duplicate sets)."""
    return {"strategy": "a", "baseline": "b", "games": 400, "deals": 100, "diff": diff,
            "diff_ci_low": lo, "diff_ci_high": hi, "p_value": p,
            "sequential_decision": decision, "sequential_margin": 2.0,
            "sequential_batches": 1, "sequential_llr": -3.5, "sequential_lower": -2.94,
            "sequential_upper": 2.94, "sequential_alpha": 0.05,
            "sequential_beta": 0.05}  # fmt: skip


WORSE = ", and the 95% interval, below 0, says a is worse than b."
BETTER_LESS = ", and the 95% interval, above 0, says a is better than b, by less than 2 "


@pytest.mark.parametrize("decision", [NOT_BETTER, UNDECIDED])
def test_an_interval_clear_of_zero_is_said_beside_a_decision_that_is_not_better(decision):
    assert sequential_sentence(_row(decision, -0.2, -0.3, -0.1)).endswith(WORSE)
    said = sequential_sentence(_row(decision, 0.005, 0.001, 0.009))
    assert said.endswith(BETTER_LESS + "percentage points.")
    reaching = sequential_sentence(_row(decision, 0.015, 0.001, 0.03))  # past the margin too
    assert "a is better than b." in reaching and "by less than" not in reaching
    for lo, hi in ((-0.01, 0.01), (0.0, 0.01), (-0.01, 0.0)):  # 0 inside: nothing more
        text = sequential_sentence(_row(decision, (lo + hi) / 2, lo, hi))
        assert "worse" not in text and "says a is better" not in text, text


def test_no_spread_adds_no_sign_test_to_a_sequential_verdict():
    """Sets with no spread have no interval; the sign test stays out of the sequential verdict
    (it would spend alpha a second time), while a gauntlet of fixed size reads it."""
    flat = {"diff_ci_low": math.nan, "diff_ci_high": math.nan}
    row = {**_row(NOT_BETTER, -0.25, 0, 0, p=2 * 0.5**100), **flat}
    text = sequential_sentence(row)
    assert "worse" not in text and "sign test" not in text and "interval, " not in text, text
    assert fixed_verdict(row).startswith("a loses to b")


def test_a_strategy_that_only_takes_is_said_worse_by_its_sequential_gauntlet(tmp_path, capsys):
    takes = tmp_path / "takes.py"
    takes.write_text(TAKES)
    out = tmp_path / "g"
    code, stdout, err = cli(capsys, "gauntlet", f"{takes}:Takes", "--against", "random",
                            "--baseline", "greedy", "--players", "3", "--games", "40",
                            "--sequential", "--jobs", "1", "--out", str(out))  # fmt: skip
    assert code == 0, err
    r = reports.gauntlet(out).iloc[0]  # the truth: the run's own interval, all below 0
    assert r["diff_ci_high"] < 0 and r["sequential_decision"] == NOT_BETTER, r
    assert "verdict_takes is not 1 percentage point better than greedy" in stdout, stdout
    assert "the 95% interval, below 0, says verdict_takes is worse than greedy." in stdout


@pytest.mark.parametrize("alpha, p, p_holm, cell", [
    (0.01, 0.0042, 0.0127, "0.01"),  # above the level, it may read as it: not below
    (0.0125, 0.0042, 0.0127, "0.013"),  # '0.01' would read below the level: a third decimal
    (0.05, 0.021, 0.063, "0.06"),
    (0.0005, 0.0003, 0.0009, "9.0e-04"),
])  # fmt: skip
def test_compare_says_the_holm_p_its_table_writes(capsys, monkeypatch, alpha, p, p_holm, cell):
    """The sentence over ``leaves compare``'s table names the strategy its 95% interval alone
    would call changed with its Holm p: the figure of that strategy's 'Holm p' cell."""
    from types import SimpleNamespace

    import pandas as pd

    from leaves_cli.compare_cmd import _print
    from reports.compare import _findings

    monkeypatch.setenv("COLUMNS", "300")
    row = {"strategy": "greedy", "win_rate_a": 0.223, "ci_low_a": 0.2, "ci_high_a": 0.25,
           "win_rate_b": 0.192, "ci_low_b": 0.17, "ci_high_b": 0.21, "diff": -0.031,
           "ci_low": -0.054, "ci_high": -0.009, "units": 135, "no_spread": False,
           "p_value": p, "p_holm": p_holm, "significant": False}  # fmt: skip
    table = pd.DataFrame([row])
    (said,) = _findings(table, False, alpha)
    assert said.endswith(f", p = {cell} after)"), said
    _print(SimpleNamespace(findings=[said], table=table), alpha)
    line = next(x for x in capsys.readouterr().out.splitlines() if "greedy" in x and "│" in x)
    assert f" {cell} " in line, line  # the same figure in the table beside it


def _row_cells(out: str, strategy: str) -> list[str]:
    """The cells of ``strategy``'s row of ``leaves compare``'s table."""
    line = next(x for x in out.splitlines() if x.startswith(f"│ {strategy} "))
    return [c.strip() for c in line.strip("│").split("│")]


def test_a_longer_rerun_on_the_same_seed_compares_the_same_rates(tmp_path, capsys, monkeypatch):
    """B replays A's deals (the same seed) and plays as many more: over the sets both played
    each strategy won as often, so B - A is 0 and the two win-rate columns, over those sets,
    are equal; they used to be A's rate beside B's over all its deals (22.3 beside 22.5, then
    '+0.0')."""
    monkeypatch.setenv("COLUMNS", "300")
    runs = []
    for games in ("240", "480"):
        out = tmp_path / games
        args = ["greedy", "taker", "random", "--players", "3", "--games", games, "--seed", "5"]
        code, _, err = cli(capsys, "tournament", *args, "--jobs", "1", "--out", str(out))
        assert code == 0, err
        runs.append(str(out))
    code, out, err = cli(capsys, "compare", *runs)
    assert code == 0, err
    assert "no strategy changed: each won as often in B as in A" in out, out
    assert "the win rates too are over the " in out, out
    for strategy in ("greedy", "random", "taker"):
        cells = _row_cells(out, strategy)
        assert cells[1] == cells[2] and cells[3] == "+0.0 (no spread)", cells
    c = reports.compare(*runs)
    assert (c.table["win_rate_b"] - c.table["win_rate_a"] - c.table["diff"]).abs().max() < 1e-12
