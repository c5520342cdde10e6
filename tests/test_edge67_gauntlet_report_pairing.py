"""A gauntlet's report compares a field strategy with a side only at the tables where they met.

A gauntlet deals the strategy's tables and the baseline's the same cards (one deal stream), so
a deal's games at both sides form one cluster. The significance table pairs two strategies
within a duplicate set (one deal at one table, who sits there included): a field strategy's
games at the baseline's tables must not be paired with the strategy's games, while the
gauntlet's own answer still pairs its strategy with its baseline across the two sides.
"""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import reports
from reports.clusters import _table_codes, clusters, duplicate_sets, seat_sums
from reports.data import Games
from reports.loading import as_games
from reports.significance import paired
from reports.student_t import t_sf

ROOT = Path(__file__).resolve().parents[1]

# Per deal, who wins each of the 4 seatings (X: the side, F: the field strategy, G: the other
# field strategy, two seats). At the strategy's tables C and F each win 25% (a cycle of 10
# deals: 8 with one win each, one with two for C, one with two for F), each G seat 25%; at
# the baseline's tables (a cycle of 5 deals) B wins 5%, F 35%, each G seat 30%.
AT_C = ["XFGG"] * 8 + ["XXGG", "FFGG"]
AT_B = ["XFGG", "FFGG", "FGGG", "FFGG", "FGGG"]


def _gauntlet_rows(deals: int = 200) -> pd.DataFrame:
    """Games of a hand-made gauntlet: strategy C and baseline B, each with F, G, G, on the same
    deals (one deal stream, ``table`` 0), each deal under four rotated seatings."""
    cols: dict[str, list] = {k: [] for k in ("n_players", "first_player", "winner_seat", "turns",
                                             "rounds", "deal", "table")}  # fmt: skip
    cols.update({f"seat_{s}": [] for s in range(4)})
    cols.update({f"cards_left_{s}": [] for s in range(4)})
    for side, patterns in (("C", AT_C), ("B", AT_B)):
        lineup = [side, "F", "G", "G"]
        for d in range(deals):
            winners = patterns[d % len(patterns)]
            for r, won in enumerate(winners):
                seats = lineup[r:] + lineup[:r]  # a rotation per game: every seat in turn
                who = side if won == "X" else won
                winner = seats.index(who)
                for s in range(4):
                    cols[f"seat_{s}"].append(seats[s])
                    cols[f"cards_left_{s}"].append(0 if s == winner else 3)
                cols["winner_seat"].append(winner)
                cols["n_players"].append(4)
                cols["first_player"].append(0)
                cols["turns"].append(40)
                cols["rounds"].append(5)
                cols["deal"].append(d)
                cols["table"].append(0)
    df = pd.DataFrame(cols)
    df.insert(0, "game", np.arange(len(df)))
    df["unfinished"] = False
    return df


def _rate(df: pd.DataFrame, label: str, side: str) -> float:
    """``label``'s win rate per seat at ``side``'s tables, counted from the rows themselves."""
    at = (df[[f"seat_{s}" for s in range(4)]] == side).any(axis=1)
    rows = df[at]
    seats = sum((rows[f"seat_{s}"] == label).sum() for s in range(4))
    wins = sum(((rows[f"seat_{s}"] == label) & (rows["winner_seat"] == s)).sum() for s in range(4))
    return wins / seats


def test_the_hand_made_gauntlet_has_the_truth_it_is_built_for():
    df = _gauntlet_rows()
    assert _rate(df, "C", "C") == pytest.approx(0.25) and _rate(df, "F", "C") == pytest.approx(0.25)
    assert _rate(df, "B", "B") == pytest.approx(0.05) and _rate(df, "F", "B") == pytest.approx(0.35)
    summ = reports.summary(df).set_index("strategy")
    assert summ.loc["F", "win_rate"] == pytest.approx(0.30)  # pooled over both sides' tables


def test_a_field_strategy_is_compared_with_the_side_only_at_that_sides_tables():
    df = _gauntlet_rows()
    sig = reports.significance(df, top=4, order=["F", "C", "G", "B"]).set_index(["a", "b"])
    row = sig.loc[("F", "C")]
    assert row["win_rate_a"] == pytest.approx(0.25)  # F at C's tables, not its pooled 30%
    assert row["win_rate_b"] == pytest.approx(0.25)
    assert row["diff"] == pytest.approx(0.0, abs=1e-12)  # pooled per deal it read +5 points
    assert not row["significant"] and row["better"] == ""
    assert row["units"] == 200  # the deals, one set each at C's tables
    cg = sig.loc[("C", "G")]  # each G seat wins 25% at C's tables too (30% at B's)
    assert cg["diff"] == pytest.approx(0.0, abs=1e-12) and not cg["significant"]
    fb = sig.loc[("F", "B")]
    assert fb["win_rate_a"] == pytest.approx(0.35) and fb["diff"] == pytest.approx(0.30)
    pairs = set(sig.index)
    assert ("C", "B") not in pairs  # never at one table: the gauntlet's own table pairs them


def test_two_field_strategies_at_both_sides_count_each_deal_once():
    df = _gauntlet_rows()
    sig = reports.significance(df, top=4, order=["F", "C", "G", "B"]).set_index(["a", "b"])
    row = sig.loc[("F", "G")]
    assert row["units"] == 200 and row["df"] == 199  # a deal's two tables share their cards
    g = as_games(df)
    sets, cluster_of_set = duplicate_sets(g)
    assert sets.max() + 1 == 400 and np.bincount(cluster_of_set).tolist() == [2] * 200


def test_the_gauntlets_own_pairing_still_crosses_the_two_sides():
    g = as_games(_gauntlet_rows())
    c, b = g.labels.index("C"), g.labels.index("B")
    r = paired(g, seat_sums(g, g.n_strategies), c, b)
    assert r is not None and r["units"] == 200
    assert r["win_rate_a"] == pytest.approx(0.25) and r["win_rate_b"] == pytest.approx(0.05)
    assert r["diff"] == pytest.approx(0.20)


def test_tables_dealt_their_own_cards_have_one_set_per_cluster():
    df = _gauntlet_rows()  # each side its own deal stream, as a round-robin deals its tables
    df["table"] = np.where((df[[f"seat_{s}" for s in range(4)]] == "B").any(axis=1), 1, 0)
    g = as_games(df)
    sets, cluster_of_set = duplicate_sets(g)
    assert sets.tolist() == clusters(g).of_game.tolist()
    assert cluster_of_set.tolist() == list(range(400))
    sig = reports.significance(df, top=4, order=["F", "C", "G", "B"]).set_index(["a", "b"])
    assert sig.loc[("F", "C"), "diff"] == pytest.approx(0.0, abs=1e-12)


@pytest.fixture(scope="module")
def real_gauntlet(tmp_path_factory) -> Path:
    """The review's run: taker against three weighted, baseline greedy, 2,000 games a side."""
    out = tmp_path_factory.mktemp("gauntlet") / "g"
    env = {**os.environ, "COLUMNS": "200"}
    env.pop("NUMBA_DISABLE_JIT", None)  # the games are played compiled, as the command does
    args = ["gauntlet", "taker", "--against", "weighted", "--baseline", "greedy", "--players",
            "4", "--games", "2000", "--seed", "1", "--out", str(out), "--jobs", "1"]  # fmt: skip
    code = "import sys; from leaves_cli import main; sys.argv = ['leaves', *sys.argv[1:]]; main()"
    done = subprocess.run([sys.executable, "-c", code, *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=600)  # fmt: skip
    assert done.returncode == 0, done.stderr
    return out


def _at_taker_tables(out: Path) -> tuple[float, float, float, float]:
    """(weighted's rate, taker's rate, their difference's t, its two-sided p) at the tables
    taker sat at, deal by deal, counted from the games themselves."""
    g = as_games(out)
    t, w = g.labels.index("taker"), g.labels.index("weighted")
    side = (g.seats == t).any(axis=1)
    won, seats, deal = g.wins()[side], g.seats[side], g.deal[side]
    per = [np.bincount(deal, weights=x.sum(axis=1)) for x in
           (won & (seats == w), seats == w, won & (seats == t), seats == t)]  # fmt: skip
    diff = per[0] / per[1] - per[2] / per[3]
    stat = diff.mean() / (diff.std(ddof=1) / np.sqrt(diff.size))
    p = float(t_sf(diff.size - 1.0, stat))  # two-sided
    return per[0].sum() / per[1].sum(), per[2].sum() / per[3].sum(), stat, p


def test_the_review_run_compares_weighted_with_taker_at_takers_tables(real_gauntlet):
    sig = reports.significance(real_gauntlet).set_index(["a", "b"])
    row = sig.loc[("weighted", "taker")]
    rate_w, rate_t, stat, p = _at_taker_tables(real_gauntlet)
    summ = reports.summary(real_gauntlet).set_index("strategy")
    assert summ.loc["weighted", "win_rate"] > rate_w + 0.02  # pooled with greedy's tables
    assert row["win_rate_a"] == pytest.approx(rate_w)
    assert row["win_rate_b"] == pytest.approx(rate_t)
    assert row["diff"] == pytest.approx(rate_w - rate_t)
    assert row["t"] == pytest.approx(stat) and row["p_value"] == pytest.approx(p)
    assert row["units"] == 500
    assert ("taker", "greedy") not in sig.index and ("greedy", "taker") not in sig.index
    answer = reports.gauntlet(real_gauntlet).iloc[0]  # the two sides, paired by deal
    assert answer["diff"] == pytest.approx(answer["win_rate"] - answer["baseline_win_rate"])
    assert answer["deals"] == 500


def test_the_docs_figures_of_the_review_run_are_the_runs(real_gauntlet):
    g = as_games(real_gauntlet)
    t, w = g.labels.index("taker"), g.labels.index("weighted")
    rate_w, rate_t, _, _ = _at_taker_tables(real_gauntlet)
    at_greedy = g.select(~(g.seats == t).any(axis=1))
    greedy_side = reports.summary(at_greedy).set_index("strategy").loc["weighted", "win_rate"]
    pooled = reports.summary(g).set_index("strategy").loc["weighted", "win_rate"]
    over_deals = paired(g, seat_sums(g, g.n_strategies), w, t)  # the deal stream, both sides
    said = (f"the table gives weighted {100 * rate_w:.1f}% against taker's {100 * rate_t:.1f}% "
            f"at taker's tables, +{100 * (rate_w - rate_t):.1f} percentage points (the "
            f"summary's {100 * pooled:.1f}% for weighted pools its {100 * greedy_side:.1f}% at "
            "greedy's tables; paired over the deal stream, both sides together, it would read "
            f"+{100 * over_deals['diff']:.1f})")  # fmt: skip
    docs = " ".join((ROOT / "docs" / "reports.md").read_text(encoding="utf-8").split())
    assert said in docs


@pytest.mark.parametrize("labels", [5, 3000])  # the codes mixed into one number, or too many
def test_a_table_code_is_who_sits_there_whatever_the_seating(labels):
    rng = np.random.default_rng(7)
    seats = rng.integers(-1, 3, size=(400, 6)).astype(np.int16) * (labels // 3)
    seats[seats < 0] = -1
    rows = len(seats)
    g = Games(labels=tuple(f"s{i}" for i in range(labels)), seats=seats,
              values=np.zeros_like(seats), n_players=(seats >= 0).sum(axis=1).astype(np.int8),
              first=np.zeros(rows, np.int8), winner=np.zeros(rows, np.int8),
              unfinished=np.zeros(rows, bool), forfeited=np.zeros(rows, bool),
              forfeit_seat=np.full(rows, -1, np.int8))  # fmt: skip
    code = _table_codes(g)
    same = {tuple(sorted(r)) for r in seats.tolist()}
    assert len(set(code.tolist())) == len(same)
    shuffled = np.array([rng.permutation(r) for r in seats])  # another seating of each table
    assert (_table_codes(replace(g, seats=shuffled)) == code).all()
