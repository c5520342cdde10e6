"""Audit of a tournament's report against the truth counted from the run's own rows: a
strategy with no valid game (every game it sat in ended by a forfeit) is not ranked, compared,
given a neighbour effect or a meta-game as if its 0.0% were a measured win rate; forfeited
games count as no deal in the comparisons; a runner-up tied with another is said to share its
place; a median between two lengths is said as it is; positions that won alike are not called
best and worst; a tie in win rate is no order for the rating's note; a run too small for any
interval of a difference says so over its comparisons; a report into a used folder leaves no
earlier table; the terminal and the page say the same of a run being written."""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd
import pytest

import reports
from reports.data import default_declaration
from reports.findings import _seats
from reports.sections import order_note
from tests.helpers import cli_output
from tournaments.loading import load

NAN = float("nan")
BAD = """
from strategies import Strategy


class Bad(Strategy, register=False):
    classifier = {"stochastic": False}

    def choose(self, view, legal, rng):
        raise RuntimeError("always")
"""


def _play(*args: object) -> tuple[int, str, str]:
    seed = () if "--seed" in args else ("--seed", "1")
    return cli_output("tournament", *map(str, args), *seed, "--jobs", "1")


@pytest.fixture(scope="module")
def bad_pair(tmp_path_factory) -> Path:
    """Bad and greedy at 3 seats: Bad forfeits every game it sits in, greedy has the
    all-greedy table's games as its only valid ones."""
    tmp = tmp_path_factory.mktemp("bad_pair")
    (tmp / "bad.py").write_text(BAD)
    out = tmp / "run"
    code, _, err = _play(f"{tmp / 'bad.py'}:Bad", "greedy", "--players", "3", "--games",
                         "24", "--out", out)  # fmt: skip
    assert code == 1, err
    return out


def _valid_games(run: Path) -> pd.Series:
    """Per strategy, the games it sat in not ended by a forfeit, once each (from the rows)."""
    df = load(run).games()
    cols = [c for c in df.columns if c.startswith("seat_")]
    long = df.melt(id_vars=["game", "forfeit"], value_vars=cols, value_name="strategy").dropna()
    long = long.drop_duplicates(["game", "strategy"])  # a strategy's game once, however many seats
    return (~long["forfeit"]).groupby(long["strategy"].astype(str)).sum()


def test_a_strategy_with_no_valid_game_is_not_ranked_as_next(bad_pair):
    truth = _valid_games(bad_pair)
    assert truth["Bad"] == 0 and truth["greedy"] > 0
    tables, method = reports.compute_tables(bad_pair)
    summ = tables["summary"].set_index("strategy")
    assert summ.loc["Bad", "valid_games"] == 0
    assert summ.loc["greedy", "valid_games"] == truth["greedy"]
    best = [f.text for f in reports.key_findings(tables, method) if f.topic in
            ("summary", "significance")]  # fmt: skip
    assert len(best) == 1
    text = best[0]
    assert "next with" not in text and "margin over Bad" not in text, text
    assert text.startswith("greedy is the only strategy with a valid game:"), text
    assert (
        "Bad is not ranked: every game it sat in ended by a forfeit, so its win rate of 0.0% "
        "measures nothing." in text
    ), text
    assert not len(tables["significance"])  # no pair of two measured rates to compare
    neighbours = [f for f in reports.key_findings(tables, method) if f.topic == "neighbours"]
    assert not neighbours  # greedy after Bad: forfeited games only, nothing measured


def test_a_strategy_with_no_valid_game_has_no_meta_game(bad_pair):
    """Two strategies at three seats cover every multiset: a meta-game, but Bad's payoffs
    would count its forfeits (every table with Bad pays nobody), not play."""
    tables, method = reports.compute_tables(bad_pair)
    assert not [k for k in tables if k.startswith("metagame")]
    assert not [f for f in reports.key_findings(tables, method) if f.topic == "metagame"]


@pytest.fixture(scope="module")
def bad_in_four(tmp_path_factory) -> Path:
    """Bad among three built-ins at three seats: greedy, low and taker share one table."""
    tmp = tmp_path_factory.mktemp("bad_four")
    (tmp / "bad.py").write_text(BAD)
    out = tmp / "run"
    code, _, err = _play(f"{tmp / 'bad.py'}:Bad", "greedy", "low", "taker", "--players", "3",
                         "--games", "48", "--out", out)  # fmt: skip
    assert code == 1, err
    return out


def test_pairs_with_a_strategy_with_no_valid_game_are_not_compared(bad_in_four):
    tables, method = reports.compute_tables(bad_in_four)
    sig = tables["significance"]
    assert len(sig) == 3 and "Bad" not in set(sig["a"]) | set(sig["b"])
    summ = tables["summary"]
    truth = _valid_games(bad_in_four)
    assert dict(zip(summ["strategy"], summ["valid_games"], strict=True)) == truth.to_dict()
    assert summ["strategy"].iloc[-1] == "Bad"  # after greedy's 0 wins in valid games
    text = " ".join(f.text for f in reports.key_findings(tables, method))
    assert "Bad is not ranked" in text


LOW2 = """
from strategies import Strategy, get

_LOW = get("low")


class Low2(Strategy, register=False):
    classifier = {"stochastic": False}

    def choose(self, view, legal, rng):
        return _LOW.choose(view, legal, rng)
"""


def test_a_runner_up_tied_with_another_is_said_to_share_the_place(tmp_path):
    """low and a copy of it play alike, so they tie exactly behind taker (counted from the
    rows); the sentence compares taker with one of them and says the other shares its place."""
    (tmp_path / "low2.py").write_text(LOW2)
    out = tmp_path / "run"
    code, _, err = _play("low", f"{tmp_path / 'low2.py'}:Low2", "taker", "--players", "3",
                         "--games", "120", "--out", out)  # fmt: skip
    assert code == 0, err
    df = load(out).games()
    wins = {s: int(sum(((df[f"seat_{i}"] == s) & (df["winner_seat"] == i)).sum()
                       for i in range(3))) for s in ("low", "Low2", "taker")}  # fmt: skip
    assert wins["low"] == wins["Low2"] < wins["taker"]
    tables, method = reports.compute_tables(out)
    text = reports.key_findings(tables, method)[0].text
    rate = f"{100 * wins['low'] / 120:.1f}%"  # each took 120 seats
    assert re.search(rf"margin over Low2 \({re.escape(rate)} \[[^]]+\], tied with low\) is",
                     text), text  # fmt: skip


def test_a_median_between_two_lengths_is_said_as_it_is(tmp_path):
    """60 games: the median of the turns is the mean of the 30th and 31st, x.5 where they
    differ by one; the sentence said it rounded half to even (34.5 as 34, 31.5 as 32)."""
    out = tmp_path / "run"
    code, _, err = _play("greedy", "low", "taker", "--players", "3", "--games", "60", "--seed",
                         "2", "--out", out)  # fmt: skip
    assert code == 0, err
    median = float(load(out).games()["turns"].median())
    assert not median.is_integer()  # this seed's run: the case in point
    tables, method = reports.compute_tables(out)
    text = next(f.text for f in reports.key_findings(tables, method) if f.topic == "lengths")
    assert f"a game lasts {median:.1f} turns on median" in text, text


def test_the_rating_note_does_not_call_a_tie_in_win_rate_an_order():
    """greedy and low won as often; the rating puts low first: the win rate does not put
    them 'the other way round'."""
    summary = pd.DataFrame({"strategy": ["greedy", "low", "taker"], "relative": [1.0, 1.0, 0.5]})
    assert order_note(summary, pd.DataFrame({"strategy": ["low", "greedy", "taker"]})) == ""
    note = order_note(summary, pd.DataFrame({"strategy": ["taker", "low", "greedy"]}))
    assert (
        "the rating puts taker above low and greedy (taker 3rd by win rate, 1st by rating)" in note
    )


def test_a_run_too_small_for_any_interval_says_so_over_its_comparisons(tmp_path):
    """Six games: no difference has an interval (every bound blank), and the lead of the
    differences said only 'which are real, and which could be chance'."""
    out = tmp_path / "run"
    code, _, err = _play("greedy", "low", "taker", "--players", "3", "--games", "6", "--out",
                         out)  # fmt: skip
    assert code == 0, err
    page = reports.build_report(out, out=tmp_path / "rep", fmt="md").read_text()
    sig = pd.read_csv(tmp_path / "rep" / "significance.csv")
    assert len(sig) and sig["ci_low"].isna().all()
    part = page.split("## Differences that matter", 1)[1]
    assert "This run cannot tell: it has too few deals for an interval of any difference" in part


def _seat_rows(wins: list[int], games: int = 12) -> pd.DataFrame:
    return pd.DataFrame({
        "n_players": 3, "position": range(len(wins)), "games": games, "wins": wins,
        "win_rate": [w / games for w in wins], "ci_low": NAN, "ci_high": NAN, "fair": 1 / 3,
    })  # fmt: skip


def test_positions_that_won_alike_are_not_called_best_and_worst():
    """12 valid games, 4 won from each position (a run whose other games were forfeited):
    the sentence said 'Best position 0 (33.3%), worst position 0 (33.3%)'."""
    d = default_declaration()
    text = _seats(_seat_rows([4, 4, 4]), d)[0].text
    assert "Every position won 33.3%, counting from the first player." in text, text
    assert "worst position 0" not in text
    text = _seats(_seat_rows([5, 2, 5]), d)[0].text
    assert (
        "Highest positions 0 and 2 (41.7%), lowest position 1 (16.7%), counting from the "
        "first player: too few deals for intervals to tell them apart"
    ) in text, text


def test_a_run_with_no_valid_game_ranks_no_strategy(tmp_path):
    """Bad at the one table of three: every game forfeited. From Python (the command says
    'Nothing valid' instead of the findings), no strategy is ranked or compared."""
    (tmp_path / "bad.py").write_text(BAD)
    out = tmp_path / "run"
    code, _, _ = _play(f"{tmp_path / 'bad.py'}:Bad", "greedy", "low", "--players", "3",
                       "--games", "12", "--out", out)  # fmt: skip
    assert code == 1 and load(out).games()["forfeit"].all()
    tables, method = reports.compute_tables(out)
    assert not len(tables["significance"])
    text = reports.key_findings(tables, method)
    best = [f.text for f in text if f.topic in ("summary", "significance")]
    assert best == ["No strategy has a valid game: every one ended by a forfeit, so none is "
                    "ranked."]  # fmt: skip


def test_a_report_into_a_used_folder_leaves_no_table_of_the_earlier_run(bad_pair, tmp_path):
    """A report of a run with a meta-game (and a match table), then one of a run without
    (Bad's games are all forfeits) into the same folder: the second left the first's
    metagame_*.csv and its chart beside a page that has neither. Files no report wrote (a
    table or a chart of the user's own) stay: a first fix removed every chart it did not draw."""
    import json

    out = tmp_path / "rep"
    (out / "charts").mkdir(parents=True)
    earlier = ["metagame_payoffs.csv", "metagame_mix.csv", "gauntlet.csv", "matches.csv",
               "charts/metagame_trajectory.png", "summary.csv", "report.md"]  # fmt: skip
    for rel in earlier:  # as the earlier report wrote them, and listed them
        (out / rel).write_bytes(b"an earlier report's file")
    (out / ".report-files").write_text(json.dumps(earlier))
    (out / "notes.csv").write_text("mine\n")
    (out / "charts" / "my_diagram.png").write_bytes(b"mine")
    reports.build_report(bad_pair, out=out, fmt="md")
    written = {p.name for p in out.glob("*.csv")}
    assert not {"metagame_payoffs.csv", "metagame_mix.csv", "gauntlet.csv", "matches.csv"} & written
    assert "notes.csv" in written and "summary.csv" in written
    charts = {p.stem for p in (out / "charts").glob("*.png")}
    assert "metagame_trajectory" not in charts and {"win_rates", "my_diagram"} <= charts
    listed = set(json.loads((out / ".report-files").read_text()))
    assert "summary.csv" in listed and "charts/win_rates.png" in listed
    assert "notes.csv" not in listed and "charts/my_diagram.png" not in listed


def test_the_terminal_and_the_page_say_the_same_of_a_run_being_written(tmp_path, monkeypatch):
    """A run still being written grows between two looks at it: the page said 1,199,808 games
    played and the terminal, looking again, 1,249,800, both printed one under the other. The
    command now looks once (here each look sees one more game)."""
    import dataclasses

    import tournaments.run_state as rs

    out = tmp_path / "run"
    code, _, err = _play("greedy", "low", "taker", "--players", "3", "--games", "6", "--out", out)
    assert code == 0, err
    real, looks = rs.run_state, []

    def growing(run):
        state = real(run)
        looks.append(1)
        return dataclasses.replace(state, planned=100, played=state.played - 2 + len(looks))

    monkeypatch.setattr(rs, "run_state", growing)
    monkeypatch.setattr(reports.report, "run_state", growing)
    code, stdout, err = cli_output("report", str(out))
    assert code == 0, err
    said = [line for line in stdout.splitlines() if "Unfinished run" in line]
    assert len(said) == 1 and said[0].startswith("Unfinished run: 5 of 100 games"), stdout
    page = (out / "report" / "findings.txt").read_text().splitlines()
    assert page[0] == said[0]


def test_forfeited_games_count_as_no_deal_in_the_comparisons(tmp_path):
    """Bad among three built-ins at three seats, 5 deals a table: the one table without Bad
    has 5 valid deals, too few for an interval (4 degrees of freedom), and the three others
    only forfeits. Counted as deals, the forfeits gave 8 degrees of freedom, intervals and
    p = 0.0006 for taker over greedy from those five deals."""
    (tmp_path / "bad.py").write_text(BAD)
    out = tmp_path / "run"
    code, _, _ = _play(f"{tmp_path / 'bad.py'}:Bad", "greedy", "low", "taker", "--players", "3",
                       "--games", "120", "--out", out)  # fmt: skip
    assert code == 1
    df = load(out).games()
    valid = df[~df["forfeit"]]
    assert valid["table"].nunique() == 1 and valid["deal"].nunique() == 5
    tables, method = reports.compute_tables(out)
    sig = tables["significance"]
    assert len(sig) == 3 and (sig["df"] == 4).all() and sig["ci_low"].isna().all()
    assert tables["neighbours"]["vs_elsewhere_p"].isna().all()
    text = " ".join(f.text for f in reports.key_findings(tables, method))
    assert "too few deals for an interval of their difference" in text, text
    assert "Neighbours:" not in text
    # the public functions say the same as the report (a first fix filtered in the report only)
    public = reports.significance(out)
    assert len(public) == 3 and (public["df"] == 4).all() and public["ci_low"].isna().all()
    assert set(public["a"]) | set(public["b"]) == {"greedy", "low", "taker"}
    assert reports.neighbours(out)["vs_elsewhere_p"].isna().all()


FLAKY = """
from strategies import Strategy


class Flaky(Strategy):
    name = "flaky_gauntlet"

    def choose(self, view, legal, rng):
        if len(view.hand) and sum(view.hand) == 7:
            raise RuntimeError("seven")
        return legal[0]
"""


def test_a_gauntlet_report_says_its_comparison_counts_the_forfeits(tmp_path):
    """Was: 'the comparison below counts these errors too' beside 'the paired comparisons ...
    leave them out': a gauntlet's comparison counts a failing side's forfeits as losses."""
    (tmp_path / "flaky.py").write_text(FLAKY)
    out = tmp_path / "g"
    code, _, err = cli_output("gauntlet", f"{tmp_path / 'flaky.py'}:Flaky", "--baseline", "greedy",
                              "--against", "low,taker", "--players", "3", "--games", "120",
                              "--seed", "1", "--jobs", "1", "--out", str(out))  # fmt: skip
    assert code == 0, err
    tables, method = reports.compute_tables(out)
    assert tables["completion"]["forfeited"].iloc[-1] > 0
    text = " ".join(f.text for f in reports.key_findings(tables, method))
    assert "the gauntlet's comparison counts them" in text, text
    assert "the paired comparisons and the seat" not in text
