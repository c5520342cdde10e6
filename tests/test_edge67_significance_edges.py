"""Two edges of ``reports.significance`` worked by hand: a pair whose every duplicate set gives
the same nonzero difference has no spread, so no t (NaN, not infinity: the sign test decides
it), and ``top`` below 1 is refused (0 would compare no pair)."""

from __future__ import annotations

import math

import pytest

from reports.significance import significance, top_count

from .test_boundaries_clusters import games


def _a_wins_every_game():
    """Table {a, b, c}, nine deals under the rotations; a wins each game: a - b is +1 with
    no spread in every set."""
    seats, winner, deal = [], [], []
    for d in range(9):
        for seating in ((0, 1, 2), (1, 2, 0), (2, 0, 1)):
            seats.append(seating)
            winner.append(seating.index(0))
            deal.append(d)
    return games(seats, winner, deal=deal, table=[0] * len(seats), labels="abc")


def test_a_difference_with_no_spread_has_no_t_and_the_sign_test_decides_it():
    table = significance(_a_wins_every_game(), top=3, order=["a", "b", "c"])
    row = table[(table["a"] == "a") & (table["b"] == "b")].iloc[0]
    assert row["diff"] == 1.0 and row["se"] == 0.0
    assert math.isnan(row["t"])  # not +inf
    assert row["p_value"] == pytest.approx(2 * 0.5**9) and row["significant"]


@pytest.mark.parametrize("top", [1, 0, -1])
def test_top_below_two_is_refused(top):
    with pytest.raises(ValueError, match=rf"^top must be at least 2 .*, got {top}$"):
        top_count(top)
    assert top_count(2) == 2
