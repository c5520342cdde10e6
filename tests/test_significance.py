"""Paired significance tests pair games of the same table on the same deal (a duplicate set),
never A's tables against B's, nor deal d of one table with deal d of another."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import reports
from reports.significance import PAIRED


def games(rows: list[tuple[tuple[str, ...], int, int]]) -> pd.DataFrame:
    """Games from (seats, winner seat, deal) tuples; every other column is filler."""
    cols: dict[str, list] = {f"seat_{s}": [] for s in range(6)}
    cols.update({f"cards_left_{s}": [] for s in range(6)})
    for key in ("n_players", "first_player", "winner_seat", "turns", "rounds", "deal"):
        cols[key] = []
    for seats, winner, deal in rows:
        for s in range(6):
            cols[f"seat_{s}"].append(seats[s] if s < len(seats) else None)
            cols[f"cards_left_{s}"].append((0 if s == winner else 3) if s < len(seats) else None)
        cols["n_players"].append(len(seats))
        cols["first_player"].append(0)
        cols["winner_seat"].append(winner)
        cols["turns"].append(40)
        cols["rounds"].append(5)
        cols["deal"].append(deal)
    df = pd.DataFrame(cols)
    for s in range(6):
        df[f"cards_left_{s}"] = df[f"cards_left_{s}"].astype("Int16")
    df.insert(0, "game", np.arange(len(df)))
    df["unfinished"] = False
    return df


def three_tables(deals: int = 20) -> pd.DataFrame:
    """A and B meet only at table {A, B, C}, where B wins every even deal and A never does.
    Elsewhere A always wins ({A, C, D}) and B never does ({B, C, D}): pooled over each one's
    tables per deal A looks better, at the table they share B is."""
    rows = []
    for d in range(deals):
        rows.append((("A", "B", "C"), 1 if d % 2 == 0 else 2, d))
        rows.append((("A", "C", "D"), 0, d))
        rows.append((("B", "C", "D"), 1, d))
    return games(rows)


def test_pairs_within_the_table_not_across_tables():
    sig = reports.significance(three_tables(), top=4, order=["A", "B", "C", "D"])
    row = sig.set_index(["a", "b"]).loc[("A", "B")]
    assert row["method"] == PAIRED
    assert row["diff"] == pytest.approx(-0.5)  # pooled per deal over tables it was +0.25
    assert row["win_rate_a"] == 0.0 and row["win_rate_b"] == 0.5
    assert row["units"] == 20
    assert row["better"] == "B"


def test_pairs_only_strategies_that_shared_a_table():
    df = games([(("A", "C", "D"), d % 3, d) for d in range(10)]
               + [(("B", "C", "D"), (d + 1) % 3, d) for d in range(10)])  # fmt: skip
    sig = reports.significance(df, top=4, order=["A", "B", "C", "D"])
    pairs = set(zip(sig["a"], sig["b"], strict=True))
    assert ("A", "B") not in pairs  # never at one table: nothing to pair
    assert {("A", "C"), ("C", "D"), ("B", "C")} <= pairs


def test_deal_numbers_of_different_table_sizes_are_different_deals():
    rows = []
    for d in range(6):  # A wins every 3-player deal, B every 4-player deal with the same index
        rows.append((("A", "B", "C"), 0, d))
        rows.append((("A", "B", "C", "D"), 1, d))
    sig = reports.significance(games(rows), top=4, order=["A", "B", "C", "D"])
    row = sig.set_index(["a", "b"]).loc[("A", "B")]
    assert row["units"] == 12  # six deals at each table
    assert row["diff"] == pytest.approx(0.0)
    # +1 at one table and -1 at the other on every deal: no spread within a table is no
    # certainty about the mean difference, so no interval; the sign test (6 up, 6 down): 1
    assert np.isnan(row["ci_low"]) and np.isnan(row["ci_high"]) and row["p_value"] == 1.0


def test_one_table_is_the_classic_paired_test_by_deal():
    rng = np.random.default_rng(3)
    rows = []
    for d in range(30):
        for seats in (("A", "B", "C"), ("B", "C", "A"), ("C", "A", "B")):
            rows.append((seats, int(rng.integers(3)), d))
    df = games(rows)
    sig = reports.significance(df, top=3, order=["A", "B", "C"]).set_index(["a", "b"])
    won = np.array([seats[w] for seats, w, _ in rows])
    deal = np.array([d for _, _, d in rows])
    per_deal = [((won == "A") & (deal == d)).sum() / 3 - ((won == "B") & (deal == d)).sum() / 3
                for d in range(30)]  # fmt: skip
    assert sig.loc[("A", "B"), "diff"] == pytest.approx(np.mean(per_deal))
    assert sig.loc[("A", "B"), "units"] == 30


@settings(max_examples=25, deadline=None)
@given(st.randoms(use_true_random=False), st.integers(4, 12))
def test_listing_order_of_rows_and_seats_changes_nothing(rnd, deals):
    rng = np.random.default_rng(rnd.randint(0, 2**32 - 1))
    tables = [("A", "B", "C"), ("A", "B", "D"), ("A", "C", "D"), ("B", "C", "D")]
    rows = [
        (tuple(rng.permutation(t)), int(rng.integers(-1, 3)), d)
        for d in range(deals)
        for t in tables
        for _ in range(3)
    ]
    order = ["A", "B", "C", "D"]
    base = reports.significance(games(rows), top=4, order=order)
    shuffled = [rows[i] for i in rng.permutation(len(rows))]
    other = reports.significance(games(shuffled), top=4, order=order)
    cols = ["a", "b", "units", "win_rate_a", "win_rate_b", "diff", "ci_low", "ci_high"]
    pd.testing.assert_frame_equal(base[cols], other[cols], check_exact=False, rtol=1e-9)
    assert (base["units"] == 2 * deals).all()  # every pair shares two tables on every deal


def test_shared_wins_count_for_every_tied_seat():
    """Under a declaration with shared wins, a game both A and B win counts for both: the pairs'
    win rates agree with the summary's, not with a single winner column."""
    from dataclasses import replace

    from reports.data import default_declaration
    from reports.loading import games_from_frame

    rows = []
    for d in range(12):  # A and B tie for the best value on even deals; C wins odd ones
        rows.append((("A", "B", "C"), 0 if d % 2 == 0 else 2, d))
    df = games(rows)
    for d in range(0, 12, 2):
        df.loc[d, "cards_left_1"] = 0  # B has no cards left either: a shared win,
        df.loc[d, "winner_seat"] = -1  # no single winner
    g = games_from_frame(df, replace(default_declaration(), shared_wins=True))
    sig = reports.significance(g, top=3, order=["A", "B", "C"]).set_index(["a", "b"])
    summary = reports.summary(g).set_index("strategy")
    assert sig.loc[("A", "B"), "win_rate_a"] == pytest.approx(summary.loc["A", "win_rate"])
    assert sig.loc[("A", "B"), "win_rate_b"] == pytest.approx(summary.loc["B", "win_rate"])
    assert sig.loc[("A", "B"), "win_rate_b"] == pytest.approx(0.5)  # not 0: its ties are wins
    assert sig.loc[("A", "B"), "diff"] == pytest.approx(0.0)
