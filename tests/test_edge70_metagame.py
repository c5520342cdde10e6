"""The meta-game says only what its numbers hold: a run in which no game was won has no payoffs
to compare (no mix, no equilibria, no α-Rank); the dynamics come to rest only where no strategy
of the mix is still leaving it; a run of several table sizes names the size it read."""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import reports
from reports import metagame as mg
from reports.findings import metagame_answer
from reports.metagame_tables import metagame
from reports.metagame_text import at_size, metagame_lead
from tests.test_metagame import dominant, games_frame, multisets, nash_of, table_payoffs
from tournaments import Tournament


def nobody_won() -> reports.Run:
    """Three-seat games of two strategies, every table dealt 6 times (enough for an analysis),
    none of them won: each stopped unfinished."""
    df = games_frame(["ace", "bee"], dominant, deals=6)
    df["winner_seat"], df["unfinished"] = -1, True
    for s in range(3):
        df[f"cards_left_{s}"] = 3
    return reports.as_run(df)


def test_a_run_nobody_won_gets_its_payoffs_and_no_mix():
    tables = metagame(nobody_won())
    assert list(tables) == ["metagame_payoffs"]  # no mix, equilibria, trajectory or α-Rank
    assert mg.unwon(tables["metagame_payoffs"])
    lead = metagame_lead(tables)
    assert lead.startswith("No game was won, so there are no payoffs to compare: every payoff is 0")
    assert "stable mix is" not in lead and "come to rest" not in lead


def test_the_finding_of_a_run_nobody_won_says_there_is_nothing_to_compare():
    assert metagame_answer(nobody_won()) == (
        "Meta-game: no game was won, so there are no payoffs to compare, and no stable mix to find."
    )


def test_a_won_run_is_not_taken_for_one_nobody_won():
    tables = metagame(reports.as_run(games_frame(["ace", "bee"], dominant, deals=6)))
    assert not mg.unwon(tables["metagame_payoffs"]) and "metagame_mix" in tables
    assert not mg.unwon(tables["metagame_payoffs"].iloc[:0])  # no rows: nothing said of them


def edge(delta: float):
    """Two strategies at three seats, the first a little better at every mixed table (by
    ``delta`` of a win per seat of the other): the second keeps falling, ever more slowly."""

    def seat_payoff(counts: np.ndarray) -> np.ndarray:
        a, b = counts
        return np.array([1 / 3 + delta * b / 3, 1 / 3 - delta * a / 3])

    return seat_payoff


def test_a_strategy_still_falling_at_the_horizon_is_not_at_rest_in_the_mix():
    """A 0.1-point edge: by the horizon the second strategy has fallen to about a third, the
    regret is already under 0.1 point, yet it is still leaving; the dynamics head to the first
    alone, and only there do they rest."""
    counts = multisets(2, 3)
    eq = nash_of(counts, table_payoffs(counts, edge(1e-3)))
    assert eq.trajectory[-1, 1] > 0.2  # still in the mix at the end of the trajectory
    np.testing.assert_allclose(eq.points[0], [1.0, 0.0], atol=1e-9)
    assert eq.settled and len(eq.points) == 1


@settings(max_examples=20, deadline=None)
@given(delta=st.floats(1e-4, 3e-2), players=st.sampled_from([2, 3]))
def test_where_the_dynamics_are_at_rest_no_strategy_of_the_mix_moves(delta, players):
    counts = multisets(2, players)
    pay = table_payoffs(counts, edge(delta))
    eq = nash_of(counts, pay)
    fit = mg.Fitness.of(counts)
    gains, regret = mg.regrets(fit, fit.gather(pay), eq.points[0])
    played = eq.points[0] >= mg.TINY
    if eq.settled:
        assert (np.abs(gains[played]) <= mg.REST).all() and regret <= mg.EPS
    np.testing.assert_allclose(eq.points[0], [1.0, 0.0], atol=1e-6)  # the first dominates


def edge_frame(deals: int = 300) -> pd.DataFrame:
    """Two strategies at three seats, every deal played under three rotations, each rotation
    won by another seat (an even split), except the first deal of each mixed table, in which
    ace wins all three: ace's edge is a tenth of a point, too small for the dynamics to take
    bee out by the horizon."""
    rows = []
    for t, table in enumerate(itertools.combinations_with_replacement(range(2), 3)):
        mixed = 0 < table.count(0) < 3
        for deal in range(deals):
            for r in range(3):
                seats = [table[(s + r) % 3] for s in range(3)]
                win = seats.index(0) if mixed and deal == 0 else r
                row = {f"seat_{s}": ("ace", "bee")[seats[s]] for s in range(3)}
                row.update({f"cards_left_{s}": 0 if s == win else 3 for s in range(3)})
                row.update(n_players=3, first_player=r, winner_seat=win, turns=40, rounds=6,
                           unfinished=False, forfeit=-1, deal=t * deals + deal, table=t)  # fmt: skip
                rows.append(row)
    return pd.DataFrame(rows)


def test_the_lead_says_come_to_rest_only_where_no_strategy_of_the_mix_moves():
    tables = metagame(reports.as_run(edge_frame()))
    mix = tables["metagame_mix"].set_index("strategy")
    path = tables["metagame_trajectory"]
    assert path["bee"].iloc[-1] > 0.05  # bee still falling at the horizon
    lead = metagame_lead(tables)
    assert lead.startswith("The stable mix is ace alone (100.0% ")
    assert "come to rest there" in lead and bool(mix["at_rest"].iloc[0])
    played = mix["weight"] >= mg.TINY
    assert (mix["gain"][played].abs() <= mg.REST).all()
    assert len(tables["metagame_equilibria"]) == 1  # every start heads to ace alone


@pytest.fixture(scope="module")
def two_sizes(tmp_path_factory):
    """A --repeats run at three and four seats: four seats have the most games."""
    out = tmp_path_factory.mktemp("sizes") / "run"
    Tournament(["random", "taker"], players=[3, 4], games=200, seed=1, repeats=True).run(out=out)
    return reports.load_run(out)


def test_a_run_of_several_sizes_names_the_size_its_meta_game_reads(two_sizes):
    sizes, games = np.unique(two_sizes.games.n_players, return_counts=True)
    assert sizes.tolist() == [3, 4] and games[1] > games[0]  # four seats: the most games
    tables = metagame(two_sizes)
    pay = tables["metagame_payoffs"]
    assert int(pay["players"].iloc[0]) == 4 and int(pay["sizes"].iloc[0]) == 2
    said = " at 4 players (the size with the most games)"
    assert metagame_answer(two_sizes).startswith(f"Meta-game{said}: ")
    assert metagame_lead(tables).startswith(f"The stable mix{said} is ")


def test_a_run_of_one_size_names_none():
    run = reports.as_run(games_frame(["ace", "bee"], dominant, deals=6))
    assert at_size(metagame(run)["metagame_payoffs"]) == ""
    assert metagame_answer(run).startswith("Meta-game: the stable mix")


def test_a_size_read_though_another_had_more_games_says_so():
    pay = metagame(reports.as_run(games_frame(["ace", "bee"], dominant, deals=6)))[
        "metagame_payoffs"
    ].assign(sizes=2, most_games=False)
    assert at_size(pay) == (
        " at 3 players (the size with the most games of those that hold every multiset)"
    )


def test_reports_md_says_the_rest_tolerance_and_the_horizon_of_the_code():
    text = (Path(__file__).parents[1] / "docs" / "reports.md").read_text()
    rest = re.search(r"mix gains or loses more than ([\d.]+) percentage points; one still\s+"
                     r"losing more at time ([\d,]+)", text)  # fmt: skip
    assert rest, "docs/reports.md no longer says when the dynamics come to rest"
    assert float(rest[1]) == pytest.approx(100 * mg.REST)
    assert float(rest[2].replace(",", "")) == mg.HORIZON
