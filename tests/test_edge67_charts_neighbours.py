"""The neighbours heatmap ("whom do you want to sit after?") is coloured by the seat effect,
``vs_elsewhere`` (the win rate after a strategy less the win rate with it at another seat of
the same tables), not by the win rate less the strategy's overall rate, which mostly says who
is at the table; a pair with no other seat to compare has an empty effect and a reason, not
a measured 0 with p = 1.00."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import reports
from reports import charts
from reports.data import default_declaration
from reports.neighbours import neighbours
from reports.sections import sections
from reports.synthetic import synthetic_games
from tests.test_edge67_charts_gauntlet_rows import gauntlet_rows, gauntlet_run

# A weak strategy (d) at the table lowers everyone's rate after it and elsewhere alike (a
# large vs_overall, no seat effect); the seat effects are set apart from it.
ROWS = [  # strategy, before, games, wins, vs_elsewhere, p
    ("a", "b", 100, 40, -0.020, 0.40),
    ("a", "d", 100, 60, 0.010, 0.70),
    ("b", "a", 100, 30, 0.050, 0.01),
    ("b", "d", 100, 50, -0.005, 0.90),
    ("d", "a", 100, 5, 0.000, 1.00),
    ("d", "b", 100, 7, -0.030, 0.20),
]


def _table() -> pd.DataFrame:
    t = pd.DataFrame(ROWS, columns=["strategy", "before", "games", "wins", "vs_elsewhere",
                                    "vs_elsewhere_p"])  # fmt: skip
    t["win_rate"] = t["wins"] / t["games"]
    return t


def test_the_colour_is_the_seat_effect_in_points():
    fig = charts.neighbours(_table())
    ax = fig.axes[0]
    shown = np.ma.filled(ax.images[0].get_array(), np.nan)
    truth = {(s, b): 100 * v for s, b, _, _, v, _ in ROWS}
    order = ["a", "b", "d"]
    for i, s in enumerate(order):
        for j, b in enumerate(order):
            want = truth.get((s, b), np.nan)
            assert shown[i, j] == pytest.approx(want, nan_ok=True), (s, b)


def test_the_cells_write_the_effect_and_star_p_below_005_only():
    ax = charts.neighbours(_table()).axes[0]
    texts = sorted(t.get_text() for t in ax.texts)
    assert texts == sorted(["-2.0", "+1.0", "+5.0*", "-0.5", "+0.0", "-3.0"])


def test_the_title_and_scale_say_what_the_colour_and_the_star_are():
    fig = charts.neighbours(_table())
    title = fig.axes[0].get_title()
    assert "colour: the seat effect" in title and "*: p < 0.05, uncorrected" in title
    scale = fig.axes[1].yaxis.label.get_text().replace("\n", " ")
    assert "win rate after it less with it elsewhere at the same tables" in scale, scale
    assert "less its overall" not in scale


def test_a_pair_with_no_other_seat_has_no_effect_not_a_zero():
    nb = neighbours(gauntlet_rows()).set_index(["strategy", "before"])
    for side in ("B", "C"):
        row = nb.loc[(side, "W")]
        assert row["games"] == 160
        for col in ("vs_elsewhere", "vs_elsewhere_low", "vs_elsewhere_high", "vs_elsewhere_p",
                    "shared_rate", "elsewhere_rate"):  # fmt: skip
            assert np.isnan(row[col]), (side, col, row[col])
        assert row["vs_elsewhere_sets"] == 0 and bool(row["no_other_seat"])
    w = nb.loc[("W", "C")]  # W after C: the other W seats are elsewhere, C is not
    assert not w["no_other_seat"] and np.isfinite(w["vs_elsewhere"])
    assert nb.loc[("W", "W"), "vs_elsewhere_sets"] > 0


def test_in_rotations_of_three_a_pair_has_another_seat_one_way_round_only():
    # tables of three seated in rotation keep their order round the table: where e sits
    # directly before a, it does so at every table the two share, and a sits after e, never
    # elsewhere; a before e is a seat apart from the table's third seat
    games = synthetic_games({"a": 1.0, "b": 0.0, "c": -0.5, "d": 0.2, "e": 0.1},
                            players=(3,), deals=8, seed=3)  # fmt: skip
    nb = neighbours(games)
    none = nb["no_other_seat"]
    assert none.any() and not none.all()
    assert (none == (nb["elsewhere_games"] == 0)).all()
    assert nb.loc[none, "vs_elsewhere"].isna().all()


def test_the_chart_greys_the_pairs_with_nothing_to_compare():
    nb = neighbours(gauntlet_rows())
    ax = charts.neighbours(nb).axes[0]
    assert "grey: no other seat to compare" in ax.get_title()
    order = list(dict.fromkeys(nb["strategy"]))
    grey = ~np.ma.getmaskarray(ax.images[1].get_array())
    want = np.zeros_like(grey)
    for s in ("B", "C"):
        want[order.index(s), order.index("W")] = True
    assert (grey == want).all()


def test_the_neighbours_lead_says_which_pairs_have_nothing_to_compare_and_why(tmp_path):
    tables, method = reports.compute_tables(gauntlet_run(tmp_path / "run"))
    lead = next(s.lead for s in sections(tables, method, default_declaration())
                if s.title.startswith("Neighbours"))  # fmt: skip
    assert "the colour and the figure are the seat effect" in lead
    said = lead.split("No seat effect for ", 1)[1]
    assert {"B after W", "C after W"} <= {p.strip() for p in said.split(" (grey")[0].split(" and ")}
    assert "no other seat to compare" in said


def _by_set(df: pd.DataFrame) -> dict:
    """(strategy, other, table, deal) -> [games after other, wins, games with other at the
    table but no copy of it directly before, wins], counted by hand."""
    out: dict = {}
    for row in df.itertuples(index=False):
        n = row.n_players
        for s in range(n):
            me, prev = getattr(row, f"seat_{s}"), getattr(row, f"seat_{(s - 1) % n}")
            won = int(row.winner_seat == s)
            c = out.setdefault((me, prev, row.table, row.deal), [0, 0, 0, 0])
            c[0] += 1
            c[1] += won
            for other in {getattr(row, f"seat_{(s - b) % n}") for b in range(2, n)} - {prev}:
                c = out.setdefault((me, other, row.table, row.deal), [0, 0, 0, 0])
                c[2] += 1
                c[3] += won
    return out


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_set_that_compares_a_game_with_itself_is_left_out(seed):
    # tables of five seat a strategy twice: a set where a copy of it sits directly before in
    # every game has no game with it only elsewhere, and measures nothing
    df = synthetic_games({"a": 0.5, "b": 0.0, "c": -0.5, "d": 0.2}, players=(3, 4, 5),
                         deals=3, seed=seed)  # fmt: skip
    t = neighbours(df).set_index(["strategy", "before"])
    by_set = _by_set(df[df["forfeit"] < 0])
    left_out = 0
    for (me, other), r in t.iterrows():
        cells = [c for (a, b, *_), c in by_set.items() if (a, b) == (me, other)]
        both = [c for c in cells if c[0] and c[2]]
        left_out += sum(1 for c in cells if c[0] and not c[2])
        assert bool(r["no_other_seat"]) == (sum(c[2] for c in cells) == 0)
        if not both:
            assert np.isnan(r["vs_elsewhere"]) and r["vs_elsewhere_sets"] == 0
            continue
        diff = [c[1] / c[0] - c[3] / c[2] for c in both]
        assert r["vs_elsewhere"] == pytest.approx(np.average(diff, weights=[c[0] for c in both]))
        assert r["vs_elsewhere_sets"] == len(both)
    assert left_out  # the case in point is there
