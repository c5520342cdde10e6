"""The report's words on means, the rating and the meta-game against the figures they rest
on: each sentence is checked on small tables (or a tiny run) whose truth is known, for what
it claims (a best only where the intervals tell it apart), the digits that read its figures
apart, and the counts it names."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from tests.helpers import cli

FLAKY = """
from strategies import Strategy


class Flaky(Strategy):
    classifier = {"stochastic": False, "uses_card_counting": False, "search": False}

    def choose(self, view, legal, rng):
        raise RuntimeError("always fails")
"""


def _decl(unit: str = "round"):
    from reports.data import default_declaration

    return dataclasses.replace(default_declaration(), rank_value="score", unit=unit)


def _table(rows: list[tuple[str, float, float, float]]) -> pd.DataFrame:
    """A means table, best first: (strategy, mean, ci_low, ci_high)."""
    return pd.DataFrame([{"strategy": s, "score_mean": m, "score_ci_low": lo,
                          "score_ci_high": hi} for s, m, lo, hi in rows])  # fmt: skip


def _means_text(rows) -> str:
    from reports.findings import _means

    (found,) = _means(_table(rows), _decl())
    return found.text


# --- the means finding: a best only where the run tells it from the next -------------------


def test_a_mean_the_intervals_cannot_tell_from_the_next_is_no_best():
    """The reader's run: 5.950 and 5.948, both '5.95', with intervals far wider than the gap."""
    text = _means_text([("scanner", 5.950, 5.290, 6.610), ("row", 5.948, 5.344, 6.552),
                        ("cycler", 4.869, 4.2, 5.5), ("slow", -2.873, -3.5, -2.2)])  # fmt: skip
    assert "has the best" not in text and "scanner" in text
    assert text.startswith("No strategy has a clearly best mean score per round: 5.950 [5.290, "
                           "6.610] (scanner), which the 95% intervals cannot tell from row's "
                           "5.948 [5.344, 6.552]")  # fmt: skip
    assert text.endswith("; slow has the worst: -2.873.")  # apart from cycler's interval


def test_a_mean_whose_interval_is_clear_of_the_next_is_the_best():
    text = _means_text([("a", 7.0, 6.5, 7.5), ("b", 5.0, 4.5, 5.5), ("c", 1.0, 0.5, 1.5)])
    assert text == ("a has the best mean score per round: 7.00 [6.50, 7.50]; c has the worst: "
                    "1.00.")  # fmt: skip


def test_a_worst_the_intervals_cannot_tell_from_the_one_above_is_said_so():
    text = _means_text([("a", 7.0, 6.5, 7.5), ("b", 1.004, 0.5, 1.5), ("c", 1.0, 0.5, 1.5)])
    assert text.endswith("; the 95% intervals cannot tell c from b's 1.004, so c's estimate is "
                         "the worst: 1.000.")  # fmt: skip
    assert "a has the best mean score per round: 7.000 [6.500, 7.500]" in text


def test_two_means_too_close_to_tell_apart_name_neither_the_best():
    text = _means_text([("a", 2.0, 1.0, 3.0), ("b", 1.5, 0.5, 2.5)])
    assert text == ("No strategy has a clearly best mean score per round: 2.00 [1.00, 3.00] "
                    "(a), which the 95% intervals cannot tell from b, whose estimate is the "
                    "worst: 1.50.")  # fmt: skip


def test_a_mean_without_an_interval_is_never_told_apart():
    """Too few deals for an interval: no test, so no best."""
    text = _means_text([("a", 9.0, np.nan, np.nan), ("b", 1.0, np.nan, np.nan),
                        ("c", 0.0, np.nan, np.nan)])  # fmt: skip
    assert text.startswith("No strategy has a clearly best mean score per round: 9.00 (too few "
                           "deals for an interval; a), which")  # fmt: skip
    assert ") (" not in text, text


def test_the_readers_ligretto_run_crowns_no_mean(capsys, tmp_path):
    import reports
    from reports.findings import key_findings

    out = tmp_path / "lg"
    code, _, err = cli(capsys, "tournament", "--game", "ligretto", "cautious", "cycler", "row",
                       "scanner:speed=1.2,think_ms=250", "scanner:speed=0.8", "--players", "4",
                       "--games", "600", "--seed", "10", "--jobs", "1", "--out", str(out))  # fmt: skip
    assert code == 0, err
    run = reports.load_run(out)
    means = reports.compute_tables(run)[0]["means"]
    top, nxt = means.iloc[0], means.iloc[1]
    assert f"{top['score_mean']:.2f}" == f"{nxt['score_mean']:.2f}"  # the truth: '5.95' twice
    assert top["score_ci_low"] < nxt["score_ci_high"]  # and their intervals overlap
    tables, method = reports.compute_tables(run)
    (text,) = [f.text for f in key_findings(tables, method, run.declaration)
               if f.topic == "means"]  # fmt: skip
    assert text.startswith("No strategy has a clearly best mean score per round")
    assert f"{top['score_mean']:.3f}" in text and f"{nxt['score_mean']:.3f}" in text


# --- the rating: a strategy with no finished game has none --------------------------------------


@pytest.fixture(scope="module")
def flaky_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from tests.helpers import cli_output

    folder = tmp_path_factory.mktemp("flaky")
    (folder / "flaky.py").write_text(FLAKY, encoding="utf-8")
    out = folder / "run"
    code, _, err = cli_output("tournament", f"{folder / 'flaky.py'}:Flaky", "greedy", "low",
                              "high", "--players", "3", "--games", "120", "--seed", "11",
                              "--jobs", "1", "--out", str(out))  # fmt: skip
    assert code == 1 and "no valid game of Flaky" in err, err  # said, the run kept
    return out


def test_a_strategy_that_forfeited_every_game_has_no_rating(flaky_run: Path):
    import reports
    from reports.rating import rating

    run = reports.load_run(flaky_run)
    g = run.games
    flaky = g.labels.index("Flaky")
    sat = (g.seats == flaky).any(axis=1)
    assert g.forfeited[sat].all() and sat.any()  # the truth: every game of Flaky forfeited
    table = rating(g)
    assert "Flaky" not in set(table["strategy"])
    assert set(table["seats"]) == {int((~sat).sum())}  # the others' games without Flaky
    alone = rating(g.select(~sat))  # the same fit as on the games Flaky never sat in
    assert np.allclose(table.sort_values("strategy")["rating"],
                       alone.sort_values("strategy")["rating"])  # fmt: skip


def test_the_findings_say_the_rating_leaves_it_out(flaky_run: Path):
    import reports
    from reports.findings import key_findings

    run = reports.load_run(flaky_run)
    tables, method = reports.compute_tables(run)
    text = " ".join(f.text for f in key_findings(tables, method, run.declaration))
    assert (
        "Flaky is not ranked: every game it sat in ended by a forfeit, so its win rate of "
        "0.0% measures nothing. The rating leaves it out, with the games it sat in."
    ) in text


def test_a_strategy_that_finished_some_games_keeps_its_rating():
    from reports.loading import as_games
    from reports.rating import rating
    from reports.synthetic import synthetic_games

    g = as_games(synthetic_games({"a": 0.3, "b": 0.0, "c": -0.2}, players=(3,), deals=20, seed=4,
                        unfinished_p=0.0, forfeit_p=0.2))  # fmt: skip
    assert g.forfeited.any() and not g.forfeited.all()
    table = rating(g)
    assert set(table["strategy"]) == {"a", "b", "c"} and table["seats"].sum() == 3 * len(g)


# --- the rating's figures: one count of decimals, as the chart's --------------------------------


def test_the_rating_table_writes_the_charts_decimals():
    from reports.rating import RATING_DIGITS, rating_digits, readable

    ratings = pd.DataFrame({"rank": [1, 2], "strategy": ["a", "b"],
                            "rating": [0.0002367, -0.0002367], "ci_low": [-0.31, -0.32],
                            "ci_high": [0.31, 0.32], "worth": [0.50012, 0.49988]})  # fmt: skip
    assert rating_digits(ratings) == RATING_DIGITS == 2
    shown = readable(ratings)
    assert shown["rating"].tolist() == ["+0.00", "+0.00"]  # never '0.0002367', never '-0.00'
    assert shown["ci_low"].tolist() == ["-0.31", "-0.32"]
    assert shown["ci_high"].tolist() == ["+0.31", "+0.32"]
    assert shown["worth"].tolist() == ["50.0%", "50.0%"]


def test_rating_bounds_that_two_decimals_read_alike_get_more():
    from reports.rating import rating_digits, readable

    ratings = pd.DataFrame({"strategy": ["a", "b"], "rating": [0.0123, -0.0123],
                            "ci_low": [0.0121, -0.0124], "ci_high": [0.0124, -0.0121]})  # fmt: skip
    assert rating_digits(ratings) == 4
    assert readable(ratings).loc[0, ["ci_low", "ci_high"]].tolist() == ["+0.0121", "+0.0124"]


# --- the meta-game: the replicates each figure rests on --------------------------------------


@pytest.fixture(scope="module")
def repeats_tables(tmp_path_factory: pytest.TempPathFactory):
    import reports
    from tests.helpers import cli_output

    out = tmp_path_factory.mktemp("rp") / "run"
    code, _, err = cli_output("tournament", "greedy", "low", "high", "--players", "3",
                              "--repeats", "--games", "600", "--seed", "14", "--jobs", "1",
                              "--out", str(out))  # fmt: skip
    assert code == 0, err
    run = reports.load_run(out)
    return reports.compute_tables(run), run


def test_alpha_rank_counts_the_replicates_it_was_run_on(repeats_tables):
    from reports.metagame_bootstrap import REPLICATES, rank_replicates

    (tables, _), _ = repeats_tables
    if "metagame_alpharank" not in tables:
        pytest.skip("α-Rank needs OpenSpiel")
    rank = tables["metagame_alpharank"].iloc[0]
    run = rank_replicates(3, 3)
    assert run < REPLICATES  # the truth: α-Rank runs on the first of the replicates drawn
    assert int(rank["replicates_run"]) == run
    assert int(rank["replicates_drawn"]) == REPLICATES
    assert int(tables["metagame_mix"]["replicates"].iloc[0]) == REPLICATES


def test_the_meta_game_words_say_which_replicates_each_figure_rests_on(repeats_tables):
    from reports.findings import key_findings
    from reports.metagame_bootstrap import REPLICATES
    from reports.metagame_text import metagame_lead

    (tables, method), run = repeats_tables
    if "metagame_alpharank" not in tables:
        pytest.skip("α-Rank needs OpenSpiel")
    rank = tables["metagame_alpharank"].iloc[0]
    n, ok = int(rank["replicates_run"]), int(rank["replicates"])
    assert ok == n  # every replicate found a ranking here
    said = (
        f"of the {n} bootstrap replicates it was run on (the first {n} of the "
        f"{REPLICATES} drawn: each α-Rank is a Python loop)"
    )
    lead = metagame_lead(tables)
    assert said in lead and f"of {REPLICATES} bootstrap replicates of the deals" in lead
    assert f"of {n} bootstrap replicates" not in lead  # never a bare count beside the other
    (text,) = [f.text for f in key_findings(tables, method, run.declaration)
               if f.topic == "metagame"]  # fmt: skip
    assert f"from {REPLICATES} bootstrap replicates of the deals" in text
    assert f"of {n} bootstrap replicates" not in text


def test_replicates_without_a_ranking_are_counted_apart():
    from reports.metagame_text import rank_replicates

    row = pd.Series({"replicates": 70, "replicates_run": 74, "replicates_drawn": 200})
    assert rank_replicates(row) == ("the 70 bootstrap replicates in which it found a ranking, of "
                                    "the 74 it was run on (the first 74 of the 200 drawn: each "
                                    "α-Rank is a Python loop)")  # fmt: skip
    row = pd.Series({"replicates": 200, "replicates_run": 200, "replicates_drawn": 200})
    assert rank_replicates(row) == "the 200 bootstrap replicates it was run on (all 200 drawn)"
    assert rank_replicates(pd.Series({"replicates": 1})) == "1 bootstrap replicate"


def test_a_run_whose_every_game_was_forfeited_rates_nobody():
    from reports.loading import as_games
    from reports.rating import rating
    from reports.synthetic import synthetic_games

    g = as_games(synthetic_games({"a": 0.3, "b": 0.0, "c": -0.2}, players=(3,), deals=4, seed=4,
                                 unfinished_p=0.0, forfeit_p=1.0))  # fmt: skip
    assert g.forfeited.all()  # the truth: no game finished, so no strategy has a rating
    assert not len(rating(g))


def test_the_page_and_the_chart_write_each_rating_with_the_same_decimals():
    """The page's rating table (``readable``) and the chart's labels are one figure each: at 4
    decimals where 2 would read a row's bounds alike, at 2 otherwise."""
    from reports import charts
    from reports.rating import readable
    from reports.sections import _comparisons

    for ratings in (
        pd.DataFrame({"rank": [1, 2], "strategy": ["a", "b"], "rating": [0.0123, -0.0123],
                      "ci_low": [0.0121, -0.0124], "ci_high": [0.0124, -0.0121],
                      "worth": [0.5, 0.5]}),
        pd.DataFrame({"rank": [1, 2], "strategy": ["a", "b"], "rating": [0.0002367, -0.0002367],
                      "ci_low": [-0.31, -0.32], "ci_high": [0.31, 0.32], "worth": [0.5, 0.5]}),
    ):  # fmt: skip
        shown = readable(ratings)
        want = [f"{r.rating} [{r.ci_low}, {r.ci_high}]" for r in shown.itertuples()]
        got = [t.get_text() for t in charts.rating(ratings).axes[0].texts]
        assert sorted(got) == sorted(want)
        tables = {"rating": ratings, "significance": pd.DataFrame(), "head_to_head": None}
        section = _comparisons(tables, "paired", _decl("game"))[0]
        assert section.tables[0][1].equals(shown)  # the page writes what readable gives


def test_positions_are_called_best_and_worst_only_where_their_intervals_are_apart():
    """Was: 'Best position 0 (33.8%), worst position 2 (32.9%)' beside intervals of about
    +-3.4 points: an order the run cannot tell from chance."""
    from reports.data import default_declaration
    from reports.findings import _seats

    def text(lo: list[float], hi: list[float]) -> str:
        seats = pd.DataFrame({"n_players": [3] * 3, "position": [0, 1, 2],
                              "win_rate": [0.338, 0.333, 0.329], "ci_low": lo, "ci_high": hi,
                              "fair": [1 / 3] * 3})  # fmt: skip
        return _seats(seats, default_declaration())[0].text

    overlap = text([0.304, 0.299, 0.295], [0.372, 0.367, 0.363])
    assert (
        "Highest position 0 (33.8%), lowest position 2 (32.9%), counting from the first "
        "player: the 95% intervals cannot tell them apart"
    ) in overlap, overlap
    assert "Best" not in overlap
    apart = text([0.335, 0.330, 0.326], [0.341, 0.336, 0.3319])
    assert "Best position 0 (33.8%), worst position 2 (32.9%), counting from" in apart, apart


def test_a_first_player_rate_without_an_interval_says_why_after_its_units():
    """Was: 'wins 23.3% (too few deals for an interval) of games'."""
    from reports.data import default_declaration
    from reports.findings import _seats

    nan = float("nan")
    seats = pd.DataFrame({"n_players": [3] * 3, "position": [0, 1, 2],
                          "win_rate": [0.233, 0.4, 0.367], "ci_low": [nan] * 3,
                          "ci_high": [nan] * 3, "fair": [1 / 3] * 3})  # fmt: skip
    text = _seats(seats, default_declaration())[0].text
    assert "the first to play wins 23.3% of games (too few deals for an interval) against" in text
