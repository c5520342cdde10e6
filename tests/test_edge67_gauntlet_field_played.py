"""A gauntlet's answer names its field as its tables seat it, its report gives the field's win
rate at each side's tables, and its table says how the strategy and the baseline are paired.

Two field strategies over three seats fill them 2:1 (the field sorted by label, repeated in
turn): the answer said "a field of greedy and taker" of tables of greedy, greedy and taker.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import reports
from reports.clusters import clustered_rate, duplicate_sets
from reports.data import Run
from reports.gauntlet import PAIRED_BY_DEAL, field_sentence, field_words
from reports.loading import as_games, games_from_frame
from reports.significance import PAIRED
from tournaments import Gauntlet

ROOT = Path(__file__).resolve().parents[1]
NUMBER = {1: "one", 2: "two", 3: "three", 4: "four"}


def _played(tables: list[tuple[str, ...]], seats: int) -> str:
    """The words for the field the tables seat, counted from them (the test's own rule)."""
    if len(tables) > 1:  # one table per combination of the field
        names = sorted({n for t in tables for n in t})
        listed = ", ".join(names[:-1]) + f" and {names[-1]}"
        return f"every combination of {NUMBER[seats]} of {listed}"
    count = Counter(tables[0])
    if len(count) == 1:
        return f"{NUMBER[seats]} {tables[0][0]}"
    mixed = max(count.values()) > 1  # a mix repeated to fill the seats: say how many of each
    parts = [f"{NUMBER[n]} {name}" if mixed else name for name, n in sorted(count.items())]
    return "a field of " + ", ".join(parts[:-1]) + f" and {parts[-1]}"


def _field_tables(g: Gauntlet) -> list[tuple[str, ...]]:
    """The field part of the strategy's tables, as labels in seat order of the design."""
    half = len(g.tables) // 2
    return [tuple(g.labels[e] for e in t[1:]) for t in g.tables[:half]]


@pytest.mark.parametrize(
    ("field", "players"),
    [(["taker", "greedy"], 4), (["greedy", "taker"], 4), (["taker", "greedy"], 6),
     (["taker"], 4), (["taker", "low", "greedy"], 4), (["taker", "low", "greedy"], 3),
     (["taker", "low", "greedy", "high"], 4)],
)  # fmt: skip
def test_the_field_is_named_as_its_tables_seat_it(field, players):
    g = Gauntlet("counter", field, baseline="weighted", players=players, games=8, seed=0)
    tables = _field_tables(g)
    words = field_words(g.gauntlet["field"], players)
    assert words == _played(tables, players - 1)


def test_two_field_strategies_over_three_seats_are_two_and_one():
    g = Gauntlet("counter", ["taker", "greedy"], baseline="weighted", players=4, games=8, seed=0)
    assert _field_tables(g) == [("greedy", "taker", "greedy")]
    assert field_words(g.gauntlet["field"], 4) == "a field of two greedy and one taker"


def test_the_docs_state_the_rule_the_code_applies():
    """docs/tournaments.md: "`--against taker,greedy` over three seats is greedy, taker,
    greedy, which the answer says as "a field of two greedy and one taker"."""
    page = " ".join((ROOT / "docs" / "tournaments.md").read_text(encoding="utf-8").split())
    said = re.search(r"`--against ([\w,]+)` over three seats is ([\w, ]+?), which the answer "
                     r'says as "([^"]+)"', page)  # fmt: skip
    assert said, "the docs no longer state the field's rule"
    assert "a,b,a" not in page
    given, seated, words = said[1].split(","), said[2].split(", "), said[3]
    g = Gauntlet("counter", given, baseline="weighted", players=4, games=8, seed=0)
    assert _field_tables(g) == [tuple(seated)]
    assert field_words(g.gauntlet["field"], 4) == words


# ------------------------------------------------------------------ a hand-made gauntlet
# Per deal, who wins each of the 4 rotated seatings (X: the side, F, G: the field, F in one
# seat, G in two). At C's tables a cycle of 4 deals: C wins 4 of 16 games, the field 12 of its
# 48 seats (25%); at B's a cycle of 3 deals: B wins 2 of 12, the field 10 of its 36 seats
# (5/18). The field's rate varies from deal to deal (a deal C wins every game of).
AT_C = ["FFGG", "XXXX", "FFGG", "FGGG"]
AT_B = ["FGGG", "XXGG", "GGGG"]


def _hand_made(deals: int = 60) -> pd.DataFrame:
    """Games of strategy C and baseline B against F, G, G on the same deals (one deal stream,
    ``table`` 0), each deal under the four rotations of its seats."""
    rows = []
    for side, patterns in (("C", AT_C), ("B", AT_B)):
        lineup = [side, "F", "G", "G"]
        for d in range(deals):
            for r, won in enumerate(patterns[d % len(patterns)]):
                seats = lineup[r:] + lineup[:r]
                who = side if won == "X" else won
                winner = seats.index(who) if who != "G" else [i for i, s in enumerate(seats)
                                                              if s == "G"][r % 2]  # fmt: skip
                row = {"n_players": 4, "first_player": 0, "winner_seat": winner, "turns": 40,
                       "rounds": 5, "deal": d, "table": 0, "unfinished": False}  # fmt: skip
                row.update({f"seat_{s}": seats[s] for s in range(4)})
                row.update({f"cards_left_{s}": 0 if s == winner else 3 for s in range(4)})
                rows.append(row)
    df = pd.DataFrame(rows)
    df.insert(0, "game", np.arange(len(df)))
    return df


def _run(df: pd.DataFrame) -> Run:
    spec = {"gauntlet": {"strategy": "C", "baseline": "B", "field": ["F", "G"]}}
    return Run(games=games_from_frame(df), manifest={"spec": spec})


def _field_seats(df: pd.DataFrame, side: str) -> tuple[np.ndarray, np.ndarray]:
    """(won, deal) per field seat at ``side``'s tables, counted from the rows."""
    seats = df[[f"seat_{s}" for s in range(4)]].to_numpy()
    at = (seats == side).any(axis=1)
    won, deal = [], []
    for s in range(4):
        field = at & np.isin(seats[:, s], ["F", "G"])
        won.append((df["winner_seat"].to_numpy() == s)[field])
        deal.append(df["deal"].to_numpy()[field])
    return np.concatenate(won).astype(float), np.concatenate(deal)


def test_the_hand_made_gauntlet_has_its_truth():
    df = _hand_made()
    for side, rate in (("C", 0.25), ("B", 5 / 18)):
        won, _ = _field_seats(df, side)
        assert won.mean() == pytest.approx(rate)
    summ = reports.summary(df).set_index("strategy")
    assert summ.loc["C", "win_rate"] == pytest.approx(0.25)
    assert summ.loc["B", "win_rate"] == pytest.approx(2 / 12)


def test_the_fields_rate_at_each_sides_tables_has_the_deal_as_its_unit():
    df = _hand_made()
    row = reports.gauntlet(_run(df)).iloc[0]
    assert row["field_win_rate"] == pytest.approx(0.25)
    assert row["baseline_field_win_rate"] == pytest.approx(5 / 18)
    for key, side in (("field", "C"), ("baseline_field", "B")):
        won, deal = _field_seats(df, side)
        lo, hi = clustered_rate(won, deal)  # the deal the unit: its seats are one cluster
        assert (row[f"{key}_ci_low"], row[f"{key}_ci_high"]) == pytest.approx((lo, hi))
        per_seat = clustered_rate(won, np.arange(won.size))  # each seat its own unit
        assert abs((hi - lo) / (per_seat[1] - per_seat[0]) - 1) > 0.1  # the unit tells
        assert lo < row[f"{key}_win_rate"] < hi


def test_the_fields_rates_in_words():
    table = reports.gauntlet(_run(_hand_made()))
    r = table.iloc[0]
    iv = [f"[{100 * r[f'{k}_ci_low']:.1f}, {100 * r[f'{k}_ci_high']:.1f}]"
          for k in ("field", "baseline_field")]  # fmt: skip
    assert field_sentence(table) == (
        f"At C's tables the field wins 25.0% {iv[0]} of its seats, 27.8% {iv[1]} at B's; the "
        "summary's rate of a field strategy pools the two sides."
    )
    assert field_sentence(table.drop(columns=["field_win_rate"])) == ""


def test_the_table_says_it_pairs_by_deal_across_the_two_copies():
    """Each deal the strategy and the baseline are paired over holds two duplicate sets, one
    at each side's copy of the table: the pairing is by deal, never within one set."""
    run = _run(_hand_made())
    row = reports.gauntlet(run).iloc[0]
    assert row["method"] == PAIRED_BY_DEAL != PAIRED
    assert "duplicate set" not in row["method"] and "copy" in row["method"]
    sets, cluster_of_set = duplicate_sets(as_games(run.games))
    assert row["deals"] == 60 and np.bincount(cluster_of_set).tolist() == [2] * 60
    assert sets.max() + 1 == 120


# ------------------------------------------------------------------ the real command
@pytest.fixture(scope="module")
def real_run(tmp_path_factory) -> tuple[Path, str]:
    """`leaves gauntlet counter --against taker,greedy --players 4 --games 2000`, and its
    output."""
    out = tmp_path_factory.mktemp("gauntlet") / "g"
    env = {**os.environ, "COLUMNS": "200"}
    env.pop("NUMBA_DISABLE_JIT", None)  # the games are played compiled, as the command does
    args = ["gauntlet", "counter", "--against", "taker,greedy", "--players", "4", "--games",
            "2000", "--out", str(out), "--jobs", "1"]  # fmt: skip
    code = "import sys; from leaves_cli import main; sys.argv = ['leaves', *sys.argv[1:]]; main()"
    done = subprocess.run([sys.executable, "-c", code, *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=600)  # fmt: skip
    assert done.returncode == 0, done.stderr
    return out, done.stdout


def test_the_command_names_the_field_its_games_seated(real_run):
    out, said = real_run
    g = as_games(out)
    me = g.labels.index("counter")
    at = (g.seats == me).any(axis=1)
    seated = {tuple(sorted(g.labels[e] for e in row if e not in (me, -1))) for row in g.seats[at]}
    assert seated == {("greedy", "greedy", "taker")}  # every table: 2:1
    assert "games against a field of two greedy and one taker; weighted" in said.splitlines()[0]


def test_the_commands_report_gives_the_fields_rate_at_each_side(real_run):
    out, _ = real_run
    g = as_games(out)
    row = reports.gauntlet(out).iloc[0]
    won = g.wins()
    for key, side in (("field", "counter"), ("baseline_field", "weighted")):
        code = g.labels.index(side)
        at = (g.seats == code).any(axis=1)
        field = at[:, None] & (g.seats >= 0) & (g.seats != code)
        rate = won[field].sum() / field.sum()
        assert row[f"{key}_win_rate"] == pytest.approx(rate)
        assert row[f"{key}_ci_low"] < rate < row[f"{key}_ci_high"]
    assert row["field_win_rate"] != pytest.approx(row["baseline_field_win_rate"], abs=0.01)
    assert row["method"] == PAIRED_BY_DEAL


def test_the_docs_name_the_columns_and_the_pooling_they_state():
    """docs/tournaments.md: "(`field_win_rate`, `field_ci_low`, `field_ci_high` at SPEC's
    tables, `baseline_field_*` at the baseline's): the summary's rate of a field strategy
    pools its games at both sides' tables"."""
    page = " ".join((ROOT / "docs" / "tournaments.md").read_text(encoding="utf-8").split())
    said = re.search(r"\(((?:`field_\w+`, )+)`field_(\w+)` at SPEC's tables, "
                     r"`baseline_field_\*` at the baseline's\): the summary's rate of a field "
                     r"strategy pools its games at both sides' tables", page)  # fmt: skip
    assert said, "the docs no longer name the field's columns"
    named = re.findall(r"`(field_\w+)`", said[0])
    df = _hand_made()
    row = reports.gauntlet(_run(df)).iloc[0]
    for col in named:
        assert col in row and f"baseline_{col}" in row
    seats = df[[f"seat_{s}" for s in range(4)]].to_numpy()
    f_seat = seats == "F"
    f_won = f_seat & (df["winner_seat"].to_numpy()[:, None] == np.arange(4))
    at_c = (seats == "C").any(axis=1)[:, None]
    at_c_rate = f_won[at_c[:, 0]].sum() / f_seat[at_c[:, 0]].sum()
    at_b_rate = f_won[~at_c[:, 0]].sum() / f_seat[~at_c[:, 0]].sum()
    assert at_c_rate != pytest.approx(at_b_rate)
    pooled = reports.summary(df).set_index("strategy").loc["F", "win_rate"]
    assert pooled == pytest.approx(f_won.sum() / f_seat.sum())
    assert pooled == pytest.approx((at_c_rate + at_b_rate) / 2)  # as many F seats a side
