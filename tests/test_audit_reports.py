"""Audit of the report sentences: every sentence is a claim that must be true of the numbers
beside it, and where a run is too small (or its games too broken) to say something, the words
say so. Each test reproduces one defect found by reading the output of small runs: unfinished
rounds of a game that scores them worded as 13 Leaves' turn limit, 'next is greedy wins',
decimals mixed in the seat sentence, figures and costs without an interval that did not say
why, a sample's count that was only the default's, skill claimed from forfeited or unfinished
games, a zero-width interval, and a mixed-size run naming one measure in two lists."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import reports
from reports.data import default_declaration
from reports.designer_text import sample_sentence
from reports.findings import _seats, key_findings
from reports.findings_best import best_finding
from reports.synthetic import synthetic_games
from reports.variants import METRIC_COLUMNS
from reports.variants_text import findings
from tests.helpers import cli_output

NAN = float("nan")


def _run(*args: object) -> str:
    code, out, err = cli_output(*map(str, args))
    assert code == 0, err
    return out


# ------------------------------------------------------------- unfinished games, per game


@pytest.fixture(scope="module")
def ligretto_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("lig") / "run"
    _run("tournament", "--game", "ligretto", "cautious:patience=100000", "stack",
         "--players", "2", "--games", "20", "--seed", "1", "--jobs", "1", "--out", out)  # fmt: skip
    return out


def test_ligretto_rounds_stopped_at_a_limit_are_worded_as_they_count(ligretto_run: Path):
    run = reports.load_run(ligretto_run)
    tables, method = reports.compute_tables(run)
    done = tables["completion"].set_index("n_players").loc["all"]
    assert done["unfinished"] > 0 and done["unfinished_won"] == done["unfinished"]
    (text,) = [f.text for f in key_findings(tables, method, run.declaration)
               if f.topic == "completion"]  # fmt: skip
    assert "turn" not in text and "nobody's win" not in text
    n = int(done["unfinished"])
    assert f"{n} {'round' if n == 1 else 'rounds'} (" in text
    rows = pd.concat(
        pd.read_parquet(p) for p in sorted((ligretto_run / "games").rglob("*.parquet"))
    )
    assert (rows.loc[rows["unfinished"], "time_ms"] == 600_000).all()  # every one at the clock
    assert "stopped unfinished at a limit of the game (10 minutes of game time a round)" in text
    assert re.search(r"(is|are) scored as (it|they) stood, won by whoever was ahead \(a higher "
                     r"score\) when (it|they) stopped\.$", text)  # fmt: skip


def test_unfinished_games_without_a_winner_still_count_as_nobodys_win():
    games = synthetic_games({"a": 0.3, "b": 0.0, "c": -0.2}, players=(3,), deals=40, seed=4,
                            unfinished_p=0.05, forfeit_p=0.0)  # fmt: skip
    tables, method = reports.compute_tables(reports.as_run(games))
    first = key_findings(tables, method)[0]
    assert first.topic == "completion" and first.text.endswith("count as nobody's win.")
    assert (games.loc[games["unfinished"], "turns"] == 1000).all()  # at the turn limit
    assert "stopped unfinished at a limit of the game (1,000 turns a game)" in first.text


# --------------------------------------------------------------------------- best strategy


def test_the_runner_up_without_a_paired_comparison_reads_as_a_sentence():
    summ = pd.DataFrame({"strategy": ["weighted", "greedy"], "win_rate": [0.6, 1 / 3],
                         "ci_low": [NAN, NAN], "ci_high": [NAN, NAN], "fair_share": [0.5, 0.5],
                         "relative": [1.2, 2 / 3]})  # fmt: skip
    (found,) = best_finding({"summary": summ}, "paired", default_declaration())
    assert "next is" not in found.text
    assert "; greedy is next with 33.3% (too few deals for an interval)." in found.text


# --------------------------------------------------------------------------------- seats


def test_the_seat_sentence_writes_every_rate_with_the_decimals_it_needs():
    seats = pd.DataFrame({"n_players": [4] * 4, "position": [0, 1, 2, 3],
                          "win_rate": [0.27063, 0.25, 0.2254, 0.25],
                          "ci_low": [0.24995, 0.2, 0.2, 0.2], "ci_high": [0.29236, 0.3, 0.3, 0.3],
                          "fair": [0.25] * 4})  # fmt: skip
    (found,) = _seats(seats, default_declaration())
    assert ("wins 27.063% [24.995, 29.236] of games against a fair share of 25.000%: no clear "
            "effect. Highest position 0 (27.063%), lowest position 2 (22.540%), counting from the "
            "first player: the 95% intervals cannot tell them apart") in (
        found.text
    )  # fmt: skip


def _metrics(rows: list[dict]) -> pd.DataFrame:
    base = {"n_players": "all", "position": -1, "se": 0.01, "df": 30.0, "deal_sets": 32,
            "games": 96, "fair": 0.0, "detail": "", "conservative": False}  # fmt: skip
    return pd.DataFrame([{**base, **r} for r in rows], columns=METRIC_COLUMNS)


NO_DIFFS = pd.DataFrame(columns=["rules", "metric", "n_players", "position", "diff", "ci_low",
                                 "ci_high", "se", "df", "p_value", "significant",
                                 "detail"])  # fmt: skip


def _baseline(metrics: pd.DataFrame) -> str:
    said = findings(metrics, NO_DIFFS, ["default", "x=1"], "Paired")
    return next(t for t, _ in said if t.startswith("Under the default rules"))


def test_the_variants_seat_figure_sets_its_interval_apart_from_the_fair_share():
    text = _baseline(_metrics([
        {"rules": "default", "metric": "seat", "n_players": "4", "position": 0,
         "value": 0.27063 - 0.25, "ci_low": 0.24995 - 0.25, "ci_high": 0.29236 - 0.25,
         "fair": 0.25},
    ]))  # fmt: skip
    assert "the first player wins 27.063% [24.995, 29.236] at 4 players (fair share 25.000%)" in (
        text
    )


# ------------------------------------------------------------------ designers' measures


def test_a_restriction_cost_without_an_interval_says_the_deals_are_too_few():
    text = _baseline(_metrics([
        {"rules": "default", "metric": "turns", "value": 40.0, "ci_low": 39.0, "ci_high": 41.0},
        {"rules": "default", "metric": "restricted_one", "value": 0.667, "ci_low": NAN,
         "ci_high": NAN, "df": 2.0, "detail": "weighted: never plays more than one card"},
    ]))  # fmt: skip
    assert "no clear win rate" not in text
    assert ("restricting weighted so that it never plays more than one card: too few deals to "
            "tell what it costs it (66.7 percentage points of win rate, no interval)"
            ) in text  # fmt: skip


def test_a_designer_figure_without_an_interval_says_so_beside_it():
    text = _baseline(_metrics([
        {"rules": "default", "metric": "turns", "value": 40.0, "ci_low": 39.0, "ci_high": 41.0},
        {"rules": "default", "metric": "lead_changes", "value": 9.0, "ci_low": NAN,
         "ci_high": NAN, "df": 3.0},
    ]))  # fmt: skip
    assert "the lead changes 9.00 times a game (too few deals for an interval)" in text
    everything = _baseline(_metrics([
        {"rules": "default", "metric": "turns", "value": 40.0, "ci_low": NAN, "ci_high": NAN,
         "df": 3.0},
        {"rules": "default", "metric": "lead_changes", "value": 9.0, "ci_low": NAN,
         "ci_high": NAN, "df": 3.0},
    ]))  # fmt: skip
    assert everything.startswith("Under the default rules (too few deals for an interval of "
                                 "any figure): games last 40.0 turns;")  # fmt: skip


def test_the_sample_sentence_counts_each_rule_sets_finished_games_and_agrees_in_number():
    m = _metrics([
        {"rules": "default", "metric": "lead_changes", "value": 4.0, "ci_low": 3.0,
         "ci_high": 5.0, "games": 72, "deal_sets": 3},
        {"rules": "default", "metric": "restricted_pass", "value": 0.1, "ci_low": NAN,
         "ci_high": NAN, "games": 24, "deal_sets": 1},
        {"rules": "turn_limit=5", "metric": "restricted_pass", "value": 0.0, "ci_low": NAN,
         "ci_high": NAN, "games": 24, "deal_sets": 1},
    ])  # fmt: skip
    text = sample_sentence(m, ["default", "turn_limit=5"])
    assert "per rule set replayed" not in text and "1 duplicate sets" not in text
    assert "72 finished games under default (3 duplicate sets), no finished game under " \
           "turn_limit=5" in text  # fmt: skip
    assert "restricted play from 24 games per restriction and rule set (1 duplicate set)" in text


# --------------------------------------------------------- variants: broken or empty games


def _variants(out: Path, *args: object) -> str:
    _run("variants", *args, "--trace-games", 0, "--restricted-games", 0, "--seed", 1,
         "--jobs", 1, "--no-progress", "--out", out)  # fmt: skip
    return (out / "findings.txt").read_text(encoding="utf-8")


def test_rules_that_leave_every_game_unfinished_claim_no_skill(tmp_path: Path):
    text = _variants(tmp_path / "v", "greedy", "low", "--rules", "turn_limit=5", "--players", 3,
                     "--games", 240)  # fmt: skip
    assert "skill matters" not in text and "0.0 points [0.0, 0.0]" not in text
    assert "cannot be measured: every game stopped unfinished, so nobody won one" in text
    assert "the spread between the best and the worst strategy" in text


def test_a_strategy_that_forfeits_is_no_rung_of_skill(tmp_path: Path):
    boom = Path(__file__).with_name("boom_strategy.py")
    text = _variants(tmp_path / "v", "weighted", "greedy", f"{boom}:Boom", "--rules",
                     "hand_size=9", "--players", 3, "--games", 480)  # fmt: skip
    assert "0.0 points [0.0, 0.0]" not in text and "- Boom" not in text
    assert "over Boom" not in text and "played out alike" not in text
    assert "Under default, Boom forfeited games: the skill measures" in text


def test_a_spread_the_same_in_every_set_gets_no_zero_width_interval(tmp_path: Path):
    out = tmp_path / "v"
    text = _variants(out, "low", "random", "--rules", "hand_size=9", "--players", 4,
                     "--games", 200)  # fmt: skip
    rows = pd.read_csv(out / "variants_metrics.csv")
    spread = rows[(rows["rules"] == "default") & (rows["metric"] == "skill_spread")].iloc[0]
    assert spread["se"] < 1e-12 and np.isnan(spread["ci_low"]) and np.isnan(spread["ci_high"])
    assert re.search(r"\[(\d+\.\d), \1\]", text) is None  # no interval of zero width
    assert (
        "(low - random; no interval: within each table every duplicate set gave the same "
        "value" in text
    )
    assert "0.0 points either way would be significant" not in text


LISTS = (
    r"(?:no clear difference in|too few deals to tell a difference in|\(no spread to test "
    r"it by\) in) ([^;]+?)(?:;|\.$)"
)
"""The lists of measures a variant's 'no clear difference' bullet names."""


@pytest.mark.slow
def test_a_mixed_size_run_names_no_measure_in_two_lists(tmp_path: Path):
    small = _variants(tmp_path / "v", "greedy", "low", "weighted", "--rules", "hand_size=9",
                      "--players", "3,4", "--games", 600)  # fmt: skip
    out = tmp_path / "t"
    _run("variants", "greedy", "low", "weighted", "--rules", "hand_size=9", "--players", "3,4",
         "--games", 600, "--trace-games", 200, "--restricted-games", 0, "--seed", 1, "--jobs", 1,
         "--no-progress", "--out", out)  # fmt: skip
    for text in (small, (out / "findings.txt").read_text(encoding="utf-8")):
        for line in text.splitlines():
            lists = re.findall(LISTS, line)
            named = [re.split(r", | or ", part) for part in lists]
            for i, names in enumerate(named):
                bare = [n for n in names if " players" not in n and " table sizes" not in n]
                others = [n for j, ns in enumerate(named) if j != i for n in ns]
                for name in bare:
                    assert not any(o.startswith(name + " ") for o in others), line
