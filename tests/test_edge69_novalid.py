"""A strategy every game of which ended by a forfeit has a win rate that measures nothing: it
gets no interval (it read '0.0% [0.0, 7.3]'), but n/a and why, in the tournament's summary,
on the report page's summary and as NaN bounds in summary.csv; the others keep theirs."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from reports.numbers import NA, no_valid
from reports.page import Section, key_rows, render_md
from reports.tables import summary, unmeasured
from tests.helpers import cli

RAISER = """
from strategies import Strategy


class Raiser(Strategy, register=False):
    classifier = {"stochastic": False}

    def choose(self, view, legal, rng):
        raise RuntimeError("nope")
"""
WHY = "n/a: every game Raiser sat in ended by a forfeit, so its win rate measures nothing"


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory):
    """Raiser forfeits its every game; greedy, low and random play 102 valid games each."""
    from tournaments import Tournament

    folder = tmp_path_factory.mktemp("novalid")
    (folder / "raiser.py").write_text(RAISER)
    specs = [f"{folder / 'raiser.py'}:Raiser", "random", "greedy", "low"]
    return Tournament(specs, players=3, games=400, seed=1).run(n_jobs=1, out=folder / "run")


def test_a_strategy_with_no_valid_game_has_no_interval_the_others_keep_theirs(run):
    s = summary(run.out).set_index("strategy")
    assert s.at["Raiser", "valid_games"] == 0
    assert math.isnan(s.at["Raiser", "ci_low"]) and math.isnan(s.at["Raiser", "ci_high"])
    others = s.drop(index="Raiser")  # random won nothing either, yet was measured: [0.0, 7.3]
    assert others[["ci_low", "ci_high"]].notna().all().all()
    assert others.at["random", "win_rate"] == 0 and others.at["random", "ci_high"] > 0
    assert unmeasured(s.reset_index()) == ["Raiser"]


def test_the_tournament_summary_writes_na_and_says_why(run, capsys):
    from leaves_cli.tournament_summary import summary_table

    assert summary_table(run) is None  # the others have intervals
    out = capsys.readouterr().out
    (row,) = [line for line in out.splitlines() if "Raiser" in line and "│" in line]
    cells = [c.strip() for c in row.strip("│ ").split("│")]
    assert cells[:5] == ["Raiser", "306", "0", "0.0%", NA]  # it read '[0.0, 7.3]'
    assert f"{WHY} and has no interval." in out
    random_row = next(line for line in out.splitlines() if "random" in line)
    assert "[0.0, 7.3]" in random_row


def test_the_page_summary_writes_na_and_says_why(run):
    table = summary(run.out)
    top, _ = key_rows("summary", table)
    raiser = top[top["strategy"] == "Raiser"].iloc[0]
    assert (raiser["ci_low"], raiser["ci_high"]) == (NA, NA)  # it read '0.0%', '7.3%'
    assert top[top["strategy"] == "random"].iloc[0]["ci_high"] == "7.3%"
    page = render_md("r", [], [Section("Summary", tables=[("summary", table)])], {})
    assert f"`summary` ({WHY} and has no interval)" in page


def test_no_na_and_no_note_where_every_strategy_has_a_valid_game():
    table = pd.DataFrame({"strategy": ["a", "b"], "games": [10, 10], "wins": [6, 4],
                          "win_rate": [0.6, 0.4], "ci_low": [float("nan")] * 2,
                          "ci_high": [float("nan")] * 2, "valid_games": [10, 10]})  # fmt: skip
    top, _ = key_rows("summary", table)  # too few deals: blank, as before, not n/a
    assert NA not in top.to_numpy().tolist()[0] + top.to_numpy().tolist()[1]
    page = render_md("r", [], [Section("Summary", tables=[("summary", table)])], {})
    assert "n/a" not in page


def test_the_words_for_several_strategies():
    assert no_valid(["a", "b"], "round") == (
        "n/a: every round a and b sat in ended by a forfeit, so their win rates measure "
        "nothing and have no interval"
    )


@pytest.mark.slow
def test_leaves_tournament_and_report_as_a_user_meets_them(capsys, tmp_path: Path):
    (tmp_path / "raiser.py").write_text(RAISER)
    out = tmp_path / "run"
    code, said, err = cli(capsys, "tournament", f"{tmp_path / 'raiser.py'}:Raiser", "random",
                          "greedy", "low", "--games", "400", "--players", "3", "--seed", "1",
                          "--jobs", "1", "--out", str(out))  # fmt: skip
    assert code == 1, err  # a strategy that forfeited every game: said so, exit 1
    assert f"{WHY} and has no interval." in said
    code, said, err = cli(capsys, "report", str(out))
    assert code == 1, err
    csv = pd.read_csv(out / "report" / "summary.csv").set_index("strategy")
    assert csv.loc["Raiser", ["ci_low", "ci_high"]].isna().all()
    page = (out / "report" / "report.html").read_text()
    assert f"summary ({WHY} and has no interval)" in page
    assert page.count("<td>n/a</td>") == 2  # Raiser's two bounds; it read 0.0% and 7.3%


def test_precision_reads_the_widest_interval_of_the_measured_strategies_only(run):
    """--precision's width ignores a strategy with no valid game (it has no interval, and
    more games give it none): the run's width is the others' widest."""
    from leaves_cli.sequential import widest_half_width

    s = summary(run.out).set_index("strategy").drop(index="Raiser")
    far = np.maximum(s["ci_high"] - s["win_rate"], s["win_rate"] - s["ci_low"])
    expected = 100 * float(far.max())
    assert widest_half_width(run) == pytest.approx(expected)


def test_precision_stops_a_run_where_nothing_valid_was_played(tmp_path):
    """Every table seats Raiser: every game forfeited; the run stops after its first stage
    (it played on to --max-games saying 'unknown (too few deals)')."""
    from leaves_cli.sequential import run_precision
    from tournaments import Tournament

    (tmp_path / "raiser.py").write_text(RAISER)
    t = Tournament([f"{tmp_path / 'raiser.py'}:Raiser", "random", "greedy"], players=3, games=60,
                   seed=1)  # fmt: skip
    logged: list[str] = []

    def play(grown, out, resume):
        return grown.run(n_jobs=1, out=out, resume=resume)

    run_precision(t, tmp_path / "p", play, 1.0, 100_000, logged.append)
    assert len(logged) == 1 and logged[0].endswith(
        "nothing valid played: every one ended by a forfeit, so the run stops here"
    ), logged


def test_a_partly_forfeited_share_never_reads_as_none_or_all():
    from tournaments.run_state import _part_pct

    assert [_part_pct(1, 15_000), _part_pct(14_999, 15_000), _part_pct(1, 2)] == [
        "0.01%", "99.99%", "50.0%"]  # fmt: skip
