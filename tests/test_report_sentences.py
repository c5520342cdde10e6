"""Sentences that set numbers side by side say what those numbers say: a margin is the
difference of the rates printed beside it, with its sign; a verdict agrees with its interval
and names the correction it rests on; a count agrees with its noun; where a run is too small
the words say so instead of a test."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pandas as pd

import reports
from reports.clusters import given, mean_estimates, rate_differences
from reports.compare import _findings as compare_findings
from reports.data import default_declaration
from reports.designer_text import ladder_sentence
from reports.findings import _means, _seats, key_findings
from reports.gauntlet import fixed_verdict, sequential_sentence
from reports.numbers import TOO_FEW, counted, interval
from reports.synthetic import synthetic_games
from tests.helpers import cli

NAN = float("nan")


def _tables(rows: list[dict], sig: list[dict]) -> dict[str, pd.DataFrame]:
    return {"summary": pd.DataFrame(rows), "significance": pd.DataFrame(sig)}


def _row(name: str, rate: float) -> dict:
    return {"strategy": name, "win_rate": rate, "ci_low": rate - 0.005,
            "ci_high": rate + 0.005, "fair_share": 0.25, "relative": rate / 0.25}  # fmt: skip


def _pair(diff: float, lo: float, hi: float, p: float, significant: bool) -> dict:
    return {"a": "high", "b": "counter", "win_rate_a": 0.240, "win_rate_b": 0.240 - diff,
            "diff": diff, "ci_low": lo, "ci_high": hi, "p_value": p,
            "significant": significant}  # fmt: skip


def test_a_runner_up_significantly_ahead_where_both_sat_is_not_called_not_significant():
    tables = _tables([_row("high", 0.296), _row("counter", 0.274)],
                     [_pair(-0.057, -0.077, -0.038, 7e-9, True)])  # fmt: skip
    text = key_findings(tables, "paired")[0].text
    assert text.startswith("No strategy is clearly the best: high has the highest win rate")
    assert (
        "counter wins 29.7% against its 24.0% and beats it by 5.7 percentage points [+3.8, +7.7]"
        in text
    )
    assert "it holds after Holm correction over the 1 pair compared" in text
    assert "not significant" not in text and "is the best strategy" not in text


def test_a_margin_that_is_not_significant_keeps_its_sign():
    tables = _tables([_row("high", 0.296), _row("counter", 0.274)],
                     [_pair(-0.002, -0.016, 0.011, 0.7, False)])  # fmt: skip
    text = key_findings(tables, "paired")[0].text
    assert (
        "its margin over counter (27.4% [26.9, 27.9]) is -0.2 percentage points [-1.6, +1.1]"
        in text
    )


def test_paired_differences_are_the_differences_of_the_rates_beside_them():
    # mixed table sizes: a 3-player set holds 6 games, a 4-player set 24, so a mean of
    # per-set differences (each set alike) is not the difference of the printed rates
    games = synthetic_games({"a": 0.3, "b": 0.0, "c": -0.2, "d": 0.1}, players=(3, 4),
                            deals=30, seed=4, seating="balanced", unfinished_p=0.0,
                            forfeit_p=0.0)  # fmt: skip
    sig = reports.significance(games)
    gap = sig["win_rate_a"] - sig["win_rate_b"]
    assert np.allclose(sig["diff"], gap, atol=1e-12), (sig["diff"] - gap).abs().max()
    assert ((sig["ci_low"] <= sig["diff"]) & (sig["diff"] <= sig["ci_high"])).all()
    tables, method = reports.compute_tables(reports.as_run(games))
    (first,) = [f.text for f in key_findings(tables, method) if f.topic == "significance"]
    row = tables["significance"].iloc[0]
    top, second = tables["summary"]["strategy"].iloc[:2]
    assert (row["a"], row["b"]) == (top, second)
    assert (f"there {top} won {100 * row['win_rate_a']:.1f}% and {second} "
            f"{100 * row['win_rate_b']:.1f}%") in first  # fmt: skip
    nb = reports.neighbours(games).dropna(subset=["vs_elsewhere"])
    assert np.allclose(nb["vs_elsewhere"], nb["shared_rate"] - nb["elsewhere_rate"], atol=1e-12)


def test_with_as_many_seats_in_every_set_the_difference_is_the_mean_of_the_sets():
    rng = np.random.default_rng(5)
    sets, n = 40, 6.0
    wa, wb = rng.integers(0, 7, sets).astype(float), rng.integers(0, 7, sets).astype(float)
    stratum = np.repeat([0, 1], sets // 2)
    cl = given(np.arange(sets), stratum)
    zero, ids = np.zeros(sets, np.int64), np.arange(sets)
    new = rate_differences((wa, np.full(sets, n)), (wb, np.full(sets, n)), zero, ids, 1, cl)
    old = mean_estimates((wa - wb) / n, zero, ids, 1, cl)
    assert np.allclose([new.value[0], new.se[0], new.df[0]], [old.value[0], old.se[0], old.df[0]])
    # more seats in some sets: they weigh more, as in the rates
    na = np.where(stratum == 0, 6.0, 24.0)
    est = rate_differences((wa * na / 6, na), (wb * na / 6, na), zero, ids, 1, cl)
    assert math.isclose(
        est.value[0], (wa * na / 6).sum() / na.sum() - (wb * na / 6).sum() / na.sum()
    )


def test_a_gauntlet_too_small_for_an_interval_gives_no_verdict():
    row = {"strategy": "a", "baseline": "b", "diff": 0.0, "diff_ci_low": NAN,
           "diff_ci_high": NAN, "deals": 1, "p_value": NAN}  # fmt: skip
    text = fixed_verdict(row)
    assert text.startswith(
        "Too few deals to compare a with b: +0.0 percentage points over 1 deal paired"
    )
    assert "No significant difference" not in text and "p unknown" not in text
    row.update(diff=0.031, diff_ci_low=0.022, diff_ci_high=0.040, deals=1, p_value=1e-6)
    assert "(paired over 1 deal, p = 1e-06)" in fixed_verdict(row)


def test_counts_agree_with_their_nouns():
    assert counted(1, "row") == "1 row" and counted(2, "row") == "2 rows"
    assert counted(1200, "deal") == "1,200 deals" and counted(2, "match") == "2 matches"


def test_an_interval_set_against_a_value_it_rounds_onto_shows_one_decimal_more():
    assert interval(0.16688, 0.18481, beside=1 / 6) == "[16.69, 18.48]"
    assert interval(0.34245, 0.36109, beside=1 / 3) == "[34.2, 36.1]"
    assert interval(NAN, 0.1) == f"({TOO_FEW})"


def test_a_seat_verdict_beside_a_fair_share_it_rounds_onto_says_both_precisely():
    seats = pd.DataFrame({"n_players": [6, 6], "position": [0, 1], "win_rate": [0.1757, 0.16],
                          "ci_low": [0.16688, 0.15], "ci_high": [0.18481, 0.17],
                          "fair": [1 / 6, 1 / 6]})  # fmt: skip
    (found,) = _seats(seats, default_declaration())
    assert (
        "17.57% [16.69, 18.48] of games against a fair share of 16.67%: an advantage" in found.text
    )


def test_a_ladder_with_no_step_tested_claims_no_levels():
    untested = pd.DataFrame({"rules": ["default"] * 2, "upper": ["a", "b"], "lower": ["b", "c"],
                             "diff": [0.0, 0.1], "significant": [False, False],
                             "needs": [NAN, NAN], "levels": [1, 1], "rungs": [3, 3]})  # fmt: skip
    text = ladder_sentence(untested, ["default"])
    assert f"the run has {TOO_FEW} of any step of the default rules." in text
    assert "skill levels apart" not in text
    tested = untested.assign(needs=[0.05, 0.05])
    text = ladder_sentence(tested, ["default"])
    assert (
        "no step of the default rules' 3 strategies is significant"
        " (at least 1 level: the bound tells no neighbouring pair apart)"
    ) in text


def _compare_table(rows: list[tuple[float, float, float, float, float, bool]]) -> pd.DataFrame:
    cols = ["diff", "ci_low", "ci_high", "p_value", "p_holm", "significant"]
    t = pd.DataFrame(rows, columns=cols)
    return t.assign(strategy=[f"s{i}" for i in range(len(t))])


def test_compare_says_where_holm_and_the_interval_disagree():
    t = _compare_table([(0.073, 0.003, 0.143, 0.03, 0.09, False),
                        (0.01, -0.05, 0.07, 0.7, 1.0, False),
                        (-0.02, -0.08, 0.04, 0.5, 1.0, False)])  # fmt: skip
    (text,) = compare_findings(t, identical=False)
    assert text == (
        "no strategy changed significantly after Holm correction over the 3 "
        "strategies compared (largest: s0 +7.3 percentage points [+0.3, +14.3], p = "
        "0.03 before the correction, p = 0.09 after)"
    )  # the table's 'Holm p' figure
    t = _compare_table([(0.056, -0.008, 0.119, 0.08, 0.16, True),
                        (0.01, -0.05, 0.07, 0.7, 1.0, False)])  # fmt: skip
    (text,) = compare_findings(t, identical=False, alpha=0.3)
    assert text.startswith("s0 wins 5.6 percentage points more in B [-0.8, +11.9] (significant "
                           "at alpha "
                           "0.3 after Holm correction, though its 95% interval includes 0)")  # fmt: skip


def test_a_mean_too_small_for_an_interval_says_so():
    means = pd.DataFrame({"strategy": ["stack"], "score_mean": [3.77], "score_ci_low": [NAN],
                          "score_ci_high": [NAN]})  # fmt: skip
    decl = dataclasses.replace(default_declaration(), rank_value="score")
    found = _means(means, decl)
    assert found and "nan" not in found[0].text and TOO_FEW in found[0].text


RAISER = """
from strategies import Strategy


class Raiser(Strategy, register=False):
    classifier = {"stochastic": False}

    def choose(self, view, legal, rng):
        raise RuntimeError("boom")
"""


def test_a_gauntlet_whose_field_forfeits_every_game_reports_only_that(tmp_path, capsys):
    bot = tmp_path / "raiser.py"
    bot.write_text(RAISER)
    out = tmp_path / "g"
    code, _, _ = cli(capsys, "gauntlet", "greedy", "--against", f"{bot}:Raiser", "--games", "8",
                     "--jobs", "1", "--out", str(out))  # fmt: skip
    assert code == 1
    code, stdout, _ = cli(capsys, "report", str(out))
    assert code == 1
    said = (out / "report" / "findings.txt").read_text().splitlines()
    assert len(said) == 1 and said[0].startswith("Nothing valid was played: ")
    assert f"- {said[0]}" in stdout.splitlines()


def test_a_sequential_test_that_weighed_nothing_prints_no_llr():
    row = {"strategy": "a", "baseline": "b", "sequential_decision": "undecided",
           "sequential_margin": 1.0, "diff": -0.25, "diff_ci_low": NAN, "diff_ci_high": NAN,
           "sequential_batches": 1, "sequential_llr": None, "games": 4,
           "sequential_lower": -2.94, "sequential_upper": 2.94, "sequential_alpha": 0.05,
           "sequential_beta": 0.05}  # fmt: skip
    text = sequential_sentence(row)
    assert f"1 batch, no LLR: {TOO_FEW}, bounds -2.94 and 2.94" in text and "nan" not in text


def test_a_gauntlet_whose_strategy_forfeits_every_game_reports_exit_1(tmp_path, capsys):
    bot = tmp_path / "raiser.py"
    bot.write_text(RAISER)
    out = tmp_path / "g"
    code, _, _ = cli(capsys, "gauntlet", f"{bot}:Raiser", "--against", "greedy", "--games", "8",
                     "--jobs", "1", "--out", str(out))  # fmt: skip
    assert code == 1
    code, stdout, err = cli(capsys, "report", str(out))
    assert code == 1 and "one side of the gauntlet forfeited every game" in err
    said = (out / "report" / "findings.txt").read_text().splitlines()
    assert len(said) == 1 and said[0].startswith("Nothing valid was played: Raiser forfeited")


def test_an_exact_tie_at_the_top_is_no_lead():
    rows = [_row("taker", 0.405), _row("weighted", 0.405), _row("counter", 0.19)]
    tables = {"summary": pd.DataFrame(rows),
              "significance": pd.DataFrame([{**_pair(0.0, -0.126, 0.126, 1.0, False),
                                             "a": "taker", "b": "weighted"}])}  # fmt: skip
    text = key_findings(tables, "paired")[0].text
    assert text.startswith("No strategy leads: taker and weighted share the highest win rate")
    assert "taker - weighted = +0.0 percentage points [-12.6, +12.6] (paired, p = 1.00)" in text
    assert "leads with" not in text and "has the highest" not in text


def test_a_bound_that_rounds_onto_the_fair_share_gets_decimals_until_they_differ():
    assert interval(0.333292, 0.4429, beside=1 / 3) == "[33.329, 44.290]"
    seats = pd.DataFrame({"n_players": [3], "position": [0], "win_rate": [0.387],
                          "ci_low": [0.333292], "ci_high": [0.4429], "fair": [1 / 3]})  # fmt: skip
    (found,) = _seats(seats, default_declaration())
    assert "[33.329, 44.290] of games against a fair share of 33.333%: no clear effect" in (
        found.text
    )
