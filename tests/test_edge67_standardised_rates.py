"""The two rates beside a paired margin are the ones a reader can check: B's rate there is at
A's weights (each duplicate set's rate of B weighing as A's seats there, so that A's less B's
is the margin), and where that reads otherwise than B's own rate at those tables, its wins over
its seats, the sentence and the significance table say both."""

from __future__ import annotations

import glob
import re
import shlex

import numpy as np
import pandas as pd
import pytest

import reports
from reports.data import default_declaration
from reports.findings_best import best_finding
from reports.numbers import pct
from reports.page import Section, render_html, render_md
from reports.significance import RATE_B
from tests.helpers import cli
from tests.test_significance import games

D = default_declaration()


def two_tables(deals: int = 12) -> pd.DataFrame:
    """A holds two seats at {A, A, B, C}, B one; B holds two at {A, B, B, C}, A one. A wins
    the first table's games but on every sixth deal (C's), B the second's but on every fourth
    (C's). Counted by hand: A 10 wins of 36 seats (27.8%), B 9 of 36 (25.0%), C 5 of 24; B at
    A's weights: its 0.5 a set at the second table, A's one seat there, 9 x 0.5 over A's 36
    seats = 12.5%; A at B's weights, likewise, 10 x 0.5 / 36 = 13.9%."""
    rows = []
    for d in range(deals):
        rows.append((("A", "A", "B", "C"), 3 if d % 6 == 0 else 0, d))
        rows.append((("A", "B", "B", "C"), 3 if d % 4 == 0 else 1, d))
    return games(rows)


A_OWN, B_OWN, B_AT_A, A_AT_B = 10 / 36, 9 / 36, 4.5 / 36, 5 / 36


@pytest.fixture(scope="module")
def made():
    return reports.compute_tables(two_tables(), top=3)


def test_the_table_gives_b_at_as_weights_and_b_own_rate(made):
    tables, _ = made
    row = tables["significance"].set_index(["a", "b"]).loc[("A", "B")]
    assert row["win_rate_a"] == pytest.approx(A_OWN)
    assert row["win_rate_b"] == pytest.approx(B_AT_A)
    assert row["win_rate_b_own"] == pytest.approx(B_OWN)
    assert row["diff"] == pytest.approx(A_OWN - B_AT_A)  # the margin is A's less B's at A's
    summ = tables["summary"].set_index("strategy")["win_rate"]
    assert summ["A"] == pytest.approx(A_OWN) and summ["B"] == pytest.approx(B_OWN)


def test_the_margin_names_bs_own_rate_beside_its_rate_at_as_weights(made):
    tables, method = made
    (found,) = best_finding(tables, method, D)
    assert tables["summary"]["strategy"].tolist()[:2] == ["A", "B"]
    clause = "; there A won 27.8% and B 12.5% weighted by A's seats, 25.0% of its own seats)"
    assert clause in found.text, found.text
    assert found.text.startswith("A is the best strategy")


def test_turned_round_the_leader_is_the_one_at_the_others_weights(made):
    # a table listing B first: A's rate there is at B's weights, and the sentence says so
    tables, method = made
    g = two_tables()
    flipped = {**tables, "significance": reports.significance(g, top=3, order=["B", "A", "C"])}
    (found,) = best_finding(flipped, method, D)
    said = (f"; there A won {pct(A_AT_B)} weighted by B's seats, {pct(A_OWN)} of its own seats, "
            f"and B {pct(B_OWN)}): not significant")  # fmt: skip
    assert said in found.text, found.text
    margin = re.search(r"is ([+-][\d.]+) percentage points", found.text)
    assert float(margin[1]) == pytest.approx(100 * (A_AT_B - B_OWN), abs=0.051)


def test_a_runner_up_ahead_where_both_sat_names_its_own_rate_too():
    summ = pd.DataFrame([
        {"strategy": "a", "win_rate": 0.40, "ci_low": 0.35, "ci_high": 0.45, "fair_share": 0.25},
        {"strategy": "b", "win_rate": 0.30, "ci_low": 0.25, "ci_high": 0.35, "fair_share": 0.25},
    ]).assign(relative=lambda t: t["win_rate"] / t["fair_share"])  # fmt: skip
    sig = pd.DataFrame([{"a": "a", "b": "b", "win_rate_a": 0.30, "win_rate_b": 0.36,
                         "win_rate_b_own": 0.34, "diff": -0.06, "ci_low": -0.10,
                         "ci_high": -0.02, "p_value": 0.001, "significant": True}])  # fmt: skip
    (found,) = best_finding({"summary": summ, "significance": sig}, "paired", D)
    said = ("but at the tables both sat at b wins 36.0% weighted by a's seats, 34.0% of its own "
            "seats, against its 30.0% and beats it by 6.0 percentage points")  # fmt: skip
    assert said in found.text, found.text


def one_seat_each(deals: int = 20) -> pd.DataFrame:
    """A and B meet at {A, B, C} only, one seat each, where B wins three deals in four and A
    the fourth; A wins every game at {A, C, D}. Summary: B 75.0%, A 62.5%; where both sat B
    75.0%, A 25.0%, at either's weights."""
    rows = []
    for d in range(deals):
        rows.append((("A", "B", "C"), 0 if d % 4 == 0 else 1, d))
        rows.append((("A", "C", "D"), 0, d))
    return games(rows)


def test_where_b_sits_as_often_as_a_the_clause_is_unchanged():
    tables, method = reports.compute_tables(one_seat_each(), top=4)
    row = tables["significance"].set_index(["a", "b"]).loc[("B", "A")]
    assert row["win_rate_b"] == pytest.approx(0.25) and row["win_rate_b_own"] == pytest.approx(0.25)
    (found,) = best_finding(tables, method, D)
    assert "; there B won 75.0% and A 25.0%)" in found.text, found.text
    assert "weighted by" not in found.text and "of its own seats" not in found.text


def test_a_table_without_bs_own_rate_keeps_the_clause_as_it_was(made):
    tables, method = made
    old = {**tables, "significance": tables["significance"].drop(columns="win_rate_b_own")}
    (found,) = best_finding(old, method, D)
    assert "; there A won 27.8% and B 12.5%)" in found.text, found.text


def test_the_page_says_what_win_rate_b_is(made):
    tables, _ = made
    sig = tables["significance"]
    note = RATE_B.format(unit="duplicate set")
    assert "weighted by a's seats" in note and "win_rate_b_own" in note
    page = render_html("t", [], [Section("Differences", tables=[("significance", sig)])], {})
    assert f"significance ({note})".replace("'", "&#x27;") in page
    md = render_md("t", [], [Section("Differences", tables=[("significance", sig)])], {})
    assert f"`significance` ({note})" in md


def test_an_unpaired_table_says_each_game():
    sig = reports.significance(two_tables().drop(columns="deal"), top=3)
    assert sig.attrs["measured"] == RATE_B.format(unit="game")
    row = sig.set_index(["a", "b"]).loc[("A", "B")]
    assert row["win_rate_b_own"] == pytest.approx(B_OWN)
    assert row["win_rate_b"] == pytest.approx(B_AT_A)


# --- the command a reader runs ---------------------------------------------------------------


def _counted(out) -> tuple[float, float, float]:
    """From the run's rows alone: high's rate and low's at the games both sat in, wins over
    seats, and low's with each duplicate set (a deal at a table) weighing as high's seats."""
    files = sorted(glob.glob(str(out / "games" / "**" / "*.parquet"), recursive=True))
    df = pd.concat([pd.read_parquet(f) for f in files], ignore_index=True)
    seats = df[[f"seat_{s}" for s in range(6)]].to_numpy()
    won = seats[np.arange(len(df)), df["winner_seat"].clip(lower=0)]
    won = np.where(df["winner_seat"] >= 0, won, None)
    df["n_high"], df["n_low"] = (seats == "high").sum(1), (seats == "low").sum(1)
    df["w_high"], df["w_low"] = won == "high", won == "low"
    both = df[(df["n_high"] > 0) & (df["n_low"] > 0) & ~df["forfeit"]]
    sets = both.groupby(["table", "deal"])[["n_high", "n_low", "w_high", "w_low"]].sum()
    high = sets["w_high"].sum() / sets["n_high"].sum()
    low_own = sets["w_low"].sum() / sets["n_low"].sum()
    low_at_high = (sets["n_high"] * sets["w_low"] / sets["n_low"]).sum() / sets["n_high"].sum()
    return high, low_own, low_at_high


COMMAND = "tournament greedy low high --expert --players 4 --games 1000 --seed 1 --jobs 1"
"""A run of tables of four from three strategies: high and low share tables where each holds
one, two or three seats, so low's rate at high's weights and its own there read apart."""


def test_the_expert_run_names_lows_own_rate_at_the_tables_both_sat_at(tmp_path, capsys):
    out = tmp_path / "expert"
    code, _, err = cli(capsys, *shlex.split(COMMAND), "--out", str(out))
    assert code == 0, err
    high, low_own, low_at_high = _counted(out)
    assert pct(low_own) != pct(low_at_high)  # the run the sentence must tell apart
    found = [" ".join(f.text.split()) for f in reports.Report(reports.load_run(out)).findings]
    best = next(f for f in found if "its margin over low" in f or "runner-up, low" in f)
    said = (f"there high won {pct(high)} and low {pct(low_at_high)} weighted by high's seats, "
            f"{pct(low_own)} of its own seats)")  # fmt: skip
    assert said in best, best
    margin = re.search(r"is ([+-][\d.]+) percentage points", best)
    assert margin and float(margin[1]) == pytest.approx(100 * (high - low_at_high), abs=0.051)
