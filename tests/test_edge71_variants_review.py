"""A designer's review of ``leaves variants``: the skill ladder beside a strategy that forfeits,
the skill measures under a turn limit, a baseline that is not today's rules, a sweep's point
that is today's rule at one table size, and a repeated ``--sweep``."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

import reports
from leaves_cli.main import cli
from reports.designer_measures import restricted_measures
from reports.designer_text import baseline_designer
from reports.synthetic import synthetic_games, write_run
from reports.variants import build_variants_report, variant_tables
from reports.variants_metrics import measures
from reports.variants_text import _Lookup, findings
from reports.variants_words import EVERY_GAME


def _forfeits(games: pd.DataFrame, who: str, every: int) -> pd.DataFrame:
    """``games`` with every ``every``-th game where ``who`` sits ended by its forfeit."""
    games = games.copy()
    seats = games[[f"seat_{s}" for s in range(3)]].astype(object).to_numpy()
    rows = np.flatnonzero((seats == who).any(axis=1))[::every]
    games.loc[rows, "forfeit"] = (seats[rows] == who).argmax(axis=1).astype(np.int8)
    games.loc[rows, "winner_seat"] = -1
    games.loc[rows, "winner"] = None
    return games


def test_the_ladder_steps_over_a_strategy_that_forfeited_under_any_rule_set_and_names_it():
    strengths = {"a": 2.0, "x": 1.0, "b": 0.5, "c": 0.0}
    games = synthetic_games(strengths, players=(3,), deals=6, seed=3, unfinished_p=0.0,
                            forfeit_p=0.0)  # fmt: skip
    runs = [("default", reports.as_run(games)),
            ("v", reports.as_run(_forfeits(games, "x", 5)))]  # fmt: skip
    tables, _ = variant_tables(runs)
    ladder = tables["variants_ladder"]
    for rules in ("default", "v"):  # x forfeited under v only: left out of both, steps pair
        steps = ladder[ladder["rules"] == rules]
        assert list(zip(steps["upper"], steps["lower"], strict=True)) == [("a", "b"), ("b", "c")]
        assert steps["step"].tolist() == [0, 1] and set(steps["rungs"]) == {3}
    said = findings(tables["variants_metrics"], tables["variants_differences"],
                    ["default", "v"], "method", ladder, ["x"])  # fmt: skip
    text = next(t for t, ms in said if ms == ["ladder_step"])
    assert text.startswith(
        "The skill ladder (the field in the default rules' order of strength, "
        "x left out under every rule set as it forfeited games, each step"
    )


def _unfinished(games: pd.DataFrame, sets: np.ndarray) -> pd.DataFrame:
    """``games`` with every game of the duplicate sets (deals) ``sets`` stopped unfinished."""
    games = games.copy()
    at = games["deal"].isin(sets).to_numpy()
    games.loc[at, "unfinished"] = True
    games.loc[at, "winner_seat"] = -1
    games.loc[at, "winner"] = None
    return games


def _skill(games: pd.DataFrame) -> float:
    run = reports.as_run(games)
    return next(m.value for m in measures(run) if m.metric == "skill_spread")


def test_the_skill_spread_counts_finished_games_and_says_so_where_some_were_not():
    strengths = {"a": 2.0, "b": 1.0, "c": 0.0}
    games = synthetic_games(strengths, players=(3,), deals=12, seed=4, unfinished_p=0.0,
                            forfeit_p=0.0)  # fmt: skip
    stopped = np.unique(games["deal"])[::3][1:]  # a third of the sets, the first kept
    limited = _unfinished(games, stopped)
    finished = games[~games["deal"].isin(stopped)]
    # over the games someone won: as if the stopped sets were never played (counted as
    # nobody's win, they would shrink the spread by the share stopped, a third)
    assert _skill(limited) == pytest.approx(_skill(finished), abs=1e-12)
    tables, _ = variant_tables([("turn_limit=30", reports.as_run(limited)),
                                ("default", reports.as_run(games))])  # fmt: skip
    said = findings(tables["variants_metrics"], tables["variants_differences"],
                    ["turn_limit=30", "default"], "method", tables["variants_ladder"])  # fmt: skip
    base = next(t for t, _ in said if t.startswith("Under the default rules"))
    assert "the best strategy beats the worst by " in base and " in finished games, paired" in base
    ladder = next(t for t, ms in said if ms == ["ladder_step"])
    assert "each step a strategy over the next in finished games, paired by deal" in ladder
    tables, _ = variant_tables([("default", reports.as_run(games)),
                                ("v", reports.as_run(games))])  # fmt: skip
    said = findings(tables["variants_metrics"], tables["variants_differences"],
                    ["default", "v"], "method", tables["variants_ladder"])  # fmt: skip
    assert not any("in finished games" in t for t, _ in said)  # every game finished: unsaid


def _restricted_rows(finished: bool) -> pd.DataFrame:
    """Restricted replays over 8 duplicate sets of 3 games: the strategy wins the run's
    finished games 2 in 3, restricted 1 in 3; a third of each side's games unfinished."""
    rows = []
    for deal in range(8):
        for i in range(3):
            base_done, restricted_done = i != 2, i != 0
            rows.append({"game": 3 * deal + i, "table": deal % 2, "deal": deal, "n_players": 3,
                         "restriction": "single", "meaning": "never plays more than one card",
                         "strategy": "w", "base_win": float(base_done and (i == 0 or deal % 2)),
                         "restricted_win": float(restricted_done and i == 1),
                         "base_finished": float(base_done),
                         "restricted_finished": float(restricted_done)})  # fmt: skip
    df = pd.DataFrame(rows)
    return df if finished else df.drop(columns=["base_finished", "restricted_finished"])


def test_a_restriction_costs_win_rate_over_finished_games_and_an_older_file_says_every_game():
    df = _restricted_rows(True)
    (m,) = restricted_measures(df, unfinished=True)
    base = df.loc[df["base_finished"] > 0, "base_win"].mean()
    restricted = df.loc[df["restricted_finished"] > 0, "restricted_win"].mean()
    assert m.value == pytest.approx(base - restricted) and not m.detail.endswith(EVERY_GAME)
    (old,) = restricted_measures(_restricted_rows(False), unfinished=True)
    assert old.value == pytest.approx((df["base_win"] - df["restricted_win"]).mean())
    assert old.detail.endswith(EVERY_GAME)  # its words say what it counted
    (quiet,) = restricted_measures(_restricted_rows(False), unfinished=False)
    assert quiet.detail == "w: never plays more than one card"


def test_a_restriction_cost_says_in_finished_games_where_some_were_not():
    cost = {"rules": "t", "metric": "restricted_single", "n_players": "all", "position": -1,
            "value": 0.2, "ci_low": 0.1, "ci_high": 0.3, "se": 0.05, "df": 9.0,
            "deal_sets": 10, "games": 30, "fair": 0.0, "detail": "w: never plays more than "
            "one card"}  # fmt: skip
    stopped = {**cost, "metric": "unfinished", "value": 0.4, "detail": ""}
    look = _Lookup(pd.DataFrame([cost, stopped]), pd.DataFrame(columns=list(cost)))
    (said,) = baseline_designer(look, "t")
    assert said.startswith("restricting w so that it never plays more than one card costs it ")
    assert said.endswith(" of win rate in finished games")
    old = {**cost, "detail": cost["detail"] + " (over every game, an unfinished one nobody's win)"}
    look = _Lookup(pd.DataFrame([old, stopped]), pd.DataFrame(columns=list(cost)))
    assert baseline_designer(look, "t")[0].endswith(" of win rate")


def test_a_comparison_whose_first_run_is_not_todays_rules_is_refused(tmp_path):
    games = synthetic_games({"a": 1.0, "b": 0.0}, players=(3,), deals=3, seed=1)
    runs = [(label, write_run(tmp_path / label, games, manifest={
        "game_settings": {"rules": words}})) for label, words in
        (("take=nothing", "take=nothing"), ("min_count=off", "min_count=off"))]  # fmt: skip
    with pytest.raises(reports.ReportError) as exc:
        build_variants_report(runs, tmp_path / "out", fmt="md")
    assert str(exc.value) == (
        "the first run (take=nothing) was played under take=nothing, not today's rules: the "
        "comparison measures every other run against the default rules, so give a run of "
        "today's rules first"
    )
    assert not (tmp_path / "out").exists()


def test_a_variant_that_is_todays_rule_at_one_table_size_says_so_there():
    games = synthetic_games({"a": 1.5, "b": 0.5, "c": 0.0}, players=(3, 4), deals=8, seed=5,
                            unfinished_p=0.0, forfeit_p=0.0)  # fmt: skip
    other = synthetic_games({"a": 1.5, "b": 0.5, "c": 0.0}, players=(3,), deals=8, seed=6,
                            unfinished_p=0.0, forfeit_p=0.0)  # fmt: skip
    at4 = games["n_players"].to_numpy() == 4
    variant = games.copy()
    variant.loc[~at4, "winner_seat"] = other["winner_seat"].to_numpy()  # 3 players: changed
    variant.loc[~at4, "winner"] = other["winner"].to_numpy()
    tables, _ = variant_tables([("default", reports.as_run(games)),
                                ("hand_size=11", reports.as_run(variant))])  # fmt: skip
    said = findings(tables["variants_metrics"], tables["variants_differences"],
                    ["default", "hand_size=11"], "method", todays={"hand_size=11": (4,)})  # fmt: skip
    text = " ".join(t for t, _ in said if t.startswith("With hand_size=11"))
    assert "at 4 players hand_size=11 is today's rule: the same games" in text
    assert text.count("at 4 players") == 1  # no measure there is listed as unclear
    assert "at 3 players" in text  # the lists name the size they cover


def test_a_second_sweep_is_refused_in_one_line(tmp_path):
    res = CliRunner().invoke(cli, ["variants", "--sweep", "hand_size=8..10", "--sweep",
                                   "take=any,ends", "--out", str(tmp_path / "v")])  # fmt: skip
    assert res.exit_code == 2
    assert res.output.strip().splitlines() == [
        "leaves: error: --sweep is given 2 times (--sweep hand_size=8..10 and --sweep "
        "take=any,ends): a comparison sweeps one key; give one --sweep, and hold other keys "
        "fixed with --rules"
    ]
    assert not (tmp_path / "v").exists()


@pytest.mark.slow
def test_restricted_replays_record_which_games_finished_and_the_cost_counts_those(tmp_path):
    out = tmp_path / "v"
    res = CliRunner().invoke(cli, ["variants", "greedy", "weighted", "random", "--rules",
                                   "turn_limit=25", "--players", "3", "--games", "36",
                                   "--seed", "1", "--jobs", "1", "--trace-games", "0",
                                   "--restricted-games", "36", "--format", "md",
                                   "--out", str(out)])  # fmt: skip
    assert res.exit_code == 0, res.output
    rows = pd.read_csv(out / "turn_limit=25" / "designer_restricted.csv")
    assert {"base_finished", "restricted_finished"} <= set(rows.columns)
    assert (rows["base_finished"] == 0).any()  # some games stopped at the limit
    for side in ("base", "restricted"):  # a win is a finished game's
        assert (rows.loc[rows[f"{side}_finished"] == 0, f"{side}_win"] == 0).all()
    games = pd.read_parquet(out / "turn_limit=25" / "games").set_index("game")
    done = (games["winner_seat"] >= 0) & ~games["unfinished"]
    assert (rows["base_finished"] == done.loc[rows["game"]].to_numpy().astype(float)).all()
