"""``reports.significance`` on a run small enough to count by hand: one 3-seat table of a, b
and c, seven deals each played under the three rotations. Per duplicate set the difference
of two strategies' win rates is listed below; the mean, its standard error (the sample sd over
the square root of the sets), the t interval with sets - 1 degrees of freedom, the p-value and
Holm's correction are the textbook formulas, the quantiles scipy's."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from reports.significance import PAIRED, UNPAIRED, method, paired, significance

from .test_boundaries_clusters import games

ROTATIONS = [(0, 1, 2), (1, 2, 0), (2, 0, 1)]
# the winning entrant of each of the 3 games of each deal (0 = a, 1 = b, 2 = c)
WINNERS = [(0, 0, 1), (0, 1, 2), (0, 0, 0), (1, 2, 0), (0, 2, 2), (1, 1, 0), (0, 0, 2)]
WINS = np.array([[w.count(e) for e in range(3)] for w in WINNERS])  # per deal: a, b, c


def run(winners=WINNERS, deals=None):
    seats, winner, deal = [], [], []
    for d, ws in enumerate(winners):
        for seating, w in zip(ROTATIONS, ws, strict=True):
            seats.append(seating)
            winner.append(seating.index(w))
            deal.append(d)
    return games(seats, winner, deal=deal if deals is None else deals, table=[0] * len(seats))


def holm(p: list[float]) -> list[float]:
    """Holm's step-down adjustment, from its definition."""
    order = sorted(range(len(p)), key=lambda i: p[i])
    out, running = [0.0] * len(p), 0.0
    for rank, i in enumerate(order):
        running = max(running, (len(p) - rank) * p[i])
        out[i] = min(1.0, running)
    return out


def expected(a: int, b: int) -> dict[str, float]:
    d = (WINS[:, a] - WINS[:, b]) / 3.0
    n = d.size
    mean, se = d.mean(), d.std(ddof=1) / math.sqrt(n)
    t = mean / se
    half = stats.t.ppf(0.975, n - 1) * se
    return {"units": n, "df": n - 1.0, "win_rate_a": WINS[:, a].sum() / (3 * n),
            "win_rate_b": WINS[:, b].sum() / (3 * n), "diff": mean, "se": se,
            "ci_low": mean - half, "ci_high": mean + half, "t": t,
            "p_value": 2 * stats.t.sf(abs(t), n - 1)}  # fmt: skip


def test_the_winners_are_counted_right():
    assert WINS[:, 0].sum() == 11 and WINS[:, 1].sum() == 5 and WINS[:, 2].sum() == 5


@pytest.mark.parametrize("a, b", [(0, 1), (0, 2), (1, 2), (1, 0)])
def test_a_pair_by_hand(a, b):
    from reports.clusters import seat_sums

    g = run()
    got = paired(g, seat_sums(g, 4), a, b)
    want = expected(a, b)
    assert got.keys() == want.keys()
    for key, value in want.items():
        assert got[key] == pytest.approx(value, rel=1e-10, abs=1e-14), key
    assert isinstance(got["units"], int) and got["units"] == 7


def test_the_table_of_pairs_and_holm():
    table = significance(run(), top=3, order=["a", "b", "c"])
    assert list(zip(table["a"], table["b"], strict=True)) == [("a", "b"), ("a", "c"), ("b", "c")]
    assert (table["method"] == PAIRED).all()
    p = [expected(0, 1)["p_value"], expected(0, 2)["p_value"], expected(1, 2)["p_value"]]
    np.testing.assert_allclose(table["p_value"], p, rtol=1e-10)
    np.testing.assert_allclose(table["p_holm"], holm(p), rtol=1e-10)
    assert list(table["significant"]) == [h < 0.05 for h in holm(p)]
    loose = significance(run(), top=3, alpha=0.9, order=["a", "b", "c"])
    assert list(loose["significant"]) == [h < 0.9 for h in holm(p)]
    assert list(loose["better"]) == [("a" if e["diff"] > 0 else "b") if h < 0.9 else ""
                                     for e, h in zip([expected(0, 1), expected(0, 2),
                                                      expected(1, 2)], holm(p), strict=True)]  # fmt: skip


def test_top_cuts_the_order():
    table = significance(run(), top=2, order=["c", "a", "b"])
    assert list(zip(table["a"], table["b"], strict=True)) == [("c", "a")]
    assert table["diff"][0] == pytest.approx(expected(2, 0)["diff"])
    with pytest.raises(ValueError, match="^top must be at least 2 "):
        significance(run(), top=1, order=["a", "b"])  # one strategy makes no pair


def test_a_loser_significantly_behind_names_the_other_as_better():
    # c never wins and a wins one to three games a deal: c - a is negative, with a spread
    winners = [(0, 0, 1), (0, 1, 1), (0, 0, 0), (1, 1, 0), (0, 0, 1), (1, 0, 0), (0, 0, 0)]
    table = significance(run(winners), top=3, order=["c", "a", "b"], alpha=0.5)
    row = table[(table["a"] == "c") & (table["b"] == "a")].iloc[0]
    assert row["diff"] < 0 and row["significant"] and row["better"] == "a"


def test_no_spread_and_pairs_that_never_met():
    # a wins exactly one game of every deal, b one, c one: every difference is 0 with no spread
    flat = [(0, 1, 2)] * 7
    table = significance(run(flat), top=3, order=["a", "b", "c"], alpha=1.0)
    assert (table["diff"] == 0).all() and (table["se"] == 0).all() and table["t"].isna().all()
    assert (table["p_value"] == 1.0).all() and not table["significant"].any()
    assert (table["better"] == "").all()
    # d sits at another table with a and b: it never meets c
    g = games([(0, 1, 2), (0, 1, 3)], [0, 0], deal=[0, 0], table=[0, 1])
    from reports.clusters import seat_sums

    sums = seat_sums(g, 4)
    assert paired(g, sums, 2, 3) is None and paired(g, sums, 0, 3) is not None
    t = significance(g, top=4, order=["a", "b", "c", "d"])
    assert ("c", "d") not in set(zip(t["a"], t["b"], strict=True)) and len(t) == 5


def test_the_method_in_words():
    assert method(run()) == PAIRED
    assert method(games([(0, 1, 2)], [0])) == UNPAIRED  # no deal column
    empty = games(np.zeros((0, 3), np.int16), [], deal=[], table=[])
    assert method(empty) == UNPAIRED


def test_the_defaults_five_strategies_and_five_percent():
    # tables {a, b, c} and {d, e, f}, nine deals each under the rotations; the first seat's
    # strategy of each table (a, d) wins every game: a - b and d - e have no spread, and the
    # sign test's p = 2 * 0.5**9, significant after Holm over the four pairs
    seats, winner, deal, table = [], [], [], []
    for t, (x, y, z) in enumerate(((0, 1, 2), (3, 4, 5))):
        for d in range(9):
            for seating in ((x, y, z), (y, z, x), (z, x, y)):
                seats.append(seating)
                winner.append(seating.index(x))
                deal.append(d)
                table.append(t)
    g = games(seats, winner, deal=deal, table=table, labels="abcdef")
    order = list("abcdef")
    table5 = significance(g, order=order)  # top 5: a..e; d and e met, f is left out
    assert list(zip(table5["a"], table5["b"], strict=True)) == [("a", "b"), ("a", "c"), ("b", "c"),
                                                                ("d", "e")]  # fmt: skip
    assert list(table5["significant"]) == [True, True, False, True]
    assert list(table5["better"]) == ["a", "a", "", "d"]
    assert len(significance(g, top=6, order=order)) == 6
    assert len(significance(g, top=4, order=order)) == 3
